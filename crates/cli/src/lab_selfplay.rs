//! `variago lab selfplay`, `lab merge`, `lab komi` and `lab compare`: self-play statistics
//! (docs/lab-selfplay.md, docs/lab-komi.md, docs/lab-compare.md). The games are refereed by the
//! same loop as `variago match` ([`crate::referee`]); the statistics, the run folders and the merge
//! are the lab crate's.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use variago_lab::runs::{RunFolder, RunSettings, Shard, game_seed, merge};
use variago_lab::selfplay::{Ending, Observer};
use variago_lab::stats::{Interval, Summary, comparison_rows};
use variago_lab::{GameStats, Studied};
use variago_records::GameInfo;
use variago_rules::galice::{Galice, SPOTS};
use variago_rules::lifeline::{Lifeline, LifelineSpec};
use variago_rules::{AnyGame, HalfPoints, VariantSpec};

use crate::referee::{Engine, EngineSpec, Refereed, ignore_sigpipe, parse_engine, play_game};
use crate::{Failure, is_galice, parse_komi, playing_size};

/// Playouts per move when neither `--playouts` nor `--level` is given.
const DEFAULT_PLAYOUTS: u64 = 1000;

/// How long an external GTP engine may take for any answer in self-play.
const GTP_TIMEOUT: Duration = Duration::from_secs(300);

/// The flags every self-play command shares.
#[derive(Args, Clone)]
pub struct PlayOptions {
    /// Board size, `N` or `WxH` (default: the spec's `size=`, else 9, 19 for Borderline).
    #[arg(long)]
    size: Option<String>,
    /// Komi (default: the spec's; Galice has none).
    #[arg(long)]
    komi: Option<String>,
    /// Games of the whole run (all shards together).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// Playouts per move of the built-in AI on both sides (default 1000), one search thread.
    #[arg(long, conflicts_with = "level")]
    playouts: Option<u64>,
    /// Strength 1-10 of the built-in AI on both sides instead (level 10 thinks 5 s a move and is
    /// not reproducible).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: Option<u8>,
    /// The engine playing Black, as `match` names it (`variago:playouts=N,threads=T`,
    /// `variago:level=N`, `gtp:COMMAND`); in Galice the one that makes the pie setup.
    #[arg(long)]
    black: Option<String>,
    /// The engine playing White (in Galice: the one that chooses the colour).
    #[arg(long)]
    white: Option<String>,
    /// Games played at once (default: every core); each game's search is single-threaded unless
    /// an engine says `threads=`, so results do not depend on this.
    #[arg(long)]
    threads: Option<usize>,
    /// The run's seed: with it and its number, each game's seed is fixed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play only games I, I+N, I+2N, ... (I from 0 to N-1, games numbered from 0); `lab merge`
    /// joins the shards' folders.
    #[arg(long, value_parser = clap::value_parser!(String))]
    shard: Option<String>,
    /// Moves after which a game is scored as it stands (default 3 per point, both boards' in
    /// Galice).
    #[arg(long)]
    max_moves: Option<usize>,
    /// The run's folder: game-NNNN.sgf, games.jsonl, settings.json, summary.json.
    #[arg(long)]
    out: PathBuf,
}

/// `variago lab selfplay`.
#[derive(Args)]
pub struct SelfplayOptions {
    /// Variant spec, or `galice`.
    #[arg(long)]
    variant: String,
    #[command(flatten)]
    play: PlayOptions,
}

/// `variago lab merge`.
#[derive(Args)]
pub struct MergeOptions {
    /// The finished shard folders of one run.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
}

/// `variago lab komi`.
#[derive(Args)]
pub struct KomiOptions {
    /// Variant spec (not `galice`, which has no komi).
    #[arg(long)]
    variant: String,
    /// The lowest komi searched (default: minus the number of points).
    #[arg(long, allow_hyphen_values = true)]
    low: Option<String>,
    /// The highest komi searched (default: the number of points).
    #[arg(long, allow_hyphen_values = true)]
    high: Option<String>,
    #[command(flatten)]
    play: PlayOptions,
}

