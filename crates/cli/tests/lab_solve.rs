//! `variago lab solve`: the output's order and last line, the forced cycle with its values, the
//! `--sgf` record that `variago replay` plays through, the table and the refusals.

#[allow(dead_code)]
mod support;

use support::{assert_refused, last_line, line_starting, scratch, stdout, variago};

#[test]
fn a_board_without_forced_cycles_prints_its_value_and_a_line_that_ends() {
    let out = variago(&["lab", "solve", "--variant", "go:ko=simple", "--size", "1x3"]);
    assert!(out.status.success());
    // Black takes the middle; White has no legal placement left (both ends are suicide)
    assert_eq!(
        stdout(&out),
        "states: 34\nvalue: 3\nline: A2 pass pass\nforced-cycle states: 0\nvalue 3: 34 states, 0 forced-cycle states\n"
    );
}

#[test]
fn a_forced_cycle_prints_its_target_path_cycle_and_each_state_with_l_and_u() {
    let path = scratch("lab_solve", "forced").join("forced.sgf");
    let file = path.to_str().unwrap();
    let out = variago(&["lab", "solve", "--variant", "go:ko=simple", "--size", "2x2", "--sgf", file]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "value -4..4: 170 states, 106 forced-cycle states");
    let text = stdout(&out);
    assert!(text.starts_with("states: 170\nvalue: -4..4\nforced-cycle states: 106\ntarget: "), "{text}");
    assert!(!text.contains("line: "), "no line without a value:\n{text}");
    let cycle = line_starting(&out, "cycle: ").split(' ').count();
    assert_eq!(text.matches(" of the cycle").count(), cycle, "one diagram per state:\n{text}");
    assert_eq!(text.matches("(L -4, U 4):").count(), cycle, "{text}");

    let replay = variago(&["replay", file]);
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    let moves = line_starting(&out, "path: ").split(' ').filter(|m| !m.is_empty()).count() + 2 * cycle;
    assert!(
        stdout(&replay).starts_with(&format!("{moves} moves of go:ko=simple on 2x2")),
        "{}",
        stdout(&replay)
    );
}

#[test]
fn a_target_prints_the_shortest_forced_cycle_of_that_target() {
    let solve = |target: &str| {
        variago(&["lab", "solve", "--variant", "go:ko=simple", "--size", "2x2", "--target", target])
    };
    // 2x2 is worth -4..4: every target from -3 to 4 has forced-cycle states, 5 none
    let out = solve("4");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(line_starting(&out, "target: "), "4");
    assert_eq!(last_line(&out), "value -4..4: 170 states, 106 forced-cycle states");
    let out = solve("-3");
    assert_eq!(line_starting(&out, "target: "), "-3");
    let out = solve("5");
    assert!(out.status.success());
    assert!(!stdout(&out).contains("target: "), "{}", stdout(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no state has L < 5 <= U"));
    assert_refused(
        &variago(&["lab", "solve", "--table", "2x2", "--target", "1"]),
        "--target is for one board, not with --table",
    );
}

#[test]
fn the_table_has_a_row_per_variant_and_board() {
    let out =
        variago(&["lab", "solve", "--table", "1x4,2x2", "--variant", "incursion", "--variant", "stoical"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "| variant | board | states | L | U | forced-cycle states | seconds |");
    // the seconds vary: the rows up to them
    let rows: Vec<String> =
        lines[2..].iter().map(|row| row.rsplitn(3, '|').nth(2).unwrap().to_string() + "|").collect();
    assert_eq!(rows.len(), 4, "{text}");
    assert!(rows[0].starts_with("| `incursion` | 1x4 | "), "{text}");
    assert!(rows[3].starts_with("| `stoical` | 2x2 | 198 | "), "{text}");
}

#[test]
fn a_board_that_does_not_fit_gets_its_row_and_the_table_goes_on() {
    let out = variago(&["lab", "solve", "--table", "2x2,1x3", "--variant", "stoical", "--max-states", "100"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let rows: Vec<&str> = text.lines().skip(2).collect();
    assert_eq!(rows.len(), 2, "{text}");
    // stoical on 2x2 has 198 states (docs/lab-solve.md), 1x3 has 44
    assert!(rows[0].starts_with("| `stoical` | 2x2 | more than 100 | - | - | - | "), "{text}");
    assert!(rows[1].starts_with("| `stoical` | 1x3 | 44 | 3 | 3 | 0 | "), "{text}");
}

#[test]
fn variants_without_a_finite_state_and_stopped_graphs_are_refused_in_one_line() {
    let solve = |variant: &str| variago(&["lab", "solve", "--variant", variant, "--size", "3x3"]);
    assert_refused(&solve("go"), "superko forbids every cycle of placements by definition");
    assert_refused(&solve("borderline"), "out of scope");
    assert_refused(&variago(&["lab", "solve", "--variant", "go:ko=simple"]), "lab solve needs --size WxH");
    assert_refused(
        &variago(&["lab", "solve", "--variant", "go:ko=simple", "--size", "1x1"]),
        "at least 2 points",
    );
    assert_refused(
        &variago(&["lab", "solve", "--variant", "stoical", "--size", "2x2", "--max-states", "20"]),
        "the graph was not explored to the end (20 states found)",
    );
}

#[test]
fn square_lifeline_is_solved_a_win_being_1_and_its_line_ends_without_a_pass() {
    // 2x3: Black's pair, White's pair, and the board leaves Black no placement: White wins
    let out = variago(&["lab", "solve", "--variant", "lifeline", "--size", "2x3"]);
    assert_eq!(
        stdout(&out),
        "states: 52\nvalue: -1\nline: B3+A2 A3+B2\nforced-cycle states: 0\nvalue -1: 52 states, 0 forced-cycle states\n"
    );
    // 3x3: Black wins, though from 200 states neither side can force the end
    let out = variago(&["lab", "solve", "--variant", "lifeline:swap=true", "--size", "3x3", "--target", "0"]);
    assert_eq!(last_line(&out), "value 1: 2076 states, 200 forced-cycle states");
    assert_eq!(line_starting(&out, "target: "), "0");
    assert!(stdout(&out).contains("(L -1, U 1)"), "{}", stdout(&out));
    // every first pair of 2x3 (15 pairs less its 7 adjacent ones) loses for Black
    let out = variago(&["lab", "solve", "--variant", "lifeline", "--size", "2x3", "--first-moves"]);
    let firsts: Vec<String> =
        stdout(&out).lines().filter(|l| l.starts_with("first move ")).map(String::from).collect();
    assert_eq!(firsts.len(), 8, "{firsts:?}");
    assert!(firsts.iter().all(|l| l.contains('+') && l.ends_with(": L -1, U -1")), "{firsts:?}");
    assert_eq!(last_line(&out), "value -1: 52 states, 0 forced-cycle states");
    assert_refused(
        &variago(&["lab", "solve", "--variant", "lifeline", "--table", "2x3", "--first-moves"]),
        "--first-moves is for one board, not with --table",
    );
}
