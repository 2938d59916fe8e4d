//! SGF for the single-board variants, read and written with the `sgf-parse` crate.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt;

use sgf_parse::go::{self, Prop};
use sgf_parse::{PropertyType, SgfNode, SgfProp, SimpleText};
use variago_rules::board::RegionOwner;
use variago_rules::{
    AnyGame, Board, Color, Game, Geometry, GeometryError, HalfPoints, Illegal, Move, Piece, Point,
    VariantSpec, excerpt,
};

use crate::scan;
pub use crate::scan::{MAX_NESTING, MAX_NODES, MAX_TEXT_BYTES};

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RecordError {
    /// Not SGF at all, or truncated.
    #[error("malformed SGF: {0}")]
    Syntax(String),
    /// A file without a game.
    #[error("the SGF holds no game")]
    Empty,
    /// `GM` other than 1.
    #[error("GM[{0}] is not Go (variago reads GM[1])")]
    NotGo(i64),
    /// A property whose value makes no sense.
    #[error("node {node}: bad value for {property}[{}]", excerpt(.value))]
    BadValue {
        /// 1-based node number along the main line.
        node: usize,
        /// The property identifier.
        property: String,
        /// The value as written.
        value: String,
    },
    /// `SZ` outside the sizes variago plays, said with the range rather than as a bare bad value.
    #[error("node 1: SZ[{}]: {reason}", excerpt(.value))]
    BadSize {
        /// The value as written.
        value: String,
        /// Why the size is refused (its range).
        reason: GeometryError,
    },
    /// A point beyond the board.
    #[error("node {node}: {property} point '{}' is off the {geometry} board", excerpt(.point))]
    OffBoard {
        /// 1-based node number along the main line.
        node: usize,
        /// The property identifier.
        property: String,
        /// The point as written in SGF.
        point: String,
        /// The board size.
        geometry: Geometry,
    },
    /// A root property (size, rules, komi) after the first node.
    #[error("node {node}: {property} belongs in the first node")]
    MisplacedRootProperty {
        /// 1-based node number along the main line.
        node: usize,
        /// The property identifier.
        property: String,
    },
    /// Setup stones after moves were played: the history would not be a game any more.
    #[error("node {node}: setup ({property}) after the first move is not supported")]
    SetupAfterMoves {
        /// 1-based node number along the main line.
        node: usize,
        /// The property identifier.
        property: String,
    },
    /// Two moves in one node, or a colour out of turn.
    #[error("node {node}: {found} moves but {expected} is to play")]
    OutOfTurn {
        /// 1-based node number along the main line.
        node: usize,
        /// The colour that moved.
        found: Color,
        /// The colour whose turn it was.
        expected: Color,
    },
    /// More nodes than [`MAX_NODES`].
    #[error("the main line is longer than {MAX_NODES} nodes")]
    TooLong,
    /// A Galice reader given a record whose root has no `RU` (which means Go).
    #[error("not a Galice record: the root has no RU[galice] (a record without RU is Go)")]
    NotGalice,
    /// A Square Lifeline record with setup properties: its games start from the empty board.
    #[error("node {node}: {property}: a Square Lifeline record starts from the empty board (no setup)")]
    LifelineSetup {
        /// 1-based node number along the main line.
        node: usize,
        /// The property identifier.
        property: String,
    },
    /// A Square Lifeline first turn written as one stone: a first turn is two stones of the
    /// mover's colour, in two nodes in a row.
    #[error("node {node}: {color}'s first turn is two stones, in two {color} nodes in a row")]
    UnpairedFirstTurn {
        /// 1-based node number of the turn's first stone.
        node: usize,
        /// The colour whose first turn it is.
        color: Color,
    },
    /// `RU` is not a variant spec.
    #[error("RU[{}]: {reason}", excerpt(.value))]
    Rules {
        /// The value as written.
        value: String,
        /// Why it is not a spec.
        reason: String,
    },
}

