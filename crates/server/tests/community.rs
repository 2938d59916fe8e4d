//! Accounts, sessions, rated games, ratings and chat end to end, against the contracts of
//! docs/server-accounts.md ("Accounts, sessions, ratings and chat"); the rated result is also checked
//! across a crash (SIGKILL of a child server process).

// shared with the other test files, which use the rest
#[allow(dead_code)]
mod support;

use std::time::{Duration, Instant};

use reqwest::Method;
use serde_json::{Value, json};
use sqlx::Connection;
use support::{ChildServer, Client, Db, Server, on_both};

/// Not a test of its own: the server process of the crash test (see `support::ChildServer`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_server() {
    if let Ok(url) = std::env::var(support::CHILD_DB) {
        support::run_child(url).await;
    }
}

/// Signs up and logs in: the session token.
async fn account(client: &Client, name: &str) -> String {
    let credentials = json!({ "name": name, "password": "correct horse" });
    let (status, created) = client.post("/api/accounts", &credentials).await;
    assert_eq!((status, &created["name"]), (201, &json!(name)), "{created}");
    log_in(client, name).await
}

/// Logs an account made by [`account`] in once more (another device): a new session token.
async fn log_in(client: &Client, name: &str) -> String {
    let credentials = json!({ "name": name, "password": "correct horse" });
    let (status, _, session) = client.request(Method::POST, "/api/sessions", None, Some(&credentials)).await;
    assert_eq!(status, 200, "{session}");
    session["token"].as_str().expect("a token").to_string()
}