/// `variago lab compare`.
#[derive(Args)]
pub struct CompareOptions {
    /// Variant specs, each played with the same options; its games go to `--out`/NAME.
    #[arg(required = true)]
    specs: Vec<String>,
    #[command(flatten)]
    play: PlayOptions,
}

/// What one self-play run plays: its settings, its engines and the games' threads.
struct Plan {
    settings: RunSettings,
    /// Points of the board (both boards' in Galice): the default komi search range.
    area: usize,
    engines: [EngineSpec; 2],
    threads: usize,
    out: PathBuf,
}

/// The game a spec names, built from the options: a single-board start or Galice.
// one value per run: boxing the larger variant would save nothing worth an indirection
#[allow(clippy::large_enum_variant)]
enum Start {
    Single(AnyGame),
    Galice(Galice),
    Lifeline(Lifeline),
}

/// The engine strings and the run's settings from the options.
fn plan(variant: &str, play: &PlayOptions, out: PathBuf) -> Result<(Plan, Start), Failure> {
    if play.games == 0 {
        return Err(Failure::input("--games must be at least 1"));
    }
    let shard = match &play.shard {
        Some(text) => text.parse::<Shard>().map_err(Failure::input)?,
        None => Shard::ALL,
    };
    let default = match (play.playouts, play.level) {
        (Some(0), _) => return Err(Failure::input("--playouts must be at least 1")),
        (Some(n), _) => format!("variago:playouts={n}"),
        (None, Some(level)) => format!("variago:level={level}"),
        (None, None) => format!("variago:playouts={DEFAULT_PLAYOUTS}"),
    };
    let black = play.black.clone().unwrap_or_else(|| default.clone()).trim().to_string();
    let white = play.white.clone().unwrap_or(default).trim().to_string();
    let engines = [parse_engine(&black, play.seed)?, parse_engine(&white, play.seed)?];
    let threads = match play.threads {
        Some(0) => return Err(Failure::input("--threads must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let (start, variant, size, komi, area) = if is_galice(variant) {
        if play.komi.is_some() || play.size.is_some() {
            return Err(Failure::input("galice has two 7x7 boards and no komi: leave out --size and --komi"));
        }
        (Start::Galice(Galice::new()), "galice".to_string(), "2x7x7".to_string(), "-".to_string(), SPOTS)
    } else if crate::lifeline::is_lifeline(variant) {
        if play.komi.is_some() {
            return Err(Failure::input("Square Lifeline has no komi: leave out --komi"));
        }
        let (spec, geometry) = crate::lifeline::spec_and_size(variant, play.size.as_deref())?;
        let spec = LifelineSpec { size: None, ..spec };
        let start = Lifeline::new(spec.rules, geometry);
        (Start::Lifeline(start), spec.to_string(), geometry.to_string(), "-".to_string(), geometry.area())
    } else {
        let mut spec: VariantSpec = variant.parse().map_err(Failure::input)?;
        let geometry = playing_size(&spec, play.size.as_deref())?;
        if let Some(text) = &play.komi {
            spec.set_komi(parse_komi("--komi", text)?);
        }
        let start = AnyGame::new(&spec, geometry);
        (
            Start::Single(start),
            spec.without_size().to_string(),
            geometry.to_string(),
            spec.komi().to_string(),
            geometry.area(),
        )
    };
    let settings = RunSettings {
        variant,
        size,
        komi,
        black,
        white,
        max_moves: play.max_moves.unwrap_or(3 * area),
        seed: play.seed,
        games: play.games,
        shard,
    };
    Ok((Plan { settings, area, engines, threads, out }, start))
}

/// Plays (or resumes) a run in its folder and returns every game of the folder's shard; the
/// summary is written once all are there.
fn run(plan: &Plan, start: &Start, label: &str) -> Result<Vec<GameStats>, Failure> {
    match start {
        Start::Single(game) => play_run(plan, game, label),
        Start::Galice(game) => play_run(plan, game, label),
        Start::Lifeline(game) => play_run(plan, game, label),
    }
}

/// A finished game as a worker hands it over: its line and its SGF.
type Played = Result<(GameStats, String), Failure>;

/// Plays the run's missing games on `plan.threads` threads, saving each as it finishes, then
/// writes the summary. Returns every game of the folder.
fn play_run<G: Refereed + Studied>(plan: &Plan, start: &G, label: &str) -> Result<Vec<GameStats>, Failure> {
    ignore_sigpipe();
    let settings = &plan.settings;
    let (mut folder, mut games) = RunFolder::open(&plan.out, settings).map_err(Failure::input)?;
    let done: std::collections::HashSet<u64> = games.iter().map(|g| g.game).collect();
    let todo: Vec<u64> = settings.shard.games(settings.games).filter(|g| !done.contains(g)).collect();
    let total = games.len() + todo.len();
    let bar = progress_bar(total as u64, games.len() as u64, label);
    bar.set_message(running_rate(&games));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let started = Instant::now();
    let workers = plan.threads.min(todo.len());
    let mut failure = None;
    // a finished run starts no engine
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Played>();
        for _ in 0..workers {
            let sender = sender.clone();
            let (next, stop, todo) = (&next, &stop, &todo);
            scope.spawn(move || worker(plan, start, todo, next, stop, &sender));
        }
        drop(sender);
        for played in receiver {
            let saved = played.and_then(|(stats, sgf)| {
                folder.add(&stats, &sgf).map_err(Failure::input)?;
                Ok(stats)
            });
            match saved {
                Ok(stats) => {
                    games.push(stats);
                    bar.inc(1);
                    bar.set_message(running_rate(&games));
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                }
            }
        }
    });
    bar.finish_and_clear();
    if let Some(failure) = failure {
        return Err(failure);
    }
    let seconds = started.elapsed().as_secs_f64();
    if !todo.is_empty() {
        eprintln!(
            "{label}{} games in {seconds:.1} s ({:.2} games/s on {workers} threads)",
            todo.len(),
            todo.len() as f64 / seconds.max(1e-9)
        );
    }
    games.sort_by_key(|g| g.game);
    folder.finish(&Summary::of(&games)).map_err(Failure::input)?;
    Ok(games)
}

