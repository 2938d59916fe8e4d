//! The life-and-death solver on problems composed by hand, with answers worked out by hand: the
//! vital point of a straight three, a snapback, the goal found when none is given, and each main
//! line replayed through the rules engine to a position the problem's definitions decide; and
//! on small boards, composed and random, against references that walk every position.

use proptest::prelude::*;
use variago_lab::life::{Decided, Goal, Problem, Solver, Verdict, solve, solve_problem};
use variago_rules::{Board, Color, Game, Move, VariantSpec};

/// A problem from a diagram (top row first), `to_move` playing for `goal` under `variant`.
fn problem(variant: &str, rows: &[impl AsRef<str>], to_move: Color, goal: Goal) -> Problem {
    let spec: VariantSpec = variant.parse().unwrap();
    let rows: Vec<&str> = rows.iter().map(AsRef::as_ref).collect();
    Problem::new(&spec, Board::from_diagram(&rows).unwrap(), to_move, goal).unwrap()
}

/// A diagram of White's kings (`k`) as it is drawn, or with stones in their place for the rules
/// that have no kings.
fn with_kings(rows: &[&str], kings: bool) -> Vec<String> {
    rows.iter().map(|r| if kings { r.to_string() } else { r.replace('k', "O") }).collect()
}

fn vertices(problem: &Problem, moves: &[Move]) -> Vec<String> {
    let geometry = problem.start.board().geometry();
    moves
        .iter()
        .map(|&mv| match mv {
            Move::Pass => "pass".to_string(),
            Move::Place(p) => geometry.vertex(p).to_string(),
        })
        .collect()
}

/// The main line replays through the engine and ends where the winner has won.
fn assert_line_ends_won(problem: &Problem, line: &[Move], success: bool) {
    let mut game = problem.start.clone();
    for &mv in line {
        game.check(mv).unwrap_or_else(|e| panic!("{mv:?} of the line: {e}"));
        game = problem.play(&game, mv);
    }
    let prover_defends = problem.goal == Goal::Live;
    let winner_defends = prover_defends == success;
    let expected = if winner_defends { Decided::Defender } else { Decided::Attacker };
    // a line may stop where the target can never make two eyes, but right after a pass
    let dead = !line.is_empty()
        && line.last() != Some(&Move::Pass)
        && problem.target_cannot_make_two_eyes(game.board());
    assert_eq!(
        problem.decided(&game).or(dead.then_some(Decided::Attacker)),
        Some(expected),
        "the line {:?} ends undecided",
        vertices(problem, line)
    );
}

/// White's group on the top edge with a straight three of eye space, A5 B5 C5: the middle point
/// decides, for either side.
const STRAIGHT_THREE: [&str; 5] =
    [". . . O X . .", "O O O O X . .", "X X X X X . .", ". . . . . . .", ". . . . . . ."];

#[test]
fn the_vital_point_of_a_straight_three_kills_and_lives() {
    for variant in ["go", "go:ko=simple", "incursion", "stoical", "excursion-1", "excursion-2"] {
        let kill = problem(variant, &STRAIGHT_THREE, Color::Black, Goal::Kill);
        let answer = solve_problem(&kill, 200_000);
        assert_eq!(answer.verdict, Verdict::Success, "{variant}: Black kills");
        assert_eq!(vertices(&kill, &answer.winning_moves), ["B5"], "{variant}: only the vital point kills");
        assert_line_ends_won(&kill, &answer.line, true);

        let live = problem(variant, &STRAIGHT_THREE, Color::White, Goal::Live);
        let answer = solve_problem(&live, 200_000);
        assert_eq!(answer.verdict, Verdict::Success, "{variant}: White lives");
        assert_eq!(vertices(&live, &answer.winning_moves), ["B5"], "{variant}: two eyes at once");
        assert_line_ends_won(&live, &answer.line, true);
    }
}

#[test]
fn a_group_with_two_eyes_cannot_be_killed() {
    // White has played the vital point: A5 and C5 are two eyes, alive by Benson's algorithm
    let rows = [". O . O X . .", "O O O O X . .", "X X X X X . .", ". . . . . . .", ". . . . . . ."];
    let kill = problem("go", &rows, Color::Black, Goal::Kill);
    let answer = solve_problem(&kill, 200_000);
    assert_eq!(answer.verdict, Verdict::Failure);
    assert!(answer.winning_moves.is_empty() && answer.line.is_empty());
    assert_eq!(answer.nodes, 0, "decided before any search");
}

/// White's group in the corner, A5 its last liberty, shut in four points by Black's wall, whose
/// liberties outside the region White may never fill.
const SHUT_IN_FOUR: [&str; 5] =
    [". O X . . . .", "O O X . . . .", "X X X . . . .", ". . . . . . .", ". . . . . . ."];

