//! `variago train-patterns`: a weight table learned from records that the search can read, its
//! last line, and one-line refusals.

#[allow(dead_code)]
mod support;

use support::{assert_refused, variago};

/// A short 5x5 game (legal throughout; nobody passes).
const GAME: &str = "(;GM[1]FF[4]SZ[5]RU[go]KM[7.5]RE[B+R];B[cc];W[cb];B[bb];W[dc];B[db];W[cd];B[ca];W[bc];B[dd];W[ce];B[bd];W[be];B[ac];W[de];B[ed])";

#[test]
fn learns_a_table_from_a_folder_of_records() {
    let dir = std::env::temp_dir().join(format!("variago-train-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("nested")).unwrap();
    std::fs::write(dir.join("a.sgf"), GAME).unwrap();
    std::fs::write(dir.join("nested").join("b.sgf"), GAME).unwrap();
    std::fs::write(dir.join("notes.txt"), "not a record").unwrap();
    let table = dir.join("weights.txt");
    let out = variago(&[
        "train-patterns",
        dir.to_str().unwrap(),
        "--out",
        table.to_str().unwrap(),
        "--min-count",
        "1",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let last = stdout.lines().last().unwrap();
    assert!(last.starts_with("30 positions, prediction rate "), "{last}");
    let text = std::fs::read_to_string(&table).unwrap();
    assert!(text.starts_with("# variago move-feature weights"));
    assert!(text.contains("from 2 games, 30 positions"), "{text}");
    let gamma = |name: &str| -> f64 {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .map(|g| g.parse().unwrap())
            .unwrap_or(1.0)
    };
    assert!(gamma("pass") < 1.0, "nobody passed: {}", gamma("pass"));
    assert!(text.lines().filter(|l| l.starts_with("pattern-")).count() > 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refuses_what_it_cannot_learn_from_in_one_line() {
    let dir = std::env::temp_dir().join(format!("variago-train-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (args, mentions) in [
        (vec!["train-patterns", dir.to_str().unwrap(), "--out", "/tmp/never.txt"], "no positions"),
        (vec!["train-patterns", "/nonexistent/game.sgf", "--out", "/tmp/never.txt"], "/nonexistent/game.sgf"),
    ] {
        assert_refused(&variago(&args), mentions);
    }
    assert!(!std::path::Path::new("/tmp/never.txt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
