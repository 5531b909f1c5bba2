//! The HTTP client of forwarded calls: one request to another process of the cluster, over
//! hyper-util's pooled HTTP/1 client (connections kept alive per process), its answer kept whole.

use axum::{
    body::Body,
    http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header},
    response::Response,
};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::{
    client::legacy::{Client, connect::HttpConnector},
    rt::TokioExecutor,
};
use std::{sync::OnceLock, time::Duration};

/// Marks a call one process forwarded to another, with the instance id of the process that
/// forwarded it (the one the balancer sends the table's calls to: see `Cluster`'s hand-over). A
/// forwarded call is never forwarded again: a process that receives one for a table it does
/// not drive answers so ([`NOT_DRIVER`]), and the process that forwarded it looks for the
/// table's driver again.
pub const FORWARDED: HeaderName = HeaderName::from_static("x-luddo-forwarded");

/// Marks the answer to a forwarded call of a process that does not drive the table (it let go
/// of it, or never had it). Such an answer is never passed on: the process that forwarded the
/// call looks for the driver again, so clients never see the mark.
pub const NOT_DRIVER: HeaderName = HeaderName::from_static("x-luddo-not-driver");

/// Longest a forwarded call may take, connecting included (the client's own request is cut at
/// `LUDDO_REQUEST_TIMEOUT_SECONDS`).
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// The request headers a forwarded call carries: who calls, what the body is, the request id
/// (so both processes' access logs and the problem body name the same request).
const CARRIED: [HeaderName; 4] =
    [header::AUTHORIZATION, header::CONTENT_TYPE, header::ACCEPT, HeaderName::from_static("x-request-id")];

/// The response headers that are the connection's, not the answer's.
const HOP_BY_HOP: [HeaderName; 4] = [
    header::CONNECTION,
    header::TRANSFER_ENCODING,
    header::CONTENT_LENGTH,
    HeaderName::from_static("keep-alive"),
];

/// A call to forward: as the client made it.
#[derive(Debug, Clone)]
pub struct Call {
    pub method: Method,
    /// The path and query.
    pub path: String,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Call {
    /// The call with the headers of `client` that it carries.
    pub fn new(method: Method, path: impl Into<String>, client: &HeaderMap, body: Bytes) -> Self {
        let mut headers = HeaderMap::new();
        for name in CARRIED {
            if let Some(value) = client.get(&name) {
                headers.insert(name, value.clone());
            }
        }
        Self { method, path: path.into(), headers, body }
    }
}

/// What the process a call was forwarded to said.
#[derive(Debug)]
pub enum Forwarded {
    /// It drives the table: its answer, to pass on.
    Answer(DriverAnswer),
    /// It does not drive the table ([`NOT_DRIVER`]): look again.
    NotDriver,
}

impl Forwarded {
    fn of(status: StatusCode, headers: HeaderMap, body: Bytes) -> Self {
        if headers.contains_key(NOT_DRIVER) {
            Forwarded::NotDriver
        } else {
            Forwarded::Answer(DriverAnswer { status, headers, body })
        }
    }
}

/// The driver's answer, whole.
#[derive(Debug)]
pub struct DriverAnswer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl DriverAnswer {
    /// The answer as this process's response, unchanged.
    pub fn into_response(self) -> Response {
        let mut response = Response::new(Body::from(self.body));
        *response.status_mut() = self.status;
        *response.headers_mut() = self.headers;
        response
    }
}

/// Why a forwarded call has no answer.
#[derive(Debug)]
pub struct NoAnswer {
    pub reason: String,
    /// Whether the other process may have received the call, and so carried it out: only a
    /// call that never got a connection is sure not to have been.
    pub maybe_received: bool,
}

impl std::fmt::Display for NoAnswer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.reason)
    }
}

/// The value of the [`FORWARDED`] mark of calls forwarded by process `instance`: its id, or
/// `1` (a forwarded call from a process that cannot be named) if the id is no header value.
pub fn mark(instance: &str) -> HeaderValue {
    HeaderValue::from_str(instance).unwrap_or(HeaderValue::from_static("1"))
}

