//! Life and death, exact over a local region (docs/lab-life.md, "Life and death"): a problem is a
//! position, the side to move and a goal (live or kill); [`search`] proves or disproves the goal
//! by depth-first proof-number search under the variant's own rules.
//!
//! **Definitions.** The *defender* is the side to move for `live`, the opponent for `kill`. The
//! *region* is the space the attacker's stones shut the defender in, as a player reads it (the
//! exact rule at [`region_around`]). Moves are placements on the region's empty points, or a
//! pass; the defender never plays outside it. The empty points just outside the region get the
//! attacker's stones (a *frame*, as the collections assume the outside to be the attacker's):
//! the defender must live inside, and the attacker's stones there keep their liberties outside,
//! so the wall can never be captured. Where the defender moves first (the goal `live`), the
//! frame's points next to a region's point that is empty or the defender's are left empty
//! instead, and the attacker alone may play there: a defender's stone at the region's edge keeps
//! the liberty it has on the board until the attacker spends a move on it. (A frame stone there
//! is a free move for the attacker, which turned lives into failures and kos; where the attacker
//! moves first, filling the frame move by move would lengthen every kill, and the frame stays
//! whole.) The attacker's pieces next to the region's points belong to the region too, so that a
//! point they leave when captured can be played. The *target* is the set of points holding the
//! defender's pieces at the start, but those that have *escaped*: stones whose sphere reaches the
//! open side of the region's box off the first line (outside the attacker's wall, not at stake;
//! where every stone has, all are the target). The attacker succeeds when no target point holds a
//! defender piece any more (every target stone captured); the defender succeeds when a chain
//! holding a target point is unconditionally alive
//! ([`Board::unconditionally_alive`], Benson's test) or holds an escaped stone, or when
//! both sides pass in a row with a target stone on the board and the second pass brings back the
//! position before the first (the attacker has nothing left that works: life, or seki). A pass
//! stands for a move elsewhere: it lifts the rules' restrictions as any pass does (a ko threat
//! answered, Stoical's wait after a capture), so two passes that lift one leave the fight going.
//! Each goal must be reached by force in a finite number of moves: play that goes round a cycle (a
//! ko fought for ever with passes as threats, or any other repetition on the line searched) is a
//! failure for the side to move at the start, as a collection counts a ko as no solution.

pub mod page;
pub mod search;

use variago_rules::spec::Variant;
use variago_rules::stone_game::KoRule;
use variago_rules::{
    AnyGame, Board, Color, Game, Geometry, Illegal, Move, Piece, Point, PointMask, VariantSpec,
};

pub use search::{Answer, Solver, Verdict, solve_problem};

/// What the side to move plays for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Keep its own stones: the mover defends.
    Live,
    /// Capture the opponent's stones: the mover attacks.
    Kill,
}

impl Goal {
    /// `live` or `kill`, as the output writes it.
    pub fn name(self) -> &'static str {
        match self {
            Goal::Live => "live",
            Goal::Kill => "kill",
        }
    }
}

/// Who has won a position of a problem, once one side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decided {
    /// The target is captured.
    Attacker,
    /// The target lives unconditionally (two passes in a row are the defender's too, but the
    /// search judges that, not a position).
    Defender,
}

/// A life-and-death problem: the position, the region, the target, and the goal of the side to
/// move.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The position, the prover (the side whose goal it is) to move.
    pub start: AnyGame,
    /// The goal of the side to move.
    pub goal: Goal,
    /// Whether each slot (by [`Point::index`]) is in the region.
    region: Vec<bool>,
    /// The region's points as the board's questions take them.
    region_mask: PointMask,
    /// The region's points, row by row.
    region_points: Vec<Point>,
    /// The points holding the defender's pieces at the start, but those that have escaped.
    target: Vec<Point>,
    /// The points holding the defender's pieces at the start that have escaped: their sphere
    /// reaches the open side of the box the region is drawn in ([`region_around`]). They are
    /// outside the attacker's wall, not at stake, and a target chain joined to one has escaped
    /// too.
    escaped: Vec<Point>,
    /// The frame's points left empty, where only the attacker may play: when the defender moves
    /// first, those next to a point of the region that the defender may hold. A frame stone is a
    /// free move for the attacker, and a search for life made with one there fails where the
    /// outside liberty matters (a stone of the defender's at the region's edge put in atari by
    /// the frame, a ko the frame made). Where the attacker moves first the frame stays whole:
    /// filling it move by move lengthens every kill (module documentation).
    open_frame: Vec<Point>,
    /// The defender.
    defender: Color,
    /// The rules (the own-position draw off), to set up the position after a pass.
    spec: VariantSpec,
    /// Whether a target that can never make two eyes is dead at once
    /// ([`Self::target_cannot_make_two_eyes`]): under Go's rules with a ko rule (the argument
    /// there is Go's).
    go_eyes_decide: bool,
    /// Where the problem's board lies on the board it was set on.
    window: Window,
    /// The board it was set on, with the frame.
    framed: Board,
}

