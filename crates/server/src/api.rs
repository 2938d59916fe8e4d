//! The HTTP JSON API and the per-game WebSocket: request parsing that never panics and answers
//! every failure as `{"error": "..."}`, and the handlers, which only translate to the hub.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{self, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Extension, FromRequest, Path, Query, Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use axum::routing::{get, post, put};

use crate::accounts;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use tokio::sync::broadcast::{self, error::RecvError, error::TryRecvError};
use variago_rules::spec::VARIANTS;

use crate::error::ApiError;
use crate::hub::{Broadcast, Hub, Message, Subscription};
use crate::listen::{Place, client_of};
use crate::table::{Action, NewGame};
use crate::throttle::Throttle;

/// The largest request body accepted: a creation or an action is well under a kilobyte.
pub const BODY_LIMIT: usize = 16 * 1024;
/// Each WebSocket's read buffer.
const SOCKET_READ_BUFFER: usize = 4 * 1024;
/// How long a request's body may take to arrive.
const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest seat token accepted (they are 64 hex digits).
const MAX_TOKEN_LENGTH: usize = 128;
/// The most games a list returns.
const LIST_LIMIT: i64 = 200;

/// A JSON body parsed with our errors: 413 past the size limit, 400 for anything not the
/// expected JSON (with serde's explanation).
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        // a body trickled in (or never finished) would hold the connection past the header timeout
        let bytes = tokio::time::timeout(BODY_TIMEOUT, Bytes::from_request(req, state))
            .await
            .map_err(|_| {
                ApiError::new(
                    StatusCode::REQUEST_TIMEOUT,
                    format!("the request's body did not arrive within {} s", BODY_TIMEOUT.as_secs()),
                )
            })?
            .map_err(|r| ApiError::new(r.status(), r.body_text()))?;
        // an empty body reads as an empty object, so that bodies of optional fields may be left out
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}" } else { &bytes };
        serde_json::from_slice(bytes)
            .map(Body)
            .map_err(|e| ApiError::bad_request(format!("malformed JSON: {e}")))
    }
}

/// How the server holds its clients to account: their rates, and how often each WebSocket is
/// pinged (see [`crate::Config::ping_interval`]).
#[derive(Debug)]
pub struct Policy {
    /// The rate limits.
    pub throttle: Throttle,
    /// The WebSockets' ping interval.
    pub heartbeat: Duration,
    /// Turns true when the server stops: each socket tells its client and closes.
    pub stopping: tokio::sync::watch::Receiver<bool>,
}

/// The whole application: the API under `/api` (with JSON errors for unknown API paths), and
/// either the pages (which then answer every other path) or a JSON 404. Each WebSocket is
/// pinged and clients are held to their rates as the policy says.
pub fn app(hub: Arc<Hub>, pages: Option<Router>, policy: Arc<Policy>) -> Router {
    let api = Router::new().nest("/api", api_routes(hub)).layer(Extension(policy));
    match pages {
        Some(pages) => api.merge(pages),
        None => api.fallback(|| async { ApiError::not_found("no such page: the API is under /api") }),
    }
}

/// The API's routes, relative to `/api`.
fn api_routes(hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/health", get(health))
        .route("/accounts", post(accounts::sign_up).delete(accounts::delete_account))
        .route("/accounts/password", put(accounts::change_password))
        .route("/sessions", post(accounts::log_in).get(accounts::who).delete(accounts::log_out))
        .route("/players/{name}", get(accounts::player))
        .route("/ratings", get(accounts::leaderboard))
        .route("/variants", get(variants))
        .route("/games", post(create).get(list))
        .route("/games/{id}", get(read))
        .route("/games/{id}/join", post(join))
        .route("/games/{id}/actions", post(act))
        .route("/games/{id}/events", get(events))
        .route("/games/{id}/sgf", get(sgf))
        .route("/games/{id}/estimate", get(estimate))
        .route("/games/{id}/ws", get(socket))
        // (a route layer: it runs after routing, so each request has its route's pattern)
        .route_layer(axum::middleware::from_fn(crate::metrics::record))
        .fallback(|| async { ApiError::not_found("no such endpoint") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method not allowed here")
        })
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(axum::middleware::map_response(json_errors))
        .with_state(hub)
}

