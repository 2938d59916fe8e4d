//! `variago match`: games between two engines (the built-in AI or external GTP programs), the
//! colours alternating, refereed by variago's rules engine, with a summary table at the end.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use indicatif::{ProgressBar, ProgressStyle};
use variago_records::GameInfo;
use variago_records::sgf::sgf_date;
use variago_rules::galice::{Galice, Side};
use variago_rules::lifeline::Lifeline;
use variago_rules::spec::Variant;
use variago_rules::{AnyGame, Color, VariantSpec};

use crate::referee::{Engine, EngineSpec, Refereed, ignore_sigpipe, parse_engine, play_game};
use crate::{Failure, is_galice, parse_komi, playing_size};

/// The flags of `variago match`.
#[derive(clap::Args)]
pub struct Options {
    /// The engine playing Black in game 1: `variago:level=N`, `variago:playouts=N,threads=T`
    /// (also `time=S`; `priors=K`, the playouts the learned priors weigh as, 0 for none; and
    /// `resign=R`, resign below win rate R, which the built-in engine never does without it;
    /// `playout=light|heavy`, the playouts' policy, light below 9x9 and heavy from 9x9 by
    /// default; `contempt=C`, how much less than half a win a draw is worth to it, 0.1 by
    /// default; for tuning, `rave=N`, `explore=C` and `expand=N`, the visits a leaf needs before
    /// its children are added, 2 by default; `nodes=N`, the nodes the tree may hold, 2,000,000 by
    /// default) or `gtp:COMMAND LINE`.
    #[arg(long)]
    pub black: String,
    /// The engine playing White in game 1; the colours swap every game.
    #[arg(long)]
    pub white: String,
    /// Number of games.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Variant spec, `galice`, or `lifeline[:OPTIONS]`. An external engine plays `go` by the standard commands; any
    /// other variant needs an engine that knows variago's GTP extensions (`variago gtp`).
    #[arg(long, default_value = "go")]
    pub variant: String,
    /// Board size, `N` or `WxH` (default: the spec's `size=`, else 9, 19 for Borderline).
    #[arg(long)]
    pub size: Option<String>,
    /// Komi (default: the spec's; Galice and Square Lifeline have none).
    #[arg(long)]
    pub komi: Option<String>,
    /// Moves after which a game is scored as it stands (default 3 per point, both boards' in
    /// Galice).
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Folder to save each game as SGF (game-001.sgf, ...).
    #[arg(long)]
    pub sgf_dir: Option<PathBuf>,
    /// Random seed of the built-in engines (varied per game and engine).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds a GTP engine may take for any answer; past it, it loses the game by forfeit and is
    /// restarted for the next one.
    #[arg(long, default_value_t = 300.0)]
    pub move_timeout: f64,
}

/// Wins, losses and draws of one engine, in all and per colour.
#[derive(Default)]
struct Tally {
    /// `[wins, losses, draws]` as Black, then as White.
    by_color: [[u32; 3]; 2],
}

impl Tally {
    fn add(&mut self, color: Color, winner: Option<Color>) {
        let column = match winner {
            Some(w) if w == color => 0,
            Some(_) => 1,
            None => 2,
        };
        self.by_color[color as usize][column] += 1;
    }

    fn total(&self) -> [u32; 3] {
        std::array::from_fn(|i| self.by_color[0][i] + self.by_color[1][i])
    }
}

fn wld([w, l, d]: [u32; 3]) -> String {
    format!("{w}-{l}-{d}")
}

/// The score rate (a draw counts half), its 95% Wilson interval, and the Elo difference.
fn rates([w, l, d]: [u32; 3]) -> (f64, f64, f64, f64) {
    let n = f64::from(w + l + d);
    if n == 0.0 {
        return (0.5, 0.0, 1.0, 0.0);
    }
    let p = (f64::from(w) + f64::from(d) / 2.0) / n;
    let z = 1.96_f64;
    let center = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let elo = 0.0 - 400.0 * (1.0 / p.clamp(0.001, 0.999) - 1.0).log10();
    (p, (center - half).max(0.0), (center + half).min(1.0), elo)
}

/// Runs the match and prints each game's line, the table, and the summary as the last line.
pub fn run(options: Options) -> Result<(), Failure> {
    if options.games == 0 {
        return Err(Failure::input("--games must be at least 1"));
    }
    let names = [options.black.clone(), options.white.clone()];
    let specs = [parse_engine(&names[0], options.seed)?, parse_engine(&names[1], options.seed)?];
    let external = specs.iter().any(|s| matches!(s, EngineSpec::Gtp(_)));
    if is_galice(&options.variant) {
        if options.komi.is_some() || options.size.is_some() {
            return Err(Failure::input("galice has two 7x7 boards and no komi: leave out --size and --komi"));
        }
        let start = Galice::new();
        let max_moves = options.max_moves.unwrap_or(3 * 2 * start.board(Side::Left).geometry().area());
        return play_match(&options, &names, &specs, &start, max_moves);
    }
    if crate::lifeline::is_lifeline(&options.variant) {
        if options.komi.is_some() {
            return Err(Failure::input("Square Lifeline has no komi: leave out --komi"));
        }
        let (spec, geometry) = crate::lifeline::spec_and_size(&options.variant, options.size.as_deref())?;
        let start = Lifeline::new(spec.rules, geometry);
        let max_moves = options.max_moves.unwrap_or(3 * geometry.area());
        return play_match(&options, &names, &specs, &start, max_moves);
    }
    let mut spec: VariantSpec = options.variant.parse().map_err(Failure::input)?;
    let geometry = playing_size(&spec, options.size.as_deref())?;
    if let Some(text) = &options.komi {
        let komi = parse_komi("--komi", text)?;
        spec.set_komi(komi);
    }
    if external && matches!(spec.variant, Variant::Go(_)) && geometry.width() != geometry.height() {
        return Err(Failure::input("a GTP engine plays go on square boards only (boardsize N)"));
    }
    let max_moves = options.max_moves.unwrap_or(3 * geometry.area());
    play_match(&options, &names, &specs, &AnyGame::new(&spec, geometry), max_moves)
}

