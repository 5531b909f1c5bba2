//! What WebSockets that resume from far back and never read cost the server (issue #12):
//! starts the `luddo` binary on a fresh SQLite file, lets bots play a long backgammon match (a
//! log of thousands of entries), then keeps `--clients` sockets that each connect with
//! `since=0`, never read, and reconnect every `--reconnect` seconds, and samples the server's
//! resident memory (VmRSS) every 500 ms for `--seconds`. Loopback only; bounded in time.
//!
//! Usage: cargo run -p luddo-load --example stalled_resumers -- --binary target/debug/luddo
//!        [--clients 50] [--seconds 60] [--reconnect 10] [--match-to 99]
//!
//! Prints the log's length, the server's RSS before the clients came, and the peak and last
//! RSS while they ran.

use luddo_load::{api, server};
use serde_json::{Value, json};
use std::{
    net::SocketAddr,
    path::PathBuf,
    process::Stdio,
    time::{Duration, Instant},
};
use tokio::{net::TcpSocket, process::Command};

struct Args {
    binary: PathBuf,
    clients: usize,
    seconds: u64,
    reconnect: u64,
    match_to: u64,
}

fn args() -> Args {
    let mut a = Args {
        binary: PathBuf::from("target/debug/luddo"),
        clients: 50,
        seconds: 60,
        reconnect: 10,
        match_to: 99,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        let number = || value.parse::<u64>().unwrap_or_else(|_| panic!("{flag}: expected a number"));
        match flag.as_str() {
            "--binary" => a.binary = PathBuf::from(&value),
            "--clients" => a.clients = number() as usize,
            "--seconds" => a.seconds = number(),
            "--reconnect" => a.reconnect = number(),
            "--match-to" => a.match_to = number(),
            other => panic!("unknown flag {other}"),
        }
    }
    a
}

/// The server's resident memory in MiB.
fn rss_mib(pid: u32) -> f64 {
    server::rss_bytes(pid).unwrap_or(0) as f64 / 1_048_576.0
}

async fn post(http: &reqwest::Client, base: &str, path: &str, token: Option<&str>, body: Value) -> Value {
    let answer =
        api::call(http, base, reqwest::Method::POST, path, token, Some(&body)).await.expect("request");
    assert!(answer.is_success(), "POST {path}: {} {:?}", answer.status, answer.body);
    answer.json()
}

/// One client: connects with `since=0` and a small receive buffer, never reads, reconnects
/// every `every`, until `until`.
async fn stalled_client(addr: SocketAddr, table: String, every: Duration, until: Instant) {
    let url = format!("ws://{addr}/v1/tables/{table}/events?since=0");
    while Instant::now() < until {
        let socket = TcpSocket::new_v4().expect("socket");
        let _ = socket.set_recv_buffer_size(4096);
        let Ok(stream) = socket.connect(addr).await else { continue };
        let held = tokio_tungstenite::client_async(url.as_str(), stream).await;
        tokio::time::sleep(every.min(until.saturating_duration_since(Instant::now()))).await;
        drop(held);
    }
}

#[tokio::main]
async fn main() {
    let a = args();
    let dir = std::env::temp_dir().join(format!("luddo-stalled-resumers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let port = server::free_port().expect("free port");
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let mut child = Command::new(&a.binary)
        .env("LUDDO_ADDR", addr.to_string())
        .env("DATABASE_URL", format!("sqlite://{}?mode=rwc", dir.join("luddo.db").display()))
        // The host's seat times out at once and a bot takes it: the match plays itself out.
        .env("LUDDO_TURN_SECONDS", "0.01")
        .env("LUDDO_RATE_PER_MINUTE", "100000000")
        .env("LUDDO_MAX_CONNECTIONS_PER_ADDRESS", "1000000")
        .env("RUST_LOG", "error")
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", a.binary.display()));
    let pid = child.id().expect("pid");
    let http = reqwest::Client::new();
    let base = format!("http://{addr}");
    if let Err(e) = server::wait_healthy(&http, &base, &mut child, Duration::from_secs(30)).await {
        panic!("{e}");
    }

    let host = post(&http, &base, "/v1/players", None, json!({"name": "Host"})).await;
    let token = host["token"].as_str().unwrap();
    let options = json!({"match_to": a.match_to, "cube": false});
    let table = post(
        &http,
        &base,
        "/v1/tables",
        Some(token),
        json!({"game": "backgammon", "seat_count": 2, "options": options}),
    )
    .await;
    let id = table["id"].as_str().unwrap().to_string();
    post(&http, &base, &format!("/v1/tables/{id}/start"), Some(token), json!({"fill_with_bots": true})).await;
    let seq = loop {
        let path = format!("/v1/tables/{id}");
        let view = api::call(&http, &base, reqwest::Method::GET, &path, None, None).await.unwrap().json();
        if view["status"] == "finished" {
            break view["play"]["seq"].as_i64().unwrap();
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    // Let the start-up settle, then measure.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = rss_mib(pid);
    println!("log: {seq} entries; server RSS before the clients: {before:.1} MiB");

    let until = Instant::now() + Duration::from_secs(a.seconds);
    let every = Duration::from_secs(a.reconnect);
    let clients: Vec<_> =
        (0..a.clients).map(|_| tokio::spawn(stalled_client(addr, id.clone(), every, until))).collect();
    let mut peak: f64 = 0.0;
    let mut last = before;
    while Instant::now() < until {
        tokio::time::sleep(Duration::from_millis(500)).await;
        last = rss_mib(pid);
        peak = peak.max(last);
    }
    for c in clients {
        let _ = c.await;
    }
    println!(
        "{} stalled resumers (since=0, reconnecting every {} s) for {} s: peak RSS {peak:.1} MiB, last {last:.1} MiB",
        a.clients, a.reconnect, a.seconds
    );
    let _ = child.kill().await;
    let _ = std::fs::remove_dir_all(&dir);
}
