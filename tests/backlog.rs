//! A WebSocket resuming from far back gets the log from the store a page at a time, and the
//! pages stitch into the whole log: every entry once, in order, then live ones.

mod common;

use common::{Db, TestServer, entries_upto, test_config};
use luddo::config::{Config, Timers};
use serde_json::json;
use std::time::Duration;

both_stores!(a_resumer_from_the_start_of_a_long_log_gets_every_entry_once_in_order);

/// Entries the actor keeps in memory (`table::HISTORY`): a longer log is read from the store.
const HISTORY: i64 = 256;

async fn a_resumer_from_the_start_of_a_long_log_gets_every_entry_once_in_order(db: Db) {
    // The host's seat times out at once, three times, and a bot takes it: bots then play a
    // backgammon match to its end in one go, a log of many hundred entries.
    let timers = Timers { turn: Duration::from_millis(20), ..Timers::default() };
    let config = Config { timers, backlog_page: 7, ..test_config() };
    let s = TestServer::start_with(db, config).await;
    let (_, host) = s.player("Host").await;
    let t = s
        .table(
            &host,
            json!({"game": "backgammon", "seat_count": 2, "options": {"match_to": 25, "cube": false}}),
        )
        .await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let seq = loop {
        let view = s.table_view(&id, None).await;
        if view["status"] == "finished" {
            break view["play"]["seq"].as_i64().unwrap();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(seq > 2 * HISTORY, "a log longer than the actor's history: {seq}");

    // The store reads a page at a time.
    let uuid = id.parse().unwrap();
    let page = s.store.entries_page(uuid, 0, seq, 7).await.unwrap();
    assert_eq!(page.iter().map(|e| e.seq).collect::<Vec<_>>(), (1..=7).collect::<Vec<_>>());
    let tail = s.store.entries_page(uuid, seq - 3, seq, 7).await.unwrap();
    assert_eq!(tail.len(), 3);

    // From the start, and from within the log (a page boundary not at a multiple of 7).
    for since in [0, 100] {
        let mut ws = s.ws(&id, &format!("since={since}")).await;
        let entries = entries_upto(&mut ws, since + 1, seq).await;
        assert_eq!(entries.len() as i64, seq - since);
        assert_eq!(entries.last().unwrap()["action"]["type"], "finish");
    }
}
