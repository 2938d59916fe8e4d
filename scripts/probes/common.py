"""Shared helpers for the robustness probes (Python 3 stdlib only).

Not a probe itself: the p*.py scripts next to it import it. What it provides:
  - where things are: BIN (the server binary: $VARIAGO, default target/release/variago under the
    repository root) and PROBE_DIR (scratch folder for databases, logs and disk images:
    $PROBE_DIR, default /tmp/variago-probes, created on import);
  - the server: fresh_db, start_server, restart (kill -9 and start again on the same file), kill;
  - the server's process: rss_mb, fds;
  - a small HTTP client: request, get, post, and the game calls create_and_join, new_game,
    legal_moves, play_move, check_acks;
  - Tally, a thread-safe Counter of answers by status (and phase);
  - Watcher, which reads a set of raw sockets until the server closes them;
  - the full-disk probes' loop filesystem: loop_disk, fill_disk, free_disk, df (need root).
"""
import collections, contextlib, http.client, json, os, select, shlex, signal, subprocess, threading, time

HOST = "127.0.0.1"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("VARIAGO") or os.path.join(ROOT, "target", "release", "variago")
PROBE_DIR = os.path.abspath(os.environ.get("PROBE_DIR") or "/tmp/variago-probes")
os.makedirs(PROBE_DIR, exist_ok=True)


def probe_path(*parts):
    """A path inside PROBE_DIR."""
    return os.path.join(PROBE_DIR, *parts)


def log_path(name):
    return probe_path(f"{name}.log")


def fresh_db(name):
    """Deletes the run's database PROBE_DIR/NAME.db and its -wal and -shm files."""
    for suffix in ("", "-wal", "-shm"):
        f = probe_path(f"{name}.db{suffix}")
        if os.path.exists(f):
            os.remove(f)


def start_server(name, port, flags="", db=None, ulimit=1024):
    """Starts `variago serve` in a shell of its own (ulimit -n, nice), its output appended to
    PROBE_DIR/NAME.log; the database is PROBE_DIR/NAME.db unless `db` (a URL) is given.
    Waits until /api/health answers 200; returns (Popen, seconds it took). The shell execs the
    server, so Popen.pid is the server's pid."""
    if not os.access(BIN, os.X_OK):
        raise RuntimeError(f"no server binary at {BIN}: build it (cargo build --release) or set VARIAGO")
    db = db or f"sqlite://{probe_path(name + '.db')}"
    cmd = (f"ulimit -n {ulimit}; exec nice {shlex.quote(BIN)} serve --db {shlex.quote(db)} "
           f"--addr {HOST}:{port} {flags}")
    with open(log_path(name), "ab") as lf:
        lf.write(f"\n=== {time.strftime('%H:%M:%S')} {cmd}\n".encode())
        lf.flush()
        p = subprocess.Popen(["bash", "-c", cmd], stdout=lf, stderr=lf, start_new_session=True)
    t0 = time.time()
    while time.time() - t0 < 60:
        try:
            if get(HOST, port, "/api/health", timeout=1)[0] == 200:
                return p, time.time() - t0
        except OSError:
            pass
        if p.poll() is not None:
            raise RuntimeError(f"server exited rc={p.returncode}; see {log_path(name)}")
        time.sleep(0.05)
    kill(p)
    raise RuntimeError("server did not start")


def kill(p, sig=signal.SIGKILL):
    try:
        os.kill(p.pid, sig)
    except ProcessLookupError:
        pass
    p.wait()


def restart(p, name, port, **kw):
    """kill -9 the server and start it again (same name, so the same database unless `db`)."""
    kill(p)
    return start_server(name, port, **kw)


def rss_mb(pid):
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        return None


