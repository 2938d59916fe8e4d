//! What a move looks like to the search's prior knowledge: the 3x3 pattern around it (with the
//! atari status of its orthogonal neighbours), whether it captures, escapes an atari, ataris or
//! puts itself in atari, its distance to the last move and to the edge, and whether it opens a
//! new area of the board (and on which line).
//!
//! Coulom ("Computing Elo Ratings of Move Patterns in the Game of Go", 2007) showed that a
//! Bradley-Terry model over such features predicts strong players' moves well; [`crate::train`]
//! fits the model's weights from records and [`crate::priors`] turns them into the tree's priors.
//! Everything is seen from the side to move, so one table serves both colours.

use variago_rules::{Board, Color, Point, Stones};

/// How a move captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Capture {
    /// One stone.
    One,
    /// Two stones up to one short of [`BIG_CHAIN`].
    Several,
    /// [`BIG_CHAIN`] stones or more.
    Many,
}

/// The size of the chain an atari or an escape is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Size {
    /// Fewer than [`BIG_CHAIN`] stones.
    Small,
    /// [`BIG_CHAIN`] stones or more.
    Big,
}

/// Chains of this many stones or more are big to the features. The games lost to GNU Go were
/// mostly lost in fights over big groups whose refutation (an atari or a capture of the group)
/// the tree never tried: to the features the atari of twelve stones looked like the atari of
/// one (docs/ai.md, "The fourth round").
pub const BIG_CHAIN: u16 = 5;

impl Size {
    fn of(stones: u16) -> Size {
        if stones >= BIG_CHAIN { Size::Big } else { Size::Small }
    }
}

/// The features of one placement (a pass has none but its own: [`Feature::Pass`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveFeatures {
    /// The 3x3 pattern in its canonical form (see [`canonical`]).
    pub pattern: u32,
    /// Opponent stones it removes.
    pub capture: Option<Capture>,
    /// It gives a chain of the mover's that stood in atari two liberties or more (the size of
    /// the largest such chain).
    pub escape: Option<Size>,
    /// It leaves its own chain with a single liberty without capturing.
    pub self_atari: bool,
    /// It leaves an opponent chain with a single liberty (the size of the largest such chain).
    pub atari: Option<Size>,
    /// Coulom's distance `dx + dy + max(dx, dy)` to the last placement, capped at
    /// [`FAR`]; `None` when the last move was no placement.
    pub distance: Option<u8>,
    /// The line it stands on (1 the edge), capped at [`CENTRE_LINE`].
    pub line: u8,
    /// Whether no stone stands within [`OPEN_REACH`] points of it either way (its 5x5 square):
    /// a move that opens an area, as opening moves do. With the line it tells an opening on the
    /// third or fourth line from one on the first or second, which the line alone, learned over
    /// whole games whose endgames play on the edge, does not.
    pub open: bool,
}

/// A move is in an open area when no stone stands within this many points of it either way.
pub const OPEN_REACH: u8 = 2;

/// Distances at and past this one are all alike.
pub const FAR: u8 = 10;
/// Lines at and past this one are all "the centre".
pub const CENTRE_LINE: u8 = 5;

/// One feature a move can have: the names the weight table and the training use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// The pass.
    Pass,
    /// A canonical 3x3 pattern.
    Pattern(u32),
    /// A capture of this size.
    Capture(Capture),
    /// An atari escape of a chain of this size.
    Escape(Size),
    /// A self-atari.
    SelfAtari,
    /// An atari of a chain of this size.
    Atari(Size),
    /// This distance to the last placement (2 to [`FAR`]).
    Distance(u8),
    /// This line (1 to [`CENTRE_LINE`] - 1; the centre has no feature).
    Line(u8),
    /// In an open area ([`MoveFeatures::open`]) on this line (1 to [`CENTRE_LINE`], which
    /// stands for the centre).
    Open(u8),
}

