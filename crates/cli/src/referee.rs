//! The referee shared by `variago match` and `variago lab selfplay`: engines as named on the
//! command line (the built-in AI or an external GTP program), and one game between two of them,
//! refereed by variago's rules engine, for single-board variants and Galice alike.

use std::time::Duration;

use variago_records::sgf::{move_from_text, move_text};
use variago_records::{GameInfo, LifelineRecord, Record, galice_sgf};
use variago_rules::galice::{Action, Galice, Record as GaliceRecord, Turn};
use variago_rules::lifeline::{self, Lifeline, LifelineSpec};
use variago_rules::spec::Variant;
use variago_rules::{AnyGame, Color, Ending, Game, GameResult, Move, ScoreSheet, VariantSpec};
use variago_search::{Analysis, KeptAny, Search, Settings};

use crate::gtp::{Gtp, GtpError};
use crate::{Failure, genmove};

/// An engine as named on the command line.
pub(crate) enum EngineSpec {
    /// The built-in search with these settings (its seed is varied per game).
    Builtin(Settings),
    /// An external GTP engine's command line.
    Gtp(String),
}

/// Reads `variago[:key=value,...]` (keys `level`, `playouts`, `time`, `threads`, `priors`,
/// `resign`, `playout`, `score`, and the tree's `explore`, `rave`, `expand` and `nodes`, for tuning
/// matches) or `gtp:COMMAND LINE`.
pub(crate) fn parse_engine(text: &str, seed: u64) -> Result<EngineSpec, Failure> {
    if let Some(command) = text.strip_prefix("gtp:") {
        return Ok(EngineSpec::Gtp(command.trim().to_string()));
    }
    let options = match text.split_once(':') {
        Some(("variago", options)) => options,
        None if text == "variago" => "",
        _ => return Err(Failure::input(format!("engine '{text}': write variago:level=N or gtp:COMMAND"))),
    };
    let (mut level, mut playouts, mut time, mut threads, mut priors) = (None, None, None, 1, None);
    let mut resign_below = None;
    let mut tuning = genmove::Tuning::default();
    for option in options.split(',').filter(|o| !o.trim().is_empty()) {
        let bad = || Failure::input(format!("engine '{text}': bad option '{option}'"));
        let (key, value) = option.split_once('=').ok_or_else(bad)?;
        match key.trim() {
            "level" => level = Some(value.trim().parse().map_err(|_| bad())?),
            "playouts" => playouts = Some(value.trim().parse().map_err(|_| bad())?),
            "time" => time = Some(value.trim().parse().map_err(|_| bad())?),
            "threads" => threads = value.trim().parse().map_err(|_| bad())?,
            "priors" => {
                priors = Some(
                    value.trim().parse::<f64>().ok().filter(|p| (0.0..=1e6).contains(p)).ok_or_else(bad)?,
                )
            }
            // a win rate below one half: resigning a game the search thinks it wins is a bug
            "resign" => {
                resign_below = Some(
                    value.trim().parse::<f64>().ok().filter(|r| (0.0..0.5).contains(r)).ok_or_else(bad)?,
                )
            }
            "playout" => tuning.playout = Some(value.trim().parse().map_err(|_| bad())?),
            "score" => tuning.score_share = Some(genmove::score_share(value).map_err(|_| bad())?),
            "contempt" => tuning.contempt = Some(genmove::contempt(value).map_err(|_| bad())?),
            "explore" => tuning.exploration = Some(genmove::exploration(value).map_err(|_| bad())?),
            "rave" => tuning.rave_equivalence = Some(genmove::rave_equivalence(value).map_err(|_| bad())?),
            "expand" => {
                tuning.expand_after =
                    Some(value.trim().parse().ok().filter(|n| (1..=1_000_000).contains(n)).ok_or_else(bad)?)
            }
            "nodes" => tuning.max_nodes = Some(genmove::max_nodes(value).map_err(|_| bad())?),
            _ => return Err(bad()),
        }
    }
    if level.is_some_and(|l| !(1..=10).contains(&l)) {
        return Err(Failure::input(format!("engine '{text}': the level is 1 to 10")));
    }
    let mut settings = genmove::settings(playouts, time, threads, seed, level).map_err(Failure::input)?;
    if let Some(priors) = priors {
        settings.prior_visits = Some(priors);
    }
    settings.resign_below = resign_below;
    Ok(EngineSpec::Builtin(tuning.over(settings)))
}

