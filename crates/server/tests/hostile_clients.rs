//! Clients that try to hold the server's resources: unfinished headers, idle connections, many
//! connections from one address, WebSocket frames that announce megabytes, sockets that never
//! answer a ping. Each is cut off or refused with a clear answer, and well-behaved clients go on.

// shared with the other test files, which use the rest
#[allow(dead_code)]
mod support;

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::json;
use support::{Client, PATIENCE, Server, Socket};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;
use variago_server::Rate;

/// A raw connection to the server from the loopback address `from` (127.0.0.x).
async fn connect_from(server: SocketAddr, from: [u8; 4]) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((from, 0))).expect("bind a loopback address");
    socket.connect(server).await.expect("connect")
}

/// Reads until the server closes the connection (within the patience): what it sent.
async fn until_closed(stream: &mut TcpStream) -> String {
    closed_within(stream, PATIENCE).await
}

/// Reads until the server closes the connection, which it must do within `limit` (what would
/// take the server's own defaults, 20 s and more, must not pass): what it sent.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> String {
    let mut received = Vec::new();
    let read = tokio::time::timeout(limit, async {
        let mut buffer = [0u8; 4096];
        loop {
            match stream.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(n) => received.extend_from_slice(&buffer[..n]),
            }
        }
    });
    read.await.expect("the server closes the connection");
    String::from_utf8_lossy(&received).into_owned()
}

