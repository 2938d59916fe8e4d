"""Probe 4: acknowledged moves under kill -9.

usage: p4_kill9.py NAME PORT GAMES CYCLES MIN_S MAX_S
  NAME    run name: database PROBE_DIR/NAME.db (deleted first), server log PROBE_DIR/NAME.log
  PORT    the port of the server the probe starts (and restarts) on 127.0.0.1
  GAMES   client threads, each playing one 9x9 human-vs-human game at a time over HTTP (both
          seats, random legal non-pass moves, as fast as they can; a new game when one runs out
          of moves or passes 300 moves)
  CYCLES  how many times the server is killed with SIGKILL and restarted on the same DB file
  MIN_S MAX_S  seconds between kills, drawn uniformly
After the cycles a last kill -9 and restart, and every acknowledged (200) move, creation and
join is checked in the restarted server.

Prints: a line per cycle (moves acknowledged so far, restart time); the request outcomes; and a
summary whose last lines are the games acknowledged and missing, the acknowledged moves and how
many were lost, the seq/event and seat-token checks, and the moves stored beyond the last
acknowledged one. The verdict is "lost: 0" and "missing after restart: 0".
"""
import collections, http.client, random, signal, sys, threading, time
from common import (HOST, Tally, check_acks, create_and_join, fresh_db, get, kill, legal_moves, log_path,
                     play_move, post, restart, start_server)

name, port, ngames, cycles, tmin, tmax = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5]), float(sys.argv[6])
fresh_db(name)

stop = threading.Event()
acks = []            # (gid, n_moves_after, move, seq)
games_acked = set()  # (gid, black token, white token) of games whose creation (201) and join (200) were acknowledged
counts = Tally()     # "create 201", "move 429", "error ConnectionRefusedError", ...


def player(idx):
    rnd = random.Random(idx)
    gid = tokens = view = None
    while not stop.is_set():
        try:
            if gid is None:
                g = create_and_join(port, tally=lambda kind, s: counts.add(f"{kind} {s}"), timeout=5)
                if g is None:
                    time.sleep(0.2); continue
                gid, tokens, view = g
                with counts.lock:
                    games_acked.add((gid, tokens["black"], tokens["white"]))
            if view is None:
                s, h, view = get(HOST, port, f"/api/games/{gid}", timeout=5)
                counts.add(f"read {s}")
                if s != 200:
                    view = None; time.sleep(0.2); continue
            legal = legal_moves(view)
            if view["status"] != "playing" or not legal or len(view["moves"]) > 300:
                gid = None; continue
            mv = rnd.choice(legal)
            s, h, r = play_move(port, gid, mv, tokens[view["to_move"]], timeout=5)
            counts.add(f"move {s}")
            if s == 200:
                with counts.lock:
                    acks.append((gid, len(r["game"]["moves"]), mv, r["seq"]))
                view = r["game"]
            elif s == 429:
                time.sleep(float(h.get("retry-after", 1)) / 20)
            else:
                view = None
        except (OSError, http.client.HTTPException) as e:
            counts.add(f"error {type(e).__name__}")
            view = None
            time.sleep(0.05)


srv, startup = start_server(name, port)
startups = [startup]
threads = [threading.Thread(target=player, args=(i,)) for i in range(ngames)]
for t in threads:
    t.start()
t0 = time.time()
try:
    for c in range(cycles):
        time.sleep(random.uniform(tmin, tmax))
        with counts.lock:
            before = len(acks)
        srv, startup = restart(srv, name, port)
        startups.append(startup)
        print(f"cycle {c+1}: kill -9 at {time.time()-t0:.1f}s with {before} moves acked so far; restarted in {startup:.2f}s", flush=True)
    time.sleep(random.uniform(tmin, tmax))
finally:
    kill(srv)
    stop.set()
    for t in threads:
        t.join()
print(f"load phase {time.time()-t0:.0f}s; final kill -9 done; request outcomes: {dict(counts)}")

srv, startup = start_server(name, port)
try:
    print(f"restarted in {startup:.2f}s; server log lines: see {log_path(name)}")
    final, missing_games, lost = check_acks(port, [g[0] for g in games_acked], acks)
    by_game = collections.defaultdict(list)
    for a in acks:
        by_game[a[0]].append(a)
    # the seq numbers too: every acknowledged seq is a move event with that move
    seq_bad = 0
    for gid, lst in list(by_game.items())[:50]:
        s, h, ev = get(HOST, port, f"/api/games/{gid}/events?after=0")
        evs = {e["seq"]: e["event"] for e in ev["events"]}
        for (g, n, mv, seq) in lst:
            e = evs.get(seq)
            if not e or e.get("type") != "move" or e.get("move") != mv:
                seq_bad += 1
    # tokens still hold their seats: a read-only probe (an out-of-turn action must give 409, not 403)
    seat_bad = 0
    for gid, bt, wt in list(games_acked)[:50]:
        v = final.get(gid)
        if not v or v["status"] != "playing":
            continue
        other = wt if v["to_move"] == "black" else bt
        s, h, r = post(HOST, port, f"/api/games/{gid}/actions", {"type": "move", "move": "pass"}, token=other)
        if s != 409:
            seat_bad += 1
    print(f"kill -9 cycles: {cycles + 1}; server start times: min {min(startups):.2f}s max {max(startups):.2f}s")
    print(f"games acknowledged (created+joined): {len(games_acked)}, missing after restart: {len(missing_games)} {missing_games[:5]}")
    print(f"acknowledged moves: {len(acks)}; lost: {len(lost)} {lost[:5]}")
    print(f"seq/event mismatches (first 50 games): {seq_bad}; seat-token checks failed: {seat_bad}")
    extra = sum(len(final[g]['moves']) - max((a[1] for a in by_game.get(g, [])), default=0) for g in final)
    print(f"moves stored beyond the last acknowledged one (committed, answer lost in a kill): {extra}")
finally:
    kill(srv, signal.SIGTERM)
