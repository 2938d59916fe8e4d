//! Perft: the number of move sequences of a given length, the standard check of a move generator
//! (defined in the rules README: a finished game has no children; a move that ends the game counts).

use crate::Game;

/// Counts the move sequences of length `depth` from `game`.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = game.clone();
            child.play(mv).expect("legal_moves lists only legal moves");
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft below each legal move, in the order `legal_moves` lists them.
pub fn divide<G: Game>(game: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = game.clone();
            child.play(mv).expect("legal_moves lists only legal moves");
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
