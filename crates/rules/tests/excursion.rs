//! Excursion Go 1 and 2: a position for every clause of the rules (shared/rules/excursion.md).

#[allow(dead_code)]
mod support;

use support::{mv as at, play, position, rows};
use variago_rules::{AnyGame, Board, Color, Ending, Game, Illegal, VariantSpec};

const FORMS: [&str; 2] = ["excursion-1", "excursion-2"];

#[test]
fn a_placement_in_enemy_territory_is_a_king() {
    for spec in FORMS {
        // A5-B5 is White's territory (bordered by C5, A4, B4 only)
        let mut game = position(spec, &["..O..", "OOO..", ".....", "...X.", "....."], Color::Black);
        play(&mut game, &["A5"]);
        assert_eq!(rows(&game)[0], "K.O..", "{spec}");
        // a region bordered by both colours gets a stone
        play(&mut game, &["pass", "C3"]);
        assert_eq!(&rows(&game)[2], "..X..", "{spec}");
    }
}

#[test]
fn the_first_white_piece_of_a_game_is_a_king() {
    let spec: VariantSpec = "excursion-2".parse().unwrap();
    let mut game = AnyGame::new(&spec, variago_rules::Geometry::square(5).unwrap());
    play(&mut game, &["C3", "D4"]);
    assert_eq!(rows(&game)[1], "...k.");
    assert_eq!(rows(&game)[2], "..X..");
}

#[test]
fn a_placement_next_to_a_friendly_king_crowns_the_groups_it_touches() {
    // Black king B4, black stones D4 E4 and D3; C4 touches both: everything becomes kings
    let mut game = position("excursion-2", &[".....", ".K.XX", "...X.", "O....", "....."], Color::Black);
    play(&mut game, &["C4"]);
    assert_eq!(rows(&game)[1..3], [".KKKK", "...K."]);
    // a stone group not touching the new king stays stones
    let mut game = position("excursion-2", &[".....", ".K...", ".....", "...XX", "O...."], Color::Black);
    play(&mut game, &["C4"]);
    assert_eq!(rows(&game)[1..4], [".KK..", ".....", "...XX"]);
}

#[test]
fn excursion_1_reverts_every_king_of_both_colours_on_a_stone_placement() {
    let setup = [".....", ".K...", ".....", "...k.", "....."];
    let mut one = position("excursion-1", &setup, Color::Black);
    play(&mut one, &["E1"]);
    assert_eq!(rows(&one), [".....", ".X...", ".....", "...O.", "....X"]);
    let mut two = position("excursion-2", &setup, Color::Black);
    play(&mut two, &["E1"]);
    assert_eq!(rows(&two), [".....", ".K...", ".....", "...k.", "....X"]);
}

#[test]
fn suicide_is_legal_and_removes_the_movers_group() {
    // Black A1-B1... White surrounds: Black B1 joins A1 and the group dies (not a lone stone)
    for spec in FORMS {
        let mut game = position(spec, &["...", "OO.", "X.O"], Color::Black);
        let b1 = at(&game, "B1");
        assert_eq!(game.check(b1), Ok(()), "{spec}");
        play(&mut game, &["B1"]);
        assert_eq!(rows(&game), ["...", "OO.", "..O"], "{spec}");
    }
}

#[test]
fn a_lone_piece_that_only_removes_itself_changes_nothing() {
    // A1 is White's territory: a Black king there has no liberty and captures nothing. A lone
    // suicide always lands in enemy territory, so it is always a king and never reverts kings
    // (even in excursion-1 with kings on the board).
    for spec in FORMS {
        let game = position(spec, &["k..", "O..", ".O."], Color::Black);
        assert_eq!(game.check(at(&game, "A1")), Err(Illegal::ChangesNothing), "{spec}");
    }
}

