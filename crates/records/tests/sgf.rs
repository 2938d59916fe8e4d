//! SGF reading and writing: round trips, replay of setup plus moves, and bad input.

use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sgf_parse::SgfProp;
use variago_records::{Annotation, Record, RecordError};
use variago_rules::{Color, Game, Geometry, Illegal, Move, VariantSpec};

const SPECS: &[&str] = &[
    "go",
    "go:ko=simple,komi=6.5",
    "go:ko=situational,suicide=allowed",
    "incursion",
    "incursion-minimal",
    "incursion:minimal=true,shape=line,komi=0",
    "stoical:refine=more-stones,draw=none",
    "excursion-1",
    "excursion-2:draw=none,komi=0.5",
    "borderline:deployment=0",
];

/// A random game of `spec`: moves drawn uniformly from the legal moves, passes rare.
fn random_record(spec: &str, geometry: Geometry, seed: u64, length: usize) -> Record {
    let spec: VariantSpec = spec.parse().unwrap();
    let mut record = Record::new(spec, geometry);
    let mut game = record.initial_position();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..length {
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        // the pass, where legal, is last
        let places = moves.iter().filter(|m| **m != Move::Pass).count();
        let may_pass = moves.last() == Some(&Move::Pass);
        let mv = if places == 0 || (may_pass && rng.random_ratio(1, 20)) {
            Move::Pass
        } else {
            moves[rng.random_range(0..places)]
        };
        game.play(mv).unwrap();
        record.moves.push(mv);
    }
    record.result = game.outcome().map(|r| r.to_string());
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Writing a record and reading it back gives the same record and the same position.
    #[test]
    fn write_then_read_is_identity(spec in 0..SPECS.len(), w in 2u32..=9, h in 2u32..=9, seed: u64, length in 0usize..80) {
        let geometry = Geometry::new(w, h).unwrap();
        let record = random_record(SPECS[spec], geometry, seed, length);
        let text = record.to_sgf();
        let read = Record::from_sgf(&text).unwrap();
        prop_assert_eq!(&read, &record, "{}", text);
        let (a, b) = (record.replay().unwrap(), read.replay().unwrap());
        prop_assert_eq!(a.board(), b.board());
        prop_assert_eq!(a.hash(), b.hash());
        prop_assert_eq!(a.to_move(), b.to_move());
        prop_assert_eq!(a.outcome(), b.outcome());
    }
}

#[test]
fn setup_then_moves_is_replayed_move_by_move() {
    // the Incursion rules' ko example as setup, then the incursion and the retake
    let sgf = "(;GM[1]FF[4]SZ[5]RU[incursion]KM[0.5]AB[bb][ac][bd]AW[cb][bc][dc][cd]PL[B];B[cc];W[bc])";
    let record = Record::from_sgf(sgf).unwrap();
    assert_eq!(record.spec.to_string(), "incursion:komi=0.5");
    let err = record.replay().unwrap_err();
    assert_eq!(err.number, 2);
    assert_eq!(err.color, Color::White);
    assert_eq!(err.mv, "B3");
    assert_eq!(err.reason, Illegal::IncursionAfterIncursion);
    assert_eq!(
        err.to_string(),
        "move 2 (White B3) is illegal: incursion right after the opponent's incursion"
    );
}

#[test]
fn rules_size_komi_and_passes_are_read() {
    let record = Record::from_sgf("(;GM[1]SZ[9:13]RU[Japanese]KM[6.5];B[aa];W[tt];B[])").unwrap();
    assert_eq!(record.geometry, Geometry::new(9, 13).unwrap());
    assert_eq!(record.spec.to_string(), "go:komi=6.5");
    assert_eq!(record.moves[1..], [Move::Pass, Move::Pass]);
    let game = record.replay().unwrap();
    assert!(game.is_over());
    // handicap: setup stones, White moves first without PL
    let record = Record::from_sgf("(;GM[1]SZ[9]AB[cc][gg];W[ee])").unwrap();
    assert_eq!(record.first_player, Color::White);
    assert_eq!(record.replay().unwrap().to_move(), Color::Black);
    // RU's komi is overridden by KM
    let record = Record::from_sgf("(;GM[1]SZ[9]RU[go:komi=5]KM[0])").unwrap();
    assert_eq!(record.spec.to_string(), "go:komi=0");
}