/// A move of a record that the rules refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} ({color} {mv}) is illegal: {reason}")]
pub struct ReplayError {
    /// 1-based move number.
    pub number: usize,
    /// The colour that played it.
    pub color: Color,
    /// The move as a GTP vertex or `pass`.
    pub mv: String,
    /// Why it is illegal.
    pub reason: Illegal,
}

/// A game record of a single-board variant: rules, size, setup, the moves of the main line.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    /// The variant and its options (komi included, size not).
    pub spec: VariantSpec,
    /// The board size.
    pub geometry: Geometry,
    /// The board after the setup properties (empty when there are none).
    pub setup: Board,
    /// Who plays the first move.
    pub first_player: Color,
    /// The moves, colours alternating from `first_player`.
    pub moves: Vec<Move>,
    /// `RE` as written, if any.
    pub result: Option<String>,
    /// `RU` as written when it names a rule set that counts territory (`Japanese`, `Korean`):
    /// variago plays it as `go` and counts by area, which programs should say.
    pub territory_rules: Option<String>,
    /// Players, date, the game comment and root properties variago does not use.
    pub info: GameInfo,
    /// Comments and clocks of the moves, by move index (0 for the first move).
    pub annotations: BTreeMap<usize, Annotation>,
    /// The stones agreed dead when the game was counted ([`DEAD`]), or `None` when the record
    /// does not say, and every stone on the final board counts as alive.
    pub dead: Option<BTreeSet<Point>>,
}

/// What a record says about the game besides its moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// `PB`: Black's name.
    pub black: Option<String>,
    /// `PW`: White's name.
    pub white: Option<String>,
    /// `DT`: when the game was played (SGF writes `YYYY-MM-DD`).
    pub date: Option<String>,
    /// `C` of the root node.
    pub comment: Option<String>,
    /// Game-information and unknown root properties variago does not interpret (event, place,
    /// ranks, other programs' private data), as sgf-parse reads them (unknown ones with their
    /// values escaped as SGF writes them): kept so that a record read and written again loses
    /// nothing.
    pub other: Vec<Prop>,
}

/// A move's comment and the mover's clock after it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotation {
    /// `C` of the move's node.
    pub comment: Option<String>,
    /// `BL`/`WL`: seconds left on the mover's clock after the move.
    pub time_left: Option<f64>,
}

/// The private property listing the set-up points that hold kings (Excursion Go); the colour
/// comes from `AB`/`AW`. Viewers that do not know it show those kings as stones.
pub const KINGS: &str = "XK";

/// The private property of the last node listing the stones agreed dead when the game was
/// counted (present, possibly empty, whenever the record says which stones were dead). `TB`/`TW`
/// beside it give the territory counted with those stones removed (their points included), which
/// viewers show.
pub const DEAD: &str = "XD";

/// The empty points that only `color`'s stones border on a board: its territory when counting.
pub fn territory(board: &Board, color: Color) -> impl Iterator<Item = Point> + '_ {
    board
        .geometry()
        .points()
        .filter(move |&p| board.color(p).is_none() && board.region(p, None).owner == RegionOwner::Only(color))
}

/// The position counted at the end: the final board without the dead stones, in the same variant
/// (so that its own score sheet and komi apply).
pub fn without_dead(spec: &VariantSpec, board: &Board, dead: &BTreeSet<Point>) -> AnyGame {
    let mut cleared = board.clone();
    for &p in dead {
        cleared.set(p, None);
    }
    AnyGame::from_setup(spec, cleared, Color::Black)
}

/// Rule-set names other programs write in `RU` for standard Go; variago plays them as `go` (area
/// scoring, positional superko): the board positions they lead to are the same.
const STANDARD_GO_RULESETS: &[&str] =
    &["chinese", "japanese", "korean", "aga", "nz", "new zealand", "tromp-taylor", "ing", "goe", "cgos"];

/// The rule sets among [`STANDARD_GO_RULESETS`] that count territory (surrounded points and
/// prisoners) where variago counts area: a score can differ, so it is noted, not silently changed.
const TERRITORY_RULESETS: &[&str] = &["japanese", "korean"];

