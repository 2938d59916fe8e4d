//! Each player's end-of-turn boards, for the own-position draw (Incursion, Stoical and Excursion
//! Go): a placement that recreates one of the mover's earlier end-of-turn boards draws the game.

/// The end-of-turn boards by key (the board's Zobrist hash mixed with its player's side key) in
/// turn order, behind a filter of about 32 bits a key. A turn whose key's filter bit is clear,
/// nearly every turn of a game, records the key with two stores and a branch that almost always
/// goes the same way, where a hash set probed and filled a table; a set bit sends the turn to a
/// look through the keys.
#[derive(Debug, Default)]
pub(crate) struct OwnBoards {
    /// The filter's words, then the keys: one allocation to copy per playout.
    words: Vec<u64>,
    /// The filter's length in words (a power of two).
    filter_words: usize,
    /// The shift that leaves a key's filter bit: 64 minus the filter's bit count's logarithm.
    shift: u32,
}

impl OwnBoards {
    /// No boards yet, with room for `turns` turns before the list grows.
    pub(crate) fn with_room(turns: usize) -> Self {
        let filter_words = (turns * 32).div_ceil(64).next_power_of_two();
        let mut words = Vec::with_capacity(filter_words + turns);
        words.resize(filter_words, 0);
        OwnBoards { words, filter_words, shift: 64 - (filter_words * 64).trailing_zeros() }
    }

    /// Records the board `key`; returns whether it was recorded before.
    #[inline(always)]
    pub(crate) fn record(&mut self, key: u64) -> bool {
        let bit = (key >> self.shift) as usize;
        let mask = 1 << (bit % 64);
        let filter = &mut self.words[..self.filter_words];
        let maybe_seen = filter[bit / 64] & mask != 0;
        filter[bit / 64] |= mask;
        let seen = maybe_seen && self.holds(key);
        self.words.push(key);
        seen
    }

    /// Whether `key` was recorded: out of line, as the filter sends few turns here, and eight
    /// keys at a time, compared side by side.
    #[inline(never)]
    fn holds(&self, key: u64) -> bool {
        let blocks = self.words[self.filter_words..].chunks_exact(8);
        let rest = blocks.remainder();
        blocks.into_iter().any(|block| block.iter().fold(false, |found, &k| found | (k == key)))
            || rest.contains(&key)
    }
}

impl Clone for OwnBoards {
    /// A copy with the original's room, so that a playout's copy does not grow its list turn
    /// after turn.
    fn clone(&self) -> Self {
        let mut words = Vec::with_capacity(self.words.capacity());
        words.extend_from_slice(&self.words);
        OwnBoards { words, ..*self }
    }

    fn clone_from(&mut self, source: &Self) {
        let OwnBoards { words, filter_words, shift } = source;
        self.words.clone_from(words);
        (self.filter_words, self.shift) = (*filter_words, *shift);
    }
}

#[cfg(test)]
mod tests {
    use super::OwnBoards;
    use std::collections::HashSet;

    #[test]
    fn it_answers_as_a_set_of_the_keys_would() {
        // 400 keys drawn from 96 spread over the whole range: repeats, keys sharing a filter bit
        // with other keys (the small filters) and keys alone on theirs (the large one)
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            state
        };
        let pool: Vec<u64> = (0..96).map(|_| next()).collect();
        for turns in [1, 5, 40, 400] {
            let mut boards = OwnBoards::with_room(turns);
            let mut set = HashSet::new();
            for _ in 0..400 {
                let key = pool[(next() >> 32) as usize % pool.len()];
                assert_eq!(boards.record(key), !set.insert(key), "key {key:#x}, room for {turns}");
                boards = boards.clone();
            }
        }
    }
}
