//! The Galice turn notation (shared/rules/galice.md), read and written.
//!
//! - A point: `c4` (left board), `C4` (right board); row 1 is the top row.
//! - A turn: `SWAP DROP`. `SWAP` is the source column in its own board's case, then the destination
//!   (the twin point): `bB2` moves the stone on b2 to B2, `Ff6` the one on F6 to f6. `DROP` is a point
//!   or `--`. White's drop-only first turn is `--- c3`; a pass `-----` (`pass` is read too).
//! - A capture mark `:` or `:N` after a point or a swap is read and ignored; it is never written.
//! - This engine's own forms for the pie setup: a setup stone `x a1` (black) or `o d4` (white); the
//!   whole setup turn `setup x a1 b2 C3 o d4 E5` (the stones in any order after their colour
//!   marker); the colour choice `choose black` or `choose white` (`b`, `w` are read too).
//!
//! Reading is tolerant: keywords in any case, several turns on a line or a turn over two lines,
//! commas and semicolons read as spaces, move numbers (`12.`, `12...`, `12)`, also glued to the turn
//! as in `12.bB2`) skipped.

use std::fmt;
use std::str::FromStr;

use super::{Action, SETUP_BLACK, SETUP_WHITE, Setup, Side, Spot, Turn};
use crate::Color;

/// Why a text is not a Galice turn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Not a point of either board.
    #[error("'{}' is not a point (a1..g7 on the left board, A1..G7 on the right)", crate::excerpt(.0))]
    BadPoint(String),
    /// A swap whose destination is not the source's twin.
    #[error("'{}' does not swap a stone to its twin point (bB2 moves b2 to B2, Ff6 moves F6 to f6)", crate::excerpt(.0))]
    NotTwin(String),
    /// A swap at the end of the text, without its drop part.
    #[error("the swap '{}' needs a drop point or '--' after it", crate::excerpt(.0))]
    MissingDrop(String),
    /// `---`, `x`, `o` or `choose` at the end of the text.
    #[error("'{}' needs something after it", crate::excerpt(.0))]
    Missing(String),
    /// A setup turn that does not place three black and two white stones.
    #[error("'{}' is not a setup (write setup x a1 b2 C3 o d4 E5: three black stones, then two white)", crate::excerpt(.0))]
    BadSetup(String),
    /// A colour choice that names no colour.
    #[error("'{}' is not a colour to choose (black or white)", crate::excerpt(.0))]
    BadColour(String),
    /// Text that starts no turn.
    #[error(
        "'{}' is not a turn (write bB2 D4, Ff6 --, --- c3, ----- or pass; setup x a1 b2 C3 o d4 E5, x a1, choose black)",
        crate::excerpt(.0)
    )]
    NotATurn(String),
    /// Text read as one move that holds none, several, or a whole setup.
    #[error("'{}' is not exactly one move", crate::excerpt(.0))]
    NotOneMove(String),
}

/// One action as read from a text: the line of its first word, its words as written, the action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Written {
    pub(super) line: usize,
    pub(super) text: String,
    pub(super) action: Action,
}

/// A word of the text with its line number.
#[derive(Clone, Copy, Debug)]
struct Word<'a> {
    line: usize,
    text: &'a str,
}

/// The words of numbered lines: separators and move numbers dropped.
fn words<'a>(lines: &[(usize, &'a str)]) -> Vec<Word<'a>> {
    let mut out = Vec::new();
    for &(line, text) in lines {
        for raw in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
            let word = skip_move_number(raw);
            if !word.is_empty() {
                out.push(Word { line, text: word });
            }
        }
    }
    out
}

/// `12.bB2` -> `bB2`, `12.` -> ``; anything else unchanged.
fn skip_move_number(word: &str) -> &str {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    let marks = rest.len() - rest.trim_start_matches(['.', ')']).len();
    if digits > 0 && marks > 0 { &rest[marks..] } else { word }
}

/// The word without a trailing capture mark (`:` or `:N`).
fn strip_mark(word: &str) -> &str {
    match word.split_once(':') {
        Some((head, tail)) if tail.chars().all(|c| c.is_ascii_digit()) => head,
        _ => word,
    }
}

