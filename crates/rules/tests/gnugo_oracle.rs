//! GNU Go 3.8 as an independent oracle for standard Go (`go`: positional superko, suicide
//! forbidden): random legal games are played in the engine and in GNU Go side by side; after every
//! move the whole board must agree (`list_stones`), GNU Go must accept the move (`play`), and the
//! legality of every empty point for the side to move must agree (`is_legal`). The same runs, with
//! fewer games, for `go:ko=simple` (`--simple-ko`), `go:ko=situational` (`--situational-superko`)
//! and `go:suicide=allowed` (`--allow-suicide`, which like the engine keeps a lone stone's suicide
//! illegal). Games are on 9x9 and, where whole-board repetitions are frequent, on 2x2 to 7x7.
//!
//! GNU Go runs as `gnugo --mode gtp --chinese-rules --boardsize 9 --positional-superko` (or with the
//! ko and suicide options of the rule set under test), found in `PATH` or at `/usr/games/gnugo`
//! (Debian/Ubuntu: `apt-get install gnugo`), spoken to in GTP over its stdin and stdout. Without it
//! the tests print a notice and pass, unless `VARIAGO_REQUIRE_GNUGO=1` (CI), which makes them fail.
//!
//! # What GNU Go's `is_legal` knows about superko
//!
//! GNU Go 3.8's GTP `is_legal` (and `play`, and `all_legal`) call `is_allowed_move()` in
//! `engine/board.c`, which checks, in order: the point is empty; not the simple-ko point (unless
//! `--no-ko`); not suicide (per `--forbid-suicide` / `--allow-suicide`); and, under
//! `--positional-superko` or `--situational-superko`, `is_superko_violation()`: the board after the
//! move is compared (Zobrist hash, simple-ko point taken out) with the board before every move of
//! the history and with the current board. So `is_legal` does honour positional superko, passes
//! included (a pass keeps the board in the history). Checked experimentally in
//! [`gnugo_is_legal_honours_positional_superko`]: a 2x2 cycle that simple ko allows is refused by
//! `is_legal` (`= 0`) and by `play` (`? illegal move`) under `--positional-superko`, and allowed
//! without it.
//!
//! Limits of GNU Go, kept out of the comparison:
//! - the history holds `MAX_MOVE_HISTORY` = 500 moves; beyond that GNU Go folds the oldest tenth
//!   into its initial position and forgets those boards (so games here stay far shorter);
//! - boards are square, 1..19 (so these games are square);
//! - with `--allow-suicide`, the superko check is blind to suicides: `is_superko_violation()`
//!   plays the move with `really_do_trymove()`, which does not take the suicided group off, so the
//!   board it looks up is not the board the move makes. A suicide that recreates an earlier board
//!   is therefore `is_legal` = 1 and `play`able in GNU Go, while the rules (and the engine) forbid
//!   it. Found by this test, shown in [`gnugo_misses_superko_made_by_a_suicide`]; the comparison
//!   tolerates exactly this case (engine: superko, and the move is a suicide) and counts it.
//!
//! Apart from that, GNU Go's legality must equal the engine's exactly, and the test asserts
//! equality (naming the engine's reason on a mismatch, and what the engine's simple-ko rules would
//! say, to tell a superko disagreement at a glance). Over a soak of about 450,000 moves (all four
//! rule sets) no other disagreement appeared.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use variago_rules::{AnyGame, Board, Color, Game, Geometry, Illegal, Move, Point, VariantSpec};

/// A minimal GTP client over GNU Go's stdin and stdout.
struct Gtp {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Gtp {
    /// Starts `program --mode gtp --chinese-rules --boardsize 9` with the given ko and suicide
    /// options.
    fn start(program: &Path, rules: &[&str]) -> Gtp {
        let mut child = Command::new(program)
            .args(["--mode", "gtp", "--chinese-rules", "--boardsize", "9"])
            .args(rules)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        Gtp { child, stdin, stdout }
    }

    /// Sends commands in one batch (GTP answers them in order), then reads every answer:
    /// `Ok(text)` for `= text`, `Err(text)` for `? text`.
    fn batch(&mut self, commands: &[String]) -> Vec<Result<String, String>> {
        let mut text = String::new();
        for command in commands {
            text.push_str(command);
            text.push('\n');
        }
        self.stdin.write_all(text.as_bytes()).expect("write to GNU Go");
        self.stdin.flush().expect("flush to GNU Go");
        commands.iter().map(|command| self.read_response(command)).collect()
    }

