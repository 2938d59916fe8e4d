//! The cycle search against a naive enumeration written here from lab.md alone: states as plain
//! tuples (the board as text, the side, the passes, the rule memory) in a `HashMap`, found by
//! replaying legal moves through the public rules API; the shortest cycle by a breadth-first
//! search from every state. Both must give the same state counts, verdicts and shortest lengths
//! for every variant on 2x2 and 2x3 with and without passes, and every cycle the crate prints
//! must replay through the engine back to its first state.
//!
//! The solver against the same enumeration: `L` and `U` by the fixed-point iteration lab.md gives
//! for checking (the payoff an area count written here), the same for every state of every
//! variant on every board up to 2x3 and 1x6; its line and forced cycle replayed through the
//! engine. Square Lifeline likewise on boards up to 3x3 and 2x4, a finished game being a state
//! worth a loss to its player to move.

use std::collections::{HashMap, VecDeque};

use variago_lab::solve::{NEVER_HIGH, NEVER_LOW};
use variago_lab::{
    Passes, SEARCHED_VARIANTS, explore, forced_cycle_for, principal_line, searchable_lifeline,
    searchable_variant, shortest_cycle, shortest_forced_cycle, solve,
};
use variago_rules::excursion::ExcursionForm;
use variago_rules::lifeline::{Lifeline, LifelineRules, LifelineSpec};
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

/// The reachable graph: every state and the states its moves lead to, with a position of each.
fn naive_graph(spec: &VariantSpec, geometry: Geometry, passes: bool) -> (Vec<Vec<usize>>, Vec<AnyGame>) {
    // a second pass in a row ends the game: no state
    let keep = |mv: Move, child: &AnyGame| (mv != Move::Pass || passes) && !child.is_over();
    enumerate(AnyGame::new(spec, geometry), state, keep)
}

