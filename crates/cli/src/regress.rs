//! `variago regress`: runs a GTP regression file in the format GNU Go and Fuego use against any
//! GTP engine, and prints a line per test and a summary as the last line.
//!
//! The format: `#` starts a comment; other lines are GTP commands sent as they are (`loadsgf`,
//! `boardsize`, `play`, ...). A numbered command (`12 reg_genmove black`) is a test, and the
//! `#? [PATTERN]` line after it says what it must answer: PATTERN is a regular expression that
//! must match the whole answer (case-insensitive; `C3|D4` for alternatives); a leading `!`
//! negates it; a `*` after the closing bracket marks a known failure. A refused command's answer
//! is matched as `? MESSAGE`. Relative `loadsgf` paths are read from the regression file's
//! folder.

use std::path::{Path, PathBuf};

use regex_lite::Regex;

use crate::Failure;
use crate::gtp::Gtp;

/// The flags of `variago regress`.
#[derive(clap::Args)]
pub struct Options {
    /// The regression file (`.tst`).
    pub file: PathBuf,
    /// The engine's command line, e.g. `variago gtp --playouts 2000` or `gnugo --mode gtp`.
    #[arg(long)]
    pub engine: String,
}

/// What a test expects.
#[derive(Debug)]
struct Expectation {
    /// The pattern as written, for messages.
    text: String,
    /// The pattern anchored to the whole answer.
    regex: Regex,
    /// `!`: the answer must not match.
    negated: bool,
    /// `*`: a known failure.
    known_failure: bool,
}

impl Expectation {
    /// Reads what follows `#?`: `[PATTERN]`, optionally `*`.
    fn parse(text: &str) -> Result<Self, String> {
        let text = text.trim();
        let (start, end) = match (text.find('['), text.rfind(']')) {
            (Some(0), Some(end)) if end > 0 => (1, end),
            _ => return Err(format!("'#? {text}': write #? [PATTERN]")),
        };
        let inner = &text[start..end];
        let (negated, pattern) = match inner.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, inner),
        };
        let regex = Regex::new(&format!("(?i)^(?:{pattern})$"))
            .map_err(|e| format!("'#? {text}': bad pattern: {e}"))?;
        Ok(Expectation {
            text: inner.to_string(),
            regex,
            negated,
            known_failure: text[end + 1..].trim_start().starts_with('*'),
        })
    }

    fn passes(&self, answer: &str) -> bool {
        self.regex.is_match(answer.trim()) != self.negated
    }
}

/// One line of a regression file that does something.
#[derive(Debug)]
enum Item {
    /// A command to send; a test when numbered.
    Command { line: usize, text: String, number: Option<u64> },
    /// The expectation of the last numbered command.
    Expect { line: usize, expectation: Expectation },
}

/// Reads a regression file: commands (relative `loadsgf` paths resolved against `folder`) and
/// expectations.
fn parse(text: &str, folder: &Path) -> Result<Vec<Item>, String> {
    let mut items = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if let Some(rest) = trimmed.strip_prefix("#?") {
            let expectation = Expectation::parse(rest).map_err(|e| format!("line {line}: {e}"))?;
            items.push(Item::Expect { line, expectation });
            continue;
        }
        let command = trimmed.split('#').next().unwrap_or("").trim();
        if command.is_empty() {
            continue;
        }
        let mut words: Vec<&str> = command.split_whitespace().collect();
        let number = words[0].parse::<u64>().ok();
        let name_at = usize::from(number.is_some());
        if words.len() <= name_at {
            return Err(format!("line {line}: a test number without a command"));
        }
        let resolved;
        if words[name_at] == "loadsgf" && words.len() > name_at + 1 {
            let path = Path::new(words[name_at + 1]);
            if path.is_relative() && folder.join(path).exists() {
                resolved = folder.join(path).display().to_string();
                words[name_at + 1] = &resolved;
            }
        }
        items.push(Item::Command { line, text: words.join(" "), number });
    }
    Ok(items)
}

