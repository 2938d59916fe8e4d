//! Excursion Go 1 and 2: a position for every clause of the rules (shared/rules/excursion.md).

#[allow(dead_code)]
mod support;

use support::{empty, mv as at, play, position, rows};
use variago_rules::{AnyGame, Board, Color, Ending, Game, GameResult, Illegal, VariantSpec};

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

/// Whether two boards hold the same colours on every point but not the same kinds: equal to a
/// comparison blind to kinds, different to the own-position draw.
fn only_kinds_differ(a: &[String], b: &[String]) -> bool {
    let colours = |rows: &[String]| -> Vec<String> {
        rows.iter().map(|row| row.replace('K', "X").replace('k', "O")).collect()
    };
    colours(a) == colours(b) && a != b
}

/// Plays a 2x2 game of `spec` from the empty board: each move with the board after it. The game
/// must go on until the last move; returns the game and the board after each move.
fn play_2x2(spec: &str, script: &[(&str, [&str; 2])]) -> (AnyGame, Vec<Vec<String>>) {
    let mut game = empty(spec, 2, 2);
    let mut boards = Vec::new();
    for (n, (m, expected)) in script.iter().enumerate() {
        assert!(!game.is_over(), "{spec}: the game ended before move {}", n + 1);
        play(&mut game, &[m]);
        assert_eq!(rows(&game), expected, "{spec}: the board after move {} ({m})", n + 1);
        boards.push(rows(&game));
    }
    (game, boards)
}

/// A 2x2 game of Excursion Go 1 that ends in an own-position draw, each move with the board after
/// it (rows from the top: A2 B2 / A1 B1).
const DRAW_IN_FORM_1: &[(&str, [&str; 2])] = &[
    ("A2", ["X.", ".."]),
    // every empty point borders only A2: White's first piece is a king
    ("B2", ["Xk", ".."]),
    ("pass", ["Xk", ".."]),
    // A1's region borders both colours: a stone, which turns B2 back into a stone and captures A2
    ("A1", [".O", "O."]),
    ("pass", [".O", "O."]),
    // a stone in White's own territory
    ("B1", [".O", "OO"]),
    // a king in White's territory capturing three stones: the colours of Black's board after
    // move 1, but a king where a stone was, so no draw
    ("A2", ["K.", ".."]),
    // a king in Black's territory: the colours of White's board after move 2, but A2 is a king
    // now, so no draw
    ("B2", ["Kk", ".."]),
    ("pass", ["Kk", ".."]),
    // a stone again: both kings turn back into stones and A2 is captured, which is exactly
    // White's board after move 4 (kinds included): a draw
    ("A1", [".O", "O."]),
];

/// A 2x2 game of Excursion Go 2 that ends in an own-position draw.
const DRAW_IN_FORM_2: &[(&str, [&str; 2])] = &[
    ("A2", ["X.", ".."]),
    ("pass", ["X.", ".."]),
    // B2's region borders only Black's A2: Black's own territory, a stone
    ("B2", ["XX", ".."]),
    // in Black's territory: a king
    ("A1", ["XX", "k."]),
    ("pass", ["XX", "k."]),
    // next to the king A1: a king, capturing two stones
    ("B1", ["..", "kk"]),
    // in White's territory: a king
    ("A2", ["K.", "kk"]),
    ("pass", ["K.", "kk"]),
    // next to the king A2: a king that captures two kings, legal after White's pass; the colours
    // of Black's board after move 3, but kings: no draw
    ("B2", ["KK", ".."]),
    // the colours of White's board after move 4, but A2 and B2 are kings: no draw
    ("A1", ["KK", "k."]),
    ("pass", ["KK", "k."]),
    // a king capturing two kings after Black's pass: exactly White's board after move 6
    ("B1", ["..", "kk"]),
];

/// Boards compare point by point, piece kind included: a placement that brings back the colours
/// of one of the mover's own earlier boards with other kinds does not draw; an exact repetition
/// does.
#[test]
fn the_own_position_draw_counts_kinds() {
    let draw = Some(GameResult { winner: None, ending: Ending::OwnPositionDraw });

    let (one, boards) = play_2x2("excursion-1", DRAW_IN_FORM_1);
    assert!(only_kinds_differ(&boards[6], &boards[0]) && only_kinds_differ(&boards[7], &boards[1]));
    assert_eq!(boards[9], boards[3]);
    assert_eq!(one.outcome(), draw);
    // Excursion Go 2 keeps White's king on B2 at move 4, so White's B1 crowns the whole group and
    // Black's king on A2 may not capture it right after that king placement
    let mut two = empty("excursion-2", 2, 2);
    play(&mut two, &["A2", "B2", "pass", "A1", "pass", "B1"]);
    assert_eq!(rows(&two), [".k", "kk"]);
    assert_eq!(two.check(at(&two, "A2")), Err(Illegal::KingRemovesKingAfterKing));

    let (two, boards) = play_2x2("excursion-2", DRAW_IN_FORM_2);
    assert!(only_kinds_differ(&boards[8], &boards[2]) && only_kinds_differ(&boards[9], &boards[3]));
    assert_eq!(boards[11], boards[5]);
    assert_eq!(two.outcome(), draw);
    // Excursion Go 1 refuses Black's ninth move: a king placement may never remove a king
    let mut one = empty("excursion-1", 2, 2);
    play(&mut one, &["A2", "pass", "B2", "A1", "pass", "B1", "A2", "pass"]);
    assert_eq!(rows(&one), ["K.", "kk"]);
    assert_eq!(one.check(at(&one, "B2")), Err(Illegal::KingRemovesKing));

    // without the draw the same games go on through the same boards
    for (spec, script) in
        [("excursion-1:draw=none", DRAW_IN_FORM_1), ("excursion-2:draw=none", DRAW_IN_FORM_2)]
    {
        let (game, _) = play_2x2(spec, script);
        assert!(!game.is_over(), "{spec}");
    }
}