impl Feature {
    /// The feature's name in the weight table.
    pub fn name(self) -> String {
        match self {
            Feature::Pass => "pass".into(),
            Feature::Pattern(code) => format!("pattern-{code:05x}"),
            Feature::Capture(Capture::One) => "capture-one".into(),
            Feature::Capture(Capture::Several) => "capture-several".into(),
            Feature::Capture(Capture::Many) => "capture-many".into(),
            Feature::Escape(Size::Small) => "escape".into(),
            Feature::Escape(Size::Big) => "escape-big".into(),
            Feature::SelfAtari => "self-atari".into(),
            Feature::Atari(Size::Small) => "atari".into(),
            Feature::Atari(Size::Big) => "atari-big".into(),
            Feature::Distance(d) => format!("distance-{d}"),
            Feature::Line(l) => format!("line-{l}"),
            Feature::Open(l) if l == CENTRE_LINE => "open-centre".into(),
            Feature::Open(l) => format!("open-line-{l}"),
        }
    }

    /// The feature a name in the weight table stands for.
    pub fn from_name(name: &str) -> Option<Feature> {
        let number = |prefix: &str| name.strip_prefix(prefix).and_then(|n| n.parse::<u8>().ok());
        Some(match name {
            "pass" => Feature::Pass,
            "capture-one" => Feature::Capture(Capture::One),
            "capture-several" => Feature::Capture(Capture::Several),
            "capture-many" => Feature::Capture(Capture::Many),
            "escape" => Feature::Escape(Size::Small),
            "escape-big" => Feature::Escape(Size::Big),
            "self-atari" => Feature::SelfAtari,
            "atari" => Feature::Atari(Size::Small),
            "atari-big" => Feature::Atari(Size::Big),
            "open-centre" => Feature::Open(CENTRE_LINE),
            _ => {
                if let Some(code) = name.strip_prefix("pattern-") {
                    Feature::Pattern(u32::from_str_radix(code, 16).ok().filter(|&c| c < 1 << 20)?)
                } else if let Some(d) = number("distance-").filter(|d| (2..=FAR).contains(d)) {
                    Feature::Distance(d)
                } else if let Some(l) = number("open-line-").filter(|l| (1..CENTRE_LINE).contains(l)) {
                    Feature::Open(l)
                } else {
                    Feature::Line(number("line-").filter(|l| (1..CENTRE_LINE).contains(l))?)
                }
            }
        })
    }
}

impl MoveFeatures {
    /// The features the Bradley-Terry model multiplies for this move (the pattern always, the
    /// others when present).
    pub fn list(&self) -> impl Iterator<Item = Feature> {
        [
            Some(Feature::Pattern(self.pattern)),
            self.capture.map(Feature::Capture),
            self.escape.map(Feature::Escape),
            self.self_atari.then_some(Feature::SelfAtari),
            self.atari.map(Feature::Atari),
            self.distance.map(Feature::Distance),
            (self.line < CENTRE_LINE).then_some(Feature::Line(self.line)),
            self.open.then_some(Feature::Open(self.line)),
        ]
        .into_iter()
        .flatten()
    }
}

/// Codes of the 3x3 pattern's cells, seen from the mover.
const EMPTY: u32 = 0;
const OWN: u32 = 1;
const OPPONENT: u32 = 2;
const OFF_BOARD: u32 = 3;

/// A pattern's raw code: the eight neighbours clockwise from north (N, NE, E, SE, S, SW, W, NW),
/// two bits each (bits 0-15), then one atari bit for each orthogonal neighbour (N, E, S, W: bits
/// 16-19).
fn rotate(code: u32) -> u32 {
    // a quarter turn clockwise: what was north is now east
    let ring = code & 0xFFFF;
    let ring = ((ring << 4) | (ring >> 12)) & 0xFFFF;
    let ataris = (code >> 16) & 0xF;
    let ataris = ((ataris << 1) | (ataris >> 3)) & 0xF;
    ring | ataris << 16
}

/// The mirror image left to right: east and west swap, north and south stay.
fn mirror(code: u32) -> u32 {
    let cell = |i: u32| (code >> (2 * i)) & 3;
    // N NE E SE S SW W NW -> N NW W SW S SE E NE
    let ring =
        [0, 7, 6, 5, 4, 3, 2, 1].iter().enumerate().fold(0, |r, (to, &from)| r | cell(from) << (2 * to));
    let atari = |i: u32| (code >> (16 + i)) & 1;
    // N E S W -> N W S E
    let ataris = [0, 3, 2, 1].iter().enumerate().fold(0, |a, (to, &from)| a | atari(from) << to);
    ring | ataris << 16
}

