//! The Galice position diagram: seven lines, row 1 first, the left board, the row number, the right
//! board (`x` black, `o` white, `.` empty), then a line saying who moves:
//!
//! ```text
//! . x o o . . .   1   . . . . . . .
//! ...
//! Black to move
//! ```
//!
//! Who-moves lines: `Black to move`, `White to move`, `White to move (first turn: drop only)` (the
//! rules file's), and this engine's `Setup to make` (a pie setup in progress; the stones on the
//! boards are the setup stones placed so far) and `Colour to choose` (the setup is made). Reading is
//! tolerant of spacing (`.xoo...1.......` is a row), case, `+` for an empty point and a final period;
//! blank lines and `#` comments are skipped. A diagram carries no history (no ko, no swap-back
//! restriction, no passes).

use super::notation::stone_letter;
use super::{Galice, SIZE, Side, Spot, Stage};
use crate::Color;

/// Why a text is not a Galice diagram.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiagramError {
    /// A line that is not a row of the two boards.
    #[error("line {line}: '{}' is not a diagram row (write `. x o o . . .   1   . . . . . . .`)", crate::excerpt(.text))]
    BadRow {
        /// Line number in the text, 1 = first.
        line: usize,
        /// The line.
        text: String,
    },
    /// Rows out of order.
    #[error("line {line}: row {found} where row {expected} was expected (rows go from 1 to 7)")]
    RowOrder {
        /// Line number in the text.
        line: usize,
        /// The row that should come.
        expected: u8,
        /// The row written.
        found: u8,
    },
    /// The text ends before the seventh row.
    #[error("the diagram has {found} rows; it needs 7")]
    TooFewRows {
        /// Rows read.
        found: usize,
    },
    /// A line after the rows that does not say who moves.
    #[error(
        "line {line}: '{}' does not say who moves (Black to move, White to move, White to move (first turn: drop only), Setup to make, Colour to choose)",
        crate::excerpt(.text)
    )]
    BadWhoMoves {
        /// Line number in the text.
        line: usize,
        /// The line.
        text: String,
    },
    /// The text ends after the rows.
    #[error("the diagram needs a line saying who moves after its rows")]
    MissingWhoMoves,
    /// Text after the who-moves line where only a diagram is read.
    #[error("line {line}: '{}' follows the diagram", crate::excerpt(.text))]
    TrailingText {
        /// Line number in the text.
        line: usize,
        /// The line.
        text: String,
    },
    /// A group without liberties: no position of the game has one.
    #[error("the group on {0} has no liberties")]
    NoLiberties(Spot),
    /// A point set twice when setting up a position.
    #[error("point {0} is given twice")]
    Twice(Spot),
    /// A setup in progress that the setup could not have made.
    #[error(
        "a setup in progress has at most three black stones, then at most two white ones (found {black} black, {white} white)"
    )]
    NotASetup {
        /// Black stones on the boards.
        black: usize,
        /// White stones on the boards.
        white: usize,
    },
}

/// The lines of a text with their numbers (1 = first), `#` comments cut, blank lines skipped.
pub(super) fn content_lines(text: &str) -> Vec<(usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.split_once('#').map_or(line, |(head, _)| head).trim()))
        .filter(|(_, line)| !line.is_empty())
        .collect()
}

/// A row's number and its points, left board then right board, if the line is a diagram row.
pub(super) fn parse_row(line: &str) -> Option<(u8, [Option<Color>; 14])> {
    let chars: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    let size = SIZE as usize;
    if chars.len() != 2 * size + 1 {
        return None;
    }
    let row = chars[size].to_digit(10).filter(|r| (1..=SIZE as u32).contains(r))? as u8;
    let mut points = [None; 14];
    for (i, &c) in chars[..size].iter().chain(&chars[size + 1..]).enumerate() {
        points[i] = match c {
            '.' | '+' => None,
            'x' | 'X' => Some(Color::Black),
            'o' | 'O' => Some(Color::White),
            _ => return None,
        };
    }
    Some((row, points))
}

