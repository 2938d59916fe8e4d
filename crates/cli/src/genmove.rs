//! `variago genmove`: the search's move for the side to move, with the evaluation before it.

use std::any::Any;
use std::time::Duration;

use variago_rules::Move;
use variago_rules::any::GameVisitor;
use variago_search::{Analysis, Level, MoveStats, Search, Settings};

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

/// Runs the search on the concrete single-board game inside an `AnyGame`, monomorphised.
pub struct Single(pub Settings);

impl GameVisitor for Single {
    type Output = Option<Analysis<Move>>;

    fn visit<G: variago_rules::Game>(self, game: G) -> Self::Output {
        Search::new(self.0).analyse(&game).map(single_board)
    }
}

/// The analysis with its moves as single-board [`Move`]s: every variant an `AnyGame` holds plays
/// them (a type check the compiler resolves per variant).
fn single_board<M: Copy + 'static>(analysis: Analysis<M>) -> Analysis<Move> {
    let cast = |mv: M| *(&mv as &dyn Any).downcast_ref::<Move>().expect("single-board variants play Move");
    Analysis {
        best: cast(analysis.best),
        visits: analysis.visits,
        winrate: analysis.winrate,
        resign: analysis.resign,
        pv: analysis.pv.into_iter().map(cast).collect(),
        moves: analysis
            .moves
            .into_iter()
            .map(|m| MoveStats { mv: cast(m.mv), visits: m.visits, winrate: m.winrate })
            .collect(),
        playouts: analysis.playouts,
        elapsed: analysis.elapsed,
    }
}

/// The evaluation line (the principal variation's moves joined by `separator`), then the move as
/// the last line.
pub fn print<M: Copy>(analysis: &Analysis<M>, separator: &str, name: impl Fn(M) -> String) {
    let seconds = analysis.elapsed.as_secs_f64();
    println!(
        "visits {} winrate {:.1}% playouts {} in {:.2} s ({:.0} playouts/s) pv {}",
        analysis.visits,
        100.0 * analysis.winrate,
        analysis.playouts,
        seconds,
        analysis.playouts as f64 / seconds.max(1e-9),
        analysis.pv.iter().map(|&mv| name(mv)).collect::<Vec<_>>().join(separator)
    );
    println!("{}", name(analysis.best));
}
