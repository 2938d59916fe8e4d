//! The position of a served game: a single-board variant (the engine's `AnyGame`), Galice (two
//! boards, turns in the Galice notation, the pie setup) or Square Lifeline (a first turn's pair
//! `C2+C4`, the swap, no pass). The table handles moves as text, in each variant's own notation,
//! so that every kind of game goes through the same life.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use variago_gtp::status::Judgement;
use variago_records::sgf::{move_from_text, move_text, territory, without_dead};
use variago_records::{GameInfo, LifelineRecord, Record, galice_sgf};
use variago_rules::borderline::{StoneStatus, Zone};
use variago_rules::galice::{self, Galice, Turn};
use variago_rules::lifeline::{self, Lifeline, LifelineSpec};
use variago_rules::{
    AnyGame, Board, Color, Ending, Game, GameResult, Geometry, Move, Point, ScoreSheet, VariantSpec,
};
use variago_search::{Search, Settings};

use crate::error::ApiError;
use crate::table::{ScoreView, Side, Sides};

/// Borderline's panel: what its pages show besides the board and the score breakdown.
#[derive(Clone, Debug, Serialize)]
pub struct BorderlineView {
    /// Stones each side may still place (its forces).
    pub stones_left: Sides<u16>,
    /// Passes each side has left (`null`: no limit).
    pub passes_left: Sides<Option<u8>>,
    /// Deployment stones still to be placed at the start.
    pub deployment_left: u8,
    /// While they are, the deployment's rule for the side to move, worded as a refusal of it is
    /// ("deployment: Black's first two stones must be in rows 6-9").
    pub deployment: Option<String>,
    /// The zones, rows from the top: `b` Black's zone, `w` White's zone, `-` the Border.
    pub zones: Vec<String>,
    /// The besieged stones.
    pub besieged: Vec<String>,
    /// The points inside an enclosure, with the enclosure's owner.
    pub enclosed: BTreeMap<String, Side>,
}

/// The AI's estimate of how a game in play would end, from a search that counts who owns each
/// point at the end of its playouts (see `GET /api/games/{id}/estimate` in docs/server-api.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The event the estimate is for: a page drops it once the game has moved on.
    pub seq: u64,
    /// The side to move.
    pub to_move: Side,
    /// Playouts the search ran.
    pub playouts: u64,
    /// Black's chance of winning, by the search's win rate.
    pub black_winrate: f64,
    /// Who the estimate says wins (`null`: a draw).
    pub winner: Option<Side>,
    /// The estimated result, `B+3.5`, `W+7` or `0`: the area count with the stones judged dead
    /// taken off, komi included (Galice: both boards added up; `null` where the variant has no
    /// ownership).
    pub result: Option<String>,
    /// The same as Black's points minus White's.
    pub margin: Option<f64>,
    /// How many points no outcome settles (none reaches 60% of the playouts): what `margin`
    /// leaves out, so that a reader can weigh it (on an empty board `margin` is komi alone).
    pub open_points: Option<usize>,
    /// Rows from the top, as the view's `board` (Galice: the left board): per point, the share
    /// of playouts that gave it to Black minus the share that gave it to White, from -1 (surely
    /// White's) to 1 (surely Black's); `null` where the variant has no ownership.
    pub ownership: Option<Vec<Vec<f64>>>,
    /// Galice's right board, as `ownership` and the view's `right_board` (left out otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_ownership: Option<Vec<Vec<f64>>>,
    /// The stones judged dead (Galice: in its notation, `c4` on the left board, `C4` on the
    /// right).
    pub dead: Vec<String>,
    /// Why there is no ownership, when there is none.
    pub note: Option<String>,
}

/// The estimate's note for the variants the search has no ownership for.
pub const NO_OWNERSHIP: &str = "this variant is not counted point by point (Borderline's score \
     counts captures and weighs its terms by zone), so the AI has no ownership for it: the \
     estimate is its win rate alone";

/// The estimate's note for Square Lifeline, which has no score at all.
pub const NO_SCORE: &str = "Square Lifeline has no score (the last player to place wins): the \
     estimate is the AI's win rate alone";

/// One board judged from the search's ownership: its shares as rows, the stones judged dead and
/// the area count with them taken off (Black minus White, komi not included).
struct Judged {
    rows: Vec<Vec<f64>>,
    dead: Vec<Point>,
    margin: f64,
    /// The points no outcome settles.
    open: usize,
}

