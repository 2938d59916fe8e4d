//! The dead-stone phase's helpers: the AI's proposal of dead groups from light playouts (the score
//! with the dead stones taken off is the records' [`variago_records::sgf::without_dead`]).

use std::collections::BTreeSet;

use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_rules::board::RegionOwner;
use variago_rules::{AnyGame, Board, Color, Game, Point, VariantSpec};

/// Playouts the proposal runs: enough to tell a dead group from a living one in a settled
/// position, quick enough (a fraction of a second on 19x19) for a blocking worker thread.
pub const PROPOSAL_PLAYOUTS: u32 = 200;

/// Who owns a point at the end of a playout: its piece's colour, or the colour that alone
/// borders its empty region.
fn owner(board: &Board, p: Point) -> Option<Color> {
    board.color(p).or_else(|| match board.region(p, None).owner {
        RegionOwner::Only(c) => Some(c),
        RegionOwner::Nobody | RegionOwner::Both => None,
    })
}

/// The groups the AI believes dead: a chain is dead when, in most light playouts played out
/// from the final board, most of its points end up owned by the opponent.
pub fn propose(spec: &VariantSpec, board: &Board, to_move: Color, seed: u64) -> BTreeSet<Point> {
    let start = AnyGame::from_setup(spec, board.clone(), to_move);
    let geometry = board.geometry();
    let slots = geometry.points().map(|p| p.index() + 1).max().unwrap_or(0);
    // how often each point ended with its current stone's opponent owning it
    let mut lost = vec![0u32; slots];
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..PROPOSAL_PLAYOUTS {
        let mut game = start.clone();
        let cap = game.playout_cap();
        let mut steps = 0;
        while !game.is_over() && steps < cap {
            game.play_light_move(&mut rng);
            steps += 1;
        }
        for p in geometry.points() {
            if let Some(c) = board.color(p)
                && owner(game.board(), p) == Some(c.opponent())
            {
                lost[p.index()] += 1;
            }
        }
    }
    let mut dead = BTreeSet::new();
    let mut seen = BTreeSet::new();
    for p in geometry.points() {
        if board.color(p).is_none() || seen.contains(&p) {
            continue;
        }
        let chain: Vec<Point> = board.chain(p).collect();
        seen.extend(chain.iter().copied());
        let lost_points = chain.iter().filter(|q| 2 * lost[q.index()] > PROPOSAL_PLAYOUTS).count();
        if 2 * lost_points > chain.len() {
            dead.extend(chain);
        }
    }
    dead
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lone_stone_in_enemy_territory_is_proposed_dead() {
        // a lone black stone in atari inside a living white group
        let rows = [".O.O.", "OOOOO", "OOX.O", "OOOOO", ".O.O."];
        let board = Board::from_diagram(&rows).unwrap();
        let spec: VariantSpec = "go:komi=0".parse().unwrap();
        let dead = propose(&spec, &board, Color::Black, 7);
        let geometry = board.geometry();
        assert!(dead.contains(&geometry.parse_vertex("C3").unwrap()), "{dead:?}");
        assert_eq!(dead.len(), 1);
    }
}
