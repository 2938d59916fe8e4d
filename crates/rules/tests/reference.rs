//! A deliberately naive reference model of Go, Incursion Go and Stoical Go, written from the rules
//! (`/work/shared/rules`: README.md, go.md, incursion.md, stoical.md) and not from the engine:
//! a plain `Vec` board, flood fills for groups, liberties and regions, the whole list of earlier
//! positions for superko and the own-position draw. The engine must agree with it on legal moves,
//! on why the other moves are illegal, on boards, scores and results over many random games, and
//! on perft from the empty board.
//!
//! Readings of the rules this model takes (where the text leaves room):
//! - superko history holds the position after every move, passes included, plus the set-up
//!   position (go.md: "the boards compared are the boards after each move"); situational superko
//!   compares (board, player to move next);
//! - simple ko forbids a move whose board equals the board before the opponent's last move;
//! - incursion/stoical restrictions look at the opponent's last *move* (a pass resets them);
//! - with `minimal` and `shape=line` combined, a placement restricts the reply (and is restricted)
//!   when it is a minimal incursion into a line-shaped territory;
//! - the own-position draw compares with the mover's own end-of-turn boards only (the set-up board
//!   is nobody's end of turn);
//! - with suicide allowed, a suicide that leaves the board as it was (a lone stone) is
//!   `ChangesNothing`;
//! - when several reasons apply to one move the rules put them in no order: the engine's reason
//!   must be one of them.

use std::collections::HashSet;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use variago_rules::perft::perft;
use variago_rules::{
    AnyGame, Board, Color, Ending, Game, GameResult, Geometry, Illegal, Move, ScoreSheet, VariantSpec, Vertex,
};

// ---------------------------------------------------------------------------------------------
// The reference model
// ---------------------------------------------------------------------------------------------

type Cell = Option<Color>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Go,
    Incursion,
    Stoical,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ko {
    None,
    Simple,
    Positional,
    Situational,
}

/// A variant's rules as the reference reads them from a spec string.
#[derive(Clone, Copy, Debug)]
struct Rules {
    family: Family,
    ko: Ko,
    suicide_allowed: bool,
    minimal: bool,
    line: bool,
    more_stones: bool,
    own_position_draw: bool,
    /// Komi in half points.
    komi2: i32,
}

impl Rules {
    /// Parses `name[:key=value,...]` by hand (defaults from the rules documents).
    fn parse(spec: &str) -> Rules {
        let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
        let mut rules = Rules {
            family: Family::Go,
            ko: Ko::Positional,
            suicide_allowed: false,
            minimal: false,
            line: false,
            more_stones: false,
            own_position_draw: false,
            komi2: 15,
        };
        match name {
            "go" => {}
            "incursion" | "incursion-minimal" | "incursion-line" => {
                rules.family = Family::Incursion;
                rules.ko = Ko::None;
                rules.own_position_draw = true;
                rules.minimal = name == "incursion-minimal";
                rules.line = name == "incursion-line";
            }
            "stoical" => {
                rules.family = Family::Stoical;
                rules.ko = Ko::None;
                rules.own_position_draw = true;
            }
            _ => panic!("unknown variant {name}"),
        }
        for option in options.split(',').filter(|o| !o.is_empty()) {
            let (key, value) = option.split_once('=').unwrap();
            match (key, value) {
                ("ko", "simple") => rules.ko = Ko::Simple,
                ("ko", "positional") => rules.ko = Ko::Positional,
                ("ko", "situational") => rules.ko = Ko::Situational,
                ("suicide", "allowed") => rules.suicide_allowed = true,
                ("suicide", "forbidden") => rules.suicide_allowed = false,
                ("minimal", v) => rules.minimal = v == "true",
                ("shape", v) => rules.line = v == "line",
                ("refine", v) => rules.more_stones = v == "more-stones",
                ("draw", v) => rules.own_position_draw = v == "own-position",
                ("komi", v) => {
                    let k: f64 = v.parse().unwrap();
                    rules.komi2 = (k * 2.0) as i32;
                }
                _ => panic!("unknown option {option}"),
            }
        }
        rules
    }
}

/// What a placement does, computed on a copy of the board.
#[derive(Clone, Debug)]
struct Placement {
    /// The board after the move (the mover's group removed if it was an allowed suicide).
    after: Vec<Cell>,
    captured_groups: usize,
    captured_stones: usize,
    /// The mover's group had no liberty once the captures were removed.
    suicide: bool,
    /// Before the move, the point's region was the opponent's territory.
    incursion: bool,
    /// That region is line-shaped.
    line_shaped: bool,
}

/// What the last move left for the restrictions (`None`: a pass, or the set-up).
#[derive(Clone, Copy, Debug)]
struct LastPlacement {
    counted_incursion: bool,
    captured_stones: usize,
}

