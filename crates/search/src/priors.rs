//! The tree's prior knowledge: the learned weight of each move feature ([`crate::features`]),
//! and the value a new node starts with before any playout has gone through it.
//!
//! The weights ship in the binary as generated data, one table learned on 9x9 games
//! (`data/go-features.txt`) and one learned on 19x19 games for boards of 19 lines and more
//! (`data/go-features-19.txt`), both written by `variago train-patterns` (docs/ai.md has the
//! commands that regenerate them): what a move on the second line is worth early in a 19x19
//! game is not what it is worth on 9x9, where the second line is a fifth of the way across.

use std::collections::HashMap;
use std::fmt::Write;
use std::hash::BuildHasherDefault;
use std::sync::OnceLock;

use variago_rules::{Game, Placement};

use crate::features::{Capture, ChainBuffers, Feature, MoveFeatures, Position, Size};
use crate::tree::FxHasher;

/// The weight (Bradley-Terry gamma) of every feature that has one; the others weigh 1.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    gammas: HashMap<Feature, f64>,
    /// The logarithm of each gamma, in a map with a cheap hash: what the search's expansions
    /// read, several times per legal move.
    log_gammas: HashMap<Feature, f64, BuildHasherDefault<FxHasher>>,
}

/// Buffers [`Weights::move_values`] works in, kept by the caller (the search keeps one per
/// thread) so that a tree expansion allocates nothing.
#[derive(Clone, Debug, Default)]
pub struct PriorBuffers {
    chains: ChainBuffers,
    /// Per move, its log-strength (`None` for a pass).
    log_strengths: Vec<Option<f64>>,
    /// Per point index, its placement's log-strength once worked out (a pair's stones are
    /// weighed once however many pairs hold them).
    point_strengths: Vec<Option<f64>>,
}

/// The weights learned from 9x9 Go, shipped in the binary: for boards below [`LARGE_BOARD`]
/// lines each way.
const BUILTIN: &str = include_str!("../data/go-features.txt");

/// The weights learned from 19x19 Go, shipped in the binary: for boards of [`LARGE_BOARD`] lines
/// and more each way.
const BUILTIN_LARGE: &str = include_str!("../data/go-features-19.txt");

/// Lines each way from which a board takes the 19x19 weights. Not 13x13: there the 19x19 table
/// lost to the 9x9 one, 6-14 at 2,000 playouts (docs/ai.md), where on 19x19 it scored 11-9 and
/// opened less on the second line.
pub const LARGE_BOARD: u8 = 19;

/// Playouts the priors weigh as by default below [`LARGE_BOARD`] lines: 50 scored 19-21
/// against 20 on 9x9 (docs/ai.md).
pub const PRIOR_VISITS: f64 = 20.0;

/// Playouts the priors weigh as by default from [`LARGE_BOARD`] lines each way: with 361 moves
/// to a node the playouts take longer to tell the good ones apart, and the priors' lead must last
/// longer; 60 beat 20 49-31 on 19x19 at 2,000 playouts (docs/ai.md).
pub const PRIOR_VISITS_LARGE: f64 = 60.0;

/// The default weight of the priors on `game`'s board ([`crate::Settings::prior_visits`]).
pub fn default_prior_visits<G: Game>(game: &G) -> f64 {
    if is_large(game) { PRIOR_VISITS_LARGE } else { PRIOR_VISITS }
}

/// Whether `game` has a board of stones of at least [`LARGE_BOARD`] lines each way.
fn is_large<G: Game>(game: &G) -> bool {
    has_lines(game, LARGE_BOARD)
}

/// Whether `game` has a board of stones of at least `lines` lines each way.
pub(crate) fn has_lines<G: Game>(game: &G, lines: u8) -> bool {
    game.stones().is_some_and(|s| {
        let g = s.board.geometry();
        g.width().min(g.height()) >= lines
    })
}

/// Each big chain's feature with the feature of the size class below it. A table whose games
/// never (or too rarely to keep) captured, saved or put in atari a big chain gives its big
/// class the weight of the class below, not the neutral 1: the 19x19 table, learned from 30
/// games of GNU Go level 1, has no capture of five stones, and a capture of twelve would
/// otherwise weigh less than one of two.
const SIZE_CLASSES_BELOW: [(Feature, Feature); 3] = [
    (Feature::Capture(Capture::Many), Feature::Capture(Capture::Several)),
    (Feature::Escape(Size::Big), Feature::Escape(Size::Small)),
    (Feature::Atari(Size::Big), Feature::Atari(Size::Small)),
];

