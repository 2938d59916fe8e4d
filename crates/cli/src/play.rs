//! `variago play`: a game in the terminal against the AI, or between two people at one keyboard.
//! The board is drawn after every move with coordinates and the last move marked; moves are GTP
//! vertices (Galice turns in its notation; Square Lifeline's pairs `C2+C4` and `swap`); an illegal
//! move shows its reason and asks again. A pass that would end the game and a resignation ask for
//! confirmation first.

use std::io::{self, BufRead, Write};
use std::path::Path;

use variago_gtp::position::{GaliceGame, LifelineGame, Position, Single};
use variago_records::sgf::{move_from_text, move_text};
use variago_rules::galice::{Action, Galice, NotationError, Turn as GaliceTurn};
use variago_rules::lifeline::Turn as LifelineTurn;
use variago_rules::{AnyGame, Color, Game, GameResult, Move, ScoreSheet};
use variago_search::{KeptAny, Search, Settings};

use crate::Failure;
use crate::genmove::Budget;

/// `variago play`'s flags.
#[derive(clap::Args)]
pub struct Options {
    /// Variant spec (e.g. `go:komi=6.5`, `borderline`, `lifeline:size=7`), or `galice`.
    #[arg(long, default_value = "go")]
    variant: String,
    /// Board size, `N` or `WxH` (default: the spec's `size=`, else 19x19).
    #[arg(long)]
    size: Option<String>,
    /// The colour you play; `both` for two people at one keyboard.
    #[arg(long, value_enum, default_value_t = Seats::Black)]
    color: Seats,
    /// The AI's strength and budget.
    #[command(flatten)]
    budget: Budget,
}

/// Plays a game on standard input and output.
pub fn run(options: Options) -> Result<(), Failure> {
    let mut settings = options.budget.settings().map_err(Failure::input)?;
    // a new game each time unless a seed is asked for; the seed is printed to replay it
    settings.seed = options.budget.seed.unwrap_or_else(clock_seed);
    // the AI gives up only a clearly lost game, after enough playouts to be sure
    settings.resign_below = Some(0.05);
    let position = if crate::is_galice(&options.variant) {
        Position::Galice(GaliceGame::new(Galice::new()))
    } else if crate::lifeline::is_lifeline(&options.variant) {
        let (spec, geometry) = crate::lifeline::spec_and_size(&options.variant, options.size.as_deref())?;
        Position::Lifeline(LifelineGame::new(spec.rules, geometry))
    } else {
        let (spec, geometry) = crate::spec_and_size(&options.variant, options.size.as_deref())?;
        Position::Single(Single::new(spec, geometry))
    };
    let mut session = Session::new(position, options.color, settings);
    session
        .run(&mut io::stdin().lock(), &mut io::stdout().lock())
        .map_err(|e| Failure::input(format!("terminal: {e}")))
}

/// A seed from the clock: the nanoseconds of the current second and the seconds, mixed.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    now.as_secs().wrapping_mul(1_000_000_007) ^ u64::from(now.subsec_nanos())
}

/// Who sits at the keyboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Seats {
    /// The person plays Black, the AI White.
    Black,
    /// The person plays White, the AI Black.
    White,
    /// Two people share the keyboard.
    Both,
}

impl Seats {
    fn is_human(self, color: Color) -> bool {
        match self {
            Seats::Black => color == Color::Black,
            Seats::White => color == Color::White,
            Seats::Both => true,
        }
    }
}

const HELP: &str = "commands: a move (D4, pass; in Galice its notation, e.g. `bB2 D4`; in Square Lifeline \
                    a first turn's pair C2+C4, or swap), undo, hint, resign, save [FILE.sgf], help, quit";

/// The words a move or a Galice turn may start with; any other word without digits is taken for
/// a mistyped command (a vertex always has a digit).
const TURN_WORDS: [&str; 6] = ["pass", "setup", "choose", "x", "o", "swap"];

/// What one line typed at the prompt asks for.
enum Command {
    Move(String),
    Undo,
    Hint,
    Resign,
    /// Save to this file, or to a name made from the clock when empty.
    Save(String),
    Help,
    Quit,
    /// A word that is neither a command nor a move.
    Unknown(String),
}

