//! The answers every handler gives the same way: a 404 for a run not known, a 400 for a
//! bad request or one of the tool's usage errors, a 413 for a body too large. Handlers
//! (the routes' and [`super::own`]'s, [`super::live::speed`]) use them; the router
//! ([`super::routes`]) only lists the handlers.

use std::sync::Arc;

use axum::extract::rejection::LengthLimitError;
use axum::http::StatusCode;
use axum::response::Response;

use super::jobs::Job;
use super::{MAX_BODY, Served, error_response};
use crate::error::Error;

/// What a body over [`MAX_BODY`] is told (the page says it too, before sending one).
pub fn too_large_message() -> String {
    format!(
        "the upload is larger than {} MB: send fewer deals, or run `shuffle-audit ingest FILE` on it",
        MAX_BODY >> 20
    )
}

/// A body read whole, or the refusal for one too large.
pub fn body_error(error: &axum::extract::rejection::BytesRejection) -> Response {
    let too_large = std::error::Error::source(error)
        .and_then(|source| source.downcast_ref::<LengthLimitError>())
        .is_some()
        || error.status() == StatusCode::PAYLOAD_TOO_LARGE;
    if too_large {
        error_response(StatusCode::PAYLOAD_TOO_LARGE, too_large_message())
    } else {
        error_response(
            StatusCode::BAD_REQUEST,
            format!("the request body could not be read: {error}"),
        )
    }
}

pub fn usage(error: &Error) -> Response {
    error_response(
        StatusCode::BAD_REQUEST,
        crate::format::escaped_for_terminals(&error.to_string()),
    )
}

/// The run whose id is `id`, or the 404 that says there is none (boxed: a response is
/// large).
pub fn find(served: &Served, id: &str) -> Result<Arc<Job>, Box<Response>> {
    served.jobs.get(id).ok_or_else(|| {
        Box::new(error_response(
            StatusCode::NOT_FOUND,
            format!(
                "no run '{}' (it may have been forgotten)",
                crate::format::escaped_for_terminals(id)
            ),
        ))
    })
}
