//! Galice, or Alice Go (`galice`, shared/rules/galice.md): two 7x7 boards; a turn is a pass, or a
//! **swap** (a stone moves to its twin point on the other board) followed by an optional **drop** (a
//! new stone of the mover's colour on any empty point). The pie rule sets the game up.
//!
//! The two boards are two shared [`Board`]s: chains, liberties, captures and hashes are theirs; this
//! module adds the turn, the Galice restrictions and the pie setup on top.
//!
//! # The rules as implemented (every "precise reading" of the rules file holds)
//! - **Swap**: one of the mover's stones goes to its empty twin point. If none of the mover's stones
//!   can be swapped (no empty twin, or barred by the swap-back restriction), an opponent stone may be
//!   swapped instead, and only then. "Can be swapped" looks at the twin point and the swap-back
//!   restriction only, not at whether some whole turn through that swap would be legal: a player whose
//!   own swaps all lead to illegal turns passes.
//! - After the swap the opponent's groups without liberties come off (in a forced enemy swap that may
//!   be the moved stone itself); the mover's own groups stay, even without liberties, until the end
//!   of the turn, so a drop may still rescue them by capturing.
//! - **Drop** (optional): a stone of the mover on any empty point of either board; the opponent's
//!   groups without liberties come off.
//! - **End of turn**: the mover's groups without liberties come off (suicide is legal). The turn is
//!   illegal if it leaves no possible swap (every point empty on both boards or taken on both), or if
//!   the two boards equal those before the opponent's previous turn (**ko**; after a pass, the setup or
//!   the colour choice that is the current position, so a turn that changes nothing is illegal then).
//!   The no-swap-left rule and the ko are checked in that order, after the point checks.
//! - **Swap-back**: the stone the opponent swapped in the previous turn (of either colour) may not be
//!   swapped while it still stands on its destination at the start of the turn; a stone captured or
//!   removed during that turn frees the point (a stone dropped there later is another stone).
//! - A pass is always legal once the colour is chosen (also on White's drop-only first turn) and is
//!   exempt from the ko and the no-swap-left rule. Two passes in a row end the game. A pass lifts the
//!   swap-back restriction (no stone was swapped).
//! - **Score**: area score on each board separately (regions never connect across boards), added up;
//!   no komi; equal totals are a draw.
//!
//! # The pie setup, as moves of the game
//! A new game ([`Galice::new`]) starts in [`Stage::Setup`]: the first player places three black, then
//! two white stones, **one stone per move** ([`Turn::SetupStone`]), then the second player makes the
//! colour choice ([`Turn::Choose`]), then White makes the drop-only first turn. The setup turn has
//! C(98,3)·C(95,2) = 679,108,640 possible outcomes: no move list can hold them, so the engine plays it
//! stone by stone and `legal_moves` stays complete in every stage. The record and the notation still
//! write the whole setup as one turn ([`Setup`], `setup x a1 b2 C3 o d4 E5`), and
//! [`Galice::play_setup`] plays it at once. A setup stone may not leave a group without liberties
//! (the rules say "any empty points"; a setup group without liberties has no sensible reading).
//!
//! The engine knows colours, not people: during the setup the player to move is called Black, during
//! the choice White. `Choose(White)` keeps these names; `Choose(Black)` means the chooser takes Black,
//! so the player who made the setup plays White from then on (and moves first). A program that plays
//! the pie rule (a search, a server) maps its players to colours after the choice accordingly.
//!
//! The ko treats the setup and the choice as turns that came before White's first drop: that drop may
//! not leave the boards as the setup left them.
//!
//! # Text
//! The turn notation (`bB2 D4`, `Ff6 --`, `--- c3`, `-----`, and this engine's `x a1`,
//! `setup x a1 b2 C3 o d4 E5`, `choose black`) is read and written by `FromStr`/`Display` on
//! [`Turn`], [`Setup`] and [`Action`]; the diagram by [`Galice::diagram`] and
//! [`Galice::from_diagram`] (with the who-moves lines `Setup to make` and `Colour to choose` for
//! positions inside the pie setup); whole games by [`Record`].
//!
//! # Light playouts
//! `light_move` draws uniformly among the legal turns that neither fill one of the mover's own eyes
//! (a swap of an own stone onto an own eye, or a drop onto one, eyes as [`Board::is_eye`] sees them
//! on the board the stone lands on) nor lose own stones at the end of the turn (suicide is legal
//! in Galice but a random player that throws stones away keeps games going for ever: with it, most
//! random games hit the playout cap; without it, most end by two passes). A pass when no such turn
//! is left. During the setup and the choice: uniform among the legal moves.
//!
//! The search's playout step (`play_playout_move`) answers the threats on the boards first: a
//! drop on the last liberty of an opponent chain in atari, else on that of one of the mover's
//! chains in atari (where the liberty has two empty neighbours), each after a random swap, if
//! the turn passes the light test; otherwise the light turn.
//!
//! # Implementation
//! Each board is a shared [`Board`]; a swap lifts the stone off one board (its chain is taken off
//! and put back without it, as the board has no single-stone removal) and puts it on the other
//! without taking the mover's groups off. Legality of the many drops after one swap is judged from
//! [`Board`]'s placement preview and hash preview, without playing them, except where the drop
//! captures or the mover has a group waiting without liberties.

mod diagram;
mod notation;
mod record;

pub use diagram::{DiagramError, who_moves};
pub use notation::{NotationError, parse_actions};
pub use record::{Entry, Record, RecordError, ReplayError};

use std::fmt;
use std::ops::Range;

use crate::board::{Board, EMPTY, code};
use crate::geometry::{Geometry, Point};
use crate::score::{AreaScore, HalfPoints, ScoreSheet};
use crate::zobrist::mix;
use crate::{Color, Game, GameResult, Illegal};

/// Points per side of each board.
pub const SIZE: u8 = 7;

/// One line for listings (`variago rules`).
pub const ABOUT: &str = "Alice Go: two 7x7 boards, a turn is a swap then an optional drop, pie setup";
/// Points of one board.
const AREA: usize = SIZE as usize * SIZE as usize;
/// Points of both boards together.
pub const SPOTS: usize = 2 * AREA;
/// Black stones the setup places.
pub const SETUP_BLACK: usize = 3;
/// White stones the setup places.
pub const SETUP_WHITE: usize = 2;
/// Every point of one board, as a mask.
const FULL: u64 = (1 << AREA) - 1;
/// Random draws a light turn tries before it lists every candidate.
const LIGHT_TRIES: usize = 24;
/// Random swaps the playout step tries with each kind of threat answer before the light turn.
const THREAT_TRIES: usize = 8;

