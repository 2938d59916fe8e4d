//! `variago match`: short matches between built-in engines and against GNU Go, and engine errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn variago(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_variago")).args(args).output().expect("the binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A fresh folder for one test's records.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("variago-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Every record in `dir` replays (valid SGF, legal moves; `replay_args` before the file) and has
/// a result.
fn assert_records(dir: &Path, games: usize, replay_args: &[&str]) {
    for game in 1..=games {
        let path = dir.join(format!("game-{game:03}.sgf"));
        let text = std::fs::read_to_string(&path).expect("the record was written");
        for property in ["RE[", "PB[", "PW[", "DT["] {
            assert!(text.contains(property), "{property} in {text}");
        }
        let replay = variago(&[&["replay"][..], replay_args, &[path.to_str().unwrap()]].concat());
        assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    }
}

/// Runs a two-game match on 5x5 that must succeed, checks its records, and returns its output.
fn two_games(black: &str, white: &str, name: &str) -> String {
    two_games_of(black, white, name, &["--size", "5"], &[]).0
}

/// Runs a two-game match with `args` (variant, size) that must succeed, checks its records (read
/// back with `replay_args`), and returns its output and the records' folder.
fn two_games_of(
    black: &str,
    white: &str,
    name: &str,
    args: &[&str],
    replay_args: &[&str],
) -> (String, PathBuf) {
    let dir = folder(name);
    let engines = ["match", "--black", black, "--white", white, "--games", "2", "--sgf-dir"];
    let out = variago(&[&engines[..], &[dir.to_str().unwrap()], args].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_records(&dir, 2, replay_args);
    (stdout(&out), dir)
}

#[test]
fn two_built_in_engines_alternate_colours_and_print_the_summary_last() {
    let a = "variago:playouts=30";
    let b = "variago:playouts=10,threads=1,resign=0.05";
    let text = two_games(a, b, "builtin");
    assert!(text.contains(&format!("game 1: {a} (B) vs {b} (W)")), "{text}");
    assert!(text.contains(&format!("game 2: {b} (B) vs {a} (W)")), "{text}");
    let last = text.lines().last().unwrap();
    let (rest, tail) = last.split_once(' ').unwrap();
    assert_eq!(rest, a, "{last}");
    let (score, other) = tail.split_once(' ').unwrap();
    assert_eq!(other, b, "{last}");
    let counts: Vec<u32> = score.split('-').map(|n| n.parse().unwrap()).collect();
    assert_eq!(counts.iter().sum::<u32>(), 2, "{last}");
}

/// GNU Go on the PATH, or where Debian puts it.
fn gnugo() -> Option<String> {
    let path = Command::new("sh").args(["-c", "command -v gnugo"]).output().ok()?;
    let found = String::from_utf8_lossy(&path.stdout).trim().to_string();
    if !found.is_empty() {
        return Some(found);
    }
    Path::new("/usr/games/gnugo").exists().then(|| "/usr/games/gnugo".to_string())
}

/// GNU Go, or `None` after a notice that `what` is skipped; its absence fails with
/// `VARIAGO_REQUIRE_GNUGO=1` (CI).
fn gnugo_or_skip(what: &str) -> Option<String> {
    let found = gnugo();
    if found.is_none() {
        assert!(std::env::var("VARIAGO_REQUIRE_GNUGO").as_deref() != Ok("1"), "gnugo is required but absent");
        eprintln!("notice: gnugo not found, {what} is skipped");
    }
    found
}

#[test]
fn a_match_against_gnu_go_runs_and_reports() {
    let Some(gnugo) = gnugo_or_skip("the match against GNU Go") else { return };
    let engine = format!("gtp:{gnugo} --mode gtp --level 1 --chinese-rules --positional-superko");
    let text = two_games("variago:playouts=50", &engine, "gnugo");
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 2, "{text}");
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("variago:playouts=50 ") && last.ends_with(&engine), "{last}");
}

#[test]
fn a_bad_engine_is_a_one_line_error_with_exit_code_2() {
    for engine in [
        "gtp:/nonexistent/engine --mode gtp",
        "gtp:true",
        "gtp:echo hello",
        "variago:speed=3",
        "variago:resign=0.5",
        "variago:resign=-0.1",
        "variago:rave=0",
        "variago:explore=-1",
        "variago:expand=0",
        "chess",
    ] {
        let out = variago(&["match", "--black", "variago:playouts=10", "--white", engine, "--size", "5"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{engine}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
}

#[test]
fn an_illegal_move_of_an_external_engine_loses_that_game_with_the_reason() {
    let dir = folder("illegal");
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("a1.sh");
    std::fs::write(
        &script,
        "while read cmd rest; do case $cmd in genmove) printf '= A1\\n\\n';; \\
         quit) printf '=\\n\\n'; exit;; *) printf '=\\n\\n';; esac; done\n",
    )
    .unwrap();
    let engine = format!("gtp:sh {}", script.display());
    let out = variago(&[
        "match",
        "--black",
        "variago:playouts=10",
        "--white",
        &engine,
        "--games",
        "1",
        "--size",
        "5",
    ]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("B+F") && text.contains("illegal move A1"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("variago:playouts=10 1-0-0 "), "{text}");
}

/// A match of two games on 5x5 against a scripted GTP engine whose `genmove` does `on_genmove`.
fn against_script(name: &str, on_genmove: &str) -> Output {
    let dir = folder(name);
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("engine.sh");
    let body = format!(
        "while read cmd rest; do case $cmd in genmove) {on_genmove};; \\
         quit) printf '=\\n\\n'; exit;; *) printf '=\\n\\n';; esac; done\n"
    );
    std::fs::write(&script, body).unwrap();
    let engine = format!("gtp:sh {}", script.display());
    let args = ["--black", "variago:playouts=10", "--white", &engine, "--games", "2", "--size", "5"];
    variago(&[&["match", "--move-timeout", "1"][..], &args[..]].concat())
}

