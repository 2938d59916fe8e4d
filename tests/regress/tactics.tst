# variago's tactics suite: captures, escapes, nakade and seki on 9x9 that the AI must find with a
# moderate budget (a few thousand playouts), whatever the seed (checked with seeds 1 to 12, light
# and heavy playouts; docs/ai.md says where they differ). Tests 4 on are settled boards (rows 1-5
# Black's, 6-9 White's) where the tactic decides the game. Tests 10-17 are variants whose rules
# do not change the answer (`variago-variant` stays in force until test 18 sets Go again).
# Positions the AI misses are in tactics-hard.tst (not run by the tests). A setup ends with the
# other colour's move, or with a count as it stands that the mover loses: otherwise GTP's pass for
# the other colour lets the mover's pass end the game won (`crates/cli/tests/gtp.rs` checks).
# Run: variago regress tests/regress/tactics.tst --engine "variago gtp --playouts 3000"

boardsize 9
komi 7.5

# A white group of three stones with one liberty left: Black captures at E7.
clear_board
play b d4
play w e4
play b d5
play w e5
play b d6
play w e6
play b f4
play w a9
play b f5
play w a8
play b f6
play w j1
play b e3
1 reg_genmove b
#? [E7]

# The same for White: a black column of three with one liberty left (E7). variago finds E7 with
# every seed from 1 to 12 (GNU Go answers H4: it reads the column as dead already).
clear_board
play b e4
play w d4
play b e5
play w d5
play b e6
play w d6
play b a9
play w f4
play b a8
play w f5
play b j1
play w f6
play b j2
play w e3
play b j3
2 reg_genmove w
#? [E7]

# Black's two stones are in atari (liberty E5); E5 connects them to E6 and saves them.
clear_board
play b d4
play w c4
play b e4
play w d3
play b e6
play w e3
play b j9
play w d5
play b j8
play w f4
3 reg_genmove b
#? [E5]

# Two white stones in atari inside Black's wall (liberty E5) would connect out through its gap if
# left: Black captures. Rows 1-5 are Black's, 6-9 White's: with the capture Black wins by 1.5;
# after White's E5 (three points White's) White wins by 4.5. GNU Go answers E5. (An open-board
# form of this capture, where Black wins either way, is in tactics-hard.tst.)
#  9 . . . . . . . . .
#  8 . . . . . . . . .
#  7 . . . . . . . . .
#  6 O O O O O O O O O
#  5 X X X X . X X X X
#  4 . . X O O X . . .
#  3 . . . X X . . . .
#  2 . . . . . . . . .
#  1 . . . . . . . . .
#    A B C D E F G H J
clear_board
play b A5
play b B5
play b C5
play b D5
play b F5
play b G5
play b H5
play b J5
play b C4
play b D3
play b E3
play b F4
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w D4
play w E4
4 reg_genmove b
#? [E5]

# Nakade: White's corner group (A2-D2, D1) has a straight three (A1-C1) for its eyes; Black's B1
# kills it, White's B1 would make two eyes. Rows 1-5 are Black's, 6-9 White's: with the corner dead
# Black wins by 1.5, alive it loses. GNU Go answers B1.
#  9 . . . . . . . . .
#  8 . . . . . . . . .
#  7 . . . . . . . . .
#  6 O O O O O O O O O
#  5 X X X X X X X X X
#  4 . . . . . . . . .
#  3 X X X X X . . . .
#  2 O O O O X . . . .
#  1 . . . O X . . . .
#    A B C D E F G H J
clear_board
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A3
play b B3
play b C3
play b D3
play b E3
play b E2
play b E1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A2
play w B2
play w C2
play w D2
play w D1
5 reg_genmove b
#? [B1]

# Nakade, the bent three (A2, A1, B1) of White's corner group: Black's A1 kills; A2 or B1 would be
# taken, leaving White two eyes. Black wins by 1.5 with the corner dead. GNU Go answers A1.
#  9 . . . . . . . . .
#  8 . . . . . . . . .
#  7 . . . . . . . . .
#  6 O O O O O O O O O
#  5 X X X X X X X X X
#  4 X X X . . . . . .
#  3 O O X X . . . . .
#  2 . O O X . . . . .
#  1 . . O X . . . . .
#    A B C D E F G H J
clear_board
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A4
play b B4
play b C4
play b C3
play b D3
play b D2
play b D1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A3
play w B3
play w B2
play w C2
play w C1
6 reg_genmove b
#? [A1]

# Seki: White's ring (A2, A3-D3, D2, D1) and Black's inner stones (B2, A1, B1) share their two
# liberties C2 and C1 and neither has an eye; whoever fills one of them puts both chains in atari
# and loses its own. As it stands White wins (its seven stones count), so White must not fill:
# pass or play elsewhere. (With a third shared liberty, A2 open, the first fill would be safe and
# a point: an earlier form of this test wanted it left alone, wrongly.)
#  9 . . . . . . . . .
#  8 . . . . . . . . .
#  7 . . . . . . . . .
#  6 O O O O O O O O O
#  5 X X X X X X X X X
#  4 X X X X X . . . .
#  3 O O O O X . . . .
#  2 O X . O X . . . .
#  1 X X . O X . . . .
#    A B C D E F G H J
clear_board
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A4
play b B4
play b C4
play b D4
play b E4
play b E3
play b B2
play b E2
play b A1
play b B1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A3
play w B3
play w C3
play w D3
play w D2
play w D1
play w A2
play b E1
7 reg_genmove w
#? [!C2|C1]

