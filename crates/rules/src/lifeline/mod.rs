//! Square Lifeline (`lifeline`, shared/rules/lifeline.md): a group lives while a path of empty
//! points leads from it to another group of its colour; each side's first turn places two stones;
//! White may swap on its first turn; there is no pass, and the last player to place wins.
//!
//! # The rules as implemented
//! - **Board**: W x H, empty at the start, Black first. The spec ([`LifelineSpec`]) takes each side
//!   from 2 to 25, 9x9 by default; the engine itself plays any board the crate's [`Geometry`] allows.
//! - **Dead group**: no path of orthogonally connected empty points leads from it to another group of
//!   its colour (so a player's only group is dead).
//! - **A turn** places one stone ([`Turn::Place`]), or on a player's first turn two stones
//!   ([`Turn::Pair`]); then every dead enemy group is removed (all decided on the board as the stones
//!   left it), then every dead friendly group (decided on the board those removals left). A pair's
//!   stones are both placed before anything is removed.
//! - **No null turn**: the board at the end of a turn must differ from the board at its start
//!   ([`Illegal::NullTurn`]). On the empty board an adjacent pair is such a turn: it forms one group,
//!   its colour's only one, which is removed at once.
//! - **Swap** ([`Turn::Swap`], option `swap=true|false`, true by default): on White's first turn only,
//!   a move that leaves the board and the side to move as they are and uses the swap up; White then
//!   makes its first turn, a pair. The engine knows colours, not people: after a swap the player who
//!   was White plays Black's stones, and a program that seats players maps them accordingly.
//! - **End**: the player to move with no legal move loses: the last player to place wins. There is no
//!   score ([`LifelineScore`] says the winner in words).
//! - **No pass**: [`Turn::Pass`] exists because [`Game::PASS`] must, and is never legal
//!   ([`Illegal::NoPassing`]).
//! - **Own-position draw** (option `draw=own-position|none`, own-position by default): a turn that
//!   leaves the board as it was at the end of one of the mover's earlier turns ends the game in a
//!   draw. The histories are kept by colour (the swap hands a colour over with its history); the
//!   swap places nothing and records no board; a set-up position starts with empty histories.
//!   With `draw=none` the game is history-free: a state is the board, the side to move and the
//!   [`Stage`] (whether each side has had its first turn, whether the swap is still available).
//!
//! # Implementation
//! A turn is worked out on a copy of the board's cells (`grid.rs`): its stones are put down, then
//! every group and every empty region is labelled by a flood, and a group lives when an empty region
//! it touches also touches another group of its colour; the dead enemy groups go, then the dead
//! friendly ones (the board is labelled again only if enemy stones went and a friendly group was
//! dead before: removals only open paths). A legal turn is then applied to the shared [`Board`],
//! which keeps the Zobrist hash and the empty-point list the playouts draw from.
//!
//! At the end of every turn no dead group is left on the board, so a player who has a group at the
//! start of its turn has a legal placement (next to that group: the stone joins it, and if the group
//! then dies the board still changed). A player with no stone after its first turn has none on a
//! board at least two points wide and high: such a grid stays connected without any one point, so
//! a path from an enemy group to another that avoids the new stone exists, and its stretch from
//! the first group to the next enemy stone on it is empty; no enemy group dies, and the lone stone
//! dies alone. The end of the game is therefore only searched for on a first turn, or on a strip
//! one point wide (which the engine plays though the rules' boards are wider).
//!
//! # Light playouts
//! After the first turns: uniform among the legal placements that do not fill one of the mover's own
//! eyes ([`Board::is_eye`]), else uniform among the legal placements. On a first turn: uniform among
//! the legal pairs and the swap when it is available, drawn by rejection (a random pair of empty
//! points or the swap, kept if legal) and, after a few misses, from the listed legal moves.
//!
//! # The search's playouts
//! [`Game::play_playout_move`]: after the first turns, up to [`PLAYOUT_LOOKS`] legal placements are
//! drawn at random; the first that removes enemy stones is played, else the first that removes
//! none of the mover's own and fills no own eye, else the first drawn. A random placement often
//! joins a player's groups into one, which then dies: such a playout tells little about the
//! position. Go's liberty tactics do not fit a game of connection ([`Game::liberty_tactics`] is
//! false): the heavy policy plays these playouts too. The tree keeps the move model's priors,
//! which keep a first turn's stones off the edges, where a corner stone is killed at once.

