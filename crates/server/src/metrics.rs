//! What an operator graphs (`GET /metrics` on the address `serve --metrics ADDR` names; docs/
//! server-operating.md): the `metrics` crate's counters, gauges and histograms, recorded where things
//! happen, and rendered in the Prometheus text format by its Prometheus exporter. The recorder is
//! the process's: servers started in one process (the tests) share it.

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use axum::Router;
use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::hub::Hub;

/// HTTP requests answered, by route, method and status.
pub const REQUESTS: &str = "variago_http_requests_total";
/// Their latency in seconds, by route.
pub const LATENCY: &str = "variago_http_request_duration_seconds";
/// WebSockets open now.
pub const SOCKETS: &str = "variago_websockets_open";
/// Games in memory now.
pub const GAMES_IN_MEMORY: &str = "variago_games_in_memory";
/// Searches waiting for an AI slot now.
pub const AI_WAITING: &str = "variago_ai_queue_waiting";
/// How long searches waited for an AI slot, in seconds.
pub const AI_WAIT: &str = "variago_ai_queue_wait_seconds";
/// Events (moves, passes, resignations...) committed to the database.
pub const EVENTS_COMMITTED: &str = "variago_events_committed_total";
/// Writes the database refused (a full disk, an I/O error, a lost connection).
pub const DATABASE_ERRORS: &str = "variago_database_errors_total";
/// Requests refused by a rate limit (429), by what was limited.
pub const RATE_LIMITED: &str = "variago_rate_limited_total";

/// The latency histograms' buckets, in seconds: from a cached read to a slow commit.
const LATENCY_BUCKETS: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];

/// The AI queue's buckets, in seconds: from no wait to a long one.
const WAIT_BUCKETS: &[f64] = &[0.01, 0.1, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0];

/// The process's recorder, installed on first use.
fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let handle = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Full(LATENCY.into()), LATENCY_BUCKETS)
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full(AI_WAIT.into()), WAIT_BUCKETS))
            .expect("the buckets are not empty")
            .install_recorder()
            .expect("no other metrics recorder is installed");
        describe();
        handle
    })
}

/// The help lines of the metrics.
fn describe() {
    metrics::describe_counter!(REQUESTS, "HTTP requests answered, by route, method and status");
    metrics::describe_histogram!(LATENCY, metrics::Unit::Seconds, "HTTP request latency, by route");
    metrics::describe_gauge!(SOCKETS, "WebSockets open");
    metrics::describe_gauge!(GAMES_IN_MEMORY, "games in memory");
    metrics::describe_gauge!(AI_WAITING, "searches waiting for an AI slot");
    metrics::describe_histogram!(AI_WAIT, metrics::Unit::Seconds, "time searches waited for an AI slot");
    metrics::describe_counter!(EVENTS_COMMITTED, "game events committed to the database");
    metrics::describe_counter!(DATABASE_ERRORS, "database writes that failed");
    metrics::describe_counter!(RATE_LIMITED, "requests refused by a rate limit, by what was limited");
}

/// Starts recording (before the first request), so that the counters exist from the start.
pub fn install() {
    handle();
}

/// Middleware: counts each request by its route (the pattern, `/api/games/{id}`, never the
/// path itself, which would make a series per game) and times it.
pub async fn record(request: Request, next: Next) -> Response {
    let route = request.extensions().get::<MatchedPath>().map_or("other", MatchedPath::as_str).to_string();
    let method = request.method().to_string();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!(REQUESTS, "route" => route.clone(), "method" => method, "status" => status)
        .increment(1);
    metrics::histogram!(LATENCY, "route" => route).record(started.elapsed().as_secs_f64());
    response
}

/// The router of the metrics listener: `GET /metrics`, the gauges read from `hub` as it is asked.
pub fn router(hub: Arc<Hub>) -> Router {
    Router::new().route("/metrics", get(render)).with_state(hub)
}

async fn render(State(hub): State<Arc<Hub>>) -> impl IntoResponse {
    metrics::gauge!(GAMES_IN_MEMORY).set(hub.games_in_memory() as f64);
    metrics::gauge!(AI_WAITING).set(hub.ai_waiting() as f64);
    ([("content-type", "text/plain; version=0.0.4")], handle().render())
}
