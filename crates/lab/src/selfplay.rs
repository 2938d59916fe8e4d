//! One self-play game's statistics (lab.md, "Self-play statistics"): what a game loop reports move
//! by move, gathered into the [`GameStats`] line that `games.jsonl` holds.
//!
//! The game loop itself (engines, SGF) is the caller's; this module only looks at each position
//! before its move is played: how many legal moves it had, how many moves the variant's own rule
//! refused ([restriction hits](Studied::restriction_hits)), and the AI's value for Black.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use variago_rules::galice::{Galice, Spot, Stage, Turn};
use variago_rules::lifeline::{Lifeline, Turn as LifelineTurn};
use variago_rules::{AnyGame, Color, Game, Illegal, Move};

/// A player as the JSON files write it: `"B"` or `"W"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Player {
    /// Black.
    B,
    /// White.
    W,
}

impl From<Color> for Player {
    fn from(color: Color) -> Player {
        match color {
            Color::Black => Player::B,
            Color::White => Player::W,
        }
    }
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::B => Player::W,
            Player::W => Player::B,
        }
    }
}

/// The restriction a refused move ran into, if the reason is one of the variant's own rules
/// (lab.md's list) rather than the board's (occupied point, suicide, a stone that changes
/// nothing, no stones left, a setup or turn-order rule). The names are the keys of
/// [`GameStats::restrictions`].
pub fn restriction(reason: &Illegal) -> Option<&'static str> {
    Some(match reason {
        Illegal::Ko | Illegal::PositionalSuperko | Illegal::SituationalSuperko | Illegal::TwinBoardKo => "ko",
        Illegal::IncursionAfterIncursion | Illegal::MinimalIncursionAfterMinimal => "incursion",
        Illegal::CaptureAfterCapture | Illegal::CaptureNotLarger { .. } => "capture",
        Illegal::KingRemovesKing | Illegal::KingRemovesKingAfterKing => "king",
        Illegal::PassCapReached { .. } | Illegal::PassCooldown { .. } => "pass cap",
        Illegal::Deployment { .. } | Illegal::PassDuringDeployment => "deployment",
        Illegal::SwapBack => "swap-back",
        _ => return None,
    })
}

/// A game the lab can study: its restriction hits, and who moves first once any setup is over.
pub trait Studied: Game {
    /// The player who moves first in play: Black, or in Galice the player who moves first after
    /// the pie setup (White, by the engine's colour names).
    const FIRST: Color;

