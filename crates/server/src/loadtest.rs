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
    /// The community's endpoints too ([`run_community`]): rated games between two accounts of
    /// its own, chat, a spectator per game, and readers of the watch list, the leaderboard and a
    /// player page while the games are played.
    pub community: bool,
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
    request(addr, "POST", path, None, Some(body)).await
}

/// A request over a fresh HTTP/1.1 connection, with a JSON body and `Authorization: Bearer` if
/// given: the JSON answer of a 2xx (`null` for none), else an error with the status line.
async fn request(
    addr: &str,
    method: &str,
    path: &str,
    bearer: Option<&str>,
    body: Option<&Value>,
) -> Result<Value, LoadError> {
    let body = body.map_or(String::new(), Value::to_string);
    let authorization = bearer.map_or(String::new(), |token| format!("Authorization: Bearer {token}\r\n"));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         {authorization}Connection: close\r\n\r\n{body}",
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
    if json.is_empty() {
        return Ok(Value::Null);
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
    /// The event number of an acknowledged action.
    #[serde(default)]
    seq: Option<u64>,
}

/// The part of the game view a player acts on.
#[derive(Deserialize)]
struct GameSeen {
    /// The game's last event.
    #[serde(default)]
    seq: u64,
    status: String,
    #[serde(default)]
    to_move: Option<String>,
    #[serde(default)]
    legal: Vec<String>,
}

/// The next server message (within [`PATIENCE`], the server's pings aside).
async fn next_message(socket: &mut Socket) -> Result<Incoming, LoadError> {
    let text = patiently("the socket", async {
        loop {
            match socket.next().await.transpose()? {
                Some(WsMessage::Text(text)) => {
                    return Ok::<_, tokio_tungstenite::tungstenite::Error>(Some(text));
                }
                Some(_) => {}
                None => return Ok(None),
            }
        }
    })
    .await?
    .ok_or_else(|| LoadError("the server closed a socket".into()))?;
    serde_json::from_str(text.as_str()).map_err(|e| fail("a message", e))
}

/// The game of the next message carrying it (`state`, or a live `event`).
async fn next_game(socket: &mut Socket) -> Result<GameSeen, LoadError> {
    loop {
        if let Some(game) = next_message(socket).await?.game {
            return Ok(game);
        }
    }
}

/// Sends an action and waits for its acknowledgement: the action's event number.
async fn round_trip(socket: &mut Socket, reference: u64, action: Value) -> Result<u64, LoadError> {
    let text = json!({ "ref": reference, "action": action }).to_string();
    patiently("sending a move", socket.send(WsMessage::Text(text.into()))).await?;
    loop {
        let message = next_message(socket).await?;
        if message.reference == Some(reference) {
            return match message.kind.as_str() {
                "ack" => Ok(message.seq.unwrap_or_default()),
                _ => Err(LoadError(format!("a move was refused: {}", message.error.unwrap_or_default()))),
            };
        }
    }
}

/// A random legal placement (a pass only when there is none), played after the plan's thinking
/// time: half of it plus up to the whole of it again.
async fn random_move(game: &GameSeen, rng: &mut u64, think: Duration) -> String {
    let legal: Vec<&str> = game.legal.iter().map(String::as_str).filter(|m| *m != "pass").collect();
    let pick = next_random(rng) as usize;
    let mv = legal.get(pick % legal.len().max(1)).copied().unwrap_or("pass").to_string();
    if !think.is_zero() {
        let spread = (next_random(rng) % 1000) as f64 / 1000.0;
        tokio::time::sleep(think / 2 + think.mul_f64(spread)).await;
    }
    mv
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
        let mv = random_move(&game, &mut rng, plan.think).await;
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

/// What the community load test measured ([`run_community`]).
#[derive(Clone, Debug)]
pub struct CommunityReport {
    /// The moves, as [`run`] measures them (in rated games, with chat and spectators).
    pub play: Report,
    /// Logins (`POST /api/sessions`, an argon2id check each): how many, in how long, p50, p99.
    pub logins: Timings,
    /// Chat messages sent over the players' sockets, sent to acknowledged.
    pub chats: Timings,
    /// The rated results (a resignation, with both players' rating updates in its transaction).
    pub finishes: Timings,
    /// The readers' requests while the games were played, per endpoint.
    pub reads: Vec<(&'static str, Timings)>,
}

/// How many requests of a kind, in how long (wall clock), and their p50 and p99.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    /// Requests answered.
    pub count: usize,
    /// Wall-clock time they were sent in.
    pub elapsed: Duration,
    /// Median.
    pub p50: Duration,
    /// 99th percentile.
    pub p99: Duration,
}

impl Timings {
    fn of(mut times: Vec<Duration>, elapsed: Duration) -> Timings {
        times.sort();
        let percentile = |p: usize| {
            times.get((times.len() * p / 100).min(times.len().saturating_sub(1))).copied().unwrap_or_default()
        };
        Timings { count: times.len(), elapsed, p50: percentile(50), p99: percentile(99) }
    }
}

impl fmt::Display for Timings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} in {:.2} s ({:.0}/s), p50 {:.1} ms, p99 {:.1} ms",
            self.count,
            self.elapsed.as_secs_f64(),
            self.count as f64 / self.elapsed.as_secs_f64().max(1e-9),
            self.p50.as_secs_f64() * 1000.0,
            self.p99.as_secs_f64() * 1000.0,
        )
    }
}

