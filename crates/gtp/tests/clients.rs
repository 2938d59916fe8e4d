//! What GTP clients (Quarry, Kigo, Lizzie, Sabaki, GoGui) rely on beyond the standard commands:
//! dead stones judged from the search's ownership, an AI that settles the position before it
//! passes, GNU Go's extensions in GNU Go's formats (compared with GNU Go itself when it is
//! installed), and absurd arguments answered with errors.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use variago_gtp::{Config, Engine};
use variago_search::Settings;

/// An engine with a fixed budget, large enough for the ownership to be clear on 9x9.
fn engine() -> Engine {
    let settings = Settings { playouts: 2000, resign_below: None, ..Settings::default() };
    Engine::new(Config { settings, fixed_budget: true, ponder: false, lizzie: false }, "go:size=9")
        .expect("a known variant")
}

/// Sends each line to `engine` and returns the answers' text (after `= ` or as `? message`).
fn ask(engine: &mut Engine, lines: &str) -> Vec<String> {
    let mut output = Vec::new();
    variago_gtp::run(engine, std::io::Cursor::new(lines.as_bytes().to_vec()), &mut output).unwrap();
    let text = String::from_utf8(output).unwrap();
    text.split_terminator("\n\n")
        .map(|a| if a == "=" { "" } else { a.strip_prefix("= ").unwrap_or(a) }.to_string())
        .collect()
}

/// The answer to the last line.
fn last(engine: &mut Engine, lines: &str) -> String {
    ask(engine, lines).pop().expect("an answer")
}

/// Two walls across 9x9, Black's on column D and White's on column F, with column E between them
/// still open, a black stone at H5 inside White's side and a white one at B5 inside Black's: both
/// are dead, everything else is settled. Komi 7.
fn two_walls() -> String {
    let mut lines = String::from("boardsize 9\nclear_board\nkomi 7\n");
    for row in 1..=9 {
        lines += &format!("play b d{row}\nplay w f{row}\n");
    }
    lines + "play b h5\nplay w b5\n"
}

/// The vertices of 9x9 from the top row, left to right (GNU Go's order), except `left_out`.
fn board_order_except(left_out: &[&str]) -> String {
    let mut vertices = Vec::new();
    for row in (1..=9).rev() {
        for column in "ABCDEFGHJ".chars() {
            let vertex = format!("{column}{row}");
            if !left_out.contains(&vertex.as_str()) {
                vertices.push(vertex);
            }
        }
    }
    vertices.join(" ")
}

const D_WALL: &str = "D9 D8 D7 D6 D5 D4 D3 D2 D1";
const F_WALL: &str = "F9 F8 F7 F6 F5 F4 F3 F2 F1";

#[test]
fn dead_stones_alive_stones_and_territory_come_from_the_ownership() {
    let mut engine = engine();
    let position = two_walls();
    let out = ask(
        &mut engine,
        &format!(
            "{position}final_status_list dead\nfinal_status_list alive\nfinal_status_list seki\n\
             final_status h5\nfinal_status b5\nfinal_status d5\nfinal_status a1\nfinal_status j9\nfinal_status e5\n\
             estimate_score\nfinal_score\n"
        ),
    );
    let answers = &out[out.len() - 11..];
    assert_eq!(answers[0], "B5\nH5", "one chain a line, rows from the top");
    assert_eq!(answers[1], format!("{D_WALL}\n{F_WALL}"));
    assert_eq!(answers[2], "");
    assert_eq!(&answers[3..9], ["dead", "dead", "alive", "black_territory", "white_territory", "dame"]);
    // Black: the D wall and A-C (36 points, B5 taken off); White: F-J (36, H5 taken off); with
    // komi 7, and the 9 open points of column E to either side for the bounds
    assert_eq!(answers[9], "W+7.0 (upper bound: 16.0, lower: -2.0)");
    // the rules' count keeps every stone: both dead stones make their regions neutral
    assert_eq!(answers[10], "W+7");
    // once the game has ended by passes, the same stones are dead
    let ended = last(&mut engine, &format!("{position}play b pass\nplay w pass\nfinal_status_list dead\n"));
    assert_eq!(ended, "B5\nH5");
    // undo changes the position, and the judgement with it
    assert_eq!(last(&mut engine, "undo\nundo\nundo\nfinal_status_list dead\n"), "H5");
    assert_eq!(
        last(&mut engine, "final_status_list black_territory\n").split(' ').count(),
        27,
        "A-C, B5 taken back"
    );
}

