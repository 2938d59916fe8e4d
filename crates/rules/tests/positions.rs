//! Positions for every rule of `go`, `incursion` (and its forms) and `stoical`, and for every
//! reason a move can be illegal, written from the rules (`/work/shared/rules`: README.md, go.md,
//! incursion.md, stoical.md). Diagrams are rows from the top: `X` Black, `O` White, `.` empty;
//! moves are GTP vertices (A1 is the lower left corner) or `pass`.

#[allow(dead_code)]
mod support;

use support::{NAMED_SPECS, empty, mv, play, position, rows};
use variago_rules::incursion::IncursionRules;
use variago_rules::{
    AnyGame, Color, Ending, Game, GameResult, Geometry, HalfPoints, Illegal, Move, ScoreSheet, Vertex,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// Why the move would be illegal, or `Ok`.
fn check(game: &AnyGame, text: &str) -> Result<(), Illegal> {
    game.check(mv(game, text))
}

/// Whether the last move was an incursion that restricts the reply.
fn last_was_incursion(game: &AnyGame) -> bool {
    match game {
        AnyGame::Incursion(g) => g.memory(),
        _ => panic!("not an Incursion game"),
    }
}

/// Stones the last move captured, as Stoical Go remembers them.
fn last_capture(game: &AnyGame) -> u16 {
    match game {
        AnyGame::Stoical(g) => g.memory(),
        _ => panic!("not a Stoical game"),
    }
}

fn vertex(text: &str) -> Vertex {
    let g = Geometry::square(19).unwrap();
    g.vertex(g.parse_vertex(text).unwrap())
}

// ---------------------------------------------------------------------------------------------
// Occupied points, points off the board, a finished game
// ---------------------------------------------------------------------------------------------

#[test]
fn a_stone_on_the_point_makes_it_occupied() {
    for spec in NAMED_SPECS {
        let mut game = position(spec, &[".....", ".....", "..X..", "...O.", "....."], Color::White);
        assert_eq!(check(&game, "C3"), Err(Illegal::Occupied(vertex("C3"))), "{spec}");
        assert_eq!(check(&game, "D2"), Err(Illegal::Occupied(vertex("D2"))), "{spec}");
        assert_eq!(check(&game, "C3").unwrap_err().to_string(), "point C3 is occupied");
        // refused moves change nothing
        let before = rows(&game);
        assert_eq!(game.play(mv(&game, "C3")), Err(Illegal::Occupied(vertex("C3"))));
        assert_eq!(rows(&game), before);
        assert_eq!(game.to_move(), Color::White);
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        assert_eq!(legal.len(), 25 - 2 + 1, "{spec}");
        assert!(!legal.contains(&mv(&game, "C3")));
    }
}

#[test]
fn a_point_of_a_bigger_board_is_off_the_board() {
    let game = empty("go", 5, 5);
    let far = Geometry::square(9).unwrap().parse_vertex("J1").unwrap();
    assert_eq!(game.check(Move::Place(far)), Err(Illegal::OffBoard));
    assert_eq!(Illegal::OffBoard.to_string(), "the point is not on the board");
}

#[test]
fn nothing_is_legal_once_the_game_is_over() {
    for spec in NAMED_SPECS {
        let mut game = empty(spec, 3, 3);
        play(&mut game, &["pass", "pass"]);
        assert!(game.is_over());
        assert_eq!(game.check(Move::Pass), Err(Illegal::GameOver), "{spec}");
        assert_eq!(check(&game, "B2"), Err(Illegal::GameOver), "{spec}");
        assert_eq!(game.play(Move::Pass), Err(Illegal::GameOver), "{spec}");
        let mut legal = vec![Move::Pass];
        game.legal_moves(&mut legal);
        assert!(legal.is_empty(), "{spec}");
    }
}

// ---------------------------------------------------------------------------------------------
// Suicide
// ---------------------------------------------------------------------------------------------

/// Black B1 would leave the black group A1-B1 without liberties (a two-stone suicide); Black E1
/// would be a lone stone without liberties.
const SUICIDES: &[&str] = &[".....", ".....", ".....", "OO..O", "X.OO."];

#[test]
fn suicide_is_illegal_unless_allowed() {
    for spec in ["go", "go:ko=simple", "go:ko=situational", "incursion", "incursion-minimal", "stoical"] {
        let game = position(spec, SUICIDES, Color::Black);
        assert_eq!(check(&game, "B1"), Err(Illegal::Suicide), "{spec}");
        assert_eq!(check(&game, "E1"), Err(Illegal::Suicide), "{spec}");
        assert_eq!(check(&game, "C2"), Ok(()), "{spec}");
    }
    assert_eq!(Illegal::Suicide.to_string(), "suicide");
}

#[test]
fn allowed_suicide_removes_the_movers_group_but_a_lone_stone_changes_nothing() {
    for spec in ["go:suicide=allowed", "go:ko=simple,suicide=allowed", "go:ko=situational,suicide=allowed"] {
        let mut game = position(spec, SUICIDES, Color::Black);
        assert_eq!(check(&game, "E1"), Err(Illegal::ChangesNothing), "{spec}");
        play(&mut game, &["B1"]);
        assert_eq!(rows(&game), [".....", ".....", ".....", "OO..O", "..OO."], "{spec}");
        assert_eq!(game.to_move(), Color::White);
        assert_eq!(game.board().stones(Color::Black), 0);
        // A1 and B1 are plain empty points again: White may play there
        assert_eq!(check(&game, "A1"), Ok(()), "{spec}");
    }
    assert_eq!(
        Illegal::ChangesNothing.to_string(),
        "changes nothing (a lone stone that would only remove itself)"
    );
}

// ---------------------------------------------------------------------------------------------
// Captures
// ---------------------------------------------------------------------------------------------

/// Black B1 takes the three white groups A1, B2 and C1 at once: it has no liberty until they go.
const TRIPLE: &[&str] = &[".....", ".....", ".X...", "XOX..", "O.OX."];

#[test]
fn one_stone_captures_several_groups_at_once() {
    for spec in NAMED_SPECS {
        let mut game = position(spec, TRIPLE, Color::Black);
        play(&mut game, &["B1"]);
        assert_eq!(rows(&game), [".....", ".....", ".X...", "X.X..", ".X.X."], "{spec}");
        assert_eq!(game.board().stones(Color::White), 0);
        // the emptied points are now Black's eyes: a white stone there would be a lone suicide
        let lone_suicide =
            if spec.contains("suicide=allowed") { Illegal::ChangesNothing } else { Illegal::Suicide };
        assert_eq!(check(&game, "B2"), Err(lone_suicide.clone()), "{spec}");
        assert_eq!(check(&game, "A1"), Err(lone_suicide), "{spec}");
    }
    let mut stoical = position("stoical", TRIPLE, Color::Black);
    assert_eq!(last_capture(&stoical), 0);
    play(&mut stoical, &["B1"]);
    assert_eq!(last_capture(&stoical), 3);
}

#[test]
fn a_capture_of_two_groups_counts_groups_not_stones() {
    // Black B1 is an incursion (B1 is bordered by White only) that captures two groups, A1 and
    // C1-D1 (three stones), while B2 keeps a liberty at B3.
    let rows_before = ["......", "......", "......", "......", "XOXX..", "O.OOX."];
    for (spec, counts) in [("incursion", true), ("incursion-minimal", false)] {
        let mut game = position(spec, &rows_before, Color::Black);
        play(&mut game, &["B1"]);
        assert_eq!(rows(&game)[4..], ["XOXX..", ".X..X."], "{spec}");
        assert_eq!(last_was_incursion(&game), counts, "{spec}");
    }
}

// ---------------------------------------------------------------------------------------------
// Snapback
// ---------------------------------------------------------------------------------------------

/// Black throws in at A1 (no capture), White takes it at B1 (one stone), and Black A1 again
/// takes the three white stones A2, B2, B1: a snapback.
const SNAPBACK: &[&str] = &[".....", ".....", "XXX..", "OOX..", "..X.."];

#[test]
fn snapback_is_legal_in_go_and_incursion() {
    for spec in
        ["go", "go:ko=simple", "go:ko=situational", "incursion", "incursion-minimal", "incursion-line"]
    {
        let mut game = position(spec, SNAPBACK, Color::Black);
        play(&mut game, &["A1", "B1"]);
        assert_eq!(rows(&game)[3..], ["OOX..", ".OX.."], "{spec}");
        play(&mut game, &["A1"]);
        assert_eq!(rows(&game)[2..], ["XXX..", "..X..", "X.X.."], "{spec}");
    }
    // in Incursion Go the retake is an incursion (A1 is bordered by White only) that the
    // opponent's non-incursion B1 does not restrict
    let mut game = position("incursion", SNAPBACK, Color::Black);
    play(&mut game, &["A1"]);
    assert!(!last_was_incursion(&game));
    play(&mut game, &["B1"]);
    assert!(!last_was_incursion(&game));
    play(&mut game, &["A1"]);
    assert!(last_was_incursion(&game));
}

#[test]
fn snapback_is_illegal_in_plain_stoical_and_legal_when_it_takes_more_stones() {
    let mut game = position("stoical", SNAPBACK, Color::Black);
    play(&mut game, &["A1", "B1"]);
    assert_eq!(last_capture(&game), 1);
    assert_eq!(check(&game, "A1"), Err(Illegal::CaptureAfterCapture));
    assert_eq!(Illegal::CaptureAfterCapture.to_string(), "capture right after the opponent's capture");
    // a move that captures nothing is still fine
    assert_eq!(check(&game, "E5"), Ok(()));

    let mut game = position("stoical:refine=more-stones", SNAPBACK, Color::Black);
    play(&mut game, &["A1", "B1"]);
    play(&mut game, &["A1"]);
    assert_eq!(last_capture(&game), 3);
    assert_eq!(rows(&game)[2..], ["XXX..", "..X..", "X.X.."]);
}

// ---------------------------------------------------------------------------------------------
// Ko: the worked example of incursion.md under every rule
// ---------------------------------------------------------------------------------------------

const KO: &[&str] = &[".....", ".XO..", "XO.O.", ".XO..", "....."];

#[test]
fn the_immediate_ko_retake_is_refused_by_every_rule_for_its_own_reason() {
    let cases = [
        ("go", Illegal::PositionalSuperko),
        ("go:ko=simple", Illegal::Ko),
        ("go:ko=situational", Illegal::SituationalSuperko),
        ("go:suicide=allowed", Illegal::PositionalSuperko),
        ("incursion", Illegal::IncursionAfterIncursion),
        ("incursion-minimal", Illegal::MinimalIncursionAfterMinimal),
        ("incursion-line", Illegal::IncursionAfterIncursion),
        ("stoical", Illegal::CaptureAfterCapture),
        ("stoical:refine=more-stones", Illegal::CaptureNotLarger { captures: 1, previous: 1 }),
    ];
    for (spec, reason) in cases {
        let mut game = position(spec, KO, Color::Black);
        play(&mut game, &["C3"]);
        assert_eq!(rows(&game), [".....", ".XO..", "X.XO.", ".XO..", "....."], "{spec}");
        assert_eq!(check(&game, "B3"), Err(reason), "{spec}");
        // after an exchange elsewhere the retake is legal in all of them
        play(&mut game, &["E5", "E1", "B3"]);
        assert_eq!(rows(&game), ["....O", ".XO..", "XO.O.", ".XO..", "....X"], "{spec}");
    }
    assert_eq!(Illegal::Ko.to_string(), "retakes the ko at once (recreates the previous position)");
    assert_eq!(Illegal::PositionalSuperko.to_string(), "recreates an earlier position (positional superko)");
    assert_eq!(
        Illegal::SituationalSuperko.to_string(),
        "recreates an earlier position with the same player to move (situational superko)"
    );
    assert_eq!(
        Illegal::IncursionAfterIncursion.to_string(),
        "incursion right after the opponent's incursion"
    );
    assert_eq!(
        Illegal::MinimalIncursionAfterMinimal.to_string(),
        "minimal incursion right after the opponent's minimal incursion"
    );
    assert_eq!(
        Illegal::CaptureNotLarger { captures: 1, previous: 1 }.to_string(),
        "capture of 1 stone(s) right after the opponent's capture of 1: it must take more than 1"
    );
}

#[test]
fn under_the_simple_ko_only_a_banned_retake_tells_a_position_from_its_set_up_board() {
    // Black C3 takes the ko stone B3 and stands alone with B3 as its only liberty: the retake is
    // banned, so the position differs from its board set up afresh (where White could take).
    let mut game = position("go:ko=simple", KO, Color::Black);
    play(&mut game, &["C3"]);
    let after_ko = [".....", ".XO..", "X.XO.", ".XO..", "....."];
    assert_eq!(rows(&game), after_ko);
    assert_ne!(game.hash(), position("go:ko=simple", &after_ko, Color::White).hash());
    // Black D2 takes the lone white D3 but has other liberties: no ko, and the positions transpose.
    let mut game = position("go:ko=simple", &[".....", "...X.", "..XOX", ".....", "....."], Color::Black);
    play(&mut game, &["D2"]);
    let after_capture = [".....", "...X.", "..X.X", "...X.", "....."];
    assert_eq!(rows(&game), after_capture);
    assert_eq!(game.hash(), position("go:ko=simple", &after_capture, Color::White).hash());
}

#[test]
fn the_banned_ko_point_is_the_point_of_the_captured_stone_until_another_move() {
    let mut game = position("go:ko=simple", KO, Color::Black);
    let ko_point = |game: &AnyGame| match game {
        AnyGame::Go(g) => g.ko_point().map(|p| g.board().geometry().vertex(p).to_string()),
        _ => panic!("not a Go game"),
    };
    assert_eq!(ko_point(&game), None);
    play(&mut game, &["C3"]);
    assert_eq!(ko_point(&game).as_deref(), Some("B3"));
    play(&mut game, &["E5"]);
    assert_eq!(ko_point(&game), None);
    match &game {
        AnyGame::Go(g) => assert_eq!(g.rules().ko(), variago_rules::stone_game::KoRule::Simple),
        _ => panic!("not a Go game"),
    }
}

#[test]
fn a_set_up_position_has_no_ko_history() {
    // The board right after Black's ko capture, set up with White to move: nothing was played
    // before it, so the retake recreates no earlier board and follows no capture or incursion.
    let after_capture = [".....", ".XO..", "X.XO.", ".XO..", "....."];
    for spec in NAMED_SPECS {
        let game = position(spec, &after_capture, Color::White);
        assert_eq!(check(&game, "B3"), Ok(()), "{spec}");
    }
    // but the set-up board itself is part of the superko history: going back to it is refused
    let mut game = position("go", &after_capture, Color::White);
    play(&mut game, &["B3"]);
    assert_eq!(check(&game, "C3"), Err(Illegal::PositionalSuperko));
}

// ---------------------------------------------------------------------------------------------
// Simple ko, positional and situational superko tell apart: a double ko and passes
// ---------------------------------------------------------------------------------------------

/// Two kos on a 9x5 board. Left ko: White's stone B4 can be taken by Black C4 and retaken by
/// White B4. Right ko: Black's stone H4 can be taken by White G4 and retaken by Black H4.
const DOUBLE_KO: &[&str] = &[".XO...XO.", "XO.O.X.XO", ".XO...XO.", ".........", "........."];

#[test]
fn double_ko_with_a_pass_repeats_a_board_with_the_other_player_to_move() {
    // Black takes the left ko, White the right one, Black passes, White retakes on the left:
    // Black retaking on the right recreates the set-up board, but with White to move, while the
    // set-up had Black to move, and it is no immediate retake.
    for (spec, expected) in
        [("go", Err(Illegal::PositionalSuperko)), ("go:ko=situational", Ok(())), ("go:ko=simple", Ok(()))]
    {
        let mut game = position(spec, DOUBLE_KO, Color::Black);
        play(&mut game, &["C4", "G4", "pass", "B4"]);
        assert_eq!(rows(&game)[..3], [".XO...XO.", "XO.O.XO.O", ".XO...XO."], "{spec}");
        assert_eq!(check(&game, "H4"), expected, "{spec}");
        if expected.is_ok() {
            play(&mut game, &["H4"]);
            assert_eq!(rows(&game)[..3], DOUBLE_KO[..3], "{spec}");
        }
    }
}

#[test]
fn double_ko_repeating_a_board_with_the_same_player_to_move_is_caught_by_superko_only() {
    // Black passes, White takes on the right, Black on the left, White passes, Black retakes on
    // the right: White retaking on the left now recreates the set-up board with Black to move,
    // as at the set-up, six moves later (no immediate retake).
    for (spec, expected) in [
        ("go", Err(Illegal::PositionalSuperko)),
        ("go:ko=situational", Err(Illegal::SituationalSuperko)),
        ("go:ko=simple", Ok(())),
    ] {
        let mut game = position(spec, DOUBLE_KO, Color::Black);
        play(&mut game, &["pass", "G4", "C4", "pass", "H4"]);
        assert_eq!(rows(&game)[..3], [".XO...XO.", "X.XO.X.XO", ".XO...XO."], "{spec}");
        assert_eq!(check(&game, "B4"), expected, "{spec}");
    }
}

#[test]
fn positions_after_passes_are_part_of_the_superko_history() {
    // Black passes: the set-up board with White to move stands in the history only because of
    // that pass. White takes the right ko, and Black's immediate retake brings it back.
    for (spec, reason) in [
        ("go", Illegal::PositionalSuperko),
        ("go:ko=situational", Illegal::SituationalSuperko),
        ("go:ko=simple", Illegal::Ko),
    ] {
        let mut game = position(spec, DOUBLE_KO, Color::Black);
        play(&mut game, &["pass", "G4"]);
        assert_eq!(check(&game, "H4"), Err(reason), "{spec}");
    }
}

#[test]
fn the_history_key_tells_histories_apart_that_lead_to_one_position() {
    // Black's two stones in either order: the same position, through different boards. Summed
    // without mixing, the boards' Zobrist keys agree for these two orders (the first and third
    // stones swap), so the key must mix each board.
    let mut first = empty("go", 5, 5);
    let mut second = empty("go", 5, 5);
    play(&mut first, &["A1", "E5", "C3", "E1"]);
    play(&mut second, &["C3", "E5", "A1", "E1"]);
    let (Some(a), Some(b)) = (first.history_key(), second.history_key()) else {
        panic!("a Go game has a history key")
    };
    assert_eq!(first.hash(), second.hash());
    assert_ne!(a, b, "different histories");
    // the same history, the same key, in a copy and in a game played the same way
    let mut again = empty("go", 5, 5);
    play(&mut again, &["A1", "E5", "C3", "E1"]);
    assert_eq!(again.history_key(), Some(a));
    assert_eq!(first.clone().history_key(), Some(a));
    let mut copy = second.clone();
    copy.clone_from(&first);
    assert_eq!(copy.history_key(), Some(a));
}

// ---------------------------------------------------------------------------------------------
// Incursion Go: first moves, minimal, line, passes
// ---------------------------------------------------------------------------------------------

#[test]
fn first_moves_on_an_empty_board() {
    for spec in NAMED_SPECS {
        let game = empty(spec, 4, 3);
        let mut legal = Vec::new();
        game.legal_moves(&mut legal);
        assert_eq!(legal.len(), 13, "{spec}: every point and the pass");
        assert!(legal.contains(&Move::Pass));
        assert_eq!(game.to_move(), Color::Black);
    }
    // the first stone is no incursion (the empty board's region has an empty border); White's
    // first stone lands in a region bordered only by Black's stone: an incursion
    let mut game = empty("incursion", 5, 5);
    play(&mut game, &["C3"]);
    assert!(!last_was_incursion(&game));
    play(&mut game, &["D4"]);
    assert!(last_was_incursion(&game));
    // after a pass, White's first stone is on an empty board again: no incursion, but Black's
    // reply is one
    let mut game = empty("incursion", 5, 5);
    play(&mut game, &["pass", "C3"]);
    assert!(!last_was_incursion(&game));
    play(&mut game, &["D4"]);
    assert!(last_was_incursion(&game));
}

/// 9x7. White territories: {A7, A6} and the point B1 (where Black captures the two groups A1 and
/// C1). Black territories: {J7, J6} and the point H1 (where White captures G1 and J1).
const MINIMAL: &[&str] =
    &[".O.....X.", ".O.....X.", "O.......X", ".........", ".........", "XOX...OXO", "O.OX.OX.X"];

#[test]
fn an_incursion_capturing_two_groups_restricts_nothing_under_minimal() {
    let mut plain = position("incursion", MINIMAL, Color::Black);
    play(&mut plain, &["B1"]);
    assert_eq!(rows(&plain)[6], ".X.X.OX.X");
    assert!(last_was_incursion(&plain));
    assert_eq!(check(&plain, "J7"), Err(Illegal::IncursionAfterIncursion));
    assert_eq!(check(&plain, "H1"), Err(Illegal::IncursionAfterIncursion));
    assert_eq!(check(&plain, "E4"), Ok(()));

    let mut minimal = position("incursion-minimal", MINIMAL, Color::Black);
    play(&mut minimal, &["B1"]);
    assert!(!last_was_incursion(&minimal));
    assert_eq!(check(&minimal, "J7"), Ok(()));
    assert_eq!(check(&minimal, "H1"), Ok(()));
}

#[test]
fn minimal_incursions_restrict_each_other_and_non_minimal_ones_are_always_legal() {
    let mut game = position("incursion-minimal", MINIMAL, Color::Black);
    play(&mut game, &["A7"]); // into White's {A7, A6}, capturing nothing: minimal
    assert!(last_was_incursion(&game));
    assert_eq!(check(&game, "J7"), Err(Illegal::MinimalIncursionAfterMinimal));
    // H1 captures two groups: not minimal, so legal, and it restricts nothing
    play(&mut game, &["H1"]);
    assert_eq!(rows(&game)[6], "O.OX.O.O.");
    assert!(!last_was_incursion(&game));
    play(&mut game, &["B1"]);

    let mut plain = position("incursion", MINIMAL, Color::Black);
    play(&mut plain, &["A7"]);
    assert_eq!(check(&plain, "J7"), Err(Illegal::IncursionAfterIncursion));
    assert_eq!(check(&plain, "H1"), Err(Illegal::IncursionAfterIncursion));
}

/// 7x7, White to move. White territories: the 2x2 block A7-B7-A6-B6 (not line-shaped) and the
/// bent path A2-A1-B1 (line-shaped). Black territories: {G7, G6} (a line) and the 2x2 block
/// F2-G2-F1-G1.
const SHAPES: &[&str] = &["..O..X.", "..O..X.", "OO....X", ".......", "O....XX", ".O..X..", "..O.X.."];

#[test]
fn only_line_shaped_territories_count_under_incursion_line() {
    // White G7 is an incursion into a line-shaped territory under both rules
    for spec in ["incursion", "incursion-line"] {
        let mut game = position(spec, SHAPES, Color::White);
        play(&mut game, &["G7"]);
        assert!(last_was_incursion(&game), "{spec}");
        // the bent path A2-A1-B1 is line-shaped: an incursion either way
        assert_eq!(check(&game, "A1"), Err(Illegal::IncursionAfterIncursion), "{spec}");
        assert_eq!(check(&game, "B1"), Err(Illegal::IncursionAfterIncursion), "{spec}");
    }
    // the 2x2 block is not line-shaped: not an incursion under incursion-line
    let mut plain = position("incursion", SHAPES, Color::White);
    play(&mut plain, &["G7"]);
    assert_eq!(check(&plain, "A6"), Err(Illegal::IncursionAfterIncursion));
    let mut line = position("incursion-line", SHAPES, Color::White);
    play(&mut line, &["G7"]);
    assert_eq!(check(&line, "A6"), Ok(()));
    play(&mut line, &["A6"]);
    assert!(!last_was_incursion(&line));

    // White G1 into the black 2x2 block: an incursion for incursion, nothing for incursion-line
    let mut plain = position("incursion", SHAPES, Color::White);
    play(&mut plain, &["G1"]);
    assert!(last_was_incursion(&plain));
    assert_eq!(check(&plain, "A1"), Err(Illegal::IncursionAfterIncursion));
    let mut line = position("incursion-line", SHAPES, Color::White);
    play(&mut line, &["G1"]);
    assert!(!last_was_incursion(&line));
    assert_eq!(check(&line, "A1"), Ok(()));
}

#[test]
fn combined_minimal_and_line_forms() {
    let spec = "incursion:minimal=true,shape=line";
    let mut game = position(spec, SHAPES, Color::White);
    play(&mut game, &["G7"]);
    assert_eq!(check(&game, "A1"), Err(Illegal::MinimalIncursionAfterMinimal));
    assert_eq!(check(&game, "A6"), Ok(()));
    let rules: IncursionRules = match &game {
        AnyGame::Incursion(g) => g.rules().clone(),
        _ => unreachable!(),
    };
    assert!(rules.minimal && rules.line);
}

#[test]
fn a_pass_lifts_the_incursion_restriction() {
    // White's last placement G7 was an incursion, but its last move is a pass
    let mut game = position("incursion", SHAPES, Color::White);
    play(&mut game, &["G7", "D4", "pass"]);
    assert!(!last_was_incursion(&game));
    assert_eq!(check(&game, "A1"), Ok(()));
    // the ko: Black takes (an incursion), White plays elsewhere, Black passes, and White may
    // retake although Black's last placement was an incursion
    let mut ko = position("incursion", KO, Color::Black);
    play(&mut ko, &["C3"]);
    assert_eq!(check(&ko, "B3"), Err(Illegal::IncursionAfterIncursion));
    play(&mut ko, &["E5", "pass"]);
    assert_eq!(check(&ko, "B3"), Ok(()));
    play(&mut ko, &["B3"]);
    assert!(last_was_incursion(&ko));
    assert_eq!(rows(&ko), ["....O", ".XO..", "XO.O.", ".XO..", "....."]);
}

#[test]
fn a_pass_lifts_the_stoical_restriction() {
    // Black takes the ko (a capture), White plays elsewhere, Black passes: White may retake
    // although Black's last placement captured
    let mut game = position("stoical", KO, Color::Black);
    play(&mut game, &["C3"]);
    assert_eq!(last_capture(&game), 1);
    assert_eq!(check(&game, "B3"), Err(Illegal::CaptureAfterCapture));
    play(&mut game, &["E5"]);
    assert_eq!(last_capture(&game), 0);
    play(&mut game, &["pass"]);
    assert_eq!(last_capture(&game), 0);
    assert_eq!(check(&game, "B3"), Ok(()));
    play(&mut game, &["B3"]);
    assert_eq!(last_capture(&game), 1);
    // and Black's immediate capture back is refused again
    assert_eq!(check(&game, "C3"), Err(Illegal::CaptureAfterCapture));
}

// ---------------------------------------------------------------------------------------------
// The own-position draw
// ---------------------------------------------------------------------------------------------

#[test]
fn recreating_ones_own_position_draws_incursion_and_stoical() {
    // 2x2: Black A2, White B2, Black A1, White B1 (takes A2-A1), Black A2, White A1 (takes A2),
    // Black A2 takes the three white stones: the board is Black's board after its first turn.
    for (spec, moves) in [
        ("incursion", ["A2", "B2", "A1", "B1", "A2", "A1", "A2"]),
        ("incursion-minimal", ["A2", "B2", "A1", "B1", "A2", "A1", "A2"]),
        ("incursion-line", ["A2", "B2", "A1", "B1", "A2", "A1", "A2"]),
        ("stoical:refine=more-stones", ["A2", "B2", "A1", "B1", "A2", "A1", "A2"]),
        // plain Stoical forbids Black's last capture right after White's A1 capture: Black
        // passes instead of A2, so White's A1 captures nothing
        ("stoical", ["A2", "B2", "A1", "B1", "pass", "A1", "A2"]),
    ] {
        let mut game = empty(spec, 2, 2);
        play(&mut game, &moves[..6]);
        assert!(!game.is_over(), "{spec}");
        play(&mut game, &moves[6..]);
        assert_eq!(rows(&game), ["X.", ".."], "{spec}");
        assert!(game.is_over(), "{spec}");
        let result = game.outcome().unwrap();
        assert_eq!(result, GameResult { winner: None, ending: Ending::OwnPositionDraw }, "{spec}");
        assert_eq!(result.to_string(), "Draw");
        assert_eq!(game.check(Move::Pass), Err(Illegal::GameOver));

        // draw=none lets the game go on
        let spec_none =
            if spec.contains(':') { format!("{spec},draw=none") } else { format!("{spec}:draw=none") };
        let mut game = empty(&spec_none, 2, 2);
        play(&mut game, &moves);
        assert!(!game.is_over(), "{spec_none}");
        assert_eq!(game.outcome(), None);
        play(&mut game, &["pass", "pass"]);
        assert_eq!(game.outcome().unwrap().to_string(), "W+3.5", "{spec_none}");
    }
}

#[test]
fn the_same_cycle_in_go_is_a_superko_matter_and_no_draw() {
    let moves = ["A2", "B2", "A1", "B1", "A2", "A1"];
    for (spec, expected) in [
        ("go", Err(Illegal::PositionalSuperko)),
        ("go:ko=situational", Err(Illegal::SituationalSuperko)),
        ("go:ko=simple", Ok(())),
    ] {
        let mut game = empty(spec, 2, 2);
        play(&mut game, &moves);
        assert_eq!(check(&game, "A2"), expected, "{spec}");
        if expected.is_ok() {
            play(&mut game, &["A2"]);
            assert!(!game.is_over(), "{spec}: Go has no own-position draw");
        }
    }
}

#[test]
fn the_board_of_an_own_pass_turn_counts_for_the_draw() {
    // 2x2 Stoical: Black A2, White B2, Black passes (its turn ends on A2 + B2), White B1, Black A1
    // (takes B2-B1), White passes, Black B1, White B2 (takes the three black stones), Black A2:
    // the board A2 + B2 is the one Black's pass turn ended on, and no placement turn of Black's.
    let moves = ["A2", "B2", "pass", "B1", "A1", "pass", "B1", "B2"];
    let mut game = empty("stoical", 2, 2);
    play(&mut game, &moves);
    assert_eq!(rows(&game), [".O", ".."]);
    assert!(!game.is_over());
    play(&mut game, &["A2"]);
    assert_eq!(rows(&game), ["XO", ".."]);
    assert_eq!(game.outcome(), Some(GameResult { winner: None, ending: Ending::OwnPositionDraw }));

    let mut game = empty("stoical:draw=none", 2, 2);
    play(&mut game, &moves);
    play(&mut game, &["A2"]);
    assert!(!game.is_over());
}

#[test]
fn the_draw_needs_the_movers_own_position_and_a_placement() {
    // 2x2: Black A2, White B2, Black A1, White B1 (takes A2-A1), Black A2, White passes, Black A1
    // (takes B2-B1), White B2: the board is the one Black left after A1 (its second turn), never
    // one of White's, so no draw. Black then passes, recreating its own board by a pass: no draw.
    let mut game = empty("incursion", 2, 2);
    play(&mut game, &["A2", "B2", "A1", "B1", "A2", "pass", "A1"]);
    assert_eq!(rows(&game), ["X.", "X."]);
    play(&mut game, &["B2"]);
    assert_eq!(rows(&game), ["XO", "X."]);
    assert!(!game.is_over());
    play(&mut game, &["pass"]);
    assert!(!game.is_over());
    play(&mut game, &["pass"]);
    assert_eq!(game.outcome().unwrap().to_string(), "W+6.5");
}

// ---------------------------------------------------------------------------------------------
// The end: two passes and area scoring
// ---------------------------------------------------------------------------------------------

/// Black: 6 stones (column B and C5) + 5 points of territory (column A) = 11; White: 5 stones
/// (column D) + 5 points (column E) = 10; C4-C1 are bordered by both (no one's).
const COUNT: &[&str] = &[".XXO.", ".X.O.", ".X.O.", ".X.O.", ".X.O."];

#[test]
fn two_passes_end_the_game_and_area_scoring_decides_with_komi() {
    for (spec, result) in [
        ("go", "W+6.5"),
        ("go:komi=0.5", "B+0.5"),
        ("go:komi=1.5", "W+0.5"),
        ("go:komi=-2.5", "B+3.5"),
        ("incursion:komi=1", "Draw"),
        ("stoical", "W+6.5"),
        ("incursion-line:komi=0", "B+1"),
    ] {
        let mut game = position(spec, COUNT, Color::Black);
        play(&mut game, &["pass"]);
        assert!(!game.is_over());
        assert_eq!(game.outcome(), None);
        play(&mut game, &["pass"]);
        assert!(game.is_over(), "{spec}");
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.to_string(), result, "{spec}");
        assert_eq!(game.score().result(), outcome, "{spec}");
        if result == "Draw" {
            assert_eq!(outcome, GameResult { winner: None, ending: Ending::Score(HalfPoints(0)) });
        }
    }
    let game = position("go", COUNT, Color::Black);
    let score = game.score();
    assert_eq!((score.area().unwrap().sides[0].stones, score.area().unwrap().sides[0].territory), (6, 5));
    assert_eq!((score.area().unwrap().sides[1].stones, score.area().unwrap().sides[1].territory), (5, 5));
    assert_eq!(score.totals(), [HalfPoints::points(11), HalfPoints::points(10)]);
    assert_eq!(score.komi(), HalfPoints(15));
}

