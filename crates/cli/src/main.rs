//! `variago`: the command line. Each subcommand parses its flags and calls the engine crates;
//! the last line of every probe's output is its answer, so that scripts can read it.

mod bench;
mod genmove;
mod gtp;
mod gtp_engine;
mod lab;
mod lab_known;
mod lab_life;
mod lab_life_engines;
mod lab_report;
mod lab_selfplay;
mod lab_solve;
mod lifeline;
mod matches;
mod play;
mod referee;
mod regress;
mod serve;
mod train;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use variago_records::sgf::{move_from_text, move_text, without_dead};
use variago_records::{Record, file, galice_sgf};
use variago_rules::galice::{Galice, Record as GaliceRecord, Turn};
use variago_rules::lifeline::Lifeline;
use variago_rules::spec::{VARIANTS, Variant};
use variago_rules::{AnyGame, Game, Geometry, HalfPoints, Move, ScoreSheet, VariantSpec, excerpt, perft};
use variago_search::Search;

#[derive(Parser)]
#[command(name = "variago", version, about = "Play, analyse and design Go variants")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List every variant and its options.
    Rules,
    /// Count move sequences of a given length (from the empty board, or the end of a record).
    Perft {
        /// Variant spec, e.g. `go:ko=simple` (default `go`); with an SGF record, which names its
        /// own, it must agree with it; `galice` reads FILE as a Galice record; `lifeline` (Square
        /// Lifeline: a first turn's pair counts once, the swap is a move; its SGF records are known
        /// by their `RU[lifeline]`).
        #[arg(long)]
        variant: Option<String>,
        /// Board size, `N` or `WxH` (ignored with a record).
        #[arg(long)]
        size: Option<String>,
        /// Number of moves (plies).
        #[arg(long)]
        depth: u32,
        /// Print the count below each legal move first.
        #[arg(long)]
        divide: bool,
        /// A record: start from the position at the end of its main line.
        file: Option<PathBuf>,
    },
    /// List the legal moves of the side to move at the end of a record.
    Legal {
        /// `galice` for a Galice text record; otherwise the file is SGF and names its variant
        /// (`RU[galice]` and `RU[lifeline]` included).
        #[arg(long)]
        variant: Option<String>,
        /// The record.
        file: PathBuf,
        /// Instead, say whether this vertex (or `pass`; a turn in Galice; `C3`, a pair `C2+C4` or
        /// `swap` in Square Lifeline) is legal and if not, why.
        #[arg(long)]
        why: Option<String>,
    },
    /// Score the position at the end of a record as if the game ended there.
    Score {
        /// `galice` for a Galice diagram or text record; otherwise the file is SGF (a Galice SGF is
        /// known by its `RU[galice]`).
        #[arg(long)]
        variant: Option<String>,
        /// The record.
        file: PathBuf,
    },
    /// Replay a record move by move: the final board, the score and the result.
    Replay {
        /// `galice` for a Galice text record; otherwise the file is SGF (a Galice SGF is known by
        /// its `RU[galice]`).
        #[arg(long)]
        variant: Option<String>,
        /// The record.
        file: PathBuf,
        /// Print the score after every move, one line each (Borderline's live breakdown).
        #[arg(long)]
        scores: bool,
    },
    /// Light random playouts per second (every variant on 9x9 and 19x19 without --variant).
    Bench {
        /// Variant spec (or `galice`); without it, a table of every variant.
        #[arg(long)]
        variant: Option<String>,
        /// Board size, `N` or `WxH` (default: the spec's `size=`, else 9x9, 19x19 for Borderline;
        /// the table uses 9x9 and 19x19).
        #[arg(long)]
        size: Option<String>,
        /// Playouts per measurement.
        #[arg(long, default_value_t = 10_000)]
        playouts: u64,
        /// Random seed, for repeatable runs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Instead, playouts per second inside the search (tree, RAVE, playouts), from the empty
        /// board, with one thread and with all cores.
        #[arg(long)]
        search: bool,
        /// Time the search's playouts instead of the plain light ones: `heavy` (atari answers,
        /// learned patterns, no self-atari) or `light` (atari answers, then random); with
        /// --search, the search's policy (default light).
        #[arg(long)]
        playout: Option<variago_search::playout::Policy>,
    },
    /// The AI's move for the side to move at the end of a record: the evaluation, then the move
    /// (a GTP vertex, `pass`, or a Galice turn) as the last line.
    Genmove {
        /// `galice` for a Galice text record; otherwise the file is SGF and names its variant
        /// (`RU[galice]` included).
        #[arg(long)]
        variant: Option<String>,
        #[command(flatten)]
        budget: genmove::Budget,
        /// The record.
        file: PathBuf,
    },
    /// A game in the terminal against the AI (or two people at one keyboard): moves as GTP
    /// vertices or Galice turns, `pass`, `undo`, `hint`, `resign`, `save FILE.sgf`.
    Play(play::Options),
    /// Games between two engines, colours alternating: a line per game, a table, and
    /// `ENGINE_A W-L-D ENGINE_B` as the last line.
    Match(matches::Options),
    /// Speak GTP version 2 on standard input and output (for GUIs such as Sabaki and GoGui,
    /// tournament tools and `variago match`); the extensions are in docs/gtp.md.
    Gtp(gtp_engine::Options),
    /// Run a GTP regression file (GNU Go's format) against an engine: a line per test and the
    /// summary as the last line; exit code 1 if a test failed that is not marked as known.
    Regress(regress::Options),
    /// Run the game server: the browser pages (docs/web.md), an HTTP JSON API and a WebSocket per
    /// game (docs/server.md), games kept in a database.
    Serve(serve::Options),
    /// Learn the AI's move-feature weights from SGF records (docs/ai.md); the last line says how
    /// many positions and how often the model ranks the played move first.
    TrainPatterns(train::Options),
    /// The variant lab (docs/lab.md): `lab cycles` searches a variant's game graph for its
    /// shortest cycle; `lab selfplay`, `merge`, `komi` and `compare` play the AI against itself.
    Lab {
        #[command(subcommand)]
        command: lab::LabCommand,
    },
    /// Copy the server's SQLite database while it runs (one consistent snapshot); the last line
    /// says how many games and events the copy holds. PostgreSQL: use `pg_dump` (docs/server-operating.md).
    Backup {
        /// The database, as `serve --db` names it.
        #[arg(long, default_value = "sqlite://variago.db")]
        db: String,
        /// The copy to write: a file that does not exist yet.
        #[arg(long)]
        to: std::path::PathBuf,
    },
    /// Put a backup in place as the database (stop the servers, move the old file aside first:
    /// the target must not exist); the last line says how many games and events it holds.
    Restore {
        /// The backup to read.
        #[arg(long)]
        from: std::path::PathBuf,
        /// The database to create, as `serve --db` names it.
        #[arg(long, default_value = "sqlite://variago.db")]
        db: String,
    },
    /// Play simultaneous games of random legal moves against a running server over WebSocket;
    /// the last line: games, moves per second, the p50 and p99 round trip of a move.
    Loadtest {
        /// The server's address.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// Simultaneous games.
        #[arg(long, default_value_t = 200)]
        games: usize,
        /// Moves each player makes.
        #[arg(long, default_value_t = 20)]
        moves: usize,
        /// Each player's thinking time around a move, in milliseconds (0: as fast as possible).
        #[arg(long, default_value_t = 0)]
        think_ms: u64,
        /// Variant spec of the games.
        #[arg(long, default_value = "go:size=9")]
        variant: String,
        /// The community's endpoints too: rated games between two accounts of the load test's
        /// own (it signs them up), logins, chat, a spectator per game, and readers of the watch
        /// list, the leaderboard and a player page during play.
        #[arg(long)]
        community: bool,
    },
}

