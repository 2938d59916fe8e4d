//! Unconditional life by Benson's algorithm, within part of the board: chains of one colour that
//! no sequence of the opponent's moves can capture, even if their owner always passes.
//!
//! The regions are the connected sets of points not holding that colour's pieces, inside the
//! part given; one next to a point outside it is open and counts for nobody. A region is *vital*
//! to a chain when each of its empty points is a liberty of the chain. Repeatedly: a chain with
//! fewer than two vital regions is dropped, and so is every region next to a dropped chain; the
//! chains left are alive. The argument holds in every variant of the Go family here: a piece is
//! captured when its chain has no liberty, kings or stones alike, and the opponent can never
//! fill the last liberty of both vital regions at once (a placement in one leaves the other's;
//! Excursion's suicide removes the placed piece's own chain, not the living one).
//!
//! On bitboards: a life-and-death search asks this of every position that may hold two eyes,
//! and the point-by-point version's lists were a fifth of the search's time.

use super::{Board, PointMask};
use crate::Color;
use crate::bits::{Bits, PointSet, WORDS};

/// The most closed regions, and the most chains next to them, that [`Board::unconditionally_alive`]
/// tells apart (one bit each in a word). Past them it finds fewer chains alive, never more: a
/// region left out is vital to nobody, and a region next to a chain left out is dropped.
const MOST: usize = 64;

impl Board {
    /// The pieces of `color` whose chains are unconditionally alive by Benson's algorithm
    /// (the module's definitions), reading only the points of `within`.
    pub fn unconditionally_alive(&self, color: Color, within: &PointMask) -> PointMask {
        match self.words {
            0..=2 => self.unconditionally_alive_in::<2>(color, within),
            3..=4 => self.unconditionally_alive_in::<4>(color, within),
            5..=7 => self.unconditionally_alive_in::<7>(color, within),
            _ => self.unconditionally_alive_in::<WORDS>(color, within),
        }
    }

    /// [`Self::unconditionally_alive`] on bitboards of `N` words (at least the board's).
    fn unconditionally_alive_in<const N: usize>(&self, color: Color, within: &PointMask) -> PointMask {
        let stride = self.geometry.stride();
        let on_board = self.on_board.words::<N>();
        let (own, other) = (
            self.color_sets[color as usize].words::<N>(),
            self.color_sets[color.opponent() as usize].words::<N>(),
        );
        let empty = on_board.without(&own).without(&other);
        let mut closed = self.closed_part::<N>(color, within);
        let mut regions = [Bits([0; N]); MOST];
        let mut region_count = 0;
        while region_count < MOST {
            let Some(p) = closed.first() else { break };
            regions[region_count] = Bits::single(p).filled_within(&closed, stride);
            closed = closed.without(&regions[region_count]);
            region_count += 1;
        }
        if region_count < 2 {
            return PointMask::default();
        }
        // the chains next to each region, one bit each: `border`; of those, the ones that have
        // every empty point of the region as a liberty: `vital`
        let mut chains = [Bits([0; N]); MOST];
        let mut chain_count = 0;
        let (mut border, mut vital) = ([0u64; MOST], [0u64; MOST]);
        let mut kept = 0u64;
        for (r, region) in regions[..region_count].iter().enumerate() {
            let mut next_to = region.dilated(stride).and(&own);
            let region_empties = region.and(&empty);
            let mut complete = true;
            while let Some(p) = next_to.first() {
                let c =
                    match chains[..chain_count].iter().position(|chain| chain.intersects(&Bits::single(p))) {
                        Some(c) => c,
                        None if chain_count < MOST => {
                            chains[chain_count] = Bits::single(p).filled_within(&own, stride);
                            chain_count += 1;
                            chain_count - 1
                        }
                        None => {
                            complete = false;
                            break;
                        }
                    };
                next_to = next_to.without(&chains[c]);
                border[r] |= 1 << c;
                if !region_empties.has_outside(&chains[c].dilated(stride)) {
                    vital[r] |= 1 << c;
                }
            }
            if complete {
                kept |= 1 << r;
            }
        }
        let mut alive = if chain_count == MOST { u64::MAX } else { (1u64 << chain_count) - 1 };
        loop {
            let kept_regions = || (0..region_count).filter(|&r| kept & 1 << r != 0);
            let vital_count = |c: usize| kept_regions().filter(|&r| vital[r] & 1 << c != 0).count();
            let still_alive = (0..chain_count)
                .filter(|&c| alive & 1 << c != 0 && vital_count(c) >= 2)
                .fold(0u64, |set, c| set | 1 << c);
            let still_kept =
                kept_regions().filter(|&r| border[r] & !still_alive == 0).fold(0u64, |set, r| set | 1 << r);
            if (still_alive, still_kept) == (alive, kept) {
                break;
            }
            (alive, kept) = (still_alive, still_kept);
        }
        let mut living = PointSet::default();
        for (c, chain) in chains[..chain_count].iter().enumerate() {
            if alive & 1 << c == 0 {
                continue;
            }
            for (word, bits) in living.0.iter_mut().zip(chain.0) {
                *word |= bits;
            }
        }
        PointMask(living)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Geometry, Point};
    use proptest::prelude::*;