impl Record {
    /// A record of a game from the empty board.
    pub fn new(spec: VariantSpec, geometry: Geometry) -> Self {
        Record {
            spec: spec.without_size(),
            geometry,
            setup: Board::new(geometry),
            first_player: Color::Black,
            moves: Vec::new(),
            result: None,
            territory_rules: None,
            info: GameInfo::default(),
            annotations: BTreeMap::new(),
            dead: None,
        }
    }

    /// Reads the first game of an SGF collection.
    pub fn from_sgf(text: &str) -> Result<Self, RecordError> {
        with_main_line(text, Self::from_nodes)
    }

    /// Reads a record from the nodes of a main line.
    fn from_nodes(nodes: &[SgfNode<Prop>]) -> Result<Self, RecordError> {
        let root_props = RootProperties::read(&nodes[0])?;
        let geometry = root_props.geometry;
        let mut record = Record::new(root_props.spec, geometry);
        record.result = root_props.result;
        record.territory_rules = root_props.territory_rules;
        record.info = root_props.info;
        let mut first_player = None;
        let mut next = None;
        for (i, node) in nodes.iter().enumerate() {
            let number = i + 1;
            let point = |property: &str, p: &go::Point| -> Result<Point, RecordError> {
                geometry.point(p.x, p.y).ok_or_else(|| RecordError::OffBoard {
                    node: number,
                    property: property.to_string(),
                    point: sgf_text(p),
                    geometry,
                })
            };
            let mut kings: Vec<&str> = Vec::new();
            let mut dead: Option<Vec<&str>> = None;
            let mut note = Annotation::default();
            for prop in node.properties() {
                let id = prop.identifier();
                let setup = |piece: Option<Piece>, points: &HashSet<go::Point>, record: &mut Record| {
                    if !record.moves.is_empty() {
                        return Err(RecordError::SetupAfterMoves { node: number, property: id.clone() });
                    }
                    for p in points {
                        let p = point(&id, p)?;
                        record.setup.set(p, piece);
                    }
                    Ok(())
                };
                match prop {
                    Prop::AB(points) => setup(Some(Piece::stone(Color::Black)), points, &mut record)?,
                    Prop::AW(points) => setup(Some(Piece::stone(Color::White)), points, &mut record)?,
                    Prop::AE(points) => setup(None, points, &mut record)?,
                    Prop::Unknown(id, values) if id == KINGS => {
                        if !record.moves.is_empty() {
                            return Err(RecordError::SetupAfterMoves { node: number, property: id.clone() });
                        }
                        kings.extend(values.iter().map(String::as_str));
                    }
                    Prop::Unknown(id, values) if id == DEAD => {
                        dead.get_or_insert_default()
                            .extend(values.iter().map(String::as_str).filter(|v| !v.is_empty()));
                    }
                    Prop::PL(color) => {
                        if !record.moves.is_empty() {
                            return Err(RecordError::SetupAfterMoves { node: number, property: id });
                        }
                        first_player = Some(sgf_color(color));
                    }
                    Prop::B(mv) | Prop::W(mv) => {
                        let color = if matches!(prop, Prop::B(_)) { Color::Black } else { Color::White };
                        let expected = *next.get_or_insert(*first_player.get_or_insert(color));
                        if color != expected {
                            return Err(RecordError::OutOfTurn { node: number, found: color, expected });
                        }
                        next = Some(color.opponent());
                        record.moves.push(match mv {
                            go::Move::Pass => Move::Pass,
                            go::Move::Move(p) if is_tt_pass(geometry, p) => Move::Pass,
                            go::Move::Move(p) => Move::Place(point(&id, p)?),
                        });
                    }
                    Prop::SZ(_) | Prop::RU(_) | Prop::KM(_) | Prop::GM(_) if i > 0 => {
                        return Err(RecordError::MisplacedRootProperty { node: number, property: id });
                    }
                    Prop::C(text) if i > 0 => note.comment = Some(text.text.clone()),
                    Prop::BL(seconds) | Prop::WL(seconds) => note.time_left = Some(*seconds),
                    Prop::Invalid(id, values) if matters(id) => {
                        return Err(RecordError::BadValue {
                            node: number,
                            property: id.clone(),
                            value: values.join("]["),
                        });
                    }
                    _ => {}
                }
            }
            if note != Annotation::default() && !record.moves.is_empty() {
                record.annotations.insert(record.moves.len() - 1, note);
            }
            if let Some(values) = dead {
                let mut points = BTreeSet::new();
                for value in values {
                    let bad =
                        || RecordError::BadValue { node: number, property: DEAD.into(), value: value.into() };
                    points.insert(point(DEAD, &value.parse::<go::Point>().map_err(|_| bad())?)?);
                }
                record.dead = Some(points);
            }
            for value in kings {
                let bad =
                    || RecordError::BadValue { node: number, property: KINGS.into(), value: value.into() };
                let p = value.parse::<go::Point>().map_err(|_| bad())?;
                let p = point(KINGS, &p)?;
                let piece = record.setup.piece(p).ok_or_else(bad)?;
                record.setup.set(p, Some(Piece { king: true, ..piece }));
            }
        }
        record.first_player = first_player.unwrap_or(Color::Black);
        Ok(record)
    }

