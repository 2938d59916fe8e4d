//! Board geometry: a rectangular grid stored as a 1-D array with a sentinel border, so that the
//! four neighbours of any point are plain index offsets and the hot path never checks bounds.

use std::fmt;

/// Smallest board side the engine accepts.
pub const MIN_SIDE: u8 = 1;
/// Largest board side the engine accepts (GTP letters run out after 25 columns).
pub const MAX_SIDE: u8 = 25;
/// Number of array slots of the largest board, border included.
pub const MAX_SLOTS: usize = (MAX_SIDE as usize + 2) * (MAX_SIDE as usize + 1) + 1;

/// GTP column letters: A..Z without I.
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A point of a board, as an index into the board's 1-D array. Only meaningful together with the
/// [`Geometry`] it came from; cheap to copy and to use as an array index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub(crate) u16);

impl Point {
    /// The array index, for tables kept by callers (e.g. per-point statistics in the search).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A point written the way people and GTP write it: a column letter and a row counted from the
/// bottom. Illegal-move reasons carry it so they print without needing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vertex {
    /// Column, 0 = A.
    pub column: u8,
    /// Row counted from the bottom, 1 = the lowest row.
    pub row: u8,
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = COLUMN_LETTERS.get(self.column as usize).copied().unwrap_or(b'?');
        write!(f, "{}{}", letter as char, self.row)
    }
}

/// Why a board size or a vertex was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GeometryError {
    /// A side outside 1..=25, or a board of one point.
    #[error(
        "board size {width}x{height} is out of range (each side must be {MIN_SIDE} to {MAX_SIDE}, the board at least 2 points)"
    )]
    SizeOutOfRange {
        /// Requested width.
        width: u32,
        /// Requested height.
        height: u32,
    },
    /// Text that is not a size such as `19` or `9x13`.
    #[error("'{}' is not a board size (write N or WxH, e.g. 19 or 9x13)", crate::excerpt(.0))]
    BadSize(String),
    /// Text that is not a GTP vertex.
    #[error("'{}' is not a vertex (write a column letter A..Z without I and a row number, e.g. C3)", crate::excerpt(.0))]
    BadVertex(String),
    /// A well-formed vertex outside this board.
    #[error("{} is off the {width}x{height} board", crate::excerpt(.vertex))]
    OffBoard {
        /// The vertex as written.
        vertex: String,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
}

/// The shape of a board: its size and the layout of its 1-D array.
///
/// Layout: `stride = width + 1`; row 0 and row `height + 1` are border, and so is the first slot of
/// every row (it is also the right neighbour of the previous row's last point). One more border
/// slot at the end gives the last point a diagonal neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    width: u8,
    height: u8,
}

impl Geometry {
    /// A board of `width` columns and `height` rows, each 1..=25, of two points or more (a strip
    /// one point wide is a board; a single point, where every placement is suicide, is not).
    pub fn new(width: u32, height: u32) -> Result<Self, GeometryError> {
        let ok = |side: u32| (MIN_SIDE as u32..=MAX_SIDE as u32).contains(&side);
        if !ok(width) || !ok(height) || width * height < 2 {
            return Err(GeometryError::SizeOutOfRange { width, height });
        }
        Ok(Geometry { width: width as u8, height: height as u8 })
    }

    /// A square board.
    pub fn square(side: u32) -> Result<Self, GeometryError> {
        Self::new(side, side)
    }

