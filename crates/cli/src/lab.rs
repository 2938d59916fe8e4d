//! `variago lab`: the designers' questions (docs/lab.md). `lab cycles` explores a variant's game
//! graph and prints its shortest cycle, or a table of verdicts per board for the docs.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use variago_lab::graph::MoveOf;
use variago_lab::{
    Cycle, Graph, LabVariant, Passes, Progress, SEARCHED_VARIANTS, Searched, StateCoder, explore,
    searchable_variant, shortest_cycle,
};
use variago_records::{LifelineRecord, Record};
use variago_rules::lifeline::{LifelineSpec, MIN_SIDE};
use variago_rules::{Game, Geometry, Placement, VariantSpec};

use crate::Failure;

/// Runs `$body` with `$v` bound to the variant of a [`Searched`], whichever its type: the lab's
/// commands are generic over [`LabVariant`].
macro_rules! with_searched {
    ($searched:expr, $v:ident => $body:expr) => {
        match $searched {
            variago_lab::Searched::Stones($v) => $body,
            variago_lab::Searched::Lifeline($v) => $body,
        }
    };
}
pub(crate) use with_searched;

/// What `lab cycles` and `lab solve` write of a variant besides the graph: a line of its moves as
/// a record, which replays under the searched rules (`draw=none`).
pub(crate) trait Recorded: LabVariant {
    /// The moves from the empty board as SGF.
    fn record(&self, geometry: Geometry, moves: Vec<MoveOf<Self>>) -> String;
}

impl Recorded for VariantSpec {
    fn record(&self, geometry: Geometry, moves: Vec<MoveOf<Self>>) -> String {
        let mut record = Record::new(self.clone(), geometry);
        record.moves = moves;
        record.to_sgf()
    }
}

impl Recorded for LifelineSpec {
    fn record(&self, geometry: Geometry, moves: Vec<MoveOf<Self>>) -> String {
        let mut record = LifelineRecord::new(self.rules, geometry);
        record.turns = moves;
        record.to_sgf()
    }
}

/// The lab's studies.
#[derive(Subcommand)]
pub enum LabCommand {
    /// Explore the reachable game graph (docs/lab-cycles.md) and print its shortest cycle; the last line
    /// is `no cycle: N states` or `cycle of length L: N states`.
    Cycles(CyclesOptions),
    /// Solve a small board exactly (docs/lab-solve.md): the value (`L` and `U` of the empty board), a
    /// line that keeps it, the forced-cycle states and the shortest forced cycle; the last line is
    /// `value V: N states, K forced-cycle states`.
    Solve(crate::lab_solve::SolveOptions),
    /// The AI against itself: every game as SGF and a line of statistics in `--out`, then the
    /// summary (docs/lab-selfplay.md); the last line is `first-player win rate W [LOW, HIGH], draws D, N
    /// games`.
    Selfplay(crate::lab_selfplay::SelfplayOptions),
    /// Merge the finished shard folders of one self-play run and print its summary, as the
    /// unsharded run would.
    Merge(crate::lab_selfplay::MergeOptions),
    /// Fair komi by bisection over half-point komis, a self-play run at each step; the last line
    /// is `fair komi K [LOW, HIGH], G games per komi`.
    Komi(crate::lab_selfplay::KomiOptions),
    /// Self-play statistics of several variants side by side, each run in `--out`/NAME.
    Compare(crate::lab_selfplay::CompareOptions),
    /// Replay Go's known forced cycles (triple ko, eternal life, ...) under each variant: a
    /// verdict per entry and variant, then a line per variant counting the survivors.
    KnownCycles(crate::lab_known::KnownCyclesOptions),
    /// Life-and-death problems solved exactly over their region under a variant's rules
    /// (docs/lab-life.md); the last line is `solved S of N: success X, failure Y, unknown Z`.
    LifeAndDeath(crate::lab_life::LifeOptions),
    /// Finished self-play runs as one self-contained HTML page (tables and plots), each plot also
    /// as SVG and PNG beside it.
    Report(crate::lab_report::ReportOptions),
}

/// Whether passes are moves of the graph, as the command line writes it.
#[derive(Clone, Copy, ValueEnum)]
pub enum PassSetting {
    /// Passes are moves (a second pass in a row leads to no state).
    Allowed,
    /// Placements only.
    Forbidden,
}

impl From<PassSetting> for Passes {
    fn from(setting: PassSetting) -> Passes {
        match setting {
            PassSetting::Allowed => Passes::Allowed,
            PassSetting::Forbidden => Passes::Forbidden,
        }
    }
}

