//! Square Lifeline (shared/rules/lifeline.md): a position worked by hand for every rule, the
//! worked 5x5 example of the rules file, perft from the empty board checked against an
//! independent naive reference written here, and property tests over random games.

use proptest::prelude::*;
use proptest::test_runner::Config;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use variago_rules::lifeline::{Finish, Lifeline, LifelineRules, LifelineSpec, Pair, SetupError, Stage, Turn};
use variago_rules::perft::perft;
use variago_rules::playout::light_playout;
use variago_rules::{Board, Color, Game, Geometry, Illegal, Point, ScoreSheet, Vertex};

// (the other naive model's grid geometry is shared; nothing of the engine is)
#[allow(dead_code)]
mod support;

// ------------------------------------------------------------------------------------------------
// The naive reference: brute force over plain boards, its own deadness test by breadth-first
// search, sharing no code with the engine. Written from lifeline.md alone.
// ------------------------------------------------------------------------------------------------

mod reference {
    use std::collections::VecDeque;

    /// 0 empty, 1 Black, 2 White; row by row from the top.
    pub type Cells = Vec<u8>;

    #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
    pub enum Move {
        Single(usize),
        /// Two points, the lower index first.
        Pair(usize, usize),
        Swap,
    }

    #[derive(Clone, Debug)]
    pub struct Position {
        pub width: usize,
        pub height: usize,
        pub cells: Cells,
        /// 1 Black, 2 White.
        pub to_move: u8,
        /// Whether Black, White made their first turn.
        pub first_turn_made: [bool; 2],
        /// Whether White may still swap.
        pub swap_available: bool,
        pub draw_rule: bool,
        /// Each colour's end-of-turn boards.
        pub history: [Vec<Cells>; 2],
        pub drawn: bool,
    }

    impl Position {
        pub fn new(width: usize, height: usize, swap_rule: bool, draw_rule: bool) -> Self {
            Position {
                width,
                height,
                cells: vec![0; width * height],
                to_move: 1,
                first_turn_made: [false; 2],
                swap_available: swap_rule,
                draw_rule,
                history: [Vec::new(), Vec::new()],
                drawn: false,
            }
        }

        fn neighbours(&self, i: usize) -> Vec<usize> {
            crate::support::model::grid_neighbours(self.width, self.height, i)
        }

        /// The group through the stone on `i`.
        pub fn group(&self, cells: &Cells, i: usize) -> Vec<usize> {
            let mut seen = vec![false; cells.len()];
            let mut queue = VecDeque::from([i]);
            seen[i] = true;
            let mut group = Vec::new();
            while let Some(q) = queue.pop_front() {
                group.push(q);
                for n in self.neighbours(q) {
                    if !seen[n] && cells[n] == cells[i] {
                        seen[n] = true;
                        queue.push_back(n);
                    }
                }
            }
            group
        }

        /// Whether the group through the stone on `i` is dead: a search through empty points from
        /// the group finds no stone of its colour outside it.
        pub fn is_dead(&self, cells: &Cells, i: usize) -> bool {
            let colour = cells[i];
            let group = self.group(cells, i);
            let mut seen = vec![false; cells.len()];
            let mut queue = VecDeque::new();
            for &s in &group {
                for n in self.neighbours(s) {
                    if cells[n] == 0 && !seen[n] {
                        seen[n] = true;
                        queue.push_back(n);
                    }
                }
            }
            while let Some(e) = queue.pop_front() {
                for n in self.neighbours(e) {
                    if cells[n] == colour && !group.contains(&n) {
                        return false;
                    }
                    if cells[n] == 0 && !seen[n] {
                        seen[n] = true;
                        queue.push_back(n);
                    }
                }
            }
            true
        }

        /// Removes every dead group of `colour`, all judged on `cells` as it is.
        fn remove_dead(&self, cells: &mut Cells, colour: u8) {
            let dead: Vec<usize> =
                (0..cells.len()).filter(|&i| cells[i] == colour && self.is_dead(cells, i)).collect();
            for i in dead {
                cells[i] = 0;
            }
        }

