//! Go's known forced cycles, replayed under each variant: the mechanical check of the Incursion Go
//! designer's claim that they all become impossible.
//!
//! Each entry of the gallery is a data file in `crates/lab/known-cycles/` (built into the
//! program): a position and the moves of its cycle. The format, line by line:
//!
//! - `# ...`: a comment (the entry's description: the shape's usual description and why this
//!   position is one); blank lines are ignored;
//! - `name: TEXT`, `to play: black|white` and `cycle: MOVES` (GTP vertices or `pass`,
//!   space-separated, the side to play first): once each;
//! - the board as a diagram, top row first, each row starting with its row number (`X` black
//!   stone, `O` white stone, `K`/`k` black/white king, `.` empty; a row number after the row is
//!   allowed), between lines of column letters (ignored).
//!
//! [`KnownCycle::replay`] plays the cycle twice from the position: the position is a setup with
//! no past, so the first turn may leave the rule memory (a ko ban, an incursion just made)
//! other than at the start; the entry cycles when every move is legal and the state (lab.md:
//! board, side to move, passes in a row, rule memory) after the second turn is the one after
//! the first.

use std::fmt;

use variago_rules::{AnyGame, Board, Color, Game, Geometry, Illegal, Move, VariantSpec};

use crate::state::State;

/// The gallery's data files, in the order the gallery lists them.
const FILES: [(&str, &str); 5] = [
    ("triple-ko.txt", include_str!("../known-cycles/triple-ko.txt")),
    ("eternal-life.txt", include_str!("../known-cycles/eternal-life.txt")),
    ("moonshine-life.txt", include_str!("../known-cycles/moonshine-life.txt")),
    ("round-robin-ko.txt", include_str!("../known-cycles/round-robin-ko.txt")),
    ("sending-two-returning-one.txt", include_str!("../known-cycles/sending-two-returning-one.txt")),
];

/// A position and the moves of its cycle.
#[derive(Clone, Debug)]
pub struct KnownCycle {
    /// The entry's name (`triple ko`).
    pub name: String,
    /// The description: the data file's comment lines.
    pub description: String,
    /// The position.
    pub board: Board,
    /// Who plays the cycle's first move.
    pub to_play: Color,
    /// The moves of one turn of the cycle.
    pub moves: Vec<Move>,
}

/// Why a data file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {message}")]
pub struct KnownCycleError {
    /// The file (its name or path).
    pub file: String,
    /// What is wrong, with the line when there is one.
    pub message: String,
}

/// What replaying an entry's cycle under a variant shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every move legal, and the state after two turns is the one after one turn.
    Cycles,
    /// A move the variant refuses: its number (from 1, counted over both turns) and the engine's
    /// reason.
    Broken {
        /// The move's number, from 1, counted over both turns.
        number: usize,
        /// The engine's reason.
        reason: Illegal,
    },
    /// Every move legal, but the state does not come back: what differs after the second turn
    /// from the first.
    NotBack(Vec<String>),
}

impl Verdict {
    /// Whether the cycle survives.
    pub fn cycles(&self) -> bool {
        *self == Verdict::Cycles
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Cycles => f.write_str("cycles"),
            Verdict::Broken { number, reason, .. } => write!(f, "broken at move {number}: {reason}"),
            Verdict::NotBack(differences) => write!(
                f,
                "no cycle: every move is legal, but the state does not come back ({} differs after the second turn from the first)",
                differences.join(", ")
            ),
        }
    }
}

