//! Light random playouts: the engine's hot loop, used by `variago bench` and by the search.

use crate::Game;

/// A cap on playout length, in moves per board point, so that a playout ends even in a variant
/// (or a ko rule) that lets random play cycle.
pub const MAX_MOVES_PER_POINT: usize = 4;

/// Plays [`Game::light_move`] until the game ends or `max_moves` moves were played; returns the
/// number of moves played.
pub fn light_playout<G: Game, R: rand::Rng + ?Sized>(game: &mut G, rng: &mut R, max_moves: usize) -> usize {
    let mut moves = 0;
    while moves < max_moves && !game.is_over() {
        game.play_light_move(rng);
        moves += 1;
    }
    moves
}

/// A random index below `n` by one multiply (Lemire's method without its rejection step): the
/// bias is below n / 2^32, far under anything a playout can notice, and unlike `random_range` it
/// always inlines into the playout loop.
#[inline(always)]
pub fn below<R: rand::Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// The single-board specs the benchmarks measure (`variago bench`, `cargo bench`): every variant
/// name, and `go` with the simple ko the speed targets are stated for.
pub const BENCH_SPECS: &[&str] = &[
    "go:ko=simple",
    "go",
    "incursion",
    "incursion-minimal",
    "incursion-line",
    "stoical",
    "excursion-1",
    "excursion-2",
    "borderline",
];