#[test]
fn the_ai_settles_the_position_before_it_passes() {
    let mut engine = engine();
    // Black passes at once: White wins by counting the board as it stands, but H5 is dead and
    // column E open, so White plays on
    let first = last(&mut engine, &format!("{}play b pass\ngenmove w\n", two_walls()));
    assert_ne!(first, "PASS");
    let mut moves = vec![first];
    while moves.last().is_some_and(|m| m != "PASS") {
        assert!(moves.len() < 30, "the AI keeps playing: {moves:?}");
        moves.push(last(&mut engine, "play b pass\ngenmove w\n"));
    }
    let black = last(&mut engine, "list_stones black\n");
    assert_eq!(black, D_WALL, "White captured H5 before passing ({moves:?})");
    assert_eq!(last(&mut engine, "captures white\n"), "1");
    assert_eq!(last(&mut engine, "final_status_list dead\n"), "B5", "only White's own dead stone is left");
}

#[test]
fn seven_stones_each_are_not_a_finished_game() {
    // the game: 7 stones each on 9x9, Black passes; counting every stone as alive, White
    // wins by komi and G6 (the one point only White's stones surround; every other empty region
    // touches both colours), so passing would end the game won
    let mut engine = engine();
    let moves = "play b c3\nplay w g7\nplay b c7\nplay w g3\nplay b e5\nplay w e3\nplay b c5\n\
                 play w g5\nplay b e7\nplay w h4\nplay b b4\nplay w f6\nplay b d2\nplay w h6\n";
    assert_eq!(last(&mut engine, &format!("boardsize 9\nclear_board\nkomi 7\n{moves}final_score\n")), "W+8");
    let answer = last(&mut engine, "play b pass\ngenmove w\n");
    assert!(answer != "PASS" && answer != "resign", "{answer}");
}

/// The Stoical seki of the tactics suite's test 16: White's ring (A2, A3-D3, D2, D1) and Black's
/// B2, A1, B1 share the liberties C2 and C1; White wins by passing. The heavy playouts' ownership
/// calls Black's three stones dead, so C2 and C1 are liberties of dead stones, the settling rule's
/// points; filling either puts White's ring in atari and loses it. At seed 9 the settling rule
/// filled C2 (57.7% on 26 visits against the best move's 66%), before a settling move was
/// refused when it leaves its own chain in atari.
#[test]
fn a_settling_move_never_fills_a_seki() {
    let settings = Settings {
        playouts: 3000,
        seed: 9,
        playout: Some(variago_search::playout::Policy::Heavy),
        resign_below: None,
        ..Settings::default()
    };
    let mut engine =
        Engine::new(Config { settings, fixed_budget: true, ponder: false, lizzie: false }, "stoical:size=9")
            .expect("a variant");
    let mut lines = String::new();
    for black in "A5 B5 C5 D5 E5 F5 G5 H5 J5 A4 B4 C4 D4 E4 E3 B2 E2 A1 B1 E1".split(' ') {
        lines += &format!("play b {black}\n");
    }
    for white in "A6 B6 C6 D6 E6 F6 G6 H6 J6 A3 B3 C3 D3 D2 D1 A2".split(' ') {
        lines += &format!("play w {white}\n");
    }
    let answer = last(&mut engine, &format!("{lines}genmove w\n"));
    assert!(answer != "C2" && answer != "C1", "White filled the seki: {answer}");
}

#[test]
fn a_settled_position_is_passed() {
    let mut engine = engine();
    let mut lines = String::from("boardsize 9\nclear_board\nkomi 7\n");
    for row in 1..=9 {
        lines += &format!("play b d{row}\nplay w e{row}\n");
    }
    assert_eq!(last(&mut engine, &format!("{lines}final_status_list dead\n")), "");
    assert_eq!(last(&mut engine, &format!("{lines}play b pass\ngenmove w\n")), "PASS");
}

/// The capture of H5 in the two-walls position, Black passing meanwhile.
const CAPTURE: &str = "play w g5\nplay b pass\nplay w h4\nplay b pass\nplay w h6\nplay b pass\nplay w j5\n";

