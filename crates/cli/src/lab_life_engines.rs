//! `variago lab life-and-death --engine`: engines asked for their move in each problem beside the
//! solver's answer, a tactics measure of strength (docs/lab-life.md): a move is right by the book when
//! it is one of the book's first moves, right by the solver when the solver reached the goal and
//! the move is one of its winning moves.

use std::path::PathBuf;
use std::time::Duration;

use variago_lab::life::{Answer, Problem, Verdict};
use variago_rules::{AnyGame, Color, HalfPoints, Move, VariantSpec};

use crate::Failure;
use crate::lab::moves_text;
use crate::lab_life::{ReadProblem, problem_sgf};
use crate::referee::{Engine, EngineSpec, parse_engine};

/// A GTP engine's longest think on one problem before it counts as failed.
const MOVE_TIMEOUT: Duration = Duration::from_secs(600);

/// The komi that gives the game to whoever wins the fight, on a board of `area` points whose
/// problem's region has `region` points: the attacker owns everything when it kills, the
/// defender about the region when it lives, and the komi lies half-way (a half point off to rule
/// out a tie). Without it an engine that is far ahead or behind whatever happens to the group
/// sees no difference between the moves, and plays anywhere.
fn deciding_komi(area: usize, region: usize, defender: Color) -> HalfPoints {
    // Black's margin: area when Black kills, area - 2 * region when White lives (half-way:
    // area - region); -area when White kills, 2 * region - area when Black lives
    let halfway = i32::try_from(area.saturating_sub(region)).unwrap_or(i32::MAX / 4);
    let black_margin = if defender == Color::White { halfway } else { -halfway };
    HalfPoints(2 * black_margin + 1)
}

/// One engine and its score so far.
struct Asked {
    name: String,
    spec: EngineSpec,
    /// `None` after a failure, until the next problem starts it again.
    engine: Option<Engine>,
    book_right: usize,
    with_book: usize,
    solver_right: usize,
    solved: usize,
}

/// The engines of `--engine`, each asked in turn.
pub(crate) struct Engines {
    engines: Vec<Asked>,
    /// Where a GTP engine's `loadsgf` reads the problem (a path without spaces).
    sgf: PathBuf,
}

impl Engines {
    /// Starts the engines named (none is fine: then [`Engines::ask`] does nothing).
    pub(crate) fn start(names: &[String]) -> Result<Engines, Failure> {
        let mut engines = Vec::new();
        for name in names {
            let spec = parse_engine(name, 1)?;
            let engine = Some(Engine::start(&spec, MOVE_TIMEOUT)?);
            engines.push(Asked {
                name: name.clone(),
                spec,
                engine,
                book_right: 0,
                with_book: 0,
                solver_right: 0,
                solved: 0,
            });
        }
        let sgf = std::env::temp_dir().join(format!("variago-life-{}.sgf", std::process::id()));
        Ok(Engines { engines, sgf })
    }

    /// Asks every engine for its move in `problem` and prints it, indented, with whether it is
    /// right by the book and by the solver's `answer`. The engine is shown the problem as the
    /// solver poses it ([`Problem::square_view`]: the board with the frame, cut to a square
    /// around the region), where a move elsewhere is plainly elsewhere (on the whole board, a
    /// corner problem among empty space, engines take a big point instead), with the komi that
    /// makes the fight the game ([`deciding_komi`]).
    pub(crate) fn ask(&mut self, spec: &VariantSpec, problem: &ReadProblem, answer: Option<&Answer>) {
        if self.engines.is_empty() {
            return;
        }
        let Some(answer) = answer else { return };
        let Ok(posed) = Problem::new(spec, problem.board.clone(), problem.to_move, answer.goal) else {
            return;
        };
        let (board, view) = posed.square_view();
        let geometry = board.geometry();
        let mut spec = spec.clone();
        spec.set_komi(deciding_komi(geometry.area(), posed.region_points().len(), posed.defender()));
        let shown =
            ReadProblem { name: problem.name.clone(), board, to_move: problem.to_move, book: Vec::new() };
        let game = AnyGame::from_setup(&spec, shown.board.clone(), shown.to_move);
        let written = std::fs::write(&self.sgf, problem_sgf(&spec, &shown));
        let solved = (answer.verdict == Verdict::Success).then_some(answer);
        for asked in &mut self.engines {
            let moved = match (&written, asked.engine.as_mut()) {
                (Err(e), _) => Err(format!("cannot write {}: {e}", self.sgf.display())),
                (Ok(()), Some(engine)) => engine.move_in_setup(&game, &self.sgf).map_err(|e| e.message),
                (Ok(()), None) => Err("not running".to_string()),
            };
            let mv: Option<Move> = match moved {
                Ok(mv) => mv.map(|mv| view.on_given_board(geometry, mv)),
                Err(e) => {
                    println!("  engine {}: failed ({e})", asked.name);
                    // a fresh start for the next problem
                    asked.engine = Engine::start(&asked.spec, MOVE_TIMEOUT).ok();
                    None
                }
            };
            let text = mv.map_or_else(
                || "resign".to_string(),
                |mv| moves_text::<VariantSpec>(problem.board.geometry(), &[mv]),
            );
            let mut verdicts = Vec::new();
            if !problem.book.is_empty() {
                let right = mv.is_some_and(|mv| problem.book.contains(&mv));
                asked.with_book += 1;
                asked.book_right += right as usize;
                verdicts.push(format!("book {}", if right { "right" } else { "wrong" }));
            }
            if let Some(answer) = solved {
                let right = mv.is_some_and(|mv| answer.winning_moves.contains(&mv));
                asked.solved += 1;
                asked.solver_right += right as usize;
                verdicts.push(format!("solver {}", if right { "right" } else { "wrong" }));
            }
            println!("  engine {}: {text} ({})", asked.name, verdicts.join(", "));
        }
    }

    /// One line per engine, `engine NAME: book A of B right, solver C of D right`; the engines
    /// are stopped.
    pub(crate) fn summarise(self) {
        for asked in self.engines {
            println!(
                "engine {}: book {} of {} right, solver {} of {} right",
                asked.name, asked.book_right, asked.with_book, asked.solver_right, asked.solved
            );
            if let Some(engine) = asked.engine {
                engine.stop();
            }
        }
        let _ = std::fs::remove_file(&self.sgf);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black's margin on a board of `area` points with White's komi, when Black owns `black`
    /// points and White the rest.
    fn black_wins(area: i32, black: i32, komi: HalfPoints) -> bool {
        2 * (black - (area - black)) > komi.0
    }

    #[test]
    fn the_komi_gives_the_game_to_whoever_wins_the_fight() {
        // 9x9, a region of 20 points: the attacker owns everything when it kills, the defender
        // the region when it lives
        for defender in [Color::White, Color::Black] {
            let komi = deciding_komi(81, 20, defender);
            let (killed, lived) = if defender == Color::White { (81, 61) } else { (0, 20) };
            assert_eq!(black_wins(81, killed, komi), defender == Color::White, "{defender}: a kill");
            assert_eq!(black_wins(81, lived, komi), defender == Color::Black, "{defender}: life");
        }
    }
}
