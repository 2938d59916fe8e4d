//! The shared board of every single-board variant: pieces, chains and liberties, captures and an
//! incremental Zobrist hash. Knows nothing of turns or of any variant's rules.
//!
//! Chains are circular linked lists with a head that holds the chain's size and its
//! *pseudo-liberties* (one per stone-empty adjacency) with their sum and sum of squares, packed in
//! one word so that a stone updates a chain with one addition: a chain is captured when the count
//! is 0 and is in atari exactly when `count * sum_sq == sum * sum` (all pseudo-liberties are the
//! same point). No per-move allocation, no flood fill on the hot path.
//!
//! A random playout's neighbours are as likely empty as friendly or hostile, so a branch on their
//! kind is mispredicted about every other time: that, not the instruction count, bounded the
//! playouts. The hot path therefore decides by arithmetic where it can. Empty and border slots
//! name a scratch slot as their chain head, so a placement takes its point from every
//! neighbour's head and a capture gives it back to every neighbour's head alike, and the
//! preview, the suicide test and the gathering of friendly and dead chains combine masks instead
//! of branching.

#[cfg(target_arch = "x86_64")]
use crate::bits::registers;
use crate::bits::{Bits, Flood, PointSet};
use crate::geometry::{Geometry, MAX_SLOTS, Point};
use crate::zobrist::piece_key;
use crate::{Color, Piece};

mod benson;

/// Slot contents: empty point.
pub(crate) const EMPTY: u8 = 0;
/// Slot contents: outside the board.
pub(crate) const BORDER: u8 = 3;
/// Flag added to a stone's colour code to make it a king.
pub(crate) const KING: u8 = 4;
/// The chain head that empty and border slots name: the border's first slot, which is never a
/// point nor a point's neighbour. The liberty updates of a placement and a capture write to it
/// for whatever neighbour has no chain, so that they need no branch on the neighbour's kind.
const SCRATCH: u16 = 0;

/// The colour code of a stone of `c` in a slot (1 black, 2 white), as [`Board::slot_code`]
/// reads it.
#[inline(always)]
pub fn code(c: Color) -> u8 {
    c as u8 + 1
}

/// One array slot: what stands there, its neighbours' kinds and its chain. Eight bytes, like a
/// chain's packed liberties in their own array, so that an index addresses both by the
/// processor's scaled addressing, without an instruction to multiply it (a 24-byte slot holding
/// everything needed one for every slot read).
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    cell: u8,
    /// Next stone of the same chain (circular); for empty points, unused.
    next: u16,
    /// Head stone of the chain; [`SCRATCH`] for empty and border slots.
    head: u16,
    /// How many neighbours of each kind this point has, a nibble each: empty (bits 0-3), black
    /// (4-7), white (8-11), border (12-15). Lets the eye and legality tests answer from one load.
    neighbour_counts: u16,
}

/// The rest of a slot's bookkeeping, read less often than [`Slot`].
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    /// Index of this point in `empties` while it is empty.
    empty_index: u16,
    // The fields below are valid on a chain's head only.
    size: u16,
    /// How many of the chain's pieces are kings.
    kings: u16,
}

/// Bit offsets of the fields packed in [`Slot::liberties`]: the sum of squares in the low 31
/// bits, the sum in the next 21, the count in the top 12. On the largest board (25x25, slot
/// indices below 703) a chain has fewer than 2500 pseudo-liberties, so no field of a chain's
/// word carries into the next: the sum of squares stays under 2500 * 703^2 < 2^31, the sum
/// under 2500 * 703 < 2^21.
const LIBERTY_SUM_SHIFT: u32 = 31;
const LIBERTY_COUNT_SHIFT: u32 = 52;

/// One pseudo-liberty on slot `l`, packed as in [`Slot::liberties`], computed.
const fn liberty_unit_of(l: usize) -> u64 {
    let l = l as u64;
    (1 << LIBERTY_COUNT_SHIFT) | (l << LIBERTY_SUM_SHIFT) | (l * l)
}

/// The one point a packed word of pseudo-liberties repeats, if it holds some and they are all
/// the same point: zero variance, the count times the sum of squares equal to the sum squared.
#[inline(always)]
fn sole_point(packed: u64) -> Option<Point> {
    repeats_one_point(packed).then(|| Point((liberty_sum(packed) / (packed >> LIBERTY_COUNT_SHIFT)) as u16))
}

/// Whether [`sole_point`] finds a point, without working out which, and without a branch.
#[inline(always)]
fn repeats_one_point(packed: u64) -> bool {
    let n = packed >> LIBERTY_COUNT_SHIFT;
    let (sum, sq) = (liberty_sum(packed), packed & ((1 << LIBERTY_SUM_SHIFT) - 1));
    (n > 0) & (n * sq == sum * sum)
}

/// The sum of the points of a packed word of pseudo-liberties.
#[inline(always)]
fn liberty_sum(packed: u64) -> u64 {
    (packed >> LIBERTY_SUM_SHIFT) & ((1 << (LIBERTY_COUNT_SHIFT - LIBERTY_SUM_SHIFT)) - 1)
}

/// [`liberty_unit_of`] of every slot of the largest board: a placement reads five of them, one
/// load each instead of a multiplication and three shifts. Slot 0, a border slot that is never a
/// liberty, holds 0, so that a placement adds its neighbours' units by masking their indices
/// (a load the compiler cannot turn into a branch on the neighbour's kind).
static LIBERTY_UNITS: [u64; MAX_SLOTS] = {
    let mut units = [0; MAX_SLOTS];
    let mut l = 1;
    while l < MAX_SLOTS {
        units[l] = liberty_unit_of(l);
        l += 1;
    }
    units
};

/// One pseudo-liberty on slot `l`, packed as in [`Slot::liberties`].
#[inline(always)]
fn liberty_unit(l: Point) -> u64 {
    debug_assert!(l.index() < MAX_SLOTS);
    // SAFETY: every slot index of every board is below `MAX_SLOTS` (the largest board's slots)
    unsafe { *LIBERTY_UNITS.get_unchecked(l.index()) }
}

/// The entry of slot index `i` in one of a board's per-slot arrays (slots, liberties, tallies),
/// without a bounds check: for the hot paths that work on a local slice (its base then stays in a
/// register), under the invariant of [`Board::slot`] (every array has one entry per slot).
#[inline(always)]
fn at<T>(items: &[T], i: usize) -> &T {
    debug_assert!(i < items.len());
    // SAFETY: see `Board::slot`
    unsafe { items.get_unchecked(i) }
}

/// [`at`] for writing.
#[inline(always)]
fn at_mut<T>(items: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < items.len());
    // SAFETY: see `Board::slot`
    unsafe { items.get_unchecked_mut(i) }
}

/// A chain as [`Board::chain_at`] describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainAt {
    /// The chain's head stone: one identity per chain while the board stands.
    pub head: Point,
    /// Its stones.
    pub size: u16,
    /// Its only liberty, if it has exactly one (it stands in atari).
    pub sole_liberty: Option<Point>,
}

/// What placing a stone would do, computed without changing the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Preview {
    /// How many opponent groups the stone captures.
    pub captured_groups: u8,
    /// How many opponent stones the stone captures.
    pub captured_stones: u16,
    /// Whether the mover's group would be left without liberties.
    pub suicide: bool,
    /// Whether the stone joins no friendly chain (so a suicide would remove only itself).
    pub lone: bool,
}

/// A placement's [`Preview`], worked out the first time a rule asks for it: a placement next to
/// an empty point cannot be a suicide, so under rules that never read captures (Go with the
/// simple ko) the playouts' common placement skips the neighbour scan altogether. Only the crate
/// makes one, for an empty point of the board it holds, so a rule handed one (see
/// [`StoneRules::judge`]) may ask the board about that point without the public guards.
///
/// [`StoneRules::judge`]: crate::stone_game::StoneRules::judge
pub struct LazyPreview<'a> {
    board: &'a Board,
    point: Point,
    mover: Color,
    known: std::cell::Cell<Option<Preview>>,
}

impl<'a> LazyPreview<'a> {
    /// The preview of a placement of `mover` on the empty point `point`, not yet worked out.
    #[inline(always)]
    pub(crate) fn new(board: &'a Board, point: Point, mover: Color) -> Self {
        LazyPreview { board, point, mover, known: std::cell::Cell::new(None) }
    }

    /// The preview, worked out on the first call.
    #[inline(always)]
    pub fn get(&self) -> Preview {
        if let Some(preview) = self.known.get() {
            return preview;
        }
        let preview = self.board.preview(self.point, self.mover);
        self.known.set(Some(preview));
        preview
    }

    /// Whether the placement leaves the mover's group without liberties, answered without the
    /// scan when the point touches an empty one, and without counting captures otherwise.
    #[inline(always)]
    pub fn suicide(&self) -> bool {
        if self.board.has_empty_neighbour(self.point) {
            return false;
        }
        match self.known.get() {
            Some(preview) => preview.suicide,
            None => self.board.breathes_nowhere(self.point, self.mover),
        }
    }
}

/// What a placement did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    /// Opponent groups removed.
    pub captured_groups: u8,
    /// Opponent stones removed.
    pub captured_stones: u16,
    /// The mover's own stones removed (suicide, where a variant allows it).
    pub suicided_stones: u16,
}

/// One neighbour of colour code `cell` (0 empty, 1 black, 2 white, 3 border) in a packed count.
#[inline(always)]
fn count_unit(cell: u8) -> u16 {
    1 << (4 * (cell & 3))
}

/// How many neighbours of colour code `cell` a packed count holds.
#[inline(always)]
fn count_of(counts: u16, cell: u8) -> u16 {
    (counts >> (4 * cell)) & 0xF
}

/// Whose a whole empty region is, from whether a stone of each colour (Black's, White's) borders
/// it.
#[inline(always)]
fn owner_of(touches: [bool; 2]) -> RegionOwner {
    match touches {
        [false, false] => RegionOwner::Nobody,
        [true, false] => RegionOwner::Only(Color::Black),
        [false, true] => RegionOwner::Only(Color::White),
        [true, true] => RegionOwner::Both,
    }
}

