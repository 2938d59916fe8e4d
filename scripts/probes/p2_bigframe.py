"""Probe 2: WebSocket frames announcing 12-15 MiB.

usage: p2_bigframe.py NAME PORT SOCKETS PAYLOAD_KB [SERVER FLAGS...]
  NAME     run name: database PROBE_DIR/NAME.db (deleted first), server log PROBE_DIR/NAME.log
  PORT     the port of the server the probe starts on 127.0.0.1
  SOCKETS  how many WebSockets (spectators of one 9x9 go game on /api/games/ID/ws)
  PAYLOAD_KB  KiB of payload each sends after its frame header (in 4 KiB chunks, 2 s send timeout)
  SERVER FLAGS  passed to `variago serve`, e.g. --log debug
Each socket sends a masked text frame header announcing 12..15 MiB, then PAYLOAD_KB KiB of it; the
probe reads what comes back for up to 10 s.

Prints: the server's RSS before, after the handshakes and right after the frames; how many sockets
the server closed and when; the bytes each could send before; send/recv errors; the Close frames
received (code, reason); RSS then; and last the RSS 3 s after closing and the /api/health status.
"""
import base64, os, random, signal, socket, struct, sys, time
from common import HOST, Watcher, fresh_db, get, kill, post, rss_mb, start_server

name, port, n, payload_kb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
fresh_db(name)
srv, startup = start_server(name, port, " ".join(sys.argv[5:]))
pid = srv.pid
s, h, c = post(HOST, port, "/api/games", {"variant": "go", "size": "9"})
assert s == 201, (s, c)
gid = c["id"]
time.sleep(0.5)
print(f"server pid {pid}; game {gid}; RSS before {rss_mb(pid):.1f} MB")


def handshake():
    k = socket.create_connection((HOST, port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    k.sendall((f"GET /api/games/{gid}/ws HTTP/1.1\r\nHost: {HOST}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        d = k.recv(4096)
        if not d:
            raise RuntimeError("closed during handshake")
        buf += d
    head, rest = buf.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 101"), head
    return k, rest


socks = []
for i in range(n):
    k, rest = handshake()
    socks.append(dict(sock=k, data=rest, sent=0, closed=None, error=None, size=random.randint(12 << 20, 15 << 20)))
print(f"{n} handshakes done; RSS {rss_mb(pid):.1f} MB")

t0 = time.time()
for st in socks:
    k = st["sock"]
    mask = os.urandom(4)
    header = bytes([0x81, 0x80 | 127]) + struct.pack(">Q", st["size"]) + mask
    try:
        k.sendall(header)
        st["sent"] = len(header)
        chunk = os.urandom(4096)
        k.settimeout(2)
        for _ in range(payload_kb // 4):
            k.sendall(chunk)
            st["sent"] += len(chunk)
    except OSError as e:
        st["error"] = f"{type(e).__name__}: {e}"
        st["closed"] = time.time() - t0
print(f"frames sent in {time.time()-t0:.2f}s; RSS right after {rss_mb(pid):.1f} MB")

# read what comes back until EOF (or 10 s)
Watcher(socks, t0).run(10)


def close_code(data):
    # find a close frame (0x88) in what the server sent
    i = data.find(b"\x88")
    while i >= 0:
        ln = data[i + 1] & 0x7F if i + 1 < len(data) else 0
        if ln >= 2 and i + 4 <= len(data):
            code = struct.unpack(">H", data[i + 2:i + 4])[0]
            return code, data[i + 4:i + 2 + ln].decode(errors="replace")
        i = data.find(b"\x88", i + 1)
    return None


closed = [st for st in socks if st["closed"] is not None]
print(f"closed by the server: {len(closed)}/{n}; close times (s): "
      f"{sorted(round(st['closed'], 3) for st in closed)}")
print("bytes accepted per socket before close (client view):", sorted(st["sent"] for st in socks))
print("send errors:", [st["error"] for st in socks if st["error"]][:3])
print("close frames:", {str(close_code(st["data"])) for st in socks})
print(f"RSS after {rss_mb(pid):.1f} MB (1 s later)")
for st in socks:
    st["sock"].close()
time.sleep(3)
print(f"RSS 3 s after closing {rss_mb(pid):.1f} MB; health: {get(HOST, port, '/api/health')[0]}")
kill(srv, signal.SIGTERM)
