//! Scores: half-point arithmetic (komi is a multiple of 0.5), the score-sheet trait every variant's
//! breakdown implements, and area scoring.

use std::fmt;

use crate::board::Board;
use crate::geometry::Point;
use crate::{Color, Ending, GameResult};

/// A number of points counted in halves, so that komi like 7.5 is exact.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HalfPoints(pub i32);

impl HalfPoints {
    /// Whole points.
    pub fn points(n: i32) -> Self {
        HalfPoints(2 * n)
    }

    /// Parses a decimal that is a multiple of 0.5 (`7.5`, `6`, `-0.5`, `0.50`).
    pub fn parse(text: &str) -> Option<Self> {
        let value: f64 = text.trim().parse().ok()?;
        let halves = value * 2.0;
        (halves.is_finite() && halves.fract() == 0.0 && halves.abs() <= 1.0e6)
            .then_some(HalfPoints(halves as i32))
    }

    /// As a float (for SGF `KM` and JSON).
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl fmt::Display for HalfPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        if abs.is_multiple_of(2) { write!(f, "{sign}{}", abs / 2) } else { write!(f, "{sign}{}.5", abs / 2) }
    }
}

/// A variant's score breakdown. `Display` prints the breakdown per side; the totals and the
/// result follow from these two methods the same way in every variant.
pub trait ScoreSheet: fmt::Display {
    /// Each side's total, `[black, white]`, komi not included.
    fn totals(&self) -> [HalfPoints; 2];
    /// What White adds to its total.
    fn komi(&self) -> HalfPoints;

    /// The line `Black X - White Y` (komi not included).
    fn totals_line(&self) -> String {
        let [b, w] = self.totals();
        format!("Black {b} - White {w}")
    }

    /// The result if the game ended with this score: the higher total wins, equal is a draw.
    fn result(&self) -> GameResult {
        let [b, w] = self.totals();
        let margin = b.0 - (w.0 + self.komi().0);
        let winner = match margin.signum() {
            1 => Some(Color::Black),
            -1 => Some(Color::White),
            _ => None,
        };
        GameResult { winner, ending: Ending::Score(HalfPoints(margin.abs())) }
    }
}

/// One side's area score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AreaTally {
    /// Pieces on the board (Tromp-Taylor: all alive).
    pub stones: u32,
    /// Empty points in regions bordered only by this side.
    pub territory: u32,
}

/// Area score (stones plus territory) of both sides, with komi.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AreaScore {
    /// Black's and White's tallies.
    pub sides: [AreaTally; 2],
    /// White's komi.
    pub komi: HalfPoints,
}

impl AreaScore {
    /// Scores a board by area, every piece alive.
    pub fn of(board: &Board, komi: HalfPoints) -> Self {
        let mut sides = [AreaTally::default(); 2];
        for c in [Color::Black, Color::White] {
            sides[c as usize].stones = board.stones(c) as u32;
        }
        for_each_empty_region(board, |region, owner| {
            if let Some(c) = owner {
                sides[c as usize].territory += region.len() as u32;
            }
        });
        AreaScore { sides, komi }
    }

    /// Who owns each point by this count, every piece alive: a piece's colour, or for an empty
    /// point the one colour bordering its region; written to `out[point.index()]` (`out` is
    /// resized to the board's point indices), `None` for a point no one or both sides border.
    pub fn owners(board: &Board, out: &mut Vec<Option<Color>>) {
        out.clear();
        out.resize(board.geometry().slots(), None);
        AreaScore::each_owner(board, |p, owner| out[p.index()] = owner);
    }

    /// Calls `visit` with every point of `board` and its owner by this count, as
    /// [`AreaScore::owners`] writes them (for counts laid out otherwise, as Galice's two boards).
    pub fn each_owner(board: &Board, mut visit: impl FnMut(Point, Option<Color>)) {
        for p in board.geometry().points() {
            if let Some(c) = board.color(p) {
                visit(p, Some(c));
            }
        }
        for_each_empty_region(board, |region, owner| {
            for &p in region {
                visit(p, owner);
            }
        });
    }
}

