//! Galice games as SGF, so that they are saved and loaded like every other variant's.
//!
//! Layout: one 15x7 Go board (`SZ[15:7]`) holds the left board in columns 1-7 and the right board in
//! columns 9-15, column 8 stays empty. The root has `RU[galice]`, `KM[0]`, the starting position as
//! `AB`/`AW` and, when the game does not start from the empty boards with the setup to make, the
//! starting diagram with its who-moves line in the private property `GD`. Every entry of the record
//! (the pie setup, the colour choice, each turn) is one node with the private property `GT` holding
//! it in the Galice notation, plus `AB`/`AW`/`AE` changing the previous picture into the position
//! after it. Standard viewers therefore show both boards side by side and step through the game
//! position by position (without knowing the rules); variago reads `GT` (and `GD`) and replays
//! them, the pictures being derived.

use std::collections::HashSet;

use sgf_parse::go::{self, Prop};
use sgf_parse::{SgfNode, SgfProp};
use variago_rules::Color;
use variago_rules::galice::{Action, Galice, Record, SIZE, Side, Spot};

use crate::sgf::{GameInfo, RecordError, info_properties, main_line_sgf, root_header, with_main_line};

/// The private property of a node's Galice entry.
pub const ENTRY: &str = "GT";
/// The private property of a starting diagram.
pub const START: &str = "GD";

/// Column of the SGF board where the right-hand board starts.
const RIGHT_OFFSET: u8 = SIZE + 1;

/// The SGF point that pictures a spot.
fn picture(spot: Spot) -> go::Point {
    let x = spot.column() + if spot.side() == Side::Right { RIGHT_OFFSET } else { 0 };
    go::Point { x, y: spot.row() - 1 }
}

/// The AB, AW and AE properties that change the picture of `before` into that of `after`.
fn changes(before: Option<&Galice>, after: &Galice) -> Vec<Prop> {
    let mut sets: [HashSet<go::Point>; 3] = Default::default();
    for spot in Spot::all() {
        let now = after.stone(spot);
        if before.map(|b| b.stone(spot)).unwrap_or(None) != now {
            let set = match now {
                Some(Color::Black) => 0,
                Some(Color::White) => 1,
                None => 2,
            };
            sets[set].insert(picture(spot));
        }
    }
    let [black, white, empty] = sets;
    [(black, Prop::AB as fn(_) -> Prop), (white, Prop::AW), (empty, Prop::AE)]
        .into_iter()
        .filter(|(points, _)| !points.is_empty())
        .map(|(points, prop)| prop(points))
        .collect()
}

/// Writes a Galice record as SGF, with the game's result as `RE` when it is known (`B+4`, `W+R`)
/// and the players, date and comment of `info`.
/// Entries the rules refuse are still written (as text), so that a record is never lost; their
/// pictures stay those of the last legal position.
pub fn to_sgf(record: &Record, result: Option<&str>, info: &GameInfo) -> String {
    let size = Prop::Unknown("SZ".into(), vec![format!("{}:{}", 2 * SIZE + 1, SIZE)]);
    let mut root = root_header(size, "galice");
    root.push(Prop::KM(0.0));
    root.extend(info_properties(result, info));
    root.extend(changes(None, &record.start));
    if record.start != Galice::new() {
        root.push(Prop::Unknown(START.into(), vec![escape(&record.start.diagram())]));
    }
    let mut game = record.start.clone();
    let mut nodes = Vec::new();
    for entry in &record.entries {
        let before = game.clone();
        if game.perform(&entry.action).is_err() {
            game = before.clone();
        }
        let mut props = vec![Prop::Unknown(ENTRY.into(), vec![escape(&entry.action.to_string())])];
        props.extend(changes(Some(&before), &game));
        nodes.push(props);
    }
    main_line_sgf(std::iter::once(root).chain(nodes))
}

/// Whether an SGF text's root says `RU[galice]`: lets tools read a Galice record without being
/// told its variant.
pub fn is_galice_sgf(text: &str) -> bool {
    with_main_line(text, |nodes| {
        Ok(nodes.first().is_some_and(|root| {
            root.properties().any(|p| matches!(p, Prop::RU(rules) if rules.text.trim() == "galice"))
        }))
    })
    .unwrap_or(false)
}

/// Escapes a property value: `]` and `\` take a backslash.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

/// Reads a Galice record written by [`to_sgf`] (or by hand in the same layout): the start from
/// `GD` (or the empty boards), the entries from `GT`; the pictures are not trusted.
pub fn from_sgf(text: &str) -> Result<Record, RecordError> {
    with_main_line(text, from_nodes)
}

/// Reads a Galice record from the nodes of a main line.
fn from_nodes(nodes: &[SgfNode<Prop>]) -> Result<Record, RecordError> {
    // a Go record read as Galice would be an empty Galice game; an RU other than galice is
    // refused below, naming it
    if nodes[0].get_property("RU").is_none() {
        return Err(RecordError::NotGalice);
    }
    let mut start = Galice::new();
    let mut actions = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let number = i + 1;
        for prop in node.properties() {
            let bad = |value: &str| RecordError::BadValue {
                node: number,
                property: prop.identifier(),
                value: value.to_string(),
            };
            match prop {
                Prop::RU(rules) if rules.text.trim() != "galice" => {
                    return Err(RecordError::Rules {
                        value: rules.text.clone(),
                        reason: "a Galice record has RU[galice]".into(),
                    });
                }
                Prop::Unknown(id, values) if id == START && i == 0 => {
                    let value = values.join("");
                    start = Galice::from_diagram(&value).map_err(|e| RecordError::Rules {
                        value: value.clone(),
                        reason: format!("starting diagram: {e}"),
                    })?;
                }
                Prop::Unknown(id, values) if id == ENTRY => {
                    for value in values {
                        actions.push(value.parse::<Action>().map_err(|_| bad(value))?);
                    }
                }
                _ => {}
            }
        }
    }
    Ok(Record::new(start, &actions))
}
