//! `variago play` driven through its standard input: moves, a refused move with its reason,
//! undo, hint, save and resignation, and the confirmations of a game-ending pass and a
//! resignation.

use std::io::Write;
use std::process::{Command, Stdio};

fn play(args: &[&str], input: &str) -> String {
    play_in(&std::env::temp_dir(), args, input)
}

/// `variago play` run in a directory (where `save` without a name writes).
fn play_in(dir: &std::path::Path, args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_variago"))
        .current_dir(dir)
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "exit {:?}", out.status);
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_game_against_the_ai_with_every_command() {
    let dir = std::env::temp_dir().join(format!("variago-play-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("game.sgf");
    let input = format!("C3\nC3\nZ9\nundo\nB2\nhint\nsave {}\nresign\ny\n", saved.display());
    let text = play(&["--size", "5", "--playouts", "200"], &input);
    // the board shows the last move in brackets, and whose turn it is
    assert!(text.contains("(X)"), "{text}");
    assert!(text.contains("variago (White) plays "), "{text}");
    assert!(text.contains("C3 is illegal: point C3 is occupied"), "{text}");
    assert!(text.contains("Z9 is illegal: "), "{text}");
    assert!(text.contains("2 move(s) taken back"), "{text}");
    assert!(text.contains("hint: "), "{text}");
    assert_eq!(text.lines().last(), Some("W+R"));
    let record = variago_records::Record::from_sgf(&std::fs::read_to_string(&saved).unwrap()).unwrap();
    assert_eq!(record.moves.len(), 2, "B2 and the AI's answer");
}

#[test]
fn two_people_share_the_keyboard_until_two_passes_end_the_game() {
    // the second pass asks first: no, then yes
    let text = play(&["--size", "3", "--color", "both"], "B2\npass\npass\nn\npass\ny\n");
    assert!(text.contains("White> "), "{text}");
    assert!(
        text.contains("pass ends the game. End it? [y/N] not played: play on, or undo, save, hint"),
        "{text}"
    );
    // Black's lone stone owns the 3x3 board: 9 points against 7.5 komi
    assert_eq!(text.lines().last(), Some("B+1.5"), "{text}");
}

#[test]
fn borderline_shows_the_live_score_and_the_forces() {
    let text = play(&["--variant", "borderline", "--color", "both"], "K10\nK19\nquit\n");
    assert!(
        text.contains("K10 is illegal: deployment: Black's first two stones must be in rows 11-19"),
        "{text}"
    );
    assert!(text.contains("Black: 119 stones left, passes left: 2"), "{text}");
    assert!(text.contains("Black: live 0 + enclosed 0"), "{text}");
}

#[test]
fn galice_turns_are_typed_in_its_notation() {
    let input = "bB2 D4\nsetup x a1 b2 C3 o d4 E5\nchoose white\n--- c3\nquit\n";
    let text = play(&["--variant", "galice", "--color", "both"], input);
    assert!(text.contains("bB2 D4 is illegal: "), "a turn before the setup is refused: {text}");
    // the whole setup typed at once (it once was taken for an unknown command), then the choice
    // and White's first drop
    assert!(!text.contains("unknown command"), "{text}");
    assert!(text.contains("last turn: --- c3"), "{text}");
    assert!(text.contains(". . o . . . .   3   . . x . . . ."), "{text}");
}

#[test]
fn unknown_commands_are_named_and_resigning_asks_first() {
    let text = play(&["--size", "5", "--playouts", "50"], "foo\nresign\nno\nresign\nyes\n");
    assert!(text.contains("unknown command 'foo' (a move is a vertex such as D4, or pass)"), "{text}");
    assert!(!text.contains("not a vertex"), "{text}");
    assert!(text.contains("Resign this game? [y/N] not resigned: play on"), "{text}");
    assert_eq!(text.lines().last(), Some("W+R"), "{text}");
}

#[test]
fn the_seed_comes_from_the_clock_and_is_printed_unless_given() {
    let seed = |text: &str| {
        let line =
            text.lines().find(|l| l.starts_with("the AI's seed is ")).expect("the seed line").to_string();
        line.split_whitespace().nth(4).expect("a number").parse::<u64>().expect("a seed")
    };
    let first = seed(&play(&["--size", "5", "--playouts", "50"], "quit\n"));
    let second = seed(&play(&["--size", "5", "--playouts", "50"], "quit\n"));
    assert_ne!(first, second, "two games, two seeds");
    let given = play(&["--size", "5", "--playouts", "50", "--seed", "42"], "quit\n");
    assert!(given.contains("the AI's seed is 42 (play this game again with --seed 42)"), "{given}");
}

#[test]
fn the_hint_is_marked_on_the_board_and_save_without_a_name_picks_one() {
    let dir = std::env::temp_dir().join(format!("variago-play-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = play_in(&dir, &["--size", "5", "--playouts", "100", "--seed", "3"], "hint\nsave\nquit\n");
    let hint = text.lines().find_map(|l| l.strip_prefix("hint: ")).expect("a hint");
    let vertex = hint.split_whitespace().next().unwrap();
    // the board drawn with the hint: its row has a `*` in the hinted column
    let (column, row) = vertex.split_at(1);
    let x = "ABCDE".find(column).expect("a column");
    let marked = text
        .lines()
        .find(|l| l.starts_with(&format!("{row:>2} ")) && l.contains('*'))
        .expect("a row with the hint");
    assert_eq!(marked.chars().nth(3 + 2 * x + 1), Some('*'), "{text}");
    // (after the prompt, on its line)
    let saved =
        text.lines().find_map(|l| l.split("saved ").nth(1)).unwrap_or_else(|| panic!("saved: {text}"));
    assert!(saved.starts_with("variago-") && saved.ends_with(".sgf"), "{saved}");
    let record = std::fs::read_to_string(dir.join(saved)).unwrap();
    assert!(record.starts_with("(;"), "{record}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Square Lifeline: the person plays White and swaps, so the person plays Black from then on and
/// the AI makes White's first turn (a pair); the person's next prompt is Black's.
#[test]
fn a_swap_in_square_lifeline_hands_the_person_black() {
    let out = play(
        &["--variant", "lifeline:size=5", "--color", "white", "--playouts", "100", "--seed", "3"],
        "swap\nquit\n",
    );
    assert!(out.contains("variago (Black) plays "), "{out}");
    assert!(out.contains("variago (White) plays "), "the AI plays White's first turn after the swap: {out}");
    let after_swap = out.split("last turn: swap").nth(1).unwrap_or_default();
    assert!(after_swap.contains("\nBlack> "), "{out}");
}
