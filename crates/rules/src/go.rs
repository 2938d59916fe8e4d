//! Standard Go (`go`): area scoring, a choice of ko rule, optional suicide. The baseline every
//! other variant is measured against.

use crate::board::{Board, LazyPreview};
use crate::geometry::Point;
use crate::score::HalfPoints;
use crate::spec::{OptionInfo, Options, SpecError, expect_one_of};
use crate::stone_game::{CommonRules, KoRule, StoneRules};
use crate::{Color, Illegal, StoneGame};

/// Standard Go's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct GoRules {
    pub(crate) common: CommonRules,
}

impl Default for GoRules {
    fn default() -> Self {
        GoRules {
            common: CommonRules {
                komi: HalfPoints(15),
                ko: KoRule::Positional,
                suicide_allowed: false,
                own_position_draw: false,
            },
        }
    }
}

impl GoRules {
    /// The ko rule: the lab refuses the superko rules, whose positions have no finite state.
    pub fn ko(&self) -> KoRule {
        self.common.ko
    }
}

/// Standard Go has nothing to remember beyond the shared history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoMemory;

impl From<NoMemory> for u64 {
    fn from(_: NoMemory) -> u64 {
        0
    }
}

/// A position of standard Go.
pub type Go = StoneGame<GoRules>;

const KO_VALUES: [(&str, KoRule); 3] =
    [("simple", KoRule::Simple), ("positional", KoRule::Positional), ("situational", KoRule::Situational)];

impl StoneRules for GoRules {
    type Memory = NoMemory;
    const HAS_OWN_POSITION_DRAW: bool = false;

    fn common(&self) -> &CommonRules {
        &self.common
    }

    fn judge(
        &self,
        _: &Board,
        _: Color,
        _: Point,
        _: &LazyPreview,
        _: NoMemory,
    ) -> Result<NoMemory, Illegal> {
        Ok(NoMemory)
    }
}

impl Options for GoRules {
    const INFO: &'static [OptionInfo] = &[
        OptionInfo { key: "ko", values: "simple | positional | situational", default: "positional" },
        OptionInfo { key: "suicide", values: "forbidden | allowed", default: "forbidden" },
        OptionInfo::KOMI,
    ];

    crate::spec::common_in_field!();

    fn set(&mut self, key: &str, value: &str) -> Result<bool, SpecError> {
        match key {
            "ko" => self.common.ko = expect_one_of(key, value, &KO_VALUES)?,
            "suicide" => {
                self.common.suicide_allowed =
                    expect_one_of(key, value, &[("forbidden", false), ("allowed", true)])?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn written(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if self.common.ko != KoRule::Positional {
            let name = KO_VALUES.iter().find(|(_, k)| *k == self.common.ko).map_or("?", |(n, _)| n);
            out.push(("ko", name.to_string()));
        }
        if self.common.suicide_allowed {
            out.push(("suicide", "allowed".to_string()));
        }
        out
    }
}
