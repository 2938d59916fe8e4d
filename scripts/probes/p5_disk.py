"""Probe 5: a full disk under the SQLite database (needs root: it mounts a loop filesystem).

usage: p5_disk.py PORT BEFORE FULL_ATTEMPTS AFTER
  PORT           the port of the server the probe starts (and restarts) on 127.0.0.1
  BEFORE         moves played before the disk is filled
  FULL_ATTEMPTS  move attempts while it is full (the same move is retried after a non-200)
  AFTER          move attempts once the space is freed
Mounts a 16 MiB ext4 image PROBE_DIR/disk.img at PROBE_DIR/mnt and runs the server (run name p5,
log PROBE_DIR/p5.log) with its DB there; plays BEFORE moves (2 games, HTTP, random legal non-pass
moves, 20 ms apart), fills the disk with dd until ENOSPC, makes FULL_ATTEMPTS attempts (100 ms
apart), frees the space, makes AFTER attempts, then kill -9, restart on the same file, and checks
every acknowledged move. /api/health is asked every 10 attempts. Unmounts at the end.

Prints: the answers of each phase with the free space, the first answer of each non-200 status,
the health answers, then per game the moves stored, and last "acknowledged moves: N; lost after
kill -9: 0 []" (the verdict), the statuses by phase and the "umount: 0 | mounted now: False" line.
"""
import random, sys, time
from common import (HOST, Tally, check_acks, df, fill_disk, free_disk, get, kill, legal_moves, log_path,
                    loop_disk, new_game, play_move, restart, rss_mb, sh, start_server)

port, n_before, n_full, n_after = (int(a) for a in sys.argv[1:5])
NAME = "p5"

with loop_disk("disk.img") as mnt:
    print("mounted:", sh(f"df -h {mnt} | tail -1").stdout.strip())
    srv = None
    try:
        db = f"sqlite://{mnt}/{NAME}.db"
        srv, _ = start_server(NAME, port, db=db)
        games = [new_game(port) for _ in range(2)]  # (gid, tokens, view)
        views = {g[0]: g[2] for g in games}
        rnd = random.Random(5)
        acks = []
        statuses = Tally()  # (phase, status)
        health_log = []
        pending = {}  # gid -> move being retried
        first_answer = {}

        def attempt(phase, i):
            gid, tokens, _ = games[i % 2]
            v = views[gid]
            if v is None:
                s, h, v = get(HOST, port, f"/api/games/{gid}")
                views[gid] = v if s == 200 else None
                if s != 200:
                    statuses.add((phase, f"read {s}"))
                    return
            mv = pending.get(gid)
            if mv is None:
                mv = rnd.choice(legal_moves(v))
            s, h, r = play_move(port, gid, mv, tokens[v["to_move"]])
            statuses.add((phase, s))
            if s == 200:
                acks.append((gid, len(r["game"]["moves"]), mv, r["seq"]))
                views[gid] = r["game"]
                pending.pop(gid, None)
            else:
                pending[gid] = mv
                if (phase, s) not in first_answer:
                    first_answer[(phase, s)] = (h.get("retry-after"), r)
            if i % 10 == 0:
                t = time.time()
                hs, hh, hb = get(HOST, port, "/api/health")
                health_log.append((phase, i, hs, hb, round(1000 * (time.time() - t), 1)))

        for i in range(n_before):
            attempt("before", i)
            time.sleep(0.02)
        print(f"before: {statuses.phase('before')}; free {df(mnt)} B")

        print("fill:", fill_disk(mnt), "| free now", df(mnt), "B")
        t_full = time.time()
        first_fail = None
        for i in range(n_full):
            attempt("full", i)
            if first_fail is None and statuses[("full", 200)] != i + 1:
                first_fail = i
            time.sleep(0.1)
        print(f"full ({time.time()-t_full:.1f}s): {statuses.phase('full')}; "
              f"first non-200 at attempt {first_fail}; free {df(mnt)} B")

        free_disk(mnt)
        print("space freed: free", df(mnt), "B")
        t_free = time.time()
        first_ok = None
        for i in range(n_after):
            attempt("after", i)
            if first_ok is None and statuses[("after", 200)] > 0:
                first_ok = (i, round(time.time() - t_free, 2))
            time.sleep(0.1)
        print(f"after: {statuses.phase('after')}; first 200 at (attempt, s) {first_ok}")
        for k, (ra, body) in first_answer.items():
            print(f"  first {k[1]} in phase {k[0]}: Retry-After {ra} body {body}")
        print("health (phase, attempt, status, body, ms):")
        for hl in health_log:
            if hl[0] != "before" or hl[1] == 0:
                print("  ", hl)
        print("server RSS", rss_mb(srv.pid), "MB; log:", log_path(NAME))

        srv, startup = restart(srv, NAME, port, db=db)
        print(f"kill -9 and restart in {startup:.2f}s")
        views, missing, lost = check_acks(port, [g[0] for g in games], acks)
        for gid, tokens, _ in games:
            stored = len(views[gid]["moves"]) if gid in views else f"game missing ({missing})"
            print(f"game {gid}: {stored} moves stored, last acked #{max((a[1] for a in acks if a[0] == gid), default=0)}")
        print(f"acknowledged moves: {len(acks)}; lost after kill -9: {len(lost)} {lost[:5]}")
        print("statuses by phase:", statuses.by_phase())
    finally:
        if srv:
            kill(srv)
