//! The page of a comparison of rules on life-and-death problems (`lab life-and-death --compare
//! --report FILE`): what changed per variant, then a diagram of each problem whose answer changed
//! against the reference rule, with every rule's answer beside it.

use std::fmt::Write;

use variago_rules::{Board, Color, Move, Point};

use super::{Answer, Verdict};
use crate::move_text;
use crate::report::{escape, page_head};

/// One problem and its answer under each rule compared (`None`: refused).
pub struct Compared<'a> {
    pub name: &'a str,
    pub board: &'a Board,
    pub to_move: Color,
    pub answers: Vec<Option<&'a Answer>>,
}

/// Whether `answer` says something else than `reference`: another verdict, other winning first
/// moves, or a ko needed on one side only (unknowns compare with nothing).
pub fn differs(reference: &Answer, answer: &Answer) -> bool {
    reference.verdict != Verdict::Unknown
        && answer.verdict != Verdict::Unknown
        && (reference.verdict != answer.verdict
            || reference.winning_moves != answer.winning_moves
            || reference.ko != answer.ko)
}

/// An answer as the page writes it: verdict, `by ko`, winning moves.
fn answer_text(board: &Board, answer: &Answer) -> String {
    let moves: Vec<String> = answer.winning_moves.iter().map(|&mv| move_text(board.geometry(), mv)).collect();
    format!("{}{} {}", answer.verdict.name(), if answer.ko { " by ko" } else { "" }, moves.join(" "))
}

/// The page: `summary` lines (the command's per-variant counts), then each problem of
/// `problems` whose answer changed under some rule against the first of `variants`.
pub fn compare_page(variants: &[String], summary: &[String], problems: &[Compared]) -> String {
    let mut out = page_head("variago lab: life and death under several rules");
    let _ = writeln!(
        out,
        "<p>{} problems, the rules compared against <strong>{}</strong>: {}.</p>\n<ul>",
        problems.len(),
        escape(&variants[0]),
        escape(&variants.join(", "))
    );
    for line in summary {
        let _ = writeln!(out, "<li>{}</li>", escape(line));
    }
    out += "</ul>\n<h2>Problems whose answer changed</h2>\n<p>Red marks: the reference rule's winning first moves.</p>\n";
    for problem in problems {
        let Some(reference) = problem.answers[0] else { continue };
        let changed = problem.answers[1..].iter().flatten().any(|a| differs(reference, a));
        if !changed {
            continue;
        }
        let marks: Vec<Point> = reference
            .winning_moves
            .iter()
            .filter_map(|&mv| match mv {
                Move::Place(p) => Some(p),
                Move::Pass => None,
            })
            .collect();
        let _ = writeln!(
            out,
            "<figure id=\"{id}\">\n<figcaption><strong>{name}</strong>: {} to play, goal {}</figcaption>\n{}",
            problem.to_move,
            reference.goal.name(),
            diagram(problem.board, &marks),
            id = escape(problem.name),
            name = escape(problem.name),
        );
        out += "<table>\n<tr><th>rule</th><th>answer</th></tr>\n";
        for (variant, answer) in variants.iter().zip(&problem.answers) {
            let text = answer.map_or_else(|| "refused".to_string(), |a| answer_text(problem.board, a));
            let mark = answer.is_some_and(|a| differs(reference, a));
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}{}</td></tr>",
                escape(variant),
                escape(&text),
                if mark { " (changed)" } else { "" }
            );
        }
        out += "</table>\n</figure>\n";
    }
    out += "</body>\n</html>\n";
    out
}

/// Pixels between two lines of a diagram.
const STEP: i32 = 24;
/// Pixels left of the first column, for the row numbers.
const GUTTER: i32 = 8;