/// One thread's share: takes the next game number until none is left (or the run stops), plays
/// it with its own engines, and hands its line and SGF over.
fn worker<G: Refereed + Studied>(
    plan: &Plan,
    start: &G,
    todo: &[u64],
    next: &AtomicUsize,
    stop: &AtomicBool,
    sender: &mpsc::Sender<Played>,
) {
    let mut engines: Vec<Engine> = Vec::new();
    for spec in &plan.engines {
        match Engine::start(spec, GTP_TIMEOUT) {
            Ok(engine) => engines.push(engine),
            Err(e) => {
                let _ = sender.send(Err(e));
                return;
            }
        }
    }
    let Ok(mut engines): Result<[Engine; 2], _> = engines.try_into() else { return };
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&game) = todo.get(i) else { break };
        let played = play_one(plan, start, &mut engines, game);
        if sender.send(played).is_err() {
            break;
        }
    }
    for engine in engines {
        engine.stop();
    }
}

/// Plays game number `game` with the seed its number fixes, and returns its line and its SGF.
fn play_one<G: Refereed + Studied>(
    plan: &Plan,
    start: &G,
    engines: &mut [Engine; 2],
    game: u64,
) -> Result<(GameStats, String), Failure> {
    let settings = &plan.settings;
    let seed = game_seed(settings.seed, game);
    for (i, engine) in engines.iter_mut().enumerate() {
        let engine_seed = seed.wrapping_add(i as u64 * 1_000_003);
        if engine.new_game(start, engine_seed).is_err() {
            *engine = Engine::start(&plan.engines[i], GTP_TIMEOUT)?;
            engine.new_game(start, engine_seed)?;
        }
    }
    let began = Instant::now();
    let mut observer = Observer::default();
    let mut moves = Vec::new();
    let [black, white] = engines;
    let end = play_game([black, white], start, settings.max_moves, &mut moves, &mut |game, mv, value| {
        observer.observe(game, mv, value)
    });
    if let Some(color) = end.failed {
        // the seat of the failed colour: swapped in Galice when the chooser took Black
        let seat = usize::from((color == variago_rules::Color::White) != end.swapped);
        engines[seat] = Engine::start(&plan.engines[seat], GTP_TIMEOUT)?;
    }
    let ending = Ending { result: end.result.clone(), winner: end.winner, how: end.how.to_string() };
    let stats = observer.finish::<G>(game, seed, &moves, ending, began.elapsed().as_secs_f64());
    let names = [settings.black.clone(), settings.white.clone()];
    let (black_name, white_name) = if end.swapped { (&names[1], &names[0]) } else { (&names[0], &names[1]) };
    let info = GameInfo {
        black: Some(black_name.clone()),
        white: Some(white_name.clone()),
        comment: Some(format!("variago lab selfplay: game {game}, seed {seed} (run seed {})", settings.seed)),
        ..GameInfo::default()
    };
    Ok((stats, start.sgf(&moves, &end.result, &info)))
}

