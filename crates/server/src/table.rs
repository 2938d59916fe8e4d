//! One game as the server keeps it: its settings, seats, the rules engine's position, the
//! clocks and the phase, all derived from its events. The same [`Table::apply`] runs when an
//! event is committed and when a game is loaded after a restart, so both give the same state.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use variago_records::GameInfo;
use variago_records::sgf::sgf_date;
use variago_rules::{Color, Ending, GameResult, Geometry, Point, VariantSpec};

use crate::clock::{Clock, TimeControl};
use crate::error::ApiError;
use crate::position::{BorderlineView, GALICE, GaliceBoards, Position};
use crate::seat;
use crate::store::{EventRow, GameRow, RatedResult};
use variago_rules::lifeline::{LifelineSpec, names_lifeline};

/// A colour as the API writes it: `"black"` or `"white"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Moves first.
    Black,
    /// Moves second, receives komi.
    White,
}

impl From<Color> for Side {
    fn from(c: Color) -> Self {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Self {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// One value per colour, written `{"black": ..., "white": ...}`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sides<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

impl<T> Sides<T> {
    /// Both values from a function of the colour.
    pub fn from_fn(mut f: impl FnMut(Color) -> T) -> Self {
        Sides { black: f(Color::Black), white: f(Color::White) }
    }

    /// The value of a colour.
    pub fn get(&self, c: Color) -> &T {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The value of a colour, to change it.
    pub fn get_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

/// Who sits in a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Player {
    /// A person, holding the seat's token once seated.
    Human,
    /// The server's AI at a level 1..10.
    Ai {
        /// Its strength.
        level: u8,
    },
}

/// A game's settings, fixed at creation (stored as JSON in the game row).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The clocks.
    pub time_control: TimeControl,
    /// Who plays each colour.
    pub players: Sides<Player>,
    /// The creator's colour.
    pub creator: Side,
    /// Galice's pie: the chooser took Black, so each seat plays the colour opposite to the one it
    /// was created with (players and tokens stay filed under the seats' creation colours). Derived
    /// from the events; stored with the settings so that the lobby's lists show it.
    #[serde(default)]
    pub swapped: bool,
    /// A rated game: between two accounts, without undo; its result changes both players'
    /// ratings for the variant.
    #[serde(default)]
    pub rated: bool,
}

impl Settings {
    /// The colour a seat (filed under its creation colour) plays now, and the other way round.
    pub fn colour_of(&self, seat: Color) -> Color {
        if self.swapped { seat.opponent() } else { seat }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    /// Waiting for a second person.
    Open,
    /// Moves are being played.
    Playing,
    /// Two passes ended play: both players mark dead groups and accept.
    Scoring,
    /// The result is known.
    Finished,
}

impl Phase {
    /// The name the database and the API use.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Open => "open",
            Phase::Playing => "playing",
            Phase::Scoring => "scoring",
            Phase::Finished => "finished",
        }
    }
}

/// What a seat asks for.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
// the variants without fields are written `Pass {}`: serde's deny_unknown_fields reaches struct
// variants only, and `{"type": "pass", "move": "C3"}` must be refused, not passed
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// Play a vertex (`C3`) or `pass`.
    Move {
        /// The vertex or `pass`.
        #[serde(rename = "move")]
        mv: String,
    },
    /// Pass.
    Pass {},
    /// Give up the game.
    Resign {},
    /// Ask to take back moves back to one's own last turn.
    UndoRequest {},
    /// Answer the opponent's undo request.
    UndoAnswer {
        /// Whether to take the moves back.
        accept: bool,
    },
    /// Ask to leave the game without a result (the opponent must consent).
    LeaveRequest {},
    /// Consent to the opponent's leave request: the game ends without a result (`Void`).
    LeaveAccept {},
    /// Refuse the opponent's leave request: play goes on.
    LeaveDecline {},
    /// Withdraw an open game while nobody has joined it: it ends without a result (`Void`) and
    /// leaves the list of open games at once.
    Cancel {},
    /// In the dead-stone phase, mark (or unmark) the chain through a vertex as dead.
    MarkDead {
        /// A stone of the chain.
        vertex: String,
        /// Dead (default) or alive.
        #[serde(default = "yes")]
        dead: bool,
    },
    /// Accept the marking as it stands.
    AcceptScore {},
    /// Disagree with the marking: play goes on.
    Resume {},
    /// Say something to the opponent (and the spectators), in any phase.
    Chat {
        /// Up to [`CHAT_LIMIT`] characters.
        text: String,
    },
}

/// The most characters a chat message may have.
pub const CHAT_LIMIT: usize = 500;

fn yes() -> bool {
    true
}

/// Something that happened in a game: what is stored, replayed and broadcast.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The second person took a seat; the game starts.
    Joined {
        /// The seat taken.
        color: Side,
    },
    /// A move or a pass, with the mover's clock after it.
    Move {
        /// The mover.
        color: Side,
        /// The vertex or `pass`.
        #[serde(rename = "move")]
        mv: String,
        /// The mover's clock after the move (none without a time control).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<Clock>,
    },
    /// A player resigned.
    Resigned {
        /// Who resigned.
        color: Side,
    },
    /// A player asked to take moves back.
    UndoRequested {
        /// Who asked.
        color: Side,
    },
    /// The opponent answered; on acceptance `count` moves were taken back.
    UndoAnswered {
        /// Who answered.
        color: Side,
        /// The answer.
        accept: bool,
        /// Moves taken back.
        #[serde(default)]
        count: usize,
    },
    /// A player asked to leave the game without a result.
    LeaveRequested {
        /// Who asked.
        color: Side,
    },
    /// The opponent consented: the game is finished without a result (`Void`).
    LeaveAccepted {
        /// Who consented.
        color: Side,
    },
    /// The opponent refused: play goes on.
    LeaveDeclined {
        /// Who refused.
        color: Side,
    },
    /// The creator withdrew the open game before anyone joined: finished without a result.
    Cancelled {
        /// The creator's colour.
        color: Side,
    },
    /// The AI's proposal of dead stones, pre-filling the marking.
    DeadProposed {
        /// The dead stones' vertices.
        dead: Vec<String>,
    },
    /// A player marked the chain through a vertex dead or alive.
    DeadMarked {
        /// Who marked.
        color: Side,
        /// A stone of the chain.
        vertex: String,
        /// Dead or alive.
        dead: bool,
    },
    /// A player accepted the marking.
    ScoreAccepted {
        /// Who accepted.
        color: Side,
    },
    /// A player disagreed with the marking: the last pass is taken back and play goes on.
    PlayResumed {
        /// Who resumed.
        color: Side,
        /// When the AI resumes: the stones it holds alive although the marking had them dead.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        held_alive: Vec<String>,
        /// When the AI resumes: the stones it holds dead although the marking had them alive.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        held_dead: Vec<String>,
    },
    /// A player's flag fell.
    TimedOut {
        /// Whose time ran out.
        color: Side,
    },
    /// A player said something: it changes nothing in the game.
    Chat {
        /// Who said it.
        color: Side,
        /// What was said.
        text: String,
    },
}

