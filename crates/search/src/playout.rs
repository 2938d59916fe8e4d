//! The playouts' move policy. Light playouts are the rules engine's own
//! ([`Game::play_playout_move`]: answer the last move's atari, else a uniformly random move that
//! fills no own eye). Heavy playouts, in the style of MoGo, Pachi, Fuego and CrazyStone, look at
//! the board first, in this order:
//!
//! 1. **the last move's threats**: capture its chain if it stands in atari; save a chain of the
//!    mover's it put in atari, by capturing a neighbour of that chain in atari or by extending
//!    when the extension leaves three liberties or more, or two that no ladder takes (a ladder
//!    reader in the style of Pachi's, on a copy of the board, at most [`LADDER_BUDGET`] ataris
//!    a read);
//! 2. **shape around the last move**, in a share [`PATTERN_RATE`] of the moves: the empty points
//!    among its eight neighbours whose learned 3x3 pattern weight ([`crate::priors`], the tree's
//!    Bradley-Terry gammas) is at least [`PATTERN_MIN_GAMMA`], one drawn with probability
//!    proportional to its weight (times the learned weight of its distance to the last move);
//! 3. **a random move** that fills no own eye and is no self-atari of a chain of two stones or
//!    more (a single stone is a throw-in; two or three stones whose capture leaves an enclosed
//!    eye space of three or four points are a nakade and stay allowed).
//!
//! Every candidate is played through [`Game::play`], so the variant's own restrictions
//! (Incursion's incursions, Stoical's captures, Excursion's kings, ko and superko) decide what is
//! legal; Galice, without a single board of stones, keeps the light policy.

use std::sync::OnceLock;

use variago_rules::board::code;
use variago_rules::{Board, Color, Game, Placement, Point};

use crate::features::Feature::Distance;
use crate::features::{atari_bits, ring_colours, symmetries};
use crate::priors::Weights;

/// Which playout policy the search runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The rules engine's light playouts: atari answers, then uniformly random moves. The
    /// default below 9x9 ([`Policy::default_for`]), where the heavy playouts' shapes were never
    /// measured, and the only policy of Galice.
    #[default]
    Light,
    /// The heavy playouts of this module.
    Heavy,
}

/// Lines each way from which the playouts are heavy by default: at equal time heavy beat light
/// 28-12 on 9x9, 38-2 on 13x13 and 32-8 on 19x19 (docs/ai.md). The boards below 9x9, where the
/// lab plays its small studies, keep the light playouts its results were measured with.
pub const HEAVY_FROM: u8 = 9;

impl Policy {
    /// The policy a search plays on `game`'s board unless told otherwise: heavy on boards of
    /// [`HEAVY_FROM`] lines each way or more, light below.
    pub fn default_for<G: Game>(game: &G) -> Policy {
        if crate::priors::has_lines(game, HEAVY_FROM) { Policy::Heavy } else { Policy::Light }
    }
}

impl std::str::FromStr for Policy {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text {
            "light" => Ok(Policy::Light),
            "heavy" => Ok(Policy::Heavy),
            _ => Err(format!("'{}' is no playout policy (light or heavy)", variago_rules::excerpt(text))),
        }
    }
}

impl std::fmt::Display for Policy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Policy::Light => "light",
            Policy::Heavy => "heavy",
        })
    }
}

/// Patterns weaker than this are left to the random move: below it a shape is no better than
/// the average move strong players chose from.
pub const PATTERN_MIN_GAMMA: f32 = 2.0;

/// Share of the heavy playout moves that look for a good shape next to the last move (the
/// others go on to the random move): playouts that answer every move with a shape play too much
/// alike, so their results judge a position by few lines of play. Against always, a half won
/// 49-31 over two runs of 40 games at 2,000 playouts a move, and 37-3 against GNU Go level 10
/// at 20,000 where always had won 35-5 (docs/ai.md, "The fourth round").
pub const PATTERN_RATE: f32 = 0.5;

/// Random points drawn before the random step gives up on its filters and plays the rules
/// engine's light move.
const RANDOM_TRIES: usize = 10;

