"""Probe 5b: a full disk under concurrent load (exercises SQLite group commit's failure path).
Needs root: it mounts a loop filesystem.

usage: p5_disk_concurrent.py PORT GAMES BEFORE_S FULL_S AFTER_S
  PORT      the port of the server the probe starts (and restarts) on 127.0.0.1
  GAMES     player threads, each playing its own 9x9 game as fast as it can (random legal non-pass
            moves; a refused move is retried as is; 429s and 503s sleep 50 ms; a new game when one
            runs out of moves or passes 250 moves)
  BEFORE_S  seconds with room on the disk
  FULL_S    seconds with the disk full (filled with dd)
  AFTER_S   seconds after the fill is removed
Like p5_disk.py (16 MiB ext4 image PROBE_DIR/disk2.img on PROBE_DIR/mnt; run name p5b, log
PROBE_DIR/p5b.log, emptied first); /api/health every 0.5 s; then kill -9, restart and check every
acknowledged move. Unmounts at the end.

Prints: dd's last line, the answers by phase and status, the health answers by phase, the RSS, and
last-but-one the verdict "kill -9, restart in Ns; acknowledged moves N, lost 0 []; games
acknowledged N, missing 0", then the "umount: 0 | mounted now: False" line.
"""
import collections, http.client, random, sys, threading, time
from common import (HOST, Tally, check_acks, create_and_join, fill_disk, free_disk, get, kill, legal_moves,
                    log_path, loop_disk, new_game, play_move, restart, rss_mb, start_server)

port, ngames, t_before, t_full, t_after = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
NAME = "p5b"
phase = ["before"]
stats = Tally()  # (phase, status) and (phase, "create 201"), ...
acks = []        # (gid, n_moves_after, move)
all_games = []
stop = threading.Event()


def player(g, i):
    gid, tokens, v = g
    rnd = random.Random(i)
    mv = None
    while not stop.is_set():
        try:
            if v is None:
                s, h, v = get(HOST, port, f"/api/games/{gid}")
                if s != 200:
                    v = None; continue
            legal = legal_moves(v)
            if mv is None and (v["status"] != "playing" or not legal or len(v["moves"]) > 250):
                # a new game (creation may fail while the disk is full)
                p = phase[0]
                new = create_and_join(port, tally=lambda kind, s: stats.add((p, f"{kind} {s}")))
                if new is None:
                    time.sleep(0.1); continue
                gid, tokens, v = new
                with stats.lock:
                    all_games.append(gid)
                continue
            if mv is None:
                mv = rnd.choice(legal)
            p = phase[0]
            s, h, r = play_move(port, gid, mv, tokens[v["to_move"]])
            with stats.lock:
                stats[(p, s)] += 1
                if s == 200:
                    acks.append((gid, len(r["game"]["moves"]), mv))
            if s == 200:
                v, mv = r["game"], None
            elif s in (429, 503):
                time.sleep(0.05)
            else:
                v = None  # re-read; keep the move
        except (OSError, http.client.HTTPException) as e:
            stats.add((phase[0], type(e).__name__))
            time.sleep(0.05)


with loop_disk("disk2.img") as mnt:
    srv = None
    try:
        db = f"sqlite://{mnt}/{NAME}.db"
        open(log_path(NAME), "w").close()
        srv, _ = start_server(NAME, port, db=db)
        games = [new_game(port) for _ in range(ngames)]
        all_games.extend(g[0] for g in games)
        health = []
        threads = [threading.Thread(target=player, args=(g, i)) for i, g in enumerate(games)]
        for t in threads:
            t.start()

        def run_phase(name, secs):
            phase[0] = name
            end = time.time() + secs
            while time.time() < end:
                health.append((name, get(HOST, port, "/api/health")[0]))
                time.sleep(0.5)

        run_phase("before", t_before)
        print("fill:", fill_disk(mnt))
        run_phase("full", t_full)
        free_disk(mnt)
        run_phase("after", t_after)
        stop.set()
        for t in threads:
            t.join()
        print("answers by phase and status:", stats.by_phase())
        print("health by phase:", dict(collections.Counter(f"{p}:{s}" for p, s in health)))
        print("RSS", rss_mb(srv.pid), "MB")
        srv, startup = restart(srv, NAME, port, db=db)
        views, missing, lost = check_acks(port, all_games, acks)
        print(f"kill -9, restart in {startup:.2f}s; acknowledged moves {len(acks)}, lost {len(lost)} {lost[:5]}; "
              f"games acknowledged {len(all_games)}, missing {len(missing)}")
    finally:
        stop.set()
        if srv:
            kill(srv)
