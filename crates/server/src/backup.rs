//! Backups of a SQLite database while the server runs, and their restoration (`variago backup`,
//! `variago restore`; docs/server-operating.md). SQLite's `VACUUM INTO` writes a consistent copy from one
//! read transaction: the write-ahead log lets the server go on committing meanwhile, and the
//! copy holds every event committed before it began. PostgreSQL has its own tools for this
//! (`pg_dump`, `pg_restore`), which the docs name.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{Connection, Row};

/// What a backup or a restoration holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copied {
    /// Games.
    pub games: i64,
    /// Events of those games.
    pub events: i64,
}

/// Why a backup or a restoration was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// PostgreSQL is backed up with its own tools.
    #[error(
        "PostgreSQL is backed up with its own tools: `pg_dump --format=custom URL > FILE` while the servers run, `pg_restore --dbname URL FILE` into an empty database (docs/server-operating.md)"
    )]
    Postgres,
    /// The URL names no SQLite file.
    #[error("not a SQLite file: {0}")]
    NotAFile(String),
    /// The file to write exists: a backup never overwrites, and a restoration never replaces a
    /// database a server may be running on.
    #[error("{0} exists: give a path that does not")]
    Exists(PathBuf),
    /// The file to read does not exist.
    #[error("{0} does not exist")]
    Missing(PathBuf),
    /// The copy is damaged or is not a variago database.
    #[error("{0} is not a sound variago database: {1}")]
    NotVariago(PathBuf, String),
    /// The database failed.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The file system failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// The SQLite file a URL names, or why not.
fn sqlite_file(url: &str) -> Result<PathBuf, BackupError> {
    if url.starts_with("postgres") {
        return Err(BackupError::Postgres);
    }
    let options = SqliteConnectOptions::from_str(url).map_err(|_| BackupError::NotAFile(url.to_string()))?;
    let file = options.get_filename();
    if !url.starts_with("sqlite:") || url.contains(":memory:") || file.as_os_str().is_empty() {
        return Err(BackupError::NotAFile(url.to_string()));
    }
    Ok(file.to_path_buf())
}

/// Opens a SQLite file that must exist, read-only unless `write`.
async fn open(file: &Path, write: bool) -> Result<SqliteConnection, BackupError> {
    if !file.exists() {
        return Err(BackupError::Missing(file.to_path_buf()));
    }
    let options = SqliteConnectOptions::new().filename(file).read_only(!write);
    Ok(SqliteConnection::connect_with(&options).await?)
}

/// Checks that `file` is an undamaged variago database and counts what it holds.
async fn check(file: &Path) -> Result<Copied, BackupError> {
    let mut conn = open(file, false).await?;
    let not_variago = |why: String| BackupError::NotVariago(file.to_path_buf(), why);
    let integrity: String = sqlx::query("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .map_err(|e| not_variago(e.to_string()))?
        .get(0);
    if integrity != "ok" {
        return Err(not_variago(integrity));
    }
    let count = async |conn: &mut SqliteConnection, table: &str| -> Result<i64, BackupError> {
        let query = format!("SELECT COUNT(*) FROM {table}");
        let row = sqlx::query(sqlx::AssertSqlSafe(query))
            .fetch_one(conn)
            .await
            .map_err(|e| not_variago(format!("no {table} table ({e})")))?;
        Ok(row.get(0))
    };
    let copied =
        Copied { games: count(&mut conn, "games").await?, events: count(&mut conn, "events").await? };
    conn.close().await?;
    Ok(copied)
}

/// Writes a consistent copy of the SQLite database at `url` to `to`, a file that must not exist,
/// while servers may be writing to the database; checks the copy and counts what it holds.
pub async fn backup(url: &str, to: &Path) -> Result<Copied, BackupError> {
    let file = sqlite_file(url)?;
    if to.exists() {
        return Err(BackupError::Exists(to.to_path_buf()));
    }
    let mut conn = open(&file, false).await?;
    let target = to.to_str().ok_or_else(|| BackupError::NotAFile(to.display().to_string()))?;
    sqlx::query("VACUUM INTO ?").bind(target).execute(&mut conn).await?;
    conn.close().await?;
    check(to).await
}

/// Puts the backup `from` in place as the SQLite database at `url`, which must not exist (stop
/// the servers and move the damaged database aside first): the backup is checked, copied beside
/// the target and renamed onto it, so that a failure midway leaves no half-written database.
pub async fn restore(from: &Path, url: &str) -> Result<Copied, BackupError> {
    let file = sqlite_file(url)?;
    if file.exists() {
        return Err(BackupError::Exists(file));
    }
    let copied = check(from).await?;
    let partial = file.with_extension("restoring");
    std::fs::copy(from, &partial)?;
    std::fs::File::open(&partial)?.sync_all()?;
    std::fs::rename(&partial, &file)?;
    Ok(copied)
}

/// Runs a backup or a restoration to its end on a runtime of its own, for the command line.
pub fn blocking<T>(work: impl Future<Output = Result<T, BackupError>>) -> Result<T, BackupError> {
    tokio::runtime::Builder::new_current_thread().enable_all().build()?.block_on(work)
}
