//! The variago rules engine: exact and fast rules for standard Go and its variants, behind one
//! [`Game`] trait so that search, perft, records and servers work on every variant alike.
//!
//! Pure library: no I/O, no threads, no async. The shared [`Board`] does chains, liberties,
//! captures and hashing; each variant module adds its few rules on top of it, KataGo style
//! (board, a small rules config, and the history that legality depends on).

pub mod any;
mod bits;
pub mod board;
pub mod borderline;
pub mod excursion;
pub mod galice;
pub mod geometry;
pub mod go;
pub mod incursion;
pub mod lifeline;
mod own_boards;
pub mod perft;
pub mod playout;
pub mod score;
pub mod spec;
pub mod stoical;
pub mod stone_game;
mod zobrist;

use std::fmt;

pub use any::{AnyGame, AnyScore};
pub use board::{Board, ChainAt, PointMask};
pub use geometry::{Geometry, GeometryError, Point, Vertex};
pub use score::{AreaScore, HalfPoints, ScoreSheet};
pub use spec::{SpecError, VariantSpec};
pub use stone_game::{StoneGame, StoneRules};

/// Input quoted in an error message: its first [`EXCERPT_CHARS`] characters with an ellipsis where
/// it was cut, control characters (line breaks) escaped, so that an error stays one short line
/// whatever was read (a megabyte of junk once made a megabyte of error).
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// How much of a quoted input [`excerpt`] keeps: enough to recognise it.
pub const EXCERPT_CHARS: usize = 60;

/// A player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Moves first.
    Black = 0,
    /// Moves second and receives komi.
    White = 1,
}

impl Color {
    /// The other player.
    #[inline(always)]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `B` or `W`, as SGF and results write it.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// A piece on a board: a stone, or (in Excursion Go) a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its owner.
    pub color: Color,
    /// Whether it is a king rather than a stone.
    pub king: bool,
}

impl Piece {
    /// A plain stone.
    pub fn stone(color: Color) -> Self {
        Piece { color, king: false }
    }

    pub(crate) fn cell(self) -> u8 {
        board::code(self.color) | if self.king { board::KING } else { 0 }
    }
}

/// A move of the single-board variants: a placement or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Pass the turn.
    Pass,
    /// Place a piece on a point.
    Place(Point),
}

impl Move {
    /// The point a placement goes on; `None` for a pass.
    pub fn point(self) -> Option<Point> {
        match self {
            Move::Place(p) => Some(p),
            Move::Pass => None,
        }
    }
}

/// A variant's move as the search's move features and playout policy read it: whether it
/// places a single stone, and where. The defaults say it never does (Galice's turns).
pub trait Placement: Sized {
    /// The point the move places a stone on; `None` for a pass and, by default, for moves that
    /// are not single placements.
    fn placement(self) -> Option<Point> {
        None
    }
    /// The move that places a stone on `p`, the inverse of [`Placement::placement`] (the
    /// playout policy proposes points); `None`, the default, where moves are not single
    /// placements.
    fn placing(_p: Point) -> Option<Self> {
        None
    }
    /// The points a move puts stones on at once, for the search's move model: the single
    /// placement by default, and both stones of Square Lifeline's first-turn pair, which the
    /// model weighs as the two placements together.
    fn stones_placed(self) -> [Option<Point>; 2] {
        [self.placement(), None]
    }
}

impl Placement for Move {
    fn placement(self) -> Option<Point> {
        self.point()
    }

    fn placing(p: Point) -> Option<Self> {
        Some(Move::Place(p))
    }
}

/// A board of stones and the last placement on it: what the search's move features read (the
/// pattern around a move, its distance to the last one).
#[derive(Clone, Copy, Debug)]
pub struct Stones<'a> {
    /// The board as it stands.
    pub board: &'a Board,
    /// The point of the last move, when it was a placement.
    pub last: Option<Point>,
}