/// An error for the user: one line on stderr, and the exit code.
struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    /// Bad input (a file, a spec, a size, a vertex): exit code 2.
    fn input(message: impl ToString) -> Self {
        Failure { message: message.to_string(), code: 2 }
    }
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

/// Lets a closed pipe (`variago legal ... | head -1`) end the process quietly, as it does for
/// every Unix tool, instead of making `println!` panic.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default at start-up, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Rules => {
            list_rules();
            Ok(())
        }
        Command::Perft { variant, size, depth, divide, file } => {
            let galice = match &file {
                Some(path) => galice_file(variant.as_deref(), path),
                None => variant.as_deref().is_some_and(is_galice),
            };
            if galice {
                let game = match file {
                    Some(path) => galice_position(&path)?,
                    None => Galice::new(),
                };
                run_perft(&game, depth, divide, |turn| turn.to_string());
                return Ok(());
            }
            let lifeline_game = match &file {
                Some(path) if lifeline::is_lifeline_file(variant.as_deref(), path) => {
                    Some(lifeline::position(path, variant.as_deref())?)
                }
                None if variant.as_deref().is_some_and(lifeline::is_lifeline) => {
                    let given = variant.as_deref().unwrap_or_default();
                    let (spec, geometry) = lifeline::spec_and_size(given, size.as_deref())?;
                    Some(Lifeline::new(spec.rules, geometry))
                }
                _ => None,
            };
            if let Some(game) = lifeline_game {
                run_perft(&game, depth, divide, |turn| game.turn_text(turn));
                return Ok(());
            }
            let game = match file {
                Some(path) => replayed(&read_record(&path, variant.as_deref())?, &path)?,
                None => {
                    let (spec, geometry) =
                        spec_and_size(variant.as_deref().unwrap_or("go"), size.as_deref())?;
                    AnyGame::new(&spec, geometry)
                }
            };
            let geometry = game.board().geometry();
            run_perft(&game, depth, divide, |mv| move_text(geometry, mv));
            Ok(())
        }
        Command::Legal { variant, file, why } => {
            if lifeline::is_lifeline_file(variant.as_deref(), &file) {
                let game = lifeline::position(&file, variant.as_deref())?;
                let name = |turn| game.turn_text(turn);
                match why {
                    Some(text) => explain(&game, game.parse_turn(&text).map_err(Failure::input)?, name),
                    None => list_legal(&game, " ", name)?,
                }
                return Ok(());
            }
            if galice_file(variant.as_deref(), &file) {
                let game = galice_position(&file)?;
                let name = |turn: Turn| turn.to_string();
                match why {
                    Some(text) => explain(&game, text.parse().map_err(Failure::input)?, name),
                    None => list_legal(&game, ", ", name)?,
                }
                return Ok(());
            }
            let record = read_record(&file, variant.as_deref())?;
            let game = replayed(&record, &file)?;
            let geometry = record.geometry;
            let name = |mv: Move| move_text(geometry, mv);
            match why {
                Some(vertex) => explain(&game, parse_move(geometry, &vertex)?, name),
                None => list_legal(&game, " ", name)?,
            }
            Ok(())
        }
        Command::Score { variant, file } => {
            if lifeline::is_lifeline_file(variant.as_deref(), &file) {
                print_score(&lifeline::position(&file, variant.as_deref())?);
            } else if galice_file(variant.as_deref(), &file) {
                print_score(&galice_position_to_score(&file)?);
            } else {
                let record = read_record(&file, variant.as_deref())?;
                let game = replayed(&record, &file)?;
                print_counting_note(&record);
                print_any_score(&counted(&record, game));
            }
            Ok(())
        }
        Command::Replay { variant, file, scores } => {
            if lifeline::is_lifeline_file(variant.as_deref(), &file) {
                let record = lifeline::read_record(&file, variant.as_deref())?;
                let game = record.replay().map_err(|e| Failure { message: e.to_string(), code: 1 })?;
                println!("{} turns of {} on {}", record.turns.len(), record.spec(), record.geometry);
                print!("{game}");
                print_score(&game);
                return Ok(());
            }
            if galice_file(variant.as_deref(), &file) {
                let record = read_galice_record(&file)?;
                let game = record.replay().map_err(|e| Failure { message: e.to_string(), code: 1 })?;
                println!("{} turns of galice", record.entries.len());
                print!("{}", game.diagram());
                print_score(&game);
                return Ok(());
            }
            let record = read_record(&file, variant.as_deref())?;
            let game = record
                .replay_with(|number, game| {
                    if scores {
                        print_move_score(number, game, record.moves[number - 1], record.geometry)
                    }
                })
                .map_err(|e| Failure { message: e.to_string(), code: 1 })?;
            println!("{} moves of {} on {}", record.moves.len(), game.spec(), record.geometry);
            print!("{}", game.board());
            print_counting_note(&record);
            print_any_score(&counted(&record, game));
            Ok(())
        }
        Command::Bench { variant, size, playouts, seed, search: true, playout } => {
            let policy = playout.unwrap_or_default();
            let variant = variant.unwrap_or_else(|| "go".to_string());
            if is_galice(&variant) {
                bench::search_galice(playouts, seed, policy);
            } else {
                let spec: VariantSpec = variant.parse().map_err(Failure::input)?;
                bench::search(&spec, playing_size(&spec, size.as_deref())?, playouts, seed, policy);
            }
            Ok(())
        }
        Command::Bench { variant, size, playouts, seed, search: false, playout } => match variant {
            Some(variant) if is_galice(&variant) => {
                bench::single_galice(playouts, seed, playout);
                Ok(())
            }
            Some(variant) => {
                let spec: VariantSpec = variant.parse().map_err(Failure::input)?;
                bench::single(&spec, playing_size(&spec, size.as_deref())?, playouts, seed, playout);
                Ok(())
            }
            None => {
                bench::table(playouts, seed);
                Ok(())
            }
        },
        Command::Genmove { variant, budget, file } => {
            let settings = budget.settings().map_err(Failure::input)?;
            if lifeline::is_lifeline_file(variant.as_deref(), &file) {
                let game = lifeline::position(&file, variant.as_deref())?;
                let analysis = Search::new(settings).analyse(&game).ok_or_else(game_over)?;
                genmove::print(&analysis, " ", |turn| game.turn_text(turn));
                return Ok(());
            }
            if galice_file(variant.as_deref(), &file) {
                let game = galice_position(&file)?;
                let analysis = Search::new(settings).analyse(&game).ok_or_else(game_over)?;
                genmove::print(&analysis, ", ", |turn| turn.to_string());
                return Ok(());
            }
            let record = read_record(&file, variant.as_deref())?;
            let geometry = record.geometry;
            let analysis =
                Search::new(settings).analyse_any(&replayed(&record, &file)?).ok_or_else(game_over)?;
            genmove::print(&analysis, " ", |mv| move_text(geometry, mv));
            Ok(())
        }
        Command::Play(options) => play::run(options),
        Command::Match(options) => matches::run(options),
        Command::Gtp(options) => gtp_engine::run(options),
        Command::Regress(options) => regress::run(options),
        Command::Serve(options) => serve::run(options),
        Command::Lab { command } => lab::run(command),
        Command::TrainPatterns(options) => train::run(options),
        Command::Backup { db, to } => {
            use variago_server::backup;
            let copied =
                backup::blocking(backup::backup(&db, &to)).map_err(|e| Failure::input(e.to_string()))?;
            println!("backed up {} games, {} events to {}", copied.games, copied.events, to.display());
            Ok(())
        }
        Command::Restore { from, db } => {
            use variago_server::backup;
            let copied =
                backup::blocking(backup::restore(&from, &db)).map_err(|e| Failure::input(e.to_string()))?;
            println!("restored {} games, {} events into {db}", copied.games, copied.events);
            Ok(())
        }
        Command::Loadtest { addr, games, moves, think_ms, variant, community } => {
            let think = std::time::Duration::from_millis(think_ms);
            let plan = variago_server::loadtest::Plan { addr, games, moves, think, variant, community };
            let failure =
                |e: variago_server::loadtest::LoadError| Failure { message: e.to_string(), code: 1 };
            if community {
                println!("{}", variago_server::loadtest::run_community_blocking(&plan).map_err(failure)?);
            } else {
                println!("{}", variago_server::loadtest::run_blocking(&plan).map_err(failure)?);
            }
            Ok(())
        }
    }
}

