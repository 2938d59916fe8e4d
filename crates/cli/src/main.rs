//! `variago`: the command line. Each subcommand parses its flags and calls the engine crates;
//! the last line of every probe's output is its answer, so that scripts can read it.

mod bench;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use variago_records::Record;
use variago_records::sgf::move_text;
use variago_rules::spec::VARIANTS;
use variago_rules::{AnyGame, Game, Geometry, Move, ScoreSheet, VariantSpec, perft};

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
        /// Variant spec, e.g. `go:ko=simple` (ignored with a record, which names its own).
        #[arg(long, default_value = "go")]
        variant: String,
        /// Board size, `N` or `WxH` (ignored with a record).
        #[arg(long)]
        size: Option<String>,
        /// Number of moves (plies).
        #[arg(long)]
        depth: u32,
        /// Print the count below each legal move first.
        #[arg(long)]
        divide: bool,
        /// An SGF record: start from the position at the end of its main line.
        file: Option<PathBuf>,
    },
    /// List the legal moves of the side to move at the end of a record.
    Legal {
        /// The SGF record.
        file: PathBuf,
        /// Instead, say whether this vertex (or `pass`) is legal and if not, why.
        #[arg(long)]
        why: Option<String>,
    },
    /// Score the position at the end of a record as if the game ended there.
    Score {
        /// The SGF record.
        file: PathBuf,
    },
    /// Replay a record move by move: the final board, the score and the result.
    Replay {
        /// The SGF record.
        file: PathBuf,
    },
    /// Light random playouts per second (every variant on 9x9 and 19x19 without --variant).
    Bench {
        /// Variant spec; without it, a table of every variant.
        #[arg(long)]
        variant: Option<String>,
        /// Board size, `N` or `WxH` (default 9x9; the table uses 9x9 and 19x19).
        #[arg(long)]
        size: Option<String>,
        /// Playouts per measurement.
        #[arg(long, default_value_t = 10_000)]
        playouts: u64,
        /// Random seed, for repeatable runs.
        #[arg(long, default_value_t = 1)]
        seed: u64,
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
    let cli = Cli::parse();
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("error: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Rules => {
            list_rules();
            Ok(())
        }
        Command::Perft { variant, size, depth, divide, file } => {
            let game = match file {
                Some(path) => replayed(&read_record(&path)?, &path)?,
                None => {
                    let (spec, geometry) = spec_and_size(&variant, size.as_deref())?;
                    AnyGame::new(&spec, geometry)
                }
            };
            run_perft(&game, depth, divide);
            Ok(())
        }
        Command::Legal { file, why } => {
            let record = read_record(&file)?;
            let game = replayed(&record, &file)?;
            match why {
                Some(vertex) => explain(&game, &vertex),
                None => {
                    let mut moves = Vec::new();
                    game.legal_moves(&mut moves);
                    let words: Vec<String> = moves.iter().map(|&m| move_text(record.geometry, m)).collect();
                    println!("{}", words.join(" "));
                    Ok(())
                }
            }
        }
        Command::Score { file } => {
            let game = replayed(&read_record(&file)?, &file)?;
            print_score(&game);
            Ok(())
        }
        Command::Replay { file } => {
            let record = read_record(&file)?;
            let game = record.replay().map_err(|e| Failure { message: e.to_string(), code: 1 })?;
            println!("{} moves of {} on {}", record.moves.len(), game.spec(), record.geometry);
            print!("{}", game.board());
            print_score(&game);
            Ok(())
        }
        Command::Bench { variant, size, playouts, seed } => match variant {
            Some(variant) => {
                let (spec, geometry) = spec_and_size(&variant, size.as_deref().or(Some("9")))?;
                bench::single(&spec, geometry, playouts, seed);
                Ok(())
            }
            None => {
                bench::table(playouts, seed);
                Ok(())
            }
        },
    }
}

fn list_rules() {
    for variant in VARIANTS {
        println!("{}: {}", variant.name, variant.about);
        for option in variant.options.iter().chain([&variago_rules::spec::OptionInfo::SIZE]) {
            println!("    {} = {} (default {})", option.key, option.values, option.default);
        }
    }
}

/// A spec and the board size: `--size` wins, then the spec's `size=`, then 19x19.
fn spec_and_size(variant: &str, size: Option<&str>) -> Result<(VariantSpec, Geometry), Failure> {
    let spec: VariantSpec = variant.parse().map_err(Failure::input)?;
    let geometry = match size {
        Some(text) => Geometry::parse(text).map_err(Failure::input)?,
        None => spec.size.map_or_else(|| Geometry::square(19).map_err(Failure::input), Ok)?,
    };
    Ok((spec, geometry))
}

fn read_record(path: &Path) -> Result<Record, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
    Record::from_sgf(&text).map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

/// The position at the end of a record's main line; an illegal move in it is bad input.
fn replayed(record: &Record, path: &Path) -> Result<AnyGame, Failure> {
    record.replay().map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}

fn run_perft(game: &AnyGame, depth: u32, divide: bool) {
    if divide && depth > 0 {
        let geometry = game.board().geometry();
        let mut total = 0;
        for (mv, count) in perft::divide(game, depth) {
            println!("{} {count}", move_text(geometry, mv));
            total += count;
        }
        println!("{total}");
    } else {
        println!("{}", perft::perft(game, depth));
    }
}

fn explain(game: &AnyGame, vertex: &str) -> Result<(), Failure> {
    let geometry = game.board().geometry();
    let mv = if vertex.eq_ignore_ascii_case("pass") {
        Move::Pass
    } else {
        Move::Place(geometry.parse_vertex(vertex).map_err(Failure::input)?)
    };
    let name = move_text(geometry, mv);
    match game.check(mv) {
        Ok(()) => println!("{name} is legal"),
        Err(reason) => println!("{name} is illegal: {reason}"),
    }
    Ok(())
}

fn print_score(game: &AnyGame) {
    let score = game.score();
    print!("{score}");
    println!("{}", score.totals_line());
    println!("{}", game.outcome().unwrap_or_else(|| score.result()));
}
