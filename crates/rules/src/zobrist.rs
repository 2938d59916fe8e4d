//! Zobrist keys, generated at compile time so that hashes are the same in every process (records,
//! tests and the server can compare them).

use crate::geometry::MAX_SLOTS;

/// splitmix64: a tiny, well-mixed generator, good enough for hash keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// Kinds of piece a key exists for: black stone, white stone, black king, white king.
const PIECE_KINDS: usize = 4;

const fn generate() -> [[u64; PIECE_KINDS]; MAX_SLOTS] {
    let mut keys = [[0u64; PIECE_KINDS]; MAX_SLOTS];
    let mut state = 0x5641_5249_4147_4F21; // "VARIAGO!"
    let mut i = 0;
    while i < MAX_SLOTS {
        let mut k = 0;
        while k < PIECE_KINDS {
            let (next, key) = splitmix(state);
            state = next;
            keys[i][k] = key;
            k += 1;
        }
        i += 1;
    }
    keys
}

static PIECE_KEYS: [[u64; PIECE_KINDS]; MAX_SLOTS] = generate();

/// The key of a piece code (see `board::cell`) on a slot.
#[inline(always)]
pub(crate) fn piece_key(slot: usize, cell: u8) -> u64 {
    // cell: 1 black, 2 white, +4 for a king
    let kind = (cell as usize & 3) - 1 + ((cell as usize >> 2) & 1) * 2;
    PIECE_KEYS[slot][kind]
}

/// Mixed into a position's hash when White is to move.
pub(crate) const WHITE_TO_MOVE: u64 = 0x2F8E_2B61_9D3A_47C5;

/// Mixes a small number (a variant's remembered state) into a hash key.
pub(crate) const fn mix(value: u64) -> u64 {
    splitmix(value ^ 0x6C62_272E_07BB_0142).1
}
