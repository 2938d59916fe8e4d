//! The one naive model of Go, Incursion Go, Stoical Go and Excursion Go that the tests hold the
//! engine to, written from the rules (`/work/shared/rules`: README.md, go.md, incursion.md,
//! stoical.md, excursion.md) and sharing no code with the engine: a plain `Vec` board, flood fills
//! for groups, liberties and regions, sets of whole boards for superko and the own-position draw.
//! Slow and obvious on purpose. It uses the engine's plain data types (`Color`, `Piece`) for its
//! board and the engine's types (`Illegal`, `GameResult`, ...) for its answers only.
//!
//! Readings of the rules this model takes (where the text leaves room):
//! - superko history holds the position after every move, passes included, plus the set-up
//!   position (go.md: "the boards compared are the boards after each move"; the rules README: a
//!   loaded position behaves like one reached by play, with its history starting at the set-up);
//!   situational superko compares (board, player to move next);
//! - simple ko forbids a move whose board equals the board before the opponent's last move (a
//!   set-up position has no last move);
//! - incursion/stoical restrictions look at the opponent's last *move* (a pass resets them);
//! - with `minimal` and `shape=line` combined, a placement restricts the reply (and is restricted)
//!   when it is a minimal incursion into a line-shaped territory;
//! - the own-position draw compares with the mover's own end-of-turn boards only, passes included
//!   (the set-up board is nobody's end of turn), and only a placement can draw;
//! - with suicide allowed, a placement that leaves the board as it was, kinds included (a lone
//!   stone removing itself), is `ChangesNothing`;
//! - Excursion Go: a piece is a king when its point lies in enemy territory or next to a friendly
//!   king on the board before the placement; "remove a king" counts kings removed in step 3 or 4,
//!   the placed king itself included; form 2's "opponent's last move" is the turn just before (a
//!   pass, or a set-up position, restricts nothing);
//! - when several reasons apply to one move the rules put them in no order: the model lists them
//!   all, in the engine's order (occupied, suicide, changes nothing, ko, the variant's
//!   restriction), so the first is the engine's reason.

use std::collections::HashSet;

use rand::Rng;
use variago_rules::{Color, Ending, GameResult, HalfPoints, Illegal, Piece, Vertex};

/// A board: `cells[y * width + x]`, `y = 0` the top row (as `Geometry::point` counts); a piece is
/// a stone or (Excursion Go) a king.
pub type Cells = Vec<Option<Piece>>;

/// The colour of what stands on a point: groups, liberties, regions and scores see only colours.
pub fn colour(cell: Option<Piece>) -> Option<Color> {
    cell.map(|piece| piece.color)
}

/// A stone of `c`.
pub fn stone(c: Color) -> Option<Piece> {
    Some(Piece { color: c, king: false })
}

/// A king of `c`.
pub fn king(c: Color) -> Option<Piece> {
    Some(Piece { color: c, king: true })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoKind {
    None,
    Simple,
    Positional,
    Situational,
}

/// What the last move restricts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Restriction {
    None,
    /// Incursion Go: no counted incursion right after the opponent's counted incursion.
    Incursion {
        minimal: bool,
        line: bool,
    },
    /// Stoical Go: no capture right after the opponent's capture (unless larger, `more_stones`).
    Capture {
        more_stones: bool,
    },
    /// Excursion Go: no turn that places a king and removes a king; in form 2 only right after the
    /// opponent placed a king. In form 1 a stone placement turns every king back into a stone.
    King {
        form_one: bool,
    },
}

/// A variant's rules as the model reads them from a spec string.
#[derive(Clone, Copy, Debug)]
pub struct ModelRules {
    pub ko: KoKind,
    pub suicide: bool,
    pub own_position_draw: bool,
    pub restriction: Restriction,
    /// Komi in half points.
    pub komi2: i32,
}

