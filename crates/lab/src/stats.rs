//! The summary of a set of self-play games: every statistic of lab.md with its 95% interval,
//! computed from the games' lines alone (so that a merge of shards prints what one run prints).
//!
//! Intervals (docs/lab-selfplay.md says the same):
//! - a rate of games (first-player win rate, draw rate, completion): Wilson's score interval;
//! - a mean per game (duration, lead changes, drama, restriction hits): the mean ± 1.96 standard
//!   errors (sample standard deviation over √n); none below two games;
//! - a ratio pooled over moves (decision moves, branching factor): the ratio of sums, with the
//!   standard error of a ratio estimator that takes the game as the unit (moves of one game are
//!   not independent);
//! - balance: 1 − |gap| with the gap between the players' win rates ± 1.96 standard errors of a
//!   difference of two multinomial shares, one pseudo-win added to each player;
//! - every interval is cut to the values its statistic can take (no negative count, no share
//!   above 1).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::selfplay::GameStats;

/// The normal quantile of a two-sided 95% interval.
const Z: f64 = 1.96;

/// An estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The estimate.
    pub value: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Interval {
    /// An estimate without an interval (both ends equal to it).
    fn point(value: f64) -> Self {
        Interval { value, low: value, high: value }
    }

    /// `V [LOW, HIGH]` with `decimals` decimals.
    pub fn text(&self, decimals: usize) -> String {
        format!("{:.d$} [{:.d$}, {:.d$}]", self.value, self.low, self.high, d = decimals)
    }

    /// The interval cut to the values the statistic can take.
    fn within(self, min: f64, max: f64) -> Self {
        Interval { value: self.value, low: self.low.clamp(min, max), high: self.high.clamp(min, max) }
    }
}

/// `k` successes in `n` trials: the rate and its 95% Wilson score interval. With no trial the
/// rate is 0.5 and the interval [0, 1] (nothing is known).
pub fn wilson(k: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval { value: 0.5, low: 0.0, high: 1.0 };
    }
    let n = n as f64;
    let p = k as f64 / n;
    let center = (p + Z * Z / (2.0 * n)) / (1.0 + Z * Z / n);
    let half = Z / (1.0 + Z * Z / n) * (p * (1.0 - p) / n + Z * Z / (4.0 * n * n)).sqrt();
    Interval { value: p, low: (center - half).max(0.0), high: (center + half).min(1.0) }
}

/// The mean of `xs` and mean ± 1.96 standard errors; a point without an interval below two
/// values (0 for none).
pub fn mean_interval(xs: &[f64]) -> Interval {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return Interval::point(0.0);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return Interval::point(mean);
    }
    let variance = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = Z * (variance / n).sqrt();
    Interval { value: mean, low: mean - half, high: mean + half }
}

/// The ratio Σy / Σx of per-game totals, with ± 1.96 standard errors of the ratio estimator
/// (games as the unit): se = √(Σ(yᵢ − R·xᵢ)² / (n(n−1))) / x̄.
pub fn ratio_interval(ys: &[f64], xs: &[f64]) -> Interval {
    let (sy, sx): (f64, f64) = (ys.iter().sum(), xs.iter().sum());
    if sx == 0.0 {
        return Interval::point(0.0);
    }
    let ratio = sy / sx;
    let n = xs.len() as f64;
    if xs.len() < 2 {
        return Interval::point(ratio);
    }
    let residuals = ys.iter().zip(xs).map(|(y, x)| (y - ratio * x).powi(2)).sum::<f64>();
    let half = Z * (residuals / (n * (n - 1.0))).sqrt() / (sx / n);
    Interval { value: ratio, low: ratio - half, high: ratio + half }
}

/// Ludii's balance for two players from their wins over `n` games: 1 minus the gap between
/// their win rates. Its interval is that of 1 − |gap|, from a normal interval of the gap computed
/// with one pseudo-win added to each player (Agresti and Caffo's adjustment, so that 2 wins out
/// of 2 games do not give a zero-width interval).
pub fn balance(first_wins: u64, second_wins: u64, n: u64) -> Interval {
    if n == 0 {
        return Interval { value: 1.0, low: 0.0, high: 1.0 };
    }
    let nf = n as f64;
    let value = 1.0 - (first_wins as f64 - second_wins as f64).abs() / nf;
    let adjusted = nf + 2.0;
    let (p, q) = ((first_wins as f64 + 1.0) / adjusted, (second_wins as f64 + 1.0) / adjusted);
    let gap = p - q;
    let half = Z * ((p + q - gap * gap).max(0.0) / adjusted).sqrt();
    let (low, high) = (gap - half, gap + half);
    // |gap| over the interval: from 0 when it straddles 0, else from the nearer end
    let smallest = if low <= 0.0 && high >= 0.0 { 0.0 } else { low.abs().min(high.abs()) };
    let largest = low.abs().max(high.abs()).min(1.0);
    Interval { value, low: 1.0 - largest, high: 1.0 - smallest }
}

