//! `variago lab known-cycles`: Go's known forced cycles (the gallery of `crates/lab/known-cycles/`,
//! or the data files given) replayed under each variant; a block per entry with a verdict per
//! variant, then a line per variant counting the cycles that survive (docs/lab-known.md).

use std::path::PathBuf;

use clap::Args;
use variago_lab::known::{KnownCycle, gallery};
use variago_rules::Color;

use crate::Failure;

/// `variago lab known-cycles`.
#[derive(Args)]
pub struct KnownCyclesOptions {
    /// Variant spec, repeatable (default: every variant the cycle search covers); played with
    /// the own-position draw off.
    #[arg(long)]
    variant: Vec<String>,
    /// Replay the cycles of these data files instead of the gallery (format in docs/lab-known.md).
    #[arg(long)]
    file: Vec<PathBuf>,
}

pub fn run(options: KnownCyclesOptions) -> Result<(), Failure> {
    let specs = crate::lab::searched_specs(&options.variant)?;
    let entries = if options.file.is_empty() {
        gallery()
    } else {
        options.file.iter().map(|path| read_entry(path)).collect::<Result<Vec<_>, _>>()?
    };
    let width = specs.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    let mut survivors = vec![0; specs.len()];
    for entry in &entries {
        println!("{}", header(entry));
        for ((name, spec), survived) in specs.iter().zip(&mut survivors) {
            let verdict = entry.replay(spec);
            *survived += verdict.cycles() as usize;
            println!("  {name:width$}  {verdict}");
        }
        println!();
    }
    for ((name, _), survived) in specs.iter().zip(&survivors) {
        println!("{name}: {survived} of {} known cycles survive", entries.len());
    }
    Ok(())
}

/// A data file given with `--file`.
fn read_entry(path: &std::path::Path) -> Result<KnownCycle, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
    KnownCycle::parse(&path.display().to_string(), &text).map_err(Failure::input)
}

/// The entry's line: name, board, who plays first, the moves with their colours and numbers.
fn header(entry: &KnownCycle) -> String {
    let mut color = entry.to_play;
    let moves: Vec<String> = entry
        .moves
        .iter()
        .map(|&mv| {
            let text = format!("{} {}", color.letter(), entry.move_text(mv));
            color = color.opponent();
            text
        })
        .collect();
    let first = if entry.to_play == Color::Black { "Black" } else { "White" };
    let n = moves.len();
    format!(
        "{} ({}, {first} first): {} (moves 1-{n}, played again as {}-{})",
        entry.name,
        entry.geometry(),
        moves.join(", "),
        n + 1,
        2 * n
    )
}
