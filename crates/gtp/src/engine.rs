//! The engine: the game it holds, its search settings and clocks, and one method per GTP command.
//! [`Engine::handle`] takes one input line and returns what to send back, so that the whole
//! protocol runs (and is tested) without any I/O.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

use variago_records::lifeline_sgf::is_lifeline_sgf;
use variago_records::sgf::move_from_text;
use variago_records::{LifelineRecord, Record, file, galice_sgf};
use variago_rules::galice::{Action, Galice, Record as GaliceRecord, Spot, Turn};
use variago_rules::lifeline::{self, Lifeline, LifelineSpec};
use variago_rules::score::HalfPoints;
use variago_rules::{AnyGame, Color, Game, Geometry, Move, Point, ScoreSheet, VariantSpec};
use variago_search::{Analysis, KeptAny, Level, Search, Settings};

use crate::analysis::{self, Analyse, Format};
use crate::clock::Clock;
use crate::handicap;
use crate::position::{GaliceGame, LifelineGame, Position, Single};
use crate::protocol::{self, Command, Parsed, Response};
use crate::status::{Judgement, Status};

/// Every command the engine knows, as `list_commands` prints them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "loadsgf",
    "printsgf",
    "is_legal",
    "variago-variant",
    "variago-rules",
    "variago-why",
    "variago-play",
    "variago-score",
    "variago-territory",
    "variago-illegal_points",
    "variago-borderline",
    "variago-best_moves",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_side_to_move",
    "gogui-rules_legal_moves",
    "gogui-rules_final_result",
    "gogui-analyze_commands",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "final_status",
    "estimate_score",
    "list_stones",
    "captures",
    "move_history",
    "top_moves_black",
    "top_moves_white",
    "all_legal",
    "query_boardsize",
    "get_komi",
    "get_handicap",
    "level",
    "set_random_seed",
    "kgs-rules",
];

/// The board views GoGui offers in its Analyze menu (`type/label/command`).
const ANALYZE_COMMANDS: &str = "gfx/Territory (area score)/variago-territory
plist/Illegal points for the side to move/variago-illegal_points
gfx/Borderline: enclosures and besieged stones/variago-borderline
gfx/Best moves (search)/variago-best_moves
string/Why is this move illegal?/variago-why %c %p
string/Score/variago-score
string/Rules/variago-rules";

/// How the engine thinks: the search settings, and whether the command line fixed the budget.
#[derive(Clone, Debug)]
pub struct Config {
    /// Search settings for every move (threads, seed, playouts or time, resignation).
    pub settings: Settings,
    /// Whether `settings` carries a budget the user chose (`--level`, `--playouts`, `--time`):
    /// then the GTP clock does not change it. Otherwise the clock, when set, decides the time.
    pub fixed_budget: bool,
    /// Whether the search goes on after a `genmove`, on the opponent's time, until the next
    /// command (pondering): the next search starts from the tree it grew. Off by default, as it
    /// takes the cores an opponent on the same machine would think with.
    pub ponder: bool,
    /// Whether to answer as Lizzie needs: `version` as Leela Zero 0.17 (below 0.15 Lizzie warns,
    /// and can freeze on the warning), and a pass in lower case (Lizzie matches `pass` case by
    /// case, where Kigo reads only GNU Go's `PASS`).
    pub lizzie: bool,
}

impl Default for Config {
    /// Default search settings, resigning below a 5% win rate, no pondering.
    fn default() -> Self {
        Config {
            settings: Settings { resign_below: Some(0.05), ..Settings::default() },
            fixed_budget: false,
            ponder: false,
            lizzie: false,
        }
    }
}

/// A search growing the last move's tree on the opponent's time ([`Config::ponder`]).
struct Pondering {
    stop: Arc<AtomicBool>,
    /// Gives back the tree and the record it was grown for, as [`Engine`] keeps them.
    thread: JoinHandle<Option<(Record, KeptAny)>>,
}

/// What the controller gets back from one input line.
pub enum Reply {
    /// An answer; the engine waits for the next command.
    Answer(Response),
    /// The answer to `quit`: send it, then stop.
    Quit(Response),
    /// An analysis to stream (`=` and the id first, then report lines) until the next command
    /// arrives, then a blank line.
    Analyse(Box<Analyse>),
}

/// A GTP engine for every variant.
pub struct Engine {
    config: Config,
    position: Position,
    clock: Clock,
    /// The last single-board search's trees and the record they were grown for, reused when the
    /// next `genmove` comes in the same game (tree reuse between moves).
    kept: Option<(Record, KeptAny)>,
    /// The last judgement of the position's dead stones and territories and the record it was
    /// made for (`None` inside: the variant has no ownership), so that a GUI's `final_status_list`
    /// dead, alive and seki in a row run one search.
    judged: Option<(Record, Option<Judgement>)>,
    /// The search pondering since the last `genmove`, stopped by the next command.
    pondering: Option<Pondering>,
    /// Whether the command line chose the budget (`config.fixed_budget` at the start): then a
    /// client's `level` leaves it.
    budget_from_command_line: bool,
    /// Whether the client counts territory (`kgs-rules japanese`): then a move in one's own
    /// territory costs a point, and the engine plays one only when it is clearly needed.
    territory_rules: bool,
}

impl Drop for Engine {
    /// A pondering search ends with the engine (an input that ended without `quit`).
    fn drop(&mut self) {
        self.stop_pondering();
    }
}

/// How much lower a move's win rate may be than playing on's value (passing's, or the best
/// move's when passing ends the game) for the AI to play it instead of passing, to settle the
/// position (capture dead stones, fill a neutral point): playing on costs nothing under area
/// scoring, but must not turn a win into a loss.
const PLAY_ON_MARGIN: f64 = 0.1;

/// A win rate at which a settling move is played whatever the others': a move whose playouts go
/// on (against replies the priors make sensible) rarely scores near 100% though it wins all the
/// same.
const CLEARLY_WINNING: f64 = 0.8;

/// Whether a stone of `mover` on `p` would leave a chain of two stones or more in atari without
/// capturing: in a seki, filling a shared liberty does, and loses the chain. A settling move never
/// is one, whatever the playouts' ownership calls the opponent's stones there.
fn fills_own_atari(board: &variago_rules::Board, p: Point, mover: Color) -> bool {
    let (liberties, size) = board.liberties_after_placing(p, mover);
    liberties < 2 && size >= 2
}

/// The version answered to Lizzie ([`Config::lizzie`]): Leela Zero's last.
const LIZZIE_VERSION: &str = "0.17";

/// Moves `top_moves_black`/`top_moves_white` list at most, as GNU Go.
const TOP_MOVES: usize = 10;

/// A failed command's message.
type Failure = String;

/// The moves `now` adds to `then`, if `now` is the same game (rules, size, setup) continued.
fn moves_since(then: &Record, now: &Record) -> Option<Vec<Move>> {
    let same_game = then.spec == now.spec
        && then.geometry == now.geometry
        && then.setup == now.setup
        && then.first_player == now.first_player;
    (same_game && now.moves.starts_with(&then.moves)).then(|| now.moves[then.moves.len()..].to_vec())
}