/// One of the two boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The left board: columns `a`..`g`.
    Left = 0,
    /// The right board: columns `A`..`G`.
    Right = 1,
}

impl Side {
    /// The other board (where a swap goes).
    pub fn other(self) -> Side {
        match self {
            Side::Left => Side::Right,
            Side::Right => Side::Left,
        }
    }
}

/// A point of either board, the unit of the Galice notation: `c4` on the left board, `C4` on the
/// right. Row 1 is the top row, as the boards are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Spot(u8);

impl Spot {
    /// The point in column `column` (0 = `a`) and row `row` (1 = top) of a board.
    pub fn new(side: Side, column: u8, row: u8) -> Option<Spot> {
        (column < SIZE && (1..=SIZE).contains(&row))
            .then(|| Spot(side as u8 * AREA as u8 + (row - 1) * SIZE + column))
    }

    /// The spot with this index (0..98: the left board row by row from a1, then the right board).
    pub fn from_index(index: usize) -> Option<Spot> {
        (index < SPOTS).then_some(Spot(index as u8))
    }

    /// Its index, 0..98: a dense key for tables and bitsets.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Every point of both boards, in index order.
    pub fn all() -> impl Iterator<Item = Spot> {
        (0..SPOTS as u8).map(Spot)
    }

    /// The board it is on.
    pub fn side(self) -> Side {
        if (self.0 as usize) < AREA { Side::Left } else { Side::Right }
    }

    /// Its column, 0 = `a`.
    pub fn column(self) -> u8 {
        self.local() as u8 % SIZE
    }

    /// Its row, 1 = the top row.
    pub fn row(self) -> u8 {
        self.local() as u8 / SIZE + 1
    }

    /// The same coordinate on the other board: where a swap moves a stone.
    pub fn twin(self) -> Spot {
        if (self.0 as usize) < AREA { Spot(self.0 + AREA as u8) } else { Spot(self.0 - AREA as u8) }
    }

    /// The point on its own board, for the [`Board`] API.
    pub fn point(self) -> Point {
        point_of(self.local())
    }

    /// The spot of a point of one board (`None` for a point outside the 7x7 board).
    pub fn on(side: Side, point: Point) -> Option<Spot> {
        let g = geometry();
        g.contains(point).then(|| {
            let (x, y) = g.coords(point);
            Spot(side as u8 * AREA as u8 + y * SIZE + x)
        })
    }

    /// Index on its own board, 0..49.
    fn local(self) -> usize {
        self.0 as usize % AREA
    }

    /// Its bit in a one-board mask.
    fn bit(self) -> u64 {
        1 << self.local()
    }
}

impl fmt::Display for Spot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = match self.side() {
            Side::Left => b'a',
            Side::Right => b'A',
        };
        write!(f, "{}{}", (base + self.column()) as char, self.row())
    }
}

/// A move of Galice: a whole turn, or one step of the pie setup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Turn {
    /// Pass (`-----`).
    Pass,
    /// Swap the stone on `from` to its twin point, then drop a stone on `drop` if any (`bB2 D4`,
    /// `Ff6 --`).
    Swap {
        /// Where the swapped stone stands.
        from: Spot,
        /// Where the mover's new stone goes, if any.
        drop: Option<Spot>,
    },
    /// White's first turn after the setup: a drop alone (`--- c3`).
    Drop(Spot),
    /// One stone of the pie setup (`x a1`, `o d4`): three black stones first, then two white.
    SetupStone {
        /// The stone's colour.
        color: Color,
        /// Where it goes.
        at: Spot,
    },
    /// The colour choice of the pie rule: the colour the chooser will play (`choose black`).
    Choose(Color),
}

/// A whole pie setup: the one setup turn of a record (`setup x a1 b2 C3 o d4 E5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The three black stones, in index order.
    pub black: [Spot; SETUP_BLACK],
    /// The two white stones, in index order.
    pub white: [Spot; SETUP_WHITE],
}

impl Setup {
    /// A setup from its stones in any order (they are sorted, so equal setups compare equal).
    pub fn new(mut black: [Spot; SETUP_BLACK], mut white: [Spot; SETUP_WHITE]) -> Self {
        black.sort_unstable();
        white.sort_unstable();
        Setup { black, white }
    }

    /// The setup as the engine plays it: the black stones, then the white ones.
    pub fn turns(&self) -> [Turn; SETUP_BLACK + SETUP_WHITE] {
        let b = |at| Turn::SetupStone { color: Color::Black, at };
        let w = |at| Turn::SetupStone { color: Color::White, at };
        [b(self.black[0]), b(self.black[1]), b(self.black[2]), w(self.white[0]), w(self.white[1])]
    }
}

/// One step of a record: the setup turn as a whole, or a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// The pie setup, played as its five setup stones.
    Setup(Setup),
    /// A move.
    Turn(Turn),
}

/// Where the game stands: the pie setup, the colour choice, White's drop-only first turn, or play.
/// Together with the boards it is what a diagram's "who moves" line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The pie setup: three black stones, then two white ones (the player to move is called Black).
    Setup,
    /// The colour choice (the player to move is called White).
    Choice,
    /// White's first turn: a drop only, or a pass.
    FirstDrop,
    /// Normal turns, this colour to move.
    Play(Color),
}

/// The score of a Galice position: area score per board, added up, no komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GaliceScore {
    /// The left and the right board, each scored on its own.
    pub boards: [AreaScore; 2],
}

impl GaliceScore {
    /// Scores both boards by area (every stone alive); regions never connect across boards.
    pub fn of(left: &Board, right: &Board) -> Self {
        GaliceScore { boards: [AreaScore::of(left, HalfPoints(0)), AreaScore::of(right, HalfPoints(0))] }
    }
}

impl ScoreSheet for GaliceScore {
    fn totals(&self) -> [HalfPoints; 2] {
        let side = |c: usize| {
            let points: u32 = self.boards.iter().map(|b| b.sides[c].stones + b.sides[c].territory).sum();
            HalfPoints::points(points as i32)
        };
        [side(0), side(1)]
    }

    fn komi(&self) -> HalfPoints {
        HalfPoints(0)
    }
}

