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

/// The flood on one 512-bit register, for boards of at most eight words on processors with
/// AVX-512 (and its VBMI2 double shifts): a step of the flood is a handful of instructions on the
/// whole board, where the word-by-word flood spends about twenty a word.
#[cfg(target_arch = "x86_64")]
pub(crate) mod wide {
    use super::{Bits, PointSet, WORDS};
    use std::arch::x86_64::*;

    const _: () = assert!(WORDS >= 8, "the wide flood loads eight words of a set");

    /// Whether [`flood`] serves a board of `slots` slots on this processor.
    pub(crate) fn fits(slots: usize) -> bool {
        slots <= 8 * 64
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
    }

    /// The region of empty slots (on the board, in neither stone set) around slot `p`, and whether
    /// a stone of each set borders it; or `None` as soon as the flood touches a stone of
    /// `stones[stop]`. Only the first eight words of the sets are read.
    ///
    /// # Safety
    /// The processor must have AVX-512F and AVX-512 VBMI2 ([`fits`]).
    #[target_feature(enable = "avx512f,avx512vbmi2")]
    pub(crate) unsafe fn flood(
        on_board: &PointSet,
        stones: &[PointSet; 2],
        stop: Option<usize>,
        p: usize,
        stride: usize,
    ) -> Option<(Bits<8>, [bool; 2])> {
        // SAFETY: the sets hold at least eight words (WORDS)
        let load = |set: &PointSet| unsafe { _mm512_loadu_si512(set.0.as_ptr().cast()) };
        let zero = _mm512_setzero_si512();
        // on the board and in neither set
        let (black, white) = (load(&stones[0]), load(&stones[1]));
        let empty = _mm512_ternarylogic_epi64::<0x10>(load(on_board), black, white);
        let stop = stop.map_or(zero, |c| load(&stones[c]));
        let (one, stride) = (_mm512_set1_epi64(1), _mm512_set1_epi64(stride as i64));
        // the set and its four neighbours, within `mask` (lanes shifted once, for both distances)
        let dilated_within = |set: __m512i, mask: __m512i| {
            let below = _mm512_alignr_epi64::<7>(set, zero); // lane i: word i - 1
            let above = _mm512_alignr_epi64::<1>(zero, set); // lane i: word i + 1
            let east_west = _mm512_ternarylogic_epi64::<0xFE>(
                set,
                _mm512_shldv_epi64(set, below, one),
                _mm512_shrdv_epi64(set, above, one),
            );
            let north_south = _mm512_or_si512(
                _mm512_shldv_epi64(set, below, stride),
                _mm512_shrdv_epi64(set, above, stride),
            );
            // (a | b) & c
            _mm512_ternarylogic_epi64::<0xA8>(east_west, north_south, mask)
        };
        let all = _mm512_set1_epi64(-1);
        let mut region = _mm512_maskz_set1_epi64(1 << (p / 64), 1 << (p % 64));
        // one branch a step: the loop ends when the flood touches `stop` or stops growing
        let grown = loop {
            let grown = dilated_within(dilated_within(region, empty), all);
            let next = _mm512_and_si512(grown, empty);
            let (touched, grew) =
                (_mm512_test_epi64_mask(grown, stop), _mm512_cmpneq_epi64_mask(next, region));
            if (touched != 0) | (grew == 0) {
                if touched != 0 {
                    return None;
                }
                break grown;
            }
            region = next;
        };
        let mut words = [0u64; 8];
        // SAFETY: eight words written into eight words
        unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), region) };
        let touches = |stones| _mm512_test_epi64_mask(grown, stones) != 0;
        Some((Bits(words), [touches(black), touches(white)]))
    }
}

/// Elsewhere the word-by-word flood serves every board.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) mod wide {
    /// Never: there is no wide flood on this architecture.
    pub(crate) fn fits(_slots: usize) -> bool {
        false
    }
}
