//! The game server end to end: real HTTP and WebSocket clients against a server on a free port
//! with a temporary SQLite file; the crash test kills a child server process with SIGKILL. The
//! tests marked `on_both!` run on SQLite and again on PostgreSQL, each on a fresh schema of the
//! database `VARIAGO_TEST_POSTGRES` names (without it, their PostgreSQL halves say so and pass).

// shared with the other test files, which use the rest
#[allow(dead_code)]
mod support;

use serde_json::{Value, json};
use support::{ChildServer, Client, Db, Server, Socket, on_both};

/// The `n`-th legal placement of a game (cycling), or `pass` when there is none: a quick,
/// deterministic way to play whole games of any variant.
fn some_move(game: &Value, n: usize) -> String {
    let legal: Vec<&str> =
        game["legal"].as_array().unwrap().iter().filter_map(Value::as_str).filter(|m| *m != "pass").collect();
    if legal.is_empty() { "pass".to_string() } else { legal[(n * 7) % legal.len()].to_string() }
}

fn token_of<'a>(game: &Value, black: &'a str, white: &'a str) -> &'a str {
    if game["to_move"] == "black" { black } else { white }
}

on_both!(two_players_play_whole_games_of_several_variants_and_everyone_sees_every_event);
async fn two_players_play_whole_games_of_several_variants_and_everyone_sees_every_event(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    for variant in ["go", "incursion", "stoical", "excursion-2"] {
        let (id, black, white) = client.pair(variant, "5", json!({ "komi": 0.5 })).await;
        let mut sockets = vec![
            Socket::connect(server.addr, &id, 0, Some(&black)).await,
            Socket::connect(server.addr, &id, 0, Some(&white)).await,
            Socket::connect(server.addr, &id, 0, None).await,
        ];
        let mut game = client.game(&id).await;
        assert_eq!(game["status"], "playing", "{game}");
        let mut moves = Vec::new();
        for n in 0..12 {
            if game["status"] != "playing" {
                break;
            }
            let mv = some_move(&game, n);
            game = client
                .must(&id, token_of(&game, &black, &white), json!({ "type": "move", "move": mv }))
                .await;
            moves.push(mv);
        }
        while game["status"] == "playing" {
            game = client.must(&id, token_of(&game, &black, &white), json!({ "type": "pass" })).await;
        }
        if game["status"] == "scoring" {
            client.wait_for(&id, |g| !g["scoring"]["proposal"].is_null()).await;
            client.must(&id, &black, json!({ "type": "accept_score" })).await;
            game = client.must(&id, &white, json!({ "type": "accept_score" })).await;
        }
        assert_eq!(game["status"], "finished", "{variant}: {game}");
        assert!(game.get("history").is_none(), "{variant}: only Galice sends a history");
        let result = game["result"].as_str().unwrap().to_string();
        let last = game["seq"].as_u64().unwrap();
        // both players and the spectator saw every event, numbered 1, 2, 3... in order
        for socket in &mut sockets {
            let mut seen = Vec::new();
            while seen.last().copied() != Some(last) {
                let event = socket.event().await;
                seen.push(event["seq"].as_u64().unwrap());
            }
            assert_eq!(seen, (1..=last).collect::<Vec<_>>(), "{variant}");
        }
        let (status, sgf) = client.get_text(&format!("/api/games/{id}/sgf")).await;
        assert_eq!(status, 200);
        assert!(sgf.contains(&format!("RE[{result}]")), "{sgf}");
        assert!(sgf.contains("RU["), "{sgf}");
        let (_, finished) = client.get("/api/games?status=finished").await;
        assert!(finished["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_over_the_socket_are_acknowledged_and_broadcast() {
    let server = Server::start().await;
    let client = server.client();
    let (id, black, white) = client.pair("go", "9", json!({})).await;
    let mut black_socket = Socket::connect(server.addr, &id, 0, Some(&black)).await;
    let mut spectator = Socket::connect(server.addr, &id, 1, None).await;
    black_socket.send_action(7, json!({ "type": "move", "move": "E5" })).await;
    let ack = black_socket.until(|m| m["type"] == "ack").await;
    assert_eq!(ack["ref"], 7);
    let event = spectator.event().await;
    assert_eq!(event["event"], json!({ "type": "move", "color": "black", "move": "E5" }));
    assert_eq!(event["game"]["to_move"], "white");
    // a spectator cannot act; an illegal move over the socket gets the reason
    spectator.send_action(1, json!({ "type": "pass" })).await;
    let refused = spectator.until(|m| m["type"] == "error").await;
    assert!(refused["error"].as_str().unwrap().contains("spectators cannot act"), "{refused}");
    let mut white_socket = Socket::connect(server.addr, &id, 1, Some(&white)).await;
    white_socket.send_action(2, json!({ "type": "move", "move": "E5" })).await;
    let refused = white_socket.until(|m| m["type"] == "error").await;
    assert_eq!(refused["error"], "E5 is illegal: point E5 is occupied");
    assert_eq!(refused["ref"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_bad_tokens_and_finished_games_are_refused_with_reasons() {
    let server = Server::start().await;
    let client = server.client();
    let (id, black, white) = client.pair("go", "9", json!({})).await;
    client.must(&id, &black, json!({ "type": "move", "move": "C3" })).await;
    let (status, body) = client.act(&id, &white, json!({ "type": "move", "move": "C3" })).await;
    assert_eq!((status, body["error"].as_str().unwrap()), (422, "C3 is illegal: point C3 is occupied"));
    let (status, body) = client.act(&id, &black, json!({ "type": "move", "move": "D4" })).await;
    assert_eq!(status, 409);
    assert!(body["error"].as_str().unwrap().contains("not your turn"), "{body}");
    let (status, body) = client.act(&id, &white, json!({ "type": "move", "move": "Z99" })).await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = client.act(&id, &"0".repeat(64), json!({ "type": "pass" })).await;
    assert_eq!(status, 403, "{body}");
    let (status, body) = client.post(&format!("/api/games/{id}/actions"), &json!({ "type": "pass" })).await;
    assert_eq!(status, 401, "{body}");
    let (status, _) = client.post(&format!("/api/games/{id}/join"), &json!({})).await;
    assert_eq!(status, 409, "a full game cannot be joined");
    // a spectator's socket with a wrong token is refused before the upgrade
    let (status, body) = client.get(&format!("/api/games/{id}/ws?token=nope")).await;
    assert!(status == 403 || status == 400, "{status} {body}");
    // undo: White asks, Black accepts, White's move is gone
    client.must(&id, &white, json!({ "type": "move", "move": "D4" })).await;
    client.must(&id, &white, json!({ "type": "undo_request" })).await;
    let game = client.must(&id, &black, json!({ "type": "undo_answer", "accept": true })).await;
    assert_eq!(game["moves"], json!(["C3"]));
    assert_eq!(game["to_move"], "white");
    let game = client.must(&id, &white, json!({ "type": "resign" })).await;
    assert_eq!(game["result"], "B+R");
    let (status, body) = client.act(&id, &black, json!({ "type": "pass" })).await;
    assert_eq!(status, 409);
    assert!(body["error"].as_str().unwrap().contains("the game is over"), "{body}");
}

/// An open game's creator withdraws it: it leaves the open list at once, is finished without a
/// result, and whoever tries to join is told; a game under way cannot be cancelled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_game_is_cancelled_by_its_creator_and_leaves_the_list() {
    let server = Server::start().await;
    let client = server.client();
    let created = client.create(json!({ "variant": "go", "size": "9", "color": "black" })).await;
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    let listed = |list: &Value| list["games"].as_array().unwrap().iter().any(|g| g["id"] == id);
    assert!(listed(&client.get("/api/games?status=open").await.1));
    let game = client.must(id, token, json!({ "type": "cancel" })).await;
    assert_eq!((&game["status"], &game["result"]), (&json!("finished"), &json!("Void")), "{game}");
    assert!(!listed(&client.get("/api/games?status=open").await.1));
    let (status, body) = client.post(&format!("/api/games/{id}/join"), &json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("cancelled"), "{body}");
    let (id, black, _) = client.pair("go", "9", json!({})).await;
    let (status, body) = client.act(&id, &black, json!({ "type": "cancel" })).await;
    assert_eq!(status, 409, "{body}");
    assert!(body["error"].as_str().unwrap().contains("resign, or ask to leave"), "{body}");
}

/// serde's deny_unknown_fields does not reach the variants of a tagged enum that take no fields:
/// these once passed and resigned.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn actions_and_time_controls_with_fields_they_do_not_take_are_refused() {
    let server = Server::start().await;
    let client = server.client();
    let (id, black, _) = client.pair("go", "9", json!({})).await;
    for bad in [
        json!({ "type": "pass", "move": "C3" }),
        json!({ "type": "resign", "color": "black" }),
        json!({ "type": "accept_score", "dead": [] }),
        json!({ "type": "move", "move": "C3", "color": "white" }),
    ] {
        let (status, body) = client.act(&id, &black, bad.clone()).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body["error"].as_str().unwrap().contains("unknown field"), "{bad}: {body}");
    }
    let mut socket = Socket::connect(server.addr, &id, 0, Some(&black)).await;
    socket.send_action(1, json!({ "type": "resign", "color": "black" })).await;
    let reply = socket.until(|m| m["type"] == "error").await;
    assert!(reply["error"].as_str().unwrap().contains("unknown field"), "{reply}");
    let game = client.game(&id).await;
    assert_eq!((&game["moves"], &game["result"]), (&json!([]), &Value::Null), "{game}");
    let none_with_time = json!({ "variant": "go", "time_control": { "kind": "none", "main_ms": 5 } });
    let (status, body) = client.post("/api/games", &none_with_time).await;
    assert_eq!(status, 400, "{body}");
    client.create(json!({ "variant": "go", "time_control": { "kind": "none" } })).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_requests_get_json_errors() {
    let server = Server::start().await;
    let client = server.client();
    let huge = format!(r#"{{"variant": "go", "size": "{}"}}"#, "9".repeat(variago_server::BODY_LIMIT * 2));
    let (status, body) = client.post_raw("/api/games", huge.into_bytes()).await;
    assert_eq!(status, 413, "{body}");
    assert!(body["error"].is_string(), "{body}");
    let (status, body) = client.post_raw("/api/games", b"{\"variant\": ".to_vec()).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("malformed JSON"), "{body}");
    let (status, body) = client.post("/api/games", &json!({ "variant": "chess" })).await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("unknown variant 'chess'"), "{body}");
    for bad in [
        json!({ "variant": "go", "size": "40" }),
        json!({ "variant": "go", "komi": 6.3 }),
        json!({ "variant": "go", "color": "green" }),
        json!({ "variant": "go", "opponent": { "kind": "ai", "level": 11 } }),
        json!({ "variant": "go", "time_control": { "kind": "absolute", "main_ms": 0 } }),
        json!({ "variant": "go", "surprise": true }),
    ] {
        let (status, body) = client.post("/api/games", &bad).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body["error"].is_string());
    }
    let (status, body) = client.get("/api/games/doesnotexist").await;
    assert_eq!((status, body["error"].is_string()), (404, true));
    let (status, body) = client.get("/nowhere").await;
    assert_eq!((status, body["error"].is_string()), (404, true));
    let (status, _) = client.get("/api/games/x/actions").await;
    assert_eq!(status, 405);
    let (status, body) = client.get("/api/games?status=sideways").await;
    assert_eq!(status, 400, "{body}");
    // what axum refuses by itself is a JSON error too: a path that is not UTF-8, a long URI
    for path in ["/api/games/%ff", "/api/games/%ff/sgf", "/api/games/%ff/ws"] {
        let (status, body) = client.get(path).await;
        assert_eq!(status, 400, "{path}: {body}");
        assert!(body["error"].is_string(), "{path}: {body}");
    }
    let (status, body) = client.post(&format!("/api/games/{}/join", "a".repeat(8000)), &json!({})).await;
    assert_eq!((status, body["error"].is_string()), (404, true), "{body}");
    let (status, body) = client.get("/api/variants").await;
    assert_eq!(status, 200);
    let names: Vec<&str> =
        body["variants"].as_array().unwrap().iter().filter_map(|v| v["name"].as_str()).collect();
    assert!(names.contains(&"go") && names.contains(&"galice") && names.len() >= 8, "{names:?}");
}

on_both!(a_reconnecting_client_gets_the_events_it_missed);
async fn a_reconnecting_client_gets_the_events_it_missed(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    let (id, black, white) = client.pair("go", "9", json!({})).await;
    for (token, mv) in [(&black, "C3"), (&white, "D4"), (&black, "E5")] {
        client.must(&id, token, json!({ "type": "move", "move": mv })).await;
    }
    // it saw events 1 (the join) and 2 (C3)
    let mut socket = Socket::connect(server.addr, &id, 2, None).await;
    let missed = [socket.next().await, socket.next().await];
    assert_eq!([&missed[0]["seq"], &missed[1]["seq"]], [&json!(3), &json!(4)]);
    assert_eq!(missed[1]["event"]["move"], "E5");
    let state = socket.next().await;
    assert_eq!((state["type"].as_str(), state["game"]["seq"].as_u64()), (Some("state"), Some(4)));
    let (_, events) = client.get(&format!("/api/games/{id}/events?after=3")).await;
    assert_eq!(events["events"].as_array().unwrap().len(), 1);
}

on_both!(a_game_against_the_ai_is_answered_and_finishes);
async fn a_game_against_the_ai_is_answered_and_finishes(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    let created = client
        .create(json!({ "variant": "go", "size": "5", "color": "black", "opponent": { "kind": "ai", "level": 1 } }))
        .await;
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    assert_eq!(created["game"]["players"]["white"], json!({ "kind": "ai", "level": 1, "seated": true }));
    let mut socket = Socket::connect(server.addr, id, 0, Some(token)).await;
    socket.send_action(1, json!({ "type": "move", "move": "C3" })).await;
    let answer = socket.until(|m| m["type"] == "event" && m["event"]["color"] == "white").await;
    assert_eq!(answer["event"]["type"], "move", "{answer}");
    // the AI grants undo requests: both moves are taken back
    client.wait_for(id, |g| g["to_move"] == "black").await;
    client.must(id, token, json!({ "type": "undo_request" })).await;
    let game = client.wait_for(id, |g| g["moves"].as_array().unwrap().is_empty()).await;
    assert_eq!(game["to_move"], "black", "{game}");
    // from here Black only passes; the AI ends the game, then proposes the dead stones and
    // accepts its own proposal, which Black accepts too
    let game = loop {
        let game = client.wait_for(id, |g| g["to_move"] == "black" || g["status"] != "playing").await;
        if game["status"] != "playing" {
            break game;
        }
        let (status, body) = client.act(id, token, json!({ "type": "pass" })).await;
        assert!(status == 200 || status == 409, "{body}");
    };
    assert_ne!(game["status"], "open");
    let game =
        client.wait_for(id, |g| g["status"] == "finished" || !g["scoring"]["proposal"].is_null()).await;
    if game["status"] == "scoring" {
        assert_eq!(game["scoring"]["accepted"]["white"], true, "{game}");
        let game = client.must(id, token, json!({ "type": "accept_score" })).await;
        assert_eq!(game["status"], "finished", "{game}");
    }
    // the record names the AI's seat and dates the game; the person's seat has no name
    let (_, sgf) = client.get_text(&format!("/api/games/{id}/sgf")).await;
    assert!(sgf.contains("PW[variago level 1]") && sgf.contains("DT[20") && !sgf.contains("PB["), "{sgf}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_flag_falls_on_the_server() {
    let server = Server::start().await;
    let client = server.client();
    let (id, black, _white) =
        client.pair("go", "9", json!({ "time_control": { "kind": "absolute", "main_ms": 300 } })).await;
    let mut socket = Socket::connect(server.addr, &id, 0, None).await;
    let flag = socket.until(|m| m["type"] == "event" && m["event"]["type"] == "timed_out").await;
    assert_eq!(flag["event"]["color"], "black");
    assert_eq!(flag["game"]["result"], "W+T");
    let (status, _) = client.act(&id, &black, json!({ "type": "move", "move": "C3" })).await;
    assert_eq!(status, 409);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loser_on_time_has_no_time_left() {
    // byo-yomi: the clock of a player between periods reads a whole period; once the last one
    // ran out it must read nothing (it read 300 here, the time at the start, before)
    let server = Server::start().await;
    let client = server.client();
    let time_control = json!({ "kind": "byo-yomi", "main_ms": 100, "periods": 1, "period_ms": 200 });
    let (id, _black, _white) = client.pair("go", "9", json!({ "time_control": time_control })).await;
    let game = client.wait_for(&id, |g| g["status"] == "finished").await;
    assert_eq!(game["result"], "W+T");
    let black = &game["clocks"]["black"];
    assert_eq!(
        (black["remaining_ms"].as_u64(), black["running"].as_bool()),
        (Some(0), Some(false)),
        "{game}"
    );
    assert_eq!((black["main_ms"].as_u64(), black["periods"].as_u64()), (Some(0), Some(0)), "{game}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn byo_yomi_clocks_are_charged_per_move() {
    let server = Server::start().await;
    let client = server.client();
    let time_control = json!({ "kind": "byo-yomi", "main_ms": 60000, "periods": 3, "period_ms": 30000 });
    let (id, black, _white) = client.pair("go", "9", json!({ "time_control": time_control })).await;
    let game = client.must(&id, &black, json!({ "type": "move", "move": "C3" })).await;
    let clocks = &game["clocks"];
    assert_eq!(clocks["white"]["running"], true);
    assert_eq!(clocks["black"]["periods"], 3);
    assert!(clocks["black"]["main_ms"].as_u64().unwrap() <= 60000);
}

/// Not a test of its own: the server process of the crash test (see `support::ChildServer`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_server() {
    if let Ok(url) = std::env::var(support::CHILD_DB) {
        support::run_child(url).await;
    }
}

on_both!(after_a_crash_every_acknowledged_move_is_there_and_play_goes_on);
async fn after_a_crash_every_acknowledged_move_is_there_and_play_goes_on(db: Db) {
    let Some(fresh) = db.fresh().await else { return };
    let url = fresh.url.clone();
    let server = tokio::task::spawn_blocking({
        let url = url.clone();
        move || ChildServer::start(&url)
    })
    .await
    .unwrap();
    let client = server.client();
    let (id, black, white) = client.pair("go", "9", json!({})).await;
    for (token, mv) in [(&black, "C3"), (&white, "D4"), (&black, "E5")] {
        client.must(&id, token, json!({ "type": "move", "move": mv })).await;
    }
    // an AI game whose AI (thinking for at most a tenth of its clock) is to move at the crash
    let fischer = json!({ "kind": "fischer", "main_ms": 10000, "increment_ms": 1000 });
    let created = client
        .create(json!({ "variant": "go", "size": "9", "color": "black", "time_control": fischer,
                        "opponent": { "kind": "ai", "level": 10 } }))
        .await;
    let (ai_game, ai_token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    client.must(ai_game, ai_token, json!({ "type": "move", "move": "E5" })).await;
    server.kill();
    let restarted_ms = variago_server::now_ms();

    let server = tokio::task::spawn_blocking(move || ChildServer::start(&url)).await.unwrap();
    let client: Client = server.client();
    let game = client.game(&id).await;
    assert_eq!(game["moves"], json!(["C3", "D4", "E5"]));
    let game = client.must(&id, &white, json!({ "type": "move", "move": "F6" })).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 4);
    let game = client.wait_for(ai_game, |g| g["moves"].as_array().unwrap().len() == 2).await;
    assert_eq!(game["to_move"], "black", "{game}");
    let (_, events) = client.get(&format!("/api/games/{ai_game}/events?after=1")).await;
    let answer = &events["events"][0];
    assert_eq!(answer["event"]["color"], "white", "{events}");
    assert!(
        answer["at_ms"].as_i64().unwrap() >= restarted_ms,
        "the AI moved again after the restart: {events}"
    );
    drop(server);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_are_kept_in_postgresql_too() {
    let Some(fresh) = Db::Postgres.fresh().await else { return };
    let url = fresh.url.clone();
    let first = Server::start_on(&url).await;
    let client = first.client();
    let (id, black, white) = client
        .pair("stoical", "7", json!({ "time_control": { "kind": "absolute", "main_ms": 600000 } }))
        .await;
    for (token, mv) in [(&black, "C3"), (&white, "D4"), (&black, "pass")] {
        client.must(&id, token, json!({ "type": "move", "move": mv })).await;
    }
    // a second server on the same database (as after a restart, or another process) has it all
    let second = Server::start_on(&url).await;
    let mut watcher = Socket::connect(first.addr, &id, 4, None).await;
    let client = second.client();
    let game = client.game(&id).await;
    assert_eq!(game["moves"], json!(["C3", "D4", "pass"]));
    assert_eq!(game["clocks"]["white"]["running"], true, "{game}");
    let game = client.must(&id, &white, json!({ "type": "resign" })).await;
    assert_eq!(game["result"], "B+R");
    // the first process hears of it through LISTEN/NOTIFY and tells its sockets at once
    let heard = watcher.event().await;
    assert_eq!(
        (heard["seq"].as_u64(), heard["event"]["type"].as_str()),
        (Some(5), Some("resigned")),
        "{heard}"
    );
    let (_, finished) = client.get("/api/games?status=finished&limit=200").await;
    assert!(finished["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()), "{finished}");
    let (_, sgf) = client.get_text(&format!("/api/games/{id}/sgf")).await;
    assert!(sgf.contains("RU[stoical]") && sgf.contains("RE[B+R]"), "{sgf}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_server_processes_share_one_database() {
    let dir = tempfile::tempdir().unwrap();
    let url = support::sqlite_url(&dir.path().join("shared.db"));
    let (one, two) = (Server::start_on(&url).await, Server::start_on(&url).await);
    let (a, b) = (one.client(), two.client());
    let (id, black, white) = a.pair("go", "9", json!({})).await;
    let mut watcher = Socket::connect(two.addr, &id, 1, None).await;
    a.must(&id, &black, json!({ "type": "move", "move": "C3" })).await;
    // the second process catches up before it judges White's move, and tells its listeners
    let game = b.must(&id, &white, json!({ "type": "move", "move": "D4" })).await;
    assert_eq!(game["moves"], json!(["C3", "D4"]));
    let seen = [watcher.event().await, watcher.event().await];
    assert_eq!([&seen[0]["event"]["move"], &seen[1]["event"]["move"]], [&json!("C3"), &json!("D4")]);
    let game = a.must(&id, &black, json!({ "type": "move", "move": "E5" })).await;
    assert_eq!(game["moves"], json!(["C3", "D4", "E5"]));
}

/// With PostgreSQL, the process holding a game's advisory lock runs its AI and flag timer; when
/// it dies, the other process takes them over, and every game goes on with every acknowledged
/// move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn when_a_server_process_dies_its_games_go_on_in_the_other() {
    let Some(fresh) = Db::Postgres.fresh().await else { return };
    let start = |url: String| tokio::task::spawn_blocking(move || ChildServer::start(&url));
    let one = start(fresh.url.clone()).await.unwrap();
    let two = start(fresh.url.clone()).await.unwrap();
    let (a, b) = (one.client(), two.client());
    // games between people, Black playing through one process and White through the other
    let mut games = Vec::new();
    for _ in 0..4 {
        let (id, black, white) = a.pair("go", "9", json!({})).await;
        games.push((id, [black, white], Vec::new()));
    }
    for _ in 0..6 {
        for (id, tokens, moves) in &mut games {
            let n = moves.len();
            let mv = support::planned_move(n);
            [&a, &b][n % 2].must(id, &tokens[n % 2], json!({ "type": "move", "move": mv })).await;
            moves.push(mv);
        }
    }
    // a game against the AI (White), and a clocked game whose flag will fall, both run by `one`
    let ai =
        json!({ "variant": "go", "size": "9", "color": "black", "opponent": { "kind": "ai", "level": 1 } });
    let created = a.create(ai).await;
    let (ai_game, ai_token) =
        (created["id"].as_str().unwrap().to_string(), created["token"].as_str().unwrap().to_string());
    a.must(&ai_game, &ai_token, json!({ "type": "move", "move": "E5" })).await;
    a.wait_for(&ai_game, |g| g["moves"].as_array().unwrap().len() == 2).await;
    b.must(&ai_game, &ai_token, json!({ "type": "move", "move": "C3" })).await;
    b.wait_for(&ai_game, |g| g["moves"].as_array().unwrap().len() == 4).await;
    // both processes hold the game; the one holding its lock searched both answers, alone
    let searched = |health: Value| health["ai_moves_searched"].as_u64().unwrap();
    let (one_searched, two_searched) =
        (searched(a.get("/api/health").await.1), searched(b.get("/api/health").await.1));
    assert_eq!(
        (one_searched, two_searched),
        (2, 0),
        "the AI's moves were searched once each, by one process"
    );
    // long enough that the flag falls after the kill, in the other process
    let clock = json!({ "time_control": { "kind": "absolute", "main_ms": 8000 } });
    let (clocked, black, _) = a.pair("go", "9", clock).await;
    a.must(&clocked, &black, json!({ "type": "move", "move": "E5" })).await;
    b.game(&clocked).await;
    one.kill();

    for (id, tokens, moves) in &mut games {
        let game = b.game(id).await;
        assert_eq!(game["moves"], json!(moves), "every acknowledged move of {id}");
        let n = moves.len();
        b.must(id, &tokens[n % 2], json!({ "type": "move", "move": support::planned_move(n) })).await;
    }
    b.must(&ai_game, &ai_token, json!({ "type": "move", "move": "G7" })).await;
    let game = b.wait_for(&ai_game, |g| g["moves"].as_array().unwrap().len() == 6).await;
    assert_eq!(game["to_move"], "black", "the AI answered in the other process: {game}");
    let game = b.wait_for(&clocked, |g| g["status"] == "finished").await;
    assert_eq!(game["result"], "B+T", "{game}");
    drop(two);
}

/// `cargo test -p variago-server --test server -- --ignored load --nocapture`: the load test of
/// `variago loadtest` (GAMES games, default 200, each player thinking THINK_MS, default 0) against
/// a server process, with the server's CPU time and memory per open game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement, run by hand"]
async fn load() {
    let games: usize = std::env::var("GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(200);
    let think = std::env::var("THINK_MS").ok().and_then(|n| n.parse().ok()).unwrap_or(0);
    let dir = tempfile::tempdir().unwrap();
    let url = support::sqlite_url(&dir.path().join("load.db"));
    let server = tokio::task::spawn_blocking(move || ChildServer::start(&url)).await.unwrap();
    let base = server.memory_kib();
    let plan = variago_server::loadtest::Plan {
        addr: server.addr.to_string(),
        games,
        moves: 20,
        think: std::time::Duration::from_millis(think),
        variant: "go:size=9".to_string(),
        community: false,
    };
    let cpu = server.cpu_seconds();
    let report = variago_server::loadtest::run(&plan).await.expect("the load test runs");
    println!(
        "load: think {think} ms, {report}; server CPU {:.2} s, memory {base} KiB at start, {} KiB after play \
         ({:.1} KiB per game)",
        server.cpu_seconds() - cpu,
        server.memory_kib(),
        server.memory_kib().saturating_sub(base) as f64 / games as f64,
    );
    assert_eq!(report.moves, games * 2 * plan.moves);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dead_stone_phase_marks_chains_and_a_disagreement_resumes_play() {
    let server = Server::start().await;
    let client = server.client();
    let (id, black, white) = client.pair("go", "5", json!({ "komi": 0.5 })).await;
    for (token, mv) in [(&black, "C3"), (&white, "D4"), (&black, "pass"), (&white, "pass")] {
        client.must(&id, token, json!({ "type": "move", "move": mv })).await;
    }
    let game = client.wait_for(&id, |g| !g["scoring"]["proposal"].is_null()).await;
    assert_eq!(game["status"], "scoring");
    let (status, _) = client.act(&id, &black, json!({ "type": "move", "move": "A1" })).await;
    assert_eq!(status, 409, "no moves in the dead-stone phase");
    let (status, _) = client.act(&id, &black, json!({ "type": "mark_dead", "vertex": "A1" })).await;
    assert_eq!(status, 400, "an empty point is no chain");
    client.must(&id, &white, json!({ "type": "accept_score" })).await;
    let game = client.must(&id, &black, json!({ "type": "mark_dead", "vertex": "D4", "dead": true })).await;
    assert_eq!(game["scoring"]["dead"], json!(["D4"]));
    assert_eq!(
        game["scoring"]["accepted"],
        json!({ "black": false, "white": false }),
        "a mark clears acceptances"
    );
    assert_eq!(game["score"]["totals"]["black"], 25.0, "counted without the dead stone: {game}");
    // every empty point (D4's included) is Black's territory once D4 is off
    assert_eq!(game["scoring"]["territory"]["black"].as_array().map(Vec::len), Some(24), "{game}");
    assert_eq!(game["scoring"]["territory"]["white"], json!([]), "{game}");
    // White disagrees: its pass is taken back and it is to move again
    let game = client.must(&id, &white, json!({ "type": "resume" })).await;
    assert_eq!((game["status"].as_str(), game["to_move"].as_str()), (Some("playing"), Some("white")));
    assert_eq!(game["moves"], json!(["C3", "D4", "pass"]));
    // the view says who resumed (a person's reasons are not known), until both have moved again
    assert_eq!(game["resumed"], json!({ "by": "white", "held_alive": [], "held_dead": [] }));
    let game = client.must(&id, &white, json!({ "type": "move", "move": "E5" })).await;
    assert_eq!(game["resumed"]["by"], "white", "{game}");
    let game = client.must(&id, &black, json!({ "type": "pass" })).await;
    assert!(game["resumed"].is_null(), "{game}");
    let game = client.must(&id, &white, json!({ "type": "pass" })).await;
    assert_eq!(game["status"], "scoring");
    // counted with D4 dead: the record keeps the marking and the territory
    client.wait_for(&id, |g| !g["scoring"]["proposal"].is_null()).await;
    client.must(&id, &black, json!({ "type": "mark_dead", "vertex": "D4", "dead": true })).await;
    client.must(&id, &black, json!({ "type": "accept_score" })).await;
    let game = client.must(&id, &white, json!({ "type": "accept_score" })).await;
    assert_eq!(game["result"], "B+24.5", "{game}");
    let (_, sgf) = client.get_text(&format!("/api/games/{id}/sgf")).await;
    let record = variago_records::Record::from_sgf(&sgf).unwrap();
    let marked: Vec<String> = serde_json::from_value(game["scoring"]["dead"].clone()).unwrap();
    assert!(marked.contains(&"D4".to_string()), "{game}");
    let marked = marked.iter().map(|v| record.geometry.parse_vertex(v).unwrap()).collect();
    assert_eq!(record.dead, Some(marked), "{sgf}");
    assert!(sgf.contains("TB[") && !sgf.contains("TW["), "Black's territory, D4's point included: {sgf}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_resumes_play_when_the_marking_differs_from_its_proposal_and_says_where() {
    let server = Server::start().await;
    let client = server.client();
    let created = client
        .create(json!({ "variant": "go", "size": "5", "komi": 0.5, "color": "black", "opponent": { "kind": "ai", "level": 1 } }))
        .await;
    let (id, token) = (created["id"].as_str().unwrap(), created["token"].as_str().unwrap());
    // Black plays one stone (the AI must answer), then passes until the AI passes too
    client.must(id, token, json!({ "type": "move", "move": "C3" })).await;
    let game = loop {
        let game = client.wait_for(id, |g| g["to_move"] == "black" || g["status"] != "playing").await;
        if game["status"] != "playing" {
            break game;
        }
        client.must(id, token, json!({ "type": "pass" })).await;
    };
    assert_eq!(game["status"], "scoring", "{game}");
    let game = client.wait_for(id, |g| !g["scoring"]["proposal"].is_null()).await;
    // Black marks a stone dead that the proposal has alive, and accepts
    let proposal: Vec<String> = serde_json::from_value(game["scoring"]["proposal"].clone()).unwrap();
    let board: Vec<String> = serde_json::from_value(game["board"].clone()).unwrap();
    let vertex = (0..5)
        .flat_map(|y| (0..5).map(move |x| (x, y)))
        .filter(|&(x, y)| board[y].as_bytes()[x] != b'.')
        .map(|(x, y)| format!("{}{}", "ABCDE".as_bytes()[x] as char, 5 - y))
        .find(|v| !proposal.contains(v))
        .unwrap_or_else(|| panic!("a stone the proposal has alive: {game}"));
    client.must(id, token, json!({ "type": "mark_dead", "vertex": vertex, "dead": true })).await;
    client.must(id, token, json!({ "type": "accept_score" })).await;
    let game = client.wait_for(id, |g| !g["resumed"].is_null()).await;
    assert_eq!(game["resumed"]["by"], "white", "{game}");
    let held_alive: Vec<String> = serde_json::from_value(game["resumed"]["held_alive"].clone()).unwrap();
    assert!(held_alive.contains(&vertex), "{game}");
    assert_eq!(game["resumed"]["held_dead"], json!([]), "{game}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_game_is_joined_by_its_invitation_only() {
    let server = Server::start().await;
    let client = server.client();
    let created = client.create(json!({ "variant": "incursion", "size": "9", "public": false })).await;
    let id = created["id"].as_str().unwrap();
    let (_, open) = client.get("/api/games?status=open").await;
    assert!(!open["games"].as_array().unwrap().iter().any(|g| g["id"] == id), "private games are not listed");
    for body in [json!({}), json!({ "invite": "0123" })] {
        let (status, answer) = client.post(&format!("/api/games/{id}/join"), &body).await;
        assert_eq!(status, 403, "{answer}");
    }
    let (status, joined) =
        client.post(&format!("/api/games/{id}/join"), &json!({ "invite": created["invite"] })).await;
    assert_eq!(status, 200, "{joined}");
    assert_ne!(joined["color"], created["color"]);
    assert_eq!(joined["game"]["status"], "playing");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_view_says_why_each_refused_point_is_refused() {
    let server = Server::start().await;
    let client = server.client();
    let (id, black, white) = client.pair("go", "9", json!({})).await;
    let mut game = Value::Null;
    for (token, mv) in [(&black, "C3"), (&white, "A2"), (&black, "D4"), (&white, "B1")] {
        game = client.must(&id, token, json!({ "type": "move", "move": mv })).await;
    }
    assert_eq!(game["refused"], json!({ "A1": "suicide" }));
    let legal = game["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 81 - 4 - 1 + 1, "every other empty point and the pass");
    assert!(!legal.contains(&json!("A1")) && legal.contains(&json!("pass")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn galice_runs_the_pie_setup_the_colour_choice_and_turns_in_its_notation() {
    let dir = tempfile::tempdir().unwrap();
    let url = support::sqlite_url(&dir.path().join("galice.db"));
    let server = Server::start_on(&url).await;
    let client = server.client();
    let fischer = json!({ "kind": "fischer", "main_ms": 600000, "increment_ms": 1000 });
    let (id, setter, chooser) = client.pair("galice", "", json!({ "time_control": fischer })).await;
    let mut game = client.game(&id).await;
    assert_eq!((game["width"].as_u64(), game["right_board"].as_array().map(Vec::len)), (Some(7), Some(7)));
    for n in 0..5 {
        let mv = game["legal"][n * 9].as_str().unwrap().to_string();
        assert!(mv.starts_with("x ") || mv.starts_with("o "), "a setup stone: {mv}");
        game = client.must(&id, &setter, json!({ "type": "move", "move": mv })).await;
    }
    assert_eq!(game["legal"], json!(["choose black", "choose white"]));
    let (status, body) = client.act(&id, &setter, json!({ "type": "move", "move": "choose black" })).await;
    assert_eq!(status, 409, "the setter does not choose: {body}");
    // a leave request made before the seats swap colours stays with the seat that made it
    game = client.must(&id, &setter, json!({ "type": "leave_request" })).await;
    assert_eq!(game["leave_request"], "black", "{game}");
    // the chooser takes Black: the setter now plays White, whose first turn is a drop
    game = client.must(&id, &chooser, json!({ "type": "move", "move": "choose black" })).await;
    assert_eq!(game["to_move"], "white");
    assert_eq!(game["leave_request"], "white", "{game}");
    let (status, body) = client.act(&id, &setter, json!({ "type": "leave_accept" })).await;
    assert_eq!(status, 409, "the asker cannot consent to its own request: {body}");
    game = client.must(&id, &chooser, json!({ "type": "leave_decline" })).await;
    assert_eq!(game["leave_request"], json!(null), "{game}");
    // the lobby's line says so, for the seats' holders to find their colours
    let (_, running) = client.get("/api/games?status=running").await;
    let line = running["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).cloned();
    assert_eq!(line.map(|g| g["swapped"].clone()), Some(json!(true)), "{running}");
    // each seat keeps its own clock: the setter's five increments now sit on White's
    let main = |c: &str| game["clocks"][c]["main_ms"].as_u64().unwrap();
    assert!(main("white") > main("black") + 3000, "{}", game["clocks"]);
    let drop = game["legal"][0].as_str().unwrap().to_string();
    assert!(drop.starts_with("--- "), "{drop}");
    game = client.must(&id, &setter, json!({ "type": "move", "move": drop })).await;
    let (status, body) = client.act(&id, &chooser, json!({ "type": "move", "move": "zz9" })).await;
    assert_eq!(status, 400, "{body}");
    for n in 0..6 {
        let token = if game["to_move"] == "black" { &chooser } else { &setter };
        let mv = game["legal"][n % 3].as_str().unwrap().to_string();
        game = client.must(&id, token, json!({ "type": "move", "move": mv })).await;
    }
    let (status, body) = client.act(&id, &setter, json!({ "type": "undo_request" })).await;
    assert_eq!(status, 409, "{body}");
    // another server on the same database (as after a restart) keeps the seats' colours
    let again = Server::start_on(&url).await;
    let client = again.client();
    assert_eq!(client.game(&id).await["moves"], game["moves"]);
    assert!(game.get("history").is_none(), "no history during play");
    while game["status"] == "playing" {
        let token = if game["to_move"] == "black" { &chooser } else { &setter };
        game = client.must(&id, token, json!({ "type": "pass" })).await;
    }
    assert_eq!(game["status"], "finished", "galice is counted at once: {game}");
    // a finished game's view gives both boards after every move, for the replay slider
    let history = game["history"].as_array().expect("history once finished").clone();
    assert_eq!(history.len(), game["moves"].as_array().unwrap().len() + 1);
    let empty = json!(vec![".......".to_string(); 7]);
    assert_eq!((&history[0]["board"], &history[0]["right_board"]), (&empty, &empty));
    let last = history.last().unwrap();
    assert_eq!((&last["board"], &last["right_board"]), (&game["board"], &game["right_board"]));
    // after the first setup stone, one black stone stands on the boards
    let stones = |entry: &Value| {
        ["board", "right_board"]
            .iter()
            .flat_map(|b| entry[b].as_array().unwrap())
            .map(|r| r.as_str().unwrap().matches('X').count())
            .sum::<usize>()
    };
    assert_eq!(stones(&history[1]), 1);
    assert_eq!(client.game(&id).await["history"], game["history"], "the same from a GET");
    let (_, sgf) = client.get_text(&format!("/api/games/{id}/sgf")).await;
    assert!(sgf.contains("RU[galice]"), "{sgf}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn square_lifeline_plays_pairs_the_swap_and_ends_with_the_last_placement() {
    let dir = tempfile::tempdir().unwrap();
    let url = support::sqlite_url(&dir.path().join("lifeline.db"));
    let server = Server::start_on(&url).await;
    let client = server.client();
    let (id, first, second) = client.pair("lifeline", "5", json!({})).await;
    let mut game = client.game(&id).await;
    assert_eq!((game["spec"].as_str(), game["komi"].as_f64()), (Some("lifeline:size=5x5"), Some(0.0)));
    // a first turn is a pair: 300 pairs of 5x5 less its 40 adjacent ones
    assert_eq!(game["legal"].as_array().map(Vec::len), Some(260), "{}", game["legal"]);
    let (status, body) = client.act(&id, &first, json!({ "type": "move", "move": "C3" })).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (422, Some("C3 is illegal: a first turn places two stones: play a pair of empty points"))
    );
    let (status, body) = client.act(&id, &first, json!({ "type": "pass" })).await;
    assert_eq!(status, 422, "no passing: {body}");
    assert!(body["error"].as_str().unwrap().contains("there is no passing in Square Lifeline"), "{body}");
    game = client.must(&id, &first, json!({ "type": "move", "move": "C2+C4" })).await;
    assert!(game["legal"].as_array().unwrap().contains(&json!("swap")), "{}", game["legal"]);
    // the second player swaps: it now plays Black's stones, and White's first turn is the first player's
    game = client.must(&id, &second, json!({ "type": "move", "move": "swap" })).await;
    assert_eq!(game["to_move"], "white");
    let (status, _) = client.act(&id, &second, json!({ "type": "move", "move": "B3+D3" })).await;
    assert_eq!(status, 409, "the swapper plays Black now");
    game = client.must(&id, &first, json!({ "type": "move", "move": "B3+D3" })).await;
    assert_eq!(game["board"][2], ".O.O.", "{}", game["board"]);
    // Black (the second player) joins its stones into its only group, which dies; White places
    // and Black has no placement left: White, the first player, wins
    game = client.must(&id, &second, json!({ "type": "move", "move": "C3" })).await;
    assert!(
        game["board"].as_array().unwrap().iter().all(|r| !r.as_str().unwrap().contains('X')),
        "{}",
        game["board"]
    );
    game = client.must(&id, &first, json!({ "type": "move", "move": "A1" })).await;
    assert_eq!(game["status"], "finished", "{game}");
    assert_eq!(game["result"], "W+", "{game}");
    assert!(
        game["score"]["text"].as_str().unwrap().contains("White wins: Black has no legal placement"),
        "{}",
        game["score"]
    );
    let (_, sgf) = client.get_text(&format!("/api/games/{id}/sgf")).await;
    assert!(
        sgf.contains("RU[lifeline]") && sgf.contains(";B[cb];B[cd];XS[swap]N[swap];W[bc];W[dc];B[cc];W[ae]"),
        "{sgf}"
    );
    // a restarted server replays the game from the database
    let again = Server::start_on(&url).await;
    assert_eq!(again.client().game(&id).await["result"], "W+");
    let (status, refused) = client.post("/api/games", &json!({ "variant": "lifeline", "komi": 6.5 })).await;
    assert_eq!(
        (status, refused["error"].as_str()),
        (400, Some("Square Lifeline has no komi: the last player to place wins"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_plays_square_lifeline_s_first_pair() {
    let server = Server::start().await;
    let client = server.client();
    let created = client
        .create(json!({ "variant": "lifeline", "size": "5", "color": "white", "opponent": { "kind": "ai", "level": 1 } }))
        .await;
    let id = created["id"].as_str().unwrap();
    let game = client.wait_for(id, |g| g["to_move"] == "white").await;
    assert!(game["moves"][0].as_str().unwrap().contains('+'), "the AI's first turn is a pair: {game}");
    let estimate = client.get(&format!("/api/games/{id}/estimate")).await.1;
    assert!(estimate["note"].as_str().unwrap_or_default().contains("no score"), "{estimate}");
}

/// A Galice game against the AI at level 1, the creator seated as White (the AI makes the
/// setup): its id and the creator's token.
async fn galice_against_the_ai(client: &Client) -> (String, String) {
    let created = client
        .create(json!({ "variant": "galice", "color": "white", "opponent": { "kind": "ai", "level": 1 } }))
        .await;
    (created["id"].as_str().unwrap().to_string(), created["token"].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_makes_the_galice_setup_and_plays_after_the_choice() {
    let server = Server::start().await;
    let client = server.client();
    let (id, token) = galice_against_the_ai(&client).await;
    let (id, token) = (id.as_str(), token.as_str());
    let game = client.wait_for(id, |g| g["legal"] == json!(["choose black", "choose white"])).await;
    assert_eq!(game["moves"].as_array().unwrap().len(), 5, "the AI's five setup stones: {game}");
    // choosing Black reseats the creator: the AI now plays White's first drop, then the creator moves
    client.must(id, token, json!({ "type": "move", "move": "choose black" })).await;
    let game = client.wait_for(id, |g| g["to_move"] == "black").await;
    assert_eq!(game["players"]["white"], json!({ "kind": "ai", "level": 1, "seated": true }), "{game}");
    let (_, running) = client.get("/api/games?status=running&limit=200").await;
    let listed =
        running["games"].as_array().unwrap().iter().find(|g| g["id"] == id).cloned().unwrap_or_default();
    assert_eq!(
        listed["players"]["white"],
        json!({ "kind": "ai", "level": 1 }),
        "the lobby shows the new colours"
    );
    assert!(game["moves"][6].as_str().unwrap().starts_with("--- "), "{game}");
    let mv = game["legal"][0].as_str().unwrap().to_string();
    client.must(id, token, json!({ "type": "move", "move": mv })).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn borderline_shows_its_panel_and_is_counted_without_a_dead_stone_phase() {
    let server = Server::start().await;
    let client = server.client();
    let (id, black, white) = client.pair("borderline", "9", json!({})).await;
    let mut game = client.game(&id).await;
    let panel = &game["borderline"];
    assert_eq!(panel["zones"].as_array().map(Vec::len), Some(9), "{panel}");
    assert!(panel["deployment_left"].as_u64().unwrap() > 0, "{panel}");
    assert!(
        game["refused"].as_object().unwrap().values().any(|r| r.as_str().unwrap().contains("deployment"))
    );
    for n in 0..8 {
        let mv = some_move(&game, n);
        game = client.must(&id, token_of(&game, &black, &white), json!({ "type": "move", "move": mv })).await;
    }
    assert!(game["score"]["text"].as_str().unwrap().contains("live"), "{}", game["score"]);
    while game["status"] == "playing" {
        game = client.must(&id, token_of(&game, &black, &white), json!({ "type": "pass" })).await;
    }
    assert_eq!(game["status"], "finished", "{game}");
    assert!(game["result"].is_string());
}

on_both!(a_game_is_left_without_a_result_only_with_the_opponents_consent);
async fn a_game_is_left_without_a_result_only_with_the_opponents_consent(db: Db) {
    let Some(fresh) = db.fresh().await else { return };
    let server = Server::start_on(&fresh.url).await;
    let client = server.client();
    let (id, black, white) = client.pair("borderline", "9", json!({})).await;
    let mut black_socket = Socket::connect(server.addr, &id, 1, Some(&black)).await;
    let mut white_socket = Socket::connect(server.addr, &id, 1, Some(&white)).await;
    let mut spectator = Socket::connect(server.addr, &id, 1, None).await;
    assert!(client.game(&id).await["leave_request"].is_null());
    // nothing to answer yet; a spectator and a stranger cannot ask
    white_socket.send_action(1, json!({ "type": "leave_accept" })).await;
    let refused = white_socket.until(|m| m["type"] == "error").await;
    assert_eq!(
        (refused["ref"].as_u64(), refused["error"].as_str()),
        (Some(1), Some("there is no leave request to answer"))
    );
    spectator.send_action(1, json!({ "type": "leave_request" })).await;
    let refused = spectator.until(|m| m["type"] == "error").await;
    assert!(refused["error"].as_str().unwrap().contains("spectators cannot act"), "{refused}");
    let (status, body) = client.act(&id, &"0".repeat(64), json!({ "type": "leave_request" })).await;
    assert_eq!(status, 403, "{body}");
    // Black asks over its socket; everyone sees the request, and it is numbered like any event
    black_socket.send_action(2, json!({ "type": "leave_request" })).await;
    let ack = black_socket.until(|m| m["type"] == "ack").await;
    assert_eq!((ack["ref"].as_u64(), ack["seq"].as_u64()), (Some(2), Some(2)), "{ack}");
    let heard = spectator.event().await;
    assert_eq!(heard["event"], json!({ "type": "leave_requested", "color": "black" }));
    assert_eq!(heard["game"]["leave_request"], "black");
    let (status, body) = client.act(&id, &black, json!({ "type": "leave_accept" })).await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(body["error"], "your own leave request is for your opponent to answer");
    let (status, body) = client.act(&id, &black, json!({ "type": "leave_request" })).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("a leave request is already pending")));
    // White declines; play goes on
    white_socket.send_action(3, json!({ "type": "leave_decline" })).await;
    let heard = spectator.event().await;
    assert_eq!(heard["event"], json!({ "type": "leave_declined", "color": "white" }));
    assert!(heard["game"]["leave_request"].is_null() && heard["game"]["status"] == "playing", "{heard}");
    let game = client.game(&id).await;
    let mv = some_move(&game, 0);
    client.must(&id, &black, json!({ "type": "move", "move": mv })).await;
    // White asks; the request survives a restart (a second server on the same database)
    client.must(&id, &white, json!({ "type": "leave_request" })).await;
    let again = Server::start_on(&fresh.url).await;
    let client = again.client();
    let game = client.game(&id).await;
    assert_eq!((game["leave_request"].as_str(), game["seq"].as_u64()), (Some("white"), Some(5)), "{game}");
    let mut watcher = Socket::connect(again.addr, &id, 5, None).await;
    let game = client.must(&id, &black, json!({ "type": "leave_accept" })).await;
    assert_eq!(
        (game["status"].as_str(), game["result"].as_str()),
        (Some("finished"), Some("Void")),
        "{game}"
    );
    assert!(game["leave_request"].is_null());
    let heard = watcher.event().await;
    assert_eq!(
        (heard["seq"].as_u64(), &heard["event"]),
        (Some(6), &json!({ "type": "leave_accepted", "color": "black" }))
    );
    for action in ["leave_request", "leave_accept", "leave_decline"] {
        let (status, body) = client.act(&id, &white, json!({ "type": action })).await;
        assert_eq!(status, 409, "{body}");
        assert!(body["error"].as_str().unwrap().contains("the game is over (Void)"), "{body}");
    }
    let (_, sgf) = client.get_text(&format!("/api/games/{id}/sgf")).await;
    assert!(sgf.contains("RE[Void]"), "{sgf}");
    let third = Server::start_on(&fresh.url).await;
    let game = third.client().game(&id).await;
    assert_eq!((game["status"].as_str(), game["result"].as_str()), (Some("finished"), Some("Void")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_consents_to_leaving_without_a_result() {
    let server = Server::start().await;
    let client = server.client();
    let (id, token) = galice_against_the_ai(&client).await;
    let (id, token) = (id.as_str(), token.as_str());
    let mut socket = Socket::connect(server.addr, id, 0, Some(token)).await;
    socket.send_action(1, json!({ "type": "leave_request" })).await;
    let accepted = socket.until(|m| m["type"] == "event" && m["event"]["type"] == "leave_accepted").await;
    assert_eq!(accepted["event"]["color"], "black", "{accepted}");
    assert_eq!(
        (accepted["game"]["status"].as_str(), accepted["game"]["result"].as_str()),
        (Some("finished"), Some("Void"))
    );
}

/// The score estimate during play: Black's wall on column E of a 7x7 board against White's on
/// column G gives Black columns A-E (35 points) against White's 14 at most, so the estimate
/// must give Black the game and lean every point to Black; Borderline has no ownership and says so;
/// an unknown game is 404, a finished one 409; past the rate, 429.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_score_estimate_gives_the_ownership_and_the_winner_within_its_rate() {
    let server = support::Server::start_with(|config| {
        config.rates.estimates =
            variago_server::Rate { burst: 5, every: std::time::Duration::from_secs(600) };
    })
    .await;
    let client = server.client();
    let (id, black, white) = client.pair("go", "7", json!({ "komi": 0.5 })).await;
    for row in 1..=7 {
        client.must(&id, &black, json!({ "type": "move", "move": format!("E{row}") })).await;
        client.must(&id, &white, json!({ "type": "move", "move": format!("G{row}") })).await;
    }
    let game = client.game(&id).await;
    let (status, estimate) = client.get(&format!("/api/games/{id}/estimate")).await;
    assert_eq!(status, 200, "{estimate}");
    assert_eq!(estimate["seq"], game["seq"], "the estimate is for the last event");
    // asked again for the same event, the same estimate (kept; a search with the same seed would
    // give it too, so this does not tell the two apart)
    let (_, again) = client.get(&format!("/api/games/{id}/estimate")).await;
    assert_eq!(again, estimate);
    assert_eq!(estimate["to_move"], "black");
    assert_eq!(estimate["winner"], "black", "{estimate}");
    assert!(estimate["result"].as_str().unwrap().starts_with("B+"), "{estimate}");
    let margin = estimate["margin"].as_f64().unwrap();
    assert!(margin > 10.0 && margin <= 49.0, "{estimate}");
    // Black's wall settles at least its own 7 points, so at most 42 are open
    assert!(estimate["open_points"].as_u64().unwrap() <= 42, "{estimate}");
    assert!(estimate["black_winrate"].as_f64().unwrap() > 0.5, "{estimate}");
    assert!(estimate["note"].is_null());
    let rows = estimate["ownership"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    for row in rows {
        let row: Vec<f64> = row.as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        assert_eq!(row.len(), 7);
        // every point leans to Black (White's wall has no eye); Black's own wall is Black's
        // in nearly every playout
        assert!(row.iter().all(|&share| share > 0.2), "{estimate}");
        assert!(row[4] > 0.9, "{estimate}");
    }
    // White's wall on G, without an eye and Black to move, is dead
    let dead: Vec<&str> = estimate["dead"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
    assert!(dead.contains(&"G1") && dead.contains(&"G7") && !dead.contains(&"E1"), "{estimate}");

    // Borderline's score is not counted point by point: the win rate alone, and a note
    let (borderline, black, _) = client.pair("borderline", "9", json!({})).await;
    let (status, estimate) = client.get(&format!("/api/games/{borderline}/estimate")).await;
    assert_eq!(status, 200, "{estimate}");
    assert!(estimate["ownership"].is_null() && estimate["result"].is_null(), "{estimate}");
    assert!(estimate.get("right_ownership").is_none(), "{estimate}");
    assert!(estimate["note"].as_str().unwrap().contains("no ownership"), "{estimate}");
    let winrate = estimate["black_winrate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&winrate), "{estimate}");

    let (status, missing) = client.get("/api/games/nosuchgame/estimate").await;
    assert_eq!(status, 404, "{missing}");
    // a finished game has no estimate to give: its result is known
    client.must(&borderline, &black, json!({ "type": "resign" })).await;
    let (status, over) = client.get(&format!("/api/games/{borderline}/estimate")).await;
    assert_eq!(status, 409, "{over}");
    let (status, refused) = client.get(&format!("/api/games/{id}/estimate")).await;
    assert_eq!(status, 429, "{refused}");
    assert!(refused["error"].as_str().unwrap().contains("too many score estimates"), "{refused}");
}

/// Galice turns that build a living group for each side with a dead stone inside Black's, on
/// both boards alike (see the data file).
pub const GALICE_GROUPS: [(bool, &str); 35] = include!("data/galice-groups.rs");

/// Galice's estimate covers both boards: on each, the groups the turns of [`GALICE_GROUPS`]
/// build are their owners' in nearly every playout, the White stone in Black's eye space (c1, C1)
/// is dead and Black's, and the result counts both boards.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_galice_estimate_gives_the_ownership_of_both_boards_and_their_dead_stones() {
    let server = Server::start().await;
    let client = server.client();
    let (id, setter, chooser) = client.pair("galice", "", json!({})).await;
    let mut game = Value::Null;
    for (by_setter, turn) in GALICE_GROUPS {
        let token = if by_setter { &setter } else { &chooser };
        game = client.must(&id, token, json!({ "type": "move", "move": turn })).await;
    }
    let left = [".XO.X..", "XXXXX..", "......X", ".......", "......O", "OOOOO..", ".O.O..."];
    assert_eq!(game["board"], json!(left), "{game}");
    assert_eq!(game["right_board"], json!(left.map(|row| format!("{}.", &row[..6]))), "{game}");
    assert_eq!(game["to_move"], "black");
    let (status, estimate) = client.get(&format!("/api/games/{id}/estimate")).await;
    assert_eq!(status, 200, "{estimate}");
    assert_eq!(estimate["seq"], game["seq"]);
    assert!(estimate["note"].is_null(), "{estimate}");
    let share = |board: &str, x: usize, y: usize| estimate[board][y][x].as_f64().unwrap();
    for board in ["ownership", "right_ownership"] {
        let rows = estimate[board].as_array().unwrap_or_else(|| panic!("{board}: {estimate}"));
        assert_eq!(rows.len(), 7);
        assert!(rows.iter().all(|row| row.as_array().unwrap().len() == 7));
        // Black's stones on row 2, its eye a1 and the dead White stone c1 are Black's; White's
        // stones on row 6 and its eyes a7 and c7 are White's
        for x in 0..5 {
            assert!(share(board, x, 1) > 0.9, "{board} row 2: {estimate}");
            assert!(share(board, x, 5) < -0.9, "{board} row 6: {estimate}");
        }
        for (x, y, black) in [(0, 0, true), (1, 0, true), (2, 0, true), (0, 6, false), (2, 6, false)] {
            let s = share(board, x, y);
            assert!(if black { s > 0.8 } else { s < -0.8 }, "{board} ({x}, {y}) {s}: {estimate}");
        }
    }
    let dead: Vec<&str> = estimate["dead"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(dead.contains(&"c1") && dead.contains(&"C1"), "{estimate}");
    assert!(!dead.iter().any(|d| d.ends_with('2') || d.ends_with('6')), "{estimate}");
    // both boards counted: Black's sure 10 points and White's 10 on each board, the rest open
    let margin = estimate["margin"].as_f64().unwrap();
    assert!(margin.abs() <= 98.0 - 40.0, "{estimate}");
    let result = estimate["result"].as_str().unwrap();
    let winner = estimate["winner"].as_str();
    match winner {
        Some("black") => assert_eq!(result, format!("B+{margin}")),
        Some("white") => assert_eq!(result, format!("W+{}", -margin)),
        _ => assert_eq!(result, "0"),
    }
}

/// A graceful stop (SIGTERM or Ctrl-C in `variago serve`): each socket hears that the server is
/// restarting and is closed with code 1012, new connections are refused, the server ends (its
/// connections gone, or the drain's bound past), and its successor on the same database has every acknowledged move, where
/// the socket, reconnecting, catches up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_stop_tells_the_sockets_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let url = support::sqlite_url(&dir.path().join("restart.db"));
    let config = variago_server::Config::new("127.0.0.1:0".parse().unwrap(), url.clone());
    let running = variago_server::start(config).await.expect("server starts");
    let addr = running.addr;
    let client = Client::new(addr);
    let (id, black, white) = client.pair("go", "9", json!({})).await;
    client.must(&id, &black, json!({ "type": "move", "move": "C3" })).await;
    let mut watcher = Socket::connect(addr, &id, 0, None).await;
    watcher.until(|m| m["type"] == "state").await;
    running.stop();
    assert_eq!(watcher.until(|m| m["type"] == "restarting").await["type"], "restarting");
    assert_eq!(watcher.close_code().await, 1012, "service restart");
    running.wait().await.expect("the server ends cleanly");
    assert!(tokio::net::TcpStream::connect(addr).await.is_err(), "no new connection");

    let successor = Server::start_on(&url).await;
    let client = successor.client();
    let game = client.must(&id, &white, json!({ "type": "move", "move": "D4" })).await;
    assert_eq!(game["moves"], json!(["C3", "D4"]));
    let mut reconnected = Socket::connect(successor.addr, &id, 2, None).await;
    let state = reconnected.until(|m| m["type"] == "state").await;
    assert_eq!(state["game"]["moves"], json!(["C3", "D4"]));
}