/// Plays the match's games from `start` and prints them as [`run`] says.
fn play_match<G: Refereed>(
    options: &Options,
    names: &[String; 2],
    specs: &[EngineSpec; 2],
    start: &G,
    max_moves: usize,
) -> Result<(), Failure> {
    if let Some(dir) = &options.sgf_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::input(format!("cannot create {}: {e}", dir.display())))?;
    }
    ignore_sigpipe();
    let timeout = Duration::try_from_secs_f64(options.move_timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .ok_or_else(|| Failure::input("--move-timeout must be a positive number of seconds"))?;
    let mut engines = [Engine::start(&specs[0], timeout)?, Engine::start(&specs[1], timeout)?];
    let mut tallies = [Tally::default(), Tally::default()];
    // games an engine forfeited by failing (crash, timeout, illegal move), with its name
    let mut forfeits = Vec::new();
    let bar = ProgressBar::new(u64::from(options.games));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} games, {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut out = std::io::stdout();
    for index in 0..options.games {
        // Game 1: the first engine is Black; the colours swap every game.
        let first_black = (index % 2) as usize;
        let seed = options.seed.wrapping_add(u64::from(index) << 32);
        for (i, engine) in engines.iter_mut().enumerate() {
            let game_seed = seed.wrapping_add(i as u64 * 1_000_003);
            if engine.new_game(start, game_seed).is_err() {
                // one fresh start; an engine that cannot even begin a game ends the match
                *engine = Engine::start(&specs[i], timeout)?;
                engine.new_game(start, game_seed)?;
            }
        }
        let mut moves = Vec::new();
        let [first, second] = &mut engines;
        let seats = if first_black == 0 { [first, second] } else { [second, first] };
        let end = play_game(seats, start, max_moves, &mut moves, &mut |_, _, _| {});
        let black = if end.swapped { 1 - first_black } else { first_black };
        if let Some(color) = end.failed {
            let seat = if color == Color::Black { black } else { 1 - black };
            engines[seat] = Engine::start(&specs[seat], timeout)?;
            forfeits.push(format!("game {} by {}", index + 1, names[seat]));
        }
        tallies[black].add(Color::Black, end.winner);
        tallies[1 - black].add(Color::White, end.winner);
        if let Some(dir) = &options.sgf_dir {
            let path = dir.join(format!("game-{:03}.sgf", index + 1));
            let played = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
            let info = GameInfo {
                black: Some(names[black].clone()),
                white: Some(names[1 - black].clone()),
                date: Some(sgf_date(i64::try_from(played).unwrap_or(i64::MAX))),
                ..GameInfo::default()
            };
            std::fs::write(&path, start.sgf(&moves, &end.result, &info))
                .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
        }
        let line = format!(
            "game {}: {} (B) vs {} (W): {} after {} moves ({}{})",
            index + 1,
            names[black],
            names[1 - black],
            end.result,
            moves.len(),
            end.reason,
            if end.swapped { "; the chooser took Black" } else { "" },
        );
        bar.suspend(|| {
            let _ = writeln!(out, "{line}");
        });
        bar.set_message(format!("{} {}", names[0], wld(tallies[0].total())));
        bar.inc(1);
    }
    bar.finish_and_clear();
    for engine in engines {
        engine.stop();
    }
    let _ = write!(out, "{}", table(names, &tallies));
    if !forfeits.is_empty() {
        // a crash of the opponent is a win in a tournament, not evidence of strength
        let _ = writeln!(
            out,
            "forfeits (counted as losses; leave them out to measure strength): {}",
            forfeits.join(", ")
        );
    }
    let _ = writeln!(out, "{} {} {}", names[0], wld(tallies[0].total()), names[1]);
    Ok(())
}

/// The summary table: per engine its results in all and per colour, win rate, interval, Elo.
fn table(names: &[String; 2], tallies: &[Tally; 2]) -> String {
    let width = names.iter().map(String::len).max().unwrap_or(0).max(6);
    let mut text = format!(
        "{:width$}  {:>8}  {:>8}  {:>8}  {:>8}  {:>15}  {:>6}\n",
        "engine", "W-L-D", "as B", "as W", "score", "95% interval", "Elo"
    );
    for (name, tally) in names.iter().zip(tallies) {
        let total = tally.total();
        let (p, low, high, elo) = rates(total);
        text += &format!(
            "{name:width$}  {:>8}  {:>8}  {:>8}  {:>7.1}%  {:>6.1}% - {:>5.1}%  {elo:>+6.0}\n",
            wld(total),
            wld(tally.by_color[0]),
            wld(tally.by_color[1]),
            100.0 * p,
            100.0 * low,
            100.0 * high,
        );
    }
    text
}
