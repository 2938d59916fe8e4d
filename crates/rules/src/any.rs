//! The variant chosen at run time (CLI, GTP, server): an enum over every variant's game, itself a
//! [`Game`], dispatching to the monomorphised variant.

use crate::board::Board;
use crate::geometry::Geometry;
use crate::go::Go;
use crate::incursion::Incursion;
use crate::score::AreaScore;
use crate::spec::{Variant, VariantSpec};
use crate::stoical::Stoical;
use crate::{Color, Game, GameResult, Illegal, Move, StoneGame};

/// A position of any variant.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// `go`
    Go(Go),
    /// the Incursion family
    Incursion(Incursion),
    /// `stoical`
    Stoical(Stoical),
}

/// Runs the same expression on whichever variant the enum holds.
macro_rules! dispatch {
    ($self:expr, $g:ident => $e:expr) => {
        match $self {
            AnyGame::Go($g) => $e,
            AnyGame::Incursion($g) => $e,
            AnyGame::Stoical($g) => $e,
        }
    };
}

impl AnyGame {
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
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        dispatch!(self, g => g.board())
    }

    /// The rules as a spec (without size).
    pub fn spec(&self) -> VariantSpec {
        let variant = match self {
            AnyGame::Go(g) => Variant::Go(g.rules().clone()),
            AnyGame::Incursion(g) => Variant::Incursion(g.rules().clone()),
            AnyGame::Stoical(g) => Variant::Stoical(g.rules().clone()),
        };
        VariantSpec { variant, size: None }
    }
}

impl Game for AnyGame {
    type Move = Move;
    type Score = AreaScore;

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

    fn score(&self) -> AreaScore {
        dispatch!(self, g => g.score())
    }

    fn hash(&self) -> u64 {
        dispatch!(self, g => g.hash())
    }

    fn light_move<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Move {
        dispatch!(self, g => g.light_move(rng))
    }

    fn play_light_move<R: rand::Rng + ?Sized>(&mut self, rng: &mut R) -> Move {
        dispatch!(self, g => g.play_light_move(rng))
    }
}
