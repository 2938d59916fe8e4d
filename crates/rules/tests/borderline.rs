//! Warhorn: Borderline: a position for every term of the score table and every status rule, at
//! the zone boundaries, plus deployment, forces, passes, the ko award and whole random games
//! (shared/rules/borderline.md).

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_rules::borderline::{Borderline, BorderlineRules, Breakdown, StoneStatus, Zone};
use variago_rules::{Board, Color, Game, Geometry, HalfPoints, Illegal, Move, Piece, Point, ScoreSheet};

const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";

/// The point at a column letter and a row counted from the top, as the rules file writes them.
fn at(column: char, row_from_top: u8) -> Point {
    let x = COLUMNS.find(column).expect("a column letter") as u8;
    Geometry::square(19).unwrap().point(x, row_from_top - 1).expect("on the board")
}

/// Points written `K12 L12 ...` (column letter, row from the top).
fn points(text: &str) -> Vec<Point> {
    text.split_whitespace()
        .map(|word| {
            let mut chars = word.chars();
            let column = chars.next().unwrap();
            at(column, chars.as_str().parse().unwrap())
        })
        .collect()
}

/// A position past deployment with these stones (rows from the top), `to_move` to play.
fn position(black: &str, white: &str, to_move: Color) -> Borderline {
    position_with(BorderlineRules::default(), black, white, to_move)
}

fn position_with(rules: BorderlineRules, black: &str, white: &str, to_move: Color) -> Borderline {
    let mut board = Board::new(Geometry::square(19).unwrap());
    for (text, color) in [(black, Color::Black), (white, Color::White)] {
        for p in points(text) {
            board.set(p, Some(Piece::stone(color)));
        }
    }
    Borderline::from_setup(rules, board, to_move)
}

/// `[black, white]` totals of the live score.
fn totals(game: &Borderline) -> [i32; 2] {
    game.live_score().sides.map(|s| s.total())
}

fn play(game: &mut Borderline, moves: &str) {
    for word in moves.split_whitespace() {
        let mv = if word == "pass" { Move::Pass } else { Move::Place(points(word)[0]) };
        game.play(mv).unwrap_or_else(|e| panic!("{word}: {e}"));
    }
}

fn status(game: &Borderline, p: &str) -> StoneStatus {
    game.survey().status(game.board(), points(p)[0]).expect("a stone")
}

#[test]
fn zones_follow_the_rows_from_the_top() {
    let game = Borderline::new(BorderlineRules::default(), Geometry::square(19).unwrap());
    assert_eq!(game.zones().zone(at('A', 9)), Zone::Own(Color::Black));
    assert_eq!(game.zones().zone(at('T', 10)), Zone::Border);
    assert_eq!(game.zones().zone(at('A', 11)), Zone::Own(Color::White));
    assert_eq!(game.zones().own_rows(Color::White), (11, 19));
}

#[test]
fn a_living_stone_scores_in_the_attack_zone_only() {
    // rows 9 (Black's zone), 10 (Border) and 11 (White's zone)
    assert_eq!(totals(&position("K9", "", Color::White)), [0, 0]);
    assert_eq!(totals(&position("K10", "", Color::White)), [1, 0]);
    assert_eq!(totals(&position("K11", "", Color::White)), [1, 0]);
    assert_eq!(totals(&position("", "K11", Color::Black)), [0, 0]);
    assert_eq!(totals(&position("", "K10", Color::Black)), [0, 1]);
    assert_eq!(totals(&position("", "K9", Color::Black)), [0, 1]);
}

#[test]
fn the_worked_example_encloses_a_border_point() {
    let game = position("J10 L10 K9 K11", "", Color::White);
    let score = game.live_score();
    assert_eq!(score.sides[0].live, 3);
    assert_eq!(score.sides[0].enclosed, 2);
    assert_eq!(score.sides[0].total(), 5);
    assert_eq!(game.survey().enclosed_by(at('K', 10)), Some(Color::Black));
}

#[test]
fn an_enclosed_point_in_the_own_zone_scores_nothing() {
    // the same shape one row up: K9 is in Black's own zone
    let game = position("J9 L9 K8 K10", "", Color::White);
    assert_eq!(game.survey().enclosed_by(at('K', 9)), Some(Color::Black));
    assert_eq!(game.live_score().sides[0].enclosed, 0);
    // one row down: K11 is in White's zone, so the point counts
    let game = position("J11 L11 K10 K12", "", Color::White);
    assert_eq!(game.live_score().sides[0].enclosed, 2);
}

#[test]
fn an_enclosure_may_use_the_board_edge() {
    // the bottom-left corner point A19 cut off by A18 and B19
    let game = position("A18 B19", "", Color::White);
    assert_eq!(game.survey().enclosed_by(at('A', 19)), Some(Color::Black));
    assert_eq!(totals(&game), [2 + 2, 0]);
}

#[test]
fn a_wall_with_a_gap_encloses_nothing() {
    let game = position("J11 K12 L11", "", Color::White);
    assert_eq!(game.survey().enclosed_by(at('K', 11)), None);
    assert_eq!(game.live_score().sides[0].enclosed, 0);
}

#[test]
fn a_wall_across_the_whole_board_is_a_tie_and_encloses_nothing() {
    let row10: String = COLUMNS.chars().map(|c| format!("{c}10 ")).collect();
    let game = position(&row10, "", Color::White);
    assert_eq!(game.survey().enclosed_by(at('A', 1)), None);
    assert_eq!(game.survey().enclosed_by(at('A', 19)), None);
    assert_eq!(
        game.live_score().sides[0],
        variago_rules::borderline::Breakdown { live: 19, ..Default::default() }
    );
    // a full-width wall off the middle cuts the board unequally: the smaller side is enclosed
    let row13: String = COLUMNS.chars().map(|c| format!("{c}13 ")).collect();
    let game = position(&row13, "", Color::White);
    assert_eq!(game.survey().enclosed_by(at('A', 19)), Some(Color::Black));
    assert_eq!(game.survey().enclosed_by(at('A', 1)), None);
    assert_eq!(game.live_score().sides[0].enclosed, 2 * 6 * 19);
}

#[test]
fn a_nested_enclosure_keeps_its_inside_for_the_inner_wall() {
    // Black ring around a White ring around four empty points, all in White's zone
    let black =
        "H12 J12 K12 L12 M12 N12 O12 H13 O13 H14 O14 H15 O15 H16 O16 H17 O17 H18 J18 K18 L18 M18 N18 O18";
    let white = "K13 L13 J14 M14 J15 M15 J16 M16 K17 L17";
    let game = position(black, white, Color::Black);
    let survey = game.survey();
    // the white ring has six empty points inside: four legal points, so it lives
    assert_eq!(status(&game, "K13"), StoneStatus::Living);
    assert_eq!(survey.enclosed_by(at('K', 15)), Some(Color::White));
    assert_eq!(survey.enclosed_by(at('L', 14)), Some(Color::White));
    // between the rings the points are Black's
    assert_eq!(survey.enclosed_by(at('J', 13)), Some(Color::Black));
    // the white stones themselves are inside Black's enclosure but living: they do not count
    assert_eq!(survey.enclosed_by(at('K', 13)), Some(Color::Black));
    let inside_black = 5 * 5 - 10 - 6; // the ring's inside less the white stones and the white inside
    assert_eq!(game.live_score().sides[0].enclosed, 2 * inside_black);
}

