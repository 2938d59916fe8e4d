"""Reads SGF files with sgfmill, an independent SGF library, and prints what it found, one JSON
object per file: the size, RU, KM, the number of moves and, replayed on sgfmill's own board
(captures included), the final position as rows from the top ('X', 'O', '.').

Usage: python3 sgfmill_check.py FILE...
"""
import json
import sys

from sgfmill import sgf, sgf_moves

for path in sys.argv[1:]:
    with open(path, "rb") as f:
        game = sgf.Sgf_game.from_bytes(f.read())
    root = game.get_root()
    board, plays = sgf_moves.get_setup_and_moves(game)
    for colour, move in plays:
        if move is not None:
            row, col = move
            board.play(row, col, colour)
    size = game.get_size()
    rows = []
    for row in reversed(range(size)):
        cells = [board.get(row, col) for col in range(size)]
        rows.append("".join({"b": "X", "w": "O", None: "."}[c] for c in cells))
    print(json.dumps({
        "file": path,
        "size": size,
        "rules": root.get("RU") if root.has_property("RU") else None,
        "komi": game.get_komi(),
        "moves": len(plays),
        "application": root.get("AP") if root.has_property("AP") else None,
        "board": rows,
    }))
