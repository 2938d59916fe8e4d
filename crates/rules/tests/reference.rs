//! The engine against the naive model of the rules (`support/model.rs`, written from the rules
//! and not from the engine): the two must agree on legal moves, on why the other moves are illegal
//! (the engine's reason must be one of the model's), on boards, scores and results over many
//! random games, from the empty board and from random set-ups, and on perft from the empty board.

#[allow(dead_code)]
mod support;

use std::collections::HashSet;
use std::mem::{Discriminant, discriminant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use support::model::{Cells, Model, ModelRules, sgf, stone};
use support::{cells, diagram, empty, has_kings, last_placed_king, legal_moves, set_up, to_engine, to_model};
use variago_rules::perft::perft;
use variago_rules::{AnyGame, Color, Ending, Game, GameResult, Illegal, Move, ScoreSheet};

// ---------------------------------------------------------------------------------------------
// Comparing the engine with the model
// ---------------------------------------------------------------------------------------------

/// The engine's legal moves as the model's: placements in point order, the pass last.
fn engine_moves(game: &AnyGame) -> Vec<Option<usize>> {
    let g = game.board().geometry();
    let mut out: Vec<Option<usize>> = legal_moves(game).into_iter().map(|m| to_model(g, m)).collect();
    out.sort_by_key(|m| m.map_or(usize::MAX, |i| i));
    out
}

/// Everything the two must agree on in a position; returns the model's legal moves and the
/// reasons of every point.
fn compare(
    engine: &AnyGame,
    reference: &Model,
    context: &dyn Fn() -> String,
) -> (Vec<Option<usize>>, Vec<Vec<Illegal>>) {
    let g = engine.board().geometry();
    let all_reasons = reference.all_reasons();
    let legal = Model::legal_from(&all_reasons, reference.is_over());
    assert_eq!(cells(engine.board()), reference.cells, "board (kinds included), {}", context());
    assert_eq!(engine.to_move(), reference.to_move, "to move, {}", context());
    if let Some(king) = last_placed_king(engine) {
        assert_eq!(king, reference.last_king, "whether the last move placed a king, {}", context());
    }
    assert_eq!(engine.is_over(), reference.is_over(), "over, {}", context());
    assert_eq!(engine_moves(engine), legal, "legal moves, {}", context());
    for (i, reasons) in all_reasons.iter().enumerate() {
        match engine.check(to_engine(g, Some(i))) {
            Ok(()) => assert!(reasons.is_empty(), "engine allows {i}, reference: {reasons:?}, {}", context()),
            Err(reason) => assert!(
                reasons.contains(&reason),
                "engine refuses {i} with {reason:?}, reference: {reasons:?}, {}",
                context()
            ),
        }
    }
    let pass = engine.check(Move::Pass);
    assert_eq!(pass.is_ok(), !reference.is_over(), "pass, {}", context());
    assert_eq!(engine.score().result().to_string(), sgf(&reference.score_result()), "score, {}", context());
    assert_eq!(
        engine.outcome().map(|r| r.to_string()),
        reference.outcome().map(|r| sgf(&r)),
        "outcome, {}",
        context()
    );
    if reference.drawn {
        assert_eq!(engine.outcome(), Some(GameResult { winner: None, ending: Ending::OwnPositionDraw }));
    }
    (legal, all_reasons)
}

/// How a random game picks its moves.
#[derive(Clone, Copy, Debug)]
enum Picker {
    /// Uniform among the legal placements; a pass with probability 1/`pass_one_in`.
    Uniform { pass_one_in: u32 },
    /// The engine's light playout move (which must be legal for the reference too).
    Light,
}

/// What a random game showed: its result, its number of moves and the kinds of reason the engine
/// gave for the illegal placements along the way.
struct Played {
    result: String,
    moves: usize,
    refusals: HashSet<Discriminant<Illegal>>,
}

/// Plays one random game from the empty board in both, comparing after every move.
fn random_game(spec: &str, width: usize, height: usize, seed: u64, picker: Picker) -> Played {
    let engine = empty(spec, width as u32, height as u32);
    let reference = Model::empty(spec, width, height);
    play_out(engine, reference, spec, seed, picker, 4 * width * height)
}

/// Plays a random game on from a position in both, comparing after every move.
fn play_out(
    mut engine: AnyGame,
    mut reference: Model,
    spec: &str,
    seed: u64,
    picker: Picker,
    cap: usize,
) -> Played {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (width, height) = (reference.width, reference.height);
    let g = engine.board().geometry();
    let setup = diagram(&reference.cells, width);
    let first = reference.to_move;
    let mut history: Vec<Option<usize>> = Vec::new();
    let (mut legal, mut reasons) =
        compare(&engine, &reference, &|| format!("{spec} {width}x{height} seed {seed} set-up {setup:?}"));
    let mut refusals = HashSet::new();
    while !reference.is_over() {
        refusals.extend(reasons.iter().filter_map(|r| r.first().map(discriminant)));
        let mv = if history.len() >= cap {
            None
        } else {
            match picker {
                Picker::Uniform { pass_one_in } => {
                    let placements = &legal[..legal.len() - 1];
                    if placements.is_empty() || rng.random_range(0..pass_one_in) == 0 {
                        None
                    } else {
                        placements[rng.random_range(0..placements.len())]
                    }
                }
                Picker::Light => to_model(g, engine.light_move(&mut rng)),
            }
        };
        assert!(legal.contains(&mv), "{spec} {width}x{height} seed {seed}: {mv:?} is not legal");
        // now and then, an illegal move must be refused and change nothing
        if let Some(bad) = reasons.iter().position(|r| !r.is_empty())
            && rng.random_range(0..4) == 0
        {
            let before = cells(engine.board());
            assert!(engine.play(to_engine(g, Some(bad))).is_err());
            assert_eq!(cells(engine.board()), before);
            assert_eq!(engine.to_move(), reference.to_move);
        }
        engine.play(to_engine(g, mv)).unwrap();
        reference.play(mv);
        history.push(mv);
        (legal, reasons) = compare(&engine, &reference, &|| {
            format!(
                "{spec} {width}x{height} seed {seed} set-up {setup:?} {first:?} to move, moves {history:?}"
            )
        });
    }
    let result = engine.outcome().expect("the game is over").to_string();
    assert_eq!(Some(result.clone()), reference.outcome().map(|r| sgf(&r)));
    // after the end nothing is legal
    assert_eq!(engine.check(Move::Pass), Err(Illegal::GameOver));
    let mut moves = vec![Move::Pass];
    engine.legal_moves(&mut moves);
    assert!(moves.is_empty());
    Played { result, moves: history.len(), refusals }
}

const SPECS: &[&str] = &[
    "go",
    "go:ko=simple",
    "go:ko=situational",
    "go:suicide=allowed",
    "go:ko=simple,suicide=allowed",
    "go:ko=situational,suicide=allowed,komi=0",
    "incursion",
    "incursion-minimal",
    "incursion-line",
    "incursion:minimal=true,shape=line",
    "incursion:draw=none,komi=0.5",
    "stoical",
    "stoical:refine=more-stones",
    "stoical:draw=none,komi=-3",
    "excursion-1",
    "excursion-2",
    "excursion-1:draw=none",
    "excursion-2:draw=none,komi=0.5",
];

const SMALL_SIZES: &[(usize, usize)] =
    &[(2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (4, 3), (4, 4), (3, 5), (5, 4), (5, 5), (6, 4), (6, 6)];

#[test]
fn random_games_on_small_boards_agree_with_the_reference() {
    let mut results = HashSet::new();
    let mut total_moves = 0;
    let mut excursion_refusals = HashSet::new();
    for (s, spec) in SPECS.iter().enumerate() {
        for (z, &(w, h)) in SMALL_SIZES.iter().enumerate() {
            for round in 0..3u64 {
                let seed = 1000 * s as u64 + 10 * z as u64 + round;
                let picker = match round {
                    0 => Picker::Uniform { pass_one_in: 4 },
                    1 => Picker::Uniform { pass_one_in: 40 },
                    _ => Picker::Light,
                };
                let played = random_game(spec, w, h, seed, picker);
                results.insert(played.result);
                total_moves += played.moves;
                if has_kings(spec) {
                    excursion_refusals.extend(played.refusals);
                }
            }
        }
    }
    // the games reached every kind of ending
    assert!(results.contains("Draw"), "{results:?}");
    assert!(results.iter().any(|r| r.starts_with("B+")), "{results:?}");
    assert!(results.iter().any(|r| r.starts_with("W+")), "{results:?}");
    assert!(total_moves > 5000, "{total_moves}");
    // the Excursion games met every reason of their own
    for reason in [Illegal::ChangesNothing, Illegal::KingRemovesKing, Illegal::KingRemovesKingAfterKing] {
        assert!(excursion_refusals.contains(&discriminant(&reason)), "no Excursion game met {reason:?}");
    }
}

#[test]
fn random_games_on_9x9_and_long_boards_agree_with_the_reference() {
    for (s, spec) in SPECS.iter().enumerate() {
        for (z, &(w, h)) in [(9, 9), (9, 4), (2, 9)].iter().enumerate() {
            let seed = 77_000 + 10 * s as u64 + z as u64;
            let picker = if z == 0 { Picker::Light } else { Picker::Uniform { pass_one_in: 30 } };
            random_game(spec, w, h, seed, picker);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Perft from the empty board
// ---------------------------------------------------------------------------------------------

/// Perft of each spec from the empty board, depth 0 first. Every number was computed by both the
/// reference model and `variago_rules::perft::perft` (at these full depths, offline, in release
/// mode) and they agreed. The tests recompute the engine's numbers at every depth and the
/// reference's at the shallower depths, so a later change to both is still caught. Excursion Go
/// goes two plies deeper on 2x2, where its own-position draws first bite at depth 10.
type PerftTable = &'static [(&'static str, &'static [u64])];

const PERFT_2X2: PerftTable = &[
    ("go", &[1, 5, 21, 68, 156, 316, 604, 1088, 2184, 4184, 8024, 13800, 23560]),
    ("go:ko=simple", &[1, 5, 21, 68, 156, 316, 604, 1168, 2592, 5768, 12120, 24248, 47840]),
    ("go:ko=situational", &[1, 5, 21, 68, 156, 316, 604, 1112, 2312, 4544, 8800, 15248, 26456]),
    ("go:suicide=allowed", &[1, 5, 21, 68, 156, 316, 604, 1088, 2184, 4184, 8024, 13800, 23560]),
    ("go:ko=simple,suicide=allowed", &[1, 5, 21, 68, 156, 316, 604, 1240, 3120, 8280, 21472, 51096, 112880]),
    (
        "go:ko=situational,suicide=allowed",
        &[1, 5, 21, 68, 156, 316, 604, 1184, 2672, 6048, 13728, 26512, 50992],
    ),
    ("incursion", &[1, 5, 21, 68, 156, 316, 604, 952, 1384, 2128, 3768, 6376, 8824]),
    ("incursion-minimal", &[1, 5, 21, 68, 156, 316, 604, 952, 1384, 2128, 3768, 6376, 8824]),
    ("incursion-line", &[1, 5, 21, 68, 156, 316, 604, 952, 1384, 2128, 3768, 6376, 8824]),
    ("incursion:minimal=true,shape=line", &[1, 5, 21, 68, 156, 316, 604, 952, 1384, 2128, 3768, 6376, 8824]),
    ("incursion:draw=none", &[1, 5, 21, 68, 156, 316, 604, 952, 1440, 2408, 4512, 8392, 13728]),
    ("stoical", &[1, 5, 21, 68, 156, 316, 572, 960, 1680, 3104, 5632, 9576, 14792]),
    ("stoical:refine=more-stones", &[1, 5, 21, 68, 156, 316, 604, 1168, 2368, 4816, 9248, 16944, 28776]),
    ("stoical:draw=none", &[1, 5, 21, 68, 156, 316, 572, 960, 1776, 3512, 6952, 13128, 23536]),
    ("excursion-1", &[1, 5, 21, 68, 156, 316, 604, 1224, 2992, 7400, 16080, 31824, 59408, 112456, 219376]),
    ("excursion-2", &[1, 5, 21, 68, 156, 316, 572, 1080, 2512, 5944, 13568, 28448, 56096, 107512, 204992]),
    (
        "excursion-1:draw=none",
        &[1, 5, 21, 68, 156, 316, 604, 1224, 2992, 7400, 17136, 35992, 71456, 141376, 288080],
    ),
    (
        "excursion-2:draw=none",
        &[1, 5, 21, 68, 156, 316, 572, 1080, 2512, 5944, 14432, 32040, 66240, 130672, 261984],
    ),
];

/// 2 columns by 3 rows; 3x2 must give the same numbers.
const PERFT_2X3: PerftTable = &[
    ("go", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97284]),
    ("go:ko=simple", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("go:ko=situational", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97284]),
    ("go:suicide=allowed", &[1, 7, 43, 222, 942, 3378, 9834, 26504, 64116, 147764]),
    ("go:ko=simple,suicide=allowed", &[1, 7, 43, 222, 942, 3378, 9866, 26760, 66172, 158468]),
    ("go:ko=situational,suicide=allowed", &[1, 7, 43, 222, 942, 3378, 9866, 26760, 66084, 157708]),
    ("incursion", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("incursion-minimal", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("incursion-line", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("incursion:minimal=true,shape=line", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("incursion:draw=none", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("stoical", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("stoical:refine=more-stones", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("stoical:draw=none", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("excursion-1", &[1, 7, 43, 222, 942, 3378, 9826, 26520, 64540, 150492]),
    ("excursion-2", &[1, 7, 43, 222, 942, 3378, 9810, 26432, 63324, 148312]),
    ("excursion-1:draw=none", &[1, 7, 43, 222, 942, 3378, 9826, 26520, 64540, 150492]),
    ("excursion-2:draw=none", &[1, 7, 43, 222, 942, 3378, 9810, 26432, 63324, 148664]),
];

const PERFT_3X3: PerftTable = &[
    ("go", &[1, 10, 91, 738, 5281, 33384, 179712, 842696]),
    ("go:ko=simple", &[1, 10, 91, 738, 5281, 33384, 179712, 842728]),
    ("go:ko=situational", &[1, 10, 91, 738, 5281, 33384, 179712, 842728]),
    ("go:suicide=allowed", &[1, 10, 91, 738, 5281, 33384, 180768, 857576]),
    ("go:ko=simple,suicide=allowed", &[1, 10, 91, 738, 5281, 33384, 180768, 857608]),
    ("go:ko=situational,suicide=allowed", &[1, 10, 91, 738, 5281, 33384, 180768, 857608]),
    ("incursion", &[1, 10, 91, 738, 5281, 33384, 179712, 842296]),
    ("incursion-minimal", &[1, 10, 91, 738, 5281, 33384, 179712, 842344]),
    ("incursion-line", &[1, 10, 91, 738, 5281, 33384, 179712, 842296]),
    ("incursion:minimal=true,shape=line", &[1, 10, 91, 738, 5281, 33384, 179712, 842344]),
    ("incursion:draw=none", &[1, 10, 91, 738, 5281, 33384, 179712, 842296]),
    ("stoical", &[1, 10, 91, 738, 5281, 33384, 179648, 841256]),
    ("stoical:refine=more-stones", &[1, 10, 91, 738, 5281, 33384, 179648, 841352]),
    ("stoical:draw=none", &[1, 10, 91, 738, 5281, 33384, 179648, 841256]),
    ("excursion-1", &[1, 10, 91, 738, 5281, 33384, 180768, 857512]),
    ("excursion-2", &[1, 10, 91, 738, 5281, 33384, 180768, 856936]),
    ("excursion-1:draw=none", &[1, 10, 91, 738, 5281, 33384, 180768, 857512]),
    ("excursion-2:draw=none", &[1, 10, 91, 738, 5281, 33384, 180768, 856936]),
];

/// Every spec of the other tables gives these numbers on 4x4 (no rule bites within 5 plies).
const PERFT_4X4: &[u64] = &[1, 17, 273, 4112, 57984, 764016];

fn lookup(table: PerftTable, spec: &str) -> &'static [u64] {
    table.iter().find(|(s, _)| *s == spec).unwrap().1
}

/// The engine's perft at every depth of the table, and the reference's up to `reference_depth`.
fn check_table(width: usize, height: usize, spec: &str, expected: &[u64], reference_depth: usize) {
    let engine = empty(spec, width as u32, height as u32);
    let reference = Model::empty(spec, width, height);
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&engine, depth as u32), n, "engine perft {spec} {width}x{height} depth {depth}");
        if depth <= reference_depth {
            assert_eq!(
                reference.perft(depth as u32),
                n,
                "reference perft {spec} {width}x{height} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_2x2() {
    for (spec, expected) in PERFT_2X2 {
        // the reference reaches Excursion Go's first own-position draws (depth 10)
        check_table(2, 2, spec, expected, if has_kings(spec) { 10 } else { 8 });
    }
}

#[test]
fn perft_2x3_and_3x2() {
    // the incursion and stoical forms agree with each other up to depth 9 here, and so do
    // excursion-1 with and without the draw: the plain forms go to depth 9, the others stop at
    // depth 8 to save time
    let shallower = [
        "incursion-minimal",
        "incursion-line",
        "incursion:minimal=true,shape=line",
        "stoical:draw=none",
        "excursion-1:draw=none",
    ];
    for (spec, expected) in PERFT_2X3 {
        let depth = if shallower.contains(spec) { expected.len() - 1 } else { expected.len() };
        check_table(2, 3, spec, &expected[..depth], 6);
        // the transposed board has the same numbers
        check_table(3, 2, spec, &expected[..expected.len() - 2], 4);
    }
}

#[test]
fn perft_3x3() {
    // depth 7 tells these apart from each other; the other specs stop at depth 6 to save time
    let deepest = [
        "go",
        "go:ko=simple",
        "go:suicide=allowed",
        "incursion",
        "incursion-minimal",
        "stoical",
        "excursion-1",
        "excursion-2",
    ];
    for (spec, expected) in PERFT_3X3 {
        let depth = if deepest.contains(spec) { expected.len() } else { expected.len() - 1 };
        check_table(3, 3, spec, &expected[..depth], 4);
    }
}

#[test]
fn perft_4x4() {
    for spec in ["go", "go:ko=situational,suicide=allowed", "incursion", "stoical", "excursion-2"] {
        check_table(4, 4, spec, PERFT_4X4, 3);
    }
}

/// Relations between variants that follow from the rules alone, checked on the tables (which the
/// tests above tie to the engine):
/// - depths 1 to 3 have closed forms: N + 1, N^2 + N + 1 and 2N^2 + N(N - 1)^2 on N points (no
///   placement can be suicide, capture-restricted or repeat anything in the first three plies,
///   and no king placement can remove a king: see below);
/// - in the first four plies no restriction of any suicide-forbidding spec can bite (a
///   repetition or a capture right after a capture needs two captures, and the first incursion
///   that can be restricted is the fifth ply), so those specs all agree up to depth 4; the specs
///   that allow suicide (Excursion Go among them) likewise agree with `go:suicide=allowed` up to
///   depth 4 (no board can come back within four plies, and a lone suicide changes nothing, which
///   is illegal in both);
/// - Excursion Go's king restriction cannot bite in the first four plies either, although White's
///   first piece is a king (after a Black stone every empty point borders that stone only): a grid
///   without one point stays connected, so while each colour has one piece every region borders
///   both, and Black's first two pieces are stones unless Black passed first. A Black king at ply
///   3 faces a single White piece: it can neither capture nor die. At ply 4 White removes a king
///   only by capturing that lone Black king (in a corner, from its other neighbour, which is not
///   next to White's piece and whose region reaches it: a stone) or by losing both its pieces (to
///   Black's two stones: Black's last move placed no king, and in form 1 it turned White's king
///   back, so White's new piece is a stone). Nobody recreates an own board before ply 4 either
///   (Black has one piece more after ply 3 than after ply 1), so these specs agree with
///   `go:suicide=allowed` up to depth 4; beyond that the tables tell them apart;
/// - where one spec forbids a subset of what another forbids and the games otherwise end alike,
///   its game tree contains the other's, so its perft is at least as large at every depth:
///   positional superko forbids more than situational, which forbids more than simple ko;
///   forbidding suicide only removes moves; `incursion` restricts more than `incursion-minimal`
///   and `incursion-line`, which each restrict more than both combined; `stoical` restricts more
///   than `refine=more-stones`; the own-position draw only cuts games short (Excursion Go's
///   legality does not depend on the own boards either, so `draw=none` counts at least as many
///   sequences at every depth).
#[test]
fn perft_tables_obey_the_cross_variant_invariants() {
    for (width, height, table) in [(2u64, 2u64, PERFT_2X2), (2, 3, PERFT_2X3), (3, 3, PERFT_3X3)] {
        let n = width * height;
        let at = |spec: &str| lookup(table, spec);
        for (spec, p) in table {
            assert_eq!(p[0], 1, "{spec}");
            assert_eq!(p[1], n + 1, "{spec} {width}x{height}");
            assert_eq!(p[2], n * n + n + 1, "{spec} {width}x{height}");
            assert_eq!(p[3], 2 * n * n + n * (n - 1) * (n - 1), "{spec} {width}x{height}");
            let suicide = spec.contains("suicide=allowed") || has_kings(spec);
            let alike = if suicide { "go:suicide=allowed" } else { "go" };
            assert_eq!(p[..=4], at(alike)[..=4], "{spec} {width}x{height}");
        }
        let at_most = |smaller: &str, larger: &str| {
            let (a, b) = (at(smaller), at(larger));
            assert!(
                a.iter().zip(b).all(|(x, y)| x <= y),
                "{smaller} {a:?} > {larger} {b:?} on {width}x{height}"
            );
        };
        for suicide in ["", ",suicide=allowed"] {
            let go = |ko: &str| format!("go:ko={ko}{suicide}");
            let positional =
                if suicide.is_empty() { "go".to_string() } else { format!("go:{}", &suicide[1..]) };
            at_most(&positional, &go("situational"));
            at_most(&go("situational"), &go("simple"));
        }
        at_most("go", "go:suicide=allowed");
        at_most("go:ko=simple", "go:ko=simple,suicide=allowed");
        at_most("go:ko=situational", "go:ko=situational,suicide=allowed");
        at_most("incursion", "incursion-minimal");
        at_most("incursion", "incursion-line");
        at_most("incursion-minimal", "incursion:minimal=true,shape=line");
        at_most("incursion-line", "incursion:minimal=true,shape=line");
        at_most("incursion", "incursion:draw=none");
        at_most("stoical", "stoical:draw=none");
        at_most("stoical", "stoical:refine=more-stones");
        at_most("excursion-1", "excursion-1:draw=none");
        at_most("excursion-2", "excursion-2:draw=none");
    }
    let n = 16;
    assert_eq!(PERFT_4X4[1..=3], [n + 1, n * n + n + 1, 2 * n * n + n * (n - 1) * (n - 1)]);
    // the tables do tell the variants apart
    assert_ne!(lookup(PERFT_2X2, "go"), lookup(PERFT_2X2, "go:ko=simple"));
    assert_ne!(lookup(PERFT_2X2, "go"), lookup(PERFT_2X2, "go:ko=situational"));
    assert_ne!(lookup(PERFT_2X2, "incursion"), lookup(PERFT_2X2, "stoical"));
    assert_ne!(lookup(PERFT_3X3, "incursion"), lookup(PERFT_3X3, "incursion-minimal"));
    assert_ne!(lookup(PERFT_2X3, "go"), lookup(PERFT_2X3, "go:suicide=allowed"));
    assert_ne!(lookup(PERFT_2X2, "excursion-1"), lookup(PERFT_2X2, "go:suicide=allowed"));
    assert_ne!(lookup(PERFT_2X2, "excursion-1"), lookup(PERFT_2X2, "excursion-2"));
    assert_ne!(lookup(PERFT_3X3, "excursion-1"), lookup(PERFT_3X3, "excursion-2"));
    assert_ne!(lookup(PERFT_2X2, "excursion-1"), lookup(PERFT_2X2, "excursion-1:draw=none"));
    assert_ne!(lookup(PERFT_2X3, "excursion-2"), lookup(PERFT_2X3, "excursion-2:draw=none"));
}

/// Komi never changes what is legal, and the rules do not care which way the board is turned.
#[test]
fn perft_ignores_komi_and_orientation() {
    for spec in ["go", "incursion-line", "stoical:refine=more-stones", "excursion-1", "excursion-2:draw=none"]
    {
        let with_komi = format!("{spec}{}komi=-2.5", if spec.contains(':') { ',' } else { ':' });
        for (w, h, depth) in [(2, 4, 6), (3, 4, 4)] {
            let a = perft(&empty(spec, w, h), depth);
            assert_eq!(perft(&empty(spec, h, w), depth), a, "{spec} {w}x{h}");
            assert_eq!(perft(&empty(&with_komi, w, h), depth), a, "{with_komi} {w}x{h}");
        }
    }
}

/// A random position: stones of both colours, then every group without liberties removed (a
/// set-up like a record's `AB`/`AW`); for Excursion Go some groups and pieces are kings (`XK`).
fn random_setup(rng: &mut SmallRng, spec: &str, width: usize, height: usize) -> Cells {
    let mut cells: Cells = (0..width * height)
        .map(|_| match rng.random_range(0..8) {
            0..=2 => stone(Color::Black),
            3..=5 => stone(Color::White),
            _ => None,
        })
        .collect();
    Model::take_off_dead_groups(&mut cells, width, height);
    if has_kings(spec) {
        Model::crown_at_random(&mut cells, width, height, rng);
    }
    cells
}

#[test]
fn random_games_from_random_set_ups_agree_with_the_reference() {
    let mut rng = SmallRng::seed_from_u64(2024);
    for (s, spec) in SPECS.iter().enumerate() {
        for (z, &(w, h)) in [(3, 3), (4, 5), (6, 6), (7, 4)].iter().enumerate() {
            for to_move in [Color::Black, Color::White] {
                let board = random_setup(&mut rng, spec, w, h);
                let engine = set_up(spec, &board, w, to_move);
                let reference = Model::new(ModelRules::parse(spec), w, h, board, to_move);
                let seed = 5000 + 100 * s as u64 + 10 * z as u64 + to_move as u64;
                play_out(engine, reference, spec, seed, Picker::Uniform { pass_one_in: 12 }, 4 * w * h);
            }
        }
    }
}

/// Big boards need more words per bitboard and other layouts: random set-ups there (many small
/// territories of every shape), then a few dozen random moves and the passes.
#[test]
fn random_set_ups_on_big_and_long_boards_agree_with_the_reference() {
    let mut rng = SmallRng::seed_from_u64(4096);
    let specs = [
        "incursion",
        "incursion-line",
        "incursion:minimal=true,shape=line",
        "stoical",
        "go:ko=situational",
        "excursion-1",
        "excursion-2",
    ];
    let sizes = [(13, 13), (19, 19), (25, 25), (25, 3), (3, 25), (11, 17), (25, 6), (2, 25)];
    for (s, spec) in specs.iter().enumerate() {
        for (z, &(w, h)) in sizes.iter().enumerate() {
            let board = random_setup(&mut rng, spec, w, h);
            let to_move = if (s + z) % 2 == 0 { Color::Black } else { Color::White };
            let engine = set_up(spec, &board, w, to_move);
            let reference = Model::new(ModelRules::parse(spec), w, h, board, to_move);
            let seed = 9000 + 100 * s as u64 + z as u64;
            play_out(engine, reference, spec, seed, Picker::Uniform { pass_one_in: 50 }, 30);
        }
    }
}