/// Reads `b`, `black`, `w`, `white` in any case.
pub fn parse_color(text: &str) -> Result<Color, Failure> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(format!("syntax error: '{text}' is not a colour")),
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Checks the number of arguments.
fn arity(args: &[String], n: usize, usage: &str) -> Result<(), Failure> {
    if args.len() == n { Ok(()) } else { Err(format!("syntax error: usage {usage}")) }
}

/// A vertex or `pass` on this board.
fn parse_move(geometry: Geometry, text: &str) -> Result<Move, Failure> {
    move_from_text(geometry, text).map_err(|e| format!("syntax error: {e}"))
}

/// Why a board-shaped command is not available in a game of another shape.
fn not_single(position: &Position) -> Failure {
    match position {
        Position::Galice(_) => "not available in galice (two boards)".into(),
        _ => "not available in Square Lifeline".into(),
    }
}

/// A board for Square Lifeline: both sides at least [`lifeline::MIN_SIDE`].
fn lifeline_board(geometry: Geometry) -> Result<Geometry, Failure> {
    if geometry.width().min(geometry.height()) < lifeline::MIN_SIDE {
        return Err(format!(
            "Square Lifeline needs sides of {} points or more, not {geometry}",
            lifeline::MIN_SIDE
        ));
    }
    Ok(geometry)
}

/// A Square Lifeline turn as `play` and `variago-why` take it: a vertex, a pair as `C2+C4` or
/// as two vertices `C2 C4`, or `swap`.
fn lifeline_turn(game: &Lifeline, words: &[String]) -> Result<lifeline::Turn, Failure> {
    let text = match words {
        [one] => one.clone(),
        [a, b] => format!("{a}+{b}"),
        _ => return Err("syntax error: a Square Lifeline turn is VERTEX, VERTEX+VERTEX or swap".into()),
    };
    game.parse_turn(&text).map_err(|e| format!("syntax error: {e}"))
}

fn parse_count(text: &str) -> Result<usize, Failure> {
    text.parse().map_err(|_| format!("syntax error: '{text}' is not a number"))
}

/// The handicap stones of a record, as `get_handicap` counts them: Black's set-up stones when
/// White has none and moves first, else none.
fn handicap_stones(record: &Record) -> usize {
    let (black, white) = (record.setup.stones(Color::Black), record.setup.stones(Color::White));
    if white == 0 && record.first_player == Color::White { black } else { 0 }
}

/// A point's status by the area count as it stands: every stone alive, an empty point its
/// region's owner's territory or dame.
fn area_status(board: &variago_rules::Board, p: Point) -> Status {
    match board.piece(p) {
        Some(_) => Status::Alive,
        None => match board.region(p, None).owner {
            variago_rules::board::RegionOwner::Only(c) => Status::Territory(c),
            _ => Status::Dame,
        },
    }
}

/// `final_score`'s answer: `B+3.5`, `W+R`, or `0` for a draw.
fn final_score<G: Game>(game: &G) -> String {
    let result = game.outcome().unwrap_or_else(|| game.score().result());
    if result.winner.is_none() { "0".into() } else { result.to_string() }
}

/// The score breakdown, the totals and the result as the game stands.
fn score_sheet<G: Game>(game: &G) -> String {
    let score = game.score();
    let result = game.outcome().unwrap_or_else(|| score.result());
    format!("\n{score}{}\n{result}", score.totals_line())
}

/// The move or turn, or why not.
fn legality<G: Game>(game: &G, mv: G::Move) -> String {
    match game.check(mv) {
        Ok(()) => "legal".into(),
        Err(reason) => reason.to_string(),
    }
}

/// The legal moves of the side to move, named and joined.
fn legal_list<G: Game>(game: &G, separator: &str, name: impl Fn(G::Move) -> String) -> String {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    moves.into_iter().map(name).collect::<Vec<_>>().join(separator)
}

impl Engine {
    /// An engine playing `variant` (a spec such as `go:komi=6.5,size=9`, or `galice`) on an empty
    /// board; without a size in the spec, 19x19.
    pub fn new(mut config: Config, variant: &str) -> Result<Engine, Failure> {
        // final_status_list and the settling before a pass read the searches' ownership
        config.settings.ownership = true;
        let position = Self::empty_position(variant, Geometry::square(19).expect("19 is a board size"))?;
        let budget_from_command_line = config.fixed_budget;
        Ok(Engine {
            config,
            position,
            clock: Clock::default(),
            kept: None,
            judged: None,
            pondering: None,
            budget_from_command_line,
            territory_rules: false,
        })
    }

    /// Runs one input line: `None` for a line GTP ignores (empty, a comment).
    pub fn handle(&mut self, line: &str) -> Option<Reply> {
        self.stop_pondering();
        match protocol::parse(line) {
            Parsed::Nothing => None,
            Parsed::Malformed { id, message } => Some(Reply::Answer(Response::error(id, message))),
            Parsed::Command(command) => Some(self.execute(&command)),
        }
    }

