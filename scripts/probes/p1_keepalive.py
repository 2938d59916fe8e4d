"""Probe 1 (extra): keep-alive connections left idle after one answered request.

usage: p1_keepalive.py NAME PORT [SERVER FLAGS...]
  NAME  run name: database PROBE_DIR/NAME.db (deleted first), server log PROBE_DIR/NAME.log
  PORT  the port of the server the probe starts on 127.0.0.1
  SERVER FLAGS  passed to `variago serve`, e.g. --header-timeout 5
Opens 20 connections, sends one GET /api/health on each and then leaves them idle, waiting up to
60 s for the server to close them.

Prints: how many were answered 200, then last the seconds after which the server closed each
one and how many are still open.
"""
import signal, socket, sys, time
from common import HOST, Watcher, fresh_db, kill, start_server

N = 20
name, port = sys.argv[1], int(sys.argv[2])
fresh_db(name)
srv, _ = start_server(name, port, " ".join(sys.argv[3:]))
conns = []
t0 = time.time()
for i in range(N):
    s = socket.create_connection((HOST, port))
    s.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
    conns.append(dict(sock=s))
Watcher(conns, t0).run(60)
print("answered 200:", sum(st["data"].startswith(b"HTTP/1.1 200") for st in conns), f"/ {N}")
closed = [st["closed"] for st in conns if st["closed"] is not None]
print("closed by the server after (s):", sorted(round(v, 2) for v in closed), "still open:", N - len(closed))
for st in conns:
    st["sock"].close()
kill(srv, signal.SIGTERM)