/// Chains next to a point, each once (by head): the ones a placement joins, or the opponent
/// chains it left without liberties, to be removed.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ChainsAround {
    heads: [u16; 4],
    count: u8,
}

impl ChainsAround {
    /// The chains' heads.
    #[inline(always)]
    fn heads(&self) -> &[u16] {
        &self.heads[..self.count as usize]
    }
}

/// The distinct chains among the neighbours' `heads` whose entry in `picked` is set, gathered
/// without a branch per neighbour (which a random playout could not predict): each head is
/// written to the next free entry, which only advances for a picked head not met before.
#[inline(always)]
fn distinct_chains(heads: [Point; 4], picked: [bool; 4]) -> ChainsAround {
    let mut chains = ChainsAround::default();
    for (i, (h, pick)) in heads.into_iter().zip(picked).enumerate() {
        let first = heads[..i].iter().fold(true, |first, &earlier| first & (earlier != h));
        chains.heads[chains.count as usize] = h.0;
        chains.count += (pick & first) as u8;
    }
    chains
}

/// Whose pieces border an empty region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegionOwner {
    /// No piece borders the region (only possible on an empty board).
    Nobody,
    /// Only pieces of this colour border it: it is that colour's territory.
    Only(Color),
    /// Pieces of both colours border it.
    Both,
}

/// An empty region seen from one of its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Whose territory it is.
    pub owner: RegionOwner,
    /// Whether it has no fork and no loop (see the Incursion rules' line-shaped territories).
    /// Only meaningful when the scan was not cut short.
    pub line_shaped: bool,
}

/// An empty point of the board a game is played on, found so by that game's legality check.
/// Only this crate makes one, and only to hand it straight to [`StoneRules::place`], so the
/// unguarded placement behind it is never reached with a point from elsewhere.
///
/// [`StoneRules::place`]: crate::stone_game::StoneRules::place
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgedPoint(Point);

impl JudgedPoint {
    /// Marks a point the caller has judged: empty, on the board it will be placed on.
    #[inline(always)]
    pub(crate) fn judged(p: Point) -> Self {
        JudgedPoint(p)
    }

    /// The point.
    #[inline(always)]
    pub fn point(self) -> Point {
        self.0
    }
}

/// A set of a board's points, made once and handed to the board's questions about part of it
/// ([`Board::closed_regions`]).
#[derive(Clone, Debug, Default)]
pub struct PointMask(PointSet);

impl PointMask {
    /// The set of `points`.
    pub fn new(points: impl IntoIterator<Item = Point>) -> Self {
        let mut set = PointSet::default();
        for p in points {
            set.insert(p);
        }
        PointMask(set)
    }

    /// Whether `p` is in the set.
    pub fn contains(&self, p: Point) -> bool {
        self.0.contains(p)
    }
}

/// Pieces on a rectangular board with chains, liberties and a Zobrist hash.
#[derive(Debug)]
pub struct Board {
    geometry: Geometry,
    slots: Vec<Slot>,
    /// Each chain's pseudo-liberties' count, sum and sum of squares packed in one word (see
    /// [`liberty_unit`]), so that a stone updates a neighbour chain with one addition; by slot,
    /// valid on a chain's head (the [`SCRATCH`] slot's takes any number).
    liberties: Vec<u64>,
    /// The rest of each slot's bookkeeping.
    tallies: Vec<Tally>,
    empties: Vec<Point>,
    /// The board's points as a bitboard: with the colour sets it gives the empty points to the
    /// region floods, so that no move has to keep an empty set up to date.
    on_board: PointSet,
    /// Each colour's pieces as a bitboard.
    color_sets: [PointSet; 2],
    /// The kings of both colours (Excursion Go), so that reverting them all skips the stones.
    king_set: PointSet,
    /// Words of the bitboards this board's size needs.
    words: usize,
    /// How the floods run: on a register where the board fits one and the processor has the
    /// instructions, word by word elsewhere.
    flood: Flood,
    /// The Zobrist hash, kept up to date by every placement and removal while `hashing`.
    hash: u64,
    /// Whether `hash` is kept up to date; if not, [`Board::hash`] computes it when asked (see
    /// [`Board::defer_hash`]).
    hashing: bool,
}

impl Clone for Board {
    fn clone(&self) -> Self {
        let mut board = Board {
            slots: Vec::new(),
            liberties: Vec::new(),
            tallies: Vec::new(),
            empties: Vec::new(),
            ..*self
        };
        board.clone_from(self);
        board
    }

    /// A copy into this board's own lists, which keep their room: a search that copies a
    /// position at every move allocates nothing once its copies have grown.
    fn clone_from(&mut self, source: &Self) {
        let Board {
            geometry,
            slots,
            liberties,
            tallies,
            empties,
            on_board,
            color_sets,
            king_set,
            words,
            flood,
            hash,
            hashing,
        } = source;
        self.slots.clone_from(slots);
        self.liberties.clone_from(liberties);
        self.tallies.clone_from(tallies);
        self.empties.clone_from(empties);
        (self.geometry, self.on_board, self.color_sets, self.king_set) =
            (*geometry, *on_board, *color_sets, *king_set);
        (self.words, self.flood, self.hash, self.hashing) = (*words, *flood, *hash, *hashing);
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.geometry == other.geometry && self.slots.iter().zip(&other.slots).all(|(a, b)| a.cell == b.cell)
    }
}

impl Eq for Board {}

impl Board {
    /// An empty board.
    pub fn new(geometry: Geometry) -> Self {
        let mut board = Board {
            geometry,
            slots: vec![Slot { cell: BORDER, ..Slot::default() }; geometry.slots()],
            liberties: vec![0; geometry.slots()],
            tallies: vec![Tally::default(); geometry.slots()],
            empties: Vec::with_capacity(geometry.area()),
            on_board: PointSet::default(),
            color_sets: [PointSet::default(); 2],
            king_set: PointSet::default(),
            words: geometry.slots().div_ceil(64),
            flood: Flood::for_slots(geometry.slots()),
            hash: 0,
            hashing: true,
        };
        for p in geometry.points() {
            board.slots[p.index()].cell = EMPTY;
            board.on_board.insert(p);
            board.push_empty(p);
        }
        for p in geometry.points() {
            let counts = geometry.neighbours(p).iter().map(|&n| count_unit(board.cell(n))).sum();
            board.slot_mut(p).neighbour_counts = counts;
        }
        board
    }

    /// The board's shape.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The piece on a point, if any.
    pub fn piece(&self, p: Point) -> Option<Piece> {
        self.owns(p);
        let cell = self.slot(p).cell;
        let color = match cell & 3 {
            1 => Color::Black,
            2 => Color::White,
            _ => return None,
        };
        Some(Piece { color, king: cell & KING != 0 })
    }

    /// The colour of the piece on a point, if any.
    pub fn color(&self, p: Point) -> Option<Color> {
        self.piece(p).map(|piece| piece.color)
    }

    /// Zobrist hash of the pieces (kind included), nothing else.
    pub fn hash(&self) -> u64 {
        if self.hashing { self.hash } else { self.recomputed_hash() }
    }

    /// Stops keeping the hash up to date move by move and computes it when asked instead: for
    /// the games whose rules never read it while they are played (Go with the simple ko or none
    /// and without the own-position draw), whose playouts then skip a key per stone placed and
    /// removed.
    pub(crate) fn defer_hash(&mut self) {
        self.hashing = false;
    }

