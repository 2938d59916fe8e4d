//! Live analysis for GUIs: `lz-analyze` (Leela Zero's format, read by Sabaki and Lizzie) and
//! `kata-analyze` (KataGo's). The search ponders in steps of one report interval, growing the same
//! trees, so the evaluation deepens the longer the GUI lets it run, and a new command stops it
//! after at most one interval.

use std::time::Duration;

use variago_records::sgf::move_text;
use variago_rules::{AnyGame, Color, Geometry, Move};
use variago_search::{Analysis, Pondering, Search, Settings};

/// Which program's output format to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Leela Zero: win rates in hundredths of a percent, as integers.
    Lz,
    /// KataGo: win rates as fractions, with the score fields KataGo adds.
    Kata,
}

/// Moves listed per report at most: GUIs draw only the best few.
const MAX_MOVES: usize = 30;
/// The report interval when the command names none (KataGo's and Leela Zero's `0` means none).
const DEFAULT_INTERVAL: Duration = Duration::from_secs(1);
/// Shortest report interval: GUIs asking for more lines than this get fewer, each worth reading.
const MIN_INTERVAL: Duration = Duration::from_millis(50);
/// Longest report interval, so that a new command is never kept waiting long.
const MAX_INTERVAL: Duration = Duration::from_secs(5);

/// The arguments of an analysis command: an optional colour, the interval in centiseconds (bare,
/// as Leela Zero writes it, or as `interval N`), then KataGo's other keys, accepted and ignored
/// with their values (`avoid` and `allow` take three, every other key one).
pub fn parse_arguments(args: &[String]) -> Result<(Option<Color>, Duration), String> {
    let mut words = args.iter().map(String::as_str).peekable();
    let color = words.peek().and_then(|w| crate::engine::parse_color(w).ok());
    if color.is_some() {
        words.next();
    }
    let centiseconds = |text: &str| -> Result<Duration, String> {
        let n: u64 = text.parse().map_err(|_| format!("syntax error: '{text}' is not an interval"))?;
        Ok(if n == 0 { DEFAULT_INTERVAL } else { Duration::from_millis(n.saturating_mul(10)) })
    };
    let mut interval = DEFAULT_INTERVAL;
    if let Some(word) = words.next_if(|w| w.bytes().all(|b| b.is_ascii_digit())) {
        interval = centiseconds(word)?;
    }
    while let Some(key) = words.next() {
        let values = if matches!(key, "avoid" | "allow") { 3 } else { 1 };
        let taken: Vec<&str> = words.by_ref().take(values).collect();
        if taken.len() < values {
            return Err(format!("syntax error: {key} needs {values} value(s)"));
        }
        if key == "interval" {
            interval = centiseconds(taken[0])?;
        }
    }
    Ok((color, interval.clamp(MIN_INTERVAL, MAX_INTERVAL)))
}

/// An analysis running on one position until the controller sends another command.
pub struct Analyse {
    /// The command's id, for the answer's head.
    pub id: Option<u64>,
    format: Format,
    geometry: Geometry,
    interval: Duration,
    /// The search, `None` once the game is over.
    pondering: Option<Pondering<AnyGame>>,
}

impl Analyse {
    /// An analysis of `game` (its side to move) reporting every `interval`.
    pub fn new(
        id: Option<u64>,
        format: Format,
        game: &AnyGame,
        settings: &Settings,
        interval: Duration,
    ) -> Self {
        let geometry = game.board().geometry();
        Analyse { id, format, geometry, interval, pondering: Search::new(settings.clone()).ponder(game) }
    }

    /// Searches one interval more and returns the report line, or `None` once the game is over.
    pub fn step(&mut self) -> Option<String> {
        let analysis = self.pondering.as_mut()?.step(self.interval);
        Some(report(self.format, self.geometry, &analysis))
    }
}

/// One line of `info` blocks, most visited move first, each with its own prior and principal
/// variation (the search's, cut where visits run thin). The search has no move policy: the prior
/// is the uniform one it starts every legal move with.
pub fn report(format: Format, geometry: Geometry, analysis: &Analysis<Move>) -> String {
    let name = |mv: Move| move_text(geometry, mv);
    analysis
        .moves
        .iter()
        .filter(|m| m.visits > 0)
        .take(MAX_MOVES)
        .enumerate()
        .map(|(order, m)| {
            let pv = m.pv.iter().map(|&mv| name(mv)).collect::<Vec<_>>().join(" ");
            let (mv, visits, winrate, prior, lead) = (name(m.mv), m.visits, m.winrate, m.prior, m.score_lead);
            match format {
                Format::Lz => {
                    let w = (winrate * 10_000.0).round() as i64;
                    let prior = (prior * 10_000.0).round() as i64;
                    format!("info move {mv} visits {visits} winrate {w} prior {prior} lcb {w} order {order} pv {pv}")
                }
                Format::Kata => format!(
                    "info move {mv} visits {visits} utility {:.4} winrate {winrate:.4} scoreMean {lead:.2} scoreStdev 0 \
                     scoreLead {lead:.2} prior {prior:.4} lcb {winrate:.4} order {order} pv {pv}",
                    2.0 * winrate - 1.0
                ),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<(Option<Color>, Duration), String> {
        parse_arguments(&text.split_whitespace().map(str::to_string).collect::<Vec<_>>())
    }

    #[test]
    fn arguments_in_both_programs_styles() {
        assert_eq!(parse(""), Ok((None, DEFAULT_INTERVAL)));
        assert_eq!(parse("B 50"), Ok((Some(Color::Black), Duration::from_millis(500))));
        assert_eq!(parse("w interval 20 maxmoves 10"), Ok((Some(Color::White), Duration::from_millis(200))));
        assert_eq!(parse("30 avoid b q16,d4 1 ownership true").map(|p| p.1), Ok(Duration::from_millis(300)));
        assert_eq!(parse("1").map(|p| p.1), Ok(MIN_INTERVAL));
        assert_eq!(parse("100000").map(|p| p.1), Ok(MAX_INTERVAL));
        assert!(parse("interval").is_err());
        assert!(parse("interval x").is_err());
        assert!(parse("avoid b q16").is_err());
    }
}
