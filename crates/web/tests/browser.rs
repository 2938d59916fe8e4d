//! The pages end to end in real headless Chromium (Debian's `chromium` and `chromium-driver`):
//! each test starts the app (API and pages merged) on a free port with its own SQLite file, its
//! own chromedriver, clicks through the pages as a player would, and saves a screenshot under
//! `target/screenshots/`.

mod support;

use serde_json::json;
use support::{App, Browser, Driver, browser_available};

/// A desktop window.
const DESKTOP: (u32, u32) = (1280, 900);
/// A phone-sized window.
const PHONE: (u32, u32) = (390, 844);

/// Fills the lobby's form for a 9x9 game of `variant` with a time control (`none`, `fischer`...)
/// and creates it; waits for the game page.
async fn create_in_lobby(
    browser: &Browser,
    app: &App,
    variant: &str,
    time: &str,
    color: &str,
    opponent: &str,
) {
    browser.goto(&app.url("/")).await;
    browser.until("the variants", "document.querySelectorAll('#variant option').length > 5").await;
    browser.select("#variant", variant).await;
    browser.select("#size", "9").await;
    browser.select("#time", time).await;
    browser.select("#color", color).await;
    browser.select("#opponent", opponent).await;
    if opponent == "ai" {
        browser.select("#level", "1").await;
    }
    browser.click("#create-button").await;
    browser.until("the game page", "location.pathname.startsWith('/game/')").await;
    browser.until("the board", "document.querySelector('#board [data-vertex=\"E5\"]') !== null").await;
}

/// A 9x9 game of go between two people, with a new browser window of `size` seated as Black on
/// its page: what most tests start from.
async fn seated_as_black(size: (u32, u32)) -> Seated {
    let app = App::start().await;
    let (id, black, white) = app.pair(json!({ "variant": "go", "size": "9" })).await;
    let driver = Driver::start().await;
    let browser = driver.browser(size.0, size.1).await;
    browser.sit(&app, &id, &black, "black").await;
    Seated { app, driver, browser, id, black, white }
}

/// What [`seated_as_black`] starts: the driver is kept as long as its browser.
struct Seated {
    app: App,
    driver: Driver,
    browser: Browser,
    id: String,
    black: String,
    white: String,
}

