//! The shortest cycle of the game graph, exactly.
//!
//! Every cycle lies inside one strongly connected component, so the components come first
//! (Tarjan's algorithm, with an explicit stack: the graphs are deep). Then the states of the
//! non-trivial components are taken in breadth-first order (their number); from each state `s` a
//! breadth-first search inside its component, over the states not taken before it, finds the
//! shortest cycle through `s` among those states, and stops at the length of the best cycle found
//! so far (or at a length limit). Every cycle has a first-taken state, and is found (or beaten)
//! from it, so the minimum is exact up to the limit; the limit grows until a cycle is found (a
//! non-trivial component always holds one). The cycle found starts at its first-taken state, the
//! one closest to the empty board.

use variago_rules::Move;

use crate::Graph;

/// A shortest cycle: how to reach it from the empty board, and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cycle {
    /// The moves from the empty board to the cycle's first state (a shortest such path).
    pub path: Vec<Move>,
    /// The moves of the cycle, from its first state back to it.
    pub moves: Vec<Move>,
}

/// Marks a state that no component has claimed yet.
const UNSEEN: u32 = u32::MAX;

/// Each state's strongly connected component, and each component's size.
fn components(graph: &Graph) -> (Vec<u32>, Vec<u32>) {
    let count = graph.states.len();
    let mut index = vec![UNSEEN; count];
    let mut low = vec![0u32; count];
    let mut on_stack = vec![false; count];
    let mut component = vec![UNSEEN; count];
    let mut sizes = Vec::new();
    let mut stack = Vec::new();
    // the depth-first path: a state and how many of its moves were followed
    let mut path: Vec<(usize, usize)> = Vec::new();
    let mut next_index = 0u32;
    for root in 0..count {
        if index[root] != UNSEEN {
            continue;
        }
        path.push((root, 0));
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut followed)) = path.last_mut() {
            if let Some(&w) = graph.next_states(v).get(*followed) {
                *followed += 1;
                let w = w as usize;
                if index[w] == UNSEEN {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    path.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            path.pop();
            if let Some(&(parent, _)) = path.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let id = sizes.len() as u32;
                let mut size = 0;
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component[w] = id;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                sizes.push(size);
            }
        }
    }
    (component, sizes)
}

/// The shortest cycle of the graph, if it has one (see the module documentation).
///
/// The searches run with a length limit that grows until a cycle is found: before the first
/// cycle, an unlimited search from each state would cover its whole component, which made large
/// components (hundreds of thousands of states) slow.
pub fn shortest_cycle(graph: &Graph) -> Option<Cycle> {
    let (component, sizes) = components(graph);
    let on_cycle = |s: usize| sizes[component[s] as usize] >= 2 || graph.next_states(s).contains(&(s as u32));
    let starts: Vec<usize> = (0..graph.states.len()).filter(|&s| on_cycle(s)).collect();
    // no cycle is longer than its component: the limit stops growing there
    let longest = starts.iter().map(|&s| sizes[component[s] as usize] as usize).max()?;
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

/// The shortest cycle of at most `limit` moves, searched from `starts` (the states of
/// non-trivial components, in breadth-first order).
fn shortest_cycle_within(graph: &Graph, component: &[u32], starts: &[usize], limit: usize) -> Option<Cycle> {
    let count = graph.states.len();
    let mut taken = vec![false; count];
    // per search: the search it was last reached in, and the state it was reached from
    let mut reached_in = vec![UNSEEN; count];
    let mut reached_by = vec![0u32; count];
    let mut found: Option<Cycle> = None;
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
                if component[w] != c || taken[w] || reached_in[w] == start as u32 {
                    continue;
                }
                reached_in[w] = start as u32;
                reached_by[w] = v as u32;
                queue.push_back((w, depth + 1));
            }
        }
        if closed {
            let mut moves = Vec::new();
            let mut at = start;
            loop {
                let from = reached_by[at] as usize;
                moves.push(graph.move_between(from, at));
                at = from;
                if at == start {
                    break;
                }
            }
            moves.reverse();
            let path = graph.path_to(start);
            // the searches after this one may still find a shorter cycle: keep this one meanwhile
            found = Some(Cycle { path, moves });
        }
        taken[start] = true;
    }
    found
}
