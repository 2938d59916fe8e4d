//! Rate limits per client, so that one client cannot fill the memory and the database with
//! games, flood a game with actions, or try seat tokens without end: past a limit the answer is
//! 429 with Retry-After. Games are counted per client address, actions per seat token, and
//! refused tokens per address (an address past that limit has its token-bearing requests
//! refused for a while without looking at the token). Accounts: sign-ups per address, failed
//! logins per name and per address (past either limit, logins for that name or from that address
//! are refused for a while), chat messages per seat token.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::clock::Clock;
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::error::ApiError;
use crate::locked;

/// A rate: so many at once, then one every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// How many may come at once.
    pub burst: u32,
    /// How soon one more is allowed after the burst.
    pub every: Duration,
}

impl Rate {
    fn quota(self) -> Quota {
        let every = self.every.max(Duration::from_nanos(1));
        let quota = Quota::with_period(every).expect("a period over zero");
        quota.allow_burst(NonZeroU32::new(self.burst.max(1)).expect("at least one"))
    }
}

/// The rates of every client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// Games created per client address: by default 250 at once (a load test creates 200),
    /// then one a second.
    pub games: Rate,
    /// Actions per seat (HTTP and WebSocket): by default 50 at once, then 20 a second.
    pub actions: Rate,
    /// Refused seat tokens per client address: by default 20 at once, then one a second.
    pub refused_tokens: Rate,
    /// Score estimates (a search each) per client address: by default 5 at once, then one
    /// every 10 s.
    pub estimates: Rate,
    /// Accounts created per client address: by default 5 at once, then one a minute.
    pub sign_ups: Rate,
    /// Failed logins per account name: by default 5 at once, then one a minute.
    pub failed_logins_per_name: Rate,
    /// Failed logins per client address: by default 20 at once, then one every 10 s.
    pub failed_logins_per_address: Rate,
    /// Chat messages per seat: by default 5 at once, then one a second.
    pub chats: Rate,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            games: Rate { burst: 250, every: Duration::from_secs(1) },
            actions: Rate { burst: 50, every: Duration::from_millis(50) },
            refused_tokens: Rate { burst: 20, every: Duration::from_secs(1) },
            estimates: Rate { burst: 5, every: Duration::from_secs(10) },
            sign_ups: Rate { burst: 5, every: Duration::from_secs(60) },
            failed_logins_per_name: Rate { burst: 5, every: Duration::from_secs(60) },
            failed_logins_per_address: Rate { burst: 20, every: Duration::from_secs(10) },
            chats: Rate { burst: 5, every: Duration::from_secs(1) },
        }
    }
}

/// Failures counted per key (refused tokens, failed logins): past the rate, the key is kept out
/// (every attempt refused unseen) until the rate allows one again.
struct KeptOut<K: Clone + std::hash::Hash + Eq> {
    failures: DefaultKeyedRateLimiter<K>,
    until: Mutex<HashMap<K, Instant>>,
}

impl<K: Clone + std::hash::Hash + Eq> KeptOut<K> {
    fn new(rate: Rate) -> Self {
        KeptOut { failures: DefaultKeyedRateLimiter::hashmap(rate.quota()), until: Mutex::default() }
    }

    /// `Err` with how long to wait while `key` is kept out.
    fn allowed(&self, key: &K) -> Result<(), Duration> {
        match locked(&self.until).get(key) {
            Some(until) if *until > Instant::now() => Err(*until - Instant::now()),
            _ => Ok(()),
        }
    }

    /// Counts a failure of `key`; past the rate, `key` is kept out.
    fn failed(&self, key: &K) {
        if let Err(wait) = check(&self.failures, key) {
            locked(&self.until).insert(key.clone(), Instant::now() + wait);
        }
    }

    fn forget_idle(&self) {
        self.failures.retain_recent();
        let now = Instant::now();
        locked(&self.until).retain(|_, until| *until > now);
    }
}

/// The limiters, and the clients kept out for too many failures.
pub struct Throttle {
    games: DefaultKeyedRateLimiter<IpAddr>,
    actions: DefaultKeyedRateLimiter<String>,
    refused_tokens: KeptOut<IpAddr>,
    estimates: DefaultKeyedRateLimiter<IpAddr>,
    sign_ups: DefaultKeyedRateLimiter<IpAddr>,
    failed_logins_per_name: KeptOut<String>,
    failed_logins_per_address: KeptOut<IpAddr>,
    chats: DefaultKeyedRateLimiter<String>,
}

impl std::fmt::Debug for Throttle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Throttle").field("clients", &self.games.len()).finish_non_exhaustive()
    }
}

/// Whether a keyed limiter lets one more through: `Err` with how long to wait.
fn check<K: Clone + std::hash::Hash + Eq>(
    limiter: &DefaultKeyedRateLimiter<K>,
    key: &K,
) -> Result<(), Duration> {
    limiter.check_key(key).map_err(|not_until| not_until.wait_time_from(limiter.clock().now()))
}