/// A progress bar on stderr when it is a terminal (hidden otherwise): games, ETA, and the
/// running first-player win rate.
fn progress_bar(len: u64, done: u64, label: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    let template =
        format!("{label}{{bar:30}} {{pos}}/{{len}} games, {{elapsed}} elapsed, ETA {{eta}}, {{msg}}");
    bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar.set_position(done);
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

/// The first-player win rate so far, for the progress bar.
fn running_rate(games: &[GameStats]) -> String {
    let wins = games.iter().filter(|g| g.first_won() == Some(true)).count();
    let decisive = games.iter().filter(|g| g.first_won().is_some()).count();
    if decisive == 0 {
        return "first-player win rate -".into();
    }
    format!("first-player win rate {:.3} ({wins}/{decisive})", wins as f64 / decisive as f64)
}

/// `lab selfplay`: plays the run and prints what was played, then the summary (the last line is
/// the contract's).
pub fn selfplay(options: SelfplayOptions) -> Result<(), Failure> {
    let (plan, start) = plan(&options.variant, &options.play, options.play.out.clone())?;
    let games = run(&plan, &start, "")?;
    print_summary(&plan.settings, &games);
    Ok(())
}

fn print_summary(settings: &RunSettings, games: &[GameStats]) {
    println!("{}", settings.describe());
    if settings.shard != Shard::ALL {
        println!("shard {} of the run's {} games", settings.shard, settings.games);
    }
    print!("{}", Summary::of(games).text());
}

/// `lab merge`: the shards' games together, summarised as one run.
pub fn merge_shards(options: MergeOptions) -> Result<(), Failure> {
    let (settings, games) = merge(&options.dirs).map_err(Failure::input)?;
    print_summary(&settings, &games);
    Ok(())
}

/// A spec as a folder name: letters, digits, `.`, `=` and `-` kept, anything else (`:`, `,`)
/// written `_`.
fn folder_name(spec: &str) -> String {
    spec.trim()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '=' | '-') { c } else { '_' })
        .collect()
}

/// `lab compare`: each spec's run in `--out`/NAME, then the statistics side by side.
pub fn compare(options: CompareOptions) -> Result<(), Failure> {
    let mut names: Vec<String> = Vec::new();
    let mut plans = Vec::new();
    // every spec is checked before any game is played
    for spec in &options.specs {
        let name = folder_name(spec);
        if names.contains(&name) {
            return Err(Failure::input(format!("'{spec}' is given twice")));
        }
        let out = options.play.out.join(&name);
        plans.push(plan(spec, &options.play, out)?);
        names.push(name);
    }
    let mut summaries = Vec::new();
    for ((plan, start), name) in plans.iter().zip(&names) {
        let games = run(plan, start, &format!("{name}: "))?;
        summaries.push(Summary::of(&games));
    }
    let first = &plans[0].0.settings;
    println!("{} on {}: {}, seed {}", options.specs.join(", "), first.size, first.engines(), first.seed);
    print!("{}", compare_table(&options.specs, &summaries));
    Ok(())
}

/// The statistics side by side: a Markdown table, one column per spec.
fn compare_table(specs: &[String], summaries: &[Summary]) -> String {
    let mut out = format!(
        "| statistic | {} |\n",
        specs.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(" | ")
    );
    out += &format!("| --- |{}\n", " ---: |".repeat(specs.len()));
    for (name, cells) in comparison_rows(summaries) {
        out += &format!("| {name} | {} |\n", cells.join(" | "));
    }
    out
}

