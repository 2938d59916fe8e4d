"""Probe 3: one client (one address) creating games as fast as it can.

usage: p3_flood.py NAME PORT TOTAL THREADS
  NAME     run name: database PROBE_DIR/NAME.db (deleted first), server log PROBE_DIR/NAME.log
  PORT     the port of the server the probe starts on 127.0.0.1
  TOTAL    POST /api/games {"variant":"go","size":"9"} requests in all
  THREADS  keep-alive connections from 127.0.0.1 they are spread over

Prints: the request rate, the answers by status, after how many creations the first 429 came and
the Retry-After values, one body per status, the server's RSS (and sampled peak), a creation
1.1 s later and right after, one from another address (127.0.0.5), and last how many open games
the list shows (limit 200).
"""
import collections, http.client, json, signal, sys, threading, time
from common import HOST, Tally, fresh_db, get, kill, post, rss_mb, start_server

name, port, total, threads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
fresh_db(name)
srv, startup = start_server(name, port)
pid = srv.pid
time.sleep(0.5)
print(f"server pid {pid}; RSS before {rss_mb(pid):.1f} MB")

statuses = Tally()
lock = statuses.lock  # also guards what follows
retry_after = collections.Counter()
bodies = {}
first_429 = [None]
left = [total]
peak = [0.0]
body = json.dumps({"variant": "go", "size": "9"}).encode()


def worker():
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    while True:
        with lock:
            if left[0] == 0:
                break
            left[0] -= 1
        try:
            conn.request("POST", "/api/games", body=body, headers={"Content-Type": "application/json"})
            r = conn.getresponse()
            raw = r.read()
            st = r.status
            ra = r.getheader("Retry-After")
        except OSError as e:
            st, ra, raw = type(e).__name__, None, b""
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
        with lock:
            statuses[st] += 1
            if ra is not None:
                retry_after[ra] += 1
            if st not in bodies:
                bodies[st] = raw[:200]
            if st == 429 and first_429[0] is None:
                first_429[0] = statuses[201]
    conn.close()


def sampler():
    while left[0] > 0:
        peak[0] = max(peak[0], rss_mb(pid) or 0)
        time.sleep(0.1)


t0 = time.time()
ts = [threading.Thread(target=worker) for _ in range(threads)]
smp = threading.Thread(target=sampler)
smp.start()
for t in ts:
    t.start()
for t in ts:
    t.join()
el = time.time() - t0
smp.join()
print(f"{total} requests over {threads} connections in {el:.2f}s ({total/el:.0f}/s)")
print("statuses:", dict(statuses))
print("first 429 after", first_429[0], "created; Retry-After values:", dict(retry_after))
for st, b in bodies.items():
    print(f"  body {st}: {b!r}")
print(f"RSS after {rss_mb(pid):.1f} MB (peak sampled {peak[0]:.1f} MB)")
time.sleep(1.1)
game = {"variant": "go", "size": "9"}
s = post(HOST, port, "/api/games", game)[0]
print(f"1.1 s later: one more create -> {s}; right after: {post(HOST, port, '/api/games', game)[0]}")
print(f"from another address 127.0.0.5 -> {post(HOST, port, '/api/games', game, source='127.0.0.5')[0]}")
print("games listed (open, limit 200):", len(get(HOST, port, "/api/games?status=open&limit=200")[2]["games"]))
kill(srv, signal.SIGTERM)
