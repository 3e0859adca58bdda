//! The routes: the page and its assets (embedded in the binary: no network needed), the
//! catalogue, live runs (start, watch as server-sent events, stop, download) and deals
//! from the page (tested as `ingest` tests them, a few uploads at a time
//! ([`super::limits`])). This file lists every route and holds the small handlers; the
//! larger ones are files of their own (events, the speed slider, deals read as `ingest`
//! reads them, the batches of "your own shuffle"), and the answers every handler gives
//! the same way are [`super::replies`]'s: none of them imports the routes back.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;

use super::deals::{ingest_json, ingest_view};
use super::download::json_download;
pub use super::events::UPDATE_INTERVAL;
use super::events::watch_run;
use super::limits::one_of_few_ingests;
use super::live::LiveReport;
use super::replies::{body_error, find, too_large_message, usage};
use super::request::RunRequest;
use super::{MAX_BODY, Served, error_response, guard};
use crate::catalogue::generators::GENERATORS;
use crate::catalogue::{Kind, entries};
use crate::randomness::SourceKind;

const INDEX: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/app.js");
const WORKER: &str = include_str!("assets/worker.js");
const STYLES: &str = include_str!("assets/app.css");

/// The page may load only its own script, styles and the SVGs it is sent.
const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
    img-src 'self' data:; connect-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'; \
    frame-ancestors 'none'";
/// The worker runs the user's function (compiled with `new Function`) and may reach
/// nothing: it answers the page by messages only.
const WORKER_POLICY: &str = "default-src 'none'; script-src 'self' 'unsafe-eval'";

/// Every route, behind the host check and the body limit.
pub fn router(served: Arc<Served>) -> Router {
    // The routes that read deals, a few uploads at a time (checked before the body is read).
    let reading_deals = Router::new()
        .route("/api/ingest", post(ingest_view))
        .route("/api/ingest/json", post(ingest_json))
        .route("/api/own/{id}/deals", post(super::own::deals))
        .route("/api/own/{id}/json", get(super::own::json))
        .route_layer(middleware::from_fn_with_state(served.clone(), one_of_few_ingests));
    Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX, PAGE_POLICY)))
        .route(
            "/app.js",
            get(|| asset("text/javascript; charset=utf-8", SCRIPT, PAGE_POLICY)),
        )
        .route(
            "/worker.js",
            get(|| asset("text/javascript; charset=utf-8", WORKER, WORKER_POLICY)),
        )
        .route(
            "/app.css",
            get(|| asset("text/css; charset=utf-8", STYLES, PAGE_POLICY)),
        )
        .route("/api/catalogue", get(catalogue))
        .route("/api/runs", post(start_run))
        .route("/api/runs/{id}/events", get(watch_run))
        .route("/api/runs/{id}/stop", post(stop_run))
        .route("/api/runs/{id}/speed", post(super::speed::set_speed))
        .route("/api/runs/{id}/json", get(run_json))
        .route("/api/own", post(super::own::start))
        .merge(reading_deals)
        .fallback(|| async { error_response(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn(too_large))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(served.clone(), guard::same_host))
        .with_state(served)
}

async fn asset(content_type: &'static str, body: &'static str, policy: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, policy),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// Turns axum's plain-text 413 into the page's one-line message.
async fn too_large(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE {
        return error_response(StatusCode::PAYLOAD_TOO_LARGE, too_large_message());
    }
    response
}

/// Every name of `list`, in its three tables: shuffles and samplers run as `run` runs
/// them, generators as `stream` does.
#[derive(Serialize)]
struct CatalogueJson {
    shuffles: Vec<EntryJson>,
    samplers: Vec<EntryJson>,
    generators: Vec<EntryJson>,
    sources: Vec<SourceJson>,
    threads: usize,
    max_body: usize,
    too_large: String,
}

#[derive(Serialize)]
struct EntryJson {
    name: &'static str,
    summary: &'static str,
    expected: String,
    /// The parameter its name may take after a colon (`naive-repeated:3`), if any.
    parameter: Option<&'static str>,
}

#[derive(Serialize)]
struct SourceJson {
    name: &'static str,
}

async fn catalogue(State(served): State<Arc<Served>>) -> Response {
    let of_kind = |kind: Kind| {
        entries()
            .filter(move |entry| entry.kind() == kind)
            .map(|entry| EntryJson {
                name: entry.name,
                summary: entry.summary,
                expected: entry.expected_in_words(),
                parameter: entry.parameter.map(|parameter| parameter.name),
            })
            .collect()
    };
    let generators = GENERATORS
        .iter()
        .map(|entry| EntryJson {
            name: entry.name,
            summary: entry.summary,
            expected: entry.known_to_be.to_string(),
            parameter: entry.parameter.map(|parameter| parameter.name),
        })
        .collect();
    let sources = SourceKind::all()
        .map(|source| SourceJson { name: source.name() })
        .collect();
    axum::Json(CatalogueJson {
        shuffles: of_kind(Kind::Shuffle),
        samplers: of_kind(Kind::Sampler),
        generators,
        sources,
        threads: served.threads,
        max_body: MAX_BODY,
        too_large: too_large_message(),
    })
    .into_response()
}

async fn start_run(
    State(served): State<Arc<Served>>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    let body = match body {
        Ok(body) => body,
        Err(error) => return body_error(&error),
    };
    let threads = served.threads;
    let resolved = tokio::task::spawn_blocking(move || RunRequest::from_json(&body)?.resolve(threads)).await;
    let request = match resolved {
        Ok(Ok(request)) => request,
        Ok(Err(error)) => return usage(&error),
        Err(_) => return error_response(StatusCode::INTERNAL_SERVER_ERROR, "the request could not be read"),
    };
    match served.jobs.start(request) {
        Ok((id, job)) => (
            StatusCode::CREATED,
            axum::Json(serde_json::json!({
                "id": id,
                "seed": job.run.request.seed(),
                "trials": job.run.request.total(),
            })),
        )
            .into_response(),
        Err(message) => error_response(StatusCode::SERVICE_UNAVAILABLE, message),
    }
}

async fn stop_run(State(served): State<Arc<Served>>, Path(id): Path<String>) -> Response {
    match find(&served, &id) {
        Ok(job) => {
            job.run.stop();
            StatusCode::NO_CONTENT.into_response()
        }
        Err(response) => *response,
    }
}

/// `run --json`'s JSON of what a run tallied so far, written to the socket as it is made
/// ([`json_download`]); the report it is written from is made first, so that a run with
/// nothing tallied yet gets its 409.
async fn run_json(State(served): State<Arc<Served>>, Path(id): Path<String>) -> Response {
    let run = match find(&served, &id) {
        Ok(job) => job.run.clone(),
        Err(response) => return *response,
    };
    let report = tokio::task::spawn_blocking(move || {
        let report = run.report(true)?;
        let (name, trials) = match &report {
            LiveReport::Run(report) => (report.names().first()?.to_string(), report.settings.trials),
            LiveReport::Stream(report) => (
                report.results.first()?.name.clone(),
                report.settings.streams * report.settings.length,
            ),
        };
        Some((report, name, trials))
    })
    .await
    .ok()
    .flatten();
    match report {
        Some((report, name, trials)) => {
            json_download(&format!("{name}-{trials}.json"), move |out| match &report {
                LiveReport::Run(report) => crate::output::json::run::write(report, out),
                LiveReport::Stream(report) => crate::output::json::stream::write(report, out),
            })
        }
        None => error_response(
            StatusCode::CONFLICT,
            "nothing has been tallied yet: wait for the first deals",
        ),
    }
}
