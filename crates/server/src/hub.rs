//! The live games: one lock per game (so games never wait for each other), the commit path
//! (database first, then memory, then the broadcast), and the work that follows an event: the
//! AI's moves and answers on blocking worker threads, the dead-stone proposal, the flag timers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use sqlx::postgres::PgListener;
use tokio::sync::{Semaphore, broadcast};
use variago_rules::Color;
use variago_search::Level;

use crate::dead;
use crate::error::ApiError;
use crate::seat;
use crate::store::{EventRow, Store};
use crate::table::{Action, Event, GameView, NewGame, Phase, Side, Stored, Summary, Table};

/// Messages a game's broadcast channel holds before a slow listener is told it lagged (it then
/// catches up from the game's event list).
const CHANNEL: usize = 256;

/// An event as sent to every listener of a game, serialised once.
#[derive(Debug)]
pub struct Broadcast {
    /// The event's sequence number.
    pub seq: u64,
    /// The WebSocket message (JSON).
    pub text: String,
}

/// The background work scheduled for a game, so that a task is not started twice for the same
/// state of the game.
#[derive(Debug, Default)]
struct Scheduled {
    /// The table version the AI (move, answer or proposal) works on.
    ai: Option<u64>,
    /// The table version the flag timer watches.
    timer: Option<u64>,
}

/// A game in memory.
#[derive(Debug)]
pub struct Live {
    /// The game; the lock orders its events.
    pub table: tokio::sync::Mutex<Table>,
    /// Every committed event goes here after the database.
    pub tx: broadcast::Sender<Arc<Broadcast>>,
    scheduled: Mutex<Scheduled>,
}

/// The answer to a creation.
#[derive(Clone, Debug, Serialize)]
pub struct Created {
    /// The game's id.
    pub id: String,
    /// The creator's colour.
    pub color: Side,
    /// The creator's seat token: keep it secret, it is the right to play.
    pub token: String,
    /// The invitation code for the opponent.
    pub invite: String,
    /// The link to send to the opponent.
    pub invite_url: String,
    /// The game.
    pub game: GameView,
}

/// The answer to a join.
#[derive(Clone, Debug, Serialize)]
pub struct Joined {
    /// The joiner's colour.
    pub color: Side,
    /// The joiner's seat token.
    pub token: String,
    /// The game.
    pub game: GameView,
}

/// What a listener gets when it starts: the events it missed, the game now, and the channel.
pub struct Subscription {
    /// Events after the one the listener last saw.
    pub missed: Vec<Arc<Stored>>,
    /// The game as it stands.
    pub game: GameView,
    /// Live events from here on.
    pub rx: broadcast::Receiver<Arc<Broadcast>>,
}

/// Every live game, the database, and the AI's worker slots.
#[derive(Debug)]
pub struct Hub {
    store: Store,
    games: Mutex<HashMap<String, Arc<Live>>>,
    ai_slots: Arc<Semaphore>,
}

/// Milliseconds since the Unix epoch: the time events and clocks are stamped with.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

fn storage(error: sqlx::Error) -> ApiError {
    ApiError::internal("storage", error)
}