/// The learned weight of every raw 3x3 pattern code (rotations and reflections included) whose
/// shape weighs at least [`PATTERN_MIN_GAMMA`], in a small open-addressing hash table: a table
/// indexed by all 2^20 codes took a cache miss per look-up, a tenth of a heavy playout's time.
pub struct PatternTable {
    /// Codes by slot, [`NO_CODE`] for a free slot.
    codes: Vec<u32>,
    gammas: Vec<f32>,
    /// One bit per ring of colours (a code's low 16 bits): whether some code with these colours
    /// has a weight. Most points around a move have none, and this 8 KiB bitmap tells them apart
    /// before their four atari tests and the probe of the table.
    colourings: Vec<u64>,
    /// The learned weights of distance 2 (an orthogonal neighbour of the last move) and 3 (a
    /// diagonal one).
    orthogonal: f32,
    diagonal: f32,
}

/// A free slot of [`PatternTable`]: no raw code is this large.
const NO_CODE: u32 = u32::MAX;

impl PatternTable {
    /// The table of these weights.
    pub fn new(weights: &Weights) -> Self {
        let good: Vec<(u32, f32)> = weights
            .patterns()
            .filter(|&(_, gamma)| gamma as f32 >= PATTERN_MIN_GAMMA)
            .flat_map(|(code, gamma)| symmetries(code).map(|c| (c, gamma as f32)))
            .collect();
        // at most a quarter full, so that a look-up of a code without a weight stops soon
        let size = (4 * good.len()).next_power_of_two().max(16);
        let mut table = PatternTable {
            codes: vec![NO_CODE; size],
            gammas: vec![0.0; size],
            colourings: vec![0; (1 << 16) / 64],
            orthogonal: weights.gamma(Distance(2)) as f32,
            diagonal: weights.gamma(Distance(3)) as f32,
        };
        for (code, gamma) in good {
            let slot = table.slot(code);
            table.codes[slot] = code;
            table.gammas[slot] = gamma;
            let colours = (code & 0xffff) as usize;
            table.colourings[colours / 64] |= 1 << (colours % 64);
        }
        table
    }

    /// The table of the shipped weights (built once).
    pub fn builtin() -> &'static PatternTable {
        static TABLE: OnceLock<PatternTable> = OnceLock::new();
        TABLE.get_or_init(|| PatternTable::new(Weights::builtin()))
    }

    /// The slot that holds `code`, or the free one where it would go.
    #[inline(always)]
    fn slot(&self, code: u32) -> usize {
        let mask = self.codes.len() - 1;
        let mut slot = (code.wrapping_mul(0x9e37_79b1) >> 7) as usize & mask;
        while self.codes[slot] != code && self.codes[slot] != NO_CODE {
            slot = (slot + 1) & mask;
        }
        slot
    }

    /// The weight of a raw pattern code whose shape weighs at least [`PATTERN_MIN_GAMMA`]; 0
    /// for the others.
    #[inline(always)]
    pub fn gamma(&self, code: u32) -> f32 {
        self.gammas[self.slot(code)]
    }

    /// [`Self::gamma`] of the raw pattern of the empty point `p` for `mover`
    /// ([`crate::features::raw_pattern`]), reading the atari bits only where the colours have a
    /// weight with some.
    #[inline(always)]
    fn gamma_at(&self, board: &Board, p: Point, mover: Color) -> f32 {
        let colours = ring_colours(board, p, mover);
        if self.colourings[colours as usize / 64] & (1 << (colours % 64)) == 0 {
            return 0.0;
        }
        self.gamma(colours | atari_bits(board, p))
    }
}

/// Plays one playout move by `policy` and returns it.
#[inline(always)]
pub fn play_move<G: Game, R: rand::Rng + ?Sized>(state: &mut G, rng: &mut R, policy: Policy) -> G::Move {
    match policy {
        Policy::Light => state.play_playout_move(rng),
        Policy::Heavy => play_heavy_move(state, rng, PatternTable::builtin()),
    }
}

/// Plays moves by `policy` until the game ends or `max_moves` were played; returns how many.
pub fn playout<G: Game, R: rand::Rng + ?Sized>(
    game: &mut G,
    rng: &mut R,
    policy: Policy,
    max_moves: usize,
) -> usize {
    let mut moves = 0;
    while moves < max_moves && !game.is_over() {
        play_move(game, rng, policy);
        moves += 1;
    }
    moves
}