    /// The position before the first move.
    pub fn initial_position(&self) -> AnyGame {
        AnyGame::from_setup(&self.spec, self.setup.clone(), self.first_player)
    }

    /// Replays every move from the setup, so that every piece of derived state (superko history,
    /// restrictions, passes) is exactly what play would give; stops at the first illegal move.
    /// Moves after two passes in a row take the game up again ([`AnyGame::resume`]): a GTP
    /// controller may play on, and so may players settling a dispute.
    pub fn replay(&self) -> Result<AnyGame, ReplayError> {
        self.replay_with(|_, _| {})
    }

    /// Like [`Record::replay`], calling `after_move(number, position)` after each move.
    pub fn replay_with(&self, mut after_move: impl FnMut(usize, &AnyGame)) -> Result<AnyGame, ReplayError> {
        let mut game = self.initial_position();
        for (i, &mv) in self.moves.iter().enumerate() {
            if game.is_over() {
                game.resume();
            }
            let color = game.to_move();
            game.play(mv).map_err(|reason| ReplayError {
                number: i + 1,
                color,
                mv: move_text(self.geometry, mv),
                reason,
            })?;
            after_move(i + 1, &game);
        }
        Ok(game)
    }

    /// Writes the record as SGF (FF[4]).
    pub fn to_sgf(&self) -> String {
        let mut root = root_header(size_property(self.geometry), &self.spec.without_size().to_string());
        root.push(Prop::KM(self.spec.komi().as_f64()));
        for color in [Color::Black, Color::White] {
            let stones: HashSet<go::Point> = self
                .geometry
                .points()
                .filter(|&p| self.setup.color(p) == Some(color))
                .map(|p| sgf_point(self.geometry, p))
                .collect();
            if !stones.is_empty() {
                root.push(if color == Color::Black { Prop::AB(stones) } else { Prop::AW(stones) });
            }
        }
        let kings: Vec<String> = self
            .geometry
            .points()
            .filter(|&p| self.setup.piece(p).is_some_and(|piece| piece.king))
            .map(|p| sgf_text(&sgf_point(self.geometry, p)))
            .collect();
        if !kings.is_empty() {
            root.push(Prop::Unknown(KINGS.to_string(), kings));
        }
        let has_setup = self.setup.stones(Color::Black) + self.setup.stones(Color::White) > 0;
        if has_setup || self.first_player == Color::White {
            root.push(Prop::PL(match self.first_player {
                Color::Black => sgf_parse::Color::Black,
                Color::White => sgf_parse::Color::White,
            }));
        }
        root.extend(info_properties(self.result.as_deref(), &self.info));
        let mut color = self.first_player;
        let move_nodes: Vec<Vec<Prop>> = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| {
                let sgf_move = match mv {
                    Move::Pass => go::Move::Pass,
                    Move::Place(p) => go::Move::Move(sgf_point(self.geometry, p)),
                };
                let mut props =
                    vec![if color == Color::Black { Prop::B(sgf_move) } else { Prop::W(sgf_move) }];
                if let Some(note) = self.annotations.get(&i) {
                    if let Some(seconds) = note.time_left {
                        props.push(if color == Color::Black { Prop::BL(seconds) } else { Prop::WL(seconds) });
                    }
                    if let Some(comment) = &note.comment {
                        props.push(Prop::C(sgf_parse::Text { text: comment.clone() }));
                    }
                }
                color = color.opponent();
                props
            })
            .collect();
        let mut nodes: Vec<Vec<Prop>> = std::iter::once(root).chain(move_nodes).collect();
        if let Some(last) = nodes.last_mut() {
            last.extend(self.counting_properties());
        }
        main_line_sgf(nodes)
    }

    /// The last node's [`DEAD`] and `TB`/`TW` when the record says which stones were dead: the
    /// territory of the final board without them (none if the moves do not replay).
    fn counting_properties(&self) -> Vec<Prop> {
        let (Some(dead), Ok(end)) = (&self.dead, self.replay()) else { return Vec::new() };
        let counted = without_dead(&self.spec, end.board(), dead);
        let board = counted.board();
        let mut points: Vec<String> = dead.iter().map(|&p| sgf_text(&sgf_point(self.geometry, p))).collect();
        if points.is_empty() {
            // an empty list, as SGF writes one: `XD[]`
            points.push(String::new());
        }
        let mut props = vec![Prop::Unknown(DEAD.into(), points)];
        for color in [Color::Black, Color::White] {
            let points: HashSet<go::Point> =
                territory(board, color).map(|p| sgf_point(self.geometry, p)).collect();
            if !points.is_empty() {
                props.push(if color == Color::Black { Prop::TB(points) } else { Prop::TW(points) });
            }
        }
        props
    }
}

