//! `GET /metrics` on the address `Config::metrics` names: Prometheus' text format, with the
//! requests by route and status, latencies, sockets, games in memory, the AI queue, committed
//! events and rate-limit refusals; never on the public address. (The database errors' counter
//! is counted where a write fails, `Store::writing`; no test fails the disk with it on.)

// shared with the other test files, which use the rest
#[allow(dead_code)]
mod support;

use serde_json::json;
use support::{Client, Socket};

/// The value of the first sample whose line starts with `series` (name and labels).
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find(|l| l.starts_with(series)).and_then(|l| l.rsplit(' ').next()?.parse().ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_requests_events_sockets_and_refusals() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = variago_server::Config::new(
        "127.0.0.1:0".parse().unwrap(),
        support::sqlite_url(&dir.path().join("m.db")),
    );
    config.metrics = Some("127.0.0.1:0".parse().unwrap());
    config.rates.games = variago_server::Rate { burst: 2, every: std::time::Duration::from_secs(600) };
    let running = variago_server::start(config).await.expect("server starts");
    let (addr, metrics_addr) = (running.addr, running.metrics_addr.expect("a metrics address"));
    tokio::spawn(running.wait());
    let client = Client::new(addr);
    let (id, black, _white) = client.pair("go", "9", json!({})).await;
    client.must(&id, &black, json!({ "type": "move", "move": "C3" })).await;
    let _watcher = Socket::connect(addr, &id, 0, None).await;
    // a second game uses the burst up; the third is refused
    client.pair("go", "9", json!({})).await;
    let (status, _) = client.post("/api/games", &json!({ "variant": "go", "size": "9" })).await;
    assert_eq!(status, 429);
    let (status, _) = client.get("/metrics").await;
    assert_eq!(status, 404, "not on the public address");

    let scrape = reqwest::get(format!("http://{metrics_addr}/metrics")).await.unwrap();
    assert_eq!(scrape.status(), 200);
    assert!(scrape.headers()["content-type"].to_str().unwrap().starts_with("text/plain"));
    let text = scrape.text().await.unwrap();
    let requests = |route: &str, method: &str, status: &str| {
        let series = format!(
            "variago_http_requests_total{{route=\"{route}\",method=\"{method}\",status=\"{status}\"}}"
        );
        sample(&text, &series).unwrap_or_else(|| panic!("no {series} in\n{text}"))
    };
    assert!(requests("/api/games", "POST", "201") >= 2.0);
    assert!(requests("/api/games", "POST", "429") >= 1.0);
    assert!(requests("/api/games/{id}/actions", "POST", "200") >= 1.0);
    assert!(
        text.contains(
            "variago_http_request_duration_seconds_bucket{route=\"/api/games/{id}/join\",le=\"0.005\"}"
        ),
        "{text}"
    );
    assert!(sample(&text, "variago_events_committed_total").unwrap() >= 1.0, "{text}");
    assert!(sample(&text, "variago_websockets_open").unwrap() >= 1.0, "{text}");
    assert!(sample(&text, "variago_games_in_memory").unwrap() >= 2.0, "{text}");
    assert_eq!(sample(&text, "variago_ai_queue_waiting"), Some(0.0), "{text}");
    assert!(sample(&text, "variago_rate_limited_total{limit=\"games created\"}").unwrap() >= 1.0, "{text}");
}