        /// The position after `mv`, or `None` if it is illegal.
        pub fn play(&self, mv: Move) -> Option<Position> {
            if self.drawn {
                return None;
            }
            let mover = self.to_move;
            let first = !self.first_turn_made[mover as usize - 1];
            let mut next = self.clone();
            let stones = match mv {
                Move::Swap => {
                    if mover != 2 || !first || !self.swap_available {
                        return None;
                    }
                    next.swap_available = false;
                    return Some(next);
                }
                Move::Single(p) if !first => vec![p],
                Move::Pair(a, b) if first && a < b => vec![a, b],
                _ => return None,
            };
            if stones.iter().any(|&p| self.cells[p] != 0) {
                return None;
            }
            for &p in &stones {
                next.cells[p] = mover;
            }
            let mut cells = next.cells.clone();
            self.remove_dead(&mut cells, 3 - mover);
            self.remove_dead(&mut cells, mover);
            if cells == self.cells {
                return None;
            }
            next.cells = cells;
            next.first_turn_made[mover as usize - 1] = true;
            if next.draw_rule && next.history[mover as usize - 1].contains(&next.cells) {
                next.drawn = true;
            }
            next.history[mover as usize - 1].push(next.cells.clone());
            next.to_move = 3 - mover;
            Some(next)
        }

        /// Every legal move, in no particular order; none once the game is over.
        pub fn legal_moves(&self) -> Vec<Move> {
            let n = self.cells.len();
            let candidates: Vec<Move> = if self.first_turn_made[self.to_move as usize - 1] {
                (0..n).map(Move::Single).collect()
            } else {
                let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| Move::Pair(a, b)));
                pairs.chain([Move::Swap]).collect()
            };
            candidates.into_iter().filter(|&m| self.play(m).is_some()).collect()
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.legal_moves();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves.into_iter().map(|m| self.play(m).expect("legal").perft(depth - 1)).sum()
        }
    }
}

// ------------------------------------------------------------------------------------------------
// Helpers.
// ------------------------------------------------------------------------------------------------

fn rules(swap: bool, draw: bool) -> LifelineRules {
    LifelineRules { swap, own_position_draw: draw }
}

fn new_game(width: u32, height: u32) -> Lifeline {
    Lifeline::new(LifelineRules::default(), Geometry::new(width, height).unwrap())
}

/// A position from diagram rows, the top row first (`X` Black, `O` White, `.` empty).
fn position(rows: &[&str], stage: Stage) -> Lifeline {
    let board = Board::from_diagram(rows).unwrap();
    Lifeline::set_up(LifelineRules::default(), board, stage).unwrap_or_else(|e| panic!("{e}"))
}