#[derive(Clone, Debug)]
struct RefGame {
    rules: Rules,
    width: usize,
    height: usize,
    /// Row-major, row 0 at the top.
    board: Vec<Cell>,
    to_move: Color,
    passes_in_a_row: usize,
    /// Every position so far, the set-up first: the board and the player to move.
    positions: Vec<(Vec<Cell>, Color)>,
    /// Each player's boards at the end of each of its turns, passes included.
    own_boards: [Vec<Vec<Cell>>; 2],
    last: Option<LastPlacement>,
    drawn: bool,
}

impl RefGame {
    fn new(spec: &str, width: usize, height: usize) -> RefGame {
        RefGame::from_setup(spec, width, height, vec![None; width * height], Color::Black)
    }

    fn from_setup(spec: &str, width: usize, height: usize, board: Vec<Cell>, to_move: Color) -> RefGame {
        RefGame {
            rules: Rules::parse(spec),
            width,
            height,
            positions: vec![(board.clone(), to_move)],
            board,
            to_move,
            passes_in_a_row: 0,
            own_boards: [Vec::new(), Vec::new()],
            last: None,
            drawn: false,
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.width, i / self.width);
        let mut out = Vec::new();
        if x > 0 {
            out.push(i - 1);
        }
        if x + 1 < self.width {
            out.push(i + 1);
        }
        if y > 0 {
            out.push(i - self.width);
        }
        if y + 1 < self.height {
            out.push(i + self.width);
        }
        out
    }

