//! A state of the game graph (lab.md) packed into one `u128`: three bits per point (empty, a
//! stone or a king of a colour), then the side to move, the passes in a row (0 or 1) and the
//! variant's rule memory. Two positions pack alike exactly when lab.md calls them the same state.
//! On boards of up to 19 points every set bit lies in the low 64 ([`StateCoder::bits`]), and the
//! graph keeps such states in one machine word.

use variago_rules::{AnyGame, Board, Color, Game, Geometry, Piece, Point, VariantSpec};

use crate::LabError;
use crate::variant::LabVariant;

/// A packed state.
pub type PackedState = u128;

/// Bits per point: enough for empty and the four pieces.
const CELL_BITS: u32 = 3;

/// Packs positions of one variant on one board.
#[derive(Clone, Debug)]
pub struct StateCoder {
    /// The board's points in reading order (row by row from the top), each one's cell at
    /// `CELL_BITS` times its place.
    points: Vec<Point>,
    geometry: Geometry,
}

impl StateCoder {
    /// A coder for a board, refused when a state of it would not fit in 128 bits.
    pub fn new(geometry: Geometry) -> Result<Self, LabError> {
        // the memory is at most a point number plus one or a count of stones: both below 2^(bits)
        let area = geometry.area();
        let fits = |area: usize| state_bits(area) <= PackedState::BITS;
        if !fits(area) {
            let max_points = (1..area).rev().find(|&a| fits(a)).unwrap_or(0);
            return Err(LabError::BoardTooLarge { geometry, max_points });
        }
        let points = (0..geometry.height())
            .flat_map(|y| (0..geometry.width()).map(move |x| (x, y)))
            .filter_map(|(x, y)| geometry.point(x, y))
            .collect();
        Ok(StateCoder { points, geometry })
    }

    /// The board it packs states of.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// How many of a packed state's low bits can be set: the cells, the side to move, the passes
    /// and the memory.
    pub fn bits(&self) -> u32 {
        state_bits(self.points.len())
    }

    /// The state of a position of a variant the lab searches.
    pub fn pack<V: LabVariant>(&self, game: &V::Game) -> PackedState {
        let board = V::board(game);
        let mut packed: u128 = 0;
        for (i, &p) in self.points.iter().enumerate() {
            let cell = match board.piece(p) {
                None => 0,
                Some(piece) => 1 + piece.color as u128 + 2 * piece.king as u128,
            };
            packed |= cell << (CELL_BITS as usize * i);
        }
        let (passes, memory) = V::passes_and_memory(game, |p| self.point_number(p));
        let mut shift = CELL_BITS as usize * self.points.len();
        packed |= ((game.to_move() == Color::White) as u128) << shift;
        shift += 1;
        packed |= (passes.min(1) as u128) << shift;
        shift += 1;
        packed | (memory as u128) << shift
    }

    /// The position a packed state stands for, under the variant it was packed for: the board,
    /// the side to move and the past the state records; it packs back to the same state and has
    /// the same legal moves as every position packed to it.
    pub fn unpack<V: LabVariant>(&self, variant: &V, packed: PackedState) -> V::Game {
        let rest = packed >> (CELL_BITS as usize * self.points.len());
        let (passes, memory) = ((rest >> 1) & 1, (rest >> 2) as u64);
        variant.position(self.board(packed), self.to_move(packed), passes as u8, memory, |n| {
            self.points[n as usize - 1]
        })
    }

    /// The board of a packed state.
    pub fn board(&self, packed: PackedState) -> Board {
        let cell_mask = (1u128 << CELL_BITS) - 1;
        let pieces = self.points.iter().enumerate().filter_map(|(i, &p)| {
            // empty, then a black and a white stone, then a black and a white king (see `pack`)
            let cell = (packed >> (CELL_BITS as usize * i)) & cell_mask;
            let color = if cell % 2 == 1 { Color::Black } else { Color::White };
            (cell != 0).then_some((p, Piece { color, king: cell > 2 }))
        });
        Board::from_pieces(self.geometry, pieces)
    }

    /// The side to move in a packed state.
    pub fn to_move(&self, packed: PackedState) -> Color {
        let side = (packed >> (CELL_BITS as usize * self.points.len())) & 1;
        if side == 0 { Color::Black } else { Color::White }
    }

    /// Whether the last move of a packed state was a pass, so that a pass now ends the game.
    pub fn pass_ends_game(&self, packed: PackedState) -> bool {
        (packed >> (CELL_BITS as usize * self.points.len() + 1)) & 1 == 1
    }

    /// A point's number in reading order, from 1.
    fn point_number(&self, p: Point) -> u64 {
        let (x, y) = self.geometry.coords(p);
        1 + y as u64 * self.geometry.width() as u64 + x as u64
    }
}

/// A state as lab.md defines it, unpacked, for a board of any size (the packed form holds at
/// most 40 points): two positions have equal `State`s exactly when they pack alike.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// The piece on each point, in the geometry's point order.
    pub board: Vec<Option<Piece>>,
    /// The side to move.
    pub to_move: Color,
    /// Passes in a row (0 or 1 in a game that goes on).
    pub passes: u8,
    /// The variant's rule memory (the ko point numbered from 1 in the geometry's point order).
    pub memory: u64,
}

impl State {
    /// The state of a position of a variant the lab searches (see [`crate::searchable_variant`]).
    pub fn of(game: &AnyGame) -> State {
        let board = game.board();
        let (passes, memory) = VariantSpec::passes_and_memory(game, |p| p.index() as u64 + 1);
        State {
            board: board.geometry().points().map(|p| board.piece(p)).collect(),
            to_move: game.to_move(),
            passes,
            memory,
        }
    }
}