/// Where a board cut out of a problem's board lies on it (see [`Problem::square_view`]).
#[derive(Clone, Copy, Debug)]
pub struct View {
    window: Window,
}

impl View {
    /// A move of the cut-out board as a move of the board the problem was set on.
    pub fn on_given_board(&self, geometry: Geometry, mv: Move) -> Move {
        self.window.on_given_board(geometry, mv)
    }
}

/// Lines of empty board kept beyond the region and its frame when the problem's board is cut
/// out of the board it was set on: every frame stone keeps its outside neighbours, so the wall
/// keeps its liberties.
const MARGIN: u8 = 2;

/// The part of a board a problem is played on: a search copies positions all the time, and a
/// corner problem copied with the whole 19x19 board around it is copied four to ten times over.
/// Where the window meets the board's edge, the edge stays an edge.
#[derive(Clone, Copy, Debug)]
struct Window {
    /// The board the problem was set on.
    full: Geometry,
    /// The window's first column and row on it.
    left: u8,
    top: u8,
    width: u8,
    height: u8,
}

impl Window {
    /// The smallest window holding `points` with [`MARGIN`] lines around them.
    fn around(full: Geometry, points: impl Iterator<Item = Point>) -> Window {
        let (mut left, mut top, mut right, mut bottom) = (u8::MAX, u8::MAX, 0, 0);
        for p in points {
            let (x, y) = full.coords(p);
            (left, top, right, bottom) = (left.min(x), top.min(y), right.max(x), bottom.max(y));
        }
        if left > right {
            return Window { full, left: 0, top: 0, width: full.width(), height: full.height() };
        }
        let left = left.saturating_sub(MARGIN);
        let top = top.saturating_sub(MARGIN);
        let right = right.saturating_add(MARGIN).min(full.width() - 1);
        let bottom = bottom.saturating_add(MARGIN).min(full.height() - 1);
        Window { full, left, top, width: right - left + 1, height: bottom - top + 1 }
    }

    /// The window's part of `board`, as a board of its own.
    fn crop(&self, board: &Board) -> Board {
        let geometry = Geometry::new(u32::from(self.width), u32::from(self.height))
            .expect("a window is never larger than its board");
        let pieces = geometry.points().filter_map(|p| {
            let piece = board.piece(self.outside(geometry, p))?;
            Some((p, piece))
        });
        Board::from_pieces(geometry, pieces)
    }

    /// The square window of the board (GTP engines play square boards) that holds this one:
    /// widened on its shorter side, kept on the board; the whole board if it is not square and
    /// too narrow.
    fn square(&self) -> Window {
        let side = self.width.max(self.height);
        if side > self.full.width().min(self.full.height()) {
            return Window {
                full: self.full,
                left: 0,
                top: 0,
                width: self.full.width(),
                height: self.full.height(),
            };
        }
        let left = self.left.min(self.full.width() - side);
        let top = self.top.min(self.full.height() - side);
        Window { full: self.full, left, top, width: side, height: side }
    }

    /// A move of the window's board (of `geometry`) as a move of the full board.
    fn on_given_board(&self, geometry: Geometry, mv: Move) -> Move {
        match mv {
            Move::Pass => Move::Pass,
            Move::Place(p) => Move::Place(self.outside(geometry, p)),
        }
    }

    /// A point of the full board, inside the window, as a point of the window's board.
    fn inside(&self, geometry: Geometry, p: Point) -> Point {
        let (x, y) = self.full.coords(p);
        geometry.point(x - self.left, y - self.top).expect("the point lies in the window")
    }

    /// A point of the window's board as a point of the full board.
    fn outside(&self, geometry: Geometry, p: Point) -> Point {
        let (x, y) = geometry.coords(p);
        self.full.point(x + self.left, y + self.top).expect("the window lies on the board")
    }
}

/// Why a problem cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProblemError {
    /// The side that must be captured or saved has no stone.
    #[error("{0} has no stones: nothing to {1}")]
    NoTarget(Color, &'static str),
}

