//! The GTP engine in-process: protocol conformance (ids, comments, empty lines, control
//! characters, errors), every command, the variant extensions, analysis streaming and a hostile
//! stream.

use std::io::Cursor;

use variago_gtp::{COMMANDS, Config, Engine, MAX_LINE};
use variago_search::Settings;

/// An engine with a small, fixed budget so that the tests stay quick and repeatable.
fn engine(variant: &str) -> Engine {
    let settings = Settings { playouts: 200, resign_below: None, ..Settings::default() };
    Engine::new(Config { settings, fixed_budget: true, ponder: false, lizzie: false }, variant)
        .expect("a known variant")
}

/// Runs a whole session and returns everything the engine wrote.
fn session_with(mut engine: Engine, input: &str) -> String {
    let mut output = Vec::new();
    variago_gtp::run(&mut engine, Cursor::new(input.as_bytes().to_vec()), &mut output)
        .expect("writes to memory");
    String::from_utf8(output).expect("answers are UTF-8")
}

/// The answers of a session on 9x9 go, without their final blank lines.
fn answers(input: &str) -> Vec<String> {
    split(&session_with(engine("go:size=9"), input))
}

fn split(output: &str) -> Vec<String> {
    assert!(output.is_empty() || output.ends_with("\n\n"), "every answer ends with a blank line: {output:?}");
    output.split_terminator("\n\n").map(str::to_string).collect()
}

/// The answer to the last command of `input`.
fn last(input: &str) -> String {
    answers(input).pop().expect("an answer")
}

#[test]
fn ids_comments_empty_lines_and_control_characters_follow_the_spec() {
    let out = answers(
        "1 name\n\n   \n# a comment\n2 protocol_version # trailing comment\n\t3\tversion\r\nna\x01me\n\x7f4 known_command\x02 play\n",
    );
    assert_eq!(out.len(), 5, "{out:?}");
    assert_eq!(out[0], "=1 variago");
    assert_eq!(out[1], "=2 2");
    assert!(out[2].starts_with("=3 0."), "{}", out[2]);
    assert_eq!(out[3], "= variago");
    assert_eq!(out[4], "=4 true");
}

#[test]
fn errors_are_well_formed_and_keep_the_id() {
    let out = answers(
        "7 frobnicate\n8 boardsize 1\n9 boardsize 26\n10 boardsize nine\n11 play b\n12 play q e5\n13 play b z9\n14\n15 komi 6.3\n",
    );
    assert_eq!(out[0], "?7 unknown command");
    assert_eq!(out[1], "?8 unacceptable size");
    assert_eq!(out[2], "?9 unacceptable size");
    assert!(out[3].starts_with("?10 syntax error"), "{}", out[3]);
    assert!(out[4].starts_with("?11 syntax error"), "{}", out[4]);
    assert!(out[5].starts_with("?12 syntax error"), "{}", out[5]);
    assert!(out[6].starts_with("?13 syntax error") && out[6].contains("off the 9x9 board"), "{}", out[6]);
    assert!(out[7].starts_with("?14 "), "{}", out[7]);
    assert!(out[8].starts_with("?15 syntax error"), "{}", out[8]);
}

#[test]
fn every_listed_command_is_known_and_handled() {
    let listed = last("list_commands");
    let names: Vec<&str> = listed.trim_start_matches("= ").lines().collect();
    assert_eq!(names, COMMANDS);
    for name in COMMANDS {
        assert_eq!(last(&format!("known_command {name}")), "= true");
        // without arguments a command may fail, but never as unknown
        let answer = last(&format!("{name}\n"));
        assert!(!answer.contains("unknown command"), "{name}: {answer}");
    }
    assert_eq!(last("known_command fly"), "= false");
}

