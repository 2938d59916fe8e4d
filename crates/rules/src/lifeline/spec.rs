//! Square Lifeline's settings and its spec, `lifeline:size=5x5,swap=false,draw=none`, read and
//! written like the other variants' specs (the option syntax and errors are the crate's, from
//! [`crate::spec`]). Lifeline is not among [`crate::spec::VARIANTS`], which every variant chosen
//! at run time (the `AnyGame` enum, the CLI, the server) must handle: it has its own parser.

use std::fmt;
use std::str::FromStr;

use crate::geometry::{Geometry, MAX_SIDE};
use crate::spec::{
    DRAW_CHOICES, OptionInfo, Options, SpecError, expect_one_of, for_each_option, set_option, write_spec,
    written_options,
};

use super::Lifeline;

/// The name written in specs.
pub const NAME: &str = "lifeline";
/// The board side when the spec names no size.
pub const DEFAULT_SIZE: u8 = 9;
/// The shortest board side the rules allow.
pub const MIN_SIDE: u8 = 2;
/// The options besides `size`, for listings.
pub const OPTIONS: &[OptionInfo] = <LifelineRules as Options>::INFO;

/// Whether a spec names Square Lifeline (`lifeline` or `lifeline:OPTIONS`, in any case): the
/// programs that take any variant's spec read it with [`LifelineSpec`]'s parser then.
pub fn names_lifeline(spec: &str) -> bool {
    spec.split(':').next().is_some_and(|name| name.trim().eq_ignore_ascii_case(NAME))
}

/// Square Lifeline's settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LifelineRules {
    /// Whether White may swap on its first turn (`swap=true|false`, true by default).
    pub swap: bool,
    /// Whether a turn that leaves the board as it was at the end of one of the mover's earlier
    /// turns draws the game (`draw=own-position|none`, own-position by default). Without it the
    /// game can cycle, which the lab's cycle search needs.
    pub own_position_draw: bool,
}

impl Default for LifelineRules {
    fn default() -> Self {
        LifelineRules { swap: true, own_position_draw: true }
    }
}

impl Options for LifelineRules {
    const INFO: &'static [OptionInfo] =
        &[OptionInfo { key: "swap", values: "true | false", default: "true" }, OptionInfo::DRAW];

    fn set(&mut self, key: &str, value: &str) -> Result<bool, SpecError> {
        match key {
            "swap" => self.swap = expect_one_of(key, value, &[("true", true), ("false", false)])?,
            "draw" => self.own_position_draw = expect_one_of(key, value, DRAW_CHOICES)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    fn written(&self) -> Vec<(&'static str, String)> {
        let mut out = Vec::new();
        if !self.swap {
            out.push(("swap", "false".to_string()));
        }
        if !self.own_position_draw {
            out.push(("draw", "none".to_string()));
        }
        out
    }
}

/// A Square Lifeline spec: the settings, and the board size if the spec names one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct LifelineSpec {
    /// The settings.
    pub rules: LifelineRules,
    /// `size=...` from the spec, if given (each side 2 to 25).
    pub size: Option<Geometry>,
}

impl LifelineSpec {
    /// The board: the spec's size, else [`DEFAULT_SIZE`] square.
    pub fn geometry(&self) -> Geometry {
        self.size.unwrap_or_else(|| {
            Geometry::square(DEFAULT_SIZE as u32).expect("the default size is a board size")
        })
    }

    /// The same spec on the board `size` names, read as its `size=` is (a `--size` flag, a form's
    /// size field).
    pub fn with_size(self, size: &str) -> Result<Self, SpecError> {
        Ok(LifelineSpec { size: Some(read_size(size.trim())?), ..self })
    }

    /// A new game on the spec's board.
    pub fn new_game(&self) -> Lifeline {
        Lifeline::new(self.rules, self.geometry())
    }
}

/// A board size as `size=` writes it (`N` or `WxH`), each side [`MIN_SIDE`] to 25.
fn read_size(value: &str) -> Result<Geometry, SpecError> {
    let geometry = Geometry::parse(value)?;
    if geometry.width() < MIN_SIDE || geometry.height() < MIN_SIDE {
        return Err(SpecError::BadValue {
            key: "size".to_string(),
            value: value.to_string(),
            expected: format!("N or WxH, each side {MIN_SIDE} to {MAX_SIDE}"),
        });
    }
    Ok(geometry)
}

impl FromStr for LifelineSpec {
    type Err = SpecError;

    /// Reads `lifeline` or `lifeline:key=value,...` (name and keys in any case).
    fn from_str(text: &str) -> Result<Self, SpecError> {
        let text = text.trim();
        let (name, options) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim().to_ascii_lowercase();
        if name != NAME {
            return Err(SpecError::NotLifeline { name });
        }
        let mut spec = LifelineSpec::default();
        for_each_option(options, |key, value| {
            if key != "size" {
                return set_option(&mut spec.rules, NAME, key, value);
            }
            spec.size = Some(read_size(value)?);
            Ok(())
        })?;
        Ok(spec)
    }
}

impl fmt::Display for LifelineSpec {
    /// The canonical spelling: the name, then the options that differ from the defaults, then
    /// the size if the spec has one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_spec(f, NAME, written_options(&self.rules), self.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        let spec: LifelineSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = spec.to_string();
        assert_eq!(printed.parse::<LifelineSpec>().unwrap(), spec, "{text} -> {printed}");
        printed
    }

    #[test]
    fn specs_parse_and_print_canonically() {
        assert_eq!(round_trip("lifeline"), "lifeline");
        assert_eq!(round_trip("lifeline:swap=true,draw=own-position"), "lifeline");
        assert_eq!(
            round_trip("Lifeline: size=5x5 , swap=false,draw=none"),
            "lifeline:swap=false,draw=none,size=5x5"
        );
        assert_eq!(round_trip("lifeline:DRAW=none"), "lifeline:draw=none");
        let spec: LifelineSpec = "lifeline:size=5x5,swap=false,draw=none".parse().unwrap();
        assert_eq!(spec.rules, LifelineRules { swap: false, own_position_draw: false });
        assert_eq!(spec.geometry(), Geometry::square(5).unwrap());
        assert_eq!(LifelineSpec::default().geometry(), Geometry::square(9).unwrap());
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let err = |t: &str| t.parse::<LifelineSpec>().unwrap_err().to_string();
        assert!(err("go").contains("'go' is not Square Lifeline"), "{}", err("go"));
        assert!(err("lifeline:komi=7.5").contains("has no option 'komi' (its options: swap, draw, size)"));
        assert!(err("lifeline:swap=maybe").contains("expected true | false"));
        assert!(err("lifeline:draw=always").contains("expected own-position | none"));
        assert!(err("lifeline:swap").contains("write key=value"));
        assert!(err("lifeline:size=1x5").contains("each side 2 to 25"), "{}", err("lifeline:size=1x5"));
        assert!(err("lifeline:size=26").contains("out of range"));
    }
}