impl Problem {
    /// The problem of `to_move` reaching `goal` on `board` under `spec` (the own-position draw
    /// off: repetitions are judged by the search).
    pub fn new(
        spec: &VariantSpec,
        board: Board,
        to_move: Color,
        goal: Goal,
    ) -> Result<Problem, ProblemError> {
        let geometry = board.geometry();
        let defender = match goal {
            Goal::Live => to_move,
            Goal::Kill => to_move.opponent(),
        };
        let stones: Vec<Point> = geometry.points().filter(|&p| board.color(p) == Some(defender)).collect();
        if stones.is_empty() {
            return Err(ProblemError::NoTarget(
                defender,
                if goal == Goal::Live { "save" } else { "capture" },
            ));
        }
        let Region { mask: region, points: region_points, escaped } = region_around(&board, defender);
        // where every stone has escaped, the whole is at stake (a group open on one side)
        let escaped = if escaped.len() == stones.len() { Vec::new() } else { escaped };
        let target: Vec<Point> = stones.into_iter().filter(|p| !escaped.contains(p)).collect();
        // the frame: the attacker's stones on the empty points just outside the region
        let mut board = board;
        let geometry = board.geometry();
        let mut framed = Vec::new();
        for &p in &region_points {
            for n in geometry.neighbours(p) {
                if geometry.contains(n) && !region[n.index()] && board.piece(n).is_none() {
                    board.set(n, Some(Piece::stone(defender.opponent())));
                    framed.push(n);
                }
            }
        }
        let window = Window::around(geometry, region_points.iter().chain(&framed).copied());
        // where the defender moves first, the frame points next to a point of the region it may
        // hold are left empty, for the attacker alone to fill (the field `open_frame`)
        let next_to_space = |n: &Point| {
            geometry.neighbours(*n).into_iter().any(|m| {
                geometry.contains(m) && region[m.index()] && board.color(m) != Some(defender.opponent())
            })
        };
        let open_frame: Vec<Point> = match goal {
            Goal::Live => framed.iter().copied().filter(next_to_space).collect(),
            Goal::Kill => Vec::new(),
        };
        let framed = board;
        let mut board = framed.clone();
        for &p in &open_frame {
            board.set(p, None);
        }
        let board = window.crop(&board);
        let inside = board.geometry();
        let crop_points =
            |points: &[Point]| -> Vec<Point> { points.iter().map(|&p| window.inside(inside, p)).collect() };
        let region_points = crop_points(&region_points);
        let target = crop_points(&target);
        let escaped = crop_points(&escaped);
        let open_frame = crop_points(&open_frame);
        let mut region = vec![false; inside.slots()];
        for p in &region_points {
            region[p.index()] = true;
        }
        let region_mask = PointMask::new(region_points.iter().copied());
        let mut spec = spec.clone();
        spec.set_own_position_draw(false);
        let start = position(&spec, board, to_move);
        Ok(Problem {
            start,
            goal,
            region,
            region_mask,
            region_points,
            open_frame,
            target,
            escaped,
            defender,
            go_eyes_decide: matches!(&spec.variant, Variant::Go(rules) if rules.ko() != KoRule::None),
            spec,
            window,
            framed,
        })
    }

    /// A move of the problem's board as a move of the board it was set on.
    pub fn on_given_board(&self, mv: Move) -> Move {
        self.window.on_given_board(self.start.board().geometry(), mv)
    }

    /// The problem as it is shown to an engine that plays whole boards: the board it was set on
    /// with the frame, cut to a square around the problem's board (the region, the frame and two
    /// lines around them), so that every move but the region's is plainly elsewhere; and where
    /// that square lies.
    pub fn square_view(&self) -> (Board, View) {
        let window = self.window.square();
        (window.crop(&self.framed), View { window })
    }

    /// The region's points, row by row from the top.
    pub fn region_points(&self) -> &[Point] {
        &self.region_points
    }

    /// The defender.
    pub fn defender(&self) -> Color {
        self.defender
    }

    /// The moves of a position that the search tries: the legal placements on the region's empty
    /// points, then the attacker's on the frame's empty points, then the pass. In `bans`, the
    /// superko keys ([`AnyGame::superko_key`]) of the positions that the placements a superko
    /// bans would bring back, but the retake of a ko just taken, which the position's hash holds:
    /// such a ban depends on the line that led to the position, not on the position alone.
    pub fn moves(&self, game: &AnyGame, out: &mut Vec<Move>, bans: &mut Vec<u64>) {
        out.clear();
        bans.clear();
        let board = game.board();
        let attacker_only: &[Point] = if game.to_move() == self.defender { &[] } else { &self.open_frame };
        for &p in self.region_points.iter().chain(attacker_only) {
            if board.piece(p).is_some() {
                continue;
            }
            match game.check(Move::Place(p)) {
                Ok(()) => out.push(Move::Place(p)),
                Err(Illegal::PositionalSuperko | Illegal::SituationalSuperko)
                    if game.ko_point() != Some(p) =>
                {
                    // played without the history, the placement shows the position it brings back
                    let mut free = position(&self.spec, board.clone(), game.to_move());
                    if free.play(Move::Place(p)).is_ok() {
                        bans.extend(free.superko_key());
                    }
                }
                Err(_) => {}
            }
        }
        out.push(Move::Pass);
    }

    /// The position after a legal move, as the rules play it, except after a pass: locally a
    /// pass stands for a move elsewhere, after which the fight goes on. So a pass never ends the
    /// game, it lifts the rules' restrictions (the ko ban, the rules' memory of the last move) as
    /// any pass does, and the superko history starts again from it: the move elsewhere changed
    /// the whole board, so no earlier whole-board position can come back.
    pub fn play(&self, game: &AnyGame, mv: Move) -> AnyGame {
        let mut child = game.clone();
        self.play_into(game, mv, &mut child);
        child
    }

