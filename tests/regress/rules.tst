# variago's rules suite: legality with the reason in words, ko and superko, the variants'
# restrictions, captures and the end of the game, asked through GTP.
# Run: variago regress tests/regress/rules.tst --engine "variago gtp --playouts 100"

boardsize 9
clear_board

# An occupied point.
play b e5
1 is_legal w e5
#? [0]
2 variago-why w e5
#? [point E5 is occupied]
3 variago-why w e4
#? [legal]

# Suicide is illegal in go; filling one's own eye is not.
clear_board
play b a2
play b b1
10 variago-why w a1
#? [suicide]
11 is_legal w a1
#? [0]
12 is_legal b a1
#? [1]

# With suicide allowed, a lone stone that would only remove itself changes nothing.
variago-variant go:suicide=allowed
play b a2
play b b1
13 variago-why w a1
#? [changes nothing \(a lone stone that would only remove itself\)]

# Ko: Black's D4 (move 9) takes White's C4; the retake is refused by every ko rule.
20 loadsgf sgf/ko.sgf
#? [white]
21 variago-rules
#? [go:ko=simple,size=9x9]
22 variago-why w c4
#? [retakes the ko at once \(recreates the previous position\)]
23 final_status_list alive
#? [!.*C4.*]
24 loadsgf sgf/ko.sgf 9
#? [black]
25 is_legal b d4
#? [1]
variago-variant go
play b c5
play w d5
play b b4
play w c4
play b c3
play w d3
play w e4
play b d4
26 variago-why w c4
#? [recreates an earlier position \(positional superko\)]
27 play w c4
#? [\? illegal move: recreates an earlier position \(positional superko\)]
# After a move elsewhere the ko may be taken back.
play w j9
play b j1
28 is_legal w c4
#? [1]

# Incursion Go: White's E5 was an incursion, so Black may not make one at once (A1), but may
# capture E5 from outside (E4 is no incursion: White's stone borders it).
30 loadsgf sgf/incursion.sgf
#? [black]
31 variago-why b a1
#? [incursion right after the opponent's incursion]
32 is_legal b e4
#? [1]
33 is_legal b c1
#? [1]
play b e4
34 final_status_list alive
#? [!.*E5.*]
# The restriction lasts one move: after a pass each, Black may make the incursion.
play w pass
35 is_legal b a1
#? [1]

# Stoical Go: White's B1 captured A1, so Black may not capture E4 at once.
40 loadsgf sgf/stoical.sgf
#? [black]
41 variago-why b e5
#? [capture right after the opponent's capture]
42 is_legal b c3
#? [1]
play b c3
play w c2
43 is_legal b e5
#? [1]

# The end: two passes end the game and are scored by area; GTP has no end of game, so a move
# after them is still legal (the controller decides when the game ends).
variago-variant go:size=5
play b c3
play w pass
play b pass
50 variago-why w a1
#? [legal]
51 final_score
#? [B\+17.5]
52 gogui-rules_final_result
#? [B\+17.5]
53 gogui-rules_legal_moves
#? []
54 undo
#? []
55 gogui-rules_legal_moves
#? [.*pass]

# Vertices are case-insensitive; out-of-range vertices are syntax errors.
boardsize 9
clear_board
60 is_legal B e5
#? [1]
61 is_legal b K5
#? [\? syntax error: K5 is off the 9x9 board]
# Passing would end the game with a win for White (komi) on an empty board, but nothing on it is
# settled: the engine plays on rather than end a game by counting an unsettled board.
62 play b pass
#? []
63 reg_genmove w
#? [!pass|resign]
64 play w e5
#? []
65 reg_genmove b
#? [!pass|resign]