#[test]
fn a_target_that_can_never_make_two_eyes_is_dead_before_it_is_captured() {
    let kill = problem("go", &SHUT_IN_FOUR, Color::Black, Goal::Kill);
    assert!(kill.target_cannot_make_two_eyes(kill.start.board()));
    // the start is not judged by it: its first moves are the answer
    let answer = solve_problem(&kill, 10_000);
    assert_eq!(answer.verdict, Verdict::Success);
    assert_eq!(vertices(&kill, &answer.winning_moves), ["A5"], "Black's pass lets White pass back");
    // six points, two of them empty (the snapback's group): dead too; Black's stone thrown in is
    // one White may capture, and the area no longer counts as dead
    let snapback = problem("go", &SNAPBACK, Color::Black, Goal::Kill);
    assert!(snapback.target_cannot_make_two_eyes(snapback.start.board()));
    let thrown_in = snapback
        .play(&snapback.start, Move::Place(snapback.start.board().geometry().parse_vertex("B1").unwrap()));
    assert!(!snapback.target_cannot_make_two_eyes(thrown_in.board()));
    // eight points: a straight three of eye space may live
    let three = problem("go", &STRAIGHT_THREE, Color::Black, Goal::Kill);
    assert!(!three.target_cannot_make_two_eyes(three.start.board()));
    // a stone the defender has played counts with its area, as its other stones do: White's
    // six points in the corner stay six with its B5
    let rows = [". . O X . . .", "O O O X . . .", "X X X X . . .", ". . . . . . .", ". . . . . . ."];
    let corner = problem("go", &rows, Color::Black, Goal::Kill);
    assert!(corner.target_cannot_make_two_eyes(corner.start.board()));
    let b5 = Move::Place(corner.start.board().geometry().parse_vertex("B5").unwrap());
    let filled = corner.play(&corner.play(&corner.start, Move::Pass), b5);
    assert!(corner.target_cannot_make_two_eyes(filled.board()));
    // eight points too, but each of them next to Black's wall: no eye can ever be made
    let row = [
        "O O O O O O O . X",
        "X X X X X X X X X",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    let eyeless = problem("go", &row, Color::Black, Goal::Kill);
    assert!(eyeless.target_cannot_make_two_eyes(eyeless.start.board()));
    let answer = solve_problem(&eyeless, 10_000);
    assert_eq!(vertices(&eyeless, &answer.winning_moves), ["H5"]);
    // the argument is Go's: other rules judge every position by its capture
    for variant in ["incursion", "stoical", "excursion-2"] {
        let other = problem(variant, &SHUT_IN_FOUR, Color::Black, Goal::Kill);
        assert!(!other.target_cannot_make_two_eyes(other.start.board()), "{variant}");
    }
}

/// White's group A2 B2 C2 C1 has two liberties, A1 and B1; a black stone on either is captured,
/// and the capture leaves White's whole group in atari (a snapback).
const SNAPBACK: [&str; 4] = [". . . . .", "X X X X .", "O O O X .", ". . O X ."];

#[test]
fn a_snapback_kills_in_go_and_the_wait_in_stoical_kills_too() {
    for variant in ["go", "incursion", "stoical", "stoical:refine=more-stones"] {
        let kill = problem(variant, &SNAPBACK, Color::Black, Goal::Kill);
        let answer = solve_problem(&kill, 200_000);
        assert_eq!(answer.verdict, Verdict::Success, "{variant}");
        let moves = vertices(&kill, &answer.winning_moves);
        assert!(
            moves.contains(&"B1".to_string()) && moves.contains(&"A1".to_string()),
            "{variant}: {moves:?}"
        );
        assert_line_ends_won(&kill, &answer.line, true);
    }
}

#[test]
fn a_snapback_is_found_in_a_line() {
    let kill = problem("go", &SNAPBACK, Color::Black, Goal::Kill);
    let geometry = kill.start.board().geometry();
    let line = |vertices: &[&str]| -> Vec<Move> {
        vertices.iter().map(|v| Move::Place(geometry.parse_vertex(v).unwrap())).collect()
    };
    // B1 thrown in, A1 takes it, B1 takes the five stones back
    assert!(kill.snapback_in(&line(&["B1", "A1", "B1"])));
    // A1 thrown in and taken by B1, then A1 again: the whole group taken, a snapback too
    assert!(kill.snapback_in(&line(&["A1", "B1", "A1"])));
    // B1 taken, then a move elsewhere in the region: no retake
    assert!(!kill.snapback_in(&line(&["B1", "A1", "E1"])));
    assert!(!kill.snapback_in(&[]));
}

/// White's group has an eye at A4 and a second one at C4 only while the D4 stone stands. White's
/// D3 connects it: two eyes. Black's D3 leaves D4 one liberty, C4, but Black's capture there is
/// a ko (White's retake at D4 takes C4 back), so Black kills only by winning a ko.
const KO_TO_KILL: [&str; 4] = [". O . O X . .", "O O O . . . .", ". X X X X X .", ". . . . . . ."];

#[test]
fn a_kill_that_needs_a_ko_is_a_success_by_ko() {
    for variant in ["go", "go:ko=simple"] {
        let kill = problem(variant, &KO_TO_KILL, Color::Black, Goal::Kill);
        let answer = solve_problem(&kill, 200_000);
        assert_eq!((answer.verdict, answer.ko), (Verdict::Success, true), "{variant}");
        assert_eq!(vertices(&kill, &answer.winning_moves), ["D3"], "{variant}");
        assert!(vertices(&kill, &answer.line).contains(&"C4".to_string()), "{variant}: the ko taken");
        assert_line_ends_won(&kill, &answer.line, true);

        let live = problem(variant, &KO_TO_KILL, Color::White, Goal::Live);
        let answer = solve_problem(&live, 200_000);
        assert_eq!((answer.verdict, answer.ko), (Verdict::Success, false), "{variant}");
        assert_eq!(vertices(&live, &answer.winning_moves), ["D3"], "{variant}");
    }
}

/// Black lives only through a ko that White takes first (Cho Chikun's elementary problem 81, on
/// a small board). E5 makes eyes at D5 and F5, but White's E4 takes the lone E3 stone; Black's
/// retake at E3 is banned at once. With ko threats Black retakes after one and connects at E4:
/// two eyes. Without them White connects at E3 and Black's shape is dead. A book counts such a
/// ko as the answer: a success by ko, though the opponent starts it.
const KO_TAKEN_FIRST_BY_THE_OPPONENT: [&str; 5] =
    [". . X . . . X . .", ". O X X . X X O .", ". O O O X O O O .", ". . . . O . . . .", ". . . . . . . . ."];

#[test]
fn a_ko_the_opponent_takes_first_is_a_success_by_ko() {
    let live = problem("go", &KO_TAKEN_FIRST_BY_THE_OPPONENT, Color::Black, Goal::Live);
    let answer = solve_problem(&live, 1_000_000);
    assert_eq!((answer.verdict, answer.ko), (Verdict::Success, true));
    assert!(vertices(&live, &answer.winning_moves).contains(&"E5".to_string()));
    assert!(vertices(&live, &answer.refutation).contains(&"E4".to_string()), "White's capture");
    assert_line_ends_won(&live, &answer.line, true);
}

#[test]
fn the_goal_is_found_when_none_is_given() {
    let spec: VariantSpec = "go".parse().unwrap();
    let board = Board::from_diagram(&STRAIGHT_THREE).unwrap();
    let black = solve(&spec, &board, Color::Black, None, 200_000).unwrap();
    assert_eq!((black.goal, black.verdict), (Goal::Kill, Verdict::Success));
    let white = solve(&spec, &board, Color::White, None, 200_000).unwrap();
    assert_eq!((white.goal, white.verdict), (Goal::Live, Verdict::Success));
}

/// The straight three of [`STRAIGHT_THREE`] with White's cutting stone F4 outside Black's wall:
/// its sphere reaches the open side (G4), so it has escaped and is not at stake.
const STRAIGHT_THREE_AND_A_CUTTING_STONE: [&str; 5] =
    [". . . O X . . . .", "O O O O X O . . .", "X X X X X . . . .", ". . . . . . . . .", ". . . . . . . . ."];

#[test]
fn a_stone_outside_the_wall_is_not_at_stake() {
    let kill = problem("go", &STRAIGHT_THREE_AND_A_CUTTING_STONE, Color::Black, Goal::Kill);
    let answer = solve_problem(&kill, 200_000);
    assert_eq!(answer.verdict, Verdict::Success, "Black kills the corner");
    assert_eq!(vertices(&kill, &answer.winning_moves), ["B5"], "only the vital point kills");
    assert_line_ends_won(&kill, &answer.line, true);
    // the kill is over with the corner captured: F4 still stands
    let mut game = kill.start.clone();
    for &mv in &answer.line {
        game = kill.play(&game, mv);
    }
    let f4 = game.board().geometry().parse_vertex("F4").unwrap();
    assert_eq!(game.board().color(f4), Some(Color::White), "the line {:?}", vertices(&kill, &answer.line));
}

/// White's corner, one eye's space (A5 B5), can join its stone E4, whose sphere reaches the
/// open side (F4): joined to it, the corner has escaped.
const A_CORNER_THAT_CAN_JOIN_ITS_STONE_OUTSIDE: [&str; 5] =
    [". . O . . . . . .", "O O O . O . . . .", "X X X X X . . . .", ". . . . . . . . .", ". . . . . . . . ."];

#[test]
fn a_group_joined_to_a_stone_outside_the_wall_has_escaped() {
    let live = problem("go", &A_CORNER_THAT_CAN_JOIN_ITS_STONE_OUTSIDE, Color::White, Goal::Live);
    let answer = solve_problem(&live, 200_000);
    assert_eq!(answer.verdict, Verdict::Success, "White joins its stone outside");
    assert!(vertices(&live, &answer.winning_moves).contains(&"D4".to_string()), "{:?}", answer.winning_moves);
    assert_line_ends_won(&live, &answer.line, true);
    let mut joined = live.start.clone();
    joined.play(Move::Place(joined.board().geometry().parse_vertex("D4").unwrap())).unwrap();
    assert_eq!(live.decided(&joined), Some(Decided::Defender), "D4 joins the corner to E4");
}

/// Black's corner with eight points of eye space, alive whoever plays first, inside White's
/// wall.
const A_CORNER_ALIVE_ANYWAY: [&str; 9] = [
    ". . . . X O . . .",
    ". . . . X O . . .",
    "X X X X X O . . .",
    "O O O O O O . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . . . . . . .",
];

#[test]
fn a_goal_reached_even_with_a_pass_is_not_the_question() {
    let spec: VariantSpec = "go".parse().unwrap();
    let board = Board::from_diagram(&A_CORNER_ALIVE_ANYWAY).unwrap();
    let live = solve(&spec, &board, Color::Black, Some(Goal::Live), 200_000).unwrap();
    assert_eq!(live.verdict, Verdict::Success);
    assert!(live.winning_moves.contains(&Move::Pass), "Black lives even if it passes");
    let found = solve(&spec, &board, Color::Black, None, 200_000).unwrap();
    assert_eq!(found.goal, Goal::Kill, "{found:?}");
    assert_ne!(found.verdict, Verdict::Success, "White's wall cannot be captured");
}

#[test]
fn a_corner_problem_on_a_full_board_answers_on_that_board() {
    // the straight three in the top left corner of a 19x19 board: the problem is played on a
    // window cut out of it, the answer comes back in the full board's coordinates
    let mut rows: Vec<String> = STRAIGHT_THREE.iter().map(|r| format!("{r}{}", " .".repeat(12))).collect();
    rows.extend((rows.len()..19).map(|_| ["."; 19].join(" ")));
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let board = Board::from_diagram(&rows).unwrap();
    let spec: VariantSpec = "go".parse().unwrap();
    let kill = Problem::new(&spec, board.clone(), Color::Black, Goal::Kill).unwrap();
    assert!(kill.start.board().geometry().area() < 100, "a window, not the whole board");
    let answer = solve(&spec, &board, Color::Black, Some(Goal::Kill), 200_000).unwrap();
    assert_eq!(answer.verdict, Verdict::Success);
    let given = board.geometry();
    let moves: Vec<String> = answer
        .winning_moves
        .iter()
        .map(|&mv| match mv {
            Move::Place(p) => given.vertex(p).to_string(),
            Move::Pass => "pass".to_string(),
        })
        .collect();
    assert_eq!(moves, ["B19"]);

    // shown to an engine: a square around the problem, the frame on it, moves mapped back
    let (shown, view) = kill.square_view();
    let geometry = shown.geometry();
    assert_eq!(geometry.width(), geometry.height());
    assert!(geometry.area() < 100, "a square around the problem, not the whole board");
    let vital = geometry.parse_vertex(&format!("B{}", geometry.height())).unwrap();
    assert_eq!(shown.piece(vital), None);
    assert_eq!(
        view.on_given_board(geometry, Move::Place(vital)),
        Move::Place(given.parse_vertex("B19").unwrap())
    );
    // the wall's outside is framed: the empty point below the wall's corner E3 holds Black's stone
    let below_wall = geometry.parse_vertex(&format!("E{}", geometry.height() - 3)).unwrap();
    assert_eq!(shown.color(below_wall), Some(Color::Black));
}

#[test]
fn a_side_without_stones_is_refused() {
    let spec: VariantSpec = "go".parse().unwrap();
    let board = Board::from_diagram(&[". . .", ". X .", ". . ."]).unwrap();
    assert!(Problem::new(&spec, board.clone(), Color::Black, Goal::Kill).is_err());
    assert!(Problem::new(&spec, board, Color::White, Goal::Live).is_err());
}

/// Which side has ko threats in [`prover_wins_by_fixed_point`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Threats {
    Opponent,
    Prover,
}

