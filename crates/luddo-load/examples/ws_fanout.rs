//! Raw WebSocket fan-out on this machine: a bare tokio-tungstenite server broadcasting to groups
//! of loopback clients, as a table broadcasts each log entry to its seats, and nothing else (no
//! HTTP routing, no JSON, no database). `scripts/limits.sh` runs it; the load generator reports
//! the server's delivered messages per second as a fraction of this figure.
//!
//! `cargo run --release -p luddo-load --example ws_fanout -- [--groups 1000] [--fanout 4] [--seconds 10]
//! [--size 300] [--window 32]`
//!
//! Each group has one producer and `--fanout` clients. The producer sends `--window` messages
//! of `--size` bytes through a broadcast channel (one server task per client writes them to its
//! socket, copying the text as the real server does), then waits until every client of the group
//! has received them all; so nobody falls behind and nothing is dropped. Prints one JSON object:
//! `ws_fanout_msgs_per_s` is messages received by all clients per second.

use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed},
    },
    time::{Duration, Instant},
};
use tokio::{
    net::{TcpListener, TcpStream},
    sync::{Notify, broadcast},
};
use tokio_tungstenite::tungstenite::{Message, handshake::server::Request};

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// One broadcast group: the channel the producer writes and how far its clients have read.
struct Group {
    sender: broadcast::Sender<Arc<str>>,
    /// Clients that have received the whole current window.
    done: AtomicUsize,
    window_done: Notify,
}

#[tokio::main]
async fn main() {
    let groups = arg("--groups", 1000) as usize;
    let fanout = arg("--fanout", 4) as usize;
    let seconds = arg("--seconds", 10);
    let size = arg("--size", 300) as usize;
    let window = arg("--window", 32).max(1);

    let groups: Arc<Vec<Arc<Group>>> = Arc::new(
        (0..groups)
            .map(|_| {
                Arc::new(Group {
                    sender: broadcast::channel(window as usize * 2).0,
                    done: AtomicUsize::new(0),
                    window_done: Notify::new(),
                })
            })
            .collect(),
    );
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("address");

    // The server: each connection names its group in the path (`/g/{n}`) and is fed from it.
    let server_groups = groups.clone();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let _ = stream.set_nodelay(true);
            let groups = server_groups.clone();
            tokio::spawn(async move {
                let mut group = 0usize;
                // The handshake callback's signature is tungstenite's (its error is large).
                #[allow(clippy::result_large_err)]
                let callback = |req: &Request, resp| {
                    group = req.uri().path().trim_start_matches("/g/").parse().unwrap_or(0);
                    Ok(resp)
                };
                let Ok(mut ws) = tokio_tungstenite::accept_hdr_async(stream, callback).await else { return };
                let mut rx = groups[group].sender.subscribe();
                while let Ok(text) = rx.recv().await {
                    if ws.send(Message::text(text.as_ref())).await.is_err() {
                        break;
                    }
                }
            });
        }
    });

    // The clients.
    let received = Arc::new(AtomicU64::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut ready = vec![];
    for (g, group) in groups.iter().enumerate() {
        for _ in 0..fanout {
            let stream = TcpStream::connect(addr).await.expect("connect");
            stream.set_nodelay(true).expect("nodelay");
            let (ws, _) = tokio_tungstenite::client_async(format!("ws://{addr}/g/{g}"), stream)
                .await
                .expect("handshake");
            let (group, received, stop) = (group.clone(), received.clone(), stop.clone());
            let (tx, rx) = tokio::sync::oneshot::channel::<()>();
            ready.push(rx);
            tokio::spawn(async move {
                let (_sink, mut stream) = ws.split();
                let mut n = 0u64;
                let _ = tx.send(());
                while let Some(Ok(m)) = stream.next().await {
                    if let Message::Text(_) = m {
                        n += 1;
                        received.fetch_add(1, Relaxed);
                        if n.is_multiple_of(window) && group.done.fetch_add(1, Relaxed) + 1 == fanout {
                            group.done.store(0, Relaxed);
                            group.window_done.notify_one();
                        }
                    }
                    if stop.load(Relaxed) {
                        break;
                    }
                }
            });
        }
    }
    for r in ready {
        let _ = r.await;
    }
    // Every server task has subscribed once its group's receiver count is complete.
    while groups.iter().any(|g| g.sender.receiver_count() < fanout) {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    let message: Arc<str> =
        Arc::from(format!("{{\"type\":\"entry\",\"pad\":\"{}\"}}", "x".repeat(size.saturating_sub(28))));
    let started = Instant::now();
    let deadline = started + Duration::from_secs(seconds);
    let producers: Vec<_> = groups
        .iter()
        .map(|group| {
            let (group, message) = (group.clone(), message.clone());
            tokio::spawn(async move {
                while Instant::now() < deadline {
                    for _ in 0..window {
                        let _ = group.sender.send(message.clone());
                    }
                    let wait = deadline.saturating_duration_since(Instant::now());
                    if tokio::time::timeout(wait, group.window_done.notified()).await.is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    for p in producers {
        let _ = p.await;
    }
    let elapsed = started.elapsed().as_secs_f64();
    stop.store(true, Relaxed);
    let total = received.load(Relaxed);
    println!(
        "{}",
        json!({
            "ws_fanout_msgs_per_s": (total as f64 / elapsed).round(),
            "clients": groups.len() * fanout,
            "groups": groups.len(),
            "fanout": fanout,
            "message_bytes": message.len(),
            "window": window,
            "seconds": (elapsed * 10.0).round() / 10.0,
            "messages": total,
        })
    );
    std::process::exit(0);
}
