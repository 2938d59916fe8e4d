//! The gallery of Go's known forced cycles: an independent replay of each cycle through the
//! public rules API (under `go:ko=simple` every entry comes back to its state), and verdicts under the other variants worked out by hand from the rules files,
//! against what `KnownCycle::replay` prints.

use variago_lab::known::{KnownCycle, Verdict, gallery};
use variago_lab::searchable_variant;
use variago_rules::{AnyGame, Color, Game, Illegal, Move, Piece, Point};

fn entry(name: &str) -> KnownCycle {
    gallery().into_iter().find(|k| k.name == name).unwrap_or_else(|| panic!("no entry {name}"))
}

/// What `go:ko=simple` keeps of a position: every point's piece, the side to move, the passes in
/// a row and the banned ko point.
type GoState = (Vec<Option<Piece>>, Color, u8, Option<Point>);

/// A position's [`GoState`], read through the rules' own accessors.
fn go_state(game: &AnyGame) -> GoState {
    let AnyGame::Go(go) = game else { panic!("not go") };
    let board = go.board();
    (board.geometry().points().map(|p| board.piece(p)).collect(), go.to_move(), go.passes(), go.ko_point())
}

/// Plays the cycle twice under `go:ko=simple` and returns the state after each turn.
fn replay_twice(entry: &KnownCycle) -> Result<[GoState; 2], (usize, Illegal)> {
    let spec = "go:ko=simple".parse().unwrap();
    let mut game = AnyGame::from_setup(&spec, entry.board.clone(), entry.to_play);
    let mut after = Vec::new();
    for turn in 0..2 {
        for (i, &mv) in entry.moves.iter().enumerate() {
            game.play(mv).map_err(|reason| (turn * entry.moves.len() + i + 1, reason))?;
        }
        after.push(go_state(&game));
    }
    Ok(after.try_into().unwrap())
}

#[test]
fn every_known_cycle_cycles_under_simple_ko() {
    let spec = searchable_variant("go:ko=simple").unwrap();
    assert_eq!(gallery().len(), 5);
    for entry in &gallery() {
        let [first, second] = replay_twice(entry).unwrap_or_else(|e| panic!("{}: {e:?}", entry.name));
        assert_eq!(first, second, "{}: the second turn ends where the first did", entry.name);
        // the board comes back after a single turn too, with the same side to move
        let start: Vec<Option<Piece>> =
            entry.board.geometry().points().map(|p| entry.board.piece(p)).collect();
        assert_eq!((&first.0, first.1), (&start, entry.to_play), "{}", entry.name);
        assert_eq!(entry.replay(&spec), Verdict::Cycles, "{}", entry.name);
    }
}

#[test]
fn the_first_turn_can_leave_a_memory_the_start_did_not_have() {
    // Triple ko: the set-up position bans no point; after six moves White's last retake (F3
    // taking F2) bans F2 for Black. The cycle is the one from there.
    let [first, _] = replay_twice(&entry("triple ko")).unwrap();
    let triple = entry("triple ko");
    assert_eq!(first.3.map(|p| triple.board.geometry().vertex(p).to_string()), Some("F2".to_string()));
    // Sending two returning one ends its turn with Black's pass: one pass in a row, where the
    // start had none.
    let [first, _] = replay_twice(&entry("sending two returning one")).unwrap();
    assert_eq!(first.2, 1);
}

#[test]
fn moonshine_lifes_threats_are_real_and_the_corner_retake_waits_for_them() {
    // Worked out by hand from the diagram: Black's double-ko group (N4's) has the liberties N5
    // (its eye) and J4; White's (G1's) has J1 (its eye) and L3.
    let moonshine = entry("moonshine life");
    let spec = "go:ko=simple".parse().unwrap();
    let mut game = AnyGame::from_setup(&spec, moonshine.board.clone(), moonshine.to_play);
    let at = |v: &str| moonshine.board.geometry().parse_vertex(v).unwrap();
    let liberties = |game: &AnyGame, v: &str| game.board().liberties(at(v));
    assert_eq!((liberties(&game, "N4"), liberties(&game, "G1")), (2, 2));
    // without a threat in between, White's retake in the corner is refused by simple ko
    let mut hasty = game.clone();
    hasty.play(Move::Place(at("B5"))).unwrap();
    assert_eq!(hasty.play(Move::Place(at("C5"))), Err(Illegal::Ko));
    // the cycle: after each threat the threatened group is in atari, after each answer it is not
    let expected = [
        ("B5", (2, 2)), // Black takes the corner's ko
        ("J4", (1, 3)), // White's threat: Black's group keeps only its eye
        ("L3", (2, 2)), // Black's answer takes L4: a liberty back
        ("C5", (2, 2)), // White retakes the corner
        ("J3", (3, 1)), // Black's threat: White's group keeps only its eye
        ("L4", (2, 2)), // White's answer takes L3
    ];
    for (vertex, libs) in expected {
        game.play(Move::Place(at(vertex))).unwrap_or_else(|e| panic!("{vertex}: {e:?}"));
        assert_eq!((liberties(&game, "N4"), liberties(&game, "G1")), libs, "after {vertex}");
    }
}