impl fmt::Display for GaliceScore {
    /// One line per side: stones and territory on each board, then the total
    /// (`Black: left 10 stones + 4 territory, right 7 stones + 0 territory = 21`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let totals = self.totals();
        for c in [Color::Black, Color::White] {
            let [l, r] = self.boards.map(|b| b.sides[c as usize]);
            writeln!(
                f,
                "{c}: left {} stones + {} territory, right {} stones + {} territory = {}",
                l.stones, l.territory, r.stones, r.territory, totals[c as usize]
            )?;
        }
        Ok(())
    }
}

/// A Galice position with everything legality depends on: both boards, the stage, passes in a row,
/// the stone the swap-back restriction protects and the position the ko forbids.
#[derive(Clone, PartialEq, Eq)]
pub struct Galice {
    boards: [Board; 2],
    stage: Stage,
    /// Passes in a row just before this position.
    passes: u8,
    /// Where the stone the opponent swapped in the previous turn stands, while it still does.
    barred: Option<Spot>,
    /// [`Galice::position_hash`] before the opponent's previous turn: the position no turn may
    /// recreate. `None` where there is no such turn (a diagram, the setup).
    ko: Option<u64>,
}

impl Default for Galice {
    fn default() -> Self {
        Self::new()
    }
}

/// What a legal move does, computed by the legality check and applied by `play`.
// a short-lived value moved once from the check into the position: boxing the boards would cost an
// allocation per turn to save a copy
#[allow(clippy::large_enum_variant)]
enum Change {
    Pass,
    SetupStone(Spot, Color),
    Choose,
    Turn { boards: [Board; 2], barred: Option<Spot> },
}

/// What a turn's swap leaves besides the boards.
#[derive(Clone, Copy, Debug, Default)]
struct Swapped {
    /// Where the swapped stone went, and its colour (`None` before White's first drop).
    stone: Option<(Spot, Color)>,
    /// Whether the mover may have a group without liberties at or next to the swap's destination
    /// (it stays until the end of the turn).
    pending: bool,
}

/// The boards after a turn's swap (or, on White's first turn, before its drop).
#[derive(Clone, Debug)]
struct AfterSwap {
    boards: [Board; 2],
    swapped: Swapped,
}

/// What the end-of-turn rules look at, taken from an [`AfterSwap`] once for all its drops.
#[derive(Clone, Copy, Debug)]
struct Probe {
    occupied: [u64; 2],
    hashes: [u64; 2],
}

impl Galice {
    /// A new game: two empty boards, the pie setup to make.
    pub fn new() -> Self {
        let board = Board::new(geometry());
        Galice { boards: [board.clone(), board], stage: Stage::Setup, passes: 0, barred: None, ko: None }
    }

    /// A position set up from stones and a stage (a diagram): no history, so no ko, no swap-back
    /// restriction and no passes. Refused if a point is given twice, if a group has no liberties, or
    /// if stones in [`Stage::Setup`] are not a partial setup (at most three black, then two white).
    pub fn set_up(stones: &[(Spot, Color)], stage: Stage) -> Result<Self, DiagramError> {
        let mut game = Galice::new();
        game.stage = stage;
        for &(spot, color) in stones {
            let board = &mut game.boards[spot.side() as usize];
            if board.cell(spot.point()) != EMPTY {
                return Err(DiagramError::Twice(spot));
            }
            // `put` takes no stone off: the position is exactly as given
            let _ = board.put(spot.point(), code(color));
        }
        for spot in Spot::all() {
            let board = game.board(spot.side());
            if board.cell(spot.point()) != EMPTY && board.liberties(spot.point()) == 0 {
                return Err(DiagramError::NoLiberties(spot));
            }
        }
        if stage == Stage::Setup {
            let [black, white] = game.stone_counts();
            if black > SETUP_BLACK || white > SETUP_WHITE || (white > 0 && black < SETUP_BLACK) {
                return Err(DiagramError::NotASetup { black, white });
            }
            if black == SETUP_BLACK && white == SETUP_WHITE {
                game.stage = Stage::Choice;
            }
        }
        Ok(game)
    }

    /// One of the two boards.
    pub fn board(&self, side: Side) -> &Board {
        &self.boards[side as usize]
    }

