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
/// the move that first reached it and its moves to other states.
#[derive(Debug)]
pub struct Graph {
    /// The packed states, in the order they were found.
    pub states: Vec<PackedState>,
    /// For each state but the first, the state it was first reached from and the move.
    parents: Vec<(u32, Move)>,
    /// Where each state's moves start in `edges`; one more entry than expanded states.
    offsets: Vec<usize>,
    /// Every move of every expanded state, with the state it leads to.
    edges: Vec<(u32, Move)>,
    /// Whether every reachable state was found and expanded (no `--max-states` stop).
    pub complete: bool,
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
    /// The moves of a state (none for a state found but not expanded before a stop).
    pub fn moves(&self, state: usize) -> &[(u32, Move)] {
        match (self.offsets.get(state), self.offsets.get(state + 1)) {
            (Some(&start), Some(&end)) => &self.edges[start..end],
            _ => &[],
        }
    }

    /// The moves from the empty board to a state along the first-found (shortest) path.
    pub fn path_to(&self, mut state: usize) -> Vec<Move> {
        let mut moves = Vec::new();
        while state != 0 {
            let (parent, mv) = self.parents[state - 1];
            moves.push(mv);
            state = parent as usize;
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
/// packed state, its slot in the visited set (a table of state numbers, four bytes a slot, with
/// room to grow), its parent, its moves (about one per point) and the cycle search's arrays; with
/// room for the positions of the level being expanded (a position takes about half a kilobyte,
/// and the widest level holds up to about a third of the states); half as much again, since the
/// vectors grow by doubling (measured: about 470 bytes a state for `go:ko=simple` on 3x4).
pub fn bytes_per_state(geometry: Geometry) -> usize {
    const STATE_TABLE_AND_PARENT: usize = 16 + 12 + 8 + 8;
    const CYCLE_SEARCH: usize = 32;
    const LEVEL_SHARE: usize = 192;
    (STATE_TABLE_AND_PARENT + CYCLE_SEARCH + LEVEL_SHARE + 8 * (geometry.area() + 1)) * 3 / 2
}

/// The legal moves of a state as graph edges, with the states they lead to (the positions are
/// dropped: most lead to states already found, and keeping them all took most of the memory).
fn successors(game: &AnyGame, passes: Passes, coder: &StateCoder) -> Vec<(Move, PackedState)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&mv| mv != Move::Pass || passes == Passes::Allowed)
        .filter_map(|mv| {
            let child = played(game, mv);
            // a second pass in a row ends the game: no state
            (!child.is_over()).then(|| (mv, coder.pack(&child)))
        })
        .collect()
}

/// The position after a legal move.
fn played(game: &AnyGame, mv: Move) -> AnyGame {
    let mut child = game.clone();
    child.play(mv).expect("legal_moves lists legal moves");
    child
}

/// Expands a level's positions on `threads` threads, each taking a contiguous share, the results
/// in the level's order.
fn expand_level(
    level: &[AnyGame],
    passes: Passes,
    coder: &StateCoder,
    threads: usize,
) -> Vec<Vec<(Move, PackedState)>> {
    let expand = |games: &[AnyGame]| games.iter().map(|g| successors(g, passes, coder)).collect::<Vec<_>>();
    let share = level.len().div_ceil(threads.max(1)).max(1);
    if threads <= 1 || level.len() < 64 {
        return expand(level);
    }
    std::thread::scope(|scope| {
        let workers: Vec<_> = level.chunks(share).map(|chunk| scope.spawn(move || expand(chunk))).collect();
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
    let root = AnyGame::new(spec, geometry);
    let mut graph = Graph {
        states: vec![coder.pack(&root)],
        parents: Vec::new(),
        offsets: vec![0],
        edges: Vec::new(),
        complete: true,
    };
    // the visited set: state numbers, found by the packed state they stand for
    let mut numbers: HashTable<u32> = HashTable::new();
    numbers.insert_unique(state_hash(graph.states[0]), 0, |&n| state_hash(graph.states[n as usize]));
    let max_states = max_states.min(u32::MAX as usize);
    let mut level = vec![root];
    let mut first = 0;
    while !level.is_empty() {
        on_level(Progress { states: graph.states.len(), frontier: level.len() });
        let mut next = Vec::new();
        for (offset, children) in expand_level(&level, passes, &coder, threads).into_iter().enumerate() {
            let from = (first + offset) as u32;
            for (mv, packed) in children {
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
                        graph.parents.push((from, mv));
                        next.push(played(&level[offset], mv));
                        n
                    }
                };
                graph.edges.push((number, mv));
            }
            graph.offsets.push(graph.edges.len());
        }
        first += level.len();
        level = next;
    }
    Ok(graph)
}
