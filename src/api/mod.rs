//! The HTTP edge: routers, shared state, and the layers every request passes through.
//!
//! Handlers parse, authorize, call the store (or a table's actor) and map the answer to HTTP.
//! Each resource module owns its `router()` with full paths (so a route reads as it is called);
//! [`router`] merges them and wraps
//! them in tracing, request ids, CORS, compression, body limits and timeouts.

mod access;
mod actions;
mod analysis;
pub mod asyncapi;
pub mod body;
mod cache;
pub(crate) mod chat;
pub mod client_addr;
pub mod connections;
pub mod error;
pub mod extract;
mod games;
mod health;
mod history;
pub mod limits;
mod luck;
pub mod metrics;
mod moderation;
pub mod openapi;
mod paging;
mod players;
mod profiles;
mod ratings;
pub mod records;
mod shame;
mod state;
mod tables;
mod web;
mod ws;

pub use state::AppState;

use axum::{
    Router,
    extract::{DefaultBodyLimit, MatchedPath, Request},
    http::{HeaderName, HeaderValue, StatusCode, header},
    middleware,
    response::{IntoResponse, Response},
};
use error::{ApiError, ErrorCode};
use tower_http::{
    LatencyUnit,
    compression::CompressionLayer,
    cors::{AllowOrigin, Any, CorsLayer},
    limit::RequestBodyLimitLayer,
    request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer},
    timeout::TimeoutLayer,
    trace::{DefaultOnResponse, TraceLayer},
};
use tracing::Level;

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The whole HTTP application.
pub fn router(state: AppState) -> Router {
    let config = state.config.clone();
    let cors = match &config.cors_origins {
        None => CorsLayer::new().allow_origin(Any),
        Some(origins) => CorsLayer::new()
            .allow_origin(AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o).ok()))),
    }
    .allow_methods(Any)
    .allow_headers([header::AUTHORIZATION, header::CONTENT_TYPE, REQUEST_ID])
    // What a browser's script may read of a response besides the basics: when to retry, and
    // the id to quote when reporting a failure.
    .expose_headers([header::RETRY_AFTER, REQUEST_ID]);

    Router::new()
        .merge(health::router())
        .merge(openapi::router())
        .merge(asyncapi::router())
        .merge(players::router())
        .merge(games::router())
        .merge(tables::router())
        .merge(chat::router())
        .merge(moderation::router())
        .merge(actions::router())
        .merge(ws::router())
        .merge(records::router())
        .merge(history::router())
        .merge(ratings::router())
        .merge(profiles::router())
        .merge(luck::router())
        .merge(shame::router())
        .merge(analysis::router())
        .merge(metrics::router(config.metrics))
        .merge(web::router(config.web_dir.clone()))
        .fallback(|| async { ApiError::not_found("no such route") })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                ErrorCode::MethodNotAllowed,
                "method not allowed here",
            )
        })
        .with_state(state)
        .layer(DefaultBodyLimit::max(config.max_body_bytes))
        .layer(RequestBodyLimitLayer::new(config.max_body_bytes))
        .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.request_timeout))
        .layer(middleware::from_fn(problem_details))
        .layer(CompressionLayer::new())
        .layer(cors)
        // Counted with its final status, preflights too (a no-op unless a recorder is installed).
        .layer(middleware::from_fn(metrics::track))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        // The access log: one line per request at info, "finished processing request" with its
        // status and latency, in a span with the method, the route (the path template, so ids
        // do not make every line unique), the path and the request id.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(|req: &Request| {
                    let id = req.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
                    let route = req.extensions().get::<MatchedPath>().map_or("-", MatchedPath::as_str);
                    tracing::info_span!(
                        "http",
                        method = %req.method(),
                        route = %route,
                        path = %req.uri().path(),
                        request_id = %id
                    )
                })
                .on_response(DefaultOnResponse::new().level(Level::INFO).latency_unit(LatencyUnit::Millis)),
        )
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
}

/// Every problem names its request: the `x-request-id` (ours, or the client's own) goes into
/// the body as `request_id`, so a report quoting the body leads to the server's log lines.
async fn problem_details(request: Request, next: middleware::Next) -> Response {
    let request_id = request.headers().get(&REQUEST_ID).and_then(|v| v.to_str().ok()).map(str::to_string);
    let response = problem_for_bare_errors(next.run(request).await);
    let Some(request_id) = request_id.filter(|_| is_problem(&response)) else { return response };
    let (mut parts, body) = response.into_parts();
    // A problem body is a few hundred bytes that we wrote ourselves.
    let Ok(bytes) = axum::body::to_bytes(body, 64 * 1024).await else {
        return ApiError::internal("a problem body could not be read").into_response();
    };
    let mut problem: serde_json::Map<String, serde_json::Value> = match serde_json::from_slice(&bytes) {
        Ok(problem) => problem,
        Err(_) => return Response::from_parts(parts, axum::body::Body::from(bytes)),
    };
    problem.insert("request_id".into(), request_id.into());
    let bytes = serde_json::to_vec(&problem).unwrap_or_else(|_| bytes.to_vec());
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(bytes))
}

/// Layers outside the handlers (body limit, timeout) answer with bare status codes; give those
/// the same problem+json shape as everything else.
fn problem_for_bare_errors(response: Response) -> Response {
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) || is_problem(&response) {
        return response;
    }
    let (code, detail) = match status {
        StatusCode::PAYLOAD_TOO_LARGE => (ErrorCode::PayloadTooLarge, "the body is too large"),
        StatusCode::REQUEST_TIMEOUT => (ErrorCode::Timeout, "the request took too long"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => (ErrorCode::UnsupportedMediaType, "unsupported content type"),
        StatusCode::METHOD_NOT_ALLOWED => (ErrorCode::MethodNotAllowed, "method not allowed here"),
        s if s.is_server_error() => (ErrorCode::Internal, "an internal error occurred"),
        _ => (ErrorCode::BadRequest, "the request could not be understood"),
    };
    ApiError::new(status, code, detail).into_response()
}

/// Whether `response` is already problem+json.
fn is_problem(response: &Response) -> bool {
    response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/problem+json"))
}
