//! Accounts, sessions, players and ratings: `POST /api/accounts`, `POST`/`GET`/`DELETE
//! /api/sessions`, `GET /api/players/{name}` and `GET /api/ratings`. Passwords are kept only as
//! argon2id hashes (PHC strings); hashing and checking run on threads of their own. A session is a
//! random token, sent back as JSON and as an HttpOnly, SameSite=Strict cookie for the pages;
//! a client presents it as the cookie or as `Authorization: Bearer TOKEN`.

use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, LazyLock};

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use axum::extract::{Extension, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Json, Response};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use variago_rules::spec::VARIANTS;

use crate::api::{Body, Client, Policy, address};
use crate::error::ApiError;
use crate::hub::{Hub, now_ms};
use crate::position::GALICE;
use crate::seat;
use crate::table::Table;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "variago_session";
/// How long a session lasts.
const SESSION_DAYS: i64 = 30;
/// The shortest password accepted.
const MIN_PASSWORD: usize = 8;
/// The longest password accepted (argon2 takes any length; this bounds the work per request).
const MAX_PASSWORD: usize = 256;
/// Games a page of a player's history lists.
const RECENT_GAMES: i64 = 20;
/// The name a deleted account's games show instead of its own: no account can take it (names
/// have no brackets).
pub const DELETED: &str = "(deleted)";
/// Entries a leaderboard lists.
const LEADERBOARD: i64 = 100;

/// A hash checked when the name is unknown, so that an unknown name and a wrong password take
/// the same time (made once, with the same parameters as every account's).
static UNKNOWN_NAME_HASH: LazyLock<Option<String>> = LazyLock::new(|| hash(&seat::new_token()).ok());

/// `POST /api/accounts` and `POST /api/sessions`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

/// Whether a name is 3-20 letters, digits, `-` or `_`.
fn check_name(name: &str) -> Result<(), ApiError> {
    let valid = (3..=20).contains(&name.len())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if valid {
        Ok(())
    } else {
        Err(ApiError::bad_request("a name has 3 to 20 characters: letters, digits, '-' or '_'"))
    }
}

fn check_password(password: &str) -> Result<(), ApiError> {
    let length = password.chars().count();
    if length < MIN_PASSWORD {
        return Err(ApiError::bad_request(format!("a password has at least {MIN_PASSWORD} characters")));
    }
    if length > MAX_PASSWORD {
        return Err(ApiError::bad_request(format!("a password has at most {MAX_PASSWORD} characters")));
    }
    Ok(())
}

/// The argon2id hash of a password, as a PHC string with its own salt. CPU work (tens of ms).
fn hash(password: &str) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::encode_b64(&seat::random_bytes::<16>())?;
    Ok(Argon2::default().hash_password(password.as_bytes(), &salt)?.to_string())
}

/// Whether `password` matches the stored `hash`; with no hash (an unknown name), checks against
/// [`UNKNOWN_NAME_HASH`] and answers false, in the same time. CPU work.
fn verify(password: &str, hash: Option<&str>) -> bool {
    let known = hash.is_some();
    let Some(parsed) = hash.or(UNKNOWN_NAME_HASH.as_deref()).and_then(|h| PasswordHash::new(h).ok()) else {
        return false;
    };
    Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok() && known
}

/// A password's hashing or checking, for the [`HASHERS`].
type HashJob = Box<dyn FnOnce() + Send>;

/// The threads that hash and check passwords, one per core (at most 4), fed in turn. Each hash
/// takes 19 MiB and tens of ms of CPU: on tokio's blocking pool a burst of logins took a thread
/// each (up to 512), every one keeping its 19 MiB in its own malloc arena (32 logins at once:
/// 945 MB resident, for good). Here a burst waits its turn, the CPU it takes is bounded, and so
/// is the memory (one arena per thread).
static HASHERS: LazyLock<std::sync::mpsc::Sender<HashJob>> = LazyLock::new(|| {
    let (jobs, queue) = std::sync::mpsc::channel::<HashJob>();
    let queue = Arc::new(std::sync::Mutex::new(queue));
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(4);
    for n in 0..threads {
        let queue = queue.clone();
        let spawned = std::thread::Builder::new().name(format!("password-{n}")).spawn(move || {
            loop {
                let job = crate::locked(&queue).recv();
                let Ok(job) = job else { return };
                // a panic (a bug) drops the job's answer, which the request reports; the thread
                // goes on with the next
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            }
        });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "starting a password thread");
        }
    }
    jobs
});

