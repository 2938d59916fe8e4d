//! Galice games through SGF: the entries round-trip, and the pictures a standard viewer shows
//! follow the game position by position.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::collections::HashMap;
use variago_records::GameInfo;
use variago_records::galice_sgf::{from_sgf, is_galice_sgf, to_sgf};
use variago_records::sgf::{MAX_NODES, sgf_date};
use variago_rules::galice::{Action, Galice, Record, SIZE, Side, Spot};
use variago_rules::{Color, Game};

/// A random game from the empty boards (setup stones, choice, turns) as a record.
fn random_record(seed: u64, turns: usize) -> (Record, Vec<Galice>) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut game = Galice::new();
    let (mut actions, mut positions) = (Vec::new(), Vec::new());
    for _ in 0..turns {
        if game.is_over() {
            break;
        }
        let turn = game.play_light_move(&mut rng);
        actions.push(Action::Turn(turn));
        positions.push(game.clone());
    }
    (Record::new(Galice::new(), &actions), positions)
}

/// What a viewer shows after each node: the root's stones, then each node's AB/AW/AE applied.
fn pictures(sgf: &str) -> Vec<HashMap<(u8, u8), Color>> {
    let trees = sgf_parse::go::parse(sgf).unwrap();
    let mut shown = HashMap::new();
    let mut out = Vec::new();
    for node in trees[0].main_variation() {
        for prop in node.properties() {
            use sgf_parse::go::Prop;
            let (points, color) = match prop {
                Prop::AB(ps) => (ps, Some(Color::Black)),
                Prop::AW(ps) => (ps, Some(Color::White)),
                Prop::AE(ps) => (ps, None),
                _ => continue,
            };
            for p in points {
                match color {
                    Some(c) => shown.insert((p.x, p.y), c),
                    None => shown.remove(&(p.x, p.y)),
                };
            }
        }
        out.push(shown.clone());
    }
    out
}

fn picture_of(game: &Galice) -> HashMap<(u8, u8), Color> {
    Spot::all()
        .filter_map(|s| {
            let x = s.column() + if s.side() == Side::Right { SIZE + 1 } else { 0 };
            game.stone(s).map(|c| ((x, s.row() - 1), c))
        })
        .collect()
}

#[test]
fn galice_games_round_trip_and_viewers_see_every_position() {
    for seed in 0..12 {
        let (record, positions) = random_record(seed, 60);
        let sgf = to_sgf(&record, None, &GameInfo::default());
        assert!(is_galice_sgf(&sgf));
        assert!(sgf.contains("SZ[15:7]") && sgf.contains("RU[galice]") && !sgf.contains("RE["), "{sgf}");
        let read = from_sgf(&sgf).unwrap();
        assert_eq!(
            read.entries.iter().map(|e| &e.action).collect::<Vec<_>>(),
            record.entries.iter().map(|e| &e.action).collect::<Vec<_>>()
        );
        let end = read.replay().unwrap();
        assert_eq!(&end, positions.last().unwrap());
        let shown = pictures(&sgf);
        assert_eq!(shown.len(), positions.len() + 1);
        for (picture, position) in shown[1..].iter().zip(&positions) {
            assert_eq!(picture, &picture_of(position), "seed {seed}\n{}", position.diagram());
        }
    }
}

#[test]
fn a_game_from_a_diagram_keeps_its_start() {
    let start = Galice::from_diagram(
        "x . . . . . .   1   . . . . . . .\n\
         . . . . . . .   2   . x . . . . .\n\
         . . o . . . .   3   . . x . . . .\n\
         . . . o . . .   4   . . . . . . .\n\
         . . . . . . .   5   . . . . o . .\n\
         . . . . . . .   6   . . . . . . .\n\
         . . . . . . .   7   . . . . . . .\n\
         Black to move\n",
    )
    .unwrap();
    let record = Record::new(start.clone(), &["Bb2 D4".parse().unwrap()]);
    let info = GameInfo {
        black: Some("Alice".into()),
        white: Some("variago level 3".into()),
        date: Some(sgf_date(1_796_000_000)),
        ..GameInfo::default()
    };
    let sgf = to_sgf(&record, Some("W+R"), &info);
    for property in ["RE[W+R]", "PB[Alice]", "PW[variago level 3]", "DT[2026-11-30]"] {
        assert!(sgf.contains(property), "{property} in {sgf}");
    }
    let read = from_sgf(&sgf).unwrap();
    assert_eq!(read.start, start);
    assert_eq!(read.replay().unwrap(), record.replay().unwrap());
    assert_eq!(pictures(&sgf)[0], picture_of(&start));
}

#[test]
fn bad_galice_sgf_is_refused() {
    use variago_records::RecordError;
    assert!(matches!(from_sgf("(;GM[1]RU[go])"), Err(RecordError::Rules { .. })));
    // a Go record without RU is not an empty Galice game
    assert_eq!(from_sgf("(;GM[1]SZ[9];B[ee];W[cc])").unwrap_err(), RecordError::NotGalice);
    // quoted input is cut to a short excerpt
    let junk = from_sgf(&format!("(;GM[1]RU[galice]GD[{}])", "x".repeat(1 << 20))).unwrap_err().to_string();
    assert!(junk.len() < 300 && junk.contains("xxx…"), "{junk}");
    for not_galice in ["(;GM[1]RU[go])", "(;GM[1];RU[galice])", "RU[galice]", "(;RU[galice]", ""] {
        assert!(!is_galice_sgf(not_galice), "{not_galice}");
    }
    assert!(is_galice_sgf("(;GM[1]RU[ galice ]SZ[15:7])"));
    assert!(matches!(from_sgf("(;GM[1]RU[galice];GT[zz9 !!])"), Err(RecordError::BadValue { node: 2, .. })));
    assert!(matches!(from_sgf("(;GM[1]RU[galice]GD[nonsense])"), Err(RecordError::Rules { .. })));
    assert!(matches!(from_sgf("(;GM[1]RU[galice]"), Err(RecordError::Syntax(_))));
    let long = format!("(;GM[1]RU[galice]{})", ";GT[pass]".repeat(MAX_NODES + 1));
    assert_eq!(from_sgf(&long).unwrap_err(), RecordError::TooLong);
}
