//! What the integration tests share: the naive model of the rules ([`model`]) and small helpers
//! that set up engine games and translate between the engine's points and moves and the model's
//! indices (`y * width + x`, row 0 at the top, as `Geometry::point` counts).
//!
//! Each test file includes it with `mod support;` and uses what it needs.

pub mod model;

use variago_rules::{AnyGame, Board, Color, Game, Geometry, Move, Piece, Point, VariantSpec};

use model::Cells;

/// The named specs: every variant with its defaults, and Go under each ko and suicide rule.
pub const NAMED_SPECS: [&str; 9] = [
    "go",
    "go:ko=simple",
    "go:ko=situational",
    "go:suicide=allowed",
    "incursion",
    "incursion-minimal",
    "incursion-line",
    "stoical",
    "stoical:refine=more-stones",
];

/// The forms of Excursion Go with their defaults.
pub const EXCURSION_SPECS: [&str; 2] = ["excursion-1", "excursion-2"];

/// Whether a spec has kings (Excursion Go): its set-ups may hold kings too.
pub fn has_kings(spec: &str) -> bool {
    spec.starts_with("excursion")
}

/// A position of `spec` set up from a diagram (rows from the top: `X` Black, `O` White, `K` a
/// black king, `k` a white king, `.` empty), `to_move` to play.
pub fn position(spec: &str, rows: &[&str], to_move: Color) -> AnyGame {
    let spec: VariantSpec = spec.parse().unwrap_or_else(|e| panic!("spec {spec}: {e}"));
    AnyGame::from_setup(&spec, Board::from_diagram(rows).expect("a rectangular diagram"), to_move)
}

/// The empty board of `spec`, Black to move.
pub fn empty(spec: &str, width: u32, height: u32) -> AnyGame {
    let spec: VariantSpec = spec.parse().unwrap_or_else(|e| panic!("spec {spec}: {e}"));
    AnyGame::new(&spec, Geometry::new(width, height).expect("a board size"))
}

/// A model board as diagram rows from the top.
pub fn diagram(cells: &[Option<Piece>], width: usize) -> Vec<String> {
    let symbol = |cell: &Option<Piece>| match cell {
        Some(Piece { color: Color::Black, king: false }) => 'X',
        Some(Piece { color: Color::White, king: false }) => 'O',
        Some(Piece { color: Color::Black, king: true }) => 'K',
        Some(Piece { color: Color::White, king: true }) => 'k',
        None => '.',
    };
    cells.chunks(width).map(|row| row.iter().map(symbol).collect()).collect()
}

/// A position of `spec` set up from a model board.
pub fn set_up(spec: &str, cells: &[Option<Piece>], width: usize, to_move: Color) -> AnyGame {
    let rows = diagram(cells, width);
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    position(spec, &rows, to_move)
}

/// `pass` or a GTP vertex (A1 the lower left corner).
pub fn mv(game: &AnyGame, text: &str) -> Move {
    if text == "pass" { Move::Pass } else { Move::Place(game.board().geometry().parse_vertex(text).unwrap()) }
}

/// Plays moves that must all be legal.
pub fn play(game: &mut AnyGame, moves: &[&str]) {
    for &m in moves {
        let chosen = mv(game, m);
        if let Err(why) = game.play(chosen) {
            panic!("{m} refused: {why}\n{}", game.board());
        }
    }
}

/// The board as diagram rows from the top.
pub fn rows(game: &AnyGame) -> Vec<String> {
    let g = game.board().geometry();
    (0..g.height())
        .map(|y| (0..g.width()).map(|x| game.board().symbol(g.point(x, y).unwrap())).collect())
        .collect()
}

/// Every legal move of the side to move.
pub fn legal_moves(game: &AnyGame) -> Vec<Move> {
    let mut out = Vec::new();
    game.legal_moves(&mut out);
    out
}

/// The model's index of a point.
pub fn index(geometry: Geometry, p: Point) -> usize {
    let (x, y) = geometry.coords(p);
    y as usize * geometry.width() as usize + x as usize
}

/// The point of a model's index.
pub fn point(geometry: Geometry, i: usize) -> Point {
    let width = geometry.width() as usize;
    geometry.point((i % width) as u8, (i / width) as u8).expect("an index on the board")
}

/// An engine move as the model's: `Some(index)` or `None` for a pass.
pub fn to_model(geometry: Geometry, mv: Move) -> Option<usize> {
    match mv {
        Move::Pass => None,
        Move::Place(p) => Some(index(geometry, p)),
    }
}

/// A model move as the engine's.
pub fn to_engine(geometry: Geometry, mv: Option<usize>) -> Move {
    mv.map_or(Move::Pass, |i| Move::Place(point(geometry, i)))
}

/// The engine's board as a model board, kinds included.
pub fn cells(board: &Board) -> Cells {
    let geometry = board.geometry();
    (0..geometry.area()).map(|i| board.piece(point(geometry, i))).collect()
}

/// Whether the last move placed a king, as the engine's Excursion game remembers it (`None` for
/// the other variants).
pub fn last_placed_king(game: &AnyGame) -> Option<bool> {
    match game {
        AnyGame::Excursion(g) => Some(g.memory()),
        _ => None,
    }
}