/// Turns the failures axum answers by itself in plain text (a path or query it cannot decode,
/// such as `/api/games/%ff`) into the API's JSON errors, with the same status and words.
async fn json_errors(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if json || !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let bytes = axum::body::to_bytes(response.into_body(), BODY_LIMIT).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes);
    let message = match text.trim() {
        "" => status.canonical_reason().unwrap_or("error").to_string(),
        text => text.to_string(),
    };
    ApiError::new(status, message).into_response()
}

/// Readiness: 200 `{"ok": true, ...}` while the database reads and writes, else 503 with
/// `{"ok": false, "error": ..., ...}` saying why, so that a load balancer or a supervisor sees an
/// outage or a full disk; both with the process's load ([`Hub::load`]).
async fn health(State(hub): State<Arc<Hub>>) -> Response {
    let mut answer = hub.load();
    let status = match hub.store().check().await {
        Ok(()) => {
            answer["ok"] = true.into();
            StatusCode::OK
        }
        Err(e) => {
            answer["ok"] = false.into();
            answer["error"] = format!("the database is not available: {e}").into();
            StatusCode::SERVICE_UNAVAILABLE
        }
    };
    (status, Json(answer)).into_response()
}

async fn variants() -> Json<serde_json::Value> {
    let galice =
        serde_json::json!({ "name": "galice", "about": variago_rules::galice::ABOUT, "options": [] });
    use variago_rules::lifeline;
    let lifeline_options: Vec<_> = lifeline::OPTIONS
        .iter()
        .map(|o| serde_json::json!({ "key": o.key, "values": o.values, "default": o.default }))
        .collect();
    let lifeline =
        serde_json::json!({ "name": lifeline::NAME, "about": lifeline::ABOUT, "options": lifeline_options });
    let list: Vec<_> = VARIANTS
        .iter()
        .map(|v| {
            let options: Vec<_> = v
                .options
                .iter()
                .map(|o| serde_json::json!({ "key": o.key, "values": o.values, "default": o.default }))
                .collect();
            serde_json::json!({ "name": v.name, "about": v.about, "options": options })
        })
        .chain([galice, lifeline])
        .collect();
    Json(serde_json::json!({ "variants": list }))
}

/// The client's address, as the listener saw it (unspecified when the app is served otherwise).
pub type Client = Option<Extension<ConnectInfo<SocketAddr>>>;

/// The client's address (unspecified when the app is served without connection info).
pub fn address(client: Client) -> IpAddr {
    client.map_or(IpAddr::from([0, 0, 0, 0]), |Extension(ConnectInfo(peer))| client_of(peer.ip()))
}

async fn create(
    State(hub): State<Arc<Hub>>,
    Extension(policy): Extension<Arc<Policy>>,
    client: Client,
    headers: HeaderMap,
    Body(request): Body<NewGame>,
) -> Result<Response, ApiError> {
    policy.throttle.game(address(client))?;
    let account = accounts::account(&hub, &headers).await?;
    let created = to_the_end(async move { hub.create(request, account).await }).await?;
    Ok((StatusCode::CREATED, Json(created)).into_response())
}

/// Runs a request that changes a game to its end in a task of its own: hyper drops a handler
/// whose client hangs up, which must not happen between the database commit and the change in
/// memory and its broadcast (the commit waits in the group-commit queue).
async fn to_the_end<T: Send + 'static>(
    work: impl Future<Output = Result<T, ApiError>> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::spawn(work).await.map_err(|e| ApiError::internal("running the request", e))?
}

/// `GET /api/games?status=open|running|finished&limit=N`: the public games in that status;
/// `?mine=1` with a session: the account's games, public or not, in every status (or in the one
/// asked for), most recently active first.
async fn list(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Result<Json<serde_json::Value>, ApiError> {
    let mine = match query.get("mine").map(String::as_str) {
        None | Some("0") => false,
        Some("1") => true,
        Some(_) => return Err(ApiError::bad_request("mine must be 1 (or 0)")),
    };
    let status = query.get("status").map(String::as_str);
    let statuses: &[&str] = match status.unwrap_or("open") {
        "open" => &["open"],
        "running" => &["playing", "scoring"],
        "finished" => &["finished"],
        other => {
            return Err(ApiError::bad_request(format!("status '{other}' is not open, running or finished")));
        }
    };
    let limit = match query.get("limit") {
        Some(text) => {
            text.parse::<i64>().ok().filter(|n| (1..=LIST_LIMIT).contains(n)).ok_or_else(|| {
                ApiError::bad_request(format!("limit must be a number from 1 to {LIST_LIMIT}"))
            })?
        }
        None => 50,
    };
    let games = if mine {
        let account = accounts::account(&hub, &headers)
            .await?
            .ok_or_else(|| ApiError::unauthorized("mine=1 lists an account's games: log in first"))?;
        let mut games = hub.games_of(&account, limit).await?;
        if status.is_some() {
            games.retain(|g| statuses.contains(&g.status.as_str()));
        }
        games
    } else {
        hub.list(statuses, limit).await?
    };
    Ok(Json(serde_json::json!({ "games": games })))
}

async fn read(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(hub.view(&id).await?).into_response())
}

