//! Seat tokens and identifiers: random, unguessable strings, and a comparison that takes the
//! same time whatever the guess, so that a token cannot be found byte by byte by timing.

/// Random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    // the OS random source failing is not something a server can recover from
    getrandom::fill(&mut buf).expect("the operating system's random source is unavailable");
    buf
}

/// `N` random bytes as lowercase hex.
fn random_hex<const N: usize>() -> String {
    random_bytes::<N>().iter().map(|b| format!("{b:02x}")).collect()
}

/// A seat token: 256 random bits. Whoever holds it plays that seat.
pub fn new_token() -> String {
    random_hex::<32>()
}

/// An invitation code: 128 random bits, the part of an invitation link that lets one person join.
pub fn new_invite() -> String {
    random_hex::<16>()
}

/// A game id: 64 random bits, public (it appears in links), unique in practice.
pub fn new_game_id() -> String {
    random_hex::<8>()
}

/// A fair coin from the operating system's random source (the colours of a `random` game).
pub fn coin() -> bool {
    random_bytes::<1>()[0] & 1 == 0
}

/// Whether two strings are equal, in time that depends only on their lengths.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_and_distinct() {
        let (a, b) = (new_token(), new_token());
        assert_eq!(a.len(), 64);
        assert_ne!(a, b);
        assert!(same(&a, &a.clone()));
        assert!(!same(&a, &b));
        assert!(!same(&a, &a[1..]));
    }
}