/// The `q` quantile of sorted values by linear interpolation between the closest ranks (the
/// "type 7" of R, numpy's default): position q·(n−1).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let position = q * (sorted.len() - 1) as f64;
    let (below, fraction) = (position.floor() as usize, position.fract());
    let above = (below + 1).min(sorted.len() - 1);
    sorted[below] + fraction * (sorted[above] - sorted[below])
}

/// Moves per game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Duration {
    /// The mean with its interval.
    pub mean: Interval,
    /// The median.
    pub median: f64,
    /// The first quartile.
    pub q1: f64,
    /// The third quartile.
    pub q3: f64,
    /// The shortest game.
    pub min: u32,
    /// The longest game.
    pub max: u32,
}

/// Every statistic of lab.md over a set of games: `summary.json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Games in all.
    pub games: u64,
    /// Games with a winner.
    pub decisive: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the first player won.
    pub first_player_wins: u64,
    /// Games the second player won.
    pub second_player_wins: u64,
    /// The player who moves first (`B`; `W` in Galice, where it is the first after the setup).
    pub first_player: String,
    /// First-player wins over decisive games.
    pub first_player_win_rate: Interval,
    /// Galice: wins of the player who made the pie setup over decisive games.
    pub setup_player_win_rate: Option<Interval>,
    /// Draws over all games.
    pub draw_rate: Interval,
    /// Games with a winner over all games.
    pub completion: Interval,
    /// Ludii's balance: 1 − |first's win rate − second's win rate| (rates over all games).
    pub balance: Interval,
    /// Moves per game, passes included.
    pub duration: Duration,
    /// Moves where the mover had more than one legal move, over all moves.
    pub decision_moves: Interval,
    /// Legal moves per move (pass included), over all moves.
    pub branching_factor: Interval,
    /// Lead changes per game.
    pub lead_changes: Interval,
    /// Drama per decisive game with values.
    pub drama: Option<Interval>,
    /// Restriction hits per game.
    pub restriction_hits: Interval,
    /// Restriction hits per game, per restriction.
    pub restrictions: BTreeMap<String, f64>,
    /// Games scored as they stood at the move cap.
    pub move_cap: u64,
}

impl Summary {
    /// The summary of `games` (in any order: they are taken by game number).
    pub fn of(games: &[GameStats]) -> Summary {
        let mut games: Vec<&GameStats> = games.iter().collect();
        games.sort_by_key(|g| g.game);
        let n = games.len() as u64;
        let count = |f: &dyn Fn(&GameStats) -> bool| games.iter().filter(|g| f(g)).count() as u64;
        let first_wins = count(&|g| g.first_won() == Some(true));
        let second_wins = count(&|g| g.first_won() == Some(false));
        let decisive = first_wins + second_wins;
        let draws = n - decisive;
        let setup_games = count(&|g| g.setup.is_some() && g.winner.is_some());
        let setup_player_win_rate =
            (setup_games > 0).then(|| wilson(count(&|g| g.setup_won() == Some(true)), setup_games));
        let per_game = |f: &dyn Fn(&GameStats) -> f64| games.iter().map(|g| f(g)).collect::<Vec<f64>>();
        let moves = per_game(&|g| f64::from(g.moves));
        let mut sorted = moves.clone();
        sorted.sort_by(f64::total_cmp);
        let duration = Duration {
            mean: mean_interval(&moves).within(0.0, f64::INFINITY),
            median: quantile(&sorted, 0.5),
            q1: quantile(&sorted, 0.25),
            q3: quantile(&sorted, 0.75),
            min: games.iter().map(|g| g.moves).min().unwrap_or(0),
            max: games.iter().map(|g| g.moves).max().unwrap_or(0),
        };
        let dramas: Vec<f64> = games.iter().filter_map(|g| g.drama).collect();
        let mut restrictions = BTreeMap::new();
        for g in &games {
            for (name, hits) in &g.restrictions {
                *restrictions.entry(name.clone()).or_insert(0.0) += f64::from(*hits);
            }
        }
        restrictions.values_mut().for_each(|total| *total /= n.max(1) as f64);
        Summary {
            games: n,
            decisive,
            draws,
            first_player_wins: first_wins,
            second_player_wins: second_wins,
            first_player: games
                .first()
                .map_or("B", |g| if g.first == crate::Player::B { "B" } else { "W" })
                .into(),
            first_player_win_rate: wilson(first_wins, decisive),
            setup_player_win_rate,
            // with no game at all, no draw either: a rate of 0 in [0, 1]
            draw_rate: if n == 0 { Interval { value: 0.0, low: 0.0, high: 1.0 } } else { wilson(draws, n) },
            completion: wilson(decisive, n),
            balance: balance(first_wins, second_wins, n),
            duration,
            decision_moves: ratio_interval(&per_game(&|g| f64::from(g.decision_moves)), &moves)
                .within(0.0, 1.0),
            branching_factor: ratio_interval(&per_game(&|g| g.legal_moves as f64), &moves)
                .within(0.0, f64::INFINITY),
            lead_changes: mean_interval(&per_game(&|g| f64::from(g.lead_changes))).within(0.0, f64::INFINITY),
            drama: (!dramas.is_empty()).then(|| mean_interval(&dramas).within(0.0, 1.0)),
            restriction_hits: mean_interval(&per_game(&|g| f64::from(g.restriction_hits)))
                .within(0.0, f64::INFINITY),
            restrictions,
            move_cap: count(&|g| g.ending == "move cap"),
        }
    }

