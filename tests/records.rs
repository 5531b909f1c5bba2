//! A table's records over real HTTP, against SQLite and PostgreSQL: `GET /v1/tables/{id}/log`
//! pages the whole log as the WebSocket sends it, to whoever may see the table.

mod common;

use common::{Db, TestServer, entries_upto, seated_table};
use serde_json::{Value, json};

both_stores!(
    the_log_pages_are_the_websockets_entries,
    a_private_tables_log_is_for_its_players_and_invitees,
    log_cursors_and_limits_are_checked,
);

/// Plays up to `rolls` rolls of a snakes table; returns its latest `seq`.
async fn roll(s: &TestServer, id: &str, tokens: &[String], rolls: usize) -> i64 {
    for _ in 0..rolls {
        let view = s.table_view(id, Some(&tokens[0])).await;
        if view["status"] == "finished" {
            break;
        }
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let r =
            s.act(id, &tokens[seat], &json!({"type": "roll"}), view["play"]["seq"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "{}", r.json);
    }
    s.table_view(id, Some(&tokens[0])).await["play"]["seq"].as_i64().unwrap()
}

/// Every page of the log, following `next_cursor`.
async fn whole_log(s: &TestServer, id: &str, limit: usize, token: Option<&str>) -> Vec<Value> {
    let mut entries = vec![];
    let mut cursor = String::new();
    loop {
        let r = s.get(&format!("/v1/tables/{id}/log?limit={limit}&cursor={cursor}"), token).await;
        assert_eq!(r.status, 200, "{}", r.json);
        let page = r.json["entries"].as_array().unwrap();
        assert!(page.len() <= limit);
        entries.extend(page.iter().cloned());
        match r.json["next_cursor"].as_str() {
            Some(next) => cursor = next.to_string(),
            None => return entries,
        }
    }
}

async fn the_log_pages_are_the_websockets_entries(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let seq = roll(&s, &id, &tokens, 7).await;
    let mut ws = s.ws(&id, "since=0").await;
    let sent = entries_upto(&mut ws, 1, seq).await;
    for limit in [1, 3, 100] {
        let logged = whole_log(&s, &id, limit, None).await;
        assert_eq!(logged, sent, "pages of {limit}");
    }
    // The lobby's entries first (the host's seat, the guest's), then the start.
    let kinds: Vec<&str> = sent.iter().take(3).map(|e| e["action"]["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["seat_taken", "seat_taken", "start"]);
    // The first page of two, then the rest from its cursor.
    let r = s.get(&format!("/v1/tables/{id}/log?limit=2"), None).await;
    assert_eq!(r.json["entries"].as_array().unwrap().len(), 2);
    let cursor = r.json["next_cursor"].as_str().unwrap();
    let rest = s.get(&format!("/v1/tables/{id}/log?limit=100&cursor={cursor}"), None).await;
    assert_eq!(rest.json["entries"][0]["seq"], 3);
    assert!(rest.json.get("next_cursor").is_none(), "the last page names no next one");
}

async fn a_private_tables_log_is_for_its_players_and_invitees(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({"visibility": "private"})).await;
    roll(&s, &id, &tokens, 2).await;
    let path = format!("/v1/tables/{id}/log");
    s.get(&path, None).await.assert_problem(404, "table_not_found");
    let (_, stranger) = s.player("Stranger").await;
    s.get(&path, Some(&stranger)).await.assert_problem(404, "table_not_found");
    assert_eq!(s.get(&path, Some(&tokens[1])).await.status, 200);
    let code = s.table_view(&id, Some(&tokens[0])).await["invite_code"].as_str().unwrap().to_string();
    assert_eq!(s.get(&format!("{path}?invite_code={code}"), None).await.status, 200);
    s.get(&format!("/v1/tables/{}/log", uuid::Uuid::new_v4()), None)
        .await
        .assert_problem(404, "table_not_found");
}

async fn log_cursors_and_limits_are_checked(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let (other, _) = seated_table(&s, "snakes", 2, json!({})).await;
    roll(&s, &id, &tokens, 2).await;
    let r = s.get(&format!("/v1/tables/{other}/log?limit=1"), None).await;
    let theirs = r.json["next_cursor"].as_str().unwrap().to_string();
    s.get(&format!("/v1/tables/{id}/log?cursor={theirs}"), None).await.assert_problem(400, "invalid_query");
    for query in ["limit=0", "limit=101", "limit=x", "cursor=nonsense", "since=3"] {
        let r = s.get(&format!("/v1/tables/{id}/log?{query}"), None).await;
        assert!(r.status == 400 || r.status == 422, "{query}: {}", r.json);
    }
}
