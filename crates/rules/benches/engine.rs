//! Benchmarks of the engine's hot loops: light playouts (the search's inner loop) and perft (the
//! move generator). Run with `cargo bench -p variago-rules`.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_rules::playout::{BENCH_SPECS, light_playout};
use variago_rules::{AnyGame, Game, Geometry, VariantSpec, perft};

fn main() {
    divan::main();
}

const SPECS: &[&str] = BENCH_SPECS;

fn start(spec: &str, side: u32) -> AnyGame {
    let spec: VariantSpec = spec.parse().unwrap();
    AnyGame::new(&spec, Geometry::square(side).unwrap())
}

/// One light playout from the empty board, on each size the speed targets are stated for.
#[divan::bench(args = SPECS, consts = [9, 13, 19])]
fn light_playout_from_empty<const SIDE: u32>(bencher: divan::Bencher, spec: &str) {
    let game = start(spec, SIDE);
    let mut rng = SmallRng::seed_from_u64(1);
    let cap = game.playout_cap();
    bencher.bench_local(|| {
        let mut g = game.clone();
        light_playout(&mut g, &mut rng, cap)
    });
}

/// Perft 3 on 4x4: legality checks and cloning.
#[divan::bench(args = SPECS)]
fn perft_4x4_depth_3(bencher: divan::Bencher, spec: &str) {
    let game = start(spec, 4);
    bencher.bench_local(|| perft::perft(divan::black_box(&game), 3));
}

/// The legal move list of a mid-game 19x19 position.
#[divan::bench(args = SPECS)]
fn legal_moves_19x19_midgame(bencher: divan::Bencher, spec: &str) {
    let mut game = start(spec, 19);
    let mut rng = SmallRng::seed_from_u64(2);
    for _ in 0..120 {
        game.play_light_move(&mut rng);
    }
    let mut moves = Vec::new();
    bencher.bench_local(|| {
        game.legal_moves(&mut moves);
        moves.len()
    });
}

/// Borderline's full live survey (statuses, enclosures, score terms) of crowded 19x19 positions,
/// after this many random moves from the empty board: the work the AI does at the end of every
/// playout. The target is a median under 50 microseconds.
#[divan::bench(args = [100, 160, 220])]
fn borderline_survey_19x19(bencher: divan::Bencher, moves: usize) {
    use variago_rules::borderline::{Borderline, BorderlineRules};
    let positions: Vec<Borderline> = (0..16)
        .map(|seed| {
            let mut game = Borderline::new(BorderlineRules::default(), Geometry::square(19).unwrap());
            let mut rng = SmallRng::seed_from_u64(seed);
            for _ in 0..moves {
                game.play_light_move(&mut rng);
            }
            game
        })
        .collect();
    let mut i = 0;
    bencher.bench_local(|| {
        i = (i + 1) % positions.len();
        divan::black_box(&positions[i]).live_score()
    });
}