/// `POST /api/games/{id}/join`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    /// The invitation code (needed for private games).
    #[serde(default)]
    invite: Option<String>,
}

async fn join(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(request): Body<JoinRequest>,
) -> Result<Response, ApiError> {
    let account = accounts::account(&hub, &headers).await?;
    let joined =
        to_the_end(async move { hub.join(&id, request.invite.as_deref(), account.as_deref()).await }).await?;
    Ok(Json(joined).into_response())
}

/// The seat a request acts for in a game, as that seat's token: the token presented (the
/// `Authorization: Bearer` header, or a socket's `?token=`) if it is the seat's token or the
/// session of an account holding the seat; with none presented, the seat of the account whose
/// session cookie comes with the request. So a logged-in player plays their seats from every
/// device, and the seat token stays for anonymous play. `None`: nothing presented and no seat
/// of the cookie's account. A token presented is refused while the client is kept out for
/// trying too many, and a refusal (no such seat, or no such game) counts against its allowance.
async fn seat_for(
    hub: &Arc<Hub>,
    policy: &Policy,
    client: Client,
    id: &str,
    presented: Option<&str>,
    headers: &HeaderMap,
) -> Result<Option<String>, ApiError> {
    let Some(token) = presented else {
        return match accounts::account(hub, headers).await? {
            Some(account) => hub.account_seat(id, &account).await,
            None => Ok(None),
        };
    };
    let client = address(client);
    policy.throttle.token_allowed(client)?;
    let refused = match hub.check_seat(id, token).await {
        Ok(()) => return Ok(Some(token.to_string())),
        Err(error) if error.status == StatusCode::FORBIDDEN => {
            if let Some(account) = accounts::session_account(hub, token).await?
                && let Some(seat) = hub.account_seat(id, &account).await?
            {
                return Ok(Some(seat));
            }
            error
        }
        Err(error) => error,
    };
    if refused.status == StatusCode::FORBIDDEN || refused.status == StatusCode::NOT_FOUND {
        policy.throttle.token_refused(client);
    }
    Err(refused)
}

/// The token of `Authorization: Bearer TOKEN`, if the header is there.
fn bearer(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else { return Ok(None) };
    value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        // tokens are 64 hex digits: a longer one is no token (and no key for the throttle)
        .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN_LENGTH)
        .map(Some)
        .ok_or_else(|| ApiError::unauthorized("the Authorization header must be: Bearer TOKEN"))
}

async fn act(
    State(hub): State<Arc<Hub>>,
    Extension(policy): Extension<Arc<Policy>>,
    client: Client,
    Path(id): Path<String>,
    headers: HeaderMap,
    Body(action): Body<Action>,
) -> Result<Response, ApiError> {
    // the seat first, so that only real seats are counted (and kept) by the action limiter
    let token =
        seat_for(&hub, &policy, client, &id, bearer(&headers)?, &headers).await?.ok_or_else(|| {
            ApiError::unauthorized(
                "this needs a seat: send Authorization: Bearer TOKEN (the seat's token, or the session of \
             an account holding the seat)",
            )
        })?;
    policy.throttle.action(&token)?;
    if matches!(action, Action::Chat { .. }) {
        policy.throttle.chat(&token)?;
    }
    let (seq, game) = to_the_end(async move { hub.act(&id, &token, action, true).await }).await?;
    Ok(Json(serde_json::json!({ "seq": seq, "game": game })).into_response())
}

/// The `after=N` of a query: the last event the client has seen (0: none).
fn after(query: &HashMap<String, String>) -> Result<u64, ApiError> {
    query.get("after").map_or(Ok(0), |text| {
        text.parse().map_err(|_| ApiError::bad_request("after must be an event number (0 or more)"))
    })
}

async fn events(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let Subscription { missed, .. } = hub.subscribe(&id, after(&query)?).await?;
    let missed: Vec<&crate::table::Stored> = missed.iter().map(|s| &**s).collect();
    Ok(Json(serde_json::json!({ "events": missed })).into_response())
}

