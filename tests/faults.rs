//! Faults: the database goes away in the middle of a game (PostgreSQL only: SQLite is a local
//! file). The SIGKILL test of the server process is scripts/kill_test.sh.

mod common;

use common::{Db, TestServer, entries_upto, postgres_url, seated_table};
use serde_json::{Value, json};
use sqlx::Connection;

/// The database name at the end of a `postgres://…/name?…` URL.
fn db_name(url: &str) -> String {
    let path = url.split('?').next().unwrap();
    path.rsplit('/').next().unwrap().to_string()
}

/// Runs SQL on the admin database (the one TEST_DATABASE_URL names).
async fn admin(sql: &str) {
    let url = postgres_url().unwrap();
    let mut conn = sqlx::PgConnection::connect(&url).await.expect("admin connection");
    sqlx::query(sql).execute(&mut conn).await.unwrap_or_else(|e| panic!("{sql}: {e}"));
    conn.close().await.ok();
}

/// Makes the server's database unreachable: no new connections, every open one cut.
async fn cut(name: &str) {
    admin(&format!("ALTER DATABASE {name} ALLOW_CONNECTIONS false")).await;
    admin(&format!("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")).await;
}

async fn restore(name: &str) {
    admin(&format!("ALTER DATABASE {name} ALLOW_CONNECTIONS true")).await;
}

/// The seat to act, its token, a legal action and the table's seq.
async fn next_move(s: &TestServer, id: &str, tokens: &[String]) -> (usize, Value, i64) {
    let view = s.table_view(id, Some(&tokens[0])).await;
    let seat = view["play"]["to_act"].as_u64().expect("someone is to act") as usize;
    let mine = s.table_view(id, Some(&tokens[seat])).await;
    let action = mine["play"]["legal_actions"][0].clone();
    assert!(action.is_object(), "{mine}");
    (seat, action, mine["play"]["seq"].as_i64().unwrap())
}

#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_database_outage_answers_503_and_play_resumes_from_the_same_seq() {
    let s = TestServer::start(Db::Postgres).await;
    let name = db_name(&s.db.url);
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({})).await;
    // A few actions first, so the actor is live and has history.
    for _ in 0..3 {
        let (seat, action, seq) = next_move(&s, &id, &tokens).await;
        let r = s.act(&id, &tokens[seat], &action, seq).await;
        assert_eq!(r.status, 200, "{}", r.json);
    }
    let (seat, action, seq) = next_move(&s, &id, &tokens).await;

    // A seat-holder's socket, authenticated before the outage: an action sent over it reaches
    // the table's actor directly, whose write to the log fails.
    let mut seat_ws = s.ws(&id, &format!("since={seq}&token={}", tokens[seat])).await;

    cut(&name).await;
    let started = std::time::Instant::now();
    seat_ws.send(json!({"type": "action", "id": 1, "seq": seq, "action": action})).await;
    let reply = tokio::time::timeout(std::time::Duration::from_secs(15), async {
        loop {
            let m = seat_ws.next().await.expect("a reply before the socket closes");
            if m["type"] == "reply" {
                return m;
            }
        }
    })
    .await
    .expect("the actor answers promptly");
    assert_eq!(reply["ok"], false, "{reply}");
    assert_eq!(reply["error"]["status"], 503, "{reply}");
    assert_eq!(reply["error"]["code"], "unavailable", "{reply}");
    seat_ws.close().await;
    // Over HTTP (the token is checked against the database first).
    let r = s.act(&id, &tokens[seat], &action, seq).await;
    r.assert_problem(503, "unavailable");
    // Reads fail the same way, not with a 500. (Unchecked against the spec: it documents 503
    // on only a few routes, though any route that reads the database can answer it.)
    let r = s.client.get(format!("{}/v1/tables/{id}", s.base)).bearer_auth(&tokens[0]).send().await.unwrap();
    assert_eq!(r.status(), 503);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "unavailable");
    let r = s.act(&id, &tokens[seat], &action, seq).await;
    r.assert_problem(503, "unavailable");
    assert!(
        started.elapsed().as_secs() < 15,
        "503 comes promptly, not after a hang: {:?}",
        started.elapsed()
    );

    restore(&name).await;
    // Nothing half-applied: the table is where it was, and the log ends at the same seq.
    let view = s.table_view(&id, Some(&tokens[seat])).await;
    assert_eq!(view["play"]["seq"], seq, "{view}");
    assert_eq!(view["play"]["to_act"], seat as u64);
    assert!(view["play"]["deadline"].is_string(), "the clock runs again: {view}");
    let mut ws = s.ws(&id, &format!("since=0&token={}", tokens[0])).await;
    let log = entries_upto(&mut ws, 1, seq).await;
    assert_eq!(log.len() as i64, seq);
    // Play resumes from the same seq: the same action is accepted as the next entry.
    let r = s.act(&id, &tokens[seat], &action, seq).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["seq"], seq + 1, "{}", r.json);
    let e = ws.next_entry().await.expect("the new entry is broadcast");
    assert_eq!(e["seq"], seq + 1);
    assert_eq!(e["action"], action);
    ws.close().await;
    s.stop().await;
}