    /// The contract's last line: `first-player win rate W [LOW, HIGH], draws D, N games`, D the
    /// draw rate.
    pub fn last_line(&self) -> String {
        format!(
            "first-player win rate {}, draws {:.3}, {} games",
            self.first_player_win_rate.text(3),
            self.draw_rate.value,
            self.games
        )
    }

    /// The summary as text, one statistic a line, [`Summary::last_line`] last.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let first =
            if self.first_player == "W" { "White, the first to move after the setup," } else { "Black" };
        let _ = writeln!(
            out,
            "games: {}, decisive {}, draws {}, scored at the move cap {}",
            self.games, self.decisive, self.draws, self.move_cap
        );
        let _ = writeln!(
            out,
            "first-player win rate: {} ({first} won {} of {} decisive games)",
            self.first_player_win_rate.text(3),
            self.first_player_wins,
            self.decisive
        );
        if let Some(setup) = &self.setup_player_win_rate {
            let _ =
                writeln!(out, "setup-player win rate: {} (the player who placed the setup)", setup.text(3));
        }
        let _ = writeln!(out, "draw rate: {}", self.draw_rate.text(3));
        let _ = writeln!(out, "completion: {}", self.completion.text(3));
        let _ = writeln!(out, "balance: {}", self.balance.text(3));
        let d = &self.duration;
        let _ = writeln!(
            out,
            "duration: median {:.1}, quartiles {:.1}-{:.1}, range {}-{}, mean {} moves",
            d.median,
            d.q1,
            d.q3,
            d.min,
            d.max,
            d.mean.text(1)
        );
        let _ = writeln!(out, "decision moves: {} of moves", self.decision_moves.text(3));
        let _ = writeln!(out, "branching factor: {} legal moves per move", self.branching_factor.text(2));
        let _ = writeln!(out, "lead changes: {} per game", self.lead_changes.text(2));
        match &self.drama {
            Some(drama) => {
                let _ = writeln!(out, "drama: {} of moves with the winner behind", drama.text(3));
            }
            None => {
                let _ = writeln!(out, "drama: none (no decisive game with values)");
            }
        }
        let detail = self
            .restrictions
            .iter()
            .map(|(name, per_game)| format!("{name} {per_game:.2}"))
            .collect::<Vec<_>>()
            .join(", ");
        let detail = if detail.is_empty() { String::new() } else { format!(" ({detail})") };
        let _ = writeln!(out, "restriction hits: {} per game{detail}", self.restriction_hits.text(2));
        let _ = writeln!(out, "{}", self.last_line());
        out
    }
}

/// How a row of a comparison writes one run's summary.
type Cell = Box<dyn Fn(&Summary) -> String>;