/// A rated 9x9 game of go between two accounts: (id, black seat token, white seat token).
async fn rated_game(client: &Client, black_session: &str, white_session: &str) -> (String, String, String) {
    let body = json!({ "variant": "go", "size": "9", "color": "black", "rated": true });
    let (status, _, created) =
        client.request(Method::POST, "/api/games", Some(black_session), Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let (status, _, joined) =
        client.request(Method::POST, &format!("/api/games/{id}/join"), Some(white_session), None).await;
    assert_eq!(status, 200, "{joined}");
    (id, created["token"].as_str().unwrap().to_string(), joined["token"].as_str().unwrap().to_string())
}

fn error(body: &Value) -> &str {
    body["error"].as_str().unwrap_or_default()
}

on_both!(accounts_are_created_once_with_a_valid_name_and_password);
async fn accounts_are_created_once_with_a_valid_name_and_password(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    account(&client, "ann").await;
    for (body, status, words) in [
        (json!({ "name": "ann", "password": "another one" }), 409, "taken"),
        (json!({ "name": "ANN", "password": "another one" }), 409, "taken"),
        (json!({ "name": "an", "password": "long enough" }), 400, "3 to 20"),
        (json!({ "name": "a".repeat(21), "password": "long enough" }), 400, "3 to 20"),
        (json!({ "name": "ann bee", "password": "long enough" }), 400, "letters, digits"),
        (json!({ "name": "bee", "password": "short" }), 400, "at least 8"),
        (json!({ "name": "bee" }), 400, "password"),
    ] {
        let (got, answer) = client.post("/api/accounts", &body).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(error(&answer).contains(words), "{body}: {answer}");
    }
}

on_both!(a_logged_in_player_s_seats_are_theirs_on_every_device);
/// A seat taken while logged in belongs to the account: on another device (another session of
/// the same account, no seat token) the player lists it, acts in it by the session as a bearer
/// token, the cookie, or a socket's token, and cannot take the other seat; anyone else's session
/// is refused.
async fn a_logged_in_player_s_seats_are_theirs_on_every_device(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    let laptop = account(&client, "ann").await;
    let phone = log_in(&client, "ann").await;
    assert_ne!(phone, laptop);
    let bee = account(&client, "bee").await;
    let cat = account(&client, "cat").await;
    // ann's game against the AI first, then her game against a person, created on the laptop
    let ai_game =
        json!({ "variant": "go", "size": "9", "color": "white", "opponent": { "kind": "ai", "level": 1 } });
    let (status, _, against_ai) =
        client.request(Method::POST, "/api/games", Some(&laptop), Some(&ai_game)).await;
    assert_eq!(status, 201, "{against_ai}");
    let body = json!({ "variant": "go", "size": "9", "color": "black" });
    let (status, _, created) = client.request(Method::POST, "/api/games", Some(&laptop), Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    // the phone lists both, the latest first; without a session there is no "mine"
    let (status, _, mine) = client.request(Method::GET, "/api/games?mine=1", Some(&phone), None).await;
    assert_eq!(status, 200, "{mine}");
    let ids: Vec<&str> =
        mine["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [id.as_str(), against_ai["id"].as_str().unwrap()], "{mine}");
    assert_eq!(mine["games"][0]["status"], "open");
    assert_eq!(mine["games"][0]["accounts"]["black"], "ann");
    let (status, _, refused) = client.request(Method::GET, "/api/games?mine=1", None, None).await;
    assert_eq!(status, 401, "{refused}");
    let (status, _, only) =
        client.request(Method::GET, "/api/games?mine=1&status=open", Some(&phone), None).await;
    assert_eq!((status, only["games"].as_array().unwrap().len()), (200, 1), "{only}");
    // the phone cannot take the other seat of ann's own game
    let join = format!("/api/games/{id}/join");
    let (status, _, refused) = client.request(Method::POST, &join, Some(&phone), None).await;
    assert_eq!(status, 409, "{refused}");
    assert!(error(&refused).contains("you hold the other seat"), "{refused}");
    let (status, _, joined) = client.request(Method::POST, &join, Some(&bee), None).await;
    assert_eq!(status, 200, "{joined}");
    // ann plays from the phone with her session as the bearer token
    let actions = format!("/api/games/{id}/actions");
    let (status, _, moved) = client
        .request(Method::POST, &actions, Some(&phone), Some(&json!({ "type": "move", "move": "E5" })))
        .await;
    assert_eq!(status, 200, "{moved}");
    // cat holds no seat here: her session is refused as a seat token would be
    let (status, _, refused) =
        client.request(Method::POST, &actions, Some(&cat), Some(&json!({ "type": "pass" }))).await;
    assert_eq!(status, 403, "{refused}");
    // bee answers over a socket whose token is her session
    let mut bee_socket = support::Socket::connect(server.addr, &id, 0, Some(&bee)).await;
    bee_socket.send_action(1, json!({ "type": "move", "move": "C3" })).await;
    let ack = bee_socket.until(|m| m["type"] == "ack" || m["type"] == "error").await;
    assert_eq!(ack["type"], "ack", "{ack}");
    // and ann plays over a socket opened with the session cookie, as the page does
    let mut socket =
        support::Socket::connect_with_cookie(server.addr, &id, &format!("variago_session={phone}")).await;
    socket.send_action(2, json!({ "type": "move", "move": "G5" })).await;
    let ack = socket.until(|m| m["type"] == "ack" || m["type"] == "error").await;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(client.game(&id).await["moves"].as_array().unwrap().len(), 3);
    // a logged-in spectator's cookie holds no seat: it watches and cannot act
    let mut watching =
        support::Socket::connect_with_cookie(server.addr, &id, &format!("variago_session={cat}")).await;
    watching.send_action(3, json!({ "type": "pass" })).await;
    let refused = watching.until(|m| m["type"] == "ack" || m["type"] == "error").await;
    assert!(refused["error"].as_str().unwrap_or_default().contains("spectators cannot act"), "{refused}");
}

on_both!(a_password_is_changed_and_an_account_deleted_with_its_password_asked_again);
/// The password changed from one session ends the others; an account is deleted only once its
/// games are over, and they stay with the name shown as "(deleted)", which nobody can take.
async fn a_password_is_changed_and_an_account_deleted_with_its_password_asked_again(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    let laptop = account(&client, "ann").await;
    let phone = log_in(&client, "ann").await;
    let credentials = json!({ "name": "ann", "password": "correct horse" });
    let change = |password: &str, new: &str| json!({ "password": password, "new_password": new });
    for (body, status, words) in [
        (change("wrong horse", "battery staple"), 401, "wrong password"),
        (change("correct horse", "short"), 400, "at least 8"),
    ] {
        let (got, _, answer) =
            client.request(Method::PUT, "/api/accounts/password", Some(&phone), Some(&body)).await;
        assert_eq!(got, status, "{answer}");
        assert!(error(&answer).contains(words), "{answer}");
    }
    let (status, _, _) = client
        .request(
            Method::PUT,
            "/api/accounts/password",
            None,
            Some(&change("correct horse", "battery staple")),
        )
        .await;
    assert_eq!(status, 401, "no session");
    let body = change("correct horse", "battery staple");
    let (status, _, answer) =
        client.request(Method::PUT, "/api/accounts/password", Some(&phone), Some(&body)).await;
    assert_eq!(status, 204, "{answer}");
    // the phone's session goes on, the laptop's has ended; only the new password logs in
    assert_eq!(client.request(Method::GET, "/api/sessions", Some(&phone), None).await.0, 200);
    assert_eq!(client.request(Method::GET, "/api/sessions", Some(&laptop), None).await.0, 401);
    assert_eq!(client.request(Method::POST, "/api/sessions", None, Some(&credentials)).await.0, 401);
    let renewed = json!({ "name": "ann", "password": "battery staple" });
    assert_eq!(client.request(Method::POST, "/api/sessions", None, Some(&renewed)).await.0, 200);

    // a rated game against bee, finished, and an open game: the deletion waits for the open one
    let bee = account(&client, "bee").await;
    let (id, black, _) = rated_game(&client, &phone, &bee).await;
    client.must(&id, &black, json!({ "type": "resign" })).await;
    let body = json!({ "variant": "go", "size": "9", "color": "black" });
    let (_, _, open) = client.request(Method::POST, "/api/games", Some(&phone), Some(&body)).await;
    let delete = |password: &str| json!({ "password": password });
    let (status, _, refused) =
        client.request(Method::DELETE, "/api/accounts", Some(&phone), Some(&delete("battery staple"))).await;
    assert_eq!(status, 409, "{refused}");
    assert!(error(&refused).contains("1 game not over yet"), "{refused}");
    client
        .must(open["id"].as_str().unwrap(), open["token"].as_str().unwrap(), json!({ "type": "cancel" }))
        .await;
    let (status, _, _) =
        client.request(Method::DELETE, "/api/accounts", Some(&phone), Some(&delete("correct horse"))).await;
    assert_eq!(status, 401, "the old password");
    let (status, headers, _) =
        client.request(Method::DELETE, "/api/accounts", Some(&phone), Some(&delete("battery staple"))).await;
    assert_eq!(status, 204);
    assert!(headers.get("set-cookie").unwrap().to_str().unwrap().contains("Max-Age=0"));
    // gone: the page, the session, the rating; bee's game stays, the name shown as deleted
    assert_eq!(client.get("/api/players/ann").await.0, 404);
    assert_eq!(client.request(Method::GET, "/api/sessions", Some(&phone), None).await.0, 401);
    let (_, page) = client.get("/api/players/bee").await;
    let game = page["recent"].as_array().unwrap().iter().find(|g| g["id"] == json!(id)).expect("bee's game");
    assert_eq!(game["accounts"]["black"], "(deleted)", "{game}");
    assert_eq!(client.game(&id).await["players"]["black"]["account"], "(deleted)");
    let (_, board) = client.get("/api/ratings?variant=go").await;
    assert_eq!(board.as_array().unwrap().len(), 1, "{board}");
    // a chat in the finished game does not bring the name back; the name is free again
    client.must(&id, &black, json!({ "type": "chat", "text": "bye" })).await;
    assert_eq!(client.game(&id).await["players"]["black"]["account"], "(deleted)");
    let (_, page) = client.get("/api/players/bee").await;
    assert_eq!(page["recent"][0]["accounts"]["black"], "(deleted)", "{page}");
    account(&client, "ann").await;
    let (_, page) = client.get("/api/players/ann").await;
    assert_eq!(page["recent"], json!([]), "{page}");
}

on_both!(a_player_s_games_come_in_pages);
/// A player's history, the most recently active first, twenty games a page: `next` leads to the
/// older ones and is null on the last page.
async fn a_player_s_games_come_in_pages(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    let ann = account(&client, "ann").await;
    let mut ids = Vec::new();
    for _ in 0..21 {
        let body = json!({ "variant": "go", "size": "9", "color": "black" });
        let (status, _, created) = client.request(Method::POST, "/api/games", Some(&ann), Some(&body)).await;
        assert_eq!(status, 201, "{created}");
        ids.push(created["id"].as_str().unwrap().to_string());
        // distinct activity times, one game after the other
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    let listed = |page: &Value| -> Vec<String> {
        page["recent"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap().to_string()).collect()
    };
    let (status, first) = client.get("/api/players/ann").await;
    assert_eq!(status, 200, "{first}");
    let newest_first: Vec<String> = ids.iter().rev().cloned().collect();
    assert_eq!(listed(&first), newest_first[..20]);
    let next = first["next"].as_i64().expect("a next page");
    let (_, second) = client.get(&format!("/api/players/ann?before={next}")).await;
    assert_eq!(listed(&second), newest_first[20..]);
    assert_eq!(second["next"], Value::Null);
    assert_eq!(client.get("/api/players/ann?before=soon").await.0, 400);
}

on_both!(a_session_is_a_token_and_an_http_only_cookie_until_logged_out);
async fn a_session_is_a_token_and_an_http_only_cookie_until_logged_out(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    let credentials = json!({ "name": "ann", "password": "correct horse" });
    assert_eq!(client.post("/api/accounts", &credentials).await.0, 201);
    let (status, headers, session) =
        client.request(Method::POST, "/api/sessions", None, Some(&credentials)).await;
    assert_eq!(status, 200, "{session}");
    let token = session["token"].as_str().unwrap();
    let cookie = headers.get("set-cookie").unwrap().to_str().unwrap();
    assert!(cookie.starts_with(&format!("variago_session={token};")), "{cookie}");
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"), "{cookie}");
    // the name is found whatever its case; the session answers with the name as created
    let (status, _, again) = client
        .request(
            Method::POST,
            "/api/sessions",
            None,
            Some(&json!({ "name": "ANN", "password": "correct horse" })),
        )
        .await;
    assert_eq!((status, &again["name"]), (200, &json!("ann")));
    let (status, _, me) = client.request(Method::GET, "/api/sessions", Some(token), None).await;
    assert_eq!((status, &me["name"]), (200, &json!("ann")), "{me}");
    let (status, headers, _) = client.request(Method::DELETE, "/api/sessions", Some(token), None).await;
    assert_eq!(status, 204);
    assert!(headers.get("set-cookie").unwrap().to_str().unwrap().contains("Max-Age=0"));
    let (status, _, me) = client.request(Method::GET, "/api/sessions", Some(token), None).await;
    assert_eq!(status, 401, "{me}");
    let (status, _, _) = client.request(Method::DELETE, "/api/sessions", None, None).await;
    assert_eq!(status, 401);
}

on_both!(expired_sessions_are_refused_and_deleted_at_the_next_login);
/// A session 30 days old is refused (a guest), and the next login (anyone's) deletes it from the
/// database, where it would otherwise stay.
async fn expired_sessions_are_refused_and_deleted_at_the_next_login(db: Db) {
    let Some(fresh) = db.fresh().await else { return };
    let server = Server::start_on(&fresh.url).await;
    let client = server.client();
    let old = account(&client, "ann").await;
    let young = account(&client, "bee").await;
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&fresh.url).await.unwrap();
    let thirty_days: i64 = 30 * 24 * 3600 * 1000;
    // ann's session started 30 days and a second ago; bee's a day ago
    sqlx::query("UPDATE sessions SET created_ms = created_ms - $1 WHERE name = 'ann'")
        .bind(thirty_days + 1000)
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query("UPDATE sessions SET created_ms = created_ms - $1 WHERE name = 'bee'")
        .bind(24 * 3600 * 1000_i64)
        .execute(&mut conn)
        .await
        .unwrap();
    let (status, _, answer) = client.request(Method::GET, "/api/sessions", Some(&old), None).await;
    assert_eq!(status, 401, "an expired session is refused: {answer}");
    let names = async |conn: &mut sqlx::AnyConnection| -> Vec<String> {
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT name FROM sessions ORDER BY name").fetch_all(conn).await.unwrap();
        rows.into_iter().map(|(name,)| name).collect()
    };
    assert_eq!(names(&mut conn).await, ["ann", "bee"], "refused, but still stored");
    // a login of someone else: ann's expired session is deleted, bee's stays
    let credentials = json!({ "name": "cat", "password": "correct horse" });
    assert_eq!(client.post("/api/accounts", &credentials).await.0, 201);
    let (status, _, _) = client.request(Method::POST, "/api/sessions", None, Some(&credentials)).await;
    assert_eq!(status, 200);
    assert_eq!(names(&mut conn).await, ["bee", "cat"]);
    let (status, _, me) = client.request(Method::GET, "/api/sessions", Some(&young), None).await;
    assert_eq!((status, &me["name"]), (200, &json!("bee")), "{me}");
    conn.close().await.unwrap();
}

/// The time a login takes is not asserted here (a loaded machine makes any bound flaky): the
/// accounts module's tests check that an unknown name verifies a hash made with the same
/// parameters as every account's, which is what makes the two times agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_name_and_a_wrong_password_get_the_same_answer() {
    let server = Server::start().await;
    let client = server.client();
    account(&client, "ann").await;
    let login = async |body: Value| client.request(Method::POST, "/api/sessions", None, Some(&body)).await;
    let (status, _, answer) = login(json!({ "name": "ann", "password": "wrong horse" })).await;
    let (unknown_status, _, unknown_answer) =
        login(json!({ "name": "nobody", "password": "wrong horse" })).await;
    assert_eq!((status, unknown_status), (401, 401));
    assert_eq!(answer, unknown_answer);
    assert_eq!(error(&answer), "wrong name or password");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_logins_are_limited_per_name_and_per_address() {
    let slow = Duration::from_secs(600);
    let server = Server::start_with(|config| {
        config.rates.failed_logins_per_name = variago_server::Rate { burst: 3, every: slow };
        config.rates.failed_logins_per_address = variago_server::Rate { burst: 5, every: slow };
    })
    .await;
    let client = server.client();
    for name in ["ann", "bee"] {
        account(&client, name).await;
    }
    let login = |name: &str, password: &str| json!({ "name": name, "password": password });
    // three failures at once are allowed; the one past them keeps the name out
    for _ in 0..4 {
        let (status, _, _) =
            client.request(Method::POST, "/api/sessions", None, Some(&login("ann", "wrong"))).await;
        assert_eq!(status, 401);
    }
    // ann's name is kept out, even with the right password; bee's is not
    let (status, headers, answer) =
        client.request(Method::POST, "/api/sessions", None, Some(&login("ann", "correct horse"))).await;
    assert_eq!(status, 429, "{answer}");
    assert!(error(&answer).contains("too many failed logins") && headers.contains_key("retry-after"));
    let (status, _, _) =
        client.request(Method::POST, "/api/sessions", None, Some(&login("bee", "correct horse"))).await;
    assert_eq!(status, 200);
    // two more failures make six from this address, one past its five: every name is kept out
    for name in ["bee", "cat"] {
        let (status, _, _) =
            client.request(Method::POST, "/api/sessions", None, Some(&login(name, "wrong"))).await;
        assert_eq!(status, 401);
    }
    let (status, _, answer) =
        client.request(Method::POST, "/api/sessions", None, Some(&login("bee", "correct horse"))).await;
    assert_eq!(status, 429, "{answer}");
}

on_both!(a_rated_game_is_between_two_accounts_and_its_result_moves_both_ratings);
async fn a_rated_game_is_between_two_accounts_and_its_result_moves_both_ratings(db: Db) {
    let Some(server) = Server::on(db).await else { return };
    let client = server.client();
    let (ann, bee) = (account(&client, "ann").await, account(&client, "bee").await);
    // refused: a guest, the AI, a komi of one's own, joining as a guest or as oneself
    let rated = |extra: Value| {
        let mut body = json!({ "variant": "go", "size": "9", "rated": true });
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    let (status, _, answer) = client.request(Method::POST, "/api/games", None, Some(&rated(json!({})))).await;
    assert_eq!(status, 401, "{answer}");
    let ai = rated(json!({ "opponent": { "kind": "ai", "level": 1 } }));
    let (status, _, answer) = client.request(Method::POST, "/api/games", Some(&ann), Some(&ai)).await;
    assert_eq!(status, 400, "{answer}");
    let (status, _, answer) =
        client.request(Method::POST, "/api/games", Some(&ann), Some(&rated(json!({ "komi": 0.5 })))).await;
    assert_eq!(status, 400, "{answer}");
    // the variant's own komi, as a form sends it, is no komi of one's own
    let body = rated(json!({ "color": "black", "komi": 7.5 }));
    let (status, _, created) = client.request(Method::POST, "/api/games", Some(&ann), Some(&body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let join = format!("/api/games/{id}/join");
    assert_eq!(client.request(Method::POST, &join, None, None).await.0, 401);
    assert_eq!(client.request(Method::POST, &join, Some(&ann), None).await.0, 409);
    let (status, _, joined) = client.request(Method::POST, &join, Some(&bee), None).await;
    assert_eq!(status, 200, "{joined}");
    let (black, white) = (created["token"].as_str().unwrap(), joined["token"].as_str().unwrap());
    let game = client.game(id).await;
    assert_eq!(game["rated"], true);
    assert_eq!(
        (&game["players"]["black"]["account"], &game["players"]["white"]["account"]),
        (&json!("ann"), &json!("bee"))
    );
    client.must(id, black, json!({ "type": "move", "move": "E5" })).await;
    let (status, refused) = client.act(id, white, json!({ "type": "undo_request" })).await;
    assert_eq!(status, 409, "{refused}");
    assert!(error(&refused).contains("no undo"));
    let game = client.must(id, white, json!({ "type": "resign" })).await;
    assert_eq!(game["result"], "B+R");

    // two newcomers (1500, RD 350, volatility 0.06), one game: by Glickman's formulas (worked out
    // independently of the crate) the winner goes to 1662.31 and the loser to 1337.69, RD 290.32
    let (status, ann_page) = client.get("/api/players/ann").await;
    assert_eq!(status, 200, "{ann_page}");
    let go = &ann_page["ratings"]["go"];
    assert!((go["rating"].as_f64().unwrap() - 1662.31).abs() < 0.01, "{ann_page}");
    assert!((go["deviation"].as_f64().unwrap() - 290.32).abs() < 0.01, "{ann_page}");
    assert_eq!(go["games"], 1);
    assert_eq!(ann_page["recent"][0]["id"], id);
    assert_eq!(ann_page["recent"][0]["accounts"], json!({ "black": "ann", "white": "bee" }));
    let (_, bee_page) = client.get("/api/players/BEE").await;
    assert_eq!(bee_page["name"], "bee");
    assert!((bee_page["ratings"]["go"]["rating"].as_f64().unwrap() - 1337.69).abs() < 0.01, "{bee_page}");
    let (status, board) = client.get("/api/ratings?variant=go").await;
    assert_eq!(status, 200);
    let names: Vec<&str> = board.as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["ann", "bee"], "{board}");
    assert_eq!(board[0]["games"], 1);
    // no rating for the other variants, and the errors
    let (_, incursion) = client.get("/api/ratings?variant=incursion").await;
    assert_eq!(incursion, json!([]));
    assert_eq!(client.get("/api/ratings?variant=chess").await.0, 400);
    assert_eq!(client.get("/api/ratings").await.0, 400);
    assert_eq!(client.get("/api/players/nobody").await.0, 404);

    // an unrated game between the same accounts changes nothing
    let (status, _, unrated) = client
        .request(Method::POST, "/api/games", Some(&ann), Some(&json!({ "variant": "go", "size": "9" })))
        .await;
    assert_eq!(status, 201, "{unrated}");
    let unrated_id = unrated["id"].as_str().unwrap();
    let (_, _, joined) =
        client.request(Method::POST, &format!("/api/games/{unrated_id}/join"), Some(&bee), None).await;
    let loser = if unrated["color"] == "black" {
        unrated["token"].as_str().unwrap()
    } else {
        joined["token"].as_str().unwrap()
    };
    client.must(unrated_id, loser, json!({ "type": "resign" })).await;
    let (_, ann_page) = client.get("/api/players/ann").await;
    assert_eq!(ann_page["ratings"]["go"]["games"], 1);
    assert_eq!(ann_page["recent"].as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_is_for_the_players_and_everyone_reads_it() {
    let server = Server::start_with(|config| {
        config.rates.chats = variago_server::Rate { burst: 5, every: Duration::from_secs(600) };
    })
    .await;
    let client = server.client();
    let (id, black, white) = client.pair("go", "9", json!({})).await;
    let (_, other_token, _) = client.pair("go", "9", json!({})).await;
    let (status, answer) = client.act(&id, &black, json!({ "type": "chat", "text": "  good luck  " })).await;
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = client.act(&id, &white, json!({ "type": "chat", "text": "é".repeat(500) })).await;
    assert_eq!(status, 200, "500 characters (1000 bytes) are allowed: {answer}");
    // too long, empty, a spectator without a token, a token of another game
    let (status, answer) = client.act(&id, &white, json!({ "type": "chat", "text": "x".repeat(501) })).await;
    assert_eq!(status, 400, "{answer}");
    assert!(error(&answer).contains("at most 500"), "{answer}");
    assert_eq!(client.act(&id, &white, json!({ "type": "chat", "text": "   " })).await.0, 400);
    let (status, _, answer) = client
        .request(
            Method::POST,
            &format!("/api/games/{id}/actions"),
            None,
            Some(&json!({ "type": "chat", "text": "hi" })),
        )
        .await;
    assert_eq!(status, 401, "{answer}");
    assert_eq!(client.act(&id, &other_token, json!({ "type": "chat", "text": "hi" })).await.0, 403);
    // the chat changes nothing in the game, and everyone reads it in the events
    let game = client.must(&id, &black, json!({ "type": "move", "move": "E5" })).await;
    assert_eq!(game["moves"], json!(["E5"]));
    let (_, events) = client.get(&format!("/api/games/{id}/events")).await;
    let chats: Vec<&Value> =
        events["events"].as_array().unwrap().iter().filter(|e| e["event"]["type"] == "chat").collect();
    assert_eq!(chats.len(), 2, "{events}");
    assert_eq!(chats[0]["event"], json!({ "type": "chat", "color": "black", "text": "good luck" }));
    assert_eq!(chats[1]["event"]["color"], "white");
    // the rate counts every message, refused ones too: black has sent one of five; then 429
    for _ in 0..4 {
        assert_eq!(client.act(&id, &black, json!({ "type": "chat", "text": "again" })).await.0, 200);
    }
    let (status, answer) = client.act(&id, &black, json!({ "type": "chat", "text": "again" })).await;
    assert_eq!(status, 429, "{answer}");
    // over the WebSocket: the limit holds there too, a spectator's socket hears white's message
    // and cannot write
    let mut black_socket = support::Socket::connect(server.addr, &id, 0, Some(&black)).await;
    black_socket.send_action(1, json!({ "type": "chat", "text": "again" })).await;
    let refused = black_socket.until(|m| m["type"] == "error").await;
    assert!(error(&refused).contains("too many chat messages"), "{refused}");
    let last = client.game(&id).await["seq"].as_u64().unwrap();
    let mut spectator = support::Socket::connect(server.addr, &id, last, None).await;
    let mut white_socket = support::Socket::connect(server.addr, &id, last, Some(&white)).await;
    white_socket.send_action(2, json!({ "type": "chat", "text": "over the socket" })).await;
    assert_eq!(white_socket.until(|m| m["type"] == "ack").await["ref"], 2);
    let heard = spectator.event().await;
    assert_eq!(heard["event"], json!({ "type": "chat", "color": "white", "text": "over the socket" }));
    spectator.send_action(3, json!({ "type": "chat", "text": "me too" })).await;
    let refused = spectator.until(|m| m["type"] == "error").await;
    assert!(error(&refused).contains("spectators cannot act"), "{refused}");
    // after the game, the players still talk (white's fifth message)
    client.must(&id, &white, json!({ "type": "resign" })).await;
    assert_eq!(client.act(&id, &white, json!({ "type": "chat", "text": "thanks" })).await.0, 200);
}

/// Makes `count` accounts (`PREFIX000`, `PREFIX001`...) with a session each directly in the
/// database at `url` (the API's sign-up is limited per address and hashes every password):
/// their names and session tokens.
async fn accounts_in_database(url: &str, prefix: &str, count: usize) -> Vec<(String, String)> {
    use sha2::Digest;
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(url).await.unwrap();
    let mut accounts = Vec::new();
    for n in 0..count {
        let name = format!("{prefix}{n:03}");
        let mut random = [0u8; 32];
        getrandom::fill(&mut random).unwrap();
        let token: String = random.iter().map(|b| format!("{b:02x}")).collect();
        let token_hash: String =
            sha2::Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        let now = variago_server::now_ms();
        // a password hash nobody logs in with
        sqlx::query(
            "INSERT INTO accounts (name, password_hash, created_ms) VALUES ($1, '$argon2id$none', $2)",
        )
        .bind(&name)
        .bind(now)
        .execute(&mut conn)
        .await
        .unwrap();
        sqlx::query("INSERT INTO sessions (token_hash, name, created_ms) VALUES ($1, $2, $3)")
            .bind(&token_hash)
            .bind(&name)
            .bind(now)
            .execute(&mut conn)
            .await
            .unwrap();
        accounts.push((name, token));
    }
    conn.close().await.unwrap();
    accounts
}

/// Rated games resigned at once in each round of the crash test.
const CRASH_GAMES: usize = 60;

/// One round of the crash test of rated results: [`CRASH_GAMES`] rated games, each between two
/// accounts of its own, resigned all at once by Black, and the server killed (SIGKILL) `delay`
/// after the first acknowledgement, with the others in flight. Once restarted, every
/// game has its result (`W+R`) and both its players' rating updates, or none of the three, and
/// every acknowledged result is there. Returns (acknowledged, stored).
async fn crash_round(url: &str, round: usize, delay: Duration) -> (usize, usize) {
    let start = |url: String| tokio::task::spawn_blocking(move || ChildServer::start(&url));
    let server = start(url.to_string()).await.unwrap();
    let client = server.client();
    let accounts = accounts_in_database(url, &format!("r{round}p"), CRASH_GAMES * 2).await;
    let mut games = Vec::new();
    for pair in accounts.chunks(2) {
        let (id, black, _) = rated_game(&client, &pair[0].1, &pair[1].1).await;
        games.push((id, black, [pair[0].0.clone(), pair[1].0.clone()]));
    }
    // (a request cut by the crash counts as not acknowledged: status 0)
    let http = reqwest::Client::new();
    let (acks, mut acknowledgements) = tokio::sync::mpsc::unbounded_channel();
    let mut sent = tokio::task::JoinSet::new();
    for (n, (id, black, _)) in games.iter().enumerate() {
        let request = http
            .post(format!("http://{}/api/games/{id}/actions", server.addr))
            .bearer_auth(black)
            .json(&json!({ "type": "resign" }));
        let acks = acks.clone();
        sent.spawn(async move {
            let status = request.send().await.map_or(0, |r| r.status().as_u16());
            if status == 200 {
                let _ = acks.send(n);
            }
            (n, status)
        });
    }
    drop(acks);
    let ack = tokio::time::timeout(support::PATIENCE, acknowledgements.recv()).await;
    assert!(ack.expect("an acknowledgement in time").is_some(), "no resignation was acknowledged");
    tokio::time::sleep(delay).await;
    server.kill();
    let answers = sent.join_all().await;
    let acknowledged: std::collections::HashSet<usize> =
        answers.iter().filter(|(_, status)| *status == 200).map(|(n, _)| *n).collect();

    let server = start(url.to_string()).await.unwrap();
    let client = server.client();
    let mut stored = 0;
    for (n, (id, _, players)) in games.iter().enumerate() {
        let game = client.game(id).await;
        let over = game["status"] == "finished";
        let mut pages = Vec::new();
        for name in players {
            let (status, page) = client.get(&format!("/api/players/{name}")).await;
            assert_eq!(status, 200, "{page}");
            pages.push(page);
        }
        let updates: Vec<u64> =
            pages.iter().map(|page| page["ratings"]["go"]["games"].as_u64().unwrap_or(0)).collect();
        let expected = if over { [1, 1] } else { [0, 0] };
        assert_eq!(
            updates, expected,
            "round {round}, game {n} (finished: {over}): the result and both rating updates, or none"
        );
        assert!(
            over || !acknowledged.contains(&n),
            "round {round}, game {n}: an acknowledged result is lost"
        );
        if over {
            assert_eq!(game["result"], "W+R");
            // newcomers, one game: White, the winner, at 1662.31, Black at 1337.69
            for (page, rating) in pages.iter().zip([1337.69, 1662.31]) {
                let got = page["ratings"]["go"]["rating"].as_f64().unwrap_or(0.0);
                assert!((got - rating).abs() < 0.01, "round {round}, game {n}: {page}");
            }
            stored += 1;
        }
    }
    drop(server);
    (acknowledged.len(), stored)
}

on_both!(a_rated_result_and_its_ratings_survive_a_crash_together);
/// A rated result and the ratings it changes are one transaction, checked game by game over
/// several crashes, each at another point of the burst of resignations (at the first
/// acknowledgement, 1 ms after it, 2 ms...): SQLite's group commit writes a burst in a few
/// batches, which one kill alone would often miss. (A build broken on purpose, which wrote the
/// ratings in a transaction of their own after the result's, failed this test in every run.)
async fn a_rated_result_and_its_ratings_survive_a_crash_together(db: Db) {
    let Some(fresh) = db.fresh().await else { return };
    let mut in_flight = 0;
    for (round, delay) in [0, 1, 2, 3, 4, 6, 8, 12].into_iter().enumerate() {
        let delay = Duration::from_millis(delay);
        let (acknowledged, stored) = crash_round(&fresh.url, round, delay).await;
        eprintln!(
            "{db:?}, round {round}: {CRASH_GAMES} resignations, killed {delay:?} after the first acknowledgement: \
             {acknowledged} acknowledged, {stored} stored with both rating updates, {} not stored",
            CRASH_GAMES - stored
        );
        in_flight += CRASH_GAMES - acknowledged;
    }
    assert!(in_flight > 0, "every kill came after every resignation was answered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lists_count_each_game_s_spectators() {
    let server = Server::start().await;
    let client = server.client();
    let (id, black, _) = client.pair("go", "9", json!({})).await;
    let spectators = |running: &Value| {
        running["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id.as_str())
            .map(|g| g["spectators"].clone())
    };
    let (_, running) = client.get("/api/games?status=running").await;
    assert_eq!(spectators(&running), Some(json!(0)));
    // two spectators and a player: the player is no spectator
    let watchers = [
        support::Socket::connect(server.addr, &id, 0, None).await,
        support::Socket::connect(server.addr, &id, 0, None).await,
    ];
    let _player = support::Socket::connect(server.addr, &id, 0, Some(&black)).await;
    let (_, running) = client.get("/api/games?status=running").await;
    assert_eq!(spectators(&running), Some(json!(2)), "{running}");
    drop(watchers);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (_, running) = client.get("/api/games?status=running").await;
        if spectators(&running) == Some(json!(0)) {
            break;
        }
        assert!(Instant::now() < deadline, "the closed sockets still count: {running}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The spectators a list gives for game `id` (`None` when the list does not have it).
async fn spectators_listed(client: &Client, id: &str) -> Option<Value> {
    let (status, running) = client.get("/api/games?status=running").await;
    assert_eq!(status, 200, "{running}");
    running["games"].as_array()?.iter().find(|g| g["id"] == id).map(|g| g["spectators"].clone())
}

/// Waits until the list of `client` counts `count` spectators of game `id`.
async fn until_spectators(client: &Client, id: &str, count: u64, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let listed = spectators_listed(client, id).await;
        if listed == Some(json!(count)) {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: {count} spectators expected, the list says {listed:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// With PostgreSQL and several server processes, each process publishes the spectators whose
/// sockets it holds, and every process's list counts them all; the spectators of a process that
/// died (SIGKILL) stop counting once its heartbeat expires, and its rows are deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lists_count_the_spectators_of_every_server_process() {
    let Some(fresh) = Db::Postgres.fresh().await else { return };
    // a heartbeat of 300 ms: a process's counts expire 0.9 s after its last renewal
    let heartbeat = Duration::from_millis(300);
    let one = Server::start_on_with(&fresh.url, |config| config.spectator_heartbeat = heartbeat).await;
    let url = fresh.url.clone();
    let two = tokio::task::spawn_blocking(move || {
        ChildServer::start_with(&url, &[(support::CHILD_SPECTATOR_HEARTBEAT_MS, "300")])
    })
    .await
    .unwrap();
    let (a, b) = (one.client(), two.client());
    let (id, black, _) = a.pair("go", "9", json!({})).await;
    assert_eq!(spectators_listed(&b, &id).await, Some(json!(0)));
    // a spectator on each process (and a player, who is no spectator): 2 on both lists
    let on_one = support::Socket::connect(one.addr, &id, 0, None).await;
    let _on_two = support::Socket::connect(two.addr, &id, 0, None).await;
    let _player = support::Socket::connect(two.addr, &id, 0, Some(&black)).await;
    until_spectators(&a, &id, 2, "one spectator on each process, seen from the first").await;
    until_spectators(&b, &id, 2, "one spectator on each process, seen from the second").await;
    // one leaves: 1 on both
    drop(on_one);
    until_spectators(&a, &id, 1, "the first process's spectator gone, seen from the first").await;
    until_spectators(&b, &id, 1, "the first process's spectator gone, seen from the second").await;
    // a second spectator on the second process, which then dies: its two stop counting
    let _again = support::Socket::connect(two.addr, &id, 0, None).await;
    until_spectators(&a, &id, 2, "two spectators on the second process").await;
    two.kill();
    let killed = Instant::now();
    until_spectators(&a, &id, 0, "the dead process's spectators").await;
    assert!(killed.elapsed() >= Duration::from_millis(100), "counted until its heartbeat expired");
    // the first process's sweep deletes the dead one's rows; its own row stays
    let mut db = sqlx::PgConnection::connect(&fresh.url).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (processes, counts): (i64, i64) = sqlx::query_as(
            "SELECT (SELECT COUNT(*) FROM spectator_processes), (SELECT COUNT(*) FROM spectator_counts)",
        )
        .fetch_one(&mut db)
        .await
        .unwrap();
        if (processes, counts) == (1, 0) {
            break;
        }
        assert!(Instant::now() < deadline, "{processes} processes' rows, {counts} counts left");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `variago loadtest --community` runs through: rated games between two accounts of its own with
/// chat and spectators, readers of the lists, and as many rated results on both accounts as
/// it had acknowledged (the load test checks that itself).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_community_load_test_runs_and_finds_every_rated_result() {
    let server = Server::start().await;
    let plan = variago_server::loadtest::Plan {
        addr: server.addr.to_string(),
        games: 4,
        moves: 10,
        think: Duration::ZERO,
        variant: "go:size=9".to_string(),
        community: true,
    };
    let report = variago_server::loadtest::run_community(&plan).await.expect("the load test runs");
    assert_eq!(report.play.moves, 4 * 2 * 10, "{report}");
    assert_eq!(report.finishes.count, 4, "{report}");
    assert_eq!(report.chats.count, 4 * 2 * 2, "{report}");
    assert!(report.reads.iter().all(|(_, timings)| timings.count > 0), "{report}");
}