    /// Number of pieces of a colour on the board: counted from its bitboard when asked, which is
    /// far rarer than the placements and captures that would otherwise keep a count.
    pub fn stones(&self, c: Color) -> usize {
        self.color_sets[c as usize].0[..self.words].iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Appends to `out` a placement on every empty point that `legal` accepts, in point order
    /// (the order move lists, perft's divide and the search's children come in).
    pub(crate) fn placements(&self, out: &mut Vec<crate::Move>, legal: impl Fn(Point) -> bool) {
        let start = out.len();
        out.extend(self.empties.iter().copied().filter(|&p| legal(p)).map(crate::Move::Place));
        out[start..].sort_unstable_by_key(|m| match m {
            crate::Move::Place(p) => p.index(),
            crate::Move::Pass => usize::MAX,
        });
    }

    /// The empty points, in no particular order (the playouts draw from this list).
    pub fn empties(&self) -> &[Point] {
        &self.empties
    }

    /// The slot of `p`, without a bounds check.
    ///
    /// Invariant that makes it sound: every point the board handles internally is either checked
    /// by [`Self::owns`] at a public entry point, a neighbour or diagonal of such a point (the
    /// border rows and the extra end slot keep those inside the array), or an index the board
    /// stored itself (`head`, `next`, `empties`), which are always points of this board.
    #[inline(always)]
    fn slot(&self, p: Point) -> &Slot {
        debug_assert!(p.index() < self.slots.len());
        // SAFETY: see the invariant above.
        unsafe { self.slots.get_unchecked(p.index()) }
    }

    /// The slot of `p` for writing, without a bounds check (same invariant as [`Self::slot`]).
    #[inline(always)]
    fn slot_mut(&mut self, p: Point) -> &mut Slot {
        at_mut(&mut self.slots, p.index())
    }

    /// The tally of `p`, without a bounds check (same invariant as [`Self::slot`]).
    #[inline(always)]
    fn tally(&self, p: Point) -> &Tally {
        at(&self.tallies, p.index())
    }

    /// The tally of `p` for writing.
    #[inline(always)]
    fn tally_mut(&mut self, p: Point) -> &mut Tally {
        at_mut(&mut self.tallies, p.index())
    }

    /// The packed pseudo-liberties of the chain with this head (see [`Board::liberties`] the
    /// field), without a bounds check (same invariant as [`Self::slot`]).
    #[inline(always)]
    fn packed_liberties(&self, head: Point) -> u64 {
        *at(&self.liberties, head.index())
    }

    /// [`Self::packed_liberties`] for writing.
    #[inline(always)]
    fn packed_liberties_mut(&mut self, head: Point) -> &mut u64 {
        at_mut(&mut self.liberties, head.index())
    }

    /// Checks, cheaply, that `p` is a slot whose neighbours and diagonals lie inside the array:
    /// the guard of every public method that takes a point. A point of another board panics here
    /// rather than touching memory out of bounds.
    #[inline(always)]
    fn owns(&self, p: Point) {
        let stride = self.geometry.stride();
        assert!(
            p.index() > stride && p.index() + stride + 1 < self.slots.len(),
            "point {} is not on this {} board",
            p.index(),
            self.geometry
        );
    }

    #[inline(always)]
    pub(crate) fn cell(&self, p: Point) -> u8 {
        self.slot(p).cell
    }

    #[inline(always)]
    fn head(&self, p: Point) -> Point {
        Point(self.slot(p).head)
    }

    fn push_empty(&mut self, p: Point) {
        self.tally_mut(p).empty_index = self.empties.len() as u16;
        self.empties.push(p);
    }

    fn remove_empty(&mut self, p: Point) {
        let i = self.tally(p).empty_index as usize;
        let last = self.empties.pop().expect("point is listed as empty");
        if last != p {
            self.empties[i] = last;
            self.tally_mut(last).empty_index = i as u16;
        }
    }

    /// Exchanges two entries of the empty list (the playouts' sampling without replacement).
    #[inline(always)]
    pub(crate) fn swap_empties(&mut self, i: usize, j: usize) {
        self.empties.swap(i, j);
        let (a, b) = (self.empties[i], self.empties[j]);
        self.tally_mut(a).empty_index = i as u16;
        self.tally_mut(b).empty_index = j as u16;
    }

    /// Gives a chain one more pseudo-liberty (wrapping: the [`SCRATCH`] slot takes any number).
    #[inline(always)]
    fn add_liberty(&mut self, head: Point, lib: Point) {
        let packed = self.packed_liberties_mut(head);
        *packed = packed.wrapping_add(liberty_unit(lib));
    }

    /// Takes a pseudo-liberty from a chain (wrapping, like [`Self::add_liberty`]).
    #[inline(always)]
    fn remove_liberty(&mut self, head: Point, lib: Point) {
        let packed = self.packed_liberties_mut(head);
        *packed = packed.wrapping_sub(liberty_unit(lib));
    }

    /// The only liberty of the chain with this head, if it has exactly one.
    #[inline(always)]
    fn single_liberty(&self, head: Point) -> Option<Point> {
        sole_point(self.packed_liberties(head))
    }

    /// Whether `lib` is the one and only liberty of the chain with this head: every pseudo-liberty
    /// is `lib` exactly when their sum is `n * lib` and their sum of squares `n * lib * lib`
    /// (zero variance), that is when the packed word is `n` packed units of `lib`.
    #[inline(always)]
    pub(crate) fn only_liberty_is(&self, head: Point, lib: Point) -> bool {
        let packed = self.packed_liberties(head);
        // wrapping and without a branch: the preview also asks the scratch slot, and masks the answer
        packed == (packed >> LIBERTY_COUNT_SHIFT).wrapping_mul(liberty_unit(lib))
    }

    /// The head of the chain through the stone `p`: one identity per chain, for code that keeps
    /// something per group (Borderline's statuses).
    #[inline(always)]
    pub(crate) fn chain_head(&self, p: Point) -> Point {
        self.head(p)
    }

    /// Number of stones of the chain with this head.
    #[inline(always)]
    pub(crate) fn chain_size(&self, head: Point) -> u16 {
        self.tally(head).size
    }

    /// The only liberty of the chain through the stone `p`, if it has exactly one.
    #[inline(always)]
    pub(crate) fn sole_liberty(&self, p: Point) -> Option<Point> {
        self.single_liberty(self.head(p))
    }

    /// The chain through the piece on `p` (`None` for an empty point or one off the board), for
    /// the search's playout policy: one identity per chain, its size and its only liberty.
    #[inline(always)]
    pub fn chain_at(&self, p: Point) -> Option<ChainAt> {
        if self.slot_code(p) & 3 == EMPTY || self.slot_code(p) == BORDER {
            return None;
        }
        let head = self.head(p);
        Some(ChainAt { head, size: self.tally(head).size, sole_liberty: self.single_liberty(head) })
    }

    /// What stands on the slot `p`, the border around the board included: 0 an empty point, 1 a
    /// black piece, 2 a white one (kings alike), 3 off the board. The playout policy reads the
    /// 3x3 shape around a point with it, edge and all.
    #[inline(always)]
    pub fn slot_code(&self, p: Point) -> u8 {
        self.slots[p.index()].cell & 3
    }

    /// The colour whose pieces stand on every on-board neighbour of `p`, if one colour's do.
    #[inline(always)]
    pub(crate) fn enclosing_color(&self, p: Point) -> Option<Color> {
        let counts = self.slot(p).neighbour_counts;
        let border = count_of(counts, BORDER);
        [Color::Black, Color::White].into_iter().find(|&c| count_of(counts, code(c)) + border == 4)
    }

    /// The playouts' answers to the last placement `last`, for `mover`, in the order to try
    /// them: the point capturing the last move's chain if it stands in atari, then the only
    /// liberty of each of the mover's chains beside it that it put in atari, where that liberty
    /// has two empty neighbours (so that the escape is no self-atari at once). The mover's own
    /// eyes are left out.
    #[inline(always)]
    pub(crate) fn atari_answers(&self, last: Point, mover: Color) -> impl Iterator<Item = Point> + '_ {
        let capture = self.color(last).filter(|&c| c != mover).and_then(|_| self.sole_liberty(last));
        let saves = self.geometry().neighbours(last).into_iter().filter_map(move |n| {
            // the border's slots hold no stone: `cell` reads them, `color` would refuse them
            let own = self.cell(n) & 3 == code(mover);
            let liberty = own.then(|| self.sole_liberty(n))??;
            (self.empty_neighbours(liberty) >= 2).then_some(liberty)
        });
        capture.into_iter().chain(saves).filter(move |&p| !self.is_eye_of_board_point(p, mover))
    }

    /// How many empty points touch `p`.
    #[inline(always)]
    pub(crate) fn empty_neighbours(&self, p: Point) -> u16 {
        count_of(self.slot(p).neighbour_counts, EMPTY)
    }

    /// Whether an empty point of the board touches another one.
    #[inline(always)]
    pub(crate) fn has_empty_neighbour(&self, p: Point) -> bool {
        count_of(self.slot(p).neighbour_counts, EMPTY) > 0
    }

    /// Whether `p` lies on the first or last row or column.
    #[inline(always)]
    pub(crate) fn on_edge(&self, p: Point) -> bool {
        count_of(self.slot(p).neighbour_counts, BORDER) > 0
    }

    /// Whether the chain through `p` has exactly one liberty (for playout heuristics and tests).
    pub fn in_atari(&self, p: Point) -> bool {
        self.piece(p).is_some() && self.single_liberty(self.head(p)).is_some()
    }

    /// [`Self::in_atari`] for any slot, the border around the board included (false off the
    /// board and on an empty point), and without working out which point the liberty is: what
    /// the heavy playouts ask of every neighbour of a 3x3 pattern's centre. Without a branch on
    /// what stands there (one that missed its guess a third of the time, a tenth of the heavy
    /// playouts' mispredictions): the head of an empty or border slot is the scratch slot, whose
    /// liberties are read and masked out.
    #[inline(always)]
    pub fn stands_in_atari(&self, p: Point) -> bool {
        let stone = self.slot_code(p).wrapping_sub(1) < 2;
        stone & repeats_one_point(self.packed_liberties(self.head(p)))
    }

    /// The liberties a stone of `c` on the empty point `p` would have, counted to two (2 for two
    /// or more, or for a capture), and the size of the chain it would make (1 when it captures):
    /// the heavy playouts' self-atari test, asked of most of their random points. In constant
    /// time and without a branch on the neighbours' kinds, which random play cannot predict: the
    /// pseudo-liberties of the chain the stone would make are its empty neighbours' plus those
    /// of the friendly chains it joins, less `p` once for each friendly neighbour, and they
    /// number one point exactly when they all repeat it (see [`Self::only_liberty_is`]). Summed
    /// in one packed word, they cannot carry from field to field: they are the pseudo-liberties
    /// of one chain of the board after the move.
    pub fn liberties_after_placing(&self, p: Point, c: Color) -> (u8, u16) {
        self.owns(p);
        let (own, opp) = (code(c), code(c.opponent()));
        let (kinds, heads) = self.around(p);
        let only = heads.map(|h| self.only_liberty_is(h, p));
        let captures = (0..4).fold(false, |captures, i| captures | ((kinds[i] == opp) & only[i]));
        if captures {
            return (2, 1);
        }
        let joined = distinct_chains(heads, kinds.map(|k| k == own));
        let size = 1 + joined.heads().iter().map(|&h| self.tally(Point(h)).size).sum::<u16>();
        let neighbours = self.geometry.neighbours(p);
        let mut packed: u64 = joined.heads().iter().map(|&h| self.packed_liberties(Point(h))).sum();
        for (kind, n) in kinds.into_iter().zip(neighbours) {
            // an empty neighbour brings itself; a friendly one takes `p` from its chain
            packed += u64::from(kind == EMPTY) * liberty_unit(n);
            packed -= u64::from(kind == own) * liberty_unit(p);
        }
        let count = if packed == 0 {
            0
        } else if repeats_one_point(packed) {
            1
        } else {
            2
        };
        (count, size)
    }