/// The options `lab cycles` and `lab solve` share: which graph, how far, and what to write.
#[derive(Args)]
pub struct GraphOptions {
    /// Variant spec; with `--table` it may be repeated, and without it the table covers every
    /// history-free variant (those the lab searches).
    #[arg(long)]
    pub variant: Vec<String>,
    /// Board size, `WxH` or `N` (default: the spec's `size=`); `1x5` is a strip.
    #[arg(long)]
    pub size: Option<String>,
    /// Threads that explore the graph (and solve it) (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// At most this many states (default: what the available memory holds): `lab cycles` stops
    /// there, `lab solve` refuses the board.
    #[arg(long)]
    pub max_states: Option<usize>,
    /// Write the path and two turns of the (forced) cycle as an SGF record (it replays with
    /// `draw=none`).
    #[arg(long)]
    pub sgf: Option<PathBuf>,
    /// Instead, one row per variant and board (`lab cycles`: and pass setting): boards as a
    /// comma-separated list (`1x3,2x2`).
    #[arg(long)]
    pub table: Option<String>,
}

/// `variago lab cycles`.
#[derive(Args)]
pub struct CyclesOptions {
    #[command(flatten)]
    graph: GraphOptions,
    /// Whether passes are moves (with `--table`, both settings unless given).
    #[arg(long, value_enum)]
    passes: Option<PassSetting>,
}

/// What one search found.
struct Answer<V: LabVariant> {
    graph: Graph<V>,
    cycle: Option<Cycle<MoveOf<V>>>,
}

impl<V: LabVariant> Answer<V> {
    /// The contract's last line.
    fn last_line(&self) -> String {
        let states = self.graph.states.len();
        match (&self.cycle, self.graph.complete) {
            (Some(cycle), _) => format!("cycle of length {}: {states} states", cycle.moves.len()),
            (None, true) => format!("no cycle: {states} states"),
            (None, false) => format!("search stopped after {states} states: no cycle found so far"),
        }
    }
}

pub fn run(command: LabCommand) -> Result<(), Failure> {
    match command {
        LabCommand::Cycles(options) => cycles(options),
        LabCommand::Solve(options) => crate::lab_solve::solve(options),
        LabCommand::Selfplay(options) => crate::lab_selfplay::selfplay(options),
        LabCommand::Merge(options) => crate::lab_selfplay::merge_shards(options),
        LabCommand::Komi(options) => crate::lab_selfplay::komi(options),
        LabCommand::Compare(options) => crate::lab_selfplay::compare(options),
        LabCommand::KnownCycles(options) => crate::lab_known::run(options),
        LabCommand::Report(options) => crate::lab_report::report(options),
        LabCommand::LifeAndDeath(options) => crate::lab_life::life_and_death(options),
    }
}

/// `--threads`, else every core.
pub(crate) fn threads(given: Option<usize>) -> usize {
    given.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1)
}

/// The one variant and the board a single search or solve is about (`command` names it in the
/// refusals), the board refused when its states do not fit and the record's folder when it does
/// not exist, before any work.
pub(crate) fn one_variant_and_board(
    command: &str,
    options: &GraphOptions,
) -> Result<(Searched, Geometry), Failure> {
    let [variant] = options.variant.as_slice() else {
        return Err(Failure::input(format!("{command} needs one --variant (several only with --table)")));
    };
    let searched = Searched::parse(variant).map_err(Failure::input)?;
    let geometry = match (options.size.as_deref(), searched.size()) {
        (Some(size), _) => Geometry::parse(size).map_err(Failure::input)?,
        (None, Some(size)) => size,
        (None, None) => return Err(Failure::input(format!("{command} needs --size WxH"))),
    };
    // a board whose states do not fit is refused before any estimate is said
    check_board(&searched, geometry)?;
    if let Some(path) = &options.sgf {
        check_folder(path)?;
    }
    Ok((searched, geometry))
}

/// Refuses a board whose states do not fit in the packed form, or that the variant's rules do
/// not play (Square Lifeline's sides are at least two points).
fn check_board(searched: &Searched, geometry: Geometry) -> Result<(), Failure> {
    StateCoder::new(geometry).map_err(Failure::input)?;
    if matches!(searched, Searched::Lifeline(_)) && geometry.width().min(geometry.height()) < MIN_SIDE {
        return Err(Failure::input(format!(
            "Square Lifeline is played on boards whose sides are {MIN_SIDE} points or more, not {geometry}"
        )));
    }
    Ok(())
}

/// The boards of `--table` (a comma-separated list), each refused before any work when its
/// states do not fit or a variant of the table does not play it.
pub(crate) fn table_boards(boards: &str, variants: &[(&str, Searched)]) -> Result<Vec<Geometry>, Failure> {
    let geometries = boards
        .split(',')
        .map(|b| Geometry::parse(b.trim()).map_err(Failure::input))
        .collect::<Result<Vec<_>, _>>()?;
    for &geometry in &geometries {
        for (_, searched) in variants {
            check_board(searched, geometry)?;
        }
    }
    Ok(geometries)
}