/// A board diagram in SVG: the part of `board` around its stones (one line beyond them, up to
/// the edges), its coordinates, the stones, and a red square on each of `marks`.
pub fn diagram(board: &Board, marks: &[Point]) -> String {
    let geometry = board.geometry();
    let shown: Vec<(u8, u8)> = geometry
        .points()
        .filter(|&p| board.piece(p).is_some() || marks.contains(&p))
        .map(|p| geometry.coords(p))
        .collect();
    let span = |values: Vec<u8>, size: u8| {
        let low = values.iter().min().map_or(0, |m| m.saturating_sub(1));
        let high = values.iter().max().map_or(size - 1, |m| (m + 1).min(size - 1));
        (i32::from(low), i32::from(high))
    };
    let (left, right) = span(shown.iter().map(|s| s.0).collect(), geometry.width());
    let (top, bottom) = span(shown.iter().map(|s| s.1).collect(), geometry.height());
    let at = |x: i32, y: i32| ((x - left + 1) * STEP + GUTTER, (y - top + 1) * STEP);
    let (width, height) = at(right + 1, bottom + 1);
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"10\">\n<rect width=\"{width}\" height=\"{height}\" fill=\"#dcb35c\"/>\n"
    );
    // a line runs to the board's edge where the diagram meets it, half a step beyond elsewhere
    let reach = |low: i32, high: i32, size: u8| {
        let low = if low == 0 { 0 } else { -STEP / 2 };
        let high = if high == i32::from(size) - 1 { 0 } else { STEP / 2 };
        (low, high)
    };
    let (x0, x1) = reach(left, right, geometry.width());
    let (y0, y1) = reach(top, bottom, geometry.height());
    for x in left..=right {
        let ((px, start), (_, end)) = (at(x, top), at(x, bottom));
        let _ = writeln!(
            svg,
            "<line x1=\"{px}\" y1=\"{}\" x2=\"{px}\" y2=\"{}\" stroke=\"#000\"/>",
            start + y0,
            end + y1
        );
        let column = geometry.vertex(geometry.point(x as u8, 0).expect("a column of the board")).to_string();
        let letter: String = column.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        let _ = writeln!(svg, "<text x=\"{px}\" y=\"{}\" text-anchor=\"middle\">{letter}</text>", STEP / 3);
    }
    for y in top..=bottom {
        let ((start, py), (end, _)) = (at(left, y), at(right, y));
        let _ = writeln!(
            svg,
            "<line x1=\"{}\" y1=\"{py}\" x2=\"{}\" y2=\"{py}\" stroke=\"#000\"/>",
            start + x0,
            end + x1
        );
        let row = i32::from(geometry.height()) - y;
        let _ = writeln!(svg, "<text x=\"2\" y=\"{}\">{row}</text>", py + 4);
    }
    for p in geometry.points() {
        let (x, y) = geometry.coords(p);
        let (x, y) = (i32::from(x), i32::from(y));
        if x < left || x > right || y < top || y > bottom {
            continue;
        }
        let (px, py) = at(x, y);
        if let Some(piece) = board.piece(p) {
            let fill = if piece.color == Color::Black { "#000" } else { "#fff" };
            let _ = writeln!(
                svg,
                "<circle cx=\"{px}\" cy=\"{py}\" r=\"{}\" fill=\"{fill}\" stroke=\"#000\"/>",
                STEP / 2 - 1
            );
            if piece.king {
                let ink = if piece.color == Color::Black { "#fff" } else { "#000" };
                let _ = writeln!(
                    svg,
                    "<text x=\"{px}\" y=\"{}\" text-anchor=\"middle\" fill=\"{ink}\">K</text>",
                    py + 4
                );
            }
        }
        if marks.contains(&p) {
            let half = STEP / 5;
            let _ = writeln!(
                svg,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#d00\"/>",
                px - half,
                py - half,
                2 * half,
                2 * half
            );
        }
    }
    svg += "</svg>";
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagram_shows_the_stones_around_them_and_the_marks() {
        let board =
            Board::from_diagram(&[". X . . . . .", "X O . . . . .", ". . . . . . .", ". . . . . . ."])
                .unwrap();
        let geometry = board.geometry();
        let mark = geometry.parse_vertex("A4").unwrap();
        let svg = diagram(&board, &[mark]);
        // columns A to C and rows 4 to 2 shown: one line beyond the stones
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        assert_eq!(svg.matches(" fill=\"#fff\" stroke").count(), 1, "one white stone");
        assert_eq!(svg.matches("<rect x=").count(), 1, "one mark");
        for label in [">A<", ">B<", ">C<", ">4<", ">3<", ">2<"] {
            assert!(svg.contains(label), "{label} in {svg}");
        }
        assert!(!svg.contains(">D<") && !svg.contains(">1<"), "nothing beyond one line: {svg}");
    }
}
