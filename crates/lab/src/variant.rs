//! The games the lab's game graph holds: the stone games of the Go family ([`VariantSpec`], played
//! as [`AnyGame`]) and Square Lifeline ([`LifelineSpec`]). What differs between them is said
//! once here, so that the graph, the cycle search and the solver are one code for both: how a
//! position's past is packed into a state, how a state is made a position again, and how a game
//! ends (Go's second pass, which leads to no state; Lifeline's player with no placement, which is
//! a state of its own).

use std::fmt;

use variago_rules::excursion::ExcursionForm;
use variago_rules::lifeline::{Lifeline, LifelineSpec, Stage, Turn};
use variago_rules::{
    AnyGame, AreaScore, Board, Color, Game, Geometry, HalfPoints, Move, Point, ScoreSheet, VariantSpec,
};

use crate::solve::Payoff;
use crate::state::{PackedState, StateCoder};

/// A variant whose positions the lab's graph holds as states (lab.md).
pub trait LabVariant: Clone + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// Its positions.
    type Game: Game;
    /// Whether the game has a pass (the cycle table's pass settings are then both searched).
    const HAS_PASS: bool;
    /// The move that ends the game in a state with an ending ([`LabVariant::ending`]), if the end
    /// is a move: Go's second pass. Square Lifeline's end is the state itself.
    const ENDING_MOVE: Option<<Self::Game as Game>::Move>;

    /// The empty board, Black to move.
    fn start(&self, geometry: Geometry) -> Self::Game;
    /// The board of a position.
    fn board(game: &Self::Game) -> &Board;
    /// Passes in a row and the rule memory lab.md names for the variant, a point numbered by
    /// `number` (from 1).
    fn passes_and_memory(game: &Self::Game, number: impl Fn(Point) -> u64) -> (u8, u64);
    /// The position of a state: its board, side to move, passes and memory (`point` is the
    /// point `number` numbered n).
    fn position(
        &self,
        board: Board,
        to_move: Color,
        passes: u8,
        memory: u64,
        point: impl Fn(u64) -> Point,
    ) -> Self::Game;
    /// Whether a position a move leads to is a state of the graph: not a Go game ended by a
    /// second pass (that pass's payoff belongs to the state it was played from).
    fn is_state(game: &Self::Game) -> bool;
    /// The payoff (Black's gain) of the game's end in the state `packed`, if it can end there:
    /// in Go when its last move was a pass (the area score, komi 0, every piece alive), in Square
    /// Lifeline when the player to move has no legal placement (a loss, -1 for Black, 1 for White).
    fn ending(&self, coder: &StateCoder, packed: PackedState) -> Option<Payoff>;
    /// A move as the lab prints it: GTP's vertex or `pass`; Lifeline's pair `A1+C3` or `swap`.
    fn move_text(geometry: Geometry, mv: <Self::Game as Game>::Move) -> String;
}

impl LabVariant for VariantSpec {
    type Game = AnyGame;
    const HAS_PASS: bool = true;
    const ENDING_MOVE: Option<Move> = Some(Move::Pass);

    fn start(&self, geometry: Geometry) -> AnyGame {
        AnyGame::new(self, geometry)
    }

    fn board(game: &AnyGame) -> &Board {
        game.board()
    }

    /// The banned ko point (0 for none), whether the last move was a counted incursion, whether
    /// it captured (how many stones with `refine=more-stones`), nothing in Excursion Go 1, whether
    /// it placed a king in Excursion Go 2.
    fn passes_and_memory(game: &AnyGame, number: impl Fn(Point) -> u64) -> (u8, u64) {
        match game {
            AnyGame::Go(g) => (g.passes(), g.ko_point().map_or(0, number)),
            AnyGame::Incursion(g) => (g.passes(), g.memory() as u64),
            AnyGame::Stoical(g) if g.rules().more_stones => (g.passes(), g.memory() as u64),
            AnyGame::Stoical(g) => (g.passes(), (g.memory() > 0) as u64),
            AnyGame::Excursion(g) => match g.rules().form {
                ExcursionForm::One => (g.passes(), 0),
                ExcursionForm::Two => (g.passes(), g.memory() as u64),
            },
            // refused by `searchable_variant`; its pass count alone keeps packing total
            AnyGame::Borderline(_) => (0, 0),
        }
    }

