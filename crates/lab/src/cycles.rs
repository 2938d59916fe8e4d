//! The shortest cycle of the game graph, exactly.
//!
//! Every cycle lies inside one strongly connected component, so the components come first
//! (Pearce's space-efficient form of Tarjan's algorithm, with an explicit stack: the graphs are
//! deep). Then the states of the
//! non-trivial components are taken in breadth-first order (their number); from each state `s` a
//! breadth-first search inside its component, over the states not taken before it, finds the
//! shortest cycle through `s` among those states, and stops at the length of the best cycle found
//! so far (or at a length limit). Every cycle has a first-taken state, and is found (or beaten)
//! from it, so the minimum is exact up to the limit; the limit grows until a cycle is found (a
//! non-trivial component always holds one). The cycle found starts at its first-taken state, the
//! one closest to the empty board.

use variago_rules::Move;

use crate::Graph;
use crate::graph::MoveOf;
use crate::variant::LabVariant;

/// A shortest cycle: how to reach it from the empty board, and its moves (`M`, the variant's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle<M = Move> {
    /// The moves from the empty board to the cycle's first state (a shortest such path).
    pub path: Vec<M>,
    /// The moves of the cycle, from its first state back to it.
    pub moves: Vec<M>,
    /// The graph's numbers of the cycle's states, its first state first (one per move).
    pub states: Vec<u32>,
}

/// Marks a state that no search has reached yet.
const UNSEEN: u32 = u32::MAX;

/// The component of a state on no cycle (alone in its component, without a move back to itself).
const ACYCLIC: u32 = u32::MAX;

/// A state on the depth-first path of [`components`].
struct Frame {
    state: u32,
    /// How many of its moves were followed.
    followed: u32,
    /// Whether it is still the first-visited state of its component, as far as seen.
    root: bool,
    /// Whether one of its moves leads back to itself.
    self_loop: bool,
}

/// Each state's strongly connected component in the subgraph of the states `keep` accepts, or
/// [`ACYCLIC`] for a state on no cycle of it (and for every state it leaves out).
///
/// Pearce's space-efficient form of Tarjan's algorithm ("A space-efficient algorithm for finding
/// strongly connected components", 2016): one number per state (`rindex`: 0 before the visit, then
/// the lowest visit index reached, then the component's number, numbered down from the top so
/// that finished states compare above every visit index), where Tarjan keeps three; the
/// depth-first path is an explicit stack (the graphs are deep).
fn components<V: LabVariant>(graph: &Graph<V>, keep: &(impl Fn(usize) -> bool + ?Sized)) -> Vec<u32> {
    let count = graph.states.len();
    assert!(count < (ACYCLIC - 1) as usize, "at most u32::MAX - 2 states");
    // a state left out counts as finished, on no cycle: no search visits it
    let mut rindex: Vec<u32> = (0..count).map(|s| if keep(s) { 0 } else { ACYCLIC }).collect();
    // visit indices are reused once their states are finished: they stay below the components'
    // numbers, which count down from below ACYCLIC
    let mut index = 1u32;
    let mut component = ACYCLIC - 1;
    // finished states whose component's first-visited state is still on the path
    let mut waiting: Vec<u32> = Vec::new();
    let mut path: Vec<Frame> = Vec::new();
    let visit = |state: usize, index: &mut u32, rindex: &mut [u32]| {
        rindex[state] = *index;
        *index += 1;
        Frame { state: state as u32, followed: 0, root: true, self_loop: false }
    };
    for first in 0..count {
        if rindex[first] != 0 {
            continue;
        }
        path.push(visit(first, &mut index, &mut rindex));
        while let Some(frame) = path.last_mut() {
            let v = frame.state as usize;
            if let Some(&w) = graph.next_states(v).get(frame.followed as usize) {
                frame.followed += 1;
                let w = w as usize;
                if rindex[w] == ACYCLIC {
                    // left out, or on no cycle: no component reaches back through it
                } else if w == v {
                    frame.self_loop = true;
                } else if rindex[w] == 0 {
                    let next = visit(w, &mut index, &mut rindex);
                    path.push(next);
                } else if rindex[w] < rindex[v] {
                    rindex[v] = rindex[w];
                    frame.root = false;
                }
                continue;
            }
            let Frame { root, self_loop, .. } = path.pop().expect("the path holds v");
            if root {
                // v closes its component: the waiting states visited after it
                index -= 1;
                let mut members = 1;
                while let Some(&w) = waiting.last() {
                    if rindex[w as usize] < rindex[v] {
                        break;
                    }
                    waiting.pop();
                    rindex[w as usize] = component;
                    index -= 1;
                    members += 1;
                }
                rindex[v] = if members > 1 || self_loop { component } else { ACYCLIC };
                component -= 1;
            } else {
                waiting.push(v as u32);
            }
            if let Some(parent) = path.last_mut() {
                let p = parent.state as usize;
                if rindex[v] < rindex[p] {
                    rindex[p] = rindex[v];
                    parent.root = false;
                }
            }
        }
    }
    rindex
}

