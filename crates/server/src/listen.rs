//! Accepting connections with bounds that hostile or broken clients cannot push: a cap on open
//! connections in total and per client address (the connection past it gets a 503 and is
//! closed), and a deadline for a request's headers, which also closes a keep-alive connection
//! left idle. axum's own `serve` has neither, so that a few hundred idle sockets or unfinished
//! headers could take every file descriptor and every new client timed out.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::locked;

/// The connection bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Open connections in all (WebSockets included).
    pub connections: usize,
    /// Open connections from one client address.
    pub per_address: usize,
    /// How long a client has to send a request's headers, and how long a keep-alive connection
    /// may stay idle between requests.
    pub header_timeout: Duration,
}

/// File descriptors kept for the database, the logs and the process itself when the connection
/// cap is worked out from the process's limit.
const RESERVED_FILES: usize = 128;

/// The most connections allowed by default, however many files the process may open.
const MOST_CONNECTIONS: usize = 16_384;

impl Limits {
    /// The defaults: as many connections as the open-file limit allows (raised to its hard limit
    /// first), less a reserve; 512 per address (a load test or a proxy on one machine opens
    /// hundreds); 20 s for headers.
    pub fn for_this_process() -> Self {
        let files = raise_open_file_limit();
        let connections = files.saturating_sub(RESERVED_FILES).clamp(16, MOST_CONNECTIONS);
        Limits { connections, per_address: 512.min(connections), header_timeout: Duration::from_secs(20) }
    }
}

/// Raises the soft limit on open files to the hard one (capped at 65,536) and returns the limit
/// in force.
fn raise_open_file_limit() -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed to them
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return 1024;
        }
        let wanted = limit.rlim_max.min(65_536);
        if wanted > limit.rlim_cur {
            let raised = libc::rlimit { rlim_cur: wanted, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit.rlim_cur = wanted;
            }
        }
    }
    usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX)
}

/// The open connections, counted in total and per address.
#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// A connection's place under the caps, given back when the connection ends: when its HTTP
/// connection and, after an upgrade, its WebSocket have both ended (each holds a [`Place`]).
struct Admitted {
    open: Arc<Mutex<Open>>,
    address: IpAddr,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        let mut open = locked(&self.open);
        open.total -= 1;
        if let Some(count) = open.by_address.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.by_address.remove(&self.address);
            }
        }
    }
}

/// A share in a connection's place under the caps: the WebSocket handler keeps one in the
/// request's extensions for as long as the socket lives.
#[derive(Clone)]
pub struct Place {
    _share: Arc<Admitted>,
}

/// Who a client is, for caps and rates: its IPv4 address, or the /64 network of its IPv6
/// address (one host commonly has a whole /64, and could otherwise take a fresh allowance with
/// every address in it).
pub fn client_of(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(v6.to_bits() & !u128::from(u64::MAX))),
        },
        v4 => v4,
    }
}

/// A place for a new connection from `address`, or why there is none.
fn admit(open: &Arc<Mutex<Open>>, limits: &Limits, address: IpAddr) -> Result<Admitted, &'static str> {
    let mut counts = locked(open);
    if counts.total >= limits.connections {
        return Err("the server has as many connections as it can hold");
    }
    let from_address = counts.by_address.entry(address).or_default();
    if *from_address >= limits.per_address {
        return Err("too many connections from this address");
    }
    *from_address += 1;
    counts.total += 1;
    Ok(Admitted { open: open.clone(), address })
}

/// The answer to a connection past a cap, written without waiting (a fresh socket's buffer
/// takes it) so that refusing costs the accept loop nothing.
fn refusal(reason: &str) -> String {
    let body = serde_json::json!({ "error": format!("{reason}: try again later") }).to_string();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 5\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// The log of connections refused at a cap: one line a second at most, with how many were refused
/// since the last one, so that a flood of connections is not also a flood of log lines.
#[derive(Default)]
struct Refusals {
    since_logged: u64,
    logged: Option<std::time::Instant>,
}

impl Refusals {
    fn log(&mut self, peer: SocketAddr, reason: &str) {
        self.since_logged += 1;
        if self.logged.is_none_or(|at| at.elapsed() >= Duration::from_secs(1)) {
            tracing::warn!(refused = self.since_logged, last_peer = %peer, reason, "connections refused");
            self.since_logged = 0;
            self.logged = Some(std::time::Instant::now());
        }
    }
}

/// Serves `app` on `listener` until the process ends: each admitted connection in a task of its
/// own, HTTP/1.1 with upgrades (the WebSockets), the client's address in each request's
/// extensions as axum's `ConnectInfo`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stopping: watch::Receiver<bool>,
) -> std::io::Result<()> {
    let open = Arc::new(Mutex::new(Open::default()));
    let mut refusals = Refusals::default();
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopped(stopping.clone()) => break,
        };
        let (stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // out of file descriptors or memory: the next accept may succeed once a
                // connection has closed; never spin on the error
                tracing::error!(error = %e, "accepting a connection");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let admitted = match admit(&open, &limits, client_of(peer.ip())) {
            Ok(admitted) => admitted,
            Err(reason) => {
                refusals.log(peer, reason);
                let _ = stream.try_write(refusal(reason).as_bytes());
                continue;
            }
        };
        tokio::spawn(serve_connection(
            stream,
            peer,
            app.clone(),
            limits.header_timeout,
            Place { _share: Arc::new(admitted) },
            stopping.clone(),
        ));
    }
    // stopping: no new connection (the listener closes here); the requests under way finish,
    // the sockets say goodbye, within the drain's bound
    drop(listener);
    let deadline = tokio::time::Instant::now() + DRAIN;
    while locked(&open).total > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// How long a stopping server waits for its connections to end: the requests under way to
/// commit and answer, the sockets to close.
pub const DRAIN: Duration = Duration::from_secs(10);

/// Resolves once the server is stopping; never if whoever could stop it is gone (a server whose
/// [`crate::Running`] was dropped serves on, as before stopping existed).
pub async fn stopped(mut stopping: watch::Receiver<bool>) {
    if stopping.wait_for(|&stop| stop).await.is_err() {
        std::future::pending::<()>().await;
    }
}

async fn serve_connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    place: Place,
    stopping: watch::Receiver<bool>,
) {
    let held = place.clone();
    let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        request.extensions_mut().insert(held.clone());
        let mut app = app.clone();
        async move { tower_service::Service::call(&mut app, request).await }
    });
    let connection = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(connection);
    let ended = tokio::select! {
        ended = connection.as_mut() => ended,
        _ = stopped(stopping) => {
            // the request under way is answered, then the connection closes
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(e) = ended {
        tracing::debug!(%peer, error = %e, "connection ended");
    }
    // an upgraded connection (a WebSocket) lives on in its own task, which holds its own share
    drop(place);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ipv6_client_is_its_64_network_and_an_ipv4_one_its_address() {
        let one: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let same_network: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let other_network: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_of(one), client_of(same_network));
        assert_ne!(client_of(one), client_of(other_network));
        let mapped: IpAddr = "::ffff:10.0.0.7".parse().unwrap();
        assert_eq!(client_of(mapped), "10.0.0.7".parse::<IpAddr>().unwrap());
        assert_eq!(client_of("10.0.0.8".parse().unwrap()), "10.0.0.8".parse::<IpAddr>().unwrap());
    }
}
