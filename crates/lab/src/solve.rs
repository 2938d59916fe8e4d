//! Small boards solved exactly (lab.md, "Solving small boards"): for every state of the game graph
//! `L`, what Black can make sure of, and `U`, what White can hold Black to; the states where they
//! differ (forced-cycle states); a line of play that keeps the value and ends; and the shortest
//! forced cycle.
//!
//! **How.** `L` by retrograde analysis: Black's attractor of the game's ends worth at least `t`,
//! for `t` from the highest payoff down. A state enters it when Black is to move and one of its
//! moves (or the pass that ends the game) enters it, or when White is to move and all of them
//! have; since the attractor only grows as `t` falls, one set of counters (White's moves not yet
//! in it) serves every `t`, and each state's `L` is the `t` at which it entered. A state that White
//! can keep out forever never enters: play that never ends is worth nothing to Black. `U` is the
//! same with the sides swapped, `t` rising. Both walk the moves backwards (each state's
//! predecessors, built once from the graph), so the whole solve is linear in the moves.

use std::collections::VecDeque;

use variago_rules::{Color, Geometry, Move};

use crate::Graph;
use crate::cycles::{Cycle, shortest_cycle_among};
use crate::graph::{MoveOf, map_in_shares, packed_state_bytes};
use crate::variant::LabVariant;

/// `L`, `U` or a payoff: area scores fit a byte (the packed state holds at most 40 points).
pub type Payoff = i8;

/// Marks a state whose pass does not end the game.
pub const NO_ENDING: Payoff = Payoff::MIN;

/// `L` of a state from which Black cannot force an end (minus infinity).
pub const NEVER_LOW: Payoff = Payoff::MIN;

/// `U` of a state from which White cannot force an end (plus infinity).
pub const NEVER_HIGH: Payoff = Payoff::MAX;

/// A solved graph: every state's `L` and `U`, and what the line of play is found from.
#[derive(Debug)]
pub struct Solution {
    /// `L` of each state (by the graph's numbering): what Black can make sure of.
    pub lower: Vec<Payoff>,
    /// `U` of each state: what White can hold Black to.
    pub upper: Vec<Payoff>,
    /// For a state where the game can end, the payoff of its end ([`LabVariant::ending`]: the
    /// pass that ends a Go game, Square Lifeline's player with no placement); [`NO_ENDING`]
    /// elsewhere.
    pub ending: Vec<Payoff>,
    /// When each state entered Black's attractor (in `L`'s computation): every state entered after
    /// the moves that put it there, so following smaller numbers ends the game.
    entered: Vec<u32>,
}

/// A forced cycle (lab.md): a cycle of moves through states that all have `L < target <= U`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedCycle<M = Move> {
    /// The target `t`: Black playing for at least `t` and White for less go round the cycle.
    pub target: i32,
    /// The path from the empty board to the cycle's first state, and the cycle's moves.
    pub cycle: Cycle<M>,
}

/// Why a graph cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The exploration stopped before the end: some states' moves are unknown.
    #[error("the graph was not explored to the end ({0} states found): no value can be given")]
    Incomplete(usize),
}

impl Solution {
    /// The number of forced-cycle states: those with `L < U`.
    pub fn forced_cycle_states(&self) -> usize {
        self.lower.iter().zip(&self.upper).filter(|(l, u)| l < u).count()
    }

    /// `L` and `U` of the empty board, Black to move (state 0).
    pub fn root(&self) -> (Payoff, Payoff) {
        (self.lower[0], self.upper[0])
    }
}

/// About how many bytes each state costs at the peak of a solve: the graph's (its packed state,
/// parent and offset, and its moves at four bytes each, about half as many as the points), the
/// moves again backwards with their offsets, `L`, `U`, the ending, the entry order, the counters
/// of both attractors and the queue; a quarter more for the vectors' spare room.
pub fn bytes_per_state(geometry: Geometry) -> usize {
    let state = packed_state_bytes(geometry);
    let moves = 4 * (geometry.area() + 1) / 2;
    const PARENT_OFFSETS: usize = 4 + 4 + 4;
    const VALUES_ORDER_COUNTERS_QUEUE: usize = 3 + 4 + 2 + 8;
    (state + PARENT_OFFSETS + 2 * moves + VALUES_ORDER_COUNTERS_QUEUE) * 5 / 4
}

