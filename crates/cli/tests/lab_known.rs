//! `variago lab known-cycles`: a block per gallery entry with a verdict per variant, the counts
//! per variant as the last lines, data files of one's own, and one-line refusals.

#[allow(dead_code)]
mod support;

use support::{assert_refused, stdout, variago};

#[test]
fn every_variant_gets_a_verdict_per_entry_and_a_count() {
    let out = variago(&["lab", "known-cycles"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"excursion-2: 0 of 5 known cycles survive"));
    let counts = &lines[lines.len() - 8..];
    assert_eq!(counts[0], "go:ko=simple: 5 of 5 known cycles survive");
    assert_eq!(counts[1], "incursion: 0 of 5 known cycles survive");
    for name in [
        "triple ko (7x4, Black first): B D2, W B3",
        "eternal life",
        "moonshine life",
        "round-robin ko",
        "sending two returning one",
    ] {
        assert_eq!(lines.iter().filter(|l| l.starts_with(name)).count(), 1, "{name} in:\n{text}");
    }
    // a verdict line per entry and variant: 5 x 8
    assert_eq!(lines.iter().filter(|l| l.starts_with("  ")).count(), 40, "{text}");
    assert!(text.contains(
        "  incursion                   broken at move 2: incursion right after the opponent's incursion\n"
    ));
}

#[test]
fn one_variant_ends_with_its_own_count() {
    let out = variago(&["lab", "known-cycles", "--variant", "go:ko=simple"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.ends_with("\ngo:ko=simple: 5 of 5 known cycles survive\n"), "{text}");
    assert_eq!(text.matches("  go:ko=simple  cycles\n").count(), 5, "{text}");
    assert!(!text.contains("broken"), "{text}");
    let out = variago(&["lab", "known-cycles", "--variant", "incursion:minimal=true"]);
    assert!(out.status.success());
    assert!(stdout(&out).ends_with("\nincursion:minimal=true: 0 of 5 known cycles survive\n"));
}

#[test]
fn a_data_file_of_ones_own_is_replayed() {
    let dir = std::env::temp_dir().join(format!("variago-known-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // the basic ko: a cycle of two moves, which simple ko forbids at the retake
    let ko = dir.join("ko.txt");
    std::fs::write(
        &ko,
        "# the basic ko\nname: basic ko\nto play: black\ncycle: C3 B3\n\n    A B C D\n 4  . X O .\n 3  X O . O\n 2  . X O .\n 1  . . . .\n",
    )
    .unwrap();
    let out = variago(&[
        "lab",
        "known-cycles",
        "--file",
        ko.to_str().unwrap(),
        "--variant",
        "go:ko=simple",
        "--variant",
        "stoical",
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        stdout(&out),
        "basic ko (4x4, Black first): B C3, W B3 (moves 1-2, played again as 3-4)\n\
         \x20 go:ko=simple  broken at move 2: retakes the ko at once (recreates the previous position)\n\
         \x20 stoical       broken at move 2: capture right after the opponent's capture\n\
         \n\
         go:ko=simple: 0 of 1 known cycles survive\n\
         stoical: 0 of 1 known cycles survive\n"
    );
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "name: bad\nto play: black\ncycle: Z9\n 2 X .\n 1 . .\n").unwrap();
    let path = bad.to_str().unwrap();
    assert_refused(&variago(&["lab", "known-cycles", "--file", path]), &format!("{path}: line 3:"));
    assert_refused(
        &variago(&["lab", "known-cycles", "--file", "/nonexistent/ko.txt"]),
        "cannot read /nonexistent/ko.txt",
    );
}

#[test]
fn variants_without_a_finite_state_and_unknown_ones_are_refused_in_one_line() {
    let known = |variant: &str| variago(&["lab", "known-cycles", "--variant", variant]);
    assert_refused(&known("chess"), "unknown variant 'chess'");
    assert_refused(&known("go"), "superko forbids every cycle of placements by definition");
    assert_refused(&known("go:ko=situational"), "superko forbids every cycle of placements by definition");
    assert_refused(&known("galice"), "galice is out of scope");
    assert_refused(&known("borderline"), "borderline is out of scope");
    // one bad variant among good ones refuses the whole run before any output
    assert_refused(
        &variago(&["lab", "known-cycles", "--variant", "incursion", "--variant", "galice"]),
        "galice",
    );
}
