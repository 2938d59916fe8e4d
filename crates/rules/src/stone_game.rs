//! The game of the single-board placement variants (Go, Incursion, Stoical): turns, passes, ko and
//! superko, the own-position draw and area scoring on the shared [`Board`], with each variant's
//! own restriction plugged in through [`StoneRules`]. Monomorphised per variant for the playouts.

use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

use crate::board::{Board, JudgedPoint, LazyPreview, Placement, Preview};
use crate::geometry::{Geometry, Point};
use crate::own_boards::OwnBoards;
use crate::score::{AreaScore, HalfPoints};
use crate::zobrist::{WHITE_TO_MOVE, mix};
use crate::{Color, Ending, Game, GameResult, Illegal, Move, ScoreSheet, Stones};

/// Which earlier positions a move may not recreate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// No ko rule at all (the variant's own restriction replaces it).
    None,
    /// No immediate recapture that recreates the board before the opponent's last move.
    Simple,
    /// No move may recreate any earlier board.
    Positional,
    /// No move may recreate an earlier board with the same player to move.
    Situational,
}

/// The settings every single-board variant shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CommonRules {
    /// Added to White's score.
    pub komi: HalfPoints,
    /// The ko rule.
    pub ko: KoRule,
    /// Whether suicide is legal (it removes the mover's group).
    pub suicide_allowed: bool,
    /// Whether recreating one of the mover's own earlier end-of-turn boards draws the game.
    pub own_position_draw: bool,
}

impl CommonRules {
    /// The defaults of the Incursion and Stoical families: no ko, no suicide, own-position draw.
    pub fn no_ko_with_draw() -> Self {
        CommonRules {
            komi: HalfPoints(15),
            ko: KoRule::None,
            suicide_allowed: false,
            own_position_draw: true,
        }
    }
}

/// A variant's restriction on top of the shared rules: what it remembers of the last move and
/// which placements that memory forbids.
pub trait StoneRules: Clone + fmt::Debug + PartialEq + Send + Sync + 'static {
    /// What the variant remembers of the last move (a pass resets it to the default).
    type Memory: Copy + Default + Eq + fmt::Debug + Send + Sync + Into<u64>;

    /// Whether the variant has the own-position draw at all (standard Go has not): where it has
    /// not, its playouts carry none of the draw's code.
    const HAS_OWN_POSITION_DRAW: bool = true;

    /// The shared settings.
    fn common(&self) -> &CommonRules;

    /// Judges a placement of `mover` on `p` (already known to be on an empty point and allowed by
    /// the shared rules), given what it would capture (worked out only if asked for) and what the
    /// last move left behind; returns what the next move must remember.
    fn judge(
        &self,
        board: &Board,
        mover: Color,
        p: Point,
        preview: &LazyPreview,
        last: Self::Memory,
    ) -> Result<Self::Memory, Illegal>;

    /// Plays a placement [`Self::judge`] accepted, given the memory it returned: a stone of the
    /// mover by default. The point comes from the game's own check, so nothing outside the crate
    /// can call this with a point the board has not vetted.
    #[inline(always)]
    fn place(&self, board: &mut Board, mover: Color, p: JudgedPoint, _judged: Self::Memory) -> Placement {
        board.place_judged(p, crate::Piece::stone(mover))
    }
}

/// Hashes Zobrist keys by taking them as they are: they are already uniformly random.
#[derive(Default, Clone, Copy)]
pub struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A set of Zobrist keys (the superko histories).
pub(crate) type KeySet = HashSet<u64, BuildHasherDefault<ZobristHasher>>;

/// A position of a single-board variant with all the history its legality depends on.
#[derive(Debug)]
pub struct StoneGame<R: StoneRules> {
    rules: R,
    board: Board,
    to_move: Color,
    /// Passes in a row just before this position.
    passes: u8,
    memory: R::Memory,
    /// The point a retake is banned on, if the last move took a ko: the only placement that
    /// could bring back the board before it (banned by the simple ko and by a superko alike).
    ko_point: Option<Point>,
    /// Superko keys of every earlier position (empty unless a superko rule is in force).
    seen: KeySet,
    /// The keys recorded in `seen` and `own_boards`, each mixed, summed by exclusive or: what of the
    /// history legality depends on, in one word ([`Self::history_key`]).
    history_key: u64,
    /// Each player's end-of-turn boards (empty unless the own-position draw is in force), both in
    /// one list with each board keyed by its player's side key: one list to copy per playout.
    own_boards: OwnBoards,
    drawn: bool,
    /// Where the last move placed its stone (`None` after a pass): the playouts answer it.
    last_placed: Option<Point>,
}

