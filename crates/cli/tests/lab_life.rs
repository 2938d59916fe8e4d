//! `variago lab life-and-death`: the line per problem, the book's moves compared, the last line,
//! SGF and JSON problems, and the refusals.

#[allow(dead_code)]
mod support;

use support::{assert_refused, last_line, scratch, stdout, variago};

/// White's group on the top edge with a straight three of eye space (A, B, C of the top row),
/// Black's wall around it: the middle point decides.
const STRAIGHT_THREE_SGF: &str =
    "(;GM[1]FF[4]SZ[7:5]AB[ea][eb][ac][bc][cc][dc][ec]AW[da][ab][bb][cb][db]PL[B])";

/// The same stones on a 7x7 board as a collection's JSON record, the book's answer B7.
const STRAIGHT_THREE_JSON: &str = r#"{"AB": ["ea", "eb", "ac", "bc", "cc", "dc", "ec"], "AW": ["da", "ab", "bb", "cb", "db"],
    "SZ": "7", "C": "Black to play: Elementary", "SOL": [["B", "ba", "Correct.", ""]]}"#;

#[test]
fn an_sgf_problem_prints_its_verdict_goal_moves_and_line() {
    let dir = scratch("lab_life", "sgf");
    let path = dir.join("straight.sgf");
    std::fs::write(&path, STRAIGHT_THREE_SGF).unwrap();
    let out = variago(&["lab", "life-and-death", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("straight.sgf: success kill B5 ("), "{text}");
    assert!(first.ends_with(" nodes)"), "{text}");
    assert!(text.lines().nth(1).unwrap().starts_with("  line: B5 "), "{text}");
    assert!(!text.contains("undecided"), "every first move decided: {text}");
    assert_eq!(last_line(&out), "solved 1 of 1: success 1, failure 0, unknown 0");

    // White to play lives at the same point
    let white = dir.join("white.sgf");
    std::fs::write(&white, STRAIGHT_THREE_SGF.replace("PL[B]", "PL[W]")).unwrap();
    let out = variago(&["lab", "life-and-death", "--goal", "live", white.to_str().unwrap()]);
    assert!(stdout(&out).starts_with("white.sgf: success live B5 ("), "{}", stdout(&out));
}

/// Black's group on the top edge, to live at D7 (a first-line point between its space and White's
/// F7): proved in a few thousand positions, while refuting every other first move takes several
/// times that.
const FIRST_LINE_LIFE_SGF: &str =
    "(;GM[1]FF[4]SZ[9:7]AB[ba][ab][bb][cc][dc][ec]AW[fa][cb][fb][ac][bc][fc][bd][cd][ed][fd][cf]PL[B])";

#[test]
fn first_moves_the_node_limit_leaves_undecided_are_named() {
    let dir = scratch("lab_life", "undecided");
    let path = dir.join("life.sgf");
    std::fs::write(&path, FIRST_LINE_LIFE_SGF).unwrap();
    let solve = |nodes: u32| {
        let nodes = nodes.to_string();
        stdout(&variago(&[
            "lab",
            "life-and-death",
            "--goal",
            "live",
            "--nodes",
            &nodes,
            path.to_str().unwrap(),
        ]))
    };
    let whole = solve(1_000_000);
    assert!(whole.starts_with("life.sgf: success live D7 ("), "{whole}");
    assert!(!whole.contains("undecided"), "every first move decided: {whole}");
    // some limit between none and the whole proves the life but not every other first move
    let short = (500..10_000).step_by(500).map(solve).find(|text| text.starts_with("life.sgf: success"));
    let short = short.expect("a limit that proves the life");
    assert!(short.contains("\n  undecided: "), "{short}");
}

#[test]
fn a_json_problem_is_compared_with_the_book() {
    let dir = scratch("lab_life", "json");
    let path = dir.join("Prob0001.json");
    std::fs::write(&path, STRAIGHT_THREE_JSON).unwrap();
    let wrong = dir.join("Prob0002.json");
    std::fs::write(&wrong, STRAIGHT_THREE_JSON.replace("\"ba\"", "\"aa\"")).unwrap();
    let out = variago(&["lab", "life-and-death", path.to_str().unwrap(), wrong.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.contains("Prob0001.json: success kill B7 ("), "{text}");
    assert!(text.contains("  book: B7 (agrees)"), "{text}");
    assert!(text.contains("  book: A7 (disagrees)"), "{text}");
    assert!(text.contains("book: 1 of 2 agree\n"), "{text}");
    assert_eq!(last_line(&out), "solved 2 of 2: success 2, failure 0, unknown 0");
}

#[test]
fn unreadable_problems_are_refused_in_one_line() {
    let dir = scratch("lab_life", "bad");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, r#"{"AB": ["zz"], "AW": [], "SZ": "7"}"#).unwrap();
    assert_refused(&variago(&["lab", "life-and-death", bad.to_str().unwrap()]), "\"zz\" is not a point");
    assert_refused(&variago(&["lab", "life-and-death", "/nonexistent/p.sgf"]), "cannot read");
    let sgf = dir.join("p.sgf");
    std::fs::write(&sgf, STRAIGHT_THREE_SGF).unwrap();
    assert_refused(
        &variago(&["lab", "life-and-death", "--variant", "nonsense", sgf.to_str().unwrap()]),
        "nonsense",
    );
}

#[test]
fn compare_prints_the_variants_side_by_side_and_what_changed() {
    let dir = scratch("lab_life", "compare");
    let path = dir.join("straight.sgf");
    std::fs::write(&path, STRAIGHT_THREE_SGF).unwrap();
    let out =
        variago(&["lab", "life-and-death", "--compare", "go,stoical,excursion-1", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    // the vital point kills under every rule: nothing changes
    assert_eq!(
        text.lines().next().unwrap(),
        "straight.sgf (kill): go success B5 | stoical success B5 | excursion-1 success B5",
        "{text}"
    );
    assert!(text.contains("stoical against go: 0 of 1 change"), "{text}");
    assert_eq!(last_line(&out), "changed against go: stoical 0, excursion-1 0 of 1");
    assert_refused(
        &variago(&["lab", "life-and-death", "--compare", "go,nonsense", path.to_str().unwrap()]),
        "nonsense",
    );
}

#[test]
fn json_problems_convert_to_sgf_and_read_back_with_the_book() {
    let dir = scratch("lab_life", "to_sgf");
    let path = dir.join("Prob0001.json");
    std::fs::write(&path, STRAIGHT_THREE_JSON).unwrap();
    let out_dir = dir.join("sgf");
    let out =
        variago(&["lab", "life-and-death", "--to-sgf", out_dir.to_str().unwrap(), path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(last_line(&out), format!("wrote 1 problems to {}", out_dir.display()));
    let sgf = out_dir.join("Prob0001.sgf");
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert!(text.contains("PL[B]") && text.contains("SZ[7]"), "{text}");
    // read back: the same answer, and the book still compared
    let out = variago(&["lab", "life-and-death", sgf.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.starts_with("Prob0001.sgf: success kill B7 ("), "{text}");
    assert!(text.contains("  book: B7 (agrees)"), "{text}");
}

#[test]
fn an_engine_is_asked_for_its_move_beside_the_solver() {
    let dir = scratch("lab_life", "engine");
    let path = dir.join("straight.sgf");
    std::fs::write(&path, STRAIGHT_THREE_SGF).unwrap();
    let engine = "variago:playouts=300";
    let out = variago(&["lab", "life-and-death", "--engine", engine, path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let asked = text.lines().find(|l| l.starts_with(&format!("  engine {engine}: "))).expect(&text);
    // the solver's only winning move is B5: the engine's move is right exactly when it is B5
    let right = asked.starts_with(&format!("  engine {engine}: B5 "));
    let verdict = if right { "right" } else { "wrong" };
    assert!(asked.ends_with(&format!("(solver {verdict})")), "{text}");
    assert!(
        text.contains(&format!("\nengine {engine}: book 0 of 0 right, solver {} of 1 right\n", right as u8)),
        "{text}"
    );
    assert_eq!(last_line(&out), "solved 1 of 1: success 1, failure 0, unknown 0");
    assert_refused(
        &variago(&["lab", "life-and-death", "--engine", "nonsense", path.to_str().unwrap()]),
        "engine 'nonsense'",
    );
}

#[test]
fn the_comparison_writes_a_page_with_the_changed_problems() {
    let dir = scratch("lab_life", "report");
    // White's eye at C4 stands only while D4 does: in Go Black kills by a ko after D3
    let path = dir.join("ko.sgf");
    std::fs::write(&path, "(;GM[1]FF[4]SZ[7:4]AB[bc][cc][dc][ec][fc][ea]AW[ba][da][ab][bb][cb]PL[B])")
        .unwrap();
    let page = dir.join("compare.html");
    let args = ["lab", "life-and-death", "--compare", "go,excursion-1", "--report", page.to_str().unwrap()];
    let out = variago(&[&args[..], &[path.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let line = text.lines().next().unwrap();
    assert!(line.starts_with("ko.sgf (kill): go success ko D3 | excursion-1 "), "{text}");
    let changed = !line.ends_with("excursion-1 success ko D3");
    assert!(text.contains(&format!("report: {}\n", page.display())), "{text}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    // a problem is drawn when its answer changed, with every rule's answer
    assert_eq!(html.contains("<svg"), changed, "{html}");
    if changed {
        assert!(html.contains("<td>go</td><td>success by ko D3</td>"), "{html}");
        assert!(html.contains("(changed)"), "{html}");
    }
    assert_refused(
        &variago(&["lab", "life-and-death", "--report", page.to_str().unwrap(), path.to_str().unwrap()]),
        "give --compare too",
    );
}