mod grid;
mod spec;
mod turn;

pub use spec::{DEFAULT_SIZE, LifelineRules, LifelineSpec, MIN_SIDE, NAME, OPTIONS, names_lifeline};
pub use turn::{Pair, Turn};

use std::fmt;

use crate::board::{Board, EMPTY};
use crate::geometry::{Geometry, Point, Vertex};
use crate::own_boards::OwnBoards;
use crate::playout::below;
use crate::score::{HalfPoints, ScoreSheet};
use crate::stone_game::side_key;
use crate::zobrist::mix;
use crate::{Color, Ending, Game, GameResult, Illegal, Stones};
use grid::{Grid, Removed};

/// One line for listings (`variago rules`).
pub const ABOUT: &str = "Square Lifeline: a group lives while empty points link it to another of its colour; \
     two stones on each side's first turn, a swap, no pass; the last player to place wins";

/// Random draws a light first turn tries before it lists the legal moves.
const LIGHT_TRIES: usize = 24;

/// Legal placements the search's playout step looks at before it plays (see the module docs).
pub const PLAYOUT_LOOKS: usize = 6;

/// Which turn the game is at: together with the board, what legality depends on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Black's first turn: a pair.
    BlackFirstTurn,
    /// White's first turn: a pair, or first the swap while it is available.
    WhiteFirstTurn {
        /// Whether White may still swap (never with `swap=false`).
        swap_available: bool,
    },
    /// Every later turn: one stone, this colour to move.
    Placements(Color),
}

impl Stage {
    /// The player to move.
    pub fn to_move(self) -> Color {
        match self {
            Stage::BlackFirstTurn => Color::Black,
            Stage::WhiteFirstTurn { .. } => Color::White,
            Stage::Placements(c) => c,
        }
    }

    /// A distinct small number per stage for the hash (the colour is hashed apart).
    fn key(self) -> u64 {
        match self {
            Stage::BlackFirstTurn => 1,
            Stage::WhiteFirstTurn { swap_available: true } => 2,
            Stage::WhiteFirstTurn { swap_available: false } => 3,
            Stage::Placements(_) => 4,
        }
    }
}

/// How a game of Square Lifeline ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finish {
    /// `loser` had no legal move on its turn: the other player, the last to place, wins.
    NoLegalPlacement {
        /// The player to move, who could not.
        loser: Color,
    },
    /// `player`'s turn left the board as it was at the end of one of its own earlier turns.
    OwnPositionDraw {
        /// The player whose turn drew.
        player: Color,
    },
}

impl Finish {
    /// The result: `B+` or `W+` (a win without a score), or `Draw`.
    pub fn result(self) -> GameResult {
        match self {
            Finish::NoLegalPlacement { loser } => {
                GameResult { winner: Some(loser.opponent()), ending: Ending::LastPlacement }
            }
            Finish::OwnPositionDraw { .. } => GameResult { winner: None, ending: Ending::OwnPositionDraw },
        }
    }
}

/// The "score" of a Square Lifeline position: there are no points, only the result, said in words,
/// and each side's stones and groups for the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LifelineScore {
    /// Stones on the board, Black's and White's.
    pub stones: [u32; 2],
    /// Groups on the board, Black's and White's.
    pub groups: [u32; 2],
    /// How the game ended, if it has.
    pub finish: Option<Finish>,
    /// The player to move.
    pub to_move: Color,
}

impl ScoreSheet for LifelineScore {
    /// No points.
    fn totals(&self) -> [HalfPoints; 2] {
        [HalfPoints(0); 2]
    }

    fn komi(&self) -> HalfPoints {
        HalfPoints(0)
    }

    fn totals_line(&self) -> String {
        "no points: the last player to place wins".to_string()
    }

    /// The finish's result; a game stopped before its end (a playout's move cap) has no winner
    /// yet and counts as a draw.
    fn result(&self) -> GameResult {
        self.finish.map_or(GameResult { winner: None, ending: Ending::Score(HalfPoints(0)) }, Finish::result)
    }
}

