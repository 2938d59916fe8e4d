//! `variago play` driven through its standard input: moves, a refused move with its reason,
//! undo, hint, save and resignation.

use std::io::Write;
use std::process::{Command, Stdio};

fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_variago"))
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
    let input = format!("C3\nC3\nZ9\nundo\nB2\nhint\nsave {}\nresign\n", saved.display());
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
    let text = play(&["--size", "3", "--color", "both"], "B2\npass\npass\n");
    assert!(text.contains("White> "), "{text}");
    // Black's lone stone owns the 3x3 board: 9 points against 7.5 komi
    assert_eq!(text.lines().last(), Some("B+1.5"), "{text}");
}

#[test]
fn borderline_shows_the_live_score_and_the_forces() {
    let text = play(&["--variant", "borderline", "--color", "both"], "K10\nK19\nquit\n");
    assert!(
        text.contains("K10 is illegal: deployment: Black's first two stones must be in rows 1-9"),
        "{text}"
    );
    assert!(text.contains("Black: 119 stones left, passes left: 2"), "{text}");
    assert!(text.contains("Black: live 0 + enclosed 0"), "{text}");
}

#[test]
fn galice_turns_are_typed_in_its_notation() {
    let text = play(&["--variant", "galice", "--color", "both"], "bB2 D4\nquit\n");
    assert!(text.contains("bB2 D4 is illegal: "), "a turn before the setup is refused: {text}");
}