fn cycles(options: CyclesOptions) -> Result<(), Failure> {
    let threads = threads(options.graph.threads);
    if let Some(boards) = &options.graph.table {
        return table(&options, boards, threads);
    }
    let (searched, geometry) = one_variant_and_board("lab cycles", &options.graph)?;
    with_searched!(searched, variant => cycles_of(&variant, geometry, &options, threads))
}

/// `lab cycles` for one variant on one board.
fn cycles_of<V: Recorded>(
    variant: &V,
    geometry: Geometry,
    options: &CyclesOptions,
    threads: usize,
) -> Result<(), Failure> {
    let passes = options.passes.unwrap_or(PassSetting::Allowed).into();
    let per_state = variago_lab::graph::bytes_per_state(geometry);
    let max_states = max_states(options.graph.max_states, per_state);
    let answer = search(variant, geometry, passes, threads, max_states)?;
    // the record first: a file that cannot be written fails before any answer is printed
    match (&answer.cycle, &options.graph.sgf) {
        (Some(cycle), Some(path)) => write_sgf(variant, geometry, cycle, path)?,
        (None, Some(path)) => eprintln!("no cycle found: {} was not written", path.display()),
        (_, None) => {}
    }
    println!("states: {}", answer.graph.states.len());
    if let Some(cycle) = &answer.cycle {
        print_cycle(variant, geometry, cycle, |_| String::new());
    }
    if !answer.graph.complete {
        println!(
            "search stopped after {} states (--max-states {max_states}): the graph was not explored to the end",
            answer.graph.states.len()
        );
    }
    println!("{}", answer.last_line());
    Ok(())
}

/// `--max-states`, else what the available memory holds at `per_state` bytes a state (said on
/// stderr, so that the output stays the answer).
pub(crate) fn max_states(given: Option<usize>, per_state: usize) -> usize {
    if let Some(n) = given {
        return n;
    }
    match available_memory() {
        Some(bytes) => {
            // seven eighths of it: a margin for other programs (the estimate has its own)
            let states = (bytes / 8 * 7) / per_state as u64;
            eprintln!(
                "max states: {states} (about {per_state} bytes per state in {} MB of available memory)",
                bytes >> 20
            );
            states.min(usize::MAX as u64) as usize
        }
        None => usize::MAX,
    }
}

/// `MemAvailable` of /proc/meminfo, in bytes (Linux; elsewhere no limit is guessed).
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes * 1024)
}

/// A spinner with a message on stderr, only when stderr is a terminal.
pub(crate) fn progress_bar() -> Option<ProgressBar> {
    std::io::stderr().is_terminal().then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        bar
    })
}

/// Explores the graph, showing on `bar` the states found, the rate and the frontier.
pub(crate) fn explore_shown<V: LabVariant>(
    variant: &V,
    geometry: Geometry,
    passes: Passes,
    threads: usize,
    max_states: usize,
    bar: Option<&ProgressBar>,
) -> Result<Graph<V>, Failure> {
    let started = std::time::Instant::now();
    let on_level = |progress: Progress| {
        if let Some(bar) = bar {
            let rate = progress.states as f64 / started.elapsed().as_secs_f64().max(1e-3);
            bar.set_message(format!(
                "exploring: {} states, {rate:.0} states/s, frontier {}",
                progress.states, progress.frontier
            ));
        }
    };
    explore(variant, geometry, passes, threads, max_states, on_level).map_err(Failure::input)
}

/// Explores the graph (with a progress bar when stderr is a terminal) and finds its shortest
/// cycle.
fn search<V: LabVariant>(
    variant: &V,
    geometry: Geometry,
    passes: Passes,
    threads: usize,
    max_states: usize,
) -> Result<Answer<V>, Failure> {
    let bar = progress_bar();
    let graph = explore_shown(variant, geometry, passes, threads, max_states, bar.as_ref())?;
    if let Some(bar) = &bar {
        bar.set_message(format!("{} states, looking for the shortest cycle", graph.states.len()));
    }
    let cycle = shortest_cycle(&graph);
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(Answer { graph, cycle })
}

/// Moves as the lab prints them (GTP's vertices and `pass`; Lifeline's pairs and `swap`),
/// space-separated.
pub(crate) fn moves_text<V: LabVariant>(geometry: Geometry, moves: &[MoveOf<V>]) -> String {
    moves.iter().map(|&mv| V::move_text(geometry, mv)).collect::<Vec<_>>().join(" ")
}