    /// [`Self::play`] into `child`, a position whose room is reused (the search copies a
    /// position at every move, and allocating each copy was a fifth of its time).
    pub fn play_into(&self, game: &AnyGame, mv: Move, child: &mut AnyGame) {
        match mv {
            Move::Pass => *child = position(&self.spec, game.board().clone(), game.to_move().opponent()),
            Move::Place(_) => {
                child.clone_from(game);
                child.play(mv).expect("the problem plays legal moves");
            }
        }
    }

    /// The position after `game`'s side to move makes a ko threat elsewhere and is answered,
    /// when the rules' memory restricts it (a ko ban, Stoical's wait, Incursion's flag): the
    /// same board and side to move, the restrictions lifted. `None` when nothing is restricted.
    /// The search gives these threats, without limit, to the side that does not move first, so
    /// that the first side's goal is reached whatever ko threats the other side has; then, for
    /// a success by ko, to the side that moves first.
    pub fn threat(&self, game: &AnyGame) -> Option<AnyGame> {
        let lifted = position(&self.spec, game.board().clone(), game.to_move());
        (lifted.hash() != game.hash()).then_some(lifted)
    }

    /// Whether `line`, played from the start, holds a snapback: a stone placed, captured alone
    /// by the very next move, and its point taken back at once by a placement that captures
    /// more than one stone (the throw-in that the capture leaves in atari).
    pub fn snapback_in(&self, line: &[Move]) -> bool {
        let mut game = self.start.clone();
        // the stones on the board after each move of the line
        let mut boards = vec![game.board().clone()];
        for &mv in line {
            if game.check(mv).is_err() {
                return false;
            }
            game = self.play(&game, mv);
            boards.push(game.board().clone());
        }
        let stones = |b: &Board| b.stones(Color::Black) + b.stones(Color::White);
        line.windows(3).enumerate().any(|(i, moves)| {
            let [Move::Place(thrown), Move::Place(_), Move::Place(retaken)] = *moves else { return false };
            let (before, thrown_in, captured, taken_back) =
                (&boards[i], &boards[i + 1], &boards[i + 2], &boards[i + 3]);
            // the throw-in stands, the next move takes it and nothing else, the retake takes
            // two stones or more
            thrown == retaken
                && thrown_in.piece(thrown).is_some()
                && captured.piece(thrown).is_none()
                && stones(captured) == stones(thrown_in)
                && stones(taken_back) < stones(captured)
                && stones(before) < stones(thrown_in)
        })
    }

    /// Whether every target stone has been captured: the cheap half of [`Self::decided`].
    pub fn target_captured(&self, game: &AnyGame) -> bool {
        let board = game.board();
        !self.target.iter().any(|&p| board.color(p) == Some(self.defender))
    }

    /// Who has won the position, if anyone has (the module's definitions).
    pub fn decided(&self, game: &AnyGame) -> Option<Decided> {
        if self.target_captured(game) {
            return Some(Decided::Attacker);
        }
        self.target_alive(game.board()).then_some(Decided::Defender)
    }