/// A committed event with its place in the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Stored {
    /// 1, 2, 3... within the game.
    pub seq: u64,
    /// When it was committed, milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// What happened.
    pub event: Event,
}

/// The dead-stone phase's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scoring {
    /// The stones marked dead.
    pub dead: BTreeSet<Point>,
    /// The AI's proposal, once computed.
    pub proposal: Option<BTreeSet<Point>>,
    /// Who accepted the current marking.
    pub accepted: Sides<bool>,
}

/// A game in memory.
#[derive(Clone, Debug)]
pub struct Table {
    /// Public id.
    pub id: String,
    /// Creation settings.
    pub settings: Settings,
    /// Seat tokens of the seated people.
    pub tokens: Sides<Option<String>>,
    /// The accounts holding the seats (by the seats' creation colours, as the tokens).
    pub accounts: Sides<Option<String>>,
    /// The invitation code.
    pub invite: String,
    /// Whether the lobby lists it.
    pub public: bool,
    /// Creation time.
    pub created_ms: i64,
    /// The position.
    pub position: Position,
    /// The moves played (after undos and resumptions), in the variant's notation.
    pub moves: Vec<String>,
    /// Stones each colour captured.
    pub captures: Sides<u32>,
    /// Every event, `events[i].seq == i + 1`.
    pub events: Vec<Arc<Stored>>,
    /// Where the game stands.
    pub phase: Phase,
    /// The result once finished.
    pub result: Option<String>,
    /// The clocks between moves (none without a time control).
    pub clocks: Option<Sides<Clock>>,
    /// When the current turn started (ms since the epoch): the running clock counts from here.
    pub turn_started_ms: i64,
    /// A pending undo request.
    pub undo_request: Option<Color>,
    /// A pending request to leave the game without a result, by the colour that asked.
    pub leave_request: Option<Color>,
    /// The dead-stone phase, while in it.
    pub scoring: Option<Scoring>,
    /// Bumped by every change of position or turn: stale AI answers and timers compare it.
    pub version: u64,
}

/// A request to create a game, as the API receives it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Variant spec, e.g. `go` or `incursion:minimal=true` (may include `size=`).
    pub variant: String,
    /// Board size `N` or `WxH`, over the spec's `size=`; 19x19 if neither.
    #[serde(default)]
    pub size: Option<String>,
    /// Komi, over the spec's `komi=`.
    #[serde(default)]
    pub komi: Option<f64>,
    /// The clocks (none by default).
    #[serde(default)]
    pub time_control: TimeControl,
    /// `black`, `white` or `random` (default).
    #[serde(default)]
    pub color: Option<String>,
    /// `{"kind": "human"}` (default: an invitation) or `{"kind": "ai", "level": 1..10}`.
    #[serde(default)]
    pub opponent: Option<Player>,
    /// Whether the lobby lists the game (default true); a private game is joined by its link only.
    #[serde(default)]
    pub public: Option<bool>,
    /// A rated game (default false): both seats held by accounts, the variant's standard
    /// settings (no options or komi of one's own), no undo.
    #[serde(default)]
    pub rated: Option<bool>,
}

/// A chat message's event, or why the text is refused (empty, or over [`CHAT_LIMIT`]).
fn chat(color: Side, text: &str) -> Result<Event, ApiError> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ApiError::bad_request("a chat message needs some text"));
    }
    let length = text.chars().count();
    if length > CHAT_LIMIT {
        return Err(ApiError::bad_request(format!(
            "a chat message has at most {CHAT_LIMIT} characters, this one has {length}"
        )));
    }
    Ok(Event::Chat { color, text: text.to_string() })
}

/// The result of a game left without a result by agreement (SGF's `RE[Void]`).
pub const VOID: &str = "Void";

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

impl Table {
    /// The spec of a single-board creation request, with its size and komi.
    fn single_spec(request: &NewGame) -> Result<VariantSpec, ApiError> {
        let mut spec: VariantSpec = request
            .variant
            .parse()
            .map_err(|e: variago_rules::SpecError| ApiError::bad_request(e.to_string()))?;
        let geometry = match request.size.as_deref() {
            Some(text) => Geometry::parse(text).map_err(|e| ApiError::bad_request(e.to_string()))?,
            None => spec
                .size
                .map_or_else(|| Geometry::square(19), Ok)
                .map_err(|e| ApiError::bad_request(e.to_string()))?,
        };
        spec.size = Some(geometry);
        if let Some(komi) = request.komi {
            let komi = variago_rules::HalfPoints::parse(&komi.to_string())
                .ok_or_else(|| ApiError::bad_request(format!("komi {komi} is not a multiple of 0.5")))?;
            spec.set_komi(komi);
        }
        Ok(spec)
    }

