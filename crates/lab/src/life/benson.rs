//! Unconditional life by Benson's algorithm, within a problem's region: chains of one colour that
//! no sequence of the opponent's moves can capture, even if their owner always passes.
//!
//! The regions are the connected sets of points not holding that colour's pieces, inside the
//! problem's region; one that reaches a point outside it is open and counts for nobody. A region
//! is *vital* to a chain when each of its empty points is a liberty of the chain. Repeatedly: a
//! chain with fewer than two vital regions is dropped, and so is every region next to a dropped
//! chain; the chains left are alive. The argument holds in every variant of the Go family here:
//! a piece is captured when its chain has no liberty, kings or stones alike, and the opponent can
//! never fill the last liberty of both vital regions at once (a placement in one leaves the
//! other's; Excursion's suicide removes the placed piece's own chain, not the living one).

use variago_rules::{Board, Color, Point};

/// Whether each slot (by [`Point::index`]) holds a piece of a chain of `color` that is
/// unconditionally alive, reading only the points of the region: `region` as a mask by slot,
/// `points` as a list (the work is proportional to the region, not to the board).
pub fn alive_points(board: &Board, color: Color, region: &[bool], points: &[Point]) -> Vec<bool> {
    let geometry = board.geometry();
    // the enclosed regions first: with fewer than two, no chain can have two vital regions, and
    // that is most positions of a search, decided before any chain is traced
    let mut seen = vec![false; geometry.slots()];
    let mut regions: Vec<(Vec<Point>, Vec<Point>)> = Vec::new();
    for &p in points.iter().filter(|&&p| board.color(p) != Some(color)) {
        if seen[p.index()] {
            continue;
        }
        let (mut empties, mut next_to, mut open) = (Vec::new(), Vec::new(), false);
        let mut stack = vec![p];
        seen[p.index()] = true;
        while let Some(q) = stack.pop() {
            if board.piece(q).is_none() {
                empties.push(q);
            }
            for n in geometry.neighbours(q) {
                if !geometry.contains(n) {
                    continue;
                }
                if !region[n.index()] {
                    open = true;
                } else if board.color(n) == Some(color) {
                    next_to.push(n);
                } else if !seen[n.index()] {
                    seen[n.index()] = true;
                    stack.push(n);
                }
            }
        }
        if !open {
            regions.push((empties, next_to));
        }
    }
    if regions.len() < 2 {
        return vec![false; geometry.slots()];
    }
    // each chain of `color` by a number, each point by its chain
    let mut chain_of = vec![usize::MAX; geometry.slots()];
    let mut chains: Vec<Vec<Point>> = Vec::new();
    for &p in points.iter().filter(|&&p| board.color(p) == Some(color)) {
        if chain_of[p.index()] == usize::MAX {
            let stones: Vec<Point> = board.chain(p).collect();
            for s in &stones {
                chain_of[s.index()] = chains.len();
            }
            chains.push(stones);
        }
    }
    // each region with its empty points and the chains next to it
    let regions: Vec<(Vec<Point>, Vec<usize>)> = regions
        .into_iter()
        .map(|(empties, next_to)| {
            let mut next_to: Vec<usize> = next_to.iter().map(|n| chain_of[n.index()]).collect();
            next_to.sort_unstable();
            next_to.dedup();
            (empties, next_to)
        })
        .collect();
    // which regions are vital to which chains
    let liberty_of = |point: Point, chain: usize| {
        geometry.neighbours(point).into_iter().any(|n| geometry.contains(n) && chain_of[n.index()] == chain)
    };
    let vital: Vec<Vec<usize>> = regions
        .iter()
        .map(|(empties, next_to)| {
            next_to.iter().copied().filter(|&c| empties.iter().all(|&e| liberty_of(e, c))).collect()
        })
        .collect();
    let mut chain_alive = vec![true; chains.len()];
    let mut region_kept = vec![true; regions.len()];
    loop {
        let mut changed = false;
        for (c, alive) in chain_alive.iter_mut().enumerate() {
            if *alive && (0..regions.len()).filter(|&r| region_kept[r] && vital[r].contains(&c)).count() < 2 {
                *alive = false;
                changed = true;
            }
        }
        for (kept, (_, next_to)) in region_kept.iter_mut().zip(&regions) {
            if *kept && next_to.iter().any(|&c| !chain_alive[c]) {
                *kept = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut alive = vec![false; geometry.slots()];
    for (c, stones) in chains.iter().enumerate() {
        if chain_alive[c] {
            for s in stones {
                alive[s.index()] = true;
            }
        }
    }
    alive
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive(rows: &[&str], color: Color) -> Vec<String> {
        let board = Board::from_diagram(rows).unwrap();
        let geometry = board.geometry();
        let region = vec![true; geometry.slots()];
        let mask = alive_points(&board, color, &region, &geometry.points().collect::<Vec<_>>());
        geometry.points().filter(|p| mask[p.index()]).map(|p| geometry.vertex(p).to_string()).collect()
    }

    #[test]
    fn two_eyes_live_one_eye_does_not() {
        let two_eyes = ["X X X X X", "X . X . X", "X X X X X", ". . . . .", ". . O . ."];
        assert_eq!(alive(&two_eyes, Color::Black).len(), 13);
        assert!(alive(&two_eyes, Color::White).is_empty());
        let one_eye = ["X X X . .", "X . X . .", "X X X . .", ". . . . .", ". . . . ."];
        assert!(alive(&one_eye, Color::Black).is_empty());
    }

    #[test]
    fn a_big_eye_with_a_point_inside_it_is_not_vital() {
        // the 3x3 eye's centre is no liberty of the wall: one vital region (F4), no life
        let rows = ["X X X X X X X", "X . . . X . X", "X . . . X X X", "X . . . X . .", "X X X X X . ."];
        assert!(alive(&rows, Color::Black).is_empty(), "{:?}", alive(&rows, Color::Black));
    }

    #[test]
    fn a_region_open_to_the_outside_of_the_problem_counts_for_nobody() {
        let board =
            Board::from_diagram(&["X X X X X", "X . X . X", "X X X X X", ". . . . .", ". . . . ."]).unwrap();
        let geometry = board.geometry();
        let within = |region: &[bool]| geometry.points().filter(|p| region[p.index()]).collect::<Vec<_>>();
        let mut region = vec![true; geometry.slots()];
        let outside = geometry.parse_vertex("E5").unwrap();
        region[outside.index()] = false;
        // E5 is a stone of the chain, outside the region: both eyes stay enclosed, the whole
        // chain lives
        assert_eq!(
            alive_points(&board, Color::Black, &region, &within(&region)).iter().filter(|&&a| a).count(),
            13
        );
        let mut region = vec![true; geometry.slots()];
        region[geometry.parse_vertex("D4").unwrap().index()] = false;
        // D4, an eye, outside the region: only one eye left
        assert!(alive_points(&board, Color::Black, &region, &within(&region)).iter().all(|&a| !a));
    }
}
