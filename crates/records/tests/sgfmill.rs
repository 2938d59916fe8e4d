//! Records written by variago read by an independent SGF library: sgfmill (PyPI), whose own
//! board replay of the `go` games must reach the same final position. `.ci/run` installs sgfmill
//! and sets `VARIAGO_REQUIRE_SGFMILL=1`, so that there this test cannot skip.

use std::process::Command;

use variago_rules::Color;

mod support;
use support::{random_record, read_by, records_of_every_variant};

fn sgfmill_available() -> bool {
    let found =
        Command::new("python3").args(["-c", "import sgfmill"]).output().is_ok_and(|out| out.status.success());
    if !found && std::env::var("VARIAGO_REQUIRE_SGFMILL").is_ok_and(|v| v == "1") {
        panic!("sgfmill is required (VARIAGO_REQUIRE_SGFMILL=1) but python3 cannot import it");
    }
    found
}

/// sgfmill's board is standard Go's, so only the `go` games are replayed there; the others are
/// checked for what sgfmill reads (size, rules, komi, moves).
#[test]
fn sgfmill_reads_every_variant_and_replays_go_to_the_same_board() {
    if !sgfmill_available() {
        eprintln!("skipped: python3 with sgfmill not found (pip install sgfmill)");
        return;
    }
    let records = records_of_every_variant(|spec, side, seed| vec![random_record(spec, side, seed)]);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/sgfmill_check.py");
    for (record, (path, seen)) in records.iter().zip(read_by("sgfmill", "python3", script, &records)) {
        let context = format!("{path}: {seen}");
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
