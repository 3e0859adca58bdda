//! Deals sent by the page a batch at a time ("your own shuffle"): each deal crosses the
//! network once, and the server keeps them, in order, for the session.
//!
//! Why keep the text and not only a tally: `ingest` also tests each deal against the one
//! before it (their relative permutation), which a tally of each batch alone would miss
//! at every batch boundary. The deals of a session are read again, all of them, by
//! [`crate::ingest`] at each batch, so what the page shows and downloads is exactly what
//! `ingest` says of the same file; reading them is cheap next to dealing them in a browser.
//! A session holds at most [`super::MAX_BODY`] of deals, like one upload. Its routes
//! (start, add a batch, download) are here, beside the sessions they keep.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::routes::{
    IngestQuery, body_error, ingest_all, ingest_json_of, ingest_settings, ingest_view_of, too_large_message,
    usage,
};
use super::{MAX_BODY, Served, error_response};

/// Sessions kept at once; starting another forgets the oldest.
pub const KEPT_SESSIONS: usize = 8;

/// One page's deals so far, and how they are to be read (`ingest`'s flags).
pub struct Session {
    pub query: IngestQuery,
    pub deals: Mutex<Vec<u8>>,
}

/// Every session the server holds.
#[derive(Default)]
pub struct Sessions {
    sessions: Mutex<BTreeMap<u64, Arc<Session>>>,
    next_id: AtomicU64,
}

impl Sessions {
    /// A new, empty session whose deals are read with `query`.
    pub fn start(&self, query: IngestQuery) -> u64 {
        let mut sessions = self.sessions.lock().unwrap_or_else(|poison| poison.into_inner());
        while sessions.len() >= KEPT_SESSIONS {
            let oldest = *sessions.keys().next().expect("not empty");
            sessions.remove(&oldest);
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        sessions.insert(
            id,
            Arc::new(Session {
                query,
                deals: Mutex::default(),
            }),
        );
        id
    }

    /// The session numbered `id`.
    pub fn get(&self, id: u64) -> Option<Arc<Session>> {
        self.sessions
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .get(&id)
            .cloned()
    }
}

impl Session {
    /// Adds `batch` to the deals and returns all of them, or `None` (nothing added) when
    /// they would exceed `limit` bytes.
    pub fn append(&self, batch: &[u8], limit: usize) -> Option<Vec<u8>> {
        let mut deals = self.deals.lock().unwrap_or_else(|poison| poison.into_inner());
        if deals.len() + batch.len() > limit {
            return None;
        }
        deals.extend_from_slice(batch);
        Some(deals.clone())
    }

    /// Every deal so far.
    pub fn all(&self) -> Vec<u8> {
        self.deals
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .clone()
    }
}

/// Starts a session of deals sent a batch at a time, read with `ingest`'s flags in the
/// query (checked now, so that a bad flag is said before any deal is made).
pub(super) async fn start(
    State(served): State<Arc<Served>>,
    query: Result<Query<IngestQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        return error_response(StatusCode::BAD_REQUEST, "bad options for the deals");
    };
    if let Err(error) = ingest_settings(&query, served.threads) {
        return usage(&error);
    }
    let id = served.sessions.start(query);
    (StatusCode::CREATED, axum::Json(serde_json::json!({ "id": id }))).into_response()
}

/// The session numbered `id`, or the 404 that says there is none (boxed: a response is
/// large).
fn find_session(served: &Served, id: &str) -> Result<Arc<Session>, Box<Response>> {
    id.parse::<u64>()
        .ok()
        .and_then(|id| served.sessions.get(id))
        .ok_or_else(|| {
            Box::new(error_response(
                StatusCode::NOT_FOUND,
                "no such session of deals (it may have been forgotten): press Start again",
            ))
        })
}

/// Adds a batch of deals to a session and shows what `ingest` says of all of them.
pub(super) async fn deals(
    State(served): State<Arc<Served>>,
    Path(id): Path<String>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let session = match find_session(&served, &id) {
        Ok(session) => session,
        Err(response) => return *response,
    };
    let batch = match body {
        Ok(batch) => batch,
        Err(error) => return body_error(&error),
    };
    let Some(deals) = session.append(&batch, MAX_BODY) else {
        return error_response(StatusCode::PAYLOAD_TOO_LARGE, too_large_message());
    };
    match ingest_all(&served, session.query.clone(), deals).await {
        Ok(report) => ingest_view_of(report).await,
        Err(response) => response,
    }
}

/// `ingest --json`'s JSON of a session's deals.
pub(super) async fn json(State(served): State<Arc<Served>>, Path(id): Path<String>) -> Response {
    let session = match find_session(&served, &id) {
        Ok(session) => session,
        Err(response) => return *response,
    };
    match ingest_all(&served, session.query.clone(), session.all()).await {
        Ok(report) => ingest_json_of(&report),
        Err(response) => response,
    }
}