/// The phases of a solve, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Scoring the states a pass would end.
    Endings,
    /// Building each state's predecessors.
    Predecessors,
    /// Both attractors (`L` and `U`, on two threads when there are two).
    Values,
}

/// Each state's predecessors: the states with a move to it, once per move.
struct Predecessors {
    offsets: Vec<u32>,
    states: Vec<u32>,
}

impl Predecessors {
    fn of<V: LabVariant>(graph: &Graph<V>) -> Predecessors {
        let count = graph.states.len();
        let mut offsets = vec![0u32; count + 1];
        for v in 0..count {
            for &w in graph.next_states(v) {
                offsets[w as usize + 1] += 1;
            }
        }
        for i in 0..count {
            offsets[i + 1] += offsets[i];
        }
        let mut fill = offsets.clone();
        let mut states = vec![0u32; graph.edge_count()];
        for v in 0..count {
            for &w in graph.next_states(v) {
                let slot = &mut fill[w as usize];
                states[*slot as usize] = v as u32;
                *slot += 1;
            }
        }
        Predecessors { offsets, states }
    }

    fn of_state(&self, w: usize) -> &[u32] {
        &self.states[self.offsets[w] as usize..self.offsets[w + 1] as usize]
    }
}

/// Solves a fully explored graph (explored with passes allowed): `L` and `U` of every state.
/// `threads` score the endings and run the two attractors side by side; `on_phase` hears each
/// phase as it starts.
pub fn solve<V: LabVariant>(
    graph: &Graph<V>,
    threads: usize,
    mut on_phase: impl FnMut(Phase),
) -> Result<Solution, SolveError> {
    let count = graph.states.len();
    if !graph.complete {
        return Err(SolveError::Incomplete(count));
    }
    on_phase(Phase::Endings);
    let ending = endings(graph, threads);
    on_phase(Phase::Predecessors);
    let predecessors = Predecessors::of(graph);
    let black: Vec<bool> =
        (0..count).map(|s| graph.coder().to_move(graph.states.get(s)) == Color::Black).collect();
    on_phase(Phase::Values);
    let side = |player| attractor(graph, &predecessors, &ending, &black, player);
    let ((lower, entered), (upper, _)) = if threads >= 2 {
        std::thread::scope(|scope| {
            let white = scope.spawn(|| side(Color::White));
            let black = side(Color::Black);
            (black, white.join().expect("the attractor thread panicked"))
        })
    } else {
        (side(Color::Black), side(Color::White))
    };
    Ok(Solution { lower, upper, ending, entered })
}

/// The payoff of the game's end in each state where it can end.
fn endings<V: LabVariant>(graph: &Graph<V>, threads: usize) -> Vec<Payoff> {
    let coder = graph.coder();
    map_in_shares(graph.states.len(), threads, |range| {
        range.map(|s| graph.variant().ending(coder, graph.states.get(s)).unwrap_or(NO_ENDING)).collect()
    })
}

