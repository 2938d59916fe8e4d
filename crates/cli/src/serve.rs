//! `variago serve`: the game server with its limits and its log on stderr.

use std::time::Duration;

use crate::Failure;

/// The server's flags.
#[derive(clap::Args, Debug)]
pub struct Options {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// Database URL: `sqlite://FILE` (created if missing) or `postgres://...`.
    #[arg(long, default_value = "sqlite://variago.db")]
    db: String,
    /// AI searches that may run at once (default: one per core).
    #[arg(long)]
    ai_threads: Option<usize>,
    /// Open connections in all (default: the open-file limit, raised to its hard limit, less 128).
    #[arg(long)]
    max_connections: Option<usize>,
    /// Open connections from one client address.
    #[arg(long)]
    max_connections_per_address: Option<usize>,
    /// Serve `GET /metrics` (Prometheus' text format) on this address, apart from the public
    /// one (e.g. `127.0.0.1:9090`, reachable by the scraper only).
    #[arg(long)]
    metrics: Option<std::net::SocketAddr>,
    /// Seconds a client has to send a request's headers (and a keep-alive connection may idle).
    #[arg(long)]
    header_timeout: Option<u64>,
    /// The log's level on stderr: error, warn, info, debug or trace.
    #[arg(long, default_value = "info")]
    log: tracing::Level,
    /// The log's form: `text` (a line a record, for people) or `json` (an object a line, with
    /// its fields, for log shippers).
    #[arg(long, value_enum, default_value = "text")]
    log_format: LogFormat,
}

/// How the log is written.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum LogFormat {
    Text,
    Json,
}

/// Runs the server until Ctrl-C.
pub fn run(options: Options) -> Result<(), Failure> {
    let log =
        tracing_subscriber::fmt().with_writer(std::io::stderr).with_max_level(options.log).with_ansi(false);
    match options.log_format {
        LogFormat::Text => log.init(),
        LogFormat::Json => log.json().init(),
    }
    let mut config = variago_server::Config::new(options.addr, options.db);
    config.ai_threads = options.ai_threads.unwrap_or(config.ai_threads);
    config.metrics = options.metrics;
    config.pages = Some(variago_web::pages());
    let limits = &mut config.limits;
    limits.connections = options.max_connections.unwrap_or(limits.connections).max(1);
    limits.per_address = options.max_connections_per_address.unwrap_or(limits.per_address).max(1);
    limits.header_timeout = options.header_timeout.map_or(limits.header_timeout, Duration::from_secs);
    variago_server::run(config).map_err(|e| Failure { message: e.to_string(), code: 1 })
}