/// A built-in search's analysis with the tree to keep for the next move.
type Searched<M> = Option<(Analysis<M>, KeptAny)>;

/// A game `match` can referee: its rules (through [`Game`]) and what talking to engines and
/// saving the game need on top. Single-board variants and Galice each implement it once, so that
/// one match loop serves both.
pub(crate) trait Refereed: Game {
    /// The GTP command that tells an engine of a move.
    const PLAY: &'static str = "play";

    /// The built-in search's analysis of this position, growing on the tree `kept` from an
    /// earlier search when `moves` lead from its position here (tree reuse, as in GTP); returns
    /// the tree to keep. A search on the game type itself unless the type runs its searches
    /// elsewhere.
    fn search(&self, search: &Search, kept: Option<KeptAny>, moves: &[Self::Move]) -> Searched<Self::Move> {
        search.analyse_reusing_erased(self, kept, moves)
    }

    /// A move as GTP engines write it.
    fn text(&self, mv: Self::Move) -> String;

    /// An engine's answer to `genmove` as a move.
    fn parse(&self, text: &str) -> Result<Self::Move, String>;

    /// The GTP commands that start a new game of this variant on an external engine.
    fn gtp_new_game(&self) -> Vec<String>;

    /// A game from this starting position with these moves, as SGF with its result and players.
    fn sgf(&self, moves: &[Self::Move], result: &str, info: &GameInfo) -> String;
}

impl Refereed for AnyGame {
    /// On the concrete variant inside, monomorphised.
    fn search(&self, search: &Search, kept: Option<KeptAny>, moves: &[Self::Move]) -> Searched<Self::Move> {
        search.analyse_any_reusing(self, kept, moves)
    }

    fn text(&self, mv: Self::Move) -> String {
        move_text(self.board().geometry(), mv)
    }

    fn parse(&self, text: &str) -> Result<Self::Move, String> {
        move_from_text(self.board().geometry(), text).map_err(|e| e.to_string())
    }

    /// Standard Go by the commands every engine knows; other variants by `variago-variant`.
    fn gtp_new_game(&self) -> Vec<String> {
        let geometry = self.board().geometry();
        let spec = self.spec();
        if matches!(spec.variant, Variant::Go(_)) {
            vec![
                format!("boardsize {}", geometry.width()),
                format!("komi {}", spec.komi().as_f64()),
                "clear_board".into(),
            ]
        } else {
            vec![format!("variago-variant {}", VariantSpec { size: Some(geometry), ..spec })]
        }
    }

    fn sgf(&self, moves: &[Self::Move], result: &str, info: &GameInfo) -> String {
        let mut record = Record::new(self.spec(), self.board().geometry());
        record.moves = moves.to_vec();
        record.result = Some(result.to_string());
        record.info = info.clone();
        record.to_sgf()
    }
}

impl Refereed for Galice {
    const PLAY: &'static str = "variago-play";

    fn text(&self, mv: Turn) -> String {
        mv.to_string()
    }

    fn parse(&self, text: &str) -> Result<Turn, String> {
        text.parse().map_err(|e: variago_rules::galice::NotationError| e.to_string())
    }

    fn gtp_new_game(&self) -> Vec<String> {
        vec!["variago-variant galice".into()]
    }

    fn sgf(&self, moves: &[Turn], result: &str, info: &GameInfo) -> String {
        let actions: Vec<Action> = moves.iter().copied().map(Action::Turn).collect();
        galice_sgf::to_sgf(&GaliceRecord::new(self.clone(), &actions), Some(result), info)
    }
}

/// Square Lifeline: turns as `C3`, `C2+C4`, `swap`; the player who swaps takes Black's stones.
impl Refereed for Lifeline {
    fn text(&self, turn: lifeline::Turn) -> String {
        self.turn_text(turn)
    }

