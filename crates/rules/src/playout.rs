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
];