    /// The seats of a creation request: the creator's colour and the players.
    fn seats(request: &NewGame) -> Result<(Color, Sides<Player>), ApiError> {
        let creator = match request.color.as_deref().unwrap_or("random") {
            "black" => Color::Black,
            "white" => Color::White,
            "random" => {
                if seat::coin() {
                    Color::Black
                } else {
                    Color::White
                }
            }
            other => {
                return Err(ApiError::bad_request(format!("color '{other}' is not black, white or random")));
            }
        };
        let opponent = request.opponent.unwrap_or(Player::Human);
        if let Player::Ai { level } = opponent
            && variago_search::Level::new(level).is_none()
        {
            return Err(ApiError::bad_request(format!("AI level {level} is not between 1 and 10")));
        }
        let mut players = Sides { black: Player::Human, white: Player::Human };
        *players.get_mut(creator.opponent()) = opponent;
        Ok((creator, players))
    }

    /// A new game from a creation request: validates everything and returns the table (not yet
    /// stored) and the creator's colour (in Galice: Black makes the pie setup, White chooses).
    pub fn create(request: NewGame, account: Option<String>, now: i64) -> Result<(Table, Color), ApiError> {
        let rated = request.rated.unwrap_or(false);
        if rated {
            if account.is_none() {
                return Err(ApiError::unauthorized("a rated game needs an account: log in first"));
            }
            if matches!(request.opponent, Some(Player::Ai { .. })) {
                return Err(ApiError::bad_request(
                    "a rated game is between two accounts: the AI plays unrated games only",
                ));
            }
            // a komi equal to the variant's own is what a form sends without a change
            let own_komi = request.komi.is_some_and(|komi| {
                Position::start(&request.variant).map_or(true, |standard| standard.komi() != komi)
            });
            if request.variant.contains(':') || own_komi {
                return Err(ApiError::bad_request(
                    "a rated game uses the variant's standard settings: no options or komi of your own",
                ));
            }
        }
        let position = if request.variant.trim().eq_ignore_ascii_case(GALICE) {
            if request.size.is_some() || request.komi.is_some() {
                return Err(ApiError::bad_request("galice has no size or komi to choose"));
            }
            Position::start(GALICE)?
        } else if names_lifeline(&request.variant) {
            if request.komi.is_some() {
                return Err(ApiError::bad_request(
                    "Square Lifeline has no komi: the last player to place wins",
                ));
            }
            let bad = |e: variago_rules::SpecError| ApiError::bad_request(e.to_string());
            let mut spec: LifelineSpec = request.variant.parse().map_err(bad)?;
            if let Some(size) = &request.size {
                spec = spec.with_size(size).map_err(bad)?;
            }
            Position::start(&spec.to_string())?
        } else {
            Position::start(&Self::single_spec(&request)?.to_string())?
        };
        request.time_control.validate().map_err(ApiError::bad_request)?;
        let (creator, players) = Self::seats(&request)?;
        let settings = Settings {
            time_control: request.time_control,
            players,
            creator: creator.into(),
            swapped: false,
            rated,
        };
        let mut table = Table::blank(seat::new_game_id(), position, settings, seat::new_invite(), now);
        table.public = request.public.unwrap_or(true);
        *table.tokens.get_mut(creator) = Some(seat::new_token());
        *table.accounts.get_mut(creator) = account;
        if table.ai_color().is_some() {
            table.phase = Phase::Playing;
        }
        Ok((table, creator))
    }

    /// The table of a stored game, before its events are applied.
    fn blank(id: String, position: Position, settings: Settings, invite: String, now: i64) -> Self {
        let clocks = settings.time_control.start().map(|c| Sides { black: c, white: c });
        Table {
            id,
            position,
            settings,
            tokens: Sides::default(),
            accounts: Sides::default(),
            invite,
            public: true,
            created_ms: now,
            moves: Vec::new(),
            captures: Sides::default(),
            events: Vec::new(),
            phase: Phase::Open,
            result: None,
            clocks,
            turn_started_ms: now,
            undo_request: None,
            leave_request: None,
            scoring: None,
            version: 0,
        }
    }

    /// A stored game: its row, then its events replayed. With `restart_ms` (a server start) the
    /// running clock starts afresh then: the time the server was down is not charged to anyone;
    /// without it, the turn started at the last event.
    pub fn restore(row: GameRow, events: Vec<EventRow>, restart_ms: Option<i64>) -> Result<Self, String> {
        let position = Position::start(&row.spec).map_err(|e| format!("game {}: spec: {e}", row.id))?;
        let mut settings: Settings =
            serde_json::from_str(&row.config).map_err(|e| format!("game {}: settings: {e}", row.id))?;
        // the replay sets it again
        settings.swapped = false;
        let players = settings.players;
        let mut table = Table::blank(row.id.clone(), position, settings, row.invite, row.created_ms);
        table.public = row.public;
        table.tokens = Sides { black: row.black_token, white: row.white_token };
        table.accounts = Sides { black: row.black_account, white: row.white_account };
        if players.black != Player::Human || players.white != Player::Human {
            table.phase = Phase::Playing;
        }
        for event in events {
            let parsed: Event = serde_json::from_str(&event.body)
                .map_err(|e| format!("game {} event {}: {e}", row.id, event.seq))?;
            table
                .apply(parsed, event.at_ms)
                .map_err(|e| format!("game {} event {}: {e}", row.id, event.seq))?;
        }
        if let Some(now) = restart_ms {
            table.turn_started_ms = now;
        }
        Ok(table)
    }