impl fmt::Display for LifelineScore {
    /// Each side's stones and groups, then the verdict in words:
    /// `White wins: Black has no legal placement (the last player to place wins)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counted = |n: u32, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        for c in [Color::Black, Color::White] {
            let i = c as usize;
            writeln!(f, "{c}: {} in {}", counted(self.stones[i], "stone"), counted(self.groups[i], "group"))?;
        }
        match self.finish {
            Some(Finish::NoLegalPlacement { loser }) => writeln!(
                f,
                "{} wins: {loser} has no legal placement (the last player to place wins)",
                loser.opponent()
            ),
            Some(Finish::OwnPositionDraw { player }) => writeln!(
                f,
                "Draw: {player}'s turn left the board as it was at the end of one of {player}'s earlier turns"
            ),
            None => {
                writeln!(f, "No result yet, {} to move (a game stopped here counts as a draw)", self.to_move)
            }
        }
    }
}

/// Why a set-up position was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// A dead group: no turn leaves one on the board.
    #[error(
        "the group at {0} is dead (no path of empty points leads to another group of its colour): no turn leaves a dead group on the board"
    )]
    DeadGroup(Vertex),
    /// A king (a board read from a diagram with `K`).
    #[error("Square Lifeline has no kings")]
    Kings,
}

/// A Square Lifeline position with everything legality depends on: the board, the stage, and each
/// player's end-of-turn boards for the own-position draw.
#[derive(Clone)]
pub struct Lifeline {
    rules: LifelineRules,
    board: Board,
    stage: Stage,
    /// How the game ended, once it has: set at the end of the turn that ends it.
    finish: Option<Finish>,
    /// Each player's end-of-turn boards, keyed with the player's side key (none with `draw=none`).
    own_boards: OwnBoards,
    /// Where the last turn put its single stone (`None` after a pair or the swap).
    last_placed: Option<Point>,
}

/// What a legal move does, worked out by the check and applied by `play`.
// a short-lived value moved once from the check into the position: boxing the grid would cost an
// allocation per move to save a copy
#[allow(clippy::large_enum_variant)]
enum Verdict {
    Swap,
    /// The board the turn's stones and removals leave.
    Stones(Grid),
}

impl Lifeline {
    /// A new game: the empty board, Black's first turn.
    pub fn new(rules: LifelineRules, geometry: Geometry) -> Self {
        Self::unchecked(rules, Board::new(geometry), Stage::BlackFirstTurn)
    }

    /// A position set up from a board and a stage, with no history (the own-position draw looks
    /// only at the turns played from here). Refused if the board holds a dead group, which no
    /// turn leaves (so a player with stones has at least two groups), or a king. A stage whose
    /// player has no legal move is a finished game.
    pub fn set_up(rules: LifelineRules, board: Board, stage: Stage) -> Result<Self, SetupError> {
        if board.has_kings() {
            return Err(SetupError::Kings);
        }
        if let Some(p) = Grid::of(&board).dead_stone() {
            return Err(SetupError::DeadGroup(board.geometry().vertex(p)));
        }
        let stage = match stage {
            Stage::WhiteFirstTurn { swap_available } => {
                Stage::WhiteFirstTurn { swap_available: swap_available && rules.swap }
            }
            other => other,
        };
        Ok(Self::unchecked(rules, board, stage))
    }

    /// A position from a board without dead groups.
    fn unchecked(rules: LifelineRules, mut board: Board, stage: Stage) -> Self {
        let turns = board.geometry().area() * 2;
        let own_boards = if rules.own_position_draw {
            OwnBoards::with_room(turns)
        } else {
            // no rule reads the board's hash while the game is played
            board.defer_hash();
            OwnBoards::default()
        };
        let mut game = Lifeline { rules, board, stage, finish: None, own_boards, last_placed: None };
        if !game.has_legal_move() {
            game.finish = Some(Finish::NoLegalPlacement { loser: stage.to_move() });
        }
        game
    }

