//! Warhorn: Borderline: a position for every term of the score table and every status rule, at
//! the zone boundaries, plus deployment, forces, passes, the ko award and whole random games
//! (shared/rules/borderline.md).

use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_rules::borderline::{Borderline, BorderlineRules, StoneStatus, Zone};
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

#[test]
fn mutually_besieging_groups_settle_by_the_cycle_rule() {
    // A 4x4 board (Black's zone the top two rows, White's the bottom two, no Border). Every
    // white group and Black's D3 could be besieged. Round 1 (all living): D2 and A1 are cut
    // off by Black, D3 by White. Round 2: without D3 as a wall D2 reaches the edge, without D2
    // D3 does: only A1 stays besieged. Round 3 is round 1 again: a cycle of two states, and the
    // one with the most besieged stones (D3, D2, A1) is taken.
    let board = Board::from_diagram(&["OO..", ".XOX", "X.XO", "O.X."]).unwrap();
    let game = Borderline::from_setup(BorderlineRules::default(), board, Color::Black);
    let survey = game.survey();
    assert!(survey.cycled);
    let geometry = game.board().geometry();
    let status_at = |v: &str| survey.status(game.board(), geometry.parse_vertex(v).unwrap()).unwrap();
    for v in ["D3", "D2", "A1"] {
        assert_eq!(status_at(v), StoneStatus::Besieged, "{v}");
    }
    for v in ["A4", "B4", "C3", "B3", "A2", "C2", "C1"] {
        assert_eq!(status_at(v), StoneStatus::Living, "{v}");
    }
    // Black encloses A1 (a besieged stone), B1 and B2 in its attack zone: 6; its living A2, C2
    // and C1 stand there: 3. White's living A4, B4 and C3 stand in its attack zone: 3.
    assert_eq!(totals(&game), [9, 3]);
}

#[test]
fn deployment_keeps_the_first_four_stones_home() {
    let mut game = Borderline::new(BorderlineRules::default(), Geometry::square(19).unwrap());
    let err = game.check(Move::Place(at('K', 10))).unwrap_err();
    assert_eq!(err.to_string(), "deployment: Black's first two stones must be in rows 1-9 from the top");
    assert_eq!(game.check(Move::Pass).unwrap_err(), Illegal::PassDuringDeployment);
    play(&mut game, "K9");
    let err = game.check(Move::Place(at('K', 10))).unwrap_err();
    assert_eq!(err.to_string(), "deployment: White's first two stones must be in rows 11-19 from the top");
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

fn random_games(seed: u64, moves: usize) -> Borderline {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Borderline::new(BorderlineRules::default(), Geometry::square(19).unwrap());
    for _ in 0..moves {
        if game.is_over() {
            break;
        }
        game.play_light_move(&mut rng);
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
        let game = random_games(seed, moves);
        let score = game.live_score();
        for s in score.sides {
            prop_assert_eq!(s.total(), s.live + s.enclosed + s.annihilation + s.siege - s.loss);
        }
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