#[test]
fn a_surrounded_group_without_eyes_or_room_is_besieged_and_scores_for_the_besieger() {
    // a white stone on K9 (Black's zone) in a black ring with one empty point, K10, where a white
    // stone would be suicide: no legal point, no eye
    let game = position("J9 L9 K8 J10 L10 K11", "K9", Color::White);
    assert_eq!(status(&game, "K9"), StoneStatus::Besieged);
    let score = game.live_score();
    // Black: siege +1 (besieged enemy on its defence zone); J10 and L10 (Border) and K11 live
    assert_eq!(score.sides[0].siege, 1);
    assert_eq!(score.sides[0].live, 3);
    // K10 (Border) is enclosed; K9 is enclosed too but lies in Black's own zone
    assert_eq!(game.survey().enclosed_by(at('K', 9)), Some(Color::Black));
    assert_eq!(score.sides[0].enclosed, 2);
    assert_eq!(score.sides[0].total(), 6);
    // the besieged stone scores nothing for White, even on White's attack zone
    assert_eq!(score.sides[1], variago_rules::borderline::Breakdown::default());
}

#[test]
fn a_besieged_stone_on_the_attack_zone_point_counts_as_enclosed() {
    // a white stone on K12 in White's zone inside a black ring, its one liberty K13 enclosed
    let game = position("J12 L12 K11 J13 L13 K14", "K12", Color::Black);
    assert_eq!(status(&game, "K12"), StoneStatus::Besieged);
    let score = game.live_score();
    assert_eq!(score.sides[0].enclosed, 2 * 2, "K12 (besieged stone) and K13 (empty)");
    // K12 is in White's zone, not Black's defence zone: no siege
    assert_eq!(score.sides[0].siege, 0);
    assert_eq!(score.sides[0].live, 6);
}

#[test]
fn on_the_border_occupation_and_defence_add_up() {
    // a white stone on K10 (the Border) besieged in a black ring, its one liberty K11 enclosed
    let game = position("J10 L10 K9 J11 L11 K12", "K10", Color::Black);
    assert_eq!(status(&game, "K10"), StoneStatus::Besieged);
    let score = game.live_score();
    // siege: the Border is in Black's defence zone; enclosed: it is in the attack zone too
    assert_eq!(score.sides[0].siege, 1);
    assert_eq!(score.sides[0].enclosed, 2 * 2, "K10 (besieged stone, Border) and K11 (empty)");
    // living stones: J10 and L10 on the Border, J11, L11 and K12 in White's zone; K9 is home
    assert_eq!(score.sides[0].live, 5);
    assert_eq!(score.sides[0].total(), 10);
}

#[test]
fn legal_points_decide_between_three_and_four() {
    // a white two-stone group inside a large black ring: its room decides
    let ring = "G12 H12 J12 K12 L12 M12 F13 M13 F14 M14 F15 G15 H15 J15 K15 L15 M15";
    // inside: G13..L14 (2 rows x 5) = 10 points; White fills row 13 and part of row 14
    // J14 K14 L14 left: 3 legal points, no true eye: besieged
    let three = position(ring, "G13 H13 J13 K13 L13 G14 H14", Color::Black);
    assert_eq!(status(&three, "G13"), StoneStatus::Besieged);
    // H14 J14 K14 L14 left: 4 legal points: living
    let four = position(ring, "G13 H13 J13 K13 L13 G14", Color::Black);
    assert_eq!(status(&four, "G13"), StoneStatus::Living);
    // the ring's own status is untouched: nothing surrounds it
    assert_eq!(status(&three, "G12"), StoneStatus::Living);
}

#[test]
fn a_besieged_group_that_makes_two_eyes_lives_again() {
    // a white group on the bottom edge inside a black wall (all in White's zone, Black's attack
    // zone): G19 is a true eye; J19 and K19 are empty, so J19 is no eye yet
    let black = "E17 F17 G17 H17 J17 K17 L17 E18 E19 L18 L19";
    let white = "F18 G18 H18 J18 K18 F19 H19";
    let mut game = position(black, white, Color::White);
    assert_eq!(status(&game, "F18"), StoneStatus::Besieged, "one eye and 3 legal points");
    let before = game.live_score();
    play(&mut game, "K19");
    // J19 is a second true eye: the group lives and takes back its eyes from Black's enclosure
    assert_eq!(status(&game, "F18"), StoneStatus::Living);
    let survey = game.survey();
    assert_eq!(survey.enclosed_by(at('G', 19)), Some(Color::White), "the innermost enclosure");
    assert_eq!(survey.enclosed_by(at('H', 19)), Some(Color::Black), "a living white stone in Black's");
    let after = game.live_score();
    // before: G19, J19, K19 empty and seven besieged stones, all enclosed by Black: 10 points
    assert_eq!(before.sides[0].enclosed, 2 * 10);
    assert_eq!(after.sides[0].enclosed, 0);
}

#[test]
fn capturing_a_besieged_stone_moves_siege_to_annihilation() {
    // a white stone on K9 in Black's zone, besieged, with one liberty at K10
    let mut game = position("J9 L9 K8 J10 L10 K11", "K9", Color::Black);
    assert_eq!(status(&game, "K9"), StoneStatus::Besieged);
    let before = game.live_score();
    assert_eq!(before.sides[0].siege, 1);
    play(&mut game, "K10");
    let after = game.live_score();
    assert_eq!(after.sides[0].siege, 0, "siege -1");
    assert_eq!(after.sides[0].annihilation, 2, "annihilation +2");
    assert_eq!(after.sides[1].loss, 1, "the owner's loss");
    assert_eq!(game.captures(Color::Black), (1, 0));
    assert_eq!(game.captures(Color::White), (0, 1));
}

#[test]
fn a_capture_in_the_attack_zone_gives_no_annihilation() {
    // White captures a black stone on K9, in Black's zone (White's attack zone)
    let mut game = position("K9", "J9 L9 K8", Color::White);
    play(&mut game, "K10");
    let score = game.live_score();
    assert_eq!(score.sides[1].annihilation, 0);
    assert_eq!(score.sides[0].loss, 1);
    // on the Border the capture is in both defence zones
    let mut game = position("K10", "J10 L10 K9", Color::White);
    play(&mut game, "K11");
    assert_eq!(game.live_score().sides[1].annihilation, 2);
}

