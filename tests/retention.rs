//! Data over time: a finished table's log keeps what happened (actions, events, clocks, the
//! revealed seed) but drops the legal actions each entry listed for the next move, which were
//! most of its bytes and serve nobody once the game is over.

mod common;

use common::{Db, TestServer};
use serde_json::json;

both_stores!(a_finished_table_keeps_its_log_but_not_its_legal_actions);

async fn a_finished_table_keeps_its_log_but_not_its_legal_actions(db: Db) {
    let s = TestServer::start(db).await;
    for game in ["backgammon", "luddo"] {
        let (_, host) = s.player("Host").await;
        let seats = if game == "backgammon" { 2 } else { 4 };
        let t = s.table(&host, json!({"game": game, "seat_count": seats})).await;
        let id = t["id"].as_str().unwrap().to_string();
        let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
        assert_eq!(r.status, 200, "{}", r.json);
        let server = &s;
        let bytes = |sql_where: String| {
            let sql = format!(
                "SELECT CAST(COALESCE(SUM(LENGTH(events)), 0) AS TEXT) FROM actions WHERE table_id = '{id}' {sql_where}"
            );
            async move { server.db.text(&sql).await.unwrap().parse::<u64>().unwrap() }
        };
        // The bytes of the rows written so far, and up to which seq: the same rows are measured
        // again once the game is over.
        let (mut before, mut before_seq) = (0, 0);
        let final_seq = loop {
            let view = s.table_view(&id, Some(&host)).await;
            if view["status"] == "finished" {
                break view["play"]["seq"].as_i64().unwrap();
            }
            let play = &view["play"];
            let seq = play["seq"].as_i64().unwrap();
            (before, before_seq) = (bytes(format!("AND seq <= {seq}")).await, seq);
            let legal = play["legal_actions"].as_array().unwrap();
            let action = legal.iter().find(|a| a["type"] != "up_board").or(legal.first()).cloned();
            if let Some(action) = action {
                s.act(&id, &host, &action, play["seq"].as_i64().unwrap()).await;
            }
        };
        let after = bytes(format!("AND seq <= {before_seq}")).await;
        assert_eq!(
            bytes("AND events LIKE '%\"legal\"%'".to_string()).await,
            0,
            "{game}: no entry keeps its legal actions"
        );
        println!(
            "{game}: log events of seq 1..={before_seq}: {before} bytes while playing, {after} after the finish"
        );
        assert!(after < before, "{game}: the same rows are smaller once finished ({after} vs {before})");

        // The log still tells the whole game, in order, to a client resuming from the start.
        let mut ws = s.ws(&id, "since=0").await;
        let entries = common::entries_upto(&mut ws, 1, final_seq).await;
        assert_eq!(entries[0]["action"]["type"], "seat_taken", "the log begins with the host's seat");
        assert!(entries.iter().any(|e| e["action"]["type"] == "start"));
        assert_eq!(entries.last().unwrap()["action"]["type"], "finish");
    }
    // A restarted server reads the logs back from the database: whole, with empty legal lists.
    let config = s.config.clone();
    let db = s.stop().await;
    let s = TestServer::start_on(db, config).await;
    let r = s.get("/v1/tables?status=finished", None).await;
    let tables = r.json["tables"].as_array().unwrap().clone();
    assert_eq!(tables.len(), 2, "{}", r.json);
    for t in tables {
        let id = t["id"].as_str().unwrap();
        let view = s.table_view(id, None).await;
        let seq = view["play"]["seq"].as_i64().unwrap();
        let mut ws = s.ws(id, "since=0").await;
        let entries = common::entries_upto(&mut ws, 1, seq).await;
        assert_eq!(entries.last().unwrap()["action"]["type"], "finish");
        let no_choices = |e: &serde_json::Value| {
            e["legal_actions_by_seat"].as_array().unwrap().iter().all(|seat| seat == &json!([]))
        };
        assert!(entries.iter().all(no_choices), "legal actions are gone from the stored log");
    }
}
