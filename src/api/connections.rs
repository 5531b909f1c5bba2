//! Accepting and serving connections: HTTP/1.1 over hyper, with the bounds `axum::serve` does
//! not set (it runs hyper without a timer, so a connection that sends its request head one
//! byte at a time, or nothing, is held forever).
//!
//! - A request head must arrive within `header_timeout` of the connection opening or of the
//!   previous request ending (hyper's header read timeout, which also closes idle keep-alive
//!   connections).
//! - At most `max_connections` connections in all (no more than the open-files limit allows,
//!   less [`RESERVED_FILES`]) and `max_connections_per_address` per client
//!   IP address are open, WebSockets included (an upgraded socket keeps its connection's slot).
//!   A connection over either cap is accepted and closed at once: the client sees the
//!   connection close without an answer, and the server's sockets stay free for others.
//! - An accept that fails for want of resources (`EMFILE`: no file descriptor left, `ENFILE`,
//!   `ENOBUFS`, `ENOMEM`) is retried after a pause that doubles up to a second, not in a loop.
//! - On shutdown the listener closes, idle connections close, and requests in flight finish.

use super::limits::{SlotGuard, SlotKey, Slots};
use crate::config::Config;
use axum::{
    Router,
    body::Body,
    extract::{ConnectInfo, Request},
};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::{future::Future, net::SocketAddr, pin::pin, sync::Arc, time::Duration};
use tokio::{net::TcpListener, sync::watch};
use tower::ServiceExt;

/// The slot a connection holds (total and per address); an upgraded WebSocket keeps it, through
/// the request's extensions, until it closes.
#[derive(Debug, Clone)]
pub struct ConnectionSlot {
    _held: Arc<(SlotGuard, SlotGuard)>,
}

/// File descriptors kept back from connections: the listener, the database pool (16
/// connections at most; SQLite's files), logs.
const RESERVED_FILES: u64 = 100;
/// First pause after a failed accept; it doubles on each failure in a row.
const ACCEPT_BACKOFF_FIRST: Duration = Duration::from_millis(10);
/// Longest pause after a failed accept.
const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// Serves `app` on `listener` until `shutdown` completes, then waits for the requests in flight.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    config: &Config,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Slots::default());
    let max_total = fit_to_open_files(config.max_connections, open_files_limit());
    if max_total < config.max_connections {
        tracing::warn!(
            configured = config.max_connections,
            max_total,
            "LUDDO_MAX_CONNECTIONS is above the open-files limit (ulimit -n) less {RESERVED_FILES}: \
             connections are capped lower; raise the limit to allow more"
        );
    }
    // Connections watch `stop` to shut down gracefully; each holds a `done` receiver, so that
    // `done_tx.closed()` completes when the last one ends.
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, done_rx) = watch::channel(());
    let mut backoff = ACCEPT_BACKOFF_FIRST;
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => {
                    backoff = ACCEPT_BACKOFF_FIRST;
                    accepted
                }
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    tracing::error!(error = %e, pause_ms = backoff.as_millis() as u64, "accept failed; pausing");
                    tokio::select! {
                        _ = tokio::time::sleep(backoff) => {}
                        _ = &mut shutdown => break,
                    }
                    backoff = (backoff * 2).min(ACCEPT_BACKOFF_MAX);
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let Some(slot) = take_slot(&slots, peer, max_total, config.max_connections_per_address) else {
            tracing::debug!(%peer, "too many connections; closing");
            metrics::counter!("luddo_connections_refused_total").increment(1);
            drop(stream);
            continue;
        };
        // No Nagle: a socket's next small message (a log entry, a reply) must not wait for the
        // client's delayed ACK of the previous one (up to 40 ms on Linux).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::warn!(error = %e, "could not set TCP_NODELAY");
        }
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request.extensions_mut().insert(slot.clone());
            app.clone().oneshot(request.map(Body::new))
        });
        let mut stop = stop_rx.clone();
        let done = done_rx.clone();
        let header_timeout = config.header_timeout;
        metrics::counter!("luddo_connections_accepted_total").increment(1);
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new()).header_read_timeout(header_timeout).keep_alive(true);
            let mut connection = pin!(http.serve_connection(TokioIo::new(stream), service).with_upgrades());
            tokio::select! {
                result = connection.as_mut() => log_end(result),
                _ = async { stop.wait_for(|stop| *stop).await.map(drop) } => {
                    connection.as_mut().graceful_shutdown();
                    log_end(connection.await);
                }
            }
            metrics::counter!("luddo_connections_closed_total").increment(1);
            drop(done);
        });
    }
    drop(listener);
    stop_tx.send_replace(true);
    drop(done_rx);
    done_tx.closed().await;
}

/// A slot for a connection from `peer`, if neither cap is reached.
fn take_slot(
    slots: &Arc<Slots>,
    peer: SocketAddr,
    max_total: usize,
    max_per_address: usize,
) -> Option<ConnectionSlot> {
    let total = slots.acquire(SlotKey::Connections, max_total)?;
    let address = slots.acquire(SlotKey::Address(peer.ip()), max_per_address)?;
    Some(ConnectionSlot { _held: Arc::new((total, address)) })
}

/// The cap on connections in all: `configured`, lowered to what the open-files `limit` leaves
/// after [`RESERVED_FILES`]. Each connection is a file descriptor; past the limit accepting
/// fails for every client alike, while under the cap the excess is closed at once.
fn fit_to_open_files(configured: usize, limit: Option<u64>) -> usize {
    match limit {
        Some(limit) => {
            configured.min(limit.saturating_sub(RESERVED_FILES).max(1).try_into().unwrap_or(usize::MAX))
        }
        None => configured,
    }
}

/// This process's soft limit on open files (`ulimit -n`).
#[cfg(unix)]
pub fn open_files_limit() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit only writes the struct passed.
    (unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0).then_some(limit.rlim_cur)
}

#[cfg(not(unix))]
pub fn open_files_limit() -> Option<u64> {
    None
}

/// Raises this process's soft limit on open files to its hard limit (the server binary does, at
/// start: every connection is a file, and many systems start processes at 1,024). Returns the
/// limit now in force.
#[cfg(unix)]
pub fn raise_open_files_limit() -> Option<u64> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) != 0 {
            return None;
        }
        if limit.rlim_cur < limit.rlim_max {
            let raised = libc::rlimit { rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &raised) == 0 {
                limit = raised;
            }
        }
    }
    Some(limit.rlim_cur)
}

#[cfg(not(unix))]
pub fn raise_open_files_limit() -> Option<u64> {
    None
}

fn log_end(result: Result<(), hyper::Error>) {
    if let Err(e) = result {
        tracing::debug!(error = %e, "connection ended");
    }
}

/// Errors of one connection that went away before it was accepted: not the listener's.
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(e.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_in_all_fits_the_open_files_limit() {
        assert_eq!(fit_to_open_files(20_000, Some(1_024)), 924);
        assert_eq!(fit_to_open_files(20_000, Some(1_048_576)), 20_000);
        assert_eq!(fit_to_open_files(20_000, Some(u64::MAX)), 20_000);
        assert_eq!(fit_to_open_files(20_000, Some(50)), 1);
        assert_eq!(fit_to_open_files(20_000, None), 20_000);
    }
}