/// Whether the side to move at the start reaches its goal by force, worked out a second way:
/// every position reachable in the region explored, then the prover's wins as the least fixed
/// point (prover to move: some move wins; the other side to move: every move does), so that play
/// going round a cycle is the prover's failure; a second pass in a row that brings back the
/// position before the first ends the fight for the defender. The side `threats` names (the
/// prover, or the other side) may lift the rules' restrictions at any turn (a ko threat
/// answered).
fn prover_wins_by_fixed_point(problem: &Problem, threats: Threats) -> bool {
    fixed_point(problem, threats).0
}

/// [`prover_wins_by_fixed_point`], and the first moves that win (the start's moves in the
/// order [`Problem::moves`] gives them).
fn fixed_point(problem: &Problem, threats: Threats) -> (bool, Vec<Move>) {
    use std::collections::HashMap;
    // a position, and the hash of the one a pass was played from if a pass reached it
    let key = |game: &variago_rules::AnyGame, before_pass: Option<u64>| (game.hash(), before_pass);
    let mut index: HashMap<(u64, Option<u64>), usize> = HashMap::new();
    let mut games = vec![(problem.start.clone(), None)];
    index.insert(key(&problem.start, None), 0);
    let mut children: Vec<Vec<usize>> = Vec::new();
    let mut decided: Vec<Option<Decided>> = Vec::new();
    let mut moves = Vec::new();
    let mut first_moves = Vec::new();
    // the end of the fight after two passes, the defender's
    const TWO_PASSES: usize = usize::MAX;
    let mut i = 0;
    while i < games.len() {
        let (game, before_pass) = games[i].clone();
        let here = problem.decided(&game);
        decided.push(here);
        let mut next = Vec::new();
        if here.is_none() {
            problem.moves(&game, &mut moves, &mut Vec::new());
            if i == 0 {
                first_moves.clone_from(&moves);
            }
            for &mv in &moves {
                let child = problem.play(&game, mv);
                if mv == Move::Pass && before_pass == Some(child.hash()) {
                    next.push(TWO_PASSES);
                    continue;
                }
                let child_before_pass = (mv == Move::Pass).then(|| game.hash());
                let k = key(&child, child_before_pass);
                let n = *index.entry(k).or_insert_with(|| {
                    games.push((child, child_before_pass));
                    games.len() - 1
                });
                next.push(n);
            }
            // a ko threat, answered
            let prover_to_move = game.to_move() == problem.start.to_move();
            if let Some(lifted) =
                problem.threat(&game).filter(|_| prover_to_move == (threats == Threats::Prover))
            {
                let n = *index.entry(key(&lifted, None)).or_insert_with(|| {
                    games.push((lifted, None));
                    games.len() - 1
                });
                next.push(n);
            }
        }
        children.push(next);
        i += 1;
        assert!(games.len() < 2_000_000, "the problem is too large for the fixed point");
    }
    let prover = problem.start.to_move();
    let prover_defends = problem.goal == Goal::Live;
    let won = |d: Decided| (d == Decided::Defender) == prover_defends;
    let mut wins: Vec<bool> = decided.iter().map(|d| d.is_some_and(won)).collect();
    let wins_at = |wins: &[bool], c: usize| if c == TWO_PASSES { prover_defends } else { wins[c] };
    loop {
        let mut changed = false;
        for s in 0..games.len() {
            if wins[s] || decided[s].is_some() {
                continue;
            }
            let now = if games[s].0.to_move() == prover {
                children[s].iter().any(|&c| wins_at(&wins, c))
            } else {
                children[s].iter().all(|&c| wins_at(&wins, c))
            };
            if now {
                wins[s] = true;
                changed = true;
            }
        }
        if !changed {
            let winning = first_moves.iter().zip(&children[0]).filter(|&(_, &c)| wins_at(&wins, c));
            return (wins[0], winning.map(|(&mv, _)| mv).collect());
        }
    }
}

