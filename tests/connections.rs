//! Connections are bounded: a client that sends its request head slowly (or not at all) is
//! closed after the header timeout, an idle keep-alive connection too, and one client address
//! holds at most so many connections, so a slowloris client cannot take the server's sockets
//! (or its open files) from everyone else.
//!
//! The slow clients connect from 127.0.0.2 (any 127/8 address reaches a server on loopback) and
//! the well-behaved one from 127.0.0.1, so they are two client addresses.

mod common;

use common::{
    Db, TestDb, TestServer,
    process::{ServerProcess, free_addr},
    seated_table, test_config,
};
use luddo::config::Config;
use std::{net::SocketAddr, time::Duration};
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpSocket, TcpStream},
};

both_stores!(
    a_slowloris_client_is_capped_per_address_while_others_are_served,
    connections_that_do_not_send_a_request_head_in_time_are_closed,
    a_websocket_counts_as_a_connection_of_its_address,
);

/// Longest a test waits for the server to close a connection it must close (well under any
/// timeout that could close it otherwise); only a guard against hanging forever.
const GUARD: Duration = Duration::from_secs(60);

/// A connection from `from` to the server.
async fn connect_from(s: &TestServer, from: [u8; 4]) -> TcpStream {
    let server: SocketAddr = s.base.trim_start_matches("http://").parse().unwrap();
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((from, 0))).unwrap();
    socket.connect(server).await.unwrap()
}

/// Reads until the server closes the connection (EOF or reset); panics after [`GUARD`].
async fn closed_by_server(stream: &mut TcpStream, what: &str) {
    let mut buf = [0u8; 1024];
    let read_to_end = async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    tokio::time::timeout(GUARD, read_to_end).await.unwrap_or_else(|_| panic!("{what} was never closed"));
}

/// `GET /health` on `stream`; the status code of the answer.
async fn health_on(stream: &mut TcpStream) -> u16 {
    stream.write_all(b"GET /health HTTP/1.1\r\nhost: test\r\n\r\n").await.unwrap();
    let mut head = vec![];
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = stream.read(&mut buf).await.unwrap();
        assert!(n > 0, "closed before answering: {}", String::from_utf8_lossy(&head));
        head.extend_from_slice(&buf[..n]);
    }
    String::from_utf8_lossy(&head[9..12]).parse().unwrap()
}

/// Sends the start of a request head, then one more byte of it every 100 ms, never finishing it.
fn drip(mut stream: TcpStream) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        if stream.write_all(b"GET /health HTTP/1.1\r\nx-slow: ").await.is_err() {
            return;
        }
        while stream.write_all(b"a").await.is_ok() {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
}

async fn a_slowloris_client_is_capped_per_address_while_others_are_served(db: Db) {
    let config = Config {
        max_connections_per_address: 4,
        // Long enough that only the cap can close the excess connections during the test.
        header_timeout: Duration::from_secs(3600),
        ..test_config()
    };
    let s = TestServer::start_with(db, config).await;
    let slow = [127, 0, 0, 2];
    let mut dripping = vec![];
    for _ in 0..4 {
        dripping.push(drip(connect_from(&s, slow).await));
    }
    // The server accepts connections in the order they came, so the four are counted before
    // any later one: from the same address, every further connection is closed at once.
    for i in 0..8 {
        let mut excess = connect_from(&s, slow).await;
        let _ = excess.write_all(b"GET /health HTTP/1.1\r\nx-slow: ").await;
        closed_by_server(&mut excess, &format!("excess connection {i} from the capped address")).await;
    }
    // Another client is served meanwhile, over a new connection and the client's own.
    let mut other = connect_from(&s, [127, 0, 0, 1]).await;
    assert_eq!(health_on(&mut other).await, 200);
    assert_eq!(s.get("/health", None).await.status, 200);

    // A slot freed by the slow client is its own again.
    let freed = dripping.pop().unwrap();
    freed.abort();
    let _ = freed.await;
    let mut served = false;
    for _ in 0..100 {
        let mut again = connect_from(&s, slow).await;
        if again.write_all(b"GET /health HTTP/1.1\r\nhost: test\r\n\r\n").await.is_ok() {
            let mut buf = [0u8; 12];
            if again.read_exact(&mut buf).await.is_ok() && &buf[9..12] == b"200" {
                served = true;
                break;
            }
        }
        // The server had not yet seen the freed connection close.
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(served, "the capped address is served again once one of its connections closed");
    for d in dripping {
        d.abort();
    }
}

async fn connections_that_do_not_send_a_request_head_in_time_are_closed(db: Db) {
    let config = Config { header_timeout: Duration::from_secs(1), ..test_config() };
    let s = TestServer::start_with(db, config).await;
    let local = [127, 0, 0, 1];

    let mut silent = connect_from(&s, local).await;
    closed_by_server(&mut silent, "a connection that sends nothing").await;

    // Dripping does not keep a connection open: the whole head must come within the timeout.
    let mut dripping = connect_from(&s, local).await;
    dripping.write_all(b"GET /health HTTP/1.1\r\nx-slow: ").await.unwrap();
    let keep_dripping = async {
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if dripping.write_all(b"a").await.is_err() {
                return;
            }
        }
    };
    tokio::time::timeout(GUARD, keep_dripping).await.expect("a dripping connection was never closed");

    // A keep-alive connection left idle after its answer is closed too.
    let mut idle = connect_from(&s, local).await;
    assert_eq!(health_on(&mut idle).await, 200);
    closed_by_server(&mut idle, "an idle keep-alive connection").await;
}

