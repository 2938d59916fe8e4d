//! Galice / Alice Go (shared/rules/galice.md): a position for every clause and every precise reading,
//! perft tables cross-checked with a naive model written here, notation, diagram and record round
//! trips, and property tests over random games.

use std::collections::BTreeSet;

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::Config;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use variago_rules::galice::{
    Action, DiagramError, Galice, NotationError, Record, RecordError, Setup, Side, Spot, Stage, Turn,
    parse_actions,
};
use variago_rules::perft::perft;
use variago_rules::playout::light_playout;
use variago_rules::{Color, Ending, Game, HalfPoints, Illegal, ScoreSheet};

// ------------------------------------------------------------------------------------------------
// Helpers.
// ------------------------------------------------------------------------------------------------

/// A position from seven rows `LLLLLLL RRRRRRR` (row 1 first; `x` black, `o` white, `.` empty)
/// and a who-moves line; the rows go through the tolerant diagram reader.
fn position(rows: [&str; 7], who: &str) -> Galice {
    let text: String = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let (left, right) = row.split_once(' ').expect("two boards");
            format!("{left}{}{right}\n", i + 1)
        })
        .collect();
    Galice::from_diagram(&format!("{text}{who}\n")).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn spot(text: &str) -> Spot {
    text.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn turn(text: &str) -> Turn {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Plays turns that must be legal.
fn play(game: &mut Galice, turns: &[&str]) {
    for &t in turns {
        if let Err(why) = game.play(turn(t)) {
            panic!("{t} refused: {why}\n{game}");
        }
    }
}

/// The reason a turn is refused; checks that `play` refuses it the same way and changes nothing.
fn refused(game: &Galice, text: &str) -> Illegal {
    let t = turn(text);
    let why = game.check(t).expect_err(text);
    let mut copy = game.clone();
    assert_eq!(copy.play(t), Err(why.clone()), "{text}");
    assert_eq!(&copy, game, "a refused turn changed the position");
    why
}

fn legal(game: &Galice) -> Vec<Turn> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
}

fn stone(game: &Galice, at: &str) -> Option<Color> {
    game.stone(spot(at))
}

const EMPTY: &str = "....... .......";

// ------------------------------------------------------------------------------------------------
// A naive model of the rules, written from galice.md alone: a plain array of both boards, flood
// fills for groups, "remove the groups without liberties" read globally over both boards, whole
// positions kept for the ko. It shares nothing with the engine but the output types.
// ------------------------------------------------------------------------------------------------

mod model {
    use variago_rules::Color;
    use variago_rules::galice::{Spot, Turn};

    pub const N: usize = 98;
    const W: usize = 7;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Stage {
        Setup,
        Choice,
        FirstDrop,
        /// The mover: 1 black, 2 white.
        Play(u8),
    }

    /// A position: `cells[i]` 0 empty, 1 black, 2 white; `i = board * 49 + (row - 1) * 7 + column`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Model {
        pub cells: [u8; N],
        pub stage: Stage,
        pub passes: u8,
        /// The stone the swap-back restriction protects.
        pub barred: Option<usize>,
        /// The position no turn may recreate.
        pub ko: Option<[u8; N]>,
    }

    fn twin(i: usize) -> usize {
        (i + 49) % N
    }

    fn neighbours(i: usize) -> Vec<usize> {
        let (base, j) = (i / 49 * 49, i % 49);
        let (x, y) = (j % W, j / W);
        let mut out = Vec::new();
        if x > 0 {
            out.push(base + j - 1);
        }
        if x + 1 < W {
            out.push(base + j + 1);
        }
        if y > 0 {
            out.push(base + j - W);
        }
        if y + 1 < W {
            out.push(base + j + W);
        }
        out
    }

    /// The group through `i`, marked in `seen`, and whether it has a liberty.
    fn group(cells: &[u8; N], i: usize, seen: &mut [bool; N]) -> (Vec<usize>, bool) {
        let color = cells[i];
        let mut stones = vec![i];
        seen[i] = true;
        let mut k = 0;
        let mut liberty = false;
        while k < stones.len() {
            for n in neighbours(stones[k]) {
                if cells[n] == 0 {
                    liberty = true;
                } else if cells[n] == color && !seen[n] {
                    seen[n] = true;
                    stones.push(n);
                }
            }
            k += 1;
        }
        (stones, liberty)
    }

    /// Whether every group on both boards has a liberty.
    fn all_have_liberties(cells: &[u8; N]) -> bool {
        let mut seen = [false; N];
        (0..N).all(|i| cells[i] == 0 || seen[i] || group(cells, i, &mut seen).1)
    }

    /// Removes every group of `color` without liberties, on both boards; returns the points freed.
    fn remove_dead(cells: &mut [u8; N], color: u8) -> Vec<usize> {
        let mut seen = [false; N];
        let mut dead = Vec::new();
        for i in 0..N {
            if cells[i] == color && !seen[i] {
                let (stones, liberty) = group(cells, i, &mut seen);
                if !liberty {
                    dead.extend(stones);
                }
            }
        }
        for &i in &dead {
            cells[i] = 0;
        }
        dead
    }

    /// An own eye as the light playouts see it: every neighbour is `color`'s (or the edge), and
    /// the diagonal points hold at most one opponent stone, none when the point is on the edge.
    fn is_eye(cells: &[u8; N], i: usize, color: u8) -> bool {
        if cells[i] != 0 || neighbours(i).iter().any(|&n| cells[n] != color) {
            return false;
        }
        let (base, j) = (i / 49 * 49, i % 49);
        let (x, y) = ((j % W) as i32, (j / W) as i32);
        let (mut bad, mut edge) = (0, false);
        for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
            let (nx, ny) = (x + dx, y + dy);
            if !(0..W as i32).contains(&nx) || !(0..W as i32).contains(&ny) {
                edge = true;
            } else if cells[base + (ny * W as i32 + nx) as usize] == 3 - color {
                bad += 1;
            }
        }
        bad + edge as u32 <= 1
    }

    fn code(c: Color) -> u8 {
        c as u8 + 1
    }

    impl Model {
        pub fn new(cells: [u8; N], stage: Stage) -> Self {
            Model { cells, stage, passes: 0, barred: None, ko: None }
        }

        pub fn mover(&self) -> u8 {
            match self.stage {
                Stage::Setup => 1,
                Stage::Choice | Stage::FirstDrop => 2,
                Stage::Play(c) => c,
            }
        }

        fn count(&self, color: u8) -> usize {
            self.cells.iter().filter(|&&c| c == color).count()
        }

        /// The position after `turn`, or `None` if the turn is illegal.
        pub fn play(&self, turn: Turn) -> Option<Model> {
            if self.passes >= 2 {
                return None;
            }
            let next_stage = match self.stage {
                Stage::Play(c) => Stage::Play(3 - c),
                _ => Stage::Play(1),
            };
            match (self.stage, turn) {
                (Stage::Setup, Turn::SetupStone { color, at }) => {
                    let due = if self.count(1) < 3 { 1 } else { 2 };
                    let at = at.index();
                    if code(color) != due || self.cells[at] != 0 {
                        return None;
                    }
                    let mut next = self.clone();
                    next.cells[at] = due;
                    if !all_have_liberties(&next.cells) {
                        return None;
                    }
                    if next.count(1) == 3 && next.count(2) == 2 {
                        next.stage = Stage::Choice;
                    }
                    Some(next)
                }
                (Stage::Choice, Turn::Choose(_)) => {
                    Some(Model { stage: Stage::FirstDrop, ko: Some(self.cells), ..self.clone() })
                }
                (Stage::FirstDrop | Stage::Play(_), Turn::Pass) => Some(Model {
                    stage: next_stage,
                    passes: self.passes + 1,
                    barred: None,
                    ko: Some(self.cells),
                    cells: self.cells,
                }),
                (Stage::FirstDrop, Turn::Drop(d)) => self.turn(None, Some(d.index()), next_stage),
                (Stage::Play(_), Turn::Swap { from, drop }) => {
                    self.turn(Some(from.index()), drop.map(Spot::index), next_stage)
                }
                _ => None,
            }
        }

        fn turn(&self, from: Option<usize>, drop: Option<usize>, next_stage: Stage) -> Option<Model> {
            let me = self.mover();
            let opponent = 3 - me;
            let mut cells = self.cells;
            let mut dest = None;
            let mut gone = false;
            if let Some(f) = from {
                let swappable = |i: usize| cells[i] != 0 && cells[twin(i)] == 0 && self.barred != Some(i);
                if !swappable(f) {
                    return None;
                }
                if cells[f] != me && (0..N).any(|i| cells[i] == me && swappable(i)) {
                    return None;
                }
                cells[twin(f)] = cells[f];
                cells[f] = 0;
                dest = Some(twin(f));
                gone |= remove_dead(&mut cells, opponent).contains(&twin(f));
            }
            if let Some(d) = drop {
                if cells[d] != 0 {
                    return None;
                }
                cells[d] = me;
                let freed = remove_dead(&mut cells, opponent);
                gone |= dest.is_some_and(|t| freed.contains(&t));
            }
            let freed = remove_dead(&mut cells, me);
            gone |= dest.is_some_and(|t| freed.contains(&t));
            if !(0..N).any(|i| cells[i] != 0 && cells[twin(i)] == 0) {
                return None;
            }
            if self.ko == Some(cells) {
                return None;
            }
            Some(Model {
                cells,
                stage: next_stage,
                passes: 0,
                barred: dest.filter(|_| !gone),
                ko: Some(self.cells),
            })
        }

        /// Whether `turn` is one the light playouts may play: legal; in a turn, no stone of the
        /// mover swapped onto the mover's eye, no drop onto one (on the boards after the swap),
        /// and no stone of the mover lost at the end of the turn. Any legal setup move or choice.
        pub fn light_ok(&self, turn: Turn) -> bool {
            let Some(next) = self.play(turn) else { return false };
            let me = self.mover();
            let (from, drop) = match turn {
                Turn::Swap { from, drop } => (Some(from.index()), drop.map(Spot::index)),
                Turn::Drop(d) => (None, Some(d.index())),
                Turn::Pass | Turn::SetupStone { .. } | Turn::Choose(_) => return true,
            };
            let mut cells = self.cells;
            if let Some(f) = from {
                if cells[f] == me && is_eye(&cells, twin(f), me) {
                    return false;
                }
                cells[twin(f)] = cells[f];
                cells[f] = 0;
                remove_dead(&mut cells, 3 - me);
            }
            if drop.is_some_and(|d| is_eye(&cells, d, me)) {
                return false;
            }
            let own = |cells: &[u8; N]| cells.iter().filter(|&&c| c == me).count();
            own(&next.cells) >= own(&self.cells) + drop.is_some() as usize
        }

        /// Every legal move, found by trying every move there is.
        pub fn moves(&self) -> BTreeSetOfTurns {
            let mut candidates = vec![Turn::Pass, Turn::Choose(Color::Black), Turn::Choose(Color::White)];
            for s in Spot::all() {
                candidates.push(Turn::Drop(s));
                for color in [Color::Black, Color::White] {
                    candidates.push(Turn::SetupStone { color, at: s });
                }
                if self.cells[s.index()] != 0 && self.cells[twin(s.index())] == 0 {
                    candidates.push(Turn::Swap { from: s, drop: None });
                    candidates.extend(Spot::all().map(|d| Turn::Swap { from: s, drop: Some(d) }));
                }
            }
            candidates.into_iter().filter(|&t| self.play(t).is_some()).collect()
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = self.moves();
            if depth == 1 {
                return moves.len() as u64;
            }
            moves.into_iter().map(|t| self.play(t).expect("legal").perft(depth - 1)).sum()
        }
    }

    pub type BTreeSetOfTurns = std::collections::BTreeSet<Turn>;
}