/// The WebSocket handshake by hand, for a client that then misbehaves.
async fn raw_websocket(server: SocketAddr, game: &str) -> TcpStream {
    let mut stream = TcpStream::connect(server).await.unwrap();
    let request = format!(
        "GET /api/games/{game}/ws HTTP/1.1\r\nHost: {server}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        stream.read_exact(&mut byte).await.expect("the handshake's answer");
        head.push(byte[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{}", String::from_utf8_lossy(&head));
    stream
}

/// A new game waiting for its second player: its id and invitation.
async fn some_game(server: &Server) -> (String, String) {
    let created = server.client().create(json!({ "variant": "go", "size": "9" })).await;
    (created["id"].as_str().unwrap().to_string(), created["invite"].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_headers_and_idle_connections_are_closed_after_the_header_timeout() {
    let server = Server::start_with(|config| {
        config.limits.header_timeout = Duration::from_millis(300);
    })
    .await;
    let mut unfinished = TcpStream::connect(server.addr).await.unwrap();
    unfinished.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    closed_within(&mut unfinished, Duration::from_secs(10)).await;

    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    idle.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let answered = closed_within(&mut idle, Duration::from_secs(10)).await;
    assert!(answered.starts_with("HTTP/1.1 200"), "the request itself is answered first: {answered}");
    let (status, _) = server.client().get("/api/health").await;
    assert_eq!(status, 200, "new clients are served");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_caps_get_a_503_and_places_come_back_when_connections_close() {
    let server = Server::start_with(|config| {
        config.limits.connections = 6;
        config.limits.per_address = 4;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(connect_from(server.addr, [127, 0, 0, 2]).await);
    }
    let mut refused = connect_from(server.addr, [127, 0, 0, 2]).await;
    let answer = until_closed(&mut refused).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("too many connections from this address"), "{answer}");
    for _ in 0..2 {
        held.push(connect_from(server.addr, [127, 0, 0, 3]).await);
    }
    let mut refused = connect_from(server.addr, [127, 0, 0, 4]).await;
    let answer = until_closed(&mut refused).await;
    assert!(answer.contains("as many connections as it can hold"), "{answer}");
    assert!(answer.contains("retry-after"), "{answer}");

    drop(held);
    // the places come back once the server has seen the connections close
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let mut stream = connect_from(server.addr, [127, 0, 0, 2]).await;
        stream.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
        let answer = until_closed(&mut stream).await;
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "still refused: {answer}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_frame_announcing_more_than_a_message_may_hold_is_refused_at_its_header() {
    let server = Server::start().await;
    let (game, _) = some_game(&server).await;
    let mut stream = raw_websocket(server.addr, &game).await;
    // a masked text frame announcing 12 MiB (64-bit length), then only a little of it
    let mut frame = vec![0x81, 0xff];
    frame.extend_from_slice(&(12u64 << 20).to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    frame.extend_from_slice(&[b'x'; 1024]);
    stream.write_all(&frame).await.unwrap();
    // at the header, long before the heartbeat would close a socket that sends nothing more
    closed_within(&mut stream, Duration::from_secs(10)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_never_answers_pings_is_closed_and_one_that_does_stays() {
    let server = Server::start_with(|config| {
        config.ping_interval = Duration::from_millis(400);
    })
    .await;
    let (game, invite) = some_game(&server).await;
    let mut silent = raw_websocket(server.addr, &game).await;
    let sent = until_closed(&mut silent).await;
    assert!(!sent.is_empty(), "the server sent the game (and pings) before closing");

    let url = format!("ws://{}/api/games/{game}/ws", server.addr);
    let (mut polite, _) = tokio_tungstenite::connect_async(url).await.expect("connect");
    // reading answers the pings; five intervals later the socket is still open and live
    let reading = tokio::time::timeout(Duration::from_secs(2), async {
        while let Some(message) = polite.next().await {
            message.expect("the socket stays open");
        }
        panic!("the server closed a socket that answered its pings");
    });
    assert!(reading.await.is_err(), "reading went on until the timeout");
    let (status, body) =
        server.client().post(&format!("/api/games/{game}/join"), &json!({ "invite": invite })).await;
    assert_eq!(status, 200, "{body}");
    let joined = tokio::time::timeout(PATIENCE, async {
        while let Some(message) = polite.next().await {
            if let Message::Text(text) = message.expect("the socket stays open")
                && text.contains("\"joined\"")
            {
                return;
            }
        }
        panic!("the socket closed before the join arrived");
    });
    joined.await.expect("the join reaches the socket");
}

/// One client once created 5,000 games in 0.7 s; tokens could be tried without end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creations_actions_and_refused_tokens_past_their_rates_get_429_with_retry_after() {
    let slowly = Duration::from_secs(60);
    let server = Server::start_with(|config| {
        config.rates.games = Rate { burst: 3, every: slowly };
        config.rates.actions = Rate { burst: 2, every: slowly };
        config.rates.refused_tokens = Rate { burst: 1, every: slowly };
    })
    .await;
    let client = server.client();
    let (id, black, white) = client.pair("go", "9", json!({})).await;
    for _ in 0..2 {
        client.post("/api/games", &json!({ "variant": "go" })).await;
    }
    let http = reqwest::Client::new();
    let refused = http
        .post(format!("http://{}/api/games", server.addr))
        .json(&json!({ "variant": "go" }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 429);
    let retry_after: u64 = refused.headers()["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let body: serde_json::Value = refused.json().await.unwrap();
    assert!(body["error"].as_str().unwrap().contains("too many games created"), "{body}");

    client.must(&id, &black, json!({ "type": "move", "move": "C3" })).await;
    let (status, _) = client.act(&id, &black, json!({ "type": "move", "move": "D4" })).await;
    assert_eq!(status, 409, "out of turn, and counted all the same");
    let (status, body) = client.act(&id, &black, json!({ "type": "pass" })).await;
    assert_eq!(status, 429, "{body}");
    client.must(&id, &white, json!({ "type": "move", "move": "E5" })).await;

    for _ in 0..2 {
        let (status, _) = client.act(&id, "not-a-seat", json!({ "type": "pass" })).await;
        assert_eq!(status, 403);
    }
    let (status, body) = client.act(&id, &white, json!({ "type": "pass" })).await;
    assert_eq!(status, 429, "this address tried too many tokens: {body}");
}

/// 5,000 games created in 0.7 s once all stayed in memory, and were all loaded again at every
/// start.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_nobody_uses_leave_memory_and_come_back_when_asked_for() {
    let fresh = support::Db::Sqlite.fresh().await.unwrap();
    let start = |url: String| async move {
        let mut config = variago_server::Config::new("127.0.0.1:0".parse().unwrap(), url);
        config.evict_after = Duration::from_millis(200);
        let running = variago_server::start(config).await.expect("server starts");
        let (addr, hub) = (running.addr, running.hub.clone());
        tokio::spawn(running.wait());
        (Client::new(addr), addr, hub)
    };
    let (client, addr, hub) = start(fresh.url.clone()).await;
    let mut waiting = Vec::new();
    for _ in 0..20 {
        let created = client.create(json!({ "variant": "go", "size": "9" })).await;
        waiting.push((
            created["id"].as_str().unwrap().to_string(),
            created["invite"].as_str().unwrap().to_string(),
        ));
    }
    let (watched, _) = &waiting[0];
    let _spectator = Socket::connect(addr, watched, 0, None).await;
    let clock = json!({ "time_control": { "kind": "absolute", "main_ms": 600_000 } });
    let (clocked, black, _) = client.pair("go", "9", clock).await;
    client.must(&clocked, &black, json!({ "type": "move", "move": "E5" })).await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while hub.games_in_memory() > 2 {
        assert!(tokio::time::Instant::now() < deadline, "{} games still in memory", hub.games_in_memory());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(hub.games_in_memory(), 2, "the watched game and the one whose clock runs stay");

    for (id, _) in &waiting {
        client.game(id).await;
    }
    let (id, invite) = &waiting[1];
    let (status, body) = client.post(&format!("/api/games/{id}/join"), &json!({ "invite": invite })).await;
    assert_eq!(status, 200, "a game brought back is played on: {body}");

    let (_, _, restarted) = start(fresh.url.clone()).await;
    assert_eq!(restarted.games_in_memory(), 2, "a start loads the games in play only");
}

/// New games against the AI are refused while too many searches wait for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_games_against_the_ai_are_refused_while_its_queue_is_full() {
    let server = Server::start_with(|config| {
        config.ai_threads = 1;
        config.ai_queue_limit = Some(1);
    })
    .await;
    let client = server.client();
    let against_the_ai = json!({ "variant": "go", "size": "9", "color": "white",
        "opponent": { "kind": "ai", "level": 10 },
        "time_control": { "kind": "absolute", "main_ms": 10_000 } });
    let mut refusal = None;
    for _ in 0..6 {
        let (status, body) = client.post("/api/games", &against_the_ai).await;
        match status {
            201 => tokio::time::sleep(Duration::from_millis(50)).await,
            503 => {
                refusal = Some(body);
                break;
            }
            _ => panic!("{status} {body}"),
        }
    }
    let refusal = refusal.expect("a game against the AI is refused once one search waits");
    assert!(refusal["error"].as_str().unwrap().contains("the AI has too many games waiting"), "{refusal}");
    client.create(json!({ "variant": "go", "size": "9" })).await;
}