def fds(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except FileNotFoundError:
        return None


def request(host, port, method, path, body=None, token=None, timeout=10, source=None, conn=None):
    """One request; returns (status, headers dict, json-or-text). Uses `conn` (keep-alive) if given."""
    own = conn is None
    if own:
        conn = http.client.HTTPConnection(host, port, timeout=timeout,
                                          source_address=(source, 0) if source else None)
    headers = {}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        conn.request(method, path, body=data, headers=headers)
        r = conn.getresponse()
        raw = r.read()
        hdrs = {k.lower(): v for k, v in r.getheaders()}
    finally:
        if own:
            conn.close()
    try:
        payload = json.loads(raw) if raw else None
    except ValueError:
        payload = raw.decode(errors="replace")
    return r.status, hdrs, payload


def get(host, port, path, **kw):
    return request(host, port, "GET", path, **kw)


def post(host, port, path, body=None, **kw):
    return request(host, port, "POST", path, body=body if body is not None else {}, **kw)


def create_and_join(port, size="9", tally=None, **kw):
    """Creates a public human 9x9 (or `size`) go game as black and joins it as the other seat.
    `tally(kind, status)` is told each answer ("create", "join"). Returns (id, {colour: token},
    view after the join), or None when the creation (201) or the join (200) was refused."""
    s, h, c = post(HOST, port, "/api/games", {"variant": "go", "size": size, "color": "black"}, **kw)
    if tally:
        tally("create", s)
    if s != 201:
        return None
    s, h, j = post(HOST, port, f"/api/games/{c['id']}/join", {}, **kw)
    if tally:
        tally("join", s)
    if s != 200:
        return None
    return c["id"], {c["color"]: c["token"], j["color"]: j["token"]}, j["game"]


def new_game(port, size="9", **kw):
    """create_and_join that must succeed."""
    answers = []
    g = create_and_join(port, size, tally=lambda kind, s: answers.append(f"{kind} {s}"), **kw)
    if g is None:
        raise RuntimeError(f"could not create and join a game: {answers}")
    return g


def legal_moves(view):
    """The legal moves of a game view but a pass."""
    return [m for m in view.get("legal", []) if m != "pass"]


def play_move(port, gid, move, token, **kw):
    """POST /api/games/ID/actions {"type": "move"}; returns (status, headers, body)."""
    return post(HOST, port, f"/api/games/{gid}/actions", {"type": "move", "move": move}, token=token, **kw)


def check_acks(port, gids, acks):
    """After a restart: reads every game in `gids` and checks every acknowledged move, an ack being
    (gid, n, move, ...): the answer to the n-th move of game gid was 200. Returns (views {gid: view},
    missing [(gid, status)], lost [ack + (moves stored or None,)])."""
    views, missing = {}, []
    for gid in gids:
        s, h, v = get(HOST, port, f"/api/games/{gid}")
        if s == 200:
            views[gid] = v
        else:
            missing.append((gid, s))
    lost = []
    for a in acks:
        v = views.get(a[0])
        if v is None or len(v["moves"]) < a[1] or v["moves"][a[1] - 1] != a[2]:
            lost.append(tuple(a) + (None if v is None else len(v["moves"]),))
    return views, missing, lost


class Tally(collections.Counter):
    """A Counter of answers that threads add to (add); keys are a status, a "kind status" string
    or a (phase, status) pair."""

    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.lock = threading.Lock()

    def add(self, key, n=1):
        with self.lock:
            self[key] += n

    def phase(self, name):
        """{status: count} of the (phase, status) keys of one phase."""
        with self.lock:
            return {k[1]: c for k, c in self.items() if k[0] == name}

    def by_phase(self):
        """{"phase:status": count}, sorted."""
        with self.lock:
            return {f"{k[0]}:{k[1]}": c for k, c in sorted(self.items(), key=str)}


class Watcher:
    """Reads raw sockets until the server closes them. Each state is a dict with "sock"; the
    Watcher adds "data" (bytes received), "closed" (seconds after t0 when EOF came, or None) and
    "error" (a recv error, or None). States already closed (closed not None) are not watched."""

    def __init__(self, states, t0):
        self.t0 = t0
        self.poller = select.poll()
        self.byfd = {}
        for st in states:
            st.setdefault("data", b"")
            st.setdefault("closed", None)
            st.setdefault("error", None)
            if st["closed"] is None:
                st["sock"].setblocking(False)
                self.poller.register(st["sock"].fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
                self.byfd[st["sock"].fileno()] = st
        self.open = set(self.byfd)

    def pump(self, ms):
        """Waits up to `ms` for the sockets once and reads what is there."""
        for fd, ev in self.poller.poll(ms):
            st = self.byfd[fd]
            try:
                d = st["sock"].recv(65536)
            except (BlockingIOError, InterruptedError):
                continue
            except OSError as e:
                d = b""
                st["error"] = st["error"] or f"recv {type(e).__name__}"
            if d:
                st["data"] += d
            else:
                st["closed"] = time.time() - self.t0
                self.poller.unregister(fd)
                self.open.discard(fd)

    def run(self, seconds, every=None, report=None):
        """Pumps until every socket is closed or `seconds` have passed; calls report() every `every` s."""
        deadline = time.time() + seconds
        last = time.time()
        while self.open and time.time() < deadline:
            self.pump(200)
            if every and time.time() - last > every:
                report()
                last = time.time()


# --- the full-disk probes' loop filesystem (root only) ---

def sh(cmd, check=True):
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    if check and r.returncode:
        raise RuntimeError(f"{cmd}: {r.stderr}")
    return r


def df(mnt):
    """Bytes free on `mnt`, as df prints them."""
    return sh(f"df -B1 --output=avail {shlex.quote(mnt)} | tail -1").stdout.strip()


@contextlib.contextmanager
def loop_disk(image, mnt=None, size="16M"):
    """Makes a fresh `size` ext4 image PROBE_DIR/IMAGE (no reserved blocks), mounts it on
    PROBE_DIR/mnt (unmounting what was there) and yields the mount point; unmounts it at the end
    and prints "umount: RC | mounted now: BOOL"."""
    img, mnt = probe_path(image), mnt or probe_path("mnt")
    qi, qm = shlex.quote(img), shlex.quote(mnt)
    os.makedirs(mnt, exist_ok=True)
    sh(f"mountpoint -q {qm} && umount {qm}", check=False)
    sh(f"rm -f {qi}; truncate -s {size} {qi}; mkfs.ext4 -q -F -m 0 -b 4096 {qi}; mount -o loop {qi} {qm}")
    try:
        yield mnt
    finally:
        time.sleep(0.5)
        print("umount:", sh(f"umount {qm}", check=False).returncode, "| mounted now:",
              sh(f"mountpoint -q {qm}", check=False).returncode == 0)


def fill_disk(mnt):
    """Fills `mnt` with dd until ENOSPC; returns dd's last line."""
    r = sh(f"dd if=/dev/zero of={shlex.quote(mnt)}/fill bs=4096 2>&1; sync", check=False)
    return r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr


def free_disk(mnt):
    sh(f"rm -f {shlex.quote(mnt)}/fill; sync")