impl Judged {
    /// `ownership` per point index of `board`, Black's and White's shares.
    fn of(board: &Board, ownership: &[[f64; 2]]) -> Judged {
        let judgement = Judgement::new(board, ownership);
        let geometry = board.geometry();
        let share = |p: Point| ownership.get(p.index()).map_or(0.0, |[b, w]| b - w);
        Judged {
            rows: (0..geometry.height())
                .map(|y| (0..geometry.width()).map(|x| geometry.point(x, y).map_or(0.0, share)).collect())
                .collect(),
            dead: judgement.with(variago_gtp::status::Status::Dead).collect(),
            margin: judgement.margin(board),
            open: judgement.unsettled.len(),
        }
    }
}

/// Galice's two boards at one point of a game, as the view shows them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GaliceBoards {
    /// The left board's rows, as the view's `board`.
    pub board: Vec<String>,
    /// The right board's rows, as the view's `right_board`.
    pub right_board: Vec<String>,
}

impl GaliceBoards {
    fn of(g: &Galice) -> Self {
        GaliceBoards {
            board: rows(g.board(galice::Side::Left)),
            right_board: rows(g.board(galice::Side::Right)),
        }
    }
}

/// What the variant spec `galice` names.
pub const GALICE: &str = "galice";

/// A game's position.
// one per game, never in arrays: the variants' sizes (a few hundred bytes) do not matter
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Position {
    /// A single-board variant.
    Single {
        /// The rules, size included.
        spec: VariantSpec,
        /// The board size.
        geometry: Geometry,
        /// The position.
        game: AnyGame,
    },
    /// Galice.
    Galice(Galice),
    /// Square Lifeline.
    Lifeline {
        /// The rules, size included.
        spec: LifelineSpec,
        /// The position.
        game: Lifeline,
    },
}

/// The rows of a board from the top: `.` empty, `X` `O` stones, `K` `k` kings.
fn rows(board: &Board) -> Vec<String> {
    let geometry = board.geometry();
    (0..geometry.height())
        .map(|y| {
            (0..geometry.width()).map(|x| geometry.point(x, y).map_or('?', |p| board.symbol(p))).collect()
        })
        .collect()
}

/// A score sheet as the view shows it.
fn score_view<S: ScoreSheet>(sheet: &S) -> ScoreView {
    let [black, white] = sheet.totals();
    ScoreView {
        text: sheet.to_string(),
        totals: Sides { black: black.as_f64(), white: white.as_f64() },
        komi: sheet.komi().as_f64(),
        result: sheet.result().to_string(),
    }
}

/// Who leads by `lead` counted for Black (above 0 Black, below White, `None` at 0).
fn leader(lead: f64) -> Option<Side> {
    match lead {
        l if l > 0.0 => Some(Side::Black),
        l if l < 0.0 => Some(Side::White),
        _ => None,
    }
}

/// `"C3 is illegal: point C3 is occupied"`.
fn refusal(text: impl std::fmt::Display, reason: variago_rules::Illegal) -> ApiError {
    ApiError::illegal(format!("{text} is illegal: {reason}"))
}