async fn a_websocket_counts_as_a_connection_of_its_address(db: Db) {
    let config =
        Config { max_connections_per_address: 2, header_timeout: Duration::from_secs(3600), ..test_config() };
    let s = TestServer::start_with(db, config).await;
    let (id, _) = seated_table(&s, "luddo", 2, serde_json::json!({})).await;
    let watcher = [127, 0, 0, 3];
    let url = format!("{}/v1/tables/{id}/events", s.base.replace("http://", "ws://"));
    let mut sockets = vec![];
    for _ in 0..2 {
        let stream = connect_from(&s, watcher).await;
        let (ws, _) = tokio_tungstenite::client_async(url.as_str(), stream).await.expect("websocket");
        sockets.push(ws);
    }
    let mut third = connect_from(&s, watcher).await;
    closed_by_server(&mut third, "a third connection beside two WebSockets").await;
    drop(sockets);
}

/// SIGTERM stops accepting and finishes what was accepted: every request on a connection the
/// kernel accepted for the server (including those still in its listen backlog, and a request
/// that reaches a keep-alive connection as the shutdown begins) is answered, 2xx or a 503 with
/// `Connection: close`, never reset or closed unanswered. Clients that connect once the server
/// stopped accepting are refused (or their handshake is never completed), which is clean: they
/// sent nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_request_the_kernel_accepted_is_answered_through_a_sigterm() {
    const ROUNDS: usize = 6;
    const FRESH_CLIENTS: usize = 12;
    const KEEP_ALIVE_CLIENTS: usize = 6;
    let mut answered = 0;
    let mut unanswered = vec![];
    for round in 0..ROUNDS {
        let db = TestDb::new(Db::Sqlite).await;
        let data = std::env::temp_dir().join(format!("luddo-sigterm-{}", uuid::Uuid::new_v4().simple()));
        let settings = [("LUDDO_RATE_PER_MINUTE", "1000000")];
        let mut server = ServerProcess::spawn(&free_addr(), &data, &db.url, &settings).await;
        let clients: Vec<_> = (0..FRESH_CLIENTS + KEEP_ALIVE_CLIENTS)
            .map(|c| tokio::spawn(requests_until_refused(server.addr.clone(), c >= FRESH_CLIENTS)))
            .collect();
        tokio::time::sleep(Duration::from_millis(300)).await;
        let status = server.terminate().await;
        assert!(status.success(), "round {round}: SIGTERM ends the process cleanly: {status}");
        for client in clients {
            let outcome = tokio::time::timeout(GUARD, client).await.expect("the client stops").unwrap();
            answered += outcome.answered;
            unanswered.extend(outcome.unanswered.into_iter().map(|e| format!("round {round}: {e}")));
        }
        let _ = std::fs::remove_dir_all(&data);
    }
    assert!(
        unanswered.is_empty(),
        "{} of {} requests unanswered: {unanswered:#?}",
        unanswered.len(),
        answered + unanswered.len()
    );
    assert!(answered > 1000, "the clients kept the server busy: {answered} answers");
}

/// What one client saw.
#[derive(Default)]
struct Outcome {
    answered: usize,
    unanswered: Vec<String>,
}

/// Requests (`/health` and the lobby, which reads the store) on new connections (`keep_alive`:
/// on one connection until the server answers `Connection: close`), until a connection is no
/// longer accepted.
async fn requests_until_refused(addr: String, keep_alive: bool) -> Outcome {
    let mut outcome = Outcome::default();
    let mut n = 0usize;
    loop {
        // Refused, or the handshake never completed: the server accepted nothing of it.
        let Ok(Ok(mut stream)) =
            tokio::time::timeout(Duration::from_secs(10), TcpStream::connect(&addr)).await
        else {
            return outcome;
        };
        loop {
            n += 1;
            let path = if n.is_multiple_of(2) { "/health" } else { "/v1/tables" };
            match exchange(&mut stream, path, keep_alive).await {
                Ok((status, close)) => {
                    if !((200..300).contains(&status) || (status == 503 && close)) {
                        outcome.unanswered.push(format!("{path}: {status} (connection close: {close})"));
                    }
                    outcome.answered += 1;
                    if close || !keep_alive {
                        break;
                    }
                }
                Err(e) => {
                    outcome.unanswered.push(format!("{path} (keep-alive: {keep_alive}): {e}"));
                    break;
                }
            }
        }
    }
}

/// Sends one request and reads its answer: the status and whether the server closes the
/// connection after it.
async fn exchange(stream: &mut TcpStream, path: &str, keep_alive: bool) -> Result<(u16, bool), String> {
    let connection = if keep_alive { "" } else { "connection: close\r\n" };
    let request = format!("GET {path} HTTP/1.1\r\nhost: test\r\n{connection}\r\n");
    stream.write_all(request.as_bytes()).await.map_err(|e| format!("sending: {e}"))?;
    let mut buf = vec![];
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
        match tokio::time::timeout(GUARD, stream.read(&mut chunk)).await {
            Ok(Ok(0)) => return Err(format!("closed after {} bytes of an answer", buf.len())),
            Ok(Ok(n)) => buf.extend_from_slice(&chunk[..n]),
            Ok(Err(e)) => return Err(format!("reading: {e}")),
            Err(_) => return Err("no answer".into()),
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_ascii_lowercase();
    let status = head.get(9..12).and_then(|s| s.parse().ok()).ok_or_else(|| format!("not HTTP: {head}"))?;
    let header = |name: &str| {
        head.lines().find_map(|l| l.strip_prefix(name).map(|v| v.trim_start_matches(':').trim().to_string()))
    };
    let close = header("connection").is_some_and(|v| v.contains("close"));
    let length: usize = header("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    while buf.len() < head_end + length {
        match tokio::time::timeout(GUARD, stream.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => buf.extend_from_slice(&chunk[..n]),
            _ => return Err(format!("{status} with its body cut short")),
        }
    }
    Ok((status, close))
}
