//! `variago train-patterns`: learns the weights of the AI's move features from SGF records
//! (docs/ai.md), the table the search ships as `crates/search/data/go-features.txt`.

use std::path::{Path, PathBuf};

use variago_rules::{Color, Game};
use variago_search::train::TrainingSet;

use crate::{Failure, read_record};

/// The flags of `variago train-patterns`.
#[derive(clap::Args)]
pub struct Options {
    /// SGF records, or folders searched for `*.sgf`.
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// Where to write the weight table (the shipped one is crates/search/data/go-features.txt).
    #[arg(long)]
    pub out: PathBuf,
    /// Rounds of minorization-maximization.
    #[arg(long, default_value_t = 20)]
    pub iterations: usize,
    /// Features seen fewer times than this among the candidate moves keep the weight 1.
    #[arg(long, default_value_t = 10)]
    pub min_count: u32,
    /// Learn only from the moves of the player who won each game (records with a result).
    #[arg(long)]
    pub winners_only: bool,
}

/// Every `*.sgf` under `path` (or `path` itself), sorted so that runs read them alike.
fn sgf_files(path: &Path, out: &mut Vec<PathBuf>) -> Result<(), Failure> {
    if path.is_dir() {
        let entries =
            std::fs::read_dir(path).map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() || p.extension().is_some_and(|e| e == "sgf") {
                sgf_files(&p, out)?;
            }
        }
    } else {
        out.push(path.to_path_buf());
    }
    Ok(())
}

pub fn run(options: Options) -> Result<(), Failure> {
    let mut files = Vec::new();
    for path in &options.records {
        sgf_files(path, &mut files)?;
    }
    let mut set = TrainingSet::default();
    let mut games = 0;
    for path in &files {
        let record = read_record(path, None)?;
        let winner = record.result.as_deref().and_then(|r| match r.chars().next() {
            Some('B') => Some(Color::Black),
            Some('W') => Some(Color::White),
            _ => None,
        });
        let mut game = record.initial_position();
        for &mv in &record.moves {
            if !options.winners_only || winner == Some(game.to_move()) {
                set.add(&game, mv);
            }
            if game.play(mv).is_err() {
                break;
            }
        }
        games += 1;
    }
    if set.positions() == 0 {
        return Err(Failure::input(
            "no positions to learn from (records of single-board variants with moves)",
        ));
    }
    eprintln!("{games} games, {} positions", set.positions());
    let fit = set.fit(options.iterations, options.min_count);
    for (i, ll) in fit.log_likelihood.iter().enumerate() {
        eprintln!("iteration {}: mean log-likelihood {ll:.4}", i + 1);
    }
    let header = format!(
        "variago move-feature weights (Bradley-Terry gammas), learned by `variago train-patterns`\n\
         from {games} games, {} positions; {} iterations; mean log-likelihood {:.4}; the played move\n\
         ranked first in {:.1}% of positions. Regenerate: see docs/ai.md.",
        set.positions(),
        options.iterations,
        fit.log_likelihood.last().copied().unwrap_or(f64::NAN),
        100.0 * fit.prediction_rate
    );
    std::fs::write(&options.out, fit.weights.to_text(&header))
        .map_err(|e| Failure::input(format!("{}: {e}", options.out.display())))?;
    println!(
        "{} positions, prediction rate {:.3}, written to {}",
        set.positions(),
        fit.prediction_rate,
        options.out.display()
    );
    Ok(())
}