impl Weights {
    /// Weights from `(feature, gamma)` pairs.
    pub fn from_gammas(gammas: impl IntoIterator<Item = (Feature, f64)>) -> Self {
        let gammas: HashMap<Feature, f64> = gammas.into_iter().collect();
        let log_gammas = gammas.iter().map(|(&feature, gamma)| (feature, gamma.ln())).collect();
        Weights { gammas, log_gammas }
    }

    /// The weights learned from 9x9 games, shipped in the binary (parsed once): the small
    /// boards' table, and the source of the heavy playouts' 3x3 shapes on every board.
    pub fn builtin() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| Weights::parse(BUILTIN).expect("the shipped weight table parses"))
    }

    /// The weights learned from 19x19 games, shipped in the binary (parsed once).
    pub fn builtin_large() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| Weights::parse(BUILTIN_LARGE).expect("the shipped weight table parses"))
    }

    /// The shipped table for `game`'s board: [`Weights::builtin_large`] from [`LARGE_BOARD`]
    /// lines each way, else [`Weights::builtin`] (also for variants without a board of stones,
    /// which the weights do not apply to anyway).
    pub fn builtin_for<G: Game>(game: &G) -> &'static Weights {
        if is_large(game) { Weights::builtin_large() } else { Weights::builtin() }
    }

    /// Reads the table format of [`Weights::to_text`]: `NAME GAMMA` per line, `#` comments.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut gammas = HashMap::new();
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("line {}: expected 'FEATURE GAMMA', got '{line}'", number + 1);
            let (name, gamma) = line.split_once(' ').ok_or_else(bad)?;
            let feature = Feature::from_name(name).ok_or_else(bad)?;
            let gamma: f64 = gamma.trim().parse().map_err(|_| bad())?;
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(bad());
            }
            gammas.insert(feature, gamma);
        }
        for (big, small) in SIZE_CLASSES_BELOW {
            if let (false, Some(&gamma)) = (gammas.contains_key(&big), gammas.get(&small)) {
                gammas.insert(big, gamma);
            }
        }
        Ok(Weights::from_gammas(gammas))
    }

    /// The table as text, features in a fixed order, after a comment line `header`.
    pub fn to_text(&self, header: &str) -> String {
        let mut entries: Vec<_> = self.gammas.iter().collect();
        entries.sort_by(|a, b| a.0.cmp(b.0));
        let mut text = String::new();
        for line in header.lines() {
            let _ = writeln!(text, "# {line}");
        }
        for (feature, gamma) in entries {
            let _ = writeln!(text, "{} {gamma:.6}", feature.name());
        }
        text
    }

    /// Every 3x3 pattern with a weight, by canonical code.
    pub fn patterns(&self) -> impl Iterator<Item = (u32, f64)> + '_ {
        self.gammas.iter().filter_map(|(feature, &gamma)| match feature {
            Feature::Pattern(code) => Some((*code, gamma)),
            _ => None,
        })
    }

    /// A feature's weight (1 when the table has none).
    pub fn gamma(&self, feature: Feature) -> f64 {
        self.gammas.get(&feature).copied().unwrap_or(1.0)
    }

    /// The logarithm of a placement's strength (the product of its features' weights), summed
    /// from the logarithms of the weights.
    fn log_strength(&self, features: &MoveFeatures) -> f64 {
        features.list().map(|f| self.log_gammas.get(&f).copied().unwrap_or(0.0)).sum()
    }

    /// The log-strength of each of `moves` in `game` (`None` for a pass) into
    /// `buffers.log_strengths`, or `false` when the variant has no board of stones. A move that
    /// places two stones at once (Square Lifeline's first turn) has the two placements' together.
    fn log_strengths<G: Game>(&self, game: &G, moves: &[G::Move], buffers: &mut PriorBuffers) -> bool {
        let Some(stones) = game.stones() else { return false };
        let position = Position::reusing(stones, game.to_move(), std::mem::take(&mut buffers.chains));
        buffers.log_strengths.clear();
        let by_point = &mut buffers.point_strengths;
        by_point.clear();
        by_point.resize(stones.board.geometry().slots(), None);
        let mut strength = |p: variago_rules::Point| {
            *by_point[p.index()].get_or_insert_with(|| self.log_strength(&position.features(p)))
        };
        buffers.log_strengths.extend(moves.iter().map(|&mv| match mv.stones_placed() {
            [Some(a), second] => Some(strength(a) + second.map_or(0.0, &mut strength)),
            _ => None,
        }));
        buffers.chains = position.into_buffers();
        true
    }

    /// The model's probability of each of `moves` being the one played (the pass with its own
    /// weight), or `None` when the variant has no board of stones: the policy GUIs show.
    pub fn move_policy<G: Game>(&self, game: &G, moves: &[G::Move]) -> Option<Vec<f64>> {
        let pass = self.gamma(Feature::Pass);
        let mut buffers = PriorBuffers::default();
        if !self.log_strengths(game, moves, &mut buffers) {
            return None;
        }
        let strengths: Vec<f64> = buffers.log_strengths.iter().map(|s| s.map_or(pass, f64::exp)).collect();
        let total: f64 = strengths.iter().sum();
        Some(strengths.iter().map(|s| s / total).collect())
    }

    /// The prior value of each of `moves` in `game` (same order), or `false` when the variant has
    /// no board of stones. A placement's value is `r^(1/SOFTNESS) / (1 + r^(1/SOFTNESS))`, where
    /// `r` is the move's strength over the geometric mean strength of the placements. A typical
    /// move starts at 0.5, and the mean is geometric so that a few strong moves (a capture, a good
    /// shape) do not push every other move down. A pass's value is 0.5: its weight was learned
    /// where games end, and the search's pass rules judge it anyway. `buffers` are scratch space.
    pub fn move_values<G: Game>(
        &self,
        game: &G,
        moves: &[G::Move],
        values: &mut Vec<f32>,
        buffers: &mut PriorBuffers,
    ) -> bool {
        values.clear();
        if !self.log_strengths(game, moves, buffers) {
            return false;
        }
        let log_strengths = &buffers.log_strengths;
        let placements = log_strengths.iter().flatten().count().max(1) as f64;
        let mean = log_strengths.iter().flatten().sum::<f64>() / placements;
        values.extend(log_strengths.iter().map(|s| match s {
            Some(s) => {
                let r = ((s - mean) / SOFTNESS).exp();
                (r / (1.0 + r)) as f32
            }
            None => 0.5,
        }));
        true
    }
}

