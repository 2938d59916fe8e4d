//! `variago backup` and `variago restore` (the server crate's `backup` module): a copy made while
//! games are being played holds every move acknowledged before it began, restores into a new
//! file, and a server started on that file plays on.

// shared with the other test files, which use the rest
#[allow(dead_code)]
mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::json;
use support::{Server, planned_move};
use variago_server::backup::{self, BackupError};

/// Games played while the backup runs.
const GAMES: usize = 4;

/// Moves each game gets before it stops (the planned game has room for 72).
const MOVES: usize = 60;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_under_load_holds_every_acknowledged_move_and_restores() {
    let dir = tempfile::tempdir().unwrap();
    let url = support::sqlite_url(&dir.path().join("live.db"));
    let server = Server::start_on(&url).await;
    let client = server.client();
    let mut games = Vec::new();
    for _ in 0..GAMES {
        games.push(client.pair("go", "9", json!({})).await);
    }
    // each game's players move in turn as fast as the server acknowledges; `acknowledged[i]`
    // counts game i's moves the server has answered with success
    let acknowledged: Arc<Vec<AtomicUsize>> = Arc::new((0..GAMES).map(|_| AtomicUsize::new(0)).collect());
    let mut players = Vec::new();
    for (i, (id, black, white)) in games.iter().cloned().enumerate() {
        let (client, acknowledged) = (client.clone(), Arc::clone(&acknowledged));
        players.push(tokio::spawn(async move {
            for n in 0..MOVES {
                let token = if n % 2 == 0 { &black } else { &white };
                client.must(&id, token, json!({ "type": "move", "move": planned_move(n) })).await;
                acknowledged[i].store(n + 1, Ordering::SeqCst);
            }
        }));
    }
    // the backup starts while the games are under way
    while acknowledged.iter().map(|a| a.load(Ordering::SeqCst)).sum::<usize>() < GAMES * MOVES / 4 {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    let before: Vec<usize> = acknowledged.iter().map(|a| a.load(Ordering::SeqCst)).collect();
    let copy = dir.path().join("copy.db");
    let copied = backup::backup(&url, &copy).await.expect("backup");
    let after: Vec<usize> = acknowledged.iter().map(|a| a.load(Ordering::SeqCst)).collect();
    assert_eq!(copied.games, GAMES as i64);
    assert!(after.iter().sum::<usize>() < GAMES * MOVES, "the games were still going on: {after:?}");
    for player in players {
        player.await.unwrap();
    }
    // a backup never overwrites, and a restoration never replaces a database
    assert!(matches!(backup::backup(&url, &copy).await, Err(BackupError::Exists(_))));
    assert!(matches!(backup::restore(&copy, &url).await, Err(BackupError::Exists(_))));

    let restored_url = support::sqlite_url(&dir.path().join("restored.db"));
    assert_eq!(backup::restore(&copy, &restored_url).await.expect("restore"), copied);
    let restored = Server::start_on(&restored_url).await;
    let client = restored.client();
    for (i, (id, black, white)) in games.iter().enumerate() {
        let game = client.game(id).await;
        let moves: Vec<String> =
            game["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        // everything acknowledged before the backup began, nothing but the game's own moves
        assert!(
            before[i] <= moves.len() && moves.len() <= after[i],
            "game {i}: {before:?} {after:?} {moves:?}"
        );
        assert_eq!(moves, (0..moves.len()).map(planned_move).collect::<Vec<_>>(), "game {i}");
        // and the game goes on from there
        let token = if moves.len().is_multiple_of(2) { black } else { white };
        client.must(id, token, json!({ "type": "move", "move": planned_move(moves.len()) })).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_not_a_sqlite_variago_database_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let postgres = backup::backup("postgres://user@127.0.0.1/variago", &dir.path().join("x.db")).await;
    assert!(matches!(postgres, Err(BackupError::Postgres)));
    assert!(postgres.unwrap_err().to_string().contains("pg_dump"));
    let missing = support::sqlite_url(&dir.path().join("missing.db"));
    assert!(matches!(backup::backup(&missing, &dir.path().join("x.db")).await, Err(BackupError::Missing(_))));
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a database").unwrap();
    let target = support::sqlite_url(&dir.path().join("target.db"));
    assert!(matches!(backup::restore(&text, &target).await, Err(BackupError::NotVariago(..))));
    assert!(!dir.path().join("target.db").exists(), "nothing is left behind");
}

/// PostgreSQL is backed up with its own tools, as `variago backup` says: a `pg_dump` of a schema
/// with a game in it, restored with `pg_restore` after the schema is lost, gives the game back
/// to a server started on it. Runs where `VARIAGO_TEST_POSTGRES` names a database (CI).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pg_dump_restores_with_pg_restore() {
    let Some(fresh) = support::Db::Postgres.fresh().await else { return };
    let base = std::env::var(support::POSTGRES).unwrap();
    let schema = fresh.url.rsplit_once("search_path]=").unwrap().1.to_string();
    let (id, black, white) = {
        let server = Server::start_on(&fresh.url).await;
        let client = server.client();
        let (id, black, white) = client.pair("go", "9", json!({})).await;
        for (token, mv) in [(&black, "C3"), (&white, "D4"), (&black, "E5")] {
            client.must(&id, token, json!({ "type": "move", "move": mv })).await;
        }
        (id, black, white)
    };
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("variago.dump");
    let run = |program: &str, args: &[&str]| {
        let out = std::process::Command::new(program)
            .args(args)
            .output()
            .unwrap_or_else(|e| panic!("{program}: {e}"));
        assert!(out.status.success(), "{program}: {}", String::from_utf8_lossy(&out.stderr));
    };
    let dump_path = dump.to_str().unwrap();
    run("pg_dump", &["--format=custom", "--schema", &schema, "--file", dump_path, &base]);
    // the schema is lost, then restored from the dump
    let mut conn = <sqlx::PgConnection as sqlx::Connection>::connect(&base).await.unwrap();
    sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
        .execute(&mut conn)
        .await
        .unwrap();
    run("pg_restore", &["--dbname", &base, dump_path]);
    let server = Server::start_on(&fresh.url).await;
    let client = server.client();
    assert_eq!(client.game(&id).await["moves"], json!(["C3", "D4", "E5"]));
    let game = client.must(&id, &white, json!({ "type": "move", "move": "F6" })).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 4);
    drop(black);
}