#[test]
fn the_worked_example_of_a_capture_swings_four_points() {
    // Black's stone on K12 in White's zone: +1; White captures it: +2 annihilation, Black -1
    let mut game = position("K12", "J12 L12 K13", Color::White);
    assert_eq!(totals(&game), [1, 0]);
    play(&mut game, "K11");
    // White: annihilation 2 plus K11... K11 is in White's zone (row 11), no live point
    assert_eq!(totals(&game), [-1, 2]);
}

#[test]
fn a_corner_group_without_room_is_besieged() {
    let game = position("A17 B17 C18 C19", "A18 B18 B19", Color::Black);
    assert_eq!(status(&game, "A18"), StoneStatus::Besieged);
    assert_eq!(status(&game, "A17"), StoneStatus::Living);
    assert!(!game.survey().cycled);
}

/// The position of a diagram (default rules, Black to move), whose statuses must cycle and
/// leave these stones (GTP vertices) besieged and these living.
fn cycling(rows: &[&str], besieged: &[&str], living: &[&str]) -> Borderline {
    let game =
        Borderline::from_setup(BorderlineRules::default(), Board::from_diagram(rows).unwrap(), Color::Black);
    let survey = game.survey();
    assert!(survey.cycled);
    let geometry = game.board().geometry();
    for (vertices, expected) in [(besieged, StoneStatus::Besieged), (living, StoneStatus::Living)] {
        for v in vertices {
            assert_eq!(survey.status(game.board(), geometry.parse_vertex(v).unwrap()), Some(expected), "{v}");
        }
    }
    game
}

#[test]
fn mutually_besieging_groups_settle_by_the_cycle_rule() {
    // A 4x4 board (Black's zone the top two rows, White's the bottom two, no Border). Every
    // white group and Black's D3 could be besieged. Round 1 (all living): D2 and A1 are cut
    // off by Black, D3 by White. Round 2: without D3 as a wall D2 reaches the edge, without D2
    // D3 does: only A1 stays besieged. Round 3 is round 1 again: a cycle of two states, and the
    // one with the most besieged stones (D3, D2, A1) is taken.
    let game = cycling(
        &["OO..", ".XOX", "X.XO", "O.X."],
        &["D3", "D2", "A1"],
        &["A4", "B4", "C3", "B3", "A2", "C2", "C1"],
    );
    // Black encloses A1 (a besieged stone), B1 and B2 in its attack zone: 6; its living A2, C2
    // and C1 stand there: 3. White's living A4, B4 and C3 stand in its attack zone: 3.
    assert_eq!(totals(&game), [9, 3]);
}

#[test]
fn deployment_keeps_the_first_four_stones_home() {
    let mut game = Borderline::new(BorderlineRules::default(), Geometry::square(19).unwrap());
    let err = game.check(Move::Place(at('K', 10))).unwrap_err();
    assert_eq!(err.to_string(), "deployment: Black's first two stones must be in rows 11-19");
    assert_eq!(game.check(Move::Pass).unwrap_err(), Illegal::PassDuringDeployment);
    play(&mut game, "K9");
    let err = game.check(Move::Place(at('K', 10))).unwrap_err();
    assert_eq!(err.to_string(), "deployment: White's first two stones must be in rows 1-9");
    play(&mut game, "K11 D4 Q16");
    assert_eq!(game.deployment_left(), 0);
    // deployment stones earn nothing: all in the own zones
    assert_eq!(totals(&game), [0, 0]);
    play(&mut game, "K10");
    assert_eq!(totals(&game), [1, 0]);
}

#[test]
fn passes_are_capped_and_cooled_down() {
    let mut game = position("D4", "Q16", Color::Black);
    play(&mut game, "pass C3");
    // Black passed: it must place twice before passing again
    assert_eq!(game.check(Move::Pass).unwrap_err().to_string(), "pass not allowed for 2 more turns");
    play(&mut game, "E5 C4");
    assert_eq!(game.check(Move::Pass).unwrap_err().to_string(), "pass not allowed for 1 more turn");
    play(&mut game, "E6 C5 pass C6 E7 C7 E8 C8");
    assert_eq!(game.passes_left(Color::Black), Some(0));
    assert_eq!(game.check(Move::Pass).unwrap_err().to_string(), "pass not allowed: used 2 of 2");
    // without the cap only the cooldown remains
    let rules: BorderlineRules = BorderlineRules { pass_cap: None, ..Default::default() };
    let mut game = position_with(rules, "D4", "Q16", Color::Black);
    play(&mut game, "pass C3 E5 C4 E6 C5 pass C6 E7 C7 E8 C8 pass");
    assert_eq!(game.passes_left(Color::Black), None);
}

#[test]
fn two_passes_end_the_game_with_white_winning_ties() {
    let mut game = position("D4", "Q16", Color::Black);
    play(&mut game, "pass pass");
    assert!(game.is_over());
    let result = game.outcome().unwrap();
    assert_eq!(result.winner, Some(Color::White));
    assert_eq!(result.to_string(), "W+0.5");
}

#[test]
fn forces_run_out_and_a_side_without_stones_only_passes() {
    let rules = BorderlineRules { forces: 3, deployment: 0, ..Default::default() };
    let mut game = Borderline::new(rules, Geometry::square(19).unwrap());
    play(&mut game, "D4 Q16 D5 Q15 D6 Q14");
    assert!(game.is_over(), "neither side can place a stone");
    let mut game = Borderline::new(rules, Geometry::square(19).unwrap());
    play(&mut game, "D4 Q16 D5 Q15 D6");
    // White has a stone left, Black none; White passes
    assert_eq!(game.stones_left(Color::Black), 0);
    play(&mut game, "pass");
    assert_eq!(game.check(Move::Place(at('A', 1))).unwrap_err(), Illegal::NoStonesLeft);
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    assert_eq!(moves, [Move::Pass]);
    // a forced pass uses no allowance
    play(&mut game, "pass");
    assert_eq!(game.passes_left(Color::Black), Some(2));
    assert!(game.is_over());
}

#[test]
fn suicide_and_superko_are_refused() {
    let game = position("J11 L11 K12 K10", "", Color::White);
    assert_eq!(game.check(Move::Place(at('K', 11))).unwrap_err(), Illegal::Suicide);
    // a ko: Black takes, White may not retake at once (positional superko)
    let mut game = position("J12 K11 K13", "L11 L13 M12 K12", Color::Black);
    play(&mut game, "L12");
    assert_eq!(game.check(Move::Place(at('K', 12))).unwrap_err(), Illegal::PositionalSuperko);
}

