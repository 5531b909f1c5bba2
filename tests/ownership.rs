//! Two server processes on one database never both drive a table: a table is taken with a
//! lease, and every append is fenced by the epoch it was taken with. Each test runs two servers
//! (two stores, two table registries, two instance ids) over one database, on SQLite and on
//! PostgreSQL. On PostgreSQL (cluster mode) the process that does not drive a table forwards
//! its calls to the one that does (tests/cluster.rs has the whole cluster behind nginx).

mod common;

use common::{Db, TestDb, TestServer, seated_table, test_config};
use luddo::config::Config;
use serde_json::{Value, json};
use std::{collections::HashMap, time::Duration};

both_stores!(
    only_one_process_drives_a_table,
    a_process_that_lost_its_lease_cannot_write,
    racing_processes_never_fork_the_log,
    a_dead_process_s_tables_are_taken_over_with_their_clocks,
    a_process_lets_go_of_a_table_another_took,
    a_process_asked_by_another_for_a_table_it_does_not_drive_says_so,
);

/// A server whose lease never needs renewing during the test, so that tests decide when it
/// runs out (by writing the `instances` table).
fn config(instance: &str) -> Config {
    Config { instance_id: instance.into(), lease: Duration::from_secs(3600), ..test_config() }
}

async fn second_server(first: &TestServer, instance: &str) -> TestServer {
    TestServer::start_on(first.db.shared(), config(instance)).await
}

/// Ends every lease, as if every process had died.
async fn expire_leases(db: &TestDb) {
    db.execute("UPDATE instances SET lease_until = 0").await;
}

/// Ends one process's lease, as if it had stalled.
async fn expire_lease(db: &TestDb, instance: &str) {
    db.execute(&format!("UPDATE instances SET lease_until = 0 WHERE id = '{instance}'")).await;
}

/// The seat to act, its legal actions and the `seq`, as `s` sees the table; `None` once `s`
/// says the table is elsewhere (which it may start saying between the two views it takes), or
/// when the table moved on between them (another process acted: the seat has nothing to do).
async fn to_act(s: &TestServer, id: &str, tokens: &[String]) -> Option<(usize, Vec<Value>, i64)> {
    let view = here(s, id, &tokens[0]).await?;
    let seat = view["play"]["to_act"].as_u64()? as usize;
    let mine = here(s, id, &tokens[seat]).await?;
    let legal = mine["play"]["legal_actions"].as_array().unwrap().clone();
    (!legal.is_empty()).then(|| (seat, legal, mine["play"]["seq"].as_i64().unwrap()))
}

/// The table as `token`'s player sees it on `s`, or `None` if `s` says it is elsewhere.
async fn here(s: &TestServer, id: &str, token: &str) -> Option<Value> {
    let view = s.get(&format!("/v1/tables/{id}"), Some(token)).await;
    if view.status != 200 {
        view.assert_problem(503, "table_elsewhere");
        return None;
    }
    Some(view.json)
}

/// The whole log, from a third server that loads the table afresh (so it must replay).
async fn replayed_log(first: &TestServer, id: &str) -> Vec<Value> {
    expire_leases(&first.db).await;
    let reader = second_server(first, "reader").await;
    let view = reader.table_view(id, None).await;
    let upto = view["play"]["seq"].as_i64().unwrap();
    let mut ws = reader.ws(id, "since=0").await;
    common::entries_upto(&mut ws, 1, upto).await
}

async fn only_one_process_drives_a_table(db: Db) {
    let a = TestServer::start_with(db, config("a")).await;
    let (id, tokens) = seated_table(&a, "luddo", 2, json!({})).await;
    let (seat, legal, seq) = to_act(&a, &id, &tokens).await.expect("a drives the table");
    let b = second_server(&a, "b").await;

    let seq = match db {
        // B refuses to play, show or stream a table A drives, and says to come back.
        Db::Sqlite => {
            let r = b.act(&id, &tokens[seat], &legal[0], seq).await;
            r.assert_problem(503, "table_elsewhere");
            assert!(r.headers.contains_key("retry-after"));
            assert!(to_act(&b, &id, &tokens).await.is_none());
            let url = format!("{}/v1/tables/{id}/events", b.base.replace("http", "ws"));
            match tokio_tungstenite::connect_async(url).await {
                Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 503),
                other => panic!("expected 503, got {:?}", other.map(|(_, r)| r.status())),
            }
            // A plays on.
            let r = a.act(&id, &tokens[seat], &legal[0], seq).await;
            assert_eq!(r.status, 200, "{}", r.json);
            r.json["seq"].as_i64().unwrap()
        }
        // Cluster mode: B serves the table all the same — it shows it, streams it and forwards
        // its actions to A, which still drives it alone.
        Db::Postgres => {
            let mut ws = b.ws(&id, "since=0").await;
            let r = b.act(&id, &tokens[seat], &legal[0], seq).await;
            assert_eq!(r.status, 200, "{}", r.json);
            let played = r.json["seq"].as_i64().unwrap();
            let owner = format!("SELECT owner FROM game_tables WHERE id = '{id}'");
            assert_eq!(a.db.text(&owner).await.as_deref(), Some("a"), "A still drives the table");
            let (_, _, b_seq) = to_act(&b, &id, &tokens).await.expect("B shows the table");
            let (_, _, a_seq) = to_act(&a, &id, &tokens).await.unwrap();
            assert_eq!(b_seq, a_seq, "B shows what A drives");
            let entries = common::entries_upto(&mut ws, 1, b_seq).await;
            assert_eq!(entries[(played - 1) as usize]["action"], legal[0], "B's socket got A's entries");
            b_seq
        }
    };

    // A stops (and lets go): B takes the table at once, from where A left it.
    let a_db = a.stop().await;
    let (seat, legal, b_seq) = to_act(&b, &id, &tokens).await.expect("b drives the table now");
    assert!(b_seq >= seq);
    let r = b.act(&id, &tokens[seat], &legal[0], b_seq).await;
    assert_eq!(r.status, 200, "{}", r.json);
    drop(b);
    drop(a_db);
}