    /// Whether every target stone left stands where it can never make two eyes, so that the
    /// attacker captures it whatever the defender does: the search need not play the capture
    /// out, which is most of a kill's length (every target stone must come off the board).
    ///
    /// The *area* of a target stone is what it reaches through the region's empty points and
    /// the defender's stones, those played during the search as well (an empty frame point,
    /// the attacker's alone to fill, is counted but not gone through), bounded by the
    /// attacker's *safe* chains: those with an empty neighbour nobody may ever play on (the
    /// frame's chains, and every chain joined to them), and the frame's open points must each
    /// touch one, or such a point. An area counts only
    /// if it holds no attacker's stone (none the defender could capture or share liberties
    /// with: no seki) and no escaped stone to join. Its *eye points* are its region points with
    /// no attacker's stone and no point outside the region next to them: every region that
    /// Benson's test can find vital lies among them, and they only shrink as safe chains grow.
    /// The area is dead when
    /// - its eye points are at most two, next to each other: at most one eye, ever; or
    /// - it holds at most [`SMALL_AREA`] points: two eyes that Benson's test counts take eight
    ///   points at least (two one-point eyes and the six stones around them that make one
    ///   chain, in the corner).
    ///
    /// The attacker's way to capture: fill every other point next to its wall (each joins a safe
    /// chain, so it is legal, never captured, and no board comes back), then play the eye's
    /// points, never passing (so the defender's pass back never ends the fight). Go's rules
    /// only, with a ko rule, and only where the attacker has the ko threats (the search's
    /// choice): lone stones of the defender's can turn the captures into kos, which a defender
    /// with threats fights for ever. Checked against the tests' fixed point, which plays every
    /// capture out (a limit of twelve points, or eye points apart, fail it; applied whoever has
    /// the threats, it fails too).
    pub fn target_cannot_make_two_eyes(&self, board: &Board) -> bool {
        if !self.go_eyes_decide {
            return false;
        }
        let geometry = board.geometry();
        let attacker = self.defender.opponent();
        let Some(&first) = self.target.first() else { return false };
        // what the flood has reached, kept on the stack: the search asks this of every board
        // it judges, and most areas are given up after a few points
        let mut reached = [0u64; 8];
        if geometry.slots() > 64 * reached.len() {
            return false;
        }
        let mut queue = [first; AREA_ROOM];
        let mut count = 0;
        // attacker's chains met, by head: found safe only once the areas are found dead, as most
        // are not, and a chain is walked to find it safe
        let mut heads = [first; AREA_ROOM];
        let mut head_count = 0;
        for &t in &self.target {
            if board.color(t) != Some(self.defender) || marked(&reached, t) {
                continue;
            }
            let start = count;
            let (mut eyes, mut eye_count, mut one_eye) = ([t; 2], 0, true);
            if count == AREA_ROOM {
                return false;
            }
            mark(&mut reached, t);
            queue[count] = t;
            count += 1;
            let mut next = start;
            while next < count {
                let p = queue[next];
                next += 1;
                if !self.region[p.index()] {
                    continue;
                }
                let mut eye_point = true;
                for n in geometry.neighbours(p) {
                    if !geometry.contains(n) {
                        continue;
                    }
                    if !self.region[n.index()] {
                        eye_point = false;
                    }
                    match board.color(n) {
                        Some(c) if c == attacker => {
                            eye_point = false;
                            let head = board.chain_at(n).expect("a stone has a chain").head;
                            if !heads[..head_count].contains(&head) {
                                if head_count == AREA_ROOM {
                                    return false;
                                }
                                heads[head_count] = head;
                                head_count += 1;
                            }
                            continue;
                        }
                        Some(_) if self.escaped.contains(&n) => return false,
                        // an empty point outside the region that the attacker may not fill either
                        // would be a liberty of the defender's for ever
                        None if !self.region[n.index()] && !self.open_frame.contains(&n) => return false,
                        _ => {}
                    }
                    if marked(&reached, n) {
                        continue;
                    }
                    if count == AREA_ROOM {
                        return false;
                    }
                    mark(&mut reached, n);
                    queue[count] = n;
                    count += 1;
                }
                if eye_point {
                    let apart =
                        eyes[..eye_count.min(2)].iter().any(|&e| !geometry.neighbours(e).contains(&p));
                    one_eye &= eye_count < 2 && !apart;
                    eyes[eye_count.min(1)] = p;
                    eye_count += 1;
                }
                if !one_eye && count - start > SMALL_AREA {
                    return false;
                }
            }
        }
        // the frame's open points reached, which the attacker fills: each must join a safe chain
        // or have a liberty of its own that nobody may fill, so that filling it is no suicide
        let fillable = |q: Point| {
            geometry.neighbours(q).into_iter().any(|n| {
                geometry.contains(n)
                    && match board.color(n) {
                        None => self.never_played(n),
                        Some(c) => c == attacker && self.chain_is_safe(board, n),
                    }
            })
        };
        queue[..count].iter().filter(|q| !self.region[q.index()]).all(|&q| fillable(q))
            && heads[..head_count].iter().all(|&head| self.chain_is_safe(board, head))
    }

    /// Whether nobody may ever play on `p`: outside the region, and no frame point left open
    /// for the attacker.
    fn never_played(&self, p: Point) -> bool {
        !self.region[p.index()] && !self.open_frame.contains(&p)
    }

    /// Whether the attacker's chain through `p` has an empty neighbour that nobody may ever play
    /// on: it can never be captured, and the attacker's stones joined to it never run out of
    /// liberties (a frame point left open would not do: the attacker may have to fill it).
    fn chain_is_safe(&self, board: &Board, p: Point) -> bool {
        let geometry = board.geometry();
        board.chain(p).any(|s| {
            geometry
                .neighbours(s)
                .into_iter()
                .any(|n| geometry.contains(n) && board.piece(n).is_none() && self.never_played(n))
        })
    }

    /// Whether a chain holding a target point is unconditionally alive (Benson's test, the
    /// costly half of [`Self::decided`]).
    pub fn target_alive(&self, board: &Board) -> bool {
        if self.target_escaped(board) {
            return true;
        }
        let alive = board.unconditionally_alive(self.defender, &self.region_mask);
        self.target.iter().any(|&p| board.color(p) == Some(self.defender) && alive.contains(p))
    }

    /// Whether the defender has the two closed regions, each with every empty point next to its
    /// pieces, that [`Self::target_alive`] needs at least: a cheap test that most boards of a
    /// search fail.
    pub fn may_be_alive(&self, board: &Board) -> bool {
        board.closed_regions(self.defender, &self.region_mask, true, 2) == 2 || self.target_escaped(board)
    }

