//! Test helpers: a server on a free port with a fresh database (a temporary SQLite file, or a
//! schema of its own in the PostgreSQL database named by `VARIAGO_TEST_POSTGRES`), in this process
//! or as a child process that can be killed; an HTTP client that returns status and JSON, and a
//! WebSocket client that reads the server's messages with a generous timeout.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use sqlx::Connection;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Runs the test function `$name(db: Db)` as two tests, `$name::sqlite` and `$name::postgres`.
// (not every test file that includes this module uses it)
#[allow(unused_macros)]
macro_rules! on_both {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(super::Db::Sqlite).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$name(super::Db::Postgres).await;
            }
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_both;

/// How long any single wait may take before the test fails as hung.
pub const PATIENCE: Duration = Duration::from_secs(60);

/// Where the PostgreSQL tests find their database (CI starts one; without it they say so and
/// pass).
pub const POSTGRES: &str = "VARIAGO_TEST_POSTGRES";

/// Schemas of earlier runs older than this are dropped when a test makes a new one.
const STALE_SCHEMA_SECS: u64 = 3600;

/// The database URL of a SQLite file.
pub fn sqlite_url(path: &Path) -> String {
    format!("sqlite://{}", path.display())
}

/// The database a test runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Db {
    /// A temporary SQLite file.
    Sqlite,
    /// A fresh schema in the PostgreSQL database of `VARIAGO_TEST_POSTGRES`.
    Postgres,
}

/// A fresh, empty database: its URL, and what keeps it (the SQLite file's directory).
pub struct Fresh {
    /// The URL a server is started on (every server started on it sees the same games).
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl Db {
    /// A fresh database of this kind, so that tests never see each other's games; `None` (and a
    /// note on stderr) for PostgreSQL when `VARIAGO_TEST_POSTGRES` is not set.
    pub async fn fresh(self) -> Option<Fresh> {
        match self {
            Db::Sqlite => {
                let dir = tempfile::tempdir().expect("temporary directory");
                Some(Fresh { url: sqlite_url(&dir.path().join("games.db")), _dir: Some(dir) })
            }
            Db::Postgres => {
                let Ok(base) = std::env::var(POSTGRES) else {
                    eprintln!(
                        "skipped on PostgreSQL: set {POSTGRES}=postgres://USER:PASSWORD@127.0.0.1/DB to run it"
                    );
                    return None;
                };
                Some(Fresh { url: fresh_schema(&base).await, _dir: None })
            }
        }
    }
}

/// Makes a schema of its own in the PostgreSQL database at `base` (dropping those that earlier
/// runs left behind more than an hour ago) and returns a URL whose connections use it.
async fn fresh_schema(base: &str) -> String {
    let mut conn = sqlx::PgConnection::connect(base).await.expect("connect to VARIAGO_TEST_POSTGRES");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs();
    let old: Vec<(String,)> =
        sqlx::query_as("SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'variago\\_test\\_%'")
            .fetch_all(&mut conn)
            .await
            .expect("list schemas");
    for (name,) in old {
        let born = name.split('_').nth(2).and_then(|t| t.parse::<u64>().ok()).unwrap_or(now);
        if born + STALE_SCHEMA_SECS < now {
            // another run may be dropping it too
            let _ = sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA IF EXISTS {name} CASCADE")))
                .execute(&mut conn)
                .await;
        }
    }
    let mut random = [0u8; 8];
    getrandom::fill(&mut random).expect("random bytes");
    let suffix: String = random.iter().map(|b| format!("{b:02x}")).collect();
    let schema = format!("variago_test_{now}_{suffix}");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE SCHEMA {schema}")))
        .execute(&mut conn)
        .await
        .expect("create a schema");
    conn.close().await.expect("close");
    let separator = if base.contains('?') { '&' } else { '?' };
    format!("{base}{separator}options[search_path]={schema}")
}

/// A server started in this process on its own database.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    _db: Option<Fresh>,
}

impl Server {
    /// Starts a server on 127.0.0.1:0 with a fresh SQLite file.
    pub async fn start() -> Server {
        Server::on(Db::Sqlite).await.expect("SQLite is always there")
    }