/// The engine's verdict of an entry under a variant, as the command prints it.
fn verdict(name: &str, variant: &str) -> String {
    entry(name).replay(&searchable_variant(variant).unwrap()).to_string()
}

#[test]
fn triple_ko_breaks_where_the_rules_files_say() {
    // 1 B D2 takes the ko at D: D2 was a one-point region bordered only by White stones (C2 E2
    // D1 D3), so it is an incursion, and it captures (one stone, one group).
    // 2 W B3 retakes the ko at B: B3 is a one-point region bordered only by Black stones (A3 C3
    // B4 B2): an incursion right after an incursion (incursion.md), a minimal one after a
    // minimal one (one group each), a line-shaped region (a single point), and a capture right
    // after a capture of no fewer stones (stoical.md).
    for variant in ["incursion", "incursion-line"] {
        assert_eq!(
            verdict("triple ko", variant),
            "broken at move 2: incursion right after the opponent's incursion"
        );
    }
    assert_eq!(
        verdict("triple ko", "incursion-minimal"),
        "broken at move 2: minimal incursion right after the opponent's minimal incursion"
    );
    assert_eq!(
        verdict("triple ko", "stoical"),
        "broken at move 2: capture right after the opponent's capture"
    );
    assert_eq!(
        verdict("triple ko", "stoical:refine=more-stones"),
        "broken at move 2: capture of 1 stone(s) right after the opponent's capture of 1: it must take more than 1"
    );
    // Excursion (excursion.md): moves 1 to 3 are placements in enemy territory, so kings (D2,
    // B3, F2), each removing a plain stone of the setup, which both forms allow. Move 4, W D3,
    // lands in a one-point region bordered by Black only (C3 E3 D4 and the king on D2): a king
    // that removes the king on D2, refused in form 1 always and in form 2 because Black's move 3
    // placed a king.
    assert_eq!(verdict("triple ko", "excursion-1"), "broken at move 4: places a king and removes a king");
    assert_eq!(
        verdict("triple ko", "excursion-2"),
        "broken at move 4: places a king and removes a king right after the opponent placed one"
    );
}

#[test]
fn sending_two_returning_one_breaks_at_the_return() {
    // 1 W D1 sends two: the region {D1} is bordered by White (C1) and Black (E1 D2), no territory:
    // no incursion, no king, no capture.
    // 2 B B1 takes C1 D1: {B1} is bordered only by White (A1 B2 C1), an incursion (one group, a
    // single point: minimal, line-shaped), a capture of two stones, and in Excursion a king.
    // 3 W C1 returns one: {C1 D1} is now bordered only by Black (B1 C2 D2 E1), a two-point path:
    // an incursion (minimal: it takes one group; line-shaped) right after one; a capture of one
    // stone right after a capture of two; a king taking the king on B1.
    for variant in ["incursion", "incursion-line"] {
        assert_eq!(
            verdict("sending two returning one", variant),
            "broken at move 3: incursion right after the opponent's incursion"
        );
    }
    assert_eq!(
        verdict("sending two returning one", "incursion-minimal"),
        "broken at move 3: minimal incursion right after the opponent's minimal incursion"
    );
    assert_eq!(
        verdict("sending two returning one", "stoical"),
        "broken at move 3: capture right after the opponent's capture"
    );
    assert_eq!(
        verdict("sending two returning one", "stoical:refine=more-stones"),
        "broken at move 3: capture of 1 stone(s) right after the opponent's capture of 2: it must take more than 2"
    );
    assert_eq!(
        verdict("sending two returning one", "excursion-1"),
        "broken at move 3: places a king and removes a king"
    );
    assert_eq!(
        verdict("sending two returning one", "excursion-2"),
        "broken at move 3: places a king and removes a king right after the opponent placed one"
    );
}

#[test]
fn eternal_life_breaks_at_the_throw_in_under_incursion() {
    // 1 B F1 and 2 W D1 land in regions with both colours on their border ({F1}: E1 black, G1 F2
    // white; {D1}: C1 white, E1 D2 black): no incursions. 3 B E1 takes C1 D1 and lands in {E1
    // F1}, bordered only by White (D1 E2 F2 G1): an incursion. 4 W C1, the throw-in, lands in
    // {C1 D1}, bordered only by Black (B1 C2 D2 E1): an incursion right after one.
    assert_eq!(
        verdict("eternal life", "incursion"),
        "broken at move 4: incursion right after the opponent's incursion"
    );
    // Stoical: 2 W D1 captures two stones and 3 B E1 captures two right after it.
    assert_eq!(
        verdict("eternal life", "stoical"),
        "broken at move 3: capture right after the opponent's capture"
    );
}
