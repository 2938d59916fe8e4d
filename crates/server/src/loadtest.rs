//! `variago loadtest`: N simultaneous games of random legal moves against a running server, over
//! its public API (HTTP to create and join, one WebSocket per player to play), measuring the
//! round trip of every move (sent to acknowledged). What a deployment is sized with.

use std::fmt;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message as WsMessage;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// How long any single answer may take before the load test gives up.
const PATIENCE: Duration = Duration::from_secs(60);

/// What to run.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The server, e.g. `127.0.0.1:8080`.
    pub addr: String,
    /// Simultaneous games.
    pub games: usize,
    /// Moves each player makes.
    pub moves: usize,
    /// A player's thinking time around each move (between half and one and a half times it);
    /// zero plays as fast as the machine goes.
    pub think: Duration,
    /// The variant spec of the games.
    pub variant: String,
}

/// What was measured.
#[derive(Clone, Debug)]
pub struct Report {
    /// Games played.
    pub games: usize,
    /// Moves acknowledged.
    pub moves: usize,
    /// Wall-clock time of the play (creation and joining excluded).
    pub elapsed: Duration,
    /// Median round trip.
    pub p50: Duration,
    /// 99th percentile round trip.
    pub p99: Duration,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games, {} moves in {:.2} s: {:.0} moves/s, round trip p50 {:.1} ms, p99 {:.1} ms",
            self.games,
            self.moves,
            self.elapsed.as_secs_f64(),
            self.moves as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.p50.as_secs_f64() * 1000.0,
            self.p99.as_secs_f64() * 1000.0,
        )
    }
}

/// Why the load test stopped.
#[derive(Debug, thiserror::Error)]
#[error("load test: {0}")]
pub struct LoadError(String);

fn fail(context: &str, e: impl fmt::Display) -> LoadError {
    LoadError(format!("{context}: {e}"))
}

/// Waits for an I/O step, at most [`PATIENCE`].
async fn patiently<T, E: fmt::Display>(
    context: &str,
    step: impl Future<Output = Result<T, E>>,
) -> Result<T, LoadError> {
    tokio::time::timeout(PATIENCE, step).await.map_err(|e| fail(context, e))?.map_err(|e| fail(context, e))
}