/// Runs CPU work of the accounts (hashing, checking a password) on one of the [`HASHERS`].
async fn blocking<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
    let (done, answer) = tokio::sync::oneshot::channel();
    HASHERS
        .send(Box::new(move || {
            let _ = done.send(work());
        }))
        .map_err(|e| ApiError::internal("hashing a password", e))?;
    answer.await.map_err(|e| ApiError::internal("hashing a password", e))
}

/// Warms [`UNKNOWN_NAME_HASH`] up on a password thread, so that the first login to an unknown
/// name does not also pay for making it.
pub fn prepare() {
    // glibc serves a large block (argon2's 19 MiB) from a fresh mapping, returned when freed,
    // until the first such free, which raises that threshold to the block's size: from then on
    // the blocks come from the threads' malloc arenas and stay there (a thread that hashed kept
    // ~120 MB resident). A fixed threshold keeps them mapped and returned, for the cost of the
    // page faults (a few ms of a hash's tens).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a parameter of the allocator; it is thread-safe
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
    tokio::spawn(blocking(|| {
        LazyLock::force(&UNKNOWN_NAME_HASH);
    }));
}

/// The session token a request presents: the cookie, or else `Authorization: Bearer`.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    let cookie = headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).find_map(|cookies| {
        cookies
            .split(';')
            .find_map(|c| c.trim().strip_prefix(SESSION_COOKIE)?.strip_prefix('=').map(str::to_string))
    });
    cookie
        .or_else(|| {
            let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
            Some(value.strip_prefix("Bearer ")?.trim().to_string())
        })
        .filter(|t| !t.is_empty() && t.len() <= 128)
}

/// What the database keeps of a session token: its SHA-256 in hex (the token has 256 random
/// bits: no salt or slow hash is needed, unlike a password).
fn token_hash(token: &str) -> String {
    Sha256::digest(token.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

/// The account of the request's session, if it presents one that is valid (an unknown or
/// expired token counts as no session: the client plays as a guest).
pub async fn account(hub: &Hub, headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(token) = session_token(headers) else { return Ok(None) };
    session_account(hub, &token).await
}

/// The account of a session token, if it is valid.
pub async fn session_account(hub: &Hub, token: &str) -> Result<Option<String>, ApiError> {
    hub.store().session(&token_hash(token), expired_until(now_ms())).await.map_err(ApiError::unavailable)
}

/// The start time (ms since the epoch) at or before which a session has expired at `now`.
fn expired_until(now: i64) -> i64 {
    now - SESSION_DAYS * 24 * 3600 * 1000
}

/// A `Set-Cookie` value: the session for `max_age` seconds (0 ends it).
fn cookie(token: &str, max_age: i64) -> HeaderValue {
    let text = format!("{SESSION_COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age}");
    HeaderValue::from_str(&text).unwrap_or(HeaderValue::from_static("variago_session=; Max-Age=0"))
}

/// `POST /api/accounts`: 201 `{"name"}`, 409 when the name is taken, 400 for a bad name or
/// password.
pub async fn sign_up(
    State(hub): State<Arc<Hub>>,
    Extension(policy): Extension<Arc<Policy>>,
    client: Client,
    Body(credentials): Body<Credentials>,
) -> Result<Response, ApiError> {
    check_name(&credentials.name)?;
    check_password(&credentials.password)?;
    policy.throttle.sign_up(address(client))?;
    let password = credentials.password;
    let hashed =
        blocking(move || hash(&password)).await?.map_err(|e| ApiError::internal("hashing a password", e))?;
    let created = hub
        .store()
        .create_account(&credentials.name, &hashed, now_ms())
        .await
        .map_err(ApiError::unavailable)?;
    if !created {
        return Err(ApiError::conflict(format!("the name '{}' is taken", credentials.name)));
    }
    Ok((StatusCode::CREATED, Json(serde_json::json!({ "name": credentials.name }))).into_response())
}

/// `POST /api/sessions`: 200 `{"token", "name"}` with the cookie; 401 for a wrong name or
/// password alike (the same words, and a hash checked either way); 429 while the name or the
/// address is kept out for too many failures.
pub async fn log_in(
    State(hub): State<Arc<Hub>>,
    Extension(policy): Extension<Arc<Policy>>,
    client: Client,
    Body(credentials): Body<Credentials>,
) -> Result<Response, ApiError> {
    let client: IpAddr = address(client);
    policy.throttle.login_allowed(&credentials.name, client)?;
    let found = hub.store().account(&credentials.name).await.map_err(ApiError::unavailable)?;
    let (name, stored) = found.unzip();
    let password = credentials.password;
    let matches = blocking(move || verify(&password, stored.as_deref())).await?;
    let Some(name) = name.filter(|_| matches) else {
        policy.throttle.login_failed(&credentials.name, client);
        return Err(ApiError::unauthorized("wrong name or password"));
    };
    let (token, now) = (seat::new_token(), now_ms());
    // every login also deletes the sessions that have expired (everyone's: an indexed range,
    // usually empty), so that they do not pile up in the database
    if let Err(e) = hub.store().delete_sessions_until(expired_until(now)).await {
        tracing::warn!(error = %e, "deleting the expired sessions");
    }
    hub.store().create_session(&token_hash(&token), &name, now).await.map_err(ApiError::unavailable)?;
    let mut response = Json(serde_json::json!({ "token": token, "name": name })).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie(&token, SESSION_DAYS * 24 * 3600));
    Ok(response)
}

/// The account and the session token of a request that must be logged in (401 otherwise).
async fn logged_in(hub: &Hub, headers: &HeaderMap) -> Result<(String, String), ApiError> {
    let token = session_token(headers).ok_or_else(|| ApiError::unauthorized("not logged in"))?;
    let name = session_account(hub, &token).await?.ok_or_else(|| ApiError::unauthorized("not logged in"))?;
    Ok((name, token))
}

/// Checks an account's password again before a change that matters, under the login limits: a
/// wrong one counts as a failed login and answers 401.
async fn confirm_password(
    hub: &Hub,
    policy: &Policy,
    client: IpAddr,
    name: &str,
    password: String,
) -> Result<(), ApiError> {
    policy.throttle.login_allowed(name, client)?;
    let stored = hub.store().account(name).await.map_err(ApiError::unavailable)?.map(|(_, hash)| hash);
    if !blocking(move || verify(&password, stored.as_deref())).await? {
        policy.throttle.login_failed(name, client);
        return Err(ApiError::unauthorized("wrong password"));
    }
    Ok(())
}

/// `PUT /api/accounts/password`'s body: the password now and the new one.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    password: String,
    new_password: String,
}