    /// Starts a server on 127.0.0.1:0 with a fresh database of the kind asked for (`None`: no
    /// PostgreSQL to test on).
    pub async fn on(db: Db) -> Option<Server> {
        let fresh = db.fresh().await?;
        let mut server = Server::start_on(&fresh.url).await;
        server._db = Some(fresh);
        Some(server)
    }

    /// Starts a server on 127.0.0.1:0 with the database at `url`.
    pub async fn start_on(url: &str) -> Server {
        Server::launch(url, |_| {}).await
    }

    /// Starts a server on 127.0.0.1:0 with the database at `url` and the settings `configure`
    /// makes.
    pub async fn start_on_with(url: &str, configure: impl FnOnce(&mut variago_server::Config)) -> Server {
        Server::launch(url, configure).await
    }

    /// Starts a server on 127.0.0.1:0 with a fresh SQLite file and the settings `configure`
    /// makes.
    pub async fn start_with(configure: impl FnOnce(&mut variago_server::Config)) -> Server {
        let fresh = Db::Sqlite.fresh().await.expect("SQLite is always there");
        let mut server = Server::launch(&fresh.url, configure).await;
        server._db = Some(fresh);
        server
    }

    async fn launch(url: &str, configure: impl FnOnce(&mut variago_server::Config)) -> Server {
        let mut config = variago_server::Config::new("127.0.0.1:0".parse().unwrap(), url);
        configure(&mut config);
        let running = variago_server::start(config).await.expect("server starts");
        let addr = running.addr;
        tokio::spawn(running.wait());
        Server { addr, _db: None }
    }

    /// An HTTP client for it.
    pub fn client(&self) -> Client {
        Client::new(self.addr)
    }
}

/// The environment variable that turns the `child_server` test into a server process: the URL of
/// its database.
pub const CHILD_DB: &str = "VARIAGO_TEST_CHILD_DB";

/// The environment variable that sets a child server's `Config::spectator_heartbeat`, in ms.
pub const CHILD_SPECTATOR_HEARTBEAT_MS: &str = "VARIAGO_TEST_CHILD_SPECTATOR_HEARTBEAT_MS";

/// A server in a child process (this test binary re-run as its `child_server` test), so that a
/// test can kill it with SIGKILL like a crash.
pub struct ChildServer {
    /// Where it listens.
    pub addr: SocketAddr,
    child: Child,
}

impl ChildServer {
    /// Starts a child server on the database at `url`.
    pub fn start(url: &str) -> ChildServer {
        ChildServer::start_with(url, &[])
    }

    /// Starts a child server on the database at `url` with these environment variables (such as
    /// [`CHILD_SPECTATOR_HEARTBEAT_MS`]).
    pub fn start_with(url: &str, env: &[(&str, &str)]) -> ChildServer {
        let exe = std::env::current_exe().expect("test binary path");
        let mut child = Command::new(exe)
            .args(["child_server", "--exact", "--nocapture", "--test-threads=1"])
            .env(CHILD_DB, url)
            .envs(env.iter().copied())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("child server starts");
        let stdout = child.stdout.take().expect("child stdout");
        let mut lines = BufReader::new(stdout).lines();
        let addr = loop {
            let line =
                lines.next().expect("child server printed its address").expect("child stdout readable");
            // the test harness may print its own words before ours on the same line
            if let Some((_, addr)) = line.split_once("ADDR ") {
                break addr.trim().parse().expect("an address");
            }
        };
        // keep draining its output so that it never blocks on a full pipe
        std::thread::spawn(move || for _ in lines {});
        ChildServer { addr, child }
    }

    /// Kills it with SIGKILL: no shutdown code runs, as in a crash.
    pub fn kill(mut self) {
        self.child.kill().expect("kill the child server");
        self.child.wait().expect("reap the child server");
    }

    /// An HTTP client for it.
    pub fn client(&self) -> Client {
        Client::new(self.addr)
    }