/// Why a move is illegal. Every reason prints as a sentence for players, GTP and the server.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Illegal {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The point is not on this board.
    #[error("the point is not on the board")]
    OffBoard,
    /// Something stands on the point.
    #[error("point {0} is occupied")]
    Occupied(Vertex),
    /// The mover's group would have no liberties.
    #[error("suicide")]
    Suicide,
    /// A suicide that would leave the board exactly as it was: a pass in disguise.
    #[error("changes nothing (a lone stone that would only remove itself)")]
    ChangesNothing,
    /// Simple ko: retaking at once, recreating the board before the opponent's move.
    #[error("retakes the ko at once (recreates the previous position)")]
    Ko,
    /// Positional superko.
    #[error("recreates an earlier position (positional superko)")]
    PositionalSuperko,
    /// Situational superko.
    #[error("recreates an earlier position with the same player to move (situational superko)")]
    SituationalSuperko,
    /// Incursion Go.
    #[error("incursion right after the opponent's incursion")]
    IncursionAfterIncursion,
    /// Incursion Go, minimal form.
    #[error("minimal incursion right after the opponent's minimal incursion")]
    MinimalIncursionAfterMinimal,
    /// Excursion Go 1.
    #[error("places a king and removes a king")]
    KingRemovesKing,
    /// Excursion Go 2.
    #[error("places a king and removes a king right after the opponent placed one")]
    KingRemovesKingAfterKing,
    /// Stoical Go.
    #[error("capture right after the opponent's capture")]
    CaptureAfterCapture,
    /// Stoical Go with `refine=more-stones`.
    #[error(
        "capture of {captures} stone(s) right after the opponent's capture of {previous}: it must take more than {previous}"
    )]
    CaptureNotLarger {
        /// Stones this move would capture.
        captures: u16,
        /// Stones the opponent's last move captured.
        previous: u16,
    },
    /// Galice: a turn, a pass or the colour choice before the pie setup is complete.
    #[error("the setup is not finished: the setup stones come first")]
    SetupUnfinished,
    /// Galice: a turn or a pass before the colour choice.
    #[error("the colour must be chosen first")]
    ColourNotChosen,
    /// Galice: a setup stone or a colour choice after the setup.
    #[error("the setup is over")]
    SetupOver,
    /// Galice: the engine plays the pie setup as its three black stones, then its two white ones.
    #[error("the setup places its three black stones first, then the two white ones")]
    SetupColourOrder,
    /// Galice: a setup stone may not leave a group (its own or another) without liberties.
    #[error("a setup may not leave a group without liberties")]
    SetupWithoutLiberties,
    /// Galice: White's first turn after the setup is a drop alone.
    #[error("White's first turn is a drop only")]
    FirstTurnDropOnly,
    /// Galice: a turn is a swap followed by an optional drop; only White's first turn drops alone.
    #[error("a turn starts with a swap (only White's first turn is a drop alone)")]
    SwapFirst,
    /// Galice: a stone on the drop point (or the setup point).
    #[error("point {0} is occupied")]
    PointOccupied(galice::Spot),
    /// Galice: the swap's source point is empty.
    #[error("there is no stone on {0} to swap")]
    NothingToSwap(galice::Spot),
    /// Galice: a stone on the twin point the swap would go to.
    #[error("the twin point {0} is occupied")]
    TwinOccupied(galice::Spot),
    /// Galice: the stone the opponent swapped in the previous turn may not be swapped back.
    #[error("swap-back: the stone the opponent just swapped may not go back")]
    SwapBack,
    /// Galice: an opponent stone may be swapped only when none of the mover's stones can be.
    #[error("a stone of yours can be swapped, so no opponent stone may be")]
    EnemySwapNotForced,
    /// Galice: no turn may leave a position in which no stone of either colour has an empty twin.
    #[error("no swap would be possible after this turn")]
    NoSwapLeft,
    /// Borderline: a placement with the side's forces used up.
    #[error("no stones left")]
    NoStonesLeft,
    /// Borderline: a deployment stone outside the mover's own zone.
    #[error(
        "deployment: {color}'s first {} must be in rows {first_row}-{last_row}",
        stones_in_words(*.stones)
    )]
    Deployment {
        /// The mover.
        color: Color,
        /// How many of its first stones the deployment binds.
        stones: u32,
        /// The lowest row of its zone, numbered as the board's labels and the vertices number
        /// them (1 at the bottom).
        first_row: u8,
        /// The highest row of its zone.
        last_row: u8,
    },
    /// Borderline: a pass before the deployment is complete.
    #[error("no pass during deployment")]
    PassDuringDeployment,
    /// Borderline: the per-game pass cap is used up.
    #[error("pass not allowed: used {used} of {cap}")]
    PassCapReached {
        /// Voluntary passes made.
        used: u8,
        /// The cap.
        cap: u8,
    },
    /// Borderline: the cooldown after a pass.
    #[error("pass not allowed for {turns} more {}", if *.turns == 1 { "turn" } else { "turns" })]
    PassCooldown {
        /// Own placements still needed.
        turns: u8,
    },
    /// Galice: the ko on the combined position of both boards.
    #[error("recreates the position before the opponent's last turn (ko)")]
    TwinBoardKo,
    /// Square Lifeline: the trait's pass, which the game does not have.
    #[error("there is no passing in Square Lifeline: the player with no legal placement loses")]
    NoPassing,
    /// Square Lifeline: a single stone on a first turn.
    #[error("a first turn places two stones: play a pair of empty points")]
    PairExpected,
    /// Square Lifeline: a pair after the first turn.
    #[error("only a first turn places two stones: this turn places one")]
    PairAfterFirstTurn,
    /// Square Lifeline: a pair naming one point twice.
    #[error("a first turn needs two distinct empty points")]
    PairNotDistinct,
    /// Square Lifeline: the swap in a game played with `swap=false`.
    #[error("there is no swap in this game (swap=false)")]
    NoSwapRule,
    /// Square Lifeline: a second swap.
    #[error("the swap is already used: White now makes its first turn")]
    SwapAlreadyUsed,
    /// Square Lifeline: the swap on another turn than White's first.
    #[error("the swap is only for White's first turn")]
    SwapOutsideWhitesFirstTurn,
    /// Square Lifeline: a turn whose stones all die at once and remove nothing else, leaving the
    /// board as it was.
    #[error("{}", if *.pair {
        "both stones would be dead at once and nothing else removed: this turn changes nothing"
    } else {
        "a lone stone with no other group of its colour to reach is dead at once: this move changes nothing"
    })]
    NullTurn {
        /// Whether the turn was a first turn's pair.
        pair: bool,
    },
}