    /// Whether a target chain has joined an escaped stone (the field `escaped`).
    fn target_escaped(&self, board: &Board) -> bool {
        let head =
            |p: &Point| board.chain_at(*p).filter(|_| board.color(*p) == Some(self.defender)).map(|c| c.head);
        // no list made: the search asks this of every board it judges, and there are few stones
        self.target.iter().filter_map(head).any(|h| self.escaped.iter().filter_map(head).any(|e| e == h))
    }
}

/// The most points an area of the target's may hold for [`Problem::target_cannot_make_two_eyes`]
/// to find it dead, wherever its eye points lie.
const SMALL_AREA: usize = 6;

/// The points [`Problem::target_cannot_make_two_eyes`] floods at most, over all the target's
/// areas (and the attacker's chains it meets): a larger area is left to the search.
const AREA_ROOM: usize = 64;

/// Whether `p` is in `set`, a set of slots one bit each.
fn marked(set: &[u64], p: Point) -> bool {
    set[p.index() / 64] & (1 << (p.index() % 64)) != 0
}

/// Puts `p` in `set` ([`marked`]).
fn mark(set: &mut [u64], p: Point) {
    set[p.index() / 64] |= 1 << (p.index() % 64);
}

/// The position `board` with `to_move` to move and no past, as a search of a problem plays it:
/// without the room for a whole game's history, since the search copies every position it
/// makes and the history starts again at each pass.
fn position(spec: &VariantSpec, board: Board, to_move: Color) -> AnyGame {
    AnyGame::from_setup(spec, board, to_move).without_reserved_history()
}

/// Solves `to_move`'s problem on `board` for `goal`, or, without one, finds the goal. The goal
/// whose defender has the smaller region comes first, with the whole budget (the enclosed side
/// is the one whose life is at stake: in all of Cho Chikun's elementary problems that the solver
/// answers as the book does, it is the goal found); the other only when the first is not
/// reached, with the whole budget too. If neither is reached, the answer is the first goal's. A
/// goal reached even with a pass (a pass among its winning first moves) is no question: the
/// answer is then the other goal's (Prob0559: Black's stone inside White's shape joins its wall
/// whatever White does, and the question is White's death). The nodes of every search are
/// counted. The answer's moves are on `board` (a problem is played on a window cut out of it).
pub fn solve(
    spec: &VariantSpec,
    board: &Board,
    to_move: Color,
    goal: Option<Goal>,
    max_nodes: u64,
) -> Result<Answer, ProblemError> {
    let goals = match goal {
        Some(goal) => vec![goal],
        None => vec![Goal::Kill, Goal::Live],
    };
    let mut problems = Vec::new();
    let mut refusal = None;
    for goal in goals {
        match Problem::new(spec, board.clone(), to_move, goal) {
            Ok(problem) => problems.push(problem),
            Err(e) => refusal = Some(e),
        }
    }
    if problems.is_empty() {
        // no goal made a problem: each was refused
        return Err(refusal.unwrap_or(ProblemError::NoTarget(to_move, "save")));
    }
    problems.sort_by_key(|p| p.region_points().len());
    let mut solvers: Vec<Solver> = problems.iter().map(Solver::new).collect();
    // the first goal with the whole budget, the other only where it is not reached
    let mut chosen = 0;
    let mut reached = false;
    for (i, solver) in solvers.iter_mut().enumerate() {
        if solver.advance(max_nodes) == Verdict::Success {
            (chosen, reached) = (i, true);
            break;
        }
    }
    // a goal reached even with a pass is no question (the side to move has nothing to do for
    // it): the other goal, searched with the whole budget, is the answer
    let mut answer = solvers[chosen].answer();
    if reached && answer.winning_moves.contains(&Move::Pass) {
        let other = solvers.iter_mut().enumerate().find(|(i, _)| *i != chosen);
        if let Some((i, solver)) = other {
            solver.advance(max_nodes);
            chosen = i;
            answer = solver.answer();
        }
    }
    answer.nodes = solvers.iter().map(Solver::nodes).sum();
    for moves in
        [&mut answer.winning_moves, &mut answer.undecided_moves, &mut answer.line, &mut answer.refutation]
    {
        for mv in moves.iter_mut() {
            *mv = problems[chosen].on_given_board(*mv);
        }
    }
    Ok(answer)
}

/// An attacker's chain of the region with this many liberties or fewer keeps them open.
const SHORT_OF_LIBERTIES: usize = 3;

