//! The log writer alone: how many entries per second the store makes durable when `--tables`
//! table actors each append one entry at a time (the next only once the last is committed, as
//! a table's actor does), without HTTP, WebSockets or game rules in the way. Compare it with
//! `pgbench`'s one-row append rate on the same database server (BENCHMARKS.md, issue #18).
//!
//! ```sh
//! cargo run --release --example log_append_rate -- [DATABASE_URL|sqlite] [TABLES] [SECONDS] [BYTES]
//! cargo run --release --example log_append_rate -- postgres://postgres@127.0.0.1:5432/luddo_b 1000 20
//! cargo run --release --example log_append_rate -- sqlite 1000 20   # SQLite in a scratch directory
//! ```
//!
//! Each entry carries a game state of BYTES bytes of JSON (default 1,000; a Luddo entry row is
//! about 1.3 KB with its events and legal actions). Prints entries/s and the append latency
//! (p50, p99) over the measured SECONDS, after a 3 s warm-up.

use luddo::{
    bots::Level,
    clock::now_millis,
    games::{GameKind, JsonText},
    store::{Append, EntryEvents, LogEntry, LoggedAction, NewTable, PlayedBy, Store},
};
use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};
use uuid::Uuid;

const WARM_UP: Duration = Duration::from_secs(3);

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scratch = std::env::temp_dir().join(format!("luddo-append-{}", Uuid::new_v4().simple()));
    let url = match args.first() {
        Some(url) if url != "sqlite" => url.clone(),
        _ => {
            std::fs::create_dir_all(&scratch).unwrap();
            format!("sqlite://{}?mode=rwc", scratch.join("luddo.db").display())
        }
    };
    let arg = |i: usize, default: u64| args.get(i).map_or(default, |a| a.parse().expect("a number"));
    let (tables, seconds, bytes) = (arg(1, 1000) as usize, arg(2, 20), arg(3, 1000) as usize);

    let store = Store::open(&url).await.expect("the store opens");
    store.renew_lease("bench", now_millis() + 3_600_000, None).await.unwrap();
    let host = store.create_player("Bench", &Uuid::new_v4().to_string(), None).await.unwrap();
    let mut started = vec![];
    for _ in 0..tables {
        let new = NewTable {
            bot_level: Level::Normal,
            ..NewTable::new(GameKind::Luddo, serde_json::json!({}), 2, host.id)
        };
        store.create_table(&new, 0, usize::MAX).await.unwrap();
        store.start_table(new.id, host.id, "bench", true).await.unwrap();
        let epoch = store.claim_table(new.id, "bench", now_millis()).await.unwrap().expect("claimed");
        let next = store.entries(new.id, 0, i64::MAX).await.unwrap().len() as i64 + 1;
        started.push((new.id, epoch, next));
    }

    let state = JsonText::of(&serde_json::json!({ "board": "x".repeat(bytes) }));
    let legal = vec![JsonText::of(&serde_json::json!([{"type": "roll"}])), JsonText::empty_list()];
    let measuring = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = vec![];
    for (table_id, epoch, first) in started {
        let (store, state, legal) = (store.clone(), state.clone(), legal.clone());
        let (measuring, stop) = (measuring.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let mut latencies = vec![];
            let mut seq = first;
            while !stop.load(Ordering::Relaxed) {
                let entry = LogEntry {
                    seq,
                    seat: Some(0),
                    actor: PlayedBy::Human,
                    action: LoggedAction::Engine(serde_json::json!({"type": "roll"})),
                    events: EntryEvents {
                        deadline: None,
                        events: vec![serde_json::json!({"type": "rolled", "seat": 0, "dice": [3]})],
                        legal: legal.clone(),
                        state: Some(state.clone()),
                        to_act: Some(0),
                        reveal: None,
                    },
                    at: now_millis(),
                };
                let append = Append {
                    table_id,
                    epoch,
                    entries: vec![entry],
                    messages: vec![],
                    deadline: Some(now_millis() + 15_000),
                    controllers: vec![],
                    finish: None,
                };
                let sent = Instant::now();
                store.append(append).await.expect("the append commits");
                if measuring.load(Ordering::Relaxed) {
                    latencies.push(sent.elapsed());
                }
                seq += 1;
            }
            latencies
        }));
    }
    tokio::time::sleep(WARM_UP).await;
    measuring.store(true, Ordering::Relaxed);
    let began = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    measuring.store(false, Ordering::Relaxed);
    let measured = began.elapsed();
    stop.store(true, Ordering::Relaxed);
    let mut latencies = vec![];
    for task in tasks {
        latencies.extend(task.await.unwrap());
    }
    latencies.sort();
    let at = |q: f64| latencies[((latencies.len() as f64 * q) as usize).min(latencies.len() - 1)];
    println!(
        "{} tables, {} store: {:.0} entries/s durable over {:.1} s; append p50 {:.2} ms, p99 {:.2} ms",
        tables,
        if url.starts_with("postgres") { "PostgreSQL" } else { "SQLite" },
        latencies.len() as f64 / measured.as_secs_f64(),
        measured.as_secs_f64(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
    );
    let _ = std::fs::remove_dir_all(&scratch);
}
