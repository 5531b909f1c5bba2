//! A table's WebSocket before the start: it opens as soon as the table exists and carries the
//! lobby's changes (seats taken and left, bots seated, settings) as log entries with `seq`,
//! resumable with `since`, then the start and the play, without a gap.

mod common;

use common::{Db, TestServer, entries_upto};
use serde_json::{Value, json};

both_stores!(
    a_socket_on_a_new_table_sees_the_lobby_the_start_and_the_play_in_one_sequence,
    a_socket_resumes_with_since_in_the_middle_of_the_lobby_entries,
    a_stranger_cannot_watch_a_private_table_before_the_start,
    settings_changes_are_entries_and_a_closed_table_ends_its_sockets,
);

/// The next message of `ws` of type `kind`.
async fn next_of(ws: &mut common::Ws, kind: &str) -> Value {
    loop {
        let m = ws.next().await.expect("socket open");
        if m["type"] == kind {
            return m;
        }
    }
}

async fn a_socket_on_a_new_table_sees_the_lobby_the_start_and_the_play_in_one_sequence(db: Db) {
    let s = TestServer::start(db).await;
    let (host_id, host) = s.player("Host").await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let t = s.table(&host, json!({"game": "snakes", "seat_count": 3})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let mut ws = s.ws(&id, "since=0").await;
    let first = ws.next_entry().await.unwrap();
    assert_eq!(first["seq"], 1);
    assert_eq!(first["actor"], "server");
    assert_eq!(first["seat"], 0);
    assert_eq!(
        first["action"],
        json!({"type": "seat_taken", "seat": 0, "player_id": host_id, "name": "Host"})
    );

    // Before the start the socket answers pings, and refuses actions as the HTTP route does.
    ws.send(json!({"type": "ping"})).await;
    assert_eq!(next_of(&mut ws, "pong").await, json!({"type": "pong"}));
    ws.send(json!({"type": "action", "id": "early", "seq": 1, "action": {"type": "roll"}})).await;
    let reply = next_of(&mut ws, "reply").await;
    assert_eq!((reply["id"].as_str(), reply["ok"].as_bool()), (Some("early"), Some(false)), "{reply}");
    assert_eq!(reply["error"]["code"], "table_not_started");

    let join = format!("/v1/tables/{id}/join");
    assert_eq!(s.post(&join, Some(&ann), json!({"seat": 1})).await.status, 200);
    assert_eq!(s.post(&format!("/v1/tables/{id}/leave"), Some(&ann), json!({})).await.status, 200);
    assert_eq!(s.post(&join, Some(&bob), json!({"seat": 1})).await.status, 200);
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);

    let lobby = entries_upto(&mut ws, 2, 6).await;
    let actions: Vec<&Value> = lobby[..4].iter().map(|e| &e["action"]).collect();
    assert_eq!(
        actions,
        [
            &json!({"type": "seat_taken", "seat": 1, "player_id": ann_id, "name": "Ann"}),
            &json!({"type": "seat_left", "seat": 1, "player_id": ann_id}),
            &json!({"type": "seat_taken", "seat": 1, "player_id": bob_id, "name": "Bob"}),
            &json!({"type": "bot_seated", "seat": 2}),
        ][..],
        "{lobby:?}"
    );
    let start = &lobby[4];
    assert_eq!(start["action"]["type"], "start");
    assert_eq!(start["actor"], "server");
    assert!(lobby[..4].iter().all(|e| e["actor"] == "server" && e["events"] == json!([])));

    // Then the play, on the same socket, from the next seq: the human to act rolls.
    let view = s.table_view(&id, None).await;
    let seat = view["play"]["to_act"].as_u64().expect("a human to act") as usize;
    let token = [&host, &bob][seat];
    let seq = view["play"]["seq"].as_i64().unwrap();
    let r = s.act(&id, token, &json!({"type": "roll"}), seq).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let play = entries_upto(&mut ws, 7, seq + 1).await;
    let rolled = play.last().unwrap();
    assert_eq!((rolled["actor"].as_str(), rolled["seat"].as_u64()), (Some("human"), Some(seat as u64)));
    // The lobby's entries are in the log the table was replayed from: a table view agrees (the
    // bot may already have played on after the roll).
    let now = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();
    assert!(now > seq, "the table's seq {now} counts the lobby's entries and the roll");
}