#[test]
fn play_undo_and_the_board() {
    let out = answers(
        "play b e5\nplay W D4\nplay b E5\nshowboard\nundo\nundo\nundo\nundo\nplay w pass\nplay b PASS\n",
    );
    assert_eq!(out[0], "=");
    assert_eq!(out[1], "=");
    assert_eq!(out[2], "? illegal move: point E5 is occupied");
    assert!(
        out[3].starts_with("= \n") && out[3].contains(" 5  . . . . X") && out[3].contains("Black to move"),
        "{}",
        out[3]
    );
    assert_eq!(&out[4..8], ["=", "=", "? cannot undo", "? cannot undo"]);
    // a pass for the colour not to move: the other side passes first; GTP has no end of game,
    // so the move after two passes is taken (the controller decides when the game ends)
    assert_eq!(&out[8..], ["=", "="]);
    let out = answers(
        "play b pass\nplay w pass\nplay b c3\nplay w pass\nplay w pass\nplay w d4\nprintsgf\nundo\nundo\nlist_stones black\n",
    );
    assert_eq!(&out[..6], ["=", "=", "=", "=", "=", "="]);
    assert!(out[6].contains(";B[];W[];B[cg];W[];B[];W[];B[];W[df]"), "{}", out[6]);
    assert_eq!(&out[7..], ["=", "=", "= C3"]);
    // the same colour twice: the other side passes in between
    let out = answers("play b c3\nplay b d4\nprintsgf\nundo\ngogui-rules_side_to_move\nprintsgf\n");
    assert!(out[2].contains(";B[cg];W[];B[df]"), "{}", out[2]);
    // undo takes the put-in pass back with the move
    assert_eq!(out[4], "= white");
    assert!(out[5].ends_with(";B[cg])"), "{}", out[5]);
}

#[test]
fn illegal_moves_say_why() {
    let ko = "play b c5\nplay w d5\nplay b b4\nplay w c4\nplay b c3\nplay w d3\nplay w e4\nplay b d4\n";
    assert_eq!(
        last(&format!("{ko}play w c4\n")),
        "? illegal move: recreates an earlier position (positional superko)"
    );
    assert_eq!(
        last(&format!("variago-variant go:ko=simple\n{ko}variago-why w c4\n")),
        "= retakes the ko at once (recreates the previous position)"
    );
    assert_eq!(last("play b a2\nplay b b1\nplay w a1\n"), "? illegal move: suicide");
    for row in ["a+1", "a01", "a-1"] {
        assert!(last(&format!("play b {row}\n")).starts_with("? "), "{row}");
    }
    assert_eq!(last("play b a2\nplay b b1\nis_legal w a1\n"), "= 0");
    assert_eq!(last("play b a2\nplay b b1\nis_legal w a3\n"), "= 1");
    assert_eq!(
        last("play b pass\nplay w pass\nvariago-why b c3\n"),
        "= legal",
        "GTP plays on after two passes"
    );
    let stoical =
        "variago-variant stoical:size=5\nplay b e3\nplay w e4\nplay b d4\nplay w a2\nplay b a1\nplay w b1\n";
    assert_eq!(
        last(&format!("{stoical}play b e5\n")),
        "? illegal move: capture right after the opponent's capture"
    );
}

#[test]
fn boardsize_clear_board_komi_and_scores() {
    assert_eq!(last("boardsize 5\nplay b c3\nfinal_score\n"), "= B+17.5");
    assert_eq!(last("boardsize 5\nkomi 25\nplay b c3\nfinal_score\n"), "= 0");
    assert_eq!(
        last("boardsize 5\nkomi -0.5\nplay b c3\nplay w pass\nplay b pass\ngogui-rules_final_result\n"),
        "= B+25.5"
    );
    assert_eq!(last("boardsize 5\nplay b c3\nclear_board\nfinal_score\n"), "= W+7.5");
    assert_eq!(last("rectangular_boardsize 7 5\nvariago-rules\n"), "= go:size=7x5");
    assert_eq!(last("rectangular_boardsize 7 30\n"), "? unacceptable size");
    let ended = last("boardsize 5\nplay b c3\nplay w pass\nplay b pass\nprintsgf\n");
    assert!(ended.contains("RE[B+17.5]"), "a finished game's record has its result: {ended}");
    assert!(!last("boardsize 5\nplay b c3\nprintsgf\n").contains("RE["), "a game in progress has none");
    let score = last("boardsize 5\nplay b c3\nvariago-score\n");
    assert!(score.contains("Black: 1 stones + 24 territory = 25") && score.ends_with("B+17.5"), "{score}");
    assert_eq!(last("boardsize 5\nplay b c3\nfinal_status_list alive\n"), "= C3");
    assert_eq!(last("boardsize 5\nplay b c3\nfinal_status_list dead\n"), "=");
    assert!(last("final_status_list sleepy").starts_with("? syntax error"));
}