/// `player`'s attractor of the game's ends on its side of each target in turn (Black: worth at
/// least `t`, `t` falling; White: at most `t`, `t` rising): each state's value is the target at
/// which it entered ([`NEVER_LOW`] or [`NEVER_HIGH`] if never), with the order in which the
/// states entered.
fn attractor<V: LabVariant>(
    graph: &Graph<V>,
    predecessors: &Predecessors,
    ending: &[Payoff],
    black: &[bool],
    player: Color,
) -> (Vec<Payoff>, Vec<u32>) {
    let count = graph.states.len();
    let is_player = |s: usize| black[s] == (player == Color::Black);
    // the opponent's moves (and ending pass) not yet in the attractor
    // two bytes: a first turn of Square Lifeline has a move per pair of points
    let mut remaining: Vec<u16> = (0..count)
        .map(|s| {
            let moves = graph.next_states(s).len() + (ending[s] != NO_ENDING) as usize;
            if is_player(s) { 0 } else { u16::try_from(moves).expect("at most 40 points: 780 pairs") }
        })
        .collect();
    // the states a pass would end, by payoff
    let mut by_payoff: Vec<u32> = (0..count as u32).filter(|&s| ending[s as usize] != NO_ENDING).collect();
    by_payoff.sort_by_key(|&s| ending[s as usize]);
    if player == Color::Black {
        by_payoff.reverse();
    }
    let never = if player == Color::Black { NEVER_LOW } else { NEVER_HIGH };
    let mut value = vec![never; count];
    let mut entered = vec![u32::MAX; count];
    let mut order = 0u32;
    let mut queue = VecDeque::new();
    // a move into the attractor (or the ending pass, once its payoff counts) reaches `s`
    let mut reach = |s: usize, t: Payoff, queue: &mut VecDeque<u32>| {
        if value[s] != never {
            return;
        }
        if !is_player(s) {
            remaining[s] -= 1;
            if remaining[s] > 0 {
                return;
            }
        }
        value[s] = t;
        entered[s] = order;
        order += 1;
        queue.push_back(s as u32);
    };
    let mut next_ending = 0;
    while next_ending < by_payoff.len() {
        let t = ending[by_payoff[next_ending] as usize];
        while let Some(&s) = by_payoff.get(next_ending).filter(|&&s| ending[s as usize] == t) {
            reach(s as usize, t, &mut queue);
            next_ending += 1;
        }
        while let Some(w) = queue.pop_front() {
            for &p in predecessors.of_state(w as usize) {
                reach(p as usize, t, &mut queue);
            }
        }
    }
    (value, entered)
}

/// A line of play from the empty board to the end of the game (two passes; in Square Lifeline a
/// player with no placement) in which every move keeps the value: only when `L = U` there. Each
/// move goes to a state that entered Black's attractor earlier (or is the pass that ends the
/// game), so the line cannot go round a cycle.
pub fn principal_line<V: LabVariant>(graph: &Graph<V>, solution: &Solution) -> Option<Vec<MoveOf<V>>> {
    let (value, upper) = solution.root();
    if value != upper || value == NEVER_LOW || value == NEVER_HIGH {
        return None;
    }
    let keeps = |c: usize| solution.lower[c] == value && solution.upper[c] == value;
    let mut line = Vec::new();
    let mut state = 0usize;
    loop {
        if solution.ending[state] == value {
            line.extend(V::ENDING_MOVE);
            return Some(line);
        }
        let next = graph
            .next_states(state)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| keeps(c))
            .min_by_key(|&c| solution.entered[c])
            .expect("a state of value V has a move that keeps V");
        debug_assert!(solution.entered[next] < solution.entered[state]);
        line.push(graph.move_between(state, next));
        state = next;
    }
}

/// The shortest forced cycle over every target (the smallest target first among equally short
/// ones), if any state has `L < U`.
pub fn shortest_forced_cycle<V: LabVariant>(
    graph: &Graph<V>,
    solution: &Solution,
) -> Option<ForcedCycle<MoveOf<V>>> {
    let forced = || solution.lower.iter().zip(&solution.upper).filter(|(l, u)| l < u);
    let low = forced().map(|(&l, _)| l as i32).min()?;
    let high = forced().map(|(_, &u)| u as i32).max()?;
    let mut best: Option<ForcedCycle<MoveOf<V>>> = None;
    for target in low + 1..=high {
        let Some(found) = forced_cycle_for(graph, solution, target) else { continue };
        if best.as_ref().is_none_or(|b| found.cycle.moves.len() < b.cycle.moves.len()) {
            best = Some(found);
        }
    }
    best
}

/// The shortest forced cycle for one target `t`, if some state has `L < t <= U`: how a game
/// that Black plays for at least `t` and White for less goes round for ever.
pub fn forced_cycle_for<V: LabVariant>(
    graph: &Graph<V>,
    solution: &Solution,
    target: i32,
) -> Option<ForcedCycle<MoveOf<V>>> {
    let within = |s: usize| (solution.lower[s] as i32) < target && target <= solution.upper[s] as i32;
    if !(0..graph.states.len()).any(within) {
        return None;
    }
    let cycle = shortest_cycle_among(graph, &within)
        .expect("every state with L < t <= U has a move to another such state");
    Some(ForcedCycle { target, cycle })
}