#[test]
fn gnu_go_extensions_answer_in_gnu_go_formats() {
    let mut engine = engine();
    let position = two_walls();
    let out = ask(
        &mut engine,
        &format!(
            "{position}{CAPTURE}list_stones black\nlist_stones WHITE\ncaptures white\ncaptures b\nall_legal black\n\
             query_boardsize\nget_komi\nget_handicap\nmove_history\n"
        ),
    );
    let answers = &out[out.len() - 9..];
    assert_eq!(answers[0], D_WALL);
    assert_eq!(answers[1], "F9 F8 F7 F6 H6 B5 F5 G5 J5 F4 H4 F3 F2 F1");
    assert_eq!(answers[2], "1");
    assert_eq!(answers[3], "0");
    let stones = format!("{D_WALL} {} H5", answers[1]);
    // H5 would be suicide for Black
    assert_eq!(answers[4], board_order_except(&stones.split(' ').collect::<Vec<_>>()));
    assert_eq!(answers[5], "9");
    assert_eq!(answers[6], " 7.0", "GNU Go's %4.1f");
    assert_eq!(answers[7], "0");
    let history: Vec<&str> = answers[8].lines().collect();
    assert_eq!(
        &history[..8],
        [
            "white J5",
            "black PASS",
            "white H6",
            "black PASS",
            "white H4",
            "black PASS",
            "white G5",
            "white B5"
        ]
    );
    assert_eq!(history.last(), Some(&"black D1"));
    assert_eq!(history.len(), 18 + 2 + 7, "the pass put in before G5 is not listed");

    assert_eq!(last(&mut engine, "komi -3.5\nget_komi\n"), "-3.5");
    assert_eq!(last(&mut engine, "komi 10\nget_komi\n"), "10.0");
    assert_eq!(last(&mut engine, "boardsize 13\nfixed_handicap 3\nget_handicap\n"), "3");
    assert_eq!(last(&mut engine, "rectangular_boardsize 9 7\nquery_boardsize\n").chars().next(), Some('?'));
    assert_eq!(last(&mut engine, "boardsize 9\nmove_history\n"), "");
    // a suicide's own stones count for the opponent
    let suicide = "variago-variant go:suicide=allowed,size=5\nplay b a1\nplay w a2\nplay b pass\nplay w b2\n\
                   play b pass\nplay w c1\nplay b b1\ncaptures black\ncaptures white\nlist_stones b\n";
    assert_eq!(ask(&mut engine, suicide)[8..], ["0", "2", ""]);

    // the search's top moves, as `VERTEX WINRATE` pairs
    let top = last(&mut engine, &format!("{position}top_moves_white\n"));
    let words: Vec<&str> = top.split(' ').collect();
    assert!(words.len() >= 2 && words.len() <= 20 && words.len().is_multiple_of(2), "{top}");
    for pair in words.chunks(2) {
        assert_eq!(last(&mut engine, &format!("is_legal w {}\n", pair[0])), "1", "{top}");
        let value: f64 = pair[1].parse().unwrap();
        assert!((0.0..=100.0).contains(&value) && pair[1].split('.').nth(1).unwrap().len() == 2, "{top}");
    }
    // GTP has no end of game: after two passes the moves are still there
    let after_passes = last(&mut engine, "play b pass\nplay w pass\ntop_moves_black\n");
    assert!(!after_passes.is_empty(), "the game goes on after two passes");
    assert_eq!(last(&mut engine, "level 3\n"), "");
    assert_eq!(last(&mut engine, "level 40\n"), "", "GNU Go takes any integer; above 10 is 10");
}

#[test]
fn absurd_arguments_get_errors() {
    let mut engine = engine();
    let commands = [
        "list_stones purple",
        "list_stones",
        "list_stones b w",
        "captures 99999999999999999999",
        "captures",
        "all_legal",
        "all_legal grey",
        "final_status z99",
        "final_status a1 b2",
        "final_status 99999999999999999999",
        "final_status",
        "final_status_list",
        "final_status_list sleepy",
        "level",
        "level x",
        "level 99999999999999999999",
        "level 1.5",
        "top_moves_black x",
        "variago-variant galice",
        "list_stones b",
        "estimate_score",
        "top_moves_white",
        "move_history",
        "query_boardsize",
        "all_legal b",
    ];
    let out = ask(&mut engine, &(commands.join("\n") + "\n"));
    assert_eq!(out.len(), commands.len());
    for (command, answer) in commands.iter().zip(&out) {
        let expected_ok = *command == "variago-variant galice";
        assert_eq!(answer.starts_with('?'), !expected_ok, "{command}: {answer}");
    }
    // Galice keeps its own answers where they make sense
    assert_eq!(last(&mut engine, "get_komi\n"), " 0.0");
    assert_eq!(last(&mut engine, "final_status_list dead\n"), "");
}

/// GNU Go, if it is installed (`gnugo` on the path, or Debian's /usr/games/gnugo).
fn gnu_go() -> Option<String> {
    ["gnugo", "/usr/games/gnugo"].into_iter().map(str::to_string).find(|program| {
        Command::new(program).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok()
    })
}