/// The board and column of a column letter: lowercase the left board, uppercase the right.
fn column(letter: char) -> Option<(Side, u8)> {
    match letter {
        'a'..='g' => Some((Side::Left, letter as u8 - b'a')),
        'A'..='G' => Some((Side::Right, letter as u8 - b'A')),
        _ => None,
    }
}

impl FromStr for Spot {
    type Err = NotationError;

    /// `c4` or `C4`, a capture mark allowed.
    fn from_str(text: &str) -> Result<Self, NotationError> {
        let bad = || NotationError::BadPoint(text.to_string());
        let mut chars = strip_mark(text.trim()).chars();
        let (side, x) = chars.next().and_then(column).ok_or_else(bad)?;
        let row = match (chars.next(), chars.next()) {
            (Some(digit @ '1'..='7'), None) => digit as u8 - b'0',
            _ => return Err(bad()),
        };
        Spot::new(side, x, row).ok_or_else(bad)
    }
}

/// Reads a swap word such as `bB2` (`None` if the word does not look like a swap at all).
fn parse_swap(word: &str) -> Option<Result<Spot, NotationError>> {
    let text = strip_mark(word);
    let mut chars = text.chars();
    let (side, x) = column(chars.next()?)?;
    let destination: Spot = chars.as_str().parse().ok()?;
    let twin = Spot::new(side, x, destination.row()).map(Spot::twin);
    Some(if twin == Some(destination) {
        Ok(destination.twin())
    } else {
        Err(NotationError::NotTwin(word.into()))
    })
}

/// Reads actions from words; on an error, the line it is on.
fn read_words(words: &[Word<'_>]) -> Result<Vec<Written>, (usize, NotationError)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let start = i;
        let first = words[i];
        let fail = |e: NotationError| (first.line, e);
        let next = |i: &mut usize| {
            *i += 1;
            words.get(*i).map(|w| w.text)
        };
        let lower = first.text.to_ascii_lowercase();
        let action = match lower.as_str() {
            "pass" | "-----" => Action::Turn(Turn::Pass),
            "---" => {
                let point = next(&mut i).ok_or_else(|| fail(NotationError::Missing(first.text.into())))?;
                Action::Turn(Turn::Drop(point.parse().map_err(fail)?))
            }
            "x" | "o" => {
                let color = if lower == "x" { Color::Black } else { Color::White };
                let point = next(&mut i).ok_or_else(|| fail(NotationError::Missing(first.text.into())))?;
                Action::Turn(Turn::SetupStone { color, at: point.parse().map_err(fail)? })
            }
            "choose" => {
                let word = next(&mut i).ok_or_else(|| fail(NotationError::Missing(first.text.into())))?;
                let color = match word.to_ascii_lowercase().as_str() {
                    "black" | "b" => Color::Black,
                    "white" | "w" => Color::White,
                    _ => return Err(fail(NotationError::BadColour(word.into()))),
                };
                Action::Turn(Turn::Choose(color))
            }
            "setup" => Action::Setup(read_setup(words, &mut i).map_err(fail)?),
            _ => {
                let from = match parse_swap(first.text) {
                    Some(from) => from.map_err(fail)?,
                    None => return Err(fail(NotationError::NotATurn(first.text.into()))),
                };
                let drop = next(&mut i).ok_or_else(|| fail(NotationError::MissingDrop(first.text.into())))?;
                let drop = if drop == "--" { None } else { Some(drop.parse().map_err(fail)?) };
                Action::Turn(Turn::Swap { from, drop })
            }
        };
        i += 1;
        let text = words[start..i].iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
        out.push(Written { line: first.line, text, action });
    }
    Ok(out)
}

