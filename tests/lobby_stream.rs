//! The lobby stream (`GET /v1/lobby/events`): a snapshot of the open public tables, then each
//! public table appearing, filling, starting and going (finished, closed or made private), so a
//! lobby page needs no polling. Private tables never appear on it.

mod common;

use common::{Db, TestServer, Ws, test_config};
use luddo::config::{Config, Timers};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

both_stores!(
    the_lobby_stream_shows_a_table_appear_fill_start_and_finish,
    a_private_table_never_appears_on_the_lobby_stream,
    the_snapshot_lists_open_public_tables_up_to_the_limit,
);

/// The next lobby message that is about table `id`.
async fn next_about(ws: &mut Ws, id: &str) -> Value {
    loop {
        let m = ws.next().await.expect("lobby socket open");
        if m["table"]["id"] == id || m["table_id"] == id {
            return m;
        }
    }
}

async fn the_lobby_stream_shows_a_table_appear_fill_start_and_finish(db: Db) {
    // The host's clock runs out at once: bots play the game to its end by themselves.
    let timers = Timers { turn: Duration::from_millis(20), ..Timers::default() };
    let s = TestServer::start_with(db, Config { timers, ..test_config() }).await;
    let mut lobby = s.lobby_ws("").await;
    let snapshot = lobby.next().await.unwrap();
    assert_eq!(snapshot, json!({"type": "snapshot", "tables": [], "truncated": false}));

    let (_, host) = s.player("Host").await;
    let (ann_id, ann) = s.player("Ann").await;
    let t = s.table(&host, json!({"game": "snakes", "seat_count": 3})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let opened = next_about(&mut lobby, &id).await;
    assert_eq!((opened["type"].as_str(), opened["change"].as_str()), (Some("table"), Some("opened")));
    assert_eq!(opened["seq"], 1);
    assert_eq!(opened["table"]["status"], "open");

    assert_eq!(s.post(&format!("/v1/tables/{id}/join"), Some(&ann), json!({})).await.status, 200);
    let filled = next_about(&mut lobby, &id).await;
    assert_eq!((filled["change"].as_str(), filled["seq"].as_i64()), (Some("seats"), Some(2)));
    assert_eq!(filled["table"]["seats"][1]["player"]["id"], ann_id.as_str());
    assert_eq!(s.post(&format!("/v1/tables/{id}/leave"), Some(&ann), json!({})).await.status, 200);
    let left = next_about(&mut lobby, &id).await;
    assert_eq!((left["change"].as_str(), left["seq"].as_i64()), (Some("seats"), Some(3)));
    assert_eq!(left["table"]["seats"][1]["player"], Value::Null);

    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let started = next_about(&mut lobby, &id).await;
    assert_eq!(started["change"], "started");
    assert_eq!(started["table"]["status"], "playing");
    assert_eq!(started["seq"], 5, "the bots' seats (4, 5) are the latest entries: {started}");

    let finished = next_about(&mut lobby, &id).await;
    assert_eq!(
        finished,
        json!({"type": "removed", "table_id": id, "reason": "finished", "seq": finished["seq"]})
    );
    let view = s.table_view(&id, None).await;
    assert_eq!(view["status"], "finished");
    assert_eq!(finished["seq"], view["play"]["seq"], "the finish is the table's last entry");

    // A table everyone leaves before the start is removed as closed.
    let t = s.table(&ann, json!({"game": "luddo", "seat_count": 2})).await;
    let other = t["id"].as_str().unwrap().to_string();
    assert_eq!(next_about(&mut lobby, &other).await["change"], "opened");
    assert_eq!(s.post(&format!("/v1/tables/{other}/leave"), Some(&ann), json!({})).await.status, 200);
    let closed = next_about(&mut lobby, &other).await;
    assert_eq!(closed, json!({"type": "removed", "table_id": other, "reason": "closed", "seq": 3}));

    // The lobby socket answers pings, and nothing else.
    lobby.send(json!({"type": "ping"})).await;
    assert_eq!(lobby.next().await.unwrap(), json!({"type": "pong"}));
    lobby.send(json!({"type": "action"})).await;
    assert_eq!(lobby.next().await.unwrap()["code"], "invalid_message");
}

async fn a_private_table_never_appears_on_the_lobby_stream(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, guest) = s.player("Guest").await;
    let mut lobby = s.lobby_ws(&format!("token={guest}")).await;
    assert_eq!(lobby.next().await.unwrap()["type"], "snapshot");

    // Everything a private table goes through, told to nobody in the lobby.
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 3, "visibility": "private"})).await;
    let private = t["id"].as_str().unwrap().to_string();
    let join = json!({"invite_code": t["invite_code"]});
    assert_eq!(s.post(&format!("/v1/tables/{private}/join"), Some(&guest), join).await.status, 200);
    let r =
        s.post(&format!("/v1/tables/{private}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);

    // The next message is about the public table made after it.
    let t = s.table(&guest, json!({"game": "luddo", "seat_count": 2})).await;
    let public = t["id"].as_str().unwrap().to_string();
    let first = lobby.next().await.unwrap();
    assert_eq!(
        (first["table"]["id"].as_str(), first["change"].as_str()),
        (Some(public.as_str()), Some("opened"))
    );

    // Made private, it is removed; made public again, it reappears.
    let path = format!("/v1/tables/{public}");
    let r = s.call(Method::PATCH, &path, Some(&guest), Some(json!({"visibility": "private"}))).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(
        lobby.next().await.unwrap(),
        json!({"type": "removed", "table_id": public, "reason": "private", "seq": 2})
    );
    let r = s.call(Method::PATCH, &path, Some(&guest), Some(json!({"visibility": "public"}))).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let back = lobby.next().await.unwrap();
    assert_eq!((back["change"].as_str(), back["seq"].as_i64()), (Some("opened"), Some(3)));
    assert!(back["table"].get("invite_code").is_none(), "the lobby's view is anyone's: {back}");
}

async fn the_snapshot_lists_open_public_tables_up_to_the_limit(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let mut ids = vec![];
    for _ in 0..3 {
        ids.push(s.table(&host, json!({"game": "luddo", "seat_count": 2})).await["id"].clone());
    }
    s.table(&host, json!({"game": "luddo", "seat_count": 2, "visibility": "private"})).await;
    let r = s
        .post(
            &format!("/v1/tables/{}/start", ids[0].as_str().unwrap()),
            Some(&host),
            json!({"fill_with_bots": true}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.json);

    // Open and public only, newest first, each with its latest seq.
    let mut lobby = s.lobby_ws("").await;
    let all = lobby.next().await.unwrap();
    let listed: Vec<&Value> = all["tables"].as_array().unwrap().iter().map(|t| &t["table"]["id"]).collect();
    assert_eq!(listed, [&ids[2], &ids[1]]);
    assert_eq!(all["truncated"], false);
    assert!(all["tables"].as_array().unwrap().iter().all(|t| t["seq"] == 1), "{all}");

    let mut one = s.lobby_ws("limit=1").await;
    let first = one.next().await.unwrap();
    assert_eq!(first["tables"].as_array().unwrap().len(), 1);
    assert_eq!(first["truncated"], true);

    let url = format!("{}/v1/lobby/events?limit=0", s.base.replace("http://", "ws://"));
    let Err(tokio_tungstenite::tungstenite::Error::Http(refused)) =
        tokio_tungstenite::connect_async(url).await
    else {
        panic!("limit=0 is refused before the upgrade");
    };
    assert_eq!(refused.status().as_u16(), 400);
}