    /// Reads one response: lines up to an empty line, the first starting with `=` or `?`.
    fn read_response(&mut self, command: &str) -> Result<String, String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read from GNU Go");
            assert!(n > 0, "GNU Go closed its output while answering `{command}`");
            let line = line.trim_end_matches(['\n', '\r']);
            if line.is_empty() {
                if lines.is_empty() {
                    continue; // stray blank line before a response
                }
                break;
            }
            lines.push(line.to_string());
        }
        let first = &lines[0];
        let body = first[1..].trim_start().to_string();
        let body = std::iter::once(body).chain(lines[1..].iter().cloned()).collect::<Vec<_>>().join("\n");
        match first.as_bytes()[0] {
            b'=' => Ok(body),
            b'?' => Err(body),
            _ => panic!("GNU Go answered `{command}` with `{first}`"),
        }
    }

    /// One command that must succeed.
    fn ok(&mut self, command: &str) -> String {
        let answer = self.batch(&[command.to_string()]).remove(0);
        answer.unwrap_or_else(|e| panic!("GNU Go refused `{command}`: {e}"))
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.stdin.flush();
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn find_gnugo() -> Option<PathBuf> {
    let in_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).map(|dir| dir.join("gnugo")).collect::<Vec<_>>())
        .unwrap_or_default();
    in_path.into_iter().chain([PathBuf::from("/usr/games/gnugo")]).find(|p| p.is_file())
}

/// GNU Go with the given ko and suicide options, or `None` (with a notice) when it is not
/// installed and not required.
fn gnugo(rules: &[&str]) -> Option<Gtp> {
    match find_gnugo() {
        Some(path) => Some(Gtp::start(&path, rules)),
        None if std::env::var("VARIAGO_REQUIRE_GNUGO").as_deref() == Ok("1") => panic!(
            "VARIAGO_REQUIRE_GNUGO=1 but GNU Go is not installed (looked for `gnugo` in PATH and at \
             /usr/games/gnugo); install it with `apt-get install gnugo`"
        ),
        None => {
            eprintln!(
                "notice: GNU Go not found (PATH, /usr/games/gnugo): skipping the GNU Go oracle test; \
                 `apt-get install gnugo` to run it, VARIAGO_REQUIRE_GNUGO=1 to make its absence fail"
            );
            None
        }
    }
}

