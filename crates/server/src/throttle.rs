//! Rate limits per client, so that one client cannot fill the memory and the database with
//! games, flood a game with actions, or try seat tokens without end: past a limit the answer is
//! 429 with Retry-After. Games are counted per client address, actions per seat token, and
//! refused tokens per address (an address past that limit has its token-bearing requests
//! refused for a while without looking at the token).

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
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            games: Rate { burst: 250, every: Duration::from_secs(1) },
            actions: Rate { burst: 50, every: Duration::from_millis(50) },
            refused_tokens: Rate { burst: 20, every: Duration::from_secs(1) },
        }
    }
}

/// The limiters, and the addresses kept out for trying too many tokens.
pub struct Throttle {
    games: DefaultKeyedRateLimiter<IpAddr>,
    actions: DefaultKeyedRateLimiter<String>,
    refused_tokens: DefaultKeyedRateLimiter<IpAddr>,
    kept_out: Mutex<HashMap<IpAddr, Instant>>,
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
            refused_tokens: DefaultKeyedRateLimiter::hashmap(limits.refused_tokens.quota()),
            kept_out: Mutex::default(),
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

    /// Whether `client` may present a token now: 429 while it is kept out.
    pub fn token_allowed(&self, client: IpAddr) -> Result<(), ApiError> {
        let kept_out = locked(&self.kept_out);
        match kept_out.get(&client) {
            Some(until) if *until > Instant::now() => {
                Err(ApiError::too_many("refused seat tokens", *until - Instant::now()))
            }
            _ => Ok(()),
        }
    }

    /// Counts a refused token from `client`; past the rate, the address is kept out until the
    /// rate allows it again.
    pub fn token_refused(&self, client: IpAddr) {
        if let Err(wait) = check(&self.refused_tokens, &client) {
            let mut kept_out = locked(&self.kept_out);
            kept_out.insert(client, Instant::now() + wait);
        }
    }

    /// Forgets the clients that are back to a full allowance, so that the limiters' memory
    /// follows the clients of the last minutes, not every client ever seen.
    pub fn forget_idle(&self) {
        self.games.retain_recent();
        self.actions.retain_recent();
        self.refused_tokens.retain_recent();
        let now = Instant::now();
        let mut kept_out = locked(&self.kept_out);
        kept_out.retain(|_, until| *until > now);
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