impl KnownCycle {
    /// Reads a data file (format in the module's documentation); `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<KnownCycle, KnownCycleError> {
        let error = |line: Option<usize>, message: String| KnownCycleError {
            file: file.to_string(),
            message: match line {
                Some(n) => format!("line {n}: {message}"),
                None => message,
            },
        };
        let mut description = Vec::new();
        let (mut name, mut to_play, mut cycle) = (None, None, None);
        let mut rows: Vec<(usize, u32, &str)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let number = i + 1;
            let line = raw.trim();
            if let Some(comment) = line.strip_prefix('#') {
                description.push(comment.strip_prefix(' ').unwrap_or(comment).trim_end());
                continue;
            }
            if line.is_empty() || line.chars().all(|c| c.is_ascii_uppercase() || c == ' ') {
                continue;
            }
            let digits = line.find(|c: char| !c.is_ascii_digit()).unwrap_or(line.len());
            if digits > 0 {
                let row = line[..digits].parse().map_err(|_| error(Some(number), "bad row number".into()))?;
                rows.push((number, row, &line[digits..]));
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(error(
                    Some(number),
                    format!("expected `key: value`, a comment or a board row, found '{line}'"),
                ));
            };
            let slot = match key.trim() {
                "name" => &mut name,
                "to play" => &mut to_play,
                "cycle" => &mut cycle,
                other => {
                    return Err(error(Some(number), format!("unknown key '{other}' (name, to play, cycle)")));
                }
            };
            if slot.replace((number, value.trim())).is_some() {
                return Err(error(Some(number), format!("'{}' given twice", key.trim())));
            }
        }
        let missing = |key: &str| error(None, format!("no '{key}:' line"));
        let (_, name) = name.ok_or_else(|| missing("name"))?;
        let (to_play_line, to_play) = to_play.ok_or_else(|| missing("to play"))?;
        let (cycle_line, cycle) = cycle.ok_or_else(|| missing("cycle"))?;
        let to_play = match to_play.to_ascii_lowercase().as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            other => {
                return Err(error(Some(to_play_line), format!("'to play' is black or white, not '{other}'")));
            }
        };
        if rows.is_empty() {
            return Err(error(None, "no board".into()));
        }
        for (k, &(line, row, _)) in rows.iter().enumerate() {
            if row as usize != rows.len() - k {
                return Err(error(
                    Some(line),
                    format!(
                        "row {row} where row {} was expected (rows run from the top down to 1)",
                        rows.len() - k
                    ),
                ));
            }
        }
        let diagram: Vec<&str> = rows.iter().map(|&(_, _, cells)| cells).collect();
        let board = Board::from_diagram(&diagram).map_err(|e| error(None, e.to_string()))?;
        let geometry = board.geometry();
        if let Some(p) = geometry.points().find(|&p| board.piece(p).is_some() && board.liberties(p) == 0) {
            return Err(error(None, format!("the group on {} has no liberty", geometry.vertex(p))));
        }
        let moves = cycle
            .split_whitespace()
            .map(|text| match text.to_ascii_lowercase().as_str() {
                "pass" => Ok(Move::Pass),
                _ => geometry.parse_vertex(text).map(Move::Place),
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| error(Some(cycle_line), e.to_string()))?;
        if moves.is_empty() {
            return Err(error(Some(cycle_line), "the cycle has no moves".into()));
        }
        let description = description.join("\n").trim().to_string();
        Ok(KnownCycle { name: name.to_string(), description, board, to_play, moves })
    }

    /// The board's size.
    pub fn geometry(&self) -> Geometry {
        self.board.geometry()
    }

    /// A move as GTP writes it.
    pub fn move_text(&self, mv: Move) -> String {
        crate::move_text(self.geometry(), mv)
    }

    /// The position under a variant the lab searches (see [`crate::searchable_variant`]).
    pub fn position(&self, spec: &VariantSpec) -> AnyGame {
        AnyGame::from_setup(spec, self.board.clone(), self.to_play)
    }

    /// Plays the cycle twice from the position under a variant the lab searches (see
    /// [`crate::searchable_variant`]).
    pub fn replay(&self, spec: &VariantSpec) -> Verdict {
        let mut game = self.position(spec);
        let mut after_turn = Vec::with_capacity(2);
        for turn in 0..2 {
            for (i, &mv) in self.moves.iter().enumerate() {
                if let Err(reason) = game.play(mv) {
                    return Verdict::Broken { number: turn * self.moves.len() + i + 1, reason };
                }
            }
            after_turn.push(State::of(&game));
        }
        let (first, second) = (&after_turn[0], &after_turn[1]);
        if first == second {
            return Verdict::Cycles;
        }
        let mut differences = Vec::new();
        let points: Vec<String> = self
            .geometry()
            .points()
            .zip(first.board.iter().zip(&second.board))
            .filter(|(_, (a, b))| a != b)
            .map(|(p, _)| self.geometry().vertex(p).to_string())
            .collect();
        if !points.is_empty() {
            differences.push(format!("the board at {}", points.join(" ")));
        }
        if first.to_move != second.to_move {
            differences.push("the side to move".to_string());
        }
        if first.passes != second.passes {
            differences.push("the passes in a row".to_string());
        }
        if first.memory != second.memory {
            differences.push("the rule memory".to_string());
        }
        Verdict::NotBack(differences)
    }
}

/// The gallery: triple ko, eternal life, moonshine life, round-robin ko, sending two returning
/// one.
pub fn gallery() -> Vec<KnownCycle> {
    FILES
        .iter()
        .map(|(file, text)| {
            KnownCycle::parse(file, text).unwrap_or_else(|e| panic!("a gallery file is broken: {e}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_gallery_file_reads() {
        let gallery = gallery();
        let names: Vec<&str> = gallery.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(
            names,
            ["triple ko", "eternal life", "moonshine life", "round-robin ko", "sending two returning one"]
        );
        for entry in &gallery {
            assert!(!entry.description.is_empty(), "{}", entry.name);
        }
    }

    #[test]
    fn bad_files_are_refused_with_the_line() {
        let board = "\n    A B\n 2  X .  2\n 1  . O  1\n";
        let file = |head: &str| KnownCycle::parse("t.txt", &format!("{head}{board}"));
        let fine = file("name: t\nto play: black\ncycle: B2 pass\n").unwrap();
        assert_eq!(fine.moves.len(), 2);
        assert_eq!(fine.geometry().to_string(), "2x2");
        let message = |head: &str| file(head).unwrap_err().to_string();
        assert!(message("name: t\ncycle: B2\n").contains("no 'to play:' line"));
        assert!(message("name: t\nto play: red\ncycle: B2\n").starts_with("t.txt: line 2:"));
        assert!(message("name: t\nto play: white\ncycle: Z9\n").starts_with("t.txt: line 3:"));
        assert!(message("name: t\nname: u\nto play: white\ncycle: A1\n").contains("given twice"));
        assert!(message("nom: t\n").contains("unknown key 'nom'"));
        let swapped = KnownCycle::parse("t.txt", "name: t\nto play: black\ncycle: A1\n 1 X .\n 2 . O\n");
        assert!(swapped.unwrap_err().to_string().contains("row 1 where row 2 was expected"));
        let dead = KnownCycle::parse("t.txt", "name: t\nto play: black\ncycle: A1\n 2 X O\n 1 O .\n");
        assert!(dead.unwrap_err().to_string().contains("the group on A2 has no liberty"));
    }
}
