//! What every request passes before a handler sees it: its `Host` must be the address
//! the server serves, and a request sent by a page must come from the server's own page.
//!
//! Why: a page on another site can point a name it controls at 127.0.0.1 (DNS
//! rebinding) and then talk to this server as "its own" origin; its requests still carry
//! its own name in `Host`, so refusing every other `Host` keeps it out. A plain form
//! posted from another site carries the right `Host` but a foreign `Origin`, refused too.
//! The server sends no CORS headers at all, so browsers keep other origins from reading
//! its answers.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

use super::{Served, error_response};

/// Refuses a request whose `Host` (or `Origin`, when sent) is not one the server serves.
pub async fn same_host(State(served): State<Arc<Served>>, request: Request, next: Next) -> Response {
    if let Err(message) = check(&served, request.headers()) {
        return error_response(StatusCode::FORBIDDEN, message).into_response();
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        "nosniff".parse().expect("a header value"),
    );
    headers.insert("referrer-policy", "no-referrer".parse().expect("a header value"));
    headers.insert(header::X_FRAME_OPTIONS, "DENY".parse().expect("a header value"));
    response
}

fn check(served: &Served, headers: &HeaderMap) -> Result<(), String> {
    let host = headers
        .get(header::HOST)
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if !served
        .hosts
        .iter()
        .any(|allowed| allowed.eq_ignore_ascii_case(host))
    {
        return Err(format!(
            "Host '{}' is not this server's address ({}): refused",
            crate::format::escaped_for_terminals(host),
            served.hosts.first().map_or("", String::as_str)
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let ours = served
            .hosts
            .iter()
            .any(|allowed| origin.eq_ignore_ascii_case(&format!("http://{allowed}")));
        if !ours {
            return Err(format!(
                "requests from '{}' are refused: only this server's own page may send them",
                crate::format::escaped_for_terminals(origin)
            ));
        }
    }
    Ok(())
}
