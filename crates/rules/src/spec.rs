//! Variant specs: the one spelling of a variant and its options used everywhere (CLI flags, SGF
//! `RU[...]`, GTP, the server): `NAME` or `NAME:key=value,key=value`, e.g.
//! `go:ko=simple,komi=6.5` or `incursion:minimal=true,shape=line`.

use std::fmt;
use std::str::FromStr;

use crate::borderline::BorderlineRules;
use crate::excursion::{ExcursionForm, ExcursionRules};
use crate::geometry::{Geometry, GeometryError};
use crate::go::GoRules;
use crate::incursion::IncursionRules;
use crate::score::HalfPoints;
use crate::stoical::StoicalRules;
use crate::stone_game::CommonRules;

/// Why a variant spec was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The name before the colon is not a variant.
    #[error("unknown variant '{}' (known: {})", crate::excerpt(.name), known_names().join(", "))]
    UnknownVariant {
        /// The name given.
        name: String,
    },
    /// `galice` where a single-board variant must go, or with options, which it has none of.
    #[error("{}", if *.with_options {
        "galice takes no options (two 7x7 boards, no komi, no size): write just 'galice'"
    } else {
        "galice is played on two boards: it is not one of the single-board variants read here"
    })]
    Galice {
        /// Whether options were given (`galice:size=9`).
        with_options: bool,
    },
    /// A spec read by Square Lifeline's own parser ([`crate::lifeline::LifelineSpec`]) that names
    /// another variant.
    #[error("'{}' is not Square Lifeline (write lifeline or lifeline:key=value,...)", crate::excerpt(.name))]
    NotLifeline {
        /// The name given.
        name: String,
    },
    /// A key the variant does not have.
    #[error("variant '{variant}' has no option '{}' (its options: {known})", crate::excerpt(.key))]
    UnknownOption {
        /// The variant.
        variant: String,
        /// The key given.
        key: String,
        /// The keys it has.
        known: String,
    },
    /// A value outside the option's range.
    #[error("option '{}' cannot be '{}' (expected {expected})", crate::excerpt(.key), crate::excerpt(.value))]
    BadValue {
        /// The option.
        key: String,
        /// The value given.
        value: String,
        /// What it may be.
        expected: String,
    },
    /// An option not written `key=value`.
    #[error("'{}' is not an option (write key=value)", crate::excerpt(.0))]
    Malformed(String),
    /// The `size` option's value is not a board size.
    #[error(transparent)]
    Size(#[from] GeometryError),
}

/// One option of a variant, for listings (`variago rules`) and error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionInfo {
    /// The key written before `=`.
    pub key: &'static str,
    /// The values it takes.
    pub values: &'static str,
    /// Its default.
    pub default: &'static str,
}

impl OptionInfo {
    /// Komi, shared by the area-scored variants.
    pub const KOMI: OptionInfo = OptionInfo { key: "komi", values: "any multiple of 0.5", default: "7.5" };
    /// The own-position draw switch of the Incursion, Stoical and Excursion families.
    pub const DRAW: OptionInfo =
        OptionInfo { key: "draw", values: "own-position | none", default: "own-position" };
    /// The board size, which every single-board variant accepts.
    pub const SIZE: OptionInfo = OptionInfo { key: "size", values: "N or WxH, 2..25", default: "19x19" };
}

/// A variant's rule settings as text: read from and written to specs.
pub(crate) trait Options: Default {
    /// The options besides `size`.
    const INFO: &'static [OptionInfo];
    /// The shared settings of the single-board stone variants, where `komi` and `draw` go
    /// (`None` for a variant that keeps every option itself; [`common_in_field`] for the others).
    fn common_mut(&mut self) -> Option<&mut CommonRules> {
        None
    }
    /// The shared settings, for writing them.
    fn common_settings(&self) -> Option<&CommonRules> {
        None
    }
    /// Sets a variant-specific option; `Ok(false)` if the key is not one of them.
    fn set(&mut self, key: &str, value: &str) -> Result<bool, SpecError>;
    /// The variant-specific options that differ from their defaults.
    fn written(&self) -> Vec<(&'static str, String)>;
}

/// The [`Options`] methods of a variant whose shared settings are its field `common`.
macro_rules! common_in_field {
    () => {
        fn common_mut(&mut self) -> Option<&mut CommonRules> {
            Some(&mut self.common)
        }

        fn common_settings(&self) -> Option<&CommonRules> {
            Some(&self.common)
        }
    };
}
pub(crate) use common_in_field;

/// The values of [`OptionInfo::DRAW`]: whether the own-position draw is in force.
pub(crate) const DRAW_CHOICES: &[(&str, bool)] = &[("own-position", true), ("none", false)];

/// Maps an option value to a setting, or says what was expected.
pub(crate) fn expect_one_of<T: Copy>(key: &str, value: &str, choices: &[(&str, T)]) -> Result<T, SpecError> {
    choices.iter().find(|(name, _)| *name == value).map(|&(_, v)| v).ok_or_else(|| SpecError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        expected: choices.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(" | "),
    })
}

