//! Accepting and serving connections: HTTP/1.1 over hyper, with the bounds `axum::serve` does
//! not set (it runs hyper without a timer, so a connection that sends its request head one
//! byte at a time, or nothing, is held forever).
//!
//! - A request head must arrive within `header_timeout` of the connection opening or of the
//!   previous request ending (hyper's header read timeout, which also closes idle keep-alive
//!   connections).
//! - At most `max_connections` connections in all (by default 20,000, or what the open-files
//!   limit allows less the files the process needs besides: [`reserved_files`]) and `max_connections_per_address` per client
//!   IP address are open, WebSockets included (an upgraded socket keeps its connection's slot).
//!   A connection over either cap is accepted and closed at once: the client sees the
//!   connection close without an answer, and the server's sockets stay free for others.
//! - An accept that fails for want of resources (`EMFILE`: no file descriptor left, `ENFILE`,
//!   `ENOBUFS`, `ENOMEM`) is retried after a pause that doubles up to a second, not in a loop.
//! - On shutdown the server stops accepting and finishes what was accepted: new handshakes are
//!   refused, the connections already in the listen backlog are taken and served, every answer
//!   from then on says `Connection: close`, a request already sent on an idle keep-alive
//!   connection within a grace period is answered, and requests in flight finish.

use super::limits::{SlotGuard, SlotKey, Slots};
use crate::config::{Config, DEFAULT_MAX_CONNECTIONS};
use axum::{
    Router,
    body::Body,
    extract::{ConnectInfo, Request},
    http::{HeaderValue, StatusCode, header},
};
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::{
    convert::Infallible,
    future::Future,
    net::SocketAddr,
    pin::pin,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};
use tokio::{
    net::{TcpListener, TcpStream},
    sync::watch,
};
use tower::ServiceExt;

/// The slot a connection holds (total and per address); an upgraded WebSocket keeps it, through
/// the request's extensions, until it closes.
#[derive(Debug, Clone)]
pub struct ConnectionSlot {
    _held: Arc<(SlotGuard, SlotGuard)>,
}

/// File descriptors kept back from connections besides the database pool's: the listener,
/// SQLite's files, cluster mode's listening connection, logs.
const RESERVED_FILES: u64 = 84;
/// First pause after a failed accept; it doubles on each failure in a row.
const ACCEPT_BACKOFF_FIRST: Duration = Duration::from_millis(10);
/// Longest pause after a failed accept.
const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// Serves `app` on `listener` until `shutdown` completes, then stops accepting and finishes
/// what was accepted: the connections in the listen backlog are taken and served, every
/// connection is answered with `Connection: close` from then on, and one still idle after
/// [`SHUTDOWN_GRACE`] is closed.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    config: &Config,
    shutdown: impl Future<Output = ()>,
) {
    let max_total = connection_cap(config);
    let connections = Connections {
        app,
        slots: Arc::new(Slots::default()),
        max_total,
        max_per_address: config.max_connections_per_address,
        header_timeout: config.header_timeout,
        closing: Arc::new(AtomicBool::new(false)),
        stop: watch::channel(false),
        done: watch::channel(()),
    };
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
        connections.serve(stream, peer);
    }
    // From here every answer says `Connection: close`: a client learns to go elsewhere from
    // the answer to the request it sent, not from a connection closed under it.
    connections.closing.store(true, Ordering::SeqCst);
    drain_backlog(listener, &connections).await;
    let Connections { stop: (stop_tx, _), done: (done_tx, done_rx), .. } = connections;
    stop_tx.send_replace(true);
    drop(done_rx);
    done_tx.closed().await;
}

/// How long a connection that is idle (a keep-alive connection between requests) stays open
/// once the shutdown began: a request already sent on it, or sent in this instant, is answered
/// (with `Connection: close`) rather than lost as the connection closes under it.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// What serving one more connection needs.
struct Connections {
    app: Router,
    slots: Arc<Slots>,
    max_total: usize,
    max_per_address: usize,
    header_timeout: Duration,
    /// Set once the shutdown began: every answer from then on closes its connection.
    closing: Arc<AtomicBool>,
    /// Connections watch it to begin their [`SHUTDOWN_GRACE`].
    stop: (watch::Sender<bool>, watch::Receiver<bool>),
    /// Each connection holds a receiver, so that the sender's `closed()` completes when the
    /// last one ends.
    done: (watch::Sender<()>, watch::Receiver<()>),
}