fn game_over() -> Failure {
    Failure::input("the game is over: there is no move to generate")
}

/// Whether a `--variant` names Galice, which has its own boards, turns and text records.
fn is_galice(variant: &str) -> bool {
    variant.trim().eq_ignore_ascii_case("galice")
}

/// Whether FILE is read as Galice: `--variant galice`, or, without `--variant`, an SGF file
/// whose root says `RU[galice]`.
fn galice_file(variant: Option<&str>, path: &Path) -> bool {
    match variant {
        Some(variant) => is_galice(variant),
        None => file::read_text(path).is_ok_and(|text| galice_sgf::is_galice_sgf(&text)),
    }
}

fn read_text(path: &Path) -> Result<String, Failure> {
    file::read_text(path).map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))
}

/// A Galice record: SGF (variago's Galice layout) when the file starts with `(`, text otherwise.
fn read_galice_record(path: &Path) -> Result<GaliceRecord, Failure> {
    let text = read_text(path)?;
    let read = if text.trim_start().starts_with('(') {
        galice_sgf::from_sgf(&text).map_err(|e| e.to_string())
    } else {
        GaliceRecord::parse(&text).map_err(|e| e.to_string())
    };
    read.map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

/// The position at the end of a Galice record (text, SGF, or a lone diagram); an illegal turn in
/// it is bad input.
fn galice_position(path: &Path) -> Result<Galice, Failure> {
    let record = read_galice_record(path)?;
    record.replay().map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

/// The Galice position `score` counts: as [`galice_position`] reads it, or else a bare diagram of
/// the seven rows (the rules file's final positions have no who-moves line, and the side to move
/// does not change a score). A file that is neither gets the record reader's error.
fn galice_position_to_score(path: &Path) -> Result<Galice, Failure> {
    galice_position(path).or_else(|failure| Galice::from_bare_diagram(&read_text(path)?).map_err(|_| failure))
}

fn list_rules() {
    for variant in VARIANTS {
        println!("{}: {}", variant.name, variant.about);
        for option in variant.options.iter().chain([&variago_rules::spec::OptionInfo::SIZE]) {
            println!("    {} = {} (default {})", option.key, option.values, option.default);
        }
    }
    println!("galice: {}", variago_rules::galice::ABOUT);
    println!("    (no options: two 7x7 boards, pie setup, no komi; records are text in the Galice notation)");
    use variago_rules::lifeline;
    println!("{}: {}", lifeline::NAME, lifeline::ABOUT);
    for option in lifeline::OPTIONS {
        println!("    {} = {} (default {})", option.key, option.values, option.default);
    }
    let size = lifeline::DEFAULT_SIZE;
    println!("    size = N or WxH, {}..25 (default {size}x{size})", lifeline::MIN_SIDE);
}

/// A spec and the board size: `--size` wins, then the spec's `size=`, then 19x19.
fn spec_and_size(variant: &str, size: Option<&str>) -> Result<(VariantSpec, Geometry), Failure> {
    let spec: VariantSpec = variant.parse().map_err(Failure::input)?;
    let geometry = spec_size(&spec, size)?;
    Ok((spec, geometry))
}

/// The board size `--size` gives, else the spec's `size=`, else 19x19.
fn spec_size(spec: &VariantSpec, size: Option<&str>) -> Result<Geometry, Failure> {
    match size {
        Some(text) => Geometry::parse(text).map_err(Failure::input),
        None => spec.size.map_or_else(|| Geometry::square(19).map_err(Failure::input), Ok),
    }
}

/// The board for programs that play whole games (`bench`, `match`): `--size`, else the spec's
/// `size=`, else a quick 9x9, except for Borderline, a game of the 19x19 board.
fn playing_size(spec: &VariantSpec, size: Option<&str>) -> Result<Geometry, Failure> {
    let usual = if matches!(spec.variant, Variant::Borderline(_)) { "19" } else { "9" };
    spec_size(spec, size.or(if spec.size.is_some() { None } else { Some(usual) }))
}

/// A komi flag's value: a multiple of 0.5.
fn parse_komi(flag: &str, text: &str) -> Result<HalfPoints, Failure> {
    HalfPoints::parse(text)
        .ok_or_else(|| Failure::input(format!("{flag} must be a multiple of 0.5, not '{text}'")))
}

/// A single-board record; a `--variant` given with it must be the record's own.
fn read_record(path: &Path, variant: Option<&str>) -> Result<Record, Failure> {
    let record = Record::from_sgf(&read_text(path)?)
        .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
    if let Some(variant) = variant {
        check_variant(variant, &record)
            .map_err(|message| Failure::input(format!("{}: {message}", path.display())))?;
    }
    Ok(record)
}

/// Refuses a `--variant` that says otherwise than the record, which names its variant in `RU`,
/// its komi in `KM` and its size in `SZ`: such a flag is a mistake, not an override. Komi and size
/// are compared only when the flag sets them.
fn check_variant(variant: &str, record: &Record) -> Result<(), String> {
    let given: VariantSpec = variant.parse().map_err(|e| format!("--variant: {e}"))?;
    let name = variant.split(':').next().unwrap_or_default();
    let default_komi = name.parse::<VariantSpec>().map_err(|e| e.to_string())?.komi();
    let mut compared = given.without_size();
    if compared.komi() == default_komi {
        compared.set_komi(record.spec.komi());
    }
    if compared == record.spec && given.size.is_none_or(|size| size == record.geometry) {
        return Ok(());
    }
    Err(format!(
        "--variant {} disagrees with the record, which is {} on {} (leave --variant out to read it)",
        variago_rules::excerpt(variant),
        record.spec,
        record.geometry
    ))
}

/// The position at the end of a record's main line; an illegal move in it is bad input.
fn replayed(record: &Record, path: &Path) -> Result<AnyGame, Failure> {
    record.replay().map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

fn run_perft<G: Game>(game: &G, depth: u32, divide: bool, name: impl Fn(G::Move) -> String) {
    if divide && depth > 0 {
        let mut total = 0;
        for (mv, count) in perft::divide(game, depth) {
            println!("{} {count}", name(mv));
            total += count;
        }
        println!("{total}");
    } else {
        println!("{}", perft::perft(game, depth));
    }
}

/// The legal moves on one line, the answer scripts read. A finished game has none, and an empty
/// line would not say why: it is refused as `genmove` refuses it (exit code 2, which a script's
/// loop over positions cannot mistake for a list), naming the result.
fn list_legal<G: Game>(game: &G, separator: &str, name: impl Fn(G::Move) -> String) -> Result<(), Failure> {
    if game.is_over() {
        let result = game.outcome().unwrap_or_else(|| game.score().result());
        return Err(Failure::input(format!("the game is over ({result}): no move is legal")));
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    println!("{}", moves.into_iter().map(name).collect::<Vec<_>>().join(separator));
    Ok(())
}

/// A GTP vertex or `pass` on this board.
fn parse_move(geometry: Geometry, text: &str) -> Result<Move, Failure> {
    move_from_text(geometry, text).map_err(Failure::input)
}

fn explain<G: Game>(game: &G, mv: G::Move, name: impl Fn(G::Move) -> String) {
    match game.check(mv) {
        Ok(()) => println!("{} is legal", name(mv)),
        Err(reason) => println!("{} is illegal: {reason}", name(mv)),
    }
}

/// One line of `replay --scores`: the move and the score right after it.
fn print_move_score(number: usize, game: &AnyGame, mv: Move, geometry: Geometry) {
    let mover = game.to_move().opponent();
    let breakdown = game.live_score().to_string();
    let sides: Vec<&str> = breakdown.lines().collect();
    println!("{number} {} {}: {}", mover.letter(), move_text(geometry, mv), sides.join("; "));
}

/// Says, before a score, that a record's territory-counting rule set (`RU[Japanese]`) is counted
/// by area here: the result may differ from the one its players counted.
fn print_counting_note(record: &Record) {
    if let Some(rules) = &record.territory_rules {
        println!(
            "note: RU[{}] counts territory; variago counts by area (stones plus territory)",
            excerpt(rules)
        );
    }
}

/// The position to count at the end of a record: without the dead stones it marks (`XD`, named
/// first), or as it stands, with a note when an area-counted game marks none (every stone then
/// counts as alive).
fn counted(record: &Record, game: AnyGame) -> AnyGame {
    match &record.dead {
        Some(dead) => {
            let names: Vec<String> =
                dead.iter().map(|&p| move_text(record.geometry, Move::Place(p))).collect();
            if names.is_empty() {
                println!("dead stones (XD): none");
            } else {
                println!("dead stones (XD): {}", names.join(" "));
            }
            without_dead(&game.spec(), game.board(), dead)
        }
        None => {
            if game.score().area().is_some() && (record.result.is_some() || game.is_over()) {
                println!("note: the record marks no dead stones (XD): every stone counts as alive");
            }
            game
        }
    }
}

/// A single-board variant's score as `score` and `replay` print it: Borderline's live breakdown
/// first when the end-of-game ko award changes it, then the score the game would end with.
fn print_any_score(game: &AnyGame) {
    let (live, score) = (game.live_score(), game.score());
    if live != score {
        print!("{live}");
        println!("with the end-of-game ko award:");
    }
    print_score_sheet(game, &score);
}

/// The score as if the game ended now: its breakdown, the `Black X - White Y` totals (komi not
/// included), and the result as the last line.
fn print_score<G: Game>(game: &G) {
    print_score_sheet(game, &game.score());
}

/// [`print_score`] of a score already counted.
fn print_score_sheet<G: Game>(game: &G, score: &G::Score) {
    print!("{score}");
    println!("{}", score.totals_line());
    println!("{}", game.outcome().unwrap_or_else(|| score.result()));
}