/// The statistics of several runs side by side, as `lab compare` and `lab report` show them: one
/// row per statistic (its name, then one cell per summary).
pub fn comparison_rows(summaries: &[Summary]) -> Vec<(&'static str, Vec<String>)> {
    let rate = |i: &Interval| i.text(3);
    let rows: Vec<(&str, Cell)> = vec![
        ("games", Box::new(|s| s.games.to_string())),
        ("first-player win rate", Box::new(move |s| rate(&s.first_player_win_rate))),
        ("draw rate", Box::new(move |s| rate(&s.draw_rate))),
        ("completion", Box::new(move |s| rate(&s.completion))),
        ("balance", Box::new(move |s| rate(&s.balance))),
        (
            "duration: median (quartiles)",
            Box::new(|s| format!("{:.1} ({:.1}-{:.1})", s.duration.median, s.duration.q1, s.duration.q3)),
        ),
        ("duration: mean", Box::new(|s| s.duration.mean.text(1))),
        ("decision moves", Box::new(move |s| rate(&s.decision_moves))),
        ("branching factor", Box::new(|s| s.branching_factor.text(2))),
        ("lead changes per game", Box::new(|s| s.lead_changes.text(2))),
        ("drama", Box::new(move |s| s.drama.as_ref().map_or("-".into(), rate))),
        ("restriction hits per game", Box::new(|s| s.restriction_hits.text(2))),
        (
            "restriction hits by rule",
            Box::new(|s| {
                let parts: Vec<String> = s.restrictions.iter().map(|(k, v)| format!("{k} {v:.2}")).collect();
                if parts.is_empty() { "-".into() } else { parts.join(", ") }
            }),
        ),
    ];
    rows.into_iter().map(|(name, cell)| (name, summaries.iter().map(&cell).collect())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_intervals_match_published_values() {
        // Newcombe (1998), table I: 81/263 → 0.2553-0.3662; 15/148 → 0.0624-0.1605;
        // 0/20 → 0-0.1611; 1/29 → 0.0061-0.1718
        let cases = [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ];
        for (k, n, low, high) in cases {
            let i = wilson(k, n);
            assert!(close(i.low, low) && close(i.high, high), "{k}/{n}: {i:?}");
        }
        let all = wilson(20, 20);
        assert_eq!(all.value, 1.0);
        assert!(close(all.low, 0.8389) && all.high == 1.0, "{all:?}");
        assert_eq!(wilson(0, 0), Interval { value: 0.5, low: 0.0, high: 1.0 });
        // symmetric around one half
        let (a, b) = (wilson(3, 10), wilson(7, 10));
        assert!(close(a.low, 1.0 - b.high) && close(a.high, 1.0 - b.low));
    }

    #[test]
    fn balance_is_one_minus_the_gap_between_win_rates() {
        assert_eq!(balance(50, 50, 100).value, 1.0);
        assert_eq!(balance(100, 0, 100).value, 0.0);
        // 60 wins, 30 losses, 10 draws: rates 0.6 and 0.3
        let b = balance(60, 30, 100);
        assert!(close(b.value, 0.7));
        // adjusted: 61/102 and 31/102, gap 0.2941 ± 1.96·√((92/102 − 0.2941²)/102) = ± 0.1752
        assert!(close(b.low, 1.0 - 0.4693) && close(b.high, 1.0 - 0.1189), "{b:?}");
        // two games won by the first player: a balance of 0, but nothing much is known
        let two = balance(2, 0, 2);
        assert_eq!((two.value, two.low, two.high), (0.0, 0.0, 1.0));
        // an interval straddling a zero gap reaches a balance of 1
        let even = balance(51, 49, 100);
        assert_eq!(even.high, 1.0);
        assert!(close(even.value, 0.98));
    }

    #[test]
    fn quartiles_interpolate_between_ranks() {
        let xs = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&xs, 0.5), 2.5);
        assert_eq!(quantile(&xs, 0.25), 1.75);
        assert_eq!(quantile(&xs, 0.75), 3.25);
        assert_eq!(quantile(&[7.0], 0.25), 7.0);
    }

    #[test]
    fn mean_and_ratio_intervals() {
        let m = mean_interval(&[1.0, 2.0, 3.0, 4.0]);
        // sd = √(5/3), se = sd/2
        assert!(close(m.value, 2.5) && close(m.high - m.value, 1.96 * (5.0f64 / 3.0).sqrt() / 2.0));
        assert_eq!(mean_interval(&[3.0]), Interval::point(3.0));
        // the same ratio in every game: no spread
        let r = ratio_interval(&[2.0, 4.0, 6.0], &[1.0, 2.0, 3.0]);
        assert_eq!((r.value, r.low, r.high), (2.0, 2.0, 2.0));
        let r = ratio_interval(&[1.0, 3.0], &[2.0, 2.0]);
        // R = 1, residuals 1 and 1: se = √(2/2)/2
        assert!(close(r.value, 1.0) && close(r.high, 1.0 + 1.96 * 0.5), "{r:?}");
    }

    /// A hand-made game: winner, moves, values for Black.
    fn game(
        number: u64,
        winner: Option<Player>,
        moves: u32,
        values: &[f64],
        hits: &[(&str, u32)],
    ) -> GameStats {
        let values: Vec<Option<f64>> = values.iter().copied().map(Some).collect();
        GameStats {
            game: number,
            seed: number,
            result: match winner {
                Some(Player::B) => "B+1".into(),
                Some(Player::W) => "W+1".into(),
                None => "Draw".into(),
            },
            winner,
            first: Player::B,
            setup: None,
            ending: "score".into(),
            moves,
            passes: 2,
            decision_moves: moves - 1,
            legal_moves: 10 * u64::from(moves),
            restriction_hits: hits.iter().map(|h| h.1).sum(),
            restrictions: hits.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
            lead_changes: crate::selfplay::lead_changes(&values),
            drama: crate::selfplay::drama(&values, winner),
            values,
            seconds: 1.0,
        }
    }

    #[test]
    fn a_hand_made_game_list_gives_every_statistic() {
        let games = vec![
            game(0, Some(Player::B), 10, &[0.6, 0.4, 0.7], &[("ko", 2)]),
            game(1, Some(Player::W), 20, &[0.6, 0.6, 0.3, 0.2], &[("ko", 1), ("incursion", 3)]),
            game(2, None, 30, &[0.5, 0.5], &[]),
            game(3, Some(Player::B), 40, &[0.4, 0.4, 0.4, 0.6], &[]),
        ];
        let s = Summary::of(&games);
        assert_eq!(
            (s.games, s.decisive, s.draws, s.first_player_wins, s.second_player_wins),
            (4, 3, 1, 2, 1)
        );
        assert!(close(s.first_player_win_rate.value, 2.0 / 3.0));
        assert_eq!(s.first_player_win_rate, wilson(2, 3));
        assert_eq!(s.draw_rate, wilson(1, 4));
        assert_eq!(s.completion, wilson(3, 4));
        assert!(close(s.balance.value, 0.75));
        assert_eq!((s.duration.median, s.duration.q1, s.duration.q3), (25.0, 17.5, 32.5));
        assert_eq!((s.duration.min, s.duration.max, s.duration.mean.value), (10, 40, 25.0));
        // (9 + 19 + 29 + 39) / 100
        assert!(close(s.decision_moves.value, 0.96));
        assert!(close(s.branching_factor.value, 10.0));
        // lead changes 2, 1, 0, 1
        assert!(close(s.lead_changes.value, 1.0));
        // drama 1/3, 2/4 (White behind at 0.6, 0.6), none for the draw, 3/4
        let drama = s.drama.unwrap();
        assert!(close(drama.value, (1.0 / 3.0 + 0.5 + 0.75) / 3.0), "{drama:?}");
        assert!(close(s.restriction_hits.value, 1.5));
        assert_eq!(s.restrictions["ko"], 0.75);
        assert_eq!(s.restrictions["incursion"], 0.75);
        assert_eq!(s.last_line(), "first-player win rate 0.667 [0.208, 0.939], draws 0.250, 4 games");
        assert!(s.text().ends_with(&format!("{}\n", s.last_line())));
        // the order of the lines does not matter
        let mut reversed = games.clone();
        reversed.reverse();
        assert_eq!(Summary::of(&reversed), s);
        let json = serde_json::to_string(&s).unwrap();
        assert_eq!(serde_json::from_str::<Summary>(&json).unwrap(), s);
    }

    #[test]
    fn galice_reports_the_setup_player_beside_the_first_player() {
        let mut games = vec![game(0, Some(Player::W), 10, &[], &[]), game(1, Some(Player::B), 10, &[], &[])];
        for g in &mut games {
            g.first = Player::W;
        }
        games[0].setup = Some(Player::W);
        games[1].setup = Some(Player::W);
        let s = Summary::of(&games);
        assert_eq!(s.first_player, "W");
        assert_eq!(s.first_player_wins, 1);
        assert_eq!(s.setup_player_win_rate, Some(wilson(1, 2)));
        assert!(s.drama.is_none());
        assert!(s.text().contains("setup-player win rate: 0.500"));
    }

    #[test]
    fn no_games_still_print_a_last_line() {
        assert_eq!(
            Summary::of(&[]).last_line(),
            "first-player win rate 0.500 [0.000, 1.000], draws 0.000, 0 games"
        );
    }
}