/// `PUT /api/accounts/password` with a session: 204 once the password is changed, every other
/// session of the account ended; 401 without a session or with a wrong password (a failed
/// login); 400 for a new password too short or too long.
pub async fn change_password(
    State(hub): State<Arc<Hub>>,
    Extension(policy): Extension<Arc<Policy>>,
    client: Client,
    headers: HeaderMap,
    Body(change): Body<PasswordChange>,
) -> Result<Response, ApiError> {
    let (name, token) = logged_in(&hub, &headers).await?;
    check_password(&change.new_password)?;
    confirm_password(&hub, &policy, address(client), &name, change.password).await?;
    let new_password = change.new_password;
    let hashed = blocking(move || hash(&new_password))
        .await?
        .map_err(|e| ApiError::internal("hashing a password", e))?;
    hub.store().change_password(&name, &hashed, &token_hash(&token)).await.map_err(ApiError::unavailable)?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /api/accounts`'s body: the password, asked again.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deletion {
    password: String,
}

/// `DELETE /api/accounts` with a session: 204 once the account is deleted (the cookie cleared):
/// its sessions and ratings go, its games stay with the name shown as `(deleted)`; 409 while it
/// holds a seat in a game not over; 401 as [`change_password`].
pub async fn delete_account(
    State(hub): State<Arc<Hub>>,
    Extension(policy): Extension<Arc<Policy>>,
    client: Client,
    headers: HeaderMap,
    Body(deletion): Body<Deletion>,
) -> Result<Response, ApiError> {
    let (name, _) = logged_in(&hub, &headers).await?;
    confirm_password(&hub, &policy, address(client), &name, deletion.password).await?;
    hub.delete_account(&name, DELETED).await?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie("", 0));
    Ok(response)
}

/// `GET /api/sessions`: 200 `{"name"}` of the session presented, 401 without one.
pub async fn who(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let name = account(&hub, &headers).await?.ok_or_else(|| ApiError::unauthorized("not logged in"))?;
    Ok(Json(serde_json::json!({ "name": name })).into_response())
}

/// `DELETE /api/sessions`: ends the session presented (204, the cookie cleared); 401 without one.
pub async fn log_out(State(hub): State<Arc<Hub>>, headers: HeaderMap) -> Result<Response, ApiError> {
    let token = session_token(&headers).ok_or_else(|| ApiError::unauthorized("not logged in"))?;
    hub.store().delete_session(&token_hash(&token)).await.map_err(ApiError::unavailable)?;
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie("", 0));
    Ok(response)
}

/// `GET /api/players/{name}?before=MS`: the account's ratings per variant and a page of its
/// public games, the most recently active first (before `MS`, the previous page's `next`); 404 for
/// no such account.
pub async fn player(
    State(hub): State<Arc<Hub>>,
    Path(name): Path<String>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let before = match query.get("before") {
        Some(text) => text
            .parse::<i64>()
            .map_err(|_| ApiError::bad_request("before must be a time in ms since the epoch"))?,
        None => i64::MAX,
    };
    let store = hub.store();
    let (name, _) = store
        .account(&name)
        .await
        .map_err(ApiError::unavailable)?
        .ok_or_else(|| ApiError::not_found(format!("no player '{name}'")))?;
    let ratings: BTreeMap<String, serde_json::Value> = store
        .ratings_of(&name)
        .await
        .map_err(ApiError::unavailable)?
        .into_iter()
        .map(|r| {
            let shown = serde_json::json!({ "rating": r.rating, "deviation": r.deviation, "games": r.games });
            (r.variant, shown)
        })
        .collect();
    let games = store.games_of(&name, before, RECENT_GAMES).await.map_err(ApiError::unavailable)?;
    // an invitation-only game stays off the public page (its players find it under mine=1)
    let recent: Vec<_> = games.iter().filter(|g| g.public).filter_map(Table::summary).collect();
    // the next page: the games last active before the last of this one, if it was full
    let next = (games.len() as i64 == RECENT_GAMES).then(|| games.last().map(|g| g.updated_ms)).flatten();
    Ok(Json(serde_json::json!({ "name": name, "ratings": ratings, "recent": recent, "next": next }))
        .into_response())
}

/// `GET /api/ratings?variant=V`: the variant's leaderboard, highest rating first.
pub async fn leaderboard(
    State(hub): State<Arc<Hub>>,
    Query(query): Query<HashMap<String, String>>,
) -> Result<Response, ApiError> {
    let variant =
        query.get("variant").ok_or_else(|| ApiError::bad_request("which variant? ?variant=NAME"))?;
    if variant != GALICE && !VARIANTS.iter().any(|v| v.name == variant) {
        return Err(ApiError::bad_request(format!("there is no variant '{variant}'")));
    }
    let rows = hub.store().leaderboard(variant, LEADERBOARD).await.map_err(ApiError::unavailable)?;
    Ok(Json(rows).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_passwords_are_checked() {
        for good in ["ann", "Go_player-19", "abcdefghijklmnopqrst"] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in ["an", "abcdefghijklmnopqrstu", "ann bee", "année", "a/b", ""] {
            assert_eq!(check_name(bad).unwrap_err().status, StatusCode::BAD_REQUEST, "{bad}");
        }
        assert!(check_password("12345678").is_ok());
        assert!(check_password("1234567").is_err());
    }

    #[test]
    fn a_password_is_kept_as_an_argon2id_hash_that_only_it_matches() {
        let hashed = hash("correct horse").unwrap();
        assert!(hashed.starts_with("$argon2id$"), "{hashed}");
        assert!(!hashed.contains("correct horse"));
        assert!(verify("correct horse", Some(&hashed)));
        assert!(!verify("wrong horse", Some(&hashed)));
        assert!(!verify("correct horse", None), "an unknown name never matches");
    }

    #[test]
    fn an_unknown_name_checks_a_hash_as_costly_as_an_account_s() {
        let account = hash("correct horse").unwrap();
        let stand_in = UNKNOWN_NAME_HASH.as_deref().expect("the unknown name's hash is made");
        let cost = |phc| {
            let parsed = PasswordHash::new(phc).unwrap();
            (parsed.algorithm.to_string(), parsed.version, parsed.params.to_string())
        };
        // algorithm, version, memory, iterations and lanes: what argon2's time depends on
        assert_eq!(cost(stand_in), cost(&account));
        assert_eq!(cost(&account).0, "argon2id");
    }

    #[test]
    fn a_session_is_kept_as_its_token_s_sha_256() {
        // FIPS 180-2's test vector for "abc"
        assert_eq!(token_hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn the_session_comes_from_the_cookie_or_the_bearer_header() {
        let mut headers = HeaderMap::new();
        assert_eq!(session_token(&headers), None);
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer abc"));
        assert_eq!(session_token(&headers).as_deref(), Some("abc"));
        headers.insert(header::COOKIE, HeaderValue::from_static("theme=dark; variago_session=xyz"));
        assert_eq!(session_token(&headers).as_deref(), Some("xyz"));
    }
}