    /// The settings.
    pub fn rules(&self) -> LifelineRules {
        self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Which turn the game is at.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// How the game ended, if it has.
    pub fn finish(&self) -> Option<Finish> {
        self.finish
    }

    /// Reads a move as [`Turn::parse`] does, on this board.
    pub fn parse_turn(&self, text: &str) -> Result<Turn, crate::GeometryError> {
        Turn::parse(text, self.board.geometry())
    }

    /// A move as [`Turn::to_text`] writes it, on this board.
    pub fn turn_text(&self, turn: Turn) -> String {
        turn.to_text(self.board.geometry())
    }

    /// The empty points in point order.
    fn sorted_empties(&self) -> Vec<Point> {
        let mut empties = self.board.empties().to_vec();
        empties.sort_unstable();
        empties
    }

    /// Judges a move: what it does, or why it is illegal.
    fn judge(&self, turn: Turn) -> Result<Verdict, Illegal> {
        let first_turn = !matches!(self.stage, Stage::Placements(_));
        match turn {
            Turn::Pass => Err(Illegal::NoPassing),
            _ if self.is_over() => Err(Illegal::GameOver),
            Turn::Swap => match self.stage {
                _ if !self.rules.swap => Err(Illegal::NoSwapRule),
                Stage::WhiteFirstTurn { swap_available: true } => Ok(Verdict::Swap),
                Stage::WhiteFirstTurn { swap_available: false } => Err(Illegal::SwapAlreadyUsed),
                Stage::BlackFirstTurn | Stage::Placements(_) => Err(Illegal::SwapOutsideWhitesFirstTurn),
            },
            Turn::Place(_) if first_turn => Err(Illegal::PairExpected),
            Turn::Pair(_) if !first_turn => Err(Illegal::PairAfterFirstTurn),
            Turn::Pair(pair) if pair.points()[0] == pair.points()[1] => Err(Illegal::PairNotDistinct),
            Turn::Place(p) => {
                self.check_free(p)?;
                self.judge_stones(&[p]).map(Verdict::Stones)
            }
            Turn::Pair(pair) => {
                for p in pair.points() {
                    self.check_free(p)?;
                }
                self.judge_stones(&pair.points()).map(Verdict::Stones)
            }
        }
    }

    /// Whether `p` is an empty point of this board.
    fn check_free(&self, p: Point) -> Result<(), Illegal> {
        let geometry = self.board.geometry();
        if !geometry.contains(p) {
            return Err(Illegal::OffBoard);
        }
        if self.board.cell(p) != EMPTY {
            return Err(Illegal::Occupied(geometry.vertex(p)));
        }
        Ok(())
    }

    /// The board after the mover puts stones on the empty points `points` and the removals
    /// follow, or the null turn's refusal if that board is the board as it was.
    fn judge_stones(&self, points: &[Point]) -> Result<Grid, Illegal> {
        self.judge_stones_counted(points).map(|(grid, _)| grid)
    }

    /// [`Lifeline::judge_stones`], with the stones the removals took off.
    fn judge_stones_counted(&self, points: &[Point]) -> Result<(Grid, Removed), Illegal> {
        let mover = self.to_move();
        let mut grid = Grid::of(&self.board);
        for &p in points {
            grid.put(p, mover);
        }
        let removed = grid.settle(mover);
        // the end board is the start board with the stones put and the removals taken off: the
        // same board exactly when no enemy stone went and the friendly stones removed are the
        // turn's own stones, all of them
        let unchanged = removed.enemy == 0
            && removed.friendly as usize == points.len()
            && points.iter().all(|&p| grid.cell(p) == EMPTY);
        if unchanged {
            return Err(Illegal::NullTurn { pair: points.len() == 2 });
        }
        Ok((grid, removed))
    }

    /// Plays a move the check accepted, and finds out whether the game ended.
    fn apply(&mut self, verdict: Verdict, turn: Turn) {
        let mover = self.to_move();
        match verdict {
            Verdict::Swap => self.stage = Stage::WhiteFirstTurn { swap_available: false },
            Verdict::Stones(grid) => {
                grid.apply_to(&mut self.board);
                self.stage = match self.stage {
                    Stage::BlackFirstTurn => Stage::WhiteFirstTurn { swap_available: self.rules.swap },
                    Stage::WhiteFirstTurn { .. } => Stage::Placements(Color::Black),
                    Stage::Placements(c) => Stage::Placements(c.opponent()),
                };
                if self.rules.own_position_draw && self.own_boards.record(self.board.hash() ^ side_key(mover))
                {
                    self.finish = Some(Finish::OwnPositionDraw { player: mover });
                }
            }
        }
        self.last_placed = match turn {
            Turn::Place(p) => Some(p),
            _ => None,
        };
        if self.finish.is_none() && !self.has_legal_move() {
            self.finish = Some(Finish::NoLegalPlacement { loser: self.to_move() });
        }
    }

    /// Whether the player to move has a legal move (the game not being over).
    fn has_legal_move(&self) -> bool {
        match self.stage {
            Stage::WhiteFirstTurn { swap_available: true } => true,
            Stage::BlackFirstTurn | Stage::WhiteFirstTurn { .. } => {
                let empties = self.board.empties();
                empties
                    .iter()
                    .enumerate()
                    .any(|(i, &a)| empties[i + 1..].iter().any(|&b| self.judge_stones(&[a, b]).is_ok()))
            }
            // a group on the board has a legal placement beside it, and without one a player has
            // none but on a strip (see the module docs)
            Stage::Placements(c) => {
                let g = self.board.geometry();
                self.board.stones(c) > 0
                    || (g.width() == 1 || g.height() == 1)
                        && self.board.empties().iter().any(|&p| self.judge_stones(&[p]).is_ok())
            }
        }
    }

    /// Plays a legal move drawn uniformly from the legal moves (the playouts' last resort).
    fn play_any_legal_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Turn {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let turn = moves[below(rng, moves.len())];
        self.play(turn).expect("legal_moves lists only legal moves");
        turn
    }

    /// A light first turn (see the module docs).
    fn play_light_first_turn<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Turn {
        let swap = self.stage == Stage::WhiteFirstTurn { swap_available: true };
        let empties = self.board.empties().len();
        let pairs = empties * empties.saturating_sub(1) / 2;
        for _ in 0..LIGHT_TRIES {
            if swap && below(rng, pairs + 1) == 0 {
                self.apply(Verdict::Swap, Turn::Swap);
                return Turn::Swap;
            }
            if pairs == 0 {
                break;
            }
            let i = below(rng, empties);
            let j = below(rng, empties - 1);
            let (a, b) = (self.board.empties()[i], self.board.empties()[if j >= i { j + 1 } else { j }]);
            if let Ok(grid) = self.judge_stones(&[a, b]) {
                let turn = Turn::pair(a, b);
                self.apply(Verdict::Stones(grid), turn);
                return turn;
            }
        }
        self.play_any_legal_move(rng)
    }

    /// A light placement: empty points drawn uniformly without replacement until one is legal
    /// and no eye of the mover's, each rejected point moved to the end of the empty list so that
    /// it is not drawn again; if none is, any legal placement.
    fn play_light_placement<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, mover: Color) -> Turn {
        let mut candidates = self.board.empties().len();
        while candidates > 0 {
            let i = below(rng, candidates);
            let p = self.board.empties()[i];
            if !self.board.is_eye_of_board_point(p, mover)
                && let Ok(grid) = self.judge_stones(&[p])
            {
                self.apply(Verdict::Stones(grid), Turn::Place(p));
                return Turn::Place(p);
            }
            candidates -= 1;
            self.board.swap_empties(i, candidates);
        }
        self.play_any_legal_move(rng)
    }
}