#[test]
fn passes_must_be_in_a_row_to_end_the_game() {
    let mut game = position("go", COUNT, Color::Black);
    play(&mut game, &["pass", "E5", "pass"]);
    assert!(!game.is_over());
    assert_eq!(game.outcome(), None);
    play(&mut game, &["pass"]);
    // White's E5 turned one point of its territory into a stone: the same count
    assert_eq!(game.outcome().unwrap().to_string(), "W+6.5");
    // White passing first also ends it after Black's pass
    let mut game = position("go", COUNT, Color::White);
    play(&mut game, &["pass", "pass"]);
    assert!(game.is_over());
}

#[test]
fn every_stone_counts_as_alive_at_the_end() {
    // A white stone inside Black's column A makes both parts of it no one's territory.
    let rows_with_invader = [".XXO.", ".X.O.", "OX.O.", ".X.O.", ".X.O."];
    let mut game = position("go", &rows_with_invader, Color::Black);
    play(&mut game, &["pass", "pass"]);
    let score = game.score();
    assert_eq!((score.area().unwrap().sides[0].stones, score.area().unwrap().sides[0].territory), (6, 0));
    assert_eq!((score.area().unwrap().sides[1].stones, score.area().unwrap().sides[1].territory), (6, 5));
    assert_eq!(game.outcome().unwrap().to_string(), "W+12.5");
}