fn parse(line: &str) -> Option<Command> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let word = word.to_ascii_lowercase();
    Some(match word.as_str() {
        "" => return None,
        "undo" => Command::Undo,
        "hint" => Command::Hint,
        "resign" => Command::Resign,
        "save" => Command::Save(rest.trim().to_string()),
        "help" | "?" => Command::Help,
        "quit" | "exit" => Command::Quit,
        _ if word.chars().all(char::is_alphabetic) && !TURN_WORDS.contains(&word.as_str()) => {
            Command::Unknown(word)
        }
        _ => Command::Move(line.to_string()),
    })
}

/// Asks a yes-or-no question; anything but `y` or `yes` (the end of the input too) is no.
fn confirm(question: &str, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<bool> {
    write!(out, "{question} [y/N] ")?;
    out.flush()?;
    let mut line = String::new();
    input.read_line(&mut line)?;
    Ok(matches!(line.trim().to_ascii_lowercase().as_str(), "y" | "yes"))
}

/// A game at the terminal: the position, who is human, the AI's budget.
pub struct Session {
    position: Position,
    seats: Seats,
    settings: Settings,
    /// The last single-board search's trees with the moves played when it ran, reused by the next
    /// search of the game.
    kept: Option<(usize, KeptAny)>,
}

impl Session {
    /// A new game.
    pub fn new(position: Position, seats: Seats, settings: Settings) -> Self {
        Session { position, seats, settings, kept: None }
    }

    fn to_move(&self) -> Color {
        match &self.position {
            Position::Single(s) => s.game.to_move(),
            Position::Galice(g) => g.game.to_move(),
            Position::Lifeline(g) => g.game.to_move(),
        }
    }

    fn is_over(&self) -> bool {
        is_over(&self.position)
    }

    /// Whether a person plays `color` now: the seat's colour, or the other one once a pie rule's
    /// move (Galice's choice of Black, Square Lifeline's swap) has handed the players each
    /// other's colours. Read from the moves, so that an undo gives the colours back.
    fn is_human(&self, color: Color) -> bool {
        let swapped = match &self.position {
            Position::Single(_) => false,
            Position::Galice(g) => g.actions.contains(&Action::Turn(GaliceTurn::Choose(Color::Black))),
            Position::Lifeline(g) => g.record.turns.contains(&LifelineTurn::Swap),
        };
        self.seats.is_human(if swapped { color.opponent() } else { color })
    }

    fn moves_played(&self) -> usize {
        match &self.position {
            Position::Single(s) => s.record.moves.len(),
            Position::Galice(g) => g.actions.len(),
            Position::Lifeline(g) => g.record.turns.len(),
        }
    }

    /// Plays until the game ends, a player resigns or quits, or the input ends.
    pub fn run(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{HELP}")?;
        if self.seats != Seats::Both {
            let seed = self.settings.seed;
            writeln!(out, "the AI's seed is {seed} (play this game again with --seed {seed})")?;
        }
        let mut redraw = true;
        loop {
            if std::mem::take(&mut redraw) {
                self.draw(out)?;
            }
            if self.is_over() {
                return self.report_end(out);
            }
            let color = self.to_move();
            if !self.is_human(color) {
                match self.think() {
                    Some((text, winrate, resign)) if resign => {
                        writeln!(
                            out,
                            "variago ({color}) resigns at {:.0}%: {text} was its best",
                            winrate * 100.0
                        )?;
                        return writeln!(out, "{}+R", color.opponent().letter());
                    }
                    Some((text, winrate, _)) => {
                        self.play_text(&text).expect("the search plays legal moves");
                        redraw = true;
                        writeln!(out, "variago ({color}) plays {text} (win rate {:.0}%)", winrate * 100.0)?;
                    }
                    None => return self.report_end(out),
                }
                continue;
            }
            write!(out, "{color}> ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                return writeln!(out, "\nend of input: the game is left unfinished");
            }
            match parse(&line) {
                None => {}
                Some(Command::Move(text)) => {
                    if self.ends_the_game(&text)
                        && !confirm(&format!("{text} ends the game. End it?"), input, out)?
                    {
                        writeln!(out, "not played: play on, or undo, save, hint")?;
                        continue;
                    }
                    match self.play_text(&text) {
                        Ok(()) => redraw = true,
                        Err(reason) => writeln!(out, "{text} is illegal: {reason}")?,
                    }
                }
                Some(Command::Unknown(word)) => writeln!(
                    out,
                    "unknown command '{word}' (a move is a vertex such as D4, or pass); {HELP}"
                )?,
                Some(Command::Undo) => {
                    self.undo(out)?;
                    redraw = true;
                }
                Some(Command::Hint) => match self.think() {
                    Some((text, winrate, _)) => {
                        self.draw_hint(&text, out)?;
                        writeln!(out, "hint: {text} (win rate {:.0}%)", winrate * 100.0)?
                    }
                    None => writeln!(out, "no hint: the game is over")?,
                },
                Some(Command::Resign) => {
                    if !confirm("Resign this game?", input, out)? {
                        writeln!(out, "not resigned: play on")?;
                        continue;
                    }
                    writeln!(out, "{color} resigns")?;
                    return writeln!(out, "{}+R", color.opponent().letter());
                }
                Some(Command::Save(path)) => {
                    let path = if path.is_empty() { self.default_file_name() } else { path };
                    match self.save(Path::new(&path)) {
                        Ok(()) => writeln!(out, "saved {path}")?,
                        Err(e) => writeln!(out, "could not save {path}: {e}")?,
                    }
                }
                Some(Command::Help) => writeln!(out, "{HELP}")?,
                Some(Command::Quit) => return writeln!(out, "the game is left unfinished"),
            }
        }
    }

    /// Whether a move typed as text is legal and ends the game (a pass after a pass; a Square
    /// Lifeline turn that ends the game wins it, and needs no confirmation).
    fn ends_the_game(&self, text: &str) -> bool {
        if let Position::Lifeline(_) = self.position {
            return false;
        }
        let mut trial = self.position.clone();
        play_on(&mut trial, text).is_ok() && is_over(&trial)
    }

    /// A file name for `save` without one: the game's kind and the time, in the current directory.
    fn default_file_name(&self) -> String {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let extension = match self.position {
            Position::Single(_) | Position::Lifeline(_) => "sgf",
            Position::Galice(_) => "txt",
        };
        format!("variago-{}.{extension}", now.as_secs())
    }

    /// Plays a move typed as text for the side to move.
    fn play_text(&mut self, text: &str) -> Result<(), String> {
        play_on(&mut self.position, text)
    }

    /// The AI's choice for the side to move: its text, win rate and whether it would resign.
    fn think(&mut self) -> Option<(String, f64, bool)> {
        let mut settings = self.settings.clone();
        settings.seed = settings.seed.wrapping_add(self.moves_played() as u64);
        let search = Search::new(settings);
        match &self.position {
            Position::Single(single) => {
                // the trees of the last search, if no move it knew of was taken back since
                let played = single.record.moves.len();
                let (kept, since) = match self.kept.take() {
                    Some((then, trees)) if then <= played => (Some(trees), &single.record.moves[then..]),
                    _ => (None, &single.record.moves[played..]),
                };
                let (analysis, trees) = search.analyse_any_reusing(&single.game, kept, since)?;
                self.kept = Some((played, trees));
                Some((single.name(analysis.best), analysis.winrate, analysis.resign))
            }
            Position::Galice(galice) => {
                let analysis = search.analyse(&galice.game)?;
                Some((analysis.best.to_string(), analysis.winrate, analysis.resign))
            }
            Position::Lifeline(g) => {
                let analysis = search.analyse(&g.game)?;
                Some((g.game.turn_text(analysis.best), analysis.winrate, analysis.resign))
            }
        }
    }

    /// Takes back the last move, and against the AI its answer too, so that the person moves again.
    fn undo(&mut self, out: &mut impl Write) -> io::Result<()> {
        let mut undone = 0;
        loop {
            let done = match &mut self.position {
                Position::Single(s) => s.undo(),
                Position::Galice(g) => g.undo(),
                Position::Lifeline(g) => g.undo(),
            };
            // a kept search may have run after the moves taken back
            self.kept = None;
            if !done {
                break;
            }
            undone += 1;
            if self.is_human(self.to_move()) {
                break;
            }
        }
        writeln!(out, "{undone} move(s) taken back")
    }

    /// The board with the hinted point marked `*` (a single board; Galice's and Square Lifeline's
    /// hint is its turn).
    fn draw_hint(&self, hint: &str, out: &mut impl Write) -> io::Result<()> {
        let Position::Single(single) = &self.position else { return Ok(()) };
        let board = single.game.board();
        let geometry = board.geometry();
        let Ok(Move::Place(p)) = move_from_text(geometry, hint) else { return Ok(()) };
        let (x, y) = geometry.coords(p);
        let (x, y) = (usize::from(x), usize::from(y));
        let mut lines: Vec<String> = board.diagram(None).lines().map(String::from).collect();
        // the diagram's rows follow a line of letters, and each point takes two characters after
        // the row's three-character number
        if let Some(line) = lines.get_mut(y + 1) {
            line.replace_range(3 + 2 * x + 1..3 + 2 * x + 2, "*");
        }
        writeln!(out, "{}", lines.join("\n"))
    }

    fn save(&self, path: &Path) -> io::Result<()> {
        std::fs::write(path, self.position.to_sgf())
    }

    /// The board with coordinates, the last move marked, and whose turn it is.
    fn draw(&self, out: &mut impl Write) -> io::Result<()> {
        match &self.position {
            Position::Single(single) => draw_single(single, out),
            Position::Galice(galice) => draw_galice(galice, out),
            Position::Lifeline(g) => draw_lifeline(g, out),
        }
    }

    fn report_end(&self, out: &mut impl Write) -> io::Result<()> {
        match &self.position {
            Position::Single(s) => report(&s.game, out),
            Position::Galice(g) => report(&g.game, out),
            Position::Lifeline(g) => report(&g.game, out),
        }
    }
}

/// Whether the game is over.
fn is_over(position: &Position) -> bool {
    match position {
        Position::Single(s) => s.game.is_over(),
        Position::Galice(g) => g.game.is_over(),
        Position::Lifeline(g) => g.game.is_over(),
    }
}

/// Plays a move typed as text for the side to move.
fn play_on(position: &mut Position, text: &str) -> Result<(), String> {
    match position {
        Position::Single(single) => {
            let mv = move_from_text(single.geometry(), text).map_err(|e| e.to_string())?;
            let color = single.game.to_move();
            single.play(color, mv).map_err(|e| e.to_string())
        }
        Position::Galice(galice) => {
            let action: Action = text.parse().map_err(|e: NotationError| e.to_string())?;
            galice.perform(action).map_err(|e| e.to_string())
        }
        Position::Lifeline(g) => {
            // a pair typed as two vertices, `C2 C4`, is `C2+C4`
            let text = text.split_whitespace().collect::<Vec<_>>().join("+");
            let turn = g.game.parse_turn(&text).map_err(|e| e.to_string())?;
            g.play(turn).map_err(|e| e.to_string())
        }
    }
}

fn report<G: Game>(game: &G, out: &mut impl Write) -> io::Result<()> {
    let score = game.score();
    write!(out, "{score}")?;
    writeln!(out, "{}", score.totals_line())?;
    let result: GameResult = game.outcome().unwrap_or_else(|| score.result());
    writeln!(out, "{result}")
}

fn draw_single(single: &Single, out: &mut impl Write) -> io::Result<()> {
    let game = &single.game;
    let board = game.board();
    let geometry = board.geometry();
    let last = single.record.moves.last().copied();
    let marked = match last {
        Some(Move::Place(p)) => Some(p),
        _ => None,
    };
    write!(out, "{}", board.diagram(marked))?;
    if let Some(mv) = last {
        writeln!(out, "last move: {}", move_text(geometry, mv))?;
    }
    if let AnyGame::Borderline(borderline) = game {
        let score = borderline.live_score();
        write!(out, "{score}")?;
        for c in [Color::Black, Color::White] {
            let passes = borderline.passes_left(c).map_or("any".to_string(), |n| n.to_string());
            writeln!(out, "{c}: {} stones left, passes left: {passes}", borderline.stones_left(c))?;
        }
    }
    if !game.is_over() {
        writeln!(out, "{} to move", game.to_move())?;
    }
    Ok(())
}

fn draw_galice(galice: &GaliceGame, out: &mut impl Write) -> io::Result<()> {
    write!(out, "{}", galice.game.diagram())?;
    if let Some(action) = galice.actions.last() {
        writeln!(out, "last turn: {action}")?;
    }
    if !galice.game.is_over() {
        writeln!(out, "{} to move", galice.game.to_move())?;
    }
    Ok(())
}

/// Square Lifeline's board (the last single stone marked), its last turn and who moves.
fn draw_lifeline(g: &LifelineGame, out: &mut impl Write) -> io::Result<()> {
    write!(out, "{}", g.game)?;
    if let Some(&turn) = g.record.turns.last() {
        writeln!(out, "last turn: {}", g.game.turn_text(turn))?;
    }
    Ok(())
}
