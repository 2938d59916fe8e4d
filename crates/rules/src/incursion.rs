//! Incursion Go (`incursion`, `incursion-minimal`, `incursion-line`): no ko rule; a player may not
//! make an incursion (a placement in the opponent's territory) right after the opponent made one.

use crate::board::{Board, LazyPreview};
use crate::geometry::Point;
use crate::spec::{OptionInfo, Options, SpecError, expect_one_of};
use crate::stone_game::{CommonRules, StoneRules};
use crate::{Color, Illegal, StoneGame};

/// Incursion Go's settings: the two independent refinements.
#[derive(Clone, Debug, PartialEq)]
pub struct IncursionRules {
    pub(crate) common: CommonRules,
    /// Only incursions capturing zero or one groups count (and restrict the reply).
    pub minimal: bool,
    /// Only placements in line-shaped territories count as incursions.
    pub line: bool,
}

impl Default for IncursionRules {
    fn default() -> Self {
        IncursionRules { common: CommonRules::no_ko_with_draw(), minimal: false, line: false }
    }
}

/// A position of Incursion Go (any form).
pub type Incursion = StoneGame<IncursionRules>;

impl IncursionRules {
    /// Whether a placement of `mover` on `p` is an incursion that counts under these rules.
    #[inline(always)]
    pub(crate) fn counts_as_incursion(
        &self,
        board: &Board,
        mover: Color,
        p: Point,
        preview: &LazyPreview,
    ) -> bool {
        // the territory first: most placements are not in it, and then need no capture count;
        // its shape only when it matters
        let in_territory = if self.line {
            board
                .territory_at_board_point::<true>(p, mover.opponent())
                .is_some_and(|region| region.line_shaped)
        } else {
            board.territory_at_board_point::<false>(p, mover.opponent()).is_some()
        };
        in_territory && !(self.minimal && preview.get().captured_groups > 1)
    }
}

impl StoneRules for IncursionRules {
    /// Whether the last move was an incursion that counts.
    type Memory = bool;

    fn common(&self) -> &CommonRules {
        &self.common
    }

    #[inline(always)]
    fn judge(
        &self,
        board: &Board,
        mover: Color,
        p: Point,
        preview: &LazyPreview,
        last: bool,
    ) -> Result<bool, Illegal> {
        let counted = self.counts_as_incursion(board, mover, p, preview);
        match (counted && last, self.minimal) {
            (false, _) => Ok(counted),
            (true, false) => Err(Illegal::IncursionAfterIncursion),
            (true, true) => Err(Illegal::MinimalIncursionAfterMinimal),
        }
    }
}

impl Options for IncursionRules {
    const INFO: &'static [OptionInfo] = &[
        OptionInfo { key: "minimal", values: "false | true", default: "false" },
        OptionInfo { key: "shape", values: "any | line", default: "any" },
        OptionInfo::DRAW,
        OptionInfo::KOMI,
    ];

    crate::spec::common_in_field!();

    fn set(&mut self, key: &str, value: &str) -> Result<bool, SpecError> {
        match key {
            "minimal" => self.minimal = expect_one_of(key, value, &[("false", false), ("true", true)])?,
            "shape" => self.line = expect_one_of(key, value, &[("any", false), ("line", true)])?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn written(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.minimal {
            out.push(("minimal", "true".to_string()));
        }
        if self.line {
            out.push(("shape", "line".to_string()));
        }
        out
    }
}