impl Lifeline {
    /// The search's playout placement (see the module docs).
    fn play_playout_placement<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, mover: Color) -> Turn {
        let mut candidates = self.board.empties().len();
        let (mut looked, mut safe, mut first) = (0, None, None);
        while candidates > 0 && looked < PLAYOUT_LOOKS {
            let i = below(rng, candidates);
            let p = self.board.empties()[i];
            if let Ok((grid, removed)) = self.judge_stones_counted(&[p]) {
                looked += 1;
                if removed.enemy > 0 {
                    self.apply(Verdict::Stones(grid), Turn::Place(p));
                    return Turn::Place(p);
                }
                if safe.is_none() && removed.friendly == 0 && !self.board.is_eye_of_board_point(p, mover) {
                    safe = Some((p, grid));
                } else if first.is_none() {
                    first = Some((p, grid));
                }
            }
            candidates -= 1;
            self.board.swap_empties(i, candidates);
        }
        match safe.or(first) {
            Some((p, grid)) => {
                self.apply(Verdict::Stones(grid), Turn::Place(p));
                Turn::Place(p)
            }
            None => self.play_any_legal_move(rng),
        }
    }
}

impl Game for Lifeline {
    type Move = Turn;
    type Score = LifelineScore;

    /// Never legal (see [`Turn::Pass`]).
    const PASS: Turn = Turn::Pass;

    fn to_move(&self) -> Color {
        self.stage.to_move()
    }