/// "two stones", "one stone": counts the way the rules text writes them.
fn stones_in_words(n: u32) -> String {
    const WORDS: [&str; 10] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    match n {
        1 => "stone".to_string(),
        _ => format!("{} stones", WORDS.get(n as usize).map_or(n.to_string(), |w| w.to_string())),
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Counted: the winner's margin, komi included (zero for a draw).
    Score(HalfPoints),
    /// Won without a count: the last player to place won (Square Lifeline), printed `B+`, SGF's
    /// result without a score.
    LastPlacement,
    /// A player recreated one of its own earlier positions (Incursion, Stoical, Excursion).
    OwnPositionDraw,
    /// The loser resigned.
    Resignation,
}

/// The result of a finished game, printed as SGF's `RE` writes it: `B+3.5`, `W+R`, `Draw`, `B+`
/// (a win without a score).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// How the game ended.
    pub ending: Ending,
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.ending) {
            (None, _) | (_, Ending::OwnPositionDraw) => f.write_str("Draw"),
            (Some(c), Ending::Resignation) => write!(f, "{}+R", c.letter()),
            (Some(c), Ending::LastPlacement) => write!(f, "{}+", c.letter()),
            (Some(c), Ending::Score(margin)) => write!(f, "{}+{}", c.letter(), margin),
        }
    }
}

