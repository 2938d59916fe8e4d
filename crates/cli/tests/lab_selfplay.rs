//! `variago lab selfplay`, `merge`, `komi` and `compare`: the last line's contract, shards that
//! merge into the unsharded run, the run folder's files, and the one-line refusals. Small boards
//! and 20 playouts a move keep every test to seconds.

#[allow(dead_code)]
mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::{assert_refused, last_line, scratch, stdout, text, variago};

/// `lab selfplay` of 5x5 Go at 20 playouts a move, 6 games, with `extra` flags.
fn selfplay(out: &Path, extra: &[&str]) -> Output {
    let mut args =
        vec!["lab", "selfplay", "--variant", "go", "--size", "5", "--games", "6", "--playouts", "20"];
    args.extend_from_slice(&["--out", text(out)]);
    args.extend_from_slice(extra);
    variago(&args)
}

/// The games' lines without their wall-clock time, by game number.
fn game_lines(dirs: &[&Path]) -> Vec<String> {
    let mut lines: Vec<(u64, String)> = Vec::new();
    for dir in dirs {
        for line in std::fs::read_to_string(dir.join("games.jsonl")).unwrap().lines() {
            let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
            value.as_object_mut().unwrap().remove("seconds");
            lines.push((value["game"].as_u64().unwrap(), value.to_string()));
        }
    }
    lines.sort();
    lines.into_iter().map(|(_, line)| line).collect()
}