/// The pattern's eight rotations and reflections (some equal for symmetric shapes).
pub fn symmetries(code: u32) -> [u32; 8] {
    let mut all = [code; 8];
    let mut turned = code;
    for pair in all.chunks_exact_mut(2) {
        pair[0] = turned;
        pair[1] = mirror(turned);
        turned = rotate(turned);
    }
    all
}

/// Whether a pattern's ring holds a stone of either colour: a cell whose two bits differ (own
/// 01, opponent 10; empty 00 and off the board 11 do not).
fn ring_holds_a_stone(code: u32) -> bool {
    (code ^ (code >> 1)) & 0x5555 != 0
}

/// The smallest code among the pattern's eight rotations and reflections, so that a shape and
/// its turned or mirrored copies share one weight.
pub fn canonical(code: u32) -> u32 {
    symmetries(code).into_iter().min().expect("eight codes")
}

/// Codes of a 3x3 cell seen from the mover, as [`Board::slot_code`] gives them for Black (0
/// empty, 1 black, 2 white, 3 off the board), swapped for White.
#[inline(always)]
pub(crate) fn cell_for(slot_code: u8, mover: Color) -> u32 {
    let code = slot_code as u32;
    match mover {
        Color::Black => code,
        // 1 <-> 2, 0 and 3 unchanged
        Color::White => code ^ ((code == 1 || code == 2) as u32 * 3),
    }
}

/// The raw 3x3 pattern code (see [`canonical`]'s ring order and atari bits) of the empty point
/// `p` for `mover`, read straight from the board: what the heavy playouts look up per move, in
/// two parts ([`ring_colours`], [`atari_bits`]) so that they can skip the second.
#[cfg(test)]
pub(crate) fn raw_pattern(board: &Board, p: Point, mover: Color) -> u32 {
    ring_colours(board, p, mover) | atari_bits(board, p)
}

/// The colour part of [`raw_pattern`] (its low 16 bits): the eight cells around `p`.
#[inline(always)]
pub(crate) fn ring_colours(board: &Board, p: Point, mover: Color) -> u32 {
    let geometry = board.geometry();
    let [north, west, east, south] = geometry.neighbours(p);
    let [north_west, north_east, south_west, south_east] = geometry.diagonals(p);
    let ring = [north, north_east, east, south_east, south, south_west, west, north_west];
    let mut code = 0;
    for (i, n) in ring.into_iter().enumerate() {
        code |= cell_for(board.slot_code(n), mover) << (2 * i);
    }
    code
}

/// The atari part of [`raw_pattern`] (bits 16-19): which of the four orthogonal neighbours of
/// `p` stand in atari.
#[inline(always)]
pub(crate) fn atari_bits(board: &Board, p: Point) -> u32 {
    let [north, west, east, south] = board.geometry().neighbours(p);
    let mut code = 0;
    for (i, n) in [north, east, south, west].into_iter().enumerate() {
        code |= u32::from(board.stands_in_atari(n)) << (16 + i);
    }
    code
}

/// The chains of a position with their liberties (counted up to three) and sizes,
/// computed once so that every candidate move reads them in constant time.
pub struct Position<'a> {
    board: &'a Board,
    mover: Color,
    last: Option<Point>,
    chains: ChainBuffers,
}

/// What [`Position`] knows of the chains, in buffers a caller can keep from position to position
/// ([`Position::reusing`]) so that the search's many expansions allocate nothing.
#[derive(Clone, Debug, Default)]
pub struct ChainBuffers {
    /// The chain of each stone (by array index), `u32::MAX` for empty points.
    chain: Vec<u32>,
    /// Liberties of each chain, at most [`LIBERTY_CAP`].
    liberties: Vec<u8>,
    /// Stones of each chain.
    sizes: Vec<u16>,
}

/// Liberties past this many are all alike to the features.
const LIBERTY_CAP: u8 = 3;

impl<'a> Position<'a> {
    /// Labels the chains of `stones` for the side `mover`.
    pub fn new(stones: Stones<'a>, mover: Color) -> Self {
        Self::reusing(stones, mover, ChainBuffers::default())
    }

