//! Challenges over real HTTP and WebSocket, against SQLite and PostgreSQL (docs/social.md,
//! "Challenges"): a challenge reaches the players it names at once and no one else; the first
//! acceptance opens a private table hosted by the challenger, later ones join it, and it starts
//! once full; declines, withdrawals, blocks and expiry end it.

mod common;

use common::{Db, TestServer, Ws};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

both_stores!(
    a_challenge_reaches_the_invitees_lobby_socket_at_once_and_no_one_elses,
    accepting_a_two_seat_challenge_opens_and_starts_the_table_for_both,
    accepting_a_four_seat_challenge_with_one_invitee_seats_both_at_a_waiting_table,
    two_acceptances_at_once_make_one_table,
    declining_every_invitation_declines_the_challenge,
    the_challenger_withdraws_a_pending_challenge,
    a_challenge_expires_when_its_time_is_up,
    a_block_refuses_challenges_and_cancels_the_pending_ones,
    bad_challenges_get_their_codes,
);

const CHALLENGES: &str = "/v1/challenges";

/// A signed-in lobby socket, past its snapshot.
async fn lobby_of(s: &TestServer, token: &str) -> Ws {
    let mut ws = s.lobby_ws(&format!("token={token}")).await;
    assert_eq!(ws.next().await.expect("the snapshot")["type"], "snapshot");
    ws
}

/// The next message, if one comes within a short while.
async fn next_soon(ws: &mut Ws) -> Option<Value> {
    tokio::time::timeout(Duration::from_millis(400), ws.next()).await.ok().flatten()
}

/// The next `challenge` message (skipping the public lobby's).
async fn next_challenge(ws: &mut Ws) -> Value {
    loop {
        let m = ws.next().await.expect("the lobby socket stays open");
        if m["type"] == "challenge" {
            return m;
        }
    }
}

/// `from` challenges `to` to a `game` table of `seats`; the challenge.
async fn challenge(s: &TestServer, from: &str, to: &[&str], game: &str, seats: usize) -> Value {
    let body = json!({"to": to, "table": {"game": game, "seat_count": seats}});
    let r = s.post(CHALLENGES, Some(from), body).await;
    assert_eq!(r.status, 201, "{}", r.json);
    r.json
}

fn path(c: &Value, tail: &str) -> String {
    format!("{CHALLENGES}/{}{tail}", c["id"].as_str().unwrap())
}

async fn a_challenge_reaches_the_invitees_lobby_socket_at_once_and_no_one_elses(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let (_, cleo) = s.player("Cleo").await;
    let mut bobs = lobby_of(&s, &bob).await;
    let mut cleos = lobby_of(&s, &cleo).await;
    let mut anonymous = s.lobby_ws("").await;
    anonymous.next().await.expect("the snapshot");
    let c = challenge(&s, &ann, &[&bob_id], "snakes", 2).await;
    assert_eq!(c["from"], json!({"id": ann_id, "name": "Ann"}));
    assert_eq!(c["to"], json!([{"player": {"id": bob_id, "name": "Bob"}, "answer": "pending"}]));
    assert_eq!((c["status"].as_str(), &c["table_id"]), (Some("pending"), &Value::Null));
    assert_eq!(c["table"], json!({"game": "snakes", "seat_count": 2}));
    let m = bobs.next().await.unwrap();
    assert_eq!((m["type"].as_str(), m["event"].as_str()), (Some("challenge"), Some("received")));
    assert_eq!(m["challenge"], c);
    assert_eq!(next_soon(&mut cleos).await, None, "not Cleo's");
    assert_eq!(next_soon(&mut anonymous).await, None, "not an anonymous socket's");
    // Listed, newest first, for both; shown to the two alone.
    assert_eq!(s.get(CHALLENGES, Some(&bob)).await.json, json!({"incoming": [c], "outgoing": []}));
    assert_eq!(s.get(CHALLENGES, Some(&ann)).await.json, json!({"incoming": [], "outgoing": [c]}));
    assert_eq!(s.get(&path(&c, ""), Some(&bob)).await.json, c);
    s.get(&path(&c, ""), Some(&cleo)).await.assert_problem(404, "not_found");
}