impl Position {
    /// The start of a game of a spec (`galice`, `lifeline[:...]`, or a single-board spec with its
    /// size).
    pub fn start(spec: &str) -> Result<Self, ApiError> {
        if spec.trim().eq_ignore_ascii_case(GALICE) {
            return Ok(Position::Galice(Galice::new()));
        }
        if lifeline::names_lifeline(spec) {
            let spec: LifelineSpec =
                spec.parse().map_err(|e: variago_rules::SpecError| ApiError::bad_request(e.to_string()))?;
            let spec = LifelineSpec { size: Some(spec.geometry()), ..spec };
            return Ok(Position::Lifeline { game: spec.new_game(), spec });
        }
        let spec: VariantSpec =
            spec.parse().map_err(|e: variago_rules::SpecError| ApiError::bad_request(e.to_string()))?;
        let geometry = spec
            .size
            .map_or_else(|| Geometry::square(19), Ok)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Position::Single {
            game: AnyGame::new(&spec, geometry),
            spec: VariantSpec { size: Some(geometry), ..spec },
            geometry,
        })
    }

    /// The same game's starting position (to replay moves after an undo).
    pub fn restart(&self) -> Self {
        match self {
            Position::Single { spec, geometry, .. } => Position::Single {
                spec: spec.clone(),
                geometry: *geometry,
                game: AnyGame::new(spec, *geometry),
            },
            Position::Galice(_) => Position::Galice(Galice::new()),
            Position::Lifeline { spec, .. } => Position::Lifeline { spec: *spec, game: spec.new_game() },
        }
    }

    /// The canonical spec, size included.
    pub fn spec(&self) -> String {
        match self {
            Position::Single { spec, .. } => spec.to_string(),
            Position::Galice(_) => GALICE.to_string(),
            Position::Lifeline { spec, .. } => spec.to_string(),
        }
    }

    /// Columns and rows of a board.
    pub fn size(&self) -> (u8, u8) {
        match self {
            Position::Single { geometry, .. } => (geometry.width(), geometry.height()),
            Position::Galice(g) => {
                let geometry = g.board(galice::Side::Left).geometry();
                (geometry.width(), geometry.height())
            }
            Position::Lifeline { spec, .. } => (spec.geometry().width(), spec.geometry().height()),
        }
    }

    /// White's komi.
    pub fn komi(&self) -> f64 {
        match self {
            Position::Single { spec, .. } => spec.komi().as_f64(),
            Position::Galice(g) => g.score().komi().as_f64(),
            Position::Lifeline { .. } => 0.0,
        }
    }

    /// The single board and its rules (what the dead-stone phase works on); `None` for Galice.
    pub fn single(&self) -> Option<(&VariantSpec, &Board)> {
        match self {
            Position::Single { spec, game, .. } => Some((spec, game.board())),
            Position::Galice(_) | Position::Lifeline { .. } => None,
        }
    }

    /// The point of a vertex of the single board.
    pub fn point(&self, vertex: &str) -> Result<Point, ApiError> {
        match self {
            Position::Single { geometry, .. } => {
                geometry.parse_vertex(vertex).map_err(|e| ApiError::bad_request(e.to_string()))
            }
            Position::Galice(_) => Err(ApiError::conflict("galice has no dead-stone phase")),
            Position::Lifeline { .. } => Err(ApiError::conflict("Square Lifeline has no dead-stone phase")),
        }
    }

    /// The vertices of points of the single board.
    pub fn vertices(&self, points: &BTreeSet<Point>) -> Vec<String> {
        match self {
            Position::Single { geometry, .. } => {
                points.iter().map(|&p| geometry.vertex(p).to_string()).collect()
            }
            Position::Galice(_) | Position::Lifeline { .. } => Vec::new(),
        }
    }

    /// The player to move (in Galice's pie phase: Black sets up, White chooses).
    pub fn to_move(&self) -> Color {
        match self {
            Position::Single { game, .. } => game.to_move(),
            Position::Galice(g) => g.to_move(),
            Position::Lifeline { game, .. } => game.to_move(),
        }
    }

    /// A move's canonical text if it is legal now; 400 for text that is no move, 422 with the
    /// rules' reason for a move they refuse. `pass` is a pass in every variant.
    pub fn judge(&self, text: &str) -> Result<String, ApiError> {
        let pass = text.trim().eq_ignore_ascii_case("pass");
        match self {
            Position::Single { geometry, game, .. } => {
                let mv = if pass {
                    Move::Pass
                } else {
                    Move::Place(
                        geometry.parse_vertex(text).map_err(|e| ApiError::bad_request(e.to_string()))?,
                    )
                };
                let written = move_text(*geometry, mv);
                game.check(mv).map_err(|reason| refusal(&written, reason))?;
                Ok(written)
            }
            Position::Galice(g) => {
                let turn = if pass {
                    Turn::Pass
                } else {
                    text.parse().map_err(|e: galice::NotationError| ApiError::bad_request(e.to_string()))?
                };
                g.check(turn).map_err(|reason| refusal(turn, reason))?;
                Ok(turn.to_string())
            }
            Position::Lifeline { game, .. } => {
                let turn = game.parse_turn(text).map_err(|e| ApiError::bad_request(e.to_string()))?;
                let written = game.turn_text(turn);
                game.check(turn).map_err(|reason| refusal(&written, reason))?;
                Ok(written)
            }
        }
    }

    /// Plays a move given as [`Position::judge`] writes it; returns the stones it captured.
    pub fn play(&mut self, text: &str) -> Result<u32, String> {
        let written = self.judge(text).map_err(|e| e.message)?;
        match self {
            Position::Single { geometry, game, .. } => {
                let mover = game.to_move();
                let before = game.board().stones(mover.opponent());
                let mv = move_from_text(*geometry, &written).map_err(|e| e.to_string())?;
                game.play(mv).map_err(|e| e.to_string())?;
                Ok(before.saturating_sub(game.board().stones(mover.opponent())) as u32)
            }
            Position::Galice(g) => {
                let turn: Turn = written.parse().map_err(|e: galice::NotationError| e.to_string())?;
                g.play(turn).map_err(|e| e.to_string())?;
                Ok(0)
            }
            // the stones a turn removes die for want of a path, not captured: none are counted
            Position::Lifeline { game, .. } => {
                let turn = game.parse_turn(&written).map_err(|e| e.to_string())?;
                game.play(turn).map_err(|e| e.to_string())?;
                Ok(0)
            }
        }
    }

    /// Whether a move's text is a pass.
    pub fn is_pass(text: &str) -> bool {
        text == "pass" || text == Turn::Pass.to_string()
    }

    /// The colour a Galice colour choice takes (`choose black`), for the chooser; Square
    /// Lifeline's `swap` takes Black's stones for the player who was White.
    pub fn choice(text: &str) -> Option<Color> {
        if text == "swap" {
            return Some(Color::Black);
        }
        match text.parse() {
            Ok(Turn::Choose(color)) => Some(color),
            _ => None,
        }
    }

    /// Whether play has ended.
    pub fn is_over(&self) -> bool {
        match self {
            Position::Single { game, .. } => game.is_over(),
            Position::Galice(g) => g.is_over(),
            Position::Lifeline { game, .. } => game.is_over(),
        }
    }

    /// How play ended, once it has.
    pub fn outcome(&self) -> Option<GameResult> {
        match self {
            Position::Single { game, .. } => game.outcome(),
            Position::Galice(g) => g.outcome(),
            Position::Lifeline { game, .. } => game.outcome(),
        }
    }

    /// Whether two passes lead to the dead-stone phase rather than straight to the count: the
    /// variants scored by area, when the ending is a count. Galice counts both boards as they
    /// stand, Borderline by its own statuses.
    pub fn has_dead_stone_phase(&self) -> bool {
        let area = matches!(self, Position::Single { game, .. } if game.score().area().is_some());
        area && self.outcome().is_some_and(|o| matches!(o.ending, Ending::Score(_)))
    }

    /// Borderline's panel, for a Borderline game.
    pub fn borderline(&self) -> Option<BorderlineView> {
        let Position::Single { geometry, game: AnyGame::Borderline(game), .. } = self else { return None };
        let (board, zones, survey) = (game.board(), game.zones(), game.survey());
        let vertex = |p: Point| geometry.vertex(p).to_string();
        let zone_rows = (0..geometry.height())
            .map(|y| {
                (0..geometry.width())
                    .filter_map(|x| geometry.point(x, y))
                    .map(|p| match zones.zone(p) {
                        Zone::Own(Color::Black) => 'b',
                        Zone::Own(Color::White) => 'w',
                        Zone::Border => '-',
                    })
                    .collect()
            })
            .collect();
        Some(BorderlineView {
            stones_left: Sides::from_fn(|c| game.stones_left(c)),
            passes_left: Sides::from_fn(|c| game.passes_left(c)),
            deployment_left: game.deployment_left(),
            deployment: game.deployment_rule(game.to_move()).map(|rule| rule.to_string()),
            zones: zone_rows,
            besieged: geometry
                .points()
                .filter(|&p| survey.status(board, p) == Some(StoneStatus::Besieged))
                .map(vertex)
                .collect(),
            enclosed: geometry
                .points()
                .filter_map(|p| survey.enclosed_by(p).map(|c| (vertex(p), Side::from(c))))
                .collect(),
        })
    }

    /// The score as it stands, or, with `dead`, of the single board without those stones.
    pub fn score(&self, dead: Option<&BTreeSet<Point>>) -> ScoreView {
        match (self, dead) {
            (Position::Single { spec, game, .. }, Some(dead)) => {
                score_view(&without_dead(spec, game.board(), dead).score())
            }
            (Position::Single { game, .. }, None) => score_view(&game.score()),
            (Position::Galice(g), _) => score_view(&g.score()),
            (Position::Lifeline { game, .. }, _) => score_view(&game.score()),
        }
    }

    /// Each side's territory on the single board without the `dead` stones (none in Galice).
    pub fn territory(&self, dead: &BTreeSet<Point>) -> Sides<Vec<String>> {
        let Position::Single { spec, game, .. } = self else { return Sides::default() };
        let counted = without_dead(spec, game.board(), dead);
        Sides::from_fn(|c| self.vertices(&territory(counted.board(), c).collect()))
    }

    /// The boards' rows: one board, or Galice's left and right boards.
    pub fn boards(&self) -> Vec<Vec<String>> {
        match self {
            Position::Single { game, .. } => vec![rows(game.board())],
            Position::Lifeline { game, .. } => vec![rows(game.board())],
            Position::Galice(g) => {
                [galice::Side::Left, galice::Side::Right].map(|side| rows(g.board(side))).into()
            }
        }
    }

    /// Galice's boards after each of `moves` from the start (`moves.len() + 1` entries, the
    /// empty boards first), replayed with the rules; `None` for a single-board game or moves the
    /// rules refuse (the game's own moves never are).
    pub fn galice_history(&self, moves: &[String]) -> Option<Vec<GaliceBoards>> {
        let Position::Galice(_) = self else { return None };
        let mut g = Galice::new();
        let mut history = Vec::with_capacity(moves.len() + 1);
        history.push(GaliceBoards::of(&g));
        for mv in moves {
            let turn = if Position::is_pass(mv) { Turn::Pass } else { mv.parse().ok()? };
            g.play(turn).ok()?;
            history.push(GaliceBoards::of(&g));
        }
        Some(history)
    }

    /// The legal moves of the side to move (pass last), and for a single board the reason each
    /// empty point it may not play is refused.
    pub fn judged_moves(&self) -> (Vec<String>, BTreeMap<String, String>) {
        let (mut legal, mut refused) = (Vec::new(), BTreeMap::new());
        match self {
            Position::Single { geometry, game, .. } => {
                let board = game.board();
                for p in geometry.points().filter(|&p| board.piece(p).is_none()) {
                    let vertex = geometry.vertex(p).to_string();
                    match game.check(Move::Place(p)) {
                        Ok(()) => legal.push(vertex),
                        Err(reason) => {
                            refused.insert(vertex, reason.to_string());
                        }
                    }
                }
                if game.check(Move::Pass).is_ok() {
                    legal.push("pass".to_string());
                }
            }
            Position::Galice(g) => {
                let mut turns = Vec::new();
                g.legal_moves(&mut turns);
                legal.extend(turns.iter().map(Turn::to_string));
            }
            // every legal turn (a first turn's pairs, the swap); after the first turns, why each
            // empty point is refused, as for a single board
            Position::Lifeline { spec, game } => {
                let mut turns = Vec::new();
                game.legal_moves(&mut turns);
                legal.extend(turns.iter().map(|&turn| game.turn_text(turn)));
                if matches!(game.stage(), lifeline::Stage::Placements(_)) && !game.is_over() {
                    let geometry = spec.geometry();
                    for &p in game.board().empties() {
                        if let Err(reason) = game.check(lifeline::Turn::Place(p)) {
                            refused.insert(geometry.vertex(p).to_string(), reason.to_string());
                        }
                    }
                }
            }
        }
        (legal, refused)
    }

    /// The game as SGF: the moves played from the start, the result once known, the game's
    /// information, and the dead stones when the game was counted with them.
    pub fn sgf(
        &self,
        moves: &[String],
        result: Option<&str>,
        info: &GameInfo,
        dead: Option<&BTreeSet<Point>>,
    ) -> String {
        match self {
            Position::Single { spec, geometry, .. } => {
                let mut record = Record::new(spec.clone(), *geometry);
                record.moves = moves.iter().filter_map(|m| move_from_text(*geometry, m).ok()).collect();
                record.result = result.map(str::to_string);
                record.info = info.clone();
                record.dead = dead.cloned();
                record.to_sgf()
            }
            Position::Galice(_) => {
                let actions: Vec<galice::Action> =
                    moves.iter().filter_map(|m| m.parse().ok()).map(galice::Action::Turn).collect();
                galice_sgf::to_sgf(&galice::Record::new(Galice::new(), &actions), result, info)
            }
            Position::Lifeline { spec, game } => {
                let geometry = spec.geometry();
                let mut record = LifelineRecord::new(spec.rules, geometry);
                record.turns = moves.iter().filter_map(|m| game.parse_turn(m).ok()).collect();
                record.result = result.map(str::to_string);
                record.info = info.clone();
                record.to_sgf()
            }
        }
    }

    /// The AI's estimate of the position, from a search with `settings` (ownership on); `None`
    /// once play has ended. Galice is judged board by board, its dead stones named in its
    /// notation. Borderline's score is not counted point by point, so the search has no ownership
    /// for it: its estimate is the win rate alone, with a note. CPU work: run it on a worker
    /// thread.
    pub fn estimate(&self, settings: Settings, seq: u64) -> Option<Estimate> {
        let search = Search::new(Settings { ownership: true, ..settings });
        let to_move = self.to_move();
        let (winrate, playouts, ownership) = match self {
            Position::Single { game, .. } => {
                let a = search.analyse_any(game)?;
                (a.winrate, a.playouts, a.ownership)
            }
            Position::Galice(g) => {
                let a = search.analyse(g)?;
                (a.winrate, a.playouts, a.ownership)
            }
            Position::Lifeline { game, .. } => {
                let a = search.analyse(game)?;
                (a.winrate, a.playouts, a.ownership)
            }
        };
        let black_winrate = if to_move == Color::Black { winrate } else { 1.0 - winrate };
        let mut estimate = Estimate {
            seq,
            to_move: to_move.into(),
            playouts,
            black_winrate,
            winner: leader(black_winrate - 0.5),
            result: None,
            margin: None,
            open_points: None,
            ownership: None,
            right_ownership: None,
            dead: Vec::new(),
            note: None,
        };
        if ownership.is_empty() {
            let note = if matches!(self, Position::Lifeline { .. }) { NO_SCORE } else { NO_OWNERSHIP };
            estimate.note = Some(note.to_string());
            return Some(estimate);
        }
        let mut margin = -self.komi();
        let mut open = 0;
        match self {
            Position::Single { game, .. } => {
                let board = game.board();
                let judged = Judged::of(board, &ownership);
                margin += judged.margin;
                open += judged.open;
                estimate.ownership = Some(judged.rows);
                estimate.dead =
                    judged.dead.into_iter().map(|p| board.geometry().vertex(p).to_string()).collect();
            }
            Position::Galice(g) => {
                // the search's shares go by Galice's index (the left board, then the right): each
                // board is judged alone, from its own shares laid out by the board's points
                let [left, right] = [galice::Side::Left, galice::Side::Right].map(|side| {
                    let board = g.board(side);
                    let mut shares = vec![[0.0, 0.0]; board.geometry().slots()];
                    for p in board.geometry().points() {
                        if let Some(&share) = galice::Spot::on(side, p).and_then(|s| ownership.get(s.index()))
                        {
                            shares[p.index()] = share;
                        }
                    }
                    let judged = Judged::of(board, &shares);
                    margin += judged.margin;
                    open += judged.open;
                    estimate.dead.extend(
                        judged.dead.iter().filter_map(|&p| galice::Spot::on(side, p)).map(|s| s.to_string()),
                    );
                    judged.rows
                });
                estimate.ownership = Some(left);
                estimate.right_ownership = Some(right);
            }
            // no ownership: the estimate was returned above
            Position::Lifeline { .. } => return Some(estimate),
        }
        estimate.winner = leader(margin);
        estimate.result = Some(match margin {
            m if m > 0.0 => format!("B+{m}"),
            m if m < 0.0 => format!("W+{}", -m),
            _ => "0".to_string(),
        });
        estimate.margin = Some(margin);
        estimate.open_points = Some(open);
        Some(estimate)
    }

    /// The AI's move, in the variant's notation (`None` once play has ended). CPU work: run it on
    /// a worker thread.
    pub fn best_move(&self, settings: Settings) -> Option<String> {
        let search = Search::new(settings);
        match self {
            Position::Single { geometry, game, .. } => {
                search.best_move(game).map(|mv| move_text(*geometry, mv))
            }
            Position::Galice(g) => search.best_move(g).map(|turn| turn.to_string()),
            Position::Lifeline { game, .. } => search.best_move(game).map(|turn| game.turn_text(turn)),
        }
    }
}
