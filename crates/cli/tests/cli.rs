//! The CLI's contracts: what each probe prints last, exit codes, and one-line errors.

use std::path::PathBuf;
use std::process::{Command, Output};

fn variago(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variago")).args(args).output().expect("the binary runs")
}

fn last_line(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).lines().last().unwrap_or_default().to_string()
}

/// Writes `text` to a fresh file for one test.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variago-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn arg(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

/// A one-line error on stderr, exit code 2, no panic.
fn assert_input_error(output: &Output, mentions: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains(mentions), "expected '{mentions}' in: {stderr}");
}

#[test]
fn rules_lists_every_variant_and_option() {
    let out = variago(&["rules"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for name in [
        "go:",
        "incursion:",
        "incursion-minimal:",
        "incursion-line:",
        "stoical:",
        "excursion-1:",
        "excursion-2:",
    ] {
        assert!(text.lines().any(|l| l.starts_with(name)), "{name} missing:\n{text}");
    }
    for option in
        ["ko = simple | positional | situational", "refine = none | more-stones", "draw = own-position"]
    {
        assert!(text.contains(option), "{option} missing:\n{text}");
    }
}

#[test]
fn perft_prints_the_count_last() {
    // 2x2 from the empty board: 4 points + pass at depth 1
    let out = variago(&["perft", "--variant", "go", "--size", "2", "--depth", "1"]);
    assert_eq!(last_line(&out), "5");
    let out = variago(&["perft", "--variant", "go:ko=simple", "--size", "3x2", "--depth", "2", "--divide"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "six points, pass, total:\n{text}");
    let sum: u64 =
        lines[..7].iter().map(|l| l.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(lines[7].parse::<u64>().unwrap(), sum);
    let sgf = file("perft.sgf", "(;GM[1]SZ[3]RU[go];B[bb])");
    let out = variago(&["perft", "--depth", "1", arg(&sgf)]);
    assert_eq!(last_line(&out), "9", "8 empty points and a pass");
}

/// Square Lifeline counts a first turn's pair once: on 3x3, the 36 pairs less the 12 adjacent
/// ones (a group alone, removed at once, is no turn); with the swap, White's replies add one each.
#[test]
fn perft_counts_square_lifeline_s_pairs_and_swap() {
    let out = variago(&["perft", "--variant", "lifeline", "--size", "3", "--depth", "1", "--divide"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(last_line(&out), "24", "{text}");
    assert!(text.lines().any(|l| l.starts_with("C3+A1 ") || l.starts_with("A1+C3 ")), "{text}");
    let out = variago(&["perft", "--variant", "lifeline:size=3x3,swap=false", "--depth", "2"]);
    assert_eq!(last_line(&out), "316");
    let out = variago(&["perft", "--variant", "lifeline:size=4x4", "--depth", "2"]);
    assert_eq!(last_line(&out), "7044");
    // its own refusals, not an unknown variant
    assert_input_error(
        &variago(&["perft", "--variant", "lifeline:size=1x5", "--depth", "1"]),
        "each side 2 to 25",
    );
    assert_input_error(
        &variago(&["perft", "--variant", "lifeline", "--size", "1x5", "--depth", "1"]),
        "each side 2 to 25",
    );
    assert_input_error(
        &variago(&["perft", "--variant", "lifeline:komi=7.5", "--depth", "1"]),
        "no option 'komi'",
    );
}

/// A Square Lifeline record written by hand (docs/records.md: a first turn is two nodes of the
/// mover's colour): Black C2+C4, White B3+D3.
const LIFELINE_SGF: &str = "(;GM[1]FF[4]SZ[5]RU[lifeline];B[cd];B[cb];W[bc];W[dc])";

#[test]
fn square_lifeline_records_replay_and_answer_every_record_command() {
    let dir = std::env::temp_dir().join(format!("variago-cli-lifeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("worked.sgf");
    std::fs::write(&path, LIFELINE_SGF).unwrap();
    let file = path.to_str().unwrap();
    let replay = variago(&["replay", file]);
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    let text = String::from_utf8_lossy(&replay.stdout).to_string();
    assert!(text.starts_with("2 turns of lifeline on 5x5\n"), "{text}");
    assert!(text.contains(" 3  . O . O .  3\n"), "{text}");
    // C3 joins Black's two stones into its only group: legal, and Black then loses them
    assert_eq!(last_line(&variago(&["legal", "--why", "C3", file])), "C3 is legal");
    assert_eq!(
        last_line(&variago(&["legal", "--why", "swap", file])),
        "swap is illegal: the swap is only for White's first turn"
    );
    let legal = last_line(&variago(&["legal", file]));
    assert_eq!(legal.split(' ').count(), 21, "every empty point: {legal}");
    assert_eq!(last_line(&variago(&["perft", "--depth", "1", file])), "21");
    let genmove = variago(&["genmove", "--playouts", "200", "--seed", "1", file]);
    assert!(genmove.status.success(), "{}", String::from_utf8_lossy(&genmove.stderr));
    assert!(legal.split(' ').any(|m| m == last_line(&genmove)), "{}", last_line(&genmove));

    // the game to its end: the score says who won, in words
    std::fs::write(&path, "(;GM[1]SZ[5]RU[lifeline];B[cd];B[cb];W[bc];W[dc];B[cc];W[ae])").unwrap();
    let score = variago(&["score", file]);
    let text = String::from_utf8_lossy(&score.stdout).to_string();
    assert!(
        text.contains("White wins: Black has no legal placement (the last player to place wins)"),
        "{text}"
    );
    assert_eq!(last_line(&score), "W+");
    assert_input_error(&variago(&["legal", file]), "the game is over (W+): no move is legal");
    assert_input_error(
        &variago(&["replay", "--variant", "lifeline:swap=false", file]),
        "--variant lifeline:swap=false disagrees with the record, which is lifeline on 5x5",
    );
    std::fs::write(&path, "(;GM[1]SZ[5]RU[lifeline];B[cd];W[bc])").unwrap();
    assert_input_error(&variago(&["replay", file]), "Black's first turn is two stones");
}

#[test]
fn legal_lists_moves_and_explains_one() {
    let sgf = file("legal.sgf", "(;GM[1]SZ[5]RU[incursion]AB[bb][ac][bd]AW[cb][bc][dc][cd]PL[B];B[cc])");
    let out = variago(&["legal", arg(&sgf)]);
    let moves = last_line(&out);
    assert!(moves.ends_with("pass"), "{moves}");
    assert!(!moves.split(' ').any(|m| m == "B3"), "the retake is an incursion after an incursion: {moves}");
    assert!(moves.split(' ').any(|m| m == "E5"), "{moves}");
    let out = variago(&["legal", arg(&sgf), "--why", "B3"]);
    assert_eq!(last_line(&out), "B3 is illegal: incursion right after the opponent's incursion");
    let out = variago(&["legal", arg(&sgf), "--why", "c3"]);
    assert_eq!(last_line(&out), "C3 is illegal: point C3 is occupied");
    let out = variago(&["legal", arg(&sgf), "--why", "E5"]);
    assert_eq!(last_line(&out), "E5 is legal");
    assert_input_error(&variago(&["legal", arg(&sgf), "--why", "I3"]), "'I3' is not a vertex");
    assert_input_error(&variago(&["legal", arg(&sgf), "--why", "F1"]), "off the 5x5 board");
}

#[test]
fn legal_on_a_finished_game_says_it_is_over() {
    let over = file("legal-over.sgf", "(;GM[1]SZ[5]KM[0.5];B[cc];W[];B[])");
    let out = variago(&["legal", arg(&over)]);
    assert_input_error(&out, "the game is over (B+24.5): no move is legal");
    assert!(out.stdout.is_empty(), "no empty answer line: {:?}", String::from_utf8_lossy(&out.stdout));
}

#[test]
fn bad_sizes_and_variants_name_what_is_allowed() {
    let big = file("sz30.sgf", "(;GM[1]SZ[30])");
    assert_input_error(
        &variago(&["score", arg(&big)]),
        "SZ[30]: board size 30x30 is out of range (each side must be 1 to 25, the board at least 2 points)",
    );
    let chess = file("chess.sgf", "(;GM[1]RU[chess])");
    assert_input_error(&variago(&["score", arg(&chess)]), "borderline, galice)");
}

#[test]
fn territory_rule_sets_are_said_to_be_counted_by_area() {
    let japanese = file("japanese.sgf", "(;GM[1]SZ[3]KM[0.5]RU[Japanese];B[bb])");
    for probe in ["score", "replay"] {
        let out = variago(&[probe, arg(&japanese)]);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let note = "note: RU[Japanese] counts territory; variago counts by area (stones plus territory)";
        assert!(text.lines().any(|line| line == note), "{probe}: {text}");
        assert_eq!(last_line(&out), "B+8.5", "{probe}: the answer stays last");
    }
    let chinese = file("chinese.sgf", "(;GM[1]SZ[3]KM[0.5]RU[Chinese];B[bb])");
    let text = String::from_utf8_lossy(&variago(&["score", arg(&chinese)]).stdout).to_string();
    assert!(!text.contains("note:"), "Chinese rules count area: {text}");
}

#[test]
fn score_prints_totals_then_result() {
    let sgf = file("score.sgf", "(;GM[1]SZ[3]KM[0.5]RU[go];B[bb])");
    let out = variago(&["score", arg(&sgf)]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[lines.len() - 2], "Black 9 - White 0");
    assert_eq!(lines[lines.len() - 1], "B+8.5");
    let sgf = file("draw.sgf", "(;GM[1]SZ[2]KM[0]RU[go];B[aa];W[bb])");
    assert_eq!(last_line(&variago(&["score", arg(&sgf)])), "Draw");
}

#[test]
fn replay_prints_the_result_last_and_stops_at_an_illegal_move() {
    let sgf = file("game.sgf", "(;GM[1]SZ[5]KM[0.5]RU[stoical];B[cc];W[];B[])");
    let out = variago(&["replay", arg(&sgf)]);
    assert!(out.status.success());
    assert_eq!(last_line(&out), "B+24.5");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(" 3  . . X . .  3"), "{text}");
    let bad = file("bad.sgf", "(;GM[1]SZ[5];B[cc];W[cc])");
    let out = variago(&["replay", arg(&bad)]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.trim(), "error: move 2 (White C3) is illegal: point C3 is occupied");
}

#[test]
fn bad_input_gets_one_line_and_exit_code_2() {
    assert_input_error(&variago(&["perft", "--variant", "chess", "--depth", "1"]), "unknown variant 'chess'");
    assert_input_error(&variago(&["perft", "--variant", "go:ko=sometimes", "--depth", "1"]), "option 'ko'");
    assert_input_error(&variago(&["perft", "--size", "26", "--depth", "1"]), "out of range");
    assert_input_error(&variago(&["perft", "--size", "1x1", "--depth", "1"]), "out of range");
    assert_input_error(&variago(&["score", "/nonexistent/game.sgf"]), "cannot read");
    assert_input_error(&variago(&["score", "/dev/zero"]), "larger than 67108864 bytes");
    let truncated = file("truncated.sgf", "(;GM[1]SZ[9];B[aa];W[b");
    let message = "malformed SGF: line 1, column 21: a value is not closed by ']'";
    assert_input_error(&variago(&["replay", arg(&truncated)]), message);
    let off = file("off.sgf", "(;GM[1]SZ[9];B[aa];W[zz])");
    assert_input_error(&variago(&["legal", arg(&off)]), "node 3: W point 'zz' is off the 9x9 board");
    let illegal = file("illegal.sgf", "(;GM[1]SZ[9];B[aa];W[aa])");
    assert_input_error(&variago(&["score", arg(&illegal)]), "move 2 (White A9) is illegal");
    assert_input_error(&variago(&["bench", "--variant", "nope"]), "unknown variant");
    let stderr = String::from_utf8_lossy(&variago(&["perft"]).stderr).to_string();
    assert!(stderr.contains("--depth"), "{stderr}");
}

#[test]
fn bench_prints_playouts_per_second_last() {
    let out = variago(&["bench", "--variant", "incursion", "--size", "5", "--playouts", "20"]);
    let last = last_line(&out);
    let (number, unit) = last.split_once(' ').unwrap();
    assert_eq!(unit, "playouts/s");
    assert!(number.parse::<f64>().unwrap() > 0.0, "{last}");
}

#[test]
fn replay_draws_kings_distinctly() {
    // White's first piece lands in the region bordered only by Black's first stone: a king
    let sgf = file("kings.sgf", "(;GM[1]SZ[5]KM[0.5]RU[excursion-2];B[cc];W[dd])");
    let out = variago(&["replay", arg(&sgf)]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(" 2  . . . k .  2"), "{text}");
    assert!(text.contains(" 3  . . X . .  3"), "{text}");
    assert!(out.status.success());
}

const GALICE_GAME: &str = "1. setup x a1 b2 C3 o d4 E5\n2. choose white\n3. --- c3\n4. bB2 D4\n";

#[test]
fn galice_replay_prints_the_diagram_totals_and_result() {
    let record = file("galice.txt", GALICE_GAME);
    let out = variago(&["replay", "--variant", "galice", arg(&record)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.contains(". . . . . . .   2   . x . . . . ."), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[lines.len() - 2], "Black 4 - White 3");
    assert_eq!(lines[lines.len() - 1], "B+1");
}

#[test]
fn galice_score_counts_a_bare_diagram() {
    let mut rows: Vec<String> = (1..=7).map(|row| format!(". . . . . . .   {row}   . . . . . . .")).collect();
    rows[0] = "x . . . . . .   1   . . . . . . .".to_string();
    let bare = file("galice-bare.txt", &(rows.join("\n") + "\n"));
    let out = variago(&["score", "--variant", "galice", arg(&bare)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(last_line(&out), "B+49");
    let short = file("galice-short.txt", &(rows[..6].join("\n") + "\n"));
    assert_input_error(&variago(&["score", "--variant", "galice", arg(&short)]), "the diagram has 6 rows");
    // the probes that need the side to move still ask for it
    assert_input_error(&variago(&["legal", "--variant", "galice", arg(&bare)]), "who moves");
}

#[test]
fn galice_illegal_turn_names_number_turn_and_reason() {
    let record =
        file("galice-bad.txt", "1. setup x a1 b2 C3 o d4 E5\n2. choose white\n3. --- c3\n4. cC3 --\n");
    let out = variago(&["replay", "--variant", "galice", arg(&record)]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("turn 4") && stderr.contains("cC3 --") && stderr.contains("occupied"),
        "{stderr}"
    );
    let garbage = file("galice-garbage.txt", "1. setup x a1 b2 C3 o d4 E5\n2. zz9 !!\n");
    assert_input_error(&variago(&["replay", "--variant", "galice", arg(&garbage)]), "line 2");
}

#[test]
fn galice_probes_list_turns_with_commas_and_count_them() {
    let record = file("galice-probe.txt", GALICE_GAME);
    let legal = last_line(&variago(&["legal", "--variant", "galice", arg(&record)]));
    let turns: Vec<&str> = legal.split(", ").collect();
    assert!(turns.contains(&"-----") || turns.contains(&"pass"), "{legal}");
    assert!(turns.contains(&"Ee5 --"), "{legal}");
    let perft = last_line(&variago(&["perft", "--variant", "galice", "--depth", "1", arg(&record)]));
    assert_eq!(perft.parse::<usize>().unwrap(), turns.len());
    let why = last_line(&variago(&["legal", "--variant", "galice", arg(&record), "--why", "cC3 --"]));
    assert_eq!(why, "cC3 -- is illegal: the twin point C3 is occupied");
    let out = variago(&["bench", "--variant", "galice", "--playouts", "3"]);
    assert!(last_line(&out).ends_with(" playouts/s"), "{}", last_line(&out));
}

#[test]
fn galice_records_may_be_sgf() {
    let sgf = file(
        "galice.sgf",
        "(;GM[1]SZ[15:7]RU[galice]KM[0];GT[setup x a1 b2 C3 o d4 E5];GT[choose white];GT[--- c3];GT[bB2 D4])",
    );
    let out = variago(&["replay", "--variant", "galice", arg(&sgf)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(last_line(&out), "B+1");
}

#[test]
fn genmove_prints_the_evaluation_then_the_move() {
    // White's C1 is in atari at D1: Black captures it
    let sgf =
        file("genmove.sgf", "(;GM[1]SZ[5]KM[3.5]RU[go]AB[ca][cb][cc][cd][be]AW[da][db][dc][dd][ce]PL[B])");
    let out = variago(&["genmove", arg(&sgf), "--playouts", "2000", "--seed", "3"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(last_line(&out), "D1");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.lines().next().unwrap().starts_with("visits "), "{text}");
    let again = variago(&["genmove", arg(&sgf), "--playouts", "2000", "--seed", "3"]);
    let evaluation = |out: &Output| {
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let first = text.lines().next().unwrap_or_default().to_string();
        first.split(' ').take(4).collect::<Vec<_>>().join(" ")
    };
    assert_eq!(
        (evaluation(&again), last_line(&again)),
        (evaluation(&out), last_line(&out)),
        "same seed, same search"
    );
    let out = variago(&["genmove", arg(&sgf), "--time", "0.05", "--threads", "2"]);
    assert!(out.status.success());
    let legal = last_line(&variago(&["legal", arg(&sgf)]));
    assert!(legal.split(' ').any(|m| m == last_line(&out)), "{} not in {legal}", last_line(&out));
    let galice = file("genmove-galice.txt", "");
    let out = variago(&["genmove", "--variant", "galice", arg(&galice), "--playouts", "5"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(last_line(&out).starts_with("x "), "a black setup stone: {}", last_line(&out));
}

#[test]
fn genmove_bad_input_gets_exit_code_2() {
    assert_input_error(&variago(&["genmove", "/nonexistent/game.sgf"]), "cannot read");
    let sgf = file("genmove-bad.sgf", "(;GM[1]SZ[5])");
    let both = variago(&["genmove", arg(&sgf), "--playouts", "5", "--time", "1"]);
    assert_input_error(&both, "cannot be used with");
    assert_input_error(&variago(&["genmove", arg(&sgf), "--threads", "0"]), "--threads");
    assert_input_error(&variago(&["genmove", arg(&sgf), "--time", "0"]), "--time");
    assert_input_error(&variago(&["genmove", arg(&sgf), "--level", "11"]), "11");
    let over = file("genmove-over.sgf", "(;GM[1]SZ[5];B[];W[])");
    assert_input_error(&variago(&["genmove", arg(&over)]), "the game is over");
}

/// The node count the evaluation line reports.
fn reported_nodes(out: &Output) -> usize {
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let words: Vec<&str> = text.lines().next().unwrap_or_default().split(' ').collect();
    let at = words.iter().position(|&w| w == "nodes").unwrap_or_else(|| panic!("no node count in {text}"));
    words[at + 1].parse().unwrap()
}

#[test]
fn genmove_keeps_its_tree_within_max_nodes_and_says_how_full_it_is() {
    let sgf = file("genmove-nodes.sgf", "(;GM[1]SZ[9]KM[7.5])");
    let search = |extra: &[&str]| {
        let mut args = vec!["genmove", arg(&sgf), "--playouts", "3000"];
        args.extend_from_slice(extra);
        let out = variago(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        reported_nodes(&out)
    };
    // 3,000 playouts expanding after 2 visits add far more than 2,000 nodes of 82 moves each
    let free = search(&[]);
    assert!(free > 20_000, "{free} nodes without a bound");
    let bounded = search(&["--max-nodes", "2000"]);
    assert!((1_000..=2_000 + 82).contains(&bounded), "{bounded} nodes with a bound of 2,000");
    for absurd in ["10", "1000000000", "many"] {
        assert_input_error(&variago(&["genmove", arg(&sgf), "--max-nodes", absurd]), "--max-nodes");
    }
}

#[test]
fn a_closed_output_pipe_is_no_panic() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_variago"))
        .args(["perft", "--variant", "go", "--size", "5", "--depth", "2", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before the output is written
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// Records of a million nodes, on the main line or nested, Go and Galice alike: a one-line error
/// for every probe, no crash (they once overflowed the stack).
#[test]
fn huge_records_get_one_line_errors() {
    const MILLION: usize = 1_000_000;
    for (name, root, galice) in [("go", "GM[1]SZ[9]", None), ("galice", "GM[1]RU[galice]", Some("galice"))] {
        let long =
            file(&format!("long-{name}.sgf"), &format!("(;{root}{})", ";B[aa];W[bb]".repeat(MILLION / 2)));
        let nested = format!("(;{root}{}{})", "(;B[aa]".repeat(MILLION), ")".repeat(MILLION + 1));
        let nested = file(&format!("nested-{name}.sgf"), &nested);
        for (path, mentions) in [(long, "longer than 20000 nodes"), (nested, "nested deeper than 1000")] {
            for command in ["replay", "score", "legal"] {
                let mut args = vec![command, arg(&path)];
                args.extend(galice.map(|variant| ["--variant", variant]).into_iter().flatten());
                let out = variago(&args);
                assert_input_error(&out, mentions);
                assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{args:?}");
            }
        }
    }
}

/// Errors that once said nothing useful or nothing at all: a `--variant` disagreeing with the
/// record (exit 0 before), options on galice, a Go record read as Galice (0 turns and a draw
/// before), a megabyte of junk (a megabyte of error before), rows written `+1` or `01`.
#[test]
fn errors_say_what_is_wrong_in_one_short_line() {
    let go = file("plain-go.sgf", "(;GM[1]SZ[9]KM[6.5];B[ee];W[cc])");
    for command in ["replay", "score", "legal", "perft"] {
        let mut args = vec![command, "--variant", "chess", arg(&go)];
        if command == "perft" {
            args.extend(["--depth", "1"]);
        }
        assert_input_error(&variago(&args), "unknown variant 'chess'");
        args[2] = "incursion";
        assert_input_error(
            &variago(&args),
            "--variant incursion disagrees with the record, which is go:komi=6.5 on 9x9",
        );
        args[2] = "go:size=13";
        assert_input_error(&variago(&args), "disagrees");
        args[2] = "go:komi=0.5";
        assert_input_error(&variago(&args), "disagrees");
        for agreeing in ["go", "go:komi=6.5,size=9"] {
            args[2] = agreeing;
            assert!(variago(&args).status.success(), "{args:?}");
        }
    }
    assert_input_error(
        &variago(&["perft", "--variant", "galice:size=9", "--depth", "1"]),
        "galice takes no options",
    );
    for command in ["replay", "score", "legal"] {
        assert_input_error(&variago(&[command, "--variant", "galice", arg(&go)]), "not a Galice record");
    }
    let junk = file("junk.txt", &"qz".repeat(500_000));
    let out = variago(&["replay", "--variant", "galice", arg(&junk)]);
    assert_input_error(&out, "is not a turn");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.len() < 400 && stderr.lines().count() == 1 && stderr.contains("qzqz…"), "{stderr}");
    for row in ["A+1", "A01", "A-1"] {
        assert_input_error(&variago(&["legal", arg(&go), "--why", row]), &format!("'{row}' is not a vertex"));
    }
}

#[test]
fn score_counts_without_the_dead_stones_a_record_marks_and_says_when_it_marks_none() {
    let dir = std::env::temp_dir().join(format!("variago-dead-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Black walls column C, White column D; White's A3 inside Black's side, then two passes
    let walls = "(;GM[1]FF[4]SZ[5]KM[0.5];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[ac];B[];W[]";
    let alive = dir.join("alive.sgf");
    std::fs::write(&alive, format!("{walls})")).unwrap();
    let out = variago(&["score", alive.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("note: the record marks no dead stones (XD): every stone counts as alive"),
        "{text}"
    );
    assert_eq!(text.lines().last(), Some("W+6.5"), "A3 alive makes columns A and B neutral: {text}");
    let dead = dir.join("dead.sgf");
    std::fs::write(&dead, format!("{walls}XD[ac])")).unwrap();
    let out = variago(&["score", dead.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("dead stones (XD): A3"), "{text}");
    assert_eq!(text.lines().last(), Some("B+4.5"), "without A3 Black owns columns A-C: {text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
