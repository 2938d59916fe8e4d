//! Storage through sqlx's `Any` driver: one set of SQL statements for SQLite (the default, a
//! file) and PostgreSQL. A game is a row in `games` and its history rows in `events`; an event
//! and the game row's new status are written in one transaction, before anyone hears of them.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::postgres::PgListener;
use sqlx::{AnyConnection, AnyPool, Connection, Executor};
use tokio::sync::{mpsc, oneshot};

/// The migrations, embedded in the binary and applied in order at start-up. A new schema change
/// is a new file appended here, never an edit of an applied one.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/0001_games.sql")),
    (2, include_str!("../migrations/0002_health.sql")),
    (3, include_str!("../migrations/0003_community.sql")),
    (4, include_str!("../migrations/0004_spectators.sql")),
];

/// How long a request waits for a database connection: a database that is down or cannot keep
/// up fails requests within seconds (503) instead of holding them for sqlx's default 30 s.
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

/// The longest a readiness check waits for the database's answer.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// Free space below which readiness calls the disk holding a SQLite database full. A write can
/// still succeed there by reusing blocks the write-ahead log already holds, but the next one that
/// needs a new block fails: a load balancer should stop sending players before that.
const LOW_DISK_SPACE: u64 = 1 << 20;

/// The longest the database may take over one piece of work (a write, a read, connecting the
/// lock session): a database that stops answering without closing its connections (a network
/// cut) fails requests within seconds instead of holding each game's lock for the system's TCP
/// timeout (minutes).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);

/// How soon after a failure of the lock session a new one is tried (not once per game waiting).
const SESSION_RETRY: Duration = Duration::from_secs(1);

/// How often the lock session is checked: once it has died, PostgreSQL has freed its locks and
/// another process may run those games, so this one must stop believing it holds them.
const SESSION_CHECK: Duration = Duration::from_secs(5);

/// The database's clock, in ms since the epoch, in PostgreSQL's SQL: the spectators' rows of
/// every process expire by this one clock, whatever the clocks of the processes' machines say.
const DATABASE_NOW_MS: &str = "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";

/// The advisory lock that serialises migrations between processes starting at once.
const MIGRATION_LOCK: i64 = 0x7661_7269_6167_6f00;

/// The database's answer within [`ANSWER_TIMEOUT`], or a timeout error.
async fn in_time<T>(work: impl Future<Output = Result<T, StoreError>>) -> Result<T, StoreError> {
    tokio::time::timeout(ANSWER_TIMEOUT, work).await.unwrap_or_else(|_| {
        Err(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("the database did not answer within {} s", ANSWER_TIMEOUT.as_secs()),
        )))
    })
}

/// SQLite's settings on every connection. WAL: readers do not block the writer; NORMAL: a commit
/// survives a crash of the process (the log is in the OS cache), only a power cut may lose the
/// last commits; foreign keys are off by default in SQLite.
const SQLITE_PRAGMAS: &str =
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON";

/// A storage failure, with sqlx's explanation.
pub type StoreError = sqlx::Error;

/// Whether a failed write collided with a row another writer (another server process) wrote
/// first: the database works, the writer's view was stale. Every other failure means the database
/// cannot take writes now.
pub fn is_collision(error: &StoreError) -> bool {
    matches!(error, sqlx::Error::Database(e) if e.is_unique_violation())
}

/// The `games` row: what the lobby lists without replaying anything.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Public game id.
    pub id: String,
    /// The canonical variant spec, size included.
    pub spec: String,
    /// The settings as JSON (time control, seats, who created it, Galice's seat swap).
    pub config: String,
    /// `open`, `playing`, `scoring` or `finished`.
    pub status: String,
    /// The result once finished (`B+3.5`, `W+R`, `B+T`, `Draw`).
    pub result: Option<String>,
    /// Black's seat token, once the seat is taken by a person.
    pub black_token: Option<String>,
    /// White's seat token, once the seat is taken by a person.
    pub white_token: Option<String>,
    /// The invitation code.
    pub invite: String,
    /// Whether the lobby lists it.
    pub public: bool,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_ms: i64,
    /// Time of the last event.
    pub updated_ms: i64,
    /// The account holding the seat created as Black, if any.
    pub black_account: Option<String>,
    /// The account holding the seat created as White, if any.
    pub white_account: Option<String>,
}

/// One event row.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRow {
    /// 1, 2, 3... within the game.
    pub seq: i64,
    /// When the server committed it, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// The event as JSON.
    pub body: String,
}

type RowTuple = (
    String,
    String,
    String,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
    String,
    i64,
    i64,
    i64,
    Option<String>,
    Option<String>,
);

const ROW_COLUMNS: &str = "id, spec, config, status, result, black_token, white_token, invite, public, created_ms, \
                           updated_ms, black_account, white_account";

fn from_tuple(t: RowTuple) -> GameRow {
    GameRow {
        id: t.0,
        spec: t.1,
        config: t.2,
        status: t.3,
        result: t.4,
        black_token: t.5,
        white_token: t.6,
        invite: t.7,
        public: t.8 != 0,
        created_ms: t.9,
        updated_ms: t.10,
        black_account: t.11,
        white_account: t.12,
    }
}