/// How far the strengths are flattened before they become values: with 2, a move a hundred
/// times stronger than the mean starts at 10/11.
const SOFTNESS: f64 = 2.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_read_back_and_bad_lines_are_named() {
        let weights = Weights::from_gammas([
            (Feature::Pass, 0.25),
            (Feature::Capture(Capture::One), 12.5),
            (Feature::Pattern(0x123), 1.75),
        ]);
        let text = weights.to_text("a header\nof two lines");
        assert!(text.starts_with("# a header\n# of two lines\n"));
        assert_eq!(Weights::parse(&text).unwrap(), weights);
        assert_eq!(weights.gamma(Feature::Escape(Size::Small)), 1.0);
        for bad in ["pass", "pass x", "pass -1", "pass 0", "pass inf", "kosumi 2.0"] {
            let error = Weights::parse(bad).unwrap_err();
            assert!(error.starts_with("line 1: "), "{error}");
        }
    }

    #[test]
    fn a_big_chains_class_the_table_lacks_weighs_as_the_class_below() {
        let weights = Weights::parse("capture-several 6.5\nescape 3\nescape-big 20\natari 2").unwrap();
        assert_eq!(weights.gamma(Feature::Capture(Capture::Many)), 6.5);
        assert_eq!(weights.gamma(Feature::Escape(Size::Big)), 20.0, "a learned weight stays");
        assert_eq!(weights.gamma(Feature::Atari(Size::Big)), 2.0);
        assert_eq!(weights.gamma(Feature::Capture(Capture::One)), 1.0, "not a size class of another");
        // in the 19x19 table a big capture weighs at least as much as a capture of a few stones
        let large = Weights::builtin_large();
        assert!(
            large.gamma(Feature::Capture(Capture::Many)) >= large.gamma(Feature::Capture(Capture::Several))
        );
    }

    #[test]
    fn the_shipped_tables_parse_and_rank_captures_over_self_ataris() {
        for weights in [Weights::builtin(), Weights::builtin_large()] {
            assert!(weights.gamma(Feature::Capture(Capture::One)) > 1.0);
            assert!(weights.gamma(Feature::SelfAtari) < 1.0);
            assert!(weights.gamma(Feature::Line(1)) < weights.gamma(Feature::Line(3)));
        }
        // the large boards' table: the second line early is worth less than the third and fourth
        let large = Weights::builtin_large();
        assert!(
            large.gamma(Feature::Line(2)) < large.gamma(Feature::Line(3)).min(large.gamma(Feature::Line(4)))
        );
        // and opening an area on the first or second line far less than on the third or fourth
        let opening = |line| large.gamma(Feature::Open(line));
        assert!(opening(1).max(opening(2)) < 0.1 && opening(3).min(opening(4)) > 1.0);
        // 9x9's table has no opening weights: its moves are valued as before them
        assert!(
            (1..=crate::features::CENTRE_LINE)
                .all(|line| Weights::builtin().gamma(Feature::Open(line)) == 1.0)
        );
    }

    #[test]
    fn each_board_takes_the_table_of_its_size() {
        use variago_rules::{AnyGame, Geometry};
        let game = |w, h| AnyGame::new(&"go".parse().unwrap(), Geometry::new(w, h).unwrap());
        assert!(std::ptr::eq(Weights::builtin_for(&game(9, 9)), Weights::builtin()));
        assert!(std::ptr::eq(Weights::builtin_for(&game(13, 9)), Weights::builtin()));
        assert!(std::ptr::eq(Weights::builtin_for(&game(13, 13)), Weights::builtin()));
        assert!(std::ptr::eq(Weights::builtin_for(&game(19, 17)), Weights::builtin()));
        assert!(std::ptr::eq(Weights::builtin_for(&game(19, 19)), Weights::builtin_large()));
        assert!(std::ptr::eq(Weights::builtin_for(&game(25, 25)), Weights::builtin_large()));
    }
}

