//! The worked examples of the rules documents, as positions.

#[allow(dead_code)]
mod support;

use support::{mv, position};
use variago_rules::{AnyGame, Color, Game, Illegal, VariantSpec};

#[test]
fn incursion_ko_example_forbids_the_immediate_retake() {
    let mut game = position("incursion", &[".....", ".XO..", "XO.O.", ".XO..", "....."], Color::Black);
    game.play(mv(&game, "C3")).unwrap();
    assert_eq!(game.board().piece(game.board().geometry().parse_vertex("B3").unwrap()), None);
    assert_eq!(game.check(mv(&game, "B3")), Err(Illegal::IncursionAfterIncursion));
    assert_eq!(
        Illegal::IncursionAfterIncursion.to_string(),
        "incursion right after the opponent's incursion"
    );
    // a move elsewhere (a ko threat) lifts the restriction
    game.play(mv(&game, "E5")).unwrap();
    game.play(mv(&game, "E1")).unwrap();
    assert_eq!(game.check(mv(&game, "B3")), Ok(()));
}

#[test]
fn first_moves_on_an_empty_board() {
    let spec: VariantSpec = "incursion".parse().unwrap();
    let mut game = AnyGame::new(&spec, variago_rules::Geometry::square(5).unwrap());
    game.play(mv(&game, "C3")).unwrap();
    // White's first stone is an incursion (the only border piece is Black's)...
    game.play(mv(&game, "D4")).unwrap();
    // ...so Black may not answer with an incursion, but nothing is Black's territory's opposite now
    assert_eq!(game.check(mv(&game, "B2")), Ok(()));
}
