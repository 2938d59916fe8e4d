//! The variago lab: answers to the designers' questions about the variants, computed rather than
//! argued. The definitions are those of `shared/rules/lab.md`, so that two independent programs
//! print the same numbers.
//!
//! - [`state`]: a position of the game graph (board, side to move, passes in a row, the variant's
//!   rule memory) packed into 128 bits, which the graph keeps in one machine word when the board
//!   is small enough (up to 19 points).
//! - [`variant`]: what the graph needs of a game (the Go family's stone games, Square Lifeline).
//! - [`graph`]: every state reachable from the empty board, explored level by level on several
//!   threads, with the moves between them.
//! - [`cycles`]: the shortest cycle of that graph, exact (strongly connected components first, then
//!   bounded breadth-first searches inside them).
//! - [`solve`]: small boards solved exactly: `L` and `U` of every state by retrograde analysis,
//!   the forced-cycle states (`L < U`), a line that keeps the value, the shortest forced cycle.
//! - [`selfplay`], [`stats`], [`runs`]: self-play statistics: each game's line, the summary with
//!   its intervals, and the run folders (shards, merge).
//! - [`known`]: Go's known forced cycles (triple ko, eternal life, ...), replayed under each
//!   variant.
//! - [`report`]: runs as one HTML page with tables and plots (also written as SVG and PNG).

pub mod cycles;
pub mod graph;
pub mod known;
pub mod life;
pub mod report;
pub mod runs;
pub mod selfplay;
pub mod solve;
pub mod state;
pub mod stats;
pub mod variant;

use variago_rules::spec::Variant;
use variago_rules::stone_game::KoRule;
use variago_rules::{Geometry, Move, VariantSpec};

pub use cycles::{Cycle, shortest_cycle, shortest_cycle_among};
pub use graph::{Graph, Passes, Progress, explore};
pub use selfplay::{GameStats, Player, Studied};
pub use solve::{ForcedCycle, Solution, forced_cycle_for, principal_line, shortest_forced_cycle, solve};
pub use state::StateCoder;
pub use variant::{LabVariant, Searched, searchable_lifeline};

/// A move as GTP writes it: a vertex of `geometry`, or `pass`.
pub(crate) fn move_text(geometry: Geometry, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Place(p) => geometry.vertex(p).to_string(),
    }
}

/// The variants the cycle search covers (lab.md), in the order tables list them.
pub const SEARCHED_VARIANTS: [&str; 8] = [
    "go:ko=simple",
    "incursion",
    "incursion-minimal",
    "incursion-line",
    "stoical",
    "stoical:refine=more-stones",
    "excursion-1",
    "excursion-2",
];

/// Why the cycle search refuses a variant or a board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LabError {
    /// Positional or situational superko reads the whole history: no finite state.
    #[error(
        "{0} has no finite state: superko forbids every cycle of placements by definition (try go:ko=simple)"
    )]
    Superko(String),
    /// Galice and Borderline have their own rules, outside the lab's game graph.
    #[error(
        "{0} is out of scope for the cycle search (it covers go:ko=simple, the Incursion, Stoical and Excursion families, and Square Lifeline)"
    )]
    OutOfScope(&'static str),
    /// The variant spec does not parse.
    #[error("{0}")]
    Spec(#[from] variago_rules::SpecError),
    /// A state of this board would not fit in the packed form.
    #[error("a state of a {geometry} board does not fit in 128 bits (at most {max_points} points)")]
    BoardTooLarge {
        /// The board asked for.
        geometry: Geometry,
        /// The most points a packed state holds for this variant.
        max_points: usize,
    },
}

/// The variant as the cycle search plays it: the spec parsed, refused when it has no finite
/// state, and with the own-position draw off (lab.md: the question is whether a game *can* go on
/// forever).
pub fn searchable_variant(text: &str) -> Result<VariantSpec, LabError> {
    let name = text.split(':').next().unwrap_or_default().trim().to_ascii_lowercase();
    if name == "galice" {
        return Err(LabError::OutOfScope("galice"));
    }
    let mut spec: VariantSpec = text.parse()?;
    match &spec.variant {
        Variant::Go(rules) if matches!(rules.ko(), KoRule::Positional | KoRule::Situational) => {
            return Err(LabError::Superko(spec.to_string()));
        }
        Variant::Borderline(_) => return Err(LabError::OutOfScope("borderline")),
        _ => {}
    }
    spec.set_own_position_draw(false);
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_without_a_finite_state_are_refused_with_the_reason() {
        for text in ["go", "go:ko=positional", "go:ko=situational,komi=6.5"] {
            let message = searchable_variant(text).unwrap_err().to_string();
            assert!(message.contains("superko forbids every cycle of placements by definition"), "{message}");
        }
        assert_eq!(searchable_variant("galice"), Err(LabError::OutOfScope("galice")));
        assert_eq!(searchable_variant("borderline"), Err(LabError::OutOfScope("borderline")));
        assert!(matches!(searchable_variant("chess"), Err(LabError::Spec(_))));
    }

    #[test]
    fn the_searched_variant_has_no_own_position_draw() {
        assert_eq!(searchable_variant("incursion").unwrap().to_string(), "incursion:draw=none");
        assert_eq!(searchable_variant("go:ko=simple").unwrap().to_string(), "go:ko=simple");
    }
}
