//! Deals sent by the page a batch at a time ("your own shuffle"): each deal crosses the
//! network once, and the server keeps them, in order, for the session.
//!
//! Why keep the text and not only a tally: `ingest` also tests each deal against the one
//! before it (their relative permutation), which a tally of each batch alone would miss
//! at every batch boundary. The deals of a session are read again, all of them, by
//! [`crate::ingest`] at each batch, so what the page shows and downloads is exactly what
//! `ingest` says of the same file; reading them is cheap next to dealing them in a browser.
//! A session holds at most [`super::MAX_BODY`] of deals, like one upload; a batch that is
//! refused (too large, or a deal `ingest` rejects) is not kept, so that the session goes
//! on with the next. Its id is unguessable, as a run's is. Its routes (start, add a batch,
//! download) are here, beside the sessions they keep.

use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::deals::{IngestQuery, ingest_all, ingest_json_of, ingest_settings, ingest_view_of};
use super::replies::{body_error, too_large_message, usage};
use super::{MAX_BODY, Served, error_response};

/// Sessions kept at once; starting another forgets the oldest.
pub const KEPT_SESSIONS: usize = 8;

/// One page's deals so far, and how they are to be read (`ingest`'s flags).
pub struct Session {
    pub query: IngestQuery,
    pub deals: Mutex<Vec<u8>>,
}

/// Every session the server holds, oldest first.
#[derive(Default)]
pub struct Sessions {
    sessions: Mutex<Vec<(String, Arc<Session>)>>,
}

impl Sessions {
    /// A new, empty session whose deals are read with `query`, and its id.
    pub fn start(&self, query: IngestQuery) -> Result<String, String> {
        let id = super::new_id()?;
        let mut sessions = self.sessions.lock().unwrap_or_else(|poison| poison.into_inner());
        let forgotten = (sessions.len() + 1).saturating_sub(KEPT_SESSIONS);
        sessions.drain(..forgotten);
        sessions.push((
            id.clone(),
            Arc::new(Session {
                query,
                deals: Mutex::default(),
            }),
        ));
        Ok(id)
    }

    /// The session whose id is `id`.
    pub fn get(&self, id: &str) -> Option<Arc<Session>> {
        self.sessions
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .iter()
            .find(|(known, _)| known.as_str() == id)
            .map(|(_, session)| session.clone())
    }
}

impl Session {
    /// Adds `batch` to the deals and returns all of them and where the batch starts, or
    /// `None` (nothing added) when they would exceed `limit` bytes.
    pub fn append(&self, batch: &[u8], limit: usize) -> Option<(Vec<u8>, usize)> {
        let mut deals = self.deals.lock().unwrap_or_else(|poison| poison.into_inner());
        if deals.len() + batch.len() > limit {
            return None;
        }
        let start = deals.len();
        deals.extend_from_slice(batch);
        Some((deals.clone(), start))
    }

    /// Takes back the batch `append` placed at `start`, `length` bytes long (it was
    /// refused), if it is still the last one.
    pub fn take_back(&self, start: usize, length: usize) {
        let mut deals = self.deals.lock().unwrap_or_else(|poison| poison.into_inner());
        if deals.len() == start + length {
            deals.truncate(start);
        }
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
    match served.sessions.start(query) {
        Ok(id) => (StatusCode::CREATED, axum::Json(serde_json::json!({ "id": id }))).into_response(),
        Err(message) => error_response(StatusCode::SERVICE_UNAVAILABLE, message),
    }
}

/// The session whose id is `id`, or the 404 that says there is none (boxed: a response
/// is large).
fn find_session(served: &Served, id: &str) -> Result<Arc<Session>, Box<Response>> {
    served.sessions.get(id).ok_or_else(|| {
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
    let Some((deals, start)) = session.append(&batch, MAX_BODY) else {
        return error_response(StatusCode::PAYLOAD_TOO_LARGE, too_large_message());
    };
    // Taken back unless `ingest` reads it: refused, or its page gone before the answer.
    let mut pending = Pending {
        session: &session,
        start,
        length: batch.len(),
        kept: false,
    };
    match ingest_all(&served, session.query.clone(), deals.into()).await {
        Ok(report) => {
            pending.kept = true;
            ingest_view_of(report).await
        }
        Err(response) => response,
    }
}

/// A batch added to a session, taken back when dropped unless it was kept.
struct Pending<'a> {
    session: &'a Session,
    start: usize,
    length: usize,
    kept: bool,
}

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        if !self.kept {
            self.session.take_back(self.start, self.length);
        }
    }
}

/// `ingest --json`'s JSON of a session's deals.
pub(super) async fn json(State(served): State<Arc<Served>>, Path(id): Path<String>) -> Response {
    let session = match find_session(&served, &id) {
        Ok(session) => session,
        Err(response) => return *response,
    };
    match ingest_all(&served, session.query.clone(), session.all().into()).await {
        Ok(report) => ingest_json_of(report),
        Err(response) => response,
    }
}