    /// The CPU time it has used (user and system), from /proc.
    pub fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.child.id())).unwrap_or_default();
        // the fields after the command name, which is in parentheses
        let fields: Vec<&str> =
            stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|t| t.parse::<f64>().ok()).unwrap_or(0.0);
        (ticks(11) + ticks(12)) / 100.0
    }

    /// Its resident memory in KiB, from /proc.
    pub fn memory_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap_or("VmRSS: 0 kB");
        line.split_whitespace().nth(1).and_then(|n| n.parse().ok()).unwrap_or(0)
    }
}

impl Drop for ChildServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs the server forever on the database at the URL [`CHILD_DB`] names, printing `ADDR ...`
/// first.
pub async fn run_child(url: String) {
    let mut config = variago_server::Config::new("127.0.0.1:0".parse().unwrap(), url);
    if let Some(ms) = std::env::var(CHILD_SPECTATOR_HEARTBEAT_MS).ok().and_then(|ms| ms.parse().ok()) {
        config.spectator_heartbeat = Duration::from_millis(ms);
    }
    let running = variago_server::start(config).await.expect("child server starts");
    println!("ADDR {}", running.addr);
    running.wait().await.expect("child server runs");
}

/// The `n`-th move of a 9x9 game that never captures: Black fills columns A-D and White F-J,
/// row by row, and column E stays empty, so every chain keeps its liberties there.
pub fn planned_move(n: usize) -> String {
    let columns = if n.is_multiple_of(2) { ["A", "B", "C", "D"] } else { ["F", "G", "H", "J"] };
    let k = n / 2;
    format!("{}{}", columns[k / 9], k % 9 + 1)
}

/// An HTTP client that returns the status and the JSON body of every answer.
#[derive(Clone)]
pub struct Client {
    addr: SocketAddr,
    http: reqwest::Client,
}

impl Client {
    /// A client for the server at `addr`.
    pub fn new(addr: SocketAddr) -> Client {
        Client { addr, http: reqwest::Client::new() }
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    async fn send(&self, request: reqwest::RequestBuilder) -> (u16, Value) {
        let response =
            tokio::time::timeout(PATIENCE, request.send()).await.expect("answer in time").expect("HTTP");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// GET.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        self.send(self.http.get(self.url(path))).await
    }

    /// GET, the body as text.
    pub async fn get_text(&self, path: &str) -> (u16, String) {
        let response = self.http.get(self.url(path)).send().await.expect("HTTP");
        (response.status().as_u16(), response.text().await.expect("body"))
    }

    /// POST a JSON body.
    pub async fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.send(self.http.post(self.url(path)).json(body)).await
    }