    /// What placing a stone of `c` on the empty point `p` would capture, and whether it would be
    /// suicide (counting the captures). Built from locals only, so that it stays in registers.
    #[inline(always)]
    pub(crate) fn preview(&self, p: Point, c: Color) -> Preview {
        let counts = self.slot(p).neighbour_counts;
        if count_of(counts, EMPTY) > 0 && count_of(counts, code(c.opponent())) == 0 {
            // a liberty of its own and no opponent chain to capture
            return Preview {
                captured_groups: 0,
                captured_stones: 0,
                suicide: false,
                lone: count_of(counts, code(c)) == 0,
            };
        }
        // Without branches on the neighbours' kinds (random playouts cannot predict them): every
        // neighbour's head is asked, the scratch slot's answers masked out.
        let (own, opp) = (code(c), code(c.opponent()));
        let (kinds, heads) = self.around(p);
        let only = heads.map(|h| self.only_liberty_is(h, p));
        let (mut has_liberty, mut lone) = (false, true);
        for (kind, only) in kinds.into_iter().zip(only) {
            has_liberty |= (kind == EMPTY) | ((kind == own) & !only);
            lone &= kind != own;
        }
        let captured = distinct_chains(heads, std::array::from_fn(|i| (kinds[i] == opp) & only[i]));
        let captured_stones = captured.heads().iter().map(|&h| self.tally(Point(h)).size).sum();
        Preview {
            captured_groups: captured.count,
            captured_stones,
            suicide: !has_liberty && captured.count == 0,
            lone,
        }
    }

    /// The colour codes (0 empty, 1 black, 2 white, 3 border) and chain heads of the neighbours
    /// of `p`, in [`Geometry::neighbours`] order: what a placement's tests and updates read.
    #[inline(always)]
    fn around(&self, p: Point) -> ([u8; 4], [Point; 4]) {
        let neighbours = self.geometry.neighbours(p);
        (neighbours.map(|n| self.cell(n) & 3), neighbours.map(|n| self.head(n)))
    }

    /// Whether a stone of `c` on `p`, an empty point without empty neighbours, would have no
    /// liberty: no friendly neighbour chain has another one and no opponent chain has `p` as its
    /// last. The suicide test of the late playout, where most candidates are such points, without
    /// the preview's capture count. Out of line: inlined, its values stayed alive in the playouts'
    /// loop and were spilled to the stack (out of line: 1.5% fewer instructions a playout, 9% fewer
    /// mispredicted branches in Cachegrind's model).
    #[inline(never)]
    fn breathes_nowhere(&self, p: Point, c: Color) -> bool {
        let own = code(c);
        let unit = liberty_unit(p);
        let (slots, packed) = (&self.slots[..], &self.liberties[..]);
        let breathes = self.geometry.neighbour_indices(p).into_iter().fold(false, |breathes, n| {
            let slot = at(slots, n);
            let (kind, liberties) = (slot.cell & 3, *at(packed, slot.head as usize));
            // every pseudo-liberty of the chain is `p` (see `only_liberty_is`); for the border,
            // whose head is the scratch slot, a meaningless answer that the kind masks
            let only = liberties == (liberties >> LIBERTY_COUNT_SHIFT).wrapping_mul(unit);
            // a friendly chain with another liberty, or an opponent chain taken by the stone
            breathes | ((kind != BORDER) & ((kind == own) != only))
        });
        !breathes
    }

    /// The board hash after placing a stone of `c` on `p`, given its preview; `suicide_removes`
    /// says whether a suicide takes the mover's group off (variants that allow suicide).
    pub(crate) fn hash_after(&self, p: Point, c: Color, preview: &Preview, suicide_removes: bool) -> u64 {
        let mut hash = self.hash ^ piece_key(p.index(), code(c));
        let removes_own = preview.suicide && suicide_removes;
        if preview.captured_groups == 0 && !removes_own {
            // nothing comes off: most placements, for which the scan below was a tenth of a light
            // search's time under superko
            return hash;
        }
        if removes_own {
            hash ^= piece_key(p.index(), code(c));
        }
        let (kinds, heads) = self.around(p);
        let removed = std::array::from_fn(|i| match kinds[i] {
            EMPTY | BORDER => false,
            kind if kind == code(c) => removes_own,
            _ => self.only_liberty_is(heads[i], p),
        });
        distinct_chains(heads, removed).heads().iter().fold(hash, |hash, &h| hash ^ self.chain_key(Point(h)))
    }

    /// The xor of the keys of a chain's stones.
    fn chain_key(&self, head: Point) -> u64 {
        self.chain_stones(head).fold(0, |key, s| key ^ piece_key(s.index(), self.cell(s)))
    }

    /// The stones of the chain through `p` (nothing if `p` is empty).
    pub fn chain(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let stone = self.piece(p).is_some();
        self.chain_stones(p).take(if stone { usize::MAX } else { 0 })
    }

    /// The stones of the chain through the stone `p`.
    pub(crate) fn chain_stones(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let start = p;
        let mut current = Some(p);
        std::iter::from_fn(move || {
            let s = current?;
            let next = Point(self.slot(s).next);
            current = (next != start).then_some(next);
            Some(s)
        })
    }

    /// Places a stone of `c` on the empty point `p`, removes the opponent chains left without
    /// liberties, then the mover's own chain if it has none (callers refuse suicide beforehand
    /// where the variant forbids it).
    pub fn place(&mut self, p: Point, c: Color) -> Placement {
        self.place_piece(p, Piece::stone(c))
    }

    /// Like [`Self::place`] for a piece of either kind; a king turns the friendly chain it joins
    /// into kings before anything is removed (Excursion Go).
    pub fn place_piece(&mut self, p: Point, piece: Piece) -> Placement {
        self.owns(p);
        assert_eq!(self.cell(p), EMPTY, "place on an occupied point");
        self.place_on_empty(p, piece)
    }

    /// Places a piece on a point the rules judged (see [`JudgedPoint`]) without the guards of
    /// [`Self::place_piece`]: the playouts' step.
    #[inline(always)]
    pub(crate) fn place_judged(&mut self, p: JudgedPoint, piece: Piece) -> Placement {
        self.place_on_empty(p.0, piece)
    }

    /// [`Self::place_piece`] after its guards.
    #[inline(always)]
    fn place_on_empty(&mut self, p: Point, piece: Piece) -> Placement {
        debug_assert!(self.cell(p) == EMPTY);
        if piece.king {
            // crown the friendly chains the king will join (chains already all kings are skipped)
            for n in self.geometry.neighbours(p) {
                if self.cell(n) & 3 == code(piece.color) {
                    let head = self.head(n);
                    if self.tally(head).kings < self.tally(head).size {
                        self.set_chain_kind(head, true);
                    }
                }
            }
        }
        let dead = self.put(p, piece.cell());
        let mut placement = Placement { captured_groups: dead.count, ..Placement::default() };
        for &h in dead.heads() {
            placement.captured_stones += self.remove_chain(Point(h));
        }
        let own = self.head(p);
        if self.packed_liberties(own) == 0 {
            placement.suicided_stones = self.remove_chain(own);
        }
        placement
    }

    /// Puts a piece with cell code `cell` on the empty point `p`, joining friendly chains and
    /// taking liberties from every neighbour chain; removes nothing, but returns the opponent
    /// chains left without liberties.
    #[inline(always)]
    pub(crate) fn put(&mut self, p: Point, cell: u8) -> ChainsAround {
        self.remove_empty(p);
        let color = cell & 3;
        let pi = p.index();
        let neighbours = self.geometry.neighbour_indices(p);
        let unit = liberty_unit(p);
        let delta = count_unit(color).wrapping_sub(count_unit(EMPTY));
        // the slots through local slices, whose bases stay in registers across the stores
        let (slots, packed) = (&mut self.slots[..], &mut self.liberties[..]);
        // read once: placing the stone changes no neighbour's kind, and merging friendly chains
        // changes no opponent chain's head
        let kinds = neighbours.map(|n| at(slots, n).cell & 3);
        let heads = neighbours.map(|n| at(slots, n).head);
        // Without branches on the neighbours' kinds: the stone's pseudo-liberties are its empty
        // neighbours (the unit of slot 0, never a liberty, is 0), and every neighbour's head loses
        // `p` (the scratch slot for non-stones).
        let mut liberties = 0;
        for (n, kind) in neighbours.into_iter().zip(kinds) {
            liberties += liberty_unit(Point((n & 0usize.wrapping_sub((kind == EMPTY) as usize)) as u16));
            let counts = &mut at_mut(slots, n).neighbour_counts;
            *counts = counts.wrapping_add(delta);
        }
        for h in heads {
            let chain = at_mut(packed, h as usize);
            *chain = chain.wrapping_sub(unit);
        }
        *at_mut(packed, pi) = liberties;
        let slot = at_mut(slots, pi);
        (slot.cell, slot.next, slot.head) = (cell, p.0, p.0);
        let counts = slot.neighbour_counts;
        let tally = at_mut(&mut self.tallies, pi);
        (tally.size, tally.kings) = (1, (cell & KING != 0) as u16);
        if self.hashing {
            self.hash ^= piece_key(pi, cell);
        }
        self.color_sets[(color == 2) as usize].insert(p);
        if cell & KING != 0 {
            self.king_set.insert(p);
        }
        let heads = heads.map(Point);
        if count_of(counts, color) > 0 {
            for &h in distinct_chains(heads, kinds.map(|kind| kind == color)).heads() {
                self.merge(self.head(p), Point(h));
            }
        }
        // the opponent chains left without liberties, asked of every neighbour without a branch:
        // the rare capture is then the only branch, and one the processor predicts
        let packed = &self.liberties[..];
        let dead = std::array::from_fn(|i| (kinds[i] == 3 - color) & (*at(packed, heads[i].index()) == 0));
        if dead[0] | dead[1] | dead[2] | dead[3] {
            distinct_chains(heads, dead)
        } else {
            ChainsAround::default()
        }
    }

    /// Makes `head` the head of every stone on the ring through `start`.
    fn set_head_of_ring(&mut self, start: Point, head: Point) {
        let mut s = start;
        loop {
            self.slot_mut(s).head = head.0;
            s = Point(self.slot(s).next);
            if s == start {
                break;
            }
        }
    }

    /// Joins two chains; the larger keeps its head.
    fn merge(&mut self, a: Point, b: Point) {
        let (big, small) = if self.tally(a).size >= self.tally(b).size { (a, b) } else { (b, a) };
        self.set_head_of_ring(small, big);
        let small_tally = *self.tally(small);
        let big_tally = self.tally_mut(big);
        big_tally.size += small_tally.size;
        big_tally.kings += small_tally.kings;
        let small_liberties = self.packed_liberties(small);
        *self.packed_liberties_mut(big) += small_liberties;
        let (big_next, small_next) = (self.slot(big).next, self.slot(small).next);
        self.slot_mut(big).next = small_next;
        self.slot_mut(small).next = big_next;
    }

