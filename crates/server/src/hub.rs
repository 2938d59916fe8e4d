//! The live games: one lock per game (so games never wait for each other), the commit path
//! (database first, then memory, then the broadcast), and the work that follows an event: the
//! AI's moves and answers on blocking worker threads, the dead-stone proposal, the flag timers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use axum::http::StatusCode;
use serde::Serialize;
use sqlx::postgres::PgListener;
use tokio::sync::{Notify, broadcast, watch};
use variago_rules::Color;
use variago_search::Level;

use crate::ai_queue::AiQueue;
use crate::dead;
use crate::error::ApiError;
use crate::locked;
use crate::position::{Estimate, Position};
use crate::seat;
use crate::store::{self, EventRow, GameRow, Store};
use crate::table::{Action, Event, GameView, NewGame, Phase, Side, Stored, Summary, Table};

/// Messages a game's broadcast channel holds before a slow listener is told it lagged (it then
/// catches up from the game's event list).
const CHANNEL: usize = 256;

/// Playouts of a score estimate: enough for the ownership of a settled area to show (a
/// fraction of a second on 19x19), few enough that asking often costs little.
pub const ESTIMATE_PLAYOUTS: u64 = 2_000;

/// How long a background action (the AI's move or answer, a proposal) the database could not
/// store waits before it is tried again.
const RETRY_DELAY: Duration = Duration::from_secs(1);

/// An event as sent to every listener of a game, serialised once.
#[derive(Debug)]
pub struct Broadcast {
    /// The event's sequence number.
    pub seq: u64,
    /// The WebSocket message (JSON), shared by every listener without copies.
    pub text: Utf8Bytes,
}

/// The background work scheduled for a game, so that a task is not started twice for the same
/// state of the game.
#[derive(Debug, Default)]
struct Scheduled {
    /// The table version the AI (move, answer or proposal) works on.
    ai: Option<u64>,
    /// Whether the game's flag timer task runs (one per game, while a clock runs).
    timer: bool,
}

/// The running clock's deadline the flag timer watches: the player to move and when their flag
/// falls (ms since the epoch).
type Deadline = Option<(Color, i64)>;

/// A game in memory.
#[derive(Debug)]
pub struct Live {
    /// The game's id, readable without waiting for the game's lock.
    id: String,
    /// The game; the lock orders its events.
    pub table: tokio::sync::Mutex<Table>,
    /// Every committed event goes here after the database.
    pub tx: broadcast::Sender<Arc<Broadcast>>,
    scheduled: Mutex<Scheduled>,
    /// The deadline the flag timer sleeps towards; changed (under `scheduled`) by every event.
    deadline: watch::Sender<Deadline>,
    /// The AI's time spent on this game since it was loaded, in ms: who goes first in the AI's
    /// queue.
    ai_ms: AtomicU64,
    /// When a request last asked for the game (ms since the epoch): idle games leave memory.
    touched_ms: AtomicI64,
    /// WebSockets open on the game without a seat's token: its spectators, for the lists.
    spectators: AtomicUsize,
    /// The last score estimate: asked again for the same event, it is answered without a search.
    estimate: Mutex<Option<Estimate>>,
}

/// A spectator's place in a game's count, given back when the socket closes (dropped).
#[derive(Debug)]
pub struct Spectator {
    live: Arc<Live>,
    /// Told of the change, for the other processes' lists.
    changed: Arc<Notify>,
}

impl Drop for Spectator {
    fn drop(&mut self) {
        self.live.spectators.fetch_sub(1, Ordering::Relaxed);
        self.changed.notify_one();
    }
}

/// How long after a spectator comes or goes this process publishes its counts (the changes of
/// that while go together).
const SPECTATORS_SETTLE: Duration = Duration::from_millis(100);

/// How many heartbeats a process's published spectators outlive its last renewal: a process
/// that died stops counting after that.
const SPECTATORS_LIFETIME: u32 = 3;

/// A seat taken by a join: its colour, token and account.
struct Seat {
    color: Color,
    token: String,
    account: Option<String>,
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
    ai: Arc<AiQueue>,
    /// The most searches that may wait for the AI before new games against it are refused.
    ai_queue_limit: usize,
    /// The AI's moves this process has searched since it started.
    ai_moves_searched: AtomicU64,
    /// This process's name among those sharing the database (random), for its spectators' rows.
    process: String,
    /// Told whenever a spectator comes or goes.
    spectators_changed: Arc<Notify>,
}