    /// The game row as it stands: what is written with each event.
    pub fn row(&self) -> GameRow {
        GameRow {
            id: self.id.clone(),
            spec: self.position.spec(),
            config: serde_json::to_string(&self.settings).unwrap_or_default(),
            status: self.phase.name().to_string(),
            result: self.result.clone(),
            black_token: self.tokens.black.clone(),
            white_token: self.tokens.white.clone(),
            invite: self.invite.clone(),
            public: self.public,
            created_ms: self.created_ms,
            updated_ms: self.events.last().map_or(self.created_ms, |e| e.at_ms),
            black_account: self.accounts.black.clone(),
            white_account: self.accounts.white.clone(),
        }
    }

    /// The rated result to write with the event that has just finished this game (`None` for
    /// an unrated game, a game not finished, or one left without a result).
    pub fn rated_result(&self) -> Option<RatedResult> {
        if !self.settings.rated || self.phase != Phase::Finished {
            return None;
        }
        let result = self.result.as_deref()?;
        let black_score = match result.split('+').next() {
            _ if result == VOID => return None,
            Some("B") => 1.0,
            Some("W") => 0.0,
            _ => 0.5,
        };
        let account = |c: Color| self.accounts.get(self.colour_of(c)).clone();
        Some(RatedResult {
            variant: self.position.spec().split(':').next().unwrap_or_default().to_string(),
            black: account(Color::Black)?,
            white: account(Color::White)?,
            black_score,
        })
    }

    /// The sequence number of the last event (0 before any).
    pub fn seq(&self) -> u64 {
        self.events.len() as u64
    }

    /// The token of the seat `account` holds, if it holds one: a logged-in player's seat is
    /// theirs on every device, the session standing for the seat token.
    pub fn token_of_account(&self, account: &str) -> Option<&str> {
        [Color::Black, Color::White]
            .into_iter()
            .find(|&c| self.accounts.get(c).as_deref() == Some(account))
            .and_then(|c| self.tokens.get(c).as_deref())
    }

