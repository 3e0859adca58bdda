//! What every request passes before a handler sees it: its `Host` must be the address
//! the server serves, a request sent by a page must come from the server's own page, and
//! no request may come from another site at all; and what every answer carries, refusals
//! included.
//!
//! Why: a page on another site can point a name it controls at 127.0.0.1 (DNS
//! rebinding) and then talk to this server as "its own" origin; its requests still carry
//! its own name in `Host`, so refusing every other `Host` keeps it out. A plain form
//! posted from another site carries the right `Host` but a foreign `Origin`, refused too.
//! A plain `GET` from another site (an `<img>` pointed at a run's events, which would stop
//! the run when the image gives up) carries neither, but browsers mark it with
//! `Sec-Fetch-Site: cross-site` (or `same-site`, from a neighbouring name), so those are
//! refused on every route. The server sends no CORS headers at all, so browsers keep
//! other origins from reading its answers; and every answer, a refusal too, tells the
//! browser not to guess types, frame the page or send it as a referrer.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;
use std::sync::Arc;

use super::{Served, error_response};

/// Refuses a request whose `Host` (or `Origin`, when sent) is not one the server serves,
/// or that another site sent; adds the answer's safety headers either way.
pub async fn same_host(State(served): State<Arc<Served>>, request: Request, next: Next) -> Response {
    let mut response = match check(&served, request.headers()) {
        Err(message) => error_response(StatusCode::FORBIDDEN, message),
        Ok(()) => next.run(request).await,
    };
    let headers = response.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
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
            "Host '{}' is not this server's address ({}): refused (serve --allow-host NAME accepts another name)",
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
    let site = headers
        .get("sec-fetch-site")
        .and_then(|value| value.to_str().ok())
        .unwrap_or("");
    if site.eq_ignore_ascii_case("cross-site") || site.eq_ignore_ascii_case("same-site") {
        return Err(format!(
            "requests from another site ({}) are refused: only this server's own page may send them",
            site.to_ascii_lowercase()
        ));
    }
    Ok(())
}
