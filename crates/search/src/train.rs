//! Learning the features' weights from recorded moves: the generalized Bradley-Terry model of
//! Coulom ("Computing Elo Ratings of Move Patterns in the Game of Go", 2007). Each move of a
//! position is a team whose strength is the product of its features' weights (gammas); the move
//! played won a competition against every other legal move. Minorization-maximization raises the
//! likelihood of the played moves at every step, one group of features at a time (a move has at
//! most one feature of each group, which is what makes the update exact).

use std::collections::HashMap;

use variago_rules::{Game, Placement};

use crate::features::{Feature, Position};
use crate::priors::Weights;

/// The recorded positions: for each legal move its features, and which move was played.
#[derive(Default)]
pub struct TrainingSet {
    /// Every distinct feature seen, by id.
    features: Vec<Feature>,
    ids: HashMap<Feature, u32>,
    /// The feature ids of every candidate move, one after the other.
    candidate_features: Vec<u32>,
    /// Where each candidate's ids end in `candidate_features`.
    candidate_ends: Vec<u32>,
    /// Where each position's candidates end.
    position_ends: Vec<u32>,
    /// The candidate index of each position's played move.
    played: Vec<u32>,
}

/// What a fit reached.
#[derive(Clone, Debug)]
pub struct Fit {
    /// The learned weights.
    pub weights: Weights,
    /// The mean log-likelihood of the played moves after each iteration (it never falls).
    pub log_likelihood: Vec<f64>,
    /// The share of positions whose played move has the largest strength.
    pub prediction_rate: f64,
}

/// The group a feature's weight is updated with.
fn group(feature: Feature) -> usize {
    match feature {
        Feature::Pass => 0,
        Feature::Pattern(_) => 1,
        Feature::Capture(_) => 2,
        Feature::Escape(_) => 3,
        Feature::SelfAtari => 4,
        Feature::Atari(_) => 5,
        Feature::Distance(_) => 6,
        Feature::Line(_) => 7,
        Feature::Open(_) => 8,
    }
}
const GROUPS: usize = 9;

impl TrainingSet {
    /// Positions added so far.
    pub fn positions(&self) -> usize {
        self.played.len()
    }

    /// Adds the position `game` with the move `played`; `false` (and nothing added) when the
    /// variant has no board of stones, the move is not legal there, or it was the only move.
    pub fn add<G: Game>(&mut self, game: &G, played: G::Move) -> bool {
        let Some(stones) = game.stones() else { return false };
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let Some(winner) = moves.iter().position(|&m| m == played) else { return false };
        if moves.len() < 2 {
            return false;
        }
        let position = Position::new(stones, game.to_move());
        let first_candidate = self.candidate_ends.len() as u32;
        for &mv in &moves {
            let list: Vec<Feature> = match mv.placement() {
                Some(p) => position.features(p).list().collect(),
                None => vec![Feature::Pass],
            };
            for feature in list {
                let next = self.features.len() as u32;
                let id = *self.ids.entry(feature).or_insert(next);
                if id == next {
                    self.features.push(feature);
                }
                self.candidate_features.push(id);
            }
            self.candidate_ends.push(self.candidate_features.len() as u32);
        }
        self.position_ends.push(self.candidate_ends.len() as u32);
        self.played.push(first_candidate + winner as u32);
        true
    }

    /// The ids of candidate `c`'s features.
    fn candidate(&self, c: usize) -> &[u32] {
        let start = if c == 0 { 0 } else { self.candidate_ends[c - 1] as usize };
        &self.candidate_features[start..self.candidate_ends[c] as usize]
    }

    /// The candidates of position `i`.
    fn candidates(&self, i: usize) -> std::ops::Range<usize> {
        let start = if i == 0 { 0 } else { self.position_ends[i - 1] as usize };
        start..self.position_ends[i] as usize
    }

    fn strength(&self, c: usize, gammas: &[f64]) -> f64 {
        self.candidate(c).iter().map(|&f| gammas[f as usize]).product()
    }