use model::Model;

/// The model of an engine position without history (a diagram's).
fn model_of(game: &Galice) -> Model {
    let mut cells = [0; model::N];
    for s in Spot::all() {
        cells[s.index()] = game.stone(s).map_or(0, |c| c as u8 + 1);
    }
    let stage = match game.stage() {
        Stage::Setup => model::Stage::Setup,
        Stage::Choice => model::Stage::Choice,
        Stage::FirstDrop => model::Stage::FirstDrop,
        Stage::Play(c) => model::Stage::Play(c as u8 + 1),
    };
    Model::new(cells, stage)
}

/// Whether the engine and the model hold the same stones, stage, passes and restriction.
fn assert_same(game: &Galice, model: &Model, context: &str) {
    let ours = model_of(game);
    assert_eq!(ours.cells, model.cells, "stones differ\n{game}{context}");
    assert_eq!(ours.stage, model.stage, "stage differs\n{context}");
    assert_eq!(game.passes(), model.passes, "passes differ\n{context}");
    assert_eq!(game.barred().map(Spot::index), model.barred, "swap-back differs\n{game}{context}");
}

// ------------------------------------------------------------------------------------------------
// A turn: swap, captures, drop, suicide.
// ------------------------------------------------------------------------------------------------

/// White B2 in the right board has one liberty, B3; Black b3 (left) can swap onto it.
const B2_IN_ATARI: [&str; 7] =
    ["....... .x.....", "....... xox....", ".x..... .......", EMPTY, EMPTY, EMPTY, "......x ......."];

#[test]
fn a_swap_moves_a_stone_to_its_twin_and_captures() {
    let mut game = position(B2_IN_ATARI, "Black to move");
    play(&mut game, &["bB3 --"]);
    assert_eq!(stone(&game, "b3"), None);
    assert_eq!(stone(&game, "B3"), Some(Color::Black));
    assert_eq!(stone(&game, "B2"), None, "captured by the swap");
    assert_eq!(game.stage(), Stage::Play(Color::White));
}

#[test]
fn a_drop_captures_and_may_go_on_either_board() {
    let mut game = position(B2_IN_ATARI, "Black to move");
    play(&mut game, &["gG7 B3"]);
    assert_eq!(stone(&game, "G7"), Some(Color::Black));
    assert_eq!(stone(&game, "B3"), Some(Color::Black));
    assert_eq!(stone(&game, "B2"), None, "captured by the drop");
    let mut game = position(B2_IN_ATARI, "Black to move");
    play(&mut game, &["gG7 g7"]);
    assert_eq!(stone(&game, "g7"), Some(Color::Black), "the drop may fill the vacated point");
    assert_eq!(stone(&game, "B2"), Some(Color::White));
}

#[test]
fn twin_points_are_not_liberties() {
    // B2's twin b2 is empty, yet the swap onto its last liberty B3 captures it
    let mut game = position(B2_IN_ATARI, "Black to move");
    assert_eq!(stone(&game, "b2"), None);
    play(&mut game, &["bB3 --"]);
    assert_eq!(stone(&game, "B2"), None);
    // and no position holds a group whose only free neighbour would be its twin
    let text = "ox.....1.......\nx......2.......\n.......3.......\n.......4.......\n.......5.......\n\
                .......6.......\n.......7.......\nBlack to move\n";
    assert_eq!(Galice::from_diagram(text), Err(DiagramError::NoLiberties(spot("a1"))));
}

