//! Time controls from `time_settings`, `kgs-time_settings` and `time_left`, and the thinking time
//! they leave for one move when no fixed budget was given on the command line.

use std::time::Duration;

/// The time system the controller announced.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No time limit (the GTP default, and `kgs-time_settings none`).
    Unlimited,
    /// Main time, then Canadian byo-yomi: `stones` moves within each `period` (GTP's own
    /// system; `stones = 0` with a period means no limit).
    Canadian {
        /// Main time.
        main: Duration,
        /// Length of a byo-yomi period.
        period: Duration,
        /// Moves to play within one period.
        stones: u32,
    },
    /// Main time, then `periods` Japanese byo-yomi periods of `period` each (one move each).
    Japanese {
        /// Main time.
        main: Duration,
        /// Length of one period.
        period: Duration,
        /// Number of periods.
        periods: u32,
    },
}

/// What the clock of one player shows, as `time_left` last said.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Left {
    /// Time left in the current phase (main time, or the current byo-yomi period).
    time: Duration,
    /// Stones left to play in the byo-yomi period, 0 while in main time (GTP's convention).
    stones: u32,
}

/// The clocks of both players.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    system: TimeSystem,
    left: [Option<Left>; 2],
}

impl Default for Clock {
    fn default() -> Self {
        Clock { system: TimeSystem::Unlimited, left: [None; 2] }
    }
}

/// Kept in reserve for the answer to travel and the search to stop: thinking never uses the last
/// of it.
const SAFETY: Duration = Duration::from_millis(300);
/// Shortest think: even in time trouble the search gets a few playouts.
const MINIMUM: Duration = Duration::from_millis(20);

fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text.parse().map_err(|_| format!("'{text}' is not a number of seconds"))?;
    Duration::try_from_secs_f64(value).map_err(|_| format!("'{text}' is not a number of seconds"))
}

fn count(text: &str) -> Result<u32, String> {
    text.parse().map_err(|_| format!("'{text}' is not a count"))
}

impl Clock {
    /// `time_settings main_time byo_yomi_time byo_yomi_stones` (seconds, seconds, count).
    pub fn set_gtp(&mut self, args: &[String]) -> Result<(), String> {
        let [main, period, stones] = args else {
            return Err("expected main_time byo_yomi_time byo_yomi_stones".into());
        };
        let (main, period, stones) = (seconds(main)?, seconds(period)?, count(stones)?);
        self.system = if period > Duration::ZERO && stones == 0 {
            TimeSystem::Unlimited
        } else {
            TimeSystem::Canadian { main, period, stones }
        };
        self.left = [None; 2];
        Ok(())
    }

    /// `kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD
    /// STONES`.
    pub fn set_kgs(&mut self, args: &[String]) -> Result<(), String> {
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        self.system = match words[..] {
            ["none"] => TimeSystem::Unlimited,
            ["absolute", main] => {
                TimeSystem::Canadian { main: seconds(main)?, period: Duration::ZERO, stones: 0 }
            }
            ["byoyomi", main, period, periods] => TimeSystem::Japanese {
                main: seconds(main)?,
                period: seconds(period)?,
                periods: count(periods)?,
            },
            ["canadian", main, period, stones] => TimeSystem::Canadian {
                main: seconds(main)?,
                period: seconds(period)?,
                stones: count(stones)?,
            },
            _ => return Err("expected none, absolute M, byoyomi M P N or canadian M P S".into()),
        };
        self.left = [None; 2];
        Ok(())
    }

    /// `time_left color time stones`, for the player `color` (0 Black, 1 White).
    pub fn set_left(&mut self, player: usize, time: &str, stones: &str) -> Result<(), String> {
        self.left[player] = Some(Left { time: seconds(time)?, stones: count(stones)? });
        Ok(())
    }