    /// The points connected to `start` through points holding the same thing as `start` (a group
    /// for a stone, a region for an empty point).
    fn flood(&self, board: &[Cell], start: usize) -> Vec<usize> {
        let mut seen = vec![false; board.len()];
        let mut stack = vec![start];
        let mut out = Vec::new();
        seen[start] = true;
        while let Some(i) = stack.pop() {
            out.push(i);
            for n in self.neighbours(i) {
                if !seen[n] && board[n] == board[start] {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        out
    }

    fn liberties(&self, board: &[Cell], group: &[usize]) -> usize {
        let mut libs: Vec<usize> =
            group.iter().flat_map(|&s| self.neighbours(s)).filter(|&n| board[n].is_none()).collect();
        libs.sort();
        libs.dedup();
        libs.len()
    }

    /// The colours of the pieces bordering a region.
    fn border_colours(&self, board: &[Cell], region: &[usize]) -> (bool, bool) {
        let (mut black, mut white) = (false, false);
        for &i in region {
            for n in self.neighbours(i) {
                match board[n] {
                    Some(Color::Black) => black = true,
                    Some(Color::White) => white = true,
                    None => {}
                }
            }
        }
        (black, white)
    }

    /// No point with more than two neighbours inside, and exactly points - 1 inner adjacencies.
    fn line_shaped(&self, region: &[usize]) -> bool {
        let mut adjacencies = 0;
        for &i in region {
            let degree = self.neighbours(i).into_iter().filter(|n| region.contains(n)).count();
            if degree > 2 {
                return false;
            }
            adjacencies += degree;
        }
        adjacencies / 2 == region.len() - 1
    }

    fn simulate(&self, p: usize) -> Placement {
        let me = self.to_move;
        let opp = me.opponent();
        // incursion: looked at before the placement
        let region = self.flood(&self.board, p);
        let (black, white) = self.border_colours(&self.board, &region);
        let (mine, theirs) = if me == Color::Black { (black, white) } else { (white, black) };
        let incursion = theirs && !mine;
        let line_shaped = self.line_shaped(&region);

        let mut after = self.board.clone();
        after[p] = Some(me);
        let mut captured_groups = 0;
        let mut captured_stones = 0;
        for n in self.neighbours(p) {
            if after[n] == Some(opp) {
                let group = self.flood(&after, n);
                if self.liberties(&after, &group) == 0 {
                    captured_groups += 1;
                    captured_stones += group.len();
                    for s in group {
                        after[s] = None;
                    }
                }
            }
        }
        let own = self.flood(&after, p);
        let suicide = self.liberties(&after, &own) == 0;
        if suicide {
            for s in own {
                after[s] = None;
            }
        }
        Placement { after, captured_groups, captured_stones, suicide, incursion, line_shaped }
    }

    fn counts_as_incursion(&self, placement: &Placement) -> bool {
        placement.incursion
            && (!self.rules.line || placement.line_shaped)
            && (!self.rules.minimal || placement.captured_groups <= 1)
    }

    fn is_over(&self) -> bool {
        self.drawn || self.passes_in_a_row >= 2
    }

    fn vertex(&self, p: usize) -> Vertex {
        Vertex { column: (p % self.width) as u8, row: (self.height - p / self.width) as u8 }
    }

    /// Every reason that makes a placement on `p` illegal (empty: legal).
    fn reasons(&self, p: usize) -> Vec<Illegal> {
        if self.is_over() {
            return vec![Illegal::GameOver];
        }
        if self.board[p].is_some() {
            return vec![Illegal::Occupied(self.vertex(p))];
        }
        let placement = self.simulate(p);
        let mut reasons = Vec::new();
        if placement.suicide {
            if !self.rules.suicide_allowed {
                return vec![Illegal::Suicide];
            }
            if placement.after == self.board {
                reasons.push(Illegal::ChangesNothing);
            }
        }
        let next = self.to_move.opponent();
        match self.rules.ko {
            Ko::None => {}
            Ko::Simple => {
                let n = self.positions.len();
                if n >= 2 && self.positions[n - 2].0 == placement.after {
                    reasons.push(Illegal::Ko);
                }
            }
            Ko::Positional => {
                if self.positions.iter().any(|(b, _)| *b == placement.after) {
                    reasons.push(Illegal::PositionalSuperko);
                }
            }
            Ko::Situational => {
                if self.positions.iter().any(|(b, c)| *c == next && *b == placement.after) {
                    reasons.push(Illegal::SituationalSuperko);
                }
            }
        }
        match self.rules.family {
            Family::Go => {}
            Family::Incursion => {
                let last_counted = self.last.is_some_and(|l| l.counted_incursion);
                if last_counted && self.counts_as_incursion(&placement) {
                    reasons.push(if self.rules.minimal {
                        Illegal::MinimalIncursionAfterMinimal
                    } else {
                        Illegal::IncursionAfterIncursion
                    });
                }
            }
            Family::Stoical => {
                let previous = self.last.map_or(0, |l| l.captured_stones);
                let captures = placement.captured_stones;
                if previous > 0 && captures > 0 {
                    if !self.rules.more_stones {
                        reasons.push(Illegal::CaptureAfterCapture);
                    } else if captures <= previous {
                        reasons.push(Illegal::CaptureNotLarger {
                            captures: captures as u16,
                            previous: previous as u16,
                        });
                    }
                }
            }
        }
        reasons
    }

    /// Legal moves: `Some(point)` for placements, in point order, then `None` for the pass.
    fn legal_moves(&self) -> Vec<Option<usize>> {
        Self::legal_from(&self.all_reasons(), self.is_over())
    }

    /// The reasons of every point, in point order.
    fn all_reasons(&self) -> Vec<Vec<Illegal>> {
        (0..self.board.len()).map(|p| self.reasons(p)).collect()
    }

    fn legal_from(reasons: &[Vec<Illegal>], over: bool) -> Vec<Option<usize>> {
        if over {
            return Vec::new();
        }
        let mut out: Vec<Option<usize>> =
            (0..reasons.len()).filter(|&p| reasons[p].is_empty()).map(Some).collect();
        out.push(None);
        out
    }

    fn play(&mut self, mv: Option<usize>) {
        assert!(!self.is_over());
        let mover = self.to_move;
        match mv {
            None => {
                self.passes_in_a_row += 1;
                self.last = None;
            }
            Some(p) => {
                assert!(self.reasons(p).is_empty(), "reference: illegal move");
                let placement = self.simulate(p);
                self.board = placement.after.clone();
                self.passes_in_a_row = 0;
                self.last = Some(LastPlacement {
                    counted_incursion: self.counts_as_incursion(&placement),
                    captured_stones: placement.captured_stones,
                });
                if self.rules.own_position_draw && self.own_boards[mover as usize].contains(&self.board) {
                    self.drawn = true;
                }
            }
        }
        self.own_boards[mover as usize].push(self.board.clone());
        self.to_move = mover.opponent();
        self.positions.push((self.board.clone(), self.to_move));
    }

    /// Area score: stones plus territory; `(black, white)` without komi.
    fn area(&self) -> (i32, i32) {
        let mut black = self.board.iter().filter(|c| **c == Some(Color::Black)).count() as i32;
        let mut white = self.board.iter().filter(|c| **c == Some(Color::White)).count() as i32;
        let mut counted = vec![false; self.board.len()];
        for p in 0..self.board.len() {
            if self.board[p].is_some() || counted[p] {
                continue;
            }
            let region = self.flood(&self.board, p);
            for &q in &region {
                counted[q] = true;
            }
            match self.border_colours(&self.board, &region) {
                (true, false) => black += region.len() as i32,
                (false, true) => white += region.len() as i32,
                _ => {}
            }
        }
        (black, white)
    }

    /// The result if the game were counted now, as SGF writes it.
    fn score_result(&self) -> String {
        let (black, white) = self.area();
        let margin2 = 2 * black - (2 * white + self.rules.komi2);
        let half = |m: i32| if m % 2 == 0 { format!("{}", m / 2) } else { format!("{}.5", m / 2) };
        match margin2.signum() {
            1 => format!("B+{}", half(margin2)),
            -1 => format!("W+{}", half(-margin2)),
            _ => "Draw".to_string(),
        }
    }

    fn outcome(&self) -> Option<String> {
        if self.drawn {
            Some("Draw".to_string())
        } else if self.passes_in_a_row >= 2 {
            Some(self.score_result())
        } else {
            None
        }
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|mv| {
                let mut child = self.clone();
                child.play(mv);
                child.perft(depth - 1)
            })
            .sum()
    }
}

// ---------------------------------------------------------------------------------------------
// Comparing the engine with the reference
// ---------------------------------------------------------------------------------------------

fn engine_game(spec: &str, width: usize, height: usize) -> AnyGame {
    let spec: VariantSpec = spec.parse().unwrap();
    AnyGame::new(&spec, Geometry::new(width as u32, height as u32).unwrap())
}

/// The engine's point for the reference's index.
fn point(game: &AnyGame, i: usize, width: usize) -> variago_rules::Point {
    game.board().geometry().point((i % width) as u8, (i / width) as u8).unwrap()
}

fn engine_board(game: &AnyGame, width: usize, height: usize) -> Vec<Cell> {
    (0..width * height).map(|i| game.board().color(point(game, i, width))).collect()
}

fn engine_moves(game: &AnyGame, width: usize) -> Vec<Option<usize>> {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let g = game.board().geometry();
    let mut out: Vec<Option<usize>> = moves
        .iter()
        .map(|m| match m {
            Move::Pass => None,
            Move::Place(p) => {
                let (x, y) = g.coords(*p);
                Some(y as usize * width + x as usize)
            }
        })
        .collect();
    // placements in point order, the pass last
    out.sort_by_key(|m| m.map_or(usize::MAX, |i| i));
    out
}

fn to_engine_move(game: &AnyGame, mv: Option<usize>, width: usize) -> Move {
    mv.map_or(Move::Pass, |i| Move::Place(point(game, i, width)))
}

/// Everything the two must agree on in a position; returns the reference's legal moves and the
/// reasons of every point.
fn compare(
    engine: &AnyGame,
    reference: &RefGame,
    context: &dyn Fn() -> String,
) -> (Vec<Option<usize>>, Vec<Vec<Illegal>>) {
    let (w, h) = (reference.width, reference.height);
    let all_reasons = reference.all_reasons();
    let legal = RefGame::legal_from(&all_reasons, reference.is_over());
    assert_eq!(engine_board(engine, w, h), reference.board, "board, {}", context());
    assert_eq!(engine.to_move(), reference.to_move, "to move, {}", context());
    assert_eq!(engine.is_over(), reference.is_over(), "over, {}", context());
    assert_eq!(engine_moves(engine, w), legal, "legal moves, {}", context());
    for (i, reasons) in all_reasons.iter().enumerate() {
        match engine.check(to_engine_move(engine, Some(i), w)) {
            Ok(()) => assert!(reasons.is_empty(), "engine allows {i}, reference: {reasons:?}, {}", context()),
            Err(reason) => assert!(
                reasons.contains(&reason),
                "engine refuses {i} with {reason:?}, reference: {reasons:?}, {}",
                context()
            ),
        }
    }
    let pass = engine.check(Move::Pass);
    assert_eq!(pass.is_ok(), !reference.is_over(), "pass, {}", context());
    assert_eq!(engine.score().result().to_string(), reference.score_result(), "score, {}", context());
    assert_eq!(engine.outcome().map(|r| r.to_string()), reference.outcome(), "outcome, {}", context());
    if reference.drawn {
        assert_eq!(engine.outcome(), Some(GameResult { winner: None, ending: Ending::OwnPositionDraw }));
    }
    (legal, all_reasons)
}

/// How a random game picks its moves.
#[derive(Clone, Copy, Debug)]
enum Picker {
    /// Uniform among the legal placements; a pass with probability 1/`pass_one_in`.
    Uniform { pass_one_in: u32 },
    /// The engine's light playout move (which must be legal for the reference too).
    Light,
}

/// Plays one random game from the empty board in both, comparing after every move; returns the
/// result and the number of moves.
fn random_game(spec: &str, width: usize, height: usize, seed: u64, picker: Picker) -> (String, usize) {
    let engine = engine_game(spec, width, height);
    let reference = RefGame::new(spec, width, height);
    play_out(engine, reference, spec, seed, picker, 4 * width * height)
}

/// Plays a random game on from a position in both, comparing after every move.
fn play_out(
    mut engine: AnyGame,
    mut reference: RefGame,
    spec: &str,
    seed: u64,
    picker: Picker,
    cap: usize,
) -> (String, usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (width, height) = (reference.width, reference.height);
    let setup = diagram(&reference.board, width);
    let first = reference.to_move;
    let mut history: Vec<Option<usize>> = Vec::new();
    let (mut legal, mut reasons) =
        compare(&engine, &reference, &|| format!("{spec} {width}x{height} seed {seed} set-up {setup:?}"));
    while !reference.is_over() {
        let mv = if history.len() >= cap {
            None
        } else {
            match picker {
                Picker::Uniform { pass_one_in } => {
                    let placements = &legal[..legal.len() - 1];
                    if placements.is_empty() || rng.random_range(0..pass_one_in) == 0 {
                        None
                    } else {
                        placements[rng.random_range(0..placements.len())]
                    }
                }
                Picker::Light => match engine.light_move(&mut rng) {
                    Move::Pass => None,
                    Move::Place(p) => {
                        let (x, y) = engine.board().geometry().coords(p);
                        Some(y as usize * width + x as usize)
                    }
                },
            }
        };
        assert!(legal.contains(&mv), "{spec} {width}x{height} seed {seed}: {mv:?} is not legal");
        // now and then, an illegal move must be refused and change nothing
        if let Some(bad) = reasons.iter().position(|r| !r.is_empty()) {
            if rng.random_range(0..4) == 0 {
                let before = engine_board(&engine, width, height);
                assert!(engine.play(to_engine_move(&engine, Some(bad), width)).is_err());
                assert_eq!(engine_board(&engine, width, height), before);
                assert_eq!(engine.to_move(), reference.to_move);
            }
        }
        engine.play(to_engine_move(&engine, mv, width)).unwrap();
        reference.play(mv);
        history.push(mv);
        (legal, reasons) = compare(&engine, &reference, &|| {
            format!(
                "{spec} {width}x{height} seed {seed} set-up {setup:?} {first:?} to move, moves {history:?}"
            )
        });
    }
    let result = engine.outcome().expect("the game is over").to_string();
    assert_eq!(Some(result.clone()), reference.outcome());
    // after the end nothing is legal
    assert_eq!(engine.check(Move::Pass), Err(Illegal::GameOver));
    let mut moves = vec![Move::Pass];
    engine.legal_moves(&mut moves);
    assert!(moves.is_empty());
    (result, history.len())
}

const SPECS: &[&str] = &[
    "go",
    "go:ko=simple",
    "go:ko=situational",
    "go:suicide=allowed",
    "go:ko=simple,suicide=allowed",
    "go:ko=situational,suicide=allowed,komi=0",
    "incursion",
    "incursion-minimal",
    "incursion-line",
    "incursion:minimal=true,shape=line",
    "incursion:draw=none,komi=0.5",
    "stoical",
    "stoical:refine=more-stones",
    "stoical:draw=none,komi=-3",
];

const SMALL_SIZES: &[(usize, usize)] =
    &[(2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (4, 3), (4, 4), (3, 5), (5, 4), (5, 5), (6, 4), (6, 6)];

#[test]
fn random_games_on_small_boards_agree_with_the_reference() {
    let mut results = HashSet::new();
    let mut total_moves = 0;
    for (s, spec) in SPECS.iter().enumerate() {
        for (z, &(w, h)) in SMALL_SIZES.iter().enumerate() {
            for round in 0..3u64 {
                let seed = 1000 * s as u64 + 10 * z as u64 + round;
                let picker = match round {
                    0 => Picker::Uniform { pass_one_in: 4 },
                    1 => Picker::Uniform { pass_one_in: 40 },
                    _ => Picker::Light,
                };
                let (result, moves) = random_game(spec, w, h, seed, picker);
                results.insert(result);
                total_moves += moves;
            }
        }
    }
    // the games reached every kind of ending
    assert!(results.contains("Draw"), "{results:?}");
    assert!(results.iter().any(|r| r.starts_with("B+")), "{results:?}");
    assert!(results.iter().any(|r| r.starts_with("W+")), "{results:?}");
    assert!(total_moves > 5000, "{total_moves}");
}

#[test]
fn random_games_on_9x9_and_long_boards_agree_with_the_reference() {
    for (s, spec) in SPECS.iter().enumerate() {
        for (z, &(w, h)) in [(9, 9), (9, 4), (2, 9)].iter().enumerate() {
            let seed = 77_000 + 10 * s as u64 + z as u64;
            let picker = if z == 0 { Picker::Light } else { Picker::Uniform { pass_one_in: 30 } };
            random_game(spec, w, h, seed, picker);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Perft from the empty board
// ---------------------------------------------------------------------------------------------

/// Perft of each spec from the empty board, depth 0 first. Every number was computed by both the
/// reference model and `variago_rules::perft::perft` (at these full depths, offline, in release
/// mode) and they agreed. The tests recompute the engine's numbers at every depth and the
/// reference's at the shallower depths, so a later change to both is still caught.
type PerftTable = &'static [(&'static str, &'static [u64])];

const PERFT_2X2: PerftTable = &[
    ("go", &[1, 5, 21, 68, 156, 316, 604, 1088, 2184, 4184, 8024, 13800, 23560]),
    ("go:ko=simple", &[1, 5, 21, 68, 156, 316, 604, 1168, 2592, 5768, 12120, 24248, 47840]),
    ("go:ko=situational", &[1, 5, 21, 68, 156, 316, 604, 1112, 2312, 4544, 8800, 15248, 26456]),
    ("go:suicide=allowed", &[1, 5, 21, 68, 156, 316, 604, 1088, 2184, 4184, 8024, 13800, 23560]),
    ("go:ko=simple,suicide=allowed", &[1, 5, 21, 68, 156, 316, 604, 1240, 3120, 8280, 21472, 51096, 112880]),
    (
        "go:ko=situational,suicide=allowed",
        &[1, 5, 21, 68, 156, 316, 604, 1184, 2672, 6048, 13728, 26512, 50992],
    ),
    ("incursion", &[1, 5, 21, 68, 156, 316, 604, 952, 1384, 2128, 3768, 6376, 8824]),
    ("incursion-minimal", &[1, 5, 21, 68, 156, 316, 604, 952, 1384, 2128, 3768, 6376, 8824]),
    ("incursion-line", &[1, 5, 21, 68, 156, 316, 604, 952, 1384, 2128, 3768, 6376, 8824]),
    ("incursion:minimal=true,shape=line", &[1, 5, 21, 68, 156, 316, 604, 952, 1384, 2128, 3768, 6376, 8824]),
    ("incursion:draw=none", &[1, 5, 21, 68, 156, 316, 604, 952, 1440, 2408, 4512, 8392, 13728]),
    ("stoical", &[1, 5, 21, 68, 156, 316, 572, 960, 1680, 3104, 5632, 9576, 14792]),
    ("stoical:refine=more-stones", &[1, 5, 21, 68, 156, 316, 604, 1168, 2368, 4816, 9248, 16944, 28776]),
    ("stoical:draw=none", &[1, 5, 21, 68, 156, 316, 572, 960, 1776, 3512, 6952, 13128, 23536]),
];

/// 2 columns by 3 rows; 3x2 must give the same numbers.
const PERFT_2X3: PerftTable = &[
    ("go", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97284]),
    ("go:ko=simple", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("go:ko=situational", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97284]),
    ("go:suicide=allowed", &[1, 7, 43, 222, 942, 3378, 9834, 26504, 64116, 147764]),
    ("go:ko=simple,suicide=allowed", &[1, 7, 43, 222, 942, 3378, 9866, 26760, 66172, 158468]),
    ("go:ko=situational,suicide=allowed", &[1, 7, 43, 222, 942, 3378, 9866, 26760, 66084, 157708]),
    ("incursion", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("incursion-minimal", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("incursion-line", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("incursion:minimal=true,shape=line", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("incursion:draw=none", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("stoical", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("stoical:refine=more-stones", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
    ("stoical:draw=none", &[1, 7, 43, 222, 934, 3242, 8666, 20760, 45332, 97348]),
];

const PERFT_3X3: PerftTable = &[
    ("go", &[1, 10, 91, 738, 5281, 33384, 179712, 842696]),
    ("go:ko=simple", &[1, 10, 91, 738, 5281, 33384, 179712, 842728]),
    ("go:ko=situational", &[1, 10, 91, 738, 5281, 33384, 179712, 842728]),
    ("go:suicide=allowed", &[1, 10, 91, 738, 5281, 33384, 180768, 857576]),
    ("go:ko=simple,suicide=allowed", &[1, 10, 91, 738, 5281, 33384, 180768, 857608]),
    ("go:ko=situational,suicide=allowed", &[1, 10, 91, 738, 5281, 33384, 180768, 857608]),
    ("incursion", &[1, 10, 91, 738, 5281, 33384, 179712, 842296]),
    ("incursion-minimal", &[1, 10, 91, 738, 5281, 33384, 179712, 842344]),
    ("incursion-line", &[1, 10, 91, 738, 5281, 33384, 179712, 842296]),
    ("incursion:minimal=true,shape=line", &[1, 10, 91, 738, 5281, 33384, 179712, 842344]),
    ("incursion:draw=none", &[1, 10, 91, 738, 5281, 33384, 179712, 842296]),
    ("stoical", &[1, 10, 91, 738, 5281, 33384, 179648, 841256]),
    ("stoical:refine=more-stones", &[1, 10, 91, 738, 5281, 33384, 179648, 841352]),
    ("stoical:draw=none", &[1, 10, 91, 738, 5281, 33384, 179648, 841256]),
];

/// Every spec of the other tables gives these numbers on 4x4 (no rule bites within 5 plies).
const PERFT_4X4: &[u64] = &[1, 17, 273, 4112, 57984, 764016];

fn lookup(table: PerftTable, spec: &str) -> &'static [u64] {
    table.iter().find(|(s, _)| *s == spec).unwrap().1
}

/// The engine's perft at every depth of the table, and the reference's up to `reference_depth`.
fn check_table(width: usize, height: usize, spec: &str, expected: &[u64], reference_depth: usize) {
    let engine = engine_game(spec, width, height);
    let reference = RefGame::new(spec, width, height);
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&engine, depth as u32), n, "engine perft {spec} {width}x{height} depth {depth}");
        if depth <= reference_depth {
            assert_eq!(
                reference.perft(depth as u32),
                n,
                "reference perft {spec} {width}x{height} depth {depth}"
            );
        }
    }
}

#[test]
fn perft_2x2() {
    for (spec, expected) in PERFT_2X2 {
        check_table(2, 2, spec, expected, 8);
    }
}

#[test]
fn perft_2x3_and_3x2() {
    // the incursion and stoical forms agree with each other up to depth 9 here: the plain forms
    // go to depth 9, the others stop at depth 8 to save time
    let shallower =
        ["incursion-minimal", "incursion-line", "incursion:minimal=true,shape=line", "stoical:draw=none"];
    for (spec, expected) in PERFT_2X3 {
        let depth = if shallower.contains(spec) { expected.len() - 1 } else { expected.len() };
        check_table(2, 3, spec, &expected[..depth], 6);
        // the transposed board has the same numbers
        check_table(3, 2, spec, &expected[..expected.len() - 2], 4);
    }
}

#[test]
fn perft_3x3() {
    // depth 7 tells these apart from each other; the other specs stop at depth 6 to save time
    let deepest = ["go", "go:ko=simple", "go:suicide=allowed", "incursion", "incursion-minimal", "stoical"];
    for (spec, expected) in PERFT_3X3 {
        let depth = if deepest.contains(spec) { expected.len() } else { expected.len() - 1 };
        check_table(3, 3, spec, &expected[..depth], 4);
    }
}

#[test]
fn perft_4x4() {
    for spec in ["go", "go:ko=situational,suicide=allowed", "incursion", "stoical"] {
        check_table(4, 4, spec, PERFT_4X4, 3);
    }
}

/// Relations between variants that follow from the rules alone, checked on the tables (which the
/// tests above tie to the engine):
/// - depths 1 to 3 have closed forms: N + 1, N^2 + N + 1 and 2N^2 + N(N - 1)^2 on N points (no
///   placement can be suicide, capture-restricted or repeat anything in the first three plies);
/// - in the first four plies no restriction of any suicide-forbidding spec can bite (a
///   repetition or a capture right after a capture needs two captures, and the first incursion
///   that can be restricted is the fifth ply), so those specs all agree up to depth 4;
/// - where one spec forbids a subset of what another forbids and the games otherwise end alike,
///   its game tree contains the other's, so its perft is at least as large at every depth:
///   positional superko forbids more than situational, which forbids more than simple ko;
///   forbidding suicide only removes moves; `incursion` restricts more than `incursion-minimal`
///   and `incursion-line`, which each restrict more than both combined; `stoical` restricts more
///   than `refine=more-stones`; the own-position draw only cuts games short.
#[test]
fn perft_tables_obey_the_cross_variant_invariants() {
    for (width, height, table) in [(2u64, 2u64, PERFT_2X2), (2, 3, PERFT_2X3), (3, 3, PERFT_3X3)] {
        let n = width * height;
        let at = |spec: &str| lookup(table, spec);
        for (spec, p) in table {
            assert_eq!(p[0], 1, "{spec}");
            assert_eq!(p[1], n + 1, "{spec} {width}x{height}");
            assert_eq!(p[2], n * n + n + 1, "{spec} {width}x{height}");
            assert_eq!(p[3], 2 * n * n + n * (n - 1) * (n - 1), "{spec} {width}x{height}");
            if !spec.contains("suicide=allowed") {
                assert_eq!(p[..=4], at("go")[..=4], "{spec} {width}x{height}");
            }
        }
        let at_most = |smaller: &str, larger: &str| {
            let (a, b) = (at(smaller), at(larger));
            assert!(
                a.iter().zip(b).all(|(x, y)| x <= y),
                "{smaller} {a:?} > {larger} {b:?} on {width}x{height}"
            );
        };
        for suicide in ["", ",suicide=allowed"] {
            let go = |ko: &str| format!("go:ko={ko}{suicide}");
            let positional =
                if suicide.is_empty() { "go".to_string() } else { format!("go:{}", &suicide[1..]) };
            at_most(&positional, &go("situational"));
            at_most(&go("situational"), &go("simple"));
        }
        at_most("go", "go:suicide=allowed");
        at_most("go:ko=simple", "go:ko=simple,suicide=allowed");
        at_most("go:ko=situational", "go:ko=situational,suicide=allowed");
        at_most("incursion", "incursion-minimal");
        at_most("incursion", "incursion-line");
        at_most("incursion-minimal", "incursion:minimal=true,shape=line");
        at_most("incursion-line", "incursion:minimal=true,shape=line");
        at_most("incursion", "incursion:draw=none");
        at_most("stoical", "stoical:draw=none");
        at_most("stoical", "stoical:refine=more-stones");
    }
    let n = 16;
    assert_eq!(PERFT_4X4[1..=3], [n + 1, n * n + n + 1, 2 * n * n + n * (n - 1) * (n - 1)]);
    // the tables do tell the variants apart
    assert_ne!(lookup(PERFT_2X2, "go"), lookup(PERFT_2X2, "go:ko=simple"));
    assert_ne!(lookup(PERFT_2X2, "go"), lookup(PERFT_2X2, "go:ko=situational"));
    assert_ne!(lookup(PERFT_2X2, "incursion"), lookup(PERFT_2X2, "stoical"));
    assert_ne!(lookup(PERFT_3X3, "incursion"), lookup(PERFT_3X3, "incursion-minimal"));
    assert_ne!(lookup(PERFT_2X3, "go"), lookup(PERFT_2X3, "go:suicide=allowed"));
}

/// Komi never changes what is legal, and the rules do not care which way the board is turned.
#[test]
fn perft_ignores_komi_and_orientation() {
    for spec in ["go", "incursion-line", "stoical:refine=more-stones"] {
        let with_komi = format!("{spec}{}komi=-2.5", if spec.contains(':') { ',' } else { ':' });
        for (w, h, depth) in [(2, 4, 6), (3, 4, 4)] {
            let a = perft(&engine_game(spec, w, h), depth);
            assert_eq!(perft(&engine_game(spec, h, w), depth), a, "{spec} {w}x{h}");
            assert_eq!(perft(&engine_game(&with_komi, w, h), depth), a, "{with_komi} {w}x{h}");
        }
    }
}

/// A board as diagram rows from the top.
fn diagram(board: &[Cell], width: usize) -> Vec<String> {
    board
        .chunks(width)
        .map(|row| {
            row.iter()
                .map(|c| match c {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect()
}

/// A random position: stones of both colours, then every group without liberties removed (a
/// set-up like a record's `AB`/`AW`), as diagram rows and as the reference's board.
fn random_setup(rng: &mut SmallRng, width: usize, height: usize) -> (Vec<String>, Vec<Cell>) {
    let mut reference = RefGame::new("go", width, height);
    for cell in reference.board.iter_mut() {
        *cell = match rng.random_range(0..8) {
            0..=2 => Some(Color::Black),
            3..=5 => Some(Color::White),
            _ => None,
        };
    }
    loop {
        let board = reference.board.clone();
        let dead = (0..board.len())
            .find(|&p| board[p].is_some() && reference.liberties(&board, &reference.flood(&board, p)) == 0);
        match dead {
            Some(p) => {
                for s in reference.flood(&board, p) {
                    reference.board[s] = None;
                }
            }
            None => break,
        }
    }
    (diagram(&reference.board, width), reference.board)
}

#[test]
fn random_games_from_random_set_ups_agree_with_the_reference() {
    let mut rng = SmallRng::seed_from_u64(2024);
    for (s, spec) in SPECS.iter().enumerate() {
        for (z, &(w, h)) in [(3, 3), (4, 5), (6, 6), (7, 4)].iter().enumerate() {
            for to_move in [Color::Black, Color::White] {
                let (rows, board) = random_setup(&mut rng, w, h);
                let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
                let spec_parsed: VariantSpec = spec.parse().unwrap();
                let engine = AnyGame::from_setup(&spec_parsed, Board::from_diagram(&rows).unwrap(), to_move);
                let reference = RefGame::from_setup(spec, w, h, board, to_move);
                let seed = 5000 + 100 * s as u64 + 10 * z as u64 + to_move as u64;
                play_out(engine, reference, spec, seed, Picker::Uniform { pass_one_in: 12 }, 4 * w * h);
            }
        }
    }
}

/// Big boards need more words per bitboard and other layouts: random set-ups there (many small
/// territories of every shape), then a few dozen random moves and the passes.
#[test]
fn random_set_ups_on_big_and_long_boards_agree_with_the_reference() {
    let mut rng = SmallRng::seed_from_u64(4096);
    let specs =
        ["incursion", "incursion-line", "incursion:minimal=true,shape=line", "stoical", "go:ko=situational"];
    let sizes = [(13, 13), (19, 19), (25, 25), (25, 3), (3, 25), (11, 17), (25, 6), (2, 25)];
    for (s, spec) in specs.iter().enumerate() {
        for (z, &(w, h)) in sizes.iter().enumerate() {
            let (rows, board) = random_setup(&mut rng, w, h);
            let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
            let to_move = if (s + z) % 2 == 0 { Color::Black } else { Color::White };
            let spec_parsed: VariantSpec = spec.parse().unwrap();
            let engine = AnyGame::from_setup(&spec_parsed, Board::from_diagram(&rows).unwrap(), to_move);
            let reference = RefGame::from_setup(spec, w, h, board, to_move);
            let seed = 9000 + 100 * s as u64 + z as u64;
            play_out(engine, reference, spec, seed, Picker::Uniform { pass_one_in: 50 }, 30);
        }
    }
}
