//! `variago lab life-and-death`: life-and-death problems solved exactly over their region under a
//! variant's rules (docs/lab-life.md): a line per problem with its verdict, goal, winning first moves
//! and nodes, then its main line; the last line counts the problems solved.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use clap::{Args, ValueEnum};
use variago_lab::life::page::{Compared, compare_page, differs};
use variago_lab::life::{Answer, Goal, Verdict, solve};
use variago_records::Record;
use variago_records::sgf::move_from_text;
use variago_rules::{Board, Color, Geometry, Move, VariantSpec};

use crate::Failure;
use crate::lab::moves_text;
use crate::lab_life_engines::Engines;

/// The goal as the command line writes it.
#[derive(Clone, Copy, ValueEnum)]
pub enum GoalSetting {
    /// The side to move saves its stones.
    Live,
    /// The side to move captures the opponent's.
    Kill,
}

/// `variago lab life-and-death`.
#[derive(Args)]
pub struct LifeOptions {
    /// Variant spec (default `go`), played with the own-position draw off.
    #[arg(long, default_value = "go")]
    variant: String,
    /// The goal of the side to move (default: first the goal whose defender has the smaller
    /// region, then the other; the first reached is the answer).
    #[arg(long, value_enum)]
    goal: Option<GoalSetting>,
    /// Positions expanded per problem, goal and search (unconditional, then by ko) before the
    /// verdict is `unknown`.
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Problems solved at once (default: every core).
    #[arg(long)]
    threads: Option<usize>,
    /// Variants to compare, the first the reference (e.g. `go,incursion,stoical`; `--variant`
    /// is then unused): each problem is solved under each with the goal found under the first;
    /// per problem the answers side by side, then per variant what changed against the first.
    #[arg(long, value_delimiter = ',')]
    compare: Vec<String>,
    /// With `--compare`: also write the comparison as an HTML page (the counts, then a diagram of
    /// every problem whose answer changed, each rule's answer beside it).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Write each problem into this folder as SGF (the setup, the side to move `PL`, the book's
    /// first moves in the root comment as `book: MOVES`, read back by this command) instead of
    /// solving it: the collections' JSON records for other programs. The last line: `wrote N
    /// problems to DIR`.
    #[arg(long, value_name = "DIR")]
    to_sgf: Option<PathBuf>,
    /// Also ask an engine for its move in each problem: `variago:playouts=N` (the built-in AI, as
    /// `match` names it) or `gtp:COMMAND` (given the position by `loadsgf`); repeatable. Its move
    /// is right by the book when it is one of the book's, right by the solver when the solver
    /// reached the goal and the move is one of the winning moves.
    #[arg(long)]
    engine: Vec<String>,
    /// Problem files: SGF (setup `AB`/`AW`, `SZ`, the side to move `PL`) or the JSON records of
    /// the tsumego collections (`AB`, `AW`, `SZ`, `C` "Black to play", `SOL` the book's first
    /// moves, compared with the solver's).
    #[arg(required = true)]
    problems: Vec<PathBuf>,
}

/// A problem as read: the position, the side to move, the book's first moves if given.
pub(crate) struct ReadProblem {
    pub(crate) name: String,
    pub(crate) board: Board,
    pub(crate) to_move: Color,
    pub(crate) book: Vec<Move>,
}

/// The tsumego collections' JSON record.
#[derive(serde::Deserialize)]
#[serde(rename_all = "UPPERCASE")]
struct JsonProblem {
    #[serde(default)]
    ab: Vec<String>,
    #[serde(default)]
    aw: Vec<String>,
    sz: String,
    #[serde(default)]
    c: String,
    #[serde(default)]
    sol: Vec<Vec<String>>,
}

/// An SGF point (`ba`: column b, row a from the top) on a board.
fn sgf_point(geometry: Geometry, text: &str) -> Option<variago_rules::Point> {
    let bytes = text.as_bytes();
    let [x, y] = bytes else { return None };
    geometry.point(x.checked_sub(b'a')?, y.checked_sub(b'a')?)
}