/// A rated game's result, written with the event that ends the game: both players' ratings
/// for the variant change in the same transaction.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedResult {
    /// The variant the ratings are for.
    pub variant: String,
    /// The account playing Black.
    pub black: String,
    /// The account playing White.
    pub white: String,
    /// Black's score: 1, 0.5 or 0.
    pub black_score: f64,
}

/// A rating row as the API shows it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RatingRow {
    /// The account's name.
    pub name: String,
    /// The variant.
    #[serde(skip)]
    pub variant: String,
    /// The Glicko-2 rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Rated games played in the variant.
    pub games: i64,
}

/// The database: a connection pool and the statements the server runs.
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    /// The URL, for PostgreSQL's listening connection.
    url: String,
    /// Whether it is PostgreSQL, which announces every event to the other server processes.
    postgres: bool,
    /// SQLite's group commit: the task that writes the events of many games in one transaction.
    writer: Option<mpsc::UnboundedSender<Append>>,
    /// Why the last write failed, while no write has succeeded since: readiness reports it.
    write_failure: Arc<Mutex<Option<String>>>,
    /// With PostgreSQL, the games whose background work this process runs.
    owner: Arc<tokio::sync::Mutex<Owner>>,
    /// With a SQLite file, the directory holding it and its log, whose free space readiness checks.
    sqlite_dir: Option<std::path::PathBuf>,
}

/// The PostgreSQL session that holds this process's advisory locks, one per game whose AI and
/// flag timer it runs, and the games it holds them for. When the process dies, PostgreSQL ends
/// the session and the locks go to whichever process asks next.
#[derive(Debug, Default)]
struct Owner {
    session: Option<AnyConnection>,
    games: std::collections::HashSet<String>,
    /// When the session last failed: no new one is tried sooner than [`SESSION_RETRY`] after.
    failed_at: Option<std::time::Instant>,
}

impl Owner {
    /// Forgets the session and every lock it held (PostgreSQL frees them with the session).
    fn lost(&mut self, error: &StoreError) {
        tracing::warn!(%error, games = self.games.len(), "the session of the games' locks failed");
        self.session = None;
        self.games.clear();
        self.failed_at = Some(std::time::Instant::now());
    }

    /// The session, connected first if need be; `None` right after a failure.
    async fn session(&mut self, url: &str) -> Result<Option<&mut AnyConnection>, StoreError> {
        if self.session.is_none() {
            if self.failed_at.is_some_and(|at| at.elapsed() < SESSION_RETRY) {
                return Ok(None);
            }
            self.session = Some(in_time(AnyConnection::connect(url)).await?);
        }
        Ok(self.session.as_mut())
    }
}

/// A game's advisory lock key: its id, 16 hex digits, as the 64 bits they are (the whole id, so
/// that no two games share a lock and one process's game can never block another's).
fn lock_key(id: &str) -> i64 {
    u64::from_str_radix(id, 16).unwrap_or_default() as i64
}

/// Checks the lock session every [`SESSION_CHECK`] while the store lives.
async fn watch_session(owner: std::sync::Weak<tokio::sync::Mutex<Owner>>) {
    let mut checks = tokio::time::interval(SESSION_CHECK);
    loop {
        checks.tick().await;
        let Some(owner) = owner.upgrade() else { return };
        let mut owner = owner.lock().await;
        if let Some(session) = owner.session.as_mut()
            && let Err(e) = in_time(sqlx::query("SELECT 1").execute(session)).await
        {
            owner.lost(&e);
        }
    }
}

/// The most events one group commit writes.
const BATCH: usize = 256;

/// An event waiting for the group commit, with whom to tell when it is committed.
struct Append {
    row: GameRow,
    event: EventRow,
    rated: Option<RatedResult>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// The PostgreSQL channel on which every committed event is announced as `<game id> <seq>`.
pub const CHANNEL: &str = "variago_events";

/// Writes an event and the game row's new state inside a transaction.
async fn write_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    row: &GameRow,
    event: &EventRow,
    rated: Option<&RatedResult>,
    postgres: bool,
) -> Result<(), StoreError> {
    sqlx::query("INSERT INTO events (game_id, seq, at_ms, body) VALUES ($1, $2, $3, $4)")
        .bind(&row.id)
        .bind(event.seq)
        .bind(event.at_ms)
        .bind(&event.body)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE games SET status = $1, result = $2, black_token = $3, white_token = $4, updated_ms = $5, \
         config = $6, black_account = $7, white_account = $8 WHERE id = $9",
    )
    .bind(&row.status)
    .bind(&row.result)
    .bind(&row.black_token)
    .bind(&row.white_token)
    .bind(row.updated_ms)
    .bind(&row.config)
    .bind(&row.black_account)
    .bind(&row.white_account)
    .bind(&row.id)
    .execute(&mut **tx)
    .await?;
    if let Some(rated) = rated {
        write_ratings(tx, rated).await?;
    }
    if postgres {
        // sent by PostgreSQL at the commit, and only if it commits; ids are hex digits
        let id: String = row.id.chars().filter(char::is_ascii_alphanumeric).collect();
        (&mut **tx).execute(sqlx::AssertSqlSafe(format!("NOTIFY {CHANNEL}, '{id} {}'", event.seq))).await?;
    }
    Ok(())
}