    /// The colour of the stone on a point, if any.
    pub fn stone(&self, spot: Spot) -> Option<Color> {
        match self.boards[spot.side() as usize].cell(spot.point()) & 3 {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }

    /// Where the game stands (setup, choice, first drop, or play).
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// Passes in a row just before this position.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// The point of the stone the swap-back restriction protects: the stone the opponent swapped in
    /// the previous turn, while it still stands where it went.
    pub fn barred(&self) -> Option<Spot> {
        self.barred
    }

    /// The [`Galice::position_hash`] no turn may recreate (the position before the opponent's
    /// previous turn), if any.
    pub fn ko_position(&self) -> Option<u64> {
        self.ko
    }

    /// A 64-bit hash of the stones on both boards (nothing else): what the ko compares.
    pub fn position_hash(&self) -> u64 {
        combine(self.boards[0].hash(), self.boards[1].hash())
    }

    /// [`Game::hash`] computed from scratch, for tests of the incremental one.
    pub fn recomputed_hash(&self) -> u64 {
        self.full_hash(combine(self.boards[0].recomputed_hash(), self.boards[1].recomputed_hash()))
    }

    /// The stones the player to move may swap, in index order, and whether they are the opponent's
    /// (a forced enemy swap because no stone of the mover can be swapped). Empty outside play.
    pub fn swappable(&self) -> (Vec<Spot>, bool) {
        if !matches!(self.stage, Stage::Play(_)) || self.is_over() {
            return (Vec::new(), false);
        }
        let (sources, enemy) = self.swap_sources(&self.masks());
        (spots_of(sources).collect(), enemy)
    }

    /// Plays a whole setup turn, or refuses it and leaves the position unchanged.
    pub fn play_setup(&mut self, setup: &Setup) -> Result<(), Illegal> {
        let mut next = self.clone();
        for turn in setup.turns() {
            next.play(turn)?;
        }
        *self = next;
        Ok(())
    }

    /// Plays a record's action (a whole setup or a move), or refuses it and changes nothing.
    pub fn perform(&mut self, action: &Action) -> Result<(), Illegal> {
        match action {
            Action::Setup(setup) => self.play_setup(setup),
            Action::Turn(turn) => self.play(*turn),
        }
    }

    /// The position as a diagram: the two boards side by side, row 1 first, then the who-moves line.
    pub fn diagram(&self) -> String {
        diagram::write(self)
    }

    /// Reads a diagram and its who-moves line (see [`Galice::diagram`]).
    pub fn from_diagram(text: &str) -> Result<Self, DiagramError> {
        diagram::read(text)
    }

    /// Reads the seven rows of a diagram alone, as the rules file shows a final position, for
    /// scoring only: the side to move does not change a score, so Black is set to move.
    pub fn from_bare_diagram(text: &str) -> Result<Self, DiagramError> {
        diagram::read_bare(text)
    }

    // --------------------------------------------------------------------------------------------
    // Legality.
    // --------------------------------------------------------------------------------------------

    /// Black and White stones on both boards together.
    fn stone_counts(&self) -> [usize; 2] {
        [Color::Black, Color::White].map(|c| self.boards[0].stones(c) + self.boards[1].stones(c))
    }

    /// The colour the next setup stone must have.
    fn setup_colour(&self) -> Color {
        if self.stone_counts()[0] < SETUP_BLACK { Color::Black } else { Color::White }
    }

    /// Each board's stones by colour, as masks of its 49 points.
    fn masks(&self) -> Masks {
        Masks::of(&self.boards)
    }

    /// The stones the mover may swap (a mask per board), and whether they are enemy stones.
    fn swap_sources(&self, masks: &Masks) -> ([u64; 2], bool) {
        let mover = self.to_move() as usize;
        let occupied = [masks.occupied(0), masks.occupied(1)];
        let barred = |side: usize| self.barred.filter(|s| s.side() as usize == side).map_or(0, Spot::bit);
        let sources =
            |c: usize| [0, 1].map(|side| masks.stones[side][c] & !occupied[1 - side] & !barred(side));
        let own = sources(mover);
        if own != [0, 0] { (own, false) } else { (sources(1 - mover), true) }
    }

    /// The boards after swapping the stone on `from` (known to be swappable by the mover).
    fn after_swap(&self, from: Spot, color: Color) -> AfterSwap {
        let mut boards = self.boards.clone();
        let swapped = swap_on(&mut boards, self.to_move(), from, color);
        AfterSwap { boards, swapped }
    }

    /// The boards before White's drop-only first turn.
    fn before_drop(&self) -> AfterSwap {
        AfterSwap { boards: self.boards.clone(), swapped: Swapped::default() }
    }

    /// The end-of-turn rules on the occupied points and hashes of both boards.
    fn end_rules(&self, probe: &Probe) -> Result<(), Illegal> {
        if probe.occupied[0] == probe.occupied[1] {
            return Err(Illegal::NoSwapLeft);
        }
        if self.ko == Some(combine(probe.hashes[0], probe.hashes[1])) {
            return Err(Illegal::TwinBoardKo);
        }
        Ok(())
    }

    /// Judges finishing the turn with `drop` on `boards` (after the swap, as `probe` describes
    /// them), without playing it where the drop captures nothing and no group of the mover waits
    /// for the end of the turn (the common case). A legal turn gives whether the mover loses stones
    /// at its end (suicide); with `light`, such a turn may give `Ok(true)` without being judged.
    fn judge_drop(
        &self,
        boards: &[Board; 2],
        swapped: Swapped,
        probe: &Probe,
        drop: Option<Spot>,
        light: bool,
    ) -> Result<bool, Illegal> {
        let mover = self.to_move();
        if swapped.pending {
            if light && swapped.stone.is_some_and(|(_, color)| color == mover) {
                // the moved stone's group has no liberty: only a drop that captures on its board
                // can save it
                let (to, _) = swapped.stone.expect("a swap");
                let board = &boards[to.side() as usize];
                let captures = |d: Spot| {
                    d.side() == to.side()
                        && board.cell(d.point()) == EMPTY
                        && board.preview(d.point(), mover).captured_groups > 0
                };
                if !drop.is_some_and(captures) {
                    return Ok(true);
                }
            }
            let own = |b: &[Board; 2]| b[0].stones(mover) + b[1].stones(mover);
            let mut scratch = boards.clone();
            complete_on(&mut scratch, mover, swapped, drop)?;
            self.end_rules(&Probe::of(&scratch))?;
            return Ok(own(&scratch) < own(boards) + drop.is_some() as usize);
        }
        let Some(d) = drop else { return self.end_rules(probe).map(|()| false) };
        let side = d.side() as usize;
        let board = &boards[side];
        let p = d.point();
        if board.cell(p) != EMPTY {
            return Err(Illegal::PointOccupied(d));
        }
        let mut probe = *probe;
        let preview = board.preview(p, mover);
        if light && preview.suicide {
            return Ok(true);
        }
        if preview.captured_groups == 0 && !preview.suicide {
            probe.occupied[side] |= d.bit();
            probe.hashes[side] = board.hash_after(p, mover, &preview, true);
        } else {
            let mut board = board.clone();
            board.place(p, mover);
            probe.occupied[side] = occupancy(&board);
            probe.hashes[side] = board.hash();
        }
        self.end_rules(&probe).map(|()| preview.suicide)
    }

    /// Plays the turn to its end and checks the end-of-turn rules.
    fn finish(&self, mut after: AfterSwap, drop: Option<Spot>) -> Result<Change, Illegal> {
        complete_on(&mut after.boards, self.to_move(), after.swapped, drop)?;
        self.end_rules(&Probe::of(&after.boards))?;
        let barred = barred_after(&after.boards, after.swapped, drop);
        Ok(Change::Turn { boards: after.boards, barred })
    }

    /// Whether a move is legal, and what it does.
    fn judge(&self, turn: Turn) -> Result<Change, Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        match (turn, self.stage) {
            (Turn::SetupStone { color, at }, Stage::Setup) => self.judge_setup_stone(color, at),
            (Turn::SetupStone { .. }, _) => Err(Illegal::SetupOver),
            (Turn::Choose(_), Stage::Choice) => Ok(Change::Choose),
            (Turn::Choose(_), Stage::Setup) | (_, Stage::Setup) => Err(Illegal::SetupUnfinished),
            (Turn::Choose(_), _) => Err(Illegal::SetupOver),
            (_, Stage::Choice) => Err(Illegal::ColourNotChosen),
            (Turn::Pass, _) => Ok(Change::Pass),
            (Turn::Drop(d), Stage::FirstDrop) => self.finish(self.before_drop(), Some(d)),
            (Turn::Drop(_), _) => Err(Illegal::SwapFirst),
            (Turn::Swap { .. }, Stage::FirstDrop) => Err(Illegal::FirstTurnDropOnly),
            (Turn::Swap { from, drop }, Stage::Play(_)) => {
                let Some(color) = self.stone(from) else { return Err(Illegal::NothingToSwap(from)) };
                if self.stone(from.twin()).is_some() {
                    return Err(Illegal::TwinOccupied(from.twin()));
                }
                if self.barred == Some(from) {
                    return Err(Illegal::SwapBack);
                }
                if color != self.to_move() && !self.swap_sources(&self.masks()).1 {
                    return Err(Illegal::EnemySwapNotForced);
                }
                self.finish(self.after_swap(from, color), drop)
            }
        }
    }

