//! `variago genmove`: the search's move for the side to move, with the evaluation before it.

use std::time::Duration;

use variago_search::playout::Policy;
use variago_search::{Analysis, Level, Settings};

/// The search budget flags, shared by `genmove` and `gtp`.
#[derive(clap::Args)]
pub struct Budget {
    /// Playouts per move (summed over threads); reproducible with a fixed seed on one thread.
    #[arg(long, conflicts_with = "time")]
    pub playouts: Option<u64>,
    /// Seconds to think per move.
    #[arg(long)]
    pub time: Option<f64>,
    /// Threads, all growing one shared tree (reproducible moves need one thread).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Random seed, for repeatable moves (default 1; `play` takes one from the clock and prints it).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Strength 1-10 (250 playouts doubling per level; 10 thinks 5 s); --playouts or --time win.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: Option<u8>,
    /// The playouts' move policy: `light` (atari answers, then random moves; the default below
    /// 9x9) or `heavy` (atari answers, learned 3x3 patterns around the last move, no
    /// self-atari; the default from 9x9).
    #[arg(long)]
    pub playout: Option<Policy>,
    /// Share of a playout's reward its score margin moves, around the expected margin (0 to
    /// 0.5; 0 values the result alone): among moves that win or lose alike, the larger margin.
    #[arg(long, default_value_t = variago_search::DEFAULT_SCORE_SHARE, value_parser = score_share)]
    pub score_share: f64,
    /// How much less than half a win a draw is worth to the AI (0 to 0.5; default 0.1): it
    /// steers clear of a draw unless it thinks itself losing by more than this.
    #[arg(long, default_value_t = variago_search::DEFAULT_CONTEMPT, value_parser = contempt)]
    pub contempt: f64,
    /// RAVE's equivalence: the visits at which a move's own value and its all-moves-as-first
    /// value weigh alike (default 3000; for tuning).
    #[arg(long, value_parser = rave_equivalence)]
    pub rave: Option<f64>,
    /// UCT's exploration constant (default 0; for tuning).
    #[arg(long, value_parser = exploration)]
    pub explore: Option<f64>,
    /// Nodes the search tree may hold (about 75 bytes each; default 2,000,000): past half of it
    /// leaves expand ever more slowly, and not at all once it is full.
    #[arg(long, value_parser = max_nodes)]
    pub max_nodes: Option<usize>,
}

/// A bound on the tree's nodes from a thousand (a tree must hold a root's children) to
/// [`MAX_NODES`].
pub(crate) fn max_nodes(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1_000..=MAX_NODES).contains(n))
        .ok_or_else(|| format!("'{text}' is not a number of nodes from 1000 to {MAX_NODES}"))
}

/// The most nodes a user may let a tree hold: 100 million take about 8 GB.
pub(crate) const MAX_NODES: usize = 100_000_000;

/// A RAVE equivalence of at least one visit (it divides).
pub(crate) fn rave_equivalence(text: &str) -> Result<f64, String> {
    number_in(text, 1.0..=1e9, "a number of visits from 1 to 1e9")
}

/// An exploration constant from 0 to 10.
pub(crate) fn exploration(text: &str) -> Result<f64, String> {
    number_in(text, 0.0..=10.0, "an exploration constant from 0 to 10")
}

/// A score share from 0 to 0.5: beyond it a loss could outweigh a win.
pub(crate) fn score_share(text: &str) -> Result<f64, String> {
    number_in(text, 0.0..=0.5, "a share from 0 to 0.5")
}

/// A contempt from 0 to 0.5: beyond it a draw would be worth less than a loss.
pub(crate) fn contempt(text: &str) -> Result<f64, String> {
    number_in(text, 0.0..=0.5, "a contempt from 0 to 0.5")
}

/// The number `text` if it lies in `range`, else a one-line error saying it is not `what`.
fn number_in(text: &str, range: std::ops::RangeInclusive<f64>, what: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| range.contains(x))
        .ok_or_else(|| format!("'{text}' is not {what}"))
}