/// A game position of any variant: what every algorithm (search, perft, records, servers) needs.
///
/// Everything legality depends on lives in the position (superko boards, the restriction left
/// by the last move, passes), so a position loaded from a record behaves exactly like one reached
/// by play.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// A move (or a whole turn, for variants with compound turns).
    type Move: Placement + Copy + Eq + std::hash::Hash + fmt::Debug + Send + Sync + 'static;
    /// The score breakdown this variant prints.
    type Score: ScoreSheet;

    /// The pass of this variant (every variant has one): the search treats it apart (AMAF, the
    /// pass rules).
    const PASS: Self::Move;

    /// The player whose turn it is.
    fn to_move(&self) -> Color;
    /// Writes every legal move (pass included where legal) into `out`, after clearing it; writes
    /// nothing once the game is over.
    fn legal_moves(&self, out: &mut Vec<Self::Move>);
    /// Whether a move is legal, and if not, why.
    fn check(&self, mv: Self::Move) -> Result<(), Illegal>;
    /// Plays a legal move, or refuses it with the reason and leaves the position unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), Illegal>;
    /// Whether the game has ended (cheap: the playouts call it after every move).
    fn is_over(&self) -> bool;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<GameResult>;
    /// The score of the position as it stands, as if the game ended now.
    fn score(&self) -> Self::Score;
    /// A 64-bit hash of the board, the side to move and what the last move restricts (the long
    /// superko history is left out): a transposition key for the search.
    fn hash(&self) -> u64;
    /// A random legal move for light playouts: uniform among legal moves that do not fill the
    /// mover's own eye, and a pass when there is none. The move
    /// [`Game::play_light_move`] would play on a copy of the position.
    fn light_move<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Self::Move {
        self.clone().play_light_move(rng)
    }
    /// Points of score margin over which a playout's value keeps rising within the same result,
    /// for variants where the margin itself matters (Borderline's live score): the search then
    /// prefers larger wins and smaller losses. `None`, the default, values only the result.
    fn score_scale(&self) -> Option<f64> {
        None
    }
    /// The board of stones and the last placement, for the search's move features; `None`, the
    /// default, for variants with no single board of stones (Galice).
    fn stones(&self) -> Option<Stones<'_>> {
        None
    }
    /// Who would own each point if the game were counted now, written to `out[point.index()]`
    /// (`None` for a point neither side owns), for the search's ownership estimate over its
    /// playouts' final positions. Galice writes its two boards by its own point index
    /// (`galice::Spot::index`: the left board, then the right). The default writes nothing (`out`
    /// left empty): variants whose count is not point by point (Borderline, whose score counts
    /// captures and weighs its terms) have none.
    fn owners(&self, out: &mut Vec<Option<Color>>) {
        out.clear();
    }
    /// Moves after which a light playout stops even if the game goes on (random play may cycle
    /// where the rules allow it): a few times the number of points.
    fn playout_cap(&self) -> usize;
    /// Whether Go's liberty tactics (atari answers, 3x3 shapes, self-atari) suit this game's
    /// playouts. Square Lifeline's stones die for want of an empty path to a friend, not of
    /// liberties: its playouts are its own ([`Game::play_playout_move`]) whatever the policy.
    fn liberty_tactics(&self) -> bool {
        true
    }
    /// The colour whose result the player making `mv` plays for from then on: the colour to move,
    /// except for a pie rule's move that hands its player the other colour (Square Lifeline's
    /// swap, Galice's choice of Black), which the search must judge by that colour's result.
    fn colour_after(&self, _mv: Self::Move) -> Color {
        self.to_move()
    }
    /// The search's playout step: a light move, except that a variant may first answer the last
    /// move's threats (capture a chain it left in atari, save one of the mover's it put in
    /// atari), which makes the playouts' results far more telling for the same cost.
    fn play_playout_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Self::Move {
        self.play_light_move(rng)
    }
    /// Plays a random legal move for light playouts (as [`Game::light_move`] describes) and
    /// returns it: the playouts' step, which judges the chosen move only once.
    fn play_light_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Self::Move;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_short_single_lines() {
        assert_eq!(excerpt("C3"), "C3");
        assert_eq!(excerpt(&"é".repeat(EXCERPT_CHARS)), "é".repeat(EXCERPT_CHARS));
        assert_eq!(excerpt(&"é".repeat(EXCERPT_CHARS + 1)), format!("{}…", "é".repeat(EXCERPT_CHARS)));
        assert_eq!(excerpt("a\nb\tc"), "a\\nb\\tc");
    }
}
