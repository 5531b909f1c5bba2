//! Rematches over real HTTP, against SQLite and PostgreSQL: after a finish each seated player
//! may ask for one; when all have, a new table with the same seats and settings starts.

mod common;

use common::{Db, TestServer, play_out, seated_table};
use serde_json::{Value, json};

both_stores!(
    a_rematch_starts_when_every_player_asks_with_the_same_seats_and_settings,
    a_rematch_with_bots_needs_only_the_humans,
    a_rematch_opens_only_while_its_host_has_room_for_another_table,
    where_a_rematch_stands_is_shown_to_anyone_who_may_see_the_table_without_voting,
    a_rematch_vote_is_offered_on_the_other_players_lobby_sockets_alone,
);

fn players(t: &Value) -> Vec<Value> {
    t["seats"].as_array().unwrap().iter().map(|s| s["player"]["id"].clone()).collect()
}

async fn a_rematch_starts_when_every_player_asks_with_the_same_seats_and_settings(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({"party": true, "bot_level": "easy"})).await;
    let path = format!("/v1/tables/{id}/rematch");
    s.post(&path, Some(&tokens[1]), json!({})).await.assert_problem(409, "game_not_over");
    play_out(&s, &id, &tokens).await;
    s.post(&path, None, json!({})).await.assert_problem(401, "unauthorized");
    let (_, stranger) = s.player("Stranger").await;
    s.post(&path, Some(&stranger), json!({})).await.assert_problem(403, "not_seated");
    // The guest asks (twice: the same answer), then the host: the rematch starts.
    for _ in 0..2 {
        let r = s.post(&path, Some(&tokens[1]), json!({})).await;
        assert_eq!(r.status, 200, "{}", r.json);
        assert_eq!(r.json, json!({"accepted": [1], "waiting_for": [0]}));
    }
    let r = s.post(&path, Some(&tokens[0]), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let new = r.json["table_id"].as_str().unwrap().to_string();
    let old = s.table_view(&id, Some(&tokens[0])).await;
    assert_eq!(old["rematch_id"], new.as_str());
    let t = s.table_view(&new, Some(&tokens[0])).await;
    assert_eq!(t["status"], "playing");
    assert_eq!(players(&t), players(&old), "the same players at the same seats");
    for key in ["game", "options", "party", "bot_level", "visibility", "host_id"] {
        assert_eq!(t[key], old[key], "{key}");
    }
    assert_ne!(t["seed_commitment"], old["seed_commitment"], "new dice");
    // Asking again after it opened: where it is.
    let r = s.post(&path, Some(&tokens[1]), json!({})).await;
    assert_eq!((r.status.as_u16(), r.json["table_id"].as_str()), (200, Some(new.as_str())));
}

async fn a_rematch_with_bots_needs_only_the_humans(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let t = s.table(&host, json!({"game": "snakes", "seat_count": 3})).await;
    let id = t["id"].as_str().unwrap().to_string();
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200);
    play_out(&s, &id, &[host.clone(), host.clone(), host.clone()]).await;
    let r = s.post(&format!("/v1/tables/{id}/rematch"), Some(&host), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let new = s.table_view(r.json["table_id"].as_str().unwrap(), Some(&host)).await;
    assert_eq!(new["status"], "playing");
    let controllers: Vec<&str> =
        new["seats"].as_array().unwrap().iter().map(|s| s["controller"].as_str().unwrap()).collect();
    assert_eq!(controllers, ["human", "bot", "bot"]);
}