/// The region of a problem whose defender is `defender`, as a mask by slot and as a list of
/// points, row by row. Within the bounding box of all the stones, widened by one line on each
/// side that is not the board's edge:
/// - the points reached from the defender's pieces through points that neither hold the
///   attacker's pieces nor touch them: an empty point next to the attacker's piece is the
///   attacker's sphere, taken in but not gone through, so a loose wall with one-point gaps
///   encloses as a player reads it;
/// - the holes that leaves (points walled off from the box's open sides by the points above,
///   when the box is not the whole board), and the pockets: groups of empty points next to
///   those, walled off by them and the attacker's pieces (first-line points between the
///   defender's sphere and an attacker's stone, often the vital point);
/// - the attacker's pieces next to any of these points;
/// - the liberties of those of the attacker's chains that have at most [`SHORT_OF_LIBERTIES`],
///   one of them among the points above, or that are in atari next to the defender's pieces (a
///   stone the defender can capture or put in atari from inside is part of the fight, not of
///   the wall), and the attacker's pieces next to them.
///
/// With it, the defender's stones that have escaped ([`escaped_stones`]).
fn region_around(board: &Board, defender: Color) -> Region {
    let geometry: Geometry = board.geometry();
    let attacker = defender.opponent();
    let stones: Vec<(u8, u8)> =
        geometry.points().filter(|&p| board.piece(p).is_some()).map(|p| geometry.coords(p)).collect();
    // widened by one line, or by two where that reaches the board's edge: a first line left
    // out would be the attacker's frame, though a player reads it as part of the corner
    let bounds = |values: Vec<u8>, size: u8| {
        let low = values.iter().copied().min().unwrap_or(0).saturating_sub(1);
        let high = values.iter().copied().max().map_or(size - 1, |m| (m + 1).min(size - 1));
        let low = if low <= 1 { 0 } else { low };
        let high = if size - high <= 2 { size - 1 } else { high };
        low..=high
    };
    let columns = bounds(stones.iter().map(|s| s.0).collect(), geometry.width());
    let rows = bounds(stones.iter().map(|s| s.1).collect(), geometry.height());
    let in_box = |p: Point| {
        geometry.contains(p) && {
            let (x, y) = geometry.coords(p);
            columns.contains(&x) && rows.contains(&y)
        }
    };
    let touches_attacker = |p: Point| {
        geometry.neighbours(p).into_iter().any(|n| geometry.contains(n) && board.color(n) == Some(attacker))
    };
    // a box that is the whole board has no outside to be walled off from
    let box_is_board = columns.clone().count() == geometry.width() as usize
        && rows.clone().count() == geometry.height() as usize;
    let mut mask = vec![false; geometry.slots()];
    let mut stack: Vec<Point> = geometry.points().filter(|&p| board.color(p) == Some(defender)).collect();
    for p in &stack {
        mask[p.index()] = true;
    }
    while let Some(p) = stack.pop() {
        for n in geometry.neighbours(p) {
            if !in_box(n) || mask[n.index()] || board.color(n) == Some(attacker) {
                continue;
            }
            mask[n.index()] = true;
            if board.color(n) == Some(defender) || !touches_attacker(n) {
                stack.push(n);
            }
        }
    }
    let next_to_outside =
        |p: Point| geometry.neighbours(p).into_iter().any(|n| geometry.contains(n) && !in_box(n));
    let escaped = if box_is_board {
        Vec::new()
    } else {
        escaped_stones(board, defender, &in_box, &touches_attacker, &next_to_outside)
    };
    // the holes: the box's points outside the mask that no path outside the mask joins to a
    // point of the box next to its outside
    let mut open = vec![false; geometry.slots()];
    let mut stack: Vec<Point> =
        geometry.points().filter(|&p| in_box(p) && !mask[p.index()] && next_to_outside(p)).collect();
    for p in &stack {
        open[p.index()] = true;
    }
    while let Some(p) = stack.pop() {
        for n in geometry.neighbours(p) {
            if in_box(n) && !mask[n.index()] && !open[n.index()] {
                open[n.index()] = true;
                stack.push(n);
            }
        }
    }
    for p in geometry.points().filter(|&p| in_box(p) && !open[p.index()] && !box_is_board) {
        mask[p.index()] = true;
    }
    // the pockets: empty points outside the mask that the attacker's pieces and the mask wall
    // off from the box's open sides, next to the mask (the first-line points between the
    // defender's sphere and an attacker's stone, where a frame stone would fill a vital point)
    let next_to_mask = |p: Point, mask: &[bool]| {
        geometry.neighbours(p).into_iter().any(|n| geometry.contains(n) && mask[n.index()])
    };
    let pockets = if box_is_board { Vec::new() } else { empty_pockets(board, &mask, &in_box) };
    for pocket in pockets {
        if pocket.iter().any(|&p| next_to_mask(p, &mask)) {
            for p in pocket {
                mask[p.index()] = true;
            }
        }
    }
    let take_in_touched = |mask: &mut Vec<bool>| {
        let touched: Vec<Point> = geometry
            .points()
            .filter(|&p| {
                board.color(p) == Some(attacker)
                    && geometry.neighbours(p).into_iter().any(|n| geometry.contains(n) && mask[n.index()])
            })
            .collect();
        for p in touched {
            mask[p.index()] = true;
        }
    };
    take_in_touched(&mut mask);
    // the attacker's chains short of liberties with one inside the region are part of the
    // fight, not of the wall: their liberties outside stay open
    let inside_liberty = |p: Point| {
        board.chain(p).any(|s| {
            geometry
                .neighbours(s)
                .into_iter()
                .any(|n| geometry.contains(n) && board.piece(n).is_none() && mask[n.index()])
        })
    };
    let touches_defender = |p: Point| {
        board.chain(p).any(|s| {
            geometry
                .neighbours(s)
                .into_iter()
                .any(|n| geometry.contains(n) && board.color(n) == Some(defender))
        })
    };
    let short: Vec<Point> = geometry
        .points()
        .filter(|&p| {
            mask[p.index()]
                && board.color(p) == Some(attacker)
                && board.liberties(p) <= SHORT_OF_LIBERTIES
                && (inside_liberty(p) || board.liberties(p) == 1 && touches_defender(p))
        })
        .collect();
    for p in short {
        for stone in board.chain(p) {
            mask[stone.index()] = true;
            for n in geometry.neighbours(stone) {
                if geometry.contains(n) && board.piece(n).is_none() {
                    mask[n.index()] = true;
                }
            }
        }
    }
    take_in_touched(&mut mask);
    let points = geometry.points().filter(|p| mask[p.index()]).collect();
    Region { mask, points, escaped }
}