fn gtp_color(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A game played in the engine and in GNU Go, with the same game under simple ko alongside (every
/// move legal under a superko rule is legal under simple ko) to name superko disagreements.
struct Duel<'a> {
    gtp: &'a mut Gtp,
    geometry: Geometry,
    game: AnyGame,
    simple_ko: AnyGame,
    label: String,
    history: Vec<String>,
    /// Verdicts compared so far.
    tally: &'a mut Tally,
}

/// How many verdicts of each kind were compared.
#[derive(Debug, Default)]
struct Tally {
    legal: usize,
    occupied: usize,
    suicide: usize,
    /// Lone-stone suicides, where suicide is allowed.
    changes_nothing: usize,
    simple_ko: usize,
    superko: usize,
    /// Superko refusals that simple ko would allow.
    superko_not_simple_ko: usize,
    /// Suicides that recreate an earlier board: the engine refuses them, GNU Go allows them.
    superko_by_suicide_gnugo_misses: usize,
}

impl<'a> Duel<'a> {
    fn new(gtp: &'a mut Gtp, tally: &'a mut Tally, spec: &str, size: u32, label: String) -> Self {
        let geometry = Geometry::square(size).expect("a board size");
        gtp.ok(&format!("boardsize {size}"));
        gtp.ok("clear_board");
        gtp.ok("komi 7.5");
        let spec: VariantSpec = spec.parse().expect("spec parses");
        let mut simple_ko: VariantSpec = if spec.to_string().contains("suicide=allowed") {
            "go:ko=simple,suicide=allowed"
        } else {
            "go:ko=simple"
        }
        .parse()
        .expect("spec parses");
        simple_ko.set_komi(spec.komi());
        Duel {
            gtp,
            geometry,
            game: AnyGame::new(&spec, geometry),
            simple_ko: AnyGame::new(&simple_ko, geometry),
            label,
            history: Vec::new(),
            tally,
        }
    }

    fn context(&self) -> String {
        format!(
            "{}: {} to move after {} moves: {}\n{}",
            self.label,
            self.game.to_move(),
            self.history.len(),
            self.history.join(" "),
            self.game.board()
        )
    }

    fn vertex(&self, p: Point) -> String {
        self.geometry.vertex(p).to_string()
    }

    /// The whole board, and the legality of every empty point for the side to move.
    fn compare(&mut self) {
        let to_move = self.game.to_move();
        let points: Vec<Point> = self.geometry.points().collect();
        let empty: Vec<Point> =
            points.iter().copied().filter(|&p| self.game.board().piece(p).is_none()).collect();
        let occupied = points.iter().copied().find(|&p| self.game.board().piece(p).is_some());
        let mut commands = vec!["list_stones black".to_string(), "list_stones white".to_string()];
        commands.extend(
            empty
                .iter()
                .chain(&occupied)
                .map(|&p| format!("is_legal {} {}", gtp_color(to_move), self.vertex(p))),
        );
        let answers = self.gtp.batch(&commands);

        for (k, c) in [Color::Black, Color::White].into_iter().enumerate() {
            let listed = answers[k].as_ref().unwrap_or_else(|e| panic!("list_stones: {e}"));
            let mut theirs: Vec<Point> = listed
                .split_whitespace()
                .map(|v| self.geometry.parse_vertex(v).unwrap_or_else(|e| panic!("GNU Go vertex {v}: {e}")))
                .collect();
            theirs.sort_unstable();
            let ours: Vec<Point> =
                points.iter().copied().filter(|&p| self.game.board().color(p) == Some(c)).collect();
            if theirs != ours {
                let names = |ps: &[Point]| ps.iter().map(|&p| self.vertex(p)).collect::<Vec<_>>().join(" ");
                panic!(
                    "{c} stones differ: engine {}, GNU Go {}\n{}",
                    names(&ours),
                    names(&theirs),
                    self.context()
                );
            }
        }
        if self.game.is_over() {
            return; // two passes: the engine's game is over, GNU Go's GTP board plays on
        }
        for (&p, answer) in empty.iter().chain(&occupied).zip(&answers[2..]) {
            let theirs = match answer.as_deref() {
                Ok("1") => true,
                Ok("0") => false,
                other => panic!("is_legal {}: {other:?}", self.vertex(p)),
            };
            let ours = self.game.check(Move::Place(p));
            if theirs && ours.is_err() && self.is_superko_by_suicide(p, &ours) {
                // GNU Go's known gap, see the module comment: the engine is right
                self.tally.superko_by_suicide_gnugo_misses += 1;
                continue;
            }
            if ours.is_ok() != theirs {
                panic!(
                    "legality of {} {} differs: engine {ours:?} (with simple ko only: {:?}), GNU Go is_legal {}\n{}",
                    to_move,
                    self.vertex(p),
                    self.simple_ko.check(Move::Place(p)),
                    u8::from(theirs),
                    self.context()
                );
            }
            match ours {
                Ok(()) => self.tally.legal += 1,
                Err(Illegal::Occupied(_)) => self.tally.occupied += 1,
                Err(Illegal::Suicide) => self.tally.suicide += 1,
                Err(Illegal::ChangesNothing) => self.tally.changes_nothing += 1,
                Err(Illegal::Ko) => self.tally.simple_ko += 1,
                Err(Illegal::PositionalSuperko | Illegal::SituationalSuperko) => {
                    self.tally.superko += 1;
                    if self.simple_ko.check(Move::Place(p)).is_ok() {
                        self.tally.superko_not_simple_ko += 1;
                    }
                }
                Err(other) => panic!("refused {} for an unexpected reason: {other}", self.vertex(p)),
            }
        }
    }

    /// Whether the engine refused `p` for superko and `p` is a suicide (where suicide is allowed):
    /// the one case where GNU Go's superko check is known to be blind.
    fn is_superko_by_suicide(&self, p: Point, ours: &Result<(), Illegal>) -> bool {
        if !matches!(ours, Err(Illegal::PositionalSuperko | Illegal::SituationalSuperko)) {
            return false;
        }
        let mut after = self.simple_ko.clone();
        after.play(Move::Place(p)).is_ok() && after.board().piece(p).is_none()
    }

    /// Plays a move the engine says is legal in both programs.
    fn play(&mut self, mv: Move) {
        let color = self.game.to_move();
        let name = match mv {
            Move::Pass => "pass".to_string(),
            Move::Place(p) => self.vertex(p),
        };
        if let Err(e) = self.gtp.batch(&[format!("play {} {name}", gtp_color(color))]).remove(0) {
            panic!("GNU Go refused {color} {name}, which the engine allows: {e}\n{}", self.context());
        }
        self.game.play(mv).unwrap_or_else(|e| panic!("engine refused its own legal move {name}: {e}"));
        // the simple-ko shadow accepts every positional-superko-legal move
        self.simple_ko.play(mv).unwrap_or_else(|e| panic!("simple-ko shadow refused {name}: {e}"));
        self.history.push(name);
    }
}

/// A random legal game: placements uniform among the legal ones, or the light playout's choice
/// (games that reach eyes and end by passing); a rare pass. Stops at two passes or `max_moves`.
fn duel(gtp: &mut Gtp, tally: &mut Tally, spec: &str, size: u32, seed: u64, max_moves: usize) -> usize {
    let mut rng = SmallRng::seed_from_u64(seed);
    let light = rng.random_bool(0.5);
    let label = format!("{spec} {size}x{size} game, seed {seed:#x}, light {light}");
    let mut duel = Duel::new(gtp, tally, spec, size, label);
    let mut legal = Vec::new();
    duel.compare();
    while !duel.game.is_over() && duel.history.len() < max_moves {
        duel.game.legal_moves(&mut legal);
        legal.retain(|&m| m != Move::Pass);
        let mv = if legal.is_empty() || rng.random_ratio(1, 50) {
            Move::Pass
        } else if light {
            duel.game.light_move(&mut rng)
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        duel.play(mv);
        duel.compare();
    }
    duel.history.len()
}

/// Random 9x9 games (each up to 250 moves).
const GAMES_9X9: u64 = 30;
/// Random games per small board size, 2x2 to 7x7 (each up to 300 moves).
const GAMES_SMALL: u64 = 20;

/// Random games of `spec` against GNU Go run with `rules`; returns the tally.
fn random_games(spec: &str, rules: &[&str], games_9x9: u64, games_small: u64) -> Option<Tally> {
    let mut gtp = gnugo(rules)?;
    let version = gtp.ok("version");
    assert!(version.starts_with("3."), "expected GNU Go 3.x, found {version}");
    let start = Instant::now();
    let mut plies = 0;
    let mut tally = Tally::default();
    // 9x9: long games, far below GNU Go's 500-move history
    for seed in 0..games_9x9 {
        plies += duel(&mut gtp, &mut tally, spec, 9, 0x9_0000 + seed, 250);
    }
    // small boards: whole-board repetitions (superko) are frequent there
    for size in 2..=7 {
        for seed in 0..games_small {
            plies += duel(&mut gtp, &mut tally, spec, size, 0x100 * size as u64 + seed, 300);
        }
    }
    eprintln!(
        "GNU Go oracle, {spec} vs {rules:?}: {plies} moves, verdicts {tally:?}, in {:.1?}",
        start.elapsed()
    );
    Some(tally)
}

/// The default `go` (positional superko, suicide forbidden) against GNU Go's
/// `--positional-superko`.
#[test]
fn random_games_agree_with_gnugo() {
    let Some(tally) = random_games("go", &["--positional-superko"], GAMES_9X9, GAMES_SMALL) else { return };
    assert!(tally.superko_not_simple_ko > 0, "no superko case beyond simple ko was compared: {tally:?}");
}

/// The other ko rules, and suicide, against GNU Go's matching options (fewer games each).
#[test]
fn other_ko_and_suicide_rules_agree_with_gnugo() {
    let cases: [(&str, &[&str]); 3] = [
        ("go:ko=simple", &["--simple-ko"]),
        ("go:ko=situational", &["--situational-superko"]),
        ("go:suicide=allowed", &["--positional-superko", "--allow-suicide"]),
    ];
    for (spec, rules) in cases {
        let Some(tally) = random_games(spec, rules, GAMES_9X9 / 3, GAMES_SMALL / 3) else { return };
        let interesting = match spec {
            "go:ko=simple" => tally.simple_ko,
            "go:ko=situational" => tally.superko_not_simple_ko,
            _ => tally.changes_nothing,
        };
        assert!(interesting > 0, "{spec}: nothing specific to the rule was compared: {tally:?}");
    }
}

/// The experiment behind the module comment: on a 2x2 board,
///
/// ```text
///   B A1, W B2, B B1, W A2 (captures A1 B1), B A1, W B1 (captures A1)
///      A B
///    2 O O 2     Black A1 now would capture A2 B2 B1 and recreate the board after move 1
///    1 . O 1     (a lone black stone on A1): not a simple ko, but a positional superko.
///      A B
/// ```
#[test]
fn gnugo_is_legal_honours_positional_superko() {
    let Some(mut gtp) = gnugo(&["--positional-superko"]) else { return };
    let moves = ["B A1", "W B2", "B B1", "W A2", "B A1", "W B1"];
    gtp.ok("boardsize 2");
    gtp.ok("clear_board");
    let geometry = Geometry::square(2).unwrap();
    let mut game = AnyGame::new(&"go".parse().unwrap(), geometry);
    let mut simple = AnyGame::new(&"go:ko=simple".parse().unwrap(), geometry);
    for m in moves {
        gtp.ok(&format!("play {m}"));
        let p = Move::Place(geometry.parse_vertex(&m[2..]).unwrap());
        game.play(p).unwrap();
        simple.play(p).unwrap();
    }
    let a1 = Move::Place(geometry.parse_vertex("A1").unwrap());
    assert_eq!(gtp.ok("list_stones white"), "A2 B2 B1");
    assert_eq!(gtp.ok("is_legal black A1"), "0", "GNU Go's is_legal ignores positional superko");
    assert!(gtp.batch(&["play black A1".to_string()]).remove(0).is_err(), "GNU Go's play allowed the cycle");
    assert_eq!(game.check(a1), Err(Illegal::PositionalSuperko));
    // the same cycle is legal under simple ko, in the engine...
    assert_eq!(simple.check(a1), Ok(()));
    // ...and in GNU Go without --positional-superko, whose ko rule is then simple ko
    if let Some(mut plain) = gnugo(&["--simple-ko"]) {
        plain.ok("boardsize 2");
        plain.ok("clear_board");
        for m in moves {
            plain.ok(&format!("play {m}"));
        }
        assert_eq!(plain.ok("is_legal black A1"), "1", "simple-ko GNU Go refuses the 2x2 cycle");
    }
}

/// GNU Go's blind spot, found by the random games: with `--allow-suicide` its superko check does
/// not see suicides.
///
/// ```text
///   W A2, B pass, W A1, B pass, W B1, B pass
///      A B
///    2 O . 2     White B2 fills White's last liberty: a suicide of four stones, which takes them
///    1 O O 1     off and leaves the empty board, the starting position: a positional superko.
///      A B
/// ```
#[test]
fn gnugo_misses_superko_made_by_a_suicide() {
    let Some(mut gtp) = gnugo(&["--positional-superko", "--allow-suicide"]) else { return };
    let moves = ["W A2", "B pass", "W A1", "B pass", "W B1", "B pass"];
    gtp.ok("boardsize 2");
    gtp.ok("clear_board");
    let geometry = Geometry::square(2).unwrap();
    let spec: VariantSpec = "go:suicide=allowed".parse().unwrap();
    let mut game = AnyGame::from_setup(&spec, Board::new(geometry), Color::White);
    for m in moves {
        gtp.ok(&format!("play {m}"));
        let mv = match &m[2..] {
            "pass" => Move::Pass,
            v => Move::Place(geometry.parse_vertex(v).unwrap()),
        };
        game.play(mv).unwrap();
    }
    let b2 = Move::Place(geometry.parse_vertex("B2").unwrap());
    assert_eq!(game.check(b2), Err(Illegal::PositionalSuperko));
    // GNU Go allows it and plays it: the board is empty again
    assert_eq!(gtp.ok("is_legal white B2"), "1", "GNU Go now sees superko by suicide: tighten the oracle");
    gtp.ok("play white B2");
    assert_eq!((gtp.ok("list_stones white"), gtp.ok("list_stones black")), (String::new(), String::new()));
}
