//! The reachable game graph of lab.md: every state reachable from the empty board with Black to
//! move, found breadth first, one level at a time; the states of a level are expanded on several
//! threads and numbered in a fixed order, so that every run numbers them alike.

use hashbrown::HashTable;
use variago_rules::{Game, Geometry, VariantSpec};

use crate::LabError;
use crate::state::{PackedState, StateCoder};
use crate::variant::LabVariant;

/// A move of a variant's game.
pub type MoveOf<V> = <<V as LabVariant>::Game as Game>::Move;

/// Whether passes are moves of the graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passes {
    /// Passes are moves (a second pass in a row ends the game and leads to no state).
    Allowed,
    /// Placements only.
    Forbidden,
}

/// The packed states of a graph, in the order they were found: in one machine word each when the
/// board's states fit in 64 bits (boards of up to 19 points), else in two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StateList {
    /// States of at most 64 bits.
    Narrow(Vec<u64>),
    /// States of up to 128 bits.
    Wide(Vec<u128>),
}

impl StateList {
    /// An empty list for the states a coder packs.
    fn for_coder(coder: &StateCoder) -> StateList {
        if coder.bits() <= u64::BITS { StateList::Narrow(Vec::new()) } else { StateList::Wide(Vec::new()) }
    }

    /// How many states it holds.
    pub fn len(&self) -> usize {
        match self {
            StateList::Narrow(states) => states.len(),
            StateList::Wide(states) => states.len(),
        }
    }

    /// Whether it holds no state.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The state numbered `i`.
    pub fn get(&self, i: usize) -> PackedState {
        match self {
            StateList::Narrow(states) => states[i] as PackedState,
            StateList::Wide(states) => states[i],
        }
    }

    /// The states numbered `range`, each in its full width.
    fn range(&self, range: std::ops::Range<usize>) -> Vec<PackedState> {
        match self {
            StateList::Narrow(states) => states[range].iter().map(|&s| s as PackedState).collect(),
            StateList::Wide(states) => states[range].to_vec(),
        }
    }

    /// Adds a state (of the width the list was made for).
    fn push(&mut self, state: PackedState) {
        match self {
            StateList::Narrow(states) => states.push(state as u64),
            StateList::Wide(states) => states.push(state),
        }
    }
}

/// The explored graph: states numbered in breadth-first order (0 is the empty board), each with
/// the state that first reached it and the states its moves lead to. The moves themselves are not
/// kept (four bytes less a move and a parent): [`Graph::move_between`] finds them again.
#[derive(Debug)]
pub struct Graph<V: LabVariant = VariantSpec> {
    /// The packed states, in the order they were found.
    pub states: StateList,
    /// For each state but the first, the state it was first reached from.
    parents: Vec<u32>,
    /// Where each state's moves start in `edges`; one more entry than expanded states (four bytes
    /// each: exploration stops before the edges outgrow them).
    offsets: Vec<u32>,
    /// The state every move of every expanded state leads to, a state's moves in the order of its
    /// legal moves.
    edges: Vec<u32>,
    /// Whether every reachable state was found and expanded (no `--max-states` stop).
    pub complete: bool,
    /// What the moves are found again from: the variant, the board's coder, the pass setting.
    variant: V,
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

impl<V: LabVariant> Graph<V> {
    /// The variant it is the graph of.
    pub fn variant(&self) -> &V {
        &self.variant
    }

    /// The states the moves of a state lead to (none for a state found but not expanded before a
    /// stop), in the order of its legal moves.
    pub fn next_states(&self, state: usize) -> &[u32] {
        match (self.offsets.get(state), self.offsets.get(state + 1)) {
            (Some(&start), Some(&end)) => &self.edges[start as usize..end as usize],
            _ => &[],
        }
    }

    /// The first of a state's legal moves (in the rules' order) that leads to `to`: the move of
    /// the edge between them.
    pub fn move_between(&self, from: usize, to: usize) -> MoveOf<V> {
        self.moves_to(from, &[to])[0]
    }

    /// The moves of `from` to each of the states `targets` (edges of the graph), in their order:
    /// the legal moves worked out once for all of them.
    pub fn moves_to(&self, from: usize, targets: &[usize]) -> Vec<MoveOf<V>> {
        let moves = successors::<V>(
            &self.coder.unpack(&self.variant, self.states.get(from)),
            self.passes,
            &self.coder,
        );
        targets
            .iter()
            .map(|&to| {
                let packed = self.states.get(to);
                moves
                    .iter()
                    .find(|&&(_, p)| p == packed)
                    .map(|&(mv, _)| mv)
                    .expect("an edge of the graph is a legal move")
            })
            .collect()
    }

