//! The search's contracts: it finds the obvious move, never plays an illegal one, repeats itself
//! with a fixed seed, and does not throw won games away by passing.

use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use variago_records::Record;
use variago_rules::galice::{Galice, Turn};
use variago_rules::{AnyGame, Color, Game, Geometry, Move, ScoreSheet, VariantSpec};
use variago_search::playout::Policy;
use variago_search::{Level, Search, Settings};

fn position(sgf: &str) -> AnyGame {
    Record::from_sgf(sgf).expect("a valid record").replay().expect("legal moves")
}

fn vertex(game: &AnyGame, text: &str) -> Move {
    Move::Place(game.board().geometry().parse_vertex(text).expect("a vertex"))
}

fn playouts(n: u64) -> Settings {
    Settings { playouts: n, ..Settings::default() }
}

/// A 5x5 wall fight: White's C1 is in atari at D1. Black to move captures there and wins; White to
/// move connects there and wins (komi 3.5 makes the one stone decide the game). In every variant.
fn wall(variant: &str, to_move: char) -> AnyGame {
    position(&format!(
        "(;GM[1]SZ[5]KM[3.5]RU[{variant}]AB[ca][cb][cc][cd][be]AW[da][db][dc][dd][ce]PL[{to_move}])"
    ))
}

#[test]
fn captures_and_saves_the_stone_in_atari() {
    // the area-scored variants: Borderline scores a 5x5 board by zones, where the capture is
    // not worth the same to both sides
    for variant in variago_rules::playout::BENCH_SPECS.iter().filter(|v| **v != "borderline") {
        for to_move in ['B', 'W'] {
            let game = wall(variant, to_move);
            let analysis = Search::new(playouts(3000)).analyse(&game).expect("the game goes on");
            assert_eq!(analysis.best, vertex(&game, "D1"), "{variant}, {to_move} to move: {analysis:?}");
            assert!(analysis.winrate > 0.6, "{variant}, {to_move}: {}", analysis.winrate);
        }
    }
}

#[test]
fn same_seed_same_move_and_statistics() {
    let game = wall("go", 'B');
    let settings = Settings { playouts: 800, seed: 7, ..Settings::default() };
    let a = Search::new(settings.clone()).analyse(&game).unwrap();
    let b = Search::new(settings).analyse(&game).unwrap();
    assert_eq!((a.best, &a.moves, &a.pv), (b.best, &b.moves, &b.pv));
    assert_eq!(a.playouts, 800);
}

fn nine_by_nine() -> AnyGame {
    AnyGame::new(&"go".parse().unwrap(), Geometry::square(9).unwrap())
}

#[test]
fn threads_share_one_tree_and_play_legally() {
    let game = nine_by_nine();
    let settings = Settings { playouts: 3000, threads: 3, ..Settings::default() };
    let analysis = Search::new(settings).analyse(&game).unwrap();
    assert_eq!(analysis.playouts, 3000);
    assert_eq!(analysis.moves.iter().map(|m| m.visits).sum::<u64>(), 3000);
    assert_eq!(game.check(analysis.best), Ok(()));
}

#[test]
fn time_limit_stops_the_search() {
    let game = nine_by_nine();
    let settings = Settings {
        playouts: u64::MAX,
        time: Some(Duration::from_millis(60)),
        threads: 2,
        ..Settings::default()
    };
    let clock = Instant::now();
    let analysis = Search::new(settings).analyse(&game).unwrap();
    assert!(clock.elapsed() < Duration::from_secs(2), "{:?}", clock.elapsed());
    assert!(analysis.playouts > 0);
    assert_eq!(game.check(analysis.best), Ok(()));
}

#[test]
fn a_forced_move_takes_less_than_its_time() {
    // the capture at D1 decides the game: once it leads by more than the rest of the time could
    // bring the second move, the search stops
    let game = wall("go", 'B');
    let time = Duration::from_secs(2);
    let settings = Settings { playouts: u64::MAX, time: Some(time), ..Settings::default() };
    let analysis = Search::new(settings).analyse(&game).unwrap();
    assert_eq!(analysis.best, vertex(&game, "D1"));
    assert!(analysis.elapsed < time * 4 / 5, "{:?}", analysis.elapsed);
    assert!(analysis.elapsed >= time / 10, "not before a tenth of the time: {:?}", analysis.elapsed);
}