#[test]
fn the_empty_board_is_no_ones_territory() {
    for (spec, result) in [("go", "W+7.5"), ("go:komi=0", "Draw"), ("stoical:komi=-0.5", "B+0.5")] {
        let mut game = empty(spec, 9, 9);
        play(&mut game, &["pass", "pass"]);
        let score = game.score();
        assert_eq!(score.area().unwrap().sides[0].territory + score.area().unwrap().sides[1].territory, 0);
        assert_eq!(game.outcome().unwrap().to_string(), result, "{spec}");
    }
    // a single stone owns the whole board
    let mut game = empty("go", 9, 9);
    play(&mut game, &["E5", "pass", "pass"]);
    assert_eq!(game.outcome().unwrap().to_string(), "B+73.5");
}

#[test]
fn results_print_as_sgf_writes_them() {
    let result = |winner, ending| GameResult { winner, ending }.to_string();
    assert_eq!(result(Some(Color::Black), Ending::Score(HalfPoints(7))), "B+3.5");
    assert_eq!(result(Some(Color::White), Ending::Score(HalfPoints(1))), "W+0.5");
    assert_eq!(result(Some(Color::White), Ending::Score(HalfPoints(4))), "W+2");
    assert_eq!(result(None, Ending::Score(HalfPoints(0))), "Draw");
    assert_eq!(result(None, Ending::OwnPositionDraw), "Draw");
    assert_eq!(result(Some(Color::White), Ending::Resignation), "W+R");
    assert_eq!(Illegal::GameOver.to_string(), "the game is over");
}

