//! The game the engine holds: a single-board variant kept as a [`Record`] (so that `undo`,
//! `printsgf` and a changed komi replay it exactly), a Galice game kept as its start and turns, or
//! a Square Lifeline game kept as its record.

use variago_records::sgf::move_text;
use variago_records::{GameInfo, LifelineRecord, Record, galice_sgf};
use variago_rules::galice::{Action, Galice, Record as GaliceRecord, Turn};
use variago_rules::lifeline::{self, Lifeline, LifelineRules};
use variago_rules::{AnyGame, Board, Color, Game, Geometry, Illegal, Move, Point, VariantSpec};

/// A single-board game: the record of what was played and the position it leads to.
#[derive(Clone, Debug)]
pub struct Single {
    /// The record: rules, size, setup (handicap stones), moves.
    pub record: Record,
    /// The position at its end.
    pub game: AnyGame,
    /// Where in `record.moves` a pass was put in for a player who did not move (GTP lets the
    /// controller play the same colour twice), so that `undo` takes it back with the move.
    inserted_passes: Vec<usize>,
}

impl Single {
    /// The empty board of a variant.
    pub fn new(spec: VariantSpec, geometry: Geometry) -> Self {
        Self::from_record(Record::new(spec, geometry)).expect("an empty record replays")
    }

    /// The position at the end of a record, or the move it refuses.
    pub fn from_record(record: Record) -> Result<Self, String> {
        let game = record.replay().map_err(|e| e.to_string())?;
        Ok(Single { record, game, inserted_passes: Vec::new() })
    }

    /// The board size.
    pub fn geometry(&self) -> Geometry {
        self.record.geometry
    }

    /// The text of a move on this board as GTP answers it (`C3`, `PASS`: GNU Go's capitals,
    /// the only pass some clients, Kigo among them, recognise).
    pub fn name(&self, mv: Move) -> String {
        match mv {
            Move::Pass => "PASS".into(),
            mv => move_text(self.geometry(), mv),
        }
    }

    /// Whether no stone was set up and no move played: handicap commands need it.
    pub fn is_empty(&self) -> bool {
        self.record.moves.is_empty()
            && self.record.setup.stones(Color::Black) + self.record.setup.stones(Color::White) == 0
    }

    /// The position with `color` to move: the current one, or, when the other player is to move,
    /// the one after that player passes (GTP lets the controller play either colour). GTP has no
    /// end of game, the controller decides it: after two passes the game is taken up again
    /// ([`AnyGame::resume`]), as GNU Go and KataGo accept moves after passes.
    pub fn for_player(&self, color: Color) -> Result<AnyGame, Illegal> {
        let mut game = self.game.clone();
        if game.is_over() && !game.resume() {
            return Err(Illegal::GameOver);
        }
        if game.to_move() != color {
            game.play(Move::Pass)?;
            if game.is_over() && !game.resume() {
                return Err(Illegal::GameOver);
            }
        }
        Ok(game)
    }

    /// Plays `mv` for `color` (a pass first if the other player is to move), or refuses it and
    /// changes nothing.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), Illegal> {
        let mut game = self.for_player(color)?;
        game.play(mv)?;
        if self.game.to_move() != color {
            self.inserted_passes.push(self.record.moves.len());
            self.record.moves.push(Move::Pass);
        }
        self.record.moves.push(mv);
        self.game = game;
        Ok(())
    }

    /// The moves as the controller played them, with their colours, first to last: the passes
    /// put in for a colour that moved twice are left out.
    pub fn history(&self) -> Vec<(Color, Move)> {
        let mut color = self.record.initial_position().to_move();
        let mut moves = Vec::with_capacity(self.record.moves.len());
        for (i, &mv) in self.record.moves.iter().enumerate() {
            if !self.inserted_passes.contains(&i) {
                moves.push((color, mv));
            }
            color = color.opponent();
        }
        moves
    }

    /// Takes back the last move (and the pass put in before it, if any).
    pub fn undo(&mut self) -> bool {
        if self.record.moves.pop().is_none() {
            return false;
        }
        if self.inserted_passes.last().is_some_and(|&i| i + 1 == self.record.moves.len()) {
            self.inserted_passes.pop();
            self.record.moves.pop();
        }
        self.record.annotations.split_off(&self.record.moves.len());
        self.game = self.record.replay().expect("a prefix of a legal game is legal");
        true
    }

    /// Notes on `color`'s last move the time its clock showed after it (GTP's `time_left`), so
    /// that the record keeps the clocks (`BL`/`WL`).
    pub fn note_time_left(&mut self, color: Color, seconds: f64) {
        let moves = self.record.moves.len();
        let first = self.record.first_player;
        // moves alternate from the first player: move i is the first player's when i is even
        let last = (0..moves).rev().find(|i| (i % 2 == 0) == (color == first));
        if let Some(index) = last {
            self.record.annotations.entry(index).or_default().time_left = Some(seconds);
        }
    }

    /// Sets up handicap stones on the empty board; White moves next.
    pub fn set_handicap(&mut self, points: &[Point]) {
        let mut setup = Board::new(self.geometry());
        for &p in points {
            setup.place(p, Color::Black);
        }
        self.record.setup = setup;
        self.record.first_player = Color::White;
        self.game = self.record.initial_position();
    }

    /// The same game under other rules (a changed komi): replayed, so the derived state follows.
    pub fn with_spec(&self, spec: VariantSpec) -> Result<Self, String> {
        let replayed = Self::from_record(Record { spec: spec.without_size(), ..self.record.clone() })?;
        Ok(Single { inserted_passes: self.inserted_passes.clone(), ..replayed })
    }
}