fn read_json(name: String, text: &str) -> Result<ReadProblem, String> {
    let json: JsonProblem = serde_json::from_str(text).map_err(|e| format!("{name}: {e}"))?;
    let size: u32 = json.sz.trim().parse().map_err(|_| format!("{name}: SZ {:?} is not a size", json.sz))?;
    let geometry = Geometry::square(size).map_err(|e| format!("{name}: {e}"))?;
    let mut board = Board::new(geometry);
    for (points, color) in [(&json.ab, Color::Black), (&json.aw, Color::White)] {
        for text in points {
            let p = sgf_point(geometry, text).ok_or_else(|| format!("{name}: {text:?} is not a point"))?;
            if board.piece(p).is_some() {
                return Err(format!("{name}: {text} is set up twice"));
            }
            board.set(p, Some(variago_rules::Piece::stone(color)));
        }
    }
    let comment = json.c.to_ascii_lowercase();
    let to_move = if comment.starts_with("white") { Color::White } else { Color::Black };
    let book = json
        .sol
        .iter()
        .filter_map(|entry| entry.get(1))
        .filter_map(|text| sgf_point(geometry, text).map(Move::Place))
        .collect();
    Ok(ReadProblem { name, board, to_move, book })
}

fn read_problem(path: &Path) -> Result<ReadProblem, Failure> {
    let name =
        path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))?;
    if path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json")) {
        return read_json(name, &text).map_err(Failure::input);
    }
    let record = Record::from_sgf(&text).map_err(|e| Failure::input(format!("{name}: {e}")))?;
    let book = record
        .info
        .comment
        .iter()
        .flat_map(|c| c.lines())
        .filter_map(|line| line.strip_prefix(BOOK))
        .flat_map(str::split_whitespace)
        .map(|v| move_from_text(record.geometry, v).map_err(|e| Failure::input(format!("{name}: {e}"))))
        .collect::<Result<_, _>>()?;
    Ok(ReadProblem { name, board: record.setup, to_move: record.first_player, book })
}

/// How a problem's SGF root comment gives the book's first moves.
const BOOK: &str = "book: ";

/// A problem as an SGF record of its position, the book's moves in the root comment.
pub(crate) fn problem_sgf(spec: &VariantSpec, problem: &ReadProblem) -> String {
    let geometry = problem.board.geometry();
    let mut record = Record::new(spec.clone(), geometry);
    record.setup = problem.board.clone();
    record.first_player = problem.to_move;
    let mut comment = format!("{} to play", problem.to_move);
    if !problem.book.is_empty() {
        comment.push_str(&format!("\n{BOOK}{}", moves_text::<VariantSpec>(geometry, &problem.book)));
    }
    record.info.comment = Some(comment);
    record.to_sgf()
}

/// `--to-sgf`: every problem written into `dir` under its name with `.sgf` for its extension.
fn write_sgf(spec: &VariantSpec, problems: &[ReadProblem], dir: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::input(format!("cannot create {}: {e}", dir.display())))?;
    for problem in problems {
        let path = dir.join(Path::new(&problem.name).with_extension("sgf"));
        std::fs::write(&path, problem_sgf(spec, problem))
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    }
    println!("wrote {} problems to {}", problems.len(), dir.display());
    Ok(())
}

pub fn life_and_death(options: LifeOptions) -> Result<(), Failure> {
    // the problem turns the own-position draw off itself
    let spec: VariantSpec = options.variant.parse().map_err(Failure::input)?;
    let goal = options.goal.map(|g| match g {
        GoalSetting::Live => Goal::Live,
        GoalSetting::Kill => Goal::Kill,
    });
    let problems = options.problems.iter().map(|p| read_problem(p)).collect::<Result<Vec<_>, _>>()?;
    if let Some(dir) = &options.to_sgf {
        return write_sgf(&spec, &problems, dir);
    }
    let threads = crate::lab::threads(options.threads).min(problems.len().max(1));
    if !options.compare.is_empty() {
        if !options.engine.is_empty() {
            return Err(Failure::input(
                "--engine asks engines beside one rule's solver: leave out --compare",
            ));
        }
        return compare(&options, goal, &problems, threads);
    }
    if options.report.is_some() {
        return Err(Failure::input("--report writes the comparison of --compare: give --compare too"));
    }
    let solve_one = |problem: &ReadProblem| {
        solve(&spec, &problem.board, problem.to_move, goal, options.nodes).map_err(|e| e.to_string())
    };
    let mut tally = Tally::default();
    let mut engines = Engines::start(&options.engine)?;
    in_order(&problems, threads, solve_one, |i, answer| {
        tally.print(&problems[i], &answer);
        engines.ask(&spec, &problems[i], answer.ok().as_ref());
    });
    if tally.with_book > 0 {
        println!("book: {} of {} agree", tally.agree, tally.with_book);
    }
    engines.summarise();
    println!(
        "solved {} of {}: success {}, failure {}, unknown {}",
        tally.success + tally.failure,
        problems.len(),
        tally.success,
        tally.failure,
        tally.unknown
    );
    Ok(())
}