/// GNU Go's answers to `lines` (their text after `= `, or `? message`).
fn gnu_go_answers(program: &str, lines: &str) -> Vec<String> {
    let mut child = Command::new(program)
        .args(["--mode", "gtp", "--level", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("GNU Go starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(lines.as_bytes()).unwrap();
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let mut answers = Vec::new();
    let mut current: Vec<String> = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if line.is_empty() {
            if !current.is_empty() {
                let text = current.join("\n");
                answers.push(text.strip_prefix("= ").unwrap_or(&text).to_string());
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    child.wait().unwrap();
    answers.pop(); // quit's
    answers
}

#[test]
fn the_extensions_answer_as_gnu_go_does() {
    let Some(program) = gnu_go() else {
        assert!(
            !std::env::var("VARIAGO_REQUIRE_GNUGO").is_ok_and(|v| v == "1"),
            "VARIAGO_REQUIRE_GNUGO is set, but GNU Go is not installed"
        );
        eprintln!(
            "skipped: GNU Go is not installed (apt-get install gnugo; VARIAGO_REQUIRE_GNUGO=1 makes this a failure)"
        );
        return;
    };
    let queries = "list_stones black\nlist_stones white\ncaptures black\ncaptures white\nmove_history\nall_legal black\n\
                   all_legal white\nquery_boardsize\nget_komi\nget_handicap\nfinal_status_list dead\nfinal_status_list alive\n\
                   final_status h5\nfinal_status b5\nfinal_status d5\nfinal_status a1\nfinal_status j9\n";
    for position in [two_walls(), format!("{}{CAPTURE}", two_walls())] {
        let script = format!("{position}{queries}");
        let ours = ask(&mut engine(), &script);
        let theirs = gnu_go_answers(&program, &script);
        assert_eq!(ours.len(), theirs.len(), "{theirs:?}");
        let asked = queries.lines().count();
        for ((query, ours), theirs) in
            queries.lines().zip(&ours[ours.len() - asked..]).zip(&theirs[theirs.len() - asked..])
        {
            assert_eq!(ours, theirs, "{query}");
        }
    }
    let handicap = "boardsize 13\nclear_board\nfixed_handicap 5\nkomi 0.5\nget_handicap\nget_komi\nlist_stones black\nmove_history\n";
    assert_eq!(ask(&mut engine(), handicap)[4..], gnu_go_answers(&program, handicap)[4..]);
}

#[test]
fn a_variant_without_ownership_counts_every_stone_alive() {
    let mut engine = engine();
    let out = ask(
        &mut engine,
        "variago-variant borderline:deployment=0,pass-cap=off,cooldown=0,size=9\nplay b e5\nplay w c3\n\
         final_status_list alive\nfinal_status_list dead\nfinal_status e5\nestimate_score\n",
    );
    assert_eq!(out[3..6], ["E5\nC3", "", "alive"], "{out:?}");
    assert!(out[6].contains(" (upper bound: "), "{out:?}");
}

/// A finished 9x9 game that White wins by far: Black's wall on column B, White's on column C,
/// every other point someone's territory; komi 7.
fn white_far_ahead() -> String {
    let mut lines = String::from("boardsize 9\nclear_board\nkomi 7\n");
    for row in 1..=9 {
        lines += &format!("play b b{row}\nplay w c{row}\n");
    }
    lines
}

#[test]
fn after_the_opponent_passes_a_won_game_is_passed_not_filled() {
    // a client counting territory (qGo, Quarry) takes each move inside one's own area off the
    // score: White, winning, passes back instead of filling its territory
    let mut engine = engine();
    for seed in 0..3 {
        let answer = last(&mut engine, &format!("{}play b pass\ngenmove w\n", white_far_ahead()));
        assert_eq!(answer, "PASS", "seed {seed}");
    }
}

#[test]
fn under_territory_rules_the_ai_does_not_fill_its_own_territory() {
    let mut engine = engine();
    assert_eq!(last(&mut engine, "kgs-rules japanese\n"), "");
    assert!(last(&mut engine, "kgs-rules go\n").starts_with("? unknown rules"));
    // Black's last move was a placement (inside its own area), so the pass rule does not apply
    let answer = last(&mut engine, &format!("{}play b a5\ngenmove w\n", white_far_ahead()));
    assert!(answer == "PASS" || answer.starts_with('A'), "White filled its own territory: {answer}");
}