/// Counts of the outcomes.
#[derive(Default)]
struct Summary {
    passed: u32,
    failed: u32,
    known_failures: u32,
    unexpected_passes: u32,
}

/// Runs the file and prints `N PASS`, `N FAIL ...`, `N unexpected PASS ...` per test and the
/// summary last; exit code 1 when a test failed that was not marked as a known failure.
pub fn run(options: Options) -> Result<(), Failure> {
    let text = std::fs::read_to_string(&options.file)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", options.file.display())))?;
    let folder = options.file.parent().unwrap_or(Path::new("."));
    let items =
        parse(&text, folder).map_err(|e| Failure::input(format!("{}: {e}", options.file.display())))?;
    let mut engine = Gtp::start(&options.engine).map_err(Failure::input)?;
    let mut summary = Summary::default();
    // the last numbered command: its number, its text and its answer
    let mut last: Option<(u64, String, String)> = None;
    for item in items {
        match item {
            Item::Command { line, text, number } => {
                let (accepted, body) = engine.exchange(&text).map_err(Failure::input)?;
                match number {
                    // a refusal is matched as `? MESSAGE`
                    Some(n) => last = Some((n, text, if accepted { body } else { format!("? {body}") })),
                    None if !accepted => println!("line {line}: warning: '{text}' was refused: {body}"),
                    None => {}
                }
            }
            Item::Expect { line, expectation } => {
                let Some((number, command, shown)) = last.take() else {
                    println!("line {line}: warning: an expectation without a numbered command before it");
                    continue;
                };
                let passed = expectation.passes(&shown);
                let expected = &expectation.text;
                let (count, verdict) = match (passed, expectation.known_failure) {
                    (true, false) => (&mut summary.passed, "PASS"),
                    (true, true) => (&mut summary.unexpected_passes, "unexpected PASS"),
                    (false, true) => (&mut summary.known_failures, "known failure"),
                    (false, false) => (&mut summary.failed, "FAIL"),
                };
                *count += 1;
                match (passed, expectation.known_failure) {
                    (true, false) => println!("{number} {verdict}"),
                    (true, true) => println!("{number} {verdict}: {command} -> {shown}"),
                    (false, _) => println!("{number} {verdict}: {command} -> {shown}, expected [{expected}]"),
                }
            }
        }
    }
    engine.quit();
    let total = summary.passed + summary.failed + summary.known_failures + summary.unexpected_passes;
    println!(
        "{total} tests: {} passed, {} failed, {} known failures, {} unexpected passes",
        summary.passed, summary.failed, summary.known_failures, summary.unexpected_passes
    );
    if summary.failed > 0 {
        return Err(Failure { message: format!("{} test(s) failed", summary.failed), code: 1 });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_anchor_negate_and_mark_known_failures() {
        let e = Expectation::parse(" [C3|D4]").unwrap();
        assert!(e.passes("C3") && e.passes("d4") && !e.passes("C33") && !e.passes("E5"));
        let e = Expectation::parse("[!pass]*").unwrap();
        assert!(e.negated && e.known_failure && e.passes("C3") && !e.passes("PASS"));
        let e = Expectation::parse("[B+.*]").unwrap();
        assert!(e.passes("B+3.5") && !e.passes("W+3.5"));
        assert!(Expectation::parse("C3").is_err());
        assert!(Expectation::parse("[(]").is_err());
    }

    #[test]
    fn files_split_into_commands_and_expectations() {
        let items =
            parse("# title\nboardsize 9\n\n10 play b c3 # why\n#? []\n11\n", Path::new(".")).unwrap_err();
        assert!(items.contains("line 6"), "{items}");
        let items = parse("boardsize 9\n10 play b c3 # why\n#? []\n", Path::new(".")).unwrap();
        assert!(matches!(&items[0], Item::Command { number: None, text, .. } if text == "boardsize 9"));
        assert!(matches!(&items[1], Item::Command { number: Some(10), text, .. } if text == "10 play b c3"));
        assert!(matches!(&items[2], Item::Expect { line: 3, .. }));
    }
}