/// Runs `work` on every problem, `threads` at a time, the problems shared out one at a time,
/// and hands each result to `print` as soon as those before it are printed.
fn in_order<T: Send>(
    problems: &[ReadProblem],
    threads: usize,
    work: impl Fn(&ReadProblem) -> T + Sync,
    mut print: impl FnMut(usize, T),
) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::channel();
        for _ in 0..threads {
            let send = send.clone();
            let (next, work) = (&next, &work);
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(problem) = problems.get(i) else { break };
                    if send.send((i, work(problem))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        let mut waiting = std::collections::BTreeMap::new();
        let mut printed = 0;
        for (i, result) in receive {
            waiting.insert(i, result);
            while let Some(result) = waiting.remove(&printed) {
                print(printed, result);
                printed += 1;
            }
        }
    });
}

/// `--compare`: each problem under every variant, the goal the first variant's.
fn compare(
    options: &LifeOptions,
    goal: Option<Goal>,
    problems: &[ReadProblem],
    threads: usize,
) -> Result<(), Failure> {
    let specs: Vec<VariantSpec> =
        options.compare.iter().map(|v| v.parse().map_err(Failure::input)).collect::<Result<_, _>>()?;
    let solve_all = |problem: &ReadProblem| -> Vec<Result<Answer, String>> {
        let solve_under = |spec: &VariantSpec, goal: Option<Goal>| {
            solve(spec, &problem.board, problem.to_move, goal, options.nodes).map_err(|e| e.to_string())
        };
        let first = solve_under(&specs[0], goal);
        let goal = first.as_ref().map_or(goal, |answer| Some(answer.goal));
        std::iter::once(first).chain(specs[1..].iter().map(|spec| solve_under(spec, goal))).collect()
    };
    let mut changes = vec![Changes::default(); specs.len()];
    let mut all_answers = Vec::with_capacity(problems.len());
    in_order(problems, threads, solve_all, |i, answers: Vec<Result<Answer, String>>| {
        let problem = &problems[i];
        let geometry = problem.board.geometry();
        let goal = answers.iter().find_map(|a| a.as_ref().ok()).map_or("-", |a| a.goal.name());
        let sides: Vec<String> = options
            .compare
            .iter()
            .zip(&answers)
            .map(|(name, answer)| match answer {
                Ok(a) => {
                    let moves = moves_text::<VariantSpec>(geometry, &a.winning_moves);
                    let ko = if a.ko { " ko" } else { "" };
                    format!(
                        "{name} {}{ko}{}{moves}",
                        a.verdict.name(),
                        if moves.is_empty() { "" } else { " " }
                    )
                }
                Err(e) => format!("{name} refused ({e})"),
            })
            .collect();
        println!("{} ({goal}): {}", problem.name, sides.join(" | "));
        if let Ok(reference) = &answers[0] {
            for (change, answer) in changes.iter_mut().zip(&answers).skip(1) {
                change.count(reference, answer.as_ref().ok());
            }
        }
        all_answers.push(answers);
    });
    let reference = &options.compare[0];
    let mut last = Vec::new();
    let mut summary = Vec::new();
    for (name, change) in options.compare.iter().zip(&changes).skip(1) {
        summary.push(format!(
            "{name} against {reference}: {} of {} change (verdict {}: success to failure {}, failure \
             to success {}; winning moves only {}; a success by ko that needs no ko {}, the other way {}); kinds: a ko in either {}, a snapback in \
             {reference}'s line {}, {reference}'s line ending in two passes (seki) {}, other {}; unknown {}",
            change.changed(),
            problems.len(),
            change.to_failure + change.to_success,
            change.to_failure,
            change.to_success,
            change.moves,
            change.ko_lifted,
            change.ko_needed,
            change.ko,
            change.snapback,
            change.seki,
            change.other,
            change.unknown
        ));
        println!("{}", summary.last().expect("just pushed"));
        last.push(format!("{name} {}", change.changed()));
    }
    let kept: Vec<String> = options
        .compare
        .iter()
        .zip(&changes)
        .skip(1)
        .map(|(name, change)| format!("{name} {} of {}", change.snapback_kept, change.snapback_lines))
        .collect();
    summary
        .push(format!("snapbacks in {reference}'s main lines, kept with no ko needed: {}", kept.join(", ")));
    println!("{}", summary.last().expect("just pushed"));
    if let Some(file) = &options.report {
        let compared: Vec<Compared> = problems
            .iter()
            .zip(&all_answers)
            .map(|(problem, answers)| Compared {
                name: &problem.name,
                board: &problem.board,
                to_move: problem.to_move,
                answers: answers.iter().map(|a| a.as_ref().ok()).collect(),
            })
            .collect();
        std::fs::write(file, compare_page(&options.compare, &summary, &compared))
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", file.display())))?;
        println!("report: {}", file.display());
    }
    println!("changed against {reference}: {} of {}", last.join(", "), problems.len());
    Ok(())
}