/// A Galice game: where it started and the turns since.
#[derive(Clone, Debug)]
pub struct GaliceGame {
    /// The starting position (the empty boards, or a loaded record's diagram).
    pub start: Galice,
    /// The record's entries as played.
    pub actions: Vec<Action>,
    /// The position now.
    pub game: Galice,
}

impl GaliceGame {
    /// A game from a starting position.
    pub fn new(start: Galice) -> Self {
        GaliceGame { game: start.clone(), start, actions: Vec::new() }
    }

    /// The position at the end of a record, or the entry it refuses.
    pub fn from_record(record: &GaliceRecord) -> Result<Self, String> {
        let game = record.replay().map_err(|e| e.to_string())?;
        let actions = record.entries.iter().map(|e| e.action).collect();
        Ok(GaliceGame { start: record.start.clone(), actions, game })
    }

    /// Plays one entry (a turn, or a whole pie setup), or refuses it and changes nothing.
    pub fn perform(&mut self, action: Action) -> Result<(), Illegal> {
        self.game.perform(&action)?;
        self.actions.push(action);
        Ok(())
    }

    /// Plays a turn the search chose.
    pub fn play(&mut self, turn: Turn) -> Result<(), Illegal> {
        self.perform(Action::Turn(turn))
    }

    /// Takes back the last entry.
    pub fn undo(&mut self) -> bool {
        if self.actions.pop().is_none() {
            return false;
        }
        self.game = self.record().replay().expect("a prefix of a legal game is legal");
        true
    }

    /// The game as a record.
    pub fn record(&self) -> GaliceRecord {
        GaliceRecord::new(self.start.clone(), &self.actions)
    }
}

/// A Square Lifeline game: its record (rules, board, turns) and the position it leads to.
#[derive(Clone, Debug)]
pub struct LifelineGame {
    /// What was played.
    pub record: LifelineRecord,
    /// The position now.
    pub game: Lifeline,
}

impl LifelineGame {
    /// The empty board.
    pub fn new(rules: LifelineRules, geometry: Geometry) -> Self {
        LifelineGame { record: LifelineRecord::new(rules, geometry), game: Lifeline::new(rules, geometry) }
    }

    /// The position at the end of a record, or the turn it refuses.
    pub fn from_record(record: LifelineRecord) -> Result<Self, String> {
        let game = record.replay().map_err(|e| e.to_string())?;
        Ok(LifelineGame { record, game })
    }

    /// Plays a turn, or refuses it and changes nothing.
    pub fn play(&mut self, turn: lifeline::Turn) -> Result<(), Illegal> {
        self.game.play(turn)?;
        self.record.turns.push(turn);
        Ok(())
    }

    /// Takes back the last turn.
    pub fn undo(&mut self) -> bool {
        if self.record.turns.pop().is_none() {
            return false;
        }
        self.game = self.record.replay().expect("a prefix of a legal game is legal");
        true
    }
}

/// Either kind of game.
#[derive(Clone, Debug)]
#[expect(clippy::large_enum_variant, reason = "an engine holds one, and never copies it per move")]
pub enum Position {
    /// A single-board variant.
    Single(Single),
    /// Galice.
    Galice(GaliceGame),
    /// Square Lifeline.
    Lifeline(LifelineGame),
}

impl Position {
    /// The game as SGF (Galice in variago's two-board layout), with its result once it is over.
    pub fn to_sgf(&self) -> String {
        match self {
            Position::Single(s) => {
                let mut record = s.record.clone();
                if record.result.is_none() {
                    record.result = s.game.outcome().map(|r| r.to_string());
                }
                record.to_sgf()
            }
            Position::Galice(g) => {
                let result = g.game.outcome().map(|r| r.to_string());
                galice_sgf::to_sgf(&g.record(), result.as_deref(), &GameInfo::default())
            }
            Position::Lifeline(g) => {
                let mut record = g.record.clone();
                record.result = g.game.outcome().map(|r| r.to_string());
                record.to_sgf()
            }
        }
    }
}