#[test]
fn a_ko_at_the_end_goes_to_the_larger_gain() {
    // a ko on the Border: White's stone K10 in atari (Black J10 K9 K11 around it), its liberty
    // L10 walled by White's L9 L11 M10
    let game = position("J10 K9 K11", "K10 L9 L11 M10", Color::Black);
    // live: Black J10 (Border) and K11 = 2; White K10, M10 (Border) and L9 = 3, and White's
    // enclosed point L10 on the Border = 2
    assert_eq!(totals(&game), [2, 5]);
    let end = game.final_score();
    assert_eq!(end.kos.len(), 1, "{end}");
    let (award, vertex) = &end.kos[0];
    assert_eq!(vertex, "K10");
    // White connecting at L10 trades the enclosed point (2) for a living stone (1): gain -1.
    // Black taking and filling goes from 2 - 5 to 6 - 1: live K10 and L10, annihilation on the
    // Border, White's loss and White's K10 and enclosure gone: gain 8
    assert_eq!((award.winner, award.gain), (Color::Black, 8));
    assert_eq!(end.totals(), [HalfPoints::points(6), HalfPoints::points(1)]);
    assert!(end.to_string().starts_with("ko at K10 awarded to Black (gain 8)"), "{end}");
}

/// One side's weighted terms, in the order of the score table.
fn terms(live: i32, enclosed: i32, annihilation: i32, siege: i32, loss: i32) -> Breakdown {
    Breakdown { live, enclosed, annihilation, siege, loss }
}

#[test]
fn annihilation_counts_captures_on_the_capturers_defence_zone_at_rows_9_10_11() {
    // Black's defence zone is rows 1-10, White's rows 10-19. Each case: a single enemy stone in
    // atari on row 9, 10 or 11 of column K, captured from the point below (Black) or above (White).
    // Black captures on K9 (its own zone): annihilation; J9 L9 K8 and K9 are home, K10 is live
    let mut game = position("J9 L9 K8", "K9", Color::Black);
    play(&mut game, "K10");
    assert_eq!(game.live_score().sides, [terms(1, 0, 2, 0, 0), terms(0, 0, 0, 0, 1)]);
    // Black captures on K10 (the Border): annihilation; the worked example's enclosure of K10
    let mut game = position("J10 L10 K9", "K10", Color::Black);
    play(&mut game, "K11");
    assert_eq!(game.live_score().sides, [terms(3, 2, 2, 0, 0), terms(0, 0, 0, 0, 1)]);
    // Black captures on K11 (White's zone, Black's attack zone): no annihilation, loss only
    let mut game = position("J11 L11 K12", "K11", Color::Black);
    play(&mut game, "K10");
    assert_eq!(game.live_score().sides, [terms(4, 2, 0, 0, 0), terms(0, 0, 0, 0, 1)]);
    assert_eq!(totals(&game), [6, -1]);
    // White captures on K11 (its own zone): annihilation; K10 is White's only live stone
    let mut game = position("K11", "J11 L11 K12", Color::White);
    play(&mut game, "K10");
    assert_eq!(game.live_score().sides, [terms(0, 0, 0, 0, 1), terms(1, 0, 2, 0, 0)]);
    // White captures on K10 (the Border): annihilation, and K10 enclosed on White's attack zone
    let mut game = position("K10", "J10 L10 K11", Color::White);
    play(&mut game, "K9");
    assert_eq!(game.live_score().sides, [terms(0, 0, 0, 0, 1), terms(3, 2, 2, 0, 0)]);
    // White captures on K9 (Black's zone, White's attack zone): no annihilation
    let mut game = position("K9", "J9 L9 K10", Color::White);
    play(&mut game, "K8");
    assert_eq!(game.live_score().sides, [terms(0, 0, 0, 0, 1), terms(4, 2, 0, 0, 0)]);
    assert_eq!(game.captures(Color::White), (0, 0));
    assert_eq!(game.captures(Color::Black), (0, 1));
}

#[test]
fn a_group_captured_across_the_border_annihilates_only_its_defence_zone_stones() {
    // White's K10 (Border) and K11 (row 11) captured by Black: only K10 is on Black's defence zone
    let mut game = position("J10 L10 K9 J11 L11", "K10 K11", Color::Black);
    play(&mut game, "K12");
    // Black: live J10 L10 J11 L11 K12 (K9 is home); enclosed K10 and K11; annihilation 1 stone
    assert_eq!(game.live_score().sides, [terms(5, 4, 2, 0, 0), terms(0, 0, 0, 0, 2)]);
    assert_eq!(game.captures(Color::Black), (1, 0));
    assert_eq!(game.captures(Color::White), (0, 2));
    // Black's K10 (Border) and K9 (row 9) captured by White: only K10 is on White's defence zone
    let mut game = position("K9 K10", "J9 L9 K8 J10 L10", Color::White);
    play(&mut game, "K11");
    // White: live J9 L9 K8 J10 L10 (K11 is home); enclosed K9 and K10; annihilation 1 stone
    assert_eq!(game.live_score().sides, [terms(0, 0, 0, 0, 2), terms(5, 4, 2, 0, 0)]);
}

#[test]
fn siege_counts_besieged_enemies_on_the_besiegers_defence_zone_at_rows_9_10_11() {
    // each case: a lone enemy stone in a six-stone ring, its one liberty inside the ring (a
    // placement there would be suicide): besieged, and both inside points enclosed
    // Black besieges White on K11 (Black's attack zone): no siege, both points enclosed
    let game = position("J11 L11 K10 J12 L12 K13", "K11", Color::White);
    assert_eq!(status(&game, "K11"), StoneStatus::Besieged);
    assert_eq!(game.live_score().sides, [terms(6, 4, 0, 0, 0), Breakdown::default()]);
    // White besieges Black on K11 (White's own zone): siege; the enclosure is home, K10 is live
    let game = position("K11", "J11 L11 K10 J12 L12 K13", Color::Black);
    assert_eq!(status(&game, "K11"), StoneStatus::Besieged);
    assert_eq!(game.live_score().sides, [Breakdown::default(), terms(1, 0, 0, 1, 0)]);
    // White besieges Black on K10 (the Border): siege and enclosure add up; K9 enclosed too
    let game = position("K10", "J10 L10 K11 J9 L9 K8", Color::Black);
    assert_eq!(status(&game, "K10"), StoneStatus::Besieged);
    assert_eq!(game.live_score().sides, [Breakdown::default(), terms(5, 4, 0, 1, 0)]);
    // White besieges Black on K9 (Black's zone, White's attack zone): no siege
    let game = position("K9", "J9 L9 K10 J8 L8 K7", Color::Black);
    assert_eq!(status(&game, "K9"), StoneStatus::Besieged);
    assert_eq!(game.live_score().sides, [Breakdown::default(), terms(6, 4, 0, 0, 0)]);
}

#[test]
fn capturing_a_besieged_stone_on_row_11() {
    // White captures its besieged prisoner on K11: siege -1, annihilation +2, Black's loss +1
    let mut game = position("K11", "J11 L11 K10 J12 L12 K13", Color::White);
    play(&mut game, "K12");
    assert_eq!(game.live_score().sides, [terms(0, 0, 0, 0, 1), terms(1, 0, 2, 0, 0)]);
    // Black captures a besieged White stone on K11, in its attack zone: no siege before, no
    // annihilation after; K12 turns from an enclosed point into a live stone (2 -> 1)
    let mut game = position("J11 L11 K10 J12 L12 K13", "K11", Color::Black);
    assert_eq!(totals(&game), [10, 0]);
    play(&mut game, "K12");
    assert_eq!(game.live_score().sides, [terms(7, 2, 0, 0, 0), terms(0, 0, 0, 0, 1)]);
    assert_eq!(totals(&game), [9, -1]);
}