#[test]
fn handicap_commands() {
    assert_eq!(last("fixed_handicap 4\n"), "= C3 G7 C7 G3");
    assert_eq!(last("fixed_handicap 4\ngogui-rules_side_to_move\n"), "= white");
    assert_eq!(last("fixed_handicap 10\n"), "? invalid number of stones");
    assert_eq!(last("play b e5\nfixed_handicap 2\n"), "? board not empty");
    assert_eq!(last("place_free_handicap 3\n").split(' ').count(), 4);
    assert_eq!(last("set_free_handicap a1 b2 c3\nfinal_status_list alive\n"), "= C3\nB2\nA1");
    assert_eq!(last("set_free_handicap a1 a1\n"), "? bad vertex list");
    assert_eq!(last("set_free_handicap a1\n"), "? bad vertex list");
    assert_eq!(last("set_free_handicap a1 z1\n"), "? bad vertex list");
    assert_eq!(last("fixed_handicap 2\nprintsgf\n").matches("AB[").count(), 1);
}

#[test]
fn genmove_plays_and_reg_genmove_does_not() {
    let out = answers("boardsize 7\ngenmove b\ngenmove w\nreg_genmove b\nkgs-genmove_cleanup b\nprintsgf\n");
    assert!(out[1].starts_with("= ") && out[2].starts_with("= "), "{out:?}");
    let sgf = &out[5];
    assert_eq!(sgf.matches(";B[").count() + sgf.matches(";W[").count(), 3, "{sgf}");
    // the same settings give the same moves
    assert_eq!(
        answers("boardsize 7\ngenmove b\ngenmove w\n"),
        answers("boardsize 7\ngenmove b\ngenmove w\n")
    );
    // after two passes the engine plays on when asked (GTP has no end of game)
    let after = answers("boardsize 7\nplay b pass\nplay w pass\ngenmove b\nlist_stones black\n");
    assert!(after[3].len() > 2 && after[3] != "= PASS" && after[4] == after[3], "{after:?}");
}

#[test]
fn a_clock_without_a_fixed_budget_sets_the_time() {
    let settings = Settings { resign_below: None, ..Settings::default() };
    let engine =
        Engine::new(Config { settings, fixed_budget: false, ponder: false, lizzie: false }, "go:size=9")
            .unwrap();
    let out = split(&session_with(
        engine,
        "time_settings 1 0 0\ntime_left b 1 0\ngenmove b\nkgs-time_settings byoyomi 0 1 1\ngenmove w\nkgs-time_settings none\ntime_left w x 0\n",
    ));
    assert_eq!(out[0], "=");
    assert!(out[2].starts_with("= "), "{out:?}");
    assert!(out[4].starts_with("= "), "{out:?}");
    assert!(out[6].starts_with("? syntax error"), "{out:?}");
    // the clocks go into the record
    let sgf = last("play b e5\ntime_left b 50 0\nplay w c3\ntime_left w 40.5 0\nundo\nplay w d3\nprintsgf\n");
    assert!(sgf.contains(";B[ee]BL[50];W[dg])"), "{sgf}");
}