/// The cycle's lines and the board of each of its states, `note` adding to the heading of the
/// state numbered `i` (from 0).
pub(crate) fn print_cycle<V: LabVariant>(
    variant: &V,
    geometry: Geometry,
    cycle: &Cycle<MoveOf<V>>,
    note: impl Fn(usize) -> String,
) {
    println!("path: {}", moves_text::<V>(geometry, &cycle.path));
    println!("cycle: {}", moves_text::<V>(geometry, &cycle.moves));
    let mut game = variant.start(geometry);
    let mut last = None;
    for &mv in &cycle.path {
        // the player who moved: the swap leaves the side to move as it is
        last = Some((game.to_move(), mv));
        game.play(mv).expect("the path was found by playing legal moves");
    }
    for (i, &mv) in cycle.moves.iter().enumerate() {
        let after = last.map_or_else(String::new, |(player, m): (variago_rules::Color, _)| {
            format!(" after {} {}", player.letter(), V::move_text(geometry, m))
        });
        println!("state {} of the cycle{after}, {} to move{}:", i + 1, game.to_move(), note(i));
        let marked = last.and_then(|(_, m)| m.placement());
        print!("{}", V::board(&game).diagram(marked));
        last = Some((game.to_move(), mv));
        game.play(mv).expect("the cycle was found by playing legal moves");
    }
}

/// Refuses an output file whose folder does not exist before the search, not after it.
fn check_folder(path: &std::path::Path) -> Result<(), Failure> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if folder.is_dir() {
        Ok(())
    } else {
        Err(Failure::input(format!("cannot write {}: {} is not a folder", path.display(), folder.display())))
    }
}

/// The path and two turns of the cycle as SGF, under the searched rules (`draw=none`).
pub(crate) fn write_sgf<V: Recorded>(
    variant: &V,
    geometry: Geometry,
    cycle: &Cycle<MoveOf<V>>,
    path: &std::path::Path,
) -> Result<(), Failure> {
    let moves = cycle.path.iter().chain(&cycle.moves).chain(&cycle.moves).copied().collect();
    std::fs::write(path, variant.record(geometry, moves))
        .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))
}

/// The variants named by `--variant` (every Go-family variant the cycle search knows when none
/// is), each read by `read`, or the first refusal: what `--table` and `known-cycles` study.
pub(crate) fn named_variants<T>(
    given: &[String],
    read: impl Fn(&str) -> Result<T, variago_lab::LabError>,
) -> Result<Vec<(&str, T)>, Failure> {
    let names: Vec<&str> = if given.is_empty() {
        SEARCHED_VARIANTS.to_vec()
    } else {
        given.iter().map(String::as_str).collect()
    };
    names
        .into_iter()
        .map(|name| read(name).map(|variant| (name, variant)))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::input)
}

/// The Go-family variants named by `--variant` (see [`named_variants`]): `known-cycles` replays
/// Go's cycles, which Square Lifeline does not have.
pub(crate) fn searched_specs(given: &[String]) -> Result<Vec<(&str, VariantSpec)>, Failure> {
    named_variants(given, searchable_variant)
}

/// `--table`: a Markdown row per variant, board and pass setting (one row, `-`, for a game
/// without a pass).
fn table(options: &CyclesOptions, boards: &str, threads: usize) -> Result<(), Failure> {
    let variants = named_variants(&options.graph.variant, Searched::parse)?;
    let geometries = table_boards(boards, &variants)?;
    println!("| variant | board | passes | states | verdict | shortest cycle |");
    println!("| --- | --- | --- | ---: | --- | ---: |");
    for (name, searched) in &variants {
        for &geometry in &geometries {
            with_searched!(searched, variant => table_rows(name, variant, geometry, options, threads))?;
        }
    }
    Ok(())
}

/// The table's rows of one variant on one board.
fn table_rows<V: LabVariant>(
    name: &str,
    variant: &V,
    geometry: Geometry,
    options: &CyclesOptions,
    threads: usize,
) -> Result<(), Failure> {
    let settings = match options.passes {
        _ if !V::HAS_PASS => vec![None],
        Some(setting) => vec![Some(setting)],
        None => vec![Some(PassSetting::Allowed), Some(PassSetting::Forbidden)],
    };
    let max_states = max_states(options.graph.max_states, variago_lab::graph::bytes_per_state(geometry));
    for setting in settings {
        let passes = setting.unwrap_or(PassSetting::Forbidden).into();
        let answer = search(variant, geometry, passes, threads, max_states)?;
        let passes = match setting {
            Some(PassSetting::Allowed) => "allowed",
            Some(PassSetting::Forbidden) => "forbidden",
            None => "-",
        };
        let (verdict, length) = match (&answer.cycle, answer.graph.complete) {
            (Some(cycle), true) => ("cycle", cycle.moves.len().to_string()),
            (Some(cycle), false) => ("cycle (search stopped)", cycle.moves.len().to_string()),
            (None, true) => ("no cycle", "-".to_string()),
            (None, false) => ("stopped, no cycle so far", "-".to_string()),
        };
        println!(
            "| `{name}` | {geometry} | {passes} | {} | {verdict} | {length} |",
            answer.graph.states.len()
        );
    }
    Ok(())
}