/// The first root properties of every variago record, in this order: `GM[1]`, `FF[4]`, `CA`, `AP`,
/// the size property given and `RU` with `rules`.
pub(crate) fn root_header(size: Prop, rules: &str) -> Vec<Prop> {
    let text = |s: &str| SimpleText { text: s.to_string() };
    vec![
        Prop::GM(1),
        Prop::FF(4),
        Prop::CA(text("UTF-8")),
        Prop::AP((text("variago"), text(env!("CARGO_PKG_VERSION")))),
        size,
        Prop::RU(text(rules)),
    ]
}

/// The game-information root properties every variago record carries alike, Galice's included:
/// result, players, date, game comment and the foreign properties kept from a record read.
pub(crate) fn info_properties(result: Option<&str>, info: &GameInfo) -> Vec<Prop> {
    let mut props = Vec::new();
    props.extend(result.map(|r| Prop::RE(SimpleText { text: r.to_string() })));
    let named = [(&info.black, "PB"), (&info.white, "PW"), (&info.date, "DT")];
    for (value, id) in named {
        if let Some(value) = value {
            props.push(Prop::new(id.to_string(), vec![value.clone()]));
        }
    }
    if let Some(comment) = &info.comment {
        props.push(Prop::C(sgf_parse::Text { text: comment.clone() }));
    }
    props.extend(info.other.iter().cloned());
    props
}

/// The `DT` value (`YYYY-MM-DD`, UTC) of a moment given in seconds since the Unix epoch, for the
/// programs that know when a game was played (matches, the server).
pub fn sgf_date(unix_seconds: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(unix_seconds)
        .map(|moment| moment.date().to_string())
        .unwrap_or_default()
}

/// Size, rules, komi and result from the root node.
struct RootProperties {
    geometry: Geometry,
    spec: VariantSpec,
    result: Option<String>,
    territory_rules: Option<String>,
    info: GameInfo,
}