/// Every position reachable from `start` by replaying legal moves, numbered by their `key` (the
/// state), with the states each one's moves lead to; `keep` says which moves and positions count.
fn enumerate<G: Game, K: std::hash::Hash + Eq>(
    start: G,
    key: impl Fn(&G) -> K,
    keep: impl Fn(G::Move, &G) -> bool,
) -> (Vec<Vec<usize>>, Vec<G>) {
    let mut numbers: HashMap<K, usize> = HashMap::from([(key(&start), 0)]);
    let mut games = vec![start];
    let mut successors = Vec::new();
    let mut next = 0;
    while next < games.len() {
        let game = games[next].clone();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut out = Vec::new();
        for mv in moves {
            let mut child = game.clone();
            child.play(mv).unwrap();
            if !keep(mv, &child) {
                continue;
            }
            let number = *numbers.entry(key(&child)).or_insert_with(|| {
                games.push(child);
                games.len() - 1
            });
            out.push(number);
        }
        successors.push(out);
        next += 1;
    }
    (successors, games)
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
                let (successors, _) = naive_graph(&naive_spec, geometry, passes == Passes::Allowed);
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

/// Black's area minus White's on the board as it stands: a point is a colour's when a piece of
/// that colour stands on it, or when it is empty and every piece next to its empty region is
/// that colour's.
fn area_count(game: &AnyGame) -> i32 {
    let board = game.board();
    let g = board.geometry();
    let (w, h) = (g.width() as i32, g.height() as i32);
    let colour = |x: i32, y: i32| board.piece(g.point(x as u8, y as u8).unwrap()).map(|p| p.color);
    let on = |x: i32, y: i32| x >= 0 && y >= 0 && x < w && y < h;
    let mut seen = vec![false; (w * h) as usize];
    let mut total = 0;
    for y in 0..h {
        for x in 0..w {
            match colour(x, y) {
                Some(Color::Black) => total += 1,
                Some(Color::White) => total -= 1,
                None if !seen[(y * w + x) as usize] => {
                    let (mut region, mut borders) = (0, [false; 2]);
                    let mut stack = vec![(x, y)];
                    seen[(y * w + x) as usize] = true;
                    while let Some((a, b)) = stack.pop() {
                        region += 1;
                        for (c, d) in [(a - 1, b), (a + 1, b), (a, b - 1), (a, b + 1)] {
                            if !on(c, d) {
                                continue;
                            }
                            match colour(c, d) {
                                Some(side) => borders[side as usize] = true,
                                None if !seen[(d * w + c) as usize] => {
                                    seen[(d * w + c) as usize] = true;
                                    stack.push((c, d));
                                }
                                None => {}
                            }
                        }
                    }
                    match borders {
                        [true, false] => total += region,
                        [false, true] => total -= region,
                        _ => {}
                    }
                }
                None => {}
            }
        }
    }
    total
}

/// `L` and `U` of every state by lab.md's fixed-point iteration: `L` the least fixed point from
/// minus infinity (`i32::MIN`), `U` the greatest from plus infinity (`i32::MAX`), of "Black to
/// move: the largest of the moves' values; White: the smallest", a pass that ends the game worth
/// its payoff.
fn naive_values(successors: &[Vec<usize>], games: &[AnyGame]) -> (Vec<i32>, Vec<i32>) {
    let ending: Vec<Option<i32>> = games.iter().map(|g| (state(g).2 == 1).then(|| area_count(g))).collect();
    let fixed_point = |start: i32| {
        let mut values = vec![start; successors.len()];
        loop {
            let mut changed = false;
            for s in 0..successors.len() {
                let options = successors[s].iter().map(|&c| values[c]).chain(ending[s]);
                let best = if games[s].to_move() == Color::Black { options.max() } else { options.min() };
                let best = best.expect("a pass is always legal");
                if best != values[s] {
                    values[s] = best;
                    changed = true;
                }
            }
            if !changed {
                return values;
            }
        }
    };
    (fixed_point(i32::MIN), fixed_point(i32::MAX))
}

#[test]
fn the_solver_agrees_with_the_fixed_point_iteration_and_its_lines_and_cycles_replay() {
    for name in SEARCHED_VARIANTS {
        for size in ["1x3", "1x4", "1x5", "1x6", "2x2", "2x3"] {
            let case = format!("{name} on {size}");
            let geometry = Geometry::parse(size).unwrap();
            let naive_spec = spec_without_draw(name);
            let (successors, games) = naive_graph(&naive_spec, geometry, true);
            let (low, high) = naive_values(&successors, &games);
            let numbers: HashMap<State, usize> =
                games.iter().enumerate().map(|(i, g)| (state(g), i)).collect();

            let spec = searchable_variant(name).unwrap();
            let graph = explore(&spec, geometry, Passes::Allowed, 2, usize::MAX, |_| {}).unwrap();
            let solution = solve(&graph, 2, |_| {}).unwrap();
            assert_eq!(graph.states.len(), successors.len(), "{case}: states");
            let widen = |v: i8| match v {
                NEVER_LOW => i32::MIN,
                NEVER_HIGH => i32::MAX,
                v => v as i32,
            };
            for s in 0..graph.states.len() {
                let n = numbers[&state(&graph.coder().unpack(&spec, graph.states.get(s)))];
                assert_eq!(
                    (widen(solution.lower[s]), widen(solution.upper[s])),
                    (low[n], high[n]),
                    "{case}: state {s}"
                );
            }
            let forced = (0..low.len()).filter(|&n| low[n] < high[n]).count();
            assert_eq!(solution.forced_cycle_states(), forced, "{case}: forced-cycle states");

            // the line keeps the value to the end of the game
            let (value, upper) = (low[0], high[0]);
            let line = principal_line(&graph, &solution);
            assert_eq!(line.is_some(), value == upper, "{case}: a line exactly when L = U");
            if let Some(line) = line {
                let mut game = AnyGame::new(&naive_spec, geometry);
                for &mv in &line {
                    game.play(mv).unwrap_or_else(|e| panic!("{case}: line move {mv:?}: {e}"));
                    if !game.is_over() {
                        let n = numbers[&state(&game)];
                        assert_eq!((low[n], high[n]), (value, value), "{case}: the line keeps the value");
                    }
                }
                assert!(game.is_over(), "{case}: the line ends the game");
                assert_eq!(area_count(&game), value, "{case}: the line scores the value");
            }

            // the shortest forced cycle of each target, and over every target, by a breadth-first
            // search per target
            let per_target: Vec<(i32, Option<usize>)> = (low.iter().min().copied().unwrap_or(0)
                ..=high.iter().max().copied().unwrap_or(0))
                .filter(|&t| t > i32::MIN)
                .map(|t| {
                    let within = |n: usize| low[n] < t && t <= high[n];
                    let kept: Vec<Vec<usize>> = (0..successors.len())
                        .map(|n| {
                            if within(n) {
                                successors[n].iter().copied().filter(|&c| within(c)).collect()
                            } else {
                                vec![]
                            }
                        })
                        .collect();
                    (t, naive_shortest_cycle(&kept))
                })
                .collect();
            for &(t, length) in &per_target {
                let found = forced_cycle_for(&graph, &solution, t).map(|f| f.cycle.moves.len());
                assert_eq!(found, length, "{case}: shortest forced cycle for the target {t}");
            }
            let expected = per_target.iter().filter_map(|&(_, length)| length).min();
            let found = shortest_forced_cycle(&graph, &solution);
            assert_eq!(
                found.as_ref().map(|f| f.cycle.moves.len()),
                expected,
                "{case}: shortest forced cycle"
            );
            if let Some(found) = found {
                let t = found.target;
                let mut game = AnyGame::new(&naive_spec, geometry);
                for &mv in &found.cycle.path {
                    game.play(mv).unwrap_or_else(|e| panic!("{case}: path move {mv:?}: {e}"));
                }
                let first = state(&game);
                for &mv in &found.cycle.moves {
                    let n = numbers[&state(&game)];
                    assert!(
                        low[n] < t && t <= high[n],
                        "{case}: a state of the cycle is outside the target {t}"
                    );
                    game.play(mv).unwrap_or_else(|e| panic!("{case}: cycle move {mv:?}: {e}"));
                }
                assert_eq!(state(&game), first, "{case}: the forced cycle comes back to its first state");
            }
        }
    }
}

#[test]
fn standard_go_has_the_literature_values_of_small_boards() {
    // area scoring, komi 0 (lab.md): 1x3 is 3, 1x4 is 4, 2x4 is 8, 3x3 is 9 for Black
    let spec = searchable_variant("go:ko=simple").unwrap();
    for (size, value) in [("1x3", 3), ("1x4", 4), ("2x4", 8), ("3x3", 9)] {
        let graph =
            explore(&spec, Geometry::parse(size).unwrap(), Passes::Allowed, 2, usize::MAX, |_| {}).unwrap();
        let solution = solve(&graph, 2, |_| {}).unwrap();
        assert_eq!(solution.root(), (value, value), "{size}");
    }
}

/// A Square Lifeline state as lab.md lists its parts with `draw=none`: the board, and the stage
/// (the side to move, whether each side has had its first turn, whether the swap is available).
fn lifeline_state(game: &Lifeline) -> (String, String) {
    (game.board().to_string(), format!("{:?}", game.stage()))
}

/// Square Lifeline's reachable graph by replaying every legal move, with a position of each
/// state; a finished game is a state too (its player to move has no placement).
fn naive_lifeline_graph(rules: LifelineRules, geometry: Geometry) -> (Vec<Vec<usize>>, Vec<Lifeline>) {
    enumerate(Lifeline::new(rules, geometry), lifeline_state, |_, _| true)
}

#[test]
fn square_lifeline_solves_as_the_fixed_point_iteration_says_and_its_cycles_replay() {
    let rules = LifelineRules { swap: true, own_position_draw: false };
    for (size, swap) in
        [("2x2", true), ("2x3", true), ("3x2", false), ("2x4", true), ("3x3", true), ("3x3", false)]
    {
        let case = format!("lifeline on {size}, swap {swap}");
        let rules = LifelineRules { swap, ..rules };
        let geometry = Geometry::parse(size).unwrap();
        let (successors, games) = naive_lifeline_graph(rules, geometry);
        // the player to move with no legal placement loses: -1 for Black, 1 for White
        let loss = |g: &Lifeline| if g.to_move() == Color::Black { -1 } else { 1 };
        let fixed_point = |start: i32| {
            let mut values = vec![start; successors.len()];
            loop {
                let mut changed = false;
                for s in 0..successors.len() {
                    let options = successors[s].iter().map(|&c| values[c]);
                    let best = match games[s].to_move() {
                        _ if games[s].is_over() => loss(&games[s]),
                        Color::Black => options.max().unwrap(),
                        Color::White => options.min().unwrap(),
                    };
                    if best != values[s] {
                        values[s] = best;
                        changed = true;
                    }
                }
                if !changed {
                    return values;
                }
            }
        };
        let (low, high) = (fixed_point(i32::MIN), fixed_point(i32::MAX));
        let numbers: HashMap<(String, String), usize> =
            games.iter().enumerate().map(|(i, g)| (lifeline_state(g), i)).collect();

        let spec = searchable_lifeline(LifelineSpec {
            rules: LifelineRules { own_position_draw: true, ..rules },
            size: None,
        });
        let graph = explore(&spec, geometry, Passes::Allowed, 2, usize::MAX, |_| {}).unwrap();
        assert_eq!(graph.states.len(), successors.len(), "{case}: states");
        assert_eq!(
            shortest_cycle(&graph).map(|c| c.moves.len()),
            naive_shortest_cycle(&successors),
            "{case}"
        );
        let solution = solve(&graph, 2, |_| {}).unwrap();
        let widen = |v: i8| match v {
            NEVER_LOW => i32::MIN,
            NEVER_HIGH => i32::MAX,
            v => v as i32,
        };
        for s in 0..graph.states.len() {
            let n = numbers[&lifeline_state(&graph.coder().unpack(&spec, graph.states.get(s)))];
            let found = (widen(solution.lower[s]), widen(solution.upper[s]));
            assert_eq!(found, (low[n], high[n]), "{case}: state {s}");
        }
        let forced = (0..low.len()).filter(|&n| low[n] < high[n]).count();
        assert_eq!(solution.forced_cycle_states(), forced, "{case}: forced-cycle states");
        if let Some(line) = principal_line(&graph, &solution) {
            let mut game = Lifeline::new(rules, geometry);
            for &turn in &line {
                game.play(turn).unwrap_or_else(|e| panic!("{case}: line turn {turn:?}: {e}"));
            }
            assert!(game.is_over(), "{case}: the line ends the game");
            assert_eq!(loss(&game), low[0], "{case}: the line's winner is the value's");
        }
        if let Some(found) = shortest_forced_cycle(&graph, &solution) {
            let mut game = Lifeline::new(rules, geometry);
            for &turn in found.cycle.path.iter().chain(&found.cycle.moves) {
                game.play(turn).unwrap_or_else(|e| panic!("{case}: cycle turn {turn:?}: {e}"));
            }
            let back = lifeline_state(&game);
            for &turn in &found.cycle.moves {
                let n = numbers[&lifeline_state(&game)];
                assert!(low[n] < found.target && found.target <= high[n], "{case}: outside the target");
                game.play(turn).unwrap();
            }
            assert_eq!(lifeline_state(&game), back, "{case}: the forced cycle comes back");
        }
    }
}

#[test]
fn square_lifeline_on_3x3_has_a_forced_cycle_and_black_wins() {
    // docs/lab-solve-boards.md: 2076 states, Black wins from the empty board, 200 states where
    // Black playing to win and White playing not to lose go round for ever
    let spec: LifelineSpec = "lifeline".parse().unwrap();
    let graph = explore(
        &searchable_lifeline(spec),
        Geometry::square(3).unwrap(),
        Passes::Allowed,
        2,
        usize::MAX,
        |_| {},
    )
    .unwrap();
    let solution = solve(&graph, 2, |_| {}).unwrap();
    assert_eq!((graph.states.len(), solution.root(), solution.forced_cycle_states()), (2076, (1, 1), 200));
}