    /// Fits the weights by `iterations` rounds of minorization-maximization over every group.
    /// Each weight starts at 1 and carries Coulom's prior (one virtual win and one virtual loss
    /// against a weight of 1), which keeps rare patterns near 1. Features seen fewer than
    /// `min_count` times among the candidates are left out of the result (weight 1).
    pub fn fit(&self, iterations: usize, min_count: u32) -> Fit {
        let n = self.features.len();
        let mut gammas = vec![1.0f64; n];
        let mut wins = vec![0.0f64; n];
        let mut seen = vec![0u32; n];
        for (i, &played) in self.played.iter().enumerate() {
            for &f in self.candidate(played as usize) {
                wins[f as usize] += 1.0;
            }
            for c in self.candidates(i) {
                for &f in self.candidate(c) {
                    seen[f as usize] += 1;
                }
            }
        }
        let group_of: Vec<usize> = self.features.iter().map(|&f| group(f)).collect();
        let mut log_likelihood = Vec::new();
        let mut strengths = Vec::new();
        for _ in 0..iterations {
            for g in 0..GROUPS {
                let mut denominators = vec![0.0f64; n];
                for i in 0..self.played.len() {
                    strengths.clear();
                    strengths.extend(self.candidates(i).map(|c| self.strength(c, &gammas)));
                    let total: f64 = strengths.iter().sum();
                    for (c, strength) in self.candidates(i).zip(&strengths) {
                        for &f in self.candidate(c) {
                            if group_of[f as usize] == g {
                                denominators[f as usize] += strength / gammas[f as usize] / total;
                            }
                        }
                    }
                }
                for f in (0..n).filter(|&f| group_of[f] == g) {
                    gammas[f] = (wins[f] + 1.0) / (denominators[f] + 2.0 / (gammas[f] + 1.0));
                }
            }
            log_likelihood.push(self.mean_log_likelihood(&gammas));
        }
        let predicted = (0..self.played.len())
            .filter(|&i| {
                let best = self.candidates(i).map(|c| (self.strength(c, &gammas), c)).fold(
                    (f64::NEG_INFINITY, usize::MAX),
                    |best, (s, c)| if s > best.0 { (s, c) } else { best },
                );
                best.1 == self.played[i] as usize
            })
            .count();
        let kept = (0..n).filter(|&f| seen[f] >= min_count).map(|f| (self.features[f], gammas[f]));
        Fit {
            weights: Weights::from_gammas(kept),
            log_likelihood,
            prediction_rate: predicted as f64 / self.played.len().max(1) as f64,
        }
    }

    /// The mean log-probability the model gives the played moves.
    fn mean_log_likelihood(&self, gammas: &[f64]) -> f64 {
        let sum: f64 = (0..self.played.len())
            .map(|i| {
                let total: f64 = self.candidates(i).map(|c| self.strength(c, gammas)).sum();
                (self.strength(self.played[i] as usize, gammas) / total).ln()
            })
            .sum();
        sum / self.played.len().max(1) as f64
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::features::Capture;
    use variago_rules::{AnyGame, Board, Color, Move, VariantSpec};

    /// Black to play on 5x5; White's C3 stands in atari (its last liberty is D3).
    pub(crate) fn capture_position() -> AnyGame {
        let board = Board::from_diagram(&[
            ". . . . .", //
            ". . X . .",
            ". X O . .",
            ". . X . .",
            ". . . . .",
        ])
        .unwrap();
        AnyGame::from_setup(&"go".parse::<VariantSpec>().unwrap(), board, Color::Black)
    }

    #[test]
    fn a_feature_every_played_move_has_gains_weight_and_the_likelihood_never_falls() {
        let game = capture_position();
        let d3 = Move::Place(game.board().geometry().parse_vertex("D3").unwrap());
        let e1 = Move::Place(game.board().geometry().parse_vertex("E1").unwrap());
        let mut set = TrainingSet::default();
        for _ in 0..20 {
            assert!(set.add(&game, d3));
        }
        assert!(set.add(&game, e1), "one corner move, so that the corner's pattern is seen to win once");
        assert!(!set.add(&game, Move::Place(game.board().geometry().parse_vertex("C3").unwrap())), "illegal");
        assert_eq!(set.positions(), 21);
        let fit = set.fit(10, 1);
        let capture = fit.weights.gamma(Feature::Capture(Capture::One));
        // the capture shares the credit with D3's pattern, line and distance, all unique to it
        assert!(capture > 2.0, "capture weight {capture}");
        assert!(fit.weights.gamma(Feature::Pass) < 1.0, "the pass never won");
        for pair in fit.log_likelihood.windows(2) {
            assert!(pair[1] >= pair[0] - 1e-9, "{:?}", fit.log_likelihood);
        }
        assert!((fit.prediction_rate - 20.0 / 21.0).abs() < 1e-9, "{}", fit.prediction_rate);
        // a uniform model would give ln(1/legal moves) to each
        let legal = 5 * 5 - 4 + 1;
        assert!(fit.log_likelihood.last().unwrap() > &-(legal as f64).ln());
    }
}
