//! How a search with a time limit spends it: less on a clear move, whose most visited choice the
//! rest of the time could not change, and more on an unclear one, whose two best choices are
//! close (Huang, Coulom and Lin, "Time Management for Monte-Carlo Tree Search Applied to the
//! Game of Go", 2010, found both to pay).

use std::time::{Duration, Instant};

/// A time-limited search's budget.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TimeBudget {
    /// When the search started.
    pub start: Instant,
    /// The time the move is given.
    pub time: Duration,
    /// The longest it may take on an unclear move (at least `time`).
    pub max_time: Duration,
    /// Whether the root's visits may end it early or keep it going past `time`; a pondering
    /// step, which the caller times, runs for exactly `time`.
    pub adaptive: bool,
}

/// The share of the time that must pass before a search stops early: before it, the visits are
/// too few to call any move clear.
const MIN_SHARE: f64 = 0.1;

/// Past its time, a search goes on while its most visited move has fewer than this many times
/// the visits of the second.
const UNCLEAR_RATIO: f64 = 1.5;

impl TimeBudget {
    /// Whether the search should stop now, with `playouts` run since it started and the root's
    /// two most visited moves at `best` and `second` visits.
    pub fn is_spent(&self, playouts: u64, best: u64, second: u64) -> bool {
        let elapsed = self.start.elapsed();
        if self.adaptive {
            should_stop(elapsed, self.time, self.max_time, playouts, best, second)
        } else {
            elapsed >= self.time
        }
    }
}

/// The time management's decision, a pure function of the clock and the root's visits: stop at
/// `max_time`; between `time` and `max_time`, stop once the most visited move leads the second
/// by [`UNCLEAR_RATIO`]; before `time`, stop once the second could not catch up with the first
/// even if every playout of the time left (at the rate so far) went to it.
pub(crate) fn should_stop(
    elapsed: Duration,
    time: Duration,
    max_time: Duration,
    playouts: u64,
    best: u64,
    second: u64,
) -> bool {
    if elapsed >= max_time {
        return true;
    }
    if elapsed >= time {
        return best as f64 >= UNCLEAR_RATIO * second as f64;
    }
    let seconds = elapsed.as_secs_f64();
    if seconds < MIN_SHARE * time.as_secs_f64() {
        return false;
    }
    let to_come = playouts as f64 / seconds * (time - elapsed).as_secs_f64();
    second as f64 + to_come < best as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn clear_moves_stop_early_and_unclear_ones_go_on_until_the_longest_time() {
        let (time, max_time) = (ms(1000), ms(2000));
        // 1,000 playouts in 800 ms: another 250 to come
        assert!(should_stop(ms(800), time, max_time, 1000, 900, 30), "forced: the second cannot catch up");
        assert!(!should_stop(ms(800), time, max_time, 1000, 500, 300), "the second still could");
        assert!(!should_stop(ms(500), time, max_time, 1000, 900, 30), "halfway, 1,000 more to come");
        assert!(!should_stop(ms(50), time, max_time, 100, 100, 0), "too early to call anything clear");
        // past the time given: on while the two best are close, never past the longest time
        assert!(!should_stop(ms(1200), time, max_time, 2400, 1000, 900));
        assert!(should_stop(ms(1200), time, max_time, 2400, 1500, 900));
        assert!(should_stop(ms(2000), time, max_time, 4000, 1000, 999));
        // with no room past the time given, it ends there however close the two are
        assert!(should_stop(ms(1000), time, time, 2000, 1000, 999));
        assert!(!should_stop(ms(999), time, time, 2000, 1000, 999));
    }
}