/// What the fixed point says the search must answer: the verdict, whether it needs a ko won,
/// and the winning first moves of the search that decides (by ko only where the first fails).
fn fixed_point_answer(problem: &Problem) -> (Verdict, bool, Vec<Move>) {
    let (unconditional, winning) = fixed_point(problem, Threats::Opponent);
    let (by_ko, winning) =
        if unconditional { (false, winning) } else { fixed_point(problem, Threats::Prover) };
    let verdict = if unconditional || by_ko { Verdict::Success } else { Verdict::Failure };
    (verdict, by_ko, winning)
}

/// Small boards whose every reachable position the references below can walk: White's group
/// shut in by Black's, a ko, a seki.
const SMALL_BOARDS: [&[&str]; 7] = [
    &[". . . O X", "O O O O X", "X X X X X"],
    &KO_TO_KILL,
    &[". . . . .", "X X X X .", "O O O X .", ". . O X ."],
    &[". O . X .", "O O X . .", "X X . . ."],
    &[". . O X .", ". O X . .", "O X . . .", "X . . . ."],
    &SEKI,
    &[". O X . . .", "O O X . . .", "X X X . . .", ". . . . . ."],
];

/// Small problems, each solved by the search and by the fixed point: the verdicts agree, and so
/// do the winning first moves (each first move's search, where the proofs and refutations found
/// for one move are carried over to its siblings, against the fixed point's children).
#[test]
fn the_search_agrees_with_a_fixed_point_on_small_problems() {
    for rows in SMALL_BOARDS {
        for variant in ["go", "go:ko=simple", "incursion", "stoical", "excursion-1", "excursion-2"] {
            // White's group is the one shut in: Black attacks it, whoever moves first
            for (to_move, goal) in [(Color::Black, Goal::Kill), (Color::White, Goal::Live)] {
                let spec: VariantSpec = variant.parse().unwrap();
                let Ok(p) = Problem::new(&spec, Board::from_diagram(rows).unwrap(), to_move, goal) else {
                    continue;
                };
                let answer = solve_problem(&p, 2_000_000);
                let (expected, by_ko, winning) = fixed_point_answer(&p);
                assert_eq!(answer.verdict, expected, "{variant} {rows:?} {to_move} {goal:?}");
                assert_eq!(answer.ko, by_ko, "{variant} {rows:?} {to_move} {goal:?}: by ko");
                // (under `go`'s superko the fixed point takes the legal moves of the line that
                // reached a position first: the lines below check the moves there)
                if expected == Verdict::Success && variant != "go" {
                    assert!(answer.undecided_moves.is_empty(), "{variant} {rows:?} {to_move} {goal:?}");
                    let (found, expected) = (vertices(&p, &answer.winning_moves), vertices(&p, &winning));
                    assert_eq!(found, expected, "{variant} {rows:?} {to_move} {goal:?}: winning moves");
                }
            }
        }
    }
}

/// A random board of `width` columns, four rows, from one number a point (0 to 8 an empty
/// point, 9 to 14 Black's stone, 15 to 19 White's).
fn random_rows(width: usize, cells: &[u8]) -> Vec<String> {
    let symbol = |c: &u8| match c {
        0..=8 => ".",
        9..=14 => "X",
        _ => "O",
    };
    cells.chunks(width).map(|row| row.iter().map(symbol).collect::<Vec<_>>().join(" ")).collect()
}