/// Bits of a packed state on a board of `area` points: the cells, the side to move, the passes and
/// the memory.
fn state_bits(area: usize) -> u32 {
    CELL_BITS * area as u32 + 2 + memory_bits(area)
}

/// Bits for a rule memory on a board of `area` points: a point number (1..=area) or a count of
/// captured stones (below area).
fn memory_bits(area: usize) -> u32 {
    usize::BITS - area.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use variago_rules::{Move, VariantSpec};

    fn game(spec: &str, geometry: Geometry, moves: &[&str]) -> AnyGame {
        let spec: VariantSpec = spec.parse().unwrap();
        let mut game = AnyGame::new(&spec, geometry);
        for text in moves {
            let mv = match *text {
                "pass" => Move::Pass,
                v => Move::Place(geometry.parse_vertex(v).unwrap()),
            };
            game.play(mv).unwrap();
        }
        game
    }

    /// The side, passes and memory of a packed state: what follows the board's cells.
    fn tail(geometry: Geometry, packed: PackedState) -> (u128, u128, u128) {
        let rest = packed >> (CELL_BITS as usize * geometry.area());
        (rest & 1, (rest >> 1) & 1, rest >> 2)
    }

    #[test]
    fn every_part_of_a_state_tells_states_apart() {
        let g = Geometry::new(3, 2).unwrap();
        let coder = StateCoder::new(g).unwrap();
        let state = |moves: &[&str]| coder.pack::<VariantSpec>(&game("incursion", g, moves));
        assert_eq!(tail(g, state(&[])), (0, 0, 0));
        assert_eq!(tail(g, state(&["pass"])), (1, 1, 0));
        assert_eq!(tail(g, state(&["pass", "A1", "pass"])), (1, 1, 0));
        assert_eq!(tail(g, state(&["A1"])), (1, 0, 0));
        assert_eq!(tail(g, state(&["A1", "C2"])), (0, 0, 1), "White's first stone is an incursion");
        assert_eq!(tail(g, state(&["A1", "C2", "C1"])), (1, 0, 0));
        assert_ne!(state(&["A1"]), state(&["B1"]));
        assert_ne!(state(&["pass", "A1", "pass"]), state(&["A1"]));
        // the same board, side and memory, reached two ways: one state
        assert_eq!(state(&["A1", "C2", "B2"]), state(&["B2", "C2", "A1"]));
        // a king and a stone are different pieces
        let kings = |moves: &[&str]| coder.pack::<VariantSpec>(&game("excursion-2", g, moves));
        assert_ne!(kings(&["A1", "C2"]) ^ state(&["A1", "C2"]), 0);
    }

    #[test]
    fn the_memory_is_what_lab_md_names_and_nothing_more() {
        let g = Geometry::square(4).unwrap();
        let coder = StateCoder::new(g).unwrap();
        let takes_one = ["B1", "A1", "A2"];
        let takes_two = ["A2", "A1", "B2", "B1", "C1"];
        let memory = |spec: &str, moves: &[&str]| tail(g, coder.pack::<VariantSpec>(&game(spec, g, moves))).2;
        // plain Stoical remembers whether the last move captured, not how much
        assert_eq!((memory("stoical", &takes_one), memory("stoical", &takes_two)), (1, 1));
        let refined = "stoical:refine=more-stones";
        assert_eq!((memory(refined, &takes_one), memory(refined, &takes_two)), (1, 2));
        // Excursion Go 1 remembers nothing; form 2 whether the last move placed a king
        assert_eq!((memory("excursion-1", &["A1", "D4"]), memory("excursion-2", &["A1", "D4"])), (0, 1));
        // simple ko: the banned point, numbered in reading order from the top left
        let ko = ["B4", "C4", "A3", "D3", "B2", "C2", "C3", "B3"];
        assert_eq!(memory("go:ko=simple", &ko), 7, "C3 is the third point of the second row");
    }

    #[test]
    fn a_state_unpacks_to_a_position_with_the_same_state_and_moves() {
        let g = Geometry::new(3, 2).unwrap();
        let coder = StateCoder::new(g).unwrap();
        for name in crate::SEARCHED_VARIANTS {
            let spec = crate::searchable_variant(name).unwrap();
            // every position reachable in a few moves, each compared with its unpacked state
            let mut level = vec![AnyGame::new(&spec, g)];
            for _ in 0..4 {
                let mut next = Vec::new();
                for game in &level {
                    let rebuilt = coder.unpack(&spec, coder.pack::<VariantSpec>(game));
                    assert_eq!(
                        coder.pack::<VariantSpec>(&rebuilt),
                        coder.pack::<VariantSpec>(game),
                        "{name}"
                    );
                    let (mut moves, mut rebuilt_moves) = (Vec::new(), Vec::new());
                    game.legal_moves(&mut moves);
                    rebuilt.legal_moves(&mut rebuilt_moves);
                    assert_eq!(moves, rebuilt_moves, "{name}: {}", game.board());
                    for mv in moves {
                        let (mut child, mut rebuilt_child) = (game.clone(), rebuilt.clone());
                        child.play(mv).unwrap();
                        rebuilt_child.play(mv).unwrap();
                        assert_eq!(
                            coder.pack::<VariantSpec>(&rebuilt_child),
                            coder.pack::<VariantSpec>(&child),
                            "{name}"
                        );
                        if !child.is_over() {
                            next.push(child);
                        }
                    }
                }
                level = next;
            }
        }
    }

    #[test]
    fn boards_too_large_for_128_bits_are_refused() {
        assert!(StateCoder::new(Geometry::new(5, 7).unwrap()).is_ok());
        let refused = StateCoder::new(Geometry::square(7).unwrap()).unwrap_err();
        assert!(refused.to_string().contains("does not fit in 128 bits"), "{refused}");
    }
}