    /// Takes a whole chain off the board, giving its points back as liberties to the chains
    /// around it; returns the number of stones removed.
    pub(crate) fn remove_chain(&mut self, head: Point) -> u16 {
        let mut removed = 0;
        let mut s = head;
        loop {
            let next = Point(self.slot(s).next);
            self.take(s);
            removed += 1;
            let unit = liberty_unit(s);
            let (slots, packed) = (&self.slots[..], &mut self.liberties[..]);
            for n in self.geometry.neighbour_indices(s) {
                // every other chain gets the point back; the dying chain's stones and the points
                // without a chain give it to the scratch slot, chosen without a branch
                let h = at(slots, n).head;
                let chain = at_mut(packed, if h == head.0 { SCRATCH } else { h } as usize);
                *chain = chain.wrapping_add(unit);
            }
            s = next;
            if s == head {
                break;
            }
        }
        removed
    }

    /// Takes the piece on `p` off the board without any capture (Galice's swaps move stones from
    /// board to board): its neighbours get the point back as a liberty and its chain re-forms
    /// without it, in pieces if the stone held them together.
    pub(crate) fn lift(&mut self, p: Point) {
        self.owns(p);
        let cell = self.cell(p);
        assert!(cell != EMPTY && cell != BORDER, "lift from an empty point");
        let mut head = self.head(p);
        if self.tally(head).size == 1 {
            self.remove_chain(head);
            return;
        }
        if count_of(self.slot(p).neighbour_counts, cell & 3) >= 2 {
            // the stone may hold its chain together: the chains through its friendly neighbours
            // are re-formed from their stones, then its enemy neighbours get the point back
            self.take(p);
            let mut seen = PointSet::default();
            for n in self.geometry.neighbours(p) {
                if self.cell(n) & 3 == cell & 3 && !seen.contains(n) {
                    self.reform_chain(n, &mut seen);
                }
            }
            for n in self.geometry.neighbours(p) {
                let other = self.cell(n) & 3;
                if other != EMPTY && other != BORDER && other != cell & 3 {
                    self.add_liberty(self.head(n), p);
                }
            }
            return;
        }
        // a stone with one friendly neighbour is a leaf of its chain: unlink it from the ring
        let mut before = p;
        while self.slot(before).next != p.0 {
            before = Point(self.slot(before).next);
        }
        let after = self.slot(p).next;
        self.slot_mut(before).next = after;
        if head == p {
            // the chain's bookkeeping moves to the next stone, which becomes every stone's head
            let (old, old_liberties) = (*self.tally(p), self.packed_liberties(p));
            head = Point(after);
            let new = self.tally_mut(head);
            (new.size, new.kings) = (old.size, old.kings);
            *self.packed_liberties_mut(head) = old_liberties;
            self.set_head_of_ring(head, head);
        }
        let chain = self.tally_mut(head);
        chain.size -= 1;
        chain.kings -= (cell & KING != 0) as u16;
        for n in self.geometry.neighbours(p) {
            if self.cell(n) == EMPTY {
                self.remove_liberty(head, n);
            }
        }
        self.take(p);
        for n in self.geometry.neighbours(p) {
            let other = self.cell(n);
            if other != EMPTY && other != BORDER {
                self.add_liberty(self.head(n), p);
            }
        }
    }

    /// Re-forms the chain through the stone `start` from its stones, marking them in `seen`: a
    /// breadth-first walk whose queue is the chain's new ring itself, recounting the head's size,
    /// kings and pseudo-liberties on the way.
    fn reform_chain(&mut self, start: Point, seen: &mut PointSet) {
        let color = self.cell(start) & 3;
        self.slot_mut(start).next = start.0;
        let head = self.tally_mut(start);
        (head.size, head.kings) = (0, 0);
        *self.packed_liberties_mut(start) = 0;
        seen.insert(start);
        let (mut current, mut last) = (start, start);
        loop {
            let king = self.cell(current) & KING != 0;
            let chain = self.tally_mut(start);
            chain.size += 1;
            chain.kings += king as u16;
            self.slot_mut(current).head = start.0;
            for n in self.geometry.neighbours(current) {
                let other = self.cell(n);
                if other == EMPTY {
                    self.add_liberty(start, n);
                } else if other & 3 == color && !seen.contains(n) {
                    seen.insert(n);
                    self.slot_mut(last).next = n.0;
                    self.slot_mut(n).next = start.0;
                    last = n;
                }
            }
            current = Point(self.slot(current).next);
            if current == start {
                break;
            }
        }
    }

    /// Empties one point (its chain's bookkeeping is the caller's business).
    fn take(&mut self, p: Point) {
        let slots = &mut self.slots[..];
        let cell = at(slots, p.index()).cell;
        let delta = count_unit(EMPTY).wrapping_sub(count_unit(cell & 3));
        for n in self.geometry.neighbour_indices(p) {
            let counts = &mut at_mut(slots, n).neighbour_counts;
            *counts = counts.wrapping_add(delta);
        }
        let slot = at_mut(slots, p.index());
        (slot.cell, slot.head) = (EMPTY, SCRATCH);
        self.tally_mut(p).empty_index = self.empties.len() as u16;
        self.empties.push(p);
        if self.hashing {
            self.hash ^= piece_key(p.index(), cell);
        }
        self.color_sets[(cell & 3 == 2) as usize].remove(p);
        if cell & KING != 0 {
            self.king_set.remove(p);
        }
    }

    /// Turns every piece of the chain through `p` into a king (or back into a stone).
    pub(crate) fn set_chain_kind(&mut self, p: Point, king: bool) {
        let head = self.head(p);
        let mut s = head;
        loop {
            self.set_kind(s, king);
            s = Point(self.slot(s).next);
            if s == head {
                break;
            }
        }
    }

    /// Makes the piece on `p` a king or a stone, keeping the hash and the king set right.
    fn set_kind(&mut self, p: Point, king: bool) {
        let old = self.cell(p);
        let new = if king { old | KING } else { old & !KING };
        if old == new {
            return;
        }
        if self.hashing {
            self.hash ^= piece_key(p.index(), old) ^ piece_key(p.index(), new);
        }
        self.slot_mut(p).cell = new;
        let head = self.head(p);
        let kings = &mut self.tally_mut(head).kings;
        *kings = if king { *kings + 1 } else { *kings - 1 };
        if king {
            self.king_set.insert(p);
        } else {
            self.king_set.remove(p);
        }
    }

    /// Turns every king on the board, of both colours, back into a stone (Excursion Go 1).
    pub(crate) fn revert_kings(&mut self) {
        let kings = self.king_set;
        for p in kings.iter(self.words) {
            self.set_kind(p, false);
        }
    }

    /// Whether any king stands on the board.
    pub fn has_kings(&self) -> bool {
        self.king_set.0[..self.words].iter().any(|&w| w != 0)
    }

    /// Whether a king of `c` stands next to `p`.
    pub(crate) fn next_to_king(&self, p: Point, c: Color) -> bool {
        self.geometry.neighbours(p).into_iter().any(|n| self.cell(n) == code(c) | KING)
    }

    /// Whether placing a piece of `c` on `p` would capture a chain holding a king.
    pub(crate) fn captures_king(&self, p: Point, c: Color) -> bool {
        self.geometry.neighbours(p).into_iter().any(|n| {
            self.cell(n) & 3 == code(c.opponent())
                && self.only_liberty_is(self.head(n), p)
                && self.tally(self.head(n)).kings > 0
        })
    }

    /// Sets a point to a piece or to empty without any capture: for setting up positions (SGF
    /// `AB`/`AW`/`AE`, diagrams). Chains are rebuilt, so groups without liberties may remain,
    /// exactly as the setup says.
    pub fn set(&mut self, p: Point, piece: Option<Piece>) {
        self.owns(p);
        // rebuilt in point order, so that the board (its empty list included) does not depend on
        // the order of the calls that set it up
        let cells: Vec<(Point, u8)> = self
            .geometry
            .points()
            .filter_map(|q| {
                let cell = if q == p { piece.map(Piece::cell) } else { self.piece(q).map(Piece::cell) };
                cell.map(|cell| (q, cell))
            })
            .collect();
        *self = Board::new(self.geometry);
        for (q, cell) in cells {
            self.put(q, cell);
        }
    }

    /// Whether `p` is an empty point that only `c`'s pieces (or the edge) surround and that is
    /// not a false eye by the diagonal rule: the light playouts never fill such a point.
    #[inline(always)]
    pub fn is_eye(&self, p: Point, c: Color) -> bool {
        self.owns(p);
        self.is_eye_of_board_point(p, c)
    }

    /// [`Self::is_eye`] for a point known to be on this board (one from [`Self::empties`]): the
    /// playouts test every candidate, so the guard is left out.
    #[inline(always)]
    pub(crate) fn is_eye_of_board_point(&self, p: Point, c: Color) -> bool {
        // every neighbour own or border: no empty and no opponent neighbour
        let others = [0x0F0F, 0x00FF][c as usize];
        if self.slot(p).neighbour_counts & others != 0 {
            return false;
        }
        // Not a false eye: at most one opponent diagonal, none on the edge. Weighing an opponent
        // diagonal 3 and a border one 1, that is a weight of at most 3 (the edge has two border
        // diagonals, a corner three), or 4 on a board one point wide (four border diagonals, no
        // other way to weigh 4).
        let weights: u32 = [0b01_11_00_00, 0b01_00_11_00][c as usize];
        let slots = &self.slots[..];
        let weight = self
            .geometry
            .diagonal_indices(p)
            .into_iter()
            .fold(0, |sum, d| sum + ((weights >> (2 * (at(slots, d).cell & 3))) & 3));
        weight <= 4
    }