async fn a_process_that_lost_its_lease_cannot_write(db: Db) {
    let a = TestServer::start_with(db, config("a")).await;
    let (id, tokens) = seated_table(&a, "luddo", 2, json!({})).await;
    let (seat, legal, seq) = to_act(&a, &id, &tokens).await.unwrap();
    let b = second_server(&a, "b").await;

    // A stalls past its lease (its renewals stopped): B takes the table and plays.
    expire_lease(&a.db, "a").await;
    let (b_seat, b_legal, b_seq) = to_act(&b, &id, &tokens).await.expect("b takes the table");
    assert_eq!((b_seat, b_seq), (seat, seq));
    let r = b.act(&id, &tokens[seat], &b_legal[0], b_seq).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let b_entry = r.json["seq"].as_i64().unwrap();

    // A's actor still believes it holds the table at `seq`: its append is fenced off and
    // nothing of it is stored; then A knows the table is elsewhere (cluster mode: A asks B,
    // the driver now, which refuses the stale `seq`).
    let r = a.act(&id, &tokens[seat], &legal[legal.len() - 1], seq).await;
    elsewhere_or_stale(db, &r);
    let r = a.act(&id, &tokens[seat], &legal[0], seq).await;
    elsewhere_or_stale(db, &r);

    let log = replayed_log(&a, &id).await;
    let entry = &log[(seq) as usize];
    assert_eq!(entry["seq"], seq + 1);
    assert_eq!(entry["action"], b_legal[0], "the entry after {seq} is B's");
    assert!(log.len() as i64 >= b_entry);
}

/// A process that does not drive the table answers `table_elsewhere` on SQLite; in cluster mode
/// (PostgreSQL) it forwards the call to the driver, which refuses a stale `seq`.
fn elsewhere_or_stale(db: Db, r: &common::Resp) {
    match db {
        Db::Sqlite => r.assert_problem(503, "table_elsewhere"),
        Db::Postgres => r.assert_problem(409, "stale_seq"),
    }
}

/// Both processes are hammered with the same table's actions while leases keep running out:
/// every acknowledged action is in the log at its `seq`, and the log has each `seq` once.
async fn racing_processes_never_fork_the_log(db: Db) {
    let a = TestServer::start_with(db, config("a")).await;
    let (id, tokens) = seated_table(&a, "luddo", 2, json!({})).await;
    let b = second_server(&a, "b").await;
    let mut acknowledged: HashMap<i64, Value> = HashMap::new();
    let mut refused = 0;
    for round in 0..40 {
        if round % 4 == 0 {
            expire_leases(&a.db).await;
        }
        // Each server posts what it believes is the next action, at the same time.
        let (ra, rb) = tokio::join!(attempt(&a, &id, &tokens, round), attempt(&b, &id, &tokens, round));
        for (r, action) in [ra, rb].into_iter().flatten() {
            match r.status.as_u16() {
                200 => {
                    let seq = r.json["seq"].as_i64().unwrap();
                    assert!(acknowledged.insert(seq, action).is_none(), "seq {seq} acknowledged twice");
                }
                409 | 503 => refused += 1,
                other => panic!("unexpected {other}: {}", r.json),
            }
        }
        let view = a.store.table(id.parse().unwrap()).await.unwrap().unwrap();
        if view.status != luddo::store::TableStatus::Playing {
            break;
        }
    }
    assert!(acknowledged.len() >= 20, "the table moved on: {} actions", acknowledged.len());
    assert!(refused > 0, "the race was real");
    let log = replayed_log(&a, &id).await;
    for (seq, action) in &acknowledged {
        let entry = &log[(*seq - 1) as usize];
        assert_eq!(entry["actor"], "human");
        assert_eq!(&entry["action"], action, "acknowledged action at seq {seq}");
    }
}

async fn attempt(s: &TestServer, id: &str, tokens: &[String], round: usize) -> Option<(common::Resp, Value)> {
    let (seat, legal, seq) = to_act(s, id, tokens).await?;
    let action = legal[round % legal.len()].clone();
    let r = s.act(id, &tokens[seat], &action, seq).await;
    Some((r, action))
}