impl Connections {
    /// Serves `stream` from `peer` in a task of its own, or closes it at once over a cap.
    fn serve(&self, stream: TcpStream, peer: SocketAddr) {
        let Some(slot) = take_slot(&self.slots, peer, self.max_total, self.max_per_address) else {
            tracing::debug!(%peer, "too many connections; closing");
            metrics::counter!("luddo_connections_refused_total").increment(1);
            drop(stream);
            return;
        };
        // No Nagle: a socket's next small message (a log entry, a reply) must not wait for the
        // client's delayed ACK of the previous one (up to 40 ms on Linux).
        if let Err(e) = stream.set_nodelay(true) {
            tracing::warn!(error = %e, "could not set TCP_NODELAY");
        }
        let (app, closing) = (self.app.clone(), self.closing.clone());
        let service = hyper::service::service_fn(move |mut request: Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            request.extensions_mut().insert(slot.clone());
            let answer = app.clone().oneshot(request.map(Body::new));
            let closing = closing.clone();
            async move {
                let mut response = answer.await?;
                if closing.load(Ordering::SeqCst) && response.status() != StatusCode::SWITCHING_PROTOCOLS {
                    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
                }
                Ok::<_, Infallible>(response)
            }
        });
        let mut stop = self.stop.1.clone();
        let done = self.done.1.clone();
        let header_timeout = self.header_timeout;
        metrics::counter!("luddo_connections_accepted_total").increment(1);
        tokio::spawn(async move {
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new()).header_read_timeout(header_timeout).keep_alive(true);
            let mut connection = pin!(http.serve_connection(TokioIo::new(stream), service).with_upgrades());
            tokio::select! {
                result = connection.as_mut() => log_end(result),
                _ = async { stop.wait_for(|stop| *stop).await.map(drop) } => {
                    // hyper's graceful shutdown closes an idle connection at once, resetting
                    // a request that is in its socket's buffer but not yet read: first let
                    // such a request in, and be answered.
                    tokio::select! {
                        result = connection.as_mut() => log_end(result),
                        _ = tokio::time::sleep(SHUTDOWN_GRACE) => {
                            connection.as_mut().graceful_shutdown();
                            log_end(connection.await);
                        }
                    }
                }
            }
            metrics::counter!("luddo_connections_closed_total").increment(1);
            drop(done);
        });
    }
}

/// Takes and serves every connection the kernel completed for `listener` before it closes:
/// closing a listener resets the connections in its backlog, requests and all. New handshakes
/// are refused first (see [`refuse_handshakes`]), so that the backlog stops growing; a
/// handshake the kernel answered just before still completes, so the backlog is taken until
/// it has stayed empty for [`BACKLOG_SETTLE`] (and for at most [`SHUTDOWN_GRACE`] in all).
///
/// The backlog is watched on a thread of its own, in real time: the server's clock may be
/// tokio's paused one (tests), which never moves on by itself.
async fn drain_backlog(listener: TcpListener, connections: &Connections) {
    refuse_handshakes(&listener);
    let listener = match listener.into_std() {
        Ok(listener) => listener,
        Err(e) => {
            tracing::warn!(error = %e, "could not take the listen backlog; closing it");
            return;
        }
    };
    let (taken, mut backlog) = tokio::sync::mpsc::unbounded_channel();
    let taker = tokio::task::spawn_blocking(move || take_backlog(&listener, &taken));
    while let Some((stream, peer)) = backlog.recv().await {
        // Accepted sockets do not inherit the listener's non-blocking mode.
        match stream.set_nonblocking(true).and_then(|()| TcpStream::from_std(stream)) {
            Ok(stream) => connections.serve(stream, peer),
            Err(e) => tracing::warn!(error = %e, "a connection of the backlog could not be served"),
        }
    }
    let _ = taker.await;
}