/// Locks a std mutex, ignoring poisoning: the data it guards (maps, version numbers) stays
/// consistent whatever panicked.
fn locked<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Hub {
    /// A hub on a store; `ai_threads` searches may run at once.
    pub fn new(store: Store, ai_threads: usize) -> Arc<Self> {
        Arc::new(Hub {
            store,
            games: Mutex::new(HashMap::new()),
            ai_slots: Arc::new(Semaphore::new(ai_threads.max(1))),
        })
    }

    /// The store, for the lobby's lists.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Loads every unfinished game and restarts what each one waits for (the AI's move, a
    /// clock): after a crash, play goes on from the last committed event. A game that cannot be
    /// loaded is reported in the log and left alone, so that it cannot keep the others down;
    /// returns how many were resumed.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.unfinished().await.map_err(storage)?;
        let mut resumed = 0;
        for id in &ids {
            match self.live(id).await {
                Ok(_) => resumed += 1,
                Err(e) => eprintln!("variago serve: game {id} not resumed: {e}"),
            }
        }
        Ok(resumed)
    }

    /// Follows the events other server processes announce through PostgreSQL: a game this
    /// process holds catches up at once and tells its sockets. (The listener reconnects by itself;
    /// an announcement missed meanwhile is caught up at the game's next action.)
    pub async fn follow(self: Arc<Self>, mut listener: PgListener) {
        loop {
            let notification = match listener.recv().await {
                Ok(notification) => notification,
                Err(e) => {
                    eprintln!("variago serve: listening for other processes' events: {e}");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            };
            let Some((id, seq)) = notification.payload().split_once(' ') else { continue };
            let Ok(seq) = seq.parse::<u64>() else { continue };
            let Some(live) = locked(&self.games).get(id).cloned() else { continue };
            let mut table = live.table.lock().await;
            if seq > table.seq() {
                let result = self.refresh(&live, &mut table).await;
                self.log(result);
            }
        }
    }

    /// A game, from memory or else from the database.
    pub async fn live(self: &Arc<Self>, id: &str) -> Result<Arc<Live>, ApiError> {
        if let Some(live) = locked(&self.games).get(id) {
            return Ok(live.clone());
        }
        let (row, events) = self
            .store
            .load(id)
            .await
            .map_err(storage)?
            .ok_or_else(|| ApiError::not_found(format!("no game '{id}'")))?;
        let table = Table::restore(row, events, Some(now_ms()))
            .map_err(|e| ApiError::internal("loading a game", e))?;
        let loaded = Arc::new(Live::new(table));
        let live = locked(&self.games).entry(id.to_string()).or_insert_with(|| loaded.clone()).clone();
        if Arc::ptr_eq(&live, &loaded) {
            self.followups(&live, &*live.table.lock().await);
        }
        Ok(live)
    }

    /// Creates and stores a game; the AI moves first if it has Black.
    pub async fn create(self: &Arc<Self>, request: NewGame) -> Result<Created, ApiError> {
        let (table, creator) = Table::create(request, now_ms())?;
        self.store.insert_game(&table.row()).await.map_err(storage)?;
        let created = Created {
            id: table.id.clone(),
            color: creator.into(),
            token: table.tokens.get(creator).clone().unwrap_or_default(),
            invite: table.invite.clone(),
            invite_url: format!("/games/{}?invite={}", table.id, table.invite),
            game: table.view(now_ms()),
        };
        let live = Arc::new(Live::new(table));
        locked(&self.games).insert(created.id.clone(), live.clone());
        self.followups(&live, &*live.table.lock().await);
        Ok(created)
    }

    /// Seats the second person.
    pub async fn join(self: &Arc<Self>, id: &str, invite: Option<&str>) -> Result<Joined, ApiError> {
        let live = self.live(id).await?;
        let mut table = live.table.lock().await;
        self.refresh(&live, &mut table).await?;
        let color = table.join_seat(invite)?;
        let token = seat::new_token();
        let now = now_ms();
        self.commit(
            &live,
            &mut table,
            Event::Joined { color: color.into() },
            now,
            Some((color, token.clone())),
        )
        .await?;
        Ok(Joined { color: color.into(), token, game: table.view(now) })
    }

    /// A seat's action, by its token: the event's sequence number, and the game after it when
    /// `view` is asked for (the socket's acknowledgement does without: the broadcast carries it).
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        action: Action,
        view: bool,
    ) -> Result<(u64, Option<GameView>), ApiError> {
        let live = self.live(id).await?;
        let mut table = live.table.lock().await;
        self.refresh(&live, &mut table).await?;
        let color = table
            .seat_of(token)
            .ok_or_else(|| ApiError::forbidden("this token holds no seat in this game"))?;
        self.act_as(&live, &mut table, color, action).await?;
        Ok((table.seq(), view.then(|| table.view(now_ms()))))
    }

    /// Catches up with events another server process sharing the database committed: the game
    /// is reloaded and the new events go to this process's listeners. Run before every action (one
    /// cheap query) and when PostgreSQL announces another process's event ([`Hub::follow`]).
    async fn refresh(self: &Arc<Self>, live: &Arc<Live>, table: &mut Table) -> Result<(), ApiError> {
        let known = table.seq();
        if self.store.last_seq(&table.id).await.map_err(storage)? <= known {
            return Ok(());
        }
        let (row, events) =
            self.store.load(&table.id).await.map_err(storage)?.ok_or_else(|| {
                ApiError::not_found(format!("game '{}' is gone from the database", table.id))
            })?;
        *table = Table::restore(row, events, None).map_err(|e| ApiError::internal("reloading a game", e))?;
        self.settled(live, table, known, now_ms());
        Ok(())
    }

    /// A seat's action once the seat is known (a person's token, or the AI): a fallen flag is
    /// recorded first, and then the action is refused.
    async fn act_as(
        self: &Arc<Self>,
        live: &Arc<Live>,
        table: &mut Table,
        color: Color,
        action: Action,
    ) -> Result<(), ApiError> {
        let now = now_ms();
        if let Some(flagged) = table.flag_fallen(now) {
            self.commit(live, table, Event::TimedOut { color: flagged.into() }, now, None).await?;
            return Err(ApiError::conflict(format!("the game is over: {flagged}'s time ran out")));
        }
        let event = table.decide(color, action, now)?;
        self.commit(live, table, event, now, None).await
    }

    /// Commits an event: applied to a copy of the game, written to the database, and only then
    /// made the game's state and broadcast. A failed write changes nothing.
    async fn commit(
        self: &Arc<Self>,
        live: &Arc<Live>,
        table: &mut Table,
        event: Event,
        at_ms: i64,
        seat: Option<(Color, String)>,
    ) -> Result<(), ApiError> {
        let mut next = table.clone();
        if let Some((color, token)) = seat {
            *next.tokens.get_mut(color) = Some(token);
        }
        let body = serde_json::to_string(&event).map_err(|e| ApiError::internal("encoding an event", e))?;
        next.apply(event, at_ms).map_err(|e| ApiError::internal("applying an event", e))?;
        let seq = next.seq();
        let row = EventRow { seq: seq as i64, at_ms, body };
        if let Err(error) = self.store.append(&next.row(), &row).await {
            return Err(self.failed_append(&table.id, error));
        }
        *table = next;
        self.settled(live, table, seq - 1, at_ms);
        Ok(())
    }

    /// After new events (committed here, or found in the database): each goes to the game's
    /// listeners with the game as it now stands, then what the game waits for is started.
    fn settled(self: &Arc<Self>, live: &Arc<Live>, table: &Table, known: u64, now: i64) {
        let view = table.view(now);
        for stored in table.events.iter().skip(known as usize) {
            let text = Message::Event { stored, game: Some(&view) }.to_json();
            // nobody listening is fine
            let _ = live.tx.send(Arc::new(Broadcast { seq: stored.seq, text }));
        }
        self.followups(live, table);
    }

    /// The answer to a failed write. When another server process sharing the database wrote
    /// this event number first, the copy in memory is stale: it is dropped (the next request
    /// loads the game afresh) and the client is asked to retry.
    fn failed_append(&self, id: &str, error: sqlx::Error) -> ApiError {
        let conflict = matches!(&error, sqlx::Error::Database(e) if e.is_unique_violation());
        if !conflict {
            return storage(error);
        }
        locked(&self.games).remove(id);
        ApiError::conflict("the game moved on in another server process: read it again and retry")
    }

    /// Starts what the game now waits for: the flag timer of the player to move, the AI's move or
    /// answer, the dead-stone proposal.
    fn followups(self: &Arc<Self>, live: &Arc<Live>, table: &Table) {
        let version = table.version;
        if let Some((color, deadline)) = table.deadline()
            && locked(&live.scheduled).timer.replace(version) != Some(version)
        {
            tokio::spawn(self.clone().flag_timer(live.clone(), version, color, deadline));
        }
        let ai = table.ai_color();
        let action = match (table.phase, ai) {
            (Phase::Playing, Some((ai, level))) => match table.undo_request {
                Some(asker) if asker != ai => Some((ai, Action::UndoAnswer { accept: true })),
                None if table.position.to_move() == ai => {
                    if self.claim(live, version) {
                        tokio::spawn(self.clone().ai_move(live.clone(), table, ai, level));
                    }
                    None
                }
                _ => None,
            },
            (Phase::Scoring, _) => {
                let scoring = table.scoring.as_ref();
                match (scoring.and_then(|s| s.proposal.as_ref()), ai) {
                    (None, _) => {
                        if self.claim(live, version) {
                            tokio::spawn(self.clone().propose(live.clone(), table));
                        }
                        None
                    }
                    (Some(proposal), Some((ai, _))) => scoring.and_then(|s| {
                        let waiting = *s.accepted.get(ai.opponent()) && !*s.accepted.get(ai);
                        let agree = s.dead == *proposal;
                        waiting.then_some((ai, if agree { Action::AcceptScore } else { Action::Resume }))
                    }),
                    (Some(_), None) => None,
                }
            }
            _ => None,
        };
        if let Some((ai, action)) = action {
            // an answer to the event just committed: it is due once, so it is tied to that event
            let (hub, live, seq) = (self.clone(), live.clone(), table.seq());
            tokio::spawn(async move {
                let mut table = live.table.lock().await;
                if table.seq() == seq {
                    hub.log(hub.act_as(&live, &mut table, ai, action).await);
                }
            });
        }
    }

    /// Marks the AI as busy with this version of the game; false if it already is.
    fn claim(&self, live: &Live, version: u64) -> bool {
        locked(&live.scheduled).ai.replace(version) != Some(version)
    }

    fn log(&self, result: Result<(), ApiError>) {
        if let Err(e) = result {
            eprintln!("variago serve: background action refused: {e}");
        }
    }

    /// Ends the game on time if the player to move is still thinking at the deadline.
    async fn flag_timer(self: Arc<Self>, live: Arc<Live>, version: u64, color: Color, deadline: i64) {
        let wait = deadline.saturating_sub(now_ms()).max(0) as u64 + 1;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let mut table = live.table.lock().await;
        let now = now_ms();
        if table.version == version && table.flag_fallen(now) == Some(color) {
            let result =
                self.commit(&live, &mut table, Event::TimedOut { color: color.into() }, now, None).await;
            self.log(result);
        }
    }

    /// The AI's move, searched on a blocking thread, then played if the game has not moved on.
    fn ai_move(
        self: Arc<Self>,
        live: Arc<Live>,
        table: &Table,
        ai: Color,
        level: u8,
    ) -> impl Future<Output = ()> + Send + 'static {
        let (position, version) = (table.position.clone(), table.version);
        let mut settings = Level::new(level).unwrap_or(Level::MIN).settings();
        settings.seed = version;
        if let Some(clocks) = table.clocks {
            // never think for more than a tenth of the time left
            let left = table.settings.time_control.allowance(*clocks.get(ai));
            let share = Duration::from_millis((left / 10).max(1));
            settings.time = Some(settings.time.map_or(share, |t| t.min(share)));
        }
        async move {
            let Some(mv) = self.on_worker(move || position.best_move(settings)).await.flatten() else {
                return;
            };
            let mut table = live.table.lock().await;
            if table.version == version {
                let result = self.act_as(&live, &mut table, ai, Action::Move { mv }).await;
                self.log(result);
            }
        }
    }

    /// The dead-stone proposal, from playouts on a blocking thread.
    fn propose(self: Arc<Self>, live: Arc<Live>, table: &Table) -> impl Future<Output = ()> + Send + 'static {
        let version = table.version;
        let single = table.position.single().map(|(spec, board)| (spec.clone(), board.clone()));
        let (to_move, position) = (table.position.to_move(), table.position.clone());
        async move {
            let Some((spec, board)) = single else { return };
            let Some(points) = self.on_worker(move || dead::propose(&spec, &board, to_move, version)).await
            else {
                return;
            };
            let mut table = live.table.lock().await;
            if table.version == version && table.scoring.as_ref().is_some_and(|s| s.proposal.is_none()) {
                let dead = position.vertices(&points);
                let result =
                    self.commit(&live, &mut table, Event::DeadProposed { dead }, now_ms(), None).await;
                self.log(result);
            }
        }
    }

    /// Runs CPU work on a blocking thread once one of the AI's slots is free, so that searches
    /// never hold up the async runtime and at most `ai_threads` run at once. A panic in the work
    /// (a bug in the engine) is logged; the game then waits, and the server goes on.
    async fn on_worker<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let permit = self.ai_slots.clone().acquire_owned().await.ok()?;
        let done = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await;
        done.map_err(|e| eprintln!("variago serve: the AI failed: {e}")).ok()
    }

    /// Starts listening to a game: the events after `after`, the game now, and the channel,
    /// taken under the game's lock so that no event falls between them.
    pub async fn subscribe(self: &Arc<Self>, id: &str, after: u64) -> Result<Subscription, ApiError> {
        let live = self.live(id).await?;
        let table = live.table.lock().await;
        let rx = live.tx.subscribe();
        let missed = table.events.iter().skip(after as usize).cloned().collect();
        Ok(Subscription { missed, game: table.view(now_ms()), rx })
    }

    /// The game now.
    pub async fn view(self: &Arc<Self>, id: &str) -> Result<GameView, ApiError> {
        let live = self.live(id).await?;
        let table = live.table.lock().await;
        Ok(table.view(now_ms()))
    }

    /// The game's SGF.
    pub async fn sgf(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let live = self.live(id).await?;
        let table = live.table.lock().await;
        Ok(table.sgf())
    }

    /// Public games in the given statuses, most recently active first.
    pub async fn list(&self, statuses: &[&str], limit: i64) -> Result<Vec<Summary>, ApiError> {
        let rows = self.store.list(statuses, limit).await.map_err(storage)?;
        Ok(rows.iter().filter_map(Table::summary).collect())
    }
}

impl Live {
    fn new(table: Table) -> Self {
        Live {
            table: tokio::sync::Mutex::new(table),
            tx: broadcast::channel(CHANNEL).0,
            scheduled: Mutex::default(),
        }
    }
}

/// A server-to-client WebSocket message.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message<'a> {
    /// An event; live events carry the game after them.
    Event {
        /// The event with its number and time.
        #[serde(flatten)]
        stored: &'a Stored,
        /// The game after the event (live events only).
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<&'a GameView>,
    },
    /// The game as it stands, after the catch-up.
    State {
        /// The game.
        game: &'a GameView,
    },
    /// An action sent over the socket was committed.
    Ack {
        /// The client's reference for the action.
        #[serde(rename = "ref")]
        reference: Option<u64>,
        /// The event's sequence number.
        seq: u64,
    },
    /// A refused action or a malformed message.
    Error {
        /// The client's reference for the action, if it sent one.
        #[serde(rename = "ref")]
        reference: Option<u64>,
        /// Why.
        error: &'a str,
    },
}

impl Message<'_> {
    /// The message as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|e| format!(r#"{{"type":"error","error":"encoding: {e}"}}"#))
    }
}
