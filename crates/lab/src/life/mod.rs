//! Life and death, exact over a local region (docs/lab.md, "Life and death"): a problem is a
//! position, the side to move and a goal (live or kill); [`search`] proves or disproves the goal
//! by depth-first proof-number search under the variant's own rules.
//!
//! **Definitions.** The *defender* is the side to move for `live`, the opponent for `kill`. The
//! *region* is what the defender can reach: the points connected to the defender's pieces through
//! points that do not hold the attacker's, inside the bounding box of all the stones widened by
//! one line on each side that is not the board's edge. Moves are placements on the region's empty
//! points, or a pass; nobody plays outside it. The empty points just outside the region get the
//! attacker's stones (a *frame*, as the collections assume the outside to be the attacker's): the
//! defender must live inside, and the attacker's stones there keep their liberties outside, so
//! the wall can never be captured. The attacker's pieces next to the region's points belong to the
//! region too, so that a point they leave when captured can be played. The *target* is the set of
//! points holding the defender's pieces at the
//! start. The attacker succeeds when no target point holds a defender piece any more (every
//! target stone captured), and must do so by force in a finite number of moves; everything else
//! is the defender's success: a chain holding a target point that is unconditionally alive
//! ([`benson`]) decides at once, and play that goes on for
//! ever (seki, a ko neither side can win, both sides passing) is the defender's too. A pass stands
//! for a move elsewhere: it lifts the rules' restrictions as any pass does, and two passes in a
//! row do not end the fight; a position repeated on the line searched is play that can go on for
//! ever, the defender's.

pub mod benson;
pub mod search;

use variago_rules::{AnyGame, Board, Color, Game, Geometry, Move, Piece, Point, VariantSpec};

pub use search::{Answer, Verdict, solve_problem};

/// What the side to move plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Keep its own stones: the mover defends.
    Live,
    /// Capture the opponent's stones: the mover attacks.
    Kill,
}

impl Goal {
    /// `live` or `kill`, as the output writes it.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Live => "live",
            Goal::Kill => "kill",
        }
    }
}

/// Who has won a position of a problem, once one side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// The target is captured.
    Attacker,
    /// The target lives unconditionally (play that goes on for ever is the defender's too, but
    /// the search judges that, not a position).
    Defender,
}

/// A life-and-death problem: the position, the region, the target, and the goal of the side to
/// move.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The position, the prover (the side whose goal it is) to move.
    pub start: AnyGame,
    /// The goal of the side to move.
    pub goal: Goal,
    /// Whether each slot (by [`Point::index`]) is in the region.
    region: Vec<bool>,
    /// The region's points, row by row.
    region_points: Vec<Point>,
    /// The points holding the defender's pieces at the start.
    target: Vec<Point>,
    /// The defender.
    defender: Color,
}

/// Why a problem cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// The side that must be captured or saved has no stone.
    #[error("{0} has no stones: nothing to {1}")]
    NoTarget(Color, &'static str),
}

impl Problem {
    /// The problem of `to_move` reaching `goal` on `board` under `spec` (the own-position draw
    /// off: repetitions are judged by the search).
    pub fn new(
        spec: &VariantSpec,
        board: Board,
        to_move: Color,
        goal: Goal,
    ) -> Result<Problem, ProblemError> {
        let geometry = board.geometry();
        let defender = match goal {
            Goal::Live => to_move,
            Goal::Kill => to_move.opponent(),
        };
        let target: Vec<Point> = geometry.points().filter(|&p| board.color(p) == Some(defender)).collect();
        if target.is_empty() {
            return Err(ProblemError::NoTarget(
                defender,
                if goal == Goal::Live { "save" } else { "capture" },
            ));
        }
        let (region, region_points) = region_around(&board, defender);
        // the frame: the attacker's stones on the empty points just outside the region
        let mut board = board;
        let geometry = board.geometry();
        for &p in &region_points {
            for n in geometry.neighbours(p) {
                if geometry.contains(n) && !region[n.index()] && board.piece(n).is_none() {
                    board.set(n, Some(Piece::stone(defender.opponent())));
                }
            }
        }
        let mut spec = spec.clone();
        spec.set_own_position_draw(false);
        let start = AnyGame::from_setup(&spec, board, to_move);
        Ok(Problem { start, goal, region, region_points, target, defender })
    }

    /// The region's points, row by row from the top.
    pub fn region_points(&self) -> &[Point] {
        &self.region_points
    }

    /// The defender.
    pub fn defender(&self) -> Color {
        self.defender
    }