#[test]
fn passes_to_end_a_won_game_and_not_a_lost_one() {
    // settled: Black's 15 points against White's 10; White just passed
    let settled =
        "(;GM[1]SZ[5]KM[0.5]RU[go]AB[ca][cb][cc][cd][ce][bb][bd]AW[da][db][dc][dd][de][eb][ed]PL[W];W[])";
    let game = position(settled);
    assert_eq!(Search::new(playouts(500)).best_move(&game), Some(Move::Pass));
    // the same after a Black pass: White passing would lose, so White plays on
    let game = position(&settled.replace("PL[W];W[]", "PL[B];B[]"));
    let best = Search::new(playouts(500)).best_move(&game).unwrap();
    assert_ne!(best, Move::Pass);
    assert_eq!(game.check(best), Ok(()));
    // an empty board but White's stone: Black passing would hand White the game
    let game = position("(;GM[1]SZ[5]KM[0.5]AW[cc]PL[W];W[])");
    let best = Search::new(playouts(500)).best_move(&game).unwrap();
    assert_ne!(best, Move::Pass);
    assert_eq!(game.check(best), Ok(()));
    // nothing is decided by a finished game
    assert_eq!(Search::new(playouts(10)).best_move(&position("(;GM[1]SZ[3];B[];W[])")), None);
}

/// A pass that ends the game is worth its result, visited or not: reported at 50% (no visits),
/// a winning pass let GTP's settling rule, which plays on when a move's win rate is close to
/// passing's, fill a seki's shared liberty and lose the seki (Stoical test 16 of the tactics
/// suite with heavy playouts).
#[test]
fn a_pass_that_ends_the_game_reports_its_result() {
    let settled =
        "(;GM[1]SZ[5]KM[0.5]RU[go]AB[ca][cb][cc][cd][ce][bb][bd]AW[da][db][dc][dd][de][eb][ed]PL[W];W[])";
    let pass_winrate = |sgf: &str| {
        let analysis = Search::new(playouts(300)).analyse(&position(sgf)).expect("a game on");
        analysis.moves.iter().find(|m| m.mv == Move::Pass).expect("passing is legal").winrate
    };
    // Black passing ends the game with Black's win; White passing, with White's loss
    assert_eq!(pass_winrate(settled), 1.0);
    assert_eq!(pass_winrate(&settled.replace("PL[W];W[]", "PL[B];B[]")), 0.0);
    // a pass that does not end the game is judged by its playouts
    let open = pass_winrate("(;GM[1]SZ[5]KM[0.5]AW[cc]PL[B])");
    assert!(open > 0.0 && open < 1.0, "{open}");
}

/// Plays `moves` random light moves (stopping at the end of the game) and checks the search's
/// answer is legal.
/// Black's wall on E and White's on F of 7x7, with a dead White stone at B2 inside Black's area,
/// and White passes every move: Black wins by 13.5 once B2 is taken, but the board counted as it
/// stands gives White the game (B2's region touches both colours, so Black's area is the wall
/// alone). Black plays on until the count is a win (capturing B2, or walling it into a corner)
/// and only then passes.
#[test]
fn never_passes_a_won_game_into_a_lost_count() {
    let mut game = position(
        "(;GM[1]SZ[7]KM[7.5]AB[ea][eb][ec][ed][ee][ef][eg]AW[fa][fb][fc][fd][fe][ff][fg][bf]PL[W];W[])",
    );
    assert_eq!(game.score().result().winner, Some(Color::White), "the count as it stands");
    for seed in 0..12 {
        if game.is_over() {
            break;
        }
        let analysis = Search::new(Settings { seed, ..playouts(2000) }).analyse(&game).unwrap();
        if analysis.best == Move::Pass {
            assert_eq!(game.score().result().winner, Some(Color::Black), "passed into a loss: {game:?}");
        }
        game.play(analysis.best).unwrap();
        if !game.is_over() {
            game.play(Move::Pass).unwrap();
        }
    }
    assert!(game.is_over(), "Black passes once the dead stone is off the board");
    assert_eq!(game.outcome().unwrap().winner, Some(Color::Black));
}

