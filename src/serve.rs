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
//! Safety, since a browser may be pointed at it by any page and others may share the
//! machine: requests must name this server in `Host`, come from its own page and from no
//! other site ([`guard`]; which names are its own: [`hosts`]); runs and sessions have
//! unguessable ids ([`new_id`]); bodies are bounded ([`MAX_BODY`]); at most
//! [`jobs::MAX_RUNNING`] runs and [`limits::MAX_INGESTING`] uploads are worked on at once;
//! every piece of work ends within milliseconds of being no longer wanted (Stop, a closed
//! tab, a run nobody watches ([`live::UNWATCHED_LIMIT`]), a client gone); what is made of
//! a run is made once ([`views`]) and downloads are written as they are read
//! ([`download`]); connections are capped and must send their headers in time
//! ([`listen`]); and every bad request gets a 4xx status and the one-line message the
//! command line would print.

pub mod deals;
pub mod download;
pub mod events;
pub mod exact;
pub mod guard;
pub mod hosts;
pub mod jobs;
pub mod limits;
pub mod listen;
pub mod live;
pub mod own;
pub mod replies;
pub mod request;
pub mod routes;
pub mod snapshot;
pub mod speed;
pub mod views;

use std::sync::Arc;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

pub use hosts::hosts_for;
pub use routes::router;

/// The largest request body: 64 MB of deals, about ten million 3-card deals.
pub const MAX_BODY: usize = 64 << 20;

/// What the server serves and how.
#[derive(Clone)]
pub struct Served {
    /// The `Host` values it answers to ([`hosts::hosts_for`]), the first one the address it
    /// prints.
    pub hosts: Vec<String>,
    /// Worker threads for each run and each ingest.
    pub threads: usize,
    /// The runs.
    pub jobs: Arc<jobs::Jobs>,
    /// The deals of "your own shuffle", sent a batch at a time.
    pub sessions: Arc<own::Sessions>,
    /// Uploads of deals being read ([`limits::MAX_INGESTING`] at most).
    pub ingesting: Arc<tokio::sync::Semaphore>,
}

impl Served {
    /// A server answering to `hosts`, with `threads` workers per job.
    pub fn new(hosts: Vec<String>, threads: usize) -> Arc<Self> {
        Arc::new(Self {
            hosts,
            threads,
            jobs: Arc::default(),
            sessions: Arc::default(),
            ingesting: Arc::new(tokio::sync::Semaphore::new(limits::MAX_INGESTING)),
        })
    }
}

/// A new id for a run or a session: 128 bits from the operating system, in hex. Whoever
/// knows a run's id can stop it or read it; only the page that started it is told.
pub fn new_id() -> Result<String, String> {
    use rand::TryRng;
    let mut bits = [0u8; 16];
    rand::rngs::SysRng
        .try_fill_bytes(&mut bits)
        .map_err(|error| format!("could not read the operating system's randomness for an id: {error}"))?;
    Ok(bits.iter().map(|byte| format!("{byte:02x}")).collect())
}

/// A refusal: the status and `{"error": message}`, the message one line.
pub fn error_response(status: StatusCode, message: impl Into<String>) -> Response {
    let message: String = message.into();
    let line = message.lines().next().unwrap_or("").to_string();
    (status, Json(serde_json::json!({ "error": line }))).into_response()
}