/// The shortest cycle of the graph, if it has one (see the module documentation).
///
/// The searches run with a length limit that grows until a cycle is found: before the first
/// cycle, an unlimited search from each state would cover its whole component, which made large
/// components (hundreds of thousands of states) slow.
pub fn shortest_cycle<V: LabVariant>(graph: &Graph<V>) -> Option<Cycle<MoveOf<V>>> {
    shortest_cycle_among(graph, &|_| true)
}

/// The shortest cycle through states that `keep` accepts only, if there is one: the same search as
/// [`shortest_cycle`] on that subgraph (the solver's forced cycles keep the states of a target).
pub fn shortest_cycle_among<V: LabVariant>(
    graph: &Graph<V>,
    keep: &(impl Fn(usize) -> bool + ?Sized),
) -> Option<Cycle<MoveOf<V>>> {
    let component = components(graph, keep);
    let starts: Vec<usize> = (0..graph.states.len()).filter(|&s| component[s] != ACYCLIC).collect();
    // no cycle has more moves than there are states on cycles: the limit stops growing there
    let longest = starts.len();
    if longest == 0 {
        return None;
    }
    let mut limit = 2;
    loop {
        if let Some(cycle) = shortest_cycle_within(graph, &component, &starts, limit) {
            return Some(cycle);
        }
        if limit >= longest {
            return None;
        }
        limit = (limit + (limit / 2).max(2)).min(longest);
    }
}

/// The shortest cycle of at most `limit` moves, searched from `starts` (the states on cycles, in
/// breadth-first order: those before a search's start are the ones taken before it).
fn shortest_cycle_within<V: LabVariant>(
    graph: &Graph<V>,
    component: &[u32],
    starts: &[usize],
    limit: usize,
) -> Option<Cycle<MoveOf<V>>> {
    let count = graph.states.len();
    // per search: the search it was last reached in, and the state it was reached from
    let mut reached_in = vec![UNSEEN; count];
    let mut reached_by = vec![0u32; count];
    let mut found = None;
    // one more than the longest cycle still wanted
    let mut bound = limit + 1;
    let mut queue = std::collections::VecDeque::new();
    for &start in starts {
        // no cycle is shorter than one move
        if bound <= 2 {
            break;
        }
        let c = component[start];
        let mut closed = false;
        queue.clear();
        queue.push_back((start, 0usize));
        reached_in[start] = start as u32;
        'search: while let Some((v, depth)) = queue.pop_front() {
            // a move from here closes a cycle of depth + 1 moves: only shorter ones are wanted
            if depth + 1 >= bound {
                break;
            }
            for &w in graph.next_states(v) {
                let w = w as usize;
                if w == start {
                    bound = depth + 1;
                    closed = true;
                    reached_by[start] = v as u32;
                    break 'search;
                }
                // a state of the same component is on a cycle: taken before this search if
                // numbered before its start
                if component[w] != c || w < start || reached_in[w] == start as u32 {
                    continue;
                }
                reached_in[w] = start as u32;
                reached_by[w] = v as u32;
                queue.push_back((w, depth + 1));
            }
        }
        if closed {
            let (mut moves, mut states) = (Vec::new(), Vec::new());
            let mut at = start;
            loop {
                let from = reached_by[at] as usize;
                moves.push(graph.move_between(from, at));
                states.push(from as u32);
                at = from;
                if at == start {
                    break;
                }
            }
            moves.reverse();
            states.reverse();
            let path = graph.path_to(start);
            // the searches after this one may still find a shorter cycle: keep this one meanwhile
            found = Some(Cycle { path, moves, states });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Passes, explore, searchable_variant};
    use variago_rules::Geometry;

    /// The states each state reaches in one move or more, by a plain breadth-first search.
    fn reachable(graph: &Graph) -> Vec<Vec<bool>> {
        let count = graph.states.len();
        (0..count)
            .map(|from| {
                let mut seen = vec![false; count];
                let mut queue: Vec<usize> = graph.next_states(from).iter().map(|&w| w as usize).collect();
                while let Some(v) = queue.pop() {
                    if !std::mem::replace(&mut seen[v], true) {
                        queue.extend(graph.next_states(v).iter().map(|&w| w as usize));
                    }
                }
                seen
            })
            .collect()
    }

    #[test]
    fn components_are_the_sets_of_mutually_reachable_states() {
        for (variant, passes) in [("incursion", Passes::Forbidden), ("stoical", Passes::Allowed)] {
            let spec = searchable_variant(variant).unwrap();
            let graph =
                explore(&spec, Geometry::parse("2x3").unwrap(), passes, 1, usize::MAX, |_| {}).unwrap();
            let component = components(&graph, &|_| true);
            let reaches = reachable(&graph);
            let count = graph.states.len();
            for v in 0..count {
                // on a cycle exactly when it reaches itself
                assert_eq!(component[v] != ACYCLIC, reaches[v][v], "{variant}: state {v}");
                for w in 0..count {
                    let together = component[v] != ACYCLIC && component[v] == component[w];
                    assert_eq!(together, v != w && reaches[v][w] && reaches[w][v] || v == w && reaches[v][v]);
                }
            }
            assert!(component.contains(&ACYCLIC) && component.iter().any(|&c| c != ACYCLIC));
        }
    }
}
