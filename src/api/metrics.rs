//! `GET /metrics`: what the server counts, in Prometheus' text format, for its operators.
//!
//! The code that does a thing counts it, with the `metrics` facade's macros (a line at each
//! site); this module installs the one recorder of the process (metrics-exporter-prometheus,
//! without an HTTP listener of its own), renders it on this server's own port, and times every
//! request. What is counted (README.md, "Metrics"):
//!
//! | metric | labels | where |
//! |---|---|---|
//! | `luddo_http_requests_total` | `method` (`GET`, `HEAD`, `POST`, `PUT`, `PATCH`, `DELETE`, `OPTIONS`, else `other`), `route` (the path template, or `unmatched`), `status` | [`track`] |
//! | `luddo_http_request_duration_seconds` (histogram) | `method`, `route` | [`track`] |
//! | `luddo_connections_accepted_total`, `luddo_connections_refused_total` (over a cap), `luddo_connections_closed_total` | | `api::connections` |
//! | `luddo_websockets_open` (gauge), `luddo_websockets_opened_total`, `luddo_websockets_closed_total` | | `api::ws` |
//! | `luddo_tables_in_play` (gauge: actors of unfinished games in this process) | `game` | `table` |
//! | `luddo_actions_total` (log entries stored) | `game`, `played_by` | `table::actor` |
//! | `luddo_seat_takeovers_total` | `reason` | `table::actor` |
//! | `luddo_seat_reclaims_total` | | `table::actor` |
//! | `luddo_lease_takeovers_total` (tables taken from a process whose lease ran out) | | `table` |
//! | `luddo_log_batch_appends` (histogram: appends per group commit) | | `store::log` |
//! | `luddo_log_commit_duration_seconds` (histogram) | | `store::log` |
//! | `luddo_history_checkpoint_seconds` (histogram: signing and storing one checkpoint) | | `history` |
//!
//! No label carries an id, a name, a raw path or anything else a client chooses: the series
//! stay few whatever is sent, and the page tells nothing about any one player. It still tells how busy the server is: `LUDDO_METRICS=off` removes it.

use super::state::AppState;
use crate::table::TakeoverReason;
use axum::{
    Router,
    extract::{MatchedPath, Request},
    http::{Method, header},
    middleware::Next,
    response::{IntoResponse, Response},
    routing::get,
};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::{
    sync::OnceLock,
    time::{Duration, Instant},
};

/// Upper bounds of the latency buckets, in seconds (a request, a commit).
const SECONDS: &[f64] =
    &[0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];
/// Upper bounds of the batch-size buckets: a group commit takes 256 appends at most.
const APPENDS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0];
/// How often histogram samples are folded into their buckets when nobody scrapes: until then
/// each sample is kept on its own.
pub const UPKEEP: Duration = Duration::from_secs(5);

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed on first use: one per process, however many servers it
/// runs (the tests run many).
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)
            .and_then(|b| b.set_buckets_for_metric(Matcher::Full("luddo_log_batch_appends".into()), APPENDS))
            .expect("bucket lists are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed: /metrics shows nothing");
        }
        describe();
        handle.clone()
    })
}

/// Help lines, and the series that exist before anything happens at zero (so that a rate over
/// them is 0, not absent).
fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!("luddo_http_requests_total", "HTTP requests answered, by route template and status");
    describe_histogram!(
        "luddo_http_request_duration_seconds",
        Unit::Seconds,
        "time to answer an HTTP request"
    );
    describe_counter!("luddo_connections_accepted_total", "TCP connections accepted and served");
    describe_counter!(
        "luddo_connections_refused_total",
        "TCP connections closed at once: over a connection cap"
    );
    describe_counter!("luddo_connections_closed_total", "served TCP connections that ended");
    describe_gauge!("luddo_websockets_open", "open event WebSockets");
    describe_counter!("luddo_websockets_opened_total", "event WebSockets opened");
    describe_counter!("luddo_websockets_closed_total", "event WebSockets closed");
    describe_gauge!("luddo_tables_in_play", "tables whose game goes on in this process (running actors)");
    describe_counter!("luddo_actions_total", "log entries stored, by game and by who played them");
    describe_counter!("luddo_seat_takeovers_total", "seats a bot took from their player, by reason");
    describe_counter!("luddo_seat_reclaims_total", "seats players took back from a bot");
    describe_counter!("luddo_lease_takeovers_total", "tables taken from a process whose lease ran out");
    describe_counter!(
        "luddo_forwarded_calls_total",
        "calls (actions, views, presence links) sent to the process that drives their table"
    );
    describe_counter!(
        "luddo_table_handovers_total",
        "tables handed to the process that forwarded all their recent calls"
    );
    describe_histogram!("luddo_log_batch_appends", "appends written in one group commit");
    describe_histogram!("luddo_log_commit_duration_seconds", Unit::Seconds, "time to write one group commit");
    describe_histogram!(
        "luddo_history_checkpoint_seconds",
        Unit::Seconds,
        "time to sign and store one checkpoint of the history (docs/history.md)"
    );
    for name in [
        "luddo_connections_accepted_total",
        "luddo_connections_refused_total",
        "luddo_connections_closed_total",
        "luddo_websockets_opened_total",
        "luddo_websockets_closed_total",
        "luddo_seat_reclaims_total",
        "luddo_lease_takeovers_total",
        "luddo_forwarded_calls_total",
        "luddo_table_handovers_total",
    ] {
        metrics::counter!(name).increment(0);
    }
    metrics::gauge!("luddo_websockets_open").increment(0.0);
    for reason in TakeoverReason::ALL {
        metrics::counter!("luddo_seat_takeovers_total", "reason" => reason.as_str()).increment(0);
    }
}

/// Folds histogram samples into their buckets every [`UPKEEP`], for as long as the server runs.
pub async fn upkeep() {
    let handle = handle();
    let mut every = tokio::time::interval(UPKEEP);
    loop {
        every.tick().await;
        handle.run_upkeep();
    }
}

/// `GET /metrics` when `enabled` (`LUDDO_METRICS`), which installs the recorder; else nothing,
/// and nothing is counted.
pub fn router(enabled: bool) -> Router<AppState> {
    if !enabled {
        return Router::new();
    }
    handle();
    Router::new().route("/metrics", get(render))
}

async fn render() -> Response {
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")], handle().render()).into_response()
}

/// The `method` label of a request: its method if HTTP defines it and the API answers it, else
/// `other` (HTTP lets a client make a method up, of any length: each would be a series).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::PATCH => "PATCH",
        Method::DELETE => "DELETE",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// Counts and times each request by its route template (never its raw path: ids would make a
/// series per table), method and status.
pub async fn track(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let route = request.extensions().get::<MatchedPath>().map_or("unmatched", MatchedPath::as_str).to_owned();
    let method = method_label(request.method());
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!("luddo_http_request_duration_seconds", "method" => method, "route" => route.clone())
        .record(started.elapsed());
    metrics::counter!("luddo_http_requests_total", "method" => method, "route" => route, "status" => status)
        .increment(1);
    response
}