/// The rematch is one more table of its host's: while the host already hosts as many unfinished
/// tables as anyone may, the vote that would open it is refused as a creation is (429
/// `too_many_tables`) and not counted; once the host has room, it opens.
async fn a_rematch_opens_only_while_its_host_has_room_for_another_table(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    play_out(&s, &id, &tokens).await;
    let mut hosted = vec![];
    for _ in 0..luddo::lobby::MAX_OPEN_TABLES_PER_HOST {
        hosted.push(s.table(&tokens[0], json!({"game": "snakes", "seat_count": 2})).await["id"].clone());
    }
    let path = format!("/v1/tables/{id}/rematch");
    let r = s.post(&path, Some(&tokens[1]), json!({})).await;
    assert_eq!(r.json, json!({"accepted": [1], "waiting_for": [0]}));
    s.post(&path, Some(&tokens[0]), json!({})).await.assert_problem(429, "too_many_tables");
    assert!(s.table_view(&id, Some(&tokens[0])).await.get("rematch_id").is_none(), "no table opened");
    let r = s.post(&path, Some(&tokens[1]), json!({})).await;
    assert_eq!(r.json, json!({"accepted": [1], "waiting_for": [0]}), "the refused vote was not counted");
    // The host closes one of its tables: room for the rematch.
    let leave = format!("/v1/tables/{}/leave", hosted[0].as_str().unwrap());
    assert_eq!(s.post(&leave, Some(&tokens[0]), json!({})).await.status, 200);
    let r = s.post(&path, Some(&tokens[0]), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.json);
}

/// `GET …/rematch` says what a vote would, without voting: so that a page can show another
/// player's request as it comes. Anyone who may see the table may ask (a public one: anyone).
async fn where_a_rematch_stands_is_shown_to_anyone_who_may_see_the_table_without_voting(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let path = format!("/v1/tables/{id}/rematch");
    s.get(&path, Some(&tokens[0])).await.assert_problem(409, "game_not_over");
    play_out(&s, &id, &tokens).await;
    let standing = |r: common::Resp| {
        assert_eq!(r.status, 200, "{}", r.json);
        r.json
    };
    assert_eq!(standing(s.get(&path, None).await), json!({"accepted": [], "waiting_for": [0, 1]}));
    s.post(&path, Some(&tokens[1]), json!({})).await;
    for viewer in [None, Some(tokens[0].as_str())] {
        assert_eq!(standing(s.get(&path, viewer).await), json!({"accepted": [1], "waiting_for": [0]}));
    }
    // Reading it is no vote: the host's own vote still opens the rematch.
    let r = s.post(&path, Some(&tokens[0]), json!({})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let opened = standing(s.get(&path, None).await);
    assert_eq!(opened["table_id"], r.json["table_id"]);
    assert_eq!(opened["accepted"], json!([0, 1]));
    let missing = format!("/v1/tables/{}/rematch", uuid::Uuid::new_v4());
    s.get(&missing, None).await.assert_problem(404, "table_not_found");
}

/// A vote for a rematch reaches the table's other human players on their lobby streams
/// (docs/social.md): `{"type": "rematch", "table_id", "from", "rematch"}`, the standing as
/// `GET …/rematch` shows it; not the voter's, not a stranger's.
async fn a_rematch_vote_is_offered_on_the_other_players_lobby_sockets_alone(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    play_out(&s, &id, &tokens).await;
    let (_, stranger) = s.player("Stranger").await;
    let mut sockets = vec![];
    for token in [&tokens[0], &tokens[1], &stranger] {
        let mut ws = s.lobby_ws(&format!("token={token}")).await;
        assert_eq!(ws.next().await.unwrap()["type"], "snapshot");
        sockets.push(ws);
    }
    let voter = s.get("/v1/players/me", Some(&tokens[1])).await.json;
    s.post(&format!("/v1/tables/{id}/rematch"), Some(&tokens[1]), json!({})).await;
    let offer = sockets[0].next().await.unwrap();
    assert_eq!(
        offer,
        json!({
            "type": "rematch",
            "table_id": id,
            "from": {"id": voter["id"], "name": voter["name"]},
            "rematch": {"accepted": [1], "waiting_for": [0]}
        })
    );
    for ws in &mut sockets[1..] {
        let none = tokio::time::timeout(std::time::Duration::from_millis(400), ws.next()).await;
        assert!(none.is_err(), "not the voter's nor a stranger's: {none:?}");
    }
}