/// Accepts from `listener` (non-blocking) into `taken` until nothing came for
/// [`BACKLOG_SETTLE`], or [`SHUTDOWN_GRACE`] passed.
fn take_backlog(
    listener: &std::net::TcpListener,
    taken: &tokio::sync::mpsc::UnboundedSender<(std::net::TcpStream, SocketAddr)>,
) {
    let began = std::time::Instant::now();
    let mut last = began;
    while began.elapsed() < SHUTDOWN_GRACE {
        match listener.accept() {
            Ok(accepted) => {
                last = std::time::Instant::now();
                if taken.send(accepted).is_err() {
                    return;
                }
            }
            Err(e) if is_connection_error(&e) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if last.elapsed() >= BACKLOG_SETTLE {
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(e) => {
                tracing::warn!(error = %e, "could not take the rest of the listen backlog; closing it");
                return;
            }
        }
    }
}

/// How long the listen backlog must stay empty, once new handshakes are refused, before the
/// listener closes: a client that received the server's answer to its handshake before the
/// refusal completes it (and sends its request) within about a round trip.
const BACKLOG_SETTLE: Duration = Duration::from_millis(200);

/// Makes the kernel drop the handshakes that reach `listener` from now on (a socket filter that
/// keeps no TCP segment with SYN set and ACK clear): new clients' SYNs go unanswered, so they
/// try again and meet a closed port (or the process that replaced this one), instead of
/// completing a connection that closing the listener would reset. Every other segment passes:
/// a client that already had the server's SYN-ACK completes its handshake, and its connection
/// joins the backlog to be served (see [`drain_backlog`]).
#[cfg(target_os = "linux")]
fn refuse_handshakes(listener: &TcpListener) {
    use std::os::fd::AsRawFd;
    /// Not in the libc crate for every Linux target; 26 on all of them.
    const SO_ATTACH_FILTER: libc::c_int = 26;
    /// The TCP header's flags byte (a TCP socket's filter sees the segment from its header).
    const FLAGS: u32 = 13;
    const SYN: u32 = 0x02;
    const ACK: u32 = 0x10;
    let op = |code: u32, k: u32, jt: u8, jf: u8| libc::sock_filter { code: code as u16, jt, jf, k };
    // Classic BPF: a filter returns the number of bytes of the packet to keep.
    let mut syn_only_dropped = [
        op(libc::BPF_LD | libc::BPF_B | libc::BPF_ABS, FLAGS, 0, 0),
        op(libc::BPF_ALU | libc::BPF_AND | libc::BPF_K, SYN | ACK, 0, 0),
        op(libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K, SYN, 0, 1),
        op(libc::BPF_RET | libc::BPF_K, 0, 0, 0),
        op(libc::BPF_RET | libc::BPF_K, u32::MAX, 0, 0),
    ];
    let program =
        libc::sock_fprog { len: syn_only_dropped.len() as u16, filter: syn_only_dropped.as_mut_ptr() };
    // SAFETY: the kernel copies the program, which lives through the call.
    let attached = unsafe {
        libc::setsockopt(
            listener.as_raw_fd(),
            libc::SOL_SOCKET,
            SO_ATTACH_FILTER,
            (&raw const program).cast(),
            std::mem::size_of::<libc::sock_fprog>() as libc::socklen_t,
        )
    } == 0;
    if !attached {
        tracing::warn!(error = %std::io::Error::last_os_error(), "could not stop new handshakes on shutdown");
    }
}

#[cfg(not(target_os = "linux"))]
fn refuse_handshakes(_listener: &TcpListener) {}

/// The cap on connections in all: LUDDO_MAX_CONNECTIONS if set, lowered to what the
/// open-files limit allows (with a warning: the setting asked for more), else the default
/// fitted to that limit.
fn connection_cap(config: &Config) -> usize {
    let reserved = reserved_files(config);
    let Some(configured) = config.max_connections else {
        return fit_to_open_files(DEFAULT_MAX_CONNECTIONS, open_files_limit(), reserved);
    };
    let max_total = fit_to_open_files(configured, open_files_limit(), reserved);
    if max_total < configured {
        tracing::warn!(
            configured,
            max_total,
            "LUDDO_MAX_CONNECTIONS is above the open-files limit (ulimit -n) less {reserved}: \
             connections are capped lower; raise the limit to allow more"
        );
    }
    max_total
}

/// File descriptors the process needs besides its connections: the database pool's and
/// [`RESERVED_FILES`].
fn reserved_files(config: &Config) -> u64 {
    RESERVED_FILES + u64::from(config.database_connections)
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
/// after `reserved`. Each connection is a file descriptor; past the limit accepting fails for
/// every client alike, while under the cap the excess is closed at once.
fn fit_to_open_files(configured: usize, limit: Option<u64>, reserved: u64) -> usize {
    match limit {
        Some(limit) => configured.min(limit.saturating_sub(reserved).max(1).try_into().unwrap_or(usize::MAX)),
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
        assert_eq!(fit_to_open_files(20_000, Some(1_024), 100), 924);
        assert_eq!(fit_to_open_files(20_000, Some(1_048_576), 100), 20_000);
        assert_eq!(fit_to_open_files(20_000, Some(u64::MAX), 100), 20_000);
        assert_eq!(fit_to_open_files(20_000, Some(50), 100), 1);
        assert_eq!(fit_to_open_files(20_000, None, 100), 20_000);
    }

    /// The shutdown's refusal drops new handshakes only: a connection the kernel completed
    /// before it is still taken from the backlog with the request its client sent, while a
    /// client that connects after it gets no answer to its SYN.
    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn refusing_handshakes_keeps_the_backlog_and_answers_no_new_syn() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut early = TcpStream::connect(addr).await.unwrap();
        refuse_handshakes(&listener);
        early.write_all(b"GET").await.unwrap();
        let late = tokio::time::timeout(Duration::from_millis(300), TcpStream::connect(addr)).await;
        assert!(late.is_err(), "a handshake after the refusal is never answered: {late:?}");
        let (mut taken, _) = listener.accept().await.unwrap();
        let mut request = [0; 3];
        taken.read_exact(&mut request).await.unwrap();
        assert_eq!(&request, b"GET");
    }
}
