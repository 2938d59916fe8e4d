# variago's tactics suite: obvious captures and escapes on 9x9 that the AI must find with a
# moderate budget (a few thousand playouts), whatever the seed (checked with seeds 1 to 12).
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

# Two white stones in atari in the open (liberty F5) would escape if left: Black captures.
clear_board
play b c5
play w d5
play b d6
play w e5
play b e6
play w a9
play b d4
play w a8
play b e4
play w j1
4 reg_genmove b
#? [F5]