impl<R: StoneRules> Clone for StoneGame<R> {
    fn clone(&self) -> Self {
        StoneGame {
            rules: self.rules.clone(),
            board: self.board.clone(),
            seen: self.seen.clone(),
            own_boards: self.own_boards.clone(),
            ..*self
        }
    }

    /// A copy into this position's own board and histories, which keep their room
    /// ([`Board::clone_from`]).
    fn clone_from(&mut self, source: &Self) {
        let StoneGame {
            rules,
            board,
            to_move,
            passes,
            memory,
            ko_point,
            seen,
            history_key,
            own_boards,
            drawn,
            last_placed,
        } = source;
        self.rules.clone_from(rules);
        self.board.clone_from(board);
        self.seen.clone_from(seen);
        self.own_boards.clone_from(own_boards);
        (self.to_move, self.passes, self.memory, self.ko_point) = (*to_move, *passes, *memory, *ko_point);
        (self.drawn, self.last_placed, self.history_key) = (*drawn, *last_placed, *history_key);
    }
}

/// What a legal placement will do, computed once by the legality check and reused by `play`.
struct Verdict<M> {
    memory: M,
}

impl<R: StoneRules> StoneGame<R> {
    /// The empty board, Black to move.
    pub fn new(rules: R, geometry: Geometry) -> Self {
        Self::from_setup(rules, Board::new(geometry), Color::Black)
    }

    /// A position set up from a board (a record's setup node): no earlier moves, so no
    /// restriction and no ko; the superko history starts with this board.
    pub fn from_setup(rules: R, mut board: Board, to_move: Color) -> Self {
        let common = rules.common();
        debug_assert!(
            R::HAS_OWN_POSITION_DRAW || !common.own_position_draw,
            "a variant without the own-position draw has it switched on"
        );
        if matches!(common.ko, KoRule::None | KoRule::Simple) && !common.own_position_draw {
            // no rule reads the board's hash while the game is played
            board.defer_hash();
        }
        let mut game = StoneGame {
            rules,
            ko_point: None,
            board,
            to_move,
            passes: 0,
            memory: R::Memory::default(),
            seen: KeySet::default(),
            history_key: 0,
            own_boards: OwnBoards::default(),
            drawn: false,
            last_placed: None,
        };
        if let Some(key) = game.superko_key_for(to_move) {
            game.record_superko(key);
        }
        // room for a whole game up front: a playout's copy then never grows its tables
        let turns = game.board.geometry().area() * 2;
        if matches!(game.rules.common().ko, KoRule::Positional | KoRule::Situational) {
            game.seen.reserve(turns);
        }
        if game.rules.common().own_position_draw {
            game.own_boards = OwnBoards::with_room(turns);
        }
        game
    }

    /// The same game without the room for a whole game's history that [`Self::from_setup`]
    /// reserves: for searches that copy positions all the time and play few moves from each (the
    /// lab's life-and-death solver), where copying that room was a large part of the work.
    pub fn without_reserved_history(mut self) -> Self {
        self.seen.shrink_to_fit();
        self
    }

    /// The same position as if the moves before it had left `passes` passes in a row, the
    /// restriction's `memory` and the simple-ko ban on `ko_point`: the lab rebuilds positions of
    /// its game graph from packed states this way (with no superko or own-position history,
    /// which those states do not have).
    pub fn with_past(mut self, passes: u8, memory: R::Memory, ko_point: Option<Point>) -> Self {
        self.passes = passes;
        self.memory = memory;
        self.ko_point = ko_point;
        self
    }

    /// Takes up a game that two passes in a row ended, as a GTP controller or players settling a
    /// dispute may: the passes are forgotten and the side to move plays on. A game drawn by the
    /// own-position rule stays over. Returns whether the game goes on.
    pub fn resume(&mut self) -> bool {
        if self.drawn {
            return false;
        }
        self.passes = 0;
        true
    }

    /// The variant's rules.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Passes in a row just before this position.
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// What the variant remembers of the last move.
    pub fn memory(&self) -> R::Memory {
        self.memory
    }

    /// The point a retake is banned on right now, if any (by the simple ko, or by a superko as
    /// the retake would bring back the board before): part of the position's state and hash
    /// (the lab's game graph keys states by it).
    pub fn ko_point(&self) -> Option<Point> {
        self.ko_point
    }

    /// Whether the game ended in an own-position draw.
    pub fn is_drawn(&self) -> bool {
        self.drawn
    }

    /// The key this position leaves in the superko history, if a superko rule is in force: a
    /// later placement that would bring it back is banned.
    pub fn superko_key(&self) -> Option<u64> {
        self.superko_key_for(self.to_move)
    }

    /// The key this board with `to_move` to move leaves in the superko history, if a superko
    /// rule is in force.
    fn superko_key_for(&self, to_move: Color) -> Option<u64> {
        match self.rules.common().ko {
            KoRule::Positional => Some(self.board.hash()),
            KoRule::Situational => Some(self.board.hash() ^ side_key(to_move)),
            KoRule::None | KoRule::Simple => None,
        }
    }

