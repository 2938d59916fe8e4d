//! Square Lifeline in the commands that take a record or a spec (`perft`, `legal`, `score`,
//! `replay`, `genmove`): its spec has a parser of its own and its records a layout of their own
//! (docs/records.md), so the commands ask here first.

use std::path::Path;

use variago_records::LifelineRecord;
use variago_records::file;
use variago_records::lifeline_sgf::is_lifeline_sgf;
use variago_rules::Geometry;
use variago_rules::lifeline::{Lifeline, LifelineSpec};

use crate::Failure;

pub use variago_rules::lifeline::names_lifeline as is_lifeline;

/// Whether FILE is read as Square Lifeline: `--variant lifeline...`, or, without `--variant`,
/// an SGF file whose root names it in `RU`.
pub fn is_lifeline_file(variant: Option<&str>, path: &Path) -> bool {
    match variant {
        Some(variant) => is_lifeline(variant),
        None => file::read_text(path).is_ok_and(|text| is_lifeline_sgf(&text)),
    }
}

/// The spec and its board, `--size` read as the spec's own `size=` (with its bounds).
pub fn spec_and_size(variant: &str, size: Option<&str>) -> Result<(LifelineSpec, Geometry), Failure> {
    let spec: LifelineSpec = variant.parse().map_err(Failure::input)?;
    let geometry = match size {
        Some(text) => spec.with_size(text).map_err(Failure::input)?.geometry(),
        None => spec.geometry(),
    };
    Ok((spec, geometry))
}

/// A Square Lifeline record; a `--variant` given with it must be the record's own rules (and size,
/// if it names one).
pub fn read_record(path: &Path, variant: Option<&str>) -> Result<LifelineRecord, Failure> {
    let text =
        file::read_text(path).map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
    let record =
        LifelineRecord::from_sgf(&text).map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
    if let Some(variant) = variant {
        let given: LifelineSpec =
            variant.parse().map_err(|e| Failure::input(format!("{}: --variant: {e}", path.display())))?;
        if given.rules != record.rules || given.size.is_some_and(|size| size != record.geometry) {
            return Err(Failure::input(format!(
                "{}: --variant {} disagrees with the record, which is {} on {} (leave --variant out to read it)",
                path.display(),
                variago_rules::excerpt(variant),
                record.spec(),
                record.geometry
            )));
        }
    }
    Ok(record)
}

/// The position at the end of a record; a turn the rules refuse is bad input.
pub fn position(path: &Path, variant: Option<&str>) -> Result<Lifeline, Failure> {
    read_record(path, variant)?.replay().map_err(|e| Failure::input(format!("{}: {e}", path.display())))
}
