//! variago's game server: people play each other or the AI over HTTP and WebSocket, the server
//! checks every move with the rules engine, keeps the clocks, and stores every game in SQLite
//! (or PostgreSQL) so that a restart loses nothing that was acknowledged. See `docs/server.md`.

mod api;
mod clock;
mod dead;
mod error;
mod hub;
pub mod loadtest;
mod position;
mod seat;
mod store;
mod table;

use std::net::SocketAddr;
use std::sync::Arc;

pub use api::{BODY_LIMIT, app};
pub use clock::{Clock, TimeControl};
pub use error::ApiError;
pub use hub::{Hub, now_ms};
pub use store::Store;
pub use table::{Action, Event, GameView, NewGame, Phase, Player, Side};

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen, e.g. `127.0.0.1:8080` (port 0 picks a free one).
    pub addr: SocketAddr,
    /// The database URL: `sqlite://variago.db` (created if missing) or `postgres://...`.
    pub db: String,
    /// Searches (AI moves, dead-stone proposals) that may run at once, each on its own thread.
    pub ai_threads: usize,
    /// The browser pages, served for every path outside `/api` (none: a JSON 404 there).
    pub pages: Option<axum::Router>,
}

impl Config {
    /// Listening on `addr` with the database at `db`, one AI search per core.
    pub fn new(addr: SocketAddr, db: impl Into<String>) -> Self {
        let ai_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config { addr, db: db.into(), ai_threads, pages: None }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened or migrated.
    #[error("database: {0}")]
    Storage(#[from] sqlx::Error),
    /// The address could not be bound, or the runtime not started.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A stored game could not be brought back.
    #[error("resuming games: {0}")]
    Resume(ApiError),
}

/// A started server: its address, and the task serving it.
#[derive(Debug)]
pub struct Running {
    /// The address it listens on (with the real port when port 0 was asked for).
    pub addr: SocketAddr,
    /// The hub, for callers that drive games directly.
    pub hub: Arc<Hub>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Running {
    /// Waits until the server stops (it stops on its own only on an I/O failure).
    pub async fn wait(self) -> std::io::Result<()> {
        self.task.await.unwrap_or_else(|e| Err(std::io::Error::other(e)))
    }
}

/// Opens the database, brings back every unfinished game (the AI moves again if it was to move;
/// clocks restart), binds the address and serves in a background task.
pub async fn start(config: Config) -> Result<Running, ServeError> {
    let store = Store::open(&config.db).await?;
    let hub = Hub::new(store, config.ai_threads);
    hub.resume_all().await.map_err(ServeError::Resume)?;
    if let Some(listener) = hub.store().listener().await? {
        tokio::spawn(hub.clone().follow(listener));
    }
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let app = app(hub.clone(), config.pages);
    let task = tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(Running { addr, hub, task })
}

/// Runs the server on its own Tokio runtime until Ctrl-C: the entry point of `variago serve`.
pub fn run(config: Config) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let running = start(config).await?;
        eprintln!("variago serve: listening on http://{}", running.addr);
        tokio::select! {
            served = running.wait() => served?,
            _ = tokio::signal::ctrl_c() => eprintln!("variago serve: stopping"),
        }
        Ok(())
    })
}
