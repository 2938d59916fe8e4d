//! Square Lifeline's moves and their text.

use crate::geometry::{Geometry, GeometryError, Point};

/// A move of Square Lifeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Turn {
    /// One stone: every turn after a player's first.
    Place(Point),
    /// A player's first turn: two stones, both placed before anything is removed.
    Pair(Pair),
    /// White's swap on its first turn: the board and the side to move stay, the swap is used up,
    /// and White then makes its first turn (see the module documentation).
    Swap,
    /// Never legal: Square Lifeline has no pass. It exists because [`crate::Game::PASS`] must,
    /// and its refusal says why.
    Pass,
}

/// The two points of a first turn, unordered: built in either order, pairs of the same points are
/// the same pair (kept in point order), so that a first turn is one move however it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    first: Point,
    second: Point,
}

impl Pair {
    /// The pair of `a` and `b`, in either order (a pair of one point twice is never legal, and
    /// its refusal says why).
    pub fn new(a: Point, b: Point) -> Pair {
        Pair { first: a.min(b), second: a.max(b) }
    }

    /// Its points, in point order.
    pub fn points(self) -> [Point; 2] {
        [self.first, self.second]
    }
}

impl Turn {
    /// The first turn placing `a` and `b`, in either order.
    pub fn pair(a: Point, b: Point) -> Turn {
        Turn::Pair(Pair::new(a, b))
    }

    /// The turn as text on a board of this shape: `C3`, `C4+C2` (a pair, in point order, which
    /// runs row by row from the top), `swap`, `pass`.
    pub fn to_text(self, geometry: Geometry) -> String {
        match self {
            Turn::Place(p) => geometry.vertex(p).to_string(),
            Turn::Pair(pair) => {
                let [a, b] = pair.points();
                format!("{}+{}", geometry.vertex(a), geometry.vertex(b))
            }
            Turn::Swap => "swap".to_string(),
            Turn::Pass => "pass".to_string(),
        }
    }

    /// Reads a turn as [`Turn::to_text`] writes it, in any case, a pair's points in either
    /// order (`pass` too, though it is never legal, so that its refusal can say why).
    pub fn parse(text: &str, geometry: Geometry) -> Result<Turn, GeometryError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("swap") {
            return Ok(Turn::Swap);
        }
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Turn::Pass);
        }
        match text.split_once('+') {
            Some((a, b)) => Ok(Turn::pair(geometry.parse_vertex(a)?, geometry.parse_vertex(b)?)),
            None => Ok(Turn::Place(geometry.parse_vertex(text)?)),
        }
    }
}

/// A single stone is a placement for the search's move features and its playout policy; a pair
/// or the swap is not, though the move model weighs a pair's two stones together.
impl crate::Placement for Turn {
    fn placement(self) -> Option<Point> {
        match self {
            Turn::Place(p) => Some(p),
            Turn::Pair(_) | Turn::Swap | Turn::Pass => None,
        }
    }

    fn placing(p: Point) -> Option<Self> {
        Some(Turn::Place(p))
    }

    fn stones_placed(self) -> [Option<Point>; 2] {
        match self {
            Turn::Pair(pair) => pair.points().map(Some),
            other => [other.placement(), None],
        }
    }
}