/// A random small problem (`random_rows`) under `variant`, if every stone has a liberty and the
/// problem's region has nine points at most: its rows, for the failure's message, and the problem.
fn random_problem(
    width: usize,
    cells: &[u8],
    variant: &str,
    to_move: Color,
    goal: Goal,
) -> Option<(Vec<String>, Problem)> {
    let rows = random_rows(width, cells);
    let board = Board::from_diagram(&rows.iter().map(String::as_str).collect::<Vec<_>>()).unwrap();
    let geometry = board.geometry();
    if !geometry.points().all(|p| board.piece(p).is_none() || board.liberties(p) > 0) {
        return None;
    }
    let spec: VariantSpec = variant.parse().unwrap();
    let problem = Problem::new(&spec, board, to_move, goal).ok()?;
    (problem.region_points().len() <= 9).then_some((rows, problem))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// Random small problems (every stone with a liberty, a region of nine points at most), each
    /// solved by the search and by the fixed point under the rules with a memory but no
    /// superko: the verdicts agree, and so do the kos and the winning first moves. The
    /// composed boards above are shapes a person thought of; these are shapes nobody did.
    #[test]
    fn the_search_agrees_with_a_fixed_point_on_random_small_problems(
        (width, cells) in (3usize..=5).prop_flat_map(|w| (Just(w), prop::collection::vec(0u8..20, w * 4))),
        variant in prop::sample::select(vec!["go:ko=simple", "incursion", "stoical"]),
        (to_move, goal) in prop::sample::select(vec![
            (Color::Black, Goal::Kill),
            (Color::Black, Goal::Live),
            (Color::White, Goal::Kill),
            (Color::White, Goal::Live),
        ]),
    ) {
        let random = random_problem(width, &cells, variant, to_move, goal);
        prop_assume!(random.is_some());
        let (rows, p) = random.unwrap();
        let answer = solve_problem(&p, 2_000_000);
        let (expected, by_ko, winning) = fixed_point_answer(&p);
        prop_assert_eq!(answer.verdict, expected, "{:?} {} {:?}", rows, to_move, goal);
        prop_assert_eq!(answer.ko, by_ko, "{:?} {} {:?}: by ko", rows, to_move, goal);
        if expected == Verdict::Success {
            prop_assert!(answer.undecided_moves.is_empty());
            prop_assert_eq!(vertices(&p, &answer.winning_moves), vertices(&p, &winning));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// Random small problems under `go`'s positional superko (every stone with a liberty, a
    /// region of nine points at most), each solved by the search and by every line with its own
    /// history: the verdicts agree, and so do the kos and the winning first moves. A result
    /// that rests on a move a superko banned on one line must not be carried to another.
    #[test]
    fn the_search_agrees_with_every_line_on_random_problems_under_a_superko(
        (width, cells) in (3usize..=5).prop_flat_map(|w| (Just(w), prop::collection::vec(0u8..20, w * 4))),
        (to_move, goal) in prop::sample::select(vec![
            (Color::Black, Goal::Kill),
            (Color::Black, Goal::Live),
            (Color::White, Goal::Kill),
            (Color::White, Goal::Live),
        ]),
    ) {
        let random = random_problem(width, &cells, "go", to_move, goal);
        prop_assume!(random.is_some());
        let (rows, p) = random.unwrap();
        let lines = |threats| prover_wins_by_lines(&p, threats, 2_000_000);
        let unconditional = lines(Threats::Opponent);
        prop_assume!(unconditional.is_some());
        let (unconditional, winning) = unconditional.unwrap();
        let (by_ko, winning) = if unconditional {
            (false, winning)
        } else {
            let by_ko = lines(Threats::Prover);
            prop_assume!(by_ko.is_some());
            by_ko.unwrap()
        };
        let answer = solve_problem(&p, 2_000_000);
        let expected = if unconditional || by_ko { Verdict::Success } else { Verdict::Failure };
        prop_assert_eq!((answer.verdict, answer.ko), (expected, by_ko), "{:?} {} {:?}", rows, to_move, goal);
        if expected == Verdict::Success {
            prop_assert!(answer.undecided_moves.is_empty());
            prop_assert_eq!(vertices(&p, &answer.winning_moves), vertices(&p, &winning));
        }
    }
}

/// White's group on the top edge with a bent four of eye space, C5 D5 E5 E4 (a path of four
/// points): whichever point Black takes, White answers on a neighbouring one and has two eyes.
const BENT_FOUR: [&str; 5] =
    ["X O . . . O X .", "X O O O . O X .", "X X X O O O X .", ". . X X X X X .", ". . . . . . . ."];

#[test]
fn a_bent_four_of_eye_space_lives() {
    for variant in ["go", "go:ko=simple"] {
        let kill = problem(variant, &BENT_FOUR, Color::Black, Goal::Kill);
        let answer = solve_problem(&kill, 200_000);
        assert_eq!(answer.verdict, Verdict::Failure, "{variant}: Black cannot kill");
        assert_line_ends_won(&kill, &answer.line, false);

        // D5 leaves C5 and the two points E5 E4 (one eye each); E5 leaves C5 D5 and E4; C5
        // leaves D5 E5 E4, a bent three; E4 leaves C5 D5 E5, a straight three; a pass leaves the
        // bent four, alive
        let live = problem(variant, &BENT_FOUR, Color::White, Goal::Live);
        let answer = solve_problem(&live, 200_000);
        assert_eq!(answer.verdict, Verdict::Success, "{variant}");
        assert_eq!(vertices(&live, &answer.winning_moves), ["D5", "E5", "pass"], "{variant}");
    }
}

/// Three black stones B4 C4 D4 inside White's group share its only liberties, A4 and E4: the
/// side that fills one puts itself in atari. Black's fill lets White capture four stones and
/// live with a straight four; White's fill lets Black capture White. Neither plays: a seki.
const SEKI: [&str; 4] = [". X X X . O X .", "O O O O O O X .", "X X X X X X X .", ". . . . . . . ."];

#[test]
fn a_seki_is_the_defenders_and_only_a_pass_keeps_it() {
    for variant in ["go", "go:ko=simple"] {
        let kill = problem(variant, &SEKI, Color::Black, Goal::Kill);
        let answer = solve_problem(&kill, 200_000);
        assert_eq!(answer.verdict, Verdict::Failure, "{variant}: Black cannot kill");

        let live = problem(variant, &SEKI, Color::White, Goal::Live);
        let answer = solve_problem(&live, 200_000);
        assert_eq!(answer.verdict, Verdict::Success, "{variant}");
        assert_eq!(vertices(&live, &answer.winning_moves), ["pass"], "{variant}: every fill loses");
        // Black's longest resistance is a sacrifice that lets White capture and live: Black
        // fills one of the two shared liberties, White captures on the other
        let line = vertices(&live, &answer.line);
        assert!(
            [["pass", "A4", "E4"], ["pass", "E4", "A4"]].iter().any(|l| line[..3] == l[..]),
            "{variant}: {line:?}"
        );
        assert_line_ends_won(&live, &answer.line, true);
        assert_eq!(live.decided(&live.start), None, "a seki is not unconditional life");
    }
}

/// White's group of three in the corner has one liberty, its eye A4. In Go, Black's A4 captures
/// it. In the Excursion variants the eye is White's territory, so Black's piece there is a king:
/// Excursion 1 forbids a turn that places a king and removes one, so Black can capture the group
/// only while it is made of stones; Excursion 2 forbids it only right after the opponent placed
/// a king (at the start nobody has).
const ONE_EYED_KINGS: [&str; 4] = [". k X . . .", "k k X . . .", "X X X . . .", ". . . . . ."];

#[test]
fn a_one_eyed_group_of_kings_lives_in_excursion_1_only() {
    for (variant, kings, kills) in [
        ("go", false, true),
        ("excursion-1", false, true),
        ("excursion-1", true, false),
        ("excursion-2", true, true),
    ] {
        let rows = with_kings(&ONE_EYED_KINGS, kings);
        let kill = problem(variant, &rows, Color::Black, Goal::Kill);
        let answer = solve_problem(&kill, 200_000);
        let expected = if kills { Verdict::Success } else { Verdict::Failure };
        assert_eq!(answer.verdict, expected, "{variant} {rows:?}");
        if kills {
            assert_eq!(vertices(&kill, &answer.winning_moves), ["A4"], "{variant}");
            assert_line_ends_won(&kill, &answer.line, true);
        } else {
            // Black's only move in the region is the forbidden capture: both sides pass
            assert_eq!(vertices(&kill, &answer.line), ["pass", "pass"], "{variant}");
        }
    }
}

/// A capturing race: White's group (kings in the Excursion variants) has its eye A2 and one
/// outside liberty C2; Black's chain beside it has C2 and a two-point eye, E1 E2. Black takes C2
/// and wins the race: White is left with its eye, Black with two liberties, and Black's capture
/// at A2 places a king in White's eye (enemy territory) that removes White's group. In Go that is
/// all; in Excursion 1 Black's stone at C2 has turned every king into a stone, so the capture
/// removes no king. In Excursion 2 the kings stay, White answers C2 by throwing a king into
/// Black's eye, and right after a king placed Black may not place a king that removes kings:
/// Black has to wait, and White fills Black's last liberty. Black wins only with a ko threat.
const KING_RACE: [&str; 2] = [". k . X .", "k k X X ."];

#[test]
fn a_race_of_kings_is_won_outright_in_go_and_excursion_1_and_by_ko_in_excursion_2() {
    for (variant, kings, by_ko) in
        [("go", false, false), ("excursion-1", true, false), ("excursion-2", true, true)]
    {
        let kill = problem(variant, &with_kings(&KING_RACE, kings), Color::Black, Goal::Kill);
        assert_eq!(kill.region_points().len(), 10, "{variant}: the whole board is the fight");
        let answer = solve_problem(&kill, 200_000);
        assert_eq!((answer.verdict, answer.ko), (Verdict::Success, by_ko), "{variant}");
        assert!(vertices(&kill, &answer.winning_moves).contains(&"C2".to_string()), "{variant}");
        assert_line_ends_won(&kill, &answer.line, true);
        // the fixed point, written apart from the search, agrees
        assert_eq!(prover_wins_by_fixed_point(&kill, Threats::Opponent), !by_ko, "{variant}");
        assert!(prover_wins_by_fixed_point(&kill, Threats::Prover), "{variant}");
    }
    // in Go, C2 alone: filling its own eye first, Black is a liberty short
    let kill = problem("go", &with_kings(&KING_RACE, false), Color::Black, Goal::Kill);
    assert_eq!(vertices(&kill, &solve_problem(&kill, 200_000).winning_moves), ["C2"]);
}

/// Whether the problem's region holds each of these vertices.
fn region_holds(problem: &Problem, vertices: &[&str]) -> Vec<bool> {
    let geometry = problem.start.board().geometry();
    vertices.iter().map(|v| problem.region_points().contains(&geometry.parse_vertex(v).unwrap())).collect()
}

/// Cho Chikun's elementary problem 269 (Black to live, the book's answer D19, here D7): the
/// vital first-line points D7 and E7 lie between the empty points next to White's stones and
/// White's F7. They are a pocket of the region, not frame stones that would fill the vital point.
const FIRST_LINE_POCKET: [&str; 7] = [
    ". X . . . O . . .",
    "X X O . . O . . .",
    "O O X X X O . . .",
    ". O O . O O . . .",
    ". . . . . . . . .",
    ". . O . . . . . .",
    ". . . . . . . . .",
];

#[test]
fn a_first_line_pocket_stays_in_the_region() {
    let live = problem("go", &FIRST_LINE_POCKET, Color::Black, Goal::Live);
    assert_eq!(region_holds(&live, &["D7", "E7"]), [true, true]);
    let answer = solve_problem(&live, 200_000);
    assert_eq!(answer.verdict, Verdict::Success);
    assert!(vertices(&live, &answer.winning_moves).contains(&"D7".to_string()), "the book's D19");
    assert_line_ends_won(&live, &answer.line, true);
}

/// Cho Chikun's elementary problem 861 (Black to live, the book's answer E17, here E6): the
/// stones stop at column C, one line short of the edge, and Black's corner space A6 to A8 is
/// the first line beyond them. It is in the region, not White's frame, which left Black no
/// life.
const FIRST_LINE_BEYOND_THE_STONES: [&str; 8] = [
    ". . . . X . X O . . . .",
    ". . . . . X X O . . . .",
    ". . O X . . . O . . . .",
    ". . O O O O O . . . . .",
    ". . . . . . . . . . . .",
    ". . . . . . . . . . . .",
    ". . . . . . . . . . . .",
    ". . . . . . . . . . . .",
];

#[test]
fn the_first_line_beyond_the_stones_is_in_the_region() {
    let live = problem("go", &FIRST_LINE_BEYOND_THE_STONES, Color::Black, Goal::Live);
    // the problem is played on a window cut out of the board: its points named on the board
    let given = Board::from_diagram(&FIRST_LINE_BEYOND_THE_STONES).unwrap().geometry();
    let on_board = |moves: &[Move]| -> Vec<String> {
        moves
            .iter()
            .map(|&mv| match live.on_given_board(mv) {
                Move::Place(p) => given.vertex(p).to_string(),
                Move::Pass => "pass".to_string(),
            })
            .collect()
    };
    let region = on_board(&live.region_points().iter().map(|&p| Move::Place(p)).collect::<Vec<_>>());
    for corner in ["A6", "A7", "A8"] {
        assert!(region.contains(&corner.to_string()), "{corner} in the region {region:?}");
    }
    // the life takes about three million positions with every first move (a measurement, not a
    // test); within a million the solver must not find the kill it found with the corner in
    // White's frame
    let answer = solve_problem(&live, 1_000_000);
    assert_ne!(answer.verdict, Verdict::Failure);
    if answer.verdict == Verdict::Success {
        assert!(on_board(&answer.winning_moves).contains(&"E6".to_string()), "the book's E17");
        assert_line_ends_won(&live, &answer.line, true);
    }
}

/// Cho Chikun's elementary problem 384 (Black to live, the book's answer B19, here B7): White's
/// A5 is in atari and touches Black's stones, so its liberty A6 is part of the fight, though no
/// empty point next to Black's stones reaches it.
const STONE_IN_ATARI: [&str; 7] = [
    ". . . O . . . .",
    ". . O X O . . .",
    "O X X X O . . .",
    "X X . O O . . .",
    "O O O . . . . .",
    ". . . . . . . .",
    ". . . . . . . .",
];

#[test]
fn the_liberty_of_a_stone_in_atari_is_in_the_region() {
    let live = problem("go", &STONE_IN_ATARI, Color::Black, Goal::Live);
    assert_eq!(region_holds(&live, &["A6"]), [true]);
    let answer = solve_problem(&live, 200_000);
    assert_eq!(answer.verdict, Verdict::Success);
    assert!(vertices(&live, &answer.winning_moves).contains(&"B7".to_string()), "the book's B19");
    assert_line_ends_won(&live, &answer.line, true);
}

/// White's group in the corner with six points of eye space, A5 to C6, Black to kill: a search of
/// some hundreds of positions.
const CORNER_SIX: [&str; 6] =
    [". . . O X . .", ". . . O X . .", "O O O O X . .", "X X X X X . .", ". . . . . . .", ". . . . . . ."];

#[test]
fn a_search_taken_further_goes_on_from_where_it_stopped() {
    let kill = problem("go", &CORNER_SIX, Color::Black, Goal::Kill);
    let mut at_once = Solver::new(&kill);
    assert_eq!(at_once.advance(1_000_000), Verdict::Success, "Black kills");
    let whole = at_once.nodes();
    assert!(whole > 100, "a search of some size: {whole} nodes");
    let mut in_two = Solver::new(&kill);
    assert_eq!(in_two.advance(whole / 2), Verdict::Unknown);
    assert_eq!(in_two.advance(1_000_000), Verdict::Success);
    // searched again from nothing, the second budget would cost the whole search again
    assert!(in_two.nodes() < whole + whole / 10, "{} nodes in two budgets, {whole} at once", in_two.nodes());
}

#[test]
fn an_answer_asked_for_twice_is_the_same() {
    // the goal found asks a solver for its answer, then the caller again: the main line walked
    // the first time once stayed as the line searched, and every first move on it passed for a
    // cycle the second time
    let kill = problem("go", &CORNER_SIX, Color::Black, Goal::Kill);
    let mut solver = Solver::new(&kill);
    assert_eq!(solver.advance(1_000_000), Verdict::Success, "Black kills");
    let first = solver.answer();
    assert!(!first.winning_moves.is_empty() && !first.line.is_empty());
    assert_eq!(solver.answer(), first);
}

#[test]
fn first_moves_the_budget_leaves_undecided_are_named() {
    // Black's life is proved in far fewer positions than the other first moves are refuted in
    let live = problem("go", &FIRST_LINE_POCKET, Color::Black, Goal::Live);
    let full = solve_problem(&live, 100_000_000);
    assert_eq!(full.verdict, Verdict::Success);
    assert!(full.undecided_moves.is_empty(), "a budget that decides every first move");
    // a budget that proves the life and no more: the other first moves stay undecided
    let mut verdict_only = Solver::new(&live);
    verdict_only.advance(100_000_000);
    let mut short = Solver::new(&live);
    assert_eq!(short.advance(verdict_only.nodes()), Verdict::Success);
    let answer = short.answer();
    assert!(!answer.undecided_moves.is_empty(), "{answer:?}");
    for mv in &full.winning_moves {
        assert!(answer.winning_moves.contains(mv) || answer.undecided_moves.contains(mv), "{mv:?} lost");
    }
}

/// The empty points outside the region where the attacker may play in `game`, and whether the
/// defender may play outside the region at all.
fn moves_outside_region(problem: &Problem, game: &variago_rules::AnyGame) -> Vec<String> {
    let mut moves = Vec::new();
    problem.moves(game, &mut moves, &mut Vec::new());
    let outside: Vec<Move> = moves
        .into_iter()
        .filter(|mv| matches!(mv, Move::Place(p) if !problem.region_points().contains(p)))
        .collect();
    vertices(problem, &outside)
}

#[test]
fn where_the_defender_moves_first_the_frame_next_to_its_space_is_left_to_the_attacker() {
    // Black lives: the frame points next to the region's empty points and Black's stones are
    // empty, and White alone may play there
    let live = problem("go", &FIRST_LINE_POCKET, Color::Black, Goal::Live);
    assert!(moves_outside_region(&live, &live.start).is_empty(), "Black plays inside the region only");
    let white_to_move = live.play(&live.start, Move::Pass);
    let open = moves_outside_region(&live, &white_to_move);
    assert!(!open.is_empty(), "White may fill the frame's empty points");
    let board = live.start.board();
    let geometry = board.geometry();
    for vertex in &open {
        let p = geometry.parse_vertex(vertex).unwrap();
        let next_to_space = geometry.neighbours(p).into_iter().any(|n| {
            geometry.contains(n) && live.region_points().contains(&n) && board.color(n) != Some(Color::White)
        });
        assert!(next_to_space, "{vertex} lies next to a point Black may hold");
    }
    // White kills the same group: the frame is whole, White's stones fill those points
    let kill = problem("go", &FIRST_LINE_POCKET, Color::White, Goal::Kill);
    assert!(moves_outside_region(&kill, &kill.start).is_empty(), "the frame has no empty point");
    // (the same defender: the same region, frame and window)
    let kill_board = kill.start.board();
    assert_eq!(kill_board.geometry(), geometry);
    for vertex in &open {
        let p = geometry.parse_vertex(vertex).unwrap();
        assert_eq!(kill_board.color(p), Some(Color::White), "{vertex} holds a frame stone when White kills");
    }
}

#[test]
fn after_the_verdict_the_first_moves_get_as_many_nodes_again() {
    // White's life here is proved in a few thousand positions; refuting every other first
    // move takes more than twice that
    let live = problem("go", &FIRST_LINE_POCKET, Color::White, Goal::Live);
    let mut verdict_only = Solver::new(&live);
    assert_eq!(verdict_only.advance(100_000_000), Verdict::Success);
    let verdict = verdict_only.nodes();
    let whole = solve_problem(&live, 100_000_000);
    assert!(
        whole.nodes > 2 * verdict,
        "{} nodes for every first move, {verdict} for the verdict",
        whole.nodes
    );
    assert_eq!(vertices(&live, &whole.winning_moves), ["C7", "D6"]);
    // with ten times the verdict's nodes, the first moves get as many again (a tenth of the
    // budget is less), give or take the positions of one line the search stops in
    let capped = solve_problem(&live, 10 * verdict);
    assert_eq!(capped.verdict, Verdict::Success);
    assert!(capped.nodes <= 2 * verdict + 100, "{} nodes, the verdict {verdict}", capped.nodes);
    assert!(!capped.undecided_moves.is_empty());
    let winning = vertices(&live, &capped.winning_moves);
    assert!(!winning.is_empty() && winning.iter().all(|v| v == "C7" || v == "D6"), "{winning:?}");
}

/// Whether the side to move at the start reaches its goal by force, worked out a third way: a
/// plain depth-first search of the game itself, each line with its own history, so that a
/// superko bans exactly the moves the rules ban on that line (the fixed point above keys a
/// position by its board alone and takes the legal moves of whichever line reached it first).
/// The definitions are the solver's: a decided position, a second pass in a row back to the
/// position before the first (the defender's), a position already on the line (the prover's
/// failure), ko threats for the side `threats` names. With the verdict, the first moves that
/// win. `None` past `budget` positions.
fn prover_wins_by_lines(problem: &Problem, threats: Threats, budget: u64) -> Option<(bool, Vec<Move>)> {
    struct Walk<'a> {
        problem: &'a Problem,
        threats: Threats,
        left: u64,
        line: Vec<(u64, Option<u64>)>,
    }
    impl Walk<'_> {
        /// Whether the prover wins from `game`, reached by a pass from the position hashed
        /// `before_pass` if there is one.
        fn wins(&mut self, game: &variago_rules::AnyGame, before_pass: Option<u64>) -> Option<bool> {
            let prover_defends = self.problem.goal == Goal::Live;
            if let Some(d) = self.problem.decided(game) {
                return Some((d == Decided::Defender) == prover_defends);
            }
            let key = (game.hash(), before_pass);
            if self.line.contains(&key) {
                return Some(false);
            }
            self.left = self.left.checked_sub(1)?;
            let prover_to_move = game.to_move() == self.problem.start.to_move();
            let mut moves = Vec::new();
            self.problem.moves(game, &mut moves, &mut Vec::new());
            let mut children: Vec<(variago_rules::AnyGame, Option<u64>)> = moves
                .into_iter()
                .map(|mv| (self.problem.play(game, mv), (mv == Move::Pass).then(|| game.hash())))
                .collect();
            if let Some(lifted) =
                self.problem.threat(game).filter(|_| prover_to_move == (self.threats == Threats::Prover))
            {
                children.push((lifted, None));
            }
            self.line.push(key);
            // the side to move needs one child that wins for it, the other side all of them
            let mut result = Some(!prover_to_move);
            for (child, child_before_pass) in children {
                // a second pass back to the position before the first ends the fight
                let won = if child_before_pass.is_some() && before_pass == Some(child.hash()) {
                    Some(prover_defends)
                } else {
                    self.wins(&child, child_before_pass)
                };
                match won {
                    None => result = None,
                    Some(w) if w == prover_to_move => {
                        result = Some(w);
                        break;
                    }
                    Some(_) => {}
                }
            }
            self.line.pop();
            result
        }
    }
    let mut walk = Walk { problem, threats, left: budget, line: Vec::new() };
    let verdict = walk.wins(&problem.start, None)?;
    // a start decided already has no first moves to answer, as the search answers it
    if problem.decided(&problem.start).is_some() {
        return Some((verdict, Vec::new()));
    }
    // each first move walked on its own, the start on the line
    walk.line.push((problem.start.hash(), None));
    let mut moves = Vec::new();
    problem.moves(&problem.start, &mut moves, &mut Vec::new());
    let mut winning = Vec::new();
    for mv in moves {
        let before_pass = (mv == Move::Pass).then(|| problem.start.hash());
        if walk.wins(&problem.play(&problem.start, mv), before_pass)? {
            winning.push(mv);
        }
    }
    Some((verdict, winning))
}

