//! The command sequences real GTP clients sent (recorded from Quarry, Lizzie, Kigo and qGo:
//! `tests/sessions/`), replayed against the engine: every command is answered with success, in
//! the form the client reads (ids echoed, `PASS` in capitals, moves taken after two passes,
//! `level` before every move), and `fixed_handicap 0` refused as GNU Go refuses it.
//!
//! The person's moves were played against the engine's own answers then; the engine answers
//! otherwise now, so a recorded move onto a point that is no longer free is replaced by a pass
//! (counted, and fewer than half, so that the game stays the client's).

use std::io::Cursor;

use variago_gtp::{Config, Engine};
use variago_search::Settings;

/// What the engine answered one recorded command.
struct Exchange {
    command: String,
    answer: String,
}

/// The engine as a client starts it: a small fixed budget from the command line, the default
/// resignation, and Lizzie's answers or not.
fn engine(lizzie: bool) -> Engine {
    let settings = Settings { playouts: 300, ..Config::default().settings };
    let config = Config { settings, fixed_budget: true, ponder: false, lizzie };
    Engine::new(config, "go").expect("a known variant")
}

/// Everything the engine writes for one input line.
fn send(engine: &mut Engine, line: &str) -> String {
    let mut output = Vec::new();
    variago_gtp::run(engine, Cursor::new(format!("{line}\n").into_bytes()), &mut output)
        .expect("writes to memory");
    String::from_utf8(output).expect("answers are UTF-8")
}

/// Replays a recorded session; returns the exchanges and how many recorded moves were replaced by
/// a pass because the point was taken.
fn replay(file: &str, engine: &mut Engine) -> (Vec<Exchange>, usize) {
    let path = format!("{}/tests/sessions/{file}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the recorded session");
    let mut replaced = 0;
    let mut exchanges = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let numbered = words[0].parse::<u64>().is_ok();
        let (id, command) = if numbered { (words[0], &words[1..]) } else { ("", &words[..]) };
        let mut line = line.to_string();
        if let ["play", color, vertex] = command
            && !vertex.eq_ignore_ascii_case("pass")
            && send(engine, &format!("is_legal {color} {vertex}")) == "= 0\n\n"
        {
            replaced += 1;
            line = format!("{id} play {color} pass").trim().to_string();
        }
        let answer = send(engine, &line);
        exchanges.push(Exchange { command: line, answer });
    }
    (exchanges, replaced)
}

/// Checks what every client needs of every answer: success, its id echoed, one answer a command,
/// and `genmove`'s move as the client reads it, its pass written `pass`.
fn check_answers(exchanges: &[Exchange], pass: &str) {
    for Exchange { command, answer } in exchanges {
        let id = command.split_whitespace().next().filter(|w| w.parse::<u64>().is_ok()).unwrap_or("");
        if command.ends_with("fixed_handicap 0") {
            // refused, as GNU Go refuses it: Kigo gives White the move after any handicap it
            // placed, so a success would let the engine open an even game as White
            assert!(answer.starts_with(&format!("?{id} ")), "{command:?} was answered {answer:?}");
            continue;
        }
        assert!(answer.starts_with(&format!("={id}")), "{command:?} was answered {answer:?}");
        assert!(answer.ends_with("\n\n"), "{command:?}: {answer:?}");
        if command.contains("genmove") {
            let mv = answer.trim_start_matches(&format!("={id}")).trim();
            let vertex = mv.len() >= 2 && mv.chars().next().is_some_and(|c| c.is_ascii_uppercase());
            assert!(mv == pass || mv == "resign" || vertex, "{command:?}: {mv:?}");
        }
    }
}

/// A recorded session replayed against a fresh engine (Lizzie's answers or GNU Go's), its
/// answers checked, with fewer than half of the person's moves replaced.
fn replayed(file: &str, lizzie: bool) -> Vec<Exchange> {
    let mut engine = engine(lizzie);
    let (exchanges, replaced) = replay(file, &mut engine);
    check_answers(&exchanges, if lizzie { "pass" } else { "PASS" });
    let moves = exchanges.iter().filter(|e| e.command.contains("play ")).count();
    assert!(replaced * 2 < moves, "{replaced} of {file}'s {moves} moves replaced");
    exchanges
}

/// The answer to the first command named `name`.
fn answer_to<'a>(exchanges: &'a [Exchange], name: &str) -> &'a str {
    let exchange = exchanges
        .iter()
        .find(|e| {
            // the command without the client's id, or the id alone
            let words: Vec<&str> = e.command.split_whitespace().collect();
            let start = usize::from(words[0].parse::<u64>().is_ok());
            let command = words[start..].join(" ");
            command == name || command.starts_with(&format!("{name} ")) || words[0] == name
        })
        .unwrap_or_else(|| panic!("no {name} in the session"));
    &exchange.answer
}

#[test]
fn quarry_plays_a_game_and_counts_it() {
    let exchanges = replayed("quarry-game.gtp", false);
    assert!(answer_to(&exchanges, "final_status_list dead").starts_with('='));
}

#[test]
fn lizzie_analyses_plays_and_goes_on_after_the_passes() {
    let exchanges = replayed("lizzie-analysis-and-game.gtp", true);
    // the version Lizzie reads past its Leela Zero warning
    assert_eq!(answer_to(&exchanges, "version"), "=2 0.17\n\n");
    // the analysis streams `info move` lines
    assert!(
        answer_to(&exchanges, "lz-analyze").contains("info move "),
        "{}",
        answer_to(&exchanges, "lz-analyze")
    );
    // the end: Lizzie's `play W pass` after two passes is taken, and so is its `genmove B`
    // (checked above: answered with a move)
    assert_eq!(answer_to(&exchanges, "85"), "=85\n\n");
    assert!(exchanges.last().is_some_and(|e| e.command == "86 genmove B"));
}

#[test]
fn kigo_starts_an_even_game_and_finishes_on_passes() {
    let exchanges = replayed("kigo-game.gtp", false);
    assert_eq!(answer_to(&exchanges, "fixed_handicap 0"), "? invalid number of stones\n\n");
    assert_eq!(answer_to(&exchanges, "fixed_handicap 4"), "= C3 G7 C7 G3\n\n");
    // Kigo's finish needs the engine's pass in capitals, and its `level 1` keeps the budget the
    // command line chose
    assert!(exchanges.iter().all(|e| !e.answer.contains("pass")), "a pass in lower case");
    assert_eq!(answer_to(&exchanges, "level 1"), "=\n\n");
}

#[test]
fn qgo_gets_its_ids_back() {
    let exchanges = replayed("qgo-game.gtp", false);
    assert_eq!(answer_to(&exchanges, "protocol_version"), "=1000 2\n\n");
}
