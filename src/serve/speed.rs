//! `POST /api/runs/{id}/speed`: the page's speed slider, moved while a run runs.
//!
//! The body is `{"speed": "20"}` (deals a second, read as `--trials` is) or
//! `{"speed": "full"}`; the run follows from its next step ([`super::live::SLOW_STEP`]). A bad
//! speed gets 400 and a one-line message, an unknown run 404, as every route does.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::Served;
use super::replies::{body_error, find, usage};
use super::request::{Field, Speed};
use crate::error::Error;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SpeedRequest {
    speed: Field,
}

/// Reads a speed request's body.
fn speed_of(body: &[u8]) -> crate::error::Result<Speed> {
    let request: SpeedRequest = serde_json::from_slice(body).map_err(|error| {
        Error::Usage(format!(
            "the request is not a speed request ({})",
            crate::format::escaped_for_terminals(&error.to_string())
        ))
    })?;
    Speed::parse(&request.speed.text())
}

pub async fn set_speed(
    State(served): State<Arc<Served>>,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(error) => return body_error(&error),
    };
    let job = match find(&served, &id) {
        Ok(job) => job,
        Err(response) => return *response,
    };
    match speed_of(&body) {
        Ok(speed) => {
            job.run.set_speed(speed);
            StatusCode::NO_CONTENT.into_response()
        }
        Err(error) => usage(&error),
    }
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::body::{Body, to_bytes};
    use axum::http::{Request, header};
    use serde_json::Value;
    use tower::ServiceExt;

    use super::*;
    use crate::serve::router;

    const HOST: &str = "127.0.0.1:8123";

    async fn send(app: &Router, method: &str, uri: &str, body: &str) -> (StatusCode, String) {
        let request = Request::builder()
            .method(method)
            .uri(uri)
            .header(header::HOST, HOST)
            .body(Body::from(body.to_string()))
            .unwrap();
        let response = app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let body = to_bytes(response.into_body(), usize::MAX).await.unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    fn error_of(body: &str) -> String {
        let message = serde_json::from_str::<Value>(body).unwrap()["error"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(!message.contains('\n'), "one line: {message}");
        message
    }

    /// A run started at 20 deals a second is set to full speed through the route and
    /// ends (at 20 a second its 1e6 deals would take 14 hours); bad speeds get 400 and a
    /// one-line message, an unknown run 404.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_speed_of_a_run_changes_while_it_runs() {
        let app = router(Served::new(vec![HOST.to_string()], 2));
        let (status, body) = send(
            &app,
            "POST",
            "/api/runs",
            r#"{"algorithm":"naive-swap","n":3,"trials":"1e6","seed":1,"speed":"fast"}"#,
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(error_of(&body).contains("for 'speed'"), "{body}");

        let (status, body) = send(
            &app,
            "POST",
            "/api/runs",
            r#"{"algorithm":"naive-swap","n":3,"trials":"1e6","seed":1,"speed":"20"}"#,
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        let id = match &serde_json::from_str::<Value>(&body).unwrap()["id"] {
            Value::String(id) => id.clone(),
            id => id.to_string(),
        };
        let speed = format!("/api/runs/{id}/speed");
        for (bad, why) in [
            (r#"{"speed":"0"}"#, "at least 1"),
            (r#"{"sped":"full"}"#, "not a speed request"),
        ] {
            let (status, body) = send(&app, "POST", &speed, bad).await;
            assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}");
            assert!(error_of(&body).contains(why), "{bad}: {body}");
        }
        let (status, body) = send(&app, "POST", "/api/runs/no-such-run/speed", r#"{"speed":"full"}"#).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{body}");

        let (status, _) = send(&app, "POST", &speed, r#"{"speed":"full"}"#).await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        // The stream ends with the run: every deal dealt.
        let (status, events) = tokio::time::timeout(
            std::time::Duration::from_secs(60),
            send(&app, "GET", &format!("/api/runs/{id}/events"), ""),
        )
        .await
        .expect("the run never ended at full speed");
        assert_eq!(status, StatusCode::OK);
        let last: Value = events
            .lines()
            .filter_map(|line| line.strip_prefix("data: "))
            .filter_map(|data| serde_json::from_str::<Value>(data).ok())
            .rfind(|update| update.get("phase").is_some())
            .expect("an update");
        assert_eq!(last["phase"], "done", "{last}");
        assert_eq!(last["deals"], 1_000_000, "{last}");
    }
}
