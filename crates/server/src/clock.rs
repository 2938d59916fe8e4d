//! Time controls and the clocks the server keeps for both players. The server is the only
//! authority on time: a clock is charged when a move is committed (and a timer ends the game
//! when the player to move runs out), so a slow or lying client cannot gain time.

use serde::{Deserialize, Serialize};

/// The longest main time or period accepted: a week, far beyond any game, small enough that
/// sums of milliseconds never overflow.
const MAX_MS: u64 = 7 * 24 * 3600 * 1000;
/// The most byo-yomi periods accepted.
const MAX_PERIODS: u32 = 100;

/// How much time each player has, chosen when the game is created.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
// `None {}`, not `None`: serde's deny_unknown_fields reaches struct variants only
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum TimeControl {
    /// No clocks.
    None {},
    /// Sudden death: one amount of time for the whole game.
    Absolute {
        /// Each player's time, in milliseconds.
        main_ms: u64,
    },
    /// Fischer: a main time, and an increment added after every move.
    Fischer {
        /// Each player's starting time, in milliseconds.
        main_ms: u64,
        /// Added after each of the player's moves.
        increment_ms: u64,
        /// The most a clock may hold after an increment (none by default).
        #[serde(default)]
        max_ms: Option<u64>,
    },
    /// Japanese byo-yomi: a main time, then periods; a move within a period keeps it, each
    /// period overrun is lost, and the flag falls when the last one runs out.
    ByoYomi {
        /// Each player's main time, in milliseconds.
        main_ms: u64,
        /// Number of periods after the main time.
        periods: u32,
        /// Length of one period, in milliseconds.
        period_ms: u64,
    },
}

/// One player's clock between moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Main time left, in milliseconds.
    pub main_ms: u64,
    /// Byo-yomi periods left (0 for the other time controls).
    pub periods: u32,
}

impl Default for TimeControl {
    fn default() -> Self {
        TimeControl::None {}
    }
}

impl TimeControl {
    /// Refuses time controls that make no sense (zero time, absurd lengths), in words.
    pub fn validate(&self) -> Result<(), String> {
        let within = |name: &str, ms: u64, min: u64| {
            if (min..=MAX_MS).contains(&ms) {
                Ok(())
            } else {
                Err(format!("time control: {name} must be between {min} and {MAX_MS} milliseconds"))
            }
        };
        match *self {
            TimeControl::None {} => Ok(()),
            TimeControl::Absolute { main_ms } => within("main_ms", main_ms, 1),
            TimeControl::Fischer { main_ms, increment_ms, max_ms } => {
                within("main_ms", main_ms, 1)?;
                within("increment_ms", increment_ms, 0)?;
                max_ms.map_or(Ok(()), |max| within("max_ms", max, main_ms))
            }
            TimeControl::ByoYomi { main_ms, periods, period_ms } => {
                within("main_ms", main_ms, 0)?;
                within("period_ms", period_ms, 1)?;
                if (1..=MAX_PERIODS).contains(&periods) {
                    Ok(())
                } else {
                    Err(format!("time control: periods must be between 1 and {MAX_PERIODS}"))
                }
            }
        }
    }

    /// Each player's clock at the start, or `None` without clocks.
    pub fn start(&self) -> Option<Clock> {
        match *self {
            TimeControl::None {} => None,
            TimeControl::Absolute { main_ms } | TimeControl::Fischer { main_ms, .. } => {
                Some(Clock { main_ms, periods: 0 })
            }
            TimeControl::ByoYomi { main_ms, periods, .. } => Some(Clock { main_ms, periods }),
        }
    }

    /// Milliseconds a player with this clock may still think before the flag falls.
    pub fn allowance(&self, clock: Clock) -> u64 {
        match *self {
            TimeControl::ByoYomi { period_ms, .. } => clock.main_ms + u64::from(clock.periods) * period_ms,
            _ => clock.main_ms,
        }
    }

    /// The clock after a move that took `elapsed_ms`, or `None` if the flag fell first.
    pub fn spend(&self, clock: Clock, elapsed_ms: u64) -> Option<Clock> {
        if elapsed_ms > self.allowance(clock) {
            return None;
        }
        let left = clock.main_ms.saturating_sub(elapsed_ms);
        Some(match *self {
            TimeControl::None {} | TimeControl::Absolute { .. } => Clock { main_ms: left, periods: 0 },
            TimeControl::Fischer { increment_ms, max_ms, .. } => {
                let main_ms = left + increment_ms;
                Clock { main_ms: max_ms.map_or(main_ms, |max| main_ms.min(max)), periods: 0 }
            }
            TimeControl::ByoYomi { period_ms, .. } => {
                let over = elapsed_ms.saturating_sub(clock.main_ms);
                // a move inside a period keeps it; each period fully overrun is lost
                let lost = if over == 0 { 0 } else { (over - 1) / period_ms };
                Clock { main_ms: left, periods: clock.periods - lost as u32 }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_and_fischer() {
        let absolute = TimeControl::Absolute { main_ms: 1000 };
        let start = absolute.start().unwrap();
        assert_eq!(absolute.spend(start, 400), Some(Clock { main_ms: 600, periods: 0 }));
        assert_eq!(absolute.spend(start, 1001), None);
        let fischer = TimeControl::Fischer { main_ms: 1000, increment_ms: 500, max_ms: Some(1200) };
        assert_eq!(fischer.spend(start, 100), Some(Clock { main_ms: 1200, periods: 0 }));
        assert_eq!(fischer.spend(start, 900), Some(Clock { main_ms: 600, periods: 0 }));
    }

    #[test]
    fn byo_yomi_keeps_a_period_used_within_it_and_loses_overruns() {
        let byo = TimeControl::ByoYomi { main_ms: 1000, periods: 3, period_ms: 100 };
        let start = byo.start().unwrap();
        assert_eq!(byo.allowance(start), 1300);
        assert_eq!(byo.spend(start, 1100), Some(Clock { main_ms: 0, periods: 3 }));
        assert_eq!(byo.spend(start, 1101), Some(Clock { main_ms: 0, periods: 2 }));
        assert_eq!(byo.spend(start, 1300), Some(Clock { main_ms: 0, periods: 1 }));
        assert_eq!(byo.spend(start, 1301), None);
    }

    #[test]
    fn silly_time_controls_are_refused() {
        assert!(TimeControl::Absolute { main_ms: 0 }.validate().is_err());
        assert!(TimeControl::ByoYomi { main_ms: 0, periods: 0, period_ms: 10 }.validate().is_err());
        assert!(TimeControl::Fischer { main_ms: 10, increment_ms: 1, max_ms: Some(5) }.validate().is_err());
        assert!(TimeControl::None {}.validate().is_ok());
    }
}
