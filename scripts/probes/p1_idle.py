"""Probe 1: idle TCP connections / unfinished request headers against a fresh server.

usage: p1_idle.py NAME PORT MODE COUNT SOURCES [SERVER FLAGS...]
  NAME     run name: database PROBE_DIR/NAME.db (deleted first), server log PROBE_DIR/NAME.log
  PORT     the port of the server the probe starts on 127.0.0.1
  MODE     idle (connect, send nothing) | header (send 'GET /api/health HTTP/1.1\\r\\nHost: x\\r\\n' and stop)
  COUNT    connections in all, spread round-robin over SOURCES
  SOURCES  comma-separated loopback source addresses, e.g. 127.0.0.1 or 127.0.0.2,127.0.0.3,127.0.0.4
  SERVER FLAGS  passed to `variago serve`, e.g. --header-timeout 5 --max-connections 900
/api/health is also asked from 127.0.0.1 (unless a source) and from 127.0.0.9 (never a source).

Prints: the server's RSS and open fds before, during and after; how many connections were opened,
how many were refused at once with 503 (per source) and one refusal; a new client's health answer
from each address while they are held; when the server closed the held ones (header timeout),
waiting up to 120 s; and last "server stopped" after a SIGTERM.
"""
import signal, socket, sys, time
from common import HOST, Watcher, fds, fresh_db, get, kill, rss_mb, start_server

name, port, mode, count, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5].split(",")
flags = " ".join(sys.argv[6:])
PARTIAL = b"GET /api/health HTTP/1.1\r\nHost: x\r\n"

fresh_db(name)
srv, startup = start_server(name, port, flags)
pid = srv.pid
time.sleep(1)
print(f"server pid {pid} flags [{flags}] started in {startup:.2f}s; RSS before {rss_mb(pid):.1f} MB fds {fds(pid)}")


def health(source):
    t = time.time()
    try:
        s, h, b = get(HOST, port, "/api/health", timeout=10, source=source)
        return f"{s} {b} in {1000*(time.time()-t):.1f} ms"
    except OSError as e:
        return f"error {e!r} after {1000*(time.time()-t):.1f} ms"


print("health before:", health("127.0.0.1"))

socks = []
t_open = time.time()
connect_errors = 0
for i in range(count):
    src = sources[i % len(sources)]
    s = socket.socket()
    s.bind((src, 0))
    s.settimeout(5)
    try:
        s.connect((HOST, port))
        if mode == "header":
            s.sendall(PARTIAL)
        socks.append(dict(sock=s, src=src))
    except OSError:
        connect_errors += 1
        s.close()
t_opened = time.time()
print(f"opened {len(socks)} connections in {t_opened-t_open:.2f}s ({connect_errors} connect errors)")

# watch every socket: what it receives and when it is closed
watch = Watcher(socks, t_open)
watch.run(0.5)
is_503 = lambda st: st["data"].startswith(b"HTTP/1.1 503")
refused = [st for st in socks if is_503(st)]
other = [st for st in socks if st["data"] and not is_503(st)]
by_src = {}
for st in socks:
    by_src.setdefault(st["src"], [0, 0])[1 if is_503(st) else 0] += 1
print(f"t={time.time()-t_open:.1f}s: refused with 503: {len(refused)}, still open: {len(watch.open)}, other answers: {len(other)}")
print("per source [accepted-or-other, 503]:", by_src)
if refused:
    print("a refusal:", refused[0]["data"].decode(errors="replace").replace("\r\n", " | "))
if other:
    print("another answer:", other[0]["data"][:300])
print(f"RSS during {rss_mb(pid):.1f} MB, fds {fds(pid)}")
for src in ([HOST] if HOST not in sources else []) + sorted(set(sources)) + ["127.0.0.9"]:
    print(f"t={time.time()-t_open:.1f}s new client from {src}: GET /api/health ->", health(src))

# wait for the server to close the held connections (header timeout)
watch.run(120, every=5, report=lambda: print(
    f"  t={time.time()-t_open:.1f}s open={len(watch.open)} RSS {rss_mb(pid):.1f} MB fds {fds(pid)}"))
held = [st for st in socks if not is_503(st)]
closes = sorted(st["closed"] for st in held if st["closed"] is not None)
if closes:
    print(f"held connections closed by the server: {len(closes)}/{len(held)}; first at {closes[0]:.1f}s, "
          f"median {closes[len(closes)//2]:.1f}s, last at {closes[-1]:.1f}s after opening began "
          f"(opening took {t_opened-t_open:.1f}s)")
answered = [st for st in held if st["data"]]
if answered:
    print(f"{len(answered)} held connections got bytes before closing, e.g.:", answered[0]["data"][:200])
print(f"still open after the wait: {len(watch.open)}")
for st in socks:
    st["sock"].close()
time.sleep(2)
print(f"RSS after {rss_mb(pid):.1f} MB fds {fds(pid)}")
print("health after:", health(HOST))
kill(srv, signal.SIGTERM)
print("server stopped")
