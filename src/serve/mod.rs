//! `shuffle-audit serve`: a live page over the same engine, for a classroom projector or
//! a curious reader, on this machine only.
//!
//! The server is a view, not a second tool: a catalogue run is the engine run in steps
//! ([`live`]), each step's tallies added, so that the page watches `run` happen and the
//! JSON it offers for `T` trials is the JSON `run --trials T` writes; deals sent by the
//! page (a user's JavaScript shuffle, run in the browser, or a pasted file) are read by
//! [`crate::ingest`] exactly as `ingest` reads them. Charts and test rows come from the
//! report's own code ([`snapshot`]). The server runs catalogue algorithms only: it never
//! runs code a page sends it (the user's function runs in the page's Web Worker).
//!
//! Safety, since a browser may be pointed at it by any page: requests must name this
//! server in `Host` and come from its own page ([`guard`]); bodies are bounded
//! ([`MAX_BODY`]); at most [`jobs::MAX_RUNNING`] runs at once; a run nobody watches stops
//! ([`live::UNWATCHED_LIMIT`]) and a closed tab stops its run; every bad request gets a
//! 4xx status and the one-line message the command line would print.

pub mod events;
pub mod exact;
pub mod guard;
pub mod jobs;
pub mod live;
pub mod own;
pub mod request;
pub mod routes;
pub mod snapshot;

use std::sync::Arc;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

pub use routes::router;

/// The largest request body: 64 MB of deals, about ten million 3-card deals.
pub const MAX_BODY: usize = 64 << 20;

/// What the server serves and how.
#[derive(Clone)]
pub struct Served {
    /// The `Host` values it answers to (`127.0.0.1:8080`, `localhost:8080`), the first
    /// one the address it prints.
    pub hosts: Vec<String>,
    /// Worker threads for each run and each ingest.
    pub threads: usize,
    /// The runs.
    pub jobs: Arc<jobs::Jobs>,
    /// The deals of "your own shuffle", sent a batch at a time.
    pub sessions: Arc<own::Sessions>,
}

impl Served {
    /// A server answering to `hosts`, with `threads` workers per job.
    pub fn new(hosts: Vec<String>, threads: usize) -> Arc<Self> {
        Arc::new(Self {
            hosts,
            threads,
            jobs: Arc::default(),
            sessions: Arc::default(),
        })
    }
}

/// The `Host` values a server listening on `address` answers to: the address itself,
/// and `localhost` with its port when it is a loopback address.
pub fn hosts_for(address: std::net::SocketAddr) -> Vec<String> {
    let port = address.port();
    let mut hosts = vec![address.to_string()];
    if address.ip().is_loopback() {
        hosts.push(format!("localhost:{port}"));
        for loopback in ["127.0.0.1", "[::1]"] {
            let host = format!("{loopback}:{port}");
            if !hosts.contains(&host) {
                hosts.push(host);
            }
        }
    }
    hosts
}

/// A refusal: the status and `{"error": message}`, the message one line.
pub fn error_response(status: StatusCode, message: impl Into<String>) -> Response {
    let message: String = message.into();
    let line = message.lines().next().unwrap_or("").to_string();
    (status, Json(serde_json::json!({ "error": line }))).into_response()
}