#[test]
fn loadsgf_reads_to_a_move_and_printsgf_writes_back() {
    let dir = std::env::temp_dir().join(format!("variago-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.sgf");
    std::fs::write(&file, "(;GM[1]FF[4]SZ[9]RU[incursion]KM[6.5];B[ee];W[dd];B[cc])").unwrap();
    let path = file.display();
    assert_eq!(last(&format!("loadsgf {path}\n")), "= white");
    assert_eq!(last(&format!("loadsgf {path} 3\nvariago-rules\n")), "= incursion:komi=6.5,size=9x9");
    assert_eq!(last(&format!("loadsgf {path} 2\nfinal_status_list alive\n")), "= E5");
    assert_eq!(last(&format!("loadsgf {path} 1\nfinal_status_list alive\n")), "=");
    let out = last(&format!("loadsgf {path}\nprintsgf\n"));
    assert!(out.contains("RU[incursion") && out.contains(";B[ee];W[dd];B[cc]"), "{out}");
    let copy = dir.join("copy.sgf");
    assert_eq!(last(&format!("loadsgf {path}\nprintsgf {}\n", copy.display())), "=");
    assert_eq!(last(&format!("loadsgf {}\n", copy.display())), "= white");
    std::fs::write(&file, "(;GM[1]SZ[9];B[ee];W[ee])").unwrap();
    assert!(last(&format!("loadsgf {path}\n")).starts_with("? cannot load file"));
    // a broken Go record says what is wrong with it and leaves the engine's game as it was,
    // instead of loading as an empty Galice game
    for broken in ["(;GM[1]SZ[9];B[ee];B[dd])", "(;GM[1]SZ[9];B[zz])"] {
        std::fs::write(&file, broken).unwrap();
        let out = answers(&format!("loadsgf {path}\nvariago-rules\n"));
        assert!(
            out[0].starts_with("? cannot load file: ") && !out[0].contains("galice"),
            "{broken}: {out:?}"
        );
        assert_eq!(out[1], "= go:size=9x9", "{broken}: {out:?}");
    }
    assert!(last("loadsgf /nonexistent/file.sgf\n").starts_with("? cannot load file"));
}

/// `loadsgf` reads regular files only, and not over the size limit: a FIFO (whose opening waits
/// for a writer forever), a directory, a device or a huge file is an error answer at once.
#[test]
fn loadsgf_refuses_what_is_not_a_regular_file_of_a_sane_size() {
    let dir = std::env::temp_dir().join(format!("variago-gtp-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo.sgf");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let huge = dir.join("huge.sgf");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(variago_records::file::MAX_TEXT_BYTES as u64 + 1).unwrap();
    let input = format!(
        "loadsgf {}\nloadsgf {}\nloadsgf /dev/zero\nloadsgf {}\nname\n",
        fifo.display(),
        dir.display(),
        huge.display()
    );
    // on a thread, so that a hang fails the test instead of stopping it
    let (sender, answers_received) = std::sync::mpsc::channel();
    std::thread::spawn(move || sender.send(answers(&input)));
    let out =
        answers_received.recv_timeout(std::time::Duration::from_secs(60)).expect("loadsgf does not hang");
    assert_eq!(out.len(), 5, "{out:?}");
    for answer in &out[..3] {
        assert_eq!(answer, "? cannot load file: it is not a regular file");
    }
    assert_eq!(
        out[3],
        format!("? cannot load file: it is larger than {} bytes", variago_records::file::MAX_TEXT_BYTES)
    );
    assert_eq!(out[4], "= variago");
}

#[test]
fn variant_extensions_and_gogui_rules_commands() {
    assert_eq!(
        last("variago-variant incursion-line:komi=6.5\nvariago-rules\n"),
        "= incursion-line:komi=6.5,size=9x9"
    );
    assert!(last("variago-variant chess\n").contains("unknown variant 'chess'"));
    assert_eq!(last("variago-variant excursion-1:size=5\ngogui-rules_board_size\n"), "= 5");
    assert_eq!(last("variago-variant go:size=5\ngogui-rules_game_id\n"), "= go:size=5x5");
    assert_eq!(
        last("variago-variant go:size=3\ngogui-rules_legal_moves\n"),
        "= A3 B3 C3 A2 B2 C2 A1 B1 C1 PASS"
    );
    assert_eq!(last("gogui-rules_side_to_move\n"), "= black");
    assert_eq!(last("gogui-rules_final_result\n"), "= unknown");
    assert_eq!(
        last("variago-variant go:size=3\nplay b b2\nplay w a1\ngogui-rules_board\n"),
        "= \n. . .\n. X .\nO . ."
    );
    let kings = last("variago-variant excursion-1:size=5\nplay b c3\nplay w a1\nshowboard\n");
    assert!(kings.contains('k'), "White's first piece is a king: {kings}");
    assert_eq!(
        last("variago-variant go:size=3\nplay b b2\nplay b b3\nplay b b1\nvariago-territory\n"),
        "= BLACK A3 C3 A2 C2 A1 C1\nWHITE"
    );
    assert_eq!(last("variago-variant go:size=3\nplay b a2\nplay b b1\nvariago-illegal_points\n"), "= A1");
    // Borderline: a white stone besieged in a black ring; the ring encloses it and its liberty
    let ring = "variago-variant borderline:deployment=0,pass-cap=off,cooldown=0,size=19\n\
                play b j9\nplay b l9\nplay b k8\nplay b j10\nplay b l10\nplay b k11\nplay w k9\n";
    assert_eq!(last(&format!("{ring}variago-borderline\n")), "= BLACK K10 K9\nWHITE\nMARK K9");
    assert!(last("variago-variant go\nvariago-borderline\n").starts_with("? "));
    let best = last("variago-variant go:size=5\nplay b c3\nvariago-best_moves\n");
    assert!(best.starts_with("= LABEL ") && best.lines().last().unwrap().starts_with("VAR w "), "{best}");
    assert_eq!(last("variago-variant go:size=5\nplay b pass\nplay w pass\nvariago-best_moves\n"), "=");
    let menu = last("gogui-analyze_commands\n");
    for line in menu.trim_start_matches("= ").lines() {
        let command = line.rsplit('/').next().unwrap().split(' ').next().unwrap();
        assert!(COMMANDS.contains(&command), "{line}");
    }
}

#[test]
fn galice_turns_in_their_notation() {
    let mut engine = engine("galice");
    let out = split(&session_with_ref(
        &mut engine,
        "variago-rules\ngenmove b\nundo\nvariago-play b setup x a1 b2 C3 o d4 E5\nvariago-play w choose white\nis_legal w --- c3\nvariago-why w bB2 c3\nplay w --- c3\ngenmove b\nshowboard\nvariago-score\nprintsgf\nboardsize 9\nvariago-play b -----\n",
    ));
    assert_eq!(out[0], "= galice");
    assert!(out[1].starts_with("= x "), "a setup stone first: {}", out[1]);
    assert_eq!(&out[2..5], ["=", "=", "="]);
    assert_eq!(out[5], "= 1");
    assert!(out[6].starts_with("= ") && out[6] != "= legal", "{}", out[6]);
    assert_eq!(out[7], "=");
    assert!(out[8].starts_with("= ") && out[8].len() > 4, "{}", out[8]);
    assert!(out[9].contains("to move"), "{}", out[9]);
    assert!(out[10].contains("Black:"), "{}", out[10]);
    assert!(out[11].contains("RU[galice]"), "{}", out[11]);
    assert_eq!(out[12], "? unacceptable size");
    assert!(out[13].starts_with("? illegal move: it is"), "{}", out[13]);
}

#[test]
fn square_lifeline_is_played_through_the_variant_extension() {
    let mut engine = engine("go:size=9");
    let out = split(&session_with_ref(
        &mut engine,
        "variago-variant lifeline:size=5\nvariago-rules\nplay b C2+C4\nvariago-why w C3\nvariago-why w swap\nplay w B3 D3\nshowboard\nplay b pass\nplay b C3\ngenmove w\nvariago-score\nfinal_score\nprintsgf\nundo\nundo\nvariago-why b D5\nboardsize 1\nboardsize 4\nlz-analyze 10\ngogui-rules_legal_moves\nkomi 6.5\nget_komi\n",
    ));
    assert_eq!(out[0], "=");
    assert_eq!(out[1], "= lifeline:size=5x5");
    assert_eq!(out[2], "=");
    assert!(out[3].starts_with("= ") && out[3] != "= legal" && out[3].contains("pair"), "{}", out[3]);
    assert_eq!(out[4], "= legal");
    assert_eq!(out[5], "=", "a pair as two vertices");
    assert!(out[6].contains(" 3  . O . O .  3") && out[6].contains("Black to move"), "{}", out[6]);
    assert_eq!(
        out[7],
        "? illegal move: there is no passing in Square Lifeline: the player with no legal placement loses"
    );
    assert_eq!(out[8], "=");
    // Black's only group died: whatever White plays, Black has no placement left
    assert!(out[9].starts_with("= ") && out[9] != "= resign", "{}", out[9]);
    assert!(out[10].contains("White wins: Black has no legal placement"), "{}", out[10]);
    assert_eq!(out[11], "= W+");
    assert!(
        out[12].contains(r"RU[lifeline]")
            && out[12].contains(";B[cb];B[cd];W[bc];W[dc];B[cc];W[")
            && out[12].contains("RE[W+]"),
        "{}",
        out[12]
    );
    assert_eq!(&out[13..15], ["=", "="]);
    assert_eq!(out[15], "= legal");
    assert_eq!(out[16], "? unacceptable size");
    assert_eq!(out[17], "=");
    assert_eq!(out[18], "? not available in Square Lifeline");
    assert_eq!(
        out[19].split(' ').count(),
        1 + 16 * 15 / 2 - 24,
        "the pairs of 4x4 less its 24 adjacent ones: {}",
        out[19]
    );
    assert_eq!(&out[20..22], ["=", "=  0.0"]);
}

/// Like [`session_with`], keeping the engine.
fn session_with_ref(engine: &mut Engine, input: &str) -> String {
    let mut output = Vec::new();
    variago_gtp::run(engine, Cursor::new(input.as_bytes().to_vec()), &mut output).unwrap();
    String::from_utf8(output).unwrap()
}

#[test]
fn analysis_streams_until_the_next_command() {
    let out = session_with(
        engine("go:size=9"),
        "play b e5\n5 lz-analyze 5\n6 name\n7 kata-analyze w interval 5\nquit\n",
    );
    let parts = split(&out);
    assert_eq!(parts.len(), 5, "{out}");
    let lz: Vec<&str> = parts[1].lines().collect();
    assert_eq!(lz[0], "=5");
    assert!(lz.len() >= 2 && lz[1..].iter().all(|l| l.starts_with("info move ")), "{out}");
    assert!(lz[1].contains(" visits ") && lz[1].contains(" winrate ") && lz[1].contains(" pv "), "{out}");
    // every candidate has its own prior (the move model's probability, in ten-thousandths) and its
    // own variation, starting with the move itself
    for block in lz[1].split("info ").filter(|b| !b.is_empty()) {
        let words: Vec<&str> = block.split_whitespace().collect();
        let after = |key: &str| words[words.iter().position(|w| *w == key).unwrap() + 1];
        let prior: u32 = after("prior").parse().unwrap();
        assert!(prior <= 10_000, "{block}");
        assert_eq!(after("pv"), after("move"), "{block}");
    }
    assert_eq!(parts[2], "=6 variago");
    assert!(parts[3].starts_with("=7\ninfo move ") && parts[3].contains(" winrate 0."), "{out}");
    let kata = parts[3].lines().nth(1).unwrap();
    let prior = kata.split(" prior ").nth(1).and_then(|rest| rest.split(' ').next()).unwrap();
    assert!(prior.parse::<f64>().is_ok_and(|p| (0.0..=1.0).contains(&p)), "{out}");
    let genmove = last("play b e5\nlz-genmove_analyze w 10\n");
    let lines: Vec<&str> = genmove.lines().collect();
    assert!(lines[1].starts_with("info move ") && lines.last().unwrap().starts_with("play "), "{genmove}");
    assert!(last("variago-variant galice\nlz-analyze 10\n").starts_with("? "));
}

#[test]
fn kata_analyze_reports_the_score_lead_of_the_side_to_move() {
    // 5x5, komi 0.5: Black holds two full columns and White one lone stone in Black's area, so
    // Black leads by most of the board whoever moves; each side's lead is the other's negated
    let leads = |color: &str| {
        let input = format!(
            "boardsize 5\nkomi 0.5\nplay b b1\nplay b b2\nplay b b3\nplay b b4\nplay b b5\nplay b c1\n\
             play b c2\nplay b c3\nplay b c4\nplay b c5\nplay w a3\n1 kata-analyze {color} interval 50\nquit\n"
        );
        let out = session_with(engine("go:size=5"), &input);
        let report = split(&out).into_iter().find(|part| part.starts_with("=1")).expect("the analysis");
        let last = report.lines().last().unwrap().to_string();
        last.split("info ")
            .filter(|block| !block.is_empty())
            .map(|block| {
                let words: Vec<&str> = block.split_whitespace().collect();
                let after = |key: &str| words[words.iter().position(|w| *w == key).unwrap() + 1];
                assert_eq!(after("scoreMean"), after("scoreLead"), "{block}");
                after("scoreLead").parse::<f64>().unwrap()
            })
            .collect::<Vec<f64>>()
    };
    let black = leads("b");
    assert!(!black.is_empty() && black.iter().all(|&lead| lead > 5.0 && lead <= 25.0), "{black:?}");
    let white = leads("w");
    assert!(!white.is_empty() && white.iter().all(|&lead| (-25.0..-5.0).contains(&lead)), "{white:?}");
}

/// The playouts behind the moves an `lz-genmove_analyze` answer reports.
fn reported_visits(answer: &str) -> u64 {
    answer
        .split(" visits ")
        .skip(1)
        .map(|rest| rest.split(' ').next().and_then(|n| n.parse::<u64>().ok()).expect("a visit count"))
        .sum()
}

#[test]
fn pondering_grows_the_tree_on_the_opponent_s_time_for_the_next_move() {
    let white_visits = |ponder: bool| {
        let settings = Settings { playouts: 200, resign_below: None, ..Settings::default() };
        let mut engine =
            Engine::new(Config { settings, fixed_budget: true, ponder, lizzie: false }, "go:size=9").unwrap();
        let mut ask = |line: &str| match engine.handle(line) {
            Some(variago_gtp::Reply::Answer(response)) => response.to_string(),
            _ => panic!("an answer to {line}"),
        };
        assert!(ask("genmove b").starts_with("= "));
        // the opponent thinks: a liberal two seconds for the 200 playouts
        std::thread::sleep(std::time::Duration::from_secs(2));
        // a command stops the pondering; the next search starts from its tree, which already
        // holds more than the budget, so it adds nothing
        assert_eq!(ask("name"), "= variago\n\n");
        reported_visits(&ask("lz-genmove_analyze w"))
    };
    let without = white_visits(false);
    assert!(without <= 200, "without pondering the budget bounds the tree: {without}");
    let with = white_visits(true);
    assert!(with > 400, "pondering added playouts: {with}");
}

#[test]
fn quit_answers_and_stops_reading() {
    let out = answers("1 quit\n2 name\n");
    assert_eq!(out, ["=1"]);
}

#[test]
fn a_hostile_stream_gets_well_formed_answers_and_a_live_engine() {
    let mut input = String::new();
    input.push_str("\u{0}\u{1}\u{2}garbage \u{fffd}\u{7f}\n");
    input.push_str(&format!("3 play b {}\n", "e5".repeat(MAX_LINE)));
    input.push_str(&"x".repeat(1 << 20));
    input.push('\n');
    input.push_str(
        "4 play b a99\n5 play b zz\n6 boardsize 100000000000000000000\n7 rectangular_boardsize 0 0\n",
    );
    input.push_str(
        "8 fixed_handicap 18446744073709551616\n9 loadsgf\n10 time_left b -5 0\n11 komi nan\n12 komi inf\n",
    );
    input.push_str("13 is_legal\n14 variago-why b\n15 set_free_handicap\n16 lz-analyze x y z\n17 kata-analyze interval\n");
    input.push_str("18 play b c3 c4\n19 genmove\n20 undo\n21 time_settings 1e300 1e300 99999999999\n22 kgs-time_settings\n");
    input.push_str("26 loadsgf /dev/zero\n\u{0}23 name\n");
    let mut bytes = input.into_bytes();
    bytes.extend_from_slice(b"\xff\xfe 24 name\n25 name\n");
    let mut engine = engine("go:size=9");
    let mut output = Vec::new();
    variago_gtp::run(&mut engine, Cursor::new(bytes), &mut output).unwrap();
    let text = String::from_utf8(output).unwrap();
    let out = split(&text);
    for answer in &out {
        assert!(answer.starts_with('=') || answer.starts_with('?'), "{answer:?}");
    }
    assert!(out.iter().any(|a| a.starts_with("?3 command line too long")), "{text}");
    assert!(out.iter().any(|a| a == "? command line too long (over 16384 bytes)"), "{text}");
    assert_eq!(out.last().unwrap(), "=25 variago");
    assert!(out.iter().any(|a| a == "=23 variago"), "{text}");
    assert!(out.iter().any(|a| a.starts_with("?26 cannot load file")), "{text}");
}

/// `set_random_seed N` makes the next searches those of an engine started with seed N: the
/// analysis of one position, numbers and all, matches that engine's and differs from the first
/// seed's.
#[test]
fn set_random_seed_gives_the_searches_that_seed() {
    let analysis = |seed: u64, commands: &str| {
        let settings = Settings { playouts: 300, seed, resign_below: None, ..Settings::default() };
        let engine =
            Engine::new(Config { settings, fixed_budget: true, ponder: false, lizzie: false }, "go:size=9")
                .expect("go");
        split(&session_with(engine, &format!("{commands}play b E5\nvariago-best_moves\n"))).pop().unwrap()
    };
    let reseeded = analysis(1, "set_random_seed 77\n");
    assert_eq!(reseeded, analysis(77, ""));
    assert_ne!(reseeded, analysis(1, ""), "seeds 1 and 77 searched alike");
    assert!(last("set_random_seed x").starts_with("? syntax error"));
}