#[cfg(test)]
mod position_tests {
    use super::*;
    use crate::train::tests::capture_position;
    use variago_rules::{Game, Move};

    #[test]
    fn the_shipped_weights_put_a_capture_first() {
        let game = capture_position();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut values = Vec::new();
        assert!(Weights::builtin().move_values(&game, &moves, &mut values, &mut PriorBuffers::default()));
        let best = moves.iter().zip(&values).max_by(|a, b| a.1.total_cmp(b.1)).unwrap();
        let d3 = Move::Place(game.board().geometry().parse_vertex("D3").unwrap());
        assert_eq!(*best.0, d3, "values {values:?}");
        assert!(*best.1 > 0.8);
    }

    #[test]
    fn reused_buffers_give_the_values_of_fresh_ones() {
        use variago_rules::{AnyGame, Geometry};
        let weights = Weights::builtin();
        let mut nine = AnyGame::new(&"go".parse().unwrap(), Geometry::square(9).unwrap());
        for v in ["E5", "E6", "D5", "D6", "C5"] {
            nine.play(Move::Place(nine.board().geometry().parse_vertex(v).unwrap())).unwrap();
        }
        let mut buffers = PriorBuffers::default();
        // a full board, then a smaller one with other chains: nothing of the first may linger
        for game in [nine, capture_position()] {
            let mut moves = Vec::new();
            game.legal_moves(&mut moves);
            let (mut reused, mut fresh) = (Vec::new(), Vec::new());
            assert!(weights.move_values(&game, &moves, &mut reused, &mut buffers));
            assert!(weights.move_values(&game, &moves, &mut fresh, &mut PriorBuffers::default()));
            assert_eq!(reused, fresh);
        }
        // the summed logarithms are the logarithm of the product of the weights
        let game = capture_position();
        let stones = game.stones().unwrap();
        let position = Position::new(stones, game.to_move());
        let d3 = position.features(game.board().geometry().parse_vertex("D3").unwrap());
        let product: f64 = d3.list().map(|f| weights.gamma(f)).product();
        assert!((weights.log_strength(&d3) - product.ln()).abs() < 1e-9);
    }
}