    fn parse(&self, text: &str) -> Result<lifeline::Turn, String> {
        self.parse_turn(text).map_err(|e| e.to_string())
    }

    fn gtp_new_game(&self) -> Vec<String> {
        let spec = LifelineSpec { rules: self.rules(), size: Some(self.board().geometry()) };
        vec![format!("variago-variant {spec}")]
    }

    fn sgf(&self, moves: &[lifeline::Turn], result: &str, info: &GameInfo) -> String {
        let mut record = LifelineRecord::new(self.rules(), self.board().geometry());
        record.turns = moves.to_vec();
        record.result = Some(result.to_string());
        record.info = info.clone();
        record.to_sgf()
    }
}

/// A running engine.
pub(crate) enum Engine {
    /// The built-in search, with the tree of its last move and the game's length when it was
    /// grown, so that its next search starts from what it learnt (as the GTP engine's does).
    Builtin(Settings, Option<(usize, KeptAny)>),
    Gtp(Gtp),
}

/// What an engine answered to `genmove`.
enum Reply<M> {
    /// A move, with the mover's win rate of it when the engine gives one (the built-in AI).
    Move(M, Option<f64>),
    Resign,
}

/// An engine failure: it ends the game (or, when the engine cannot even start, the match).
fn failed(e: GtpError) -> Failure {
    Failure::input(e)
}

fn gtp_color(color: Color) -> &'static str {
    match color {
        Color::Black => "b",
        Color::White => "w",
    }
}

impl Engine {
    pub(crate) fn start(spec: &EngineSpec, timeout: Duration) -> Result<Engine, Failure> {
        Ok(match spec {
            EngineSpec::Builtin(settings) => Engine::Builtin(settings.clone(), None),
            EngineSpec::Gtp(command) => {
                let mut gtp = Gtp::start(command).map_err(Failure::input)?;
                gtp.set_timeout(Some(timeout));
                Engine::Gtp(gtp)
            }
        })
    }

    /// Prepares a new game from the position `start`.
    pub(crate) fn new_game<G: Refereed>(&mut self, start: &G, seed: u64) -> Result<(), Failure> {
        match self {
            Engine::Builtin(settings, kept) => {
                settings.seed = seed;
                *kept = None;
            }
            Engine::Gtp(gtp) => {
                for command in start.gtp_new_game() {
                    gtp.command(&command).map_err(failed)?;
                }
                // an engine that takes a seed (GNU Go, variago) gets the game's own, so that
                // repeatable engines do not play the same game again with the same colours
                if matches!(gtp.command("known_command set_random_seed"), Ok(known) if known == "true") {
                    gtp.command(&format!("set_random_seed {seed}")).map_err(failed)?;
                }
            }
        }
        Ok(())
    }

    /// The engine's move for the side to move in `game`, reached by `moves` from the start.
    fn genmove<G: Refereed>(&mut self, game: &G, moves: &[G::Move]) -> Result<Reply<G::Move>, Failure> {
        match self {
            Engine::Builtin(settings, kept) => {
                settings.seed = settings.seed.wrapping_add(1);
                let (tree, since) = match kept.take() {
                    Some((length, tree)) if length <= moves.len() => (Some(tree), &moves[length..]),
                    _ => (None, &[][..]),
                };
                let analysis = game.search(&Search::new(settings.clone()), tree, since).map(|(a, tree)| {
                    *kept = Some((moves.len(), tree));
                    a
                });
                Ok(analysis.map_or(Reply::Move(G::PASS, None), |a| {
                    if a.resign { Reply::Resign } else { Reply::Move(a.best, Some(a.winrate)) }
                }))
            }
            Engine::Gtp(gtp) => {
                let answer =
                    gtp.command(&format!("genmove {}", gtp_color(game.to_move()))).map_err(failed)?;
                let answer = answer.trim();
                if answer.eq_ignore_ascii_case("resign") {
                    Ok(Reply::Resign)
                } else {
                    game.parse(answer).map(|mv| Reply::Move(mv, None)).map_err(|e| {
                        Failure::input(format!("GTP engine gave a malformed move '{answer}': {e}"))
                    })
                }
            }
        }
    }