    /// The system in force.
    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// Thinking time for `player`'s next move, with about `moves_left` moves still to play in the
    /// game, or `None` when the clock sets no limit.
    pub fn budget(&self, player: usize, moves_left: u32) -> Option<Duration> {
        let moves_left = moves_left.max(1);
        let (main, period, stones) = match self.system {
            TimeSystem::Unlimited => return None,
            TimeSystem::Canadian { main, period, stones } => (main, period, stones),
            TimeSystem::Japanese { main, period, periods } => (main, period, u32::from(periods > 0)),
        };
        let left = self.left[player].unwrap_or(Left { time: main, stones: 0 });
        let japanese = matches!(self.system, TimeSystem::Japanese { .. });
        let think = if left.stones > 0 {
            // in byo-yomi: a Japanese period is one move's (the count is the periods left), a
            // Canadian one is shared among the stones still to play in it
            left.time.saturating_sub(SAFETY) / if japanese { 1 } else { left.stones }
        } else if stones > 0 && period > Duration::ZERO {
            // main time: spread it, and count on one move's share of byo-yomi on top
            left.time / moves_left + period.saturating_sub(SAFETY) / stones
        } else {
            // absolute time: spread it with a margin
            left.time.saturating_sub(SAFETY) / moves_left
        };
        Some(think.max(MINIMUM))
    }

    /// The longest `player`'s next move may think when it is unclear (the search's
    /// `Settings::max_time`, which its clear moves' early stops pay for): twice the
    /// [`Clock::budget`] in main time, but at most a quarter of the main time left; in byo-yomi,
    /// whose periods are hard limits, the budget alone.
    pub fn longest(&self, player: usize, moves_left: u32) -> Option<Duration> {
        let budget = self.budget(player, moves_left)?;
        let main = match self.system {
            TimeSystem::Unlimited => return None,
            TimeSystem::Canadian { main, .. } | TimeSystem::Japanese { main, .. } => main,
        };
        let left = self.left[player].unwrap_or(Left { time: main, stones: 0 });
        if left.stones > 0 {
            return Some(budget);
        }
        Some((budget * 2).min(left.time.saturating_sub(SAFETY) / 4).max(budget))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn gtp_settings_and_time_left_give_a_share_per_move() {
        let mut clock = Clock::default();
        assert_eq!(clock.budget(0, 40), None);
        clock.set_gtp(&words("60 0 0")).unwrap();
        assert_eq!(clock.budget(0, 40), Some((Duration::from_secs(60) - SAFETY) / 40));
        clock.set_left(0, "10", "0").unwrap();
        assert_eq!(clock.budget(0, 10), Some((Duration::from_secs(10) - SAFETY) / 10));
        clock.set_gtp(&words("0 30 5")).unwrap();
        clock.set_left(1, "20", "4").unwrap();
        assert_eq!(clock.budget(1, 50), Some((Duration::from_secs(20) - SAFETY) / 4));
        clock.set_gtp(&words("0 1 0")).unwrap();
        assert_eq!(clock.system(), TimeSystem::Unlimited);
        assert_eq!(clock.longest(0, 40), None);
        assert!(clock.set_gtp(&words("1 2")).is_err());
        assert!(clock.set_gtp(&words("-1 2 3")).is_err());
    }

    #[test]
    fn an_unclear_move_may_take_twice_its_share_of_main_time_but_not_of_byo_yomi() {
        let mut clock = Clock::default();
        clock.set_gtp(&words("60 0 0")).unwrap();
        let budget = clock.budget(0, 40).unwrap();
        assert_eq!(clock.longest(0, 40), Some(budget * 2));
        // little main time left: a quarter of it, but never less than the budget
        clock.set_left(0, "2", "0").unwrap();
        assert_eq!(clock.longest(0, 6), Some((Duration::from_secs(2) - SAFETY) / 4));
        assert_eq!(clock.longest(0, 2), clock.budget(0, 2));
        // in byo-yomi
        clock.set_gtp(&words("0 30 5")).unwrap();
        clock.set_left(0, "20", "4").unwrap();
        assert_eq!(clock.longest(0, 40), clock.budget(0, 40));
    }

    #[test]
    fn kgs_settings_parse_every_system() {
        let mut clock = Clock::default();
        clock.set_kgs(&words("byoyomi 0 10 3")).unwrap();
        assert!(clock.budget(0, 30).unwrap() <= Duration::from_secs(10));
        clock.set_left(0, "10", "3").unwrap();
        assert_eq!(clock.budget(0, 30), Some(Duration::from_secs(10) - SAFETY));
        clock.set_kgs(&words("absolute 300")).unwrap();
        assert_eq!(clock.budget(0, 100), Some((Duration::from_secs(300) - SAFETY) / 100));
        clock.set_kgs(&words("none")).unwrap();
        assert_eq!(clock.budget(0, 100), None);
        assert!(clock.set_kgs(&words("fischer 1 2")).is_err());
        clock.set_kgs(&words("absolute 0")).unwrap();
        assert_eq!(clock.budget(0, 100), Some(MINIMUM));
    }
}
