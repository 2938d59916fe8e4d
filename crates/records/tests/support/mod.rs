//! Records for the tests that read variago's SGF with independent libraries (`sgfmill.rs`,
//! `sabaki_sgf.rs`): random games of every single-board variant, dressed as real records are.

use std::process::Command;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use variago_records::{Annotation, Record};
use variago_rules::{Game, Geometry, Move, VariantSpec};

/// Every single-board variant, with the board side its records are written for.
pub const SPECS: &[(&str, u32)] = &[
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

/// An empty record with what a real one says besides its moves: players (one with SGF's escaped
/// characters `]` and `\`, one outside ASCII), a date and a game comment over two lines.
pub fn record_with_info(spec: &str, side: u32) -> Record {
    let spec: VariantSpec = spec.parse().unwrap();
    let mut record = Record::new(spec, Geometry::square(side).unwrap());
    record.info.black = Some("Black [3d] \\ player".into());
    record.info.white = Some("variago Gō".into());
    record.info.date = Some("2024-05-01".into());
    record.info.comment = Some("a game comment with [brackets], a back\\slash\nand a second line".into());
    record
}

/// A random game from the empty board, passing rarely.
pub fn random_record(spec: &str, side: u32, seed: u64) -> Record {
    let mut record = record_with_info(spec, side);
    play_randomly(&mut record, seed);
    record
}

/// Plays random moves from the record's initial position until the game ends (or long enough),
/// passing rarely, then sets the result; every tenth move gets a comment and a clock.
pub fn play_randomly(record: &mut Record, seed: u64) {
    let mut game = record.initial_position();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let side = record.geometry.width() as u32;
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
    for i in (0..record.moves.len()).step_by(10) {
        let comment = format!("move {} [a \\ b]", i + 1);
        record.annotations.insert(i, Annotation { comment: Some(comment), time_left: Some(30.5) });
    }
    record.result = game.outcome().map(|r| r.to_string());
}

/// Writes each record as SGF into a fresh temporary folder named after `reader`, runs `program
/// script FILE...` (an independent reader printing one JSON object a file, in order) and returns
/// what it printed for each record, with the file's name for messages.
pub fn read_by(
    reader: &str,
    program: &str,
    script: &str,
    records: &[Record],
) -> Vec<(String, serde_json::Value)> {
    let dir = std::env::temp_dir().join(format!("variago-{reader}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let paths: Vec<_> = (0..records.len()).map(|i| dir.join(format!("{i}.sgf"))).collect();
    for (path, record) in paths.iter().zip(records) {
        std::fs::write(path, record.to_sgf()).unwrap();
    }
    let out = Command::new(program).arg(script).args(&paths).output().unwrap();
    assert!(out.status.success(), "{reader} failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let seen: Vec<_> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(seen.len(), records.len(), "one line a file");
    std::fs::remove_dir_all(&dir).unwrap();
    paths.iter().map(|p| p.display().to_string()).zip(seen).collect()
}

/// Three random records of each variant of [`SPECS`], each made by `make(spec, side, seed)`
/// (which may give more than one record a seed).
pub fn records_of_every_variant(make: impl Fn(&str, u32, u64) -> Vec<Record>) -> Vec<Record> {
    let mut records = Vec::new();
    for (i, &(spec, side)) in SPECS.iter().enumerate() {
        for seed in 0..3 {
            records.extend(make(spec, side, seed * 31 + i as u64));
        }
    }
    records
}