impl ModelRules {
    /// Parses `name[:key=value,...]` by hand, with the defaults of the rules documents (not with
    /// the engine's spec parser).
    pub fn parse(spec: &str) -> ModelRules {
        let (name, options) = spec.split_once(':').unwrap_or((spec, ""));
        let go = ModelRules {
            ko: KoKind::Positional,
            suicide: false,
            own_position_draw: false,
            restriction: Restriction::None,
            komi2: 15,
        };
        let no_ko = |restriction| ModelRules { ko: KoKind::None, own_position_draw: true, restriction, ..go };
        let incursion = |minimal, line| no_ko(Restriction::Incursion { minimal, line });
        let excursion = |form_one| ModelRules { suicide: true, ..no_ko(Restriction::King { form_one }) };
        let mut rules = match name {
            "go" => go,
            "incursion" => incursion(false, false),
            "incursion-minimal" => incursion(true, false),
            "incursion-line" => incursion(false, true),
            "stoical" => no_ko(Restriction::Capture { more_stones: false }),
            "excursion-1" => excursion(true),
            "excursion-2" => excursion(false),
            _ => panic!("no model for variant {name}"),
        };
        for option in options.split(',').filter(|o| !o.is_empty()) {
            let (key, value) = option.split_once('=').unwrap_or_else(|| panic!("option {option}: no value"));
            match (key, value, &mut rules.restriction) {
                ("ko", "simple", _) => rules.ko = KoKind::Simple,
                ("ko", "positional", _) => rules.ko = KoKind::Positional,
                ("ko", "situational", _) => rules.ko = KoKind::Situational,
                ("suicide", v, _) => rules.suicide = v == "allowed",
                ("minimal", v, Restriction::Incursion { minimal, .. }) => *minimal = v == "true",
                ("shape", v, Restriction::Incursion { line, .. }) => *line = v == "line",
                ("refine", v, Restriction::Capture { more_stones }) => *more_stones = v == "more-stones",
                ("draw", v, _) => rules.own_position_draw = v == "own-position",
                ("komi", v, _) => rules.komi2 = (v.parse::<f64>().unwrap() * 2.0) as i32,
                _ => panic!("no model for option {option} of {name}"),
            }
        }
        rules
    }
}

/// What a legal placement does.
#[derive(Clone, Debug)]
pub struct Placement {
    /// The board after the move (the mover's group taken off if it was an allowed suicide).
    pub cells: Cells,
    pub captured_stones: u16,
    /// An incursion that counts for the restriction: into the opponent's territory (line-shaped
    /// under `shape=line`), capturing at most one group under `minimal`.
    pub counted_incursion: bool,
    /// Excursion Go: the placed piece is a king.
    pub king: bool,
}

#[derive(Clone, Debug)]
pub struct Model {
    pub rules: ModelRules,
    pub width: usize,
    pub height: usize,
    pub cells: Cells,
    pub to_move: Color,
    /// Passes in a row.
    pub passes: u32,
    /// Whether the last move was an incursion that counts (Incursion family).
    pub last_incursion: bool,
    /// Stones the last move captured (Stoical).
    pub last_captures: u16,
    /// Whether the last move placed a king (Excursion).
    pub last_king: bool,
    /// The board before the last move (simple ko); `None` at the set-up.
    pub before_last_move: Option<Cells>,
    /// Every board so far, the set-up's included (positional superko).
    pub boards: HashSet<Cells>,
    /// Every board with the side to move (situational superko).
    pub situations: HashSet<(Cells, Color)>,
    /// Each player's end-of-turn boards (own-position draw).
    pub own_boards: [HashSet<Cells>; 2],
    pub drawn: bool,
}

impl Model {
    /// A set-up position: no history before it.
    pub fn new(rules: ModelRules, width: usize, height: usize, cells: Cells, to_move: Color) -> Self {
        Model {
            rules,
            width,
            height,
            to_move,
            passes: 0,
            last_incursion: false,
            last_captures: 0,
            last_king: false,
            before_last_move: None,
            boards: HashSet::from([cells.clone()]),
            situations: HashSet::from([(cells.clone(), to_move)]),
            own_boards: [HashSet::new(), HashSet::new()],
            drawn: false,
            cells,
        }
    }