/// The first of these points without a stone on the page's board.
async fn empty_point(browser: &Browser, candidates: &[&str]) -> String {
    let script =
        "return arguments[0].find(v => !document.querySelector(`#board [data-stone=\"${v}\"]`)) || null";
    let found = browser.js(script, vec![json!(candidates)]).await;
    found.as_str().expect("a free point among the candidates").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_against_the_ai_is_created_in_the_lobby_and_played_by_clicking() {
    if !browser_available("ai game") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    create_in_lobby(&browser, &app, "go", "none", "black", "ai").await;
    browser.wait_status("your turn").await;
    browser.click_point("E5").await;
    let moves = browser.wait_moves(2).await;
    assert_eq!(moves[0], "E5");
    let second = empty_point(&browser, &["C3", "G7", "C7", "G3"]).await;
    browser.click_point(&second).await;
    let moves = browser.wait_moves(4).await;
    assert_eq!(moves[2], second);
    browser.wait_status("Black to move: your turn").await;
    // the last move is marked, and the lobby lists the game under "my games"
    browser.until("the last-move marker", "document.querySelector('#board .mark.last') !== null").await;
    browser.screenshot("ai-game").await;
    browser.goto(&app.url("/")).await;
    browser.until("my games", "document.querySelector('#mine li.game') !== null").await;
    browser.until("the running game", "document.querySelector('#running li.game') !== null").await;
    browser.screenshot("lobby").await;
    // a rules page draws its diagrams with the board code
    browser.goto(&app.url("/rules/incursion")).await;
    browser
        .until("the diagram", "document.querySelector('figure svg.board .shade.restricted') !== null")
        .await;
    browser.screenshot("rules-incursion").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_each_other_and_both_see_every_move() {
    if !browser_available("two players") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let black = driver.browser(DESKTOP.0, DESKTOP.1).await;
    let white = driver.browser(DESKTOP.0, DESKTOP.1).await;
    create_in_lobby(&black, &app, "go", "fischer", "black", "human").await;
    let invite = black.until("the invitation link", "document.getElementById('invite-link').value").await;
    let invite = invite.as_str().expect("a link").to_string();
    assert!(invite.contains("/game/"), "{invite}");
    white.goto(&invite).await;
    white.click("#join-button").await;
    white.wait_status("Black to move").await;
    black.wait_status("Black to move: your turn").await;
    let plan = ["D4", "F6", "C3", "G7", "E3"];
    for (n, vertex) in plan.iter().enumerate() {
        let (mover, waiter) = if n % 2 == 0 { (&black, &white) } else { (&white, &black) };
        mover.wait_status("your turn").await;
        if n == 3 {
            // the keyboard's way: type the move
            mover.type_into("#move-input", vertex).await;
            mover.click("#move-form button").await;
        } else {
            mover.click_point(vertex).await;
        }
        let seen_by_mover = mover.wait_moves(n + 1).await;
        let seen_by_other = waiter.wait_moves(n + 1).await;
        assert_eq!(seen_by_mover, plan[..=n]);
        assert_eq!(seen_by_other, plan[..=n]);
    }
    white.wait_status("White to move: your turn").await;
    // Fischer clocks: both shown, White's running
    white
        .until("White's running clock", "document.querySelector('[data-clock=white].running') !== null")
        .await;
    assert!(black.text("[data-clock=black]").await.contains(':'), "a clock reads m:ss");
    // typing scrolled White's page down to the field: back to the top for the picture
    black.js("window.scrollTo(0, 0)", vec![]).await;
    white.js("window.scrollTo(0, 0)", vec![]).await;
    black.screenshot("two-players-black").await;
    white.screenshot("two-players-white").await;
    // Black takes E3 back: White is asked and accepts, and both boards lose the move
    black.click("#undo").await;
    white.until("the undo question", "!document.getElementById('undo-answer').hidden").await;
    white.click("#undo-accept").await;
    assert_eq!(black.wait_moves(4).await, plan[..4]);
    assert_eq!(white.wait_moves(4).await, plan[..4]);
    black.wait_status("Black to move: your turn").await;
    black.close().await;
    white.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_move_shows_the_servers_reason_and_the_game_ends_by_counting() {
    if !browser_available("refused move") {
        return;
    }
    let Seated { app, driver: _driver, browser, id, black: black_token, white: white_token } =
        seated_as_black(DESKTOP).await;
    browser.click_point("E5").await;
    browser.wait_moves(1).await;
    // out of turn
    browser.click_point("C3").await;
    browser.wait_text("message", "not your turn").await;
    app.act(&id, &white_token, json!({ "type": "move", "move": "D5" })).await;
    browser.wait_moves(2).await;
    // an occupied point, with the rules' reason
    browser.click_point("D5").await;
    browser.wait_text("message", "D5").await;
    assert_eq!(browser.text("#message").await, "D5 is illegal: point D5 is occupied");
    assert_eq!(browser.moves().await, ["E5", "D5"]);
    browser.screenshot("refused-move").await;
    // Black walls off the columns A-E, White the columns F-J: White's D5 is left dead inside
    // Black's area
    let walls =
        ["E1", "F1", "E2", "F2", "E3", "F3", "E4", "F4", "E6", "F5", "E7", "F6", "E8", "F7", "E9", "F8"];
    for (n, vertex) in walls.iter().enumerate() {
        let token = if n % 2 == 0 { &black_token } else { &white_token };
        app.act(&id, token, json!({ "type": "move", "move": vertex })).await;
    }
    browser.wait_moves(18).await;
    browser.click("#pass").await;
    browser.wait_moves(19).await;
    app.act(&id, &white_token, json!({ "type": "move", "move": "F9" })).await;
    browser.wait_moves(20).await;
    // two passes: the dead-stone phase with the server's proposal
    browser.click("#pass").await;
    browser.wait_moves(21).await;
    app.act(&id, &white_token, json!({ "type": "pass" })).await;
    browser.until("the dead-stone phase", "!document.getElementById('scoring').hidden").await;
    browser.wait_text("scoring-text", "Nobody has accepted").await;
    browser
        .until("the proposal", "!document.getElementById('scoring-text').textContent.includes('proposing')")
        .await;
    // clicking D5 marks it dead, or alive if the proposal had it dead: then once more
    let d5_dead = "document.querySelector('#board [data-stone=\"D5\"]').classList.contains('dead')";
    let was_dead = browser.js(&format!("return {d5_dead}"), vec![]).await.as_bool().unwrap();
    if was_dead {
        browser.click_point("D5").await;
        browser.until("D5 marked alive", &format!("!{d5_dead}")).await;
    }
    browser.click_point("D5").await;
    browser.until("D5 marked dead", d5_dead).await;
    browser.until("the cross on D5", "document.querySelectorAll('#board .mark.dead').length === 1").await;
    // without D5 Black's area is the columns A-E: 45 against White's 36 + 7.5
    browser
        .until("the count without D5", "document.getElementById('score').textContent.includes('Black 45')")
        .await;
    // the territory shaded as the marking counts it: the columns A-D (D5's point included) for
    // Black, G-J for White
    let shaded = "[document.querySelectorAll('#board .shade.territory-black').length, \
                  document.querySelectorAll('#board .shade.territory-white').length]";
    browser.until("the territory", &format!("JSON.stringify({shaded}) === '[36,27]'")).await;
    browser.click("#score-accept").await;
    browser.wait_text("scoring-text", "Accepted by Black").await;
    browser.screenshot("dead-stone-phase").await;
    app.act(&id, &white_token, json!({ "type": "accept_score" })).await;
    browser.wait_status("Game over: Black wins by 1.5 points").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_progress_on_a_phone_shows_status_reason_and_actions_above_the_fold() {
    if !browser_available("phone game") {
        return;
    }
    let Seated { app, driver: _driver, browser, id, black: _, white: white_token } =
        seated_as_black(PHONE).await;
    // a touch screen: the first tap shows the stone to play, the second plays it; the board does
    // not move between the two (the confirmation once pushed it down by more than a grid step)
    let board_top = "return document.getElementById('board').getBoundingClientRect().top";
    let before = browser.js(board_top, vec![]).await;
    browser.click_point("E5").await;
    browser.until("the tapped point", "document.querySelector('#board .mark.pending') !== null").await;
    assert_eq!(browser.text("#confirm-move").await, "Play E5");
    assert_eq!(browser.js(board_top, vec![]).await, before, "the first tap moved the board");
    assert!(browser.moves().await.is_empty(), "one tap does not play");
    browser.js("window.scrollTo(0, 0)", vec![]).await;
    browser.screenshot("phone-tap-to-confirm").await;
    browser.click_point("E5").await;
    browser.wait_moves(1).await;
    app.act(&id, &white_token, json!({ "type": "move", "move": "D5" })).await;
    browser.wait_moves(2).await;
    browser.wait_status("Black to move: your turn").await;
    assert_eq!(browser.js(board_top, vec![]).await, before, "a change of turn moved the board");
    // a refused tap: the reason shows under the status line
    browser.click_point("D5").await;
    browser.wait_text("message", "D5 is illegal").await;
    // seen from the top of the page, without scrolling: the status, the reason, the actions and
    // the point just refused on the board
    browser.js("window.scrollTo(0, 0)", vec![]).await;
    for css in ["#status", "#message", "#pass", "#undo", "#resign", "#board [data-vertex=\"D5\"]"] {
        assert!(browser.in_view(css).await, "{css} is off the phone's screen");
    }
    assert_eq!(overflow(&browser).await, 0, "the page is wider than the screen");
    browser.screenshot("phone-in-progress").await;
    // and the buttons work from there: pass
    browser.click("#pass").await;
    assert_eq!(browser.wait_moves(3).await[2], "pass");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn borderline_shows_its_score_breakdown_changing_after_a_capture() {
    if !browser_available("borderline") {
        return;
    }
    let app = App::start().await;
    let (id, black_token, white_token) = app.pair(json!({ "variant": "borderline" })).await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    browser.sit(&app, &id, &black_token, "black").await;
    browser.until("the score breakdown", "document.getElementById('breakdown') !== null").await;
    browser.until("the zones", "document.querySelector('#board .shade.border') !== null").await;
    // the deployment in the words the server refuses a stone outside the zone with
    browser
        .wait_text(
            "variant-panel",
            "Deployment: Black's first two stones must be in rows 11-19 (4 opening stones to go).",
        )
        .await;
    // deployment in the own zones (Black the top rows), then Black surrounds White's K9
    let black_moves = ["K12", "A19", "J9", "L9", "K8"];
    let white_moves = ["K9", "A1", "T1", "T2", "T3"];
    for (n, (b, w)) in black_moves.iter().zip(white_moves).enumerate() {
        browser.wait_status("your turn").await;
        browser.click_point(b).await;
        browser.wait_moves(2 * n + 1).await;
        app.act(&id, &white_token, json!({ "type": "move", "move": w })).await;
        browser.wait_moves(2 * n + 2).await;
    }
    let stones_left = browser.text("#variant-panel td[data-side=black]").await;
    assert_eq!(stones_left, "115");
    assert!(!browser.text("#variant-panel").await.contains("Deployment"), "the deployment is over");
    let before = browser.text("#breakdown").await;
    browser.wait_status("your turn").await;
    browser.click_point("K10").await;
    browser.wait_moves(11).await;
    browser
        .until(
            "the capture",
            "document.querySelector('.player.black .captures').textContent === 'captures 1'",
        )
        .await;
    let after = browser.text("#breakdown").await;
    assert_ne!(before, after, "the breakdown changes with the capture");
    let loss = browser.text("#breakdown tr[data-term=loss] td[data-side=white]").await;
    assert_eq!(loss, "1", "White lost a stone");
    assert!(
        browser
            .js("return !document.querySelector('#board [data-stone=\"K9\"]')", vec![])
            .await
            .as_bool()
            .unwrap()
    );
    // the breakdown, its loss row included, in view beside the board
    browser.scroll_to("#breakdown").await;
    assert!(browser.in_view("#breakdown tr[data-term=total]").await, "the breakdown is in view");
    browser.screenshot("borderline-capture").await;
    browser.screenshot_of("borderline-score", "section.score").await;
    // the rules page draws a siege and an enclosure on the zones
    browser.goto(&app.url("/rules/borderline")).await;
    browser.until("the siege", "document.querySelector('figure svg.board .mark.besieged') !== null").await;
    browser
        .until(
            "the enclosure",
            "document.querySelectorAll('figure svg.board .shade.enclosed-black').length === 4",
        )
        .await;
    browser.scroll_to("figure[data-marks]").await;
    browser.screenshot("rules-borderline").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_on_a_phone_sized_screen_ends_the_game() {
    if !browser_available("resign") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(PHONE.0, PHONE.1).await;
    // White against the AI: the AI opens, then White resigns
    create_in_lobby(&browser, &app, "go", "none", "white", "ai").await;
    browser.wait_moves(1).await;
    browser.wait_status("White to move: your turn").await;
    browser.click("#resign").await;
    browser.click("#resign-confirm").await;
    browser.wait_status("Black wins by resignation").await;
    assert!(browser.text("#status").await.contains("B+R"));
    // finished: the actions are gone, the replay slider and the SGF link are there
    browser.until("the replay slider", "!document.getElementById('replay').hidden").await;
    assert!(browser.js("return document.getElementById('actions').hidden", vec![]).await.as_bool().unwrap());
    let sgf = browser.js("return document.getElementById('sgf').getAttribute('href')", vec![]).await;
    assert!(sgf.as_str().unwrap().ends_with("/sgf"), "{sgf}");
    // the page fits the phone's width: nothing scrolls sideways
    assert_eq!(overflow(&browser).await, 0, "the page is wider than the screen");
    browser.js("window.scrollTo(0, 0)", vec![]).await;
    browser.screenshot("resign-phone").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incursion_and_excursion_say_when_their_restriction_is_in_force_and_kings_are_drawn() {
    if !browser_available("restrictions") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    // Incursion: Black walls off the columns A-B (column C), White the columns F-G (column E)
    let (id, black_token, white_token) = app.pair(json!({ "variant": "incursion", "size": "7" })).await;
    for row in 1..=7 {
        app.act(&id, &black_token, json!({ "type": "move", "move": format!("C{row}") })).await;
        app.act(&id, &white_token, json!({ "type": "move", "move": format!("E{row}") })).await;
    }
    browser.sit(&app, &id, &black_token, "black").await;
    browser.wait_moves(14).await;
    browser.click_point("D4").await;
    browser.wait_moves(15).await;
    // White's B4 is an incursion into Black's territory: Black may not answer in White's
    app.act(&id, &white_token, json!({ "type": "move", "move": "B4" })).await;
    browser.wait_moves(16).await;
    browser.wait_text("restriction", "Your opponent just made an incursion").await;
    browser
        .until(
            "White's territory shaded",
            "['F1', 'F7', 'G1', 'G7'].every(v => [...document.querySelectorAll('#board .shade.restricted')]\
             .some(r => r.getAttribute('x') === document.querySelector(`#board [data-vertex=\"${v}\"]`).getAttribute('x')\
                 && r.getAttribute('y') === document.querySelector(`#board [data-vertex=\"${v}\"]`).getAttribute('y')))",
        )
        .await;
    let restricted =
        browser.js("return document.querySelectorAll('#board .shade.restricted').length", vec![]).await;
    assert_eq!(restricted.as_i64(), Some(14), "the columns F and G, and nothing else");
    // the server's reason for a shaded point, under the board when the pointer is on it
    browser
        .js(
            "document.querySelector('#board [data-vertex=\"G4\"]').dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))",
            vec![],
        )
        .await;
    browser.wait_text("point-info", "G4").await;
    browser.screenshot("incursion-restriction").await;
    // a quiet answer lifts the restriction
    browser.click_point("D6").await;
    browser.wait_moves(17).await;
    browser.until("the notice to go", "document.getElementById('restriction').hidden").await;

    // Excursion-2: White's first stone lands in Black's territory (the whole board borders only
    // D4) and is a king
    let (id, black_token, white_token) = app.pair(json!({ "variant": "excursion-2", "size": "7" })).await;
    browser.sit(&app, &id, &black_token, "black").await;
    browser.click_point("D4").await;
    browser.wait_moves(1).await;
    app.act(&id, &white_token, json!({ "type": "move", "move": "F6" })).await;
    browser.wait_moves(2).await;
    browser.wait_text("restriction", "Your opponent just placed a king").await;
    browser
        .until("a crowned king", "document.querySelector('#board [data-stone=\"F6\"].king') !== null")
        .await;
    browser.screenshot("excursion-king").await;
    browser.click_point("B2").await;
    browser.wait_moves(3).await;
    browser.until("the notice to go", "document.getElementById('restriction').hidden").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn square_lifeline_plays_pairs_and_the_swap_and_announces_the_last_placement() {
    if !browser_available("lifeline") {
        return;
    }
    let app = App::start().await;
    let (id, first_token, second_token) = app.pair(json!({ "variant": "lifeline", "size": "5" })).await;
    let driver = Driver::start().await;
    let first = driver.browser(DESKTOP.0, DESKTOP.1).await;
    let second = driver.browser(PHONE.0, PHONE.1).await;
    first.sit(&app, &id, &first_token, "black").await;
    second.sit(&app, &id, &second_token, "white").await;
    first.wait_status("Black to move: your first turn, two stones (tap two empty points).").await;
    assert!(
        first.js("return document.getElementById('pass').hidden", vec![]).await.as_bool().unwrap(),
        "no pass"
    );
    // the first stone waits, marked, for the second
    first.click_point("C2").await;
    first.until("the waiting stone", "document.querySelector('#board .mark.pending') !== null").await;
    first.wait_text("message", "C2: now the second stone of your pair").await;
    first.click_point("C4").await;
    assert_eq!(first.wait_moves(1).await, ["C4+C2"]);
    // the second player swaps from the phone: it plays Black's stones from here
    second.wait_status("White to move: your first turn, two stones (tap two empty points), or swap and play Black's stones from here.").await;
    second.click("#swap").await;
    second.wait_moves(2).await;
    second.wait_status("White to move: a first turn, two stones.").await;
    assert!(second.text(".player.black").await.contains("(you)"), "the swapper plays Black");
    second.screenshot("lifeline-swap-phone").await;
    first.wait_status("White to move: your first turn, two stones").await;
    first.click_point("B3").await;
    first.click_point("D3").await;
    first.wait_moves(3).await;
    // Black's C3 joins its two stones into its only group, which dies (two taps on a phone)
    second.wait_status("Black to move: your turn.").await;
    second.click_point("C3").await;
    second.click_point("C3").await;
    second.wait_moves(4).await;
    first.click_point("A1").await;
    first.wait_moves(5).await;
    for browser in [&first, &second] {
        browser.wait_status("Game over: White wins (W+).").await;
    }
    let labels = first
        .js("return [...document.querySelectorAll('#moves li')].map(li => li.textContent)", vec![])
        .await;
    assert_eq!(labels, json!(["1. B C4+C2", "2. W swap", "3. W B3+D3", "4. B C3", "5. W A1"]));
    assert!(
        first.text("#score").await.contains("White wins: Black has no legal placement"),
        "{}",
        first.text("#score").await
    );
    first.screenshot("lifeline-over").await;
    second.screenshot("lifeline-over-phone").await;
    first.close().await;
    second.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn galice_runs_the_pie_setup_then_swaps_and_drops_on_two_boards() {
    if !browser_available("galice") {
        return;
    }
    let app = App::start().await;
    // one browser makes the pie setup, the other chooses
    let (id, setter_token, chooser_token) = app.pair(json!({ "variant": "galice" })).await;
    let driver = Driver::start().await;
    let setter = driver.browser(DESKTOP.0, DESKTOP.1).await;
    // a taller window: the boards, the panel and the move list in one screenshot
    let chooser = driver.browser(DESKTOP.0, 1150).await;
    setter.sit(&app, &id, &setter_token, "black").await;
    chooser.sit(&app, &id, &chooser_token, "white").await;
    setter.wait_text("galice-text", "click either board to place 3 black stones").await;
    chooser.wait_text("galice-text", "Black is placing 3 black stones").await;
    // the move field takes the notation
    assert_eq!(setter.text("#move-label").await, "Type a turn (Galice notation)");
    // three black stones on the left board, two white ones on the right
    for (n, (side, vertex)) in
        [("left", "A1"), ("left", "B2"), ("left", "C3"), ("right", "E5"), ("right", "F6")].iter().enumerate()
    {
        setter.click(&format!("#board-{side} [data-vertex=\"{vertex}\"]")).await;
        setter.wait_moves(n + 1).await;
    }
    assert_eq!(setter.moves().await, ["x a1", "x b2", "x c3", "o E5", "o F6"]);
    setter.wait_text("galice-text", "waiting for White to choose a colour").await;
    // the chooser takes Black: the seats change colours, and White (the setter) drops first
    chooser.wait_text("galice-text", "choose the colour you will play").await;
    chooser.click("#choose-black").await;
    chooser.wait_moves(6).await;
    chooser.wait_text("galice-text", "waiting for White to drop a stone").await;
    setter.wait_status("White to move: your turn").await;
    setter.wait_text("galice-text", "White's first turn: click an empty point").await;
    assert!(setter.text(".player.white").await.contains("(you)"), "the setter plays White now");
    setter.click("#board-left [data-vertex=\"G7\"]").await;
    assert_eq!(setter.wait_moves(7).await[6], "--- g7");
    chooser.wait_moves(7).await;
    chooser.wait_status("Black to move: your turn").await;
    setter.wait_text("galice-text", "Waiting for Black").await;
    // swap a1 to the right board's A1, then drop on D4 there
    chooser.click("#board-left [data-vertex=\"A1\"]").await;
    chooser
        .until("the selected stone", "document.querySelector('#board-left .mark.selected') !== null")
        .await;
    chooser.wait_text("galice-text", "Swap a1 → A1 (the dashed circle on the right board)").await;
    // where the stone lands: its twin point on the right board, marked
    let landing = "(() => { const m = document.querySelector('#board-right .mark.landing'); \
                   const a1 = document.querySelector('#board-right [data-vertex=\"A1\"]'); \
                   return !!m && m.getAttribute('cx') === String(Number(a1.getAttribute('x')) + Number(a1.getAttribute('width')) / 2); })()";
    chooser.until("the landing point marked", landing).await;
    assert!(
        chooser
            .js("return document.querySelector('#board-left .mark.landing') === null", vec![])
            .await
            .as_bool()
            .unwrap(),
        "no landing mark on the board the stone leaves"
    );
    chooser.screenshot("galice-swap-landing").await;
    chooser.click("#board-right [data-vertex=\"D4\"]").await;
    let moves = chooser.wait_moves(8).await;
    assert_eq!(moves[7], "aA1 D4");
    chooser
        .until("the swapped stone", "document.querySelector('#board-right [data-stone=\"A1\"]') !== null")
        .await;
    app.act(&id, &setter_token, json!({ "type": "pass" })).await;
    chooser.wait_moves(9).await;
    // swap b2 without a drop
    chooser.click("#board-left [data-vertex=\"B2\"]").await;
    chooser.click("#no-drop").await;
    let moves = chooser.wait_moves(10).await;
    assert_eq!(moves[9], "bB2 --");
    // the move list names each turn's colour: Black's setup, White's choice and first drop
    let labels = chooser
        .js("return [...document.querySelectorAll('#moves li')].map(li => li.textContent)", vec![])
        .await;
    assert_eq!(
        labels,
        json!([
            "1. B x a1",
            "2. B x b2",
            "3. B x c3",
            "4. B o E5",
            "5. B o F6",
            "6. W choose black",
            "7. W --- g7",
            "8. B aA1 D4",
            "9. W -----",
            "10. B bB2 --"
        ])
    );
    // the two boards share the desktop's width beside the side column
    let width = chooser
        .js("return document.querySelector('#board-left svg').getBoundingClientRect().width", vec![])
        .await;
    assert!(width.as_f64().unwrap() > 400.0, "each Galice board is {width} px wide");
    // the tap-twice checkbox sits beside its words: a box of its own size (the notation field's
    // width once stretched it to 11rem, its box far from the label)
    let checkbox = chooser
        .js("return document.getElementById('confirm-taps').getBoundingClientRect().width", vec![])
        .await;
    assert!(checkbox.as_f64().unwrap() < 30.0, "the tap-twice checkbox is {checkbox} px wide");
    setter.wait_moves(10).await;
    // the move list in view beside the boards
    chooser.scroll_to("#moves").await;
    assert!(chooser.in_view("#moves").await, "the move list is in view");
    chooser.screenshot("galice").await;
    // the setter resigns: the replay slider comes from the server's history of both boards
    app.act(&id, &setter_token, json!({ "type": "resign" })).await;
    chooser.until("the replay slider", "!document.getElementById('replay').hidden").await;
    assert_eq!(chooser.text("#replay-label").await, "move 10 of 10");
    let stones = "['left', 'right'].map((side) => [...document.querySelectorAll(`#board-${side} [data-stone]`)]\
                  .map((g) => g.dataset.stone).sort().join(' ')).join(' | ')";
    let shown = |value: serde_json::Value| value.as_str().unwrap_or_default().to_string();
    assert_eq!(shown(chooser.js(&format!("return {stones}"), vec![]).await), "C3 G7 | A1 B2 D4 E5 F6");
    // two moves back (before "bB2 --" and the pass): b2 is still on the left board
    chooser.click("#replay-back").await;
    chooser.click("#replay-back").await;
    chooser.wait_text("replay-label", "move 8 of 10").await;
    assert_eq!(shown(chooser.js(&format!("return {stones}"), vec![]).await), "B2 C3 G7 | A1 D4 E5 F6");
    // the slider to the start: both boards empty; then to move 7, before the first swap
    let slide = "const s = document.getElementById('replay-slider'); s.value = arguments[0]; \
                 s.dispatchEvent(new Event('input', { bubbles: true }))";
    chooser.js(slide, vec![json!("0")]).await;
    chooser.wait_text("replay-label", "move 0 of 10").await;
    assert_eq!(shown(chooser.js(&format!("return {stones}"), vec![]).await), " | ");
    chooser.js(slide, vec![json!("7")]).await;
    chooser.wait_text("replay-label", "move 7 of 10").await;
    assert_eq!(shown(chooser.js(&format!("return {stones}"), vec![]).await), "A1 B2 C3 G7 | E5 F6");
    // the last move shown is the one at the slider (White's drop on g7)
    chooser
        .until("the last move mark on g7", "document.querySelector('#board-left .mark.last') !== null && document.querySelector('#board-right .mark.last') === null")
        .await;
    chooser.scroll_to("#replay").await;
    chooser.screenshot("galice-replay").await;
    // one notation: the left board's columns are labelled a-g, the right one's A-G, rows from the top
    let labels = "(side) => [...document.querySelectorAll(`${side} text.coord`)].map((t) => t.textContent).slice(0, 16).join('')";
    let left = chooser.js(&format!("return ({labels})('#board-left')"), vec![]).await;
    assert_eq!(left, json!("aabbccddeeffgg11"), "columns twice (top and bottom), then row 1 at the top");
    let right = chooser.js(&format!("return ({labels})('#board-right')"), vec![]).await;
    assert_eq!(right, json!("AABBCCDDEEFFGG11"));
    // and so does the rules page: the swap from c3 to C3, C3 third from the top
    chooser.goto(&app.url("/rules/galice")).await;
    chooser.until("the diagrams", "document.querySelectorAll('figure svg.board').length === 2").await;
    let left = chooser.js(&format!("return ({labels})('figure[data-galice=left]')"), vec![]).await;
    assert_eq!(left, json!("aabbccddeeffgg11"));
    let last_row = "const m = document.querySelector('figure[data-galice=right] .mark.last'); \
                    return [...document.querySelectorAll('figure[data-galice=right] text.coord')] \
                    .find((t) => t.getAttribute('y') === m.getAttribute('cy') && /^\\d+$/.test(t.textContent)).textContent";
    assert_eq!(
        chooser.js(last_row, vec![]).await,
        json!("3"),
        "the stone that arrived is on row 3 from the top"
    );
    chooser.scroll_to("figure[data-galice=right]").await;
    chooser.screenshot("rules-galice").await;
    setter.close().await;
    chooser.close().await;
}

/// Whether the element with this id is shown.
async fn shown(browser: &Browser, id: &str) -> bool {
    let script = "const e = document.getElementById(arguments[0]); return !!e && !e.hidden";
    browser.js(script, vec![json!(id)]).await.as_bool().unwrap_or(false)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_is_seen_thinking_and_a_marking_it_rejects_is_explained() {
    if !browser_available("ai thinking and rejected marking") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    // the strongest level thinks five seconds for its reply; the person moves first, so that the
    // page is open when the AI starts (an AI that opened the game could answer before a slow
    // machine had loaded the page, and the notice was then never seen)
    let (id, token) = app.against_ai(json!({ "variant": "go", "size": "9" }), "black", 10).await;
    browser.sit(&app, &id, &token, "black").await;
    browser.click_point("E5").await;
    browser.until("the thinking notice", "!document.getElementById('thinking').hidden").await;
    assert_eq!(browser.text("#thinking").await, "The AI is thinking");
    browser.screenshot("ai-thinking").await;
    let reply = browser.wait_moves(2).await.remove(1);
    browser.until("the notice to go", "document.getElementById('thinking').hidden").await;
    assert_eq!(browser.text("#last-move").await, format!("Last move: 2. White {reply}"));

    // level 1 on 5x5: Black plays, then passes until the AI has passed too
    let (id, token) = app.against_ai(json!({ "variant": "go", "size": "5", "komi": 0.5 }), "black", 1).await;
    browser.sit(&app, &id, &token, "black").await;
    browser.click_point("C3").await;
    browser.wait_moves(2).await;
    while !shown(&browser, "scoring").await {
        browser.wait_status("your turn").await;
        let before = browser.moves().await.len();
        browser.click("#pass").await;
        browser
            .until(
                "the AI's answer or the dead-stone phase",
                &format!(
                    "document.querySelectorAll('#moves li').length >= {} || !document.getElementById('scoring').hidden",
                    before + 2
                ),
            )
            .await;
    }
    browser
        .until("the proposal", "!document.getElementById('scoring-text').textContent.includes('proposing')")
        .await;
    browser.wait_text("scoring-text", "The AI accepts only its own marking").await;
    // a White stone marked otherwise than the AI proposed, then accepted
    let stone = browser
        .js(
            "return document.querySelector('#board .stone.white').closest('[data-stone]').dataset.stone",
            vec![],
        )
        .await;
    let stone = stone.as_str().expect("a white stone").to_string();
    let dead =
        format!("document.querySelector('#board [data-stone=\"{stone}\"]').classList.contains('dead')");
    let was_dead = browser.js(&format!("return {dead}"), vec![]).await.as_bool().unwrap();
    browser.click_point(&stone).await;
    browser.until("the mark changed", &if was_dead { format!("!{dead}") } else { dead.clone() }).await;
    browser.click("#score-accept").await;
    // the AI resumes play, and (at level 1) passes again at once: a new marking, explained
    browser.wait_text("notice", "The AI did not accept the marking").await;
    let held = if was_dead { "dead" } else { "alive" };
    let notice = browser.text("#notice").await;
    assert!(notice.contains(&format!("(it holds {stone} {held}): play resumed")), "{notice}");
    if browser.js("return document.getElementById('status').dataset.status", vec![]).await == json!("scoring")
    {
        assert!(
            notice.contains("the AI passed again, proposing its marking anew. Accept it to end the game"),
            "{notice}"
        );
    } else {
        assert!(notice.contains("the game ends when both accept one"), "{notice}");
    }
    browser.screenshot("marking-rejected-by-the-ai").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_phone_a_pass_is_announced_errors_clear_and_a_resumption_is_explained() {
    if !browser_available("pass notice") {
        return;
    }
    let Seated { app, driver: _driver, browser, id, black: _, white: white_token } =
        seated_as_black(PHONE).await;
    // a touch screen: tapped twice
    browser.click_point("E5").await;
    browser.click_point("E5").await;
    browser.wait_moves(1).await;
    // a refusal out of turn (sent at the first tap) is cleared by the opponent's move
    browser.click_point("C3").await;
    browser.wait_text("message", "not your turn").await;
    app.act(&id, &white_token, json!({ "type": "move", "move": "D5" })).await;
    browser.wait_moves(2).await;
    browser.until("the stale error to go", "document.getElementById('message').textContent === ''").await;
    // White passes: Black is told, prominently, that a pass now ends play (C3 tapped, then
    // confirmed with the button)
    browser.click_point("C3").await;
    browser.click("#confirm-move").await;
    browser.wait_moves(3).await;
    assert!(!shown(&browser, "notice").await, "no notice after a move");
    app.act(&id, &white_token, json!({ "type": "pass" })).await;
    browser.wait_moves(4).await;
    browser
        .wait_text("notice", "White passed. If you pass too, play ends and the dead stones are marked")
        .await;
    assert_eq!(browser.text("#last-move").await, "Last move: 4. White passed");
    browser.js("window.scrollTo(0, 0)", vec![]).await;
    for css in ["#status", "#notice", "#pass"] {
        assert!(browser.in_view(css).await, "{css} is off the phone's screen");
    }
    browser.screenshot("phone-opponent-passed").await;
    // Black passes too; White does not accept the marking and resumes play
    browser.click("#pass").await;
    browser.until("the dead-stone phase", "!document.getElementById('scoring').hidden").await;
    assert!(!shown(&browser, "notice").await, "no pass notice in the dead-stone phase");
    app.act(&id, &white_token, json!({ "type": "resume" })).await;
    browser.wait_text("notice", "White did not accept the marking: play resumed.").await;
    browser.wait_text("notice", "When both pass again, the dead stones are marked anew").await;
    browser.js("window.scrollTo(0, 0)", vec![]).await;
    browser.screenshot("phone-marking-rejected").await;
    // the zoom: the board twice the box's width, scrolled inside it, the page no wider
    browser.click("#zoom").await;
    let ratio = "document.querySelector('#board svg').getBoundingClientRect().width / document.getElementById('board').clientWidth";
    let ratio = browser.until("the zoomed board", &format!("{ratio} > 1.9 && {ratio}")).await;
    assert!(ratio.as_f64().unwrap() < 2.1, "twice as wide: {ratio}");
    assert_eq!(browser.text("#zoom").await, "Zoom out");
    browser.scroll_to("#board").await;
    browser.screenshot("phone-zoomed").await;
    assert_eq!(overflow(&browser).await, 0, "the page is wider than the screen");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn byo_yomi_clocks_show_the_main_time_then_the_period_and_the_periods_left() {
    if !browser_available("byo-yomi") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    let clock = |main_ms: u64| {
        json!({ "variant": "go", "size": "9",
                "time_control": { "kind": "byo-yomi", "main_ms": main_ms, "periods": 5, "period_ms": 30000 } })
    };
    // ten minutes of main time: the periods wait behind it
    let (id, black_token, _) = app.pair(clock(600_000)).await;
    browser.sit(&app, &id, &black_token, "black").await;
    browser.until("the clocks", "document.querySelector('[data-clock=white]').textContent !== ''").await;
    assert_eq!(browser.text("[data-clock=white]").await, "10:00 +5×30s");
    let running = browser.text("[data-clock=black]").await;
    assert!(running.starts_with("9:5") && running.ends_with(" +5×30s"), "{running}");
    browser.screenshot_of("byo-yomi-main-time", "#players").await;
    // no main time: the current period counts down, five periods left
    let (id, black_token, _) = app.pair(clock(0)).await;
    browser.sit(&app, &id, &black_token, "black").await;
    browser.until("the clocks", "document.querySelector('[data-clock=white]').textContent !== ''").await;
    assert_eq!(browser.text("[data-clock=white]").await, "0:30 (5)");
    browser
        .until(
            "Black's period running",
            "/^0:2\\d \\(5\\)$/.test(document.querySelector('[data-clock=black]').textContent)",
        )
        .await;
    browser.screenshot_of("byo-yomi-periods", "#players").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loser_on_time_sees_no_time_left_and_why() {
    if !browser_available("lost on time") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    // after the flag fell the loser's clock read its time at the start of the turn (1:00 in the
    // issue's game)
    let request = json!({ "variant": "go", "size": "9",
        "time_control": { "kind": "byo-yomi", "main_ms": 1000, "periods": 1, "period_ms": 1500 } });
    let (id, black_token, _) = app.pair(request).await;
    browser.sit(&app, &id, &black_token, "black").await;
    browser
        .until(
            "the flag",
            "document.querySelector('[data-clock=black]').textContent.includes('lost on time')",
        )
        .await;
    assert_eq!(browser.text("[data-clock=black]").await, "0:00 lost on time");
    assert_eq!(browser.text("[data-clock=white]").await, "1.0 +1×1.5s", "the winner's clock as it was");
    browser.screenshot_of("lost-on-time", "#players").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forgetting_a_running_game_asks_and_resigns_it() {
    if !browser_available("forget") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    let (id, black_token, _) = app.pair(json!({ "variant": "go", "size": "9" })).await;
    browser.sit(&app, &id, &black_token, "black").await;
    browser.goto(&app.url("/")).await;
    browser.until("my game", "document.querySelector('#mine li.game .state') !== null").await;
    // one click only asks: the game stays, still running
    browser.click("#mine [data-action=forget]").await;
    assert_eq!(browser.text("#mine [data-action=confirm-forget]").await, "Resign and forget");
    let game = serde_json::to_value(app.hub.view(&id).await.unwrap()).unwrap();
    assert_eq!(game["status"], "playing");
    browser.screenshot_of("forget-asks", "#mine").await;
    // confirmed: resigned, then gone from the list
    browser.click("#mine [data-action=confirm-forget]").await;
    browser.until("the list emptied", "document.querySelector('#mine li.game') === null").await;
    let game = serde_json::to_value(app.hub.view(&id).await.unwrap()).unwrap();
    assert_eq!((game["status"].as_str(), game["result"].as_str()), (Some("finished"), Some("W+R")), "{game}");
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_preview_stone_under_the_pointer_follows_the_position() {
    if !browser_available("hover preview") {
        return;
    }
    let Seated { app, driver: _driver, browser, id, black: black_token, white: white_token } =
        seated_as_black(DESKTOP).await;
    let hover = "document.querySelector(`#board [data-vertex=\"${arguments[0]}\"]`).dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))";
    let previews = "return document.querySelectorAll('#board .stone.preview').length";
    browser.js(hover, vec![json!("C3")]).await;
    assert_eq!(browser.js(previews, vec![]).await, json!(1), "Black's turn: a stone on C3");
    // Black moves elsewhere: White's turn, no preview
    app.act(&id, &black_token, json!({ "type": "move", "move": "E5" })).await;
    browser.wait_moves(1).await;
    assert_eq!(browser.js(previews, vec![]).await, json!(0), "the preview outlived Black's turn");
    // the tab says "Your move" on the player's turn only
    assert_eq!(
        browser.js("return document.title", vec![]).await,
        json!("Go 9×9, positional superko · variago")
    );
    // White takes the point under the pointer: Black's turn again, and C3 is no longer playable
    app.act(&id, &white_token, json!({ "type": "move", "move": "C3" })).await;
    browser.wait_moves(2).await;
    assert_eq!(browser.js(previews, vec![]).await, json!(0), "a preview on an occupied point");
    assert_eq!(
        browser.js("return document.title", vec![]).await,
        json!("● Your move · Go 9×9, positional superko · variago")
    );
    // the pointer moves to a free point: its preview comes back when the turn does
    browser.js(hover, vec![json!("D4")]).await;
    assert_eq!(browser.js(previews, vec![]).await, json!(1));
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_reviews_earlier_moves_during_play_and_comes_back_to_the_game() {
    if !browser_available("review during play") {
        return;
    }
    let app = App::start().await;
    let (id, black_token, white_token) = app.pair(json!({ "variant": "go", "size": "9" })).await;
    for (token, mv) in [(&black_token, "E5"), (&white_token, "C3"), (&black_token, "G7")] {
        app.act(&id, token, json!({ "type": "move", "move": mv })).await;
    }
    let driver = Driver::start().await;
    for (width, height, name) in
        [(DESKTOP.0, DESKTOP.1, "review-during-play"), (PHONE.0, PHONE.1, "review-during-play-phone")]
    {
        let browser = driver.browser(width, height).await;
        browser.sit(&app, &id, &white_token, "white").await;
        let stones = "return document.querySelectorAll('#board [data-stone]').length";
        let moves = browser.wait_moves(3 + usize::from(name.ends_with("phone"))).await;
        let live = moves.len();
        // the first move, from the move list: the board shows it alone, the game goes on
        browser.click("#moves li:first-child button").await;
        browser.wait_text("replay-label", &format!("move 1 of {live}")).await;
        assert_eq!(browser.js(stones, vec![]).await, json!(1));
        assert_eq!(browser.text("#replay label").await, "Review");
        // a tap on the board while reviewing says how to get back, and plays nothing
        browser.click_point("D4").await;
        browser.wait_text("message", "Back to the game").await;
        // White plays on the desktop, Black answers: the phone's review stays where it is
        if !name.ends_with("phone") {
            app.act(&id, &white_token, json!({ "type": "move", "move": "D4" })).await;
            browser.wait_text("replay-label", &format!("move 1 of {}", live + 1)).await;
            assert_eq!(browser.js(stones, vec![]).await, json!(1), "the review left the earlier move");
        }
        browser.scroll_to("#replay").await;
        browser.screenshot(name).await;
        browser.click("#replay-live").await;
        browser.until("the live position", "document.getElementById('replay-live').hidden").await;
        let now = browser.moves().await.len();
        assert_eq!(browser.js(stones, vec![]).await, json!(now), "every stone of the live position");
        assert_eq!(overflow(&browser).await, 0, "the page is wider than the screen");
        browser.close().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_restart_shows_reconnecting_then_the_game_goes_on() {
    if !browser_available("graceful restart") {
        return;
    }
    let mut app = App::start().await;
    let (id, black_token, white_token) = app.pair(json!({ "variant": "go", "size": "9" })).await;
    app.act(&id, &black_token, json!({ "type": "move", "move": "E5" })).await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    browser.sit(&app, &id, &white_token, "white").await;
    browser.wait_moves(1).await;
    // stopped as SIGTERM stops it: the page says so while the server is away
    app.restart(async || {
        browser.wait_text("connection", "The server is restarting: reconnecting").await;
        browser.screenshot("restarting").await;
    })
    .await;
    // its successor: the page reconnects by itself, and the game goes on from it
    browser.until("reconnected", "document.getElementById('connection').textContent === ''").await;
    browser.click_point("C3").await;
    browser.wait_moves(2).await;
    app.act(&id, &black_token, json!({ "type": "move", "move": "G7" })).await;
    assert_eq!(browser.wait_moves(3).await, ["E5", "C3", "G7"]);
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_game_shows_a_not_found_page_without_controls() {
    if !browser_available("not found") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(PHONE.0, PHONE.1).await;
    browser.goto(&app.url("/game/no-such-game")).await;
    browser.until("the not-found page", "document.getElementById('not-found') !== null").await;
    assert_eq!(browser.text("#not-found h1").await, "No such game");
    assert!(browser.text("#not-found").await.contains("There is no game \"no-such-game\" here"));
    let controls = browser
        .js("return document.querySelectorAll('#pass, #resign, #board, #move-form').length", vec![])
        .await;
    assert_eq!(controls.as_i64(), Some(0), "no board and no actions");
    assert_eq!(browser.js("return document.title", vec![]).await, json!("No such game · variago"));
    browser.screenshot("game-not-found").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_says_what_variago_is_and_starts_a_game_against_the_ai_in_one_click() {
    if !browser_available("quick game") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    // one click to a game against the AI, of the variant chosen, on 9x9
    browser.goto(&app.url("/")).await;
    browser.until("the variants", "document.querySelectorAll('#variant option').length > 5").await;
    assert_eq!(browser.text("#quick-ai").await, "Play the AI now: Go, 9×9");
    browser.screenshot("lobby-welcome").await;
    // the browser's dark preference: the page's colours follow it
    let background = "return getComputedStyle(document.documentElement).backgroundColor";
    assert_eq!(browser.js(background, vec![]).await, json!("rgb(244, 241, 234)"));
    let dark = driver.dark_browser(DESKTOP.0, DESKTOP.1).await;
    dark.goto(&app.url("/")).await;
    dark.until("the variants", "document.querySelectorAll('#variant option').length > 5").await;
    assert_eq!(dark.js(background, vec![]).await, json!("rgb(21, 25, 23)"));
    dark.screenshot("lobby-dark").await;
    dark.close().await;
    browser.select("#variant", "stoical").await;
    assert_eq!(browser.text("#quick-ai").await, "Play the AI now: Stoical Go, 9×9");
    browser.click("#quick-ai").await;
    browser.until("the game page", "location.pathname.startsWith('/game/')").await;
    browser.wait_text("title", "Stoical Go 9×9").await;
    browser
        .until("the AI's card", "document.getElementById('players').textContent.includes('AI level 3')")
        .await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_names_games_hides_idle_ones_and_lets_a_player_resign_an_ai_game() {
    if !browser_available("lobby") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    // a refused creation, then another variant: the old error goes
    browser.goto(&app.url("/")).await;
    browser.until("the variants", "document.querySelectorAll('#variant option').length > 5").await;
    browser.select("#variant", "go").await;
    browser.select("#time", "absolute").await;
    browser.js("document.getElementById('main').value = '0'", vec![]).await;
    browser.click("#create-button").await;
    browser.wait_text("create-error", "main_ms must be between").await;
    browser.select("#variant", "stoical").await;
    browser.until("the error to go", "document.getElementById('create-error').textContent === ''").await;
    // Borderline's forces follow the board's size: 120 on 19x19, 27 on 9x9
    browser.select("#variant", "borderline").await;
    let forces = "return document.getElementById('option-forces').value";
    assert_eq!(
        browser.until("the forces", "document.getElementById('option-forces')?.value").await,
        json!("120")
    );
    browser.select("#size", "9").await;
    assert_eq!(browser.js(forces, vec![]).await, json!("27"));
    // a game against the AI, named in words in "my games" and in the running list
    create_in_lobby(&browser, &app, "go", "none", "black", "ai").await;
    browser.goto(&app.url("/")).await;
    browser.until("my game", "document.querySelector('#mine li.game .spec') !== null").await;
    assert_eq!(browser.text("#mine li.game .spec").await, "Go 9×9, positional superko");
    assert_eq!(browser.text("#mine li.game .go").await, "Resume");
    browser.until("the running game", "document.querySelector('#running li.game') !== null").await;
    assert_eq!(browser.text("#running li.game .spec").await, "Go 9×9, positional superko");
    // resigned from the lobby: finished, and offered for replay
    browser.click("#mine [data-action=resign]").await;
    browser.click("#mine [data-action=confirm-resign]").await;
    browser
        .until("the resignation", "document.querySelector('#mine li.game').dataset.status === 'finished'")
        .await;
    assert_eq!(browser.text("#mine li.game .go").await, "Replay");
    assert!(browser.text("#mine li.game .state").await.contains("W+R"));
    // a game idle for over a day leaves the public lists (the page's clock is moved on)
    let (_id, _black, _white) = app.pair(json!({ "variant": "incursion", "size": "13" })).await;
    browser.goto(&app.url("/")).await;
    browser.until("the running game", "document.querySelector('#running li.game') !== null").await;
    assert_eq!(browser.text("#running li.game .spec").await, "Incursion Go 13×13");
    browser.js("const now = Date.now(); Date.now = () => now + 2 * 24 * 3600 * 1000", vec![]).await;
    browser.until("the idle game hidden", "document.querySelector('#running li.game') === null").await;
    assert_eq!(browser.text("#running .idle").await, "1 game idle for over a day not shown.");
    browser.js("Date.now = () => performance.timeOrigin + performance.now()", vec![]).await;
    browser.screenshot("lobby-named-and-resigned").await;
    browser.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_score_estimate_shades_the_board_and_goes_with_the_next_move() {
    if !browser_available("score estimate") {
        return;
    }
    let app = App::start().await;
    let (id, black_token, white_token) = app.pair(json!({ "variant": "go", "size": "9" })).await;
    // Black walls off the columns A-F (54 points), White holds G-J (27): Black is far ahead
    for row in 1..=9 {
        app.act(&id, &black_token, json!({ "type": "move", "move": format!("F{row}") })).await;
        app.act(&id, &white_token, json!({ "type": "move", "move": format!("G{row}") })).await;
    }
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, DESKTOP.1).await;
    browser.sit(&app, &id, &black_token, "black").await;
    browser.wait_moves(18).await;
    assert_eq!(browser.js("return document.getElementById('estimate').hidden", vec![]).await, json!(true));
    browser.click("#estimate-button").await;
    browser.wait_text("estimate", "AI estimate").await;
    let text = browser.text("#estimate").await;
    assert!(text.contains("Black ahead: B+"), "{text}");
    assert!(text.contains("Black's chance of winning"), "{text}");
    // in two lines, only the first in bold
    let lines =
        browser.js("return document.getElementById('estimate').innerText.split('\\n').length", vec![]).await;
    assert_eq!(lines, json!(2), "{text}");
    // Black's side shaded dark, White's light: light playouts leave the open area's points
    // Black's in only half to four fifths of them, so the shades are of every strength
    let shaded = "[document.querySelectorAll('#board .shade[class*=owned-black]').length, \
                   document.querySelectorAll('#board .shade[class*=owned-white]').length]";
    let counts = browser.js(&format!("return {shaded}"), vec![]).await;
    let (black, white) = (counts[0].as_u64().unwrap(), counts[1].as_u64().unwrap());
    assert!(black >= 30, "most of Black's 54 points shaded for Black: {counts}");
    assert!((5..black).contains(&white), "{counts}");
    browser.screenshot("score-estimate").await;
    // the next move makes it stale: gone from the board and the panel
    browser.click_point("B2").await;
    browser.wait_moves(19).await;
    browser.until("the estimate gone", "document.getElementById('estimate').hidden").await;
    let shades =
        browser.js("return document.querySelectorAll('#board [class*=owned-]').length", vec![]).await;
    assert_eq!(shades, json!(0));
    browser.close().await;
}

/// Galice turns that build a living group for each side with a dead stone inside Black's, on
/// both boards alike (the server's estimate test plays them too; see the data file).
const GALICE_GROUPS: [(bool, &str); 35] = include!("../../server/tests/data/galice-groups.rs");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_score_estimate_shades_both_galice_boards_and_crosses_their_dead_stones() {
    if !browser_available("galice score estimate") {
        return;
    }
    let app = App::start().await;
    let (id, setter_token, chooser_token) = app.pair(json!({ "variant": "galice" })).await;
    for (by_setter, turn) in GALICE_GROUPS {
        let token = if by_setter { &setter_token } else { &chooser_token };
        app.act(&id, token, json!({ "type": "move", "move": turn })).await;
    }
    let driver = Driver::start().await;
    let browser = driver.browser(DESKTOP.0, 1150).await;
    browser.sit(&app, &id, &setter_token, "black").await;
    browser.wait_moves(GALICE_GROUPS.len()).await;
    browser.wait_status("Black to move: your turn").await;
    browser.click("#estimate-button").await;
    browser.wait_text("estimate", "AI estimate").await;
    let text = browser.text("#estimate").await;
    assert!(text.contains("Area count of both boards") && text.contains("Shaded on both boards"), "{text}");
    // on each board: Black's group of rows 1-2 (12 points with its eyes and c1) shaded dark at
    // full strength, White's of rows 6-7 (10 points) light at full strength
    for side in ["left", "right"] {
        let count = |cls: &str| format!("document.querySelectorAll('#board-{side} .shade.{cls}').length");
        let counts = browser
            .js(&format!("return [{}, {}]", count("owned-black-3"), count("owned-white-3")), vec![])
            .await;
        let (black, white) = (counts[0].as_u64().unwrap(), counts[1].as_u64().unwrap());
        assert!((10..=20).contains(&black), "{side}: {counts}");
        assert!((9..=20).contains(&white), "{side}: {counts}");
        let strongly = |v: &str, cls: &str| {
            format!(
                "[...document.querySelectorAll('#board-{side} .shade.{cls}')].some((r) => {{ \
                     const hit = document.querySelector('#board-{side} [data-vertex=\"{v}\"]'); \
                     return r.getAttribute('x') === hit.getAttribute('x') && r.getAttribute('y') === hit.getAttribute('y'); }})"
            )
        };
        for (v, cls) in [
            ("A1", "owned-black-3"),
            ("C2", "owned-black-3"),
            ("C6", "owned-white-3"),
            ("A7", "owned-white-3"),
        ] {
            assert_eq!(
                browser.js(&format!("return {}", strongly(v, cls)), vec![]).await,
                json!(true),
                "{side} {v}"
            );
        }
        // the White stone in Black's eye space is dead: crossed, on this board only at C1
        let dead = browser
            .js(&format!("return [...document.querySelectorAll('#board-{side} [data-stone].dead')].map((g) => g.dataset.stone)"), vec![])
            .await;
        assert_eq!(dead, json!(["C1"]), "{side}");
        let crosses = browser
            .js(&format!("return document.querySelectorAll('#board-{side} .mark.dead').length"), vec![])
            .await;
        assert_eq!(crosses, json!(1), "{side}");
    }
    browser.scroll_to("#estimate").await;
    browser.screenshot("score-estimate-galice").await;
    // the next turn makes it stale: gone from both boards and the panel
    app.act(&id, &setter_token, json!({ "type": "move", "move": "gG3 f4" })).await;
    browser.wait_moves(GALICE_GROUPS.len() + 1).await;
    browser.until("the estimate gone", "document.getElementById('estimate').hidden").await;
    let shades = browser
        .js("return document.querySelectorAll('#board [class*=owned-], #board .mark.dead').length", vec![])
        .await;
    assert_eq!(shades, json!(0));
    browser.close().await;
}

/// Signs up on the account page (which logs in and goes to the lobby) and waits for the name in
/// the header.
async fn sign_up(browser: &Browser, app: &App, name: &str) {
    browser.goto(&app.url("/account")).await;
    browser.type_into("#signup-name", name).await;
    browser.type_into("#signup-password", "correct horse").await;
    browser.click("#signup-button").await;
    browser.until("the lobby", "location.pathname === '/'").await;
    browser.wait_text("account", name).await;
}

/// Logs in on the account page (which goes to the lobby) and waits for the name in the header.
async fn log_in(browser: &Browser, app: &App, name: &str) {
    browser.goto(&app.url("/account")).await;
    browser.type_into("#login-name", name).await;
    browser.type_into("#login-password", "correct horse").await;
    browser.click("#login-button").await;
    browser.until("the lobby", "location.pathname === '/'").await;
    browser.wait_text("account", name).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_s_seats_follow_it_to_another_device_and_an_open_game_is_cancelled() {
    if !browser_available("seats of an account") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let laptop = driver.browser(DESKTOP.0, DESKTOP.1).await;
    sign_up(&laptop, &app, "ann").await;
    create_in_lobby(&laptop, &app, "go", "none", "black", "human").await;
    let id = laptop.js("return location.pathname.split('/')[2]", vec![]).await;
    let id = id.as_str().expect("the game's id").to_string();
    // another device: no seat token in this browser, the account's session only
    let phone = driver.browser(DESKTOP.0, DESKTOP.1).await;
    log_in(&phone, &app, "ann").await;
    let line = format!("#mine li.game[data-id='{id}']");
    phone.until("ann's game in my games", &format!("document.querySelector(\"{line} .who\") !== null")).await;
    assert_eq!(phone.text(&format!("{line} .who")).await, "you: Black");
    // her own open game is shown, not offered to join
    let listed = format!("#open li.game[data-id='{id}'] a.go");
    phone.until("the open game", &format!("document.querySelector(\"{listed}\") !== null")).await;
    assert_eq!(phone.text(&listed).await, "Show");
    phone.screenshot_of("account-seat-lobby", "main").await;
    phone.goto(&app.url(&format!("/game/{id}"))).await;
    phone.wait_status("Waiting for an opponent").await;
    assert_eq!(phone.js("return document.getElementById('join').hidden", vec![]).await, json!(true));
    // a guest joins; ann plays from the phone, and the guest sees the move
    let guest = driver.browser(DESKTOP.0, DESKTOP.1).await;
    guest.goto(&app.url(&format!("/game/{id}"))).await;
    guest.until("the join button", "!document.getElementById('join').hidden").await;
    guest.click("#join-button").await;
    phone.wait_status("Black to move: your turn").await;
    phone.click_point("E5").await;
    guest.wait_moves(1).await;
    guest.wait_status("White to move: your turn").await;
    phone.screenshot("account-seat-phone").await;
    // the spectator count: the phone's socket is a player's (the cookie's seat), not a spectator's
    let count =
        "return fetch('/api/games?status=running').then(r => r.json()).then(l => l.games[0].spectators)";
    assert_eq!(phone.js(count, vec![]).await, json!(0));
    guest.close().await;
    phone.close().await;

    // an open game cancelled from "my games": gone from the open list at once, finished, void
    create_in_lobby(&laptop, &app, "go", "none", "black", "human").await;
    let second = laptop.js("return location.pathname.split('/')[2]", vec![]).await;
    let second = second.as_str().expect("the game's id").to_string();
    laptop.goto(&app.url("/")).await;
    let cancel = format!("#mine li.game[data-id='{second}'] [data-action=cancel]");
    laptop.until("the cancel button", &format!("document.querySelector(\"{cancel}\") !== null")).await;
    laptop.click(&cancel).await;
    laptop
        .until("the open list without it", &format!("document.querySelector(\"#open li[data-id='{second}']\") === null && document.querySelector('#open li') !== null"))
        .await;
    let game = serde_json::to_value(app.hub.view(&second).await.unwrap()).unwrap();
    assert_eq!(
        (game["status"].as_str(), game["result"].as_str()),
        (Some("finished"), Some("Void")),
        "{game}"
    );
    laptop.goto(&app.url(&format!("/game/{second}"))).await;
    laptop.wait_status("Cancelled by its creator").await;
    laptop.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_accounts_play_a_rated_game_chat_and_see_the_leaderboard() {
    if !browser_available("accounts") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let ann = driver.browser(DESKTOP.0, DESKTOP.1).await;
    let bee = driver.browser(DESKTOP.0, DESKTOP.1).await;
    sign_up(&ann, &app, "ann").await;
    ann.screenshot("account-header").await;
    // a wrong password is refused in words, a name taken too
    bee.goto(&app.url("/account")).await;
    bee.type_into("#login-name", "ann").await;
    bee.type_into("#login-password", "wrong horse").await;
    bee.click("#login-button").await;
    bee.wait_text("login-message", "wrong name or password").await;
    bee.type_into("#signup-name", "ann").await;
    bee.type_into("#signup-password", "correct horse").await;
    bee.click("#signup-button").await;
    bee.wait_text("signup-message", "taken").await;
    bee.screenshot("account-errors").await;
    sign_up(&bee, &app, "bee").await;

    // ann creates a rated game in the lobby (the box shows for accounts), bee joins by the link
    ann.until("the variants", "document.querySelectorAll('#variant option').length > 5").await;
    ann.select("#variant", "go").await;
    ann.select("#size", "9").await;
    ann.select("#color", "black").await;
    ann.select("#opponent", "human").await;
    ann.until("the rated box", "!document.getElementById('rated-field').hidden").await;
    ann.click("#rated").await;
    ann.click("#create-button").await;
    ann.until("the game page", "location.pathname.startsWith('/game/')").await;
    let invite = ann.until("the invitation link", "document.getElementById('invite-link').value").await;
    bee.goto(invite.as_str().expect("a link")).await;
    bee.click("#join-button").await;
    bee.wait_status("Black to move").await;
    ann.wait_status("Black to move: your turn").await;
    for browser in [&ann, &bee] {
        browser.wait_text("players", "ann").await;
        browser.wait_text("players", "bee").await;
    }
    // the chat beside the board, both ways; out of sight, a message is counted unread beside
    // the link to the chat at the top, until the chat is scrolled into view
    bee.js("window.scrollTo(0, 0)", vec![]).await;
    let chat_below = bee
        .js("return document.querySelector('section.chat').getBoundingClientRect().top > innerHeight", vec![])
        .await;
    ann.type_into("#chat-input", "good luck").await;
    ann.click("#chat-form button").await;
    bee.wait_text("chat-log", "Black (ann): good luck").await;
    assert_eq!(chat_below, json!(true), "the chat is below the fold of bee's window");
    bee.wait_text("chat-unread", "1 new").await;
    bee.click("#chat-jump").await;
    bee.until("the unread mark gone", "document.getElementById('chat-unread').hidden").await;
    bee.type_into("#chat-input", "you too").await;
    bee.click("#chat-form button").await;
    ann.wait_text("chat-log", "White (bee): you too").await;
    ann.click_point("E5").await;
    bee.wait_moves(1).await;
    ann.js("window.scrollTo(0, 0)", vec![]).await;
    ann.screenshot("rated-game").await;
    assert_eq!(ann.js("return document.getElementById('undo').hidden", vec![]).await, json!(true), "no undo");
    ann.screenshot_of("rated-game-chat", ".chat").await;
    // a spectator reads the chat but has no field
    let spectator = driver.browser(DESKTOP.0, DESKTOP.1).await;
    let game_page = ann.js("return location.href", vec![]).await;
    spectator.goto(game_page.as_str().unwrap()).await;
    spectator.wait_text("chat-log", "you too").await;
    assert_eq!(spectator.js("return document.getElementById('chat-form').hidden", vec![]).await, json!(true));
    // the players' pages hold their seats' sockets: the spectator alone is counted
    let count =
        "return fetch('/api/games?status=running').then(r => r.json()).then(l => l.games[0].spectators)";
    assert_eq!(ann.js(count, vec![]).await, json!(1));
    spectator.close().await;

    // ann resigns: bee wins, and the ratings move; both open game pages show the new ratings
    // beside the names (and bee's header), from the finishing event, without a reload
    assert!(!bee.text("#players").await.contains("(1"), "no rating before the first rated game");
    bee.js("window.notReloaded = true", vec![]).await;
    ann.click("#resign").await;
    ann.click("#resign-confirm").await;
    bee.wait_status("White wins").await;
    bee.wait_text("players", "bee (1662) (you)").await;
    bee.wait_text("players", "ann (1338)").await;
    bee.wait_text("account", "go 1662").await;
    assert_eq!(bee.js("return window.notReloaded === true", vec![]).await, json!(true));
    ann.wait_text("players", "ann (1338) (you)").await;
    bee.js("window.scrollTo(0, 0)", vec![]).await;
    bee.screenshot("rated-game-result").await;
    ann.goto(&app.url("/ratings?variant=go")).await;
    ann.until("both players", "document.querySelectorAll('#leaderboard tbody tr').length === 2").await;
    let order = ann
        .js(
            "return [...document.querySelectorAll('#leaderboard tbody tr')].map(r => r.dataset.player)",
            vec![],
        )
        .await;
    assert_eq!(order, json!(["bee", "ann"]));
    // two newcomers, one game: 1662 and 1338 (Glicko-2), the deviation 290
    assert!(ann.text("#leaderboard tbody tr").await.contains("1662 ±290"));
    ann.wait_text("account", "go 1338").await;
    ann.screenshot("leaderboard").await;
    ann.click("#leaderboard a").await;
    ann.until("bee's page", "location.pathname === '/players/bee'").await;
    ann.wait_text("player-ratings", "1662").await;
    ann.until("the game in the list", "document.querySelectorAll('#recent li').length === 1").await;
    assert!(ann.text("#recent").await.contains("ann – bee · W+R (rated)"));
    ann.screenshot("player-page").await;
    // the ratings beside the names: in the lobby's finished games and on the game's cards
    ann.goto(&app.url("/")).await;
    ann.wait_text("finished", "Black: ann (1338), White: bee (1662) (rated)").await;
    ann.scroll_to("#finished").await;
    ann.screenshot("lobby-accounts").await;
    ann.goto(game_page.as_str().unwrap()).await;
    ann.wait_text("players", "bee (1662)").await;
    ann.wait_text("players", "ann (1338) (you)").await;
    // logging out brings the guest's header back
    ann.click("#logout").await;
    ann.until("logged out", "document.getElementById('login-link') !== null").await;
    ann.close().await;
    bee.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_games_to_watch_per_variant_with_their_spectators() {
    if !browser_available("watch list") {
        return;
    }
    let app = App::start().await;
    let (go, _, _) = app.pair(json!({ "variant": "go", "size": "9" })).await;
    let (incursion, _, _) = app.pair(json!({ "variant": "incursion", "size": "9" })).await;
    let driver = Driver::start().await;
    let spectator = driver.browser(DESKTOP.0, DESKTOP.1).await;
    spectator.goto(&app.url(&format!("/game/{go}"))).await;
    spectator.wait_status("Black to move").await;
    let lobby = driver.browser(DESKTOP.0, DESKTOP.1).await;
    lobby.goto(&app.url("/")).await;
    let go_line = format!("#running li[data-id=\"{go}\"]");
    lobby
        .until(
            "the spectator counted",
            &format!("document.querySelector('{go_line}')?.textContent.includes('1 watching')"),
        )
        .await;
    // the spectator's page goes into the back/forward cache: its socket closes and it is no
    // longer counted; shown from the cache again, it watches again
    let count = format!(
        "return fetch('/api/games?status=running').then(r => r.json()).then(l => l.games.find(g => g.id === '{go}').spectators)"
    );
    let until_count = async |n: u64| {
        for _ in 0..100 {
            if lobby.js(&count, vec![]).await == json!(n) {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        panic!("the spectators never came to {n}");
    };
    let transition = "window.dispatchEvent(new PageTransitionEvent(arguments[0], { persisted: true }))";
    spectator.js(transition, vec![json!("pagehide")]).await;
    until_count(0).await;
    spectator.js(transition, vec![json!("pageshow")]).await;
    until_count(1).await;
    lobby
        .until(
            "the other variant listed",
            &format!("document.querySelector('#running li[data-id=\"{incursion}\"]') !== null"),
        )
        .await;
    lobby
        .until("the variants to watch", "document.querySelectorAll('#watch-variant option').length > 5")
        .await;
    lobby.select("#watch-variant", "incursion").await;
    lobby.until("go filtered out", &format!("document.querySelector('{go_line}') === null")).await;
    let shown = lobby
        .js("return [...document.querySelectorAll('#running li.game')].map(li => li.dataset.id)", vec![])
        .await;
    assert_eq!(shown, json!([incursion]));
    lobby.select("#watch-variant", "go").await;
    lobby.until("go alone", &format!("document.querySelector('{go_line}') !== null")).await;
    assert!(!lobby.text("#running").await.contains("idle"), "the filtered-out game is not called idle");
    lobby.scroll_to("#running").await;
    lobby.screenshot("watch-list").await;
    spectator.close().await;
    lobby.close().await;
}

/// The longest name an account may have (20 characters).
const LONG_NAME: &str = "bee_with_a_long_name";

/// Calls the API from a browser's page, with its session cookie: `[status, body]`.
async fn fetch_in(
    browser: &Browser,
    method: &str,
    path: &str,
    body: serde_json::Value,
) -> (u64, serde_json::Value) {
    let script = "const [method, path, body] = arguments; \
                  const init = { method, headers: { 'content-type': 'application/json' } }; \
                  if (body !== null) init.body = JSON.stringify(body); \
                  return fetch(path, init).then(async r => [r.status, await r.json().catch(() => null)])";
    let answer = browser.js(script, vec![json!(method), json!(path), body]).await;
    (answer[0].as_u64().unwrap_or(0), answer[1].clone())
}

/// How many pixels the page is wider than the screen (0: it fits). (On an emulated phone the
/// window's `innerWidth` grows with a page too wide: the screen is the root's `clientWidth`.)
async fn overflow(browser: &Browser) -> i64 {
    let script = "return document.documentElement.scrollWidth - document.documentElement.clientWidth";
    browser.js(script, vec![]).await.as_i64().unwrap_or(i64::MAX)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_ratings_player_and_chat_fit_a_phone() {
    if !browser_available("community on a phone") {
        return;
    }
    let app = App::start().await;
    let driver = Driver::start().await;
    let ann = driver.browser(PHONE.0, PHONE.1).await;
    let bee = driver.browser(PHONE.0, PHONE.1).await;
    // the account page, with a refusal under the form
    ann.goto(&app.url("/account")).await;
    ann.type_into("#signup-name", "ann").await;
    ann.type_into("#signup-password", "short").await;
    ann.click("#signup-button").await;
    ann.wait_text("signup-message", "at least 8").await;
    assert_eq!(overflow(&ann).await, 0, "the account page is wider than the phone");
    ann.js("window.scrollTo(0, 0)", vec![]).await;
    ann.screenshot("account-phone").await;
    ann.goto(&app.url("/rules")).await;
    sign_up(&ann, &app, "ann").await;
    // the longest name there may be, with ratings in several variants (rated games resigned
    // at once through the API): the header, the cards and the lists must still fit
    sign_up(&bee, &app, LONG_NAME).await;
    for variant in ["incursion", "stoical", "excursion-1"] {
        let body = json!({ "variant": variant, "size": "9", "color": "black", "rated": true });
        let (status, created) = fetch_in(&ann, "POST", "/api/games", body).await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap();
        let (status, _) = fetch_in(&bee, "POST", &format!("/api/games/{id}/join"), json!({})).await;
        assert_eq!(status, 200);
        let script = "return fetch(arguments[0], { method: 'POST', headers: { 'content-type': 'application/json', \
                      authorization: 'Bearer ' + arguments[1] }, body: '{\"type\": \"resign\"}' }).then(r => r.status)";
        let resigned =
            ann.js(script, vec![json!(format!("/api/games/{id}/actions")), created["token"].clone()]).await;
        assert_eq!(resigned, json!(200));
    }
    bee.goto(&app.url("/")).await;
    bee.wait_text("account", "stoical").await;
    assert_eq!(overflow(&bee).await, 0, "the lobby page is wider than the phone");
    bee.screenshot("lobby-account-phone").await;
    // a rated game between them, created and joined through the API with their sessions
    let (status, created) = fetch_in(
        &ann,
        "POST",
        "/api/games",
        json!({ "variant": "go", "size": "9", "color": "black", "rated": true }),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, joined) = fetch_in(&bee, "POST", &format!("/api/games/{id}/join"), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    ann.sit(&app, &id, created["token"].as_str().unwrap(), "black").await;
    bee.sit(&app, &id, joined["token"].as_str().unwrap(), "white").await;
    // the chat: a short message and a long one with a word longer than the screen
    ann.type_into("#chat-input", "good luck").await;
    ann.click("#chat-form button").await;
    let long =
        format!("see https://example.org/{} for the joseki {}", "a-long-path".repeat(8), "o".repeat(80));
    bee.type_into("#chat-input", &long).await;
    bee.click("#chat-form button").await;
    ann.wait_text("chat-log", "for the joseki").await;
    assert_eq!(overflow(&ann).await, 0, "the game page is wider than the phone");
    ann.scroll_to(".chat").await;
    ann.screenshot("chat-phone").await;
    ann.screenshot_of("chat-panel-phone", ".chat").await;
    // bee resigns: the leaderboard and the player page
    bee.click("#resign").await;
    bee.click("#resign-confirm").await;
    ann.wait_status("Black wins").await;
    ann.js("window.scrollTo(0, 0)", vec![]).await;
    ann.screenshot("rated-game-phone").await;
    ann.goto(&app.url("/ratings?variant=go")).await;
    ann.until("both players", "document.querySelectorAll('#leaderboard tbody tr').length === 2").await;
    assert_eq!(overflow(&ann).await, 0, "the ratings page is wider than the phone");
    ann.screenshot("leaderboard-phone").await;
    ann.goto(&app.url(&format!("/players/{LONG_NAME}"))).await;
    ann.until("the games in the list", "document.querySelectorAll('#recent li').length === 4").await;
    assert_eq!(overflow(&ann).await, 0, "the player page is wider than the phone");
    ann.screenshot("player-page-phone").await;
    // the account page of a logged-in player says who, without the forms; an unknown player's
    // page has no empty tables
    let dated = ann.text("#recent li time").await;
    assert!(dated.len() == 10 && dated.starts_with("20"), "a date: {dated}");
    ann.goto(&app.url("/account")).await;
    ann.wait_text("account", "ann").await;
    ann.until(
        "who is logged in",
        "document.querySelector('main').textContent.includes('You are logged in as ann')",
    )
    .await;
    assert_eq!(
        ann.js("return document.getElementById('signup-form').offsetParent === null", vec![]).await,
        json!(true)
    );
    // the account's care: a wrong password refused, then a new one; then the account deleted
    ann.type_into("#password-now", "wrong horse").await;
    ann.type_into("#password-new", "battery staple").await;
    ann.click("#password-button").await;
    ann.wait_text("password-message", "wrong password").await;
    ann.js("document.getElementById('password-now').value = ''", vec![]).await;
    ann.type_into("#password-now", "correct horse").await;
    ann.click("#password-button").await;
    ann.wait_text("password-message", "Password changed").await;
    ann.scroll_to("#care").await;
    ann.screenshot("account-care-phone").await;
    assert_eq!(overflow(&ann).await, 0, "the account page is wider than the phone");
    ann.type_into("#delete-password", "battery staple").await;
    ann.click("#delete-button").await;
    ann.until("the lobby", "location.pathname === '/'").await;
    ann.wait_text("account", "Log in").await;
    ann.goto(&app.url(&format!("/players/{LONG_NAME}"))).await;
    ann.until("the games in the list", "document.querySelectorAll('#recent li').length === 4").await;
    assert!(ann.text("#recent").await.contains("(deleted)"), "ann's name in bee's games");
    ann.goto(&app.url("/players/nobody")).await;
    ann.wait_text("player-name", "No such player").await;
    assert_eq!(
        ann.js("return document.getElementById('player-ratings').offsetParent === null", vec![]).await,
        json!(true)
    );
    ann.close().await;
    bee.close().await;
}