    fn judge_placement(&self, p: Point) -> Result<Verdict<R::Memory>, Illegal> {
        if self.is_over() {
            return Err(Illegal::GameOver);
        }
        let geometry = self.board.geometry();
        if !geometry.contains(p) {
            return Err(Illegal::OffBoard);
        }
        if self.board.cell(p) != crate::board::EMPTY {
            return Err(Illegal::Occupied(geometry.vertex(p)));
        }
        self.judge_free_point(p)
    }

    /// Judges a placement on a point known to be empty, in a game that is not over.
    #[inline(always)]
    fn judge_free_point(&self, p: Point) -> Result<Verdict<R::Memory>, Illegal> {
        let mover = self.to_move;
        let common = self.rules.common();
        let preview = LazyPreview::new(&self.board, p, mover);
        if preview.suicide() {
            if !common.suicide_allowed {
                return Err(Illegal::Suicide);
            }
            // a lone stone without captures only removes itself (in Excursion Go it always lands in
            // enemy territory, so it is a king and reverts nothing either)
            if preview.get().lone {
                return Err(Illegal::ChangesNothing);
            }
        }
        match common.ko {
            KoRule::None => {}
            KoRule::Simple => {
                if self.ko_point == Some(p) {
                    return Err(Illegal::Ko);
                }
            }
            KoRule::Positional | KoRule::Situational => self.judge_superko(p, preview.get())?,
        }
        let memory = self.rules.judge(&self.board, mover, p, &preview, self.memory)?;
        Ok(Verdict { memory })
    }

    /// Whether a placement on `p` keeps clear of the superko history. Out of line: the simple ko
    /// and no-ko playouts then set nothing up for it.
    #[inline(never)]
    fn judge_superko(&self, p: Point, preview: Preview) -> Result<(), Illegal> {
        let mover = self.to_move;
        let hash_after = self.board.hash_after(p, mover, &preview, self.rules.common().suicide_allowed);
        match self.rules.common().ko {
            KoRule::Positional if self.seen.contains(&hash_after) => Err(Illegal::PositionalSuperko),
            KoRule::Situational if self.seen.contains(&(hash_after ^ side_key(mover.opponent()))) => {
                Err(Illegal::SituationalSuperko)
            }
            _ => Ok(()),
        }
    }

    /// Adds `key` to the superko history. Out of line, like [`Self::judge_superko`]: inlined,
    /// the hash set's insertion weighed on the registers of every playout loop, superko or not
    /// (1% of Go's simple-ko playouts).
    #[inline(never)]
    fn record_superko(&mut self, key: u64) {
        // mixed, as Zobrist keys are sums of the stones' keys: the plain sum of two histories'
        // boards often agrees where the histories differ
        if self.seen.insert(key) {
            self.history_key ^= mix(key);
        }
    }

    /// A key of the history that legality reads beyond [`Game::hash`] (the superko's earlier
    /// positions, the own-position rule's boards) and of whether the game is drawn: two
    /// positions of equal hash and equal history key have the same legal moves. The lab's
    /// solver reuses a position's moves where both agree, instead of judging every point again.
    pub fn history_key(&self) -> u64 {
        self.history_key ^ if self.drawn { 0x5851_f42d_4c95_7f2d } else { 0 }
    }

    /// Plays a placement that [`Self::judge_placement`] accepted.
    #[inline(always)]
    fn apply_placement(&mut self, p: Point, verdict: Verdict<R::Memory>) {
        let placement =
            self.rules.place(&mut self.board, self.to_move, JudgedPoint::judged(p), verdict.memory);
        // Retaking brings back the board before this move exactly when this move took one stone
        // and stands alone with that stone's point as its only liberty: the retake then takes
        // just this stone (any other chain next to the point had it as a second liberty). The
        // superko rules ban that retake too: the point is kept under them as well, so that the
        // position's hash tells the banned retake from a free one (a search keyed by the hash
        // would otherwise take one for the other).
        self.ko_point = if self.rules.common().ko != KoRule::None
            && placement.captured_stones == 1
            && self.board.chain_size(self.board.chain_head(p)) == 1
        {
            self.board.sole_liberty(p)
        } else {
            None
        };
        self.passes = 0;
        self.memory = verdict.memory;
        self.last_placed = Some(p);
        self.end_turn(true);
    }