    /// The empty board of `spec`, Black to move.
    pub fn empty(spec: &str, width: usize, height: usize) -> Self {
        Model::new(ModelRules::parse(spec), width, height, vec![None; width * height], Color::Black)
    }

    pub fn is_over(&self) -> bool {
        self.drawn || self.passes >= 2
    }

    pub fn neighbours(&self, i: usize) -> Vec<usize> {
        grid_neighbours(self.width, self.height, i)
    }

    /// The points connected to `i` through points holding the same thing as `i` (a group, or an
    /// empty region).
    pub fn flood(&self, cells: &Cells, i: usize) -> Vec<usize> {
        let mut seen = vec![false; cells.len()];
        let mut stack = vec![i];
        let mut out = Vec::new();
        seen[i] = true;
        while let Some(q) = stack.pop() {
            out.push(q);
            for n in self.neighbours(q) {
                if !seen[n] && colour(cells[n]) == colour(cells[i]) {
                    seen[n] = true;
                    stack.push(n);
                }
            }
        }
        out
    }

    pub fn liberties(&self, cells: &Cells, group: &[usize]) -> usize {
        let mut libs: Vec<usize> =
            group.iter().flat_map(|&s| self.neighbours(s)).filter(|&n| cells[n].is_none()).collect();
        libs.sort_unstable();
        libs.dedup();
        libs.len()
    }

    /// Takes off every group without liberties, one at a time in point order (taking one may give
    /// liberties to another), as a record's `AB`/`AW` set-up would: a board play could reach.
    pub fn take_off_dead_groups(cells: &mut Cells, width: usize, height: usize) {
        let grid = Model::new(ModelRules::parse("go"), width, height, Vec::new(), Color::Black);
        while let Some(dead) = (0..cells.len())
            .find(|&i| cells[i].is_some() && grid.liberties(cells, &grid.flood(cells, i)) == 0)
        {
            for i in grid.flood(cells, dead) {
                cells[i] = None;
            }
        }
    }

    /// Crowns pieces of a random set-up for Excursion Go: each group becomes kings with
    /// probability 1/3, then about one piece in twelve changes kind on its own (a set-up may mix
    /// kinds within a group; play never does).
    pub fn crown_at_random<R: Rng + ?Sized>(cells: &mut Cells, width: usize, height: usize, rng: &mut R) {
        let grid = Model::new(ModelRules::parse("go"), width, height, Vec::new(), Color::Black);
        let mut decided = vec![false; cells.len()];
        for i in 0..cells.len() {
            if cells[i].is_none() || decided[i] {
                continue;
            }
            let crowned = rng.random_ratio(1, 3);
            for s in grid.flood(cells, i) {
                decided[s] = true;
                cells[s] = if crowned { king } else { stone }(colour(cells[s]).expect("a group's point"));
            }
        }
        for piece in cells.iter_mut().flatten() {
            if rng.random_ratio(1, 12) {
                piece.king = !piece.king;
            }
        }
    }

    /// Whether the empty point `i` lies in `owner`'s territory (on the current board), and if so
    /// whether that territory is line-shaped.
    pub fn territory_of(&self, i: usize, owner: Color) -> Option<bool> {
        let (border, line_shaped) = self.region(i);
        (border.len() == 1 && border.contains(&owner)).then_some(line_shaped)
    }