/// Updates both players' ratings for a rated game's result, inside the result's transaction.
/// Each row is created at the newcomer's rating if missing and locked (a no-op update, which
/// PostgreSQL's row lock makes wait for another game's update of the same row), in the order of
/// the names so that two games between the same players cannot deadlock; then both are read,
/// computed and written.
async fn write_ratings(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    rated: &RatedResult,
) -> Result<(), StoreError> {
    let newcomer = crate::rating::Rating::default();
    let mut names = [&rated.black, &rated.white];
    names.sort();
    for name in names {
        sqlx::query(
            "INSERT INTO ratings (name, variant, rating, deviation, volatility, games) VALUES ($1, $2, $3, $4, $5, 0) \
             ON CONFLICT (name, variant) DO NOTHING",
        )
        .bind(name)
        .bind(&rated.variant)
        .bind(newcomer.rating)
        .bind(newcomer.deviation)
        .bind(newcomer.volatility)
        .execute(&mut **tx)
        .await?;
        sqlx::query("UPDATE ratings SET games = games WHERE name = $1 AND variant = $2")
            .bind(name)
            .bind(&rated.variant)
            .execute(&mut **tx)
            .await?;
    }
    let mut before = [newcomer; 2];
    for (rating, name) in before.iter_mut().zip([&rated.black, &rated.white]) {
        let (r, d, v): (f64, f64, f64) = sqlx::query_as(
            "SELECT rating, deviation, volatility FROM ratings WHERE name = $1 AND variant = $2",
        )
        .bind(name)
        .bind(&rated.variant)
        .fetch_one(&mut **tx)
        .await?;
        *rating = crate::rating::Rating { rating: r, deviation: d, volatility: v };
    }
    let (black, white) = crate::rating::after_game(before[0], before[1], rated.black_score);
    for (after, name) in [(black, &rated.black), (white, &rated.white)] {
        sqlx::query(
            "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, games = games + 1 \
             WHERE name = $4 AND variant = $5",
        )
        .bind(after.rating)
        .bind(after.deviation)
        .bind(after.volatility)
        .bind(name)
        .bind(&rated.variant)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// SQLite's group commit: takes every event waiting (up to [`BATCH`]) and writes them in one
/// transaction, then tells each caller. If the transaction fails (an event number another
/// process took first, a full disk), each event is written again in its own transaction so that
/// each caller gets its own answer.
async fn group_commits(store: Store, mut appends: mpsc::UnboundedReceiver<Append>) {
    let mut batch = Vec::with_capacity(BATCH);
    while appends.recv_many(&mut batch, BATCH).await > 0 {
        if batch.len() > 1
            && store
                .commit_events(
                    &batch.iter().map(|a| (&a.row, &a.event, a.rated.as_ref())).collect::<Vec<_>>(),
                )
                .await
                .is_ok()
        {
            for append in batch.drain(..) {
                let _ = append.done.send(Ok(()));
            }
            continue;
        }
        for append in batch.drain(..) {
            let alone = store.commit_events(&[(&append.row, &append.event, append.rated.as_ref())]).await;
            // a caller that went away is told nothing: the event is in the database all the same
            let _ = append.done.send(alone);
        }
    }
}

/// The directory of a SQLite URL's file; `None` for an in-memory database or a URL sqlx cannot read.
fn sqlite_directory(url: &str) -> Option<std::path::PathBuf> {
    use std::str::FromStr;
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(url).ok()?;
    let file = options.get_filename();
    if url.contains(":memory:") || file.as_os_str().is_empty() {
        return None;
    }
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    Some(dir.to_path_buf())
}

/// `Ok` while the filesystem holding `dir` has at least [`LOW_DISK_SPACE`] free for this process;
/// else the error readiness reports. A directory whose filesystem cannot be asked passes: the
/// database's own answers still decide.
fn disk_has_room(dir: &std::path::Path) -> Result<(), StoreError> {
    use std::os::unix::ffi::OsStrExt;
    let Ok(path) = std::ffi::CString::new(dir.as_os_str().as_bytes()) else { return Ok(()) };
    // SAFETY: `path` is a valid C string and `stats` a writable statvfs that the call fills
    let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
    if unsafe { libc::statvfs(path.as_ptr(), &mut stats) } != 0 {
        return Ok(());
    }
    let free = (stats.f_bavail as u64).saturating_mul(stats.f_frsize as u64);
    if free >= LOW_DISK_SPACE {
        return Ok(());
    }
    Err(sqlx::Error::Io(std::io::Error::new(
        std::io::ErrorKind::StorageFull,
        format!(
            "the disk holding the database has {} KiB free (less than {} KiB)",
            free >> 10,
            LOW_DISK_SPACE >> 10
        ),
    )))
}

/// A SQLite URL that creates the file on first start (sqlx only opens existing files otherwise).
fn with_create_mode(url: &str) -> String {
    if !url.starts_with("sqlite:") || url.contains("mode=") || url.contains(":memory:") {
        return url.to_string();
    }
    let separator = if url.contains('?') { '&' } else { '?' };
    format!("{url}{separator}mode=rwc")
}

impl Store {
    /// Connects (`sqlite://FILE` or `postgres://...`) and applies the migrations not yet applied.
    /// A database that cannot be reached or is not a database fails at once with the reason
    /// (the pool alone would retry for its whole timeout and then only say that it timed out).
    pub async fn open(url: &str) -> Result<Self, StoreError> {
        install_default_drivers();
        let sqlite = url.starts_with("sqlite:");
        let url_to_open = with_create_mode(url);
        let mut first = AnyConnection::connect(&url_to_open).await?;
        if sqlite {
            first.execute(SQLITE_PRAGMAS).await?;
        }
        first.close().await?;
        let pool = AnyPoolOptions::new()
            // SQLite writes one transaction at a time: with one connection they queue in the pool
            // instead of spinning in SQLite's busy handler
            .max_connections(if sqlite { 1 } else { 16 })
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if sqlite {
                        conn.execute(SQLITE_PRAGMAS).await?;
                    }
                    Ok(())
                })
            })
            // the second guard after [`Store::writing`]: a connection that still counts a
            // transaction open is never handed out again
            .before_acquire(|conn, _| Box::pin(async move { Ok(!conn.is_in_transaction()) }))
            .connect(&url_to_open)
            .await?;
        let postgres = url.starts_with("postgres");
        let mut store = Store {
            pool,
            url: url.to_string(),
            postgres,
            writer: None,
            write_failure: Arc::default(),
            owner: Arc::default(),
            sqlite_dir: if sqlite { sqlite_directory(url) } else { None },
        };
        store.migrate().await?;
        if postgres {
            tokio::spawn(watch_session(Arc::downgrade(&store.owner)));
        }
        if sqlite {
            let (writer, appends) = mpsc::unbounded_channel();
            // the writer's own copy has no writer, so the channel closes with the last store
            tokio::spawn(group_commits(store.clone(), appends));
            store.writer = Some(writer);
        }
        Ok(store)
    }

    /// Runs a write on a connection of the pool. A connection on which a write failed is closed
    /// instead of going back to the pool: when a COMMIT fails (a full disk, an I/O error), SQLite
    /// rolls the transaction back by itself, the ROLLBACK sqlx then sends fails, and sqlx goes on
    /// counting a transaction open on that connection, so that every later transaction on it
    /// would be a savepoint inside one that never commits. The failure (other than a collision)
    /// is kept for readiness until a write succeeds.
    async fn writing<T>(
        &self,
        work: impl AsyncFnOnce(&mut AnyConnection) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let written = match self.pool.acquire().await {
            Ok(mut conn) => {
                let written = in_time(work(&mut conn)).await;
                if written.is_err() {
                    conn.close_on_drop();
                }
                written
            }
            // no connection within the acquire timeout says the database is busy or away, not
            // that it cannot write: not kept for readiness (which asks the database itself)
            Err(sqlx::Error::PoolTimedOut) => return Err(sqlx::Error::PoolTimedOut),
            // a connection that cannot be opened (on a full disk, SQLite's files) is a failure
            Err(e) => Err(e),
        };
        let mut failure = crate::locked(&self.write_failure);
        match &written {
            Ok(_) => *failure = None,
            Err(e) if !is_collision(e) => {
                metrics::counter!(crate::metrics::DATABASE_ERRORS).increment(1);
                *failure = Some(e.to_string());
            }
            Err(_) => {}
        }
        written
    }

    /// Writes events, each with its game's row, in one transaction, and returns once it is
    /// committed.
    async fn commit_events(
        &self,
        events: &[(&GameRow, &EventRow, Option<&RatedResult>)],
    ) -> Result<(), StoreError> {
        self.writing(async |conn| {
            let mut tx = conn.begin().await?;
            for &(row, event, rated) in events {
                write_event(&mut tx, row, event, rated, self.postgres).await?;
            }
            tx.commit().await
        })
        .await
    }

    /// Whether the database answers and takes writes now; `Err` says why not. A read must
    /// answer, a SQLite file's disk must have [`LOW_DISK_SPACE`] free, and after a failed write
    /// a write of the probe row must succeed too, so that readiness comes back by itself once the
    /// database can write again (a disk with room).
    pub async fn check(&self) -> Result<(), StoreError> {
        let check = async {
            // first: on a full disk the pool cannot even open a connection, and would only
            // say that it timed out
            if let Some(dir) = &self.sqlite_dir {
                disk_has_room(dir)?;
            }
            sqlx::query("SELECT 1").execute(&self.pool).await?;
            let failing = crate::locked(&self.write_failure).is_some();
            if failing {
                self.writing(async |conn| {
                    sqlx::query("UPDATE health SET checked_ms = $1 WHERE id = 1")
                        .bind(crate::hub::now_ms())
                        .execute(&mut *conn)
                        .await
                })
                .await?;
            }
            Ok(())
        };
        tokio::time::timeout(CHECK_TIMEOUT, check).await.unwrap_or(Err(sqlx::Error::PoolTimedOut))
    }

    /// Applies the migrations not yet applied; with PostgreSQL under an advisory lock, so that
    /// processes starting at once apply each one once.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut conn = self.pool.acquire().await?;
        if self.postgres {
            sqlx::query("SELECT pg_advisory_lock($1)").bind(MIGRATION_LOCK).execute(&mut *conn).await?;
        }
        let migrated = Self::apply_migrations(&mut conn).await;
        if self.postgres && migrated.is_ok() {
            sqlx::query("SELECT pg_advisory_unlock($1)").bind(MIGRATION_LOCK).execute(&mut *conn).await?;
        } else if migrated.is_err() {
            // closing the connection ends the session and its lock
            conn.close_on_drop();
        }
        migrated
    }

    async fn apply_migrations(conn: &mut AnyConnection) -> Result<(), StoreError> {
        conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version BIGINT PRIMARY KEY, applied_ms BIGINT NOT NULL)")
            .await?;
        for &(version, sql) in MIGRATIONS {
            let mut tx = conn.begin().await?;
            let done: Option<(i64,)> =
                sqlx::query_as("SELECT version FROM schema_migrations WHERE version = $1")
                    .bind(version)
                    .fetch_optional(&mut *tx)
                    .await?;
            if done.is_none() {
                tx.execute(sqlx::AssertSqlSafe(sql)).await?;
                sqlx::query("INSERT INTO schema_migrations (version, applied_ms) VALUES ($1, $2)")
                    .bind(version)
                    .bind(crate::hub::now_ms())
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }

    /// Stores a new game (no events yet).
    pub async fn insert_game(&self, row: &GameRow) -> Result<(), StoreError> {
        self.writing(async |conn| {
            sqlx::query(
            "INSERT INTO games (id, spec, config, status, result, black_token, white_token, invite, public, created_ms, updated_ms, \
             black_account, white_account) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&row.id)
        .bind(&row.spec)
        .bind(&row.config)
        .bind(&row.status)
        .bind(&row.result)
        .bind(&row.black_token)
        .bind(&row.white_token)
        .bind(&row.invite)
        .bind(i64::from(row.public))
        .bind(row.created_ms)
        .bind(row.updated_ms)
        .bind(&row.black_account)
        .bind(&row.white_account)
        .execute(&mut *conn)
        .await
        })
        .await?;
        Ok(())
    }

    /// Appends an event and writes the game row's new status, result, tokens, accounts and
    /// settings (and, for a rated game's result, both players' ratings), in one transaction, and
    /// returns once it is committed. A second writer of the same sequence number
    /// (another process) fails on the primary key instead of forking the game.
    ///
    /// With SQLite the events of all games go through one group commit: the events waiting when
    /// a transaction starts are written together (each still committed before its caller hears
    /// of it), which saves most of the per-transaction work when many games move at once.
    pub async fn append(
        &self,
        row: &GameRow,
        event: &EventRow,
        rated: Option<&RatedResult>,
    ) -> Result<(), StoreError> {
        let Some(writer) = &self.writer else {
            return self.commit_events(&[(row, event, rated)]).await;
        };
        let (done, committed) = oneshot::channel();
        writer
            .send(Append { row: row.clone(), event: event.clone(), rated: rated.cloned(), done })
            .map_err(|_| sqlx::Error::PoolClosed)?;
        committed.await.map_err(|_| sqlx::Error::PoolClosed)?
    }

    /// Whether this process runs the game's background work (the AI's moves and answers, the
    /// dead-stone proposal, the flag timer). With PostgreSQL, several processes may hold one game:
    /// the one holding the game's advisory lock runs it, and the lock is taken here if it is
    /// free (its holder ended or let go). With SQLite there is one process, which runs them all.
    /// A failure of the database answers false: nothing can be stored meanwhile anyway.
    pub async fn runs_here(&self, id: &str) -> bool {
        if !self.postgres {
            return true;
        }
        let mut owner = self.owner.lock().await;
        if owner.games.contains(id) {
            return true;
        }
        let taken = async {
            let Some(session) = owner.session(&self.url).await? else { return Ok(false) };
            let (taken,): (bool,) = in_time(
                sqlx::query_as("SELECT pg_try_advisory_lock($1)").bind(lock_key(id)).fetch_one(session),
            )
            .await?;
            Ok::<_, StoreError>(taken)
        };
        match taken.await {
            Ok(taken) => {
                if taken {
                    owner.games.insert(id.to_string());
                }
                taken
            }
            Err(e) => {
                owner.lost(&e);
                false
            }
        }
    }

    /// Gives up the game's advisory lock (a game that left memory) so that another process may
    /// run it, unless `back_in_memory` says the game has been loaded again meanwhile (asked
    /// under the lock session's mutex, so that a reload cannot slip between the two).
    pub async fn let_go(&self, id: &str, back_in_memory: impl FnOnce() -> bool) {
        let mut owner = self.owner.lock().await;
        if !owner.games.contains(id) || back_in_memory() {
            return;
        }
        owner.games.remove(id);
        if let Some(session) = owner.session.as_mut() {
            let released =
                in_time(sqlx::query("SELECT pg_advisory_unlock($1)").bind(lock_key(id)).execute(session))
                    .await;
            if let Err(e) = released {
                owner.lost(&e);
            }
        }
    }

    /// With PostgreSQL, a connection listening to the events the server processes announce.
    pub async fn listener(&self) -> Result<Option<PgListener>, StoreError> {
        if !self.postgres {
            return Ok(None);
        }
        let mut listener = PgListener::connect(&self.url).await?;
        listener.listen(CHANNEL).await?;
        Ok(Some(listener))
    }

    /// A game's row and its events in order, or `None` if there is no such game.
    pub async fn load(&self, id: &str) -> Result<Option<(GameRow, Vec<EventRow>)>, StoreError> {
        let row: Option<RowTuple> = in_time(
            sqlx::query_as(sqlx::AssertSqlSafe(format!("SELECT {ROW_COLUMNS} FROM games WHERE id = $1")))
                .bind(id)
                .fetch_optional(&self.pool),
        )
        .await?;
        let Some(row) = row else { return Ok(None) };
        let events: Vec<(i64, i64, String)> = in_time(
            sqlx::query_as("SELECT seq, at_ms, body FROM events WHERE game_id = $1 ORDER BY seq")
                .bind(id)
                .fetch_all(&self.pool),
        )
        .await?;
        let events = events.into_iter().map(|(seq, at_ms, body)| EventRow { seq, at_ms, body }).collect();
        Ok(Some((from_tuple(row), events)))
    }

    /// The number of a game's last event (0 before any): how a server process sees that another
    /// one, sharing the database, has moved the game on.
    pub async fn last_seq(&self, id: &str) -> Result<u64, StoreError> {
        let (last,): (Option<i64>,) = in_time(
            sqlx::query_as("SELECT MAX(seq) FROM events WHERE game_id = $1").bind(id).fetch_one(&self.pool),
        )
        .await?;
        Ok(last.unwrap_or(0).max(0) as u64)
    }

    /// The ids of every game in play (or in its dead-stone phase): what a restart brings back to
    /// life.
    pub async fn in_play(&self) -> Result<Vec<String>, StoreError> {
        let ids: Vec<(String,)> = in_time(
            sqlx::query_as("SELECT id FROM games WHERE status IN ('playing', 'scoring')")
                .fetch_all(&self.pool),
        )
        .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// Public games in one of `statuses`, most recently active first.
    pub async fn list(&self, statuses: &[&str], limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let placeholders: Vec<String> = (0..statuses.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM games WHERE public = 1 AND status IN ({}) ORDER BY updated_ms DESC LIMIT $1",
            placeholders.join(", ")
        );
        let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(limit);
        for status in statuses {
            query = query.bind(*status);
        }
        let rows: Vec<RowTuple> = in_time(query.fetch_all(&self.pool)).await?;
        Ok(rows.into_iter().map(from_tuple).collect())
    }

    /// Creates an account; false if the name is taken (whatever its case).
    pub async fn create_account(
        &self,
        name: &str,
        password_hash: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let created = self
            .writing(async |conn| {
                sqlx::query("INSERT INTO accounts (name, password_hash, created_ms) VALUES ($1, $2, $3)")
                    .bind(name)
                    .bind(password_hash)
                    .bind(now)
                    .execute(&mut *conn)
                    .await
            })
            .await;
        match created {
            Ok(_) => Ok(true),
            Err(e) if is_collision(&e) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// An account's name as it was created and its password hash, found whatever the case of
    /// `name`.
    pub async fn account(&self, name: &str) -> Result<Option<(String, String)>, StoreError> {
        in_time(
            sqlx::query_as("SELECT name, password_hash FROM accounts WHERE lower(name) = lower($1)")
                .bind(name)
                .fetch_optional(&self.pool),
        )
        .await
    }

    /// Stores a new session of an account, by its token's hash.
    pub async fn create_session(&self, token_hash: &str, name: &str, now: i64) -> Result<(), StoreError> {
        self.writing(async |conn| {
            sqlx::query("INSERT INTO sessions (token_hash, name, created_ms) VALUES ($1, $2, $3)")
                .bind(token_hash)
                .bind(name)
                .bind(now)
                .execute(&mut *conn)
                .await
        })
        .await?;
        Ok(())
    }

    /// The account a session (by its token's hash) belongs to, if it started after `since_ms`.
    pub async fn session(&self, token_hash: &str, since_ms: i64) -> Result<Option<String>, StoreError> {
        let name: Option<(String,)> = in_time(
            sqlx::query_as("SELECT name FROM sessions WHERE token_hash = $1 AND created_ms > $2")
                .bind(token_hash)
                .bind(since_ms)
                .fetch_optional(&self.pool),
        )
        .await?;
        Ok(name.map(|(name,)| name))
    }

    /// Deletes the sessions that started at or before `until_ms` (expired): how many.
    pub async fn delete_sessions_until(&self, until_ms: i64) -> Result<u64, StoreError> {
        let deleted = self
            .writing(async |conn| {
                sqlx::query("DELETE FROM sessions WHERE created_ms <= $1")
                    .bind(until_ms)
                    .execute(&mut *conn)
                    .await
            })
            .await?;
        Ok(deleted.rows_affected())
    }

    /// Gives an account a new password hash and ends its sessions but the one kept (by its
    /// token's hash), in one transaction: a password changed because it leaked logs everyone
    /// else out.
    pub async fn change_password(
        &self,
        name: &str,
        password_hash: &str,
        kept: &str,
    ) -> Result<(), StoreError> {
        self.writing(async |conn| {
            let mut tx = conn.begin().await?;
            sqlx::query("UPDATE accounts SET password_hash = $1 WHERE name = $2")
                .bind(password_hash)
                .bind(name)
                .execute(&mut *tx)
                .await?;
            sqlx::query("DELETE FROM sessions WHERE name = $1 AND token_hash <> $2")
                .bind(name)
                .bind(kept)
                .execute(&mut *tx)
                .await?;
            tx.commit().await
        })
        .await
    }

    /// Deletes an account in one transaction: its sessions and ratings go, and in its games,
    /// which stay, its name gives way to `tombstone`.
    pub async fn delete_account(&self, name: &str, tombstone: &str) -> Result<(), StoreError> {
        self.writing(async |conn| {
            let mut tx = conn.begin().await?;
            for column in ["black_account", "white_account"] {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "UPDATE games SET {column} = $1 WHERE {column} = $2"
                )))
                .bind(tombstone)
                .bind(name)
                .execute(&mut *tx)
                .await?;
            }
            for table in ["sessions", "ratings", "accounts"] {
                sqlx::query(sqlx::AssertSqlSafe(format!("DELETE FROM {table} WHERE name = $1")))
                    .bind(name)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await
        })
        .await
    }

    /// Ends a session, by its token's hash (nothing if there is no such session).
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.writing(async |conn| {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .execute(&mut *conn)
                .await
        })
        .await?;
        Ok(())
    }

    /// An account's ratings, one per variant it has played rated games of.
    pub async fn ratings_of(&self, name: &str) -> Result<Vec<RatingRow>, StoreError> {
        let rows: Vec<(String, String, f64, f64, i64)> = in_time(
            sqlx::query_as(
                "SELECT name, variant, rating, deviation, games FROM ratings WHERE name = $1 ORDER BY variant",
            )
            .bind(name)
            .fetch_all(&self.pool),
        )
        .await?;
        Ok(rows.into_iter().map(rating_row).collect())
    }

    /// A variant's leaderboard: the highest ratings first.
    pub async fn leaderboard(&self, variant: &str, limit: i64) -> Result<Vec<RatingRow>, StoreError> {
        let rows: Vec<(String, String, f64, f64, i64)> = in_time(
            sqlx::query_as(
                "SELECT name, variant, rating, deviation, games FROM ratings WHERE variant = $1 \
                 ORDER BY rating DESC, name LIMIT $2",
            )
            .bind(variant)
            .bind(limit)
            .fetch_all(&self.pool),
        )
        .await?;
        Ok(rows.into_iter().map(rating_row).collect())
    }

    /// The games an account holds a seat in, most recently active first, last active before
    /// `before_ms` (a page of a player's history).
    pub async fn games_of(&self, name: &str, before_ms: i64, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM games WHERE (black_account = $1 OR white_account = $2) \
             AND updated_ms < $3 ORDER BY updated_ms DESC LIMIT $4"
        );
        let query =
            sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(name).bind(name).bind(before_ms).bind(limit);
        let rows: Vec<RowTuple> = in_time(query.fetch_all(&self.pool)).await?;
        Ok(rows.into_iter().map(from_tuple).collect())
    }

    /// How many games an account holds a seat in that are open or in play.
    pub async fn unfinished_games_of(&self, name: &str) -> Result<i64, StoreError> {
        let (count,): (i64,) = in_time(
            sqlx::query_as(
                "SELECT COUNT(*) FROM games WHERE (black_account = $1 OR white_account = $2) AND status <> 'finished'",
            )
            .bind(name)
            .bind(name)
            .fetch_one(&self.pool),
        )
        .await?;
        Ok(count)
    }

    /// Whether several server processes may share this database (PostgreSQL): then each
    /// publishes its spectators for the others' lists.
    pub fn is_shared(&self) -> bool {
        self.postgres
    }

    /// Publishes this process's spectators (PostgreSQL), in one transaction: renews the
    /// process's row for `lifetime` by the database's clock and writes the counts of `now`
    /// (the games it holds spectators' sockets of) that differ from `before` (what the last
    /// publication wrote), deleting those of games no longer watched. A process whose row had
    /// expired (and was deleted with its counts by a sweep) writes every count again.
    pub async fn publish_spectators(
        &self,
        process: &str,
        lifetime: Duration,
        now: &HashMap<String, usize>,
        before: &HashMap<String, usize>,
    ) -> Result<(), StoreError> {
        let lifetime_ms = lifetime.as_millis() as i64;
        self.writing(async |conn| {
            let mut tx = conn.begin().await?;
            let renewed = sqlx::query(sqlx::AssertSqlSafe(format!(
                "UPDATE spectator_processes SET expires_ms = {DATABASE_NOW_MS} + $1 WHERE process = $2"
            )))
            .bind(lifetime_ms)
            .bind(process)
            .execute(&mut *tx)
            .await?
            .rows_affected()
                > 0;
            let nothing = HashMap::new();
            let before = if renewed {
                before
            } else {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "INSERT INTO spectator_processes (process, expires_ms) VALUES ($1, {DATABASE_NOW_MS} + $2)"
                )))
                .bind(process)
                .bind(lifetime_ms)
                .execute(&mut *tx)
                .await?;
                &nothing
            };
            for (game, &count) in now.iter().filter(|&(game, count)| before.get(game) != Some(count)) {
                sqlx::query(
                    "INSERT INTO spectator_counts (process, game_id, spectators) VALUES ($1, $2, $3) \
                     ON CONFLICT (process, game_id) DO UPDATE SET spectators = EXCLUDED.spectators",
                )
                .bind(process)
                .bind(game)
                .bind(count as i64)
                .execute(&mut *tx)
                .await?;
            }
            for game in before.keys().filter(|game| !now.contains_key(*game)) {
                sqlx::query("DELETE FROM spectator_counts WHERE process = $1 AND game_id = $2")
                    .bind(process)
                    .bind(game)
                    .execute(&mut *tx)
                    .await?;
            }
            tx.commit().await
        })
        .await
    }

    /// Deletes the spectators' rows of the processes whose row has expired (they died without
    /// a word), their counts with them; how many processes. A statement of its own, outside any
    /// publication: it waits for a process renewing its row at that moment and then leaves it.
    pub async fn sweep_spectators(&self) -> Result<u64, StoreError> {
        let swept = self
            .writing(async |conn| {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "DELETE FROM spectator_processes WHERE expires_ms < {DATABASE_NOW_MS}"
                )))
                .execute(&mut *conn)
                .await
            })
            .await?;
        Ok(swept.rows_affected())
    }

    /// Deletes this process's spectators' rows (a clean stop).
    pub async fn forget_spectators(&self, process: &str) -> Result<(), StoreError> {
        self.writing(async |conn| {
            sqlx::query("DELETE FROM spectator_processes WHERE process = $1")
                .bind(process)
                .execute(&mut *conn)
                .await
        })
        .await?;
        Ok(())
    }

    /// The spectators the other processes publish, by game, for the games `ids` (PostgreSQL;
    /// nothing with SQLite): the sum over the processes whose row has not expired.
    pub async fn spectators_elsewhere(
        &self,
        process: &str,
        ids: &[&str],
    ) -> Result<HashMap<String, usize>, StoreError> {
        if !self.postgres || ids.is_empty() {
            return Ok(HashMap::new());
        }
        let placeholders: Vec<String> = (0..ids.len()).map(|i| format!("${}", i + 2)).collect();
        let sql = format!(
            "SELECT c.game_id, CAST(SUM(c.spectators) AS BIGINT) FROM spectator_counts c \
             JOIN spectator_processes p ON p.process = c.process \
             WHERE c.process <> $1 AND p.expires_ms > {DATABASE_NOW_MS} AND c.game_id IN ({}) \
             GROUP BY c.game_id",
            placeholders.join(", ")
        );
        let mut query = sqlx::query_as(sqlx::AssertSqlSafe(sql)).bind(process);
        for id in ids {
            query = query.bind(*id);
        }
        let counts: Vec<(String, i64)> = in_time(query.fetch_all(&self.pool)).await?;
        Ok(counts.into_iter().map(|(game, count)| (game, count.max(0) as usize)).collect())
    }
}

