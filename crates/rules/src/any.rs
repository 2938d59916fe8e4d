//! The variant chosen at run time (CLI, GTP, server): an enum over every variant's game, itself a
//! [`Game`], dispatching to the monomorphised variant.

use crate::board::Board;
use crate::borderline::{Borderline, BorderlineScore};
use crate::excursion::Excursion;
use crate::geometry::{Geometry, Point};
use crate::go::Go;
use crate::incursion::Incursion;
use crate::score::{AreaScore, HalfPoints};
use crate::spec::{Variant, VariantSpec};
use crate::stoical::Stoical;
use crate::{Color, Game, GameResult, Illegal, Move, ScoreSheet, StoneGame, Stones};
use std::fmt;

/// A position of any variant.
#[derive(Debug)]
pub enum AnyGame {
    /// `go`
    Go(Go),
    /// the Incursion family
    Incursion(Incursion),
    /// `stoical`
    Stoical(Stoical),
    /// Excursion Go, either form
    Excursion(Excursion),
    /// Warhorn: Borderline
    Borderline(Borderline),
}

impl Clone for AnyGame {
    fn clone(&self) -> Self {
        match self {
            AnyGame::Go(g) => AnyGame::Go(g.clone()),
            AnyGame::Incursion(g) => AnyGame::Incursion(g.clone()),
            AnyGame::Stoical(g) => AnyGame::Stoical(g.clone()),
            AnyGame::Excursion(g) => AnyGame::Excursion(g.clone()),
            AnyGame::Borderline(g) => AnyGame::Borderline(g.clone()),
        }
    }

    /// A copy into this position's own lists where both are of one variant (the lab's searches
    /// copy a position at every move).
    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (AnyGame::Go(g), AnyGame::Go(s)) => g.clone_from(s),
            (AnyGame::Incursion(g), AnyGame::Incursion(s)) => g.clone_from(s),
            (AnyGame::Stoical(g), AnyGame::Stoical(s)) => g.clone_from(s),
            (AnyGame::Excursion(g), AnyGame::Excursion(s)) => g.clone_from(s),
            (this, source) => *this = source.clone(),
        }
    }
}

/// The score of any variant: area scoring, or Borderline's live breakdown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyScore {
    /// Stones plus territory (Go, Incursion, Stoical, Excursion).
    Area(AreaScore),
    /// Borderline's terms per side.
    Borderline(BorderlineScore),
}

impl AnyScore {
    /// The area score, for the variants scored by area.
    pub fn area(&self) -> Option<&AreaScore> {
        match self {
            AnyScore::Area(s) => Some(s),
            AnyScore::Borderline(_) => None,
        }
    }
}

impl ScoreSheet for AnyScore {
    fn totals(&self) -> [HalfPoints; 2] {
        match self {
            AnyScore::Area(s) => s.totals(),
            AnyScore::Borderline(s) => s.totals(),
        }
    }

    fn komi(&self) -> HalfPoints {
        match self {
            AnyScore::Area(s) => s.komi(),
            AnyScore::Borderline(s) => s.komi(),
        }
    }
}

impl fmt::Display for AnyScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyScore::Area(s) => s.fmt(f),
            AnyScore::Borderline(s) => s.fmt(f),
        }
    }
}

/// Runs the same expression on whichever variant the enum holds.
macro_rules! dispatch {
    ($self:expr, $g:ident => $e:expr) => {
        match $self {
            AnyGame::Go($g) => $e,
            AnyGame::Incursion($g) => $e,
            AnyGame::Stoical($g) => $e,
            AnyGame::Excursion($g) => $e,
            AnyGame::Borderline($g) => $e,
        }
    };
}

/// Generic code to run on the concrete game inside an [`AnyGame`], monomorphised per variant:
/// how a program that picks the variant at run time still runs a hot loop (playouts, search)
/// without matching on the enum at every move.
pub trait GameVisitor {
    /// What the code returns.
    type Output;
    /// Runs on the concrete game.
    fn visit<G: Game>(self, game: G) -> Self::Output;
}