#[test]
fn written_sgf_has_the_standard_properties() {
    let mut record = random_record("incursion-line", Geometry::square(9).unwrap(), 7, 10);
    record.moves.push(Move::Pass);
    let sgf = record.to_sgf();
    for expected in ["GM[1]", "FF[4]", "SZ[9]", "RU[incursion-line]", "KM[7.5]", ";B[])"] {
        assert!(sgf.contains(expected), "{expected} missing from {sgf}");
    }
    let rect = Record::new("go".parse().unwrap(), Geometry::new(5, 7).unwrap()).to_sgf();
    assert!(rect.contains("SZ[5:7]"), "{rect}");
}

fn error(sgf: &str) -> RecordError {
    Record::from_sgf(sgf).unwrap_err()
}

#[test]
fn bad_input_is_refused_with_what_and_where() {
    assert!(matches!(error("(;GM[1]SZ[9];B[aa]"), RecordError::Syntax(_)));
    assert!(matches!(error("(;GM[1]SZ[9];B[aa"), RecordError::Syntax(_)));
    assert!(matches!(error("not sgf at all"), RecordError::Syntax(_) | RecordError::Empty));
    assert!(matches!(error(""), RecordError::Syntax(_) | RecordError::Empty));
    assert_eq!(error("(;GM[2])"), RecordError::Syntax("line 1, column 2: Unexpected game type".into()));
    let size_error = "node 1: SZ[30]: board size 30x30 is out of range (each side must be 1 to 25, the board at least 2 points)";
    assert_eq!(error("(;GM[1]SZ[30])").to_string(), size_error);
    assert!(
        error("(;GM[1]SZ[1:1])").to_string().starts_with("node 1: SZ[1]: board size 1x1 is out of range")
    );
    assert!(matches!(error("(;GM[1]SZ[x])"), RecordError::BadValue { node: 1, .. }));
    assert!(matches!(error("(;GM[1]KM[6.3])"), RecordError::BadValue { node: 1, .. }));
    assert!(matches!(error("(;GM[1]RU[chess])"), RecordError::Rules { .. }));
    let japanese = Record::from_sgf("(;GM[1]RU[ Japanese ])").unwrap();
    assert_eq!((japanese.spec.to_string(), japanese.territory_rules), ("go".into(), Some("Japanese".into())));
    assert_eq!(Record::from_sgf("(;GM[1]RU[Chinese])").unwrap().territory_rules, None);
    assert!(matches!(error("(;GM[1]RU[go:ko=never])"), RecordError::Rules { .. }));
    let off = error("(;GM[1]SZ[9];B[aa];W[jj])");
    assert_eq!(off.to_string(), "node 3: W point 'jj' is off the 9x9 board");
    assert!(matches!(error("(;GM[1]SZ[9];B[aa];B[bb])"), RecordError::OutOfTurn { node: 3, .. }));
    assert!(matches!(error("(;GM[1]SZ[9];B[aa];AB[bb])"), RecordError::SetupAfterMoves { node: 3, .. }));
    assert!(matches!(
        error("(;GM[1]SZ[9];B[aa];SZ[13])"),
        RecordError::MisplacedRootProperty { node: 3, .. }
    ));
    assert!(matches!(error("(;GM[1]SZ[9];B[a])"), RecordError::BadValue { node: 2, .. }));
    // the grammar, checked over the whole first game before any node is parsed, the line named
    let syntax = |sgf: &str| match error(sgf) {
        RecordError::Syntax(message) => message,
        other => panic!("{sgf}: {other:?}"),
    };
    assert_eq!(syntax("(;GM[1](;B[aa]);W[bb])"), "line 1, column 16: a node after a variation");
    assert_eq!(syntax("(;GM[1]\n;B[aa]\n;W)"), "line 3, column 3: a property identifier without a value");
    assert_eq!(syntax("(;GM[1]\n;B[aa]7)"), "line 2, column 7: unexpected '7'");
    assert_eq!(syntax("(;GM[1]\n;B[é]7)"), "line 2, column 6: unexpected '7'", "columns count characters");
    assert_eq!(syntax("((;GM[1]))"), "line 1, column 2: a game tree must start with a node ';'");
    assert_eq!(syntax("(;GM[1]\n;C[open\n;B[aa)"), "line 2, column 3: a value is not closed by ']'");
    assert_eq!(
        syntax("(;GM[1](;B[aa])"),
        "line 1, column 16: the text ends inside a game tree (a ')' is missing)"
    );
}