impl fmt::Display for CommunityReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "logins: {}", self.logins)?;
        for (endpoint, timings) in &self.reads {
            writeln!(f, "{endpoint}: {timings}")?;
        }
        writeln!(f, "chat messages: {}", self.chats)?;
        writeln!(f, "rated results: {}", self.finishes)?;
        write!(f, "{} (rated, with chat and a spectator per game)", self.play)
    }
}

/// Logins the community load test times, and how many run at once.
const LOGINS: usize = 16;
const LOGINS_AT_ONCE: usize = 4;
/// A player sends a chat message after every this many of its moves, at most
/// [`CHATS_PER_PLAYER`] (within the chat rate's burst of 5, so that none is refused).
const CHAT_EVERY: usize = 5;
const CHATS_PER_PLAYER: usize = 4;
/// Readers polling the lists while the games are played.
const READERS: usize = 4;

/// What one player of the community load test measured.
#[derive(Default)]
struct PlayerTimes {
    moves: Vec<Duration>,
    chats: Vec<Duration>,
    finish: Option<Duration>,
}

/// One player of a rated game: plays `plan.moves` random legal moves as [`player`] does, sends a
/// chat message after every [`CHAT_EVERY`] of them, and as Black, once White has made its last
/// move, resigns: the rated result.
async fn community_player(
    mut socket: Socket,
    me: &'static str,
    plan: &Plan,
    seed: u64,
) -> Result<PlayerTimes, LoadError> {
    let mut times = PlayerTimes::default();
    let mut rng = seed;
    let mut reference = 0;
    // an acknowledgement goes out before the events of others still waiting for the socket:
    // the views of those (a chat just before my move says it is my turn) are older than my
    // action's event, and are skipped
    let mut acted = 0;
    while times.moves.len() < plan.moves {
        let game = next_game(&mut socket).await?;
        if game.status != "playing" {
            return Ok(times);
        }
        if game.to_move.as_deref() != Some(me) || game.seq < acted {
            continue;
        }
        let mv = random_move(&game, &mut rng, plan.think).await;
        let start = Instant::now();
        reference += 1;
        acted = round_trip(&mut socket, reference, json!({ "type": "move", "move": mv })).await?;
        times.moves.push(start.elapsed());
        if times.moves.len() % CHAT_EVERY == 0 && times.chats.len() < CHATS_PER_PLAYER {
            let start = Instant::now();
            reference += 1;
            let text = format!("move {} played", times.moves.len());
            acted = round_trip(&mut socket, reference, json!({ "type": "chat", "text": text })).await?;
            times.chats.push(start.elapsed());
        }
    }
    if me == "black" {
        loop {
            let game = next_game(&mut socket).await?;
            if game.status != "playing" {
                break;
            }
            if game.to_move.as_deref() == Some(me) && game.seq >= acted {
                let start = Instant::now();
                round_trip(&mut socket, reference + 1, json!({ "type": "resign" })).await?;
                times.finish = Some(start.elapsed());
                break;
            }
        }
    }
    Ok(times)
}