/// Reads the stones of a setup turn; `i` is on the word `setup` and ends on the setup's last word.
fn read_setup(words: &[Word<'_>], i: &mut usize) -> Result<Setup, NotationError> {
    let start = *i;
    let (mut black, mut white) = (Vec::new(), Vec::new());
    let mut color = None;
    let bad = |end: usize| {
        let text = words[start..end.min(words.len())].iter().map(|w| w.text).collect::<Vec<_>>();
        NotationError::BadSetup(text.join(" "))
    };
    while black.len() + white.len() < SETUP_BLACK + SETUP_WHITE {
        *i += 1;
        let word = words.get(*i).ok_or_else(|| bad(*i))?.text;
        match word.to_ascii_lowercase().as_str() {
            "x" => color = Some(Color::Black),
            "o" => color = Some(Color::White),
            _ => {
                let spot: Spot = word.parse().map_err(|_| bad(*i + 1))?;
                match color {
                    Some(Color::Black) => black.push(spot),
                    Some(Color::White) => white.push(spot),
                    None => return Err(bad(*i + 1)),
                }
            }
        }
    }
    match (<[Spot; SETUP_BLACK]>::try_from(black), <[Spot; SETUP_WHITE]>::try_from(white)) {
        (Ok(black), Ok(white)) => Ok(Setup::new(black, white)),
        _ => Err(bad(*i + 1)),
    }
}

/// Reads actions from numbered lines (for records); on an error, its line.
pub(super) fn read_lines(lines: &[(usize, &str)]) -> Result<Vec<Written>, (usize, NotationError)> {
    read_words(&words(lines))
}

/// Reads every action of a text (turns, setup stones, a whole setup, colour choices), tolerantly:
/// several on a line, move numbers skipped, capture marks ignored.
pub fn parse_actions(text: &str) -> Result<Vec<Action>, NotationError> {
    let lines: Vec<(usize, &str)> = text.lines().enumerate().collect();
    let written = read_lines(&lines).map_err(|(_, e)| e)?;
    Ok(written.into_iter().map(|w| w.action).collect())
}

impl FromStr for Action {
    type Err = NotationError;

    /// Exactly one action.
    fn from_str(text: &str) -> Result<Self, NotationError> {
        match parse_actions(text)?.as_slice() {
            [action] => Ok(*action),
            _ => Err(NotationError::NotOneMove(text.trim().to_string())),
        }
    }
}

impl FromStr for Turn {
    type Err = NotationError;

    /// Exactly one move (a whole setup is five moves: read it as a [`Setup`]).
    fn from_str(text: &str) -> Result<Self, NotationError> {
        match text.parse()? {
            Action::Turn(turn) => Ok(turn),
            Action::Setup(_) => Err(NotationError::NotOneMove(text.trim().to_string())),
        }
    }
}

impl FromStr for Setup {
    type Err = NotationError;

    /// `setup x a1 b2 C3 o d4 E5`.
    fn from_str(text: &str) -> Result<Self, NotationError> {
        match text.parse()? {
            Action::Setup(setup) => Ok(setup),
            Action::Turn(_) => Err(NotationError::BadSetup(text.trim().to_string())),
        }
    }
}

/// `x` for Black, `o` for White, as diagrams and setup stones write them.
pub(super) fn stone_letter(color: Color) -> char {
    match color {
        Color::Black => 'x',
        Color::White => 'o',
    }
}

impl fmt::Display for Turn {
    /// The notation of the rules file: `bB2 D4`, `Ff6 --`, `--- c3`, `-----`; `x a1`, `choose black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Turn::Pass => f.write_str("-----"),
            Turn::Swap { from, drop } => {
                let letter = from.to_string().chars().next().unwrap_or('?');
                write!(f, "{letter}{} ", from.twin())?;
                match drop {
                    Some(d) => write!(f, "{d}"),
                    None => f.write_str("--"),
                }
            }
            Turn::Drop(d) => write!(f, "--- {d}"),
            Turn::SetupStone { color, at } => write!(f, "{} {at}", stone_letter(color)),
            Turn::Choose(color) => write!(f, "choose {}", color.to_string().to_ascii_lowercase()),
        }
    }
}

impl fmt::Display for Setup {
    /// `setup x a1 b2 C3 o d4 E5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [b1, b2, b3] = self.black;
        let [w1, w2] = self.white;
        write!(f, "setup x {b1} {b2} {b3} o {w1} {w2}")
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Setup(setup) => setup.fmt(f),
            Action::Turn(turn) => turn.fmt(f),
        }
    }
}
