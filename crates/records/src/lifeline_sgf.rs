//! Square Lifeline games as SGF (docs/records.md), read back exactly as written.
//!
//! Layout: a Go board (`GM[1]`, `SZ`), `RU` the Lifeline spec without its size
//! (`RU[lifeline]`, `RU[lifeline:swap=false]`), no komi, the result as `RE` (`B+`, `W+`, `Draw`).
//! Every stone is a move node of its colour, so that any viewer steps through the game: a first
//! turn's pair is **two nodes of the same colour** in a row (`;B[cc];B[ce]`, in point order), a
//! later turn one node. White's swap is a node without a move holding the private property
//! `XS[swap]` (with the node name `N[swap]`, which viewers show). The game starts from the empty
//! board: the rules have no setup.

use sgf_parse::go::{self, Prop};
use sgf_parse::{SgfProp, SimpleText};
use variago_rules::lifeline::{Lifeline, LifelineRules, LifelineSpec, Turn, names_lifeline};
use variago_rules::{Color, Game, Geometry, Point};

use crate::sgf::{
    GameInfo, RecordError, ReplayError, RootInfo, info_properties, main_line_sgf, root_header, sgf_point,
    sgf_text, size_property, with_main_line,
};

/// The private property of White's swap.
pub const SWAP: &str = "XS";

/// A Square Lifeline game record: the rules, the board and the turns of the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct LifelineRecord {
    /// The rules (the board size is `geometry`).
    pub rules: LifelineRules,
    /// The board.
    pub geometry: Geometry,
    /// The turns, from the empty board.
    pub turns: Vec<Turn>,
    /// `RE` as written, if any.
    pub result: Option<String>,
    /// Players, date, the game comment and root properties variago does not use.
    pub info: GameInfo,
}

/// One entry of the main line as read: a stone of a colour, a pass, or the swap.
enum Entry {
    Stone { node: usize, color: Color, point: Point },
    Pass { node: usize, color: Color },
    Swap { node: usize },
}

impl LifelineRecord {
    /// A record of a game from the empty board.
    pub fn new(rules: LifelineRules, geometry: Geometry) -> Self {
        LifelineRecord { rules, geometry, turns: Vec::new(), result: None, info: GameInfo::default() }
    }

    /// The spec as `RU` writes it: the rules without the size.
    pub fn spec(&self) -> LifelineSpec {
        LifelineSpec { rules: self.rules, size: None }
    }

    /// Writes the record as SGF (FF[4]) in the layout of the module documentation.
    pub fn to_sgf(&self) -> String {
        let text = |s: &str| SimpleText { text: s.to_string() };
        let mut root = root_header(size_property(self.geometry), &self.spec().to_string());
        root.extend(info_properties(self.result.as_deref(), &self.info));
        let stone = |color: Color, p: Point| {
            let mv = go::Move::Move(sgf_point(self.geometry, p));
            vec![if color == Color::Black { Prop::B(mv) } else { Prop::W(mv) }]
        };
        let mut nodes = vec![root];
        let mut mover = Color::Black;
        for &turn in &self.turns {
            match turn {
                Turn::Place(p) => nodes.push(stone(mover, p)),
                Turn::Pair(pair) => nodes.extend(pair.points().map(|p| stone(mover, p))),
                Turn::Swap => {
                    nodes.push(vec![Prop::Unknown(SWAP.into(), vec!["swap".into()]), Prop::N(text("swap"))])
                }
                Turn::Pass => nodes.push(vec![if mover == Color::Black {
                    Prop::B(go::Move::Pass)
                } else {
                    Prop::W(go::Move::Pass)
                }]),
            }
            // the swap leaves the side to move as it is (the colour-based game of lifeline.md)
            if turn != Turn::Swap {
                mover = mover.opponent();
            }
        }
        main_line_sgf(nodes)
    }

    /// Reads a record written by [`LifelineRecord::to_sgf`] (or by hand in the same layout). The
    /// turns are read by their shape (a first turn takes two stones of its colour); whether they
    /// are legal is [`LifelineRecord::replay`]'s business.
    pub fn from_sgf(text: &str) -> Result<Self, RecordError> {
        with_main_line(text, Self::from_nodes)
    }