/// Sends `call` to the process at `address` (`host:port`), as forwarded by the process whose
/// mark is `from` ([`mark`]).
pub async fn send(address: &str, from: &HeaderValue, call: &Call) -> Result<Forwarded, NoAnswer> {
    tokio::time::timeout(CALL_TIMEOUT, send_now(address, from, call)).await.unwrap_or_else(|_| {
        Err(NoAnswer {
            reason: format!("no answer from {address} within {CALL_TIMEOUT:?}"),
            maybe_received: true,
        })
    })
}

/// The client of every forwarded call, with its pool of kept-alive connections per process: a
/// forwarded action is one request on an open connection, not a TCP handshake (a new connection
/// for each one also left a socket in TIME_WAIT per action, exhausting the ports between two
/// processes at a few thousand actions per second).
fn client() -> &'static Client<HttpConnector, Full<Bytes>> {
    static CLIENT: OnceLock<Client<HttpConnector, Full<Bytes>>> = OnceLock::new();
    CLIENT.get_or_init(|| {
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector.set_connect_timeout(Some(CALL_TIMEOUT));
        Client::builder(TokioExecutor::new())
            .pool_idle_timeout(POOL_IDLE)
            .pool_max_idle_per_host(POOL_IDLE_PER_PROCESS)
            .build(connector)
    })
}

/// How long an idle connection to another process is kept.
const POOL_IDLE: Duration = Duration::from_secs(30);

/// Idle connections kept per other process (as many more are opened as calls run at once).
const POOL_IDLE_PER_PROCESS: usize = 64;

async fn send_now(address: &str, from: &HeaderValue, call: &Call) -> Result<Forwarded, NoAnswer> {
    metrics::counter!("luddo_forwarded_calls_total").increment(1);
    let mut request = hyper::Request::builder()
        .method(call.method.clone())
        .uri(format!("http://{address}{}", call.path))
        .header(FORWARDED, from);
    for (name, value) in &call.headers {
        request = request.header(name, value);
    }
    let request = request
        .body(Full::new(call.body.clone()))
        .map_err(|e| NoAnswer { reason: e.to_string(), maybe_received: false })?;
    let response = client().request(request).await.map_err(|e| NoAnswer {
        reason: format!("cannot call {address}: {e}"),
        // Any failure past connecting (a reset, a connection closed mid-answer) may come after
        // the other process read the request.
        maybe_received: !e.is_connect(),
    })?;
    let status = response.status();
    let mut headers = response.headers().clone();
    for name in HOP_BY_HOP {
        headers.remove(name);
    }
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| NoAnswer { reason: e.to_string(), maybe_received: true })?
        .to_bytes();
    Ok(Forwarded::of(status, headers, body))
}

/// Marks `response`, the answer to a forwarded call, as that of a process that does not drive
/// the table.
pub fn mark_not_driver(response: &mut Response) {
    response.headers_mut().insert(NOT_DRIVER, HeaderValue::from_static("1"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_marked_not_the_drivers_is_told_apart_from_any_other() {
        let elsewhere = br#"{"status":503,"code":"table_elsewhere"}"#;
        let mut marked = HeaderMap::new();
        marked.insert(NOT_DRIVER, HeaderValue::from_static("1"));
        let forwarded = Forwarded::of(StatusCode::SERVICE_UNAVAILABLE, marked, Bytes::from_static(elsewhere));
        assert!(matches!(forwarded, Forwarded::NotDriver));
        // The driver's own refusal, whatever its body says, is its answer to pass on.
        let unmarked =
            Forwarded::of(StatusCode::SERVICE_UNAVAILABLE, HeaderMap::new(), Bytes::from_static(elsewhere));
        assert!(matches!(unmarked, Forwarded::Answer(a) if a.status == StatusCode::SERVICE_UNAVAILABLE));
    }
}