#[test]
fn a_king_placement_that_captures_a_king_is_refused_in_form_1() {
    // White king A1 with its last liberty at B1; Black B1 is next to the black king C1, so it is
    // a king placement, and it would capture the white king
    let rows_before = [".....", ".....", ".....", "X....", "k.K.."];
    let one = position("excursion-1", &rows_before, Color::Black);
    assert_eq!(one.check(at(&one, "B1")), Err(Illegal::KingRemovesKing));
    assert_eq!(Illegal::KingRemovesKing.to_string(), "places a king and removes a king");
    // form 2 allows it: the opponent's last move placed no king
    let mut two = position("excursion-2", &rows_before, Color::Black);
    assert_eq!(two.check(at(&two, "B1")), Ok(()));
    play(&mut two, &["B1"]);
    assert_eq!(rows(&two)[3..5], ["X....", ".KK.."]);
    // capturing a king with a stone is no king placement: legal in form 1 too
    let stone = position("excursion-1", &[".....", ".....", ".....", "X....", "k...."], Color::Black);
    assert_eq!(stone.check(at(&stone, "B1")), Ok(()));
}

#[test]
fn form_2_refuses_a_king_capture_right_after_an_opponents_king() {
    // D5-E5 is Black's territory: White E5 is a king; then Black B1 (next to the black king C1)
    // would capture the white king A1 right after White's king placement
    let rows_before = ["..X..", "...XX", ".....", "X....", "k.K.."];
    let mut two = position("excursion-2", &rows_before, Color::White);
    play(&mut two, &["E5"]);
    assert_eq!(rows(&two)[0], "..X.k");
    assert_eq!(two.check(at(&two, "B1")), Err(Illegal::KingRemovesKingAfterKing));
    assert_eq!(
        Illegal::KingRemovesKingAfterKing.to_string(),
        "places a king and removes a king right after the opponent placed one"
    );
    // after a White stone (or a pass) the capture is legal again
    play(&mut two, &["C3", "pass"]);
    assert_eq!(two.check(at(&two, "B1")), Ok(()));
}

#[test]
fn a_king_suicide_removes_a_king() {
    // Black C1 is next to the black king B... construct: black king A1 whose only liberty is B1,
    // B1 surrounded by White: Black B1 (next to the king A1) is a king placement that kills its
    // own group, removing kings: refused in form 1
    let rows_before = ["...", "OO.", "K.O"];
    let one = position("excursion-1", &rows_before, Color::Black);
    assert_eq!(one.check(at(&one, "B1")), Err(Illegal::KingRemovesKing));
    let two = position("excursion-2", &rows_before, Color::Black);
    assert_eq!(two.check(at(&two, "B1")), Ok(()));
}

#[test]
fn kings_and_stones_are_different_positions() {
    let stone = Board::from_diagram(&["X..", "...", "..."]).unwrap();
    let king = Board::from_diagram(&["K..", "...", "..."]).unwrap();
    assert_ne!(stone.hash(), king.hash());
    assert_ne!(stone, king);
    assert_eq!(king.hash(), king.recomputed_hash());
}

#[test]
fn the_own_position_draw_counts_kinds() {
    // a 2x2 cycle with captures ends in a draw when a player recreates its own board
    for spec in FORMS {
        let spec_text = spec;
        let spec: VariantSpec = spec.parse().unwrap();
        let mut game = AnyGame::new(&spec, variago_rules::Geometry::new(2, 2).unwrap());
        let mut moves = Vec::new();
        let mut played = 0;
        // play the first legal placement each turn until the game ends; it must end by a draw
        // or by two passes within a few dozen moves
        while !game.is_over() && played < 200 {
            game.legal_moves(&mut moves);
            let mv = moves[0];
            game.play(mv).unwrap();
            played += 1;
        }
        assert!(game.is_over(), "{spec_text}: no end after {played} moves");
        let result = game.outcome().unwrap();
        assert!(
            result.ending == Ending::OwnPositionDraw || matches!(result.ending, Ending::Score(_)),
            "{spec_text}: {result:?}"
        );
    }
}