/// What changed from the reference variant's answers to another variant's.
#[derive(Clone, Default)]
struct Changes {
    to_failure: usize,
    to_success: usize,
    /// Same verdict, other winning first moves.
    moves: usize,
    /// Successes by a ko that need none under the other variant, and the other way round (same
    /// winning moves).
    ko_lifted: usize,
    ko_needed: usize,
    /// Changes where either answer needs a ko.
    ko: usize,
    /// Other changes where the reference's main line holds a snapback.
    snapback: usize,
    /// Problems whose reference main line holds a snapback (both answers known), and among
    /// them those whose answer the other rule keeps (the verdict, with no ko needed that was not).
    snapback_lines: usize,
    snapback_kept: usize,
    /// Other changes where the reference's main line ends in two passes (seki, or life the
    /// attacker cannot challenge).
    seki: usize,
    other: usize,
    /// Problems where either answer is unknown or refused: not compared.
    unknown: usize,
}

impl Changes {
    fn changed(&self) -> usize {
        self.to_failure + self.to_success + self.moves + self.ko_lifted + self.ko_needed
    }

    fn count(&mut self, reference: &Answer, answer: Option<&Answer>) {
        let Some(answer) =
            answer.filter(|a| a.verdict != Verdict::Unknown && reference.verdict != Verdict::Unknown)
        else {
            self.unknown += 1;
            return;
        };
        if reference.snapback {
            self.snapback_lines += 1;
            // a kill that now needs ko threats has lost its snapback
            self.snapback_kept += (reference.verdict == answer.verdict && reference.ko == answer.ko) as usize;
        }
        // what changed is what the page draws
        if !differs(reference, answer) {
            return;
        }
        match (reference.verdict, answer.verdict) {
            (Verdict::Success, Verdict::Failure) => self.to_failure += 1,
            (Verdict::Failure, Verdict::Success) => self.to_success += 1,
            _ if reference.winning_moves != answer.winning_moves => self.moves += 1,
            _ if reference.ko => self.ko_lifted += 1,
            _ => self.ko_needed += 1,
        }
        let by_passes = reference.line.ends_with(&[Move::Pass, Move::Pass]);
        if reference.ko || answer.ko {
            self.ko += 1;
        } else if reference.snapback {
            self.snapback += 1;
        } else if by_passes {
            self.seki += 1;
        } else {
            self.other += 1;
        }
    }
}

/// The counts of the last lines, as the answers are printed.
#[derive(Default)]
struct Tally {
    success: usize,
    failure: usize,
    unknown: usize,
    with_book: usize,
    agree: usize,
}

impl Tally {
    /// Prints a problem's answer (its line, main line and the book's moves) and counts it.
    fn print(&mut self, problem: &ReadProblem, answer: &Result<Answer, String>) {
        let geometry = problem.board.geometry();
        let answer = match answer {
            Ok(answer) => answer,
            Err(e) => {
                println!("{}: unknown - ({e})", problem.name);
                self.unknown += 1;
                return;
            }
        };
        match answer.verdict {
            Verdict::Success => self.success += 1,
            Verdict::Failure => self.failure += 1,
            Verdict::Unknown => self.unknown += 1,
        }
        let moves = moves_text::<VariantSpec>(geometry, &answer.winning_moves);
        println!(
            "{}: {} {}{}{} ({} nodes)",
            problem.name,
            answer.verdict.name(),
            answer.goal.name(),
            if moves.is_empty() { "" } else { " " },
            moves,
            answer.nodes
        );
        if answer.ko {
            println!(
                "  ko: only by winning a ko; an opponent with ko threats refutes it: {}",
                moves_text::<VariantSpec>(geometry, &answer.refutation)
            );
        }
        if !answer.line.is_empty() {
            println!("  line: {}", moves_text::<VariantSpec>(geometry, &answer.line));
        }
        if !answer.undecided_moves.is_empty() {
            println!(
                "  undecided: {} (first moves the node limit left undecided: the list of winning moves may lack them)",
                moves_text::<VariantSpec>(geometry, &answer.undecided_moves)
            );
        }
        if !problem.book.is_empty() {
            self.with_book += 1;
            let agrees = answer.verdict == Verdict::Success
                && problem.book.iter().any(|mv| answer.winning_moves.contains(mv));
            self.agree += agrees as usize;
            println!(
                "  book: {} ({})",
                moves_text::<VariantSpec>(geometry, &problem.book),
                if agrees { "agrees" } else { "disagrees" }
            );
        }
    }
}