#[test]
fn without_a_ko_the_final_score_is_the_live_score() {
    // a black stone in atari on K12 whose liberty K11 is open on three sides: not a ko
    let game = position("K12", "J12 L12 K13", Color::White);
    let end = game.final_score();
    assert!(end.kos.is_empty(), "{end}");
    assert_eq!(end, game.live_score());
    assert_eq!(end.sides, [terms(1, 0, 0, 0, 0), Breakdown::default()]);
    // a capture that would take two stones is no ko either
    let game = position("J10 L10 K9 J11 L11", "K10 K11", Color::Black);
    let end = game.final_score();
    assert!(end.kos.is_empty(), "{end}");
    assert_eq!(end, game.live_score());
}

#[test]
fn a_ko_whose_gains_tie_goes_to_the_owner() {
    // White's K11 (row 11) in atari on K10 (the Border), where White's J10 L10 K9 wall the ko
    // point. Black's J11 L11 K12 around it stand in three small White cages: each has one empty
    // point where a black stone would be suicide, so they are besieged.
    let white = "K11 J10 L10 K9 G11 H10 H12 J12 N11 M10 M12 L12 J13 L13 K14";
    let game = position("J11 L11 K12", white, Color::Black);
    for p in ["J11", "L11", "K12"] {
        assert_eq!(status(&game, p), StoneStatus::Besieged, "{p}");
    }
    // White: live H10 J10 L10 M10 (Border) and K9 = 5; the ko point K10 enclosed on the Border
    // = 2; the three besieged black stones on its defence zone = 3
    assert_eq!(game.live_score().sides, [Breakdown::default(), terms(5, 2, 0, 3, 0)]);
    // White connecting at K10 trades the enclosed point for a live stone: gain -1. Black taking
    // and filling K11: no annihilation (row 11 is Black's attack zone), White's loss +1, but its
    // five stones J11 L11 K12 K11 K10 are besieged (three legal points H11 M11 K13), so White's
    // siege grows by 2 and K10 stays enclosed (a besieged stone): gain 1 - 2 = -1. A tie.
    let end = game.final_score();
    assert_eq!(end.kos.len(), 1, "{end}");
    let (award, vertex) = &end.kos[0];
    assert_eq!(vertex, "K9", "GTP vertex of K11 from the top");
    assert_eq!(award.stone, at('K', 11));
    assert_eq!(award.ko_point, at('K', 10));
    assert_eq!((award.winner, award.gain), (Color::White, -1));
    assert_eq!(end.sides, [Breakdown::default(), terms(6, 0, 0, 3, 0)]);
    assert_eq!(end.totals(), [HalfPoints::points(0), HalfPoints::points(9)]);
}

#[test]
fn two_kos_are_resolved_largest_gain_first() {
    // ko A in Black's zone: Black's D5 in atari on E5 (walled by Black's E4 F5 E6), White's D4 C5
    // D6 around it. Black connecting gains nothing (home); White taking and filling gains live
    // E5 and D5 and Black's loss: 3, for White.
    // ko B on the Border (a_ko_at_the_end_goes_to_the_larger_gain): 8, for Black.
    // A comes first in board order; B, the larger gain, must be resolved first.
    let game = position("E4 F5 E6 D5 J10 K9 K11", "D4 C5 D6 K10 L9 L11 M10", Color::Black);
    // live: Black 2 (ko B); White 3 (ko A: D4 C5 D6) + 5 (ko B)
    assert_eq!(totals(&game), [2, 8]);
    let end = game.final_score();
    let resolved: Vec<(&str, Color, i32)> =
        end.kos.iter().map(|(award, vertex)| (vertex.as_str(), award.winner, award.gain)).collect();
    assert_eq!(resolved, [("K10", Color::Black, 8), ("D15", Color::White, 3)], "{end}");
    // ko B leaves Black live J10 K10 L10 K11 and annihilation of K10 (6), White live L9 M10 and
    // a loss (1); ko A then costs Black a loss and gives White live D5 E5 besides D4 C5 D6
    assert_eq!(end.sides, [terms(4, 0, 2, 0, 1), terms(7, 0, 0, 0, 1)]);
    assert_eq!(end.totals(), [HalfPoints::points(5), HalfPoints::points(6)]);
}

/// A second reading of the status rules, written from the rules file alone on a plain grid:
/// groups, plain-Go legality, true eyes, legal points, the floods with the edge-count outside,
/// the simultaneous iteration with the cycle rule, and the innermost rule for enclosures.
/// Points are indexed row-major from the top.
struct Reference {
    besieged: Vec<bool>,
    /// The colour whose enclosure each point belongs to, by the innermost rule.
    owner: Vec<Option<Color>>,
    /// Besieged stones of each state of the iteration, from "all living" on.
    stones: Vec<usize>,
    /// Where the cycle starts in `stones`, if the statuses cycled.
    cycle_start: Option<usize>,
}