fn turn(game: &Lifeline, text: &str) -> Turn {
    game.parse_turn(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays moves that must be legal.
fn play(game: &mut Lifeline, moves: &[&str]) {
    for &text in moves {
        if let Err(why) = game.play(turn(game, text)) {
            panic!("{text} refused: {why}\n{game}");
        }
    }
}

/// The board's rows, the top row first.
fn rows(game: &Lifeline) -> Vec<String> {
    let board = game.board();
    let g = board.geometry();
    (0..g.height()).map(|y| (0..g.width()).map(|x| board.symbol(g.point(x, y).unwrap())).collect()).collect()
}

/// Why a move is refused; checks that `play` refuses it alike and changes nothing.
fn refused(game: &Lifeline, text: &str) -> Illegal {
    let t = turn(game, text);
    let why = game.check(t).expect_err(text);
    let mut copy = game.clone();
    assert_eq!(copy.play(t), Err(why.clone()), "{text}");
    assert_eq!((rows(&copy), copy.stage(), copy.hash()), (rows(game), game.stage(), game.hash()), "{text}");
    why
}

/// A vertex as the reasons print it.
fn vertex(text: &str) -> Vertex {
    let g = Geometry::square(25).unwrap();
    g.vertex(g.parse_vertex(text).unwrap())
}

fn legal_moves(game: &Lifeline) -> Vec<Turn> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

/// The engine's board as the reference's cells.
fn cells(game: &Lifeline) -> reference::Cells {
    let board = game.board();
    board
        .geometry()
        .points()
        .map(|p| match board.color(p) {
            None => 0,
            Some(Color::Black) => 1,
            Some(Color::White) => 2,
        })
        .collect()
}

/// The reference's move for an engine move (`None` for the pass, which it does not have).
fn to_reference(game: &Lifeline, t: Turn) -> Option<reference::Move> {
    let g = game.board().geometry();
    let index = |p| {
        let (x, y) = g.coords(p);
        y as usize * g.width() as usize + x as usize
    };
    match t {
        Turn::Place(p) => Some(reference::Move::Single(index(p))),
        Turn::Pair(pair) => {
            let [a, b] = pair.points().map(index);
            Some(reference::Move::Pair(a.min(b), a.max(b)))
        }
        Turn::Swap => Some(reference::Move::Swap),
        Turn::Pass => None,
    }
}

// ------------------------------------------------------------------------------------------------
// One position per rule, worked by hand.
// ------------------------------------------------------------------------------------------------

/// White B4 lands in a hole walled by Black: it has no empty neighbour, so it reaches none of
/// White's groups (E5, A1) and is dead; it cuts no Black link either (A5 and the open board
/// still link Black's four stones). It would be removed at once, leaving the board as it was.
#[test]
fn a_lone_stone_that_only_removes_itself_is_refused() {
    let game = position(&[".X..O", "X.X..", ".X...", ".....", "O...."], Stage::Placements(Color::White));
    let why = refused(&game, "B4");
    assert_eq!(why, Illegal::NullTurn { pair: false });
    assert_eq!(
        why.to_string(),
        "a lone stone with no other group of its colour to reach is dead at once: this move changes nothing"
    );
    // the same stone where it reaches White's other groups is an ordinary move
    let mut open = game.clone();
    play(&mut open, &["D2"]);
    assert_eq!(rows(&open), [".X..O", "X.X..", ".X...", "...O.", "O...."]);
}

/// White's A1 and C1 reach each other only through B1 (Black's wall A2-B2-C2 and D1 close the
/// rest). Black B1 leaves them no empty neighbour: both are dead and removed. Black's B1 joins
/// the wall, which then reaches D1 through C1.
#[test]
fn a_placement_that_cuts_the_last_link_kills_the_enemy_groups() {
    let mut game = position(&[".....", ".....", ".....", "XXX..", "O.OX."], Stage::Placements(Color::Black));
    play(&mut game, &["B1"]);
    assert_eq!(rows(&game), [".....", ".....", ".....", "XXX..", ".X.X."]);
    assert_eq!(game.to_move(), Color::White);
}

/// Black A5 fills White's only link (A5 joined White's A4 and B5). On the board as the stone
/// leaves it, Black's A5 has no empty neighbour, so it would be dead too, but enemy groups go
/// first: White's A4 and B5 are removed, and on the board that leaves, A5 reaches A3 and B4
/// through A4 and lives. (Removing dead friendly groups first, or both at once, would take A5
/// off as well.)
#[test]
fn dead_enemy_groups_go_before_dead_friendly_ones() {
    let mut game = position(&[".OX..", "OX...", "X....", ".....", "....."], Stage::Placements(Color::Black));
    play(&mut game, &["A5"]);
    assert_eq!(rows(&game), ["X.X..", ".X...", "X....", ".....", "....."]);
}

/// Black B2 joins B1 and B3 into Black's only group: it is dead and removed, three stones where
/// there were two. The board changed, so the move is legal; Black then has no stone left, and
/// after White's reply no placement (every lone stone would be dead at once and, on a board at
/// least two points wide and high, cut no White link): White wins.
#[test]
fn removing_ones_own_only_group_is_legal_because_the_board_changed() {
    let mut game = position(&["...O", ".X..", "....", ".X.O"], Stage::Placements(Color::Black));
    play(&mut game, &["B2"]);
    assert_eq!(rows(&game), ["...O", "....", "....", "...O"]);
    assert!(!game.is_over());
    play(&mut game, &["A1"]);
    assert_eq!(game.finish(), Some(Finish::NoLegalPlacement { loser: Color::Black }));
}

/// On a board at least two points wide and high, a player without stones has no legal placement:
/// a lone stone cuts no enemy link (the worked example below). On a strip one point wide, which the
/// engine plays though the rules' boards are wider, it can: Black B1 leaves White's A1 and C1 no
/// empty neighbour, both die, then Black's lone stone does too, and the board changed.
#[test]
fn on_a_strip_a_lone_stone_can_cut_the_last_link() {
    let board = Board::from_diagram(&["O.O"]).unwrap();
    let mut game =
        Lifeline::set_up(LifelineRules::default(), board, Stage::Placements(Color::Black)).unwrap();
    assert_eq!(legal_moves(&game), [turn(&game, "B1")]);
    play(&mut game, &["B1"]);
    assert_eq!(rows(&game), ["..."]);
    assert_eq!(game.finish(), Some(Finish::NoLegalPlacement { loser: Color::White }));
}

/// A first turn is one move, the unordered pair of its points: on the empty 3x3 board the legal
/// first turns are the 36 pairs less the 12 adjacent ones.
#[test]
fn a_first_turn_is_one_unordered_pair() {
    let mut game = new_game(3, 3);
    let (a, c) = (turn(&game, "A1"), turn(&game, "C3"));
    let (Turn::Place(a), Turn::Place(c)) = (a, c) else { panic!() };
    assert_eq!(Pair::new(a, c), Pair::new(c, a));
    assert_eq!(turn(&game, "A1+C3"), turn(&game, "c3+a1"));
    let moves = legal_moves(&game);
    assert_eq!(moves.len(), 24);
    let g = game.board().geometry();
    let adjacent = |p, q| {
        let ((x1, y1), (x2, y2)) = (g.coords(p), g.coords(q));
        x1.abs_diff(x2) + y1.abs_diff(y2) == 1
    };
    assert!(
        moves.iter().all(|m| matches!(m, Turn::Pair(pair) if !adjacent(pair.points()[0], pair.points()[1])))
    );
    // both stones stay: each reaches the other through the empty points
    play(&mut game, &["C3+A1"]);
    assert_eq!(rows(&game), ["..X", "...", "X.."]);
    assert_eq!(game.stage(), Stage::WhiteFirstTurn { swap_available: true });
    // a single stone on a first turn, a pair after it, and one point twice are refused
    assert_eq!(refused(&game, "B2"), Illegal::PairExpected);
    assert_eq!(refused(&game, "B2+B2"), Illegal::PairNotDistinct);
    assert_eq!(refused(&game, "A1+B2"), Illegal::Occupied(vertex("A1")));
    play(&mut game, &["A3+C1"]);
    assert_eq!(refused(&game, "B2+B1"), Illegal::PairAfterFirstTurn);
}

/// On the empty board two adjacent stones form one group, their colour's only one: it is dead
/// and removed at once, the board is as it was, and the turn is refused.
#[test]
fn an_adjacent_pair_on_the_empty_board_changes_nothing() {
    let game = new_game(5, 5);
    let why = refused(&game, "C3+C4");
    assert_eq!(why, Illegal::NullTurn { pair: true });
    assert_eq!(
        why.to_string(),
        "both stones would be dead at once and nothing else removed: this turn changes nothing"
    );
}

/// Black A1+C1, then White A2+B1 on 3x3. Both White stones are down before anything is removed:
/// Black's A1 then has no empty neighbour, and C1 reaches no other Black group, so both Black
/// groups are dead and go; White's A2 and B1 reach each other through A1 and B2 and live. Had
/// removals followed the first stone, A2 alone would have been White's only group and died at
/// once. Black, left without stones, has no legal placement: White, the last to place, wins.
#[test]
fn a_pairs_removals_wait_for_both_stones_and_the_player_without_a_placement_loses() {
    let mut game = new_game(3, 3);
    play(&mut game, &["A1+C1", "A2+B1"]);
    assert_eq!(rows(&game), ["...", "O..", ".O."]);
    assert!(game.is_over());
    assert_eq!(game.finish(), Some(Finish::NoLegalPlacement { loser: Color::Black }));
    let result = game.outcome().unwrap();
    assert_eq!(result.winner, Some(Color::White));
    assert_eq!(result.to_string(), "W+");
    assert!(legal_moves(&game).is_empty());
    assert_eq!(refused(&game, "B2"), Illegal::GameOver);
    let score = game.score();
    assert_eq!(score.result(), result);
    assert_eq!(score.totals_line(), "no points: the last player to place wins");
    assert_eq!(
        score.to_string(),
        "Black: 0 stones in 0 groups\nWhite: 2 stones in 2 groups\n\
         White wins: Black has no legal placement (the last player to place wins)\n"
    );
}

/// The swap: only on White's first turn, once; it leaves the board and the side to move and uses
/// the swap up, and White then places its pair. With `swap=false` there is none.
#[test]
fn the_swap_keeps_the_board_and_is_used_once_on_whites_first_turn() {
    let mut game = new_game(5, 5);
    assert_eq!(refused(&game, "swap"), Illegal::SwapOutsideWhitesFirstTurn);
    play(&mut game, &["C2+C4"]);
    let before = (rows(&game), game.to_move(), game.hash());
    assert_eq!(legal_moves(&game).last(), Some(&Turn::Swap));
    play(&mut game, &["swap"]);
    assert_eq!((rows(&game), game.to_move()), (before.0, before.1));
    assert_ne!(game.hash(), before.2, "the swap's use is part of the state");
    assert_eq!(game.stage(), Stage::WhiteFirstTurn { swap_available: false });
    assert!(!legal_moves(&game).contains(&Turn::Swap));
    let why = refused(&game, "swap");
    assert_eq!(
        (why.clone(), why.to_string().as_str()),
        (Illegal::SwapAlreadyUsed, "the swap is already used: White now makes its first turn")
    );
    assert_eq!(refused(&game, "B3"), Illegal::PairExpected);
    play(&mut game, &["B3+D3"]);
    assert_eq!(refused(&game, "swap"), Illegal::SwapOutsideWhitesFirstTurn);

    let mut off = Lifeline::new(rules(false, true), Geometry::square(5).unwrap());
    play(&mut off, &["C2+C4"]);
    assert_eq!(off.stage(), Stage::WhiteFirstTurn { swap_available: false });
    assert!(!legal_moves(&off).contains(&Turn::Swap));
    assert_eq!(refused(&off, "swap"), Illegal::NoSwapRule);
}

/// There is no pass: the trait's pass is never legal, and says why.
#[test]
fn there_is_no_passing() {
    let mut game = new_game(3, 3);
    for first_turn in ["A1+C1", "A2+B1"] {
        let why = refused(&game, "pass");
        assert_eq!(
            why.to_string(),
            "there is no passing in Square Lifeline: the player with no legal placement loses"
        );
        assert!(!legal_moves(&game).contains(&Lifeline::PASS));
        play(&mut game, &[first_turn]);
    }
    assert!(game.is_over());
    assert_eq!(game.check(Lifeline::PASS), Err(Illegal::NoPassing), "after the game too");
}

/// The shortest own-position draw on 3x3, a Lifeline "ko":
///
/// ```text
///  1. Black A3+C3   X.X   the two stones reach each other through B3
///                   ...
///                   ...
///  2. White A2+B1   X.X   A2 and B1 reach each other through A1
///                   O..
///                   .O.
///  3. Black B2      X.X   B3 links A3, C3 and B2; A1 still links White
///                   OX.
///                   .O.
///  4. White B3      .OX   Black's A3 has no empty neighbour left: dead, removed; White's B3
///                   OX.   then reaches A2 through A3 and lives
///                   .O.
///  5. Black A3      X.X   White's B3 has no empty neighbour: dead, removed; A3 reaches C3 and
///                   OX.   B2 through B3 and lives: the board Black left at turn 3, a draw
///                   .O.
/// ```
#[test]
fn recreating_ones_own_end_of_turn_board_draws() {
    let mut game = new_game(3, 3);
    play(&mut game, &["A3+C3", "A2+B1", "B2"]);
    let after_three = rows(&game);
    assert_eq!(after_three, ["X.X", "OX.", ".O."]);
    play(&mut game, &["B3"]);
    assert_eq!(rows(&game), [".OX", "OX.", ".O."]);
    play(&mut game, &["A3"]);
    assert_eq!(rows(&game), after_three);
    assert_eq!(game.finish(), Some(Finish::OwnPositionDraw { player: Color::Black }));
    assert_eq!(game.outcome().map(|r| r.to_string()), Some("Draw".to_string()));
    assert!(game.score().to_string().ends_with(
        "Draw: Black's turn left the board as it was at the end of one of Black's earlier turns\n"
    ));
    assert!(legal_moves(&game).is_empty());
}

/// With `draw=none` the same line goes on and cycles: White B3 again brings back the position
/// after turn 4, hash and all, and the game never ends by itself.
#[test]
fn without_the_draw_the_game_cycles() {
    let mut game = Lifeline::new(rules(true, false), Geometry::square(3).unwrap());
    play(&mut game, &["A3+C3", "A2+B1", "B2", "B3"]);
    let after_four = (rows(&game), game.to_move(), game.hash());
    play(&mut game, &["A3"]);
    assert!(!game.is_over());
    play(&mut game, &["B3"]);
    assert_eq!((rows(&game), game.to_move(), game.hash()), after_four);
    assert!(!game.is_over());
    assert_eq!(game.score().result().to_string(), "Draw", "a game stopped before its end has no winner");
}

/// The worked 5x5 example of lifeline.md, exactly as written there.
#[test]
fn the_worked_5x5_example() {
    let mut game = new_game(5, 5);
    // Black's first turn places C2 and C4: two groups, joined by the empty path through C3
    play(&mut game, &["C2+C4"]);
    assert_eq!(rows(&game), [".....", "..X..", ".....", "..X..", "....."]);
    // White's first turn places B3 and D3: B2-B1-C1-D1-D2 (or C3) joins them
    play(&mut game, &["B3+D3"]);
    assert_eq!(rows(&game), [".....", "..X..", ".O.O.", "..X..", "....."]);
    // Black C3 joins C2, C3 and C4 into Black's only group; no White group is dead (they still
    // reach each other along row 1); then Black's only group is dead and all three stones go
    play(&mut game, &["C3"]);
    assert_eq!(rows(&game), [".....", ".....", ".O.O.", ".....", "....."]);
    assert!(!game.is_over(), "the board changed: the move is legal and the game goes on");
    // after any White move, every Black placement is a lone stone, dead at once, changing
    // nothing (checked by the reference too): Black has no legal placement, White wins
    for reply in legal_moves(&game) {
        let mut after = game.clone();
        after.play(reply).unwrap();
        assert_eq!(after.finish(), Some(Finish::NoLegalPlacement { loser: Color::Black }), "{reply:?}");
        assert_eq!(after.outcome().unwrap().to_string(), "W+");
        let mut model = reference::Position::new(5, 5, true, true);
        (model.cells, model.to_move, model.first_turn_made) = (cells(&after), 1, [true, true]);
        assert!((0..25).all(|p| model.cells[p] != 0 || model.play(reference::Move::Single(p)).is_none()));
    }
}

/// A set-up position may not hold a dead group (no turn leaves one), so a player with stones
/// has at least two groups; nor a king.
#[test]
fn set_ups_are_refused_where_no_turn_could_leave_them() {
    let set_up = |rows: &[&str]| {
        Lifeline::set_up(
            LifelineRules::default(),
            Board::from_diagram(rows).unwrap(),
            Stage::Placements(Color::Black),
        )
    };
    assert_eq!(set_up(&["X..", "...", "..O"]).unwrap_err(), SetupError::DeadGroup(vertex("A3")));
    let walled = set_up(&["XO.", "O..", "..O"]).unwrap_err();
    assert_eq!(
        walled.to_string(),
        "the group at A3 is dead (no path of empty points leads to another group of its colour): no turn leaves a dead group on the board"
    );
    assert_eq!(set_up(&["K..", "...", "..X"]).unwrap_err(), SetupError::Kings);
    assert!(set_up(&["X.X", "...", "O.O"]).is_ok());
}

/// The hash is the board, the side to move and the stage: a pair written in either order and a
/// transposed line give the same hash, the swap's use another.
#[test]
fn the_hash_follows_board_side_and_stage() {
    let mut one = new_game(4, 4);
    let mut two = new_game(4, 4);
    play(&mut one, &["A1+C3", "B4+D2", "A4"]);
    play(&mut two, &["C3+A1", "D2+B4", "A4"]);
    assert_eq!(one.hash(), two.hash());
    let mut swapped = new_game(4, 4);
    play(&mut swapped, &["A1+C3", "swap", "B4+D2", "A4"]);
    assert_eq!(swapped.hash(), one.hash(), "after White's first turn the swap's use no longer matters");
    assert_eq!(one.board().hash(), one.board().recomputed_hash());
}

/// Moves as text: `C3`, a pair in point order, `swap`, `pass`.
#[test]
fn turns_read_and_write_as_text() {
    let game = new_game(5, 5);
    for text in ["C3", "C4+C2", "swap", "pass"] {
        assert_eq!(game.turn_text(turn(&game, text)), text);
    }
    assert_eq!(game.turn_text(turn(&game, " c2+C4 ")), "C4+C2");
    assert!(game.parse_turn("F1").unwrap_err().to_string().contains("off the 5x5 board"));
    assert!(game.parse_turn("C2+").is_err());
}

/// The spec makes the game it names.
#[test]
fn a_spec_makes_its_game() {
    let spec: LifelineSpec = "lifeline:size=4x3,swap=false".parse().unwrap();
    let game = spec.new_game();
    assert_eq!(game.board().geometry(), Geometry::new(4, 3).unwrap());
    assert_eq!(game.rules(), rules(false, true));
    assert_eq!(spec.to_string(), "lifeline:swap=false,size=4x3");
}

// ------------------------------------------------------------------------------------------------
// Perft from the empty board.
// ------------------------------------------------------------------------------------------------

/// Perft from the empty board, depth 0 first: a first turn is one move (an unordered pair), the
/// swap is a move, a move that ends the game counts. Every number was computed by both the naive
/// reference above and `perft` (at these full depths, offline) and they agreed; the tests
/// recompute the engine's at every depth and the reference's at the shallower ones.
const PERFT: &[(&str, u32, u32, &[u64])] = &[
    ("lifeline", 3, 3, &[1, 24, 340, 1752, 6040, 14196, 24144, 31392, 29488, 20904]),
    ("lifeline:draw=none", 3, 3, &[1, 24, 340, 1752, 6040, 14196, 24696, 35112, 42904, 54864]),
    ("lifeline:swap=false", 3, 3, &[1, 24, 316, 1436, 4604, 9592, 14552, 16840, 12648]),
    ("lifeline", 4, 4, &[1, 96, 7044, 89468, 967200]),
    ("lifeline:swap=false", 4, 4, &[1, 96, 6948, 82520]),
    ("lifeline", 5, 5, &[1, 260, 57204, 1250140]),
    ("lifeline:swap=false", 5, 5, &[1, 260, 56944, 1193196]),
];

/// The deepest depth the engine (first) and the reference (second) recompute in the tests, per
/// board side (the engine's 5x5 depth 3 takes two seconds at the test profile's speed, the
/// reference's six); `perft_tables_in_full` recomputes every depth with both.
fn perft_depths(side: u32) -> (u32, u32) {
    match side {
        3 => (9, 7),
        4 => (4, 3),
        _ => (2, 2),
    }
}

/// Checks the engine's and the reference's perft against the table up to the given depths.
fn check_perft(depths: impl Fn(u32) -> (u32, u32)) {
    for &(text, width, height, expected) in PERFT {
        let mut spec: LifelineSpec = text.parse().unwrap();
        spec.size = Some(Geometry::new(width, height).unwrap());
        let game = spec.new_game();
        let (rules, (w, h)) = (spec.rules, (width as usize, height as usize));
        let model = reference::Position::new(w, h, rules.swap, rules.own_position_draw);
        let (engine_depth, reference_depth) = depths(width);
        for (depth, &n) in expected.iter().enumerate() {
            let depth = depth as u32;
            if depth <= engine_depth {
                assert_eq!(perft(&game, depth), n, "engine perft {text} {width}x{height} depth {depth}");
            }
            if depth <= reference_depth {
                assert_eq!(model.perft(depth), n, "reference perft {text} {width}x{height} depth {depth}");
            }
        }
    }
}

#[test]
fn perft_from_the_empty_board_matches_the_reference() {
    check_perft(perft_depths);
    assert_eq!(perft(&new_game(5, 5), 3), 1_250_140, "the engine's 5x5 depth 3, once");
}

/// Every number of the table by both (half a minute:
/// `cargo test -p variago-rules --test lifeline -- --ignored perft_tables_in_full`).
#[test]
#[ignore]
fn perft_tables_in_full() {
    check_perft(|_| (u32::MAX, u32::MAX));
}

// ------------------------------------------------------------------------------------------------
// Random games.
// ------------------------------------------------------------------------------------------------

/// Every move a position can be asked about: a stone on every point, every pair of points (one
/// point twice included), the swap and the pass.
fn candidates(game: &Lifeline) -> Vec<Turn> {
    let points: Vec<Point> = game.board().geometry().points().collect();
    let mut out: Vec<Turn> = points.iter().map(|&p| Turn::Place(p)).collect();
    for (i, &a) in points.iter().enumerate() {
        out.extend(points[i..].iter().map(|&b| Turn::pair(a, b)));
    }
    out.extend([Turn::Swap, Turn::Pass]);
    out
}

/// The invariants of a position reached by play, with the reference played alongside:
/// - no dead group is on the board (by the reference's own deadness test);
/// - `legal_moves` is exactly the set of candidates `check` accepts, and `play` refuses every
///   other candidate with the same reason and changes nothing;
/// - the legal moves are the reference's, the game is over exactly when there are none, and
///   its result is the reference's (a draw, or a win for the last player to place);
/// - the board hash is the one recomputed from scratch, and the board's empty list holds exactly
///   the empty points;
/// - the light move is legal.
fn check_position(game: &Lifeline, model: &reference::Position, context: &str) {
    let cells = cells(game);
    assert_eq!(cells, model.cells, "{context}: the board");
    for (i, &c) in cells.iter().enumerate() {
        assert!(c == 0 || !model.is_dead(&cells, i), "{context}: a dead group is left at {i}\n{game}");
    }
    let mut legal = legal_moves(game);
    let mut accepted = Vec::new();
    for t in candidates(game) {
        match game.check(t) {
            Ok(()) => accepted.push(t),
            Err(why) => {
                let mut copy = game.clone();
                assert_eq!(copy.play(t), Err(why), "{context}: {t:?}");
                assert_eq!(
                    (self::cells(&copy), copy.stage(), copy.hash()),
                    (cells.clone(), game.stage(), game.hash())
                );
            }
        }
    }
    let listed = legal.len();
    legal.sort();
    legal.dedup();
    accepted.sort();
    assert_eq!(legal.len(), listed, "{context}: a move listed twice");
    assert_eq!(legal, accepted, "{context}: legal_moves and check disagree\n{game}");
    let mut ours: Vec<reference::Move> = legal.iter().filter_map(|&t| to_reference(game, t)).collect();
    let mut theirs = model.legal_moves();
    ours.sort();
    theirs.sort();
    assert_eq!(ours, theirs, "{context}: the reference's legal moves differ\n{game}");
    assert_eq!(game.is_over(), legal.is_empty(), "{context}");
    if let Some(result) = game.outcome() {
        let winner = (!model.drawn).then(|| game.to_move().opponent());
        assert_eq!(result.winner, winner, "{context}");
    }
    assert_eq!(game.board().hash(), game.board().recomputed_hash(), "{context}");
    let mut empties = game.board().empties().to_vec();
    empties.sort();
    let g = game.board().geometry();
    assert_eq!(
        empties,
        g.points().filter(|&p| game.board().color(p).is_none()).collect::<Vec<_>>(),
        "{context}"
    );
    if !game.is_over() {
        let light = game.light_move(&mut SmallRng::seed_from_u64(cells.len() as u64));
        assert_eq!(game.check(light), Ok(()), "{context}: the light move {light:?}");
    }
}

proptest! {
    #![proptest_config(Config { cases: 40, ..Config::default() })]

    /// Random legal games on boards 2x2 to 5x5 under every option, checked after every move.
    #[test]
    fn random_games_keep_the_invariants(
        width in 2u32..=5,
        height in 2u32..=5,
        swap: bool,
        draw: bool,
        seed: u64,
    ) {
        let mut game = Lifeline::new(rules(swap, draw), Geometry::new(width, height).unwrap());
        let mut model = reference::Position::new(width as usize, height as usize, swap, draw);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut played = Vec::new();
        while played.len() < 40 {
            let context = format!("{width}x{height} swap={swap} draw={draw} seed {seed}, after {}", played.join(" "));
            check_position(&game, &model, &context);
            if game.is_over() {
                break;
            }
            let moves = legal_moves(&game);
            let t = moves[rng.random_range(0..moves.len())];
            played.push(game.turn_text(t));
            game.play(t).unwrap();
            model = model.play(to_reference(&game, t).unwrap()).expect("the reference accepts the move");
        }
    }
}

/// Light playouts play legal moves (the same position as `play` of that move), fill one of the
/// mover's own eyes only when every legal placement is one, and end within their cap.
#[test]
fn light_playouts_play_legal_moves_and_end() {
    for (side, games) in [(3, 100), (5, 40), (9, 6)] {
        for draw in [true, false] {
            let start = Lifeline::new(rules(true, draw), Geometry::square(side).unwrap());
            let mut rng = SmallRng::seed_from_u64(u64::from(side));
            let cap = start.playout_cap();
            for _ in 0..games {
                let mut game = start.clone();
                for _ in 0..cap {
                    if game.is_over() {
                        break;
                    }
                    let before = game.clone();
                    let t = game.play_light_move(&mut rng);
                    let mut replay = before.clone();
                    assert_eq!(replay.play(t), Ok(()), "{t:?}\n{before}");
                    assert_eq!((rows(&replay), replay.hash()), (rows(&game), game.hash()));
                    if let Turn::Place(p) = t
                        && before.board().is_eye(p, before.to_move())
                    {
                        let mover = before.to_move();
                        let only_eyes = legal_moves(&before)
                            .iter()
                            .all(|&m| matches!(m, Turn::Place(q) if before.board().is_eye(q, mover)));
                        assert!(only_eyes, "an own eye filled with other placements legal\n{before}");
                    }
                }
                let mut again = start.clone();
                assert!(light_playout(&mut again, &mut rng, cap) <= cap);
            }
        }
    }
}

/// The search's playout step takes a placement that removes enemy stones when it sees one: on the
/// 3x3 cycle's position (docs/lab-lifeline.md) White's B3 kills Black's A3, and with four empty
/// points the step looks at all of them.
#[test]
fn the_playout_step_takes_a_kill_it_sees() {
    let mut game = Lifeline::new(rules(true, false), Geometry::square(3).unwrap());
    play(&mut game, &["A3+C3", "A2+B1", "B2"]);
    for seed in 0..20 {
        let mut trial = game.clone();
        let played = trial.play_playout_move(&mut SmallRng::seed_from_u64(seed));
        assert_eq!(played, turn(&game, "B3"), "seed {seed}");
    }
}

/// ... and a placement that kills only the mover's own stones is left for a safe one: in
/// lifeline.md's worked example Black's C3 joins Black's stones into its only group, which dies.
#[test]
fn the_playout_step_avoids_killing_its_own_stones() {
    let mut game = new_game(5, 5);
    play(&mut game, &["C2+C4", "B3+D3"]);
    for seed in 0..40 {
        let mut trial = game.clone();
        let played = trial.play_playout_move(&mut SmallRng::seed_from_u64(seed));
        assert_ne!(played, turn(&game, "C3"), "seed {seed}");
        assert!(trial.board().stones(Color::Black) > 0, "seed {seed}");
    }
}