fn legal_after_random_play<G: Game>(start: &G, rng: &mut SmallRng, settings: &Settings) {
    let mut game = start.clone();
    let moves = rng.random_range(0..40);
    for _ in 0..moves {
        if game.is_over() {
            break;
        }
        game.play_light_move(rng);
    }
    match Search::new(settings.clone()).best_move(&game) {
        Some(mv) => assert_eq!(game.check(mv), Ok(()), "{mv:?} in {game:?}"),
        None => assert!(game.is_over()),
    }
}

#[test]
fn never_returns_an_illegal_move() {
    let mut rng = SmallRng::seed_from_u64(3);
    for spec in variago_rules::playout::BENCH_SPECS {
        let spec: VariantSpec = spec.parse().unwrap();
        for size in [3, 5] {
            let start = AnyGame::new(&spec, Geometry::square(size).unwrap());
            for seed in 0..6 {
                let settings =
                    Settings { playouts: 60, seed, threads: 1 + seed as usize % 2, ..Settings::default() };
                legal_after_random_play(&start, &mut rng, &settings);
            }
        }
    }
    for seed in 0..6 {
        legal_after_random_play(
            &Galice::new(),
            &mut rng,
            &Settings { playouts: 12, seed, ..Settings::default() },
        );
    }
}

#[test]
fn galice_answers_a_turn_in_every_stage() {
    let mut game = Galice::new();
    let search = Search::new(playouts(8));
    for _ in 0..8 {
        let turn: Turn = search.best_move(&game).unwrap();
        game.play(turn).expect("a legal turn");
    }
}

#[test]
fn levels_double_their_playouts() {
    assert_eq!(Level::new(0), None);
    assert_eq!(Level::new(11), None);
    assert_eq!(Level::MIN.playouts(), Some(250));
    assert_eq!(Level::new(2).unwrap().playouts(), Some(500));
    assert_eq!(Level::MAX.playouts(), None);
    assert_eq!(Level::MAX.settings().time, Some(Level::FULL_TIME));
}

#[test]
fn pondering_grows_the_same_trees_until_the_caller_stops() {
    let game = wall("go", 'B');
    let mut pondering = Search::new(Settings { threads: 2, ..Settings::default() }).ponder(&game).unwrap();
    let mut last = 0;
    let analysis = loop {
        let analysis = pondering.step(Duration::from_millis(10));
        assert!(analysis.playouts >= last, "the trees only grow");
        assert_eq!(analysis.moves.iter().map(|m| m.visits).sum::<u64>(), analysis.playouts);
        last = analysis.playouts;
        if last >= 3000 {
            break analysis;
        }
    };
    assert_eq!(analysis.best, vertex(&game, "D1"), "{analysis:?}");
    let mut over = game.clone();
    over.play(Move::Pass).unwrap();
    over.play(Move::Pass).unwrap();
    assert!(Search::default().ponder(&over).is_none());
}

#[test]
fn a_reused_tree_keeps_the_playouts_below_the_moves_played() {
    let game = nine_by_nine();
    let search = Search::new(Settings { playouts: 4000, threads: 2, ..Settings::default() });
    let (first, kept) = search.analyse_any_reusing(&game, None, &[]).unwrap();
    assert_eq!(first.playouts, 4000);
    // the opponent answers with the move the search expected most
    let reply = first.pv.get(1).copied().unwrap_or(Move::Pass);
    let mut next = game.clone();
    next.play(first.best).unwrap();
    next.play(reply).unwrap();
    let (second, _) = search.analyse_any_reusing(&next, Some(kept), &[first.best, reply]).unwrap();
    // the budget is topped up, not spent again: the reused playouts count toward it
    assert_eq!(second.playouts, 4000);
    assert_eq!(next.check(second.best), Ok(()));
    let fresh = search.analyse_any(&next).unwrap();
    assert_eq!(fresh.playouts, 4000);
    // moves that do not lead to the searched position start afresh instead of misusing the tree
    let (_, kept) = search.analyse_any_reusing(&game, None, &[]).unwrap();
    let (wrong, _) = search.analyse_any_reusing(&next, Some(kept), &[Move::Pass, Move::Pass]).unwrap();
    assert_eq!(wrong.playouts, 4000);
    assert_eq!(next.check(wrong.best), Ok(()));
}