async fn estimate(
    State(hub): State<Arc<Hub>>,
    Extension(policy): Extension<Arc<Policy>>,
    client: Client,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    policy.throttle.estimate(address(client))?;
    Ok(Json(hub.estimate(&id).await?).into_response())
}

async fn sgf(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let text = hub.sgf(&id).await?;
    let disposition = format!("attachment; filename=\"variago-{id}.sgf\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-go-sgf".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// `GET /api/games/{id}/ws?after=N&token=T`: the missed events, the game, then every event as
/// it is committed; with a seat's token the socket also takes actions.
// (an axum handler's arguments are the parts of the request it reads)
#[allow(clippy::too_many_arguments)]
async fn socket(
    State(hub): State<Arc<Hub>>,
    Extension(policy): Extension<Arc<Policy>>,
    client: Client,
    Path(id): Path<String>,
    Query(query): Query<HashMap<String, String>>,
    headers: HeaderMap,
    place: Option<Extension<Place>>,
    upgrade: Result<WebSocketUpgrade, ws::rejection::WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let upgrade = upgrade.map_err(|r| ApiError::new(r.status(), r.body_text()))?;
    let after = after(&query)?;
    let presented = match query.get("token") {
        Some(token) => Some(token.as_str()),
        None => bearer(&headers)?,
    };
    let token = seat_for(&hub, &policy, client, &id, presented, &headers).await?;
    let subscription = hub.subscribe(&id, after).await?;
    let spectator = if token.is_none() { Some(hub.watch(&id).await?) } else { None };
    Ok(upgrade
        .max_message_size(BODY_LIMIT)
        // a frame is refused as soon as its header announces more than a message may hold,
        // instead of being buffered (up to 16 MiB by default) before the message limit applies
        .max_frame_size(BODY_LIMIT)
        // the read buffer is allocated per socket and zeroed before every read: 4 KiB (a
        // message of up to 16 KiB still arrives, over several reads) instead of 128 KiB keeps an
        // idle socket small and a read cheap
        .read_buffer_size(SOCKET_READ_BUFFER)
        .on_upgrade(move |socket| async move {
            // the connection keeps its place under the caps while the socket lives
            let _place = place;
            let _spectator = spectator;
            metrics::gauge!(crate::metrics::SOCKETS).increment(1);
            run_socket(hub, id, token, subscription, socket, policy).await;
            metrics::gauge!(crate::metrics::SOCKETS).decrement(1);
        }))
}

/// An action sent over the socket.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SocketAction {
    /// The client's reference, echoed in the answer.
    #[serde(rename = "ref", default)]
    reference: Option<u64>,
    /// What to do.
    action: Action,
}

type Out = futures_util::stream::SplitSink<WebSocket, ws::Message>;

/// How long a write to a socket may wait for the client to read: a client that stops reading
/// (a full receive window) would otherwise hold its socket, and its place, for ever.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);

/// Whether a write to a socket went through within [`SEND_TIMEOUT`].
async fn delivered<E>(write: impl Future<Output = Result<(), E>>) -> bool {
    matches!(tokio::time::timeout(SEND_TIMEOUT, write).await, Ok(Ok(())))
}

async fn send(socket: &mut Out, text: String) -> bool {
    delivered(socket.send(ws::Message::Text(text.into()))).await
}

/// Sends a live event (`first`, if any) and every other one already waiting in the channel with
/// one flush, one write to the network, for them and for what was `fed` before (an
/// acknowledgement goes out with the event it acknowledges); false once the socket is gone.
/// `Err` when the channel lagged or closed.
async fn relay(
    socket: &mut Out,
    first: Option<Arc<Broadcast>>,
    rx: &mut broadcast::Receiver<Arc<Broadcast>>,
    last: &mut u64,
    mut fed: bool,
) -> Result<bool, RecvError> {
    let mut next = first;
    loop {
        let Some(broadcast) = next.take() else {
            next = match rx.try_recv() {
                Ok(broadcast) => Some(broadcast),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Lagged(n)) => return Err(RecvError::Lagged(n)),
                Err(TryRecvError::Closed) => return Err(RecvError::Closed),
            };
            continue;
        };
        if broadcast.seq > *last {
            *last = broadcast.seq;
            if !delivered(socket.feed(ws::Message::Text(broadcast.text.clone()))).await {
                return Ok(false);
            }
            fed = true;
        }
    }
    Ok(!fed || delivered(socket.flush()).await)
}