    fn position(
        &self,
        board: Board,
        to_move: Color,
        passes: u8,
        memory: u64,
        point: impl Fn(u64) -> Point,
    ) -> AnyGame {
        let game = AnyGame::from_setup(self, board, to_move);
        let ko_point = match game {
            AnyGame::Go(_) if memory > 0 => Some(point(memory)),
            _ => None,
        };
        game.with_past(passes, memory, ko_point)
    }

    fn is_state(game: &AnyGame) -> bool {
        !game.is_over()
    }

    fn ending(&self, coder: &StateCoder, packed: PackedState) -> Option<Payoff> {
        coder.pass_ends_game(packed).then(|| {
            let [black, white] = AreaScore::of(&coder.board(packed), HalfPoints(0)).totals();
            ((black.0 - white.0) / 2) as Payoff
        })
    }

    fn move_text(geometry: Geometry, mv: Move) -> String {
        crate::move_text(geometry, mv)
    }
}

/// The stage as the state's memory: 0 once the first turns are over, else which first turn.
fn stage_memory(stage: Stage) -> u64 {
    match stage {
        Stage::Placements(_) => 0,
        Stage::BlackFirstTurn => 1,
        Stage::WhiteFirstTurn { swap_available: true } => 2,
        Stage::WhiteFirstTurn { swap_available: false } => 3,
    }
}

/// Square Lifeline, searched with `draw=none` (lab.md: history-free, a state is the board, the side
/// to move and the stage).
impl LabVariant for LifelineSpec {
    type Game = Lifeline;
    const HAS_PASS: bool = false;
    const ENDING_MOVE: Option<Turn> = None;

    fn start(&self, geometry: Geometry) -> Lifeline {
        Lifeline::new(self.rules, geometry)
    }

    fn board(game: &Lifeline) -> &Board {
        game.board()
    }

    fn passes_and_memory(game: &Lifeline, _number: impl Fn(Point) -> u64) -> (u8, u64) {
        (0, stage_memory(game.stage()))
    }

    fn position(
        &self,
        board: Board,
        to_move: Color,
        _passes: u8,
        memory: u64,
        _point: impl Fn(u64) -> Point,
    ) -> Lifeline {
        let stage = match memory {
            1 => Stage::BlackFirstTurn,
            2 => Stage::WhiteFirstTurn { swap_available: true },
            3 => Stage::WhiteFirstTurn { swap_available: false },
            _ => Stage::Placements(to_move),
        };
        Lifeline::set_up(self.rules, board, stage).expect("a state's board was left by a turn: no dead group")
    }

    fn is_state(_game: &Lifeline) -> bool {
        true
    }

    fn ending(&self, coder: &StateCoder, packed: PackedState) -> Option<Payoff> {
        let game = coder.unpack(self, packed);
        game.is_over().then(|| if game.to_move() == Color::Black { -1 } else { 1 })
    }

    fn move_text(geometry: Geometry, turn: Turn) -> String {
        turn.to_text(geometry)
    }
}

/// Square Lifeline as the lab searches it: `draw=none`, whatever the spec says (lab.md: the
/// question is whether a game *can* go on forever).
pub fn searchable_lifeline(mut spec: LifelineSpec) -> LifelineSpec {
    spec.rules.own_position_draw = false;
    spec
}

/// A variant the lab's graph holds, as a command names it: a Go-family spec, or Square Lifeline.
#[derive(Clone, Debug, PartialEq)]
pub enum Searched {
    /// A stone game of the Go family ([`crate::searchable_variant`]).
    Stones(VariantSpec),
    /// Square Lifeline, with `draw=none`.
    Lifeline(LifelineSpec),
}

impl Searched {
    /// Reads a spec the lab searches: `lifeline[:...]` as Square Lifeline, any other through
    /// [`crate::searchable_variant`]; the own-position draw is off in both.
    pub fn parse(text: &str) -> Result<Searched, crate::LabError> {
        if variago_rules::lifeline::names_lifeline(text) {
            return Ok(Searched::Lifeline(searchable_lifeline(text.parse()?)));
        }
        crate::searchable_variant(text).map(Searched::Stones)
    }

    /// The board size the spec names, if it names one.
    pub fn size(&self) -> Option<Geometry> {
        match self {
            Searched::Stones(spec) => spec.size,
            Searched::Lifeline(spec) => spec.size,
        }
    }
}