#[test]
fn three_shards_merged_equal_one_unsharded_run() {
    let dir = scratch("lab-selfplay", "shards");
    let whole = selfplay(&dir.join("whole"), &["--threads", "2"]);
    assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(format!("shard{i}"))).collect();
    for (i, shard) in shards.iter().enumerate() {
        let out = selfplay(shard, &["--shard", &format!("{i}/3"), "--threads", "1"]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout(&out).contains(&format!("shard {i}/3 of the run's 6 games")));
    }
    // shard 1 of 3 plays games 1 and 4
    let names: Vec<String> = std::fs::read_dir(&shards[1])
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sgf"))
        .collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"game-0001.sgf".to_string()) && names.contains(&"game-0004.sgf".to_string()));
    let merged = variago(&["lab", "merge", text(&shards[0]), text(&shards[1]), text(&shards[2])]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    assert_eq!(stdout(&merged), stdout(&whole));
    let shard_dirs: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    assert_eq!(game_lines(&shard_dirs), game_lines(&[&dir.join("whole")]));
    // the same games: the SGF records' moves agree too
    let record = |d: &Path| {
        let sgf = std::fs::read_to_string(d.join("game-0004.sgf")).unwrap();
        sgf[sgf.find(";B[").unwrap()..].to_string()
    };
    assert_eq!(record(&shards[1]), record(&dir.join("whole")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_folder_holds_every_game_its_lines_and_a_summary() {
    let dir = scratch("lab-selfplay", "folder");
    let out = selfplay(&dir, &[]);
    assert!(out.status.success());
    let last = last_line(&out);
    let pattern = regex_lite::Regex::new(
        r"^first-player win rate [01]\.\d{3} \[[01]\.\d{3}, [01]\.\d{3}\], draws [01]\.\d{3}, 6 games$",
    )
    .unwrap();
    assert!(pattern.is_match(&last), "{last}");
    for game in 0..6 {
        let sgf = std::fs::read_to_string(dir.join(format!("game-{game:04}.sgf"))).unwrap();
        assert!(sgf.contains("RE[") && sgf.contains("SZ[5]"), "{sgf}");
    }
    let lines = std::fs::read_to_string(dir.join("games.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 6);
    let mut black_wins = 0;
    for line in lines.lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        let moves = game["moves"].as_u64().unwrap();
        assert_eq!(game["values"].as_array().unwrap().len() as u64, moves);
        assert!(game["legal_moves"].as_u64().unwrap() >= moves);
        assert!(game["decision_moves"].as_u64().unwrap() <= moves);
        assert_eq!(game["first"], "B");
        black_wins += u32::from(game["winner"] == "B");
    }
    // the last line's rate is the lines' Black wins over decisive games (komi 7.5: no draw)
    assert!(
        last.starts_with(&format!("first-player win rate {:.3} ", f64::from(black_wins) / 6.0)),
        "{last}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["games"], 6);
    assert_eq!(summary["first_player_wins"], black_wins);
    let settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("settings.json")).unwrap()).unwrap();
    assert_eq!((settings["variant"].as_str(), settings["size"].as_str()), (Some("go"), Some("5x5")));
    assert_eq!(settings["black"], "variago:playouts=20");
    // the same command again finds the run finished and prints the same summary
    let again = selfplay(&dir, &[]);
    assert_eq!(stdout(&again), stdout(&out));
    // another run's settings in the same folder are refused
    assert_refused(&selfplay(&dir, &["--seed", "2"]), "holds another run (it differs in seed)");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_interrupted_run_resumes_without_its_cut_line_and_without_a_stale_summary() {
    let dir = scratch("lab-selfplay", "resume");
    let whole = selfplay(&dir.join("whole"), &[]);
    let run = dir.join("cut");
    assert!(selfplay(&run, &[]).status.success());
    // as a crash leaves it: the last line cut short, no summary
    let lines = std::fs::read_to_string(run.join("games.jsonl")).unwrap();
    let cut = &lines[..lines.len() - 10];
    std::fs::write(run.join("games.jsonl"), cut).unwrap();
    std::fs::remove_file(run.join("summary.json")).unwrap();
    assert_refused(&variago(&["lab", "merge", text(&run)]), "not a finished run");
    let resumed = selfplay(&run, &[]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert_eq!(stdout(&resumed), stdout(&whole));
    assert!(run.join("summary.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_refuses_corrupt_mismatched_overlapping_and_incomplete_shards() {
    let dir = scratch("lab-selfplay", "merge");
    let shard = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let out = selfplay(&path, extra);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        path
    };
    let a = shard("a", &["--shard", "0/2"]);
    let b = shard("b", &["--shard", "1/2"]);
    let other_seed = shard("c", &["--shard", "1/2", "--seed", "9"]);
    let other_variant = {
        let path = dir.join("d");
        let out = variago(&[
            "lab",
            "selfplay",
            "--variant",
            "incursion",
            "--size",
            "5",
            "--games",
            "6",
            "--playouts",
            "20",
            "--shard",
            "1/2",
            "--out",
            text(&path),
        ]);
        assert!(out.status.success());
        path
    };
    assert!(variago(&["lab", "merge", text(&a), text(&b)]).status.success());
    assert_refused(&variago(&["lab", "merge", text(&a), text(&other_seed)]), "differ in seed");
    assert_refused(&variago(&["lab", "merge", text(&a), text(&other_variant)]), "differ in variant");
    assert_refused(&variago(&["lab", "merge", text(&a), text(&a)]), "is in both");
    assert_refused(&variago(&["lab", "merge", text(&a)]), "3 of the run's 6 games are missing");
    assert_refused(&variago(&["lab", "merge", text(&a), text(&dir.join("nothing"))]), "is not a folder");
    // a line that is not a game
    let lines = std::fs::read_to_string(b.join("games.jsonl")).unwrap();
    std::fs::write(b.join("games.jsonl"), lines.replacen("\"moves\"", "\"moves\":oops,\"x\"", 1)).unwrap();
    assert_refused(&variago(&["lab", "merge", text(&a), text(&b)]), "is not a game's line");
    // a missing record
    std::fs::write(b.join("games.jsonl"), &lines).unwrap();
    std::fs::remove_file(b.join("game-0003.sgf")).unwrap();
    assert_refused(&variago(&["lab", "merge", text(&a), text(&b)]), "game 3 has no game-0003.sgf");
    // settings that are not JSON
    std::fs::write(a.join("settings.json"), "{").unwrap();
    assert_refused(&variago(&["lab", "merge", text(&a), text(&b)]), "is not a run's settings");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_refused_in_one_line_and_leaves_nothing_that_looks_complete() {
    let dir = scratch("lab-selfplay", "bad");
    let out = dir.join("out");
    let chess = ["lab", "selfplay", "--variant", "chess", "--games", "1", "--out", text(&out)];
    assert_refused(&variago(&chess), "chess");
    // unknown variants are refused before the folder is made
    assert!(!out.exists());
    let file = dir.join("file");
    std::fs::write(&file, "").unwrap();
    assert_refused(&selfplay(&file.join("out"), &[]), "cannot create");
    for (flags, mentions) in [
        (&["--shard", "3/3"][..], "--shard '3/3'"),
        (&["--black", "stockfish"], "engine 'stockfish'"),
        (&["--komi", "6.3"], "--komi must be a multiple of 0.5"),
    ] {
        assert_refused(&selfplay(&out, flags), mentions);
    }
    let no_games = ["lab", "selfplay", "--variant", "go", "--games", "0", "--out", text(&out)];
    assert_refused(&variago(&no_games), "--games must be at least 1");
    assert!(!out.join("summary.json").exists());
    assert_refused(
        &variago(&[
            "lab",
            "selfplay",
            "--variant",
            "galice",
            "--size",
            "9",
            "--games",
            "1",
            "--out",
            text(&out),
        ]),
        "no komi",
    );
    assert_refused(
        &variago(&["lab", "komi", "--variant", "go", "--komi", "7", "--games", "1", "--out", text(&out)]),
        "leave out --komi",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn compare_puts_each_spec_in_its_folder_and_the_statistics_side_by_side() {
    let dir = scratch("lab-selfplay", "compare");
    let out = variago(&[
        "lab",
        "compare",
        "go:ko=simple",
        "incursion",
        "--size",
        "4",
        "--games",
        "2",
        "--playouts",
        "20",
        "--out",
        text(&dir),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.contains("| statistic | `go:ko=simple` | `incursion` |"), "{text}");
    assert!(text.contains("| first-player win rate | "), "{text}");
    assert!(text.contains("| restriction hits per game | "), "{text}");
    for name in ["go_ko=simple", "incursion"] {
        assert!(dir.join(name).join("summary.json").exists(), "{name}");
        assert!(dir.join(name).join("game-0001.sgf").exists(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn komi_bisects_over_half_points_and_ends_with_the_fair_komi_and_its_interval() {
    let dir = scratch("lab-selfplay", "komi");
    let args = "lab komi --variant go --size 4 --low -20 --high 20 --games 3 --playouts 20 --out";
    let mut args: Vec<&str> = args.split(' ').collect();
    args.push(text(&dir));
    let out = variago(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    // 80 half points between -20 and 20: at most seven halvings (and the two ends), the first at 0
    let steps: Vec<&str> = text.lines().filter(|l| l.starts_with("komi ")).collect();
    assert!((1..=9).contains(&steps.len()), "{text}");
    assert!(steps[0].starts_with("komi 0: first-player win rate "), "{text}");
    // each step halves the bracket: the second one is at 10 or -10
    if steps.len() > 1 {
        assert!(steps[1].starts_with("komi 10: ") || steps[1].starts_with("komi -10: "), "{text}");
    }
    let pattern =
        regex_lite::Regex::new(r"^fair komi -?\d+(\.5)? \[-?\d+(\.5)?, -?\d+(\.5)?\], 3 games per komi$")
            .unwrap();
    assert!(pattern.is_match(&last_line(&out)), "{text}");
    assert!(dir.join("komi_0").join("summary.json").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn galice_reports_the_first_player_after_the_setup_beside_the_setup_player() {
    let dir = scratch("lab-selfplay", "galice");
    let args = "lab selfplay --variant galice --games 2 --playouts 2 --max-moves 30 --out";
    let mut args: Vec<&str> = args.split(' ').collect();
    args.push(text(&dir));
    let out = variago(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.starts_with("galice on 2x7x7: variago:playouts=2 against itself"), "{text}");
    assert!(text.contains("setup-player win rate: "), "{text}");
    assert!(text.contains("(White, the first to move after the setup, won "), "{text}");
    for line in std::fs::read_to_string(dir.join("games.jsonl")).unwrap().lines() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["first"], "W");
        // five setup stones and the choice come first: the setup player is known
        assert!(game["setup"] == "B" || game["setup"] == "W", "{line}");
        assert!(game["moves"].as_u64().unwrap() <= 30, "{line}");
    }
    let sgf = std::fs::read_to_string(dir.join("game-0000.sgf")).unwrap();
    assert!(sgf.contains("RU[galice]"), "{sgf}");
    let _ = std::fs::remove_dir_all(&dir);
}