    /// The engine's move for the side to move in `game`, a position set up on a board (a
    /// problem) that `sgf` holds as a record: the built-in search plays from `game` itself, a GTP
    /// engine reads the file with `loadsgf` (its path must have no spaces, as GTP splits
    /// arguments at them). `None` for a resignation.
    pub(crate) fn move_in_setup(
        &mut self,
        game: &AnyGame,
        sgf: &std::path::Path,
    ) -> Result<Option<Move>, Failure> {
        if let Engine::Gtp(gtp) = self {
            gtp.command(&format!("loadsgf {}", sgf.display())).map_err(failed)?;
        }
        Ok(match self.genmove(game, &[])? {
            Reply::Move(mv, _) => Some(mv),
            Reply::Resign => None,
        })
    }

    /// Tells the engine the opponent's move.
    fn play<G: Refereed>(&mut self, color: Color, text: &str) -> Result<(), Failure> {
        if let Engine::Gtp(gtp) = self {
            gtp.command(&format!("{} {} {text}", G::PLAY, gtp_color(color))).map_err(failed)?;
        }
        Ok(())
    }

    pub(crate) fn stop(self) {
        if let Engine::Gtp(gtp) = self {
            gtp.quit();
        }
    }
}

/// How one game ended.
pub(crate) struct GameEnd {
    /// The winner, `None` for a draw.
    pub(crate) winner: Option<Color>,
    /// SGF `RE`.
    pub(crate) result: String,
    /// Why it ended, for the game's line.
    pub(crate) reason: String,
    /// The colour whose engine failed (crashed, timed out, answered nonsense), to be restarted.
    pub(crate) failed: Option<Color>,
    /// Whether the pie rule's colour choice swapped the engines' colours (Galice).
    pub(crate) swapped: bool,
    /// How, in a word or two: `score`, `own-position draw`, `resignation`, `move cap`, `forfeit`.
    pub(crate) how: &'static str,
}

impl GameEnd {
    /// The game ended by the rules (or was scored as it stood) with this result.
    fn by_rules(result: GameResult, reason: String, how: &'static str) -> Self {
        GameEnd::new(result.winner, result.to_string(), reason, how)
    }

    fn new(winner: Option<Color>, result: String, reason: String, how: &'static str) -> Self {
        GameEnd { winner, result, reason, failed: None, swapped: false, how }
    }

    /// `color` loses: it resigned (`R`) or forfeited (`F`).
    fn loss(color: Color, suffix: char, reason: String) -> Self {
        let winner = color.opponent();
        let how = if suffix == 'R' { "resignation" } else { "forfeit" };
        GameEnd::new(Some(winner), format!("{}+{suffix}", winner.letter()), reason, how)
    }

    /// `color`'s engine failed: it forfeits the game.
    fn failure(color: Color, failure: Failure) -> Self {
        GameEnd { failed: Some(color), ..GameEnd::loss(color, 'F', failure.message) }
    }
}

/// What [`play_game`] calls before each move: the position, the move, the mover's win rate.
pub(crate) type Observe<'a, G> = dyn FnMut(&G, <G as Game>::Move, Option<f64>) + 'a;

