//! variago's game server: people play each other or the AI over HTTP and WebSocket, the server
//! checks every move with the rules engine, keeps the clocks, and stores every game in SQLite
//! (or PostgreSQL) so that a restart loses nothing that was acknowledged. See `docs/server.md`.

mod accounts;
mod ai_queue;
mod api;
pub mod backup;
mod clock;
mod dead;
mod error;
mod hub;
mod listen;
pub mod loadtest;
mod metrics;
mod position;
mod rating;
mod seat;
mod store;
mod table;
mod throttle;

use std::net::SocketAddr;
use std::sync::Arc;

pub use api::BODY_LIMIT;
use api::app;
pub use clock::{Clock, TimeControl};
pub use error::ApiError;
pub use hub::{Hub, now_ms};
pub use listen::Limits;
pub use store::Store;
pub use table::{Action, Event, GameView, NewGame, Phase, Player, Side};
pub use throttle::{Rate, RateLimits};

/// Locks a std mutex, ignoring poisoning: the data each guards (maps, counts, version numbers)
/// stays consistent whatever panicked.
fn locked<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

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
    /// The caps on connections and the deadline for headers.
    pub limits: Limits,
    /// How often each WebSocket is pinged; one that has sent nothing (not even a pong) for two
    /// of these is closed.
    pub ping_interval: std::time::Duration,
    /// What each client may create and do per unit of time.
    pub rates: RateLimits,
    /// Searches that may wait for the AI before new games against it are refused (503); by
    /// default 32 per AI thread.
    pub ai_queue_limit: Option<usize>,
    /// How long a game nobody uses (no socket, no request, no timer, no AI) stays in memory.
    pub evict_after: std::time::Duration,
    /// With PostgreSQL, how often this process renews the spectator counts it publishes for the
    /// other processes' lists; a process that stops (dies) stops counting three of these after.
    pub spectator_heartbeat: std::time::Duration,
    /// Where to serve `GET /metrics` (Prometheus' text format), apart from the public address;
    /// none by default.
    pub metrics: Option<SocketAddr>,
}

impl Config {
    /// Listening on `addr` with the database at `db`, one AI search per core.
    pub fn new(addr: SocketAddr, db: impl Into<String>) -> Self {
        let ai_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        Config {
            addr,
            db: db.into(),
            ai_threads,
            pages: None,
            limits: Limits::for_this_process(),
            ping_interval: std::time::Duration::from_secs(20),
            rates: RateLimits::default(),
            ai_queue_limit: None,
            evict_after: std::time::Duration::from_secs(600),
            spectator_heartbeat: std::time::Duration::from_secs(5),
            metrics: None,
        }
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The database could not be opened or migrated.
    #[error("database {url}: {source}")]
    Storage {
        /// The database's URL, without its password.
        url: String,
        /// What failed.
        source: sqlx::Error,
    },
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
    /// Where `GET /metrics` is served, if anywhere (with the real port when port 0 was asked for).
    pub metrics_addr: Option<SocketAddr>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    /// Set to stop it gracefully ([`Running::stop`]).
    stop: tokio::sync::watch::Sender<bool>,
}

impl Running {
    /// Stops it gracefully: no new connection; the requests under way are answered (their
    /// actions committed first, as always); each WebSocket gets `{"type":"restarting"}` and a
    /// close with code 1012 (service restart), on which the pages reconnect; [`Running::wait`]
    /// returns once the connections have ended, or after [`listen::DRAIN`].
    pub fn stop(&self) {
        self.stop.send_replace(true);
    }