impl AnyGame {
    /// Takes up a game that two passes ended ([`StoneGame::resume`]); Borderline's end, which
    /// its counted stones and passes decide, is final. Returns whether the game goes on.
    pub fn resume(&mut self) -> bool {
        match self {
            AnyGame::Go(g) => g.resume(),
            AnyGame::Incursion(g) => g.resume(),
            AnyGame::Stoical(g) => g.resume(),
            AnyGame::Excursion(g) => g.resume(),
            AnyGame::Borderline(_) => false,
        }
    }

    /// Hands the concrete game to `visitor`.
    pub fn visit<V: GameVisitor>(self, visitor: V) -> V::Output {
        dispatch!(self, g => visitor.visit(g))
    }

    /// The empty board of a variant, Black to move.
    pub fn new(spec: &VariantSpec, geometry: Geometry) -> Self {
        Self::from_setup(spec, Board::new(geometry), Color::Black)
    }

    /// A set-up position (no history before it).
    pub fn from_setup(spec: &VariantSpec, board: Board, to_move: Color) -> Self {
        match &spec.variant {
            Variant::Go(r) => AnyGame::Go(StoneGame::from_setup(r.clone(), board, to_move)),
            Variant::Incursion(r) => AnyGame::Incursion(StoneGame::from_setup(r.clone(), board, to_move)),
            Variant::Stoical(r) => AnyGame::Stoical(StoneGame::from_setup(r.clone(), board, to_move)),
            Variant::Excursion(r) => AnyGame::Excursion(StoneGame::from_setup(r.clone(), board, to_move)),
            Variant::Borderline(r) => AnyGame::Borderline(Borderline::from_setup(*r, board, to_move)),
        }
    }

    /// The same game without the room reserved up front for a whole game's history (see
    /// [`StoneGame::without_reserved_history`]); Borderline keeps its own.
    pub fn without_reserved_history(self) -> Self {
        match self {
            AnyGame::Go(g) => AnyGame::Go(g.without_reserved_history()),
            AnyGame::Incursion(g) => AnyGame::Incursion(g.without_reserved_history()),
            AnyGame::Stoical(g) => AnyGame::Stoical(g.without_reserved_history()),
            AnyGame::Excursion(g) => AnyGame::Excursion(g.without_reserved_history()),
            borderline @ AnyGame::Borderline(_) => borderline,
        }
    }

    /// The same position with the past the lab's states record (see [`StoneGame::with_past`]):
    /// `memory` as the lab packs it (whether the last move was a counted incursion or placed a
    /// king, how many stones it captured); Go keeps only the ko ban, Borderline nothing.
    pub fn with_past(self, passes: u8, memory: u64, ko_point: Option<Point>) -> Self {
        match self {
            AnyGame::Go(g) => AnyGame::Go(g.with_past(passes, Default::default(), ko_point)),
            AnyGame::Incursion(g) => AnyGame::Incursion(g.with_past(passes, memory != 0, ko_point)),
            AnyGame::Stoical(g) => {
                let captured = u16::try_from(memory).unwrap_or(u16::MAX);
                AnyGame::Stoical(g.with_past(passes, captured, ko_point))
            }
            AnyGame::Excursion(g) => AnyGame::Excursion(g.with_past(passes, memory != 0, ko_point)),
            AnyGame::Borderline(g) => AnyGame::Borderline(g),
        }
    }

    /// The key this position leaves in the superko history ([`StoneGame::superko_key`]), if a
    /// superko rule is in force (Borderline's positional superko always is).
    pub fn superko_key(&self) -> Option<u64> {
        match self {
            AnyGame::Go(g) => g.superko_key(),
            AnyGame::Incursion(g) => g.superko_key(),
            AnyGame::Stoical(g) => g.superko_key(),
            AnyGame::Excursion(g) => g.superko_key(),
            AnyGame::Borderline(g) => Some(g.board().hash()),
        }
    }