    fn execute(&mut self, command: &Command) -> Reply {
        let (id, args) = (command.id, &command.args[..]);
        let answer = match command.name.as_str() {
            "quit" => return Reply::Quit(Response::ok(id, "")),
            name @ ("lz-analyze" | "kata-analyze") => {
                let format = if name == "lz-analyze" { Format::Lz } else { Format::Kata };
                return match self.analyse(id, format, args) {
                    Ok(analyse) => Reply::Analyse(Box::new(analyse)),
                    Err(message) => Reply::Answer(Response::error(id, message)),
                };
            }
            "protocol_version" => Ok("2".into()),
            "name" => Ok("variago".into()),
            "version" => {
                Ok(if self.config.lizzie { LIZZIE_VERSION } else { env!("CARGO_PKG_VERSION") }.into())
            }
            "known_command" => arity(args, 1, "known_command NAME")
                .map(|()| COMMANDS.contains(&args[0].as_str()).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "boardsize" => self.boardsize(args),
            "rectangular_boardsize" => self.rectangular_boardsize(args),
            "clear_board" => self.clear_board(),
            "komi" => self.komi(args),
            "play" | "variago-play" => self.play(args),
            "genmove" | "kgs-genmove_cleanup" => self.genmove(args, true),
            "reg_genmove" => self.genmove(args, false),
            "lz-genmove_analyze" => self.genmove_analyze(args),
            "undo" => self.undo(),
            "showboard" => Ok(self.showboard()),
            "final_score" => Ok(self.final_score()),
            "final_status_list" => self.final_status_list(args),
            "final_status" => self.final_status(args),
            "estimate_score" => self.estimate_score(),
            "list_stones" => self.list_stones(args),
            "captures" => self.captures(args),
            "move_history" => self.move_history(),
            name @ ("top_moves_black" | "top_moves_white") => arity(args, 0, name).and_then(|()| {
                self.top_moves(if name == "top_moves_black" { Color::Black } else { Color::White })
            }),
            "all_legal" => self.all_legal(args),
            "query_boardsize" => self.query_boardsize(),
            "get_komi" => Ok(self.get_komi()),
            "get_handicap" => self.single().map(|s| handicap_stones(&s.record).to_string()),
            "level" => self.level(args),
            "set_random_seed" => self.set_random_seed(args),
            "kgs-rules" => self.kgs_rules(args),
            name @ "fixed_handicap" => self.handicap(name, args, handicap::fixed),
            name @ "place_free_handicap" => self.handicap(name, args, handicap::free),
            "set_free_handicap" => self.set_free_handicap(args),
            "time_settings" => {
                self.clock.set_gtp(args).map(|()| String::new()).map_err(|e| format!("syntax error: {e}"))
            }
            "kgs-time_settings" => {
                self.clock.set_kgs(args).map(|()| String::new()).map_err(|e| format!("syntax error: {e}"))
            }
            "time_left" => self.time_left(args),
            "loadsgf" => self.loadsgf(args),
            "printsgf" => self.printsgf(args),
            "is_legal" => self.why(args).map(|why| if why == "legal" { "1" } else { "0" }.into()),
            "variago-why" => self.why(args),
            "variago-variant" => self.variant(args),
            "variago-rules" => Ok(self.rules()),
            "variago-score" => Ok(self.score()),
            "variago-territory" => self.territory(),
            "variago-illegal_points" => self.illegal_points(),
            "variago-borderline" => self.borderline(),
            "variago-best_moves" => self.best_moves(),
            "gogui-rules_game_id" => Ok(self.rules()),
            "gogui-rules_board_size" => self.single().map(|s| s.geometry().width().to_string()),
            "gogui-rules_board" => self.gogui_board(),
            "gogui-rules_side_to_move" => Ok(color_name(self.to_move()).into()),
            "gogui-rules_legal_moves" => Ok(self.legal_moves()),
            "gogui-rules_final_result" => Ok(self.final_result()),
            "gogui-analyze_commands" => Ok(ANALYZE_COMMANDS.into()),
            _ => Err("unknown command".into()),
        };
        Reply::Answer(match answer {
            Ok(text) => Response::ok(id, text),
            Err(message) => Response::error(id, message),
        })
    }

    /// The single-board game, or an error naming the command's limit.
    fn single(&self) -> Result<&Single, Failure> {
        match &self.position {
            Position::Single(single) => Ok(single),
            other => Err(not_single(other)),
        }
    }

    fn single_mut(&mut self) -> Result<&mut Single, Failure> {
        match &mut self.position {
            Position::Single(single) => Ok(single),
            other => Err(not_single(other)),
        }
    }

    fn to_move(&self) -> Color {
        match &self.position {
            Position::Single(s) => s.game.to_move(),
            Position::Galice(g) => g.game.to_move(),
            Position::Lifeline(g) => g.game.to_move(),
        }
    }

    /// The empty board of a variant; a spec without a size gets `geometry`.
    fn empty_position(text: &str, geometry: Geometry) -> Result<Position, Failure> {
        if text.trim().eq_ignore_ascii_case("galice") {
            return Ok(Position::Galice(GaliceGame::new(Galice::new())));
        }
        if lifeline::names_lifeline(text) {
            let spec: LifelineSpec = text.parse().map_err(|e| format!("{e}"))?;
            let geometry = lifeline_board(spec.size.unwrap_or(geometry))?;
            return Ok(Position::Lifeline(LifelineGame::new(spec.rules, geometry)));
        }
        let spec: VariantSpec = text.parse().map_err(|e| format!("{e}"))?;
        let geometry = spec.size.unwrap_or(geometry);
        Ok(Position::Single(Single::new(spec, geometry)))
    }

    /// The board size now, 19x19 in Galice (for a switch to a single-board variant).
    fn geometry(&self) -> Geometry {
        match &self.position {
            Position::Single(s) => s.geometry(),
            Position::Galice(_) => Geometry::square(19).expect("19 is a board size"),
            Position::Lifeline(g) => g.record.geometry,
        }
    }

    fn variant(&mut self, args: &[String]) -> Result<String, Failure> {
        if args.is_empty() {
            return Err("syntax error: usage variago-variant SPEC".into());
        }
        self.position = Self::empty_position(&args.join(" "), self.geometry())?;
        Ok(String::new())
    }

    /// The current variant's spec with the board size (`go:komi=6.5,size=9x9`), or `galice`.
    fn rules(&self) -> String {
        match &self.position {
            Position::Single(s) => {
                VariantSpec { size: Some(s.geometry()), ..s.record.spec.clone() }.to_string()
            }
            Position::Galice(_) => "galice".into(),
            Position::Lifeline(g) => {
                LifelineSpec { size: Some(g.record.geometry), ..g.record.spec() }.to_string()
            }
        }
    }

    fn resize(
        &mut self,
        geometry: Result<Geometry, variago_rules::GeometryError>,
    ) -> Result<String, Failure> {
        let geometry = geometry.map_err(|_| "unacceptable size".to_string())?;
        if let Position::Lifeline(g) = &mut self.position {
            let geometry = lifeline_board(geometry).map_err(|_| "unacceptable size".to_string())?;
            *g = LifelineGame::new(g.record.rules, geometry);
            return Ok(String::new());
        }
        let single = self.single_mut().map_err(|_| "unacceptable size".to_string())?;
        *single = Single::new(single.record.spec.clone(), geometry);
        Ok(String::new())
    }

    fn boardsize(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "boardsize SIZE")?;
        let side: u32 = args[0].parse().map_err(|_| format!("syntax error: '{}' is not a size", args[0]))?;
        if let Position::Galice(_) = self.position {
            // Galice's boards are 7x7: a GUI's usual boardsize 7 is accepted, and changes nothing
            return if side == 7 { Ok(String::new()) } else { Err("unacceptable size".into()) };
        }
        self.resize(Geometry::square(side))
    }