/// Milliseconds since the Unix epoch: the time events and clocks are stamped with.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

fn storage(error: sqlx::Error) -> ApiError {
    ApiError::unavailable(error)
}

/// The answer to a failed write. When another server process sharing the database wrote this
/// event number first, the game in memory is stale: the caller catches it up and may retry.
fn failed_append(error: sqlx::Error) -> ApiError {
    if store::is_collision(&error) {
        ApiError::conflict("the game moved on in another server process: read it again and retry")
    } else {
        storage(error)
    }
}

impl Hub {
    /// A hub on a store; `ai_threads` searches may run at once, and while `ai_queue_limit` wait,
    /// new games against the AI are refused.
    pub fn new(store: Store, ai_threads: usize, ai_queue_limit: usize) -> Arc<Self> {
        Arc::new(Hub {
            store,
            games: Mutex::new(HashMap::new()),
            ai: AiQueue::new(ai_threads),
            ai_queue_limit,
            ai_moves_searched: AtomicU64::new(0),
            process: seat::new_token()[..16].to_string(),
            spectators_changed: Arc::default(),
        })
    }

    /// The store, for the lobby's lists.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Loads every game in play and restarts what each one waits for (the AI's move, a clock):
    /// after a crash, play goes on from the last committed event. (Games waiting for their
    /// second player wait for nothing else: they are loaded when asked for.) A game that cannot
    /// be loaded is reported in the log and left alone, so that it cannot keep the others down;
    /// returns how many were resumed.
    pub async fn resume_all(self: &Arc<Self>) -> Result<usize, ApiError> {
        let ids = self.store.in_play().await.map_err(storage)?;
        let mut resumed = 0;
        for id in &ids {
            match self.live(id).await {
                Ok(_) => resumed += 1,
                Err(e) => tracing::error!(game = %id, error = %e, "not resumed"),
            }
        }
        Ok(resumed)
    }

    /// Follows the events other server processes announce through PostgreSQL: a game this
    /// process holds catches up at once and tells its sockets. When the listening connection was
    /// lost (the announcements of that while are gone), every game in memory is caught up once
    /// it is back: the process that runs a game's AI must not wait on a stale copy of it.
    pub async fn follow(self: Arc<Self>, mut listener: PgListener) {
        loop {
            let notification = match listener.try_recv().await {
                Ok(Some(notification)) => notification,
                Ok(None) => {
                    tracing::warn!("the connection listening for other processes' events was lost");
                    let games: Vec<Arc<Live>> = locked(&self.games).values().cloned().collect();
                    for live in games {
                        self.catch_up_with_others(&live, None).await;
                    }
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "listening for other processes' events");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            };
            let Some((id, seq)) = notification.payload().split_once(' ') else { continue };
            let Ok(seq) = seq.parse::<u64>() else { continue };
            let Some(live) = locked(&self.games).get(id).cloned() else { continue };
            self.catch_up_with_others(&live, Some(seq)).await;
        }
    }

    /// Catches a game up with the database when another process has written event `seq` (or
    /// may have written events, with `None`).
    async fn catch_up_with_others(self: &Arc<Self>, live: &Arc<Live>, seq: Option<u64>) {
        let mut table = live.table.lock().await;
        if seq.is_none_or(|seq| seq > table.seq())
            && let Err(e) = self.refresh(live, &mut table).await
        {
            tracing::warn!(game = %table.id, error = %e, "catching up");
        }
    }

