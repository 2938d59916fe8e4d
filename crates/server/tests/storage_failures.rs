//! A database that cannot write: a full disk (a small loop-mounted filesystem, filled up) and an
//! I/O error on SQLite's write-ahead log (a VFS that fails the log's writes on demand). In both,
//! the server answers 503 while it cannot write, acknowledges only what is committed (checked
//! after a SIGKILL and a restart, or by a second server on the same file), and takes moves again
//! by itself once the database can write.

// shared with the other test files, which use the rest
#[allow(dead_code)]
mod support;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use serde_json::{Value, json};
use sqlx::Connection;
use support::{ChildServer, Client, Server, planned_move, sqlite_url};

/// Not a test of its own: the server process of the full-disk test (see `support::ChildServer`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_server() {
    if let Ok(url) = std::env::var(support::CHILD_DB) {
        support::run_child(url).await;
    }
}

/// A 9x9 game between two people, and the moves the server acknowledged in it.
struct Played {
    id: String,
    tokens: [String; 2],
    moves: Vec<String>,
}

impl Played {
    async fn start(client: &Client) -> Played {
        let (id, black, white) = client.pair("go", "9", json!({})).await;
        Played { id, tokens: [black, white], moves: Vec::new() }
    }

    /// Tries the next planned move: its answer's status (the move is kept as acknowledged on 200).
    async fn try_next(&mut self, client: &Client) -> u16 {
        let n = self.moves.len();
        let mv = planned_move(n);
        let (status, body) =
            client.act(&self.id, &self.tokens[n % 2], json!({ "type": "move", "move": mv })).await;
        match status {
            200 => self.moves.push(mv),
            503 => assert!(body["error"].as_str().is_some_and(|e| e.contains("try again")), "{body}"),
            _ => panic!("move {mv}: {status} {body}"),
        }
        status
    }

    /// Plays `count` moves that must all be taken.
    async fn must_play(&mut self, client: &Client, count: usize) {
        for _ in 0..count {
            assert_eq!(self.try_next(client).await, 200, "after {:?}", self.moves);
        }
    }

    /// Retries the next move until it is taken (the database recovers by itself) within seconds.
    async fn until_taken(&mut self, client: &Client) {
        for _ in 0..40 {
            if self.try_next(client).await == 200 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
        panic!("the server did not take moves again once the database could write");
    }

    /// The game as the server has it equals the acknowledged moves.
    async fn check(&self, client: &Client) {
        let game = client.game(&self.id).await;
        assert_eq!(game["moves"], json!(self.moves), "every acknowledged move, and nothing else");
    }
}

async fn health(client: &Client) -> (u16, Value) {
    client.get("/api/health").await
}

/// Creates a 9x9 game while the database may refuse it: its id if it was acknowledged.
async fn try_create(client: &Client) -> Option<String> {
    let (status, body) = client.post("/api/games", &json!({ "variant": "go", "size": "9" })).await;
    match status {
        201 => Some(body["id"].as_str().unwrap().to_string()),
        503 => None,
        _ => panic!("create: {status} {body}"),
    }
}

/// A second connection writes to the database file: nothing the server does holds a transaction
/// open ("database is locked").
async fn a_second_writer_gets_through(path: &Path) {
    let mut conn = sqlx::SqliteConnection::connect(&sqlite_url(path)).await.expect("open the file");
    sqlx::query("UPDATE health SET checked_ms = 1 WHERE id = 1")
        .execute(&mut conn)
        .await
        .expect("a second writer is not locked out");
    conn.close().await.unwrap();
}

/// A small ext4 filesystem in a file, loop-mounted, that a test fills up and frees again.
struct SmallDisk {
    mount: PathBuf,
    _dir: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a new filesystem of `mib` MiB; `None` (with a note) when not root.
    fn mount(mib: u64) -> Option<SmallDisk> {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        let effective_uid =
            status.lines().find_map(|l| l.strip_prefix("Uid:")).and_then(|ids| ids.split_whitespace().nth(1));
        if effective_uid != Some("0") {
            eprintln!("skipped: filling a loop-mounted filesystem needs root (CI runs as root)");
            return None;
        }
        let dir = tempfile::tempdir().expect("temporary directory");
        let image = dir.path().join("disk.img");
        std::fs::File::create(&image).and_then(|f| f.set_len(mib << 20)).expect("image file");
        let mount = dir.path().join("mnt");
        std::fs::create_dir(&mount).unwrap();
        // -m 0: no blocks kept for root, so that root fills it too; -b 4096: SQLite allocates its
        // shared-memory file by writing one byte per 4 KiB page, which leaves holes in the 1 KiB
        // blocks mkfs picks for small filesystems, and a full disk then kills the process with
        // SIGBUS when the mapped page is touched (not so on the usual 4 KiB blocks)
        run(Command::new("mkfs.ext4").args(["-q", "-F", "-m", "0", "-b", "4096"]).arg(&image));
        let mounted = Command::new("mount").args(["-o", "loop"]).arg(&image).arg(&mount).status();
        if !mounted.is_ok_and(|status| status.success()) {
            eprintln!("skipped: this machine cannot loop-mount a filesystem (a container without the right)");
            return None;
        }
        Some(SmallDisk { mount, _dir: dir })
    }