    fn judge_setup_stone(&self, color: Color, at: Spot) -> Result<Change, Illegal> {
        if color != self.setup_colour() {
            return Err(Illegal::SetupColourOrder);
        }
        let board = &self.boards[at.side() as usize];
        if board.cell(at.point()) != EMPTY {
            return Err(Illegal::PointOccupied(at));
        }
        let preview = board.preview(at.point(), color);
        if preview.suicide || preview.captured_groups > 0 {
            return Err(Illegal::SetupWithoutLiberties);
        }
        Ok(Change::SetupStone(at, color))
    }

    /// Plays what [`Self::judge`] accepted.
    fn apply(&mut self, change: Change) {
        let before = self.position_hash();
        match change {
            Change::Pass => {
                let passes = self.passes + 1;
                self.end_turn(before, None);
                self.passes = passes;
            }
            Change::SetupStone(at, color) => {
                self.boards[at.side() as usize].place(at.point(), color);
                if self.stone_counts() == [SETUP_BLACK, SETUP_WHITE] {
                    self.stage = Stage::Choice;
                }
            }
            Change::Choose => {
                self.stage = Stage::FirstDrop;
                self.ko = Some(before);
            }
            Change::Turn { boards, barred } => {
                self.boards = boards;
                self.end_turn(before, barred);
            }
        }
    }

    /// Records the end of a turn or a pass played on a position whose stones hashed to `before`.
    fn end_turn(&mut self, before: u64, barred: Option<Spot>) {
        self.barred = barred;
        self.passes = 0;
        self.ko = Some(before);
        self.stage = match self.stage {
            Stage::Play(c) => Stage::Play(c.opponent()),
            _ => Stage::Play(Color::Black),
        };
    }

    /// The hash of everything legality depends on, given the hash of the stones.
    fn full_hash(&self, stones: u64) -> u64 {
        let stage = match self.stage {
            Stage::Setup => 0,
            Stage::Choice => 1,
            Stage::FirstDrop => 2,
            Stage::Play(Color::Black) => 3,
            Stage::Play(Color::White) => 4,
        };
        let state = stage | (self.passes as u64) << 4 | self.barred.map_or(0, |s| s.0 as u64 + 1) << 8;
        stones ^ mix(state) ^ self.ko.map_or(0, |k| mix(k ^ 0x4B4F_4B4F_4B4F_4B4F))
    }

    // --------------------------------------------------------------------------------------------
    // Light playouts.
    // --------------------------------------------------------------------------------------------

    /// A uniformly random legal turn that fills no own eye and loses no own stone (see the module
    /// docs), played; a pass if there is none.
    ///
    /// The candidates form rows: one per swappable stone whose swap fills no own eye (or one row for
    /// White's first drop), each holding "no drop" and every point that is empty after the swap.
    /// A row's points are known before the swap is played (the empty points, with the swap's
    /// destination traded for its source) unless the swap captures, which only then is played
    /// up front on copies of the boards; other swaps are tried on the position's own boards and
    /// taken back. Cells are drawn uniformly over all rows; the first that is a legal turn
    /// dropping into no own eye and losing no own stone is played, which makes the choice uniform
    /// over those turns.
    /// After a few misses every cell is judged and one of the good ones is drawn, so the answer
    /// stays exact.
    ///
    /// With `answer_threats` (the search's playout step), a few draws first try the drops of
    /// [`Self::threat_answers`] (captures, then escapes), each after a random swap, and play the
    /// first that passes the same test.
    fn play_light_turn<R: rand::Rng + ?Sized>(&mut self, rng: &mut R, answer_threats: bool) -> Turn {
        let mover = self.to_move();
        let empties: Vec<Spot> = spots_of(Probe::of(&self.boards).free()).collect();
        let mut rows = self.light_rows(&empties);
        let total: usize = rows.iter().map(|row| row.weight).sum();
        let mut chosen = None;
        if answer_threats && !rows.is_empty() {
            let [captures, escapes] = self.threat_answers(mover);
            for answers in [captures, escapes].iter().filter(|answers| !answers.is_empty()) {
                for _ in 0..THREAT_TRIES {
                    let r = rng.random_range(0..rows.len());
                    let drop = answers[rng.random_range(0..answers.len())];
                    let Some(slot) = rows[r].slot_of(drop, &empties) else { continue };
                    if self.light_slot_is_good(&mut rows[r], slot, &empties) {
                        chosen = Some((r, slot));
                        break;
                    }
                }
                if chosen.is_some() {
                    break;
                }
            }
        }
        for _ in 0..if total > 0 && chosen.is_none() { LIGHT_TRIES } else { 0 } {
            let (mut r, mut slot) = (0, rng.random_range(0..total));
            while slot >= rows[r].weight {
                slot -= rows[r].weight;
                r += 1;
            }
            if self.light_slot_is_good(&mut rows[r], slot, &empties) {
                chosen = Some((r, slot));
                break;
            }
        }
        if chosen.is_none() {
            let mut good = Vec::new();
            for (r, row) in rows.iter_mut().enumerate() {
                let weight = row.weight;
                self.scan_light_row(row, 0..weight, &empties, |slot| good.push((r, slot)));
            }
            chosen = (!good.is_empty()).then(|| good[rng.random_range(0..good.len())]);
        }
        let Some((r, slot)) = chosen else {
            self.apply(Change::Pass);
            return Turn::Pass;
        };
        let row = rows.swap_remove(r);
        let drop = row.drop_at(slot, &empties);
        let turn = match (row.from, drop) {
            (Some(from), _) => Turn::Swap { from, drop },
            (None, Some(d)) => Turn::Drop(d),
            (None, None) => unreachable!("White's first turn always drops"),
        };
        match row.after {
            Some((after, _)) => match self.finish(after, drop) {
                Ok(change) => self.apply(change),
                Err(_) => unreachable!("the light turn was judged legal"),
            },
            None => {
                let before = self.position_hash();
                let swapped = row
                    .from
                    .map_or(Swapped::default(), |from| swap_on(&mut self.boards, mover, from, row.color));
                if complete_on(&mut self.boards, mover, swapped, drop).is_err() {
                    unreachable!("the light turn was judged legal");
                }
                self.end_turn(before, barred_after(&self.boards, swapped, drop));
            }
        }
        turn
    }