fn rating_row((name, variant, rating, deviation, games): (String, String, f64, f64, i64)) -> RatingRow {
    RatingRow { name, variant, rating, deviation, games }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readiness_checks_the_directory_of_a_sqlite_file() {
        let dir = |url| sqlite_directory(url).map(|d| d.display().to_string());
        assert_eq!(dir("sqlite:///var/lib/variago/games.db?vfs=unix"), Some("/var/lib/variago".into()));
        assert_eq!(dir("sqlite://games.db"), Some(".".into()));
        assert_eq!(dir("sqlite:data/games.db?mode=rwc"), Some("data".into()));
        assert_eq!(dir("sqlite::memory:"), None);
    }

    fn game(id: String) -> GameRow {
        GameRow {
            id,
            spec: "go:size=9x9".into(),
            config: "{}".into(),
            status: "open".into(),
            result: None,
            black_token: Some("b".into()),
            white_token: None,
            invite: "i".into(),
            public: true,
            created_ms: 1,
            updated_ms: 1,
            black_account: None,
            white_account: None,
        }
    }

    /// Many games' events at once go through the group commit together; a duplicate event number
    /// in the crowd is refused alone, and every other event is written with its game's row.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_group_commit_writes_everyone_and_refuses_only_the_duplicate() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&format!("sqlite://{}", dir.path().join("g.db").display())).await.unwrap();
        let ids: Vec<String> = (0..150).map(|n| format!("{n:016x}")).collect();
        for id in &ids {
            store.insert_game(&game(id.clone())).await.unwrap();
        }
        // two waves (a game's events are written in order): every game's event 1, then event 2
        // (game 7: event 1 again, as another server process would)
        let mut refused = 0;
        for wave in [1, 2] {
            let mut writes = tokio::task::JoinSet::new();
            for (n, id) in ids.iter().enumerate() {
                let seq = if n == 7 { 1 } else { wave };
                let (store, mut row) = (store.clone(), game(id.clone()));
                row.status = format!("playing {seq}");
                row.updated_ms = 100 + seq;
                let event = EventRow { seq, at_ms: 100 + seq, body: format!("{{\"n\":{n}}}") };
                writes.spawn(async move { store.append(&row, &event, None).await.is_ok() });
            }
            refused += writes.join_all().await.iter().filter(|ok| !**ok).count();
        }
        assert_eq!(refused, 1, "only game 7's second event 1 is refused");
        for (n, id) in ids.iter().enumerate() {
            let (row, events) = store.load(id).await.unwrap().unwrap();
            let expected = if n == 7 { 1 } else { 2 };
            assert_eq!(events.len(), expected, "game {n}");
            assert_eq!(store.last_seq(id).await.unwrap(), expected as u64);
            assert!(row.status.starts_with("playing"), "{row:?}");
            assert_eq!(row.updated_ms, 100 + events.last().unwrap().seq);
        }
    }
}