    /// Calls `hit` with the restriction's name once per move of the side to move that the
    /// variant's own rule refuses (lab.md's restriction hits; docs/lab-selfplay.md has the exact
    /// candidates per variant).
    fn restriction_hits(&self, hit: &mut dyn FnMut(&'static str));

    /// The colour the player who made the pie setup plays after the colour choice (Galice), from
    /// the game's moves; `None` for games without a setup.
    fn setup_player(_moves: &[Self::Move]) -> Option<Color> {
        None
    }
}

impl Studied for AnyGame {
    const FIRST: Color = Color::Black;

    /// Candidates: a placement on every empty point, and the pass. Each is judged by the engine,
    /// whose checks run the board's reasons (occupied, suicide) before the variant's, so a
    /// refusal with a restriction reason is a move the mover would otherwise have had.
    fn restriction_hits(&self, hit: &mut dyn FnMut(&'static str)) {
        if self.is_over() {
            return;
        }
        for &p in self.board().empties() {
            if let Err(reason) = self.check(Move::Place(p)) {
                restriction(&reason).into_iter().for_each(&mut *hit);
            }
        }
        if let Err(reason) = self.check(Move::Pass) {
            restriction(&reason).into_iter().for_each(&mut *hit);
        }
    }
}

impl Studied for Galice {
    const FIRST: Color = Color::White;

    /// Candidates in play: every swap of a stone with an empty twin, without a drop or with a drop
    /// on any point, and on White's first turn every drop. The ko counts each turn it refuses;
    /// the swap-back restriction counts once, for the one swap it refuses (not once per drop that
    /// could have followed it). The setup and the colour choice have no restriction.
    fn restriction_hits(&self, hit: &mut dyn FnMut(&'static str)) {
        let mut judge = |turn: Turn| {
            if let Err(reason) = self.check(turn) {
                restriction(&reason).into_iter().for_each(&mut *hit);
            }
        };
        match self.stage() {
            Stage::Setup | Stage::Choice => {}
            _ if self.is_over() => {}
            Stage::FirstDrop => Spot::all().for_each(|d| judge(Turn::Drop(d))),
            Stage::Play(_) => {
                for from in Spot::all() {
                    if self.stone(from).is_none() || self.stone(from.twin()).is_some() {
                        continue;
                    }
                    if self.barred() == Some(from) {
                        judge(Turn::Swap { from, drop: None });
                        continue;
                    }
                    judge(Turn::Swap { from, drop: None });
                    for drop in Spot::all() {
                        judge(Turn::Swap { from, drop: Some(drop) });
                    }
                }
            }
        }
    }

    fn setup_player(moves: &[Turn]) -> Option<Color> {
        moves.iter().find_map(|turn| match turn {
            // the chooser takes `chosen`: the player who made the setup plays the other colour
            Turn::Choose(chosen) => Some(chosen.opponent()),
            _ => None,
        })
    }
}

/// Square Lifeline: Black moves first, and its first pair is the pie rule's setup: with the swap
/// the player who placed it plays White from there on. No rule of its own refuses a move (the
/// refusals are the board's: an occupied point, a turn that changes nothing).
impl Studied for Lifeline {
    const FIRST: Color = Color::Black;

    fn restriction_hits(&self, _hit: &mut dyn FnMut(&'static str)) {}

    fn setup_player(moves: &[LifelineTurn]) -> Option<Color> {
        Some(if moves.contains(&LifelineTurn::Swap) { Color::White } else { Color::Black })
    }
}

/// One game's statistics: a line of `games.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameStats {
    /// The game's global number (0, 1, ...): its SGF is `game-NNNN.sgf`.
    pub game: u64,
    /// The seed its engines started from (fixed by the run's seed and the game's number).
    pub seed: u64,
    /// The result as SGF's `RE` writes it (`B+3.5`, `W+R`, `Draw`).
    pub result: String,
    /// The winner, `null` for a draw.
    pub winner: Option<Player>,
    /// The player who moved first in play (Black; in Galice the first to move after the setup).
    pub first: Player,
    /// Galice: the colour played, after the choice, by the player who made the pie setup.
    pub setup: Option<Player>,
    /// How it ended: `score`, `resignation`, `own-position draw`, `move cap` (scored as it
    /// stood), `forfeit`.
    pub ending: String,
    /// Moves played, passes included (in Galice each setup stone and the colour choice count).
    pub moves: u32,
    /// Passes among them.
    pub passes: u32,
    /// Moves at which the side to move had more than one legal move (pass included).
    pub decision_moves: u32,
    /// The legal moves of every position a move was played from, added up (pass included).
    pub legal_moves: u64,
    /// Restriction hits, added up over the game's positions.
    pub restriction_hits: u32,
    /// The same per restriction (`ko`, `incursion`, `capture`, `king`, `pass cap`, `deployment`,
    /// `swap-back`).
    pub restrictions: BTreeMap<String, u32>,
    /// How often the value for Black crossed 0.5 (see [`lead_changes`]).
    pub lead_changes: u32,
    /// The share of valued moves at which the winner was behind (see [`drama`]); `null` for a
    /// draw or a game without values.
    pub drama: Option<f64>,
    /// Per move, the AI's value for Black (the mover's win rate of the move it chose, seen from
    /// Black), four decimals; `null` for a move without one (an external engine's).
    pub values: Vec<Option<f64>>,
    /// Wall-clock seconds the game took (the only field that differs between two runs).
    pub seconds: f64,
}

impl GameStats {
    /// Whether the first player won (`None` for a draw).
    pub fn first_won(&self) -> Option<bool> {
        self.winner.map(|w| w == self.first)
    }

    /// Whether the player who made the pie setup won (`None` for a draw or without a setup).
    pub fn setup_won(&self) -> Option<bool> {
        Some(self.winner? == self.setup?)
    }
}

/// Which side a value for Black puts ahead: `Some(Black)` above 0.5, `Some(White)` below,
/// `None` at exactly 0.5.
fn ahead(value: f64) -> Option<Player> {
    if value > 0.5 {
        Some(Player::B)
    } else if value < 0.5 {
        Some(Player::W)
    } else {
        None
    }
}

/// Lead changes: how often the side a value puts ahead differs from the side the previous
/// value that put one ahead did (values of exactly 0.5 and missing ones are skipped).
pub fn lead_changes(values: &[Option<f64>]) -> u32 {
    let mut last = None;
    let mut changes = 0;
    for side in values.iter().flatten().filter_map(|&v| ahead(v)) {
        if last.is_some_and(|l| l != side) {
            changes += 1;
        }
        last = Some(side);
    }
    changes
}

/// Drama: the share of valued moves at which the winner was behind (its value below 0.5);
/// `None` for a draw or when no move has a value.
pub fn drama(values: &[Option<f64>], winner: Option<Player>) -> Option<f64> {
    let winner = winner?;
    let valued: Vec<f64> = values.iter().flatten().copied().collect();
    if valued.is_empty() {
        return None;
    }
    let behind = valued.iter().filter(|&&v| ahead(v) == Some(winner.other())).count();
    Some(behind as f64 / valued.len() as f64)
}

/// Rounds a value to the four decimals the files keep (so that statistics recomputed from the
/// files equal those computed while playing).
fn rounded(value: f64) -> f64 {
    (value * 10_000.0).round() / 10_000.0
}

/// Gathers a game's statistics move by move: call [`Observer::observe`] with each position
/// before its move is played, then [`Observer::finish`].
#[derive(Debug, Default)]
pub struct Observer {
    moves: u32,
    passes: u32,
    decision_moves: u32,
    legal_moves: u64,
    restriction_hits: u32,
    restrictions: BTreeMap<String, u32>,
    values: Vec<Option<f64>>,
}

/// How a game ended, as the game loop knows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Ending {
    /// SGF's `RE`.
    pub result: String,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// `score`, `resignation`, `own-position draw`, `move cap`, `forfeit`.
    pub how: String,
}

impl Observer {
    /// Looks at `game` before `mv` is played; `value` is the mover's win rate of the move as the
    /// engine gave it, if it did.
    pub fn observe<G: Studied>(&mut self, game: &G, mv: G::Move, value: Option<f64>) {
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        self.moves += 1;
        self.passes += u32::from(mv == G::PASS);
        self.decision_moves += u32::from(legal.len() > 1);
        self.legal_moves += legal.len() as u64;
        game.restriction_hits(&mut |name| {
            self.restriction_hits += 1;
            *self.restrictions.entry(name.to_string()).or_default() += 1;
        });
        let for_black = |v: f64| if game.to_move() == Color::Black { v } else { 1.0 - v };
        self.values.push(value.map(|v| rounded(for_black(v))));
    }

    /// The game's line: its number and seed, how it ended, and what was observed.
    pub fn finish<G: Studied>(
        self,
        game: u64,
        seed: u64,
        moves: &[G::Move],
        ending: Ending,
        seconds: f64,
    ) -> GameStats {
        let winner = ending.winner.map(Player::from);
        GameStats {
            game,
            seed,
            result: ending.result,
            winner,
            first: G::FIRST.into(),
            setup: G::setup_player(moves).map(Player::from),
            ending: ending.how,
            moves: self.moves,
            passes: self.passes,
            decision_moves: self.decision_moves,
            legal_moves: self.legal_moves,
            restriction_hits: self.restriction_hits,
            restrictions: self.restrictions,
            lead_changes: lead_changes(&self.values),
            drama: drama(&self.values, winner),
            values: self.values,
            seconds: (seconds * 1000.0).round() / 1000.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use variago_rules::{Geometry, VariantSpec};

    fn values(v: &[f64]) -> Vec<Option<f64>> {
        v.iter().copied().map(Some).collect()
    }

    #[test]
    fn lead_changes_count_crossings_of_one_half_skipping_ties_and_gaps() {
        assert_eq!(lead_changes(&values(&[0.6, 0.7, 0.4, 0.45, 0.55])), 2);
        assert_eq!(lead_changes(&values(&[0.6, 0.5, 0.6])), 0);
        assert_eq!(lead_changes(&values(&[0.6, 0.5, 0.4])), 1);
        assert_eq!(lead_changes(&[Some(0.4), None, Some(0.6), None]), 1);
        assert_eq!(lead_changes(&[]), 0);
    }

    #[test]
    fn drama_is_the_share_of_valued_moves_the_winner_spent_behind() {
        let trace = values(&[0.6, 0.4, 0.3, 0.5]);
        assert_eq!(drama(&trace, Some(Player::B)), Some(0.5));
        assert_eq!(drama(&trace, Some(Player::W)), Some(0.25));
        assert_eq!(drama(&trace, None), None);
        assert_eq!(drama(&[None, None], Some(Player::B)), None);
        assert_eq!(drama(&[None, Some(0.2)], Some(Player::B)), Some(1.0));
    }

    #[test]
    fn only_the_variants_own_rules_are_restrictions() {
        for board_reason in
            [Illegal::Suicide, Illegal::ChangesNothing, Illegal::NoStonesLeft, Illegal::GameOver]
        {
            assert_eq!(restriction(&board_reason), None, "{board_reason:?}");
        }
        assert_eq!(restriction(&Illegal::PositionalSuperko), Some("ko"));
        assert_eq!(restriction(&Illegal::MinimalIncursionAfterMinimal), Some("incursion"));
        assert_eq!(restriction(&Illegal::CaptureNotLarger { captures: 1, previous: 2 }), Some("capture"));
        assert_eq!(restriction(&Illegal::KingRemovesKingAfterKing), Some("king"));
        assert_eq!(restriction(&Illegal::PassCooldown { turns: 1 }), Some("pass cap"));
        assert_eq!(restriction(&Illegal::PassDuringDeployment), Some("deployment"));
        assert_eq!(restriction(&Illegal::SwapBack), Some("swap-back"));
        assert_eq!(restriction(&Illegal::EnemySwapNotForced), None);
    }

    fn play(spec: &str, size: &str, moves: &[&str]) -> AnyGame {
        let spec: VariantSpec = spec.parse().unwrap();
        let geometry = Geometry::parse(size).unwrap();
        let mut game = AnyGame::new(&spec, geometry);
        for text in moves {
            let mv =
                if *text == "pass" { Move::Pass } else { Move::Place(geometry.parse_vertex(text).unwrap()) };
            game.play(mv).unwrap();
        }
        game
    }

    fn hits(game: &impl Studied) -> Vec<&'static str> {
        let mut out = Vec::new();
        game.restriction_hits(&mut |name| out.push(name));
        out
    }

    #[test]
    fn a_simple_ko_ban_is_one_hit_and_a_suicide_none() {
        // Black C2 fills White's mouth and White B2 takes it: Black may not retake at C2 at once.
        //   A B C D
        // 3 . X O .
        // 2 X O . O
        // 1 . X O .
        let game = play("go:ko=simple", "4x3", &["B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2"]);
        assert_eq!(hits(&game), vec!["ko"]);
        // A1 and A3 are legal, D1 and D3 suicide (no hit); the empty board has no hit at all
        assert!(hits(&play("go", "9x9", &[])).is_empty());
    }

    #[test]
    fn galice_knows_who_moves_first_and_who_made_the_setup() {
        assert_eq!(Galice::FIRST, Color::White);
        assert_eq!(Galice::setup_player(&[Turn::Choose(Color::Black)]), Some(Color::White));
        assert_eq!(Galice::setup_player(&[Turn::Choose(Color::White)]), Some(Color::Black));
        assert_eq!(<AnyGame as Studied>::setup_player(&[Move::Pass]), None);
        // Square Lifeline: the player of Black's first pair plays White after the swap
        let g = variago_rules::Geometry::square(3).unwrap();
        let pair = LifelineTurn::pair(g.point(0, 0).unwrap(), g.point(2, 0).unwrap());
        assert_eq!(Lifeline::setup_player(&[pair]), Some(Color::Black));
        assert_eq!(Lifeline::setup_player(&[pair, LifelineTurn::Swap]), Some(Color::White));
        assert!(hits(&Galice::new()).is_empty());
    }

    #[test]
    fn the_observer_counts_moves_passes_decisions_and_values_for_black() {
        let mut game = play("go", "3x3", &[]);
        let mut observer = Observer::default();
        let b2 = Move::Place(Geometry::parse("3x3").unwrap().parse_vertex("B2").unwrap());
        observer.observe(&game, b2, Some(0.7));
        game.play(b2).unwrap();
        observer.observe(&game, Move::Pass, Some(0.8));
        game.play(Move::Pass).unwrap();
        let ending = Ending { result: "B+9".into(), winner: Some(Color::Black), how: "score".into() };
        let stats = observer.finish::<AnyGame>(3, 42, &[b2, Move::Pass], ending, 0.5);
        assert_eq!((stats.game, stats.seed, stats.moves, stats.passes), (3, 42, 2, 1));
        assert_eq!(stats.legal_moves, 10 + 9);
        assert_eq!(stats.decision_moves, 2);
        // White's 0.8 is Black's 0.2
        assert_eq!(stats.values, vec![Some(0.7), Some(0.2)]);
        assert_eq!(stats.lead_changes, 1);
        assert_eq!(stats.drama, Some(0.5));
        assert_eq!(stats.first_won(), Some(true));
        let line = serde_json::to_string(&stats).unwrap();
        assert_eq!(serde_json::from_str::<GameStats>(&line).unwrap(), stats);
    }
}
