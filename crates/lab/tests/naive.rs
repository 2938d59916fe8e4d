//! The cycle search against a naive enumeration written here from lab.md alone: states as plain
//! tuples (the board as text, the side, the passes, the rule memory) in a `HashMap`, found by
//! replaying legal moves through the public rules API; the shortest cycle by a breadth-first
//! search from every state. Both must give the same state counts, verdicts and shortest lengths
//! for every variant on 2x2 and 2x3 with and without passes, and every cycle the crate prints
//! must replay through the engine back to its first state.

use std::collections::{HashMap, VecDeque};

use variago_lab::{Passes, SEARCHED_VARIANTS, explore, searchable_variant, shortest_cycle};
use variago_rules::excursion::ExcursionForm;
use variago_rules::{AnyGame, Color, Game, Geometry, Move, VariantSpec};

/// A state as lab.md lists its parts: the board, the side to move, the passes in a row and the
/// variant's rule memory (written as text).
type State = (String, Color, u8, String);

fn state(game: &AnyGame) -> State {
    let memory = match game {
        AnyGame::Go(g) => format!("{:?}", g.ko_point()),
        AnyGame::Incursion(g) => g.memory().to_string(),
        AnyGame::Stoical(g) if g.rules().more_stones => g.memory().to_string(),
        AnyGame::Stoical(g) => (g.memory() != 0).to_string(),
        AnyGame::Excursion(g) if g.rules().form == ExcursionForm::One => String::new(),
        AnyGame::Excursion(g) => g.memory().to_string(),
        AnyGame::Borderline(_) => panic!("borderline is not searched"),
    };
    let passes = match game {
        AnyGame::Go(g) => g.passes(),
        AnyGame::Incursion(g) => g.passes(),
        AnyGame::Stoical(g) => g.passes(),
        AnyGame::Excursion(g) => g.passes(),
        AnyGame::Borderline(_) => panic!("borderline is not searched"),
    };
    (game.board().to_string(), game.to_move(), passes, memory)
}

/// The spec as lab.md plays it: the own-position draw off, written out by hand.
fn spec_without_draw(name: &str) -> VariantSpec {
    let text = match name {
        "go:ko=simple" => name.to_string(),
        _ if name.contains(':') => format!("{name},draw=none"),
        _ => format!("{name}:draw=none"),
    };
    text.parse().unwrap()
}

/// The reachable graph: every state and the states its moves lead to.
fn naive_graph(spec: &VariantSpec, geometry: Geometry, passes: bool) -> Vec<Vec<usize>> {
    let mut numbers: HashMap<State, usize> = HashMap::new();
    let mut games = vec![AnyGame::new(spec, geometry)];
    numbers.insert(state(&games[0]), 0);
    let mut successors = Vec::new();
    let mut next = 0;
    while next < games.len() {
        let game = games[next].clone();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut out = Vec::new();
        for mv in moves {
            if mv == Move::Pass && !passes {
                continue;
            }
            let mut child = game.clone();
            child.play(mv).unwrap();
            if child.is_over() {
                continue;
            }
            let key = state(&child);
            let number = *numbers.entry(key).or_insert_with(|| {
                games.push(child);
                games.len() - 1
            });
            out.push(number);
        }
        successors.push(out);
        next += 1;
    }
    successors
}

/// The fewest moves of any cycle: a breadth-first search from every state, each stopped once it
/// can no longer beat the best length found.
fn naive_shortest_cycle(successors: &[Vec<usize>]) -> Option<usize> {
    let mut best: Option<usize> = None;
    for start in 0..successors.len() {
        let mut distance = vec![usize::MAX; successors.len()];
        let mut queue = VecDeque::from([start]);
        distance[start] = 0;
        'bfs: while let Some(v) = queue.pop_front() {
            if best.is_some_and(|b| distance[v] + 1 >= b) {
                break;
            }
            for &w in &successors[v] {
                if w == start {
                    best = Some(distance[v] + 1);
                    break 'bfs;
                }
                if distance[w] == usize::MAX {
                    distance[w] = distance[v] + 1;
                    queue.push_back(w);
                }
            }
        }
    }
    best
}

#[test]
fn the_search_agrees_with_a_naive_enumeration_and_its_cycles_replay() {
    for name in SEARCHED_VARIANTS {
        for size in ["2x2", "2x3"] {
            let geometry = Geometry::parse(size).unwrap();
            for passes in [Passes::Allowed, Passes::Forbidden] {
                let case = format!("{name} on {size}, passes {passes:?}");
                let naive_spec = spec_without_draw(name);
                let successors = naive_graph(&naive_spec, geometry, passes == Passes::Allowed);
                let expected = naive_shortest_cycle(&successors);

                let spec = searchable_variant(name).unwrap();
                assert_eq!(spec, naive_spec, "{case}");
                let graph = explore(&spec, geometry, passes, 2, usize::MAX, |_| {}).unwrap();
                assert!(graph.complete, "{case}");
                assert_eq!(graph.states.len(), successors.len(), "{case}: states");
                let cycle = shortest_cycle(&graph);
                assert_eq!(cycle.as_ref().map(|c| c.moves.len()), expected, "{case}: shortest cycle");

                if let Some(cycle) = cycle {
                    let mut game = AnyGame::new(&naive_spec, geometry);
                    for &mv in &cycle.path {
                        game.play(mv).unwrap_or_else(|e| panic!("{case}: path move {mv:?}: {e}"));
                    }
                    let first = state(&game);
                    for &mv in &cycle.moves {
                        assert!(passes == Passes::Allowed || mv != Move::Pass, "{case}: a pass");
                        game.play(mv).unwrap_or_else(|e| panic!("{case}: cycle move {mv:?}: {e}"));
                        assert!(!game.is_over(), "{case}: the game ended in the cycle");
                    }
                    assert_eq!(state(&game), first, "{case}: the cycle comes back to its first state");
                }
            }
        }
    }
}

#[test]
fn a_search_stopped_early_says_so_and_keeps_to_its_limit() {
    let spec = searchable_variant("incursion").unwrap();
    let geometry = Geometry::parse("2x3").unwrap();
    let graph = explore(&spec, geometry, Passes::Allowed, 1, 100, |_| {}).unwrap();
    assert!(!graph.complete);
    assert_eq!(graph.states.len(), 100);
    // every move of the stopped graph still leads to a found state
    for state in 0..graph.states.len() {
        assert!(graph.next_states(state).iter().all(|&w| (w as usize) < 100));
    }
}

#[test]
fn one_thread_and_several_number_the_states_alike() {
    let spec = searchable_variant("excursion-2").unwrap();
    let geometry = Geometry::parse("2x3").unwrap();
    let one = explore(&spec, geometry, Passes::Allowed, 1, usize::MAX, |_| {}).unwrap();
    let three = explore(&spec, geometry, Passes::Allowed, 3, usize::MAX, |_| {}).unwrap();
    assert_eq!(one.states, three.states);
    assert_eq!(shortest_cycle(&one), shortest_cycle(&three));
}