    fn from_nodes(nodes: &[sgf_parse::SgfNode<Prop>]) -> Result<Self, RecordError> {
        let root = RootInfo::read(&nodes[0])?;
        let written = root.rules.unwrap_or_default();
        let spec: LifelineSpec = written.parse().map_err(|e: variago_rules::SpecError| {
            RecordError::Rules { value: written.clone(), reason: e.to_string() }
        })?;
        let geometry = root.size.or(spec.size).unwrap_or_else(|| spec.geometry());
        let mut entries = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            let number = i + 1;
            for prop in node.properties() {
                let id = prop.identifier();
                match prop {
                    Prop::B(mv) | Prop::W(mv) => {
                        let color = if matches!(prop, Prop::B(_)) { Color::Black } else { Color::White };
                        entries.push(match mv {
                            go::Move::Pass => Entry::Pass { node: number, color },
                            go::Move::Move(p) => {
                                let point =
                                    geometry.point(p.x, p.y).ok_or_else(|| RecordError::OffBoard {
                                        node: number,
                                        property: id,
                                        point: sgf_text(p),
                                        geometry,
                                    })?;
                                Entry::Stone { node: number, color, point }
                            }
                        });
                    }
                    Prop::Unknown(id, _) if id == SWAP => entries.push(Entry::Swap { node: number }),
                    Prop::AB(_) | Prop::AW(_) | Prop::AE(_) | Prop::PL(_) => {
                        return Err(RecordError::LifelineSetup { node: number, property: id });
                    }
                    Prop::SZ(_) | Prop::RU(_) | Prop::GM(_) if i > 0 => {
                        return Err(RecordError::MisplacedRootProperty { node: number, property: id });
                    }
                    Prop::Invalid(id, values) if matches!(id.as_str(), "B" | "W" | "SZ" | "GM") => {
                        return Err(RecordError::BadValue {
                            node: number,
                            property: id.clone(),
                            value: values.join("]["),
                        });
                    }
                    _ => {}
                }
            }
        }
        let mut record = LifelineRecord::new(spec.rules, geometry);
        record.result = root.result;
        record.info = root.info;
        record.turns = turns(entries)?;
        Ok(record)
    }

    /// Replays every turn from the empty board; stops at the first the rules refuse.
    pub fn replay(&self) -> Result<Lifeline, ReplayError> {
        let mut game = Lifeline::new(self.rules, self.geometry);
        for (i, &turn) in self.turns.iter().enumerate() {
            let color = game.to_move();
            game.play(turn).map_err(|reason| ReplayError {
                number: i + 1,
                color,
                mv: turn.to_text(self.geometry),
                reason,
            })?;
        }
        Ok(game)
    }
}

/// The turns of the entries, read by their shape: the colours alternate from Black, the swap
/// keeps the side to move, and each colour's first turn is two stones of that colour in a row.
fn turns(entries: Vec<Entry>) -> Result<Vec<Turn>, RecordError> {
    let mut turns = Vec::new();
    let mut mover = Color::Black;
    let mut had_first_turn = [false; 2];
    let mut entries = entries.into_iter();
    let out_of_turn = |node, found, expected| RecordError::OutOfTurn { node, found, expected };
    while let Some(entry) = entries.next() {
        let turn = match entry {
            Entry::Swap { node } => {
                // the rules judge a swap out of its place; the layout only needs it to be White's
                if mover != Color::White {
                    return Err(out_of_turn(node, Color::White, mover));
                }
                turns.push(Turn::Swap);
                continue;
            }
            Entry::Pass { node, color } | Entry::Stone { node, color, .. } if color != mover => {
                return Err(out_of_turn(node, color, mover));
            }
            Entry::Pass { .. } => Turn::Pass,
            Entry::Stone { point, .. } if had_first_turn[mover as usize] => Turn::Place(point),
            Entry::Stone { node, point, .. } => match entries.next() {
                Some(Entry::Stone { color, point: second, .. }) if color == mover => {
                    Turn::pair(point, second)
                }
                _ => return Err(RecordError::UnpairedFirstTurn { node, color: mover }),
            },
        };
        had_first_turn[mover as usize] = true;
        turns.push(turn);
        mover = mover.opponent();
    }
    Ok(turns)
}

/// Whether an SGF text's root names Square Lifeline in `RU`: lets tools read a Lifeline record
/// without being told its variant.
pub fn is_lifeline_sgf(text: &str) -> bool {
    with_main_line(text, |nodes| {
        Ok(nodes.first().is_some_and(|root| {
            root.properties().any(|p| matches!(p, Prop::RU(rules) if names_lifeline(&rules.text)))
        }))
    })
    .unwrap_or(false)
}