async fn a_socket_resumes_with_since_in_the_middle_of_the_lobby_entries(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, ann) = s.player("Ann").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 2})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let join = json!({"seat": 1});
    assert_eq!(s.post(&format!("/v1/tables/{id}/join"), Some(&ann), join.clone()).await.status, 200);
    assert_eq!(s.post(&format!("/v1/tables/{id}/leave"), Some(&ann), json!({})).await.status, 200);

    // Entries 1..=3 are stored; resume after 2: seq 3, then live ones.
    let mut ws = s.ws(&id, &format!("since=2&token={ann}")).await;
    let left = ws.next_entry().await.unwrap();
    assert_eq!((left["seq"].as_i64(), left["action"]["type"].as_str()), (Some(3), Some("seat_left")));
    assert_eq!(s.post(&format!("/v1/tables/{id}/join"), Some(&ann), join).await.status, 200);
    let taken = ws.next_entry().await.unwrap();
    assert_eq!((taken["seq"].as_i64(), taken["action"]["type"].as_str()), (Some(4), Some("seat_taken")));
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let start = ws.next_entry().await.unwrap();
    assert_eq!((start["seq"].as_i64(), start["action"]["type"].as_str()), (Some(5), Some("start")));

    // After the start, a resume from within the lobby's entries reads them from the log.
    let mut again = s.ws(&id, "since=1").await;
    let resumed = entries_upto(&mut again, 2, 5).await;
    assert_eq!(resumed[0]["action"]["type"], "seat_taken");
    assert_eq!(resumed[3]["action"]["type"], "start");
}

async fn a_stranger_cannot_watch_a_private_table_before_the_start(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, stranger) = s.player("Stranger").await;
    let (_, guest) = s.player("Guest").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 2, "visibility": "private"})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let code = t["invite_code"].as_str().unwrap();
    let url = format!("{}/v1/tables/{id}/events", s.base.replace("http://", "ws://"));
    for query in ["", "?token={stranger}", "?invite_code={code}"] {
        let query = query.replace("{stranger}", &stranger).replace("{code}", code);
        let refused = tokio_tungstenite::connect_async(format!("{url}{query}")).await;
        let Err(tokio_tungstenite::tungstenite::Error::Http(response)) = refused else {
            panic!("{query}: refused before the upgrade");
        };
        // No invite code is a query of this route; the others: the same 404 as no table.
        let expected = if query.contains("invite_code") { 400 } else { 404 };
        assert_eq!(response.status().as_u16(), expected, "{query}");
    }
    // The host watches; a guest who joins with the code watches too.
    let mut ws = s.ws(&id, &format!("token={host}")).await;
    assert_eq!(ws.next_entry().await.unwrap()["seq"], 1);
    let join = json!({"invite_code": code});
    assert_eq!(s.post(&format!("/v1/tables/{id}/join"), Some(&guest), join).await.status, 200);
    assert_eq!(ws.next_entry().await.unwrap()["action"]["type"], "seat_taken");
    let mut theirs = s.ws(&id, &format!("token={guest}")).await;
    assert_eq!(entries_upto(&mut theirs, 1, 2).await.len(), 2);
}

async fn settings_changes_are_entries_and_a_closed_table_ends_its_sockets(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, ann) = s.player("Ann").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 2})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let mut watcher = s.ws(&id, "").await;
    let mut player = s.ws(&id, &format!("token={host}")).await;
    assert_eq!(watcher.next_entry().await.unwrap()["seq"], 1);
    let r = s
        .call(reqwest::Method::PATCH, &format!("/v1/tables/{id}"), Some(&host), Some(json!({"party": true})))
        .await;
    assert_eq!(r.status, 200, "{}", r.json);
    let changed = watcher.next_entry().await.unwrap();
    assert_eq!(changed["seq"], 2);
    assert_eq!(changed["action"]["type"], "settings_changed");
    assert_eq!(changed["action"]["party"], true);
    assert_eq!(changed["action"]["visibility"], "public");

    // Made private: the anonymous watcher is let go; the host goes on.
    let private = json!({"visibility": "private"});
    let r = s.call(reqwest::Method::PATCH, &format!("/v1/tables/{id}"), Some(&host), Some(private)).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(watcher.next_entry().await.unwrap()["seq"], 3);
    assert!(watcher.next().await.is_none(), "a stranger to a private table is let go");
    assert_eq!(entries_upto(&mut player, 1, 3).await.len(), 3);

    // Everyone leaves: the table closes, and so does its socket, after the entries.
    let code = r.json["invite_code"].as_str().unwrap();
    let join = json!({"invite_code": code});
    assert_eq!(s.post(&format!("/v1/tables/{id}/join"), Some(&ann), join).await.status, 200);
    assert_eq!(s.post(&format!("/v1/tables/{id}/leave"), Some(&host), json!({})).await.status, 200);
    assert_eq!(s.post(&format!("/v1/tables/{id}/leave"), Some(&ann), json!({})).await.status, 200);
    let rest = entries_upto(&mut player, 4, 7).await;
    let ann_id = rest[0]["action"]["player_id"].clone();
    assert_eq!(rest[1]["action"]["type"], "seat_left");
    assert_eq!(rest[1]["action"]["host_id"], ann_id, "the host role passed to Ann: {}", rest[1]);
    assert_eq!(rest[2]["action"]["type"], "seat_left");
    assert_eq!(rest[3]["action"], json!({"type": "closed"}));
    assert!(player.next().await.is_none(), "the socket of a closed table closes");
}