    /// The seat a token holds, compared in constant time against both seats.
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        let matches = Sides::from_fn(|c| self.tokens.get(c).as_deref().is_some_and(|t| seat::same(t, token)));
        let seat = match (matches.black, matches.white) {
            (true, _) => Color::Black,
            (_, true) => Color::White,
            _ => return None,
        };
        Some(self.colour_of(seat))
    }

    /// The colour a seat (filed under its creation colour) plays now, and the other way round:
    /// the same unless Galice's chooser took Black.
    pub fn colour_of(&self, seat: Color) -> Color {
        self.settings.colour_of(seat)
    }

    /// The AI's colour, if the AI plays in this game.
    pub fn ai_color(&self) -> Option<(Color, u8)> {
        [Color::Black, Color::White].into_iter().find_map(|c| match *self.settings.players.get(c) {
            Player::Ai { level } => Some((self.colour_of(c), level)),
            Player::Human => None,
        })
    }

    /// The seat a joiner gets: the free human seat of an open game, if the invitation is right
    /// (a public game needs none); a rated game's second seat needs an account other than the
    /// creator's.
    pub fn join_seat(&self, invite: Option<&str>, account: Option<&str>) -> Result<Color, ApiError> {
        let creator: Color = self.settings.creator.into();
        match self.phase {
            Phase::Open => {}
            // finished with a person's seat never taken: its creator cancelled it
            Phase::Finished
                if self.tokens.get(creator.opponent()).is_none()
                    && matches!(self.settings.players.get(creator.opponent()), Player::Human) =>
            {
                return Err(ApiError::conflict("this game was cancelled before anyone joined it"));
            }
            _ => return Err(ApiError::conflict("the game already has both players")),
        }
        if !self.public && !invite.is_some_and(|i| seat::same(i, &self.invite)) {
            return Err(ApiError::forbidden("this invitation is not valid for this game"));
        }
        // one person never holds both seats of a game against a person
        if account.is_some() && self.accounts.get(creator).as_deref() == account {
            return Err(ApiError::conflict(
                "you hold the other seat of this game: it waits for another player",
            ));
        }
        if self.settings.rated && account.is_none() {
            return Err(ApiError::unauthorized("this game is rated: log in to an account to join it"));
        }
        Ok(creator.opponent())
    }

    /// The colour whose flag has fallen by `now`, if any.
    pub fn flag_fallen(&self, now: i64) -> Option<Color> {
        let (color, deadline) = self.deadline()?;
        (now > deadline).then_some(color)
    }

    /// The player to move and when their flag falls (ms since the epoch), while a clock runs.
    pub fn deadline(&self) -> Option<(Color, i64)> {
        if self.phase != Phase::Playing {
            return None;
        }
        let clocks = self.clocks?;
        let color = self.position.to_move();
        let allowance = self.settings.time_control.allowance(*clocks.get(color));
        Some((color, self.turn_started_ms.saturating_add(allowance as i64)))
    }

    /// Turns a seat's request into the event it causes, or says why it is refused.
    pub fn decide(&self, color: Color, action: Action, now: i64) -> Result<Event, ApiError> {
        let side = Side::from(color);
        match (self.phase, &action) {
            // players may talk in every phase, before and after the game too
            (_, Action::Chat { .. }) => {}
            (Phase::Finished, _) => {
                return Err(ApiError::conflict(format!("the game is over ({})", self.result_text())));
            }
            (Phase::Open, Action::Cancel {}) => return Ok(Event::Cancelled { color: side }),
            (Phase::Open, _) => {
                return Err(ApiError::conflict("the game has not started: waiting for an opponent"));
            }

            (Phase::Playing, Action::MarkDead { .. } | Action::AcceptScore {} | Action::Resume {}) => {
                return Err(ApiError::conflict("this is for the dead-stone phase, after two passes"));
            }
            (
                Phase::Scoring,
                Action::Move { .. } | Action::Pass {} | Action::UndoRequest {} | Action::UndoAnswer { .. },
            ) => {
                return Err(ApiError::conflict(
                    "the game is in the dead-stone phase: mark dead stones, accept, or resume play",
                ));
            }
            _ => {}
        }
        match action {
            Action::Move { mv } => self.decide_move(color, &mv, now),
            Action::Pass {} => self.decide_move(color, "pass", now),
            Action::Resign {} => Ok(Event::Resigned { color: side }),
            // (an open game's is decided above)
            Action::Cancel {} => Err(ApiError::conflict(
                "only a game nobody has joined can be cancelled: resign, or ask to leave",
            )),
            Action::UndoRequest {} => {
                if self.settings.rated {
                    return Err(ApiError::conflict("a rated game has no undo"));
                }
                if self.position.single().is_none() {
                    return Err(ApiError::conflict(match self.position {
                        Position::Lifeline { .. } => {
                            "Square Lifeline has no undo: the swap cannot be taken back"
                        }
                        _ => "galice has no undo: the colour choice cannot be taken back",
                    }));
                }
                if self.undo_request.is_some() {
                    return Err(ApiError::conflict("an undo request is already pending"));
                }
                if self.undo_count(color) == 0 {
                    return Err(ApiError::conflict("there is no move of yours to take back"));
                }
                Ok(Event::UndoRequested { color: side })
            }
            Action::UndoAnswer { accept } => match self.undo_request {
                Some(asker) if asker != color => Ok(Event::UndoAnswered {
                    color: side,
                    accept,
                    count: if accept { self.undo_count(asker) } else { 0 },
                }),
                Some(_) => Err(ApiError::conflict("your own undo request is for your opponent to answer")),
                None => Err(ApiError::conflict("there is no undo request to answer")),
            },
            Action::LeaveRequest {} => {
                if self.leave_request.is_some() {
                    return Err(ApiError::conflict("a leave request is already pending"));
                }
                Ok(Event::LeaveRequested { color: side })
            }
            Action::LeaveAccept {} => {
                self.leave_answerable(color)?;
                Ok(Event::LeaveAccepted { color: side })
            }
            Action::LeaveDecline {} => {
                self.leave_answerable(color)?;
                Ok(Event::LeaveDeclined { color: side })
            }
            Action::MarkDead { vertex, dead } => {
                let p = self.position.point(&vertex)?;
                if self.position.single().is_none_or(|(_, board)| board.color(p).is_none()) {
                    return Err(ApiError::bad_request(format!("there is no stone on {vertex}")));
                }
                let vertex = self.position.vertices(&BTreeSet::from([p])).concat();
                Ok(Event::DeadMarked { color: side, vertex, dead })
            }
            Action::AcceptScore {} => {
                if self.scoring.as_ref().is_some_and(|s| *s.accepted.get(color)) {
                    return Err(ApiError::conflict("you have already accepted this marking"));
                }
                Ok(Event::ScoreAccepted { color: side })
            }
            Action::Resume {} => {
                let (held_alive, held_dead) = self.disagreement(color);
                Ok(Event::PlayResumed { color: side, held_alive, held_dead })
            }
            Action::Chat { text } => chat(side, &text),
        }
    }

    /// Where the AI playing `color` disagrees with the marking: the stones it holds alive that
    /// are marked dead, and those it holds dead that are marked alive (none for a person, whose
    /// reasons the server does not know).
    fn disagreement(&self, color: Color) -> (Vec<String>, Vec<String>) {
        let scoring = self.scoring.as_ref().filter(|_| self.ai_color().is_some_and(|(ai, _)| ai == color));
        let Some((marked, proposal)) = scoring.and_then(|s| Some((&s.dead, s.proposal.as_ref()?))) else {
            return Default::default();
        };
        let held_alive: BTreeSet<Point> = marked.difference(proposal).copied().collect();
        let held_dead: BTreeSet<Point> = proposal.difference(marked).copied().collect();
        (self.position.vertices(&held_alive), self.position.vertices(&held_dead))
    }

    /// Whether `color` may answer the pending leave request: there is one, and it is the
    /// opponent's.
    fn leave_answerable(&self, color: Color) -> Result<(), ApiError> {
        match self.leave_request {
            Some(asker) if asker != color => Ok(()),
            Some(_) => Err(ApiError::conflict("your own leave request is for your opponent to answer")),
            None => Err(ApiError::conflict("there is no leave request to answer")),
        }
    }

    fn decide_move(&self, color: Color, mv: &str, now: i64) -> Result<Event, ApiError> {
        let to_move = self.position.to_move();
        if color != to_move {
            return Err(ApiError::conflict(format!("it is not your turn: {} to move", colour_name(to_move))));
        }
        let mv = self.position.judge(mv)?;
        let clock = match self.clocks {
            Some(clocks) => {
                let elapsed = now.saturating_sub(self.turn_started_ms).max(0) as u64;
                let after = self
                    .settings
                    .time_control
                    .spend(*clocks.get(color), elapsed)
                    .ok_or_else(|| ApiError::conflict("your time has run out"))?;
                Some(after)
            }
            None => None,
        };
        Ok(Event::Move { color: color.into(), mv, clock })
    }

    /// Moves an accepted undo by `asker` takes back: back to the asker's last turn (one move if
    /// the asker moved last, two if the opponent has answered since).
    fn undo_count(&self, asker: Color) -> usize {
        let n = self.moves.len();
        let wanted = if self.position.to_move() == asker { 2 } else { 1 };
        if n >= wanted { wanted } else { 0 }
    }

    /// Applies a committed event. Errors only for events that do not fit the game (a corrupted
    /// database); live events were checked by [`Table::decide`].
    pub fn apply(&mut self, event: Event, at_ms: i64) -> Result<(), String> {
        match &event {
            Event::Joined { .. } => {
                self.phase = Phase::Playing;
                self.turn_started_ms = at_ms;
            }
            Event::Move { color, mv, clock } => {
                let mover = Color::from(*color);
                if mover != self.position.to_move() {
                    return Err(format!("{mover} moved out of turn"));
                }
                self.play(mv)?;
                if let (Some(clocks), Some(clock)) = (&mut self.clocks, clock) {
                    *clocks.get_mut(mover) = *clock;
                }
                if Position::choice(mv) == Some(Color::Black) {
                    // the chooser (White until now) takes Black: the seats change colours, each
                    // with its own clock
                    self.settings.swapped = true;
                    if let Some(clocks) = &mut self.clocks {
                        std::mem::swap(&mut clocks.black, &mut clocks.white);
                    }
                    // a pending leave request stays with the seat that asked, now the other colour
                    self.leave_request = self.leave_request.map(Color::opponent);
                }
                self.undo_request = None;
                self.next_turn(at_ms);
                self.settle_after_move();
            }
            Event::Resigned { color } => {
                let winner = Color::from(*color).opponent();
                self.finish(GameResult { winner: Some(winner), ending: Ending::Resignation }.to_string());
            }
            Event::UndoRequested { color } => self.undo_request = Some((*color).into()),
            Event::UndoAnswered { accept, count, .. } => {
                self.undo_request = None;
                if *accept {
                    let keep =
                        self.moves.len().checked_sub(*count).ok_or("undo of more moves than played")?;
                    self.moves.truncate(keep);
                    self.rebuild()?;
                    self.next_turn(at_ms);
                }
            }
            Event::LeaveRequested { color } => self.leave_request = Some((*color).into()),
            Event::LeaveAccepted { .. } => {
                if self.leave_request.is_none() {
                    return Err("a leave accepted without a request".into());
                }
                self.finish(VOID.to_string());
            }
            Event::LeaveDeclined { .. } => self.leave_request = None,
            Event::Cancelled { .. } => {
                if self.phase != Phase::Open {
                    return Err("a game cancelled after it started".into());
                }
                self.finish(VOID.to_string());
            }
            Event::DeadProposed { dead } => {
                let points = self.points(dead)?;
                let ai = self.ai_color();
                let scoring = self.scoring.as_mut().ok_or("a proposal outside the dead-stone phase")?;
                scoring.proposal = Some(points.clone());
                scoring.dead = points;
                scoring.accepted = Sides::from_fn(|c| ai.is_some_and(|(a, _)| a == c));
            }
            Event::DeadMarked { vertex, dead, .. } => {
                let p = self.position.point(vertex).map_err(|e| e.message)?;
                let chain: Vec<Point> =
                    self.position.single().map(|(_, board)| board.chain(p).collect()).unwrap_or_default();
                let scoring = self.scoring.as_mut().ok_or("a mark outside the dead-stone phase")?;
                for q in chain {
                    if *dead {
                        scoring.dead.insert(q);
                    } else {
                        scoring.dead.remove(&q);
                    }
                }
                scoring.accepted = Sides::default();
            }
            Event::ScoreAccepted { color } => {
                let scoring = self.scoring.as_mut().ok_or("an acceptance outside the dead-stone phase")?;
                *scoring.accepted.get_mut((*color).into()) = true;
                if scoring.accepted.black && scoring.accepted.white {
                    let result = self.counted().result;
                    self.finish(result);
                }
            }
            Event::PlayResumed { .. } => {
                if !self.moves.pop().is_some_and(|mv| Position::is_pass(&mv)) {
                    return Err("resumption without a final pass".into());
                }
                self.rebuild()?;
                self.scoring = None;
                self.phase = Phase::Playing;
                self.next_turn(at_ms);
            }
            Event::TimedOut { color } => {
                // the flag fell: the loser's clock shows nothing left, not the period it was in
                if let Some(clocks) = &mut self.clocks {
                    *clocks.get_mut(Color::from(*color)) = crate::Clock { main_ms: 0, periods: 0 };
                }
                let winner = Color::from(*color).opponent();
                self.finish(format!("{}+T", winner.letter()));
            }
            Event::Chat { .. } => {}
        }
        self.events.push(Arc::new(Stored { seq: self.seq() + 1, at_ms, event }));
        Ok(())
    }

    fn points(&self, vertices: &[String]) -> Result<BTreeSet<Point>, String> {
        vertices.iter().map(|v| self.position.point(v).map_err(|e| e.message)).collect()
    }

    fn next_turn(&mut self, at_ms: i64) {
        self.turn_started_ms = at_ms;
        self.version += 1;
    }

    fn finish(&mut self, result: String) {
        self.phase = Phase::Finished;
        self.result = Some(result);
        self.undo_request = None;
        self.leave_request = None;
        self.version += 1;
    }

    /// Plays a move on the position, counting captures.
    fn play(&mut self, mv: &str) -> Result<(), String> {
        let mover = self.position.to_move();
        *self.captures.get_mut(mover) += self.position.play(mv)?;
        self.moves.push(mv.to_string());
        Ok(())
    }

    /// Replays the moves from the start (after an undo or a resumption).
    fn rebuild(&mut self) -> Result<(), String> {
        let moves = std::mem::take(&mut self.moves);
        self.position = self.position.restart();
        self.captures = Sides::default();
        moves.iter().try_for_each(|mv| self.play(mv))
    }

    /// After a move: the game goes on, enters the dead-stone phase (two passes in a counted
    /// single-board game), or is finished (a draw by repetition, Galice's count, a variant's own
    /// ending).
    fn settle_after_move(&mut self) {
        if !self.position.is_over() {
            return;
        }
        if self.position.has_dead_stone_phase() && self.moves.last().is_some_and(|mv| Position::is_pass(mv)) {
            self.phase = Phase::Scoring;
            self.scoring = Some(Scoring::default());
        } else {
            let result =
                self.position.outcome().map_or_else(|| self.position.score(None).result, |o| o.to_string());
            self.finish(result);
        }
    }

    /// The score counted in the dead-stone phase: the board without the marked stones.
    fn counted(&self) -> ScoreView {
        self.position.score(Some(&self.scoring.as_ref().map(|s| s.dead.clone()).unwrap_or_default()))
    }

    fn result_text(&self) -> String {
        self.result.clone().unwrap_or_default()
    }

    /// The game as SGF: the moves played, the result once known, the date it was created, the
    /// AI's level for a seat the AI plays (people play without names), and the dead stones both
    /// accepted.
    pub fn sgf(&self) -> String {
        let name = |colour: Color| match self.settings.players.get(self.settings.colour_of(colour)) {
            Player::Ai { level } => Some(format!("variago level {level}")),
            Player::Human => None,
        };
        let info = GameInfo {
            black: name(Color::Black),
            white: name(Color::White),
            date: Some(sgf_date(self.created_ms.div_euclid(1000))),
            ..GameInfo::default()
        };
        // the dead stones both players accepted, when the game ended by counting
        let counted = self
            .scoring
            .as_ref()
            .filter(|s| self.phase == Phase::Finished && s.accepted.black && s.accepted.white);
        self.position.sgf(&self.moves, self.result.as_deref(), &info, counted.map(|s| &s.dead))
    }

    /// Everything a page needs to show the game now.
    pub fn view(&self, now: i64) -> GameView {
        let playing = self.phase == Phase::Playing;
        let (legal, refused) = if playing { self.position.judged_moves() } else { Default::default() };
        let deadline = self.deadline();
        let clocks = self.clocks.map(|clocks| {
            Sides::from_fn(|c| {
                let clock = *clocks.get(c);
                let running = deadline.is_some_and(|(color, _)| color == c);
                let remaining = match deadline {
                    Some((color, at)) if color == c => at.saturating_sub(now).max(0) as u64,
                    _ => self.settings.time_control.allowance(clock),
                };
                ClockView { main_ms: clock.main_ms, periods: clock.periods, running, remaining_ms: remaining }
            })
        });
        let score = if self.scoring.is_some() { self.counted() } else { self.position.score(None) };
        let players = Sides::from_fn(|c| {
            let seat = self.colour_of(c);
            let player = *self.settings.players.get(seat);
            PlayerView {
                player,
                seated: player != Player::Human || self.tokens.get(seat).is_some(),
                account: self.accounts.get(seat).clone(),
            }
        });
        let spec = self.position.spec();
        let (width, height) = self.position.size();
        let mut boards = self.position.boards().into_iter();
        GameView {
            id: self.id.clone(),
            variant: spec.split(':').next().unwrap_or_default().to_string(),
            spec,
            size: format!("{width}x{height}"),
            width,
            height,
            komi: self.position.komi(),
            status: self.phase,
            seq: self.seq(),
            players,
            to_move: playing.then(|| self.position.to_move().into()),
            moves: self.moves.clone(),
            board: boards.next().unwrap_or_default(),
            right_board: boards.next(),
            // a finished Galice game only: during play the views stay small
            history: if self.phase == Phase::Finished {
                self.position.galice_history(&self.moves)
            } else {
                None
            },
            captures: self.captures,
            legal,
            refused,
            time_control: self.settings.time_control,
            clocks,
            score,
            undo_request: self.undo_request.map(Side::from),
            leave_request: self.leave_request.map(Side::from),
            scoring: self.scoring.as_ref().map(|s| ScoringView {
                dead: self.position.vertices(&s.dead),
                proposal: s.proposal.as_ref().map(|p| self.position.vertices(p)),
                accepted: s.accepted,
                territory: self.position.territory(&s.dead),
            }),
            resumed: self.resumption(),
            borderline: self.position.borderline(),
            result: self.result.clone(),
            swapped: self.settings.swapped,
            rated: self.settings.rated,
            created_ms: self.created_ms,
            server_ms: now,
        }
    }

    /// The last resumption of play, while fewer than two moves have followed it (the dead-stone
    /// phase that the resumer's pass at once opens again included).
    fn resumption(&self) -> Option<ResumedView> {
        if !matches!(self.phase, Phase::Playing | Phase::Scoring) {
            return None;
        }
        let mut moves = 0;
        for stored in self.events.iter().rev() {
            match &stored.event {
                Event::Move { .. } if moves == 1 => return None,
                Event::Move { .. } => moves += 1,
                Event::PlayResumed { color, held_alive, held_dead } => {
                    let (held_alive, held_dead) = (held_alive.clone(), held_dead.clone());
                    return Some(ResumedView { by: *color, held_alive, held_dead });
                }
                _ => {}
            }
        }
        None
    }

    /// The lobby's line for this game.
    pub fn summary(row: &GameRow) -> Option<Summary> {
        let settings: Settings = serde_json::from_str(&row.config).ok()?;
        let tokens = Sides { black: &row.black_token, white: &row.white_token };
        let players = Sides::from_fn(|c| *settings.players.get(settings.colour_of(c)));
        Some(Summary {
            id: row.id.clone(),
            spec: row.spec.clone(),
            status: row.status.clone(),
            players,
            seated: Sides::from_fn(|c| {
                *players.get(c) != Player::Human || tokens.get(settings.colour_of(c)).is_some()
            }),
            time_control: settings.time_control,
            result: row.result.clone(),
            swapped: settings.swapped,
            rated: settings.rated,
            accounts: Sides::from_fn(|c| {
                let seat = settings.colour_of(c);
                if seat == Color::Black { row.black_account.clone() } else { row.white_account.clone() }
            }),
            created_ms: row.created_ms,
            updated_ms: row.updated_ms,
            spectators: 0,
        })
    }
}