    /// A game, from memory or else from the database.
    pub async fn live(self: &Arc<Self>, id: &str) -> Result<Arc<Live>, ApiError> {
        if let Some(live) = locked(&self.games).get(id) {
            live.touched_ms.store(now_ms(), Ordering::Relaxed);
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

    /// Creates and stores a game, its creator's seat held by `account` if logged in; the AI moves
    /// first if it has Black.
    pub async fn create(
        self: &Arc<Self>,
        request: NewGame,
        account: Option<String>,
    ) -> Result<Created, ApiError> {
        let (table, creator) = Table::create(request, account, now_ms())?;
        if table.ai_color().is_some() {
            self.ai_has_room()?;
        }
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

    /// Seats the second person, held by `account` if logged in.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        invite: Option<&str>,
        account: Option<&str>,
    ) -> Result<Joined, ApiError> {
        let live = self.live(id).await?;
        let mut table = live.table.lock().await;
        let token = seat::new_token();
        let (color, game) = match self.join_once(&live, &mut table, invite, &token, account).await {
            Ok(done) => done,
            Err(e) => {
                if !self.catch_up(&live, &mut table, &e).await? {
                    return Err(e);
                }
                self.join_once(&live, &mut table, invite, &token, account).await?
            }
        };
        Ok(Joined { color: color.into(), token, game })
    }

    async fn join_once(
        self: &Arc<Self>,
        live: &Arc<Live>,
        table: &mut Table,
        invite: Option<&str>,
        token: &str,
        account: Option<&str>,
    ) -> Result<(Color, GameView), ApiError> {
        let color = table.join_seat(invite, account)?;
        let event = Event::Joined { color: color.into() };
        let seat = Seat { color, token: token.to_string(), account: account.map(str::to_string) };
        let game = self.commit(live, table, event, now_ms(), Some(seat)).await?;
        Ok((color, game))
    }

    /// A seat's action, by its token: the event's sequence number, and the game after it when
    /// `view` is asked for (the socket's acknowledgement does without: the broadcast carries it).
    ///
    /// The action is judged on the game in memory, without asking the database first: when
    /// another server process sharing the database has moved the game on, either the action is
    /// refused on the stale game or its event number is already taken (the primary key refuses
    /// the write). In both cases the game is caught up from the database and the action judged
    /// once more; a write that succeeds proves the game in memory was current.
    pub async fn act(
        self: &Arc<Self>,
        id: &str,
        token: &str,
        action: Action,
        view: bool,
    ) -> Result<(u64, Option<GameView>), ApiError> {
        let live = self.live(id).await?;
        let mut table = live.table.lock().await;
        let game = match self.act_once(&live, &mut table, token, action.clone()).await {
            Ok(game) => game,
            Err(e) => {
                if !self.catch_up(&live, &mut table, &e).await? {
                    return Err(e);
                }
                self.act_once(&live, &mut table, token, action).await?
            }
        };
        Ok((table.seq(), view.then_some(game)))
    }

    /// Whether `token` holds a seat in the game: 403 if not, 404 if there is no such game. A
    /// refusal on the game in memory is checked again after catching up with the database (the
    /// seat may have been taken through another server process).
    pub async fn check_seat(self: &Arc<Self>, id: &str, token: &str) -> Result<(), ApiError> {
        let live = self.live(id).await?;
        let mut table = live.table.lock().await;
        if table.seat_of(token).is_some()
            || (self.refresh(&live, &mut table).await? && table.seat_of(token).is_some())
        {
            return Ok(());
        }
        Err(ApiError::forbidden("this token holds no seat in this game"))
    }

    /// The token of the seat `account` holds in the game, if any: a logged-in player acts with
    /// the session instead of the seat token, on every device. Checked again after catching up
    /// with the database, as [`Hub::check_seat`] does.
    pub async fn account_seat(self: &Arc<Self>, id: &str, account: &str) -> Result<Option<String>, ApiError> {
        let live = self.live(id).await?;
        let mut table = live.table.lock().await;
        if table.token_of_account(account).is_none() {
            self.refresh(&live, &mut table).await?;
        }
        Ok(table.token_of_account(account).map(str::to_string))
    }

    async fn act_once(
        self: &Arc<Self>,
        live: &Arc<Live>,
        table: &mut Table,
        token: &str,
        action: Action,
    ) -> Result<GameView, ApiError> {
        let color = table
            .seat_of(token)
            .ok_or_else(|| ApiError::forbidden("this token holds no seat in this game"))?;
        self.act_as(live, table, color, action).await
    }

    /// After a refusal: whether the game in memory was stale and has been caught up (so the
    /// request is worth judging again). Failures of the server itself are not retried.
    async fn catch_up(
        self: &Arc<Self>,
        live: &Arc<Live>,
        table: &mut Table,
        error: &ApiError,
    ) -> Result<bool, ApiError> {
        if !error.status.is_client_error() {
            return Ok(false);
        }
        self.refresh(live, table).await
    }

    /// Catches up with events another server process sharing the database committed: the game
    /// is reloaded and the new events go to this process's listeners; true if there were any.
    /// Run when a request is refused or its write collides ([`Hub::act`]), and when PostgreSQL
    /// announces another process's event ([`Hub::follow`]).
    async fn refresh(self: &Arc<Self>, live: &Arc<Live>, table: &mut Table) -> Result<bool, ApiError> {
        let known = table.seq();
        if self.store.last_seq(&table.id).await.map_err(storage)? <= known {
            return Ok(false);
        }
        let (row, events) =
            self.store.load(&table.id).await.map_err(storage)?.ok_or_else(|| {
                ApiError::not_found(format!("game '{}' is gone from the database", table.id))
            })?;
        *table = Table::restore(row, events, None).map_err(|e| ApiError::internal("reloading a game", e))?;
        self.settled(live, table, known, now_ms());
        Ok(true)
    }

    /// A seat's action once the seat is known (a person's token, or the AI): a fallen flag is
    /// recorded first, and then the action is refused. Returns the game after the action.
    async fn act_as(
        self: &Arc<Self>,
        live: &Arc<Live>,
        table: &mut Table,
        color: Color,
        action: Action,
    ) -> Result<GameView, ApiError> {
        let now = now_ms();
        if let Some(flagged) = table.flag_fallen(now) {
            self.commit(live, table, Event::TimedOut { color: flagged.into() }, now, None).await?;
            return Err(ApiError::conflict(format!("the game is over: {flagged}'s time ran out")));
        }
        let event = table.decide(color, action, now)?;
        self.commit(live, table, event, now, None).await
    }

    /// Commits an event: applied to a copy of the game, written to the database (with the
    /// players' new ratings when it ends a rated game), and only then made the game's state and
    /// broadcast. A failed write changes nothing. Returns the game after the event.
    async fn commit(
        self: &Arc<Self>,
        live: &Arc<Live>,
        table: &mut Table,
        event: Event,
        at_ms: i64,
        seat: Option<Seat>,
    ) -> Result<GameView, ApiError> {
        let mut next = table.clone();
        if let Some(seat) = seat {
            *next.tokens.get_mut(seat.color) = Some(seat.token);
            *next.accounts.get_mut(seat.color) = seat.account;
        }
        let body = serde_json::to_string(&event).map_err(|e| ApiError::internal("encoding an event", e))?;
        next.apply(event, at_ms).map_err(|e| ApiError::internal("applying an event", e))?;
        let rated = if table.phase == Phase::Finished { None } else { next.rated_result() };
        let seq = next.seq();
        let row = EventRow { seq: seq as i64, at_ms, body };
        if let Err(error) = self.store.append(&next.row(), &row, rated.as_ref()).await {
            return Err(failed_append(error));
        }
        metrics::counter!(crate::metrics::EVENTS_COMMITTED).increment(1);
        *table = next;
        Ok(self.settled(live, table, seq - 1, at_ms))
    }

    /// After new events (committed here, or found in the database): each goes to the game's
    /// listeners with the game as it now stands, then what the game waits for is started.
    /// Returns the game as it now stands.
    fn settled(self: &Arc<Self>, live: &Arc<Live>, table: &Table, known: u64, now: i64) -> GameView {
        let view = table.view(now);
        for stored in table.events.iter().skip(known as usize) {
            let text = Message::Event { stored, game: Some(&view) }.to_json();
            // nobody listening is fine
            let _ = live.tx.send(Arc::new(Broadcast { seq: stored.seq, text: text.into() }));
        }
        self.followups(live, table);
        view
    }

    /// The end of a background action (the AI's, a timer's): a refusal is logged, and if the
    /// game moved on in another server process it is caught up. An action the database could
    /// not store is tried again later if `retry` (the flag timer retries on its own: its retry
    /// would take the AI's claim from a search that may be running).
    async fn background(
        self: &Arc<Self>,
        live: &Arc<Live>,
        table: &mut Table,
        result: Result<GameView, ApiError>,
        retry: bool,
    ) {
        let Err(e) = result else { return };
        tracing::warn!(game = %table.id, error = %e, "background action refused");
        if e.status == StatusCode::SERVICE_UNAVAILABLE {
            if retry {
                self.retry_later(live, table.version);
            }
            return;
        }
        if let Err(e) = self.catch_up(live, table, &e).await {
            tracing::warn!(game = %table.id, error = %e, "catching up");
        }
    }

    /// After the database could not store a background action, or while another server process
    /// runs the game's background work: what the game waits for is started again after
    /// [`RETRY_DELAY`] if the game is still at `version`, so that a game against the AI goes on by
    /// itself once the database recovers or the other process has ended.
    fn retry_later(self: &Arc<Self>, live: &Arc<Live>, version: u64) {
        let (hub, live) = (self.clone(), live.clone());
        // the AI's claim on this version is given up, so that the retry may claim it again
        locked(&live.scheduled).ai.take_if(|claimed| *claimed == version);
        tokio::spawn(async move {
            tokio::time::sleep(RETRY_DELAY).await;
            let table = live.table.lock().await;
            if table.version == version {
                hub.followups(&live, &table);
            }
        });
    }

    /// Starts what the game now waits for: the flag timer of the player to move, the AI's move or
    /// answer, the dead-stone proposal.
    fn followups(self: &Arc<Self>, live: &Arc<Live>, table: &Table) {
        let version = table.version;
        {
            let deadline = table.deadline();
            let mut scheduled = locked(&live.scheduled);
            live.deadline.send_if_modified(|old| std::mem::replace(old, deadline) != deadline);
            if deadline.is_some() && !scheduled.timer {
                scheduled.timer = true;
                tokio::spawn(self.clone().flag_timer(live.clone()));
            }
        }
        let ai = table.ai_color();
        let action = match (table.phase, ai) {
            // the AI consents to leaving without a result, in play and in the dead-stone phase
            (Phase::Playing | Phase::Scoring, Some((ai, _)))
                if table.leave_request.is_some_and(|asker| asker != ai) =>
            {
                Some((ai, Action::LeaveAccept {}))
            }
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
                        waiting
                            .then_some((ai, if agree { Action::AcceptScore {} } else { Action::Resume {} }))
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
                if !hub.runs_here(&live, version).await {
                    return;
                }
                let mut table = live.table.lock().await;
                if table.seq() == seq {
                    let result = hub.act_as(&live, &mut table, ai, action).await;
                    hub.background(&live, &mut table, result, true).await;
                }
            });
        }
    }