#[test]
fn reusing_with_the_same_seed_is_reproducible() {
    let game = nine_by_nine();
    let search = Search::new(Settings { playouts: 1500, threads: 1, seed: 3, ..Settings::default() });
    let run = || {
        let (first, kept) = search.analyse_any_reusing(&game, None, &[]).unwrap();
        let mut next = game.clone();
        next.play(first.best).unwrap();
        let (second, _) = search.analyse_any_reusing(&next, Some(kept), &[first.best]).unwrap();
        (first.best, second.best, second.moves.iter().map(|m| m.visits).collect::<Vec<_>>())
    };
    assert_eq!(run(), run());
}

#[test]
fn ownership_shares_follow_the_walls_and_sum_to_at_most_one() {
    // Black's wall on column B, White's on column D of 5x5: A is Black's, E White's, C open
    let game = position("(;GM[1]SZ[5]KM[0.5]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de])");
    let analysis =
        Search::new(Settings { playouts: 2000, threads: 2, ownership: true, ..Settings::default() })
            .analyse(&game)
            .unwrap();
    let share = |text: &str| {
        let Move::Place(p) = vertex(&game, text) else { unreachable!() };
        analysis.ownership[p.index()]
    };
    for (text, owner) in [("A1", 0), ("A5", 0), ("B3", 0), ("E1", 1), ("E5", 1), ("D3", 1)] {
        assert!(share(text)[owner] > 0.8, "{text}: {:?}", share(text));
    }
    assert!(analysis.ownership.iter().all(|[b, w]| *b >= 0.0 && *w >= 0.0 && b + w <= 1.0 + 1e-9));
    // Galice's covers both boards: 98 points by its own index (the left board, then the right)
    let galice = Search::new(Settings { ownership: true, ..playouts(50) }).analyse(&Galice::new()).unwrap();
    assert_eq!(galice.ownership.len(), 98);
    assert!(galice.ownership.iter().all(|[b, w]| *b >= 0.0 && *w >= 0.0 && b + w <= 1.0 + 1e-9));
}

/// On 19x19 the priors weigh more by default, from 9x9 the playouts are heavy; on 9x9 the priors
/// weigh as before, and below 9x9 the playouts are light. A default search plays exactly as one
/// given its board's settings, and on 19x19 not as one given either of 9x9's.
#[test]
fn the_defaults_follow_the_size_of_the_board() {
    use variago_search::priors::{PRIOR_VISITS, PRIOR_VISITS_LARGE};
    let visits = |side: u32, prior_visits: Option<f64>, playout: Option<Policy>| {
        let game = AnyGame::new(&"go".parse::<VariantSpec>().unwrap(), Geometry::square(side).unwrap());
        let analysis =
            Search::new(Settings { prior_visits, playout, ..playouts(400) }).analyse(&game).unwrap();
        analysis.moves.iter().map(|m| (m.mv, m.visits)).collect::<Vec<_>>()
    };
    assert_eq!(visits(7, None, None), visits(7, Some(PRIOR_VISITS), Some(Policy::Light)));
    assert_eq!(visits(9, None, None), visits(9, Some(PRIOR_VISITS), Some(Policy::Heavy)));
    assert_ne!(visits(9, None, None), visits(9, Some(PRIOR_VISITS), Some(Policy::Light)));
    assert_eq!(visits(13, None, None), visits(13, Some(PRIOR_VISITS), Some(Policy::Heavy)));
    let large = visits(19, None, None);
    assert_eq!(large, visits(19, Some(PRIOR_VISITS_LARGE), Some(Policy::Heavy)));
    assert_ne!(large, visits(19, Some(PRIOR_VISITS), Some(Policy::Heavy)));
    assert_ne!(large, visits(19, Some(PRIOR_VISITS_LARGE), Some(Policy::Light)));
}

