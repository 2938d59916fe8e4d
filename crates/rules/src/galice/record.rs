//! Galice text records: an optional starting diagram with its who-moves line (without one the game
//! starts from the empty boards, setup to make, and the record begins with the setup turn), then the
//! turns in the notation, numbered in order from 1 so that a refusal can name the turn.
//!
//! ```text
//! 1. setup x a1 b2 C3 o d4 E5
//! 2. choose white
//! 3. --- c3
//! 4. bB2 D4   5. Ff6 --
//! ```
//!
//! Move numbers in the text are skipped: the entries are numbered by their order.

use std::fmt;

use super::diagram::{self, DiagramError};
use super::notation::{self, NotationError};
use super::{Action, Galice};
use crate::Illegal;

/// One entry of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its number: 1 for the first entry after the starting position.
    pub number: usize,
    /// The line of the text it starts on (1 = first).
    pub line: usize,
    /// Its words as written (move numbers left out), for messages.
    pub text: String,
    /// What it does.
    pub action: Action,
}

/// A Galice game as a text holds it: where it starts and what was played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The starting position: a diagram's, or the empty boards with the setup to make.
    pub start: Galice,
    /// The entries, in order.
    pub entries: Vec<Entry>,
}

/// Why a text is not a Galice record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The starting diagram is wrong.
    #[error(transparent)]
    Diagram(#[from] DiagramError),
    /// A turn is not in the notation.
    #[error("line {line}: {source}")]
    Notation {
        /// Line number in the text.
        line: usize,
        /// What is wrong with the turn.
        source: NotationError,
    },
}

/// A record's entry that the rules refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("turn {number} `{}`: {reason}", crate::excerpt(.text))]
pub struct ReplayError {
    /// The entry's number.
    pub number: usize,
    /// The entry as written.
    pub text: String,
    /// Why it is illegal.
    pub reason: Illegal,
}

impl Record {
    /// Reads a record: an optional diagram with its who-moves line, then entries. Checks the
    /// notation only; [`Record::replay`] checks the rules.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let lines = diagram::content_lines(text);
        let starts_with_diagram = lines.first().is_some_and(|(_, line)| diagram::parse_row(line).is_some());
        let (start, used) =
            if starts_with_diagram { diagram::read_lines(&lines)? } else { (Galice::new(), 0) };
        let written = notation::read_lines(&lines[used..])
            .map_err(|(line, source)| RecordError::Notation { line, source })?;
        let entries = written
            .into_iter()
            .enumerate()
            .map(|(i, w)| Entry { number: i + 1, line: w.line, text: w.text, action: w.action })
            .collect();
        Ok(Record { start, entries })
    }

    /// A record of `actions` played from `start`, numbered, with the lines and texts its
    /// [`Display`](fmt::Display) writes (so that reading the written record gives it back).
    pub fn new(start: Galice, actions: &[Action]) -> Record {
        let first_line = if start == Galice::new() { 1 } else { super::SIZE as usize + 2 };
        let entries = actions
            .iter()
            .enumerate()
            .map(|(i, &action)| Entry {
                number: i + 1,
                line: first_line + i,
                text: action.to_string(),
                action,
            })
            .collect();
        Record { start, entries }
    }

    /// Plays the entries from the start; the final position, or the first refused entry.
    pub fn replay(&self) -> Result<Galice, ReplayError> {
        let mut game = self.start.clone();
        for entry in &self.entries {
            game.perform(&entry.action).map_err(|reason| ReplayError {
                number: entry.number,
                text: entry.text.clone(),
                reason,
            })?;
        }
        Ok(game)
    }
}

impl fmt::Display for Record {
    /// The diagram (left out for a game from the empty boards with the setup to make), then one
    /// numbered entry a line: `4. bB2 D4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start != Galice::new() {
            f.write_str(&self.start.diagram())?;
        }
        for entry in &self.entries {
            writeln!(f, "{}. {}", entry.number, entry.action)?;
        }
        Ok(())
    }
}
