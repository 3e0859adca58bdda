//! What one request may cost: deals read from a page are read [`MAX_INGESTING`] uploads
//! at a time (others are told to wait, before their body is read), and the reading stops
//! when the client goes away ([`Wanted`]).
//!
//! Why: an upload of 63 MiB of deals is read in a few CPU-seconds with a few hundred
//! megabytes; four at once took a gigabyte, and a script could send them in a loop. Runs
//! have their own limit ([`super::jobs::MAX_RUNNING`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;

use super::{MAX_BODY, Served, error_response};
use crate::simulate::Progress;

/// Uploads of deals read at once.
pub const MAX_INGESTING: usize = 2;

/// Lets a request that sends deals through only while fewer than [`MAX_INGESTING`] are
/// being read, and before its body is read; the others get 503 and a one-line message.
pub async fn one_of_few_ingests(State(served): State<Arc<Served>>, request: Request, next: Next) -> Response {
    let Ok(slot) = served.ingesting.clone().try_acquire_owned() else {
        // The body is read and dropped as it comes (nothing is kept), so that a browser
        // still sending it reads the answer rather than a reset connection.
        let mut body = request.into_body().into_data_stream();
        let mut read = 0usize;
        while read <= MAX_BODY {
            match futures_util::StreamExt::next(&mut body).await {
                Some(Ok(piece)) => read += piece.len(),
                _ => break,
            }
        }
        return error_response(
            StatusCode::SERVICE_UNAVAILABLE,
            format!(
                "{MAX_INGESTING} uploads of deals are being read already (at most {MAX_INGESTING} at once); send this one again in a moment"
            ),
        );
    };
    let response = next.run(request).await;
    drop(slot);
    response
}

/// Whether the request that asked for some work still wants it: the handler holds a
/// [`Wanted`], the work its [`Wanted::progress`]; when the handler's future is dropped
/// (the client went away) the work is cancelled.
pub struct Wanted(Arc<AtomicBool>);

impl Wanted {
    pub fn new() -> Self {
        Self(Arc::new(AtomicBool::new(false)))
    }

    /// The progress to hand the work: cancelled once this is dropped.
    pub fn progress(&self) -> WhileWanted {
        WhileWanted(self.0.clone())
    }
}

impl Default for Wanted {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for Wanted {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Work's progress, cancelled when its [`Wanted`] is dropped.
pub struct WhileWanted(Arc<AtomicBool>);

impl Progress for WhileWanted {
    fn advance(&self, _trials: u64) {}

    fn cancelled(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}