/// Calls `set` with each `key=value` of a spec's options text (what follows the colon), the key
/// trimmed and in lower case, the value trimmed.
pub(crate) fn for_each_option(
    options: &str,
    mut set: impl FnMut(&str, &str) -> Result<(), SpecError>,
) -> Result<(), SpecError> {
    for option in options.split(',').map(str::trim).filter(|o| !o.is_empty()) {
        let (key, value) = option.split_once('=').ok_or_else(|| SpecError::Malformed(option.to_string()))?;
        set(&key.trim().to_ascii_lowercase(), value.trim())?;
    }
    Ok(())
}

/// Sets one option of `variant`'s rules, or says why not (an unknown key lists the variant's keys).
pub(crate) fn set_option<O: Options>(
    rules: &mut O,
    variant: &str,
    key: &str,
    value: &str,
) -> Result<(), SpecError> {
    if rules.set(key, value)? {
        return Ok(());
    }
    let has = |info: OptionInfo| O::INFO.contains(&info) && info.key == key;
    if let Some(common) = rules.common_mut().filter(|_| has(OptionInfo::KOMI)) {
        common.komi = HalfPoints::parse(value).ok_or_else(|| SpecError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            expected: OptionInfo::KOMI.values.to_string(),
        })?;
    } else if let Some(common) = rules.common_mut().filter(|_| has(OptionInfo::DRAW)) {
        common.own_position_draw = expect_one_of(key, value, DRAW_CHOICES)?;
    } else {
        let known = O::INFO.iter().chain([&OptionInfo::SIZE]).map(|o| o.key).collect::<Vec<_>>();
        return Err(SpecError::UnknownOption {
            variant: variant.to_string(),
            key: key.to_string(),
            known: known.join(", "),
        });
    }
    Ok(())
}

pub(crate) fn written_options<O: Options>(rules: &O) -> Vec<(&'static str, String)> {
    let mut out = rules.written();
    let Some(common) = rules.common_settings() else { return out };
    if O::INFO.contains(&OptionInfo::DRAW) && !common.own_position_draw {
        out.push(("draw", "none".to_string()));
    }
    if common.komi != HalfPoints(15) {
        out.push(("komi", common.komi.to_string()));
    }
    out
}

/// The rules of a variant chosen at run time.
#[derive(Clone, Debug, PartialEq)]
pub enum Variant {
    /// `go`
    Go(GoRules),
    /// `incursion`, `incursion-minimal`, `incursion-line`
    Incursion(IncursionRules),
    /// `stoical`
    Stoical(StoicalRules),
    /// `excursion-1`, `excursion-2`
    Excursion(ExcursionRules),
    /// `borderline`
    Borderline(BorderlineRules),
}

/// A variant with its options, and the board size if the spec names one.
#[derive(Clone, Debug, PartialEq)]
pub struct VariantSpec {
    /// The rules.
    pub variant: Variant,
    /// `size=...` from the spec, if given.
    pub size: Option<Geometry>,
}

/// A variant name for listings.
#[derive(Clone, Copy, Debug)]
pub struct VariantInfo {
    /// The name written in specs.
    pub name: &'static str,
    /// One line for players.
    pub about: &'static str,
    /// Its options (besides `size`, which all take).
    pub options: &'static [OptionInfo],
}

/// Every variant name the engine knows, in the order `variago rules` lists them.
pub const VARIANTS: &[VariantInfo] = &[
    VariantInfo {
        name: "go",
        about: "standard Go, area scoring; the baseline every other variant is measured against",
        options: <GoRules as Options>::INFO,
    },
    VariantInfo {
        name: "incursion",
        about: "no ko rule; you may not make an incursion right after your opponent made one",
        options: <IncursionRules as Options>::INFO,
    },
    VariantInfo {
        name: "incursion-minimal",
        about: "incursion with minimal=true: only incursions capturing 0 or 1 groups are restricted",
        options: <IncursionRules as Options>::INFO,
    },
    VariantInfo {
        name: "incursion-line",
        about: "incursion with shape=line: only incursions into line-shaped territories are restricted",
        options: <IncursionRules as Options>::INFO,
    },
    VariantInfo {
        name: "stoical",
        about: "no ko rule; you may not capture right after your opponent captured",
        options: <StoicalRules as Options>::INFO,
    },
    VariantInfo {
        name: "excursion-1",
        about: "incursions create kings; a king placement may never remove a king; stones revert kings",
        options: <ExcursionRules as Options>::INFO,
    },
    VariantInfo {
        name: "excursion-2",
        about: "incursions create kings; no king placement removing a king right after the opponent's king",
        options: <ExcursionRules as Options>::INFO,
    },
    VariantInfo {
        name: "borderline",
        about: crate::borderline::ABOUT,
        options: <BorderlineRules as Options>::INFO,
    },
];

