//! Sets of board slots as bitboards over the board's 1-D layout: flood fills by shifting whole
//! words, so that "whose territory is this region?" costs a few word operations per step of the
//! region's radius instead of a visit per point. The flood runs on `N`-word copies, `N` the
//! smallest size class that holds the board, so that the compiler unrolls it into registers.

use crate::geometry::{MAX_SLOTS, Point};

/// Words of the largest board's bitboard.
pub(crate) const WORDS: usize = MAX_SLOTS.div_ceil(64);

/// A set of slots of a board of any size, as the board stores it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PointSet(pub(crate) [u64; WORDS]);

impl PointSet {
    #[inline(always)]
    pub(crate) fn insert(&mut self, p: Point) {
        self.0[p.index() / 64] |= 1 << (p.index() % 64);
    }

    #[inline(always)]
    pub(crate) fn contains(&self, p: Point) -> bool {
        self.0[p.index() / 64] & 1 << (p.index() % 64) != 0
    }

    #[inline(always)]
    pub(crate) fn remove(&mut self, p: Point) {
        self.0[p.index() / 64] &= !(1 << (p.index() % 64));
    }

    /// The slots in the set, in index order, over the first `words` words.
    pub(crate) fn iter(&self, words: usize) -> impl Iterator<Item = Point> + '_ {
        self.0[..words].iter().enumerate().flat_map(|(i, &word)| {
            let mut rest = word;
            std::iter::from_fn(move || {
                (rest != 0).then(|| {
                    let bit = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    Point((i * 64 + bit) as u16)
                })
            })
        })
    }

    /// The first `N` words (the rest are zero on boards that fit in `N` words).
    #[inline(always)]
    pub(crate) fn words<const N: usize>(&self) -> Bits<N> {
        Bits(std::array::from_fn(|i| self.0[i]))
    }
}

/// A set of slots in exactly `N` words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bits<const N: usize>(pub(crate) [u64; N]);

impl<const N: usize> Bits<N> {
    /// The set holding only `p`.
    #[inline(always)]
    pub(crate) fn single(p: Point) -> Self {
        let mut set = Bits([0; N]);
        set.0[p.index() / 64] |= 1 << (p.index() % 64);
        set
    }

    /// Each slot `q` of the result holds slot `q - k` of `self` (a move toward higher indices).
    #[inline(always)]
    fn shifted_up(&self, k: usize) -> Self {
        Bits(std::array::from_fn(|i| self.0[i] << k | if i > 0 { self.0[i - 1] >> (64 - k) } else { 0 }))
    }

    /// Each slot `q` of the result holds slot `q + k` of `self` (a move toward lower indices).
    #[inline(always)]
    fn shifted_down(&self, k: usize) -> Self {
        Bits(std::array::from_fn(|i| self.0[i] >> k | if i + 1 < N { self.0[i + 1] << (64 - k) } else { 0 }))
    }

    /// The set and every orthogonal neighbour of its slots.
    #[inline(always)]
    pub(crate) fn dilated(&self, stride: usize) -> Self {
        let (e, w, s, n) =
            (self.shifted_down(1), self.shifted_up(1), self.shifted_down(stride), self.shifted_up(stride));
        Bits(std::array::from_fn(|i| self.0[i] | e.0[i] | w.0[i] | s.0[i] | n.0[i]))
    }

