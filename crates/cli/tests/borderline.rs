//! Borderline through the CLI: records with `RU[borderline]`, the live score per move, the score
//! of a record's end, deployment refusals and perft.

use std::path::PathBuf;
use std::process::{Command, Output};

fn variago(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variago")).args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).to_string()
}

/// Writes `text` to a fresh file for one test.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variago-borderline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Deployment (K19, K1, K18, K2), then Black's K10 on the Border: a living stone in its attack zone.
const GAME: &str = "(;GM[1]FF[4]SZ[19]RU[borderline];B[ja];W[js];B[jb];W[jr];B[jj])";

/// What `variago score` prints for a record, line by line (it must succeed).
fn score_lines(name: &str, record: &str) -> Vec<String> {
    let path = file(name, record);
    let out = variago(&["score", path.to_str().unwrap()]);
    assert!(out.status.success());
    stdout(&out).lines().map(str::to_string).collect()
}

#[test]
fn score_prints_the_breakdown_then_the_totals_then_the_result() {
    assert_eq!(
        score_lines("game.sgf", GAME),
        [
            "Black: live 1 + enclosed 0 + annihilation 0 + siege 0 - loss 0 = 1",
            "White: live 0 + enclosed 0 + annihilation 0 + siege 0 - loss 0 = 0 (komi 0.5)",
            "Black 1 - White 0",
            "B+0.5",
        ]
    );
}

#[test]
fn score_prints_the_live_breakdown_first_when_a_ko_is_awarded() {
    // White's stone at K10 (in the middle of Black's J10, K9 and K11) is a ko that Black takes
    assert_eq!(
        score_lines("ko.sgf", "(;GM[1]FF[4]SZ[19]RU[borderline]PL[B]AB[ij][ji][jk]AW[jj][ki][kk][lj])"),
        [
            "Black: live 2 + enclosed 0 + annihilation 0 + siege 0 - loss 0 = 2",
            "White: live 3 + enclosed 2 + annihilation 0 + siege 0 - loss 0 = 5 (komi 0.5)",
            "with the end-of-game ko award:",
            "ko at K10 awarded to Black (gain 8)",
            "Black: live 4 + enclosed 0 + annihilation 2 + siege 0 - loss 0 = 6",
            "White: live 2 + enclosed 0 + annihilation 0 + siege 0 - loss 1 = 1 (komi 0.5)",
            "Black 6 - White 1",
            "B+4.5",
        ]
    );
}

#[test]
fn replay_scores_prints_one_line_per_move() {
    let path = file("replayed.sgf", GAME);
    let out = variago(&["replay", "--scores", path.to_str().unwrap()]);
    assert!(out.status.success());
    let text = stdout(&out);
    // the per-move lines come first, then the summary ("5 moves of borderline on 19x19")
    let per_move: Vec<&str> = text.lines().take_while(|l| !l.contains(" moves of ")).collect();
    assert_eq!(per_move.len(), 5, "{text}");
    assert!(per_move[0].starts_with("1 B K19: Black: live 0 "), "{}", per_move[0]);
    assert!(per_move[4].starts_with("5 B K10: Black: live 1 "), "{}", per_move[4]);
    assert_eq!(text.lines().last(), Some("B+0.5"));
}

#[test]
fn a_deployment_stone_outside_the_own_zone_is_refused_with_the_reason() {
    let path = file("bad.sgf", "(;GM[1]FF[4]SZ[19]RU[borderline];B[jj])");
    let out = variago(&["replay", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("deployment: Black's first two stones must be in rows 11-19"), "{stderr}");
}

#[test]
fn a_record_from_setup_stones_is_past_deployment() {
    let path = file("setup.sgf", "(;GM[1]FF[4]SZ[19]RU[borderline:forces=90]AB[jj]AW[jk];B[kj])");
    let out = variago(&["legal", path.to_str().unwrap(), "--why", "K11"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().last(), Some("K11 is legal"));
}

#[test]
fn perft_counts_the_deployment_points() {
    let out = variago(&["perft", "--variant", "borderline", "--size", "19", "--depth", "1"]);
    assert_eq!(stdout(&out).lines().last(), Some("171"));
}
