"""Probe 6: is a new game against the AI served while ten level-10 games keep the AI busy?

usage: p6_ai_queue.py NAME PORT WARMUP
  NAME    run name: database PROBE_DIR/NAME.db (deleted first), server log PROBE_DIR/NAME.log
  PORT    the port of the server the probe starts on 127.0.0.1
  WARMUP  seconds the ten busy games play before the new game is created

Ten 9x9 games against the AI at level 10 (5 s a move; the AI has Black), each answered at once by
a person's legal move, keep every AI slot busy and a search of every game waiting; after WARMUP
seconds a new game against the AI at level 1 is created. Prints last how long its first AI move
took.
"""
import sys, threading, time
from common import HOST, fresh_db, get, kill, legal_moves, post, start_server

name, port, warmup = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
fresh_db(name)
srv, _ = start_server(name, port)
stop = threading.Event()


def against_the_ai(level):
    """Creates a 9x9 game against the AI (which has Black): its id and the person's token."""
    body = {"variant": "go", "size": "9", "color": "white", "opponent": {"kind": "ai", "level": level}}
    status, _, created = post(HOST, port, "/api/games", body, timeout=120)
    assert status == 201, (status, created)
    return created["id"], created["token"]


def busy_game():
    try:
        keep_busy(*against_the_ai(10))
    except OSError:
        # the server is gone: the probe is over
        pass


def keep_busy(gid, token):
    n = 0
    while not stop.is_set():
        _, _, game = get(HOST, port, f"/api/games/{gid}", timeout=120)
        if game["status"] != "playing":
            return
        if game["to_move"] == "white":
            legal = legal_moves(game)
            move = legal[(n * 7) % len(legal)] if legal else "pass"
            post(HOST, port, f"/api/games/{gid}/actions", {"type": "move", "move": move}, token=token, timeout=120)
            n += 1
        else:
            time.sleep(0.05)


try:
    for _ in range(10):
        threading.Thread(target=busy_game, daemon=True).start()
    time.sleep(warmup)
    started = time.time()
    gid, _ = against_the_ai(1)
    while not get(HOST, port, f"/api/games/{gid}", timeout=120)[2]["moves"]:
        time.sleep(0.05)
    print(f"first AI move of a new game after {time.time() - started:.1f} s")
finally:
    stop.set()
    kill(srv)
