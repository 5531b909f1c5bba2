//! Friends and blocks over real HTTP and WebSocket, against SQLite and PostgreSQL
//! (docs/social.md, "Friends (request and accept) and blocks"): a friendship is asked and
//! accepted, each change reaches the two players' lobby sockets and no one else's, a block
//! works both ways, and friends alone see each other's presence and public table.

mod common;

use common::{Db, TestServer, Ws};
use reqwest::Method;
use serde_json::{Value, json};
use std::time::Duration;

both_stores!(
    a_request_accepted_by_asking_back_makes_two_friends,
    removing_ends_a_friendship_withdraws_a_request_or_declines_one,
    friend_messages_reach_the_two_players_lobby_sockets_and_no_one_elses,
    a_block_refuses_friend_requests_both_ways_and_ends_the_friendship,
    friends_alone_see_whether_a_player_is_online_and_at_which_public_table,
    two_players_asking_each_other_at_once_end_as_friends,
    quick_play_never_seats_two_players_with_a_block_between_them,
    bad_friend_and_block_requests_get_their_codes,
);

const FRIENDS: &str = "/v1/players/me/friends";

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

fn ids(list: &Value) -> Vec<&str> {
    list.as_array().unwrap().iter().map(|e| e["player"]["id"].as_str().unwrap()).collect()
}

async fn a_request_accepted_by_asking_back_makes_two_friends(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let r = s.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    assert_eq!(r.json, json!({"player": {"id": bob_id, "name": "Bob"}, "status": "requested"}));
    // Asking again changes nothing.
    let r = s.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})).await;
    assert_eq!((r.status.as_u16(), r.json["status"].as_str()), (200, Some("requested")));
    let anns = s.get(FRIENDS, Some(&ann)).await.json;
    assert_eq!((ids(&anns["outgoing"]), ids(&anns["incoming"])), (vec![bob_id.as_str()], vec![]));
    let bobs = s.get(FRIENDS, Some(&bob)).await.json;
    assert_eq!((ids(&bobs["incoming"]), ids(&bobs["friends"])), (vec![ann_id.as_str()], vec![]));
    // Bob accepts by asking back.
    let r = s.post(FRIENDS, Some(&bob), json!({"player_id": ann_id})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["status"], "friends");
    for (token, other) in [(&ann, &bob_id), (&bob, &ann_id)] {
        let lists = s.get(FRIENDS, Some(token)).await.json;
        assert_eq!(ids(&lists["friends"]), vec![other.as_str()]);
        assert_eq!((ids(&lists["incoming"]), ids(&lists["outgoing"])), (vec![], vec![]));
    }
    let r = s.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})).await;
    assert_eq!((r.status.as_u16(), r.json["status"].as_str()), (200, Some("friends")));
}

async fn removing_ends_a_friendship_withdraws_a_request_or_declines_one(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let (cleo_id, cleo) = s.player("Cleo").await;
    let (dan_id, dan) = s.player("Dan").await;
    let ask = async |token: &str, id: &str| s.post(FRIENDS, Some(token), json!({"player_id": id})).await;
    ask(&ann, &bob_id).await;
    // Withdrawn by the asker.
    assert_eq!(s.call(Method::DELETE, &format!("{FRIENDS}/{bob_id}"), Some(&ann), None).await.status, 204);
    assert_eq!(s.get(FRIENDS, Some(&bob)).await.json["incoming"], json!([]));
    // Declined by the one asked.
    ask(&cleo, &ann_id).await;
    assert_eq!(s.call(Method::DELETE, &format!("{FRIENDS}/{cleo_id}"), Some(&ann), None).await.status, 204);
    assert_eq!(s.get(FRIENDS, Some(&cleo)).await.json["outgoing"], json!([]));
    // A friendship ended by either.
    ask(&dan, &bob_id).await;
    ask(&bob, &dan_id).await;
    assert_eq!(s.call(Method::DELETE, &format!("{FRIENDS}/{dan_id}"), Some(&bob), None).await.status, 204);
    assert_eq!(s.get(FRIENDS, Some(&dan)).await.json["friends"], json!([]));
    // Nothing left to remove.
    s.call(Method::DELETE, &format!("{FRIENDS}/{dan_id}"), Some(&bob), None)
        .await
        .assert_problem(404, "not_found");
}