fn reference_statuses(board: &Board) -> Reference {
    let geometry = board.geometry();
    let (w, h) = (geometry.width() as usize, geometry.height() as usize);
    let cell = |i: usize| board.color(geometry.point((i % w) as u8, (i / w) as u8).unwrap());
    let cells: Vec<Option<Color>> = (0..w * h).map(cell).collect();
    let neighbours = |i: usize| {
        let (x, y) = (i % w, i / w);
        [
            (x > 0).then(|| i - 1),
            (x + 1 < w).then(|| i + 1),
            (y > 0).then(|| i - w),
            (y + 1 < h).then(|| i + w),
        ]
        .into_iter()
        .flatten()
    };
    let on_edge = |i: usize| i.is_multiple_of(w) || i % w == w - 1 || i / w == 0 || i / w == h - 1;
    // groups: per point its group index; per group its stones, colour and liberties
    let mut group_of = vec![usize::MAX; w * h];
    let mut groups: Vec<(Color, Vec<usize>, Vec<usize>)> = Vec::new();
    for start in 0..w * h {
        let Some(c) = cells[start] else { continue };
        if group_of[start] != usize::MAX {
            continue;
        }
        let g = groups.len();
        let (mut stones, mut libs, mut stack) = (vec![start], Vec::new(), vec![start]);
        group_of[start] = g;
        while let Some(i) = stack.pop() {
            for n in neighbours(i) {
                match cells[n] {
                    None if !libs.contains(&n) => libs.push(n),
                    Some(d) if d == c && group_of[n] == usize::MAX => {
                        group_of[n] = g;
                        stones.push(n);
                        stack.push(n);
                    }
                    _ => {}
                }
            }
        }
        groups.push((c, stones, libs));
    }
    // plain Go legality of `c` on the empty point `e`: a liberty, or a capture
    let legal = |e: usize, c: Color| {
        neighbours(e).any(|n| match cells[n] {
            None => true,
            Some(d) => {
                let libs = &groups[group_of[n]].2;
                if d == c { libs.iter().any(|&l| l != e) } else { libs.len() == 1 }
            }
        })
    };
    let weak: Vec<bool> = (0..groups.len())
        .map(|g| {
            let (c, stones, libs) = &groups[g];
            let eyes = libs
                .iter()
                .filter(|&&e| neighbours(e).all(|n| cells[n] == Some(*c)) && !legal(e, c.opponent()))
                .count();
            let mut seen = vec![false; w * h];
            let mut stack = stones.clone();
            stones.iter().for_each(|&i| seen[i] = true);
            let mut legal_points = 0;
            // counting stops at four: enough to live
            while let Some(i) = stack.pop().filter(|_| legal_points < 4) {
                for n in neighbours(i) {
                    if seen[n] || cells[n] == Some(c.opponent()) {
                        continue;
                    }
                    seen[n] = true;
                    stack.push(n);
                    if cells[n].is_none() && legal(n, *c) {
                        legal_points += 1;
                    }
                }
            }
            eyes < 2 && legal_points < 4
        })
        .collect();
    // per point, the size of the enclosed region of `c`'s flood holding it (0: a wall or the
    // outside), when the groups flagged in `besieged` are no walls
    let enclosed = |c: Color, besieged: &[bool]| -> Vec<usize> {
        let wall = |i: usize| cells[i] == Some(c) && !besieged[group_of[i]];
        let mut region = vec![usize::MAX; w * h];
        let mut regions = Vec::new();
        for start in 0..w * h {
            if wall(start) || region[start] != usize::MAX {
                continue;
            }
            let r = regions.len();
            region[start] = r;
            let (mut stack, mut edge, mut size) = (vec![start], 0, 0);
            while let Some(i) = stack.pop() {
                edge += on_edge(i) as usize;
                size += 1;
                for n in neighbours(i) {
                    if !wall(n) && region[n] == usize::MAX {
                        region[n] = r;
                        stack.push(n);
                    }
                }
            }
            regions.push((edge, size));
        }
        let most = regions.iter().map(|r| r.0).max().unwrap_or(0);
        (0..w * h)
            .map(|i| match regions.get(region[i]) {
                Some(&(edge, size)) if edge < most => size,
                _ => 0,
            })
            .collect()
    };
    let stones_in = |state: &[bool]| -> usize {
        (0..groups.len()).filter(|&g| state[g]).map(|g| groups[g].1.len()).sum()
    };
    let mut states = vec![vec![false; groups.len()]];
    let (chosen, cycle_start) = loop {
        let last = states.last().unwrap();
        let inside = [enclosed(Color::Black, last), enclosed(Color::White, last)];
        let next: Vec<bool> = (0..groups.len())
            .map(|g| weak[g] && inside[groups[g].0.opponent() as usize][groups[g].1[0]] > 0)
            .collect();
        if &next == last {
            break (next, None);
        }
        if let Some(start) = states.iter().position(|s| *s == next) {
            let most = states[start..].iter().map(|s| stones_in(s)).max().unwrap();
            let first = states[start..].iter().find(|s| stones_in(s) == most).unwrap().clone();
            break (first, Some(start));
        }
        states.push(next);
    };
    let besieged = (0..w * h).map(|i| cells[i].is_some() && chosen[group_of[i]]).collect();
    let stones = states.iter().map(|s| stones_in(s)).collect();
    // the innermost rule: the smaller enclosed region owns the point, equal sizes neither
    let [black, white] = [enclosed(Color::Black, &chosen), enclosed(Color::White, &chosen)];
    let owner = (0..w * h)
        .map(|i| match (black[i], white[i]) {
            (0, 0) => None,
            (_, 0) => Some(Color::Black),
            (0, _) => Some(Color::White),
            (b, w) if b < w => Some(Color::Black),
            (b, w) if w < b => Some(Color::White),
            _ => None,
        })
        .collect();
    Reference { besieged, owner, stones, cycle_start }
}

#[test]
fn a_tie_in_the_cycle_goes_to_its_earliest_state() {
    // 4x4: Black's zone the top two rows, White's the bottom two, no Border.
    //   4 . O X X     Round 1 (all living): Black's flood has A4-B4-A3 and D3-D2-C2-D1 tied
    //   3 O X X .     for the most edge points (3 each), so neither is enclosed, and A1-B1
    //   2 X X O O     (2) is: White's B1 is besieged (A1 would be suicide). White's flood
    //   1 . O X .     cuts off C1-D1: Black's C1 is besieged (D1 would be suicide).
    // Round 2: without C1 as a wall, Black's region D3...A1 has 6 edge points, so A4-B4-A3 is
    // enclosed: B4 and A3 are besieged (A4 is suicide for White, not an eye: Black captures
    // there); without B1 as a wall C1 reaches the outside. Round 3 is round 1 again: a cycle
    // of {B1, C1} and {B4, A3}, two stones each. The tie goes to the earliest state, round 1's.
    let game = cycling(&[".OXX", "OXX.", "XXOO", ".OX."], &["B1", "C1"], &["B4", "A3", "C4", "A2", "C2"]);
    let (survey, geometry) = (game.survey(), game.board().geometry());
    // enclosures from the chosen statuses: A4 is in Black's A4-B4-A3 (3 points) and in White's
    // {A4} (1 point): the innermost, White's. Black's C1 is no wall, so D1 is nobody's.
    assert_eq!(survey.enclosed_by(geometry.parse_vertex("A4").unwrap()), Some(Color::White));
    assert_eq!(survey.enclosed_by(geometry.parse_vertex("B4").unwrap()), Some(Color::Black));
    assert_eq!(survey.enclosed_by(geometry.parse_vertex("D1").unwrap()), None);
    // Black: live A2 B2. White: live B4 A3, the enclosed A4, siege of C1 on its own zone.
    assert_eq!(game.live_score().sides, [terms(2, 0, 0, 0, 0), terms(2, 2, 0, 1, 0)]);
    let reference = reference_statuses(game.board());
    assert_eq!((reference.cycle_start, reference.stones), (Some(1), vec![0, 2, 2]));
}