/// Plays one game from `start`, appending its moves to `moves`; `seats[0]` plays Black (in
/// Galice: makes the pie setup, and the other seat chooses the colours). `observe` sees each
/// position before its move is played, with the move and the mover's win rate of it when the
/// engine gave one.
pub(crate) fn play_game<G: Refereed>(
    mut seats: [&mut Engine; 2],
    start: &G,
    max_moves: usize,
    moves: &mut Vec<G::Move>,
    observe: &mut Observe<G>,
) -> GameEnd {
    let mut game = start.clone();
    let mut swapped = false;
    let mut end = loop {
        if let Some(result) = game.outcome() {
            let (reason, how) = match result.ending {
                Ending::OwnPositionDraw => ("own-position draw", "own-position draw"),
                Ending::Resignation => ("resignation", "resignation"),
                Ending::Score(_) => ("counted at the end of the game", "score"),
                Ending::LastPlacement => ("the last placement wins", "last placement"),
            };
            break GameEnd::by_rules(result, reason.into(), how);
        }
        if moves.len() >= max_moves {
            let reason = format!("{max_moves}-move cap, scored as it stands");
            break GameEnd::by_rules(game.score().result(), reason, "move cap");
        }
        let color = game.to_move();
        let mover = color as usize;
        let (mv, value) = match seats[mover].genmove(&game, moves) {
            Ok(Reply::Resign) => break GameEnd::loss(color, 'R', format!("{color} resigned")),
            Ok(Reply::Move(mv, value)) => (mv, value),
            Err(failure) => break GameEnd::failure(color, failure),
        };
        let text = game.text(mv);
        if let Err(reason) = game.check(mv) {
            break GameEnd::loss(color, 'F', format!("{color} played the illegal move {text}: {reason}"));
        }
        observe(&game, mv, value);
        // a pie rule's move hands its player the other colour (`Game::colour_after`)
        let taken = game.colour_after(mv);
        game.play(mv).expect("the move was checked");
        moves.push(mv);
        if let Err(failure) = seats[1 - mover].play::<G>(color, &text) {
            break GameEnd::failure(color.opponent(), failure);
        }
        // the chooser takes Black: the seats change colours for the rest of the game
        if taken != color {
            seats.swap(0, 1);
            swapped = !swapped;
        }
    };
    end.swapped = swapped;
    end
}

/// An engine that exits makes writing to it fail with an error instead of killing variago.
pub(crate) fn ignore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: changing a signal's disposition; no handler runs Rust code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_s_constants_can_be_set_for_tuning_matches() {
        let Ok(EngineSpec::Builtin(settings)) =
            parse_engine("variago:playouts=100,explore=0.3,rave=500,expand=8,nodes=5000000", 1)
        else {
            panic!("a built-in engine")
        };
        assert_eq!((settings.exploration, settings.rave_equivalence, settings.expand_after), (0.3, 500.0, 8));
        assert_eq!(settings.max_nodes, 5_000_000);
        for absurd in ["nodes=10", "nodes=1000000000", "nodes=-1"] {
            assert!(parse_engine(&format!("variago:playouts=100,{absurd}"), 1).is_err(), "{absurd}");
        }
        let Ok(EngineSpec::Builtin(default)) = parse_engine("variago:playouts=100", 1) else {
            panic!("a built-in engine")
        };
        assert_eq!((default.exploration, default.rave_equivalence, default.expand_after), (0.0, 3000.0, 2));
        assert_eq!(default.max_nodes, 2_000_000);
    }

    #[test]
    fn the_built_in_engine_grows_on_its_last_tree() {
        let game = AnyGame::new(&"go".parse().unwrap(), variago_rules::Geometry::square(7).unwrap());
        let Ok(spec) = parse_engine("variago:playouts=600", 1) else { panic!("a built-in engine") };
        let Ok(mut engine) = Engine::start(&spec, Duration::from_secs(10)) else { panic!("it starts") };
        assert!(engine.new_game(&game, 40).is_ok());
        // the same searches by hand: the engine seeds each move one above the last
        let search = |seed| Search::new(Settings { seed, playouts: 600, ..Settings::default() });
        let (expected, kept) = search(41).analyse_any_reusing(&game, None, &[]).unwrap();
        let Ok(Reply::Move(first, _)) = engine.genmove(&game, &[]) else { panic!("a move") };
        assert_eq!(first, expected.best);
        // the reply the search expected: a node its tree has expanded
        let reply = expected.pv[1];
        let mut after = game.clone();
        after.play(first).unwrap();
        after.play(reply).unwrap();
        let Ok(Reply::Move(second, Some(winrate))) = engine.genmove(&after, &[first, reply]) else {
            panic!("a move with its win rate")
        };
        let (reused, _) = search(42).analyse_any_reusing(&after, Some(kept), &[first, reply]).unwrap();
        let fresh = search(42).analyse_any(&after).unwrap();
        assert_eq!((second, winrate), (reused.best, reused.winrate));
        assert_ne!(winrate, fresh.winrate, "a fresh search would not give the reused tree's figures");
    }
}