/// Black a1 can swap into the corner A1 of the right board, where White A2 and B1 take every
/// liberty; B1's last liberty is B2.
const CORNER: [&str; 7] = ["x...... .ox....", "....... o......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY];

#[test]
fn own_groups_without_liberties_wait_for_the_end_of_the_turn_so_a_drop_can_rescue_them() {
    let mut game = position(CORNER, "Black to move");
    play(&mut game, &["aA1 B2"]);
    assert_eq!(stone(&game, "B1"), None, "the drop captured B1");
    assert_eq!(stone(&game, "A1"), Some(Color::Black), "A1 survived: the capture gave it a liberty");
    assert_eq!(stone(&game, "B2"), Some(Color::Black));
}

#[test]
fn suicide_is_allowed_and_resolved_at_the_end_of_the_turn() {
    // the swapped stone dies at the end of the turn
    let mut game = position(CORNER, "Black to move");
    play(&mut game, &["aA1 --"]);
    assert_eq!((stone(&game, "a1"), stone(&game, "A1")), (None, None));
    assert_eq!(game.barred(), None, "the swapped stone is gone");
    // Black B1 and A2 (right board) have their last liberty at A1: dropping there kills all three
    let mut game = position(
        ["....... .xo....", "....... xo.....", "....... o......", EMPTY, EMPTY, EMPTY, "x...... ......."],
        "Black to move",
    );
    play(&mut game, &["aA7 A1"]);
    for at in ["A1", "B1", "A2"] {
        assert_eq!(stone(&game, at), None, "the black group A1 B1 A2 committed suicide");
    }
    assert_eq!(stone(&game, "A7"), Some(Color::Black));
    assert_eq!(game.barred(), Some(spot("A7")));
}

// ------------------------------------------------------------------------------------------------
// Forced enemy swaps and the swap-back restriction.
// ------------------------------------------------------------------------------------------------

/// White's stones b1/B1 and Black's a1/A1 have their twins taken; only Black c3 can be swapped.
const LOCKED: [&str; 7] = ["xo..... xo.....", EMPTY, "..x.... .......", EMPTY, EMPTY, EMPTY, EMPTY];

#[test]
fn with_no_own_stone_to_swap_the_mover_swaps_an_enemy_stone() {
    let game = position(LOCKED, "White to move");
    assert_eq!(game.swappable(), (vec![spot("c3")], true));
    assert_eq!(refused(&game, "bB1 --"), Illegal::TwinOccupied(spot("B1")));
    assert_eq!(refused(&game, "dD4 --"), Illegal::NothingToSwap(spot("d4")));
    let moves = legal(&game);
    assert!(
        moves.iter().all(|t| matches!(t, Turn::Swap { from, .. } if *from == spot("c3")) || *t == Turn::Pass)
    );
    assert!(moves.contains(&turn("cC3 g7")));
    // Black, whose c3 is free, swaps its own stones only
    let game = position(LOCKED, "Black to move");
    assert_eq!(game.swappable(), (vec![spot("c3")], false));
    let game = position(B2_IN_ATARI, "Black to move");
    assert_eq!(refused(&game, "Bb2 --"), Illegal::EnemySwapNotForced);
}

#[test]
fn a_stone_barred_by_the_swap_back_restriction_counts_as_not_swappable() {
    let mut game = position(LOCKED, "White to move");
    play(&mut game, &["cC3 g7"]);
    assert_eq!(game.barred(), Some(spot("C3")));
    // Black's only stone with an empty twin is C3, barred: Black swaps a White stone instead
    assert_eq!(refused(&game, "Cc3 --"), Illegal::SwapBack);
    assert_eq!(game.swappable(), (vec![spot("g7")], true));
    play(&mut game, &["gG7 --"]);
    // now the restriction protects the White stone Black swapped, on G7
    assert_eq!(game.barred(), Some(spot("G7")));
    // White's own stones: b1 and B1 locked, G7 barred: White swaps Black's C3
    assert_eq!(game.swappable(), (vec![spot("C3")], true));
}

#[test]
fn the_swap_back_restriction_applies_to_the_opponents_own_swapped_stone() {
    let mut game = position(
        ["xo..... xo.....", EMPTY, EMPTY, "...o... .......", "....o.. .......", EMPTY, EMPTY],
        "White to move",
    );
    play(&mut game, &["dD4 --"]);
    assert_eq!(game.barred(), Some(spot("D4")));
    assert_eq!(game.swappable(), (vec![spot("e5")], true));
    assert_eq!(refused(&game, "Dd4 --"), Illegal::SwapBack);
    assert!(game.check(turn("eE5 --")).is_ok());
    // a pass lifts it
    play(&mut game, &["-----"]);
    assert_eq!(game.barred(), None);
}

#[test]
fn the_restriction_lapses_when_the_swapped_stone_is_captured_and_the_point_refilled() {
    // White's stones are locked (their twins taken); Black c3 is the only stone White may swap. On
    // C3 it meets White B3, D3, C2, C4 and dies at once (precise reading 5); White then drops its own
    // stone on C3: another stone, not barred
    let mut game = position(
        ["xo..... xo.....", "..x.... ..o....", ".xxx... .o.o...", "..x.... ..o....", EMPTY, EMPTY, EMPTY],
        "White to move",
    );
    assert_eq!(game.swappable(), (vec![spot("c3")], true));
    play(&mut game, &["cC3 C3"]);
    assert_eq!(stone(&game, "C3"), Some(Color::White));
    assert_eq!(stone(&game, "c3"), None);
    assert_eq!(game.barred(), None, "the stone White swapped is gone; C3 holds another stone");
    // Black has no own swap left: it may swap White's new C3 (which dies on c3 at once). Without a
    // drop that would leave both boards alike, hence no swap at all
    assert_eq!(game.swappable(), (vec![spot("C3")], true));
    assert_eq!(refused(&game, "Cc3 --"), Illegal::NoSwapLeft);
    assert!(game.check(turn("Cc3 e5")).is_ok());
}

#[test]
fn a_forced_enemy_swap_captures_the_moved_stone_and_spares_the_movers_groups() {
    // Black F7 and G6 (right) each have one liberty, G7; their twins are taken, so Black may only
    // swap a White stone. White g7 on G7 takes both last liberties but has none itself: it is
    // captured at once, and Black's stones survive (precise reading 5)
    let game = position(
        [EMPTY, EMPTY, EMPTY, EMPTY, "....... ......o", "......o .....ox", ".....oo ....ox."],
        "Black to move",
    );
    let (sources, enemy) = game.swappable();
    assert!(enemy && sources.contains(&spot("g7")), "{sources:?}");
    let mut after = game.clone();
    play(&mut after, &["gG7 --"]);
    assert_eq!(stone(&after, "G7"), None, "the moved white stone was captured at once");
    assert_eq!(stone(&after, "G6"), Some(Color::Black), "Black's stones survive");
    assert_eq!(stone(&after, "F7"), Some(Color::Black));
    assert_eq!(after.barred(), None);
}

#[test]
fn after_a_forced_enemy_swap_the_movers_group_without_liberties_dies_at_the_end_unless_rescued() {
    // Black G2-G3 (right) has one liberty, G1, and is locked; White g1 swapped onto G1 takes it and
    // keeps a liberty at F1
    let game = position(
        ["......o .......", "......o .....ox", "......o .....ox", "....... ......o", EMPTY, EMPTY, EMPTY],
        "Black to move",
    );
    let (sources, enemy) = game.swappable();
    assert!(enemy && sources.contains(&spot("g1")), "{sources:?}");
    let mut plain = game.clone();
    play(&mut plain, &["gG1 --"]);
    assert_eq!((stone(&plain, "G2"), stone(&plain, "G3")), (None, None), "no rescue: Black's group died");
    assert_eq!(stone(&plain, "G1"), Some(Color::White));
    assert_eq!(plain.barred(), Some(spot("G1")));
    // dropping on F1 captures G1 (its last liberty) and so rescues G2-G3
    let mut rescued = game.clone();
    play(&mut rescued, &["gG1 F1"]);
    assert_eq!(stone(&rescued, "G1"), None);
    assert_eq!((stone(&rescued, "G2"), stone(&rescued, "G3")), (Some(Color::Black), Some(Color::Black)));
    assert_eq!(rescued.barred(), None, "the swapped stone was captured");
}

// ------------------------------------------------------------------------------------------------
// The no-swap-left rule.
// ------------------------------------------------------------------------------------------------

#[test]
fn no_turn_may_leave_a_position_without_any_swap() {
    let game = position(["x...... .......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY], "Black to move");
    assert_eq!(refused(&game, "aA1 a1"), Illegal::NoSwapLeft);
    assert!(game.check(turn("aA1 --")).is_ok());
    assert!(game.check(turn("aA1 b2")).is_ok());
}

#[test]
fn the_no_swap_left_rule_applies_to_the_drop_only_first_turn_but_not_to_a_pass() {
    let game = position(
        ["x...... .......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY],
        "White to move (first turn: drop only)",
    );
    assert_eq!(refused(&game, "--- A1"), Illegal::NoSwapLeft);
    assert_eq!(refused(&game, "aA1 --"), Illegal::FirstTurnDropOnly);
    assert!(game.check(turn("--- b1")).is_ok());
    // a position without any swap: only a pass (precise reading 1: the pass is exempt from the
    // no-swap-left rule, and from the ko: after a pass the ko position is the current one, which a
    // second pass leaves as it is)
    let mut stuck = position(["x...... x......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY], "Black to move");
    assert_eq!(legal(&stuck), vec![Turn::Pass]);
    play(&mut stuck, &["-----"]);
    assert_eq!(stuck.ko_position(), Some(stuck.position_hash()));
    assert_eq!(legal(&stuck), vec![Turn::Pass]);
    play(&mut stuck, &["pass"]);
    assert!(stuck.is_over());
}

#[test]
fn a_diagram_carries_no_history() {
    // precise reading 7: a position reached by play has a ko position, a swap-back restriction and
    // passes; the same stones read from its diagram have none of them
    let mut game = position(B2_IN_ATARI, "Black to move");
    play(&mut game, &["bB3 --", "-----"]);
    play(&mut game, &["gG7 --"]);
    assert_eq!(game.barred(), Some(spot("G7")));
    assert!(game.ko_position().is_some());
    let mut passed = game.clone();
    play(&mut passed, &["-----"]);
    let fresh = Galice::from_diagram(&passed.diagram()).unwrap();
    assert_eq!(fresh.position_hash(), passed.position_hash());
    assert_eq!((fresh.barred(), fresh.ko_position(), fresh.passes()), (None, None, 0));
    assert_eq!(passed.passes(), 1);
    assert_ne!(fresh.hash(), passed.hash(), "the game hash covers the history");
}

// ------------------------------------------------------------------------------------------------
// The ko on the combined position.
// ------------------------------------------------------------------------------------------------

/// Black a1's twin A1 is White's eye (A2, B1 White, with liberties).
const EYE: [&str; 7] = ["x...... .o.....", "....... o......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY];

#[test]
fn a_turn_that_changes_nothing_is_legal_without_history_and_a_ko_after_a_pass() {
    // swap a1 into the eye, drop back on a1, the swapped stone dies: the boards are unchanged
    let game = position(EYE, "Black to move");
    let mut free = game.clone();
    play(&mut free, &["aA1 a1"]);
    assert_eq!(free.position_hash(), game.position_hash(), "nothing changed");
    // after White's pass, the position before White's turn is the current one
    let mut after_pass = position(EYE, "White to move");
    play(&mut after_pass, &["-----"]);
    assert_eq!(refused(&after_pass, "aA1 a1"), Illegal::TwinBoardKo);
    assert!(after_pass.check(turn("aA1 --")).is_ok(), "a turn that changes one board is no ko");
}

#[test]
fn a_null_turn_may_not_answer_a_null_turn() {
    // A1 is White's eye, G1 Black's. Black's null turn is legal; White's null turn would recreate
    // the position before Black's turn
    let mut game =
        position(["x.....o .o...x.", "....... o.....x", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY], "Black to move");
    play(&mut game, &["aA1 a1"]);
    assert_eq!(refused(&game, "gG1 g1"), Illegal::TwinBoardKo);
    assert!(game.check(turn("gG1 --")).is_ok());
}

// ------------------------------------------------------------------------------------------------
// Passes, the end, the score.
// ------------------------------------------------------------------------------------------------

#[test]
fn two_passes_end_the_game_and_a_pass_is_always_legal() {
    let mut game = position(B2_IN_ATARI, "White to move (first turn: drop only)");
    assert!(game.check(Turn::Pass).is_ok());
    play(&mut game, &["pass"]);
    assert_eq!(game.stage(), Stage::Play(Color::Black));
    assert!(!game.is_over());
    play(&mut game, &["-----"]);
    assert!(game.is_over());
    assert_eq!(legal(&game), vec![]);
    assert_eq!(refused(&game, "-----"), Illegal::GameOver);
    assert!(game.outcome().is_some());
}

/// A black wall down the left board's column d; a lone White stone on A1.
const WALL: [&str; 7] = [
    "...x... o......",
    "...x... .......",
    "...x... .......",
    "...x... .......",
    "...x... .......",
    "...x... .......",
    "...x... .......",
];

#[test]
fn each_board_is_scored_alone_and_equal_totals_draw() {
    // left: a black wall on column d makes both sides Black's (42 points); right: a lone White
    // stone owns the other 48 points of its board. Were regions to connect across the boards, the
    // left regions would touch White and the right one Black.
    let game = position(WALL, "Black to move");
    let score = game.score();
    assert_eq!(score.totals(), [HalfPoints::points(49), HalfPoints::points(49)]);
    assert_eq!(score.komi(), HalfPoints(0));
    assert_eq!(score.result().winner, None);
    assert_eq!(score.result().to_string(), "Draw");
    assert_eq!(
        score.to_string(),
        "Black: left 7 stones + 42 territory, right 0 stones + 0 territory = 49\n\
         White: left 0 stones + 0 territory, right 1 stones + 48 territory = 49\n"
    );
    let mut ended = game.clone();
    play(&mut ended, &["-----", "-----"]);
    let result = ended.outcome().expect("over");
    assert_eq!((result.winner, result.ending), (None, Ending::Score(HalfPoints(0))));
    // an empty right board is nobody's
    let game =
        position(WALL.map(|row| row.replace('o', ".")).each_ref().map(String::as_str), "Black to move");
    assert_eq!(game.score().totals(), [HalfPoints::points(49), HalfPoints::points(0)]);
    assert_eq!(game.score().result().to_string(), "B+49");
}

/// Black's corner a1 and White's g1-g2 on the left board, both open to a middle region both touch;
/// one White stone on the right board's G7.
const CORNERS: [&str; 7] = [
    ".x...o. .......",
    "xx...o. .......",
    ".....oo .......",
    "....... .......",
    "....... .......",
    "....... .......",
    "....... ......o",
];

#[test]
fn owners_cover_both_boards_each_counted_alone() {
    // worked by hand from the rules' area count: on the left, a1 is bordered by Black's b1 and a2
    // only, g1-g2 by White's f1, f2 and g3 only; the other 36 empty points form one region that
    // touches both colours (c1 next to b1, e1 next to f1) and is no one's. On the right, White's
    // G7 borders the 48 empty points: all White's, A1 too, though a1 is Black's (the twin is not
    // a neighbour, and regions never cross).
    let game = position(CORNERS, "Black to move");
    let expected = [
        "xx...oo", "xx...oo", ".....oo", ".......", ".......", ".......", ".......", // left
        "ooooooo", "ooooooo", "ooooooo", "ooooooo", "ooooooo", "ooooooo", "ooooooo", // right
    ];
    let mut owners = Vec::new();
    game.owners(&mut owners);
    assert_eq!(owners.len(), 98);
    assert_eq!(owners, drawn_owners(&expected));
    // the order is Spot::index: a1 first, then row by row, then the right board from A1
    assert_eq!(spot("a1").index(), 0);
    assert_eq!(
        (owners[spot("g1").index()], owners[spot("a2").index()]),
        (Some(Color::White), Some(Color::Black))
    );
    assert_eq!(
        (owners[spot("A1").index()], owners[spot("G7").index()]),
        (Some(Color::White), Some(Color::White))
    );
    // the owners add up to the score: Black 3 stones + a1; White 4 + 2 on the left, 1 + 48 on the right
    let count = |c| HalfPoints::points(owners.iter().filter(|&&o| o == Some(c)).count() as i32);
    assert_eq!([count(Color::Black), count(Color::White)], [HalfPoints::points(4), HalfPoints::points(55)]);
    assert_eq!(game.score().totals(), [count(Color::Black), count(Color::White)]);
    // an empty right board is no one's
    let mut rows = CORNERS;
    rows[6] = "....... .......";
    position(rows, "Black to move").owners(&mut owners);
    assert_eq!(owners[..49], drawn_owners(&expected[..7]));
    assert!(owners[49..].iter().all(Option::is_none));
}

/// Owners drawn as rows of `x`, `o` and `.`.
fn drawn_owners(rows: &[&str]) -> Vec<Option<Color>> {
    rows.iter()
        .flat_map(|row| row.chars())
        .map(|c| match c {
            'x' => Some(Color::Black),
            'o' => Some(Color::White),
            _ => None,
        })
        .collect()
}

// ------------------------------------------------------------------------------------------------
// The pie setup and the colour choice.
// ------------------------------------------------------------------------------------------------

#[test]
fn the_pie_setup_places_three_black_then_two_white_stones_then_the_colour_is_chosen() {
    let mut game = Galice::new();
    assert_eq!(game.stage(), Stage::Setup);
    assert_eq!(game.to_move(), Color::Black);
    assert_eq!(legal(&game).len(), 98);
    assert_eq!(refused(&game, "o a1"), Illegal::SetupColourOrder);
    assert_eq!(refused(&game, "-----"), Illegal::SetupUnfinished);
    assert_eq!(refused(&game, "choose black"), Illegal::SetupUnfinished);
    assert_eq!(refused(&game, "--- a1"), Illegal::SetupUnfinished);
    let setup: Setup = "setup x a1 b2 C3 o d4 E5".parse().unwrap();
    game.play_setup(&setup).unwrap();
    assert_eq!(game.stage(), Stage::Choice);
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(legal(&game), vec![Turn::Choose(Color::Black), Turn::Choose(Color::White)]);
    assert_eq!(refused(&game, "x g7"), Illegal::SetupOver);
    assert_eq!(refused(&game, "pass"), Illegal::ColourNotChosen);
    play(&mut game, &["choose black"]);
    assert_eq!(game.stage(), Stage::FirstDrop);
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(refused(&game, "aA1 --"), Illegal::FirstTurnDropOnly);
    assert_eq!(refused(&game, "choose white"), Illegal::SetupOver);
    assert_eq!(refused(&game, "--- a1"), Illegal::PointOccupied(spot("a1")));
    // every empty point (93) and the pass
    assert_eq!(legal(&game).len(), 94);
    play(&mut game, &["--- c3"]);
    assert_eq!(game.stage(), Stage::Play(Color::Black));
    assert_eq!(refused(&game, "--- c4"), Illegal::SwapFirst);
}

#[test]
fn a_setup_may_not_leave_a_group_without_liberties() {
    let mut game = Galice::new();
    play(&mut game, &["x a1", "x g7", "x G7", "o b1"]);
    assert_eq!(refused(&game, "o a2"), Illegal::SetupWithoutLiberties);
    assert_eq!(refused(&game, "o b1"), Illegal::PointOccupied(spot("b1")));
    let bad: Setup = "setup x a1 g7 G7 o b1 a2".parse().unwrap();
    let mut fresh = Galice::new();
    assert_eq!(fresh.play_setup(&bad), Err(Illegal::SetupWithoutLiberties));
    assert_eq!(fresh, Galice::new(), "a refused setup changes nothing");
}

#[test]
fn the_first_drop_may_not_leave_the_setup_as_it_was() {
    // Black b1 and a2 make a1 a point where a White stone dies at once: the drop changes nothing
    let mut game = Galice::new();
    game.play_setup(&"setup x b1 a2 G7 o D4 E5".parse().unwrap()).unwrap();
    play(&mut game, &["choose white"]);
    assert_eq!(refused(&game, "--- a1"), Illegal::TwinBoardKo);
    // from a diagram (no history) the same drop is legal
    let diagram = Galice::from_diagram(&game.diagram()).unwrap();
    assert_eq!(diagram.stage(), Stage::FirstDrop);
    assert!(diagram.check(turn("--- a1")).is_ok());
}

// ------------------------------------------------------------------------------------------------
// Perft: literal tables, cross-checked with the model.
// ------------------------------------------------------------------------------------------------

/// A crowded end of a light playout: few empty points, captures, suicides.
const CROWDED: [&str; 7] = [
    "oxx.ooo x.xoox.",
    ".xxoxxo xxo.oxx",
    "xxooxoo xxox.xx",
    "x.oxxxo xxxxoxx",
    "xo.oxoo xx.xooo",
    "xoo.x.o ooo.ooo",
    "ooooooo .oxx.oo",
];

/// Another one, where White has a single stone to swap.
const TIGHT: [&str; 7] = [
    "x..xo.o .xxox.x",
    "o.oxxox xx..xxx",
    ".oox.xx .xxx...",
    "xooxxx. oxx.xxx",
    "..ooxxx x.xxxx.",
    ".oxoxxx .xxxxxx",
    "o.xoxx. xx.xx.x",
];

#[test]
fn perft_from_the_setup() {
    let game = Galice::new();
    let expected: [u64; 4] = [1, 98, 98 * 97, 98 * 97 * 96];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&game, depth as u32), n, "depth {depth}");
    }
    // after a setup: the choice, then every drop and the pass
    let mut set = Galice::new();
    set.play_setup(&"setup x a1 b2 C3 o d4 E5".parse().unwrap()).unwrap();
    assert_eq!(perft(&set, 1), 2);
    assert_eq!(perft(&set, 2), 2 * 94);
    assert_eq!(perft(&set, 2), model_of(&set).perft(2));
}

#[test]
fn perft_tables_match_the_model() {
    let positions: [(&str, [&str; 7], &str, &[u64]); 7] = [
        ("crowded, White", CROWDED, "White to move", &[1, 91, 5630]),
        ("crowded, Black", CROWDED, "Black to move", &[1, 62, 5320]),
        ("tight, White", TIGHT, "White to move", &[1, 28, 11313]),
        ("tight, Black", TIGHT, "Black to move", &[1, 407, 16411]),
        ("locked: forced enemy swaps", LOCKED, "White to move", &[1, 94, 8745]),
        ("corner: rescue and suicide", CORNER, "Black to move", &[1, 191, 35824]),
        ("first drop", B2_IN_ATARI, "White to move (first turn: drop only)", &[1, 93, 42515]),
    ];
    for (name, rows, who, expected) in positions {
        let game = position(rows, who);
        let model = model_of(&game);
        for (depth, &n) in expected.iter().enumerate() {
            let depth = depth as u32;
            let ours = perft(&game, depth);
            assert_eq!(ours, model.perft(depth), "{name} depth {depth}: engine and model differ");
            assert_eq!(ours, n, "{name} depth {depth}");
        }
    }
}

/// Depth 3 from the same positions, engine and model (a minute in release mode:
/// `cargo test --release -p variago-rules --test galice -- --ignored perft_depth_3`).
#[test]
#[ignore]
fn perft_depth_3() {
    let positions: [(&str, [&str; 7], &str, u64); 3] = [
        ("crowded, White", CROWDED, "White to move", 521_880),
        ("tight, White", TIGHT, "White to move", 1_092_278),
        ("locked: forced enemy swaps", LOCKED, "White to move", 1_550_585),
    ];
    for (name, rows, who, n) in positions {
        let game = position(rows, who);
        assert_eq!(perft(&game, 3), n, "{name}");
        assert_eq!(model_of(&game).perft(3), n, "{name}: the model");
    }
}

// ------------------------------------------------------------------------------------------------
// Notation, diagrams and records.
// ------------------------------------------------------------------------------------------------

#[test]
fn the_notation_reads_and_writes_every_form() {
    let cases = [
        ("bB2 D4", Turn::Swap { from: spot("b2"), drop: Some(spot("D4")) }),
        ("Ff6 --", Turn::Swap { from: spot("F6"), drop: None }),
        ("--- c3", Turn::Drop(spot("c3"))),
        ("-----", Turn::Pass),
        ("x a1", Turn::SetupStone { color: Color::Black, at: spot("a1") }),
        ("o G7", Turn::SetupStone { color: Color::White, at: spot("G7") }),
        ("choose black", Turn::Choose(Color::Black)),
        ("choose white", Turn::Choose(Color::White)),
    ];
    for (text, t) in cases {
        assert_eq!(turn(text), t, "{text}");
        assert_eq!(t.to_string(), text);
    }
    assert_eq!(turn("pass"), Turn::Pass);
    assert_eq!(turn("PASS"), Turn::Pass);
    assert_eq!(turn("bB5: C5:2"), turn("bB5 C5"));
    assert_eq!(turn("12. bB5 C5"), turn("bB5 C5"));
    assert_eq!(turn("12.bB5 C5"), turn("bB5 C5"));
    assert_eq!(spot("a1"), Spot::new(Side::Left, 0, 1).unwrap());
    assert_eq!(spot("G7").twin(), spot("g7"));
    assert_eq!(spot("C5").to_string(), "C5");
    let setup: Setup = "setup x C3 a1 b2 o E5 d4".parse().unwrap();
    assert_eq!(setup.to_string(), "setup x a1 b2 C3 o d4 E5");
    assert_eq!("setup o d4 E5 x b2 a1 C3".parse::<Setup>(), Ok(setup));
}

#[test]
fn the_notation_refuses_with_a_reason() {
    let bad = |text: &str| text.parse::<Turn>().unwrap_err();
    assert_eq!(bad("bC2 D4"), NotationError::NotTwin("bC2".into()));
    assert_eq!(bad("bb2 D4"), NotationError::NotTwin("bb2".into()));
    assert_eq!(bad("bB2"), NotationError::MissingDrop("bB2".into()));
    assert_eq!(bad("bB2 h4"), NotationError::BadPoint("h4".into()));
    assert_eq!(bad("bB2 D8"), NotationError::BadPoint("D8".into()));
    assert_eq!(bad("---"), NotationError::Missing("---".into()));
    assert_eq!(bad("a1"), NotationError::NotATurn("a1".into()));
    assert_eq!(bad("choose red"), NotationError::BadColour("red".into()));
    assert_eq!(bad("bB2 D4 -----"), NotationError::NotOneMove("bB2 D4 -----".into()));
    assert_eq!(bad(""), NotationError::NotOneMove("".into()));
    assert!(matches!(bad("setup x a1 b2 C3 o d4 E5"), NotationError::NotOneMove(_)));
    assert!(matches!("setup x a1 b2 o d4 E5 F6".parse::<Setup>(), Err(NotationError::BadSetup(_))));
    assert!(matches!("setup a1".parse::<Setup>(), Err(NotationError::BadSetup(_))));
    assert!(matches!("setup x a1".parse::<Setup>(), Err(NotationError::BadSetup(_))));
    assert_eq!(
        parse_actions("1. bB2 D4 2. Ff6 -- 3...,-----;pass").unwrap(),
        ["bB2 D4", "Ff6 --", "-----", "-----"].map(|t| Action::Turn(turn(t)))
    );
}

#[test]
fn the_diagram_is_written_as_the_rules_show_it() {
    let game = position(
        [".xoo... .......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "....... ......x"],
        "White to move (first turn: drop only)",
    );
    let text = game.diagram();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], ". x o o . . .   1   . . . . . . .");
    assert_eq!(lines[6], ". . . . . . .   7   . . . . . . x");
    assert_eq!(lines[7], "White to move (first turn: drop only)");
    assert_eq!(Galice::from_diagram(&text), Ok(game));
    for who in ["Black to move", "White to move", "Setup to make", "Colour to choose"] {
        let g = position([EMPTY; 7], who);
        assert_eq!(g.diagram().lines().last(), Some(who));
    }
}

#[test]
fn bad_diagrams_are_refused_with_the_line() {
    let good = position(B2_IN_ATARI, "Black to move").diagram();
    let swap_lines = good.replacen("   1   ", "   2   ", 1);
    assert_eq!(
        Galice::from_diagram(&swap_lines),
        Err(DiagramError::RowOrder { line: 1, expected: 1, found: 2 })
    );
    assert!(matches!(Galice::from_diagram("hello"), Err(DiagramError::BadRow { line: 1, .. })));
    let no_who: String = good.lines().take(7).map(|l| format!("{l}\n")).collect();
    assert_eq!(Galice::from_diagram(&no_who), Err(DiagramError::MissingWhoMoves));
    let bad_who = format!("{no_who}Red to move\n");
    assert!(matches!(Galice::from_diagram(&bad_who), Err(DiagramError::BadWhoMoves { line: 8, .. })));
    let short: String = good.lines().take(3).map(|l| format!("{l}\n")).collect();
    assert_eq!(Galice::from_diagram(&short), Err(DiagramError::TooFewRows { found: 3 }));
    let trailing = format!("{good}bB3 --\n");
    assert!(matches!(Galice::from_diagram(&trailing), Err(DiagramError::TrailingText { line: 9, .. })));
    let partial = position(["xxxo... .......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY], "Setup to make");
    assert_eq!(partial.stage(), Stage::Setup);
    assert_eq!(partial.to_move(), Color::Black);
    assert_eq!(legal(&partial)[0], Turn::SetupStone { color: Color::White, at: spot("e1") });
    let complete = position(["xxxoo.. .......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY], "Setup to make");
    assert_eq!(complete.stage(), Stage::Choice, "a complete setup waits for the colour choice");
    let not_setup = position(["xxo.... .......", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY], "Black to move");
    assert_eq!(
        Galice::from_diagram(&not_setup.diagram().replace("Black to move", "Setup to make")),
        Err(DiagramError::NotASetup { black: 2, white: 1 })
    );
}

#[test]
fn a_record_reads_a_setup_and_turns_and_names_the_illegal_turn() {
    let text = "1. setup x a1 b2 C3 o d4 E5\n2. choose white # the chooser keeps White\n3. --- c3\n\
                4. aA1 D4 5. Cc3: --\n";
    let record = Record::parse(text).unwrap();
    assert_eq!(record.start, Galice::new());
    assert_eq!(record.entries.len(), 5);
    assert_eq!((record.entries[3].number, record.entries[3].line), (4, 4));
    assert_eq!(record.entries[4].text, "Cc3: --");
    let error = record.replay().unwrap_err();
    assert_eq!(error.number, 5);
    assert_eq!(error.to_string(), "turn 5 `Cc3: --`: the twin point c3 is occupied");
    let good = Record::parse(&text.replace("Cc3: --", "Ee5 --")).unwrap();
    let end = good.replay().unwrap();
    assert_eq!(end.stage(), Stage::Play(Color::Black));
    assert_eq!(
        Record::parse("1. setup x a1\n"),
        Err(RecordError::Notation { line: 1, source: NotationError::BadSetup("setup x a1".into()) })
    );
    // a record from a diagram
    let from_diagram = format!("{}bB3 --\n-----\n", position(B2_IN_ATARI, "Black to move").diagram());
    let record = Record::parse(&from_diagram).unwrap();
    assert_eq!(record.entries[1].line, 10);
    assert!(record.replay().is_ok());
}

// ------------------------------------------------------------------------------------------------
// Property tests over random games.
// ------------------------------------------------------------------------------------------------

const CASES: u32 = 12;

fn config() -> Config {
    let cases = if std::env::var_os("PROPTEST_CASES").is_some() { Config::default().cases } else { CASES };
    Config { cases, failure_persistence: None, ..Config::default() }
}

/// Every move `check` accepts, by trying every move there is (a swap from every stone whose twin
/// is empty, with every drop). Every 17th refused move is also played: it must be refused the same
/// way and leave the position unchanged.
fn accepted(game: &Galice) -> BTreeSet<Turn> {
    let mut candidates = vec![Turn::Pass, Turn::Choose(Color::Black), Turn::Choose(Color::White)];
    for s in Spot::all() {
        candidates.push(Turn::Drop(s));
        candidates.extend([Color::Black, Color::White].map(|color| Turn::SetupStone { color, at: s }));
        candidates.push(Turn::Swap { from: s, drop: None });
        if game.stone(s).is_some() && game.stone(s.twin()).is_none() {
            candidates.extend(Spot::all().map(|d| Turn::Swap { from: s, drop: Some(d) }));
        }
    }
    let mut out = BTreeSet::new();
    for (i, t) in candidates.into_iter().enumerate() {
        match game.check(t) {
            Ok(()) => {
                out.insert(t);
            }
            Err(why) if i % 17 == 0 => {
                let mut copy = game.clone();
                assert_eq!(copy.play(t), Err(why), "{t}");
                assert_eq!(&copy, game, "the refused {t} changed the position");
            }
            Err(_) => {}
        }
    }
    out
}

/// A random game's start with its model: the new game (kind 0); a game reached by light play,
/// with its history (kind 1); the same position read back from its diagram, without history
/// (kind 2).
fn start(kind: u8, rng: &mut SmallRng) -> (Galice, Model) {
    let mut game = Galice::new();
    let mut model = model_of(&game);
    if kind > 0 {
        for _ in 0..rng.random_range(8..60) {
            if game.is_over() {
                break;
            }
            let t = game.play_light_move(rng);
            model = model.play(t).unwrap_or_else(|| panic!("the model refuses {t}\n{game}"));
        }
        if kind == 2 {
            game = Galice::from_diagram(&game.diagram()).unwrap();
            model = model_of(&game);
        }
    }
    (game, model)
}

proptest! {
    #![proptest_config(config())]

    /// After every move of a random game: the incremental hash equals the recomputed one;
    /// `legal_moves` lists each move once, exactly those `check` accepts and those the model
    /// finds legal; refused moves change nothing; the engine's position equals the model's; the
    /// light move is a legal turn that fills no own eye and loses no own stone, and a pass only
    /// when there is no such turn.
    #[test]
    fn random_games_follow_the_rules(seed in any::<u64>(), kind in 0u8..3) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let (mut game, mut model) = start(kind, &mut rng);
        let mut played = Vec::new();
        for step in 0..rng.random_range(4..10) {
            let context = format!("seed {seed:#x} kind {kind} after {played:?}");
            prop_assert_eq!(game.hash(), game.recomputed_hash(), "{}", context);
            let moves = legal(&game);
            let listed: BTreeSet<Turn> = moves.iter().copied().collect();
            prop_assert_eq!(listed.len(), moves.len(), "a move listed twice\n{}", context);
            prop_assert!(moves.windows(2).all(|w| w[0] != w[1]));
            prop_assert_eq!(&listed, &model.moves(), "engine and model differ\n{}{}", game, context);
            if step % 2 == 0 {
                prop_assert_eq!(&listed, &accepted(&game), "{}", context);
            }
            if game.is_over() {
                break;
            }
            let light = game.light_move(&mut rng);
            prop_assert!(listed.contains(&light), "light move {} is illegal\n{}{}", light, game, context);
            if light == Turn::Pass {
                let good = listed.iter().filter(|&&t| model.light_ok(t)).count();
                prop_assert_eq!(good, 0, "a light pass with light turns left\n{}{}", game, context);
            } else {
                let why = "fills an eye or kills its own stones";
                prop_assert!(model.light_ok(light), "light move {} {}\n{}{}", light, why, game, context);
            }
            let t = if rng.random_bool(0.5) { light } else { moves[rng.random_range(0..moves.len())] };
            game.play(t).unwrap();
            model = model.play(t).expect("the model accepts the turn");
            played.push(t.to_string());
            assert_same(&game, &model, &context);
        }
    }

    /// Writing a random game as a record and reading it back gives the same entries and position;
    /// every position's diagram reads back to the same stones and stage.
    #[test]
    fn records_and_diagrams_round_trip(seed in any::<u64>(), from_diagram in any::<bool>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut start = Galice::new();
        if from_diagram {
            light_playout(&mut start, &mut rng, 12);
            start = Galice::from_diagram(&start.diagram()).unwrap();
        }
        let mut game = start.clone();
        let mut actions = Vec::new();
        let length = rng.random_range(0..40);
        while actions.len() < length && !game.is_over() {
            let t = game.play_light_move(&mut rng);
            actions.push(Action::Turn(t));
            let again = Galice::from_diagram(&game.diagram()).unwrap();
            prop_assert_eq!(again.position_hash(), game.position_hash());
            prop_assert_eq!(again.stage(), game.stage());
            prop_assert_eq!(again.diagram(), game.diagram());
        }
        let record = Record::new(start, &actions);
        let text = record.to_string();
        let read = Record::parse(&text).unwrap();
        prop_assert_eq!(&read, &record, "{}", text);
        prop_assert_eq!(read.replay().unwrap(), game);
    }

    /// Light playouts end within their cap.
    #[test]
    fn light_playouts_end(seed in any::<u64>()) {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut game = Galice::new();
        let cap = game.playout_cap();
        let n = light_playout(&mut game, &mut rng, cap);
        prop_assert!(n <= cap);
        prop_assert!(game.is_over() || n == cap);
        prop_assert_eq!(game.hash(), game.recomputed_hash());
    }

    /// No text makes the readers panic: they answer with a value or an error.
    #[test]
    fn the_readers_never_panic(text in "\\PC{0,60}", words in vec(select(WORDS), 0..12)) {
        let joined = words.join(" ");
        for input in [text.as_str(), joined.as_str()] {
            let _ = input.parse::<Turn>();
            let _ = input.parse::<Setup>();
            let _ = input.parse::<Spot>();
            let _ = parse_actions(input);
            let _ = Record::parse(input).map(|r| r.replay());
            let _ = Galice::from_diagram(input);
        }
        let diagram = format!("{}{joined}\n", position(B2_IN_ATARI, "Black to move").diagram());
        let _ = Record::parse(&diagram).map(|r| r.replay());
    }
}

/// Words the readers know, and a few they do not, for the no-panic test.
const WORDS: &[&str] = &[
    "bB2",
    "D4",
    "--",
    "---",
    "-----",
    "pass",
    "setup",
    "x",
    "o",
    "choose",
    "black",
    "white",
    "a1",
    "G7",
    "Ff6",
    "bC2",
    "12.",
    "3...",
    ":",
    "bB2:",
    "D4:2",
    "h9",
    "X",
    "#",
    ",",
    ";",
    "\u{e9}",
    "1",
    "7",
    ". x o o . . .   1   . . . . . . .",
    "Black to move",
];

/// The light move's distribution: from a crowded position, every turn the light policy allows is
/// drawn, about equally often (a chi-square bound far in the tail).
#[test]
fn light_moves_are_uniform_over_the_turns_they_allow() {
    for (rows, who) in [(CROWDED, "Black to move"), (B2_IN_ATARI, "White to move"), (TIGHT, "White to move")]
    {
        let game = position(rows, who);
        let model = model_of(&game);
        let allowed: Vec<Turn> =
            legal(&game).into_iter().filter(|&t| t != Turn::Pass && model.light_ok(t)).collect();
        let mut rng = SmallRng::seed_from_u64(11);
        let samples = 60 * allowed.len();
        let mut counts = std::collections::BTreeMap::new();
        for _ in 0..samples {
            *counts.entry(game.light_move(&mut rng)).or_insert(0usize) += 1;
        }
        assert_eq!(counts.keys().copied().collect::<Vec<_>>(), allowed, "{who}");
        let expected = samples as f64 / allowed.len() as f64;
        let chi2: f64 = counts.values().map(|&n| (n as f64 - expected).powi(2) / expected).sum();
        let k = allowed.len() as f64 - 1.0;
        assert!(
            chi2 < k + 6.0 * (2.0 * k).sqrt() + 10.0,
            "{who}: chi-square {chi2} over {k} degrees of freedom"
        );
    }
}

/// Black's b2 capture: White's b2 stands in atari at b3, and Black's stones around it cannot
/// swap (their twins are taken), so every turn swaps g7 or e5.
const WHITE_B2_IN_ATARI: [&str; 7] =
    [".x..... .o.....", "xox.... o.o....", EMPTY, EMPTY, "....x.. .......", EMPTY, "......x ......."];
/// Black's b2 stands in atari at b3 (its twin B2 is taken), and b3 has three empty neighbours.
const BLACK_B2_IN_ATARI: [&str; 7] =
    [".o..... .......", "oxo.... .o.....", EMPTY, EMPTY, "....x.. .......", EMPTY, "......x ......."];

/// The search's playout step answers the threats on the boards: it captures a chain in atari,
/// else saves its own, after whichever swap; the light move (uniform) mostly does neither.
#[test]
fn the_playout_step_captures_and_escapes_on_either_board() {
    for (rows, answer) in [(WHITE_B2_IN_ATARI, "b3"), (BLACK_B2_IN_ATARI, "b3")] {
        let game = position(rows, "Black to move");
        let (mut answered, mut light_answered, mut swaps) = (0, 0, BTreeSet::new());
        for seed in 0..20 {
            let mut rng = SmallRng::seed_from_u64(seed);
            let mut played = game.clone();
            let t = played.play_playout_move(&mut rng);
            let Turn::Swap { from, drop } = t else { panic!("{t} is no swap") };
            swaps.insert(from);
            answered += usize::from(drop == Some(spot(answer)));
            light_answered += usize::from(
                matches!(game.light_move(&mut rng), Turn::Swap { drop: Some(d), .. } if d == spot(answer)),
            );
            if rows == WHITE_B2_IN_ATARI {
                assert_eq!(stone(&played, "b2"), None, "{t} captures b2");
            } else {
                assert_eq!(played.board(Side::Left).liberties(spot("b2").point()), 3, "{t} saves b2");
            }
        }
        assert_eq!(answered, 20, "the answer at every seed");
        assert!(light_answered < 5, "the light move found it {light_answered} times in 20");
        assert_eq!(swaps, [spot("e5"), spot("g7")].into(), "both swaps drawn");
    }
}

/// `Game::hash` is a sound transposition key: over a small game tree (with passes, swaps back and
/// forth and captures), positions with equal hashes have the same stones, stage, history and legal
/// moves, and positions with different histories have different hashes.
#[test]
fn equal_hashes_mean_equal_positions() {
    let mut seen: std::collections::HashMap<u64, (String, Option<Spot>, u8, Vec<Turn>)> = Default::default();
    let mut frontier = vec![position(CROWDED, "White to move")];
    let mut positions = 0;
    for depth in 0..3 {
        let mut next = Vec::new();
        for game in frontier {
            let moves = legal(&game);
            let key = (game.diagram(), game.barred(), game.passes(), moves.clone());
            if let Some(earlier) = seen.insert(game.hash(), key.clone()) {
                assert_eq!(earlier, key, "two positions share a hash");
            }
            positions += 1;
            for t in moves.into_iter().filter(|_| depth < 2) {
                let mut child = game.clone();
                child.play(t).unwrap();
                next.push(child);
            }
        }
        frontier = next;
    }
    assert_eq!(positions, 1 + 91 + 5630);
    assert!(seen.len() < positions, "some positions transpose");
}

/// Light playouts per second in release mode:
/// `cargo test --release -p variago-rules --test galice -- --ignored --nocapture`.
#[test]
#[ignore]
fn bench_light_playouts() {
    let mut rng = SmallRng::seed_from_u64(7);
    let start = std::time::Instant::now();
    let (mut playouts, mut turns, mut ended) = (0u64, 0u64, 0u64);
    while start.elapsed().as_secs_f64() < 3.0 {
        let mut game = Galice::new();
        let cap = game.playout_cap();
        turns += light_playout(&mut game, &mut rng, cap) as u64;
        ended += game.is_over() as u64;
        playouts += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{playouts} playouts in {seconds:.2} s: {:.0} playouts/s, {:.0} turns/s, {:.0} turns/playout, \
         {:.0}% ended by two passes",
        playouts as f64 / seconds,
        turns as f64 / seconds,
        turns as f64 / playouts as f64,
        100.0 * ended as f64 / playouts as f64
    );
}
