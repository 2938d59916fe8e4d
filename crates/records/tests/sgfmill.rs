//! Records written by variago read by an independent SGF library: sgfmill (PyPI), whose own
//! board replay of the `go` games must reach the same final position. `.ci/run` installs sgfmill
//! and sets `VARIAGO_REQUIRE_SGFMILL=1`, so that there this test cannot skip.

use std::path::PathBuf;
use std::process::Command;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use variago_records::Record;
use variago_rules::{Color, Game, Geometry, Move, VariantSpec};

/// Every single-board variant; sgfmill's board is standard Go's, so only the `go` games are
/// replayed there, the others are checked for what sgfmill reads (size, rules, komi, moves).
const SPECS: &[(&str, u32)] = &[
    ("go", 9),
    ("go:ko=simple,komi=6.5", 13),
    ("incursion", 9),
    ("incursion-minimal", 9),
    ("incursion-line", 9),
    ("stoical:refine=more-stones", 9),
    ("excursion-1", 9),
    ("excursion-2", 9),
    ("borderline", 19),
];

fn sgfmill_available() -> bool {
    let found =
        Command::new("python3").args(["-c", "import sgfmill"]).output().is_ok_and(|out| out.status.success());
    if !found && std::env::var("VARIAGO_REQUIRE_SGFMILL").is_ok_and(|v| v == "1") {
        panic!("sgfmill is required (VARIAGO_REQUIRE_SGFMILL=1) but python3 cannot import it");
    }
    found
}

/// A random game that passes rarely, with names and a comment as a real record has them.
fn random_record(spec: &str, side: u32, seed: u64) -> Record {
    let spec: VariantSpec = spec.parse().unwrap();
    let mut record = Record::new(spec, Geometry::square(side).unwrap());
    record.info.black = Some("Black player".into());
    record.info.white = Some("variago".into());
    record.info.comment = Some("written for the sgfmill check [with brackets]".into());
    let mut game = record.initial_position();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..(side * side * 2) {
        game.legal_moves(&mut moves);
        let places: Vec<Move> = moves.iter().copied().filter(|m| *m != Move::Pass).collect();
        let mv = if places.is_empty() || (moves.contains(&Move::Pass) && rng.random_ratio(1, 50)) {
            Move::Pass
        } else {
            places[rng.random_range(0..places.len())]
        };
        if game.play(mv).is_err() {
            break;
        }
        record.moves.push(mv);
        if game.is_over() {
            break;
        }
    }
    record.result = game.outcome().map(|r| r.to_string());
    record
}

#[test]
fn sgfmill_reads_every_variant_and_replays_go_to_the_same_board() {
    if !sgfmill_available() {
        eprintln!("skipped: python3 with sgfmill not found (pip install sgfmill)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("variago-sgfmill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut files: Vec<(PathBuf, Record)> = Vec::new();
    for (i, &(spec, side)) in SPECS.iter().enumerate() {
        for seed in 0..3 {
            let record = random_record(spec, side, seed * 31 + i as u64);
            let path = dir.join(format!("{i}-{seed}.sgf"));
            std::fs::write(&path, record.to_sgf()).unwrap();
            files.push((path, record));
        }
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sgfmill_check.py");
    let out = Command::new("python3").arg(script).args(files.iter().map(|(p, _)| p)).output().unwrap();
    assert!(out.status.success(), "sgfmill failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), files.len());
    for ((path, record), line) in files.iter().zip(lines) {
        let seen: serde_json::Value = serde_json::from_str(line).unwrap();
        let context = format!("{}: {line}", path.display());
        assert_eq!(seen["size"], record.geometry.width(), "{context}");
        assert_eq!(seen["rules"], record.spec.to_string(), "{context}");
        assert_eq!(seen["komi"], record.spec.komi().as_f64(), "{context}");
        assert_eq!(seen["moves"], record.moves.len(), "{context}");
        assert_eq!(seen["application"][0], "variago", "{context}");
        if record.spec.to_string().starts_with("go") {
            let ours = record.replay().unwrap();
            let rows: Vec<String> = (0..record.geometry.height())
                .map(|y| {
                    (0..record.geometry.width())
                        .map(|x| match ours.board().color(record.geometry.point(x, y).unwrap()) {
                            Some(Color::Black) => 'X',
                            Some(Color::White) => 'O',
                            None => '.',
                        })
                        .collect()
                })
                .collect();
            assert_eq!(seen["board"], serde_json::json!(rows), "{context}");
        }
    }
}