    /// How the graph's states are packed.
    pub fn coder(&self) -> &StateCoder {
        &self.coder
    }

    /// The number of moves between states (a pass that ends the game is none of them).
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// The moves from the empty board to a state along the first-found (shortest) path.
    pub fn path_to(&self, mut state: usize) -> Vec<MoveOf<V>> {
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
/// packed state (8 bytes on boards of up to 19 points, else 16), its parent (4) and the offset of
/// its moves (4), the larger of its slot in the visited set (about 9) and the cycle search's
/// arrays (12, and the stacks of the components' search), and its moves (the states they lead
/// to, four bytes each, about half as many as the points); a quarter more for the vectors'
/// spare room. Measured (peak resident memory over the states): 63 bytes a state for
/// `excursion-2` on 3x3, 65 for `go:ko=simple` on 3x4 and 56 for `excursion-2` on 3x4, where
/// this gives 65, 72 and 72.
pub fn bytes_per_state(geometry: Geometry) -> usize {
    let state = packed_state_bytes(geometry);
    const PARENT_OFFSET: usize = 4 + 4;
    const VISITED_OR_CYCLE_SEARCH: usize = 16;
    (state + PARENT_OFFSET + VISITED_OR_CYCLE_SEARCH + 4 * (geometry.area() + 1) / 2) * 5 / 4
}

/// The bytes a [`StateList`] keeps a state of this board in: 8 when it fits a machine word, else 16.
pub(crate) fn packed_state_bytes(geometry: Geometry) -> usize {
    match StateCoder::new(geometry) {
        Ok(coder) if coder.bits() <= u64::BITS => 8,
        _ => 16,
    }
}

/// Maps the items `0..len` on `threads` threads, each taking a contiguous share and returning its
/// results in order; the results of all shares in order. Few items are mapped on this thread.
pub(crate) fn map_in_shares<T: Send>(
    len: usize,
    threads: usize,
    map: impl Fn(std::ops::Range<usize>) -> Vec<T> + Sync,
) -> Vec<T> {
    if threads <= 1 || len < 64 {
        return map(0..len);
    }
    let share = len.div_ceil(threads);
    let map = &map;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..len)
            .step_by(share)
            .map(|start| scope.spawn(move || map(start..(start + share).min(len))))
            .collect();
        workers.into_iter().flat_map(|w| w.join().expect("a worker thread panicked")).collect()
    })
}

/// States expanded at a time: their lists of successors wait until their new states are numbered,
/// so a chunk bounds that memory whatever the width of the level.
const CHUNK: usize = 1 << 16;

/// The legal moves of a state as graph edges, with the states they lead to.
fn successors<V: LabVariant>(
    game: &V::Game,
    passes: Passes,
    coder: &StateCoder,
) -> Vec<(MoveOf<V>, PackedState)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&mv| mv != <V::Game as Game>::PASS || passes == Passes::Allowed)
        .filter_map(|mv| {
            let mut child = game.clone();
            child.play(mv).expect("legal_moves lists legal moves");
            // a second pass in a row ends the game: no state
            V::is_state(&child).then(|| (mv, coder.pack::<V>(&child)))
        })
        .collect()
}

/// Expands packed states on `threads` threads, each taking a contiguous share, the results in
/// the states' order.
fn expand<V: LabVariant>(
    states: &[PackedState],
    variant: &V,
    passes: Passes,
    coder: &StateCoder,
    threads: usize,
) -> Vec<Vec<(MoveOf<V>, PackedState)>> {
    map_in_shares(states.len(), threads, |range| {
        states[range].iter().map(|&s| successors::<V>(&coder.unpack(variant, s), passes, coder)).collect()
    })
}

/// Explores the reachable graph of a variant (see [`crate::searchable_variant`] and
/// [`crate::variant::searchable_lifeline`]) on a board,
/// stopping once `max_states` states (at most `u32::MAX - 3`) are found or the moves outgrow
/// four-byte offsets (the rest of the graph is then left out, and [`Graph::complete`] is false). `on_level` hears how far it has come after each level.
pub fn explore<V: LabVariant>(
    variant: &V,
    geometry: Geometry,
    passes: Passes,
    threads: usize,
    max_states: usize,
    on_level: impl FnMut(Progress),
) -> Result<Graph<V>, LabError> {
    let coder = StateCoder::new(geometry)?;
    let states = StateList::for_coder(&coder);
    Ok(explore_into(states, variant, coder, passes, threads, max_states, on_level))
}