    /// Benson's algorithm point by point, with lists of regions and chains: the reference the
    /// bitboard version is checked against (the lab's version before it).
    fn alive_point_by_point(board: &Board, color: Color, inside: &[bool]) -> Vec<Point> {
        let geometry = board.geometry();
        let points: Vec<Point> = geometry.points().filter(|p| inside[p.index()]).collect();
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
                for n in geometry.neighbours(q).into_iter().filter(|&n| geometry.contains(n)) {
                    if !inside[n.index()] {
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
        let liberty_of = |point: Point, chain: usize| {
            geometry
                .neighbours(point)
                .into_iter()
                .any(|n| geometry.contains(n) && chain_of[n.index()] == chain)
        };
        let borders: Vec<Vec<usize>> = regions
            .iter()
            .map(|(_, next_to)| next_to.iter().map(|n| chain_of[n.index()]).collect())
            .collect();
        let vital: Vec<Vec<usize>> = regions
            .iter()
            .zip(&borders)
            .map(|((empties, _), border)| {
                border.iter().copied().filter(|&c| empties.iter().all(|&e| liberty_of(e, c))).collect()
            })
            .collect();
        let mut chain_alive = vec![true; chains.len()];
        let mut region_kept = vec![true; regions.len()];
        loop {
            let mut changed = false;
            for (c, alive) in chain_alive.iter_mut().enumerate() {
                if *alive
                    && (0..regions.len()).filter(|&r| region_kept[r] && vital[r].contains(&c)).count() < 2
                {
                    *alive = false;
                    changed = true;
                }
            }
            for (kept, border) in region_kept.iter_mut().zip(&borders) {
                if *kept && border.iter().any(|&c| !chain_alive[c]) {
                    *kept = false;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        let mut alive: Vec<Point> = chains
            .iter()
            .zip(&chain_alive)
            .filter(|&(_, &a)| a)
            .flat_map(|(stones, _)| stones.clone())
            .collect();
        alive.sort_unstable();
        alive
    }

    /// The living points of `color` on `board` within `inside`, by the bitboard version.
    fn alive_by_bits(board: &Board, color: Color, inside: &[bool]) -> Vec<Point> {
        let mask = PointMask::new(board.geometry().points().filter(|p| inside[p.index()]));
        let alive = board.unconditionally_alive(color, &mask);
        board.geometry().points().filter(|&p| alive.contains(p)).collect()
    }

    fn alive(rows: &[&str], color: Color) -> Vec<String> {
        let board = Board::from_diagram(rows).unwrap();
        let inside = vec![true; board.geometry().slots()];
        let points = alive_by_bits(&board, color, &inside);
        assert_eq!(points, alive_point_by_point(&board, color, &inside));
        points.iter().map(|&p| board.geometry().vertex(p).to_string()).collect()
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
        assert!(alive(&rows, Color::Black).is_empty());
    }

    #[test]
    fn a_lone_stone_next_to_a_living_chain_does_not_live_with_it() {
        // the wall's eyes are B4 and D4; E1 shares only the open area below, vital to nobody
        let rows = ["X X X X X", "X . X . X", "X X . X X", ". . . . .", "O . . . X"];
        let living = alive(&rows, Color::Black);
        assert_eq!(living.len(), 12, "{living:?}");
        assert!(!living.contains(&"E1".to_string()));
    }

    #[test]
    fn a_region_open_to_the_outside_of_the_part_counts_for_nobody() {
        let board =
            Board::from_diagram(&["X X X X X", "X . X . X", "X X X X X", ". . . . .", ". . . . ."]).unwrap();
        let geometry = board.geometry();
        let without = |vertex: &str| {
            let mut inside = vec![true; geometry.slots()];
            inside[geometry.parse_vertex(vertex).unwrap().index()] = false;
            inside
        };
        // E5 is a stone of the chain, outside the part: both eyes stay enclosed, the whole chain
        // lives
        assert_eq!(alive_by_bits(&board, Color::Black, &without("E5")).len(), 13);
        // D4, an eye, outside the part: only one eye left
        assert!(alive_by_bits(&board, Color::Black, &without("D4")).is_empty());
    }

    proptest! {
        /// The bitboard version finds the chains the point-by-point version finds, on small
        /// boards crowded with one colour (where two eyes are common), with part of the board
        /// left out, and on 19x19 (the bitboard's largest size class).
        #[test]
        fn the_bitboards_find_the_living_chains_the_point_by_point_version_finds(
            (width, height) in prop_oneof![(2u32..8, 2u32..8), Just((19u32, 19u32))],
            stones in proptest::collection::vec((any::<u16>(), 0u8..10), 0..300),
            outside in proptest::collection::vec(any::<u16>(), 0..4),
            white in any::<bool>(),
        ) {
            let geometry = Geometry::new(width, height).unwrap();
            let mut board = Board::new(geometry);
            // three stones of four black, until a fifth of the board is left empty
            for (pick, shade) in stones {
                let empties = board.empties();
                if empties.len() * 5 < geometry.points().count() {
                    break;
                }
                let p = empties[pick as usize % empties.len()];
                board.put(p, super::super::code(if shade < 3 { Color::White } else { Color::Black }));
            }
            let mut inside: Vec<bool> = (0..geometry.slots()).map(|i| geometry.contains(Point(i as u16))).collect();
            let points: Vec<Point> = geometry.points().collect();
            for pick in outside {
                inside[points[pick as usize % points.len()].index()] = false;
            }
            let color = if white { Color::White } else { Color::Black };
            prop_assert_eq!(alive_by_bits(&board, color, &inside), alive_point_by_point(&board, color, &inside));
        }
    }
}