async fn friend_messages_reach_the_two_players_lobby_sockets_and_no_one_elses(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let (_, cleo) = s.player("Cleo").await;
    let mut anns = lobby_of(&s, &ann).await;
    let mut bobs = lobby_of(&s, &bob).await;
    let mut cleos = lobby_of(&s, &cleo).await;
    let mut anonymous = s.lobby_ws("").await;
    anonymous.next().await.expect("the snapshot");
    s.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})).await;
    let ann_ref = json!({"id": ann_id, "name": "Ann"});
    let bob_ref = json!({"id": bob_id, "name": "Bob"});
    assert_eq!(
        bobs.next().await.unwrap(),
        json!({"type": "friend", "event": "requested", "player": ann_ref})
    );
    assert_eq!(
        anns.next().await.unwrap(),
        json!({"type": "friend", "event": "requested", "player": bob_ref})
    );
    s.post(FRIENDS, Some(&bob), json!({"player_id": ann_id})).await;
    assert_eq!(anns.next().await.unwrap(), json!({"type": "friend", "event": "accepted", "player": bob_ref}));
    assert_eq!(bobs.next().await.unwrap(), json!({"type": "friend", "event": "accepted", "player": ann_ref}));
    s.call(Method::DELETE, &format!("{FRIENDS}/{bob_id}"), Some(&ann), None).await;
    assert_eq!(bobs.next().await.unwrap(), json!({"type": "friend", "event": "removed", "player": ann_ref}));
    assert_eq!(anns.next().await.unwrap(), json!({"type": "friend", "event": "removed", "player": bob_ref}));
    assert_eq!(next_soon(&mut cleos).await, None, "not Cleo's");
    assert_eq!(next_soon(&mut anonymous).await, None, "not an anonymous socket's");
}

async fn a_block_refuses_friend_requests_both_ways_and_ends_the_friendship(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    s.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})).await;
    s.post(FRIENDS, Some(&bob), json!({"player_id": ann_id})).await;
    let block = format!("/v1/players/me/blocks/{bob_id}");
    assert_eq!(s.call(Method::PUT, &block, Some(&ann), None).await.status, 204);
    assert_eq!(s.call(Method::PUT, &block, Some(&ann), None).await.status, 204, "again: the same");
    assert_eq!(s.get(FRIENDS, Some(&bob)).await.json["friends"], json!([]), "the friendship ended");
    let blocks = s.get("/v1/players/me/blocks", Some(&ann)).await;
    assert_eq!(ids(&blocks.json["blocked"]), vec![bob_id.as_str()]);
    assert_eq!(s.get("/v1/players/me/blocks", Some(&bob)).await.json["blocked"], json!([]));
    s.post(FRIENDS, Some(&bob), json!({"player_id": ann_id})).await.assert_problem(403, "blocked");
    s.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})).await.assert_problem(403, "blocked");
    assert_eq!(s.call(Method::DELETE, &block, Some(&ann), None).await.status, 204);
    assert_eq!(s.post(FRIENDS, Some(&bob), json!({"player_id": ann_id})).await.status, 201);
}

async fn friends_alone_see_whether_a_player_is_online_and_at_which_public_table(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    s.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})).await;
    // A request shows nothing of the other.
    let requested = s.get(FRIENDS, Some(&bob)).await.json;
    assert_eq!(
        requested["incoming"][0],
        json!({"player": {"id": ann_id, "name": "Ann"}, "at": requested["incoming"][0]["at"]})
    );
    s.post(FRIENDS, Some(&bob), json!({"player_id": ann_id})).await;
    let friend = |lists: Value| lists["friends"][0].clone();
    let seen = friend(s.get(FRIENDS, Some(&ann)).await.json);
    assert_eq!((seen["online"].as_bool(), &seen["table"]), (Some(false), &Value::Null));
    // Bob opens a socket and sits at a public table: Ann sees both.
    let bobs = lobby_of(&s, &bob).await;
    let t = s.table(&bob, json!({"game": "luddo", "seat_count": 4})).await;
    let seen = friend(s.get(FRIENDS, Some(&ann)).await.json);
    assert_eq!(seen["online"], true);
    assert_eq!(seen["table"], json!({"id": t["id"], "game": "luddo", "status": "open"}));
    drop(bobs);
    // A private table is not shown.
    let left =
        s.post(&format!("/v1/tables/{}/leave", t["id"].as_str().unwrap()), Some(&bob), json!({})).await;
    assert_eq!(left.status, 200, "{}", left.json);
    s.table(&bob, json!({"game": "luddo", "seat_count": 4, "visibility": "private"})).await;
    assert_eq!(friend(s.get(FRIENDS, Some(&ann)).await.json)["table"], Value::Null);
}