/// Nobody asks B for the table: B's lease keeper takes over a table whose process died (its
/// lease ran out) on its own, and the table's clock runs again there.
async fn a_dead_process_s_tables_are_taken_over_with_their_clocks(db: Db) {
    let a = TestServer::start_with(db, config("a")).await;
    let (id, tokens) = seated_table(&a, "luddo", 2, json!({})).await;
    let (_, _, seq) = to_act(&a, &id, &tokens).await.unwrap();
    // B renews its lease and looks for abandoned tables every 200 ms.
    let b = TestServer::start_on(a.db.shared(), Config { lease: Duration::from_millis(600), ..config("b") })
        .await;
    expire_lease(&a.db, "a").await;
    let owner_sql = format!("SELECT owner FROM game_tables WHERE id = '{id}'");
    let mut owner = None;
    for _ in 0..100 {
        owner = a.db.text(&owner_sql).await;
        if owner.as_deref() == Some("b") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(owner.as_deref(), Some("b"), "B took the table over");
    let view = b.table_view(&id, None).await;
    assert_eq!(view["play"]["seq"], seq, "nothing was played meanwhile");
    assert!(view["play"]["deadline"].is_string(), "the clock runs on B: {view}");
    let (seat, legal, _) = to_act(&b, &id, &tokens).await.unwrap();
    let r = b.act(&id, &tokens[seat], &legal[0], seq).await;
    assert_eq!(r.status, 200, "{}", r.json);
}

/// A process whose table was taken while it stalled notices at its next lease renewal and stops
/// serving the table (it would otherwise show a stale state until its next write was refused).
async fn a_process_lets_go_of_a_table_another_took(db: Db) {
    let a = TestServer::start_with(db, Config { lease: Duration::from_millis(600), ..config("a") }).await;
    let (id, tokens) = seated_table(&a, "luddo", 2, json!({})).await;
    assert!(to_act(&a, &id, &tokens).await.is_some());
    // As another live process's claim would: it owns the table under a new epoch.
    a.db.execute(&format!("INSERT INTO instances (id, lease_until) VALUES ('b', {})", i64::MAX / 2)).await;
    a.db.execute(&format!("UPDATE game_tables SET owner = 'b', epoch = epoch + 1 WHERE id = '{id}'")).await;
    let mut refused = false;
    for _ in 0..100 {
        if to_act(&a, &id, &tokens).await.is_none() {
            refused = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(refused, "A stopped serving the table");
}

/// A call one process forwards to another (cluster mode) reaching a process that does not drive
/// the table is answered with the mark `x-luddo-not-driver`, which tells the process that
/// forwarded it to look for the driver again; the process that drives the table answers it
/// itself, and no client's answer carries the mark.
async fn a_process_asked_by_another_for_a_table_it_does_not_drive_says_so(db: Db) {
    let a = TestServer::start_with(db, config("a")).await;
    let (id, tokens) = seated_table(&a, "luddo", 2, json!({})).await;
    let (seat, legal, seq) = to_act(&a, &id, &tokens).await.expect("a drives the table");
    let b = second_server(&a, "b").await;
    let forwarded = |s: &TestServer, method: reqwest::Method, path: &str, token: &str| {
        s.client
            .request(method, format!("{}{path}", s.base))
            .header("x-luddo-forwarded", "1")
            .bearer_auth(token)
    };
    let actions = format!("/v1/tables/{id}/actions");
    let act = json!({"action": legal[0], "seq": seq});

    let on_b = [
        forwarded(&b, reqwest::Method::POST, &actions, &tokens[seat]).json(&act).send().await.unwrap(),
        forwarded(&b, reqwest::Method::GET, &format!("/v1/tables/{id}"), &tokens[seat]).send().await.unwrap(),
    ];
    for r in on_b {
        assert_eq!(r.status(), 503);
        assert_eq!(r.headers().get("x-luddo-not-driver").map(|v| v.as_bytes()), Some(&b"1"[..]));
        let problem: Value = r.json().await.unwrap();
        assert_eq!(problem["code"], "table_elsewhere", "{problem}");
    }

    // What a client asks of B: on SQLite B refuses it, in cluster mode it is A's answer.
    let r = b.act(&id, &tokens[seat], &legal[0], seq).await;
    assert!(!r.headers.contains_key("x-luddo-not-driver"));
    match db {
        Db::Sqlite => r.assert_problem(503, "table_elsewhere"),
        Db::Postgres => assert_eq!(r.status, 200, "{}", r.json),
    }
    // The server may play on after it (a forced move): act from what A shows now.
    let (seat, legal, seq) = to_act(&a, &id, &tokens).await.unwrap();
    let r = forwarded(&a, reqwest::Method::POST, &actions, &tokens[seat])
        .json(&json!({"action": legal[0], "seq": seq}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "the driver answers a forwarded call itself");
    assert!(!r.headers().contains_key("x-luddo-not-driver"));
}
