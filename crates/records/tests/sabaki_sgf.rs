//! Records written by variago read by `@sabaki/sgf` (npm), the parser of the Sabaki viewer,
//! pinned in `tools/sabaki-sgf`. It has no board, so what it reads is compared property by
//! property: size, rules, komi, players, date and comments (SGF's escaped characters and UTF-8
//! included), set-up stones, and each move's colour, point, comment and clock. `.ci/run` installs
//! it (through `scripts/setup`) and sets `VARIAGO_REQUIRE_SABAKI_SGF=1`, so that there this test
//! cannot skip.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use serde_json::Value;
use variago_records::Record;
use variago_rules::{Color, Move, Piece};

mod support;
use support::{play_randomly, random_record, read_by, record_with_info, records_of_every_variant};

/// Where `scripts/setup` installs the pinned `@sabaki/sgf` (`npm ci`).
const PACKAGE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/sabaki-sgf");

fn sabaki_sgf_available() -> bool {
    let node = Command::new("node").arg("--version").output().is_ok_and(|out| out.status.success());
    let package = Path::new(PACKAGE_DIR).join("node_modules/@sabaki/sgf/package.json").exists();
    if !(node && package) && std::env::var("VARIAGO_REQUIRE_SABAKI_SGF").is_ok_and(|v| v == "1") {
        panic!(
            "@sabaki/sgf is required (VARIAGO_REQUIRE_SABAKI_SGF=1) but node or tools/sabaki-sgf/node_modules \
             is missing (node {node}, package {package})"
        );
    }
    node && package
}

/// A random game from set-up stones (two Black, one White) with White to play, as a handicap
/// game or a position set up by hand is recorded: `AB`, `AW` and `PL` in the root.
fn setup_record(spec: &str, side: u32, seed: u64) -> Record {
    let mut record = record_with_info(spec, side);
    let far = side as u8 - 3;
    for (x, y, color) in [(2, 2, Color::Black), (far, far, Color::Black), (far, 2, Color::White)] {
        record.setup.set(record.geometry.point(x, y).unwrap(), Some(Piece::stone(color)));
    }
    record.first_player = Color::White;
    play_randomly(&mut record, seed);
    record
}

/// The one value of a property as Sabaki read it, if the node has the property.
fn value<'a>(node: &'a Value, id: &str) -> Option<&'a str> {
    let values = node["data"][id].as_array()?;
    assert_eq!(values.len(), 1, "{id} should have one value: {node}");
    values[0].as_str()
}

/// The points of a property as Sabaki decoded them, `(-1, -1)` for a pass.
fn points(node: &Value, id: &str) -> Vec<(i64, i64)> {
    let decoded = node["points"][id].as_array().map(Vec::as_slice).unwrap_or_default();
    decoded.iter().map(|xy| (xy[0].as_i64().unwrap(), xy[1].as_i64().unwrap())).collect()
}

/// A move as a viewer shows it: colour, point (`(-1, -1)` for a pass), comment, clock.
type ShownMove = (&'static str, (i64, i64), Option<String>, Option<f64>);

/// The moves of the nodes after the root as Sabaki read them, in order.
fn moves_read(nodes: &[Value]) -> Vec<ShownMove> {
    let mut moves = Vec::new();
    for node in nodes {
        for (color, clock) in [("B", "BL"), ("W", "WL")] {
            for point in points(node, color) {
                let comment = value(node, "C").map(String::from);
                let time_left = value(node, clock).map(|t| t.parse().unwrap());
                moves.push((color, point, comment, time_left));
            }
        }
    }
    moves
}

/// The moves of a record as a viewer should show them: colours alternating from the first player.
fn moves_written(record: &Record) -> Vec<ShownMove> {
    let mut color = record.first_player;
    let mut moves = Vec::new();
    for (i, mv) in record.moves.iter().enumerate() {
        let point = match mv {
            Move::Pass => (-1, -1),
            Move::Place(p) => {
                let (x, y) = record.geometry.coords(*p);
                (x.into(), y.into())
            }
        };
        let note = record.annotations.get(&i);
        let letter = if color == Color::Black { "B" } else { "W" };
        moves.push((letter, point, note.and_then(|n| n.comment.clone()), note.and_then(|n| n.time_left)));
        color = color.opponent();
    }
    moves
}

/// The points of the set-up board holding `color`'s stones, as SGF coordinates.
fn setup_points(record: &Record, color: Color) -> BTreeSet<(i64, i64)> {
    let stones = record.geometry.points().filter(|&p| record.setup.color(p) == Some(color));
    stones.map(|p| record.geometry.coords(p)).map(|(x, y)| (x.into(), y.into())).collect()
}

#[test]
fn sabaki_reads_every_variant_with_its_info_setup_and_moves() {
    if !sabaki_sgf_available() {
        eprintln!("skipped: node or @sabaki/sgf not found (cd tools/sabaki-sgf && npm ci)");
        return;
    }
    let records = records_of_every_variant(|spec, side, seed| {
        vec![random_record(spec, side, seed), setup_record(spec, side, seed)]
    });
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sabaki_sgf_check.mjs");
    for (record, (path, seen)) in records.iter().zip(read_by("sabaki-sgf", "node", script, &records)) {
        let nodes = seen["nodes"].as_array().unwrap();
        let root = &nodes[0];
        let context = format!("{path}: {root}");
        let size = record.geometry.width().to_string();
        assert_eq!(value(root, "SZ"), Some(size.as_str()), "{context}");
        assert_eq!(value(root, "RU"), Some(record.spec.to_string().as_str()), "{context}");
        let komi: f64 = value(root, "KM").unwrap().parse().unwrap();
        assert_eq!(komi, record.spec.komi().as_f64(), "{context}");
        assert_eq!(value(root, "PB"), record.info.black.as_deref(), "{context}");
        assert_eq!(value(root, "PW"), record.info.white.as_deref(), "{context}");
        assert_eq!(value(root, "DT"), record.info.date.as_deref(), "{context}");
        assert_eq!(value(root, "C"), record.info.comment.as_deref(), "{context}");
        assert_eq!(value(root, "RE"), record.result.as_deref(), "{context}");
        for (id, color) in [("AB", Color::Black), ("AW", Color::White)] {
            let read: BTreeSet<_> = points(root, id).into_iter().collect();
            assert_eq!(read, setup_points(record, color), "{id}: {context}");
        }
        let first = if record.first_player == Color::Black { "B" } else { "W" };
        assert!(value(root, "PL").is_none_or(|pl| pl == first), "{context}");
        assert_eq!(nodes.len(), record.moves.len() + 1, "one node per move: {context}");
        assert_eq!(moves_read(&nodes[1..]), moves_written(record), "{path}");
    }
}
