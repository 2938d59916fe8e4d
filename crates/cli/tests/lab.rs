//! `variago lab cycles`: the last line's contract, the printed cycle, the refusals, the table, and
//! an `--sgf` record that `variago replay` plays through.

#[allow(dead_code)]
mod support;

use support::{assert_refused, last_line, line_starting, stdout, variago};

#[test]
fn a_graph_without_cycle_ends_with_no_cycle_and_its_state_count() {
    let out = variago(&["lab", "cycles", "--variant", "incursion", "--size", "2x2", "--passes", "forbidden"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out), "states: 47\nno cycle: 47 states\n");
}

#[test]
fn a_cycle_prints_its_path_its_moves_and_its_boards_before_the_last_line() {
    let out = variago(&["lab", "cycles", "--variant", "go:ko=simple", "--size", "2x2", "--threads", "2"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "cycle of length 6: 170 states");
    let text = stdout(&out);
    assert!(text.starts_with("states: 170\npath: "), "{text}");
    let cycle = line_starting(&out, "cycle: ");
    assert_eq!(cycle.split(' ').count(), 6, "{cycle}");
    assert_eq!(text.matches(" of the cycle").count(), 6, "one diagram per state:\n{text}");
}

#[test]
fn a_stopped_search_says_so_in_the_last_line() {
    let out = variago(&[
        "lab",
        "cycles",
        "--variant",
        "stoical",
        "--size",
        "2x2",
        "--passes",
        "forbidden",
        "--max-states",
        "20",
    ]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "search stopped after 20 states: no cycle found so far");
    // a cycle among the states found answers "not hard-finite" all the same
    let out =
        variago(&["lab", "cycles", "--variant", "go:ko=simple", "--size", "2x2", "--max-states", "150"]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "cycle of length 6: 150 states");
    assert!(stdout(&out).contains("search stopped after 150 states (--max-states 150)"), "{}", stdout(&out));
}

#[test]
fn variants_without_a_finite_state_and_unknown_ones_are_refused_in_one_line() {
    let cycles = |variant: &str| variago(&["lab", "cycles", "--variant", variant, "--size", "3x3"]);
    assert_refused(&cycles("go"), "superko forbids every cycle of placements by definition");
    assert_refused(&cycles("go:ko=situational"), "superko forbids every cycle of placements by definition");
    assert_refused(&cycles("galice"), "galice is out of scope for the cycle search");
    assert_refused(&cycles("borderline"), "borderline is out of scope for the cycle search");
    assert_refused(&cycles("chess"), "unknown variant 'chess'");
    assert_refused(
        &variago(&["lab", "cycles", "--variant", "incursion", "--size", "7x7"]),
        "does not fit in 128 bits",
    );
}

#[test]
fn the_sgf_of_a_cycle_replays_under_the_searched_rules() {
    let dir = std::env::temp_dir().join(format!("variago-lab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cycle.sgf");
    let file = path.to_str().unwrap();
    let out = variago(&["lab", "cycles", "--variant", "excursion-2", "--size", "2x3", "--sgf", file]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "cycle of length 4: 6730 states");
    let sgf = std::fs::read_to_string(&path).unwrap();
    assert!(sgf.contains(r"RU[excursion-2\:draw=none]"), "{sgf}");
    let moves = line_starting(&out, "path: ").split(' ').filter(|m| !m.is_empty()).count() + 2 * 4;
    let replay = variago(&["replay", file]);
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    assert!(
        stdout(&replay).starts_with(&format!("{moves} moves of excursion-2:draw=none on 2x3")),
        "{}",
        stdout(&replay)
    );
}

#[test]
fn square_lifeline_is_searched_and_its_cycle_replays() {
    let out = variago(&["lab", "cycles", "--variant", "lifeline", "--size", "2x3"]);
    assert_eq!(last_line(&out), "no cycle: 52 states");
    let path = std::env::temp_dir().join(format!("variago-lab-lifeline-{}.sgf", std::process::id()));
    let file = path.to_str().unwrap();
    let out = variago(&["lab", "cycles", "--variant", "lifeline", "--size", "3x3", "--sgf", file]);
    assert_eq!(last_line(&out), "cycle of length 2: 2076 states");
    // a first turn is a pair, written with a plus
    assert!(line_starting(&out, "path: ").contains('+'), "{}", stdout(&out));
    let sgf = std::fs::read_to_string(&path).unwrap();
    assert!(sgf.contains(r"RU[lifeline\:draw=none]"), "{sgf}");
    let replay = variago(&["replay", file]);
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    assert!(stdout(&replay).starts_with("7 turns of lifeline:draw=none on 3x3"), "{}", stdout(&replay));
    assert_refused(
        &variago(&["lab", "cycles", "--variant", "lifeline", "--size", "1x5"]),
        "Square Lifeline is played on boards whose sides are 2 points or more, not 1x5",
    );
    let table = variago(&["lab", "cycles", "--variant", "lifeline", "--table", "2x2"]);
    assert_eq!(last_line(&table), "| `lifeline` | 2x2 | - | 7 | no cycle | - |", "no pass: one row");
}

#[test]
fn an_unwritable_sgf_is_refused_before_any_answer() {
    let out = variago(&[
        "lab",
        "cycles",
        "--variant",
        "go:ko=simple,size=2x2",
        "--sgf",
        "/nonexistent-dir/cycle.sgf",
    ]);
    assert_refused(&out, "cannot write /nonexistent-dir/cycle.sgf");
}

#[test]
fn without_a_cycle_no_sgf_is_written() {
    let path = std::env::temp_dir().join(format!("variago-lab-none-{}.sgf", std::process::id()));
    let file = path.to_str().unwrap();
    let out = variago(&[
        "lab",
        "cycles",
        "--variant",
        "excursion-2",
        "--size",
        "2x2",
        "--passes",
        "forbidden",
        "--sgf",
        file,
    ]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "no cycle: 39 states");
    assert!(!path.exists());
    assert!(String::from_utf8_lossy(&out.stderr).contains("was not written"));
}

#[test]
fn the_table_has_a_row_per_board_and_pass_setting() {
    let out = variago(&["lab", "cycles", "--table", "2x2,2x3", "--variant", "incursion"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().skip(2).collect();
    assert_eq!(
        rows,
        [
            "| `incursion` | 2x2 | allowed | 178 | cycle | 6 |",
            "| `incursion` | 2x2 | forbidden | 47 | no cycle | - |",
            "| `incursion` | 2x3 | allowed | 1746 | cycle | 6 |",
            "| `incursion` | 2x3 | forbidden | 654 | cycle | 6 |",
        ]
    );
}
