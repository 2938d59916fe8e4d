//! `variago play`: a game in the terminal against the AI, or between two people at one keyboard.
//! The board is drawn after every move with coordinates and the last move marked; moves are GTP
//! vertices (Galice turns in its notation); an illegal move shows its reason and asks again.

use std::io::{self, BufRead, Write};
use std::path::Path;

use variago_gtp::position::{GaliceGame, Position, Single};
use variago_records::sgf::{move_from_text, move_text};
use variago_rules::galice::{Action, Galice, NotationError};
use variago_rules::{AnyGame, Color, Game, GameResult, Move, ScoreSheet};
use variago_search::{KeptAny, Search, Settings};

use crate::Failure;
use crate::genmove::Budget;

/// `variago play`'s flags.
#[derive(clap::Args)]
pub struct Options {
    /// Variant spec (e.g. `go:komi=6.5`, `borderline`), or `galice`.
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
    // the AI gives up only a clearly lost game, after enough playouts to be sure
    settings.resign_below = Some(0.05);
    let position = if crate::is_galice(&options.variant) {
        Position::Galice(GaliceGame::new(Galice::new()))
    } else {
        let (spec, geometry) = crate::spec_and_size(&options.variant, options.size.as_deref())?;
        Position::Single(Single::new(spec, geometry))
    };
    let mut session = Session::new(position, options.color, settings);
    session
        .run(&mut io::stdin().lock(), &mut io::stdout().lock())
        .map_err(|e| Failure::input(format!("terminal: {e}")))
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

const HELP: &str = "commands: a move (D4, pass; in Galice its notation, e.g. `bB2 D4`), undo, hint, \
                    resign, save FILE.sgf, help, quit";

/// What one line typed at the prompt asks for.
enum Command {
    Move(String),
    Undo,
    Hint,
    Resign,
    Save(String),
    Help,
    Quit,
}

fn parse(line: &str) -> Option<Command> {
    let line = line.trim();
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    Some(match word.to_ascii_lowercase().as_str() {
        "" => return None,
        "undo" => Command::Undo,
        "hint" => Command::Hint,
        "resign" => Command::Resign,
        "save" => Command::Save(rest.trim().to_string()),
        "help" | "?" => Command::Help,
        "quit" | "exit" => Command::Quit,
        _ => Command::Move(line.to_string()),
    })
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
        }
    }

    fn is_over(&self) -> bool {
        match &self.position {
            Position::Single(s) => s.game.is_over(),
            Position::Galice(g) => g.game.is_over(),
        }
    }

    fn moves_played(&self) -> usize {
        match &self.position {
            Position::Single(s) => s.record.moves.len(),
            Position::Galice(g) => g.actions.len(),
        }
    }

    /// Plays until the game ends, a player resigns or quits, or the input ends.
    pub fn run(&mut self, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{HELP}")?;
        let mut redraw = true;
        loop {
            if std::mem::take(&mut redraw) {
                self.draw(out)?;
            }
            if self.is_over() {
                return self.report_end(out);
            }
            let color = self.to_move();
            if !self.seats.is_human(color) {
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
                Some(Command::Move(text)) => match self.play_text(&text) {
                    Ok(()) => redraw = true,
                    Err(reason) => writeln!(out, "{text} is illegal: {reason}")?,
                },
                Some(Command::Undo) => {
                    self.undo(out)?;
                    redraw = true;
                }
                Some(Command::Hint) => match self.think() {
                    Some((text, winrate, _)) => {
                        writeln!(out, "hint: {text} (win rate {:.0}%)", winrate * 100.0)?
                    }
                    None => writeln!(out, "no hint: the game is over")?,
                },
                Some(Command::Resign) => {
                    writeln!(out, "{color} resigns")?;
                    return writeln!(out, "{}+R", color.opponent().letter());
                }
                Some(Command::Save(path)) => match self.save(Path::new(&path)) {
                    Ok(()) => writeln!(out, "saved {path}")?,
                    Err(e) => writeln!(out, "could not save: {e}")?,
                },
                Some(Command::Help) => writeln!(out, "{HELP}")?,
                Some(Command::Quit) => return writeln!(out, "the game is left unfinished"),
            }
        }
    }

    /// Plays a move typed as text for the side to move.
    fn play_text(&mut self, text: &str) -> Result<(), String> {
        match &mut self.position {
            Position::Single(single) => {
                let mv = move_from_text(single.geometry(), text).map_err(|e| e.to_string())?;
                let color = single.game.to_move();
                single.play(color, mv).map_err(|e| e.to_string())
            }
            Position::Galice(galice) => {
                let action: Action = text.parse().map_err(|e: NotationError| e.to_string())?;
                galice.perform(action).map_err(|e| e.to_string())
            }
        }
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
        }
    }

    /// Takes back the last move, and against the AI its answer too, so that the person moves again.
    fn undo(&mut self, out: &mut impl Write) -> io::Result<()> {
        let mut undone = 0;
        loop {
            let done = match &mut self.position {
                Position::Single(s) => s.undo(),
                Position::Galice(g) => g.undo(),
            };
            // a kept search may have run after the moves taken back
            self.kept = None;
            if !done {
                break;
            }
            undone += 1;
            if self.seats.is_human(self.to_move()) {
                break;
            }
        }
        writeln!(out, "{undone} move(s) taken back")
    }

    fn save(&self, path: &Path) -> io::Result<()> {
        std::fs::write(path, self.position.to_sgf())
    }

    /// The board with coordinates, the last move marked, and whose turn it is.
    fn draw(&self, out: &mut impl Write) -> io::Result<()> {
        match &self.position {
            Position::Single(single) => draw_single(single, out),
            Position::Galice(galice) => draw_galice(galice, out),
        }
    }

    fn report_end(&self, out: &mut impl Write) -> io::Result<()> {
        match &self.position {
            Position::Single(s) => report(&s.game, out),
            Position::Galice(g) => report(&g.game, out),
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