    /// The rows of the light turns' grid (see [`Self::play_light_turn`]) for the points
    /// `empties` that are empty now: White's first drop, or one per swappable stone whose swap
    /// fills no own eye.
    fn light_rows(&self, empties: &[Spot]) -> Vec<LightRow> {
        let mover = self.to_move();
        let mut rows = Vec::new();
        if self.stage == Stage::FirstDrop {
            rows.push(LightRow {
                from: None,
                color: mover,
                weight: empties.len(),
                after: None,
                captures: false,
            });
        } else {
            for from in spots_of(self.swap_sources(&self.masks()).0) {
                let color = self.stone(from).unwrap_or(mover);
                let to = from.twin();
                let board = &self.boards[to.side() as usize];
                if color == mover && board.is_eye(to.point(), mover) {
                    continue;
                }
                // a swap that captures (a forced enemy swap may capture the moved stone) changes
                // which points are empty beyond its source and destination: play it now
                let preview = board.preview(to.point(), color);
                let row = if preview.captured_groups > 0 || (color != mover && preview.suicide) {
                    let after = self.after_swap(from, color);
                    let probe = Probe::of(&after.boards);
                    let weight = 1 + spots_of(probe.free()).count();
                    LightRow { from: Some(from), color, weight, after: Some((after, probe)), captures: true }
                } else {
                    LightRow {
                        from: Some(from),
                        color,
                        weight: 1 + empties.len(),
                        after: None,
                        captures: false,
                    }
                };
                rows.push(row);
            }
        }
        rows
    }

    /// The drops that answer the threats on either board, for `mover`: the last liberty of each
    /// opponent chain in atari (a capture), and the last liberty of each of the mover's chains in
    /// atari where that liberty has two empty neighbours or more (an escape that is no self-atari
    /// at once). Both boards are small and crowded, and a swap changes both, so every chain is
    /// looked at rather than the last turn's stones.
    fn threat_answers(&self, mover: Color) -> [Vec<Spot>; 2] {
        let (mut captures, mut escapes) = (Vec::new(), Vec::new());
        for side in [Side::Left, Side::Right] {
            let board = &self.boards[side as usize];
            for j in 0..AREA {
                let p = point_of(j);
                let Some(chain) = board.chain_at(p).filter(|chain| chain.head == p) else { continue };
                let Some(liberty) = chain.sole_liberty else { continue };
                let Some(spot) = Spot::on(side, liberty) else { continue };
                if board.color(p) != Some(mover) {
                    captures.push(spot);
                } else if board.empty_neighbours(liberty) >= 2 {
                    escapes.push(spot);
                }
            }
        }
        [captures, escapes]
    }

    /// Whether the row's `slot` is a turn the light playouts may play ([`Self::scan_light_row`]).
    fn light_slot_is_good(&mut self, row: &mut LightRow, slot: usize, empties: &[Spot]) -> bool {
        let mut good = false;
        self.scan_light_row(row, slot..slot + 1, empties, |_| good = true);
        good
    }

    /// Calls `good` with each slot of `slots` in `row` that is a legal turn dropping into no own
    /// eye and losing no own stone. A swap whose stone is alone and stays alone is tried on the
    /// position's own boards and taken back (both cheap); any other is played once on copies, kept
    /// in the row.
    fn scan_light_row(
        &mut self,
        row: &mut LightRow,
        slots: Range<usize>,
        empties: &[Spot],
        mut good: impl FnMut(usize),
    ) {
        let mover = self.to_move();
        let in_place = row.after.is_none() && row.from.is_none_or(|from| self.swap_is_cheap(from, row.color));
        let swapped = match (in_place, row.from) {
            (true, Some(from)) => swap_on(&mut self.boards, mover, from, row.color),
            (true, None) => Swapped::default(),
            (false, _) => {
                let (after, _) = row.after.get_or_insert_with(|| {
                    let after = self.after_swap(row.from.expect("a swap"), row.color);
                    let probe = Probe::of(&after.boards);
                    (after, probe)
                });
                after.swapped
            }
        };
        let (boards, probe) = match &row.after {
            Some((after, probe)) => (&after.boards, *probe),
            None => (&self.boards, Probe::of(&self.boards)),
        };
        for slot in slots {
            let drop = row.drop_at(slot, empties);
            let into_eye = drop.is_some_and(|d| boards[d.side() as usize].is_eye(d.point(), mover));
            if !into_eye && self.judge_drop(boards, swapped, &probe, drop, true) == Ok(false) {
                good(slot);
            }
        }
        if let (true, Some(from)) = (in_place, row.from) {
            unswap_on(&mut self.boards, from, row.color);
        }
    }

    /// Whether swapping the stone on `from` and taking it back is cheaper on the shared board than
    /// once on copies: the stone is a chain of its own and lands next to no stone of its colour.
    /// (A chain's stone costs two walks of its chain for every trial, where a row's copy is made
    /// once: measured, trying every non-capturing swap in place costs a third more.)
    fn swap_is_cheap(&self, from: Spot, color: Color) -> bool {
        let to = from.twin();
        let alone = self.boards[from.side() as usize].chain(from.point()).nth(1).is_none();
        let board = &self.boards[to.side() as usize];
        alone && geometry().neighbours(to.point()).iter().all(|&n| board.cell(n) & 3 != code(color))
    }
}

/// The stones of each colour on each board, as masks of the board's 49 points.
#[derive(Clone, Copy, Debug, Default)]
struct Masks {
    /// `[side][colour]`.
    stones: [[u64; 2]; 2],
}

impl Masks {
    fn of(boards: &[Board; 2]) -> Self {
        let mut masks = Masks::default();
        for (side, board) in boards.iter().enumerate() {
            for j in 0..AREA {
                match board.cell(point_of(j)) & 3 {
                    1 => masks.stones[side][0] |= 1 << j,
                    2 => masks.stones[side][1] |= 1 << j,
                    _ => {}
                }
            }
        }
        masks
    }

    fn occupied(&self, side: usize) -> u64 {
        self.stones[side][0] | self.stones[side][1]
    }
}

/// One row of the light playouts' grid: a swap (or White's first drop) and its drop options.
struct LightRow {
    /// The swapped stone, `None` for White's first drop.
    from: Option<Spot>,
    /// The swapped stone's colour.
    color: Color,
    /// How many drop options the row has ("no drop" first, for a swap).
    weight: usize,
    /// The boards after the swap, once played on copies (up front for a swap that captures).
    after: Option<(AfterSwap, Probe)>,
    /// Whether the swap captures: its drop options are then read from `after`.
    captures: bool,
}

