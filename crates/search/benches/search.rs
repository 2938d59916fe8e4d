//! The search's speed: one move of 1,000 playouts from the empty 9x9 board, per variant, on one
//! thread and on two (sharing one tree). Run with `cargo bench -p variago-search`; divide 1,000 by
//! the time for playouts per second inside the search.

use variago_rules::playout::BENCH_SPECS;
use variago_rules::{AnyGame, Geometry, VariantSpec};
use variago_search::{Search, Settings};

fn main() {
    divan::main();
}

/// A 1,000-playout search from the empty 9x9 board.
#[divan::bench(args = BENCH_SPECS, consts = [1, 2], sample_count = 10)]
fn search_1000_playouts_9x9<const THREADS: usize>(bencher: divan::Bencher, spec: &str) {
    let spec: VariantSpec = spec.parse().unwrap();
    let game = AnyGame::new(&spec, Geometry::square(9).unwrap());
    let search = Search::new(Settings { playouts: 1000, threads: THREADS, ..Settings::default() });
    bencher.bench_local(|| search.best_move(divan::black_box(&game)));
}