/// At most this many candidates answer the last move (captures, escapes, patterns).
const MAX_LOCAL: usize = 16;

/// A short list of points, without allocation.
struct Points {
    points: [Option<Point>; MAX_LOCAL],
    len: usize,
}

impl Points {
    fn new() -> Self {
        Points { points: [None; MAX_LOCAL], len: 0 }
    }

    fn push(&mut self, p: Point) {
        if self.len < MAX_LOCAL && !self.points[..self.len].contains(&Some(p)) {
            self.points[self.len] = Some(p);
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = Point> + '_ {
        self.points[..self.len].iter().flatten().copied()
    }
}

/// One heavy playout move (see the module's documentation), played; the light move for variants
/// without a board of stones.
pub fn play_heavy_move<G: Game, R: rand::Rng + ?Sized>(
    state: &mut G,
    rng: &mut R,
    table: &PatternTable,
) -> G::Move {
    if state.is_over() || !state.liberty_tactics() {
        return state.play_playout_move(rng);
    }
    let mover = state.to_move();
    let local = match state.stones() {
        None => return state.play_playout_move(rng),
        Some(stones) => stones.last.map(|last| answers(stones.board, last, mover, rng, table)),
    };
    for p in local.iter().flat_map(Points::iter) {
        if let Some(mv) = try_play(state, p) {
            return mv;
        }
    }
    for _ in 0..RANDOM_TRIES {
        let Some(stones) = state.stones() else { break };
        let board = stones.board;
        let empties = board.empties();
        if empties.is_empty() {
            break;
        }
        let p = empties[variago_rules::playout::below(rng, empties.len())];
        if board.is_eye(p, mover) || bad_self_atari(board, p, mover) {
            continue;
        }
        if let Some(mv) = try_play(state, p) {
            return mv;
        }
    }
    state.play_playout_move(rng)
}

/// Plays a placement on `p` if the rules allow it.
#[inline(always)]
fn try_play<G: Game>(state: &mut G, p: Point) -> Option<G::Move> {
    let mv = G::Move::placing(p)?;
    state.play(mv).ok().map(|()| mv)
}

/// The answers to the last move, best first: captures of its chain, escapes of the mover's
/// chains it put in atari (not into a ladder), then one pattern move drawn by weight.
fn answers<R: rand::Rng + ?Sized>(
    board: &Board,
    last: Point,
    mover: Color,
    rng: &mut R,
    table: &PatternTable,
) -> Points {
    let mut out = Points::new();
    let geometry = board.geometry();
    let own = code(mover);
    // 1. the last move's chain in atari: take it
    if let Some(chain) = board.chain_at(last).filter(|_| board.slot_code(last) != own)
        && let Some(l) = chain.sole_liberty
    {
        out.push(l);
    }
    // 2. the mover's chains it put in atari: capture a neighbour of theirs in atari, or extend.
    // Which neighbours hold one is worked out as bits first, without a branch per neighbour on
    // its colour (a branch that missed its guess often); the rare chain in atari is then visited.
    let neighbours = geometry.neighbours(last);
    let mut in_atari = 0u8;
    for (i, &n) in neighbours.iter().enumerate() {
        in_atari |= (u8::from(board.slot_code(n) == own) & u8::from(board.stands_in_atari(n))) << i;
    }
    while in_atari != 0 {
        let n = neighbours[in_atari.trailing_zeros() as usize];
        in_atari &= in_atari - 1;
        let Some(chain) = board.chain_at(n) else { continue };
        let Some(liberty) = chain.sole_liberty else { continue };
        for s in board.chain(n) {
            for m in geometry.neighbours(s) {
                let code = board.slot_code(m);
                let opponent = code == 3 - own;
                if let Some(l) = board.chain_at(m).and_then(|c| c.sole_liberty).filter(|_| opponent) {
                    out.push(l);
                }
            }
        }
        // the ladder is read only when no earlier answer (a capture, tried first) is at hand
        let (liberties, count, _) = liberties_after::<3>(board, liberty, mover);
        let laddered = match liberties {
            [Some(a), Some(b), None] if count == 2 && out.len == 0 => {
                escape_is_laddered(board, liberty, [a, b], mover)
            }
            _ => false,
        };
        if count >= 2 && !laddered {
            out.push(liberty);
        }
    }
    // 3. shape, in a share of the moves: one of the empty neighbours with a good pattern, drawn
    // by weight
    if rng.random::<f32>() >= PATTERN_RATE {
        return out;
    }
    let [north, west, east, south] = geometry.neighbours(last);
    let [north_west, north_east, south_west, south_east] = geometry.diagonals(last);
    let ring = [north, west, east, south, north_west, north_east, south_west, south_east];
    let mut weights = [0f32; 8];
    let (mut total, mut left) = (0.0, 0);
    for (i, &p) in ring.iter().enumerate() {
        if board.slot_code(p) != 0 {
            continue;
        }
        let gamma = table.gamma_at(board, p, mover);
        if gamma > 0.0 && !board.is_eye(p, mover) {
            let distance = if i < 4 { table.orthogonal } else { table.diagonal };
            weights[i] = gamma * distance;
            total += weights[i];
            left += 1;
        }
    }
    while left > 0 {
        let mut x = rng.random::<f32>() * total;
        let i = (0..8).find(|&i| {
            x -= weights[i];
            weights[i] > 0.0 && x < 0.0
        });
        let i = i.unwrap_or_else(|| (0..8).rev().find(|&i| weights[i] > 0.0).expect("a weight"));
        if !bad_self_atari(board, ring[i], mover) {
            out.push(ring[i]);
            break;
        }
        total -= weights[i];
        weights[i] = 0.0;
        left -= 1;
    }
    out
}

/// The liberties a stone of `mover` on the empty point `p` would have (the first `N` found), how
/// many (counted up to `N`; `N` when it captures), and the size of the chain it would make (1
/// when it captures).
fn liberties_after<const N: usize>(board: &Board, p: Point, mover: Color) -> ([Option<Point>; N], u8, u16) {
    let geometry = board.geometry();
    let mut liberties: [Option<Point>; N] = [None; N];
    let mut count = 0u8;
    let note = |l: Point, count: &mut u8, liberties: &mut [Option<Point>; N]| {
        if (*count as usize) < N && l != p && !liberties.contains(&Some(l)) {
            liberties[*count as usize] = Some(l);
            *count += 1;
        }
    };
    let own = code(mover);
    let mut heads: [Option<Point>; 4] = [None; 4];
    let mut size = 1u16;
    for (i, n) in geometry.neighbours(p).into_iter().enumerate() {
        match board.slot_code(n) {
            0 => note(n, &mut count, &mut liberties),
            3 => {}
            code => {
                let Some(chain) = board.chain_at(n) else { continue };
                if code != own {
                    if chain.sole_liberty == Some(p) {
                        return (liberties, N as u8, 1);
                    }
                } else if !heads.contains(&Some(chain.head)) {
                    heads[i] = Some(chain.head);
                    size += chain.size;
                }
            }
        }
    }
    for head in heads.into_iter().flatten() {
        if count as usize >= N {
            break;
        }
        if board.chain_at(head).and_then(|c| c.sole_liberty) == Some(p) {
            continue;
        }
        for s in board.chain(head) {
            for l in geometry.neighbours(s) {
                if board.slot_code(l) == 0 {
                    note(l, &mut count, &mut liberties);
                }
            }
        }
    }
    (liberties, count, size)
}

/// Ataris one ladder read may try (one per move of the hunter): a ladder across a 9x9
/// board takes about ten. Past the budget the read gives up and counts the prey as escaped, so
/// that a playout's cost stays bounded and an unread escape is played as without the reader.
const LADDER_BUDGET: u32 = 16;

/// Whether `mover`'s escape by extension to `liberty`, which leaves its chain the two liberties
/// `after`, runs into a ladder. Read on a copy of the board only where a ladder could start.
fn escape_is_laddered(board: &Board, liberty: Point, after: [Point; 2], mover: Color) -> bool {
    if ladder_chases(board, after, liberty, mover).iter().all(Option::is_none) {
        return false;
    }
    let mut extended = board.clone();
    extended.place(liberty, mover);
    chase(extended, liberty, mover, after, &mut { LADDER_BUDGET }).is_some()
}

/// The atari that captures the chain through the stone `prey_stone` in a ladder, if the chain
/// has exactly two liberties; the opponent of the prey (the hunter) is to move.
fn ladder_atari(board: Board, prey_stone: Point, budget: &mut u32) -> Option<Point> {
    let prey = board.color(prey_stone)?;
    match chain_liberties::<3>(&board, prey_stone) {
        ([Some(a), Some(b), None], _) if !takes_a_hunter(&board, prey_stone, prey) => {
            chase(board, prey_stone, prey, [a, b], budget)
        }
        _ => None,
    }
}

/// The ataris worth reading on a chain of `prey` with the two liberties `liberties`, each with
/// the prey's extension: in the style of Pachi's ladder reader, only those where the extension
/// cannot gain three liberties at once from its empty neighbours (`filled`, about to be taken,
/// and the atari's point not counted) and where the atari's stone is not itself left in atari
/// (the prey would take it).
fn ladder_chases(
    board: &Board,
    [a, b]: [Point; 2],
    filled: Point,
    prey: Color,
) -> [Option<(Point, Point)>; 2] {
    let geometry = board.geometry();
    [(a, b), (b, a)].map(|(atari, escape)| {
        let fresh = geometry
            .neighbours(escape)
            .into_iter()
            .filter(|&n| n != atari && n != filled && board.slot_code(n) == 0)
            .count();
        let worth = fresh <= 2 && board.liberties_after_placing(atari, prey.opponent()).0 >= 2;
        worth.then_some((atari, escape))
    })
}

/// The atari that captures `prey`'s chain through `prey_stone`, with the two liberties
/// `liberties`, in a ladder: it keeps the chain in atari, extension after extension, until it
/// is captured. The prey escapes by taking a hunter chain in atari next to it or by reaching
/// three liberties. Each atari read takes one from `budget`; the last one read plays on `board`
/// itself, so that a ladder with one atari worth reading at each step copies no board.
fn chase(
    board: Board,
    prey_stone: Point,
    prey: Color,
    liberties: [Point; 2],
    budget: &mut u32,
) -> Option<Point> {
    let [first, second] =
        ladder_chases(&board, liberties, prey_stone, prey).map(|c| c.map(|(atari, _)| atari));
    let mut board = Some(board);
    for (atari, last) in [(first, second.is_none()), (second, true)] {
        let Some(atari) = atari else { continue };
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let mut chased = if last { board.take()? } else { board.clone()? };
        chased.place(atari, prey.opponent());
        if !prey_escapes(chased, prey_stone, prey, budget) {
            return Some(atari);
        }
    }
    None
}

/// Whether the chain of `prey` through `prey_stone`, just put in atari (or not, if the hunter's
/// move failed), gets away: by taking a hunter chain in atari next to it, or by extending to
/// three liberties or to two that no ladder takes.
fn prey_escapes(mut board: Board, prey_stone: Point, prey: Color, budget: &mut u32) -> bool {
    let Some(liberty) = board.chain_at(prey_stone).and_then(|chain| chain.sole_liberty) else {
        return true;
    };
    if takes_a_hunter(&board, prey_stone, prey) {
        return true;
    }
    board.place(liberty, prey);
    match chain_liberties::<3>(&board, prey_stone).1 {
        0 | 1 => false,
        2 => ladder_atari(board, prey_stone, budget).is_none(),
        _ => true,
    }
}

/// Whether a chain of `prey`'s opponent next to `prey`'s chain through `prey_stone` stands in
/// atari, so that the prey can take it.
fn takes_a_hunter(board: &Board, prey_stone: Point, prey: Color) -> bool {
    let geometry = board.geometry();
    let hunter = code(prey.opponent());
    board.chain(prey_stone).flat_map(|s| geometry.neighbours(s)).any(|n| {
        board.slot_code(n) == hunter && board.chain_at(n).is_some_and(|chain| chain.sole_liberty.is_some())
    })
}

/// The liberties of the chain through the stone `p`, the first `N` found, and how many those are.
fn chain_liberties<const N: usize>(board: &Board, p: Point) -> ([Option<Point>; N], usize) {
    let geometry = board.geometry();
    let mut liberties = [None; N];
    let mut count = 0;
    for l in board.chain(p).flat_map(|s| geometry.neighbours(s)) {
        if board.slot_code(l) == 0 && !liberties[..count].contains(&Some(l)) {
            liberties[count] = Some(l);
            count += 1;
            if count == N {
                break;
            }
        }
    }
    (liberties, count)
}

/// Whether a stone of `mover` on `p` would put a chain of two stones or more in atari (or have
/// no liberty at all), other than a nakade: a chain of two or three stones whose last liberty
/// touches no other empty point, so that its capture leaves an enclosed eye space of three or four
/// points the opponent cannot make two eyes in as a rule.
fn bad_self_atari(board: &Board, p: Point, mover: Color) -> bool {
    let empty_neighbours = board.geometry().neighbours(p).into_iter().filter(|&n| board.slot_code(n) == 0);
    if empty_neighbours.count() >= 2 {
        return false;
    }
    let (liberties, size) = board.liberties_after_placing(p, mover);
    if liberties >= 2 {
        return false;
    }
    if liberties == 0 {
        return true;
    }
    if size == 1 {
        return false;
    }
    size > 3 || !nakade_space(board, p, mover)
}

/// Whether the only liberty of the chain a stone on `p` would make touches no empty point but
/// `p`, so that capturing the chain leaves an enclosed eye space.
fn nakade_space(board: &Board, p: Point, mover: Color) -> bool {
    let geometry = board.geometry();
    let own = code(mover);
    let liberty = geometry.neighbours(p).into_iter().find(|&n| board.slot_code(n) == 0).or_else(|| {
        geometry
            .neighbours(p)
            .into_iter()
            .filter(|&n| board.slot_code(n) == own)
            .flat_map(|n| board.chain(n))
            .flat_map(|s| geometry.neighbours(s))
            .find(|&l| l != p && board.slot_code(l) == 0)
    });
    liberty.is_some_and(|l| geometry.neighbours(l).into_iter().all(|m| m == p || board.slot_code(m) != 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::{Position, canonical, raw_pattern};
    use rand::SeedableRng;
    use rand::rngs::SmallRng;
    use variago_rules::galice::Galice;
    use variago_rules::playout::BENCH_SPECS;
    use variago_rules::{AnyGame, Geometry, Move, Stones};

    fn point(board: &Board, vertex: &str) -> Point {
        board.geometry().parse_vertex(vertex).unwrap()
    }

    #[test]
    fn the_raw_pattern_is_the_features_pattern_up_to_symmetry() {
        let table = PatternTable::builtin();
        let mut rng = SmallRng::seed_from_u64(7);
        let mut weighted = 0;
        for moves in [0, 10, 40, 80] {
            let mut game = AnyGame::new(&"go".parse().unwrap(), Geometry::new(9, 7).unwrap());
            for _ in 0..moves {
                if !game.is_over() {
                    game.play_playout_move(&mut rng);
                }
            }
            let board = game.board();
            for mover in [Color::Black, Color::White] {
                let position = Position::new(Stones { board, last: None }, mover);
                for &p in board.empties() {
                    let raw = raw_pattern(board, p, mover);
                    assert_eq!(canonical(raw), position.features(p).pattern, "{moves} moves, {p:?}");
                    // the colour filter drops no weighted code
                    assert_eq!(table.gamma_at(board, p, mover), table.gamma(raw), "{moves} moves, {p:?}");
                    weighted += usize::from(table.gamma(raw) > 0.0);
                }
            }
        }
        assert!(weighted > 10, "{weighted} weighted shapes met");
    }

    #[test]
    fn the_table_gives_every_symmetric_copy_of_a_good_shape_its_weight_and_the_rest_none() {
        let table = PatternTable::builtin();
        let weights = Weights::builtin();
        let mut good = 0;
        for (code, gamma) in weights.patterns() {
            let expected = if gamma as f32 >= PATTERN_MIN_GAMMA { gamma as f32 } else { 0.0 };
            good += usize::from(expected > 0.0);
            for copy in symmetries(code) {
                assert_eq!(table.gamma(copy), expected, "{code:05x}");
            }
        }
        assert!(good > 50, "{good} good shapes");
        // a shape the table has no weight for: the empty neighbourhood with all four ataris set
        assert_eq!(table.gamma(0xf_0000), 0.0);
        assert!(table.orthogonal > table.diagonal && table.diagonal > 1.0);
    }

    /// A 9x9 board from its diagram, row 9 first.
    fn nine(rows: [&str; 9]) -> Board {
        Board::from_diagram(&rows).unwrap()
    }

    /// White's C3 with two liberties (C2, D3) next to Black's B3, C4 and D2, with White's B2
    /// guarding the way down: Black's atari at C2 drives it along the diagonal to the top right.
    fn ladder(breaker: Option<&str>) -> Board {
        let mut board = nine([
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . X . . . . . .",
            ". X O . . . . . .",
            ". O . X . . . . .",
            ". . . . . . . . .",
        ]);
        if let Some(v) = breaker {
            let p = point(&board, v);
            board.place(p, Color::White);
        }
        board
    }

    #[test]
    fn the_ladder_reader_captures_a_working_ladder_and_not_a_broken_one() {
        let board = ladder(None);
        let c3 = point(&board, "C3");
        assert_eq!(ladder_atari(board.clone(), c3, &mut { LADDER_BUDGET }), Some(point(&board, "C2")));
        // a white stone on the ladder's path (F5: the prey, extended to E4 or E5, joins it) breaks it
        for breaker in ["F5", "G7", "E6"] {
            let broken = ladder(Some(breaker));
            assert_eq!(ladder_atari(broken, c3, &mut { LADDER_BUDGET }), None, "{breaker}");
        }
        // out of budget, the read gives up: no capture claimed
        assert_eq!(ladder_atari(board.clone(), c3, &mut 3), None);
        // three liberties: no ladder to read
        let mut loose = ladder(None);
        loose.set(point(&loose, "C4"), None);
        assert_eq!(ladder_atari(loose, c3, &mut { LADDER_BUDGET }), None);
    }

    #[test]
    fn self_ataris_of_two_stones_are_refused_but_throw_ins_nakade_and_captures_are_not() {
        // Black's A3 has one liberty, A4, in White's corner
        let enclosed =
            Board::from_diagram(&[". O . . .", ". O . . .", "X O . . .", "O O . . .", ". . . . ."]).unwrap();
        let a4 = point(&enclosed, "A4");
        // Black A4 makes a 2-stone chain whose last liberty, A5, touches nothing else: captured, it
        // leaves a 3-point eye space (a nakade)
        assert_eq!(
            liberties_after::<2>(&enclosed, a4, Color::Black),
            ([Some(point(&enclosed, "A5")), None], 1, 2)
        );
        assert!(!bad_self_atari(&enclosed, a4, Color::Black));
        // Black A5 alone is a throw-in
        assert_eq!(
            liberties_after::<2>(&enclosed, point(&enclosed, "A5"), Color::Black),
            ([Some(point(&enclosed, "A4")), None], 1, 1)
        );
        assert!(!bad_self_atari(&enclosed, point(&enclosed, "A5"), Color::Black));
        // White A4 is no self-atari at all
        assert!(!bad_self_atari(&enclosed, a4, Color::White));
        // with B5 open the space is not enclosed: the same A4 only gives two stones away
        let open =
            Board::from_diagram(&[". . . . .", ". O . . .", "X O . . .", "O O . . .", ". . . . ."]).unwrap();
        assert_eq!(liberties_after::<2>(&open, a4, Color::Black), ([Some(point(&open, "A5")), None], 1, 2));
        assert!(bad_self_atari(&open, a4, Color::Black));
        // Black A5 takes White's B5 and A4 (both in atari at A5): no self-atari
        let capture =
            Board::from_diagram(&[". O X . .", "O X . . .", "X . . . .", ". . . . .", ". . . . ."]).unwrap();
        assert_eq!(liberties_after::<2>(&capture, point(&capture, "A5"), Color::Black).1, 2);
        assert!(!bad_self_atari(&capture, point(&capture, "A5"), Color::Black));
        // and White A5 would have no liberty at all
        assert!(bad_self_atari(&capture, point(&capture, "A5"), Color::White));
    }

    #[test]
    fn the_heavy_policy_saves_the_stone_the_last_move_put_in_atari() {
        // Black's C2 leaves White's C3 in atari at D3 (B3, C4 and C2 are Black's)
        let mut game = AnyGame::new(&"go".parse().unwrap(), Geometry::square(5).unwrap());
        for v in ["B3", "C3", "C4", "A1", "C2"] {
            let p = game.board().geometry().parse_vertex(v).unwrap();
            game.play(Move::Place(p)).unwrap();
        }
        let d3 = Move::Place(game.board().geometry().parse_vertex("D3").unwrap());
        for seed in 0..10 {
            let mut white = game.clone();
            let mut rng = SmallRng::seed_from_u64(seed);
            assert_eq!(play_heavy_move(&mut white, &mut rng, PatternTable::builtin()), d3, "seed {seed}");
        }
    }

    #[test]
    fn the_heavy_policy_runs_from_atari_only_where_no_ladder_takes_the_chain() {
        // White's C2 puts Black's C3 in atari (B3, C4, D2 are White's): extended to D3 it has two
        // liberties (D4, E3), and White ladders it to the top right unless Black's F5 stands there
        for (breaker, laddered) in [("A7", true), ("F5", false)] {
            let mut game = AnyGame::new(&"go".parse().unwrap(), Geometry::square(9).unwrap());
            for v in ["C3", "B3", "A9", "C4", "A8", "D2", breaker, "C2"] {
                let p = game.board().geometry().parse_vertex(v).unwrap();
                game.play(Move::Place(p)).unwrap();
            }
            let [d3, d4, e3] = ["D3", "D4", "E3"].map(|v| point(game.board(), v));
            assert_eq!(escape_is_laddered(game.board(), d3, [d4, e3], Color::Black), laddered, "{breaker}");
            if !laddered {
                for seed in 0..10 {
                    let mut black = game.clone();
                    let mut rng = SmallRng::seed_from_u64(seed);
                    let mv = play_heavy_move(&mut black, &mut rng, PatternTable::builtin());
                    assert_eq!(mv, Move::Place(d3), "seed {seed}");
                }
            }
        }
    }

    #[test]
    fn the_heavy_policy_plays_a_good_shape_in_its_share_of_the_moves() {
        // no atari on the board: the shape step or the random move chooses
        let mut game = AnyGame::new(&"go".parse().unwrap(), Geometry::square(9).unwrap());
        for v in ["E5", "E6", "D6"] {
            game.play(Move::Place(point(game.board(), v))).unwrap();
        }
        let (board, last, white) = (game.board(), point(game.board(), "D6"), Color::White);
        let table = PatternTable::builtin();
        let geometry = board.geometry();
        let good: Vec<Point> = geometry
            .neighbours(last)
            .into_iter()
            .chain(geometry.diagonals(last))
            .filter(|&p| board.slot_code(p) == 0 && table.gamma(raw_pattern(board, p, white)) > 0.0)
            .collect();
        assert!(!good.is_empty(), "the position has a good shape next to the last move");
        let trials = 4000;
        let shapes = (0..trials)
            .filter(|&seed| {
                let mut rng = SmallRng::seed_from_u64(seed);
                let mv = play_heavy_move(&mut game.clone(), &mut rng, table);
                good.iter().any(|&p| mv == Move::Place(p))
            })
            .count();
        // the shape step's share, and the random move's few hits on the same points
        let random_hit = good.len() as f64 / board.empties().len() as f64;
        let expected = f64::from(PATTERN_RATE) + (1.0 - f64::from(PATTERN_RATE)) * random_hit;
        let share = shapes as f64 / trials as f64;
        assert!((share - expected).abs() < 0.04, "shapes in {share:.3} of the moves, expected {expected:.3}");
    }

    #[test]
    fn heavy_playouts_end_in_every_variant() {
        let mut rng = SmallRng::seed_from_u64(3);
        for text in BENCH_SPECS {
            for side in [5, 9] {
                let start = AnyGame::new(&text.parse().unwrap(), Geometry::square(side).unwrap());
                for _ in 0..20 {
                    let mut game = start.clone();
                    let cap = game.playout_cap();
                    let moves = playout(&mut game, &mut rng, Policy::Heavy, cap);
                    assert!(moves > 0 && moves <= cap, "{text} on {side}: {moves}");
                }
            }
        }
        // a variant without a board of stones plays light moves
        let mut galice = Galice::new();
        let cap = galice.playout_cap();
        assert!(playout(&mut galice, &mut rng, Policy::Heavy, cap) > 0);
    }
}