    /// The point the last move's capture bans a retake on, by the simple ko or as a superko
    /// bans it ([`StoneGame::ko_point`]): a ban the position's hash holds, where a superko's
    /// other bans depend on the line that led to it. Borderline keeps none.
    pub fn ko_point(&self) -> Option<Point> {
        match self {
            AnyGame::Go(g) => g.ko_point(),
            AnyGame::Incursion(g) => g.ko_point(),
            AnyGame::Stoical(g) => g.ko_point(),
            AnyGame::Excursion(g) => g.ko_point(),
            AnyGame::Borderline(_) => None,
        }
    }

    /// The history's key ([`StoneGame::history_key`]): with the hash, it fixes the legal moves.
    /// `None` for Borderline, whose legality reads counts the key leaves out.
    pub fn history_key(&self) -> Option<u64> {
        match self {
            AnyGame::Go(g) => Some(g.history_key()),
            AnyGame::Incursion(g) => Some(g.history_key()),
            AnyGame::Stoical(g) => Some(g.history_key()),
            AnyGame::Excursion(g) => Some(g.history_key()),
            AnyGame::Borderline(_) => None,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        dispatch!(self, g => g.board())
    }

    /// The score as it stands after each move: Borderline's live score (no ko award), the area
    /// score elsewhere.
    pub fn live_score(&self) -> AnyScore {
        match self {
            AnyGame::Borderline(g) => AnyScore::Borderline(g.live_score()),
            _ => self.score(),
        }
    }

    /// The rules as a spec (without size).
    pub fn spec(&self) -> VariantSpec {
        let variant = match self {
            AnyGame::Go(g) => Variant::Go(g.rules().clone()),
            AnyGame::Incursion(g) => Variant::Incursion(g.rules().clone()),
            AnyGame::Stoical(g) => Variant::Stoical(g.rules().clone()),
            AnyGame::Excursion(g) => Variant::Excursion(g.rules().clone()),
            AnyGame::Borderline(g) => Variant::Borderline(*g.rules()),
        };
        VariantSpec { variant, size: None }
    }
}

impl Game for AnyGame {
    type Move = Move;
    const PASS: Move = Move::Pass;
    type Score = AnyScore;

    fn to_move(&self) -> Color {
        dispatch!(self, g => g.to_move())
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        dispatch!(self, g => g.legal_moves(out))
    }

    fn check(&self, mv: Move) -> Result<(), Illegal> {
        dispatch!(self, g => g.check(mv))
    }

    fn play(&mut self, mv: Move) -> Result<(), Illegal> {
        dispatch!(self, g => g.play(mv))
    }

    fn is_over(&self) -> bool {
        dispatch!(self, g => g.is_over())
    }

    fn outcome(&self) -> Option<GameResult> {
        dispatch!(self, g => g.outcome())
    }

    fn score(&self) -> AnyScore {
        match self {
            AnyGame::Borderline(g) => AnyScore::Borderline(g.score()),
            AnyGame::Go(g) => AnyScore::Area(g.score()),
            AnyGame::Incursion(g) => AnyScore::Area(g.score()),
            AnyGame::Stoical(g) => AnyScore::Area(g.score()),
            AnyGame::Excursion(g) => AnyScore::Area(g.score()),
        }
    }

    fn hash(&self) -> u64 {
        dispatch!(self, g => g.hash())
    }

    fn playout_cap(&self) -> usize {
        dispatch!(self, g => g.playout_cap())
    }

    fn score_scale(&self) -> Option<f64> {
        dispatch!(self, g => g.score_scale())
    }

    fn stones(&self) -> Option<Stones<'_>> {
        dispatch!(self, g => g.stones())
    }

    fn owners(&self, out: &mut Vec<Option<Color>>) {
        dispatch!(self, g => g.owners(out))
    }

    fn light_move<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Move {
        dispatch!(self, g => g.light_move(rng))
    }

    fn play_light_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Move {
        dispatch!(self, g => g.play_light_move(rng))
    }

    fn play_playout_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Move {
        dispatch!(self, g => g.play_playout_move(rng))
    }
}