/// A problem's region ([`region_around`]).
struct Region {
    /// Whether each slot is the region's.
    mask: Vec<bool>,
    /// The region's points, row by row.
    points: Vec<Point>,
    /// The defender's stones whose sphere reaches the box's open side: they are outside the
    /// attacker's wall, not at stake.
    escaped: Vec<Point>,
}

/// The defender's stones whose sphere reaches a point of the box next to its outside, through
/// the points the region's flood goes through but the first line's, and reaches it with such a
/// point: a group that runs along the edge is stopped there at once (Prob0559's White, whose
/// first-line points reach round Black's wall), one that reaches the open side higher up is
/// outside the attacker's wall (Prob0150's E17).
fn escaped_stones(
    board: &Board,
    defender: Color,
    in_box: &impl Fn(Point) -> bool,
    touches_attacker: &impl Fn(Point) -> bool,
    next_to_outside: &impl Fn(Point) -> bool,
) -> Vec<Point> {
    let geometry = board.geometry();
    let attacker = defender.opponent();
    let on_first_line = |p: Point| {
        let (x, y) = geometry.coords(p);
        x == 0 || y == 0 || x + 1 == geometry.width() || y + 1 == geometry.height()
    };
    let goes_through =
        |p: Point| board.color(p) == Some(defender) || !on_first_line(p) && !touches_attacker(p);
    let mut grouped = vec![false; geometry.slots()];
    let mut escaped = Vec::new();
    for start in geometry.points().filter(|&p| board.color(p) == Some(defender)) {
        if grouped[start.index()] {
            continue;
        }
        let mut seen = vec![false; geometry.slots()];
        seen[start.index()] = true;
        let (mut stack, mut stones, mut open) = (vec![start], Vec::new(), false);
        while let Some(p) = stack.pop() {
            if board.color(p) == Some(defender) {
                grouped[p.index()] = true;
                stones.push(p);
            }
            if !goes_through(p) {
                continue;
            }
            open |= next_to_outside(p);
            for n in geometry.neighbours(p) {
                if in_box(n) && !seen[n.index()] && board.color(n) != Some(attacker) {
                    seen[n.index()] = true;
                    stack.push(n);
                }
            }
        }
        if open {
            escaped.extend(stones);
        }
    }
    escaped
}

/// The groups of empty points in the box outside `mask`, joined through empty points only, that
/// hold no point next to the box's outside.
fn empty_pockets(board: &Board, mask: &[bool], in_box: &impl Fn(Point) -> bool) -> Vec<Vec<Point>> {
    let geometry = board.geometry();
    let free = |p: Point| in_box(p) && !mask[p.index()] && board.piece(p).is_none();
    let mut seen = vec![false; geometry.slots()];
    let mut pockets = Vec::new();
    for start in geometry.points().filter(|&p| free(p)) {
        if seen[start.index()] {
            continue;
        }
        seen[start.index()] = true;
        let (mut pocket, mut stack, mut open) = (Vec::new(), vec![start], false);
        while let Some(p) = stack.pop() {
            pocket.push(p);
            for n in geometry.neighbours(p) {
                if !geometry.contains(n) {
                    continue;
                }
                open |= !in_box(n);
                if free(n) && !seen[n.index()] {
                    seen[n.index()] = true;
                    stack.push(n);
                }
            }
        }
        if !open {
            pockets.push(pocket);
        }
    }
    pockets
}
