//! The reachable game graph of lab.md: every state reachable from the empty board with Black to
//! move, found breadth first, one level at a time; the states of a level are expanded on several
//! threads and numbered in a fixed order, so that every run numbers them alike.

use hashbrown::HashTable;
use variago_rules::{AnyGame, Game, Geometry, Move, VariantSpec};

use crate::LabError;
use crate::state::{PackedState, StateCoder};

/// Whether passes are moves of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passes {
    /// Passes are moves (a second pass in a row ends the game and leads to no state).
    Allowed,
    /// Placements only.
    Forbidden,
}

/// The explored graph: states numbered in breadth-first order (0 is the empty board), each with
/// the state that first reached it and the states its moves lead to. The moves themselves are not
/// kept (four bytes less a move and a parent): [`Graph::move_between`] finds them again.
#[derive(Debug)]
pub struct Graph {
    /// The packed states, in the order they were found.
    pub states: Vec<PackedState>,
    /// For each state but the first, the state it was first reached from.
    parents: Vec<u32>,
    /// Where each state's moves start in `edges`; one more entry than expanded states.
    offsets: Vec<usize>,
    /// The state every move of every expanded state leads to, a state's moves in the order of its
    /// legal moves.
    edges: Vec<u32>,
    /// Whether every reachable state was found and expanded (no `--max-states` stop).
    pub complete: bool,
    /// What the moves are found again from: the variant, the board's coder, the pass setting.
    spec: VariantSpec,
    coder: StateCoder,
    passes: Passes,
}

/// How far an exploration has come, after each level.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// States found so far.
    pub states: usize,
    /// States of the level about to be expanded.
    pub frontier: usize,
}

impl Graph {
    /// The states the moves of a state lead to (none for a state found but not expanded before a
    /// stop), in the order of its legal moves.
    pub fn next_states(&self, state: usize) -> &[u32] {
        match (self.offsets.get(state), self.offsets.get(state + 1)) {
            (Some(&start), Some(&end)) => &self.edges[start..end],
            _ => &[],
        }
    }

    /// The first of a state's legal moves (in the rules' order) that leads to `to`: the move of
    /// the edge between them.
    pub fn move_between(&self, from: usize, to: usize) -> Move {
        successors(&self.coder.unpack(&self.spec, self.states[from]), self.passes, &self.coder)
            .into_iter()
            .find(|&(_, packed)| packed == self.states[to])
            .map(|(mv, _)| mv)
            .expect("an edge of the graph is a legal move")
    }

    /// The moves from the empty board to a state along the first-found (shortest) path.
    pub fn path_to(&self, mut state: usize) -> Vec<Move> {
        let mut moves = Vec::new();
        while state != 0 {
            let parent = self.parents[state - 1] as usize;
            moves.push(self.move_between(parent, state));
            state = parent;
        }
        moves.reverse();
        moves
    }
}

/// A hash of a packed state, its high bits as well mixed as its low ones (the hash table reads
/// both): SplitMix64's finaliser over the two halves.
fn state_hash(state: PackedState) -> u64 {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(state as u64 ^ mix((state >> 64) as u64))
}

/// About how many bytes each state costs, from its discovery to the end of the cycle search: the
/// packed state (16), its slot in the visited set (a table of four-byte state numbers with room to
/// grow, about 8), its parent (4) and offset (8), the cycle search's arrays (about 17), and its
/// moves (the states they lead to, four bytes each, about half as many as the points); an eighth
/// more for the vectors' spare room. The positions of a level are not kept: each state is
/// unpacked when it is expanded (measured: 75 bytes a state for `excursion-2` on 3x3, 82 for
/// `go:ko=simple` on 3x4, where this gives 82 and 88).
pub fn bytes_per_state(geometry: Geometry) -> usize {
    const STATE_TABLE_PARENT_OFFSET: usize = 16 + 8 + 4 + 8;
    const CYCLE_SEARCH: usize = 17;
    (STATE_TABLE_PARENT_OFFSET + CYCLE_SEARCH + 4 * (geometry.area() + 1) / 2) * 9 / 8
}