/// One step of the komi search: a komi and the first-player win rate of its games.
struct Step {
    komi: HalfPoints,
    rate: Interval,
}

/// `lab komi`: bisection over half-point komis, a self-play run at each step (in
/// `--out`/komi_K), then the fair komi and its interval.
pub fn komi(options: KomiOptions) -> Result<(), Failure> {
    if is_galice(&options.variant) {
        return Err(Failure::input("galice has no komi"));
    }
    if options.play.komi.is_some() {
        return Err(Failure::input("lab komi chooses the komi: leave out --komi (use --low and --high)"));
    }
    if options.play.shard.is_some() {
        return Err(Failure::input("lab komi cannot be sharded: each step depends on the one before"));
    }
    let (probe, _) = plan(&options.variant, &options.play, options.play.out.clone())?;
    let area = i32::try_from(probe.area).unwrap_or(i32::MAX / 4);
    let low = options
        .low
        .as_deref()
        .map(|t| parse_komi("--low", t))
        .transpose()?
        .unwrap_or(HalfPoints::points(-area));
    let high = options
        .high
        .as_deref()
        .map(|t| parse_komi("--high", t))
        .transpose()?
        .unwrap_or(HalfPoints::points(area));
    if high.0 <= low.0 {
        return Err(Failure::input(format!("--low {low} must be below --high {high}")));
    }
    println!("{}", probe.settings.describe().replacen(&format!(", komi {}", probe.settings.komi), "", 1));
    let mut steps: Vec<Step> = Vec::new();
    // plays the games at one komi and prints the step's line
    let step = |komi: HalfPoints, steps: &mut Vec<Step>| -> Result<f64, Failure> {
        let mut play = options.play.clone();
        play.komi = Some(komi.to_string());
        let (plan, start) = plan(&options.variant, &play, options.play.out.join(format!("komi_{komi}")))?;
        let summary = Summary::of(&run(&plan, &start, &format!("komi {komi}: "))?);
        let rate = summary.first_player_win_rate.value;
        let verdict = match rate.total_cmp(&0.5) {
            std::cmp::Ordering::Greater => "the first player is ahead: higher",
            std::cmp::Ordering::Less => "the second player is ahead: lower",
            std::cmp::Ordering::Equal => "even",
        };
        println!("komi {komi}: {} ({verdict})", summary.last_line());
        steps.push(Step { komi, rate: summary.first_player_win_rate });
        Ok(rate)
    };
    let (mut lo, mut hi) = (low.0, high.0);
    while hi - lo > 1 {
        let mid = lo + (hi - lo).div_euclid(2);
        let rate = step(HalfPoints(mid), &mut steps)?;
        if rate > 0.5 {
            lo = mid;
        } else if rate < 0.5 {
            hi = mid;
        } else {
            (lo, hi) = (mid, mid);
        }
    }
    // an end of the final bracket that is an end of the search was never played: play it, so
    // that both sides of the answer rest on games
    for end in [lo, hi] {
        if !steps.iter().any(|s| s.komi.0 == end) {
            step(HalfPoints(end), &mut steps)?;
        }
    }
    let answer = fair_komi(&steps, HalfPoints(lo), HalfPoints(hi), low, high);
    println!("{}", answer.note);
    println!(
        "fair komi {} [{}, {}], {} games per komi",
        answer.komi, answer.low, answer.high, options.play.games
    );
    Ok(())
}

/// The komi search's answer.
struct FairKomi {
    komi: HalfPoints,
    low: HalfPoints,
    high: HalfPoints,
    note: String,
}