    /// The empty region around the empty point `p`: its owner and shape. With `stop_at`, the scan
    /// stops at the first piece of that colour on the border (the answer is then `Both` or a
    /// cut-short `Only`, whichever was seen) so that "is this the opponent's territory?" is cheap
    /// when the answer is no.
    pub fn region(&self, p: Point, stop_at: Option<Color>) -> Region {
        self.owns(p);
        self.region_of_board_point::<true>(p, stop_at)
    }

    /// [`Self::region`] without the guard, for a point the rules already hold, the shape worked
    /// out only under `SHAPE` (else `line_shaped` is false: only `incursion-line` asks, and the
    /// shape costs as much as a short flood). Kept out of line: the quick tests that call it sit in
    /// the playouts' loop, the flood itself is rarer.
    #[inline(never)]
    fn region_of_board_point<const SHAPE: bool>(&self, p: Point, stop_at: Option<Color>) -> Region {
        #[cfg(target_arch = "x86_64")]
        if self.flood != Flood::Words {
            return match self.flood_in_register::<SHAPE>(p, stop_at) {
                Some(flooded) => {
                    Region { owner: owner_of(flooded.touches), line_shaped: flooded.line_shaped }
                }
                None => Region { owner: RegionOwner::Both, line_shaped: false },
            };
        }
        // 13x13's and 19x19's strides as constants: shifts by a variable amount all want the one
        // register that holds it, and the flood's words then no longer fit in the others
        match (self.words, self.geometry.stride()) {
            (0..=2, _) => self.region_in_two_words::<SHAPE>(p, stop_at),
            (3..=4, 14) => self.region_in::<4, SHAPE>(p, stop_at, 14),
            (3..=4, stride) => self.region_in::<4, SHAPE>(p, stop_at, stride),
            (5..=7, 20) => self.region_in::<7, SHAPE>(p, stop_at, 20),
            (5..=7, stride) => self.region_in::<7, SHAPE>(p, stop_at, stride),
            (_, stride) => self.region_in::<{ crate::bits::WORDS }, SHAPE>(p, stop_at, stride),
        }
    }

    /// How many of the connected sets of points inside `within` that hold no piece of `color`
    /// are closed: none of their points is next to a point of the board outside `within` (the
    /// board's edge closes them). Counted up to `enough`. These are Benson's enclosed regions of
    /// `color` within part of the board; a search that asks this of nearly every position it
    /// makes gets it by bitboard floods, a few word operations per step of a region's radius.
    /// With `touching`, only the regions each of whose empty points is next to a piece of
    /// `color` count: the only ones Benson's test can find vital to a chain.
    pub fn closed_regions(&self, color: Color, within: &PointMask, touching: bool, enough: usize) -> usize {
        match self.words {
            0..=2 => self.closed_regions_in::<2>(color, within, touching, enough),
            3..=4 => self.closed_regions_in::<4>(color, within, touching, enough),
            5..=7 => self.closed_regions_in::<7>(color, within, touching, enough),
            _ => self.closed_regions_in::<{ crate::bits::WORDS }>(color, within, touching, enough),
        }
    }

    /// [`Self::closed_regions`] on bitboards of `N` words (at least the board's).
    fn closed_regions_in<const N: usize>(
        &self,
        color: Color,
        within: &PointMask,
        touching: bool,
        enough: usize,
    ) -> usize {
        let stride = self.geometry.stride();
        let mut closed = self.closed_part::<N>(color, within);
        // the empty points no piece of `color` touches: a region holding one is no vital region
        let other = self.color_sets[color.opponent() as usize].words::<N>();
        let next_to_own = self.color_sets[color as usize].words::<N>().dilated(stride);
        let untouched = closed.without(&other).without(&next_to_own);
        let mut count = 0;
        while count < enough {
            let Some(first) = closed.first() else { break };
            let region = Bits::single(first).filled_within(&closed, stride);
            closed = closed.without(&region);
            count += usize::from(!touching || !region.intersects(&untouched));
        }
        count
    }

    /// The points of `within` that hold no piece of `color` and lie in its closed regions (none
    /// of whose points is next to a point of the board outside `within`), on bitboards of `N`
    /// words: what [`Self::closed_regions`] counts and Benson's test reads.
    #[inline(always)]
    fn closed_part<const N: usize>(&self, color: Color, within: &PointMask) -> Bits<N> {
        let stride = self.geometry.stride();
        let (on_board, inside) = (self.on_board.words::<N>(), within.0.words::<N>());
        let candidates = inside.and(&on_board).without(&self.color_sets[color as usize].words::<N>());
        let outside = on_board.without(&inside);
        let open = outside.dilated(stride).and(&candidates).filled_within(&candidates, stride);
        candidates.without(&open)
    }

    /// [`Self::region`] on bitboards of `N` words (at least the board's).
    #[inline(always)]
    fn region_in<const N: usize, const SHAPE: bool>(
        &self,
        p: Point,
        stop_at: Option<Color>,
        stride: usize,
    ) -> Region {
        let (on_board, black, white) =
            (self.on_board.words::<N>(), self.color_sets[0].words::<N>(), self.color_sets[1].words::<N>());
        let empty = Bits(std::array::from_fn(|i| on_board.0[i] & !(black.0[i] | white.0[i])));
        let stop = stop_at.map(|c| self.color_sets[c as usize].words::<N>());
        let mut region = Bits::<N>::single(p);
        // Two steps between tests: the second step's border holds the first's, so a stone met
        // one step early is still met, and the region, which only grows (it holds empty points
        // only), stopped growing when two steps add nothing (at worst one double step late).
        loop {
            let grown = region.dilated(stride).and(&empty).dilated(stride);
            if stop.is_some_and(|stop| grown.intersects(&stop)) {
                return Region { owner: RegionOwner::Both, line_shaped: false };
            }
            let next = grown.and(&empty);
            if !next.has_outside(&region) {
                // the region is whole, so `grown` is the region and its neighbours
                return self.region_around::<N, SHAPE>(region, grown, stride);
            }
            region = next;
        }
    }

    /// [`Self::region_in`] on boards of at most two bitboard words (9x9 and smaller), the flood on a
    /// `u128`: its shifts across the two words are the processor's double-word shifts, where the
    /// two-word [`Bits`] spent about 60 instructions a step moving words between registers.
    #[inline(always)]
    fn region_in_two_words<const SHAPE: bool>(&self, p: Point, stop_at: Option<Color>) -> Region {
        // below 64 (a row is at most 26 slots): said so, the shifts need no test of the amount
        let stride = self.geometry.stride() & 63;
        let wide = |set: &PointSet| set.0[0] as u128 | (set.0[1] as u128) << 64;
        let empty = wide(&self.on_board) & !(wide(&self.color_sets[0]) | wide(&self.color_sets[1]));
        let stop = stop_at.map_or(0, |c| wide(&self.color_sets[c as usize]));
        let mut region = 1u128 << p.index();
        loop {
            let grown = region | region << 1 | region >> 1 | region << stride | region >> stride;
            if grown & stop != 0 {
                return Region { owner: RegionOwner::Both, line_shaped: false };
            }
            let next = grown & empty;
            if next == region {
                let narrow = |set: u128| Bits([set as u64, (set >> 64) as u64]);
                return self.region_around::<2, SHAPE>(narrow(region), narrow(grown), stride);
            }
            region = next;
        }
    }

    /// The owner of a whole empty region, from the region and its neighbours (the flood's last
    /// step), and its shape under `SHAPE`.
    #[inline(always)]
    fn region_around<const N: usize, const SHAPE: bool>(
        &self,
        region: Bits<N>,
        border: Bits<N>,
        stride: usize,
    ) -> Region {
        let touches = |c: Color| border.intersects(&self.color_sets[c as usize].words::<N>());
        Self::region_bordered::<N, SHAPE>(region, [touches(Color::Black), touches(Color::White)], stride)
    }

    /// A whole empty region whose border touches the colours `touches` says (Black's, White's),
    /// with its shape under `SHAPE`.
    #[inline(always)]
    fn region_bordered<const N: usize, const SHAPE: bool>(
        region: Bits<N>,
        touches: [bool; 2],
        stride: usize,
    ) -> Region {
        Region { owner: owner_of(touches), line_shaped: SHAPE && region.is_line_shaped(stride) }
    }

    /// Whether placing on the empty point `p` is placing in territory of `owner`: cheap answers
    /// first (a neighbour of another colour, or a one-point region), a flood fill otherwise.
    pub fn in_territory_of(&self, p: Point, owner: Color) -> Option<Region> {
        self.owns(p);
        self.territory_at_board_point::<true>(p, owner)
    }

    /// [`Self::in_territory_of`] without the guard, for a point the rules already hold (the
    /// incursion and king tests run on every candidate of a playout), the shape worked out only
    /// under `SHAPE` (else `line_shaped` is false). The cheap answers come from the neighbour
    /// counts, without a branch per neighbour.
    #[inline(always)]
    pub(crate) fn territory_at_board_point<const SHAPE: bool>(
        &self,
        p: Point,
        owner: Color,
    ) -> Option<Region> {
        let counts = self.slot(p).neighbour_counts;
        if count_of(counts, code(owner.opponent())) > 0 {
            return None;
        }
        if count_of(counts, EMPTY) == 0 {
            let enclosed = count_of(counts, code(owner)) > 0;
            return enclosed.then_some(Region { owner: RegionOwner::Only(owner), line_shaped: true });
        }
        // an empty neighbour next to a stone of the other colour puts one on the region's border:
        // the flood's second step, answered from four neighbour counts (a register flood's first
        // steps cost less than these reads)
        if self.flood == Flood::Words {
            let other = code(owner.opponent());
            let touched = self.geometry.neighbours(p).into_iter().fold(false, |touched, n| {
                let counts = self.slot(n).neighbour_counts;
                touched | ((self.cell(n) == EMPTY) & (count_of(counts, other) > 0))
            });
            if touched || (self.words > 2 && self.touches_within_three_steps(p, other)) {
                return None;
            }
        }
        // a register flood straight from here, with the shape worked out in the register: going
        // through `region_of_board_point` cost a call and the region's words handed back through
        // memory (3-5% of Incursion's playouts). It floods the whole board on a playout's first
        // two moves, which costs less than asking on every move whether the mover has a stone.
        #[cfg(target_arch = "x86_64")]
        if self.flood != Flood::Words {
            let flooded = self.flood_in_register::<SHAPE>(p, Some(owner.opponent()));
            // a flood that met no stone of the mover: the region is the owner's, or nobody's
            return flooded
                .filter(|flooded| flooded.touches[owner as usize])
                .map(|flooded| Region { owner: RegionOwner::Only(owner), line_shaped: flooded.line_shaped });
        }
        if !SHAPE && !self.has_stones(owner.opponent()) {
            // no region touches a stone of the mover: p's is the owner's if any stone stands (a
            // playout's first two moves, whose floods would cover the whole board)
            let enclosed = self.has_stones(owner);
            return enclosed.then_some(Region { owner: RegionOwner::Only(owner), line_shaped: false });
        }
        let region = self.region_of_board_point::<SHAPE>(p, Some(owner.opponent()));
        (region.owner == RegionOwner::Only(owner)).then_some(region)
    }