/// The search's playout step answers the last move before playing at random.
#[test]
fn playout_moves_capture_a_chain_in_atari_and_save_one_of_their_own() {
    use rand::SeedableRng;
    for spec in ["go", "incursion", "stoical", "excursion-2"] {
        for seed in 0..8 {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            // White's C3 stands in atari: Black takes it at C2
            let mut game = empty(spec, 5, 5);
            play(&mut game, &["B3", "A1", "D3", "E5", "C4", "C3"]);
            assert_eq!(game.play_playout_move(&mut rng), mv(&game, "C2"), "{spec} seed {seed}");
            // White's D3 puts Black's C3 in atari: Black runs out at C2 (two empty neighbours)
            let mut game = empty(spec, 5, 5);
            play(&mut game, &["C3", "B3", "A5", "C4", "E1", "D3"]);
            assert_eq!(game.play_playout_move(&mut rng), mv(&game, "C2"), "{spec} seed {seed}");
        }
    }
}

/// Whole playouts of the search's step on small boards (every point near an edge): every move it
/// plays is legal in the position it was played from.
#[test]
fn playout_moves_are_always_legal() {
    use rand::SeedableRng;
    for spec in NAMED_SPECS {
        for side in 2..=6 {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(side as u64);
            for _ in 0..20 {
                let mut game = empty(spec, side, side);
                for _ in 0..game.playout_cap() {
                    if game.is_over() {
                        break;
                    }
                    let before = game.clone();
                    let mv = game.play_playout_move(&mut rng);
                    assert_eq!(before.check(mv), Ok(()), "{spec} {side}x{side}");
                }
            }
        }
    }
}