    fn filler(&self) -> PathBuf {
        self.mount.join("filler")
    }

    /// Writes until the filesystem has no byte left.
    fn fill(&self) {
        use std::io::Write;
        let mut file = std::fs::File::create(self.filler()).expect("filler");
        for chunk in [1 << 16, 1 << 12, 1 << 9, 1] {
            let bytes = vec![1u8; chunk];
            // ext4 reserves the blocks of a write when it is made, so a full disk fails the
            // write itself; one sync a size puts it all on the disk
            while file.write_all(&bytes).is_ok() {}
            let _ = file.sync_all();
        }
    }

    /// Gives the space back.
    fn free(&self) {
        std::fs::remove_file(self.filler()).expect("remove the filler");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        // lazily: a server that is still being killed may hold the database open
        let _ = Command::new("umount").arg("-l").arg(&self.mount).status();
    }
}

fn run(command: &mut Command) {
    let status = command.status().expect("the command runs");
    assert!(status.success(), "{command:?}: {status}");
}

async fn child(url: &str) -> ChildServer {
    let url = url.to_string();
    tokio::task::spawn_blocking(move || ChildServer::start(&url)).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_full_disk_nothing_unwritten_is_acknowledged_and_play_recovers_when_space_returns() {
    let Some(disk) = SmallDisk::mount(8) else { return };
    let path = disk.mount.join("games.db");
    let url = sqlite_url(&path);
    let server = child(&url).await;
    let client = server.client();
    let mut game = Played::start(&client).await;
    game.must_play(&client, 10).await;

    disk.fill();
    let mut answers = Vec::new();
    for _ in 0..20 {
        answers.push(game.try_next(&client).await);
    }
    eprintln!("answers on the full disk: {answers:?}");
    assert!(answers.contains(&503), "a full disk refused no move: the disk was not full");
    // a refused write closes its connection, and SQLite's checkpoint on closing may give space
    // back (the log's blocks): take it again. A move may still fit in blocks the log holds, so
    // readiness does not wait for a failed write: a disk without room is reported as such.
    disk.fill();
    let (status, body) = health(&client).await;
    assert_eq!((status, &body["ok"]), (503, &json!(false)), "readiness on a full disk: {body}");
    assert!(body["error"].as_str().is_some_and(|e| e.contains("KiB free")), "the reason: {body}");
    game.try_next(&client).await;
    let mut created: Vec<String> = try_create(&client).await.into_iter().collect();

    disk.free();
    game.until_taken(&client).await;
    game.must_play(&client, 10).await;
    let (status, body) = health(&client).await;
    assert_eq!((status, &body["ok"]), (200, &json!(true)), "readiness once the disk has room: {body}");
    created.extend(try_create(&client).await);
    assert!(!created.is_empty(), "a game created with room on the disk is acknowledged");
    a_second_writer_gets_through(&path).await;
    game.check(&client).await;
    server.kill();

    let server = child(&url).await;
    let client = server.client();
    game.check(&client).await;
    for id in &created {
        let (status, body) = client.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200, "acknowledged game {id} is kept: {body}");
    }
    game.must_play(&client, 2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_io_error_on_the_write_ahead_log_is_a_503_and_play_recovers_when_it_stops() {
    faulty_wal::register();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.db");
    let server = Server::start_on(&format!("{}?vfs={}", sqlite_url(&path), faulty_wal::NAME)).await;
    let client = server.client();
    let mut game = Played::start(&client).await;
    game.must_play(&client, 6).await;

    faulty_wal::fail(true);
    for _ in 0..5 {
        assert_eq!(game.try_next(&client).await, 503, "a move the log could not take");
    }
    assert_eq!(try_create(&client).await, None, "a game the log could not take");
    let (status, body) = health(&client).await;
    assert_eq!((status, &body["ok"]), (503, &json!(false)), "readiness while writes fail: {body}");

    faulty_wal::fail(false);
    let (status, body) = health(&client).await;
    assert_eq!((status, &body["ok"]), (200, &json!(true)), "readiness once writes succeed: {body}");
    game.must_play(&client, 6).await;
    a_second_writer_gets_through(&path).await;
    game.check(&client).await;
    // what a server reading the file afresh finds is what was acknowledged
    let second = Server::start_on(&sqlite_url(&path)).await;
    game.check(&second.client()).await;
}

/// A SQLite VFS that is the default one except that, while [`fail`] says so, every write and
/// sync of a write-ahead log fails with an I/O error, as a failing disk would make them.
mod faulty_wal {
    use std::ffi::{c_int, c_void};
    use std::sync::OnceLock;
    use std::sync::atomic::{AtomicBool, Ordering};

    use libsqlite3_sys as ffi;

    /// The VFS's name, for the URL's `vfs=`.
    pub const NAME: &str = "variago-faulty-wal";

    static FAILING: AtomicBool = AtomicBool::new(false);
    /// The default VFS (pointers kept as addresses: what they point to lives as long as the
    /// process).
    static DEFAULT: OnceLock<usize> = OnceLock::new();
    /// The default VFS's methods for a log file, and a copy with the failing write and sync.
    static METHODS: OnceLock<(usize, ffi::sqlite3_io_methods)> = OnceLock::new();

    /// Makes the log's writes fail (true) or work (false).
    pub fn fail(on: bool) {
        FAILING.store(on, Ordering::SeqCst);
    }

    /// Registers the VFS (once per process).
    pub fn register() {
        DEFAULT.get_or_init(|| unsafe {
            let default = ffi::sqlite3_vfs_find(std::ptr::null());
            assert!(!default.is_null(), "SQLite has a default VFS");
            let mut faulty = *default;
            faulty.zName = c"variago-faulty-wal".as_ptr();
            faulty.pNext = std::ptr::null_mut();
            faulty.xOpen = Some(open);
            let rc = ffi::sqlite3_vfs_register(Box::into_raw(Box::new(faulty)), 0);
            assert_eq!(rc, ffi::SQLITE_OK, "register the VFS");
            default as usize
        });
    }

    fn original() -> &'static ffi::sqlite3_io_methods {
        let (address, _) = METHODS.get().expect("a log was opened");
        unsafe { &*(*address as *const ffi::sqlite3_io_methods) }
    }

    /// The default VFS's open; a log file's methods are then swapped for the failing copy.
    unsafe extern "C" fn open(
        _vfs: *mut ffi::sqlite3_vfs,
        name: ffi::sqlite3_filename,
        file: *mut ffi::sqlite3_file,
        flags: c_int,
        out_flags: *mut c_int,
    ) -> c_int {
        let default = *DEFAULT.get().expect("registered") as *mut ffi::sqlite3_vfs;
        let rc = unsafe { ((*default).xOpen.expect("xOpen"))(default, name, file, flags, out_flags) };
        let methods = unsafe { (*file).pMethods };
        if flags & ffi::SQLITE_OPEN_WAL != 0 && !methods.is_null() {
            let (address, faulty) = METHODS.get_or_init(|| {
                let mut faulty = unsafe { *methods };
                faulty.xWrite = Some(write);
                faulty.xSync = Some(sync);
                (methods as usize, faulty)
            });
            // the default VFS has one set of methods for every log file
            assert_eq!(*address, methods as usize, "one set of methods for log files");
            unsafe { (*file).pMethods = faulty };
        }
        rc
    }

    unsafe extern "C" fn write(
        file: *mut ffi::sqlite3_file,
        buffer: *const c_void,
        amount: c_int,
        offset: ffi::sqlite3_int64,
    ) -> c_int {
        if FAILING.load(Ordering::SeqCst) {
            return ffi::SQLITE_IOERR_WRITE;
        }
        unsafe { (original().xWrite.expect("xWrite"))(file, buffer, amount, offset) }
    }

    unsafe extern "C" fn sync(file: *mut ffi::sqlite3_file, flags: c_int) -> c_int {
        if FAILING.load(Ordering::SeqCst) {
            return ffi::SQLITE_IOERR_FSYNC;
        }
        unsafe { (original().xSync.expect("xSync"))(file, flags) }
    }
}

/// `serve` on a file that is not a database, or on a PostgreSQL nobody listens for, once waited
/// 30 s and then said only that the pool timed out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_cannot_be_opened_is_named_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.db");
    std::fs::write(&junk, "these are not the pages of a database, ".repeat(200)).unwrap();
    let addr: std::net::SocketAddr = "127.0.0.1:0".parse().unwrap();
    let failure = |url: String| async move {
        let started = variago_server::start(variago_server::Config::new(addr, url));
        started.await.expect_err("the server cannot start").to_string()
    };
    let error = failure(sqlite_url(&junk)).await;
    assert!(error.contains("junk.db") && error.contains("not a database"), "{error}");
    let error = failure("postgres://ann:secret@127.0.0.1:1/games".to_string()).await;
    assert!(error.contains("postgres://ann:***@127.0.0.1:1/games"), "{error}");
    assert!(
        error.contains("refused") && !error.contains("secret") && !error.contains("timed out"),
        "{error}"
    );
}

/// A TCP proxy that a test can cut, as a network outage would: every connection through it is
/// dropped and new ones are closed at once, until it is restored.
struct Outage {
    addr: std::net::SocketAddr,
    cut: tokio::sync::watch::Sender<bool>,
}

impl Outage {
    /// A proxy to `upstream`, passing traffic.
    async fn proxy(upstream: String) -> Outage {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (cut, _) = tokio::sync::watch::channel(false);
        let watching = cut.clone();
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let mut cut = watching.subscribe();
                if *cut.borrow_and_update() {
                    continue;
                }
                let upstream = upstream.clone();
                tokio::spawn(async move {
                    let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await else { return };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        _ = cut.wait_for(|cut| *cut) => {}
                    }
                });
            }
        });
        Outage { addr, cut }
    }

    fn set(&self, cut: bool) {
        self.cut.send_replace(cut);
    }
}

