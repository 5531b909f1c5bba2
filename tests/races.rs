//! Lobby requests racing each other over real HTTP, against SQLite and PostgreSQL: whatever
//! the order the server sees them in, each one either happens wholly or is refused, and the
//! table is never left in a state no order of them could make.

mod common;

use common::{Db, TestServer};
use reqwest::Method;
use serde_json::{Value, json};

both_stores!(a_start_racing_a_leave_is_serialized, a_start_racing_a_join_is_serialized);

/// Races per test: each a fresh table.
const RACES: usize = 16;

/// A 2-seat Luddo table of `host`; `guest` (if any) sits at seat 1.
async fn table_for_two(s: &TestServer, host: &str, guest: Option<&str>) -> String {
    let t = s.table(host, json!({"game": "luddo", "seat_count": 2})).await;
    let id = t["id"].as_str().unwrap().to_string();
    if let Some(guest) = guest {
        let r = s.post(&format!("/v1/tables/{id}/join"), Some(guest), json!({"seat": 1})).await;
        assert_eq!(r.status, 200, "{}", r.json);
    }
    id
}

/// Every seat of a started table is a player's (played by a human) or a bot's, and the game
/// in play says the same.
fn assert_consistent(table: &Value) {
    if table["status"] == "open" {
        return;
    }
    for (seat, play) in
        table["seats"].as_array().unwrap().iter().zip(table["play"]["presence"].as_array().unwrap())
    {
        let expected = if seat["player"].is_null() { "bot" } else { "human" };
        assert_eq!(seat["controller"], expected, "{table}");
        assert_eq!(play["controller"], expected, "{table}");
    }
}

async fn a_start_racing_a_leave_is_serialized(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, guest) = s.player("Guest").await;
    let mut wins = (0, 0);
    for _ in 0..RACES {
        let id = table_for_two(&s, &host, Some(&guest)).await;
        let (start, leave) = (format!("/v1/tables/{id}/start"), format!("/v1/tables/{id}/leave"));
        let (start, leave) = tokio::join!(
            s.post(&start, Some(&host), json!({})),
            s.call(Method::POST, &leave, Some(&guest), None),
        );
        let table = s.table_view(&id, Some(&host)).await;
        assert_consistent(&table);
        match (start.status.as_u16(), leave.status.as_u16()) {
            (200, 409) => {
                leave.assert_problem(409, "table_not_open");
                assert_eq!(table["seats"][1]["controller"], "human");
                wins.0 += 1;
            }
            (409, 200) => {
                start.assert_problem(409, "seats_empty");
                assert_eq!(table["status"], "open");
                assert!(table["seats"][1]["player"].is_null());
                wins.1 += 1;
            }
            other => panic!("start and leave both answered {other:?}: {table}"),
        }
    }
    eprintln!("start won {} races, leave {}", wins.0, wins.1);
}

async fn a_start_racing_a_join_is_serialized(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (guest_id, guest) = s.player("Guest").await;
    for fill_with_bots in [true, false] {
        for _ in 0..RACES / 2 {
            let id = table_for_two(&s, &host, None).await;
            let (start, join) = (format!("/v1/tables/{id}/start"), format!("/v1/tables/{id}/join"));
            let (start, join) = tokio::join!(
                s.post(&start, Some(&host), json!({"fill_with_bots": fill_with_bots})),
                s.post(&join, Some(&guest), json!({"seat": 1})),
            );
            let table = s.table_view(&id, Some(&host)).await;
            assert_consistent(&table);
            let joined = join.status == 200;
            assert_eq!(joined, table["seats"][1]["player"]["id"] == guest_id.as_str(), "{table}");
            match (start.status.as_u16(), fill_with_bots) {
                // The join came first, or a bot took the seat first and the join was refused.
                (200, true) if !joined => {
                    assert_eq!(join.status, 409, "{}", join.json);
                    assert_eq!(table["seats"][1]["controller"], "bot");
                }
                (200, _) => assert!(joined, "{table}"),
                (409, false) => {
                    start.assert_problem(409, "seats_empty");
                    assert_eq!(table["status"], "open");
                }
                other => panic!("start answered {other:?} beside a join: {table}"),
            }
        }
    }
}