/// The variant name and board size of a spec without other options (`go:size=9` gives `go` and
/// `9`): a rated game uses the variant's standard settings.
fn rated_variant(spec: &str) -> Result<(String, Option<String>), LoadError> {
    let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
    let mut size = None;
    for option in options.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        match option.split_once('=') {
            Some(("size", value)) => size = Some(value.to_string()),
            _ => return Err(LoadError(format!("a rated game takes no option but the size: {spec}"))),
        }
    }
    Ok((name.to_string(), size))
}

/// The community's endpoints under load, against a running server: signs up two accounts of its
/// own (2 of the address's 5 sign-ups at once) and times [`LOGINS`] logins, [`LOGINS_AT_ONCE`] at
/// a time; plays `plan.games` rated games between the two accounts as [`run`] plays its games,
/// each with a spectator's socket and a chat message after every [`CHAT_EVERY`] moves of a
/// player; ends each with Black's resignation, a rated result (every one moves the same two
/// accounts' ratings: the worst case for the rating rows' locks); and, while the games are
/// played, [`READERS`] readers ask in turn for the watch list (with its spectator counts), the
/// leaderboard and a player page. At the end both accounts must have as many rated games as
/// results were acknowledged.
pub async fn run_community(plan: &Plan) -> Result<CommunityReport, LoadError> {
    let (variant, size) = rated_variant(&plan.variant)?;
    let tag: String = crate::seat::new_token()[..8].to_string();
    let names = [format!("lt-{tag}-b"), format!("lt-{tag}-w")];
    let password = crate::seat::new_token();
    for name in &names {
        let credentials = json!({ "name": name, "password": password });
        request(&plan.addr, "POST", "/api/accounts", None, Some(&credentials)).await?;
    }
    // the logins, timed; the last one of each account is its session
    let started = Instant::now();
    let mut logins = tokio::task::JoinSet::new();
    let mut login_times = Vec::new();
    let mut sessions = [String::new(), String::new()];
    for n in 0..LOGINS {
        if logins.len() >= LOGINS_AT_ONCE
            && let Some(done) = logins.join_next().await
        {
            let (who, time, token) = done.map_err(|e| fail("a login", e))??;
            login_times.push(time);
            sessions[who] = token;
        }
        let (addr, who) = (plan.addr.clone(), n % 2);
        let credentials = json!({ "name": names[who], "password": password });
        logins.spawn(async move {
            let start = Instant::now();
            let session = request(&addr, "POST", "/api/sessions", None, Some(&credentials)).await?;
            let token = session["token"].as_str().unwrap_or_default().to_string();
            Ok::<_, LoadError>((who, start.elapsed(), token))
        });
    }
    for done in logins.join_all().await {
        let (who, time, token) = done?;
        login_times.push(time);
        sessions[who] = token;
    }
    let logins = Timings::of(login_times, started.elapsed());

    // the rated games, their players' sockets and a spectator's each
    let mut sockets = Vec::new();
    let mut spectators = tokio::task::JoinSet::new();
    for _ in 0..plan.games {
        let body = json!({ "variant": variant, "size": size, "color": "black", "rated": true });
        let created = request(&plan.addr, "POST", "/api/games", Some(&sessions[0]), Some(&body)).await?;
        let id = created["id"].as_str().unwrap_or_default().to_string();
        let joined =
            request(&plan.addr, "POST", &format!("/api/games/{id}/join"), Some(&sessions[1]), None).await?;
        let token = |v: &Value| v["token"].as_str().unwrap_or_default().to_string();
        sockets.push((
            connect(&plan.addr, &id, &token(&created)).await?,
            connect(&plan.addr, &id, &token(&joined)).await?,
        ));
        // a spectator reads everything until the server closes its socket or the test ends
        let url = format!("ws://{}/api/games/{id}/ws?after=1", plan.addr);
        let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
        let connecting = tokio_tungstenite::connect_async_with_config(url, Some(config), false);
        let mut spectator = patiently("connecting a spectator", connecting).await?.0;
        spectators.spawn(async move { while let Some(Ok(_)) = spectator.next().await {} });
    }

    // the readers, until the games are over
    let playing = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let endpoints: [(&'static str, String); 3] = [
        ("GET /api/games?status=running", "/api/games?status=running&limit=200".to_string()),
        ("GET /api/ratings", format!("/api/ratings?variant={variant}")),
        ("GET /api/players/{name}", format!("/api/players/{}", names[0])),
    ];
    let mut readers = tokio::task::JoinSet::new();
    for reader in 0..READERS {
        let (addr, endpoints, playing) = (plan.addr.clone(), endpoints.clone(), playing.clone());
        readers.spawn(async move {
            let mut times: [Vec<Duration>; 3] = Default::default();
            let mut n = reader;
            while playing.load(std::sync::atomic::Ordering::Relaxed) {
                let which = n % endpoints.len();
                let start = Instant::now();
                request(&addr, "GET", &endpoints[which].1, None, None).await?;
                times[which].push(start.elapsed());
                n += 1;
            }
            Ok::<_, LoadError>(times)
        });
    }

    let start = Instant::now();
    let mut players = tokio::task::JoinSet::new();
    for (n, (black, white)) in sockets.into_iter().enumerate() {
        for (socket, me, seed) in [(black, "black", 2 * n as u64), (white, "white", 2 * n as u64 + 1)] {
            let plan = plan.clone();
            players.spawn(async move { community_player(socket, me, &plan, seed).await });
        }
    }
    let (mut moves, mut chats, mut finishes) = (Vec::new(), Vec::new(), Vec::new());
    let played = players.join_all().await;
    let elapsed = start.elapsed();
    playing.store(false, std::sync::atomic::Ordering::Relaxed);
    for times in played {
        let times = times?;
        moves.extend(times.moves);
        chats.extend(times.chats);
        finishes.extend(times.finish);
    }
    let mut read_times: [Vec<Duration>; 3] = Default::default();
    for times in readers.join_all().await {
        for (all, some) in read_times.iter_mut().zip(times?) {
            all.extend(some);
        }
    }
    spectators.abort_all();

    // every acknowledged result moved both ratings
    for name in &names {
        let page = request(&plan.addr, "GET", &format!("/api/players/{name}"), None, None).await?;
        let rated = page["ratings"][&variant]["games"].as_u64().unwrap_or(0) as usize;
        if rated != finishes.len() {
            return Err(LoadError(format!("{name} has {rated} rated games, {} results", finishes.len())));
        }
    }
    let play = Timings::of(moves, elapsed);
    Ok(CommunityReport {
        play: Report { games: plan.games, moves: play.count, elapsed, p50: play.p50, p99: play.p99 },
        logins,
        chats: Timings::of(chats, elapsed),
        finishes: Timings::of(finishes, elapsed),
        reads: endpoints
            .iter()
            .map(|(name, _)| *name)
            .zip(read_times)
            .map(|(name, t)| (name, Timings::of(t, elapsed)))
            .collect(),
    })
}

/// Runs the community load test on its own Tokio runtime: `variago loadtest --community`.
pub fn run_community_blocking(plan: &Plan) -> Result<CommunityReport, LoadError> {
    let runtime =
        tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| fail("runtime", e))?;
    runtime.block_on(run_community(plan))
}