/// `url` with its host and port replaced by `addr` (`postgres://u:p@HOST[:PORT]/db?...`), and
/// the host and port it had.
fn through(url: &str, addr: std::net::SocketAddr) -> (String, String) {
    let (before, after) = url.split_once('@').expect("a URL with credentials");
    let (host, rest) = after.split_once('/').expect("a URL with a database");
    let upstream = if host.contains(':') { host.to_string() } else { format!("{host}:5432") };
    (format!("{before}@{addr}/{rest}"), upstream)
}

/// A PostgreSQL outage once held every action for 30 s and left `/api/health` at 200.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_outage_answers_503_within_seconds_and_play_recovers_by_itself() {
    let Some(fresh) = support::Db::Postgres.fresh().await else { return };
    let (_, upstream) = through(&fresh.url, "127.0.0.1:0".parse().unwrap());
    let outage = Outage::proxy(upstream).await;
    let (url, _) = through(&fresh.url, outage.addr);
    let server = Server::start_on(&url).await;
    let client = server.client();
    let mut game = Played::start(&client).await;
    game.must_play(&client, 4).await;

    outage.set(true);
    let quickly = Duration::from_secs(15);
    for _ in 0..2 {
        let status =
            tokio::time::timeout(quickly, game.try_next(&client)).await.expect("answered within seconds");
        assert_eq!(status, 503);
    }
    let (status, body) =
        tokio::time::timeout(quickly, health(&client)).await.expect("answered within seconds");
    assert_eq!((status, &body["ok"]), (503, &json!(false)), "readiness in the outage: {body}");

    outage.set(false);
    game.until_taken(&client).await;
    game.must_play(&client, 4).await;
    let (status, body) = health(&client).await;
    assert_eq!(status, 200, "readiness after the outage: {body}");
    game.check(&client).await;
    let second = Server::start_on(&fresh.url).await;
    game.check(&second.client()).await;
}