    /// Whether this process runs the game's background work ([`Store::runs_here`]); if not, it
    /// asks again later (see [`Hub::retry_later`]), so that the work is taken over when the
    /// process running it ends.
    async fn runs_here(self: &Arc<Self>, live: &Arc<Live>, version: u64) -> bool {
        let here = self.store.runs_here(&live.id).await;
        if !here {
            self.retry_later(live, version);
        }
        here
    }

    /// Marks the AI as busy with this version of the game; false if it already is.
    fn claim(&self, live: &Live, version: u64) -> bool {
        locked(&live.scheduled).ai.replace(version) != Some(version)
    }

    /// The game's flag timer: sleeps until the running clock's deadline and ends the game on
    /// time if the player to move is still thinking then. Every event that moves the deadline
    /// wakes it to sleep towards the new one, so a game has one timer task however many moves
    /// are played; it ends when no clock runs (the dead-stone phase, the end).
    async fn flag_timer(self: Arc<Self>, live: Arc<Live>) {
        let mut deadlines = live.deadline.subscribe();
        loop {
            let Some((color, deadline)) = *deadlines.borrow_and_update() else {
                let mut scheduled = locked(&live.scheduled);
                if live.deadline.borrow().is_none() {
                    scheduled.timer = false;
                    return;
                }
                continue;
            };
            let wait = Duration::from_millis(deadline.saturating_sub(now_ms()).max(0) as u64 + 1);
            tokio::select! {
                changed = deadlines.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                () = tokio::time::sleep(wait) => {
                    // where another process runs the game, it records the flag, and this one
                    // hears of it; it looks again in a second, in case that process has ended
                    let failed = !self.store.runs_here(&live.id).await || {
                        let mut table = live.table.lock().await;
                        let now = now_ms();
                        if table.flag_fallen(now) == Some(color) {
                            let event = Event::TimedOut { color: color.into() };
                            let result = self.commit(&live, &mut table, event, now, None).await;
                            let failed = result.is_err();
                            self.background(&live, &mut table, result, false).await;
                            failed
                        } else {
                            false
                        }
                    };
                    if failed {
                        // the deadline stays where it was: a database that refused the flag's
                        // event is asked again in a second, not at once and without end
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                }
            }
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
            if !self.runs_here(&live, version).await {
                return;
            }
            let action = match self.search(&live, &position, settings).await {
                Some(mv) => Action::Move { mv },
                None => Action::Resign {},
            };
            let mut table = live.table.lock().await;
            if table.version == version {
                let result = self.act_as(&live, &mut table, ai, action).await;
                self.background(&live, &mut table, result, true).await;
            }
        }
    }

    /// The AI's move in a position. A search that panics (a bug in the engine; logged by
    /// [`Hub::on_worker`]) or finds nothing is tried once more with another seed, then a legal
    /// move is picked without searching, so that a game never waits forever for the AI; `None`
    /// (the AI then resigns) only if even listing the legal moves fails.
    async fn search(
        &self,
        live: &Live,
        position: &Position,
        settings: variago_search::Settings,
    ) -> Option<String> {
        self.ai_moves_searched.fetch_add(1, Ordering::Relaxed);
        for attempt in 0..2u64 {
            let (position, mut settings) = (position.clone(), settings.clone());
            settings.seed = settings.seed.wrapping_add(attempt.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            if let Some(Some(mv)) = self.on_worker(live, move || position.best_move(settings)).await {
                return Some(mv);
            }
            tracing::error!(attempt = attempt + 1, "the AI's search failed; trying again");
        }
        let (position, seed) = (position.clone(), settings.seed);
        let fallback = self.on_worker(live, move || {
            let legal = position.judged_moves().0;
            legal.get(seed as usize % legal.len().max(1)).cloned()
        });
        let mv = fallback.await.flatten();
        tracing::error!(?mv, "the AI plays without searching");
        mv
    }

    /// The dead-stone proposal, from playouts on a blocking thread.
    fn propose(self: Arc<Self>, live: Arc<Live>, table: &Table) -> impl Future<Output = ()> + Send + 'static {
        let version = table.version;
        let single = table.position.single().map(|(spec, board)| (spec.clone(), board.clone()));
        let (to_move, position) = (table.position.to_move(), table.position.clone());
        async move {
            let Some((spec, board)) = single else { return };
            if !self.runs_here(&live, version).await {
                return;
            }
            // a failed proposal (logged) proposes nothing dead: the players mark by hand
            let points = self
                .on_worker(&live, move || dead::propose(&spec, &board, to_move, version))
                .await
                .unwrap_or_default();
            let mut table = live.table.lock().await;
            if table.version == version && table.scoring.as_ref().is_some_and(|s| s.proposal.is_none()) {
                let dead = position.vertices(&points);
                let result =
                    self.commit(&live, &mut table, Event::DeadProposed { dead }, now_ms(), None).await;
                self.background(&live, &mut table, result, true).await;
            }
        }
    }

    /// Runs a game's CPU work on a blocking thread once one of the AI's slots is free (the game
    /// with the least AI time so far first), so that searches never hold up the async runtime
    /// and at most `ai_threads` run at once; the time it takes is added to the game's. A panic
    /// in the work (a bug in the engine) is logged and gives `None`; the caller decides what the
    /// game does instead, and the server goes on.
    async fn on_worker<T: Send + 'static>(
        &self,
        live: &Live,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        let slot = self.ai.slot(live.ai_ms.load(Ordering::Relaxed)).await;
        let started = std::time::Instant::now();
        let done = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            work()
        })
        .await;
        live.ai_ms.fetch_add(started.elapsed().as_millis() as u64, Ordering::Relaxed);
        done.map_err(|e| tracing::error!(error = %e, "the AI failed")).ok()
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

    /// The AI's estimate of a game in play ([`Position::estimate`]), searched on one of the AI's
    /// slots like its moves (once per event: the same event's estimate is kept for everyone who
    /// asks): 409 once play has ended, 503 while the AI's queue is full.
    pub async fn estimate(self: &Arc<Self>, id: &str) -> Result<Estimate, ApiError> {
        let live = self.live(id).await?;
        let (position, seq) = {
            let table = live.table.lock().await;
            if table.phase != Phase::Playing {
                return Err(ApiError::conflict("a score estimate is for games in play"));
            }
            (table.position.clone(), table.seq())
        };
        if let Some(kept) = locked(&live.estimate).as_ref().filter(|e| e.seq == seq) {
            return Ok(kept.clone());
        }
        self.ai_has_room()?;
        let settings =
            variago_search::Settings { playouts: ESTIMATE_PLAYOUTS, seed: seq, ..Default::default() };
        let estimate = self
            .on_worker(&live, move || position.estimate(settings, seq))
            .await
            .flatten()
            .ok_or_else(|| ApiError::internal("estimating the score", "the search found nothing"))?;
        *locked(&live.estimate) = Some(estimate.clone());
        Ok(estimate)
    }

    /// The game's SGF.
    pub async fn sgf(self: &Arc<Self>, id: &str) -> Result<String, ApiError> {
        let live = self.live(id).await?;
        let table = live.table.lock().await;
        Ok(table.sgf())
    }

    /// Drops from memory the games nobody uses: no request or task holds them, no socket
    /// listens, and no request has asked for them for `idle`. All they are is in the database,
    /// and [`Hub::live`] loads them again when asked. With PostgreSQL, this process gives up
    /// running them. Returns how many left memory.
    pub async fn evict_idle(&self, idle: Duration) -> usize {
        let asked_since = now_ms() - idle.as_millis() as i64;
        let mut evicted = Vec::new();
        // handles on a game are taken under the map's lock only, so a game the map alone holds
        // stays unused while it is held here
        locked(&self.games).retain(|id, live| {
            let used = Arc::strong_count(live) > 1
                || live.tx.receiver_count() > 0
                || live.touched_ms.load(Ordering::Relaxed) > asked_since;
            if !used {
                evicted.push(id.clone());
            }
            used
        });
        for id in &evicted {
            self.store.let_go(id, || locked(&self.games).contains_key(id)).await;
        }
        evicted.len()
    }

    /// Searches waiting for an AI slot now.
    pub fn ai_waiting(&self) -> usize {
        self.ai.waiting()
    }

    /// How many games are in memory.
    pub fn games_in_memory(&self) -> usize {
        locked(&self.games).len()
    }

    /// What this process is doing, for monitoring: games in memory, searches waiting for the
    /// AI, the AI's moves searched since it started.
    pub fn load(&self) -> serde_json::Value {
        serde_json::json!({
            "games_in_memory": self.games_in_memory(),
            "ai_waiting": self.ai.waiting(),
            "ai_moves_searched": self.ai_moves_searched.load(Ordering::Relaxed),
        })
    }

    /// Whether a new game against the AI would wait too long: 503 while the AI's queue is full.
    pub fn ai_has_room(&self) -> Result<(), ApiError> {
        if self.ai.waiting() >= self.ai_queue_limit {
            return Err(ApiError::busy("the AI has too many games waiting: try again shortly"));
        }
        Ok(())
    }

    /// Public games in the given statuses, most recently active first, with the spectators
    /// watching each: through this process, and with PostgreSQL through the other processes
    /// too, as they publish them.
    pub async fn list(&self, statuses: &[&str], limit: i64) -> Result<Vec<Summary>, ApiError> {
        let rows = self.store.list(statuses, limit).await.map_err(storage)?;
        self.summaries(&rows).await
    }

    /// The games `account` holds a seat in, in every status and public or not, most recently
    /// active first: "my games" on every device.
    pub async fn games_of(&self, account: &str, limit: i64) -> Result<Vec<Summary>, ApiError> {
        let rows = self.store.games_of(account, i64::MAX, limit).await.map_err(storage)?;
        self.summaries(&rows).await
    }

    /// Deletes an account (its games, all finished, stay under `tombstone`): refused while it
    /// holds a seat in a game open or in play, whose next commit would write its name back. The
    /// games in memory take the tombstone too, so that a later event (a chat after the end)
    /// does not bring the name back.
    pub async fn delete_account(&self, account: &str, tombstone: &str) -> Result<(), ApiError> {
        let unfinished = self.store.unfinished_games_of(account).await.map_err(storage)?;
        if unfinished > 0 {
            return Err(ApiError::conflict(format!(
                "you hold a seat in {unfinished} game{} not over yet: finish, resign or cancel {} first",
                if unfinished == 1 { "" } else { "s" },
                if unfinished == 1 { "it" } else { "them" },
            )));
        }
        self.store.delete_account(account, tombstone).await.map_err(storage)?;
        let games: Vec<Arc<Live>> = locked(&self.games).values().cloned().collect();
        for live in games {
            let mut table = live.table.lock().await;
            let accounts = &mut table.accounts;
            for seat in [&mut accounts.black, &mut accounts.white] {
                if seat.as_deref() == Some(account) {
                    *seat = Some(tombstone.to_string());
                }
            }
        }
        Ok(())
    }

    /// The lobby's lines for these games, with their spectators.
    async fn summaries(&self, rows: &[GameRow]) -> Result<Vec<Summary>, ApiError> {
        let ids: Vec<&str> = rows.iter().map(|row| row.id.as_str()).collect();
        let elsewhere = self.store.spectators_elsewhere(&self.process, &ids).await.map_err(storage)?;
        let games = locked(&self.games);
        Ok(rows
            .iter()
            .filter_map(Table::summary)
            .map(|mut summary| {
                let here = games.get(&summary.id).map_or(0, |live| live.spectators.load(Ordering::Relaxed));
                summary.spectators = here + elsewhere.get(&summary.id).copied().unwrap_or(0);
                summary
            })
            .collect())
    }

    /// Counts a spectator of a game while the returned place is held.
    pub async fn watch(self: &Arc<Self>, id: &str) -> Result<Spectator, ApiError> {
        let live = self.live(id).await?;
        live.spectators.fetch_add(1, Ordering::Relaxed);
        self.spectators_changed.notify_one();
        Ok(Spectator { live, changed: self.spectators_changed.clone() })
    }

    /// The spectators this process holds, by game (the games watched only).
    fn spectators_here(&self) -> HashMap<String, usize> {
        locked(&self.games)
            .iter()
            .map(|(id, live)| (id.clone(), live.spectators.load(Ordering::Relaxed)))
            .filter(|&(_, count)| count > 0)
            .collect()
    }

    /// With PostgreSQL, publishes this process's spectators for the other processes' lists
    /// (until the hub is gone): soon after a spectator comes or goes, and every `heartbeat`,
    /// which also renews them for [`SPECTATORS_LIFETIME`] heartbeats and deletes those of the
    /// processes that stopped renewing theirs (they died). A failed publication is logged and
    /// tried again at the next change or heartbeat.
    pub async fn publish_spectators(hub: std::sync::Weak<Hub>, heartbeat: Duration) {
        let Some(changed) = hub.upgrade().map(|hub| hub.spectators_changed.clone()) else { return };
        let mut published = HashMap::new();
        let mut beats = tokio::time::interval(heartbeat);
        beats.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let beat = tokio::select! {
                _ = beats.tick() => true,
                () = changed.notified() => {
                    tokio::time::sleep(SPECTATORS_SETTLE).await;
                    false
                }
            };
            let Some(hub) = hub.upgrade() else { return };
            let now = hub.spectators_here();
            if beat || now != published {
                let lifetime = heartbeat * SPECTATORS_LIFETIME;
                match hub.store.publish_spectators(&hub.process, lifetime, &now, &published).await {
                    Ok(()) => published = now,
                    Err(e) => tracing::warn!(error = %e, "publishing the spectators"),
                }
            }
            if beat && let Err(e) = hub.store.sweep_spectators().await {
                tracing::warn!(error = %e, "deleting the spectators of processes gone");
            }
        }
    }

    /// Deletes this process's published spectators (a clean stop; with PostgreSQL).
    pub async fn forget_spectators(&self) {
        if self.store.is_shared()
            && let Err(e) = self.store.forget_spectators(&self.process).await
        {
            tracing::warn!(error = %e, "deleting this process's spectators");
        }
    }
}

impl Live {
    fn new(table: Table) -> Self {
        Live {
            id: table.id.clone(),
            table: tokio::sync::Mutex::new(table),
            tx: broadcast::channel(CHANNEL).0,
            scheduled: Mutex::default(),
            deadline: watch::Sender::new(None),
            ai_ms: AtomicU64::new(0),
            touched_ms: AtomicI64::new(now_ms()),
            spectators: AtomicUsize::new(0),
            estimate: Mutex::new(None),
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