    /// [`Position::new`] in the buffers of an earlier position ([`Position::into_buffers`]).
    pub fn reusing(stones: Stones<'a>, mover: Color, mut chains: ChainBuffers) -> Self {
        let board = stones.board;
        let geometry = board.geometry();
        chains.chain.clear();
        chains.chain.resize(geometry.slots(), u32::MAX);
        chains.liberties.clear();
        chains.sizes.clear();
        for p in geometry.points() {
            if board.piece(p).is_none() || chains.chain[p.index()] != u32::MAX {
                continue;
            }
            let label = chains.liberties.len() as u32;
            let mut seen: [Option<Point>; LIBERTY_CAP as usize] = [None; LIBERTY_CAP as usize];
            let mut count = 0;
            let mut size = 0u16;
            for s in board.chain(p) {
                chains.chain[s.index()] = label;
                size += 1;
                for n in geometry.neighbours(s) {
                    if count < LIBERTY_CAP as usize
                        && geometry.contains(n)
                        && board.piece(n).is_none()
                        && !seen[..count].contains(&Some(n))
                    {
                        seen[count] = Some(n);
                        count += 1;
                    }
                }
            }
            chains.liberties.push(count as u8);
            chains.sizes.push(size);
        }
        Position { board, mover, last: stones.last, chains }
    }

    /// The buffers, for the next position's [`Position::reusing`].
    pub fn into_buffers(self) -> ChainBuffers {
        self.chains
    }

    /// The colour code of a slot seen from the mover.
    fn cell(&self, p: Point) -> u32 {
        if !self.board.geometry().contains(p) {
            return OFF_BOARD;
        }
        match self.board.color(p) {
            None => EMPTY,
            Some(c) if c == self.mover => OWN,
            Some(_) => OPPONENT,
        }
    }

    /// The liberties of the stone's chain (up to the cap).
    fn liberties_at(&self, p: Point) -> u8 {
        self.chains.liberties[self.chains.chain[p.index()] as usize]
    }

    /// The stones of the stone's chain.
    fn size_at(&self, p: Point) -> u16 {
        self.chains.sizes[self.chains.chain[p.index()] as usize]
    }