    /// The set without the slots of `other`.
    #[inline(always)]
    pub(crate) fn without(&self, other: &Self) -> Self {
        Bits(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// The set grown through `space`, step by step, until it grows no more: a flood fill.
    #[inline(always)]
    pub(crate) fn filled_within(self, space: &Self, stride: usize) -> Self {
        let mut set = self;
        loop {
            let grown = set.dilated(stride).and(space);
            if !grown.has_outside(&set) {
                return set;
            }
            set = grown;
        }
    }

    /// The slot of the set with the lowest index, if any.
    #[inline(always)]
    pub(crate) fn first(&self) -> Option<Point> {
        let word = self.0.iter().position(|&w| w != 0)?;
        Some(Point((word * 64 + self.0[word].trailing_zeros() as usize) as u16))
    }

    #[inline(always)]
    pub(crate) fn and(&self, other: &Self) -> Self {
        Bits(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// Whether the set holds a slot that `other` does not: one reduction of the words and one
    /// test (the flood's test of whether it grew; written as an equality of the sets, it was
    /// compiled into a branch per word, mispredicted in turn).
    #[inline(always)]
    pub(crate) fn has_outside(&self, other: &Self) -> bool {
        (0..N).fold(0, |extra, i| extra | (self.0[i] & !other.0[i])) != 0
    }

    #[inline(always)]
    pub(crate) fn intersects(&self, other: &Self) -> bool {
        (0..N).fold(0, |common, i| common | (self.0[i] & other.0[i])) != 0
    }

    #[inline(always)]
    pub(crate) fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Whether the set (a connected region) has no fork and no loop: no slot with three or more
    /// neighbours inside it, and exactly one adjacency fewer than slots.
    pub(crate) fn is_line_shaped(&self, stride: usize) -> bool {
        let east = self.and(&self.shifted_down(1));
        let west = self.and(&self.shifted_up(1));
        let south = self.and(&self.shifted_down(stride));
        let north = self.and(&self.shifted_up(stride));
        let fork = (0..N).any(|i| {
            let (e, w, s, n) = (east.0[i], west.0[i], south.0[i], north.0[i]);
            (e & w & (n | s)) | (n & s & (e | w)) != 0
        });
        // east holds one bit per horizontal pair, south one per vertical pair
        !fork && east.count() + south.count() + 1 == self.count()
    }
}

/// How a board's floods run, picked once for the board's size and the processor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) enum Flood {
    /// Word by word on `N`-word copies (any processor, any size).
    Words,
    /// On one 128-bit register ([`registers::flood_on`]): boards of at most two words.
    Register128,
    /// On one 256-bit register: boards of at most four words.
    Register256,
    /// On one 512-bit register: boards of at most eight words.
    Register512,
    /// On one 128-bit register with AVX2's instructions only ([`registers::flood_on`]), for
    /// processors without AVX-512: boards of at most two words.
    Avx2Register128,
    /// On one 256-bit register with AVX2's instructions only: boards of at most four words.
    Avx2Register256,
}

impl Flood {
    /// The flood for a board of `slots` slots on this processor: the AVX-512 register that holds
    /// it, else the AVX2 one, else word by word.
    pub(crate) fn for_slots(slots: usize) -> Flood {
        Self::avx512_for_slots(slots).or_else(|| Self::avx2_for_slots(slots)).unwrap_or(Flood::Words)
    }

    /// The AVX-512 register flood for a board of `slots` slots, if the processor has AVX-512F,
    /// VL and VBMI2 and the board fits a register.
    pub(crate) fn avx512_for_slots(slots: usize) -> Option<Flood> {
        let registers = [Flood::Register128, Flood::Register256, Flood::Register512].map(Some);
        Self::register_holding(slots, registers).filter(|_| has_avx512())
    }

    /// The AVX2 register flood for a board of `slots` slots, if the processor has AVX2 and the
    /// board fits a 256-bit register.
    pub(crate) fn avx2_for_slots(slots: usize) -> Option<Flood> {
        let registers = [Some(Flood::Avx2Register128), Some(Flood::Avx2Register256), None];
        Self::register_holding(slots, registers).filter(|_| has_avx2())
    }

    /// The smallest of `registers` (for boards of at most two, four and eight words) that holds
    /// a board of `slots` slots.
    fn register_holding(slots: usize, registers: [Option<Flood>; 3]) -> Option<Flood> {
        match slots.div_ceil(64) {
            0..=2 => registers[0],
            3..=4 => registers[1],
            5..=8 => registers[2],
            _ => None,
        }
    }
}

/// Whether the processor has AVX-512F, VL and VBMI2, which the AVX-512 register floods use.
fn has_avx512() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512vbmi2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Whether the processor has AVX2, which the AVX2 register floods use.
fn has_avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::arch::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The floods on one SIMD register, for processors with AVX-512 (and its VBMI2 double shifts): a
/// step of the flood is a handful of instructions on the whole board, where the word-by-word
/// flood spends about twenty a word. Each board takes the smallest register that holds it: 9x9
/// and smaller a 128-bit one, whose moves between lanes take one cycle where the wider
/// registers' take three (Incursion's playouts 2-3% faster than on the 512-bit register), 13x13 a
/// 256-bit one (1.5% faster), 19x19 the 512-bit one. Processors with AVX2 but not AVX-512 flood
/// boards of up to four words on AVX2's 128-bit and 256-bit registers, each operation built from
/// two or three plain ones (Incursion 4-5% faster on 13x13 than word by word, 9x9 the same).
#[cfg(target_arch = "x86_64")]
pub(crate) mod registers {
    use super::{Flood, PointSet, WORDS};
    use std::arch::x86_64::*;

    const _: () = assert!(WORDS >= 8, "a register flood loads up to eight words of a set");

    /// What a register flood found of a whole region.
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Flooded {
        /// Whether a stone of each colour (Black's, White's) borders it.
        pub(crate) touches: [bool; 2],
        /// Whether it is line-shaped, if the flood was asked (false otherwise).
        pub(crate) line_shaped: bool,
    }

    /// Where a register flood starts: the board's slots and stone sets, the set it stops at (if any),
    /// its first slot and the board's row stride.
    struct FloodFrom<'a> {
        on_board: &'a PointSet,
        stones: &'a [PointSet; 2],
        stop: Option<usize>,
        p: usize,
        stride: usize,
    }

    /// Double steps every flood takes before its first test: most floods end within them, and a
    /// flood that ended earlier stays as it was (touching the stop set, or whole), so no branch
    /// waits on them.
    const UNTESTED_DOUBLE_STEPS: usize = 2;

    /// The operations the flood needs from a register of 64-bit lanes, lane `i` holding word `i`
    /// of a set.
    ///
    /// # Safety
    /// Every method needs the instructions its register's flood enables; they are called only
    /// from there (inlined into [`flood_on`]).
    trait Lanes: Copy {
        /// The set's first words, one a lane.
        unsafe fn load(set: &PointSet) -> Self;
        /// Every lane `x`.
        unsafe fn splat(x: u64) -> Self;
        /// Slot `p` alone.
        unsafe fn single(p: usize) -> Self;
        /// Lane `i` holds word `i - 1` (none in the first).
        unsafe fn words_below(self) -> Self;
        /// Lane `i` holds word `i + 1` (none in the last).
        unsafe fn words_above(self) -> Self;
        /// Each lane shifted up by `by` bits, the bits shifted in from `below`'s lane.
        unsafe fn shifted_up(self, below: Self, by: Self) -> Self;
        /// Each lane shifted down by `by` bits, the bits shifted in from `above`'s lane.
        unsafe fn shifted_down(self, above: Self, by: Self) -> Self;
        /// `a` without `b` and `c`.
        unsafe fn and_neither(a: Self, b: Self, c: Self) -> Self;
        /// `a`, `b` and `c` together.
        unsafe fn or3(a: Self, b: Self, c: Self) -> Self;
        /// `a` and `b` together, within `mask`.
        unsafe fn or_within(a: Self, b: Self, mask: Self) -> Self;
        unsafe fn and(self, other: Self) -> Self;
        unsafe fn or(self, other: Self) -> Self;
        unsafe fn intersects(self, other: Self) -> bool;
        unsafe fn differs(self, other: Self) -> bool;

        /// The set and its four neighbours (`one` and `stride` slots away, every lane holding the
        /// distance), within `mask`; the lanes are moved once, for both distances.
        #[inline(always)]
        unsafe fn dilated_within(self, mask: Self, one: Self, stride: Self) -> Self {
            unsafe {
                let (below, above) = (self.words_below(), self.words_above());
                let east_west = Self::or3(self, self.shifted_up(below, one), self.shifted_down(above, one));
                let north_south = self.shifted_up(below, stride).or(self.shifted_down(above, stride));
                Self::or_within(east_west, north_south, mask)
            }
        }

        /// Whether the set, a connected region, is line-shaped ([`Bits::is_line_shaped`](super::Bits::is_line_shaped)):
        /// no slot with three or more neighbours inside it (a fork), and some slot with at most
        /// one (without forks the region is a path, whose ends have one, or a loop, which has
        /// none).
        #[inline(always)]
        unsafe fn line_shaped(self, one: Self, stride: Self) -> bool {
            unsafe {
                let (below, above) = (self.words_below(), self.words_above());
                // the slots with a neighbour inside to the east, west, south and north
                let east = self.and(self.shifted_down(above, one));
                let west = self.and(self.shifted_up(below, one));
                let south = self.and(self.shifted_down(above, stride));
                let north = self.and(self.shifted_up(below, stride));
                let (across, along) = (east.or(west), south.or(north));
                let (both_across, both_along) = (east.and(west), south.and(north));
                let fork = both_across.and(along).or(both_along.and(across));
                // the slots with two neighbours or more inside, all of the region in a loop
                let inner = both_across.or(both_along).or(across.and(along));
                !fork.intersects(fork) && inner.differs(self)
            }
        }
    }

    /// [`Lanes`] for one register type from its intrinsics, and its moves of whole words.
    macro_rules! lanes {
        ($register:ty {
            load: $load:ident, splat: $splat:ident, single: $single:ident,
            shift_up: $shift_up:ident, shift_down: $shift_down:ident, ternary: $ternary:ident,
            and: $and:ident, or: $or:ident, test: $test:ident, differ: $differ:ident,
            words_below: |$below_of:ident| $below:expr, words_above: |$above_of:ident| $above:expr $(,)?
        }) => {
            impl Lanes for $register {
                #[inline(always)]
                unsafe fn load(set: &PointSet) -> Self {
                    // SAFETY: the sets hold at least eight words (WORDS), the widest register's
                    unsafe { $load(set.0.as_ptr().cast()) }
                }
                #[inline(always)]
                unsafe fn splat(x: u64) -> Self {
                    unsafe { $splat(x as i64) }
                }
                #[inline(always)]
                unsafe fn single(p: usize) -> Self {
                    unsafe { $single(1 << (p / 64), 1 << (p % 64)) }
                }
                #[inline(always)]
                unsafe fn words_below(self) -> Self {
                    let $below_of = self;
                    unsafe { $below }
                }
                #[inline(always)]
                unsafe fn words_above(self) -> Self {
                    let $above_of = self;
                    unsafe { $above }
                }
                #[inline(always)]
                unsafe fn shifted_up(self, below: Self, by: Self) -> Self {
                    unsafe { $shift_up(self, below, by) }
                }
                #[inline(always)]
                unsafe fn shifted_down(self, above: Self, by: Self) -> Self {
                    unsafe { $shift_down(self, above, by) }
                }
                // the truth tables of `vpternlogq`: bit `4a + 2b + c` of the table is the result
                #[inline(always)]
                unsafe fn and_neither(a: Self, b: Self, c: Self) -> Self {
                    unsafe { $ternary::<0x10>(a, b, c) }
                }
                #[inline(always)]
                unsafe fn or3(a: Self, b: Self, c: Self) -> Self {
                    unsafe { $ternary::<0xFE>(a, b, c) }
                }
                #[inline(always)]
                unsafe fn or_within(a: Self, b: Self, mask: Self) -> Self {
                    unsafe { $ternary::<0xA8>(a, b, mask) }
                }
                #[inline(always)]
                unsafe fn and(self, other: Self) -> Self {
                    unsafe { $and(self, other) }
                }
                #[inline(always)]
                unsafe fn or(self, other: Self) -> Self {
                    unsafe { $or(self, other) }
                }
                #[inline(always)]
                unsafe fn intersects(self, other: Self) -> bool {
                    unsafe { $test(self, other) != 0 }
                }
                #[inline(always)]
                unsafe fn differs(self, other: Self) -> bool {
                    unsafe { $differ(self, other) != 0 }
                }
            }
        };
    }

    // each register's intrinsics; two lanes move within the register by a byte shift, one cycle
    // where `valignq` takes three
    #[rustfmt::skip]
    lanes!(__m512i { load: _mm512_loadu_si512, splat: _mm512_set1_epi64, single: _mm512_maskz_set1_epi64,
        shift_up: _mm512_shldv_epi64, shift_down: _mm512_shrdv_epi64, ternary: _mm512_ternarylogic_epi64, and: _mm512_and_si512, or: _mm512_or_si512,
        test: _mm512_test_epi64_mask, differ: _mm512_cmpneq_epi64_mask, words_below: |set| _mm512_alignr_epi64::<7>(set, _mm512_setzero_si512()), words_above: |set| _mm512_alignr_epi64::<1>(_mm512_setzero_si512(), set) });
    #[rustfmt::skip]
    lanes!(__m256i { load: _mm256_loadu_si256, splat: _mm256_set1_epi64x, single: _mm256_maskz_set1_epi64,
        shift_up: _mm256_shldv_epi64, shift_down: _mm256_shrdv_epi64, ternary: _mm256_ternarylogic_epi64, and: _mm256_and_si256, or: _mm256_or_si256,
        test: _mm256_test_epi64_mask, differ: _mm256_cmpneq_epi64_mask, words_below: |set| _mm256_alignr_epi64::<3>(set, _mm256_setzero_si256()), words_above: |set| _mm256_alignr_epi64::<1>(_mm256_setzero_si256(), set) });
    #[rustfmt::skip]
    lanes!(__m128i { load: _mm_loadu_si128, splat: _mm_set1_epi64x, single: _mm_maskz_set1_epi64,
        shift_up: _mm_shldv_epi64, shift_down: _mm_shrdv_epi64, ternary: _mm_ternarylogic_epi64, and: _mm_and_si128, or: _mm_or_si128,
        test: _mm_test_epi64_mask, differ: _mm_cmpneq_epi64_mask, words_below: |set| _mm_bslli_si128::<8>(set), words_above: |set| _mm_bsrli_si128::<8>(set) });

    /// A 256-bit register for processors with AVX2 but not AVX-512, which has no double shift, no
    /// ternary logic and no lane masks: each of those operations takes two or three instructions.
    #[derive(Clone, Copy)]
    struct Avx2x256(__m256i);

    /// A 128-bit register for processors with AVX2 but not AVX-512 (whose variable shifts it
    /// needs).
    #[derive(Clone, Copy)]
    struct Avx2x128(__m128i);

    /// [`Lanes`] for one of the AVX2 registers: the same operations as the AVX-512 ones, built
    /// from AVX2's plain shifts and logic.
    macro_rules! avx2_lanes {
        ($lanes:ident($register:ty) {
            load: $load:ident, splat: $splat:ident, and: $and:ident, or: $or:ident,
            and_not: $and_not:ident, xor: $xor:ident, test_zero: $test_zero:ident, shift_left: $shift_left:ident,
            shift_right: $shift_right:ident, sub: $sub:ident, equal: $equal:ident, lane_indices: $indices:expr,
            words_below: |$below_of:ident| $below:expr, words_above: |$above_of:ident| $above:expr $(,)?
        }) => {
            impl Lanes for $lanes {
                #[inline(always)]
                unsafe fn load(set: &PointSet) -> Self {
                    // SAFETY: the sets hold at least eight words (WORDS), more than the register
                    unsafe { $lanes($load(set.0.as_ptr().cast())) }
                }
                #[inline(always)]
                unsafe fn splat(x: u64) -> Self {
                    unsafe { $lanes($splat(x as i64)) }
                }
                #[inline(always)]
                unsafe fn single(p: usize) -> Self {
                    unsafe {
                        let lane = $equal($indices, $splat((p / 64) as i64));
                        $lanes($and(lane, $splat(1 << (p % 64))))
                    }
                }
                #[inline(always)]
                unsafe fn words_below(self) -> Self {
                    let $below_of = self.0;
                    unsafe { $lanes($below) }
                }
                #[inline(always)]
                unsafe fn words_above(self) -> Self {
                    let $above_of = self.0;
                    unsafe { $lanes($above) }
                }
                #[inline(always)]
                unsafe fn shifted_up(self, below: Self, by: Self) -> Self {
                    unsafe {
                        let carried = $shift_right(below.0, $sub($splat(64), by.0));
                        $lanes($or($shift_left(self.0, by.0), carried))
                    }
                }
                #[inline(always)]
                unsafe fn shifted_down(self, above: Self, by: Self) -> Self {
                    unsafe {
                        let carried = $shift_left(above.0, $sub($splat(64), by.0));
                        $lanes($or($shift_right(self.0, by.0), carried))
                    }
                }
                #[inline(always)]
                unsafe fn and_neither(a: Self, b: Self, c: Self) -> Self {
                    unsafe { $lanes($and_not($or(b.0, c.0), a.0)) }
                }
                #[inline(always)]
                unsafe fn or3(a: Self, b: Self, c: Self) -> Self {
                    unsafe { $lanes($or($or(a.0, b.0), c.0)) }
                }
                #[inline(always)]
                unsafe fn or_within(a: Self, b: Self, mask: Self) -> Self {
                    unsafe { $lanes($and($or(a.0, b.0), mask.0)) }
                }
                #[inline(always)]
                unsafe fn and(self, other: Self) -> Self {
                    unsafe { $lanes($and(self.0, other.0)) }
                }
                #[inline(always)]
                unsafe fn or(self, other: Self) -> Self {
                    unsafe { $lanes($or(self.0, other.0)) }
                }
                #[inline(always)]
                unsafe fn intersects(self, other: Self) -> bool {
                    unsafe { $test_zero(self.0, other.0) == 0 }
                }
                #[inline(always)]
                unsafe fn differs(self, other: Self) -> bool {
                    unsafe {
                        let changed = $xor(self.0, other.0);
                        $test_zero(changed, changed) == 0
                    }
                }
            }
        };
    }

    // the words move between lanes by a permutation and a blend with zero (lane 0's or lane 3's
    // word dropped), or on 128 bits by a byte shift
    #[rustfmt::skip]
    avx2_lanes!(Avx2x256(__m256i) { load: _mm256_loadu_si256, splat: _mm256_set1_epi64x, and: _mm256_and_si256,
        or: _mm256_or_si256, and_not: _mm256_andnot_si256, xor: _mm256_xor_si256, test_zero: _mm256_testz_si256, shift_left: _mm256_sllv_epi64,
        shift_right: _mm256_srlv_epi64, sub: _mm256_sub_epi64, equal: _mm256_cmpeq_epi64, lane_indices: _mm256_set_epi64x(3, 2, 1, 0),
        words_below: |set| _mm256_blend_epi32::<0b0000_0011>(_mm256_permute4x64_epi64::<0b10_01_00_00>(set), _mm256_setzero_si256()),
        words_above: |set| _mm256_blend_epi32::<0b1100_0000>(_mm256_permute4x64_epi64::<0b11_11_10_01>(set), _mm256_setzero_si256()) });
    #[rustfmt::skip]
    avx2_lanes!(Avx2x128(__m128i) { load: _mm_loadu_si128, splat: _mm_set1_epi64x, and: _mm_and_si128,
        or: _mm_or_si128, and_not: _mm_andnot_si128, xor: _mm_xor_si128, test_zero: _mm_testz_si128, shift_left: _mm_sllv_epi64,
        shift_right: _mm_srlv_epi64, sub: _mm_sub_epi64, equal: _mm_cmpeq_epi64, lane_indices: _mm_set_epi64x(1, 0),
        words_below: |set| _mm_bslli_si128::<8>(set), words_above: |set| _mm_bsrli_si128::<8>(set) });

    /// The region of empty slots (on the board, in neither stone set) around slot `p`: whether a
    /// stone of each set borders it and, under `SHAPE`, whether it is line-shaped; or `None` as
    /// soon as the flood touches a stone of `stones[stop]`.
    #[inline(always)]
    unsafe fn flood<L: Lanes, const SHAPE: bool>(from: &FloodFrom) -> Option<Flooded> {
        unsafe {
            // on the board and in neither set
            let (black, white) = (L::load(&from.stones[0]), L::load(&from.stones[1]));
            let empty = L::and_neither(L::load(from.on_board), black, white);
            let stop = match from.stop {
                Some(c) => L::load(&from.stones[c]),
                None => L::splat(0),
            };
            let (one, stride) = (L::splat(1), L::splat(from.stride as u64));
            let mut flooded = L::single(from.p);
            for _ in 0..UNTESTED_DOUBLE_STEPS {
                flooded = flooded.dilated_within(empty, one, stride).dilated_within(empty, one, stride);
            }
            let all = L::splat(u64::MAX);
            // one branch a double step: the loop ends when the flood touches `stop` or stops growing
            let grown = loop {
                let grown = flooded.dilated_within(empty, one, stride).dilated_within(all, one, stride);
                let next = grown.and(empty);
                let (touched, grew) = (grown.intersects(stop), next.differs(flooded));
                if touched | !grew {
                    if touched {
                        return None;
                    }
                    break grown;
                }
                flooded = next;
            };
            let line_shaped = SHAPE && flooded.line_shaped(one, stride);
            Some(Flooded { touches: [grown.intersects(black), grown.intersects(white)], line_shaped })
        }
    }

    /// The flood ([`flood`]) on the register `register` names, the region's shape worked out
    /// under `SHAPE`.
    ///
    /// # Safety
    /// The processor must have the register's instructions (AVX-512F, VL and VBMI2, or AVX2 for
    /// the AVX2 registers), and the board fit the register: both as
    /// [`Flood::for_slots`](super::Flood::for_slots) picked it.
    #[inline(always)]
    pub(crate) unsafe fn flood_on<const SHAPE: bool>(
        register: Flood,
        on_board: &PointSet,
        stones: &[PointSet; 2],
        stop: Option<usize>,
        p: usize,
        stride: usize,
    ) -> Option<Flooded> {
        // the flood's inputs in one place, handed to the entry for the processor's instructions
        let from = &FloodFrom { on_board, stones, stop, p, stride };
        unsafe {
            match register {
                Flood::Avx2Register128 | Flood::Avx2Register256 => flood_with_avx2::<SHAPE>(register, from),
                _ => flood_with_avx512::<SHAPE>(register, from),
            }
        }
    }

    /// [`flood_on`] for the AVX-512 registers.
    #[target_feature(enable = "avx512f,avx512vl,avx512vbmi2")]
    unsafe fn flood_with_avx512<const SHAPE: bool>(register: Flood, from: &FloodFrom) -> Option<Flooded> {
        unsafe {
            match register {
                Flood::Register128 => flood::<__m128i, SHAPE>(from),
                Flood::Register256 => flood::<__m256i, SHAPE>(from),
                _ => flood::<__m512i, SHAPE>(from),
            }
        }
    }

    /// [`flood_on`] for the AVX2 registers.
    #[target_feature(enable = "avx2")]
    unsafe fn flood_with_avx2<const SHAPE: bool>(register: Flood, from: &FloodFrom) -> Option<Flooded> {
        unsafe {
            match register {
                Flood::Avx2Register128 => flood::<Avx2x128, SHAPE>(from),
                _ => flood::<Avx2x256, SHAPE>(from),
            }
        }
    }
}