/// States expanded at a time: their lists of successors wait until their new states are numbered,
/// so a chunk bounds that memory whatever the width of the level.
const CHUNK: usize = 1 << 16;

/// The legal moves of a state as graph edges, with the states they lead to.
fn successors(game: &AnyGame, passes: Passes, coder: &StateCoder) -> Vec<(Move, PackedState)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&mv| mv != Move::Pass || passes == Passes::Allowed)
        .filter_map(|mv| {
            let mut child = game.clone();
            child.play(mv).expect("legal_moves lists legal moves");
            // a second pass in a row ends the game: no state
            (!child.is_over()).then(|| (mv, coder.pack(&child)))
        })
        .collect()
}

/// Expands packed states on `threads` threads, each taking a contiguous share, the results in
/// the states' order.
fn expand(
    states: &[PackedState],
    spec: &VariantSpec,
    passes: Passes,
    coder: &StateCoder,
    threads: usize,
) -> Vec<Vec<(Move, PackedState)>> {
    let expand = |states: &[PackedState]| {
        states.iter().map(|&s| successors(&coder.unpack(spec, s), passes, coder)).collect::<Vec<_>>()
    };
    let share = states.len().div_ceil(threads.max(1)).max(1);
    if threads <= 1 || states.len() < 64 {
        return expand(states);
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = states.chunks(share).map(|chunk| scope.spawn(move || expand(chunk))).collect();
        workers.into_iter().flat_map(|w| w.join().expect("an expansion thread panicked")).collect()
    })
}

/// Explores the reachable graph of a variant (see [`crate::searchable_variant`]) on a board,
/// stopping once `max_states` states (at most `u32::MAX`) are found (the rest of the graph is then left out, and
/// [`Graph::complete`] is false). `on_level` hears how far it has come after each level.
pub fn explore(
    spec: &VariantSpec,
    geometry: Geometry,
    passes: Passes,
    threads: usize,
    max_states: usize,
    mut on_level: impl FnMut(Progress),
) -> Result<Graph, LabError> {
    let coder = StateCoder::new(geometry)?;
    let mut graph = Graph {
        states: vec![coder.pack(&AnyGame::new(spec, geometry))],
        parents: Vec::new(),
        offsets: vec![0],
        edges: Vec::new(),
        complete: true,
        spec: spec.clone(),
        coder: coder.clone(),
        passes,
    };
    // the visited set: state numbers, found by the packed state they stand for
    let mut numbers: HashTable<u32> = HashTable::new();
    numbers.insert_unique(state_hash(graph.states[0]), 0, |&n| state_hash(graph.states[n as usize]));
    let max_states = max_states.min(u32::MAX as usize);
    // the states of a level are numbered consecutively: a level is a range of numbers
    let mut level = 0..1;
    while !level.is_empty() {
        on_level(Progress { states: graph.states.len(), frontier: level.len() });
        for start in level.clone().step_by(CHUNK) {
            let end = (start + CHUNK).min(level.end);
            let expanded = expand(&graph.states[start..end], spec, passes, &coder, threads);
            for (offset, children) in expanded.into_iter().enumerate() {
                let from = (start + offset) as u32;
                for (_, packed) in children {
                    let hash = state_hash(packed);
                    let found = numbers.find(hash, |&n| graph.states[n as usize] == packed).copied();
                    let number = match found {
                        Some(n) => n,
                        None if graph.states.len() >= max_states => {
                            graph.complete = false;
                            continue;
                        }
                        None => {
                            let n = graph.states.len() as u32;
                            graph.states.push(packed);
                            numbers.insert_unique(hash, n, |&m| state_hash(graph.states[m as usize]));
                            graph.parents.push(from);
                            n
                        }
                    };
                    graph.edges.push(number);
                }
                graph.offsets.push(graph.edges.len());
            }
        }
        level = level.end..graph.states.len();
    }
    Ok(graph)
}