    /// The colours on the border of the empty region through `i`, and whether the region is
    /// line-shaped (no point with three or more neighbours in it, points - 1 inner adjacencies).
    pub fn region(&self, i: usize) -> (HashSet<Color>, bool) {
        let region = self.flood(&self.cells, i);
        let mut border = HashSet::new();
        let mut adjacencies = 0;
        let mut max_degree = 0;
        for &q in &region {
            let mut degree = 0;
            for n in self.neighbours(q) {
                match self.cells[n] {
                    Some(piece) => {
                        border.insert(piece.color);
                    }
                    None => degree += 1,
                }
            }
            adjacencies += degree;
            max_degree = max_degree.max(degree);
        }
        let line_shaped = max_degree <= 2 && adjacencies / 2 + 1 == region.len();
        (border, line_shaped)
    }

    /// Whether the empty point `i` is an eye of `c` for the light playouts: every neighbour is
    /// `c`'s, and opponent stones hold at most one diagonal in the middle of the board, none on
    /// the edge.
    pub fn is_eye(&self, i: usize, c: Color) -> bool {
        if self.neighbours(i).into_iter().any(|n| colour(self.cells[n]) != Some(c)) {
            return false;
        }
        let (x, y) = ((i % self.width) as isize, (i / self.width) as isize);
        let mut on_board = 0;
        let mut opponent = 0;
        for (dx, dy) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
            let (nx, ny) = (x + dx, y + dy);
            if nx >= 0 && ny >= 0 && (nx as usize) < self.width && (ny as usize) < self.height {
                on_board += 1;
                if colour(self.cells[ny as usize * self.width + nx as usize]) == Some(c.opponent()) {
                    opponent += 1;
                }
            }
        }
        if on_board == 4 { opponent <= 1 } else { opponent == 0 }
    }

    pub fn vertex(&self, i: usize) -> Vertex {
        Vertex { column: (i % self.width) as u8, row: (self.height - i / self.width) as u8 }
    }

    /// A placement on `i`: what it does, or every reason that makes it illegal, in the engine's
    /// order (see the module comment).
    fn place(&self, i: usize) -> Result<Placement, Vec<Illegal>> {
        if self.is_over() {
            return Err(vec![Illegal::GameOver]);
        }
        if self.cells[i].is_some() {
            return Err(vec![Illegal::Occupied(self.vertex(i))]);
        }
        let mover = self.to_move;
        let opponent = mover.opponent();
        // an incursion, and Excursion Go's choice of piece, are judged on the board before the
        // placement
        let incursion = match self.rules.restriction {
            Restriction::Incursion { line, .. } => {
                self.territory_of(i, opponent).is_some_and(|line_shaped| !line || line_shaped)
            }
            _ => false,
        };
        let places_king = match self.rules.restriction {
            Restriction::King { .. } => {
                self.territory_of(i, opponent).is_some()
                    || self.neighbours(i).into_iter().any(|n| self.cells[n] == king(mover))
            }
            _ => false,
        };
        let mut cells = self.cells.clone();
        // step 2 of an Excursion turn: crown the friendly groups next to a king, or (form 1) turn
        // every king of both colours back into a stone
        if places_king {
            for n in self.neighbours(i) {
                if colour(cells[n]) == Some(mover) {
                    for s in self.flood(&cells, n) {
                        cells[s] = king(mover);
                    }
                }
            }
        } else if self.rules.restriction == (Restriction::King { form_one: true }) {
            for piece in cells.iter_mut().flatten() {
                piece.king = false;
            }
        }
        cells[i] = if places_king { king(mover) } else { stone(mover) };
        let (mut captured_groups, mut captured_stones) = (0, 0u16);
        let mut removes_king = false;
        for n in self.neighbours(i) {
            if colour(cells[n]) == Some(opponent) {
                let group = self.flood(&cells, n);
                if self.liberties(&cells, &group) == 0 {
                    captured_groups += 1;
                    captured_stones += group.len() as u16;
                    for s in group {
                        removes_king |= cells[s].is_some_and(|piece| piece.king);
                        cells[s] = None;
                    }
                }
            }
        }
        let mut reasons = Vec::new();
        let own = self.flood(&cells, i);
        if self.liberties(&cells, &own) == 0 {
            if !self.rules.suicide {
                return Err(vec![Illegal::Suicide]);
            }
            for s in own {
                removes_king |= cells[s].is_some_and(|piece| piece.king);
                cells[s] = None;
            }
        }
        if cells == self.cells {
            reasons.push(Illegal::ChangesNothing);
        }
        let repeats = match self.rules.ko {
            KoKind::None => false,
            KoKind::Simple => self.before_last_move.as_ref() == Some(&cells),
            KoKind::Positional => self.boards.contains(&cells),
            KoKind::Situational => self.situations.contains(&(cells.clone(), opponent)),
        };
        if repeats {
            reasons.push(match self.rules.ko {
                KoKind::Simple => Illegal::Ko,
                KoKind::Positional => Illegal::PositionalSuperko,
                _ => Illegal::SituationalSuperko,
            });
        }
        let mut counted_incursion = false;
        match self.rules.restriction {
            Restriction::None => {}
            Restriction::Incursion { minimal, .. } => {
                counted_incursion = incursion && (!minimal || captured_groups <= 1);
                if counted_incursion && self.last_incursion {
                    reasons.push(if minimal {
                        Illegal::MinimalIncursionAfterMinimal
                    } else {
                        Illegal::IncursionAfterIncursion
                    });
                }
            }
            Restriction::Capture { more_stones } => {
                let previous = self.last_captures;
                if previous > 0 && captured_stones > 0 && !(more_stones && captured_stones > previous) {
                    reasons.push(if more_stones {
                        Illegal::CaptureNotLarger { captures: captured_stones, previous }
                    } else {
                        Illegal::CaptureAfterCapture
                    });
                }
            }
            Restriction::King { form_one } => {
                if places_king && removes_king && (form_one || self.last_king) {
                    reasons.push(if form_one {
                        Illegal::KingRemovesKing
                    } else {
                        Illegal::KingRemovesKingAfterKing
                    });
                }
            }
        }
        if reasons.is_empty() {
            Ok(Placement { cells, captured_stones, counted_incursion, king: places_king })
        } else {
            Err(reasons)
        }
    }

    /// The verdict on a placement at `i`: what it does, or the engine's reason (the first of
    /// [`Model::reasons`]).
    pub fn judge(&self, i: usize) -> Result<Placement, Illegal> {
        self.place(i).map_err(|mut reasons| reasons.remove(0))
    }

    /// Every reason that makes a placement on `i` illegal, the engine's first (empty: legal).
    pub fn reasons(&self, i: usize) -> Vec<Illegal> {
        self.place(i).err().unwrap_or_default()
    }

    /// The reasons of every point, in point order.
    pub fn all_reasons(&self) -> Vec<Vec<Illegal>> {
        (0..self.cells.len()).map(|i| self.reasons(i)).collect()
    }

    /// Legal moves from the reasons of every point: `Some(point)` for placements, in point order,
    /// then `None` for the pass; nothing once the game is over.
    pub fn legal_from(reasons: &[Vec<Illegal>], over: bool) -> Vec<Option<usize>> {
        if over {
            return Vec::new();
        }
        let mut out: Vec<Option<usize>> =
            (0..reasons.len()).filter(|&i| reasons[i].is_empty()).map(Some).collect();
        out.push(None);
        out
    }

    /// Legal moves: `Some(point)` for placements, in point order, then `None` for the pass.
    pub fn legal_moves(&self) -> Vec<Option<usize>> {
        Model::legal_from(&self.all_reasons(), self.is_over())
    }

    /// Plays a legal move: `Some(point)` or `None` for a pass.
    pub fn play(&mut self, mv: Option<usize>) {
        assert!(!self.is_over(), "the model plays no move after the end");
        let mover = self.to_move;
        self.before_last_move = Some(self.cells.clone());
        match mv {
            None => {
                self.passes += 1;
                self.last_incursion = false;
                self.last_captures = 0;
                self.last_king = false;
            }
            Some(i) => {
                let placement = self.judge(i).expect("the model plays only legal moves");
                self.cells = placement.cells;
                self.passes = 0;
                self.last_incursion = placement.counted_incursion;
                self.last_captures = placement.captured_stones;
                self.last_king = placement.king;
            }
        }
        self.to_move = mover.opponent();
        self.boards.insert(self.cells.clone());
        self.situations.insert((self.cells.clone(), self.to_move));
        if self.rules.own_position_draw {
            let fresh = self.own_boards[mover as usize].insert(self.cells.clone());
            if mv.is_some() && !fresh {
                self.drawn = true;
            }
        }
    }

    /// `[black, white]` as (pieces, territory): area scoring, every piece alive, kings counting as
    /// stones.
    pub fn area(&self) -> [(u32, u32); 2] {
        let mut out = [(0, 0); 2];
        let mut counted = vec![false; self.cells.len()];
        for i in 0..self.cells.len() {
            match self.cells[i] {
                Some(piece) => out[piece.color as usize].0 += 1,
                None if !counted[i] => {
                    let region = self.flood(&self.cells, i);
                    let mut border = HashSet::new();
                    for &q in &region {
                        counted[q] = true;
                        border.extend(self.neighbours(q).into_iter().filter_map(|n| colour(self.cells[n])));
                    }
                    if border.len() == 1 {
                        let owner = *border.iter().next().expect("one colour");
                        out[owner as usize].1 += region.len() as u32;
                    }
                }
                None => {}
            }
        }
        out
    }

    /// The result if the game were counted now, komi included.
    pub fn score_result(&self) -> GameResult {
        let [b, w] = self.area().map(|(stones, territory)| 2 * (stones + territory) as i32);
        let margin = b - (w + self.rules.komi2);
        let winner = match margin.signum() {
            1 => Some(Color::Black),
            -1 => Some(Color::White),
            _ => None,
        };
        GameResult { winner, ending: Ending::Score(HalfPoints(margin.abs())) }
    }

    /// The result once the game is over.
    pub fn outcome(&self) -> Option<GameResult> {
        if self.drawn {
            Some(GameResult { winner: None, ending: Ending::OwnPositionDraw })
        } else if self.passes >= 2 {
            Some(self.score_result())
        } else {
            None
        }
    }

    /// The number of move sequences of `depth` moves.
    pub fn perft(&self, depth: u32) -> u64 {
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

/// A result as SGF's `RE` writes it (`B+3.5`, `W+R`, `Draw`), spelt out here rather than taken
/// from the engine's `Display`.
pub fn sgf(result: &GameResult) -> String {
    let letter = |c: Color| if c == Color::Black { 'B' } else { 'W' };
    match (result.winner, result.ending) {
        (None, _) => "Draw".to_string(),
        (Some(c), Ending::Resignation) => format!("{}+R", letter(c)),
        (Some(c), Ending::Score(HalfPoints(m))) if m % 2 == 0 => format!("{}+{}", letter(c), m / 2),
        (Some(c), Ending::Score(HalfPoints(m))) => format!("{}+{}.5", letter(c), m / 2),
        (Some(_), Ending::OwnPositionDraw) => panic!("an own-position draw has no winner"),
        (Some(c), Ending::LastPlacement) => format!("{}+", letter(c)),
    }
}

/// The orthogonal neighbours of index `i` (`y * width + x`) on a `width` x `height` grid: the
/// naive models' board geometry (Square Lifeline's reference uses it too).
pub fn grid_neighbours(width: usize, height: usize, i: usize) -> Vec<usize> {
    let (x, y) = (i % width, i / width);
    let mut out = Vec::with_capacity(4);
    if x > 0 {
        out.push(i - 1);
    }
    if x + 1 < width {
        out.push(i + 1);
    }
    if y > 0 {
        out.push(i - width);
    }
    if y + 1 < height {
        out.push(i + width);
    }
    out
}