/// The fair komi from the steps: of the final bracket's two komis `lo` and `hi` (the first player
/// ahead at one, behind at the other, unless the fair komi lies outside the search), the one whose
/// win rate is nearer 0.5. Its interval: every komi not ruled out by a step, reading the win rate
/// as falling with the komi: above the largest komi whose whole interval is above 0.5 and below the
/// smallest whose whole interval is below it (the search's ends where no step rules a side out).
/// A fair komi beyond an end of the search is reported as that end, with a note.
fn fair_komi(steps: &[Step], lo: HalfPoints, hi: HalfPoints, low: HalfPoints, high: HalfPoints) -> FairKomi {
    let gap = |s: &Step| (s.rate.value - 0.5).abs();
    let Some(nearest) =
        steps.iter().filter(|s| s.komi == lo || s.komi == hi).min_by(|a, b| gap(a).total_cmp(&gap(b)))
    else {
        return FairKomi { komi: lo, low, high, note: "no komi was played".into() };
    };
    let ahead = steps.iter().filter(|s| s.rate.low > 0.5).map(|s| s.komi.0).max();
    let behind = steps.iter().filter(|s| s.rate.high < 0.5).map(|s| s.komi.0).min();
    // within the search: a side ruled out at an end of it leaves that end
    let mut from = ahead.map_or(low.0, |k| k + 1).min(high.0);
    let mut to = behind.map_or(high.0, |k| k - 1).max(low.0);
    let mut notes = Vec::new();
    let rate_at = |k: HalfPoints| steps.iter().find(|s| s.komi == k).map(|s| s.rate.value);
    let mut komi = nearest.komi;
    if hi == high && rate_at(hi).is_some_and(|r| r > 0.5) {
        komi = high;
        notes.push(format!(
            "the first player is still ahead at --high {high}: the fair komi is at least that"
        ));
    }
    if lo == low && rate_at(lo).is_some_and(|r| r < 0.5) {
        komi = low;
        notes.push(format!(
            "the first player is already behind at --low {low}: the fair komi is at most that"
        ));
    }
    if ahead.is_none() {
        notes.push(format!(
            "no komi tested puts the first player surely ahead: the interval starts at --low {low}"
        ));
    }
    if behind.is_none() {
        notes.push(format!(
            "no komi tested puts the first player surely behind: the interval ends at --high {high}"
        ));
    }
    if from > to {
        notes.push("the steps disagree (noise): play more games per komi".into());
        (from, to) = (to.min(from), to.max(from));
    }
    let note = if notes.is_empty() {
        "interval: the komis no step rules out (95% Wilson intervals of the first-player win rate)"
            .to_string()
    } else {
        notes.join("; ")
    };
    FairKomi { komi, low: HalfPoints(from), high: HalfPoints(to), note }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(komi: f64, value: f64, low: f64, high: f64) -> Step {
        Step { komi: HalfPoints((komi * 2.0) as i32), rate: Interval { value, low, high } }
    }

    fn komi(k: f64) -> HalfPoints {
        HalfPoints((k * 2.0) as i32)
    }

    #[test]
    fn the_fair_komi_is_the_nearer_end_of_the_bracket_and_its_interval_what_no_step_rules_out() {
        let steps = [
            step(0.0, 0.9, 0.8, 0.95),
            step(10.0, 0.2, 0.1, 0.35),
            step(5.0, 0.7, 0.55, 0.8),
            step(7.5, 0.45, 0.3, 0.6),
            step(6.0, 0.6, 0.45, 0.7),
            step(7.0, 0.52, 0.4, 0.65),
        ];
        let answer = fair_komi(&steps, komi(7.0), komi(7.5), komi(-20.0), komi(20.0));
        assert_eq!(answer.komi, komi(7.0));
        // surely ahead up to 5, surely behind from 10: 5.5 to 9.5
        assert_eq!((answer.low, answer.high), (komi(5.5), komi(9.5)));
        assert!(answer.note.starts_with("interval: "), "{}", answer.note);
    }

    #[test]
    fn a_fair_komi_beyond_the_search_is_its_end_with_a_note() {
        let steps = [step(0.0, 0.9, 0.8, 0.95), step(2.0, 0.8, 0.6, 0.9)];
        let answer = fair_komi(&steps, komi(0.0), komi(2.0), komi(-2.0), komi(2.0));
        assert_eq!((answer.komi, answer.low, answer.high), (komi(2.0), komi(2.0), komi(2.0)));
        assert!(answer.note.contains("still ahead at --high 2"), "{}", answer.note);
    }

    #[test]
    fn spec_folder_names_keep_only_safe_characters() {
        assert_eq!(folder_name("go:ko=simple"), "go_ko=simple");
        assert_eq!(folder_name("stoical:refine=more-stones,komi=6.5"), "stoical_refine=more-stones_komi=6.5");
    }
}
