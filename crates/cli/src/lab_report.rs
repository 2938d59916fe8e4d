//! `variago lab report`: finished self-play runs as one HTML page with the tables and the plots
//! (docs/lab-report.md); the page and plots are the lab crate's, this reads the folders and replays the
//! games for the branching factor by move number.

use std::path::{Path, PathBuf};

use clap::Args;
use variago_lab::GameStats;
use variago_lab::report::{BranchingAt, ReportRun, labels, write_report};
use variago_lab::runs::{read_finished, sgf_name};
use variago_records::Record;
use variago_rules::Game;

use crate::{Failure, read_text};

/// `variago lab report`.
#[derive(Args)]
pub struct ReportOptions {
    /// Finished run folders (of `lab selfplay`, or the per-variant and per-komi folders of `lab
    /// compare` and `lab komi`), shown side by side in this order.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The HTML file to write; its plots also go beside it, as `STEM-plots/NAME.svg` and `.png`.
    #[arg(long)]
    html: PathBuf,
}

/// Reads the runs, writes the page and its plots, and says where.
pub fn report(options: ReportOptions) -> Result<(), Failure> {
    let mut runs = Vec::new();
    for dir in &options.dirs {
        let (settings, games) = read_finished(dir).map_err(Failure::input)?;
        let branching_by_move =
            if crate::is_galice(&settings.variant) { None } else { Some(branching_by_move(dir, &games)?) };
        runs.push(ReportRun { label: String::new(), dir: dir.clone(), settings, games, branching_by_move });
    }
    let settings: Vec<_> = runs.iter().map(|r| r.settings.clone()).collect();
    let (mut names, _) = labels(&settings);
    // the same run twice (or two runs alike in every setting): their folders tell them apart
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    if sorted.len() < names.len() {
        names = options.dirs.iter().map(|d| d.display().to_string()).collect();
    }
    for (run, name) in runs.iter_mut().zip(names) {
        run.label = name;
    }
    let plots = write_report(&options.html, &runs).map_err(Failure::input)?;
    println!("{}: {} runs; plots as SVG and PNG in {}", options.html.display(), runs.len(), plots.display());
    Ok(())
}

/// The legal moves (pass included) of the position each move was played from, added up per move
/// number over the games: each game's SGF replayed through the engine.
fn branching_by_move(dir: &Path, games: &[GameStats]) -> Result<Vec<BranchingAt>, Failure> {
    let mut by_move: Vec<BranchingAt> = Vec::new();
    let mut legal = Vec::new();
    for stats in games {
        let path = dir.join(sgf_name(stats.game));
        let record = Record::from_sgf(&read_text(&path)?)
            .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        let mut position = record.initial_position();
        for (i, &mv) in record.moves.iter().enumerate() {
            if by_move.len() <= i {
                by_move.push(BranchingAt::default());
            }
            legal.clear();
            position.legal_moves(&mut legal);
            by_move[i].legal += legal.len() as u64;
            by_move[i].games += 1;
            position.play(mv).map_err(|reason| {
                Failure::input(format!("{}: move {} cannot be replayed: {reason}", path.display(), i + 1))
            })?;
        }
    }
    Ok(by_move)
}