/// Sends the catch-up, then relays live events and answers actions until either side closes,
/// or the client has sent nothing, not even the pong to a ping, for two heartbeats.
async fn run_socket(
    hub: Arc<Hub>,
    id: String,
    token: Option<String>,
    subscription: Subscription,
    socket: WebSocket,
    policy: Arc<Policy>,
) {
    let interval = policy.heartbeat;
    let (mut out, mut incoming) = socket.split();
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
    // after a stall, the next ping an interval later, not a burst of the missed ones
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut heard = tokio::time::Instant::now();
    let mut last = 0;
    let mut subscription = subscription;
    loop {
        let Subscription { missed, game, rx } = subscription;
        for stored in &missed {
            if !send(&mut out, Message::Event { stored, game: None }.to_json()).await {
                return;
            }
            last = stored.seq;
        }
        last = last.max(game.seq);
        if !send(&mut out, Message::State { game: &game }.to_json()).await {
            return;
        }
        let mut rx = rx;
        // relay until the channel lags (then catch up from the game's events) or someone closes
        let lagged = loop {
            tokio::select! {
                received = rx.recv() => match received {
                    Ok(broadcast) => match relay(&mut out, Some(broadcast), &mut rx, &mut last, false).await {
                        Ok(true) => {}
                        Ok(false) => return,
                        Err(RecvError::Lagged(_)) => break true,
                        Err(RecvError::Closed) => break false,
                    },
                    Err(RecvError::Lagged(_)) => break true,
                    Err(RecvError::Closed) => break false,
                },
                _ = crate::listen::stopped(policy.stopping.clone()) => {
                    // the client reconnects, to this server's successor, and catches up
                    let restarting = serde_json::json!({ "type": "restarting" }).to_string();
                    let close = ws::CloseFrame { code: ws::close_code::RESTART, reason: "server restarting".into() };
                    let _ = delivered(out.feed(ws::Message::Text(restarting.into()))).await;
                    let _ = delivered(out.send(ws::Message::Close(Some(close)))).await;
                    return;
                }
                _ = pings.tick() => {
                    if heard.elapsed() > 2 * interval
                        || !delivered(out.send(ws::Message::Ping(Bytes::new()))).await
                    {
                        return;
                    }
                }
                message = incoming.next() => match message {
                    Some(Ok(ws::Message::Text(text))) => {
                        heard = tokio::time::Instant::now();
                        let reply = answer(&hub, &policy.throttle, &id, token.as_deref(), text.as_str()).await;
                        if !delivered(out.feed(ws::Message::Text(reply.into()))).await {
                            return;
                        }
                        match relay(&mut out, None, &mut rx, &mut last, true).await {
                            Ok(true) => {}
                            Ok(false) => return,
                            Err(RecvError::Lagged(_)) => break true,
                            Err(RecvError::Closed) => break false,
                        }
                    }
                    Some(Ok(ws::Message::Close(_))) | None | Some(Err(_)) => return,
                    // pongs, pings and binary messages: the client is there
                    Some(Ok(_)) => heard = tokio::time::Instant::now(),
                },
            }
        };
        if !lagged {
            return;
        }
        subscription = match hub.subscribe(&id, last).await {
            Ok(s) => s,
            Err(_) => return,
        };
    }
}

/// Runs an action sent over the socket and says how it went.
async fn answer(hub: &Arc<Hub>, throttle: &Throttle, id: &str, token: Option<&str>, text: &str) -> String {
    let request: SocketAction = match serde_json::from_str(text) {
        Ok(request) => request,
        Err(e) => {
            return Message::Error { reference: None, error: &format!("malformed message: {e}") }.to_json();
        }
    };
    let reference = request.reference;
    let Some(token) = token else {
        return Message::Error { reference, error: "spectators cannot act: connect with ?token=SEAT_TOKEN" }
            .to_json();
    };
    let chatting = matches!(request.action, Action::Chat { .. });
    if let Err(e) = throttle.action(token).and_then(|()| if chatting { throttle.chat(token) } else { Ok(()) })
    {
        return Message::Error { reference, error: &e.message }.to_json();
    }
    match hub.act(id, token, request.action, false).await {
        Ok((seq, _)) => Message::Ack { reference, seq }.to_json(),
        Err(e) => Message::Error { reference, error: &e.message }.to_json(),
    }
}