#[test]
fn an_engine_that_crashes_loses_that_game_and_is_restarted_for_the_next() {
    let out = against_script("crash", "exit 1");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("game 1: ") && text.contains("game 2: "), "{text}");
    assert_eq!(text.matches("exited while answering 'genmove").count(), 2, "{text}");
    let forfeits = text.lines().find(|l| l.starts_with("forfeits (counted as losses")).expect("the forfeits");
    assert!(forfeits.contains("game 1 by gtp:sh ") && forfeits.contains("game 2 by gtp:sh "), "{forfeits}");
    assert!(text.lines().last().unwrap().starts_with("variago:playouts=10 2-0-0 "), "{text}");
}

#[test]
fn an_engine_that_does_not_answer_in_time_forfeits() {
    let out = against_script("hang", "sleep 30");
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.matches("did not answer 'genmove").count(), 2, "{text}");
    assert!(text.contains("W+F") || text.contains("B+F"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("variago:playouts=10 2-0-0 "), "{text}");
}

/// One whole 9x9 game through `variago match`: it must end with a result.
fn one_game_on_9x9(black: &str, white: &str) {
    let out = variago(&["match", "--black", black, "--white", white, "--games", "1", "--size", "9"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let game = text.lines().find(|l| l.starts_with("game 1: ")).expect("a line for the game");
    assert!(game.contains("B+") || game.contains("W+") || game.contains("Draw"), "{game}");
}

#[test]
fn variago_gtp_plays_a_whole_game_against_the_built_in_engine() {
    let engine = format!("gtp:{} gtp --playouts 200", env!("CARGO_BIN_EXE_variago"));
    one_game_on_9x9("variago:playouts=200", &engine);
}

#[test]
fn variago_gtp_plays_a_whole_game_against_gnu_go() {
    let Some(gnugo) = gnugo_or_skip("the game of variago gtp against GNU Go") else { return };
    let engine = format!("gtp:{} gtp --playouts 200", env!("CARGO_BIN_EXE_variago"));
    one_game_on_9x9(
        &engine,
        &format!("gtp:{gnugo} --mode gtp --level 1 --chinese-rules --positional-superko"),
    );
}

#[test]
fn galice_games_run_the_pie_rule_and_are_saved_as_galice_sgf() {
    let galice = ["--variant", "galice"];
    let args = ["--variant", "galice", "--max-moves", "60"];
    let (text, dir) = two_games_of("variago:playouts=20", "variago:playouts=5", "galice", &args, &galice);
    assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 2, "{text}");
    assert!(!text.contains("+F") && !text.contains("forfeits ("), "no engine forfeits: {text}");
    let record = std::fs::read_to_string(dir.join("game-001.sgf")).unwrap();
    assert!(record.contains("RU[galice]") && record.contains("GT[x "), "{record}");
    // a Galice SGF says what it is: no --variant needed to read it
    let replay = variago(&["replay", dir.join("game-002.sgf").to_str().unwrap()]);
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    assert!(stdout(&replay).contains("turns of galice"), "{}", stdout(&replay));
    let refused =
        variago(&["match", "--black", "variago", "--white", "variago", "--variant", "galice", "--size", "9"]);
    assert_eq!(refused.status.code(), Some(2), "{}", String::from_utf8_lossy(&refused.stderr));
}

#[test]
fn variago_gtp_plays_every_variant_through_its_extensions() {
    let engine = format!("gtp:{} gtp --playouts 10", env!("CARGO_BIN_EXE_variago"));
    let runs: [(&[&str], &[&str]); 3] = [
        (&["--variant", "incursion-line:komi=2.5", "--size", "5"], &[]),
        (&["--variant", "excursion-2", "--size", "5"], &[]),
        (&["--variant", "galice", "--max-moves", "40"], &["--variant", "galice"]),
    ];
    for (args, replay) in runs {
        let variant = args[1];
        let name = format!("gtp-{}", &variant[..5]);
        let (text, _) = two_games_of("variago:playouts=10", &engine, &name, args, replay);
        assert!(!text.contains("+F"), "{variant}: no engine forfeits: {text}");
        assert_eq!(text.lines().filter(|l| l.starts_with("game ")).count(), 2, "{variant}: {text}");
    }
}

#[test]
fn an_engine_without_the_variant_commands_is_told_so() {
    let Some(gnugo) = gnugo_or_skip("the incursion match against GNU Go") else { return };
    let engine = format!("gtp:{gnugo} --mode gtp");
    let out =
        variago(&["match", "--black", "variago:playouts=10", "--white", &engine, "--variant", "incursion"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("variago-variant"), "{stderr}");
}

/// Two repeatable GTP engines (variago with a fixed seed) would play the same game each time
/// with the same colours; the match gives each game its own seed through `set_random_seed`, so
/// games 1 and 3 differ.
#[test]
fn gtp_engines_that_take_a_seed_get_one_per_game() {
    let engine = format!("gtp:{} gtp --playouts 40", env!("CARGO_BIN_EXE_variago"));
    let dir = folder("seeded");
    let args = ["match", "--black", &engine, "--white", &engine, "--games", "3", "--size", "5", "--sgf-dir"];
    let out = variago(&[&args[..], &[dir.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let moves = |game: u32| {
        let text = std::fs::read_to_string(dir.join(format!("game-{game:03}.sgf"))).unwrap();
        text[text.find(";B[").expect("moves")..].to_string()
    };
    assert_ne!(moves(1), moves(3), "the same game twice");
}