impl LightRow {
    /// The drop of the row's `slot`-th option. Without captures the points empty after the swap
    /// are the empty points before it with the destination traded for the source; with them, the
    /// empty points of the boards after the swap.
    fn drop_at(&self, slot: usize, empties: &[Spot]) -> Option<Spot> {
        let Some(from) = self.from else { return Some(empties[slot]) };
        let index = slot.checked_sub(1)?;
        match &self.after {
            Some((_, probe)) if self.captures => spots_of(probe.free()).nth(index),
            _ => Some(if empties[index] == from.twin() { from } else { empties[index] }),
        }
    }

    /// The slot of the row's option that drops on `drop`, if it has one (the inverse of
    /// [`Self::drop_at`]).
    fn slot_of(&self, drop: Spot, empties: &[Spot]) -> Option<usize> {
        let Some(from) = self.from else { return empties.binary_search(&drop).ok() };
        match &self.after {
            Some((_, probe)) if self.captures => {
                spots_of(probe.free()).position(|s| s == drop).map(|i| i + 1)
            }
            // the swap takes the destination and frees the source, which stands in its slot
            _ if drop == from.twin() => None,
            _ => {
                let listed = if drop == from { from.twin() } else { drop };
                empties.binary_search(&listed).ok().map(|i| i + 1)
            }
        }
    }
}

impl Probe {
    /// The empty points, a mask per board.
    fn free(&self) -> [u64; 2] {
        self.occupied.map(|o| !o & FULL)
    }

    fn of(boards: &[Board; 2]) -> Self {
        Probe {
            occupied: [occupancy(&boards[0]), occupancy(&boards[1])],
            hashes: [boards[0].hash(), boards[1].hash()],
        }
    }
}

/// The 7x7 board shape.
fn geometry() -> Geometry {
    Geometry::square(SIZE as u32).expect("7x7 is a board size")
}

/// The board point of index `j` (row by row from the top left) of a 7x7 board.
fn point_of(j: usize) -> Point {
    let stride = SIZE as usize + 1;
    Point(((j / SIZE as usize + 1) * stride + j % SIZE as usize + 1) as u16)
}

/// The mask bit of a point of a 7x7 board.
fn bit_of(p: Point) -> u64 {
    let stride = SIZE as usize + 1;
    1 << ((p.index() / stride - 1) * SIZE as usize + p.index() % stride - 1)
}

/// The occupied points of a board as a mask.
fn occupancy(board: &Board) -> u64 {
    board.empties().iter().fold(FULL, |mask, &p| mask & !bit_of(p))
}

/// The spots of a pair of per-board masks, in index order.
fn spots_of(masks: [u64; 2]) -> impl Iterator<Item = Spot> {
    (0..2).flat_map(move |side| {
        let mut rest = masks[side];
        std::iter::from_fn(move || {
            (rest != 0).then(|| {
                let j = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                Spot((side * AREA + j) as u8)
            })
        })
    })
}

/// The hash of both boards' stones: the right board's keys rotated, so that a stone on a point and
/// one on its twin do not cancel.
fn combine(left: u64, right: u64) -> u64 {
    left ^ right.rotate_left(32)
}

/// Swaps the stone of `color` on `from` to its twin on `boards` for `mover`: the opponent's groups
/// without liberties come off, the mover's stay until the end of the turn.
fn swap_on(boards: &mut [Board; 2], mover: Color, from: Spot, color: Color) -> Swapped {
    boards[from.side() as usize].lift(from.point());
    let to = from.twin();
    let t = to.point();
    let board = &mut boards[to.side() as usize];
    let preview = board.preview(t, color);
    let pending = if color == mover {
        // the mover's own group without liberties waits for the end of the turn
        if preview.suicide {
            let _ = board.put(t, code(color));
            true
        } else {
            board.place(t, color);
            false
        }
    } else if preview.captured_groups > 0 {
        // a forced enemy swap that takes the last liberty of the mover's groups: they stay until
        // the end of the turn; the moved stone's group comes off if it has no liberty
        let _ = board.put(t, code(color));
        if board.liberties(t) == 0 {
            remove_chain(board, t);
        }
        true
    } else {
        // captures nothing: `place` takes the moved stone's group off if it has no liberty
        board.place(t, color);
        false
    };
    Swapped { stone: Some((to, color)), pending }
}

/// Takes back a swap of `from` that captured nothing (the light playouts' trials).
fn unswap_on(boards: &mut [Board; 2], from: Spot, color: Color) {
    let to = from.twin();
    boards[to.side() as usize].lift(to.point());
    let _ = boards[from.side() as usize].put(from.point(), code(color));
}

/// Finishes a turn on the boards after its swap: the drop with its captures, then the mover's groups
/// without liberties come off. Fails only on an occupied drop point.
fn complete_on(
    boards: &mut [Board; 2],
    mover: Color,
    swapped: Swapped,
    drop: Option<Spot>,
) -> Result<(), Illegal> {
    if let Some(d) = drop {
        let board = &mut boards[d.side() as usize];
        if board.cell(d.point()) != EMPTY {
            return Err(Illegal::PointOccupied(d));
        }
        board.place(d.point(), mover);
    }
    if let (true, Some((to, _))) = (swapped.pending, swapped.stone) {
        let board = &mut boards[to.side() as usize];
        let t = to.point();
        for q in std::iter::once(t).chain(geometry().neighbours(t)) {
            // a chain already removed leaves its points empty, so each dies once
            if board.cell(q) & 3 == code(mover) && board.liberties(q) == 0 {
                remove_chain(board, q);
            }
        }
    }
    Ok(())
}

/// Where the swapped stone stands after the turn, if it still does: the next turn's swap-back
/// restriction.
fn barred_after(boards: &[Board; 2], swapped: Swapped, drop: Option<Spot>) -> Option<Spot> {
    let (to, color) = swapped.stone?;
    let stands = drop != Some(to) && boards[to.side() as usize].cell(to.point()) & 3 == code(color);
    stands.then_some(to)
}

/// Takes the chain through the stone `p` off the board (its neighbours get their liberties back).
/// `Board::remove_chain` walks the chain's ring from the stone it is given, which need not be the
/// chain's head: the dying chain's own bookkeeping it may touch on the way is reset by the next
/// `put` on those points.
fn remove_chain(board: &mut Board, p: Point) {
    board.remove_chain(p);
}