/// A seat as the view shows it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayerView {
    /// Human or AI (with its level).
    #[serde(flatten)]
    pub player: Player,
    /// Whether someone sits there.
    pub seated: bool,
    /// The account holding the seat (left out for a guest or the AI).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
}

/// A clock as the view shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Main time left at the start of the turn.
    pub main_ms: u64,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// Whether it is running now.
    pub running: bool,
    /// Milliseconds until the flag falls, counted at `server_ms`.
    pub remaining_ms: u64,
}

/// The score as it stands (during play: every stone alive; in the dead-stone phase: without the
/// marked stones).
#[derive(Clone, Debug, Serialize)]
pub struct ScoreView {
    /// The variant's breakdown in words.
    pub text: String,
    /// Each side's total, komi not included.
    pub totals: Sides<f64>,
    /// White's komi.
    pub komi: f64,
    /// The result if the game ended now.
    pub result: String,
}

/// The dead-stone phase as the view shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ScoringView {
    /// Stones marked dead.
    pub dead: Vec<String>,
    /// The AI's proposal, once computed.
    pub proposal: Option<Vec<String>>,
    /// Who accepted the marking.
    pub accepted: Sides<bool>,
    /// Each side's territory as the marking counts it (the dead stones' points included).
    pub territory: Sides<Vec<String>>,
}

