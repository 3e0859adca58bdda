//! Deals from the page, read as `ingest -` reads standard input, with `ingest`'s flags
//! from the query string: the `/api/ingest` routes, and the reading that "your own
//! shuffle" ([`super::own`]) does for its batches too.

use std::io::Cursor;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};

use super::download::json_download;
use super::limits::Wanted;
use super::replies::{body_error, usage};
use super::snapshot::{View, stream_view, view};
use super::{Served, error_response};
use crate::error::Error;
use crate::ingest::{IngestReport, IngestSettings, Input, SampleKind, ingest, parse_deck};

/// How the page's deals are to be read: `ingest`'s flags.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IngestQuery {
    kind: Option<String>,
    k: Option<String>,
    deck: Option<String>,
    ordered: Option<bool>,
    skip_invalid: Option<bool>,
    alpha: Option<String>,
}

pub fn ingest_settings(query: &IngestQuery, threads: usize) -> crate::error::Result<IngestSettings> {
    let invalid = |flag: &str, text: &str, why: String| {
        Error::Usage(format!("invalid value '{text}' for '{flag}': {why}"))
    };
    let kind = match query.kind.as_deref().unwrap_or("permutations") {
        "permutations" => SampleKind::Permutations,
        "selections" => SampleKind::Selections,
        other => {
            return Err(invalid(
                "--kind <KIND>",
                other,
                "the page reads [possible values: permutations, selections]".to_string(),
            ));
        }
    };
    let k = match query.k.as_deref().filter(|k| !k.trim().is_empty()) {
        None => None,
        Some(text) => Some(
            text.trim()
                .parse::<usize>()
                .map_err(|error| invalid("--k <K>", text, error.to_string()))?,
        ),
    };
    let alpha = match query.alpha.as_deref() {
        None => 1e-6,
        Some(text) => crate::parse::parse_alpha(text).map_err(|why| invalid("--alpha <A>", text, why))?,
    };
    Ok(IngestSettings {
        kind,
        k,
        deck: query
            .deck
            .as_deref()
            .filter(|deck| !deck.trim().is_empty())
            .map(parse_deck)
            .transpose()?,
        weights: None,
        ordered: query.ordered.unwrap_or(false),
        skip_invalid: query.skip_invalid.unwrap_or(false),
        unpredictable: false,
        predictability_budget: crate::ingest::predictability::BUDGET,
        seed_search: Vec::new(),
        seed_search_stop: None,
        threads,
        alpha,
    })
}

/// Reads the deals of `body` as `ingest -` reads standard input.
async fn ingested(
    served: &Served,
    query: Result<Query<IngestQuery>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<IngestReport, Response> {
    let Query(query) = query.map_err(|error| {
        error_response(
            StatusCode::BAD_REQUEST,
            format!("bad options: {}", error.body_text()),
        )
    })?;
    let body = body.map_err(|error| body_error(&error))?;
    ingest_all(served, query, body).await
}

/// Reads `deals` as `ingest -` reads standard input, with `query`'s flags; given up when
/// the request is dropped (its client went away).
pub async fn ingest_all(served: &Served, query: IngestQuery, deals: Bytes) -> Result<IngestReport, Response> {
    let body = deals;
    let threads = served.threads;
    let wanted = Wanted::new();
    let progress = wanted.progress();
    tokio::task::spawn_blocking(move || {
        let settings = ingest_settings(&query, threads)?;
        let mut report = ingest(
            Input::reader(Cursor::new(body)),
            "standard input",
            &settings,
            &progress,
        )?;
        report.input_mut().command = settings.command("-");
        Ok(report)
    })
    .await
    .map_err(|_| error_response(StatusCode::INTERNAL_SERVER_ERROR, "the deals could not be read"))?
    .map_err(|error: Error| usage(&error))
}

#[derive(Serialize)]
struct IngestView {
    verdict: crate::stats::Verdict,
    samples: u64,
    samples_needed: Option<u64>,
    view: View,
}

pub async fn ingest_view(
    State(served): State<Arc<Served>>,
    query: Result<Query<IngestQuery>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    match ingested(&served, query, body).await {
        Ok(report) => ingest_view_of(report).await,
        Err(response) => response,
    }
}

/// What the page shows of deals read by `ingest`.
pub async fn ingest_view_of(report: IngestReport) -> Response {
    let rendered = tokio::task::spawn_blocking(move || {
        let view = match &report {
            IngestReport::Samples(run) => view(run, false),
            IngestReport::Stream(stream) => stream_view(stream),
        };
        IngestView {
            verdict: report.verdict(),
            samples: report.samples(),
            samples_needed: report.samples_needed(),
            view,
        }
    })
    .await;
    match rendered {
        Ok(view) => axum::Json(view).into_response(),
        Err(_) => error_response(StatusCode::INTERNAL_SERVER_ERROR, "the deals could not be drawn"),
    }
}

pub async fn ingest_json(
    State(served): State<Arc<Served>>,
    query: Result<Query<IngestQuery>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    match ingested(&served, query, body).await {
        Ok(report) => ingest_json_of(report),
        Err(response) => response,
    }
}

/// `ingest --json`'s JSON of deals read, as a download written as it is made.
pub fn ingest_json_of(report: IngestReport) -> Response {
    json_download("ingest.json", move |out| match &report {
        IngestReport::Samples(run) => crate::output::json::run::write(run, out),
        IngestReport::Stream(stream) => crate::output::json::stream::write(stream, out),
    })
}