impl Throttle {
    /// Limiters at these rates.
    pub fn new(limits: RateLimits) -> Self {
        Throttle {
            games: DefaultKeyedRateLimiter::hashmap(limits.games.quota()),
            actions: DefaultKeyedRateLimiter::hashmap(limits.actions.quota()),
            refused_tokens: KeptOut::new(limits.refused_tokens),
            estimates: DefaultKeyedRateLimiter::hashmap(limits.estimates.quota()),
            sign_ups: DefaultKeyedRateLimiter::hashmap(limits.sign_ups.quota()),
            failed_logins_per_name: KeptOut::new(limits.failed_logins_per_name),
            failed_logins_per_address: KeptOut::new(limits.failed_logins_per_address),
            chats: DefaultKeyedRateLimiter::hashmap(limits.chats.quota()),
        }
    }

    /// One more game created by `client`, or 429.
    pub fn game(&self, client: IpAddr) -> Result<(), ApiError> {
        check(&self.games, &client).map_err(|wait| ApiError::too_many("games created", wait))
    }

    /// One more action by the seat of `token`, or 429.
    pub fn action(&self, token: &str) -> Result<(), ApiError> {
        check(&self.actions, &token.to_string()).map_err(|wait| ApiError::too_many("actions", wait))
    }

    /// One more score estimate by `client`, or 429.
    pub fn estimate(&self, client: IpAddr) -> Result<(), ApiError> {
        check(&self.estimates, &client).map_err(|wait| ApiError::too_many("score estimates", wait))
    }

    /// Whether `client` may present a token now: 429 while it is kept out.
    pub fn token_allowed(&self, client: IpAddr) -> Result<(), ApiError> {
        self.refused_tokens.allowed(&client).map_err(|wait| ApiError::too_many("refused seat tokens", wait))
    }

    /// Counts a refused token from `client`; past the rate, the address is kept out until the
    /// rate allows it again.
    pub fn token_refused(&self, client: IpAddr) {
        self.refused_tokens.failed(&client);
    }

    /// One more account created from `client`, or 429.
    pub fn sign_up(&self, client: IpAddr) -> Result<(), ApiError> {
        check(&self.sign_ups, &client).map_err(|wait| ApiError::too_many("accounts created", wait))
    }

    /// Whether a login to `name` from `client` may be tried now: 429 while either is kept out
    /// for too many failed logins.
    pub fn login_allowed(&self, name: &str, client: IpAddr) -> Result<(), ApiError> {
        self.failed_logins_per_name
            .allowed(&name.to_lowercase())
            .and_then(|()| self.failed_logins_per_address.allowed(&client))
            .map_err(|wait| ApiError::too_many("failed logins", wait))
    }

    /// Counts a failed login to `name` from `client`.
    pub fn login_failed(&self, name: &str, client: IpAddr) {
        self.failed_logins_per_name.failed(&name.to_lowercase());
        self.failed_logins_per_address.failed(&client);
    }

    /// One more chat message by the seat of `token`, or 429.
    pub fn chat(&self, token: &str) -> Result<(), ApiError> {
        check(&self.chats, &token.to_string()).map_err(|wait| ApiError::too_many("chat messages", wait))
    }

    /// Forgets the clients that are back to a full allowance, so that the limiters' memory
    /// follows the clients of the last minutes, not every client ever seen.
    pub fn forget_idle(&self) {
        self.games.retain_recent();
        self.actions.retain_recent();
        self.refused_tokens.forget_idle();
        self.estimates.retain_recent();
        self.sign_ups.retain_recent();
        self.failed_logins_per_name.forget_idle();
        self.failed_logins_per_address.forget_idle();
        self.chats.retain_recent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(n: u8) -> IpAddr {
        IpAddr::from([10, 0, 0, n])
    }

    #[test]
    fn each_client_has_its_own_allowance_and_a_refusal_says_when_to_come_back() {
        let rates =
            RateLimits { games: Rate { burst: 3, every: Duration::from_secs(60) }, ..RateLimits::default() };
        let throttle = Throttle::new(rates);
        for _ in 0..3 {
            throttle.game(client(1)).unwrap();
        }
        let refused = throttle.game(client(1)).unwrap_err();
        assert_eq!(refused.status, axum::http::StatusCode::TOO_MANY_REQUESTS);
        let wait = refused.retry_after_secs.unwrap();
        assert!((1..=60).contains(&wait), "{wait}");
        throttle.game(client(2)).expect("another client is not held back");
    }

    #[test]
    fn an_address_that_tries_too_many_tokens_is_kept_out_and_let_back_in() {
        let rates = RateLimits {
            refused_tokens: Rate { burst: 2, every: Duration::from_millis(30) },
            ..RateLimits::default()
        };
        let throttle = Throttle::new(rates);
        for _ in 0..2 {
            throttle.token_refused(client(1));
            throttle.token_allowed(client(1)).expect("within the allowance");
        }
        throttle.token_refused(client(1));
        assert!(throttle.token_allowed(client(1)).is_err(), "kept out past the allowance");
        throttle.token_allowed(client(2)).expect("another address is not kept out");
        std::thread::sleep(Duration::from_millis(100));
        throttle.forget_idle();
        throttle.token_allowed(client(1)).expect("let back in");
    }
}