    fn rectangular_boardsize(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 2, "rectangular_boardsize WIDTH HEIGHT")?;
        let number = |t: &String| t.parse::<u32>().map_err(|_| format!("syntax error: '{t}' is not a size"));
        let (width, height) = (number(&args[0])?, number(&args[1])?);
        self.resize(Geometry::new(width, height))
    }

    fn clear_board(&mut self) -> Result<String, Failure> {
        self.position = match &self.position {
            Position::Single(s) => Position::Single(Single::new(s.record.spec.clone(), s.geometry())),
            Position::Galice(_) => Position::Galice(GaliceGame::new(Galice::new())),
            Position::Lifeline(g) => Position::Lifeline(LifelineGame::new(g.record.rules, g.record.geometry)),
        };
        Ok(String::new())
    }

    fn komi(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "komi NUMBER")?;
        let value: f64 =
            args[0].parse().map_err(|_| format!("syntax error: '{}' is not a number", args[0]))?;
        let komi = HalfPoints::parse(&args[0])
            .ok_or_else(|| format!("syntax error: komi {value} is not a multiple of 0.5"))?;
        if let Position::Single(single) = &mut self.position {
            let mut spec = single.record.spec.clone();
            spec.set_komi(komi);
            *single = single.with_spec(spec)?;
        }
        // Galice and Square Lifeline have no komi: accepted, as GUIs send it before every game
        Ok(String::new())
    }

    /// `play COLOR VERTEX` (or a Galice turn in its notation).
    fn play(&mut self, args: &[String]) -> Result<String, Failure> {
        let Some((color, rest)) = args.split_first() else {
            return Err("syntax error: usage play COLOR MOVE".into());
        };
        let color = parse_color(color)?;
        match &mut self.position {
            Position::Single(single) => {
                arity(rest, 1, "play COLOR VERTEX")?;
                let mv = parse_move(single.geometry(), &rest[0])?;
                single.play(color, mv).map_err(|reason| format!("illegal move: {reason}"))?;
            }
            Position::Galice(galice) => {
                let action: Action = rest.join(" ").parse().map_err(|e| format!("syntax error: {e}"))?;
                if galice.game.to_move() != color {
                    return Err(format!("illegal move: it is {}'s turn", galice.game.to_move()));
                }
                galice.perform(action).map_err(|reason| format!("illegal move: {reason}"))?;
            }
            Position::Lifeline(g) => {
                let turn = lifeline_turn(&g.game, rest)?;
                if g.game.to_move() != color {
                    return Err(format!("illegal move: it is {}'s turn", g.game.to_move()));
                }
                g.play(turn).map_err(|reason| format!("illegal move: {reason}"))?;
            }
        }
        Ok(String::new())
    }

    /// The settings for one move of `color`: the configured ones, with a seed that changes every
    /// move and, without a fixed budget, the time the clock leaves for this move.
    fn move_settings(&self, color: Color, moves_played: usize, empty_points: usize) -> Settings {
        let mut settings = self.config.settings.clone();
        settings.seed = settings.seed.wrapping_add(moves_played as u64);
        if !self.config.fixed_budget {
            let moves_left = (empty_points / 2).max(10) as u32;
            if let Some(time) = self.clock.budget(color as usize, moves_left) {
                settings.time = Some(time);
                settings.max_time = self.clock.longest(color as usize, moves_left);
                settings.playouts = u64::MAX;
            }
        }
        settings
    }

    /// `genmove` and its relatives: the search's move for `color`, played when `play` is set.
    fn genmove(&mut self, args: &[String], play: bool) -> Result<String, Failure> {
        self.generate(args, play, None).map(|(text, _)| text)
    }

    /// The move (`resign`, `pass`, a vertex, a Galice turn) and, for single-board games with a
    /// report format, the report of the search.
    fn generate(
        &mut self,
        args: &[String],
        play: bool,
        report: Option<Format>,
    ) -> Result<(String, String), Failure> {
        arity(args, 1, "genmove COLOR")?;
        let color = parse_color(&args[0])?;
        match &self.position {
            Position::Single(single) => {
                let Ok(game) = single.for_player(color) else {
                    return Ok((self.answer(single, Move::Pass), String::new()));
                };
                let settings =
                    self.move_settings(color, single.record.moves.len(), game.board().empties().len());
                // the moves played since the last search in this game (and the pass GTP puts in
                // when the same colour moves twice); the search checks they lead here
                let (kept, mut since) = match self.kept.take() {
                    Some((record, trees)) => match moves_since(&record, &single.record) {
                        Some(since) => (Some(trees), since),
                        None => (None, Vec::new()),
                    },
                    None => (None, Vec::new()),
                };
                let mut searched = single.record.clone();
                if single.game.to_move() != color {
                    since.push(Move::Pass);
                    searched.moves.push(Move::Pass);
                }
                let search = Search::new(settings);
                let Some((analysis, trees)) = search.analyse_any_reusing(&game, kept, &since) else {
                    return Ok((self.answer(single, Move::Pass), String::new()));
                };
                self.kept = Some((searched, trees));
                let text =
                    report.map_or_else(String::new, |f| analysis::report(f, single.geometry(), &analysis));
                if analysis.resign {
                    return Ok(("resign".into(), text));
                }
                let best = match analysis.best {
                    Move::Pass => self.settling_move(&single.record, &game, &analysis).unwrap_or(Move::Pass),
                    best => best,
                };
                let best = self.sparing_move(&single.record, &game, &analysis, best);
                let name = self.answer(single, best);
                if play {
                    self.single_mut()?.play(color, best).map_err(|e| format!("internal error: {e}"))?;
                    if self.config.ponder {
                        self.start_pondering(search.settings());
                    }
                }
                Ok((name, text))
            }
            Position::Galice(galice) => {
                if galice.game.to_move() != color {
                    return Err(format!("it is {}'s turn", galice.game.to_move()));
                }
                let empty = Spot::all().filter(|&s| galice.game.stone(s).is_none()).count();
                let settings = self.move_settings(color, galice.actions.len(), empty);
                let Some(analysis) = Search::new(settings).analyse(&galice.game) else {
                    return Ok((Turn::Pass.to_string(), String::new()));
                };
                if analysis.resign {
                    return Ok(("resign".into(), String::new()));
                }
                if let (true, Position::Galice(galice)) = (play, &mut self.position) {
                    galice.play(analysis.best).map_err(|e| format!("internal error: {e}"))?;
                }
                Ok((analysis.best.to_string(), String::new()))
            }
            Position::Lifeline(g) => {
                if g.game.to_move() != color {
                    return Err(format!("it is {}'s turn", g.game.to_move()));
                }
                let settings =
                    self.move_settings(color, g.record.turns.len(), g.game.board().empties().len());
                // a finished game has no move: the player to move has lost, and resigns
                let Some(analysis) = Search::new(settings).analyse(&g.game) else {
                    return Ok(("resign".into(), String::new()));
                };
                if analysis.resign {
                    return Ok(("resign".into(), String::new()));
                }
                let text = g.game.turn_text(analysis.best);
                if let (true, Position::Lifeline(g)) = (play, &mut self.position) {
                    g.play(analysis.best).map_err(|e| format!("internal error: {e}"))?;
                }
                Ok((text, String::new()))
            }
        }
    }

    /// Starts growing the kept tree from the position after the move just played, on its own
    /// thread, until the next command ([`Engine::stop_pondering`]).
    fn start_pondering(&mut self, settings: &Settings) {
        let (Some((searched, trees)), Position::Single(single)) = (self.kept.take(), &self.position) else {
            return;
        };
        let Some(since) = moves_since(&searched, &single.record) else { return };
        let (record, game, settings) = (single.record.clone(), single.game.clone(), settings.clone());
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread =
            std::thread::spawn(move || trees.ponder(&game, &since, &settings, &flag).map(|t| (record, t)));
        self.pondering = Some(Pondering { stop, thread });
    }

    /// Stops the pondering search, if one runs, and keeps its tree for the next `genmove`.
    fn stop_pondering(&mut self) {
        if let Some(Pondering { stop, thread }) = self.pondering.take() {
            stop.store(true, Ordering::Relaxed);
            self.kept = thread.join().expect("the pondering thread panicked");
        }
    }

    /// The move to play instead of the pass the search chose, while the position is unsettled:
    /// the most visited move on a point the playouts still disagree about or on a liberty of the
    /// opponent's dead stones, if its win rate is within [`PLAY_ON_MARGIN`] of playing on's value
    /// or at least [`CLEARLY_WINNING`]. Playing on is valued by passing's win rate, or, when
    /// passing ends the game (its exact result, which no move whose playouts go on can match),
    /// by the most visited other move's: a settling move must be about as good as playing on
    /// elsewhere, and never fills its own atari ([`fills_own_atari`]). A person (or a GUI
    /// counting the board) would otherwise be left to judge the dead stones; with no such move (a
    /// settled board, or a seki no one should touch) the pass stands, so the game still ends.
    fn settling_move(&self, record: &Record, game: &AnyGame, analysis: &Analysis<Move>) -> Option<Move> {
        let pass = analysis.moves.iter().find(|m| m.mv == Move::Pass)?;
        let playing_on = if variago_search::ending_pass_winrate(game).is_some() {
            analysis.moves.iter().find(|m| m.mv != Move::Pass && m.visits > 0)?.winrate
        } else {
            pass.winrate
        };
        let judgement = self.judgement_after(record, game, analysis)?;
        let settling = judgement.settling_points(game.board(), game.to_move());
        analysis
            .moves
            .iter()
            .filter(|m| m.visits > 0 && m.winrate >= (playing_on - PLAY_ON_MARGIN).min(CLEARLY_WINNING))
            .find(|m| matches!(m.mv, Move::Place(p) if settling.contains(&p) && !fills_own_atari(game.board(), p, game.to_move())))
            .map(|m| m.mv)
    }

    /// A generated move as the client reads it: GNU Go's `PASS` ([`Single::name`]), or, for
    /// Lizzie ([`Config::lizzie`]), `pass`.
    fn answer(&self, single: &Single, mv: Move) -> String {
        if mv == Move::Pass && self.config.lizzie { "pass".into() } else { single.name(mv) }
    }

    /// The dead stones and territories by the search's ownership, or, when every playout ended
    /// in the reused tree, by a search of their own.
    fn judgement_after(
        &self,
        record: &Record,
        game: &AnyGame,
        analysis: &Analysis<Move>,
    ) -> Option<Judgement> {
        if analysis.ownership.is_empty() {
            self.judge(record)
        } else {
            Some(Judgement::new(game.board(), &analysis.ownership))
        }
    }

    /// The move to play instead of `best` (the search's, or a settling move) where that placement would
    /// only spend a point of the mover's own territory (an empty region only its stones
    /// border), which a client counting territory (qGo, Quarry) takes off the mover's score
    /// though area scoring does not:
    /// - after the opponent's pass, when passing wins as the board stands (the exact count), the
    ///   pass, unless `best` settles the position under area rules outside the mover's own
    ///   territory (an open point, a liberty of dead stones: [`Judgement::settling_points`]);
    /// - under territory rules (`kgs-rules japanese`), for a `best` inside the mover's own
    ///   territory, the most visited other move or pass outside it within [`PLAY_ON_MARGIN`] of
    ///   `best`'s win rate (a move inside is played when the search finds it clearly better: a
    ///   group that still needs it to live), or, with none searched and `best` winning by
    ///   [`CLEARLY_WINNING`], the pass.
    fn sparing_move(&self, record: &Record, game: &AnyGame, analysis: &Analysis<Move>, best: Move) -> Move {
        if best == Move::Pass {
            return best;
        }
        let mover = game.to_move();
        let board = game.board();
        let own_territory = |mv: Move| match mv {
            Move::Place(p) => board.region(p, None).owner == variago_rules::board::RegionOwner::Only(mover),
            Move::Pass => false,
        };
        if record.moves.last() == Some(&Move::Pass) && variago_search::ending_pass_winrate(game) == Some(1.0)
        {
            let settles = !self.territory_rules
                && !own_territory(best)
                && match (best, self.judgement_after(record, game, analysis)) {
                    (Move::Place(p), Some(judgement)) => judgement.settling_points(board, mover).contains(&p),
                    _ => false,
                };
            return if settles { best } else { Move::Pass };
        }
        if !self.territory_rules || !own_territory(best) {
            return best;
        }
        let Some(chosen) = analysis.moves.iter().find(|m| m.mv == best) else { return best };
        let elsewhere = analysis
            .moves
            .iter()
            .filter(|m| m.visits > 0 && !own_territory(m.mv) && m.winrate >= chosen.winrate - PLAY_ON_MARGIN)
            .max_by_key(|m| m.visits);
        match elsewhere {
            Some(m) => m.mv,
            None if chosen.winrate >= CLEARLY_WINNING => Move::Pass,
            None => best,
        }
    }

    /// `kgs-rules RULES`: `japanese` counts territory ([`Engine::sparing_move`]); `chinese`,
    /// `aga` and `new_zealand` count area, as the engine does.
    fn kgs_rules(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "kgs-rules RULES")?;
        self.territory_rules = match args[0].to_ascii_lowercase().as_str() {
            "japanese" => true,
            "chinese" | "aga" | "new_zealand" => false,
            other => return Err(format!("unknown rules '{other}': japanese, chinese, aga or new_zealand")),
        };
        Ok(String::new())
    }

    /// `lz-genmove_analyze COLOR [INTERVAL]`: the search's report, then `play MOVE`.
    fn genmove_analyze(&mut self, args: &[String]) -> Result<String, Failure> {
        let (color, _) = analysis::parse_arguments(args)?;
        let color = color.unwrap_or_else(|| self.to_move());
        let (mv, report) = self.generate(&[color_name(color).to_string()], true, Some(Format::Lz))?;
        // Leela Zero, whose command this is, writes its pass in lower case
        let mv = if mv == "PASS" { "pass".into() } else { mv };
        Ok(format!("\n{report}\nplay {mv}"))
    }

    /// `lz-analyze` / `kata-analyze [COLOR] [INTERVAL]`.
    fn analyse(&self, id: Option<u64>, format: Format, args: &[String]) -> Result<Analyse, Failure> {
        let (color, interval) = analysis::parse_arguments(args)?;
        let single = self.single()?;
        let game = single.for_player(color.unwrap_or(single.game.to_move())).map_err(|e| e.to_string())?;
        Ok(Analyse::new(id, format, &game, &self.config.settings, interval))
    }

    fn undo(&mut self) -> Result<String, Failure> {
        let undone = match &mut self.position {
            Position::Single(s) => s.undo(),
            Position::Galice(g) => g.undo(),
            Position::Lifeline(g) => g.undo(),
        };
        if undone { Ok(String::new()) } else { Err("cannot undo".into()) }
    }

    fn showboard(&self) -> String {
        match &self.position {
            Position::Single(s) => format!("\n{}{} to move", s.game.board(), s.game.to_move()),
            Position::Galice(g) => format!("\n{}", g.game.diagram()),
            Position::Lifeline(g) => format!("\n{}", g.game),
        }
    }

    fn final_score(&self) -> String {
        match &self.position {
            Position::Single(s) => final_score(&s.game),
            Position::Galice(g) => final_score(&g.game),
            Position::Lifeline(g) => final_score(&g.game),
        }
    }

    fn score(&self) -> String {
        match &self.position {
            Position::Single(s) => score_sheet(&s.game),
            Position::Galice(g) => score_sheet(&g.game),
            Position::Lifeline(g) => score_sheet(&g.game),
        }
    }

    /// `gogui-rules_final_result`: the result once the game is over, `unknown` before.
    fn final_result(&self) -> String {
        let result = match &self.position {
            Position::Single(s) => s.game.outcome(),
            Position::Galice(g) => g.game.outcome(),
            Position::Lifeline(g) => g.game.outcome(),
        };
        result.map_or_else(|| "unknown".into(), |r| r.to_string())
    }

    /// `final_status_list STATUS`: the stones of that status (`alive`, `dead`, `seki`), one chain
    /// per line, or the empty points (`black_territory`, `white_territory`, `dame`) on one line, as
    /// GNU Go lists them, judged from the search's ownership. In Borderline (no ownership) and
    /// Galice (not judged here) every stone counts as alive and the empty points go by the area
    /// count.
    fn final_status_list(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "final_status_list alive|dead|seki|black_territory|white_territory|dame")?;
        let status = Status::ALL
            .into_iter()
            .find(|s| s.name().eq_ignore_ascii_case(&args[0]))
            .ok_or_else(|| format!("syntax error: unknown status '{}'", args[0]))?;
        let single = match &self.position {
            Position::Single(single) => single,
            Position::Galice(g) => {
                let stones = Spot::all().filter(|&s| g.game.stone(s).is_some());
                let all = stones.map(|s| s.to_string()).collect::<Vec<_>>().join(" ");
                return Ok(if status == Status::Alive { all } else { String::new() });
            }
            // no dead stone is ever left on the board: every stone is alive
            Position::Lifeline(g) => {
                let geometry = g.record.geometry;
                let board = g.game.board();
                let stones = geometry.points().filter(|&p| board.color(p).is_some());
                let all = stones.map(|p| geometry.vertex(p).to_string()).collect::<Vec<_>>().join(" ");
                return Ok(if status == Status::Alive { all } else { String::new() });
            }
        };
        let board = single.game.board().clone();
        let g = single.geometry();
        let judgement = self.judgement()?;
        let of =
            |p: Point| judgement.as_ref().and_then(|j| j.status(p)).unwrap_or_else(|| area_status(&board, p));
        if status.of_empty_point() {
            let points = g.points().filter(|&p| of(p) == status).map(|p| g.vertex(p).to_string());
            return Ok(points.collect::<Vec<_>>().join(" "));
        }
        let mut listed: Vec<Point> = Vec::new();
        let mut lines = Vec::new();
        for p in g.points().filter(|&p| board.piece(p).is_some() && of(p) == status) {
            if listed.contains(&p) {
                continue;
            }
            let mut chain: Vec<Point> = board.chain(p).collect();
            chain.sort_by_key(|&q| g.coords(q).1 as usize * g.width() as usize + g.coords(q).0 as usize);
            lines.push(chain.iter().map(|&q| g.vertex(q).to_string()).collect::<Vec<_>>().join(" "));
            listed.extend(chain);
        }
        Ok(lines.join("\n"))
    }

    /// [`Engine::judge`] of the single-board game, cached for its record.
    fn judgement(&mut self) -> Result<Option<Judgement>, Failure> {
        let record = &self.single()?.record;
        if let Some((judged, judgement)) = &self.judged
            && judged == record
        {
            return Ok(judgement.clone());
        }
        let judgement = self.judge(record);
        self.judged = Some((record.clone(), judgement));
        Ok(self.judged.as_ref().and_then(|(_, j)| j.clone()))
    }

    /// The judgement of the position at the end of `record` from a search's ownership, with the
    /// engine's budget; `None` when the variant has no ownership or the game is over otherwise
    /// than by passes. The passes at the end of the record are left out, so that a game two
    /// passes ended is judged as it stood before them (a finished game has nothing to search).
    fn judge(&self, record: &Record) -> Option<Judgement> {
        let mut played_out = record.clone();
        while played_out.moves.last() == Some(&Move::Pass) {
            played_out.moves.pop();
        }
        let game = played_out.replay().ok()?;
        let mut owners = Vec::new();
        game.owners(&mut owners);
        if owners.is_empty() {
            return None; // no ownership in this variant: no search needed to find that out
        }
        let mut settings = self.config.settings.clone();
        settings.seed = settings.seed.wrapping_add(record.moves.len() as u64);
        settings.resign_below = None;
        let analysis = Search::new(settings).analyse_any(&game)?;
        (!analysis.ownership.is_empty()).then(|| Judgement::new(game.board(), &analysis.ownership))
    }

    /// `final_status VERTEX`: `alive`, `dead`, `seki`, `black_territory`, `white_territory` or
    /// `dame`, as GNU Go answers. Without ownership stones are alive and empty points go by the
    /// area count.
    fn final_status(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "final_status VERTEX")?;
        let single = self.single()?;
        let p = single.geometry().parse_vertex(&args[0]).map_err(|e| format!("syntax error: {e}"))?;
        let board = single.game.board().clone();
        let judged = self.judgement()?.and_then(|j| j.status(p));
        Ok(judged.unwrap_or_else(|| area_status(&board, p)).name().into())
    }

    /// `estimate_score`: GNU Go's `B+3.5 (upper bound: U, lower: L)`, the area count with the
    /// stones judged dead taken off, with komi; the bounds (in GNU Go's sign, White's points minus
    /// Black's) give every unsettled point to Black, then to White. Without ownership, the area
    /// count as it stands, with both bounds on it.
    fn estimate_score(&mut self) -> Result<String, Failure> {
        let komi = self.single()?.game.score().komi().as_f64();
        let board = self.single()?.game.board().clone();
        let (margin, low, high) = match self.judgement()? {
            Some(judgement) => {
                let (low, high) = judgement.margin_bounds(&board);
                (judgement.margin(&board) - komi, low - komi, high - komi)
            }
            None => {
                let [b, w] = self.single()?.game.score().totals();
                let margin = b.as_f64() - w.as_f64() - komi;
                (margin, margin, margin)
            }
        };
        let result = match margin {
            m if m > 0.0 => format!("B+{m:.1}"),
            m if m < 0.0 => format!("W+{:.1}", -m),
            _ => "0".into(),
        };
        Ok(format!("{result} (upper bound: {:.1}, lower: {:.1})", -low, -high))
    }

    /// `list_stones COLOR`: that colour's stones, rows from the top, as GNU Go lists them.
    fn list_stones(&self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "list_stones COLOR")?;
        let color = parse_color(&args[0])?;
        let single = self.single()?;
        let g = single.geometry();
        let board = single.game.board();
        Ok(g.points()
            .filter(|&p| board.color(p) == Some(color))
            .map(|p| g.vertex(p).to_string())
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// `captures COLOR`: how many stones of the other colour have left the board during the game
    /// (a suicide's own stones count for the opponent), as GNU Go counts prisoners.
    fn captures(&self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "captures COLOR")?;
        let color = parse_color(&args[0])?;
        let single = self.single()?;
        let record = &single.record;
        let stones = |board: &variago_rules::Board| [Color::Black, Color::White].map(|c| board.stones(c));
        let mut before = stones(record.initial_position().board());
        let mut captured = [0usize; 2];
        // the same replay as the position's (moves after two passes take the game up again)
        record
            .replay_with(|number, game| {
                let mover = game.to_move().opponent();
                let after = stones(game.board());
                for c in [Color::Black, Color::White] {
                    let placed = usize::from(c == mover && record.moves[number - 1] != Move::Pass);
                    captured[c.opponent() as usize] +=
                        (before[c as usize] + placed).saturating_sub(after[c as usize]);
                }
                before = after;
            })
            .map_err(|e| format!("internal error: {e}"))?;
        Ok(captured[color as usize].to_string())
    }

    /// `move_history`: the moves played, the last first, as GNU Go writes them (`white C3`,
    /// `black PASS`); the passes put in for a colour that moved twice are not listed, as GNU Go
    /// plays none.
    fn move_history(&self) -> Result<String, Failure> {
        let single = self.single()?;
        let lines = single
            .history()
            .into_iter()
            .rev()
            .map(|(color, mv)| format!("{} {}", color_name(color), single.name(mv)));
        Ok(lines.collect::<Vec<_>>().join("\n"))
    }

    /// `top_moves_black` / `top_moves_white`: a search for that colour with the engine's budget;
    /// the most visited moves (at most ten, passes left out) each with its win rate in percent,
    /// in GNU Go's `C3 56.20 D4 41.02` layout.
    fn top_moves(&self, color: Color) -> Result<String, Failure> {
        let Some((single, analysis)) = self.search_for(color)? else {
            return Ok(String::new());
        };
        Ok(analysis
            .moves
            .iter()
            .filter(|m| m.visits > 0 && m.mv != Move::Pass)
            .take(TOP_MOVES)
            .map(|m| format!("{} {:.2}", single.name(m.mv), 100.0 * m.winrate))
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// A search of the single-board position with `color` to move, with the engine's budget;
    /// `None` once the game is over (for that colour).
    fn search_for(&self, color: Color) -> Result<Option<(&Single, Analysis<Move>)>, Failure> {
        let single = self.single()?;
        let Ok(game) = single.for_player(color) else { return Ok(None) };
        let settings = self.move_settings(color, single.record.moves.len(), game.board().empties().len());
        Ok(Search::new(settings).analyse_any(&game).map(|analysis| (single, analysis)))
    }

    /// `all_legal COLOR`: the points where that colour may play now, rows from the top, without
    /// the pass (as GNU Go lists them); nothing once the game is over.
    fn all_legal(&self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "all_legal COLOR")?;
        let color = parse_color(&args[0])?;
        let single = self.single()?;
        let Ok(game) = single.for_player(color) else { return Ok(String::new()) };
        let g = single.geometry();
        Ok(g.points()
            .filter(|&p| game.check(Move::Place(p)).is_ok())
            .map(|p| g.vertex(p).to_string())
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// `query_boardsize`: the side of the square board (a rectangle has none).
    fn query_boardsize(&self) -> Result<String, Failure> {
        let g = self.single()?.geometry();
        if g.width() == g.height() {
            Ok(g.width().to_string())
        } else {
            Err(format!("the board is not square ({}x{}): use gogui-rules_board_size", g.width(), g.height()))
        }
    }

    /// `get_komi`: as GNU Go prints it (`%4.1f`: ` 6.5`, `-3.5`, `10.5`); Galice and Square
    /// Lifeline have none (` 0.0`).
    fn get_komi(&self) -> String {
        let komi = match &self.position {
            Position::Single(s) => s.game.score().komi(),
            Position::Galice(_) | Position::Lifeline(_) => HalfPoints(0),
        };
        format!("{:4.1}", komi.as_f64())
    }

    /// `level N`: GNU Go's strength setting, read as variago's level (1 to 10; other integers are
    /// taken as the nearest of these, as GNU Go takes any integer). It fixes the budget per move,
    /// as `--level` does, keeping the threads, seed, resignation setting and ownership; a budget
    /// given on the command line stays.
    fn level(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "level N")?;
        let n: i32 =
            args[0].parse().map_err(|_| format!("syntax error: level '{}' is not an integer", args[0]))?;
        let level = Level::new(n.clamp(1, 10) as u8).expect("clamped to 1-10");
        if self.budget_from_command_line {
            // the user's own choice wins over a client's (Kigo sends `level 1` before each move)
            return Ok(String::new());
        }
        let old = &self.config.settings;
        self.config.settings = Settings {
            threads: old.threads,
            seed: old.seed,
            resign_below: old.resign_below,
            ownership: old.ownership,
            ..level.settings()
        };
        self.config.fixed_budget = true;
        Ok(String::new())
    }

    /// `set_random_seed N` (GNU Go's command): the seed of the searches from now on, so that a
    /// controller playing several games gets different ones from an engine whose moves are
    /// otherwise repeatable (`variago match` sends each game its own).
    fn set_random_seed(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 1, "set_random_seed N")?;
        self.config.settings.seed =
            args[0].parse().map_err(|_| format!("syntax error: seed '{}' is not a number", args[0]))?;
        Ok(String::new())
    }

    /// `fixed_handicap N` and `place_free_handicap N`: `place` chooses the points.
    fn handicap(
        &mut self,
        name: &str,
        args: &[String],
        place: fn(Geometry, usize) -> Option<Vec<Point>>,
    ) -> Result<String, Failure> {
        arity(args, 1, &format!("{name} NUMBER"))?;
        let stones = parse_count(&args[0])?;
        let single = self.single_mut()?;
        if !single.is_empty() {
            return Err("board not empty".into());
        }
        let geometry = single.geometry();
        let points = place(geometry, stones).ok_or("invalid number of stones")?;
        single.set_handicap(&points);
        Ok(points.iter().map(|&p| geometry.vertex(p).to_string()).collect::<Vec<_>>().join(" "))
    }

    fn set_free_handicap(&mut self, args: &[String]) -> Result<String, Failure> {
        let single = self.single_mut()?;
        if !single.is_empty() {
            return Err("board not empty".into());
        }
        let geometry = single.geometry();
        let mut points = Vec::with_capacity(args.len());
        for text in args {
            let p = geometry.parse_vertex(text).map_err(|_| "bad vertex list".to_string())?;
            if points.contains(&p) {
                return Err("bad vertex list".into());
            }
            points.push(p);
        }
        if points.len() < 2 || points.len() >= geometry.area() {
            return Err("bad vertex list".into());
        }
        single.set_handicap(&points);
        Ok(String::new())
    }

    fn time_left(&mut self, args: &[String]) -> Result<String, Failure> {
        arity(args, 3, "time_left COLOR TIME STONES")?;
        let color = parse_color(&args[0])?;
        self.clock.set_left(color as usize, &args[1], &args[2]).map_err(|e| format!("syntax error: {e}"))?;
        if let (Position::Single(single), Ok(seconds)) = (&mut self.position, args[1].parse()) {
            single.note_time_left(color, seconds);
        }
        Ok(String::new())
    }

    /// `loadsgf FILE [MOVE_NUMBER]`: the game up to the position before that move; answers the
    /// colour to play, as GNU Go does. Reads variago's SGF of every variant and Galice text.
    fn loadsgf(&mut self, args: &[String]) -> Result<String, Failure> {
        let (file, number) = match args {
            [file] => (file, None),
            [file, number] => (file, Some(parse_count(number)?)),
            _ => return Err("syntax error: usage loadsgf FILE [MOVE_NUMBER]".into()),
        };
        let text = file::read_regular_text(Path::new(file)).map_err(|e| format!("cannot load file: {e}"))?;
        if text.trim().is_empty() {
            return Err("cannot load file: it is empty".into());
        }
        let keep = |n: usize| number.map_or(n, |m| m.saturating_sub(1).min(n));
        // an SGF is Galice only when its root says `RU[galice]`: the Galice reader is lenient about
        // everything else, so a broken Go record must report its own error, not load as Galice
        let is_sgf = text.trim_start().starts_with('(');
        let position = if is_sgf && is_lifeline_sgf(&text) {
            LifelineRecord::from_sgf(&text).map_err(|e| e.to_string()).and_then(|mut record| {
                if keep(record.turns.len()) < record.turns.len() {
                    record.result = None;
                    record.turns.truncate(keep(record.turns.len()));
                }
                LifelineGame::from_record(record).map(Position::Lifeline)
            })
        } else if is_sgf && !galice_sgf::is_galice_sgf(&text) {
            Record::from_sgf(&text).map_err(|e| e.to_string()).and_then(|mut record| {
                if keep(record.moves.len()) < record.moves.len() {
                    // the game's result belongs to its end, not to the position loaded
                    record.result = None;
                    record.moves.truncate(keep(record.moves.len()));
                    record.annotations.split_off(&record.moves.len());
                }
                Single::from_record(record).map(Position::Single)
            })
        } else {
            let galice = if is_sgf {
                galice_sgf::from_sgf(&text).map_err(|e| e.to_string())
            } else {
                GaliceRecord::parse(&text).map_err(|e| e.to_string())
            };
            galice.and_then(|mut record| {
                record.entries.truncate(keep(record.entries.len()));
                GaliceGame::from_record(&record).map(Position::Galice)
            })
        };
        self.position = position.map_err(|e| format!("cannot load file: {e}"))?;
        Ok(color_name(self.to_move()).into())
    }

    /// `printsgf [FILE]`: the game as SGF, written to FILE if given.
    fn printsgf(&self, args: &[String]) -> Result<String, Failure> {
        let sgf = self.position.to_sgf();
        match args {
            [] => Ok(sgf),
            [file] => std::fs::write(file, sgf)
                .map(|()| String::new())
                .map_err(|e| format!("cannot write {file}: {e}")),
            _ => Err("syntax error: usage printsgf [FILE]".into()),
        }
    }

    /// `variago-why COLOR MOVE`: `legal`, or the reason in words.
    fn why(&self, args: &[String]) -> Result<String, Failure> {
        let Some((color, rest)) = args.split_first() else {
            return Err("syntax error: usage variago-why COLOR MOVE".into());
        };
        let color = parse_color(color)?;
        match &self.position {
            Position::Single(single) => {
                arity(rest, 1, "is_legal COLOR VERTEX")?;
                let mv = parse_move(single.geometry(), &rest[0])?;
                Ok(match single.for_player(color) {
                    Ok(game) => legality(&game, mv),
                    Err(reason) => reason.to_string(),
                })
            }
            Position::Galice(galice) => {
                let turn: Turn = rest.join(" ").parse().map_err(|e| format!("syntax error: {e}"))?;
                if galice.game.to_move() != color {
                    return Ok(format!("it is {}'s turn", galice.game.to_move()));
                }
                Ok(legality(&galice.game, turn))
            }
            Position::Lifeline(g) => {
                let turn = lifeline_turn(&g.game, rest)?;
                if g.game.to_move() != color {
                    return Ok(format!("it is {}'s turn", g.game.to_move()));
                }
                Ok(legality(&g.game, turn))
            }
        }
    }

    /// `gogui-rules_legal_moves`: space-separated vertices and `pass` (Galice: turns separated by
    /// commas); empty once the game is over.
    fn legal_moves(&self) -> String {
        match &self.position {
            Position::Single(s) => legal_list(&s.game, " ", |mv| s.name(mv)),
            Position::Galice(g) => legal_list(&g.game, ", ", |turn| turn.to_string()),
            Position::Lifeline(g) => legal_list(&g.game, " ", |turn| g.game.turn_text(turn)),
        }
    }

    /// `gogui-rules_board`: the rows from the top, `X` black, `O` white, `.` empty (kings show as
    /// stones: GoGui draws stones only).
    fn gogui_board(&self) -> Result<String, Failure> {
        let single = self.single()?;
        let g = single.geometry();
        let board = single.game.board();
        let rows: Vec<String> = (0..g.height())
            .map(|y| {
                (0..g.width())
                    .map(|x| match g.point(x, y).and_then(|p| board.color(p)) {
                        Some(Color::Black) => "X",
                        Some(Color::White) => "O",
                        None => ".",
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        Ok(format!("\n{}", rows.join("\n")))
    }

    /// `variago-territory` (GoGui gfx): the empty points each side would count as territory now.
    fn territory(&self) -> Result<String, Failure> {
        let single = self.single()?;
        let g = single.geometry();
        let board = single.game.board();
        let mut sides = [Vec::new(), Vec::new()];
        for p in g.points().filter(|&p| board.piece(p).is_none()) {
            if let variago_rules::board::RegionOwner::Only(c) = board.region(p, None).owner {
                sides[c as usize].push(g.vertex(p).to_string());
            }
        }
        Ok(format!("BLACK {}\nWHITE {}", sides[0].join(" "), sides[1].join(" ")))
    }

    /// `variago-borderline` (GoGui gfx): Borderline's live survey, the points each side encloses
    /// shaded as its territory and the besieged stones marked.
    fn borderline(&self) -> Result<String, Failure> {
        let single = self.single()?;
        let variago_rules::AnyGame::Borderline(game) = &single.game else {
            return Err("variago-borderline needs the borderline variant".into());
        };
        let g = single.geometry();
        let survey = game.survey();
        let mut enclosed = [Vec::new(), Vec::new()];
        let mut besieged = Vec::new();
        for p in g.points() {
            if let Some(c) = survey.enclosed_by(p) {
                enclosed[c as usize].push(g.vertex(p).to_string());
            }
            if survey.status(game.board(), p) == Some(variago_rules::borderline::StoneStatus::Besieged) {
                besieged.push(g.vertex(p).to_string());
            }
        }
        Ok(format!(
            "BLACK {}\nWHITE {}\nMARK {}",
            enclosed[0].join(" "),
            enclosed[1].join(" "),
            besieged.join(" ")
        ))
    }

    /// `variago-illegal_points` (GoGui plist): the empty points where the side to move may not
    /// play, whatever the reason (suicide, ko, an incursion or capture restriction).
    fn illegal_points(&self) -> Result<String, Failure> {
        let single = self.single()?;
        let g = single.geometry();
        let board = single.game.board();
        Ok(g.points()
            .filter(|&p| board.piece(p).is_none() && single.game.check(Move::Place(p)).is_err())
            .map(|p| g.vertex(p).to_string())
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// `variago-best_moves` (GoGui gfx): a search for the side to move with the configured budget;
    /// the most visited moves labelled with their win rates, and the principal variation.
    fn best_moves(&self) -> Result<String, Failure> {
        let single = self.single()?;
        let color = single.game.to_move();
        let settings =
            self.move_settings(color, single.record.moves.len(), single.game.board().empties().len());
        let Some(analysis) = Search::new(settings).analyse_any(&single.game) else {
            return Ok(String::new());
        };
        let labels = analysis
            .moves
            .iter()
            .filter(|m| m.visits > 0 && m.mv != Move::Pass)
            .take(10)
            .map(|m| format!("LABEL {} {:.0}%", single.name(m.mv), 100.0 * m.winrate));
        let mut mover = color;
        let variation: Vec<String> = analysis
            .pv
            .iter()
            .map(|&mv| {
                let text = format!("{} {}", mover.letter().to_ascii_lowercase(), single.name(mv));
                mover = mover.opponent();
                text
            })
            .collect();
        Ok(labels.chain([format!("VAR {}", variation.join(" "))]).collect::<Vec<_>>().join("\n"))
    }
}