    /// The flood of a board whose floods run on a register ([`registers`]): whether a stone of
    /// each colour borders the empty region around `p` and, under `SHAPE`, whether the region
    /// is line-shaped; or `None` as soon as the flood touches a stone of `stop_at`.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn flood_in_register<const SHAPE: bool>(
        &self,
        p: Point,
        stop_at: Option<Color>,
    ) -> Option<registers::Flooded> {
        let (sets, stop, stride) = (&self.color_sets, stop_at.map(|c| c as usize), self.geometry.stride());
        // SAFETY: `Flood::for_slots` picks a register flood only where the processor has its
        // instructions and the board fits the register (so `p` does too)
        unsafe { registers::flood_on::<SHAPE>(self.flood, &self.on_board, sets, stop, p.index(), stride) }
    }

    /// Whether a piece of colour `c` stands anywhere.
    #[inline(always)]
    fn has_stones(&self, c: Color) -> bool {
        self.color_sets[c as usize].0[..self.words].iter().any(|&w| w != 0)
    }

    /// Whether an empty point two steps from `p` through an empty neighbour touches a stone of
    /// colour code `other`: the flood's third step, from sixteen neighbour counts. Worth it on
    /// boards of more than two bitboard words, where a flood step costs more; most floods there
    /// stop at that step.
    #[inline(always)]
    fn touches_within_three_steps(&self, p: Point, other: u8) -> bool {
        self.geometry.neighbours(p).into_iter().fold(false, |touched, n| {
            // from a neighbour that is not empty, p's own ring is checked again: harmless, and
            // never a step off the board
            let from = if self.cell(n) == EMPTY { n } else { p };
            self.geometry.neighbours(from).into_iter().fold(touched, |touched, m| {
                touched | ((self.cell(m) == EMPTY) & (count_of(self.slot(m).neighbour_counts, other) > 0))
            })
        })
    }

    /// Number of distinct liberties of the chain through `p`, counted the slow, obvious way (for
    /// tests and rare callers).
    pub fn liberties(&self, p: Point) -> usize {
        let mut libs: Vec<Point> = self
            .chain(p)
            .flat_map(|s| self.geometry.neighbours(s))
            .filter(|&n| self.cell(n) == EMPTY)
            .collect();
        libs.sort_unstable();
        libs.dedup();
        libs.len()
    }

    /// The hash computed from scratch (tests compare it with the incremental one).
    pub fn recomputed_hash(&self) -> u64 {
        self.geometry
            .points()
            .filter(|&p| self.cell(p) != EMPTY)
            .fold(0, |h, p| h ^ piece_key(p.index(), self.cell(p)))
    }
}

/// Why a diagram could not be read as a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    /// A row with another number of points than the first.
    #[error("diagram row {row} has {found} points, expected {expected}")]
    RaggedRow {
        /// Row number, 1 = top.
        row: usize,
        /// Points found.
        found: usize,
        /// Points in the first row.
        expected: usize,
    },
    /// The diagram's size is not a board size.
    #[error(transparent)]
    Size(#[from] crate::geometry::GeometryError),
}

impl Board {
    /// Reads a diagram, one string per row from the top: `X`/`x` black stone, `O`/`o` white stone,
    /// `K` black king, `k` white king, `.` or `+` empty; spaces and row numbers are ignored.
    pub fn from_diagram(rows: &[&str]) -> Result<Board, DiagramError> {
        let parsed: Vec<Vec<Option<Piece>>> = rows
            .iter()
            .map(|row| {
                row.chars()
                    .filter_map(|ch| match ch {
                        'X' | 'x' => Some(Some(Piece::stone(Color::Black))),
                        'O' | 'o' => Some(Some(Piece::stone(Color::White))),
                        'K' => Some(Some(Piece { color: Color::Black, king: true })),
                        'k' => Some(Some(Piece { color: Color::White, king: true })),
                        '.' | '+' => Some(None),
                        _ => None,
                    })
                    .collect()
            })
            .collect();
        let width = parsed.first().map_or(0, Vec::len);
        for (i, row) in parsed.iter().enumerate() {
            if row.len() != width {
                return Err(DiagramError::RaggedRow { row: i + 1, found: row.len(), expected: width });
            }
        }
        let geometry = Geometry::new(width as u32, parsed.len() as u32)?;
        let pieces = parsed.iter().enumerate().flat_map(|(y, row)| {
            row.iter().enumerate().filter_map(move |(x, piece)| {
                Some((geometry.point(x as u8, y as u8).expect("inside the diagram"), (*piece)?))
            })
        });
        Ok(Board::from_pieces(geometry, pieces))
    }

    /// A board holding exactly these pieces (no captures, like [`Board::set`]): how the lab
    /// rebuilds a position from a packed state. Each point is given at most once.
    pub fn from_pieces(geometry: Geometry, pieces: impl IntoIterator<Item = (Point, Piece)>) -> Board {
        let mut board = Board::new(geometry);
        for (p, piece) in pieces {
            board.owns(p);
            assert!(board.cell(p) == EMPTY, "point {} given twice", geometry.vertex(p));
            board.put(p, piece.cell());
        }
        board
    }

    /// The character a point shows in diagrams: `X` `O` stones, `K` `k` kings, `.` empty.
    pub fn symbol(&self, p: Point) -> char {
        match self.piece(p) {
            None => '.',
            Some(Piece { color: Color::Black, king: false }) => 'X',
            Some(Piece { color: Color::White, king: false }) => 'O',
            Some(Piece { color: Color::Black, king: true }) => 'K',
            Some(Piece { color: Color::White, king: true }) => 'k',
        }
    }
}

impl Board {
    /// The board as a diagram with GTP coordinates and row numbers on both sides, the piece on
    /// `marked` (a last move) bracketed like `(X)` in place of the spaces around it.
    pub fn diagram(&self, marked: Option<Point>) -> String {
        let g = self.geometry;
        let letters: String = (0..g.width())
            .map(|x| {
                format!(
                    " {}",
                    g.vertex(g.point(x, 0).expect("on board")).to_string().chars().next().unwrap_or('?')
                )
            })
            .collect();
        let mut out = format!("   {letters}\n");
        for y in 0..g.height() {
            let row = g.height() - y;
            out += &format!("{row:>2} ");
            let mut after_mark = false;
            for x in 0..g.width() {
                let p = g.point(x, y).expect("on board");
                let gap = if marked == Some(p) {
                    '('
                } else if after_mark {
                    ')'
                } else {
                    ' '
                };
                out.push(gap);
                out.push(self.symbol(p));
                after_mark = marked == Some(p);
            }
            out += &format!("{} {row}\n", if after_mark { ')' } else { ' ' });
        }
        out + &format!("   {letters}\n")
    }
}

impl std::fmt::Display for Board {
    /// The board as a diagram with GTP coordinates, row numbers on both sides.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.diagram(None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Asserts that every incremental structure of `board` (chains, pseudo-liberties, neighbour
    /// counts, empty list, bitboards, hash) equals the one of the same pieces put down afresh.
    fn assert_as_rebuilt(board: &Board) {
        assert!(board.hashing, "the hash of a board played on its own is kept up to date");
        let mut fresh = Board::new(board.geometry);
        for p in board.geometry.points() {
            if board.cell(p) != EMPTY {
                fresh.put(p, board.cell(p));
            }
        }
        assert_eq!(board.hash, board.recomputed_hash());
        assert_eq!(board.hash, fresh.hash);
        for c in [Color::Black, Color::White] {
            let counted = board.geometry.points().filter(|&p| board.cell(p) & 3 == code(c)).count();
            assert_eq!(board.stones(c), counted, "{c:?} stones");
        }
        assert_eq!(board.color_sets, fresh.color_sets);
        assert_eq!(board.king_set, fresh.king_set);
        let mut empties = board.empties.clone();
        empties.sort_unstable();
        let mut fresh_empties = fresh.empties.clone();
        fresh_empties.sort_unstable();
        assert_eq!(empties, fresh_empties);
        for (i, &e) in board.empties.iter().enumerate() {
            assert_eq!(board.tally(e).empty_index as usize, i);
        }
        // the branch-free liberty updates rely on every slot without a stone naming the scratch slot
        for (i, slot) in board.slots.iter().enumerate() {
            if slot.cell == EMPTY || slot.cell == BORDER {
                assert_eq!(slot.head, SCRATCH, "head of the stoneless slot {i}");
            }
        }
        for p in board.geometry.points() {
            assert_eq!(board.cell(p), fresh.cell(p));
            assert_eq!(board.slot(p).neighbour_counts, fresh.slot(p).neighbour_counts, "counts at {p:?}");
            if board.cell(p) == EMPTY {
                continue;
            }
            let chain = |b: &Board| {
                let head = b.head(p);
                (b.tally(head).size, b.tally(head).kings, b.packed_liberties(head))
            };
            assert_eq!(chain(board), chain(&fresh), "chain of {p:?}");
            assert_eq!(board.chain_stones(p).count(), chain(board).0 as usize, "ring of {p:?}");
            assert!(board.chain_stones(p).all(|q| board.head(q) == board.head(p)));
        }
    }