#[test]
fn the_main_line_is_the_first_variation_at_every_branch() {
    let record =
        Record::from_sgf("(;GM[1]SZ[9];B[aa](;W[bb](;B[cc])(;B[dd]));W[ee];W[ff])(;B[gg]))").unwrap_err();
    assert_eq!(record, RecordError::Syntax("line 1, column 43: a node after a variation".into()));
    let record =
        Record::from_sgf("(;GM[1]SZ[9];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee];B[ff]))(;B[gg])").unwrap();
    let geometry = record.geometry;
    let moves: Vec<String> =
        record.moves.iter().map(|&mv| variago_records::sgf::move_text(geometry, mv)).collect();
    assert_eq!(moves, ["A9", "B8", "C7"]);
}

#[test]
fn hostile_sizes_do_not_exhaust_the_stack_or_the_clock() {
    let nested = format!("{}{}", "(;GM[1]".repeat(50_000), ")".repeat(50_000));
    assert!(matches!(error(&nested), RecordError::Syntax(_)));
    let mut long = String::from("(;GM[1]SZ[9]");
    for i in 0..=variago_records::sgf::MAX_NODES {
        long.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    long.push(')');
    assert_eq!(error(&long), RecordError::TooLong);
}

#[test]
fn a_game_that_ended_replays_to_its_result() {
    let record = Record::from_sgf("(;GM[1]SZ[3]KM[0.5]RU[go];B[bb];W[];B[])").unwrap();
    let game = record.replay().unwrap();
    assert_eq!(game.outcome().unwrap().to_string(), "B+8.5");
}

#[test]
fn kings_in_the_setup_round_trip_through_the_private_property() {
    let setup = variago_rules::Board::from_diagram(&["K.o..", ".X...", "..k..", ".....", "....O"]).unwrap();
    let mut record = Record::new("excursion-2".parse().unwrap(), setup.geometry());
    record.setup = setup.clone();
    record.moves.push(Move::Pass);
    let sgf = record.to_sgf();
    assert!(sgf.contains("XK[aa][cc]") || sgf.contains("XK[cc][aa]"), "{sgf}");
    let read = Record::from_sgf(&sgf).unwrap();
    assert_eq!(read.setup, setup);
    assert_eq!(read.setup.hash(), setup.hash());
    assert_eq!(read.replay().unwrap().board(), &setup);
    // a king on an empty point, or a malformed point, is refused
    assert!(matches!(
        error("(;GM[1]SZ[5]RU[excursion-1]AB[aa]XK[bb])"),
        RecordError::BadValue { node: 1, .. }
    ));
    assert!(matches!(
        error("(;GM[1]SZ[5]RU[excursion-1]AB[aa]XK[a])"),
        RecordError::BadValue { node: 1, .. }
    ));
    assert!(matches!(
        error("(;GM[1]SZ[5]RU[excursion-1]AB[aa]XK[zz])"),
        RecordError::OffBoard { node: 1, .. }
    ));
}

#[test]
fn setup_boards_do_not_depend_on_the_order_of_their_points() {
    // seeded searches draw from the board's empty list: it must be the same whatever order the
    // setup points come in (sgf-parse hands them over as a hash set)
    let a = Record::from_sgf("(;GM[1]SZ[9]AB[aa][cc][ee][gg]AW[bb][dd][ff])").unwrap();
    let b = Record::from_sgf("(;GM[1]SZ[9]AW[ff][dd][bb]AB[gg][ee][cc][aa])").unwrap();
    assert_eq!(a.setup.empties(), b.setup.empties());
    assert_eq!(a.setup.hash(), b.setup.hash());
}

#[test]
fn players_date_comments_clocks_and_foreign_properties_round_trip() {
    let mut record = random_record("go", Geometry::square(9).unwrap(), 7, 6);
    record.info.black = Some("Lee [9p]".into());
    record.info.white = Some("variago:0.1.0 level 5".into());
    record.info.date = Some("2026-11-30".into());
    record.info.comment = Some("a test game\nwith two lines".into());
    record.info.other.push(sgf_parse::go::Prop::new("EV".into(), vec!["Club night".into()]));
    record.info.other.push(sgf_parse::go::Prop::new("XY".into(), vec!["private".into()]));
    record.annotations.insert(0, Annotation { comment: Some("opening".into()), time_left: Some(295.5) });
    record.annotations.insert(3, Annotation { comment: None, time_left: Some(12.0) });
    let text = record.to_sgf();
    for expected in ["PB[Lee [9p\\]]", "DT[2026-11-30]", "EV[Club night]", "BL[295.5]", "C[opening]"] {
        assert!(text.contains(expected), "{expected} missing from {text}");
    }
    // move 4 (index 3) is White's: its clock is WL
    assert!(text.contains("WL[12]"), "{text}");
    assert_eq!(Record::from_sgf(&text).unwrap(), record);
}

#[test]
fn sloppy_files_are_read_leniently() {
    // lower-case identifiers, FF[3] long names, white space everywhere, unknown properties
    let text = " ( ; GM [1] SZ [9]\n AddBlack[aa][bb] XY[kept] \n ; b [cc] ; w[dd] ) ";
    let record = Record::from_sgf(text).unwrap();
    assert_eq!(record.moves.len(), 2);
    assert_eq!(record.first_player, Color::Black);
    assert_eq!(record.setup.stones(Color::Black), 2);
    assert_eq!(record.info.other.iter().map(|p| p.to_string()).collect::<Vec<_>>(), ["XY[kept]"]);
    // a value may hold brackets and lower-case words: only identifiers change
    let record = Record::from_sgf("(;GM[1]SZ[9]C[b[aa\\] is a move];B[ee])").unwrap();
    assert_eq!(record.info.comment.as_deref(), Some("b[aa] is a move"));
}

/// Inputs the fuzzer (fuzz/, target `sgf`) found wrong once: each must read, and what variago
/// writes of it must read back as the same record.
#[test]
fn fuzzed_inputs_round_trip() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzzed");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
        let Ok(record) = Record::from_sgf(&text) else { continue };
        let written = record.to_sgf();
        assert_eq!(Record::from_sgf(&written).as_ref(), Ok(&record), "{}: {written:?}", path.display());
    }
}