    /// Any request, with `Authorization: Bearer` if given and a JSON body if given: the status,
    /// the headers and the body (JSON, or the text as a JSON string).
    pub async fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        bearer: Option<&str>,
        body: Option<&Value>,
    ) -> (u16, reqwest::header::HeaderMap, Value) {
        let mut request = self.http.request(method, self.url(path));
        if let Some(token) = bearer {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(body);
        }
        let response =
            tokio::time::timeout(PATIENCE, request.send()).await.expect("answer in time").expect("HTTP");
        let (status, headers) = (response.status().as_u16(), response.headers().clone());
        let text = response.text().await.expect("body");
        (status, headers, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// POST raw bytes as JSON.
    pub async fn post_raw(&self, path: &str, body: Vec<u8>) -> (u16, Value) {
        self.send(self.http.post(self.url(path)).header("content-type", "application/json").body(body)).await
    }

    /// POST an action with a seat token.
    pub async fn act(&self, game: &str, token: &str, action: Value) -> (u16, Value) {
        let request =
            self.http.post(self.url(&format!("/api/games/{game}/actions"))).bearer_auth(token).json(&action);
        self.send(request).await
    }

    /// POST an action that must succeed; returns the game after it.
    pub async fn must(&self, game: &str, token: &str, action: Value) -> Value {
        let (status, body) = self.act(game, token, action.clone()).await;
        assert_eq!(status, 200, "{action} refused: {body}");
        body["game"].clone()
    }

    /// Creates a game (must succeed).
    pub async fn create(&self, body: Value) -> Value {
        let (status, created) = self.post("/api/games", &body).await;
        assert_eq!(status, 201, "create {body}: {created}");
        created
    }

    /// The game now.
    pub async fn game(&self, id: &str) -> Value {
        let (status, game) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200, "{game}");
        game
    }

    /// Polls the game until `done` holds (with the overall patience).
    pub async fn wait_for(&self, id: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = tokio::time::Instant::now() + PATIENCE;
        loop {
            let game = self.game(id).await;
            if done(&game) {
                return game;
            }
            assert!(tokio::time::Instant::now() < deadline, "gave up waiting; game: {game}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// A human-vs-human game: (id, black token, white token).
    pub async fn pair(&self, variant: &str, size: &str, extra: Value) -> (String, String, String) {
        let mut body = json!({ "variant": variant, "color": "black" });
        if !size.is_empty() {
            body["size"] = json!(size);
        }
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let created = self.create(body).await;
        let id = created["id"].as_str().unwrap().to_string();
        let invite = created["invite"].as_str().unwrap();
        let (status, joined) =
            self.post(&format!("/api/games/{id}/join"), &json!({ "invite": invite })).await;
        assert_eq!(status, 200, "{joined}");
        assert_eq!(joined["color"], "white");
        (id, created["token"].as_str().unwrap().to_string(), joined["token"].as_str().unwrap().to_string())
    }
}

/// A WebSocket connection to a game.
pub struct Socket {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Socket {
    /// Connects to a game's socket, after event `after`, with an optional seat token.
    pub async fn connect(addr: SocketAddr, game: &str, after: u64, token: Option<&str>) -> Socket {
        let token = token.map_or(String::new(), |t| format!("&token={t}"));
        let url = format!("ws://{addr}/api/games/{game}/ws?after={after}{token}");
        let (stream, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(url))
            .await
            .expect("connect in time")
            .expect("WebSocket connects");
        Socket { stream }
    }

    /// Connects to a game's socket with a `Cookie` header, as a browser sends its session.
    pub async fn connect_with_cookie(addr: SocketAddr, game: &str, cookie: &str) -> Socket {
        use tokio_tungstenite::tungstenite::client::IntoClientRequest;
        let mut request =
            format!("ws://{addr}/api/games/{game}/ws?after=0").into_client_request().expect("a request");
        request.headers_mut().insert("cookie", cookie.parse().expect("a header value"));
        let (stream, _) = tokio::time::timeout(PATIENCE, tokio_tungstenite::connect_async(request))
            .await
            .expect("connect in time")
            .expect("WebSocket connects");
        Socket { stream }
    }

    /// The next frame the server sends, within the patience.
    async fn frame(&mut self) -> Message {
        tokio::time::timeout(PATIENCE, self.stream.next())
            .await
            .expect("a message in time")
            .expect("socket open")
            .expect("socket readable")
    }

    /// The next JSON message.
    pub async fn next(&mut self) -> Value {
        loop {
            if let Message::Text(text) = self.frame().await {
                return serde_json::from_str(text.as_str()).expect("JSON message");
            }
        }
    }

    /// Skips messages until one satisfies `wanted`.
    pub async fn until(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.next().await;
            if wanted(&message) {
                return message;
            }
        }
    }

    /// The next event message (skipping state, ack and error messages).
    pub async fn event(&mut self) -> Value {
        self.until(|m| m["type"] == "event").await
    }

    /// The close frame's code, once the server closes the socket (the messages before it are
    /// skipped).
    pub async fn close_code(&mut self) -> u16 {
        loop {
            if let Message::Close(frame) = self.frame().await {
                return frame.map_or(1005, |f| f.code.into());
            }
        }
    }

    /// Sends an action over the socket with a reference number.
    pub async fn send_action(&mut self, reference: u64, action: Value) {
        let text = json!({ "ref": reference, "action": action }).to_string();
        self.stream.send(Message::Text(text.into())).await.expect("send");
    }
}