/// Calls `visit` with every empty region of `board` and the one colour bordering it, if only one
/// does. Empty points without an empty neighbour (nearly all of them at the end of a playout) are
/// judged from their neighbours alone; only larger empty regions are flooded.
fn for_each_empty_region(board: &Board, mut visit: impl FnMut(&[Point], Option<Color>)) {
    let geometry = board.geometry();
    let mut counted: Vec<bool> = Vec::new();
    let mut region = Vec::new();
    for &p in board.empties() {
        if !board.has_empty_neighbour(p) {
            visit(&[p], board.enclosing_color(p));
            continue;
        }
        if counted.is_empty() {
            counted = vec![false; geometry.slots()];
        }
        if counted[p.index()] {
            continue;
        }
        let mut border = [false; 2];
        region.clear();
        let mut stack = vec![p];
        counted[p.index()] = true;
        while let Some(q) = stack.pop() {
            region.push(q);
            for n in geometry.neighbours(q) {
                if !geometry.contains(n) || counted[n.index()] {
                    continue;
                }
                match board.color(n) {
                    Some(c) => border[c as usize] = true,
                    None => {
                        counted[n.index()] = true;
                        stack.push(n);
                    }
                }
            }
        }
        let owner = match border {
            [true, false] => Some(Color::Black),
            [false, true] => Some(Color::White),
            _ => None,
        };
        visit(&region, owner);
    }
}

impl ScoreSheet for AreaScore {
    fn totals(&self) -> [HalfPoints; 2] {
        self.sides.map(|s| HalfPoints::points((s.stones + s.territory) as i32))
    }

    fn komi(&self) -> HalfPoints {
        self.komi
    }
}

impl fmt::Display for AreaScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in [Color::Black, Color::White] {
            let s = self.sides[c as usize];
            write!(f, "{c}: {} stones + {} territory = {}", s.stones, s.territory, s.stones + s.territory)?;
            if c == Color::White {
                write!(f, " (komi {})", self.komi)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_points_parse_and_print() {
        assert_eq!(HalfPoints::parse("7.5"), Some(HalfPoints(15)));
        assert_eq!(HalfPoints::parse("-0.5"), Some(HalfPoints(-1)));
        assert_eq!(HalfPoints::parse("6"), Some(HalfPoints(12)));
        assert_eq!(HalfPoints::parse("6.3"), None);
        assert_eq!(HalfPoints::parse("nan"), None);
        assert_eq!(HalfPoints(15).to_string(), "7.5");
        assert_eq!(HalfPoints(-1).to_string(), "-0.5");
        assert_eq!(HalfPoints(-4).to_string(), "-2");
    }

    #[test]
    fn owners_follow_the_area_count_point_by_point() {
        let board = Board::from_diagram(&["..X..", "XXX..", "...OO", "OOOO.", "....O"]).unwrap();
        let mut owners = Vec::new();
        AreaScore::owners(&board, &mut owners);
        let g = board.geometry();
        let at = |x, y| owners[g.point(x, y).unwrap().index()];
        let (b, w) = (Some(Color::Black), Some(Color::White));
        // stones are their colour's; the corner regions bordered by one colour are its territory
        assert_eq!([at(0, 0), at(1, 0), at(2, 0), at(0, 1)], [b, b, b, b]);
        assert_eq!([at(0, 4), at(3, 4), at(4, 3), at(3, 2)], [w, w, w, w]);
        // the middle region touches both colours: no one's
        assert_eq!([at(0, 2), at(2, 2), at(3, 0), at(4, 1)], [None, None, None, None]);
        // the count and the owners agree
        let score = AreaScore::of(&board, HalfPoints(0));
        let counted = |c| owners.iter().filter(|&&o| o == Some(c)).count() as u32;
        assert_eq!(counted(Color::Black), score.sides[0].stones + score.sides[0].territory);
        assert_eq!(counted(Color::White), score.sides[1].stones + score.sides[1].territory);
    }
}