# Atari escape: White's E8 put Black's E7 in atari; E6 connects it to Black's wall. Rows 1-5 are
# Black's but J5, 6-9 White's: with E6 and E7 Black wins by 3.5, without them it loses by 0.5.
# Black's J3 backs up J4: without it White's H4 put J4 in atari, and Black could not both save J4
# and connect E7 (White then took J4 and connected through it, Black's J4 being suicide), so H4
# won as well as E6 in test 9 and its Stoical form 17, and GNU Go played H3 here and H4 there.
# With J3 GNU Go 3.8 answers E6 in both, and its final_score agrees with the count (B+3.5, W+0.5).
#  9 . . . . . . . . .
#  8 . . . . O . . . .
#  7 . . . O X O . . .
#  6 O O O O . O O O O
#  5 X X X X X X X X O
#  4 . . . . . . . . X
#  3 . . . . . . . . X
#  2 . . . . . . . . .
#  1 . . . . . . . . .
#    A B C D E F G H J
clear_board
play b E7
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J4
play b J3
play w D7
play w F7
play w A6
play w B6
play w C6
play w D6
play w F6
play w G6
play w H6
play w J6
play w J5
play w E8
8 reg_genmove b
#? [E6]

# The same board with White to move after Black's E7: White's E6 captures it and wins by 0.5.
#  9 . . . . . . . . .
#  8 . . . . O . . . .
#  7 . . . O X O . . .
#  6 O O O O . O O O O
#  5 X X X X X X X X O
#  4 . . . . . . . . X
#  3 . . . . . . . . X
#  2 . . . . . . . . .
#  1 . . . . . . . . .
#    A B C D E F G H J
clear_board
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J4
play b J3
play w E8
play w D7
play w F7
play w A6
play w B6
play w C6
play w D6
play w F6
play w G6
play w H6
play w J6
play w J5
play b E7
9 reg_genmove w
#? [E6]

# Tests 5, 6, 7 and 8 under Incursion Go (its komi): the kills are incursions that White's answers
# (A1 or C1, A2 or B1) are not, and the seki and the escape take none, so they read as in Go.
variago-variant incursion:size=9
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A3
play b B3
play b C3
play b D3
play b E3
play b E2
play b E1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A2
play w B2
play w C2
play w D2
play w D1
10 reg_genmove b
#? [B1]

variago-variant incursion:size=9
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A4
play b B4
play b C4
play b C3
play b D3
play b D2
play b D1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A3
play w B3
play w B2
play w C2
play w C1
11 reg_genmove b
#? [A1]

variago-variant incursion:size=9
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A4
play b B4
play b C4
play b D4
play b E4
play b E3
play b B2
play b E2
play b A1
play b B1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A3
play w B3
play w C3
play w D3
play w D2
play w D1
play w A2
play b E1
12 reg_genmove w
#? [!C2|C1]

variago-variant incursion:size=9
play b E7
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J4
play b J3
play w D7
play w F7
play w A6
play w B6
play w C6
play w D6
play w F6
play w G6
play w H6
play w J6
play w J5
play w E8
13 reg_genmove b
#? [E6]

# Tests 5, 6, 7 and 9 under Stoical Go: each kill or capture follows no capture.
variago-variant stoical:size=9
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A3
play b B3
play b C3
play b D3
play b E3
play b E2
play b E1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A2
play w B2
play w C2
play w D2
play w D1
14 reg_genmove b
#? [B1]

variago-variant stoical:size=9
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A4
play b B4
play b C4
play b C3
play b D3
play b D2
play b D1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A3
play w B3
play w B2
play w C2
play w C1
15 reg_genmove b
#? [A1]

variago-variant stoical:size=9
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A4
play b B4
play b C4
play b D4
play b E4
play b E3
play b B2
play b E2
play b A1
play b B1
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A3
play w B3
play w C3
play w D3
play w D2
play w D1
play w A2
play b E1
16 reg_genmove w
#? [!C2|C1]

variago-variant stoical:size=9
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J4
play b J3
play w E8
play w D7
play w F7
play w A6
play w B6
play w C6
play w D6
play w F6
play w G6
play w H6
play w J6
play w J5
play b E7
17 reg_genmove w
#? [E6]

# Go again: test 5 with White to move. White's B1 makes two eyes and wins; anything else lets
# Black's B1 kill the corner (the nakade of test 5), and Black wins by 1.5. GNU Go answers B1.
# Black's E1 is played last so that White's pass would not end the game (GTP puts a Black pass
# between two White moves; with it, White's pass ended the game counted as it stood).
#  9 . . . . . . . . .
#  8 . . . . . . . . .
#  7 . . . . . . . . .
#  6 O O O O O O O O O
#  5 X X X X X X X X X
#  4 . . . . . . . . .
#  3 X X X X X . . . .
#  2 O O O O X . . . .
#  1 . . . O X . . . .
#    A B C D E F G H J
variago-variant go:size=9
komi 7.5
clear_board
play b A5
play b B5
play b C5
play b D5
play b E5
play b F5
play b G5
play b H5
play b J5
play b A3
play b B3
play b C3
play b D3
play b E3
play b E2
play w A6
play w B6
play w C6
play w D6
play w E6
play w F6
play w G6
play w H6
play w J6
play w A2
play w B2
play w C2
play w D2
play w D1
play b E1
18 reg_genmove w
#? [B1]
