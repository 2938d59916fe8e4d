//! Square Lifeline games through SGF: a record written by hand in the documented layout reads as
//! the turns it means, random games round-trip, and every malformed layout gets its reason.

use rand::SeedableRng;
use rand::rngs::SmallRng;
use variago_records::LifelineRecord;
use variago_records::lifeline_sgf::is_lifeline_sgf;
use variago_rules::lifeline::{Lifeline, LifelineRules, Turn};
use variago_rules::{Color, Game, Geometry};

fn five() -> Geometry {
    Geometry::square(5).unwrap()
}

fn turn(text: &str) -> Turn {
    Turn::parse(text, five()).unwrap()
}

/// lifeline.md's worked example, written by hand: Black C2+C4, White B3+D3, Black C3 (whose own
/// group then dies), then White A1.
const WORKED: &str = "(;GM[1]FF[4]SZ[5]RU[lifeline]PB[ann]PW[bob]RE[W+];B[cd];B[cb];W[bc];W[dc];B[cc];W[ae])";

#[test]
fn a_hand_written_record_reads_as_its_turns_and_replays() {
    assert!(is_lifeline_sgf(WORKED));
    let record = LifelineRecord::from_sgf(WORKED).unwrap();
    assert_eq!(record.geometry, five());
    assert_eq!(record.rules, LifelineRules::default());
    assert_eq!(record.turns, ["C2+C4", "B3+D3", "C3", "A1"].map(turn));
    assert_eq!((record.info.black.as_deref(), record.result.as_deref()), (Some("ann"), Some("W+")));
    let game = record.replay().unwrap();
    // C3 joined Black's stones into its only group, which died: no Black stone is left
    assert_eq!(game.board().stones(Color::Black), 0);
    assert_eq!(game.outcome().map(|r| r.to_string()), Some("W+".to_string()));
}

#[test]
fn the_swap_and_the_options_are_written_and_read_back() {
    let sgf = "(;GM[1]FF[4]SZ[5]RU[lifeline:draw=none];B[cd];B[cb];XS[swap]N[swap];W[bc];W[dc];B[aa])";
    let record = LifelineRecord::from_sgf(sgf).unwrap();
    assert!(!record.rules.own_position_draw && record.rules.swap);
    assert_eq!(record.turns, ["C2+C4", "swap", "B3+D3", "A5"].map(turn));
    let written = record.to_sgf();
    assert!(written.contains(r"RU[lifeline\:draw=none]"), "{written}");
    assert!(written.contains(";B[cb];B[cd];XS[swap]N[swap];W[bc];W[dc];B[aa])"), "{written}");
    assert_eq!(LifelineRecord::from_sgf(&written).unwrap(), record);
}

#[test]
fn random_games_round_trip() {
    for seed in 0..20 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let rules = LifelineRules { swap: seed % 2 == 0, own_position_draw: true };
        let geometry = Geometry::new(4 + seed as u32 % 3, 5).unwrap();
        let mut game = Lifeline::new(rules, geometry);
        let mut record = LifelineRecord::new(rules, geometry);
        while !game.is_over() && record.turns.len() < 60 {
            record.turns.push(game.play_light_move(&mut rng));
        }
        let read = LifelineRecord::from_sgf(&record.to_sgf()).unwrap();
        assert_eq!(read, record, "seed {seed}");
        assert_eq!(read.replay().unwrap().board().hash(), game.board().hash(), "seed {seed}");
    }
}

#[test]
fn malformed_layouts_are_refused_with_the_reason() {
    let error = |sgf: &str| LifelineRecord::from_sgf(sgf).unwrap_err().to_string();
    let lone = error("(;GM[1]SZ[5]RU[lifeline];B[cd];W[bc];W[dc])");
    assert_eq!(lone, "node 2: Black's first turn is two stones, in two Black nodes in a row");
    let setup = error("(;GM[1]SZ[5]RU[lifeline]AB[aa])");
    assert!(setup.contains("starts from the empty board"), "{setup}");
    let early_swap = error("(;GM[1]SZ[5]RU[lifeline];XS[swap])");
    assert!(early_swap.contains("node 2: White moves but Black is to play"), "{early_swap}");
    let out_of_turn = error("(;GM[1]SZ[5]RU[lifeline];B[cd];B[cb];B[aa])");
    assert!(out_of_turn.contains("node 4: Black moves but White is to play"), "{out_of_turn}");
    let not_lifeline = error("(;GM[1]SZ[5]RU[go];B[cd])");
    assert!(not_lifeline.contains("'go' is not Square Lifeline"), "{not_lifeline}");
    assert!(error("(;GM[1]SZ[5]RU[lifeline];B[cd];B[zz])").contains("off the 5x5 board"));
    assert!(!is_lifeline_sgf("(;GM[1]SZ[5]RU[incursion];B[cd])"));
}

#[test]
fn an_illegal_turn_is_reported_by_the_replay_with_its_reason() {
    // the adjacent pair forms Black's only group, which dies at once and changes nothing
    let record = LifelineRecord::from_sgf("(;GM[1]SZ[5]RU[lifeline];B[cc];B[cd])").unwrap();
    let refused = record.replay().unwrap_err().to_string();
    assert!(refused.starts_with("move 1 (Black C3+C2) is illegal"), "{refused}");
    let pass = LifelineRecord::from_sgf("(;GM[1]SZ[5]RU[lifeline];B[cd];B[cb];W[])").unwrap();
    assert!(pass.replay().unwrap_err().to_string().contains("there is no passing in Square Lifeline"));
}