/// [`explore`], its states kept in `states` (empty, of a width that holds them).
fn explore_into<V: LabVariant>(
    mut states: StateList,
    variant: &V,
    coder: StateCoder,
    passes: Passes,
    threads: usize,
    max_states: usize,
    mut on_level: impl FnMut(Progress),
) -> Graph<V> {
    states.push(coder.pack::<V>(&variant.start(coder.geometry())));
    let mut graph = Graph {
        states,
        parents: Vec::new(),
        offsets: vec![0],
        edges: Vec::new(),
        complete: true,
        variant: variant.clone(),
        coder: coder.clone(),
        passes,
    };
    // the visited set: state numbers, found by the packed state they stand for
    let mut numbers: HashTable<u32> = HashTable::new();
    numbers.insert_unique(state_hash(graph.states.get(0)), 0, |&n| state_hash(graph.states.get(n as usize)));
    // the cycle search numbers components down from u32::MAX - 1, above every state's number
    let max_states = max_states.min((u32::MAX - 3) as usize);
    // the states of a level are numbered consecutively: a level is a range of numbers
    let mut level = 0..1;
    'levels: while !level.is_empty() {
        on_level(Progress { states: graph.states.len(), frontier: level.len() });
        for start in level.clone().step_by(CHUNK) {
            let end = (start + CHUNK).min(level.end);
            let expanded = expand(&graph.states.range(start..end), variant, passes, &coder, threads);
            for (offset, children) in expanded.into_iter().enumerate() {
                if graph.edges.len() + children.len() > u32::MAX as usize {
                    // the offsets would overflow: the states from here on stay unexpanded
                    graph.complete = false;
                    break 'levels;
                }
                let from = (start + offset) as u32;
                for (_, packed) in children {
                    let hash = state_hash(packed);
                    let found = numbers.find(hash, |&n| graph.states.get(n as usize) == packed).copied();
                    let number = match found {
                        Some(n) => n,
                        None if graph.states.len() >= max_states => {
                            graph.complete = false;
                            continue;
                        }
                        None => {
                            let n = graph.states.len() as u32;
                            graph.states.push(packed);
                            numbers.insert_unique(hash, n, |&m| state_hash(graph.states.get(m as usize)));
                            graph.parents.push(from);
                            n
                        }
                    };
                    graph.edges.push(number);
                }
                graph.offsets.push(graph.edges.len() as u32);
            }
        }
        level = level.end..graph.states.len();
    }
    graph
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_in_one_word_or_two_make_the_same_graph() {
        let spec = crate::searchable_variant("stoical").unwrap();
        let coder = StateCoder::new(Geometry::parse("2x3").unwrap()).unwrap();
        assert!(coder.bits() <= 64);
        let explore =
            |states| explore_into(states, &spec, coder.clone(), Passes::Allowed, 1, usize::MAX, |_| {});
        let (narrow, wide) = (explore(StateList::Narrow(Vec::new())), explore(StateList::Wide(Vec::new())));
        assert!(matches!(narrow.states, StateList::Narrow(_)));
        assert_eq!(narrow.states.len(), 1892, "docs/lab-cycles.md's table: stoical, 2x3, passes allowed");
        assert_eq!(narrow.states.len(), wide.states.len());
        assert!((0..narrow.states.len()).all(|i| narrow.states.get(i) == wide.states.get(i)));
        assert!((0..narrow.states.len()).all(|i| narrow.next_states(i) == wide.next_states(i)));
    }

    #[test]
    fn boards_of_up_to_19_points_keep_a_state_in_one_word() {
        let list =
            |size: &str| StateList::for_coder(&StateCoder::new(Geometry::parse(size).unwrap()).unwrap());
        // 3 bits a point, 2 for the side and the passes, 5 for the memory (a point number below 32)
        assert!(matches!(list("4x4"), StateList::Narrow(_)));
        assert!(matches!(list("2x9"), StateList::Narrow(_)), "54 + 2 + 5 bits");
        assert!(matches!(list("4x5"), StateList::Wide(_)), "60 + 2 + 5 bits");
    }
}