async fn two_players_asking_each_other_at_once_end_as_friends(db: Db) {
    let s = TestServer::start(db).await;
    for round in 0..5 {
        let (ann_id, ann) = s.player(&format!("Ann{round}")).await;
        let (bob_id, bob) = s.player(&format!("Bob{round}")).await;
        let (a, b) = tokio::join!(
            s.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})),
            s.post(FRIENDS, Some(&bob), json!({"player_id": ann_id})),
        );
        let mut statuses = [a.json["status"].as_str().unwrap(), b.json["status"].as_str().unwrap()];
        statuses.sort();
        assert_eq!(statuses, ["friends", "requested"], "one asked, the other accepted");
        assert_eq!(ids(&s.get(FRIENDS, Some(&ann)).await.json["friends"]), vec![bob_id.as_str()]);
    }
}

async fn quick_play_never_seats_two_players_with_a_block_between_them(db: Db) {
    let s = TestServer::start(db).await;
    let (_, ann) = s.player("Ann").await;
    let (bob_id, bob) = s.player("Bob").await;
    let (_, cleo) = s.player("Cleo").await;
    let quick = json!({"game": "luddo", "seats": 4});
    let first = s.post("/v1/quick-play", Some(&ann), quick.clone()).await;
    assert_eq!(first.status, 201, "{}", first.json);
    assert_eq!(
        s.call(Method::PUT, &format!("/v1/players/me/blocks/{bob_id}"), Some(&ann), None).await.status,
        204
    );
    // Bob is blocked by Ann: another table; Cleo joins Ann's, the oldest.
    let bobs = s.post("/v1/quick-play", Some(&bob), quick.clone()).await;
    assert_ne!(bobs.json["id"], first.json["id"], "{}", bobs.json);
    let cleos = s.post("/v1/quick-play", Some(&cleo), quick).await;
    assert_eq!(cleos.json["id"], first.json["id"], "{}", cleos.json);
}

async fn bad_friend_and_block_requests_get_their_codes(db: Db) {
    let s = TestServer::start(db).await;
    let (ann_id, ann) = s.player("Ann").await;
    let unknown = uuid::Uuid::new_v4().to_string();
    s.post(FRIENDS, None, json!({"player_id": ann_id})).await.assert_problem(401, "unauthorized");
    s.post(FRIENDS, Some(&ann), json!({"player_id": ann_id})).await.assert_problem(422, "invalid_body");
    s.post(FRIENDS, Some(&ann), json!({"player_id": unknown})).await.assert_problem(404, "player_not_found");
    s.post(FRIENDS, Some(&ann), json!({"player_id": "bob"})).await.assert_problem(422, "invalid_body");
    s.post(FRIENDS, Some(&ann), json!({"player": ann_id})).await.assert_problem(422, "invalid_body");
    let me = format!("/v1/players/me/blocks/{ann_id}");
    s.call(Method::PUT, &me, Some(&ann), None).await.assert_problem(422, "invalid_body");
    let nobody = format!("/v1/players/me/blocks/{unknown}");
    s.call(Method::PUT, &nobody, Some(&ann), None).await.assert_problem(404, "player_not_found");
    s.call(Method::PUT, &nobody, None, None).await.assert_problem(401, "unauthorized");
    s.get("/v1/players/me/blocks", None).await.assert_problem(401, "unauthorized");
    s.get(FRIENDS, None).await.assert_problem(401, "unauthorized");
}

/// Cluster mode: two processes on one PostgreSQL. A friend whose only socket is open on the
/// other process is shown online (its `seen_at`, written as the socket opened), and a friend
/// request made on one process reaches the other's lobby socket of the player asked, and no
/// one else's there.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn in_cluster_mode_presence_and_friend_messages_cross_processes() {
    let config =
        |instance: &str| luddo::config::Config { instance_id: instance.into(), ..common::test_config() };
    let a = TestServer::start_with(Db::Postgres, config("a")).await;
    let b = TestServer::start_on(a.db.shared(), config("b")).await;
    let (ann_id, ann) = a.player("Ann").await;
    let (bob_id, bob) = a.player("Bob").await;
    let (_, cleo) = a.player("Cleo").await;
    let mut bobs_on_b = lobby_of(&b, &bob).await;
    let mut cleos_on_b = lobby_of(&b, &cleo).await;
    a.post(FRIENDS, Some(&ann), json!({"player_id": bob_id})).await;
    let m = bobs_on_b.next().await.unwrap();
    assert_eq!(m, json!({"type": "friend", "event": "requested", "player": {"id": ann_id, "name": "Ann"}}));
    assert_eq!(next_soon(&mut cleos_on_b).await, None, "not Cleo's");
    b.post(FRIENDS, Some(&bob), json!({"player_id": ann_id})).await;
    // Bob's socket is on B; A knows it from the database.
    let mut online = false;
    for _ in 0..50 {
        online = a.get(FRIENDS, Some(&ann)).await.json["friends"][0]["online"] == true;
        if online {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(online, "Bob's socket on B shows him online on A");
}