/// A 5x5 game: Black walls column C, White column D and plays a stone at A3 inside Black's side,
/// then both pass.
const WALLS: &str =
    "(;GM[1]FF[4]SZ[5]KM[0.5];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[ac];B[];W[])";

#[test]
fn the_dead_stones_are_written_with_the_territory_and_read_back() {
    let mut record = Record::from_sgf(WALLS).unwrap();
    assert_eq!(record.dead, None, "a record without XD says nothing of dead stones");
    let a3 = record.geometry.parse_vertex("A3").unwrap();
    record.dead = Some([a3].into());
    let sgf = record.to_sgf();
    // on the last node: the dead stone, and each side's territory with the dead stone's point
    let last = &sgf[sgf.rfind(';').unwrap()..];
    assert!(last.starts_with(";W[]XD[ac]TB["), "{last}");
    let (black, white) = last.split_once("TW").expect("White's territory");
    let points = |text: &str| text.matches('[').count();
    assert_eq!(points(black), 1 + 1 + 10, "the pass, XD, then the columns A and B: {last}");
    assert!(["aa", "ac", "be"].iter().all(|p| black.contains(&format!("[{p}]"))), "{last}");
    assert_eq!(points(white), 5, "the column E: {last}");
    assert!(["ea", "ee"].iter().all(|p| white.contains(&format!("[{p}]"))), "{last}");
    let read = Record::from_sgf(&sgf).unwrap();
    assert_eq!(read.dead, Some([a3].into()));
    // an empty marking is recorded too, as an empty list
    record.dead = Some(Default::default());
    let sgf = record.to_sgf();
    assert!(sgf.contains("XD[]"), "{sgf}");
    assert_eq!(Record::from_sgf(&sgf).unwrap().dead, Some(Default::default()));
}