/// The names an unknown variant's error lists: the single-board variants and Galice, which is
/// read elsewhere but is a variant all the same (a user looking for it must find it named).
fn known_names() -> Vec<&'static str> {
    VARIANTS.iter().map(|v| v.name).chain(["galice"]).collect()
}

impl VariantSpec {
    /// The spec's komi.
    pub fn komi(&self) -> HalfPoints {
        match &self.variant {
            Variant::Go(r) => r.common.komi,
            Variant::Incursion(r) => r.common.komi,
            Variant::Stoical(r) => r.common.komi,
            Variant::Excursion(r) => r.common.komi,
            Variant::Borderline(r) => r.komi,
        }
    }

    /// Sets the komi (SGF `KM`, GTP `komi`).
    pub fn set_komi(&mut self, komi: HalfPoints) {
        match &mut self.variant {
            Variant::Go(r) => r.common.komi = komi,
            Variant::Incursion(r) => r.common.komi = komi,
            Variant::Stoical(r) => r.common.komi = komi,
            Variant::Excursion(r) => r.common.komi = komi,
            Variant::Borderline(r) => r.komi = komi,
        }
    }

    /// Switches the own-position draw on or off where the variant has it (the Incursion, Stoical
    /// and Excursion families); Go and Borderline have no such draw and stay as they are. The
    /// lab's cycle search needs it off: a drawn game cannot cycle.
    pub fn set_own_position_draw(&mut self, on: bool) {
        match &mut self.variant {
            Variant::Incursion(r) => r.common.own_position_draw = on,
            Variant::Stoical(r) => r.common.own_position_draw = on,
            Variant::Excursion(r) => r.common.own_position_draw = on,
            Variant::Go(_) | Variant::Borderline(_) => {}
        }
    }

    /// The spec without its size (SGF keeps the size in `SZ`).
    pub fn without_size(&self) -> VariantSpec {
        VariantSpec { variant: self.variant.clone(), size: None }
    }
}

impl FromStr for VariantSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let text = text.trim();
        let (name, options) = text.split_once(':').unwrap_or((text, ""));
        let name = name.trim().to_ascii_lowercase();
        let mut spec = VariantSpec {
            variant: match name.as_str() {
                "go" => Variant::Go(GoRules::default()),
                "incursion" => Variant::Incursion(IncursionRules::default()),
                "incursion-minimal" => {
                    Variant::Incursion(IncursionRules { minimal: true, ..Default::default() })
                }
                "incursion-line" => Variant::Incursion(IncursionRules { line: true, ..Default::default() }),
                "stoical" => Variant::Stoical(StoicalRules::default()),
                "excursion-1" => Variant::Excursion(ExcursionRules::new(ExcursionForm::One)),
                "excursion-2" => Variant::Excursion(ExcursionRules::new(ExcursionForm::Two)),
                "borderline" => Variant::Borderline(BorderlineRules::default()),
                "galice" => return Err(SpecError::Galice { with_options: text.contains(':') }),
                _ => return Err(SpecError::UnknownVariant { name }),
            },
            size: None,
        };
        for_each_option(options, |key, value| {
            if key == "size" {
                spec.size = Some(Geometry::parse(value)?);
                return Ok(());
            }
            match &mut spec.variant {
                Variant::Go(r) => set_option(r, &name, key, value),
                Variant::Incursion(r) => set_option(r, &name, key, value),
                Variant::Stoical(r) => set_option(r, &name, key, value),
                Variant::Excursion(r) => set_option(r, &name, key, value),
                Variant::Borderline(r) => set_option(r, &name, key, value),
            }
        })?;
        Ok(spec)
    }
}