    /// The moves of a position that the search tries: the legal placements on the region's empty
    /// points, then the pass.
    pub fn moves(&self, game: &AnyGame, out: &mut Vec<Move>) {
        out.clear();
        let board = game.board();
        for &p in &self.region_points {
            if board.piece(p).is_none() && game.check(Move::Place(p)).is_ok() {
                out.push(Move::Place(p));
            }
        }
        out.push(Move::Pass);
    }

    /// The position after a legal move, as the rules play it, except that a pass answering a
    /// pass does not end the game: locally a pass stands for a move elsewhere, after which the
    /// fight goes on (with the rules' memory of a pass: no restriction on the reply).
    pub fn play(&self, game: &AnyGame, mv: Move) -> AnyGame {
        let mut child = game.clone();
        child.play(mv).expect("the problem plays legal moves");
        if child.is_over() {
            child = game.clone().with_past(0, 0, None);
            child.play(Move::Pass).expect("a pass is always legal");
        }
        child
    }

    /// Who has won the position, if anyone has (the module's definitions).
    pub fn decided(&self, game: &AnyGame) -> Option<Decided> {
        let board = game.board();
        let standing: Vec<Point> =
            self.target.iter().copied().filter(|&p| board.color(p) == Some(self.defender)).collect();
        if standing.is_empty() {
            return Some(Decided::Attacker);
        }
        let alive = benson::alive_points(board, self.defender, &self.region);
        if standing.iter().any(|p| alive[p.index()]) {
            return Some(Decided::Defender);
        }
        None
    }
}

/// Solves `to_move`'s problem on `board` for `goal`, or, without one, finds the goal: first the
/// one whose defender has the smaller region (the enclosed side is the one whose life is at
/// stake), then the other; the first the side to move reaches is the answer, else the first
/// one's. The nodes of both searches are counted.
pub fn solve(
    spec: &VariantSpec,
    board: &Board,
    to_move: Color,
    goal: Option<Goal>,
    max_nodes: u64,
) -> Result<Answer, ProblemError> {
    let goals = match goal {
        Some(goal) => vec![goal],
        None => vec![Goal::Kill, Goal::Live],
    };
    let mut problems = Vec::new();
    let mut refusal = None;
    for goal in goals {
        match Problem::new(spec, board.clone(), to_move, goal) {
            Ok(problem) => problems.push(problem),
            Err(e) => refusal = Some(e),
        }
    }
    problems.sort_by_key(|p| p.region_points().len());
    let mut first: Option<Answer> = None;
    let mut spent = 0;
    for problem in &problems {
        let mut answer = solve_problem(problem, max_nodes);
        spent += answer.nodes;
        if answer.verdict == Verdict::Success {
            answer.nodes = spent;
            return Ok(answer);
        }
        first.get_or_insert(answer);
    }
    match first {
        Some(mut answer) => {
            answer.nodes = spent;
            Ok(answer)
        }
        // no goal made a problem: each was refused
        None => Err(refusal.unwrap_or(ProblemError::NoTarget(to_move, "save"))),
    }
}

/// The region of a problem whose defender is `defender`: the points reachable from the
/// defender's pieces through points not holding the attacker's, inside the bounding box of all
/// the stones widened by one line on each side that is not the board's edge, and the attacker's
/// pieces next to them; as a mask by slot and as a list of points, row by row.
fn region_around(board: &Board, defender: Color) -> (Vec<bool>, Vec<Point>) {
    let geometry: Geometry = board.geometry();
    let stones: Vec<(u8, u8)> =
        geometry.points().filter(|&p| board.piece(p).is_some()).map(|p| geometry.coords(p)).collect();
    let bounds = |values: Vec<u8>, size: u8| {
        let low = values.iter().copied().min().unwrap_or(0).saturating_sub(1);
        let high = values.iter().copied().max().map_or(size - 1, |m| (m + 1).min(size - 1));
        low..=high
    };
    let columns = bounds(stones.iter().map(|s| s.0).collect(), geometry.width());
    let rows = bounds(stones.iter().map(|s| s.1).collect(), geometry.height());
    let in_box = |p: Point| {
        geometry.contains(p) && {
            let (x, y) = geometry.coords(p);
            columns.contains(&x) && rows.contains(&y)
        }
    };
    let mut mask = vec![false; geometry.slots()];
    let mut stack: Vec<Point> = geometry.points().filter(|&p| board.color(p) == Some(defender)).collect();
    for p in &stack {
        mask[p.index()] = true;
    }
    while let Some(p) = stack.pop() {
        for n in geometry.neighbours(p) {
            if !in_box(n) || mask[n.index()] {
                continue;
            }
            // the attacker's pieces are taken in, not gone through
            mask[n.index()] = true;
            if board.color(n) != Some(defender.opponent()) {
                stack.push(n);
            }
        }
    }
    let points = geometry.points().filter(|p| mask[p.index()]).collect();
    (mask, points)
}