impl RootProperties {
    fn read(root: &SgfNode<Prop>) -> Result<Self, RecordError> {
        let RootInfo { size, rules, komi, result, info } = RootInfo::read(root)?;
        let mut spec = match &rules {
            Some(rules) => parse_rules(rules)?,
            None => "go".parse().expect("go is a variant"),
        };
        let territory_rules = rules
            .map(|r| r.trim().to_string())
            .filter(|r| TERRITORY_RULESETS.contains(&r.to_ascii_lowercase().as_str()));
        if let Some(komi) = komi {
            spec.set_komi(komi);
        }
        let geometry = match (size, spec.size) {
            (Some(sz), _) => sz,
            (None, Some(from_spec)) => from_spec,
            (None, None) => Geometry::square(19).expect("19x19 is a board"),
        };
        Ok(RootProperties { geometry, spec: spec.without_size(), result, territory_rules, info })
    }
}

/// The root properties every record reads alike, the rules left as written for the variant's
/// own reader (Square Lifeline's spec is not a [`VariantSpec`]).
pub(crate) struct RootInfo {
    /// `SZ`, if given.
    pub size: Option<Geometry>,
    /// `RU` as written.
    pub rules: Option<String>,
    /// `KM`, if given.
    pub komi: Option<HalfPoints>,
    /// `RE` as written.
    pub result: Option<String>,
    /// Players, date, comment and the properties kept as they are.
    pub info: GameInfo,
}

impl RootInfo {
    pub(crate) fn read(root: &SgfNode<Prop>) -> Result<Self, RecordError> {
        let bad = |property: &str, value: String| RecordError::BadValue {
            node: 1,
            property: property.into(),
            value,
        };
        let mut read =
            RootInfo { size: None, rules: None, komi: None, result: None, info: GameInfo::default() };
        let info = &mut read.info;
        for prop in root.properties() {
            match prop {
                Prop::GM(1) => {}
                Prop::GM(other) => return Err(RecordError::NotGo(*other)),
                Prop::SZ((w, h)) => {
                    let value = if w == h { w.to_string() } else { format!("{w}:{h}") };
                    let geometry = Geometry::new(*w as u32, *h as u32);
                    read.size = Some(geometry.map_err(|reason| RecordError::BadSize { value, reason })?)
                }
                Prop::RU(rules) => read.rules = Some(rules.text.clone()),
                Prop::KM(km) => {
                    read.komi =
                        Some(HalfPoints::parse(&km.to_string()).ok_or_else(|| bad("KM", km.to_string()))?)
                }
                Prop::RE(re) => read.result = Some(re.text.clone()),
                Prop::PB(name) => info.black = Some(name.text.clone()),
                Prop::PW(name) => info.white = Some(name.text.clone()),
                Prop::DT(date) => info.date = Some(date.text.clone()),
                Prop::C(comment) => info.comment = Some(comment.text.clone()),
                // kept only under a well-formed identifier, which writing it back cannot garble
                Prop::Unknown(id, values)
                    if is_identifier(id)
                        && id != KINGS
                        && id != DEAD
                        && !WRITTEN_BY_VARIAGO.contains(&id.as_str()) =>
                {
                    // sgf-parse writes unknown values as they are: keep them escaped for SGF
                    info.other.push(Prop::Unknown(id.clone(), values.iter().map(|v| escaped(v)).collect()))
                }
                _ if prop.property_type() == Some(PropertyType::GameInfo) => info.other.push(prop.clone()),
                _ => {}
            }
        }
        Ok(read)
    }
}

/// Reads `RU`: a variant spec, or a standard Go rule-set name.
fn parse_rules(text: &str) -> Result<VariantSpec, RecordError> {
    let trimmed = text.trim();
    if STANDARD_GO_RULESETS.contains(&trimmed.to_ascii_lowercase().as_str()) {
        return Ok("go".parse().expect("go is a variant"));
    }
    trimmed.parse().map_err(|e: variago_rules::SpecError| RecordError::Rules {
        value: text.to_string(),
        reason: e.to_string(),
    })
}

/// Root properties variago writes itself (the writer puts `SZ` as an unknown property to control
/// its spelling), which reading must not keep as foreign ones.
const WRITTEN_BY_VARIAGO: &[&str] = &["SZ"];