    /// The board with each flood this processor can run at its size: the word-by-word one, and
    /// the AVX-512 and AVX2 registers that hold it where the processor has them, so that all are
    /// tested on a processor that has the register ones.
    fn with_every_flood(board: &Board) -> Vec<Board> {
        let slots = board.geometry.slots();
        [Some(Flood::Words), Flood::avx512_for_slots(slots), Flood::avx2_for_slots(slots)]
            .into_iter()
            .flatten()
            .map(|flood| Board { flood, ..board.clone() })
            .collect()
    }

    /// Places pieces (an index into the empty points, white, king) with their captures on an
    /// empty board until they run out or the board is full, handing the board to `check` after
    /// each placement.
    fn place_at_random(
        geometry: Geometry,
        placements: Vec<(u16, bool, bool)>,
        check: impl Fn(&Board),
    ) -> Board {
        let mut board = Board::new(geometry);
        for (pick, white, king) in placements {
            let empties = board.empties();
            let p = empties[pick as usize % empties.len()];
            let color = if white { Color::White } else { Color::Black };
            board.place_piece(p, Piece { color, king });
            check(&board);
            if board.empties().is_empty() {
                break;
            }
        }
        board
    }

    /// A board with stones put on empty points picked by `stones` (an index into the empty points
    /// and whether the stone is white), without captures, keeping at least one empty point.
    fn stones_at_random(geometry: Geometry, stones: Vec<(u16, bool)>) -> Board {
        let mut board = Board::new(geometry);
        for (pick, white) in stones {
            let empties = board.empties();
            let p = empties[pick as usize % empties.len()];
            board.put(p, code(if white { Color::White } else { Color::Black }));
            if board.empties().len() < 2 {
                break;
            }
        }
        board
    }

    proptest! {
        /// Placements with their captures and suicides keep every incremental structure equal to
        /// the one of the same pieces put down afresh, after every move.
        #[test]
        fn placing_stones_leaves_the_board_as_rebuilt(
            width in 2u32..8,
            height in 2u32..8,
            placements in proptest::collection::vec((any::<u16>(), any::<bool>(), any::<bool>()), 1..120),
        ) {
            place_at_random(Geometry::new(width, height).unwrap(), placements, assert_as_rebuilt);
        }

        /// The bitboard flood (each size class of bitboard, the strides of 13x13 and 19x19 as
        /// constants, and the register floods where the processor has them) finds the region's
        /// owner and shape a point-by-point search finds, on every empty point of boards of one
        /// to eleven bitboard words.
        #[test]
        fn the_flood_agrees_with_a_point_by_point_search(
            (width, height) in prop_oneof![Just((13u32, 13u32)), Just((19, 19)), Just((13, 12)), (2u32..26, 2u32..26)],
            stones in proptest::collection::vec((any::<u16>(), any::<bool>()), 0..300),
        ) {
            let geometry = Geometry::new(width, height).unwrap();
            let board = stones_at_random(geometry, stones);
            for &p in board.empties() {
                // the region by a search over neighbours, its bordering colours and its adjacencies
                let (mut region, mut queue, mut border) = (vec![p], vec![p], [false; 2]);
                while let Some(q) = queue.pop() {
                    for n in geometry.neighbours(q) {
                        match board.cell(n) & 3 {
                            EMPTY if !region.contains(&n) => {
                                region.push(n);
                                queue.push(n);
                            }
                            1 | 2 => border[(board.cell(n) & 3 == 2) as usize] = true,
                            _ => {}
                        }
                    }
                }
                let inside = |q: &Point| geometry.neighbours(*q).iter().filter(|n| region.contains(n)).count();
                let adjacencies: usize = region.iter().map(inside).sum::<usize>() / 2;
                let line_shaped = region.iter().all(|q| inside(q) <= 2) && adjacencies + 1 == region.len();
                let owner = match border {
                    [false, false] => RegionOwner::Nobody,
                    [true, false] => RegionOwner::Only(Color::Black),
                    [false, true] => RegionOwner::Only(Color::White),
                    [true, true] => RegionOwner::Both,
                };
                let expected = Region { owner, line_shaped };
                for board in with_every_flood(&board) {
                    prop_assert_eq!(board.region(p, None), expected, "at {:?}, {:?}", p, board.flood);
                }
            }
        }

        /// The closed regions the bitboard floods count, within a random part of boards of one
        /// to eleven bitboard words, are the ones a point-by-point search finds: the connected
        /// sets of points of the part not holding the colour's pieces, none next to the board's
        /// points outside the part; and those with every empty point next to the colour's.
        #[test]
        fn closed_regions_are_counted_as_a_point_by_point_search_counts_them(
            (width, height) in prop_oneof![Just((9u32, 9u32)), Just((19, 19)), (2u32..26, 2u32..26)],
            stones in proptest::collection::vec((any::<u16>(), any::<bool>()), 0..300),
            part in proptest::collection::vec(any::<bool>(), 676),
            white in any::<bool>(),
        ) {
            let geometry = Geometry::new(width, height).unwrap();
            let board = stones_at_random(geometry, stones);
            let color = if white { Color::White } else { Color::Black };
            let points: Vec<Point> = geometry.points().collect();
            let inside: Vec<Point> = points.iter().zip(&part).filter(|&(_, &i)| i).map(|(&p, _)| p).collect();
            let free = |q: Point| inside.contains(&q) && board.color(q) != Some(color);
            let touches_color =
                |q: Point| geometry.neighbours(q).into_iter().any(|n| geometry.contains(n) && board.color(n) == Some(color));
            let (mut seen, mut closed, mut closed_touching) = (Vec::new(), 0, 0);
            for &p in inside.iter().filter(|&&p| free(p)) {
                if seen.contains(&p) {
                    continue;
                }
                let (mut queue, mut open, mut touching) = (vec![p], false, true);
                seen.push(p);
                while let Some(q) = queue.pop() {
                    touching &= board.color(q).is_some() || touches_color(q);
                    for n in geometry.neighbours(q).into_iter().filter(|&n| geometry.contains(n)) {
                        if !inside.contains(&n) {
                            open = true;
                        } else if free(n) && !seen.contains(&n) {
                            seen.push(n);
                            queue.push(n);
                        }
                    }
                }
                closed += usize::from(!open);
                closed_touching += usize::from(!open && touching);
            }
            let mask = PointMask::new(inside.iter().copied());
            prop_assert_eq!(board.closed_regions(color, &mask, false, usize::MAX), closed);
            prop_assert_eq!(board.closed_regions(color, &mask, false, 2), closed.min(2));
            prop_assert_eq!(board.closed_regions(color, &mask, true, usize::MAX), closed_touching);
        }

        /// The hash a placement would leave, worked out from its preview before it is played (the
        /// superko test), is the hash of the board after playing it: with captures, with a suicide
        /// taken off where the variant removes it, and without either.
        #[test]
        fn the_hash_after_a_placement_is_the_hash_of_the_board_it_leaves(
            side in 2u32..10,
            placements in proptest::collection::vec((any::<u16>(), any::<bool>(), any::<bool>()), 0..90),
        ) {
            let geometry = Geometry::square(side).unwrap();
            let board = place_at_random(geometry, placements, |_| {});
            for &p in board.empties() {
                for c in [Color::Black, Color::White] {
                    let preview = board.preview(p, c);
                    let mut after = board.clone();
                    after.place(p, c);
                    let expected = after.recomputed_hash();
                    prop_assert_eq!(board.hash_after(p, c, &preview, true), expected, "{:?} {:?}", p, c);
                    if !preview.suicide {
                        prop_assert_eq!(board.hash_after(p, c, &preview, false), expected);
                    }
                }
            }
        }

        /// The territory test's shortcuts (neighbour counts, the second and third flood steps
        /// answered from counts without a register flood, the owner without the shape) agree with
        /// the plain flood on every empty point, on boards of one to seven bitboard words, with the
        /// register floods (where the processor has them) and without.
        #[test]
        fn the_territory_test_agrees_with_the_flood(
            side in 2u32..20,
            stones in proptest::collection::vec((any::<u16>(), any::<bool>()), 0..120),
        ) {
            let geometry = Geometry::square(side).unwrap();
            let board = stones_at_random(geometry, stones);
            for board in with_every_flood(&board) {
                for (&p, owner) in board.empties().iter().flat_map(|p| [(p, Color::Black), (p, Color::White)]) {
                    let flood = board.region(p, None);
                    let expected = (flood.owner == RegionOwner::Only(owner)).then_some(flood);
                    prop_assert_eq!(board.in_territory_of(p, owner), expected, "{:?} for {:?}, {:?}", p, owner, board.flood);
                    // without the shape, the owner is read from the flood's last step instead
                    prop_assert_eq!(
                        board.territory_at_board_point::<false>(p, owner).is_some(),
                        expected.is_some(),
                        "{:?} for {:?}, no shape",
                        p,
                        owner
                    );
                }
            }
        }

        /// Lifting stones (Galice's swaps) leaves the board exactly as if the remaining pieces had
        /// been put down from scratch, whether the stone was alone, a leaf of its chain, or held
        /// it together.
        #[test]
        fn lifting_a_stone_leaves_the_board_as_rebuilt(
            side in 2u32..8,
            placements in proptest::collection::vec((any::<u16>(), any::<bool>(), any::<bool>()), 1..80),
            lifts in proptest::collection::vec(any::<u16>(), 1..12),
        ) {
            let geometry = Geometry::square(side).unwrap();
            let mut board = place_at_random(geometry, placements, |_| {});
            for pick in lifts {
                let stones: Vec<Point> = geometry.points().filter(|&p| board.cell(p) != EMPTY).collect();
                if stones.is_empty() {
                    break;
                }
                let lifted = stones[pick as usize % stones.len()];
                let before: Vec<u8> = geometry.points().map(|p| board.cell(p)).collect();
                board.lift(lifted);
                for (p, cell) in geometry.points().zip(before) {
                    assert_eq!(board.cell(p), if p == lifted { EMPTY } else { cell });
                }
                assert_as_rebuilt(&board);
            }
        }
    }
}