/// The stage a who-moves line names.
fn parse_who(line: &str) -> Option<Stage> {
    let text = line.trim().trim_end_matches('.').to_ascii_lowercase();
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.join(" ").as_str() {
        "black to move" => Some(Stage::Play(Color::Black)),
        "white to move" => Some(Stage::Play(Color::White)),
        "white to move (first turn: drop only)" => Some(Stage::FirstDrop),
        "setup to make" => Some(Stage::Setup),
        "colour to choose" | "color to choose" => Some(Stage::Choice),
        _ => None,
    }
}

/// The who-moves line of a stage.
pub fn who_moves(stage: Stage) -> &'static str {
    match stage {
        Stage::Setup => "Setup to make",
        Stage::Choice => "Colour to choose",
        Stage::FirstDrop => "White to move (first turn: drop only)",
        Stage::Play(Color::Black) => "Black to move",
        Stage::Play(Color::White) => "White to move",
    }
}

/// Reads the seven rows and the who-moves line from the front of `lines` (content lines), and
/// returns the position and how many lines it took.
pub(super) fn read_lines(lines: &[(usize, &str)]) -> Result<(Galice, usize), DiagramError> {
    let stones = read_rows(lines)?;
    let &(line, text) = lines.get(SIZE as usize).ok_or(DiagramError::MissingWhoMoves)?;
    let stage = parse_who(text).ok_or_else(|| DiagramError::BadWhoMoves { line, text: text.to_string() })?;
    Ok((Galice::set_up(&stones, stage)?, SIZE as usize + 1))
}

/// The stones of the seven rows at the front of `lines` (content lines).
fn read_rows(lines: &[(usize, &str)]) -> Result<Vec<(Spot, Color)>, DiagramError> {
    let mut stones = Vec::new();
    for expected in 1..=SIZE {
        let Some(&(line, text)) = lines.get(expected as usize - 1) else {
            return Err(DiagramError::TooFewRows { found: expected as usize - 1 });
        };
        let Some((row, points)) = parse_row(text) else {
            return Err(DiagramError::BadRow { line, text: text.to_string() });
        };
        if row != expected {
            return Err(DiagramError::RowOrder { line, expected, found: row });
        }
        for (i, color) in points.iter().enumerate() {
            let side = if i < SIZE as usize { Side::Left } else { Side::Right };
            let spot = Spot::new(side, i as u8 % SIZE, row).expect("a point of the row");
            if let Some(color) = color {
                stones.push((spot, *color));
            }
        }
    }
    Ok(stones)
}

/// Reads a text that is exactly the seven rows, with no who-moves line, Black set to move.
pub(super) fn read_bare(text: &str) -> Result<Galice, DiagramError> {
    let lines = content_lines(text);
    let stones = read_rows(&lines)?;
    match lines.get(SIZE as usize) {
        Some(&(line, text)) => Err(DiagramError::TrailingText { line, text: text.to_string() }),
        None => Galice::set_up(&stones, Stage::Play(Color::Black)),
    }
}

/// Reads a text that is exactly a diagram and its who-moves line.
pub(super) fn read(text: &str) -> Result<Galice, DiagramError> {
    let lines = content_lines(text);
    let (game, used) = read_lines(&lines)?;
    match lines.get(used) {
        Some(&(line, text)) => Err(DiagramError::TrailingText { line, text: text.to_string() }),
        None => Ok(game),
    }
}

/// Writes the diagram and the who-moves line, each line ending with a newline.
pub(super) fn write(game: &Galice) -> String {
    let mut out = String::new();
    let symbol = |spot: Spot| game.stone(spot).map_or('.', stone_letter);
    for row in 1..=SIZE {
        let board = |side| {
            let points = (0..SIZE).filter_map(|x| Spot::new(side, x, row)).map(symbol);
            points.map(String::from).collect::<Vec<_>>().join(" ")
        };
        out.push_str(&format!("{}   {row}   {}\n", board(Side::Left), board(Side::Right)));
    }
    out.push_str(who_moves(game.stage()));
    out.push('\n');
    out
}
