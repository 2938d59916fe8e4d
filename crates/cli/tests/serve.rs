//! The operator's commands around the server: `serve --log-format json`, and `backup` /
//! `restore` with their last lines and refusals (the copy's content under load is
//! `crates/server/tests/backup.rs`'s).

// shared with the other test files, which use the rest
#[allow(dead_code)]
mod support;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use support::{assert_refused, last_line, scratch, variago};

#[test]
fn the_json_log_writes_an_object_a_line() {
    let dir = scratch("serve", "json-log");
    let db = format!("sqlite://{}", dir.join("games.db").display());
    let mut server = Command::new(env!("CARGO_BIN_EXE_variago"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db, "--log-format", "json"])
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let stderr = BufReader::new(server.stderr.take().unwrap());
    // the first record is the address it listens on
    let first = stderr.lines().next().expect("a log line").unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    let record: serde_json::Value = serde_json::from_str(&first).unwrap_or_else(|e| panic!("{e}: {first}"));
    assert_eq!(record["level"], "INFO", "{record}");
    let message = record["fields"]["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("listening on http://127.0.0.1:"), "{record}");
    assert!(record["timestamp"].is_string(), "{record}");
}

#[test]
fn backup_and_restore_say_what_they_copied_and_refuse_to_overwrite() {
    let dir = scratch("serve", "backup");
    let path = |name: &str| dir.join(name).display().to_string();
    let db = format!("sqlite://{}", path("games.db"));
    // a database as the server leaves it: made by a short-lived server
    let mut server = Command::new(env!("CARGO_BIN_EXE_variago"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &db])
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut stderr = BufReader::new(server.stderr.take().unwrap()).lines();
    assert!(stderr.next().unwrap().unwrap().contains("listening"));
    let out = variago(&["backup", "--db", &db, "--to", &path("copy.db")]);
    assert_eq!(last_line(&out), format!("backed up 0 games, 0 events to {}", path("copy.db")));
    server.kill().unwrap();
    server.wait().unwrap();
    assert_refused(&variago(&["backup", "--db", &db, "--to", &path("copy.db")]), "exists");
    let restored = format!("sqlite://{}", path("restored.db"));
    let out = variago(&["restore", "--from", &path("copy.db"), "--db", &restored]);
    assert_eq!(last_line(&out), format!("restored 0 games, 0 events into {restored}"));
    assert_refused(&variago(&["restore", "--from", &path("copy.db"), "--db", &restored]), "exists");
    assert_refused(&variago(&["backup", "--db", "postgres://u@127.0.0.1/v", "--to", &path("x")]), "pg_dump");
}