/// Small problems under a positional superko, solved by the search and by the lines above: the
/// verdicts agree, and so do the winning first moves, where the table of positions keyed
/// without their history could mislead.
#[test]
fn the_search_agrees_with_every_line_under_a_superko() {
    for rows in SMALL_BOARDS {
        for (to_move, goal) in [(Color::Black, Goal::Kill), (Color::White, Goal::Live)] {
            let p = problem("go", rows, to_move, goal);
            let lines = |threats| prover_wins_by_lines(&p, threats, 3_000_000).expect("few enough lines");
            let (unconditional, winning) = lines(Threats::Opponent);
            let (by_ko, winning) = if unconditional { (false, winning) } else { lines(Threats::Prover) };
            let answer = solve_problem(&p, 2_000_000);
            let expected = if unconditional || by_ko { Verdict::Success } else { Verdict::Failure };
            assert_eq!((answer.verdict, answer.ko), (expected, by_ko), "{rows:?} {to_move} {goal:?}");
            if expected == Verdict::Success {
                assert!(answer.undecided_moves.is_empty(), "{rows:?} {to_move} {goal:?}");
                let (found, expected) = (vertices(&p, &answer.winning_moves), vertices(&p, &winning));
                assert_eq!(found, expected, "{rows:?} {to_move} {goal:?}: winning moves");
            }
        }
    }
}