impl Budget {
    /// The search settings these flags give.
    pub fn settings(&self) -> Result<Settings, String> {
        let settings = settings(self.playouts, self.time, self.threads, self.seed.unwrap_or(1), self.level)?;
        let tuning = Tuning {
            playout: self.playout,
            score_share: Some(self.score_share),
            contempt: Some(self.contempt),
            rave_equivalence: self.rave,
            exploration: self.explore,
            expand_after: None,
            max_nodes: self.max_nodes,
        };
        Ok(tuning.over(settings))
    }

    /// Whether the user chose the budget (a level, playouts or a time), rather than leaving it to
    /// the default or, in `gtp`, to the game's clock.
    pub fn is_chosen(&self) -> bool {
        self.playouts.is_some() || self.time.is_some() || self.level.is_some()
    }
}

/// The search's constants a user may set for tuning (flags, or `variago:` engine specs): each
/// one given replaces the default.
#[derive(Default)]
pub struct Tuning {
    /// [`Settings::playout`].
    pub playout: Option<Policy>,
    /// [`Settings::score_share`].
    pub score_share: Option<f64>,
    /// [`Settings::contempt`].
    pub contempt: Option<f64>,
    /// [`Settings::rave_equivalence`].
    pub rave_equivalence: Option<f64>,
    /// [`Settings::exploration`].
    pub exploration: Option<f64>,
    /// [`Settings::expand_after`].
    pub expand_after: Option<u32>,
    /// [`Settings::max_nodes`].
    pub max_nodes: Option<usize>,
}

impl Tuning {
    /// `settings` with the constants given here.
    pub fn over(self, settings: Settings) -> Settings {
        Settings {
            playout: self.playout.or(settings.playout),
            score_share: self.score_share.unwrap_or(settings.score_share),
            contempt: self.contempt.unwrap_or(settings.contempt),
            rave_equivalence: self.rave_equivalence.unwrap_or(settings.rave_equivalence),
            exploration: self.exploration.unwrap_or(settings.exploration),
            expand_after: self.expand_after.unwrap_or(settings.expand_after),
            max_nodes: self.max_nodes.unwrap_or(settings.max_nodes),
            ..settings
        }
    }
}

/// The search settings from the flags: `--playouts` or `--time` win over `--level`, which wins
/// over the default budget.
pub fn settings(
    playouts: Option<u64>,
    time: Option<f64>,
    threads: usize,
    seed: u64,
    level: Option<u8>,
) -> Result<Settings, String> {
    if threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let mut settings = level.and_then(Level::new).map_or_else(Settings::default, Level::settings);
    if let Some(n) = playouts {
        if n == 0 {
            return Err("--playouts must be at least 1".into());
        }
        settings.playouts = n;
        settings.time = None;
    }
    if let Some(seconds) = time {
        let time = Duration::try_from_secs_f64(seconds)
            .ok()
            .filter(|t| !t.is_zero())
            .ok_or_else(|| format!("--time must be a positive number of seconds, not {seconds}"))?;
        settings.time = Some(time);
        settings.playouts = u64::MAX;
    }
    Ok(Settings { threads, seed, ..settings })
}

/// The evaluation line (the principal variation's moves joined by `separator`), then the move as
/// the last line.
pub fn print<M: Copy>(analysis: &Analysis<M>, separator: &str, name: impl Fn(M) -> String) {
    let seconds = analysis.elapsed.as_secs_f64();
    println!(
        "visits {} winrate {:.1}% playouts {} in {:.2} s ({:.0} playouts/s) nodes {} pv {}",
        analysis.visits,
        100.0 * analysis.winrate,
        analysis.playouts,
        seconds,
        analysis.playouts as f64 / seconds.max(1e-9),
        analysis.nodes,
        analysis.pv.iter().map(|&mv| name(mv)).collect::<Vec<_>>().join(separator)
    );
    println!("{}", name(analysis.best));
}
