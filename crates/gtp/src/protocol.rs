//! The GTP version 2 wire format: how a raw input line becomes a command (preprocessing, the
//! optional id, the words) and how an answer is written (`=id text` or `?id text`, then a blank
//! line). Kept apart from the commands so that the format is tested on its own.

use std::fmt;

/// Longest command line the engine reads, in bytes. GTP lines are short (the longest real ones are
/// `set_free_handicap` with a few hundred vertices); a longer line is answered with an error
/// instead of being stored, so a hostile stream cannot make the engine allocate without bound.
pub const MAX_LINE: usize = 16 * 1024;

/// A command as the controller sent it, after preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The numeric id, echoed in the answer.
    pub id: Option<u64>,
    /// The command name (case-sensitive, as GTP says).
    pub name: String,
    /// The arguments, split at white space.
    pub args: Vec<String>,
}

/// What a command line is, once preprocessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Parsed {
    /// Nothing to answer: an empty line, white space only, or a comment.
    Nothing,
    /// A command to run.
    Command(Command),
    /// A line with an id but no command name: answered with an error carrying the id.
    Malformed {
        /// The id the line began with.
        id: Option<u64>,
        /// What is wrong.
        message: String,
    },
}

/// Applies GTP's preprocessing to one line (without its newline): control characters other than
/// HT and LF removed, HT turned into a space, everything from `#` on discarded.
pub fn preprocess(line: &str) -> String {
    let kept: String = line
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            '\n' => Some(c),
            c if c.is_ascii_control() => None,
            c => Some(c),
        })
        .collect();
    match kept.split_once('#') {
        Some((before, _)) => before.to_string(),
        None => kept,
    }
}

/// The id at the start of a line (digits only), if any, and the rest of the line.
fn split_id(text: &str) -> (Option<Result<u64, String>>, &str) {
    let text = text.trim_start();
    let word_end = text.find(' ').unwrap_or(text.len());
    let first = &text[..word_end];
    if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        let id = first.parse::<u64>().map_err(|_| format!("id {first} is too large"));
        (Some(id), &text[word_end..])
    } else {
        (None, text)
    }
}

/// Reads one raw input line: preprocessing, then `[id] name [arguments]`. A line longer than
/// [`MAX_LINE`] is refused (keeping its id when it starts with one).
pub fn parse(line: &str) -> Parsed {
    let line = line.trim_end_matches(['\n', '\r']);
    if line.len() > MAX_LINE {
        let head = preprocess(&line[..(0..=64).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0)]);
        let id = split_id(&head).0.and_then(Result::ok);
        return Parsed::Malformed { id, message: format!("command line too long (over {MAX_LINE} bytes)") };
    }
    let text = preprocess(line);
    if text.trim().is_empty() {
        return Parsed::Nothing;
    }
    let (id, rest) = split_id(&text);
    let id = match id {
        Some(Ok(id)) => Some(id),
        Some(Err(message)) => return Parsed::Malformed { id: None, message },
        None => None,
    };
    let mut words = rest.split_whitespace().map(str::to_string);
    match words.next() {
        Some(name) => Parsed::Command(Command { id, name, args: words.collect() }),
        None => Parsed::Malformed { id, message: "no command after the id".into() },
    }
}

/// An answer to one command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The command's id, echoed.
    pub id: Option<u64>,
    /// Whether the command succeeded (`=`) or failed (`?`).
    pub success: bool,
    /// The answer's text (the error message on failure); may span several lines.
    pub text: String,
}

impl Response {
    /// A success.
    pub fn ok(id: Option<u64>, text: impl Into<String>) -> Self {
        Response { id, success: true, text: text.into() }
    }

    /// A failure with its message.
    pub fn error(id: Option<u64>, message: impl Into<String>) -> Self {
        Response { id, success: false, text: message.into() }
    }

    /// The status and id that start the answer: `=12` or `?`.
    pub fn head(&self) -> String {
        let status = if self.success { '=' } else { '?' };
        match self.id {
            Some(id) => format!("{status}{id}"),
            None => status.to_string(),
        }
    }
}

/// Text safe inside an answer: no empty line (an empty line ends the answer), no control
/// characters but newlines, no trailing white space.
pub fn clean(text: &str) -> String {
    let lines: Vec<String> = text
        .lines()
        .map(|line| line.chars().filter(|c| !c.is_control()).collect::<String>().trim_end().to_string())
        .collect();
    let leading_newline = text.starts_with('\n');
    let body: Vec<&str> = lines.iter().map(String::as_str).filter(|l| !l.is_empty()).collect();
    let body = body.join("\n");
    if leading_newline && !body.is_empty() { format!("\n{body}") } else { body }
}

impl fmt::Display for Response {
    /// The answer as sent: the head, a space and the text, then the blank line that ends it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = clean(&self.text);
        if text.is_empty() {
            write!(f, "{}\n\n", self.head())
        } else {
            write!(f, "{} {text}\n\n", self.head())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Command {
        match parse(line) {
            Parsed::Command(c) => c,
            other => panic!("{line:?}: {other:?}"),
        }
    }

    #[test]
    fn preprocessing_follows_the_spec() {
        assert_eq!(preprocess("a\tb\x01c\x7fd\r"), "a bcd");
        assert_eq!(preprocess("play b c3 # a comment"), "play b c3 ");
        assert_eq!(parse("   "), Parsed::Nothing);
        assert_eq!(parse("# only a comment"), Parsed::Nothing);
        assert_eq!(parse("\x02\x03"), Parsed::Nothing);
    }

    #[test]
    fn ids_and_words_are_split() {
        let c = command("12 play\tB  C3\r\n");
        assert_eq!(
            (c.id, c.name.as_str(), c.args.clone()),
            (Some(12), "play", vec!["B".into(), "C3".into()])
        );
        assert_eq!(command("name").id, None);
        assert!(matches!(parse("7"), Parsed::Malformed { id: Some(7), .. }));
        assert!(matches!(parse("99999999999999999999999 name"), Parsed::Malformed { id: None, .. }));
    }

    #[test]
    fn overlong_lines_keep_their_id() {
        let line = format!("5 play b {}", "x".repeat(MAX_LINE));
        assert!(matches!(parse(&line), Parsed::Malformed { id: Some(5), .. }));
    }

    #[test]
    fn answers_end_with_a_blank_line_and_hold_none_inside() {
        assert_eq!(Response::ok(Some(3), "2").to_string(), "=3 2\n\n");
        assert_eq!(Response::ok(None, "").to_string(), "=\n\n");
        assert_eq!(Response::error(None, "unknown command").to_string(), "? unknown command\n\n");
        assert_eq!(Response::ok(None, "\na\n\nb  \n").to_string(), "= \na\nb\n\n");
    }
}