    /// The features of placing a stone of the mover on the empty point `p`.
    pub fn features(&self, p: Point) -> MoveFeatures {
        let geometry = self.board.geometry();
        let [north, west, east, south] = geometry.neighbours(p);
        let [north_west, north_east, south_west, south_east] = geometry.diagonals(p);
        let ring = [north, north_east, east, south_east, south, south_west, west, north_west];
        let mut code = ring.iter().enumerate().fold(0, |code, (i, &n)| code | self.cell(n) << (2 * i));
        let mut captured = 0usize;
        let mut counted: [u32; 4] = [u32::MAX; 4];
        // the largest of the mover's chains in atari and of the opponent's with two liberties
        let (mut saved, mut attacked, mut own_neighbours) = (0u16, 0u16, false);
        let mut empty_neighbours = 0;
        for (i, n) in [north, east, south, west].into_iter().enumerate() {
            match self.cell(n) {
                EMPTY => empty_neighbours += 1,
                OWN => {
                    own_neighbours = true;
                    if self.liberties_at(n) == 1 {
                        code |= 1 << (16 + i);
                        saved = saved.max(self.size_at(n));
                    }
                }
                OPPONENT => {
                    let chain = self.chains.chain[n.index()];
                    match self.liberties_at(n) {
                        1 => {
                            code |= 1 << (16 + i);
                            if !counted.contains(&chain) {
                                counted[i] = chain;
                                captured += self.chains.sizes[chain as usize] as usize;
                            }
                        }
                        2 => attacked = attacked.max(self.size_at(n)),
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        // Liberties after the placement: exact only where they might be fewer than two.
        let liberties_after = if captured > 0 || empty_neighbours >= 2 {
            2
        } else if own_neighbours {
            self.liberties_after_joining(p)
        } else {
            empty_neighbours
        };
        let (x, y) = geometry.coords(p);
        let from_edge = x.min(y).min(geometry.width() - 1 - x).min(geometry.height() - 1 - y);
        MoveFeatures {
            pattern: canonical(code),
            capture: match captured {
                0 => None,
                1 => Some(Capture::One),
                n if n < BIG_CHAIN as usize => Some(Capture::Several),
                _ => Some(Capture::Many),
            },
            escape: (saved > 0 && liberties_after >= 2).then(|| Size::of(saved)),
            self_atari: captured == 0 && liberties_after == 1,
            atari: (attacked > 0).then(|| Size::of(attacked)),
            distance: self.last.map(|last| {
                let ((lx, ly), (x, y)) = (geometry.coords(last), (x, y));
                let (dx, dy) = (lx.abs_diff(x), ly.abs_diff(y));
                (dx + dy + dx.max(dy)).min(FAR)
            }),
            line: (from_edge + 1).min(CENTRE_LINE),
            // the 3x3 ring first: most moves have a stone there and need no wider look
            open: !ring_holds_a_stone(code) && self.stoneless_square(p),
        }
    }

    /// Whether no stone stands within [`OPEN_REACH`] points of `p` either way.
    fn stoneless_square(&self, p: Point) -> bool {
        let geometry = self.board.geometry();
        let (x, y) = geometry.coords(p);
        let span = |c: u8, size: u8| c.saturating_sub(OPEN_REACH)..=(c + OPEN_REACH).min(size - 1);
        span(x, geometry.width()).all(|cx| {
            span(y, geometry.height())
                .all(|cy| geometry.point(cx, cy).is_none_or(|q| self.board.piece(q).is_none()))
        })
    }

    /// The distinct liberties (up to two) of the chain a stone on `p` would make with the
    /// mover's neighbouring chains, when it captures nothing.
    fn liberties_after_joining(&self, p: Point) -> u8 {
        let geometry = self.board.geometry();
        let mut seen: [Option<Point>; 2] = [None; 2];
        let mut count = 0;
        let mut note = |n: Point| {
            if count < 2
                && n != p
                && geometry.contains(n)
                && self.board.piece(n).is_none()
                && !seen.contains(&Some(n))
            {
                seen[count] = Some(n);
                count += 1;
            }
        };
        for n in geometry.neighbours(p) {
            note(n);
            if self.cell(n) == OWN {
                for s in self.board.chain(n) {
                    geometry.neighbours(s).into_iter().for_each(&mut note);
                }
            }
        }
        count as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use variago_rules::Geometry;

    fn position(rows: &[&str]) -> Board {
        Board::from_diagram(rows).unwrap()
    }

    fn features(board: &Board, mover: Color, last: Option<&str>, at: &str) -> MoveFeatures {
        let geometry = board.geometry();
        let last = last.map(|v| geometry.parse_vertex(v).unwrap());
        Position::new(Stones { board, last }, mover).features(geometry.parse_vertex(at).unwrap())
    }

    #[test]
    fn the_eight_symmetries_of_a_pattern_share_its_canonical_code() {
        // one own stone north, an opponent in atari east, the edge south
        let code =
            OWN | (OPPONENT << 4) | (OFF_BOARD << 8) | (OFF_BOARD << 10) | (OFF_BOARD << 6) | (1 << 17);
        let mut turned = code;
        for _ in 0..4 {
            assert_eq!(canonical(turned), canonical(code));
            assert_eq!(canonical(mirror(turned)), canonical(code));
            turned = rotate(turned);
        }
        assert_eq!(turned, code, "four quarter turns are the identity");
        assert_eq!(mirror(mirror(code)), code);
        // a different shape has a different code
        assert_ne!(canonical(code), canonical(code ^ (1 << 17)));
    }

    #[test]
    fn a_move_is_open_while_its_five_by_five_square_holds_no_stone() {
        let board = position(&[
            ". . . . . . . . .", //
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . X . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        // E5 is the stone; the square reaches two points each way, the edge counts as no stone
        let open = |at: &str| features(&board, Color::White, None, at).open;
        assert!(open("A1") && open("A9") && open("J9") && open("B2"));
        assert!(!open("C3") && !open("G7") && !open("E7") && !open("C5"), "two points away");
        assert!(!open("D4") && !open("F5"), "next to the stone: the ring says so");
        assert!(ring_holds_a_stone(OWN << 14) && ring_holds_a_stone(OPPONENT | OFF_BOARD << 2));
        assert!(!ring_holds_a_stone(OFF_BOARD << 4 | OFF_BOARD << 6 | 0xF << 16), "edges, atari bits");
        assert!(open("B3") && open("H5") && open("E2"), "three points away");
        let d = features(&board, Color::White, None, "B2");
        assert_eq!(d.list().filter(|f| matches!(f, Feature::Open(2))).count(), 1);
        let centre = features(&Board::new(Geometry::square(19).unwrap()), Color::Black, None, "K10");
        assert!(centre.list().any(|f| f == Feature::Open(CENTRE_LINE)) && centre.line == CENTRE_LINE);
        for feature in [Feature::Open(1), Feature::Open(4), Feature::Open(CENTRE_LINE)] {
            assert_eq!(Feature::from_name(&feature.name()), Some(feature));
        }
        assert_eq!(Feature::from_name("open-line-5"), None, "the centre has its own name");
    }

    #[test]
    fn tactics_are_read_from_the_chains() {
        let board = position(&[
            ". . . . .", //
            ". O X . .",
            "O X . X .",
            ". O X . .",
            ". . . . .",
        ]);
        assert_eq!(board.geometry(), Geometry::square(5).unwrap());
        // Black's B3 stands in atari: A3, B4 and B2 are White's, its liberty is C3
        let escape = features(&board, Color::Black, None, "C3");
        assert_eq!(escape.escape, Some(Size::Small), "C3 joins B3 to C4, D3, C2: free");
        assert!(!escape.self_atari);
        assert_eq!(escape.capture, None);
        // White at C3 captures B3 (one stone) and is not a self-atari
        let capture = features(&board, Color::White, Some("D3"), "C3");
        assert_eq!(capture.capture, Some(Capture::One));
        assert!(!capture.self_atari);
        assert_eq!(capture.distance, Some(2));
        // Black A4 takes one of the two liberties of A3 and of B4
        let black_a4 = features(&board, Color::Black, None, "A4");
        assert_eq!(black_a4.atari, Some(Size::Small), "A3 is left with A2 only, B4 with B5");
        assert_eq!(black_a4.line, 1);
        // Black A2: next to A3 (white, two liberties) and B2 (white, two liberties): an atari,
        // and a self-atari (its only liberty is A1)
        let black_a2 = features(&board, Color::Black, None, "A2");
        assert!(black_a2.atari.is_some() && black_a2.self_atari);
        assert_eq!(features(&board, Color::Black, None, "E3").line, 1);
        assert_eq!(features(&board, Color::Black, None, "D4").line, 2);
    }

    #[test]
    fn big_chains_are_told_from_small_ones() {
        // Black's thirteen stones have two liberties, C4 and D4
        let rows = [
            ". . . . . . .", //
            "O O O O O O .",
            "X X X X X O .",
            "X X . . X O .",
            "X X X X X O .",
            "O O O O O O .",
            ". . . . . . .",
        ];
        let board = position(&rows);
        assert_eq!(features(&board, Color::White, None, "C4").atari, Some(Size::Big));
        // after White's C4, White's D4 takes them and Black's D4 saves them (taking C4)
        let mut after = rows;
        after[3] = "X X O . X O .";
        let after = position(&after);
        assert_eq!(features(&after, Color::White, None, "D4").capture, Some(Capture::Many));
        let save = features(&after, Color::Black, None, "D4");
        assert_eq!((save.escape, save.capture), (Some(Size::Big), Some(Capture::One)));
        // an atari of a small chain: Black's C2 leaves White's B2 with B3 alone
        let small = position(&[". . .", "X O .", ". X ."]);
        assert_eq!(features(&small, Color::Black, None, "C2").atari, Some(Size::Small));
        let white_c1 = features(&small, Color::White, None, "C1");
        assert_eq!((white_c1.atari, white_c1.escape), (Some(Size::Small), None), "B1 keeps A1 alone");
    }

    #[test]
    fn feature_names_read_back() {
        for feature in [
            Feature::Pass,
            Feature::Pattern(0xf_ffff),
            Feature::Pattern(0x1234),
            Feature::Capture(Capture::One),
            Feature::Capture(Capture::Several),
            Feature::Capture(Capture::Many),
            Feature::Escape(Size::Small),
            Feature::Escape(Size::Big),
            Feature::SelfAtari,
            Feature::Atari(Size::Small),
            Feature::Atari(Size::Big),
            Feature::Distance(2),
            Feature::Distance(FAR),
            Feature::Line(1),
            Feature::Line(CENTRE_LINE - 1),
        ] {
            assert_eq!(Feature::from_name(&feature.name()), Some(feature), "{}", feature.name());
        }
        for bad in ["pattern-100000", "distance-1", "distance-11", "line-5", "line-0", "ko", ""] {
            assert_eq!(Feature::from_name(bad), None, "{bad}");
        }
    }
}