    /// Parses `19` (square) or `9x13` (width x height).
    pub fn parse(text: &str) -> Result<Self, GeometryError> {
        let bad = || GeometryError::BadSize(text.to_string());
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| bad());
        match text.split_once(['x', 'X', ':']) {
            Some((w, h)) => Self::new(number(w)?, number(h)?),
            None => Self::square(number(text)?),
        }
    }

    /// Number of columns.
    pub fn width(self) -> u8 {
        self.width
    }

    /// Number of rows.
    pub fn height(self) -> u8 {
        self.height
    }

    /// Number of points on the board.
    pub fn area(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Offset between vertically adjacent points.
    pub(crate) fn stride(self) -> usize {
        self.width as usize + 1
    }

    /// Length of the 1-D array, border included.
    pub fn slots(self) -> usize {
        (self.height as usize + 2) * self.stride() + 1
    }

    /// The point at column `x` (0 = left) and row `y` (0 = top, as SGF counts), if on the board.
    pub fn point(self, x: u8, y: u8) -> Option<Point> {
        (x < self.width && y < self.height)
            .then(|| Point(((y as usize + 1) * self.stride() + x as usize + 1) as u16))
    }

    /// Column (0 = left) and row (0 = top) of a point.
    pub fn coords(self, p: Point) -> (u8, u8) {
        let i = p.0 as usize;
        ((i % self.stride() - 1) as u8, (i / self.stride() - 1) as u8)
    }

    /// Whether an array index is a point of this board (not border, not past the end).
    pub fn contains(self, p: Point) -> bool {
        let i = p.0 as usize;
        let (row, column) = (i / self.stride(), i % self.stride());
        (1..=self.height as usize).contains(&row) && (1..=self.width as usize).contains(&column)
    }

    /// Every point, row by row from the top left.
    pub fn points(self) -> impl Iterator<Item = Point> {
        (0..self.height).flat_map(move |y| (0..self.width).map(move |x| self.point(x, y).unwrap()))
    }

    /// The four orthogonal neighbour slots (some may be border).
    #[inline(always)]
    pub fn neighbours(self, p: Point) -> [Point; 4] {
        let s = self.stride() as u16;
        [Point(p.0 - s), Point(p.0 - 1), Point(p.0 + 1), Point(p.0 + s)]
    }

    /// [`Self::neighbours`] as array indices, computed on indices: the hot paths index with them
    /// straight away, without widening each point again.
    #[inline(always)]
    pub(crate) fn neighbour_indices(self, p: Point) -> [usize; 4] {
        let (i, s) = (p.index(), self.stride());
        [i - s, i - 1, i + 1, i + s]
    }

    /// [`Self::diagonals`] as array indices, like [`Self::neighbour_indices`].
    #[inline(always)]
    pub(crate) fn diagonal_indices(self, p: Point) -> [usize; 4] {
        let (i, s) = (p.index(), self.stride());
        [i - s - 1, i - s + 1, i + s - 1, i + s + 1]
    }

    /// The four diagonal neighbour slots (some may be border).
    #[inline(always)]
    pub fn diagonals(self, p: Point) -> [Point; 4] {
        let s = self.stride() as u16;
        [Point(p.0 - s - 1), Point(p.0 - s + 1), Point(p.0 + s - 1), Point(p.0 + s + 1)]
    }

    /// The GTP vertex of a point.
    pub fn vertex(self, p: Point) -> Vertex {
        let (x, y) = self.coords(p);
        Vertex { column: x, row: self.height - y }
    }

    /// Parses a GTP vertex such as `C3` or `c3` (not `pass`) on this board.
    pub fn parse_vertex(self, text: &str) -> Result<Point, GeometryError> {
        let bad = || GeometryError::BadVertex(text.to_string());
        let mut chars = text.trim().chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        let column = COLUMN_LETTERS.iter().position(|&c| c as char == letter).ok_or_else(bad)?;
        // digits only, no leading zero: `u32::from_str` alone would read `+1` and `01` as 1
        let digits = chars.as_str();
        let leading_zero = digits.len() > 1 && digits.starts_with('0');
        if digits.is_empty() || leading_zero || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: u32 = digits.parse().map_err(|_| bad())?;
        let off = || GeometryError::OffBoard {
            vertex: text.trim().to_string(),
            width: self.width,
            height: self.height,
        };
        if row == 0 || row > self.height as u32 {
            return Err(off());
        }
        self.point(column as u8, (self.height as u32 - row) as u8).ok_or_else(off)
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip_on_rectangular_boards() {
        let g = Geometry::new(9, 13).unwrap();
        for p in g.points() {
            assert!(g.contains(p));
            let v = g.vertex(p).to_string();
            assert_eq!(g.parse_vertex(&v).unwrap(), p, "{v}");
        }
        assert_eq!(g.points().count(), 117);
        assert_eq!(g.vertex(g.point(0, 12).unwrap()).to_string(), "A1");
        assert_eq!(g.vertex(g.point(8, 0).unwrap()).to_string(), "J13");
    }

    #[test]
    fn border_slots_are_not_points() {
        let g = Geometry::square(5).unwrap();
        let on_board = g.points().count();
        let contained = (0..g.slots() as u16).filter(|&i| g.contains(Point(i))).count();
        assert_eq!(on_board, contained);
        assert!(!g.contains(Point(g.slots() as u16)));
    }

    #[test]
    fn bad_sizes_and_vertices_are_refused() {
        assert!(Geometry::parse("1").is_err());
        assert!(Geometry::parse("26x5").is_err());
        assert!(Geometry::parse("nine").is_err());
        assert_eq!(Geometry::parse("9x13").unwrap(), Geometry::new(9, 13).unwrap());
        let g = Geometry::square(9).unwrap();
        assert!(matches!(g.parse_vertex("I3"), Err(GeometryError::BadVertex(_))));
        assert!(matches!(g.parse_vertex("K3"), Err(GeometryError::OffBoard { .. })));
        assert!(matches!(g.parse_vertex("A10"), Err(GeometryError::OffBoard { .. })));
        assert!(matches!(g.parse_vertex("A0"), Err(GeometryError::OffBoard { .. })));
        assert!(matches!(g.parse_vertex(""), Err(GeometryError::BadVertex(_))));
        for written in ["A+1", "A01", "A 1", "A1x", "A-1"] {
            assert_eq!(g.parse_vertex(written), Err(GeometryError::BadVertex(written.into())), "{written}");
        }
        assert_eq!(g.parse_vertex(" a1 "), g.parse_vertex("A1"));
    }
}