impl fmt::Display for VariantSpec {
    /// The canonical spelling: the name, then the options that differ from the defaults.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (mut name, mut options) = match &self.variant {
            Variant::Go(r) => ("go", written_options(r)),
            Variant::Incursion(r) => ("incursion", written_options(r)),
            Variant::Stoical(r) => ("stoical", written_options(r)),
            Variant::Excursion(r) => (
                match r.form {
                    ExcursionForm::One => "excursion-1",
                    ExcursionForm::Two => "excursion-2",
                },
                written_options(r),
            ),
            Variant::Borderline(r) => ("borderline", written_options(r)),
        };
        if name == "incursion" {
            let refinements: Vec<_> =
                options.iter().filter(|(k, _)| matches!(*k, "minimal" | "shape")).collect();
            if let [(key, _)] = refinements[..] {
                name = if *key == "minimal" { "incursion-minimal" } else { "incursion-line" };
                options.retain(|(k, _)| !matches!(*k, "minimal" | "shape"));
            }
        }
        write_spec(f, name, options, self.size)
    }
}

/// Writes a spec the canonical way, `NAME:key=value,...` with the size last if there is one: how
/// every variant's spec prints.
pub(crate) fn write_spec(
    f: &mut fmt::Formatter<'_>,
    name: &str,
    mut options: Vec<(&str, String)>,
    size: Option<Geometry>,
) -> fmt::Result {
    if let Some(size) = size {
        options.push(("size", size.to_string()));
    }
    f.write_str(name)?;
    for (i, (key, value)) in options.iter().enumerate() {
        write!(f, "{}{key}={value}", if i == 0 { ':' } else { ',' })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        let spec: VariantSpec = text.parse().unwrap();
        let printed = spec.to_string();
        assert_eq!(printed.parse::<VariantSpec>().unwrap(), spec, "{text} -> {printed}");
        printed
    }

    #[test]
    fn specs_parse_and_print_canonically() {
        assert_eq!(round_trip("go"), "go");
        assert_eq!(round_trip("go:ko=simple,komi=6.5"), "go:ko=simple,komi=6.5");
        assert_eq!(round_trip("go:komi=7.5,ko=positional"), "go");
        assert_eq!(round_trip("incursion:minimal=true"), "incursion-minimal");
        assert_eq!(round_trip("incursion-line"), "incursion-line");
        assert_eq!(round_trip("incursion:minimal=true,shape=line"), "incursion:minimal=true,shape=line");
        assert_eq!(round_trip("incursion-minimal:shape=line"), "incursion:minimal=true,shape=line");
        assert_eq!(
            round_trip("stoical:refine=more-stones,draw=none"),
            "stoical:refine=more-stones,draw=none"
        );
        assert_eq!(round_trip("Go: size=9x13 , suicide=allowed"), "go:suicide=allowed,size=9x13");
        assert_eq!(round_trip("excursion-1"), "excursion-1");
        assert_eq!(round_trip("excursion-2:draw=none,komi=0.5"), "excursion-2:draw=none,komi=0.5");
    }

    #[test]
    fn the_own_position_draw_switches_off_where_the_variant_has_it() {
        let switched = |text: &str| {
            let mut spec: VariantSpec = text.parse().unwrap();
            spec.set_own_position_draw(false);
            spec.to_string()
        };
        assert_eq!(switched("incursion-line"), "incursion-line:draw=none");
        assert_eq!(switched("stoical:refine=more-stones"), "stoical:refine=more-stones,draw=none");
        assert_eq!(switched("excursion-2"), "excursion-2:draw=none");
        assert_eq!(switched("go:ko=simple"), "go:ko=simple");
        let mut spec: VariantSpec = "incursion:draw=none".parse().unwrap();
        spec.set_own_position_draw(true);
        assert_eq!(spec.to_string(), "incursion");
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let err = |t: &str| t.parse::<VariantSpec>().unwrap_err().to_string();
        assert!(err("chess").contains("unknown variant 'chess'"));
        assert!(err("chess").ends_with("borderline, galice)"), "{}", err("chess"));
        assert!(err("galice:size=9").contains("galice takes no options"), "{}", err("galice:size=9"));
        assert!(err("Galice").contains("galice is played on two boards"), "{}", err("Galice"));
        assert!(err("go:draw=none").contains("has no option 'draw'"));
        assert!(err("go:ko=super").contains("expected simple | positional | situational"));
        assert!(err("go:komi=6.3").contains("multiple of 0.5"));
        assert!(err("go:komi").contains("write key=value"));
        assert!(err("go:size=30").contains("out of range"));
        assert!(err("stoical:refine=fewer").contains("none | more-stones"));
        assert!(err("excursion-1:ko=simple").contains("has no option 'ko'"));
    }
}
