//! State on the wire: every WebSocket entry carries the game state after it, in the shape of
//! `play.state` of `GET /v1/tables/{id}`: live entries, entries resumed with `since` from the
//! actor's memory, and entries read back from the store once the actor has stopped (a finished
//! table after a restart). Backgammon's state names its position as GNU Backgammon and eXtreme
//! Gammon do, and `POST /v1/backgammon/plays` reads it back.

mod common;

use common::{Db, TestServer};
use serde_json::{Value, json};

both_stores!(every_entry_carries_the_state_get_shows_at_its_seq);

/// Plays a game of `game` (the host against bots) to its end, reading the table's WebSocket
/// as it goes; returns the table and every entry received live.
async fn play_watching(s: &TestServer, game: &str, seats: usize) -> (String, Vec<Value>) {
    let (_, host) = s.player("Host").await;
    let t = s.table(&host, json!({"game": game, "seat_count": seats})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let mut ws = s.ws(&id, "since=0").await;
    let mut entries: Vec<Value> = vec![];
    let mut checked_ids = 0;
    loop {
        let view = s.table_view(&id, Some(&host)).await;
        let play = &view["play"];
        let seq = play["seq"].as_i64().unwrap();
        while (entries.len() as i64) < seq {
            match ws.next_entry().await {
                Some(e) => {
                    assert_eq!(e["seq"], entries.len() as i64 + 1, "in order, no gap");
                    entries.push(e);
                }
                // Bots played more than a socket may fall behind (code 4008): resume.
                None => ws = s.ws(&id, &format!("since={}", entries.len())).await,
            }
        }
        let last = entries.last().unwrap();
        assert_eq!(
            last["state"], play["state"],
            "{game}: the entry at seq {seq} carries the state GET shows"
        );
        if view["status"] == "finished" {
            break;
        }
        let legal = play["legal_actions"].as_array().unwrap();
        if game == "backgammon" && legal.first().is_some_and(|a| a["type"] == "play") {
            // The state's IDs name the position to play: GNU Backgammon's pair gives the same
            // plays (the dice from the Match ID) as the table lists.
            let state = &play["state"];
            let body = json!({"position_id": state["position_id"], "match_id": state["match_id"]});
            let r = s.post("/v1/backgammon/plays", None, body).await;
            assert_eq!(r.status, 200, "{state}: {}", r.json);
            let plays = r.json["plays"].as_array().unwrap();
            assert_eq!(plays.len(), legal.len(), "{state}");
            let r = s.post("/v1/backgammon/plays", None, json!({"xgid": state["xgid"]})).await;
            assert_eq!(r.json["plays"].as_array().map(Vec::len), Some(legal.len()), "{state}");
            checked_ids += 1;
        }
        let action = legal.iter().find(|a| a["type"] != "up_board").or(legal.first()).cloned();
        if let Some(action) = action {
            s.act(&id, &host, &action, seq).await;
        }
    }
    if game == "backgammon" {
        assert!(checked_ids > 0, "the host played at least once");
    }
    // The lobby's entries come before the start, when there is no game yet; from the start on,
    // every entry carries the state after it.
    let start = entries.iter().position(|e| e["action"]["type"] == "start").expect("a start entry");
    for e in &entries[..start] {
        assert!(e.get("state").is_none(), "{game}: lobby entry {} has no state: {e}", e["seq"]);
    }
    for e in &entries[start..] {
        assert!(e["state"].is_object(), "{game}: entry {} has a state: {e}", e["seq"]);
    }
    assert_eq!(entries.last().unwrap()["action"]["type"], "finish");
    (id, entries)
}

async fn every_entry_carries_the_state_get_shows_at_its_seq(db: Db) {
    let s = TestServer::start(db).await;
    let mut games = vec![];
    for (game, seats) in [("backgammon", 2), ("luddo", 4)] {
        let (id, live) = play_watching(&s, game, seats).await;
        // Resumed while the actor runs, from its memory (the last 256 entries) or from the
        // store (a Luddo game is longer): the same entries, but for the legal actions the
        // finish dropped from the stored ones.
        let since = live.len() as i64 / 2;
        let mut ws = s.ws(&id, &format!("since={since}")).await;
        let resumed = common::entries_upto(&mut ws, since + 1, live.len() as i64).await;
        let without_legal = |e: &Value| {
            let mut e = e.clone();
            e.as_object_mut().unwrap().remove("legal_actions_by_seat");
            e
        };
        for (read, sent) in resumed.iter().zip(&live[since as usize..]) {
            assert_eq!(without_legal(read), without_legal(sent), "{game}");
        }
        games.push((game, id, live));
    }
    let (_, _, backgammon) = &games[0];
    let state = &backgammon.last().unwrap()["state"];
    assert_eq!(state["position_id"].as_str().map(str::len), Some(14), "{state}");
    assert_eq!(state["match_id"].as_str().map(str::len), Some(12), "{state}");
    assert!(state["xgid"].as_str().unwrap().starts_with("XGID="), "{state}");

    // After a restart no actor holds the finished tables: their entries come from the store,
    // which kept each one's state (the finish dropped only the legal actions).
    let config = s.config.clone();
    let db = s.stop().await;
    let s = TestServer::start_on(db, config).await;
    for (game, id, live) in &games {
        let view = s.table_view(id, None).await;
        let last = live.len() as i64;
        assert_eq!(view["play"]["seq"], last);
        assert_eq!(view["play"]["state"], live.last().unwrap()["state"], "{game}");
        for since in [0, last - 3] {
            let mut ws = s.ws(id, &format!("since={since}")).await;
            let stored = common::entries_upto(&mut ws, since + 1, last).await;
            for (read, sent) in stored.iter().zip(&live[since as usize..]) {
                assert_eq!(
                    read["state"], sent["state"],
                    "{game}: entry {} read back from the store",
                    sent["seq"]
                );
                let legal = read["legal_actions_by_seat"].as_array().unwrap();
                assert!(legal.iter().all(|seat| seat == &json!([])), "{read}");
            }
        }
    }
}