/// The last resumption of play, as the game view shows it.
#[derive(Clone, Debug, Serialize)]
pub struct ResumedView {
    /// Who did not accept the marking.
    pub by: Side,
    /// The AI's disagreement: the stones it holds alive although marked dead.
    pub held_alive: Vec<String>,
    /// The AI's disagreement: the stones it holds dead although marked alive.
    pub held_dead: Vec<String>,
}

/// A game as `GET /api/games/{id}` and the WebSocket send it.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// Public id.
    pub id: String,
    /// Canonical spec with size.
    pub spec: String,
    /// The variant's name.
    pub variant: String,
    /// `WxH`.
    pub size: String,
    /// Columns.
    pub width: u8,
    /// Rows.
    pub height: u8,
    /// White's komi.
    pub komi: f64,
    /// Phase.
    pub status: Phase,
    /// Sequence number of the last event.
    pub seq: u64,
    /// The seats.
    pub players: Sides<PlayerView>,
    /// Whose turn (while playing).
    pub to_move: Option<Side>,
    /// Moves as vertices or `pass`.
    pub moves: Vec<String>,
    /// Rows from the top: `.` empty, `X` `O` stones, `K` `k` kings (Galice: the left board).
    pub board: Vec<String>,
    /// Galice's right board.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub right_board: Option<Vec<String>>,
    /// A finished Galice game's boards after each move from the start (`moves.len() + 1`
    /// entries), for the replay slider.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history: Option<Vec<GaliceBoards>>,
    /// Stones captured by each side.
    pub captures: Sides<u32>,
    /// The legal moves of the side to move (empty unless playing).
    pub legal: Vec<String>,
    /// Why each empty point the side to move may not play is refused (a ko, an Incursion or
    /// Stoical restriction...), so that pages can shade those points and say why.
    pub refused: BTreeMap<String, String>,
    /// The time control.
    pub time_control: TimeControl,
    /// The clocks.
    pub clocks: Option<Sides<ClockView>>,
    /// The score.
    pub score: ScoreView,
    /// Who asked for an undo, while pending.
    pub undo_request: Option<Side>,
    /// Who asked to leave the game without a result, while pending.
    pub leave_request: Option<Side>,
    /// The dead-stone phase.
    pub scoring: Option<ScoringView>,
    /// A dead-stone phase just ended without agreement: shown until both sides have moved
    /// again (also in the new dead-stone phase a pass at once opens), so that the players learn
    /// why play went on.
    pub resumed: Option<ResumedView>,
    /// Borderline's panel (Borderline games only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub borderline: Option<BorderlineView>,
    /// The result once finished.
    pub result: Option<String>,
    /// Galice's pie: the chooser took Black, so each seat (and its token) plays the colour
    /// opposite to the one it was created with.
    pub swapped: bool,
    /// Whether the game is rated.
    pub rated: bool,
    /// Creation time.
    pub created_ms: i64,
    /// The server's clock when this view was made (for the clocks).
    pub server_ms: i64,
}

/// A game in the lobby's lists.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Public id.
    pub id: String,
    /// Canonical spec with size.
    pub spec: String,
    /// `open`, `playing`, `scoring`, `finished`.
    pub status: String,
    /// Who plays.
    pub players: Sides<Player>,
    /// Which seats are taken.
    pub seated: Sides<bool>,
    /// The time control.
    pub time_control: TimeControl,
    /// The result once finished.
    pub result: Option<String>,
    /// Galice's pie: the chooser took Black, so each seat plays the colour opposite to the one
    /// it was created with (a seat's holder finds its colour from this).
    pub swapped: bool,
    /// Whether the game is rated.
    pub rated: bool,
    /// The accounts playing each colour (`null`: a guest or the AI).
    pub accounts: Sides<Option<String>>,
    /// Spectators watching over a WebSocket (through this server process).
    pub spectators: usize,
    /// Creation time.
    pub created_ms: i64,
    /// Last activity.
    pub updated_ms: i64,
}