/// A turn moves stones on two boards: never a single placement for the search's features.
impl crate::Placement for Turn {}

impl Game for Galice {
    type Move = Turn;
    const PASS: Turn = Turn::Pass;
    type Score = GaliceScore;

    /// Black during the setup, White during the colour choice (see the module docs).
    fn to_move(&self) -> Color {
        match self.stage {
            Stage::Setup => Color::Black,
            Stage::Choice | Stage::FirstDrop => Color::White,
            Stage::Play(c) => c,
        }
    }

    /// In index order: setup stones by point; both choices; first drops by point; swaps by source,
    /// each without a drop first, then by drop point; the pass last.
    fn legal_moves(&self, out: &mut Vec<Turn>) {
        out.clear();
        if self.is_over() {
            return;
        }
        match self.stage {
            Stage::Setup => {
                let color = self.setup_colour();
                let ok = |&at: &Spot| self.judge_setup_stone(color, at).is_ok();
                out.extend(Spot::all().filter(ok).map(|at| Turn::SetupStone { color, at }));
                return;
            }
            Stage::Choice => {
                out.extend([Turn::Choose(Color::Black), Turn::Choose(Color::White)]);
                return;
            }
            Stage::FirstDrop => {
                let probe = Probe::of(&self.boards);
                let ok = |&d: &Spot| {
                    self.judge_drop(&self.boards, Swapped::default(), &probe, Some(d), false).is_ok()
                };
                out.extend(spots_of(probe.free()).filter(ok).map(Turn::Drop));
            }
            Stage::Play(_) => {
                let (sources, _) = self.swap_sources(&self.masks());
                for from in spots_of(sources) {
                    let after = self.after_swap(from, self.stone(from).unwrap_or(self.to_move()));
                    let probe = Probe::of(&after.boards);
                    let drops = std::iter::once(None).chain(spots_of(probe.free()).map(Some));
                    for drop in drops {
                        if self.judge_drop(&after.boards, after.swapped, &probe, drop, false).is_ok() {
                            out.push(Turn::Swap { from, drop });
                        }
                    }
                }
            }
        }
        out.push(Turn::Pass);
    }

    fn check(&self, turn: Turn) -> Result<(), Illegal> {
        self.judge(turn).map(|_| ())
    }

    fn play(&mut self, turn: Turn) -> Result<(), Illegal> {
        let change = self.judge(turn)?;
        self.apply(change);
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.passes >= 2
    }

    fn outcome(&self) -> Option<GameResult> {
        self.is_over().then(|| self.score().result())
    }

    fn score(&self) -> GaliceScore {
        GaliceScore::of(&self.boards[0], &self.boards[1])
    }

    /// The stones of both boards, the stage and side to move, the passes, the swap-back restriction
    /// and the ko position.
    fn hash(&self) -> u64 {
        self.full_hash(self.position_hash())
    }

    /// Both boards, each counted alone as [`GaliceScore`] counts it (regions never connect across
    /// the boards), written by [`Spot::index`]: `out[0..49]` the left board and `out[49..98]` the
    /// right one, each row by row from row 1 (the top), columns `a`..`g`.
    fn owners(&self, out: &mut Vec<Option<Color>>) {
        out.clear();
        out.resize(SPOTS, None);
        for side in [Side::Left, Side::Right] {
            AreaScore::each_owner(&self.boards[side as usize], |p, owner| {
                if let Some(spot) = Spot::on(side, p) {
                    out[spot.index()] = owner;
                }
            });
        }
    }

    /// The colour choice: the chooser plays the colour it takes.
    fn colour_after(&self, turn: Turn) -> Color {
        match turn {
            Turn::Choose(color) => color,
            _ => self.to_move(),
        }
    }

    fn playout_cap(&self) -> usize {
        crate::playout::MAX_MOVES_PER_POINT * SPOTS
    }

    /// Setup and choice: uniform among the legal moves. Turns: uniform among the legal turns that
    /// fill no own eye and lose no own stone, a pass when there is none (see the module docs).
    fn play_light_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Turn {
        if self.is_over() {
            return Turn::Pass;
        }
        match self.stage {
            Stage::Setup | Stage::Choice => {
                let mut moves = Vec::new();
                self.legal_moves(&mut moves);
                let turn = moves[rng.random_range(0..moves.len())];
                if let Ok(change) = self.judge(turn) {
                    self.apply(change);
                }
                turn
            }
            Stage::FirstDrop | Stage::Play(_) => self.play_light_turn(rng, false),
        }
    }

    /// The light turn, except that a drop capturing an opponent chain in atari, else one saving a
    /// chain of the mover's in atari, is tried first, on either board
    /// ([`Galice::threat_answers`]): random turns leave such captures to chance, and with them
    /// the playouts' verdicts on fights.
    fn play_playout_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Turn {
        match self.stage {
            Stage::FirstDrop | Stage::Play(_) if !self.is_over() => self.play_light_turn(rng, true),
            _ => self.play_light_move(rng),
        }
    }
}

impl fmt::Debug for Galice {
    /// The diagram and the history legality depends on (the boards' own `Debug` is pages long).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}passes {}, barred {:?}, ko {:?}", self.diagram(), self.passes, self.barred, self.ko)
    }
}

impl fmt::Display for Galice {
    /// The diagram with its who-moves line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagram())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    /// `LightRow::slot_of` finds every option's slot from its drop, in rows with and without a
    /// capturing swap, over the positions of random games.
    #[test]
    fn a_rows_slot_is_found_from_its_drop() {
        let mut rng = SmallRng::seed_from_u64(5);
        let (mut rows_seen, mut capturing) = (0, 0);
        for _ in 0..40 {
            let mut game = Galice::new();
            while !game.is_over() && game.passes() == 0 {
                if matches!(game.stage(), Stage::FirstDrop | Stage::Play(_)) {
                    let empties: Vec<Spot> = spots_of(Probe::of(&game.boards).free()).collect();
                    for row in game.light_rows(&empties) {
                        rows_seen += 1;
                        capturing += usize::from(row.captures);
                        for slot in 0..row.weight {
                            if let Some(drop) = row.drop_at(slot, &empties) {
                                assert_eq!(row.slot_of(drop, &empties), Some(slot), "{game:?}");
                            }
                        }
                    }
                }
                game.play_light_move(&mut rng);
            }
        }
        assert!(rows_seen > 1000 && capturing > 10, "{rows_seen} rows, {capturing} capturing");
    }
}