/// A value as SGF writes it between brackets: `]` and `\` escaped.
fn escaped(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

/// Whether SGF's grammar allows `id` as a property identifier: upper-case letters, at least one.
fn is_identifier(id: &str) -> bool {
    !id.is_empty() && id.chars().all(|c| c.is_ascii_uppercase())
}

/// Properties whose invalid values must stop the reading (the rest can be ignored safely).
fn matters(id: &str) -> bool {
    matches!(id, "B" | "W" | "AB" | "AW" | "AE" | "PL" | "SZ" | "KM" | "GM")
}

/// Reads SGF text's first game and hands the nodes of its main line to `read`, after the checks
/// every reader needs against hostile files (size, nesting, length; see [`crate::scan`]). Each
/// node is parsed on its own, so that no tree deeper than one node is ever built.
pub(crate) fn with_main_line<T>(
    text: &str,
    read: impl FnOnce(&[SgfNode<Prop>]) -> Result<T, RecordError>,
) -> Result<T, RecordError> {
    let main_line = scan::main_line(text)?;
    let nodes = main_line
        .nodes
        .iter()
        .map(|span| {
            let parsed = go::parse(&format!("({})", &main_line.text[span.clone()]));
            let at = |e: sgf_parse::SgfParseError| {
                RecordError::Syntax(format!("{}: {e}", scan::position(&main_line.text, span.start)))
            };
            let node = parsed.map_err(at)?.pop();
            node.ok_or(RecordError::Empty)
        })
        .collect::<Result<Vec<_>, _>>()?;
    read(&nodes)
}

/// A main line as SGF: the nodes' properties in order, written flat so that no tree is built
/// (sgf-parse would print and drop one recursively).
pub(crate) fn main_line_sgf(nodes: impl IntoIterator<Item = Vec<Prop>>) -> String {
    let mut sgf = String::from("(");
    for props in nodes {
        sgf.push(';');
        for prop in props {
            sgf.push_str(&prop.to_string());
        }
    }
    sgf.push_str(")\n");
    sgf
}

/// `SZ[n]` for square boards (FF[4] forbids `n:n` there), `SZ[w:h]` otherwise.
pub(crate) fn size_property(geometry: Geometry) -> Prop {
    let (w, h) = (geometry.width(), geometry.height());
    let value = if w == h { w.to_string() } else { format!("{w}:{h}") };
    Prop::Unknown("SZ".to_string(), vec![value])
}

fn sgf_color(c: &sgf_parse::Color) -> Color {
    match c {
        sgf_parse::Color::Black => Color::Black,
        sgf_parse::Color::White => Color::White,
    }
}

fn is_tt_pass(geometry: Geometry, p: &go::Point) -> bool {
    geometry.width() <= 19 && geometry.height() <= 19 && p.x == 19 && p.y == 19
}

/// A point as SGF writes it (`aa`; columns and rows past z are `A`..`Z`).
pub(crate) fn sgf_text(p: &go::Point) -> String {
    let letter = |i: u8| if i < 26 { (b'a' + i) as char } else { (b'A' + i - 26) as char };
    format!("{}{}", letter(p.x), letter(p.y))
}

pub(crate) fn sgf_point(geometry: Geometry, p: Point) -> go::Point {
    let (x, y) = geometry.coords(p);
    go::Point { x, y }
}

/// A move as GTP writes it: a vertex or `pass`.
pub fn move_text(geometry: Geometry, mv: Move) -> String {
    match mv {
        Move::Pass => "pass".to_string(),
        Move::Place(p) => geometry.vertex(p).to_string(),
    }
}

/// A move written as GTP writes it (the inverse of [`move_text`]): a vertex on this board, or
/// `pass` in any case.
pub fn move_from_text(geometry: Geometry, text: &str) -> Result<Move, GeometryError> {
    if text.eq_ignore_ascii_case("pass") {
        Ok(Move::Pass)
    } else {
        geometry.parse_vertex(text).map(Move::Place)
    }
}

impl fmt::Display for Record {
    /// The record as SGF.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sgf())
    }
}