async fn accepting_a_two_seat_challenge_opens_and_starts_the_table_for_both(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let mut anns = lobby_of(&s, &ann).await;
    let c = challenge(&s, &ann, &[&bob_id], "snakes", 2).await;
    assert_eq!(next_challenge(&mut anns).await["event"], "received");
    let r = s.post(&path(&c, "/accept"), Some(&bob), json!({"client_seed": "bob's"})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let table = &r.json["table"];
    assert_eq!((table["status"].as_str(), table["visibility"].as_str()), (Some("playing"), Some("private")));
    assert_eq!(table["host_id"], ann_id.as_str());
    let seated: Vec<&Value> = table["seats"].as_array().unwrap().iter().map(|s| &s["player"]["id"]).collect();
    assert_eq!(seated, [&json!(ann_id), &json!(bob_id)]);
    assert_eq!(r.json["challenge"]["status"], "accepted");
    assert_eq!(r.json["challenge"]["table_id"], table["id"]);
    assert_eq!(r.json["challenge"]["to"][0]["answer"], "accepted");
    let m = next_challenge(&mut anns).await;
    assert_eq!((m["event"].as_str(), &m["challenge"]["table_id"]), (Some("accepted"), &table["id"]));
    // The challenger sees the table too; answering again is refused.
    assert_eq!(s.table_view(table["id"].as_str().unwrap(), Some(&ann)).await["status"], "playing");
    s.post(&path(&c, "/accept"), Some(&bob), json!({})).await.assert_problem(409, "challenge_not_pending");
    s.post(&path(&c, "/decline"), Some(&bob), json!({})).await.assert_problem(409, "challenge_not_pending");
    assert_eq!(s.get(CHALLENGES, Some(&bob)).await.json["incoming"], json!([]), "no longer pending");
}

async fn accepting_a_four_seat_challenge_with_one_invitee_seats_both_at_a_waiting_table(db: Db) {
    let s = TestServer::start(db).await;
    let (_, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let c = challenge(&s, &ann, &[&bob_id], "luddo", 4).await;
    let r = s.post(&path(&c, "/accept"), Some(&bob), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let table = &r.json["table"];
    assert_eq!(table["status"], "open", "it waits for its host");
    let taken = table["seats"].as_array().unwrap().iter().filter(|s| !s["player"].is_null()).count();
    assert_eq!(taken, 2);
    // The host starts it as any open table, with bots in the empty seats.
    let id = table["id"].as_str().unwrap();
    let started =
        s.post(&format!("/v1/tables/{id}/start"), Some(&ann), json!({"fill_with_bots": true})).await;
    assert_eq!(started.status, 200, "{}", started.json);
}

async fn two_acceptances_at_once_make_one_table(db: Db) {
    let s = TestServer::start(db).await;
    let (_, ann) = s.player("Ann").await;
    for round in 0..3 {
        let (bob_id, bob) = s.player(&format!("Bob{round}")).await;
        let (cleo_id, cleo) = s.player(&format!("Cleo{round}")).await;
        let c = challenge(&s, &ann, &[&bob_id, &cleo_id], "snakes", 3).await;
        let accept = path(&c, "/accept");
        let (b, c2) =
            tokio::join!(s.post(&accept, Some(&bob), json!({})), s.post(&accept, Some(&cleo), json!({})),);
        assert_eq!((b.status.as_u16(), c2.status.as_u16()), (200, 200), "{} {}", b.json, c2.json);
        assert_eq!(b.json["table"]["id"], c2.json["table"]["id"], "one table");
        let id = b.json["table"]["id"].as_str().unwrap();
        let t = s.table_view(id, Some(&bob)).await;
        assert_eq!(t["status"], "playing", "full, so started: {t}");
        let after = s.get(&path(&c, ""), Some(&ann)).await.json;
        assert_eq!((after["status"].as_str(), after["table_id"].as_str()), (Some("accepted"), Some(id)));
        let answers: Vec<&str> =
            after["to"].as_array().unwrap().iter().map(|t| t["answer"].as_str().unwrap()).collect();
        assert_eq!(answers, ["accepted", "accepted"], "both seated, both counted");
    }
}

async fn declining_every_invitation_declines_the_challenge(db: Db) {
    let s = TestServer::start(db).await;
    let (_, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let (cleo_id, cleo) = s.player("Cleo").await;
    let mut anns = lobby_of(&s, &ann).await;
    let c = challenge(&s, &ann, &[&bob_id, &cleo_id], "luddo", 3).await;
    assert_eq!(next_challenge(&mut anns).await["event"], "received");
    let r = s.post(&path(&c, "/decline"), Some(&bob), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["status"], "pending", "Cleo has not answered");
    assert_eq!(next_challenge(&mut anns).await["event"], "answered");
    let r = s.post(&path(&c, "/decline"), Some(&cleo), json!({})).await;
    assert_eq!(r.json["status"], "declined");
    let answers: Vec<&str> =
        r.json["to"].as_array().unwrap().iter().map(|t| t["answer"].as_str().unwrap()).collect();
    assert_eq!(answers, ["declined", "declined"]);
    assert_eq!(next_challenge(&mut anns).await["event"], "declined");
    assert_eq!(r.json["table_id"], Value::Null, "no table");
}

async fn the_challenger_withdraws_a_pending_challenge(db: Db) {
    let s = TestServer::start(db).await;
    let (_, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let c = challenge(&s, &ann, &[&bob_id], "luddo", 2).await;
    let mut bobs = lobby_of(&s, &bob).await;
    s.call(Method::DELETE, &path(&c, ""), Some(&bob), None).await.assert_problem(404, "not_found");
    assert_eq!(s.call(Method::DELETE, &path(&c, ""), Some(&ann), None).await.status, 204);
    let m = next_challenge(&mut bobs).await;
    assert_eq!(
        (m["event"].as_str(), m["challenge"]["status"].as_str()),
        (Some("cancelled"), Some("cancelled"))
    );
    s.post(&path(&c, "/accept"), Some(&bob), json!({})).await.assert_problem(409, "challenge_not_pending");
    s.call(Method::DELETE, &path(&c, ""), Some(&ann), None)
        .await
        .assert_problem(409, "challenge_not_pending");
}

async fn a_challenge_expires_when_its_time_is_up(db: Db) {
    let s = TestServer::start(db).await;
    let (_, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let body = json!({"to": [bob_id], "table": {"game": "luddo", "seat_count": 2}, "expires_in_seconds": 30});
    let c = s.post(CHALLENGES, Some(&ann), body).await.json;
    let created = chrono::DateTime::parse_from_rfc3339(c["created_at"].as_str().unwrap()).unwrap();
    let expires = chrono::DateTime::parse_from_rfc3339(c["expires_at"].as_str().unwrap()).unwrap();
    assert_eq!((expires - created).num_seconds(), 30);
    let mut bobs = lobby_of(&s, &bob).await;
    // Its time is up (moved on in the database rather than waited for): the sweep expires it
    // within a second or so, and tells the players.
    let id = c["id"].as_str().unwrap();
    s.db.execute(&format!("UPDATE challenges SET expires_at = 0 WHERE id = '{id}'")).await;
    let m = next_challenge(&mut bobs).await;
    assert_eq!((m["event"].as_str(), m["challenge"]["status"].as_str()), (Some("expired"), Some("expired")));
    s.post(&path(&c, "/accept"), Some(&bob), json!({})).await.assert_problem(409, "challenge_not_pending");
    assert_eq!(s.get(CHALLENGES, Some(&ann)).await.json["outgoing"], json!([]));
}

async fn a_block_refuses_challenges_and_cancels_the_pending_ones(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let c = challenge(&s, &ann, &[&bob_id], "luddo", 2).await;
    let mut anns = lobby_of(&s, &ann).await;
    let block = format!("/v1/players/me/blocks/{ann_id}");
    assert_eq!(s.call(Method::PUT, &block, Some(&bob), None).await.status, 204);
    let m = next_challenge(&mut anns).await;
    assert_eq!(
        (m["event"].as_str(), m["challenge"]["status"].as_str()),
        (Some("cancelled"), Some("cancelled"))
    );
    s.post(&path(&c, "/accept"), Some(&bob), json!({})).await.assert_problem(409, "challenge_not_pending");
    let body = |to: &str| json!({"to": [to], "table": {"game": "luddo", "seat_count": 2}});
    s.post(CHALLENGES, Some(&ann), body(&bob_id)).await.assert_problem(403, "blocked");
    s.post(CHALLENGES, Some(&bob), body(&ann_id)).await.assert_problem(403, "blocked");
}

async fn bad_challenges_get_their_codes(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let mut others = vec![];
    for i in 0..6 {
        others.push(s.player(&format!("P{i}")).await.0);
    }
    let table = json!({"game": "luddo", "seat_count": 6});
    let post = async |body: Value| s.post(CHALLENGES, Some(&ann), body).await;
    post(json!({"to": [uuid::Uuid::new_v4()], "table": table})).await.assert_problem(404, "player_not_found");
    post(json!({"to": [ann_id], "table": table})).await.assert_problem(422, "invalid_body");
    post(json!({"to": [], "table": table})).await.assert_problem(422, "invalid_body");
    post(json!({"to": others, "table": table})).await.assert_problem(422, "invalid_body");
    post(json!({"to": [others[0], others[0]], "table": table})).await.assert_problem(422, "invalid_body");
    let three = &others[..3];
    post(json!({"to": three, "table": {"game": "luddo", "seat_count": 3}}))
        .await
        .assert_problem(422, "invalid_body");
    post(json!({"to": [others[0]], "table": {"game": "chess", "seat_count": 2}}))
        .await
        .assert_problem(422, "unknown_game");
    post(json!({"to": [others[0]], "table": {"game": "backgammon", "seat_count": 4}}))
        .await
        .assert_problem(422, "invalid_seat_count");
    post(json!({"to": [others[0]], "table": {"game": "luddo", "seat_count": 2, "colour": "red"}}))
        .await
        .assert_problem(422, "invalid_body");
    post(json!({"to": [others[0]], "table": "luddo"})).await.assert_problem(422, "invalid_body");
    post(json!({"to": [others[0]], "table": table, "expires_in_seconds": 29}))
        .await
        .assert_problem(422, "invalid_body");
    post(json!({"to": [others[0]], "table": table, "expires_in_seconds": 3601}))
        .await
        .assert_problem(422, "invalid_body");
    // Ten pending challenges at most.
    for _ in 0..10 {
        assert_eq!(post(json!({"to": [others[0]], "table": table})).await.status, 201);
    }
    post(json!({"to": [others[0]], "table": table})).await.assert_problem(409, "too_many_challenges");
    let unknown = format!("{CHALLENGES}/{}", uuid::Uuid::new_v4());
    s.get(&unknown, Some(&ann)).await.assert_problem(404, "not_found");
}
