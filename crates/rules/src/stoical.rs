//! Stoical Go (`stoical`): no ko rule; a player may not capture right after the opponent captured.

use crate::board::{Board, LazyPreview};
use crate::geometry::Point;
use crate::spec::{OptionInfo, Options, SpecError, expect_one_of};
use crate::stone_game::{CommonRules, StoneRules};
use crate::{Color, Illegal, StoneGame};

/// Stoical Go's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct StoicalRules {
    pub(crate) common: CommonRules,
    /// `refine=more-stones`: a capture right after a capture of n stones is legal when it takes
    /// more than n stones.
    pub more_stones: bool,
}

impl Default for StoicalRules {
    fn default() -> Self {
        StoicalRules { common: CommonRules::no_ko_with_draw(), more_stones: false }
    }
}

/// A position of Stoical Go.
pub type Stoical = StoneGame<StoicalRules>;

impl StoneRules for StoicalRules {
    /// Stones the last move captured.
    type Memory = u16;

    fn common(&self) -> &CommonRules {
        &self.common
    }

    fn judge(
        &self,
        _: &Board,
        _: Color,
        _: Point,
        preview: &LazyPreview,
        previous: u16,
    ) -> Result<u16, Illegal> {
        let captures = preview.get().captured_stones;
        if previous == 0 || captures == 0 || (self.more_stones && captures > previous) {
            Ok(captures)
        } else if self.more_stones {
            Err(Illegal::CaptureNotLarger { captures, previous })
        } else {
            Err(Illegal::CaptureAfterCapture)
        }
    }
}

impl Options for StoicalRules {
    const INFO: &'static [OptionInfo] = &[
        OptionInfo { key: "refine", values: "none | more-stones", default: "none" },
        OptionInfo::DRAW,
        OptionInfo::KOMI,
    ];

    crate::spec::common_in_field!();

    fn set(&mut self, key: &str, value: &str) -> Result<bool, SpecError> {
        match key {
            "refine" => {
                self.more_stones = expect_one_of(key, value, &[("none", false), ("more-stones", true)])?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn written(&self) -> Vec<(&'static str, String)> {
        if self.more_stones { vec![("refine", "more-stones".to_string())] } else { Vec::new() }
    }
}