#[test]
fn every_move_has_its_prior_and_its_own_variation_cut_where_visits_run_thin() {
    let game = AnyGame::new(&"go".parse::<VariantSpec>().unwrap(), Geometry::square(9).unwrap());
    // 82 legal moves (81 points and the pass); without the learned priors, a uniform prior
    let few = Search::new(Settings { prior_visits: Some(0.0), ..playouts(60) }).analyse(&game).unwrap();
    for m in &few.moves {
        assert!((m.prior - 1.0 / 82.0).abs() < 1e-12, "{m:?}");
        // no reply reaches the minimum of visits: the variation is the move alone
        assert_eq!(m.pv, [m.mv], "{m:?}");
    }
    // with them, the move model's probabilities: the corner point far below the centre
    let learned = Search::new(playouts(60)).analyse(&game).unwrap();
    assert!((learned.moves.iter().map(|m| m.prior).sum::<f64>() - 1.0).abs() < 1e-9);
    let prior_of = |v: &str| {
        let p = Move::Place(game.board().geometry().parse_vertex(v).unwrap());
        learned.moves.iter().find(|m| m.mv == p).unwrap().prior
    };
    assert!(prior_of("A1") * 10.0 < prior_of("E5"), "A1 {} E5 {}", prior_of("A1"), prior_of("E5"));
    let many = Search::new(playouts(20_000)).analyse(&game).unwrap();
    assert_eq!(many.pv, many.moves.iter().find(|m| m.mv == many.best).unwrap().pv);
    assert!(many.pv.len() >= 2, "{:?}", many.pv);
    for m in many.moves.iter().filter(|m| m.visits > 0) {
        assert_eq!(m.pv[0], m.mv);
        // a move's variation ends before a reply with fewer playouts than the minimum, so it is no
        // longer than the move's own playouts allow
        assert!(m.visits >= u64::from(variago_search::PV_MIN_VISITS) || m.pv.len() == 1, "{m:?}");
    }
}

/// Black's corner group (two eyes, A7 and C7) is all Black has left on 7x7: White owns the rest
/// and wins by the count whatever Black does. Black's only legal moves are filling its own eyes
/// and passing. The search before the eye rule filled A7 here (its pass rules refuse a pass
/// that loses the count, and every move lost alike), and went on until all its stones were
/// captured: the collapse of every lost game against GNU Go.
const LOST_WITH_TWO_EYES: &str = "(;GM[1]SZ[7]KM[7.5]RU[go]PL[B]\
    AB[ba][da][ab][bb][cb][db]\
    AW[ea][ga][eb][fb][gb][ac][bc][cc][dc][ec][gc][ad][cd][dd][ed][fd][gd][ae][be][ce][de][fe][ge]\
    [af][cf][df][ef][ff][gf][ag][bg][cg][eg][gg])";

#[test]
fn a_lost_game_is_not_thrown_away_by_filling_its_own_eyes() {
    let game = position(LOST_WITH_TWO_EYES);
    let (a7, c7) = (vertex(&game, "A7"), vertex(&game, "C7"));
    assert_eq!(game.check(a7), Ok(()));
    for playout in [Policy::Light, Policy::Heavy] {
        for seed in 1..4 {
            let settings = Settings { seed, playout: Some(playout), ..playouts(2000) };
            assert_eq!(Search::new(settings).best_move(&game), Some(Move::Pass), "{playout}, seed {seed}");
        }
    }
    // with moves into White's area open as well, Black still never fills an eye
    let open = position(&LOST_WITH_TWO_EYES.replace("[cg]", "").replace("[fe]", ""));
    for seed in 1..4 {
        let best = Search::new(Settings { seed, ..playouts(2000) }).best_move(&open).unwrap();
        assert!(best != a7 && best != c7, "seed {seed}: {best:?}");
    }
}

/// Square Lifeline's first turn: the move model weighs a pair as its two placements together, so
/// that a pair of central points starts above one holding a corner (which the opponent's pair
/// kills at once), and the search's first turn keeps its stones off the corners.
#[test]
fn a_lifeline_pair_is_weighed_by_its_two_stones() {
    use variago_rules::lifeline::{Lifeline, LifelineRules};
    use variago_search::priors::{PriorBuffers, Weights};
    let game = Lifeline::new(LifelineRules::default(), Geometry::square(9).unwrap());
    let pair = |text: &str| game.parse_turn(text).unwrap();
    let moves = [pair("E5+C3"), pair("A9+E5"), pair("A9+J1")];
    let (mut values, mut buffers) = (Vec::new(), PriorBuffers::default());
    assert!(Weights::builtin_for(&game).move_values(&game, &moves, &mut values, &mut buffers));
    assert!(values[0] > values[1] && values[1] > values[2], "{values:?}");
    let analysis = Search::new(playouts(400)).analyse(&game).unwrap();
    let text = game.turn_text(analysis.best);
    assert!(!["A9", "J9", "A1", "J1"].iter().any(|corner| text.contains(corner)), "{text}");
}