    /// Records the end of a turn: superko history, own boards, side to move.
    #[inline(always)]
    fn end_turn(&mut self, placed: bool) {
        let mover = self.to_move;
        self.to_move = mover.opponent();
        // the hash only where a rule reads it (the board computes it from scratch otherwise)
        if let Some(key) = self.superko_key_for(self.to_move) {
            self.record_superko(key);
        }
        if R::HAS_OWN_POSITION_DRAW && self.rules.common().own_position_draw {
            let key = self.board.hash() ^ side_key(mover);
            let repeated = self.own_boards.record(key);
            if !repeated {
                self.history_key ^= mix(key.rotate_left(17));
            }
            self.drawn |= placed & repeated;
        }
    }
}

/// Set in the value mixed into [`Game::hash`] for a ko point, so that it never meets the key of a
/// variant's memory or of a pass count.
const KO_POINT_TAG: u64 = 1 << 40;

/// The key mixed into a hash for the side to move, and into an end-of-turn board's key for its
/// player (the own-position draw keeps both players' boards in one list).
#[inline(always)]
pub(crate) fn side_key(c: Color) -> u64 {
    match c {
        Color::Black => 0,
        Color::White => WHITE_TO_MOVE,
    }
}

impl<R: StoneRules> Game for StoneGame<R> {
    type Move = Move;
    const PASS: Move = Move::Pass;
    type Score = AreaScore;

    fn to_move(&self) -> Color {
        self.to_move
    }

    fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.is_over() {
            return;
        }
        self.board.placements(out, |p| self.judge_free_point(p).is_ok());
        out.push(Move::Pass);
    }

    fn check(&self, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass if self.is_over() => Err(Illegal::GameOver),
            Move::Pass => Ok(()),
            Move::Place(p) => self.judge_placement(p).map(|_| ()),
        }
    }

    fn play(&mut self, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Pass => {
                if self.is_over() {
                    return Err(Illegal::GameOver);
                }
                self.ko_point = None;
                self.passes += 1;
                self.memory = R::Memory::default();
                self.last_placed = None;
                self.end_turn(false);
            }
            Move::Place(p) => {
                let verdict = self.judge_placement(p)?;
                self.apply_placement(p, verdict);
            }
        }
        Ok(())
    }

    fn is_over(&self) -> bool {
        self.drawn || self.passes >= 2
    }

    fn outcome(&self) -> Option<GameResult> {
        if self.drawn {
            Some(GameResult { winner: None, ending: Ending::OwnPositionDraw })
        } else if self.passes >= 2 {
            Some(self.score().result())
        } else {
            None
        }
    }

    fn score(&self) -> AreaScore {
        AreaScore::of(&self.board, self.rules.common().komi)
    }

    fn owners(&self, out: &mut Vec<Option<Color>>) {
        AreaScore::owners(&self.board, out);
    }

    fn hash(&self) -> u64 {
        self.board.hash()
            ^ side_key(self.to_move)
            ^ mix(self.memory.into())
            ^ mix(0x100 + self.passes as u64)
            ^ self.ko_point.map_or(0, |p| mix(KO_POINT_TAG | p.index() as u64))
    }

    fn playout_cap(&self) -> usize {
        crate::playout::MAX_MOVES_PER_POINT * self.board.geometry().area()
    }

    fn stones(&self) -> Option<Stones<'_>> {
        Some(Stones { board: &self.board, last: self.last_placed })
    }

    /// Answers the last move first: captures its chain if it stands in atari, else saves a chain
    /// of the mover's it put in atari (only onto a point with two empty neighbours, so that the
    /// escape is not a self-atari at once); otherwise a light move.
    #[inline(always)]
    fn play_playout_move<G: rand::Rng + ?Sized>(&mut self, rng: &mut G) -> Move {
        if let Some(last) = self.last_placed.filter(|_| !self.is_over()) {
            let answer = self
                .board
                .atari_answers(last, self.to_move)
                .find_map(|p| self.judge_free_point(p).ok().map(|verdict| (p, verdict)));
            if let Some((p, verdict)) = answer {
                self.apply_placement(p, verdict);
                return Move::Place(p);
            }
        }
        self.play_light_move(rng)
    }

    /// Draws empty points uniformly without replacement until one is a legal non-eye placement,
    /// moving each rejected point to the end of the empty list so that it is not drawn again.
    #[inline(always)]
    fn play_light_move<G: rand::Rng + ?Sized>(&mut self, rng: &mut G) -> Move {
        if self.is_over() {
            return Move::Pass;
        }
        let mut candidates = self.board.empties().len();
        while candidates > 0 {
            let i = crate::playout::below(rng, candidates);
            let p = self.board.empties()[i];
            if !self.board.is_eye_of_board_point(p, self.to_move)
                && let Ok(verdict) = self.judge_free_point(p)
            {
                self.apply_placement(p, verdict);
                return Move::Place(p);
            }
            candidates -= 1;
            self.board.swap_empties(i, candidates);
        }
        self.play(Move::Pass).expect("a pass is legal in a game that is not over");
        Move::Pass
    }
}
