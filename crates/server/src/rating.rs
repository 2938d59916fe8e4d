//! Glicko-2 ratings per variant, by skillratings' implementation of Glickman's paper. Each rated
//! game is a rating period of its own for both players, so that a rating moves as soon as a game
//! ends (as on lichess).

use serde::Serialize;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A player's Glicko-2 rating.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The rating, 1500 for a newcomer.
    pub rating: f64,
    /// Its deviation (uncertainty), 350 for a newcomer.
    pub deviation: f64,
    /// Its volatility, 0.06 for a newcomer.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(r: Glicko2Rating) -> Self {
        Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(r: Rating) -> Self {
        Glicko2Rating { rating: r.rating, deviation: r.deviation, volatility: r.volatility }
    }
}

/// A player's rating after a rating period of `results`: each opponent's rating before it and
/// the player's score against them (1 a win, 0.5 a draw, 0 a loss). The paper's system constant
/// τ is skillratings' default, 0.5.
pub fn after_period(player: Rating, results: &[(Rating, f64)]) -> Rating {
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|&(opponent, score)| {
            let outcome = match score {
                s if s > 0.5 => Outcomes::WIN,
                s if s < 0.5 => Outcomes::LOSS,
                _ => Outcomes::DRAW,
            };
            (opponent.into(), outcome)
        })
        .collect();
    glicko2_rating_period(&player.into(), &results, &Glicko2Config::new()).into()
}

/// Both players' ratings after a game between them in which Black scored `black_score`.
pub fn after_game(black: Rating, white: Rating, black_score: f64) -> (Rating, Rating) {
    (after_period(black, &[(white, black_score)]), after_period(white, &[(black, 1.0 - black_score)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worked example of Glickman's "Example of the Glicko-2 system" (glicko.net): a player
    /// of 1500, RD 200, volatility 0.06 beats a 1400 (RD 30), then loses to a 1550 (RD 100) and to
    /// a 1700 (RD 300), with τ = 0.5: the paper's new rating is 1464.06, RD 151.52, volatility
    /// 0.05999.
    #[test]
    fn the_paper_s_worked_example() {
        let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
        let opponent = |rating, deviation| Rating { rating, deviation, volatility: 0.06 };
        let after = after_period(
            player,
            &[(opponent(1400.0, 30.0), 1.0), (opponent(1550.0, 100.0), 0.0), (opponent(1700.0, 300.0), 0.0)],
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    /// Two newcomers: the winner goes up and the loser down by the same amount, both less
    /// uncertain; a draw between equals moves neither rating.
    #[test]
    fn a_game_between_newcomers() {
        let (winner, loser) = after_game(Rating::default(), Rating::default(), 1.0);
        assert!(winner.rating > 1500.0 && loser.rating < 1500.0, "{winner:?} {loser:?}");
        assert!((winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-9);
        assert!(winner.deviation < 350.0 && loser.deviation < 350.0);
        let (black, white) = after_game(Rating::default(), Rating::default(), 0.5);
        assert!((black.rating - 1500.0).abs() < 1e-9 && (white.rating - 1500.0).abs() < 1e-9);
    }
}