/// A pie rule's move is judged by the colour its player takes: after a strong central pair White
/// swaps (and plays Black's stones from then on), after a pair of corners, which White's pair cuts
/// off at once, White keeps its colour. Judged by White's result, the swap (which changes nothing
/// on the board) was never preferred to a pair.
#[test]
fn the_search_swaps_when_black_s_first_pair_is_worth_taking() {
    use variago_rules::lifeline::{Lifeline, LifelineRules, Turn as LifelineTurn};
    let after = |pair: &str| {
        let mut game = Lifeline::new(LifelineRules::default(), Geometry::square(5).unwrap());
        game.play(game.parse_turn(pair).unwrap()).unwrap();
        Search::new(playouts(3000)).analyse(&game).unwrap().best
    };
    assert_eq!(after("C3+D2"), LifelineTurn::Swap);
    assert_ne!(after("A5+E1"), LifelineTurn::Swap);
}

/// 9x9, Black to play, lost whatever it does (komi 81.5): its only group, rows 1 and 2, has one
/// eye space, a straight three on C1-E1, and no outside liberty; White holds the rest of the
/// board, with two eyes (A9, C9). D1 makes two eyes; any other move lets White's D1 kill the
/// group, forty points more lost.
const LOST_WITH_A_STRAIGHT_THREE: &str = "(;GM[1]SZ[9]KM[81.5]RU[go]PL[B]\
    AB[ah][bh][ch][dh][eh][fh][gh][hh][ih][ai][bi][fi][gi][hi][ii]AW\
    [ba][da][ea][fa][ga][ha][ia][ab][bb][cb][db][eb]\
    [fb][gb][hb][ib][ac][bc][cc][dc][ec][fc][gc][hc]\
    [ic][ad][bd][cd][dd][ed][fd][gd][hd][id][ae][be]\
    [ce][de][ee][fe][ge][he][ie][af][bf][cf][df][ef]\
    [ff][gf][hf][if][ag][bg][cg][dg][eg][fg][gg][hg]\
    [ig])";

#[test]
fn a_lost_search_still_makes_the_eye_its_group_needs() {
    let game = position(LOST_WITH_A_STRAIGHT_THREE);
    let d1 = vertex(&game, "D1");
    for seed in 1..4 {
        // the first search finds the game lost; the next starts a tree that plays for the smallest
        // loss
        let search = |playouts: u64| Search::new(Settings { seed, playouts, ..Settings::default() });
        let (first, kept) = search(2000).analyse_any_reusing(&game, None, &[]).unwrap();
        assert!(first.winrate < 0.1, "seed {seed}: {}", first.winrate);
        let (second, _) = search(8000).analyse_any_reusing(&game, Some(kept), &[]).unwrap();
        // without the margin every move was worth 0 and D1 had 41% of the playouts, the pass most
        // of the rest
        let d1_visits = second.moves.iter().find(|m| m.mv == d1).map_or(0, |m| m.visits);
        assert!(d1_visits * 10 > second.playouts * 8, "seed {seed}: {:?}", &second.moves[..3]);
        assert_eq!(second.best, d1, "seed {seed}: {:?}", &second.moves[..3]);
        assert!(second.winrate < 0.1, "the win rate reported is the results' alone: {}", second.winrate);
        // a search without a tree to reuse (the server's) tells from its first playouts
        let fresh = search(8000).analyse(&game).unwrap();
        let d1_visits = fresh.moves.iter().find(|m| m.mv == d1).map_or(0, |m| m.visits);
        assert!(d1_visits * 10 > fresh.playouts * 8, "seed {seed}: {:?}", &fresh.moves[..3]);
    }
}
