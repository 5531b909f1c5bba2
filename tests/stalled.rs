//! A WebSocket client that stops reading, over real HTTP and WebSocket, against SQLite and
//! PostgreSQL: the table goes on without it, the server drops it (presence and the connection
//! slot come back), and what the server holds for it is bounded (close 4008, not a queue).
//!
//! The stalled clients are raw TCP sockets with a small receive buffer that complete the
//! WebSocket handshake and never read. Loopback TCP buffers about 3 MB towards a client that
//! does not read, far more than a table's log entries would fill in a test, so each stalled
//! client also writes messages with an unknown `type` of 15 kB, which the server answers with an
//! error that quotes the type: after some 200 replies the server's writes block. The test knows
//! they have when the client's own writes stop going through (the server no longer reads it).

mod common;

use common::{Db, TestServer, advance, manual_time, seated_table, test_config};
use futures_util::{SinkExt, StreamExt};
use luddo::config::{Config, Timers};
use serde_json::{Value, json};
use std::{
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::Duration,
};
use tokio_tungstenite::{
    MaybeTlsStream, WebSocketStream,
    tungstenite::{Message, protocol::frame::coding::CloseCode},
};

both_stores!(a_client_that_stops_reading_neither_delays_its_table_nor_holds_its_seat);

type Stream = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the events socket over a TCP socket with a 4 kB receive buffer.
async fn raw_ws(s: &TestServer, table: &str, query: &str) -> Stream {
    let addr: std::net::SocketAddr = s.base.trim_start_matches("http://").parse().unwrap();
    let tcp = tokio::net::TcpSocket::new_v4().unwrap();
    tcp.set_recv_buffer_size(4096).unwrap();
    let tcp = tcp.connect(addr).await.expect("connect");
    let url = format!("ws://{addr}/v1/tables/{table}/events?{query}");
    let (ws, _) = tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp)).await.expect("handshake");
    ws
}

/// Writes 15 kB messages the server answers in kind, until the connection fails; counts them.
fn flood(
    sink: futures_util::stream::SplitSink<Stream, Message>,
) -> (tokio::task::JoinHandle<()>, Arc<AtomicUsize>) {
    let sent = Arc::new(AtomicUsize::new(0));
    let count = sent.clone();
    let task = tokio::spawn(async move {
        let mut sink = sink;
        let text = json!({"type": "x".repeat(15_000)}).to_string();
        while sink.send(Message::Text(text.clone().into())).await.is_ok() {
            count.fetch_add(1, Ordering::Relaxed);
        }
    });
    (task, sent)
}

/// Waits (in real time) until every counter has stood still for half a second: the server has
/// stopped reading those sockets, as its writes to them block.
async fn until_stalled(counters: &[&AtomicUsize]) {
    let read = || counters.iter().map(|c| c.load(Ordering::Relaxed)).collect::<Vec<_>>();
    let mut last = read();
    let mut still = 0;
    for _ in 0..300 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = read();
        if now == last && now.iter().all(|&n| n > 0) {
            still += 1;
            if still == 5 {
                return;
            }
        } else {
            still = 0;
        }
        last = now;
    }
    panic!("the server kept reading the flooding clients: {last:?} messages sent");
}

/// Polls `done` (in real time: no game timer moves meanwhile) for up to 10 s.
async fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..1000 {
        if done() {
            return;
        }
        tokio::task::yield_now().await;
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("{what}");
}

async fn seat0(s: &TestServer, id: &str) -> Value {
    s.table_view(id, None).await["play"]["presence"][0].clone()
}