#[test]
fn the_cycle_rule_ignores_the_transient_rounds() {
    // 5x4: Black's zone the top two rows, White's the bottom two, no Border.
    //   4 O . X O .   Round 1 (all living): Black encloses D4-E4 and A2-A1 (White's B3 group
    //   3 X O O X X   reaches 4 edge points); White encloses B4-C4 and A3-A2-B2-B1 (3 edge
    //   2 . X O O X   points against E4-E3-D3-E2-E1's 4). Every enclosed group has one legal
    //   1 O X O O X   point (a capture): C4, D4, A3, B2-B1 and A1 are besieged, 6 stones.
    // Round 2: Black's only wall is D3-E3-E2-E1, enclosing nothing; White's A3-A2-B2-B1 is
    // still cut off, B4-C4 joins the outside: A3 and B2-B1 (3 stones). Round 3: C4 walls
    // D4-E4 again, A1 joins the outside; White's walls are all back: C4, D4, A3, B2-B1 (5).
    // Round 4 is round 2 again. The cycle {A3, B2-B1} / {C4, D4, A3, B2-B1} gives round 3's
    // state; round 1's, with A1 besieged too, is not part of the cycle.
    let game = cycling(
        &["O.XO.", "XOOXX", ".XOOX", "OXOOX"],
        &["C4", "D4", "A3", "B2", "B1"],
        &["A1", "A4", "B3", "D1", "D3", "E1"],
    );
    // Black: live E2 E1, siege of D4 on its zone. White: live A4 B3 C3, the enclosed A3 (a
    // besieged stone on its attack zone), siege of B2 and B1.
    assert_eq!(game.live_score().sides, [terms(2, 0, 0, 1, 0), terms(3, 2, 0, 2, 0)]);
    let reference = reference_statuses(game.board());
    assert_eq!((reference.cycle_start, reference.stones), (Some(2), vec![0, 6, 3, 5]));
}