/// A JSON POST over a fresh HTTP/1.1 connection: the few requests the load test makes before
/// play do not need a client library.
async fn post(addr: &str, path: &str, body: &Value) -> Result<Value, LoadError> {
    let body = body.to_string();
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = patiently("connecting", TcpStream::connect(addr)).await?;
    patiently("sending", stream.write_all(request.as_bytes())).await?;
    let mut answer = Vec::new();
    patiently("reading", stream.read_to_end(&mut answer)).await?;
    let answer = String::from_utf8_lossy(&answer);
    let (head, json) =
        answer.split_once("\r\n\r\n").ok_or_else(|| LoadError(format!("{path}: no HTTP answer")))?;
    if !head.starts_with("HTTP/1.1 2") {
        return Err(LoadError(format!("{path}: {} {json}", head.lines().next().unwrap_or_default())));
    }
    serde_json::from_str(json).map_err(|e| fail(path, e))
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// What a player reads of a server message: only the fields it needs, so that the load test
/// spends its time on the server rather than on parsing whole game views.
#[derive(Deserialize)]
struct Incoming {
    /// `event`, `state`, `ack` or `error`.
    #[serde(rename = "type")]
    kind: String,
    /// The reference of an acknowledged or refused action.
    #[serde(rename = "ref", default)]
    reference: Option<u64>,
    /// The game, in `state` and live `event` messages.
    #[serde(default)]
    game: Option<GameSeen>,
    /// Why an action was refused.
    #[serde(default)]
    error: Option<String>,
}

/// The part of the game view a player acts on.
#[derive(Deserialize)]
struct GameSeen {
    status: String,
    #[serde(default)]
    to_move: Option<String>,
    #[serde(default)]
    legal: Vec<String>,
}

/// The next server message.
async fn next_message(socket: &mut Socket) -> Result<Incoming, LoadError> {
    loop {
        let message = patiently("the socket", async { socket.next().await.transpose() })
            .await?
            .ok_or_else(|| LoadError("the server closed a socket".into()))?;
        if let WsMessage::Text(text) = message {
            return serde_json::from_str(text.as_str()).map_err(|e| fail("a message", e));
        }
    }
}

/// The game of the next message carrying it (`state`, or a live `event`).
async fn next_game(socket: &mut Socket) -> Result<GameSeen, LoadError> {
    loop {
        if let Some(game) = next_message(socket).await?.game {
            return Ok(game);
        }
    }
}

/// Sends an action and waits for its acknowledgement.
async fn round_trip(socket: &mut Socket, reference: u64, action: Value) -> Result<(), LoadError> {
    let text = json!({ "ref": reference, "action": action }).to_string();
    patiently("sending a move", socket.send(WsMessage::Text(text.into()))).await?;
    loop {
        let message = next_message(socket).await?;
        if message.reference == Some(reference) {
            return match message.kind.as_str() {
                "ack" => Ok(()),
                _ => Err(LoadError(format!("a move was refused: {}", message.error.unwrap_or_default()))),
            };
        }
    }
}

/// A step of a small random generator (each player has its own, seeded by its number).
fn next_random(state: &mut u64) -> u64 {
    *state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    *state >> 33
}

/// One player: plays `plan.moves` random legal moves (placements while there are any) as its
/// turns come; returns the round trip of each.
async fn player(
    mut socket: Socket,
    me: &'static str,
    plan: &Plan,
    seed: u64,
) -> Result<Vec<Duration>, LoadError> {
    let mut times = Vec::new();
    let mut rng = seed;
    while times.len() < plan.moves {
        let game = next_game(&mut socket).await?;
        if game.status != "playing" {
            break;
        }
        if game.to_move.as_deref() != Some(me) {
            continue;
        }
        let legal: Vec<&str> = game.legal.iter().map(String::as_str).filter(|m| *m != "pass").collect();
        let pick = next_random(&mut rng) as usize;
        let mv = legal.get(pick % legal.len().max(1)).copied().unwrap_or("pass");
        if !plan.think.is_zero() {
            let spread = (next_random(&mut rng) % 1000) as f64 / 1000.0;
            tokio::time::sleep(plan.think / 2 + plan.think.mul_f64(spread)).await;
        }
        let start = Instant::now();
        round_trip(&mut socket, times.len() as u64, json!({ "type": "move", "move": mv })).await?;
        times.push(start.elapsed());
    }
    Ok(times)
}

/// Connects a player's socket.
async fn connect(addr: &str, id: &str, token: &str) -> Result<Socket, LoadError> {
    let url = format!("ws://{addr}/api/games/{id}/ws?after=1&token={token}");
    // tungstenite zeroes its whole read buffer (128 KiB by default) before each read
    let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
    let connecting = tokio_tungstenite::connect_async_with_config(url, Some(config), false);
    Ok(patiently("connecting a socket", connecting).await?.0)
}

/// Creates and joins the games, opens both players' sockets, then plays them all at once.
pub async fn run(plan: &Plan) -> Result<Report, LoadError> {
    let mut sockets = Vec::new();
    for _ in 0..plan.games {
        let created =
            post(&plan.addr, "/api/games", &json!({ "variant": plan.variant, "color": "black" })).await?;
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let invite = json!({ "invite": created["invite"] });
        let joined = post(&plan.addr, &format!("/api/games/{id}/join"), &invite).await?;
        let token = |v: &Value| v["token"].as_str().unwrap_or_default().to_string();
        sockets.push((
            connect(&plan.addr, &id, &token(&created)).await?,
            connect(&plan.addr, &id, &token(&joined)).await?,
        ));
    }
    let start = Instant::now();
    let mut players = tokio::task::JoinSet::new();
    for (n, (black, white)) in sockets.into_iter().enumerate() {
        for (socket, me, seed) in [(black, "black", 2 * n as u64), (white, "white", 2 * n as u64 + 1)] {
            let plan = plan.clone();
            players.spawn(async move { player(socket, me, &plan, seed).await });
        }
    }
    let mut times = Vec::new();
    for result in players.join_all().await {
        times.extend(result?);
    }
    let elapsed = start.elapsed();
    times.sort();
    let percentile =
        |p: usize| times.get((times.len() * p / 100).min(times.len().saturating_sub(1))).copied();
    Ok(Report {
        games: plan.games,
        moves: times.len(),
        elapsed,
        p50: percentile(50).unwrap_or_default(),
        p99: percentile(99).unwrap_or_default(),
    })
}

/// Runs the load test on its own Tokio runtime: the entry point of `variago loadtest`.
pub fn run_blocking(plan: &Plan) -> Result<Report, LoadError> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| fail("runtime", e))?;
    runtime.block_on(run(plan))
}