    /// In point order: single placements by point; pairs by their first point, then their
    /// second; the swap last.
    fn legal_moves(&self, out: &mut Vec<Turn>) {
        out.clear();
        if self.is_over() {
            return;
        }
        let empties = self.sorted_empties();
        match self.stage {
            Stage::Placements(_) => {
                out.extend(
                    empties.iter().filter(|&&p| self.judge_stones(&[p]).is_ok()).map(|&p| Turn::Place(p)),
                );
            }
            Stage::BlackFirstTurn | Stage::WhiteFirstTurn { .. } => {
                for (i, &a) in empties.iter().enumerate() {
                    for &b in &empties[i + 1..] {
                        if self.judge_stones(&[a, b]).is_ok() {
                            out.push(Turn::pair(a, b));
                        }
                    }
                }
                if self.stage == (Stage::WhiteFirstTurn { swap_available: true }) {
                    out.push(Turn::Swap);
                }
            }
        }
    }

    fn check(&self, turn: Turn) -> Result<(), Illegal> {
        self.judge(turn).map(|_| ())
    }

    fn play(&mut self, turn: Turn) -> Result<(), Illegal> {
        let verdict = self.judge(turn)?;
        self.apply(verdict, turn);
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.finish.is_some()
    }

    fn outcome(&self) -> Option<GameResult> {
        self.finish.map(Finish::result)
    }

    fn score(&self) -> LifelineScore {
        let mut score =
            LifelineScore { stones: [0; 2], groups: [0; 2], finish: self.finish, to_move: self.to_move() };
        for p in self.board.geometry().points() {
            if let Some(c) = self.board.color(p) {
                score.stones[c as usize] += 1;
                score.groups[c as usize] += u32::from(self.board.chain_head(p) == p);
            }
        }
        score
    }

    /// The board, the side to move and the stage (whether each side has had its first turn,
    /// whether the swap is still available); the own-position history is left out.
    fn hash(&self) -> u64 {
        self.board.hash() ^ side_key(self.to_move()) ^ mix(self.stage.key())
    }

    fn stones(&self) -> Option<Stones<'_>> {
        Some(Stones { board: &self.board, last: self.last_placed })
    }

    /// No: its own playouts (module docs).
    fn liberty_tactics(&self) -> bool {
        false
    }

    /// The swap: its player plays Black's stones from then on.
    fn colour_after(&self, turn: Turn) -> Color {
        if turn == Turn::Swap { Color::Black } else { self.to_move() }
    }

    fn playout_cap(&self) -> usize {
        crate::playout::MAX_MOVES_PER_POINT * self.board.geometry().area()
    }

    /// See the module docs. A finished game plays nothing and returns the pass.
    fn play_light_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Turn {
        match self.stage {
            _ if self.is_over() => Turn::Pass,
            Stage::Placements(mover) => self.play_light_placement(rng, mover),
            Stage::BlackFirstTurn | Stage::WhiteFirstTurn { .. } => self.play_light_first_turn(rng),
        }
    }

    /// See the module docs. A finished game plays nothing and returns the pass.
    fn play_playout_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Turn {
        match self.stage {
            _ if self.is_over() => Turn::Pass,
            Stage::Placements(mover) => self.play_playout_placement(rng, mover),
            Stage::BlackFirstTurn | Stage::WhiteFirstTurn { .. } => self.play_light_first_turn(rng),
        }
    }
}

impl fmt::Display for Lifeline {
    /// The board as a diagram (the last single stone marked), then who moves or how it ended.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.board.diagram(self.last_placed))?;
        match (self.finish, self.stage) {
            (Some(finish), _) => writeln!(f, "Game over: {}", finish.result()),
            (None, Stage::BlackFirstTurn) => writeln!(f, "Black to move: first turn, a pair"),
            (None, Stage::WhiteFirstTurn { swap_available: true }) => {
                writeln!(f, "White to move: first turn, a pair or the swap")
            }
            (None, Stage::WhiteFirstTurn { swap_available: false }) => {
                writeln!(f, "White to move: first turn, a pair")
            }
            (None, Stage::Placements(c)) => writeln!(f, "{c} to move"),
        }
    }
}

impl fmt::Debug for Lifeline {
    /// The diagram and the settings (the board's own `Debug` is pages long).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}{:?}", self.rules)
    }
}