#[test]
fn statuses_and_enclosures_match_a_second_reading_on_random_small_boards() {
    let mut rng = SmallRng::seed_from_u64(2026);
    let (mut boards, mut cycles, mut besieged) = (0, 0, 0);
    for n in 0..20_000usize {
        let (w, h) = [(4, 4), (5, 4), (5, 5), (6, 5), (7, 7)][n % 5];
        let rows: Vec<String> = (0..h)
            .map(|_| {
                (0..w)
                    .map(|_| match rand::Rng::random_range(&mut rng, 0..10) {
                        0..=3 => 'X',
                        4..=7 => 'O',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
        let board = Board::from_diagram(&rows).unwrap();
        let geometry = board.geometry();
        if geometry.points().any(|p| board.color(p).is_some() && board.liberties(p) == 0) {
            continue;
        }
        boards += 1;
        let survey = Borderline::from_setup(BorderlineRules::default(), board.clone(), Color::Black).survey();
        let reference = reference_statuses(&board);
        assert_eq!(survey.cycled, reference.cycle_start.is_some(), "{rows:?}");
        cycles += survey.cycled as usize;
        for p in geometry.points() {
            let (x, y) = geometry.coords(p);
            let i = y as usize * w + x as usize;
            let status = survey.status(&board, p) == Some(StoneStatus::Besieged);
            assert_eq!(status, reference.besieged[i], "status of {} in {rows:?}", geometry.vertex(p));
            assert_eq!(
                survey.enclosed_by(p),
                reference.owner[i],
                "owner of {} in {rows:?}",
                geometry.vertex(p)
            );
            besieged += status as usize;
        }
    }
    // the boards reach the cycle rule and the besieged status often enough to mean something
    assert!(boards > 3_000 && cycles > 20 && besieged > 3_000, "{boards} {cycles} {besieged}");
}

/// The rules file's default weights, in the order of the score table.
const WEIGHTS: Breakdown = Breakdown { live: 1, enclosed: 2, annihilation: 2, siege: 1, loss: 1 };

/// The row of a 19x19 point counted from the top.
fn row_from_top(p: Point) -> u8 {
    Geometry::square(19).unwrap().coords(p).1 + 1
}

/// The rules file's zones by row: Black's zone rows 1-9, the Border row 10, White's rows 11-19.
fn in_attack_zone(c: Color, p: Point) -> bool {
    match c {
        Color::Black => row_from_top(p) >= 10,
        Color::White => row_from_top(p) <= 10,
    }
}

fn in_defence_zone(c: Color, p: Point) -> bool {
    in_attack_zone(c.opponent(), p)
}

/// The board drawn as a diagram and read back: a fresh board with the same stones.
fn redrawn(board: &Board) -> Board {
    let geometry = board.geometry();
    let rows: Vec<String> = (0..19u8)
        .map(|y| {
            (0..19u8)
                .map(|x| match board.color(geometry.point(x, y).unwrap()) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    Board::from_diagram(&rows).unwrap()
}

/// Checks the live score of `game` term by term against the score table applied to its survey's
/// per-point statuses and enclosures, with annihilated and lost stones counted by the caller;
/// the final score without kos against the live score; and the survey and the board-dependent
/// terms against those of the same stones set up from scratch.
fn check_scores(game: &Borderline, annihilated: [i32; 2], lost: [i32; 2]) {
    let board = game.board();
    let geometry = board.geometry();
    let survey = game.survey();
    let score = game.live_score();
    for c in [Color::Black, Color::White] {
        let (mut live, mut enclosed, mut siege) = (0, 0, 0);
        for p in geometry.points() {
            let besieged = survey.status(board, p) == Some(StoneStatus::Besieged);
            let stone = board.color(p);
            if stone == Some(c) && !besieged && in_attack_zone(c, p) {
                live += 1;
            }
            if stone == Some(c.opponent()) && besieged && in_defence_zone(c, p) {
                siege += 1;
            }
            if survey.enclosed_by(p) == Some(c)
                && in_attack_zone(c, p)
                && (stone.is_none() || (stone == Some(c.opponent()) && besieged))
            {
                enclosed += 1;
            }
        }
        let i = c as usize;
        let expected = Breakdown {
            live: WEIGHTS.live * live,
            enclosed: WEIGHTS.enclosed * enclosed,
            annihilation: WEIGHTS.annihilation * annihilated[i],
            siege: WEIGHTS.siege * siege,
            loss: WEIGHTS.loss * lost[i],
        };
        assert_eq!(score.sides[i], expected, "{c}\n{score}");
        let e = expected;
        assert_eq!(score.sides[i].total(), e.live + e.enclosed + e.annihilation + e.siege - e.loss);
        assert_eq!(game.captures(c), (annihilated[i] as u16, lost[i] as u16), "{c}");
    }
    // the statuses and enclosures are those of the second reading
    let reference = reference_statuses(board);
    for p in geometry.points() {
        let (x, y) = geometry.coords(p);
        let i = y as usize * 19 + x as usize;
        assert_eq!(survey.status(board, p) == Some(StoneStatus::Besieged), reference.besieged[i]);
        assert_eq!(survey.enclosed_by(p), reference.owner[i]);
    }
    assert_eq!(survey.cycled, reference.cycle_start.is_some());
    let end = game.final_score();
    if end.kos.is_empty() {
        assert_eq!(end, score);
    }
    // the same stones drawn on a fresh board survey alike and score alike, counters aside
    let fresh = Borderline::from_setup(*game.rules(), redrawn(board), game.to_move());
    let again = fresh.survey();
    for p in geometry.points() {
        assert_eq!(survey.status(board, p), again.status(fresh.board(), p));
        assert_eq!(survey.enclosed_by(p), again.enclosed_by(p));
    }
    assert_eq!(survey.counts, again.counts);
    let fresh_score = fresh.live_score();
    for i in 0..2 {
        let s = score.sides[i];
        assert_eq!(fresh_score.sides[i], Breakdown { annihilation: 0, loss: 0, ..s });
    }
}

/// A random game of light moves, checking the score after every move against the stones it
/// captured, counted here from the boards before and after each move.
fn random_game_checked(seed: u64, moves: usize) -> Borderline {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Borderline::new(BorderlineRules::default(), Geometry::square(19).unwrap());
    let (mut annihilated, mut lost) = ([0i32; 2], [0i32; 2]);
    check_scores(&game, annihilated, lost);
    for _ in 0..moves {
        if game.is_over() {
            break;
        }
        let before = game.board().clone();
        let mover = game.to_move();
        if let Move::Place(at) = game.play_light_move(&mut rng) {
            assert_eq!((before.color(at), game.board().color(at)), (None, Some(mover)));
            for p in before.geometry().points() {
                match (before.color(p), game.board().color(p)) {
                    (Some(c), None) => {
                        assert_eq!(c, mover.opponent(), "only enemy stones are captured");
                        lost[c as usize] += 1;
                        if in_defence_zone(mover, p) {
                            annihilated[mover as usize] += 1;
                        }
                    }
                    (Some(c), after) => assert_eq!(after, Some(c)),
                    _ => {}
                }
            }
        } else {
            assert_eq!(game.board(), &before, "a pass changes nothing");
        }
        check_scores(&game, annihilated, lost);
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_terms_add_up_and_the_score_does_not_depend_on_the_order_of_the_stones(
        seed in any::<u64>(),
        moves in 0usize..260,
    ) {
        let game = random_game_checked(seed, moves);
        // the same stones set up from scratch in reverse order survey the same
        let geometry = game.board().geometry();
        let mut board = Board::new(geometry);
        let stones: Vec<Point> = geometry.points().filter(|&p| game.board().color(p).is_some()).collect();
        for &p in stones.iter().rev() {
            board.set(p, game.board().piece(p));
        }
        let fresh = Borderline::from_setup(*game.rules(), board, game.to_move());
        let (a, b) = (game.survey(), fresh.survey());
        for p in geometry.points() {
            prop_assert_eq!(a.status(game.board(), p), b.status(fresh.board(), p));
            prop_assert_eq!(a.enclosed_by(p), b.enclosed_by(p));
        }
        prop_assert_eq!(a.counts, b.counts);
        prop_assert_eq!(game.board().hash(), game.board().recomputed_hash());
        for p in geometry.points() {
            if game.board().color(p).is_some() {
                prop_assert!(game.board().liberties(p) > 0, "a group without liberties on the board");
            }
        }
        // the cumulative terms match the stones that left the board
        for c in [Color::Black, Color::White] {
            let placed = game.rules().forces - game.stones_left(c);
            prop_assert_eq!(game.captures(c).1 as usize, placed as usize - game.board().stones(c));
        }
    }
}

/// With deployment, the pass limits and the forces out of the way, Borderline's moves are
/// standard Go's with positional superko: the two move generators must count alike.
#[test]
fn without_its_limits_borderline_counts_like_go() {
    let free: variago_rules::VariantSpec = "borderline:deployment=0,pass-cap=off,cooldown=0".parse().unwrap();
    let go: variago_rules::VariantSpec = "go".parse().unwrap();
    for (size, depth) in [("3x3", 5), ("4x3", 4), ("4x4", 3)] {
        let geometry = Geometry::parse(size).unwrap();
        let a = variago_rules::perft::perft(&variago_rules::AnyGame::new(&free, geometry), depth);
        let b = variago_rules::perft::perft(&variago_rules::AnyGame::new(&go, geometry), depth);
        assert_eq!(a, b, "{size} depth {depth}");
    }
}

#[test]
fn perft_counts_the_deployment() {
    // 19x19: Black's zone has 9 x 19 = 171 points, so has White's; no pass during deployment
    let game = Borderline::new(BorderlineRules::default(), Geometry::square(19).unwrap());
    assert_eq!(variago_rules::perft::perft(&game, 1), 171);
    assert_eq!(variago_rules::perft::perft(&game, 2), 171 * 171);
}

#[test]
fn specs_spell_every_option() {
    let spec: variago_rules::VariantSpec =
        "borderline:forces=90,komi=5,annihilation=4,siege=3".parse().unwrap();
    assert_eq!(spec.to_string(), "borderline:forces=90,komi=5,annihilation=4,siege=3");
    let spec: variago_rules::VariantSpec = "borderline:pass-cap=off,cooldown=1,live=2".parse().unwrap();
    assert_eq!(spec.to_string(), "borderline:cooldown=1,pass-cap=off,live=2");
    assert_eq!("borderline".parse::<variago_rules::VariantSpec>().unwrap().komi(), HalfPoints(1));
    let err = "borderline:forces=-1".parse::<variago_rules::VariantSpec>().unwrap_err().to_string();
    assert!(err.contains("an integer 0..10000"), "{err}");
    let err = "borderline:ko=simple".parse::<variago_rules::VariantSpec>().unwrap_err().to_string();
    assert!(err.contains("has no option 'ko'"), "{err}");
}

/// The search reads Borderline's board and last placement (its move features and heavy
/// playouts), and its playout step answers the last move's atari before playing at random.
#[test]
fn the_playouts_answer_the_last_placements_atari() {
    // White's K12 stands in atari after it is played (Black J12 K11 L12 around it): Black takes
    // it at K13
    let mut game = position("J12 K11 L12 A1", "T19", Color::White);
    play(&mut game, "K12");
    let stones = game.stones().expect("a board of stones");
    assert_eq!(stones.last, Some(at('K', 12)));
    assert_eq!(stones.board.color(at('J', 12)), Some(Color::Black));
    for seed in 0..8 {
        let mut rng = SmallRng::seed_from_u64(seed);
        assert_eq!(game.clone().play_playout_move(&mut rng), Move::Place(at('K', 13)), "seed {seed}");
    }
    // White's L13 puts Black's K13 in atari (White J13 K14 beside it): Black extends to its only
    // liberty, K12, which has three empty neighbours
    let mut game = position("K13 A1", "J13 K14 T19", Color::White);
    play(&mut game, "L13");
    for seed in 0..8 {
        let mut rng = SmallRng::seed_from_u64(seed);
        assert_eq!(game.clone().play_playout_move(&mut rng), Move::Place(at('K', 12)), "seed {seed}");
    }
    // after a pass there is nothing to answer
    play(&mut game, "pass");
    assert_eq!(game.stones().expect("a board of stones").last, None);
}