    /// Waits until the server stops (after [`Running::stop`], or on an I/O failure).
    pub async fn wait(self) -> std::io::Result<()> {
        served(self.task.await)
    }
}

/// Opens the database, brings back every unfinished game (the AI moves again if it was to move;
/// clocks restart), binds the address and serves in a background task.
pub async fn start(config: Config) -> Result<Running, ServeError> {
    let storage = |source| ServeError::Storage { url: without_password(&config.db), source };
    metrics::install();
    let store = Store::open(&config.db).await.map_err(storage)?;
    accounts::prepare();
    let ai_queue_limit = config.ai_queue_limit.unwrap_or(32 * config.ai_threads);
    let hub = Hub::new(store, config.ai_threads, ai_queue_limit);
    tokio::spawn(evict_idle_games(Arc::downgrade(&hub), config.evict_after));
    hub.resume_all().await.map_err(ServeError::Resume)?;
    if let Some(listener) = hub.store().listener().await.map_err(storage)? {
        tokio::spawn(hub.clone().follow(listener));
    }
    if hub.store().is_shared() {
        tokio::spawn(Hub::publish_spectators(Arc::downgrade(&hub), config.spectator_heartbeat));
    }
    let listener = tokio::net::TcpListener::bind(config.addr).await?;
    let addr = listener.local_addr()?;
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let policy = Arc::new(api::Policy {
        throttle: throttle::Throttle::new(config.rates),
        heartbeat: config.ping_interval,
        stopping: stopping.clone(),
    });
    tokio::spawn(forget_idle_clients(Arc::downgrade(&policy)));
    let app = app(hub.clone(), config.pages, policy);
    let task = tokio::spawn(listen::serve(listener, app, config.limits, stopping));
    let metrics_addr = match config.metrics {
        Some(at) => {
            let listener = tokio::net::TcpListener::bind(at).await?;
            let bound = listener.local_addr()?;
            tokio::spawn(axum::serve(listener, metrics::router(hub.clone())).into_future());
            Some(bound)
        }
        None => None,
    };
    Ok(Running { addr, hub, task, metrics_addr, stop })
}

/// What the serving task ended with, a panic of it as an I/O error.
fn served(ended: Result<std::io::Result<()>, tokio::task::JoinError>) -> std::io::Result<()> {
    ended.unwrap_or_else(|e| Err(std::io::Error::other(e)))
}

/// A database URL fit for messages: `postgres://user:***@host/db` for `postgres://user:secret@host/db`.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_string() };
    let (authority, path) = rest.split_once('/').map_or((rest, None), |(a, p)| (a, Some(p)));
    let Some((credentials, host)) = authority.rsplit_once('@') else { return url.to_string() };
    let Some((user, _)) = credentials.split_once(':') else { return url.to_string() };
    let path = path.map_or(String::new(), |p| format!("/{p}"));
    format!("{scheme}://{user}:***@{host}{path}")
}

/// Every minute, the throttle forgets the clients back to a full allowance (until the server
/// is gone).
async fn forget_idle_clients(policy: std::sync::Weak<api::Policy>) {
    let mut minutes = tokio::time::interval(std::time::Duration::from_secs(60));
    loop {
        minutes.tick().await;
        let Some(policy) = policy.upgrade() else { return };
        policy.throttle.forget_idle();
    }
}

/// Now and then, the games nobody uses leave memory (until the server is gone).
async fn evict_idle_games(hub: std::sync::Weak<Hub>, idle: std::time::Duration) {
    let period = (idle / 2).clamp(std::time::Duration::from_millis(50), std::time::Duration::from_secs(60));
    let mut sweeps = tokio::time::interval(period);
    loop {
        sweeps.tick().await;
        let Some(hub) = hub.upgrade() else { return };
        let evicted = hub.evict_idle(idle).await;
        if evicted > 0 {
            tracing::debug!(evicted, in_memory = hub.games_in_memory(), "idle games left memory");
        }
    }
}

/// Runs the server on its own Tokio runtime until Ctrl-C: the entry point of `variago serve`.
pub fn run(config: Config) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        let running = start(config).await?;
        tracing::info!("listening on http://{}", running.addr);
        if let Some(at) = running.metrics_addr {
            tracing::info!("metrics on http://{at}/metrics");
        }
        let Running { hub, mut task, stop, .. } = running;
        let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
        // the server stops on its own only on an I/O failure; else a signal stops it gracefully
        let signalled = tokio::select! {
            ended = &mut task => {
                served(ended)?;
                false
            }
            _ = tokio::signal::ctrl_c() => true,
            _ = terminate.recv() => true,
        };
        if signalled {
            tracing::info!("stopping: the connections end within {} s", listen::DRAIN.as_secs());
            stop.send_replace(true);
            served(task.await)?;
        }
        // the other processes stop counting this one's spectators at once, not at their expiry
        hub.forget_spectators().await;
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::without_password;

    #[test]
    fn a_database_url_in_a_message_has_no_password() {
        assert_eq!(
            without_password("postgres://ann:s3cr@t@db.example:5432/go"),
            "postgres://ann:***@db.example:5432/go"
        );
        assert_eq!(without_password("postgres://ann:pw@localhost"), "postgres://ann:***@localhost");
        assert_eq!(without_password("postgres://ann@localhost/go"), "postgres://ann@localhost/go");
        assert_eq!(without_password("sqlite://games.db"), "sqlite://games.db");
    }
}