async fn a_client_that_stops_reading_neither_delays_its_table_nor_holds_its_seat(db: Db) {
    let config = Config {
        // One socket per player: a socket the server still holds is visible as a refusal.
        max_sockets_per_player: 1,
        // No game clock runs out while the test moves time on.
        timers: Timers {
            turn: Duration::from_secs(3600),
            party_turn: Duration::from_secs(3600),
            away: Duration::from_secs(3600),
        },
        request_timeout: Duration::from_secs(3600),
        ..test_config()
    };
    let s = TestServer::start_with(db, config).await;
    // Nobody leaves base: every action is a roll, and the game does not end.
    let mut dice = vec![6, 1];
    dice.extend(std::iter::repeat_n([3, 2], 2_000).flatten());
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": dice})).await;
    let start = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();

    // Seat 0's player and an anonymous spectator connect, then stop reading.
    let (stalled_sink, _stalled_read) =
        raw_ws(&s, &id, &format!("since={start}&token={}", tokens[0])).await.split();
    let (watcher_sink, watcher) = raw_ws(&s, &id, &format!("since={start}")).await.split();
    assert_eq!(seat0(&s, &id).await["connected"], true);
    let (stalled_task, stalled_sent) = flood(stalled_sink);
    let (watcher_task, watcher_sent) = flood(watcher_sink);
    until_stalled(&[&stalled_sent, &watcher_sent]).await;

    // From here on the server's write timeouts run only when the test says so.
    let _time = manual_time();

    // (a) The table goes on: both players act over HTTP (seat 0's player too: only its socket
    // is stalled), more times than a subscriber may fall behind; every action is accepted.
    let actions = luddo::table::SUBSCRIBER_QUEUE + 50;
    let mut last = start;
    for n in 0..actions {
        let play = s.table_view(&id, None).await["play"].clone();
        let seq = play["seq"].as_i64().unwrap();
        assert!(seq >= last, "the log only grows");
        let seat = play["to_act"].as_u64().expect("someone is to act") as usize;
        let r = s.act(&id, &tokens[seat], &json!({"type": "roll"}), seq).await;
        assert_eq!(r.status, 200, "action {n}: {}", r.json);
        last = r.json["seq"].as_i64().unwrap();
        assert!(last > seq, "each action is a new entry");
    }
    let seq = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();
    assert!(seq >= start + actions as i64, "{actions} actions from {start}, now at {seq}");

    // The stalled player's socket is still held (it is only blocked): a second one is refused.
    let url = format!("{}/v1/tables/{id}/events?token={}", s.base.replace("http://", "ws://"), tokens[0]);
    match tokio_tungstenite::connect_async(&url).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 429),
        other => panic!("a second socket while the first is held: {:?}", other.map(|_| ())),
    }

    // (c) Bounded: the spectator reads again. It gets what was in flight before it stalled
    // (replies, at most a few entries), then a 4008 close; the entries broadcast while it was
    // stalled were not kept for it.
    watcher_task.abort();
    let mut watcher = watcher;
    let mut entries = vec![];
    let code = loop {
        match watcher.next().await {
            Some(Ok(Message::Text(t))) => {
                let m: Value = serde_json::from_str(&t).unwrap();
                if m["type"] == "entry" {
                    entries.push(m["seq"].as_i64().unwrap());
                }
            }
            Some(Ok(Message::Close(frame))) => break frame.map(|f| f.code),
            Some(Ok(_)) => {}
            other => panic!("the spectator's socket ended without a close frame: {other:?}"),
        }
    };
    eprintln!(
        "stalled: server stopped reading after {} and {} requests of 15 kB; {} entries played; the \
         spectator got {} of them, then {code:?}",
        stalled_sent.load(Ordering::Relaxed),
        watcher_sent.load(Ordering::Relaxed),
        seq - start,
        entries.len()
    );
    assert_eq!(code, Some(CloseCode::Library(4008)), "a subscriber that fell behind is closed with 4008");
    assert!(
        entries.len() < luddo::table::SUBSCRIBER_QUEUE,
        "{} of {} entries were held for a stalled spectator",
        entries.len(),
        seq - start
    );
    assert!(entries.iter().copied().eq(start + 1..start + 1 + entries.len() as i64), "in order: {entries:?}");

    // (b) The stalled player: its writes time out (10 s), the server drops the connection and
    // counts a disconnect.
    assert_eq!(seat0(&s, &id).await["connected"], true, "still held before the write timeout");
    for _ in 0..3 {
        advance(10).await;
        if seat0(&s, &id).await["connected"] == false {
            break;
        }
    }
    let seat = seat0(&s, &id).await;
    assert_eq!(seat["connected"], false, "the stalled socket was dropped: {seat}");
    assert!(seat["away_since"].is_string(), "the away clock runs: {seat}");
    // The server closed the TCP connection: the stalled client's writes fail.
    eventually("the server closed the stalled connection", || stalled_task.is_finished()).await;
    // Its slot is free again: the player reconnects and follows the table as it goes on.
    let mut ws = s.ws(&id, &format!("since={seq}&token={}", tokens[0])).await;
    let play = s.table_view(&id, None).await["play"].clone();
    let seat = play["to_act"].as_u64().unwrap() as usize;
    let r = s.act(&id, &tokens[seat], &json!({"type": "roll"}), seq).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(ws.next_entry().await.unwrap()["seq"], seq + 1);
    assert_eq!(seat0(&s, &id).await["connected"], true);
}
