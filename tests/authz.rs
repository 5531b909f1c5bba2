//! The authorization matrix over real HTTP and WebSocket, on both stores: for every route, what
//! an anonymous caller, a caller with an unknown token, a spectator (signed up, no seat), a seat
//! holder and the host may do, on public and private tables. Also: invite codes are long enough
//! to be unguessable, and the dice seed appears nowhere before the game ends.

mod common;

use common::{Db, TestServer, spec};
use futures_util::{SinkExt, StreamExt};
use reqwest::Method;
use serde_json::{Value, json};
use std::{collections::BTreeSet, time::Duration};
use tokio_tungstenite::{
    MaybeTlsStream, WebSocketStream, connect_async,
    tungstenite::{Message, client::IntoClientRequest},
};

both_stores!(
    identity_routes_need_a_known_token,
    token_routes_are_the_callers_own,
    public_routes_ignore_who_asks,
    public_lobby_routes_by_role,
    private_lobby_routes_by_role,
    play_routes_by_role,
    private_play_routes_by_role,
    events_socket_by_role,
    invite_codes_are_unguessable,
    the_seed_stays_secret_until_the_game_ends,
    a_profile_reads_who_asks,
    chat_and_moderation_routes_by_role,
);

/// A well-formed token no player has.
const UNKNOWN: &str = "ldo_0000000000000000000000000000000000000000000000000000000000000000";

/// Every route of the spec, each covered by a test below.
const COVERED: &[(&str, &str)] = &[
    ("GET", "/health"),
    ("GET", "/ready"),
    ("GET", "/openapi.json"),
    ("GET", "/asyncapi.json"),
    ("GET", "/docs"),
    ("GET", "/docs/{file}"),
    ("GET", "/"),
    ("GET", "/web/{file}"),
    ("GET", "/metrics"),
    ("GET", "/v1/games"),
    ("POST", "/v1/players"),
    ("GET", "/v1/players/me"),
    ("POST", "/v1/players/me/tokens"),
    ("GET", "/v1/players/me/tokens"),
    ("DELETE", "/v1/players/me/tokens/{id}"),
    ("POST", "/v1/players/me/logout"),
    ("POST", "/v1/tables"),
    ("GET", "/v1/tables"),
    ("GET", "/v1/tables/{id}"),
    ("PATCH", "/v1/tables/{id}"),
    ("POST", "/v1/tables/{id}/join"),
    ("PATCH", "/v1/tables/{id}/seats/me"),
    ("POST", "/v1/tables/{id}/leave"),
    ("POST", "/v1/tables/{id}/start"),
    ("GET", "/v1/invites/{code}"),
    ("POST", "/v1/tables/{id}/actions"),
    ("POST", "/v1/tables/{id}/reclaim"),
    ("GET", "/v1/tables/{id}/events"),
    ("GET", "/v1/lobby/events"),
    ("GET", "/v1/hall-of-shame"),
    ("POST", "/v1/backgammon/plays"),
    ("POST", "/v1/backgammon/hint"),
    ("GET", "/v1/tables/{id}/analysis"),
    ("POST", "/v1/quick-play"),
    ("GET", "/v1/leaderboards/{game}"),
    ("GET", "/v1/players/{id}"),
    ("GET", "/v1/players/{id}/games"),
    ("POST", "/v1/tables/{id}/rematch"),
    ("GET", "/v1/tables/{id}/rematch"),
    ("GET", "/v1/tables/{id}/log"),
    ("GET", "/v1/tables/{id}/record"),
    ("GET", "/v1/players/{id}/luck"),
    ("GET", "/v1/fairness"),
    ("GET", "/v1/players/me/dice"),
    ("GET", "/v1/tables/{id}/history"),
    ("GET", "/.well-known/luddo-history-key"),
    ("GET", "/v1/tables/{id}/chat"),
    ("POST", "/v1/tables/{id}/chat"),
    ("PATCH", "/v1/tables/{id}/chat"),
    ("GET", "/v1/players/me/mutes"),
    ("PUT", "/v1/players/me/mutes/{player_id}"),
    ("DELETE", "/v1/players/me/mutes/{player_id}"),
    ("POST", "/v1/reports"),
    ("GET", "/v1/admin/reports"),
    ("POST", "/v1/admin/reports/{id}/close"),
    ("POST", "/v1/admin/tables/{id}/chat/{n}/hide"),
    ("POST", "/v1/admin/players/{id}/mute"),
    ("DELETE", "/v1/admin/players/{id}/mute"),
    ("POST", "/v1/admin/players/{id}/ban"),
    ("DELETE", "/v1/admin/players/{id}/ban"),
    ("GET", "/v1/admin/log"),
    ("POST", "/v1/players/me/friends"),
    ("GET", "/v1/players/me/friends"),
    ("DELETE", "/v1/players/me/friends/{player_id}"),
    ("GET", "/v1/players/me/blocks"),
    ("PUT", "/v1/players/me/blocks/{player_id}"),
    ("DELETE", "/v1/players/me/blocks/{player_id}"),
    ("POST", "/v1/challenges"),
    ("GET", "/v1/challenges"),
    ("GET", "/v1/challenges/{id}"),
    ("DELETE", "/v1/challenges/{id}"),
    ("POST", "/v1/challenges/{id}/accept"),
    ("POST", "/v1/challenges/{id}/decline"),
];

#[test]
fn the_matrix_covers_every_route_of_the_spec() {
    let mut in_spec = BTreeSet::new();
    for (path, item) in spec::spec()["paths"].as_object().unwrap() {
        for m in ["get", "post", "put", "patch", "delete"] {
            if item.get(m).is_some() {
                in_spec.insert((m.to_ascii_uppercase(), path.clone()));
            }
        }
    }
    let covered: BTreeSet<_> = COVERED.iter().map(|(m, p)| (m.to_string(), p.to_string())).collect();
    assert_eq!(in_spec, covered, "add the new route to the authorization matrix");
}

/// A table and the people around it.
struct Cast {
    /// Created the table; seat 0.
    host: String,
    /// Holds seat 1; not the host.
    seated: String,
    /// Signed up, no seat at this table.
    spectator: String,
    table: String,
    /// The invite code, for private tables.
    code: Option<String>,
}

/// A 3-seat Luddo table with the host in seat 0 and a player in seat 1 (seat 2 stays free).
async fn cast(s: &TestServer, visibility: &str) -> Cast {
    let (_, host) = s.player("Host").await;
    let (_, seated) = s.player("Seated").await;
    let (_, spectator) = s.player("Spectator").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 3, "visibility": visibility})).await;
    let table = t["id"].as_str().unwrap().to_string();
    let code = t["invite_code"].as_str().map(String::from);
    // A public table's join names no invite code (null is not absence: the spec says a string).
    let body = match &code {
        Some(code) => json!({"seat": 1, "invite_code": code}),
        None => json!({"seat": 1}),
    };
    let r = s.post(&format!("/v1/tables/{table}/join"), Some(&seated), body).await;
    assert_eq!(r.status, 200, "{}", r.json);
    Cast { host, seated, spectator, table, code }
}

async fn start(s: &TestServer, c: &Cast) -> Value {
    let r = s
        .post(&format!("/v1/tables/{}/start", c.table), Some(&c.host), json!({"fill_with_bots": true}))
        .await;
    assert_eq!(r.status, 200, "{}", r.json);
    r.json
}

async fn identity_routes_need_a_known_token(db: Db) {
    let s = TestServer::start(db).await;
    let (id, token) = s.player("Ann").await;
    s.get("/v1/players/me", None).await.assert_problem(401, "unauthorized");
    s.get("/v1/players/me", Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
    let me = s.get("/v1/players/me", Some(&token)).await;
    assert_eq!(me.json["id"], id);
    let body = json!({"game": "luddo", "seat_count": 2});
    s.post("/v1/tables", None, body.clone()).await.assert_problem(401, "unauthorized");
    s.post("/v1/tables", Some(UNKNOWN), body.clone()).await.assert_problem(401, "unauthorized");
    assert_eq!(s.post("/v1/tables", Some(&token), body).await.status, 201);
    let quick = json!({"game": "luddo", "seats": 2});
    s.post("/v1/quick-play", None, quick.clone()).await.assert_problem(401, "unauthorized");
    s.post("/v1/quick-play", Some(UNKNOWN), quick.clone()).await.assert_problem(401, "unauthorized");
    assert_eq!(s.post("/v1/quick-play", Some(&token), quick).await.status, 201);
    s.get("/v1/players/me/dice", None).await.assert_problem(401, "unauthorized");
    s.get("/v1/players/me/dice", Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
    assert_eq!(s.get("/v1/players/me/dice", Some(&token)).await.status, 200);
    // Friends and blocks are the caller's own: a known token, always.
    let (other, _) = s.player("Bob").await;
    let friends = "/v1/players/me/friends";
    let friend = format!("{friends}/{other}");
    let blocks = "/v1/players/me/blocks";
    let block = format!("{blocks}/{other}");
    for who in [None, Some(UNKNOWN)] {
        s.post(friends, who, json!({"player_id": other})).await.assert_problem(401, "unauthorized");
        s.get(friends, who).await.assert_problem(401, "unauthorized");
        s.call(Method::DELETE, &friend, who, None).await.assert_problem(401, "unauthorized");
        s.get(blocks, who).await.assert_problem(401, "unauthorized");
        s.call(Method::PUT, &block, who, None).await.assert_problem(401, "unauthorized");
        s.call(Method::DELETE, &block, who, None).await.assert_problem(401, "unauthorized");
    }
    assert_eq!(s.post(friends, Some(&token), json!({"player_id": other})).await.status, 201);
    assert_eq!(s.get(friends, Some(&token)).await.status, 200);
    assert_eq!(s.call(Method::DELETE, &friend, Some(&token), None).await.status, 204);
    assert_eq!(s.call(Method::PUT, &block, Some(&token), None).await.status, 204);
    assert_eq!(s.get(blocks, Some(&token)).await.status, 200);
    assert_eq!(s.call(Method::DELETE, &block, Some(&token), None).await.status, 204);
    // Challenges: a known token; one challenge is seen and answered by the players it names
    // alone, and withdrawn by its challenger alone.
    let challenges = "/v1/challenges";
    let body = json!({"to": [other], "table": {"game": "snakes", "seat_count": 2}});
    let (_, stranger) = s.player("Stranger").await;
    let c = s.post(challenges, Some(&token), body.clone()).await;
    assert_eq!(c.status, 201, "{}", c.json);
    let one = format!("{challenges}/{}", c.json["id"].as_str().unwrap());
    for who in [None, Some(UNKNOWN)] {
        s.post(challenges, who, body.clone()).await.assert_problem(401, "unauthorized");
        s.get(challenges, who).await.assert_problem(401, "unauthorized");
        s.get(&one, who).await.assert_problem(401, "unauthorized");
        s.call(Method::DELETE, &one, who, None).await.assert_problem(401, "unauthorized");
        s.post(&format!("{one}/accept"), who, json!({})).await.assert_problem(401, "unauthorized");
        s.post(&format!("{one}/decline"), who, json!({})).await.assert_problem(401, "unauthorized");
    }
    s.get(&one, Some(&stranger)).await.assert_problem(404, "not_found");
    s.call(Method::DELETE, &one, Some(&stranger), None).await.assert_problem(404, "not_found");
    s.post(&format!("{one}/accept"), Some(&stranger), json!({})).await.assert_problem(404, "not_found");
    s.post(&format!("{one}/decline"), Some(&stranger), json!({})).await.assert_problem(404, "not_found");
    s.post(&format!("{one}/accept"), Some(&token), json!({})).await.assert_problem(404, "not_found");
    assert_eq!(s.get(challenges, Some(&stranger)).await.json, json!({"incoming": [], "outgoing": []}));
    assert_eq!(s.get(&one, Some(&token)).await.status, 200);
    assert_eq!(s.call(Method::DELETE, &one, Some(&token), None).await.status, 204);
}

/// The token routes need a known token and act on the caller's tokens alone: another player's
/// token id is unknown (404), never revoked.
async fn token_routes_are_the_callers_own(db: Db) {
    let s = TestServer::start(db).await;
    let (_, ann) = s.player("Ann").await;
    let (_, bob) = s.player("Bob").await;
    let created = s.post("/v1/players/me/tokens", Some(&ann), json!({})).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let id = created.json["id"].as_str().unwrap();
    let one = format!("/v1/players/me/tokens/{id}");
    for who in [None, Some(UNKNOWN)] {
        s.post("/v1/players/me/tokens", who, json!({})).await.assert_problem(401, "unauthorized");
        s.get("/v1/players/me/tokens", who).await.assert_problem(401, "unauthorized");
        s.call(Method::DELETE, &one, who, None).await.assert_problem(401, "unauthorized");
        s.post("/v1/players/me/logout", who, json!({})).await.assert_problem(401, "unauthorized");
    }
    s.call(Method::DELETE, &one, Some(&bob), None).await.assert_problem(404, "not_found");
    let bobs = s.get("/v1/players/me/tokens", Some(&bob)).await;
    assert_eq!(bobs.json["tokens"].as_array().unwrap().len(), 1, "{}", bobs.json);
    assert_eq!(s.call(Method::DELETE, &one, Some(&ann), None).await.status, 204);
}

async fn public_routes_ignore_who_asks(db: Db) {
    let s = TestServer::start(db).await;
    let (_, token) = s.player("Ann").await;
    let plays = json!({"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]});
    for who in [None, Some(token.as_str()), Some(UNKNOWN)] {
        assert_eq!(s.get("/health", who).await.status, 200);
        assert_eq!(s.get("/ready", who).await.status, 200);
        assert_eq!(s.get("/openapi.json", who).await.status, 200);
        assert_eq!(s.get("/asyncapi.json", who).await.status, 200);
        for page in ["/docs", "/docs/init.js", "/", "/web/app.js"] {
            // Not JSON: asked without the JSON-reading helper.
            let mut request = s.client.get(format!("{}{page}", s.base));
            if let Some(token) = who {
                request = request.bearer_auth(token);
            }
            assert_eq!(request.send().await.unwrap().status(), 200, "{page}");
        }
        // Operator data, no player's: no token needed, none refused (LUDDO_METRICS turns it off).
        let metrics = common::metrics::scrape_as(&s, who).await;
        assert!(metrics.names().contains("luddo_http_requests_total"));
        assert_eq!(s.get("/v1/games", who).await.status, 200);
        assert_eq!(s.get("/.well-known/luddo-history-key", who).await.status, 200);
        assert_eq!(s.get("/v1/tables", who).await.status, 200);
        assert_eq!(s.get("/v1/hall-of-shame", who).await.status, 200);
        assert_eq!(s.get("/v1/leaderboards/luddo", who).await.status, 200);
        assert_eq!(s.get("/v1/fairness", who).await.status, 200);
        assert_eq!(s.post("/v1/backgammon/plays", who, plays.clone()).await.status, 200);
        // Sign-up needs no token; one sent along is ignored.
        assert_eq!(s.post("/v1/players", who, json!({"name": "New"})).await.status, 201);
    }
}

/// A profile counts private tables for the player alone, so it reads who asks: anyone may,
/// and an unknown token is refused, never taken for a stranger.
async fn a_profile_reads_who_asks(db: Db) {
    let s = TestServer::start(db).await;
    let (ann, token) = s.player("Ann").await;
    for path in
        [format!("/v1/players/{ann}"), format!("/v1/players/{ann}/games"), format!("/v1/players/{ann}/luck")]
    {
        assert_eq!(s.get(&path, None).await.status, 200);
        assert_eq!(s.get(&path, Some(&token)).await.status, 200);
        s.get(&path, Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
    }
}

async fn public_lobby_routes_by_role(db: Db) {
    let s = TestServer::start(db).await;
    let c = cast(&s, "public").await;
    let t = format!("/v1/tables/{}", c.table);

    // Looking: anyone, but an unknown token is an error, never anonymity.
    for who in [None, Some(&c.spectator), Some(&c.seated), Some(&c.host)] {
        let r = s.get(&t, who.map(String::as_str)).await;
        assert_eq!(r.status, 200);
        assert!(r.json.get("invite_code").is_none());
    }
    s.get(&t, Some(UNKNOWN)).await.assert_problem(401, "unauthorized");

    // Changing settings: the host only.
    let party = || Some(json!({"party": true}));
    s.call(Method::PATCH, &t, None, party()).await.assert_problem(401, "unauthorized");
    s.call(Method::PATCH, &t, Some(UNKNOWN), party()).await.assert_problem(401, "unauthorized");
    s.call(Method::PATCH, &t, Some(&c.spectator), party()).await.assert_problem(403, "not_host");
    s.call(Method::PATCH, &t, Some(&c.seated), party()).await.assert_problem(403, "not_host");
    assert_eq!(s.call(Method::PATCH, &t, Some(&c.host), party()).await.status, 200);

    // Joining: any signed-up player.
    let join = format!("{t}/join");
    s.post(&join, None, json!({})).await.assert_problem(401, "unauthorized");
    s.post(&join, Some(UNKNOWN), json!({})).await.assert_problem(401, "unauthorized");
    s.post(&join, Some(&c.seated), json!({})).await.assert_problem(409, "already_seated");

    // A client seed: only someone seated.
    let seat = format!("{t}/seats/me");
    let seed = || Some(json!({"client_seed": "mine"}));
    s.call(Method::PATCH, &seat, None, seed()).await.assert_problem(401, "unauthorized");
    s.call(Method::PATCH, &seat, Some(UNKNOWN), seed()).await.assert_problem(401, "unauthorized");
    s.call(Method::PATCH, &seat, Some(&c.spectator), seed()).await.assert_problem(409, "not_seated");
    assert_eq!(s.call(Method::PATCH, &seat, Some(&c.seated), seed()).await.status, 200);
    assert_eq!(s.call(Method::PATCH, &seat, Some(&c.host), seed()).await.status, 200);

    // Leaving: only someone seated.
    let leave = format!("{t}/leave");
    s.call(Method::POST, &leave, None, None).await.assert_problem(401, "unauthorized");
    s.call(Method::POST, &leave, Some(UNKNOWN), None).await.assert_problem(401, "unauthorized");
    s.call(Method::POST, &leave, Some(&c.spectator), None).await.assert_problem(409, "not_seated");

    // Starting: the host only.
    let start_path = format!("{t}/start");
    let body = json!({"fill_with_bots": true});
    s.post(&start_path, None, body.clone()).await.assert_problem(401, "unauthorized");
    s.post(&start_path, Some(UNKNOWN), body.clone()).await.assert_problem(401, "unauthorized");
    s.post(&start_path, Some(&c.spectator), body.clone()).await.assert_problem(403, "not_host");
    s.post(&start_path, Some(&c.seated), body.clone()).await.assert_problem(403, "not_host");

    // The seated player may leave, and the spectator then join.
    assert_eq!(s.call(Method::POST, &leave, Some(&c.seated), None).await.status, 200);
    assert_eq!(s.post(&join, Some(&c.spectator), json!({})).await.status, 200);
    assert_eq!(s.post(&start_path, Some(&c.host), body).await.status, 200);
}

async fn private_lobby_routes_by_role(db: Db) {
    let s = TestServer::start(db).await;
    let c = cast(&s, "private").await;
    let code = c.code.clone().expect("a private table has an invite code");
    let t = format!("/v1/tables/{}", c.table);

    // Not listed in the lobby, whatever the filter.
    for q in ["", "?status=open", "?game=luddo", "?free_seats=true"] {
        let page = s.get(&format!("/v1/tables{q}"), None).await;
        assert!(page.json["tables"].as_array().unwrap().iter().all(|x| x["id"] != c.table.as_str()));
    }

    // Anyone without a seat or the code gets the same 404 as for no table at all.
    s.get(&t, None).await.assert_problem(404, "table_not_found");
    s.get(&t, Some(&c.spectator)).await.assert_problem(404, "table_not_found");
    s.get(&format!("{t}?invite_code=WRONG"), Some(&c.spectator)).await.assert_problem(404, "table_not_found");
    s.get(&t, Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
    // The code opens it, without revealing the code to a non-member.
    for who in [None, Some(c.spectator.as_str())] {
        let r = s.get(&format!("{t}?invite_code={code}"), who).await;
        assert_eq!(r.status, 200);
        assert!(r.json.get("invite_code").is_none());
    }
    for who in [&c.seated, &c.host] {
        let r = s.get(&t, Some(who)).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.json["invite_code"], code.as_str(), "members see the code");
    }
    // Its log and its record: the same rule.
    for log in [format!("{t}/log"), format!("{t}/record")] {
        s.get(&log, None).await.assert_problem(404, "table_not_found");
        s.get(&log, Some(&c.spectator)).await.assert_problem(404, "table_not_found");
        s.get(&log, Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
        assert_eq!(s.get(&format!("{log}?invite_code={code}"), None).await.status, 200);
        for who in [&c.seated, &c.host] {
            assert_eq!(s.get(&log, Some(who)).await.status, 200);
        }
    }
    // Its history proof: the same rule (and none before the finish).
    let history = format!("{t}/history");
    s.get(&history, None).await.assert_problem(404, "table_not_found");
    s.get(&history, Some(&c.spectator)).await.assert_problem(404, "table_not_found");
    s.get(&history, Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
    s.get(&format!("{history}?invite_code={code}"), None).await.assert_problem(409, "table_not_finished");
    for who in [&c.seated, &c.host] {
        s.get(&history, Some(who)).await.assert_problem(409, "table_not_finished");
    }
    // A rematch: not a stranger's business (404, as the table), a player's only after the finish.
    let rematch = format!("{t}/rematch");
    s.post(&rematch, None, json!({})).await.assert_problem(401, "unauthorized");
    s.post(&rematch, Some(UNKNOWN), json!({})).await.assert_problem(401, "unauthorized");
    s.post(&rematch, Some(&c.spectator), json!({})).await.assert_problem(404, "table_not_found");
    s.post(&rematch, Some(&c.seated), json!({})).await.assert_problem(409, "game_not_over");
    // Where it stands: the table's own rule (a private table's players, or its invite code).
    s.get(&rematch, None).await.assert_problem(404, "table_not_found");
    s.get(&rematch, Some(&c.spectator)).await.assert_problem(404, "table_not_found");
    s.get(&rematch, Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
    s.get(&format!("{rematch}?invite_code={code}"), None).await.assert_problem(409, "game_not_over");
    s.get(&rematch, Some(&c.seated)).await.assert_problem(409, "game_not_over");

    // The invite route: the code is the key.
    let r = s.get(&format!("/v1/invites/{code}"), None).await;
    assert_eq!(r.json["id"], c.table.as_str());
    let r = s.get(&format!("/v1/invites/{}", code.to_ascii_lowercase()), Some(&c.spectator)).await;
    assert_eq!(r.json["id"], c.table.as_str());
    s.get(&format!("/v1/invites/{code}"), Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
    s.get("/v1/invites/0000000000000000", None).await.assert_problem(404, "not_found");
    // What cannot be an invite code is a 404 too, never a database error (PostgreSQL refuses NUL
    // in text): wrong length, characters outside the alphabet, percent-encoded bytes.
    for bad in [
        "%00",
        "%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00",
        "WRONG",
        "000000000000000I",
        "%C3%A9",
        "0000000000000000000",
    ] {
        s.get(&format!("/v1/invites/{bad}"), None).await.assert_problem(404, "not_found");
    }

    // Non-members cannot tell the table exists, whatever they try.
    let patch = s.call(Method::PATCH, &t, Some(&c.spectator), Some(json!({"party": true}))).await;
    patch.assert_problem(404, "table_not_found");
    s.call(Method::PATCH, &t, Some(&c.seated), Some(json!({"party": true})))
        .await
        .assert_problem(403, "not_host");
    s.post(&format!("{t}/join"), Some(&c.spectator), json!({})).await.assert_problem(404, "table_not_found");
    s.post(&format!("{t}/join"), Some(&c.spectator), json!({"invite_code": "WRONG"}))
        .await
        .assert_problem(404, "table_not_found");
    s.call(Method::POST, &format!("{t}/leave"), Some(&c.spectator), None)
        .await
        .assert_problem(404, "table_not_found");
    s.call(Method::PATCH, &format!("{t}/seats/me"), Some(&c.spectator), Some(json!({"client_seed": "x"})))
        .await
        .assert_problem(404, "table_not_found");
    let r = s
        .call(Method::PATCH, &format!("{t}/seats/me"), Some(&c.seated), Some(json!({"client_seed": "x"})))
        .await;
    assert_eq!(r.status, 200, "{}", r.json);
    let body = json!({"fill_with_bots": true});
    s.post(&format!("{t}/start"), Some(&c.spectator), body.clone())
        .await
        .assert_problem(404, "table_not_found");
    s.post(&format!("{t}/start"), Some(&c.seated), body.clone()).await.assert_problem(403, "not_host");
    s.post(&format!("{t}/start"), None, body.clone()).await.assert_problem(401, "unauthorized");

    // With the code, the spectator joins and becomes a member.
    let r = s.post(&format!("{t}/join"), Some(&c.spectator), json!({"invite_code": code})).await;
    assert_eq!(r.status, 200);
    assert_eq!(s.get(&t, Some(&c.spectator)).await.status, 200);
    assert_eq!(s.post(&format!("{t}/start"), Some(&c.host), body).await.status, 200);
    // Once it runs, the invite no longer seats anyone.
    let (_, late) = s.player("Late").await;
    s.post(&format!("{t}/join"), Some(&late), json!({"invite_code": code}))
        .await
        .assert_problem(409, "table_not_open");
}

/// The seat to act and a legal action for it, as the host sees the table.
async fn turn(s: &TestServer, table: &str, token: &str) -> (i64, Value) {
    let r = s.get(&format!("/v1/tables/{table}"), Some(token)).await;
    let play = &r.json["play"];
    (play["seq"].as_i64().unwrap(), play.clone())
}

async fn play_routes_by_role(db: Db) {
    let s = TestServer::start(db).await;
    let c = cast(&s, "public").await;
    let t = format!("/v1/tables/{}", c.table);
    let act = format!("{t}/actions");
    let reclaim = format!("{t}/reclaim");

    // Before the start: nothing to play.
    let roll = |seq: i64| json!({"action": {"type": "roll"}, "seq": seq});
    s.post(&act, Some(&c.host), roll(0)).await.assert_problem(409, "table_not_started");

    start(&s, &c).await;
    let (seq, play) = turn(&s, &c.table, &c.host).await;
    let to_act = play["to_act"].as_u64().unwrap() as usize;
    let (actor, waiting) = if to_act == 0 { (&c.host, &c.seated) } else { (&c.seated, &c.host) };

    s.post(&act, None, roll(seq)).await.assert_problem(401, "unauthorized");
    s.post(&act, Some(UNKNOWN), roll(seq)).await.assert_problem(401, "unauthorized");
    s.post(&act, Some(&c.spectator), roll(seq)).await.assert_problem(403, "not_your_seat");
    s.post(&act, Some(waiting), roll(seq)).await.assert_problem(409, "not_your_turn");
    // The spectator sees the game but is offered nothing.
    let seen = s.get(&t, Some(&c.spectator)).await;
    assert_eq!(seen.json["play"]["legal_actions"], json!([]));
    assert!(seen.json["play"].get("your_seat").is_none());
    let seen = s.get(&t, None).await;
    assert_eq!(seen.json["play"]["legal_actions"], json!([]));
    let ok = s.post(&act, Some(actor), roll(seq)).await;
    assert_eq!(ok.status, 200, "{}", ok.json);

    // Reclaim: only a seat holder, and only from a bot.
    s.call(Method::POST, &reclaim, None, None).await.assert_problem(401, "unauthorized");
    s.call(Method::POST, &reclaim, Some(UNKNOWN), None).await.assert_problem(401, "unauthorized");
    s.call(Method::POST, &reclaim, Some(&c.spectator), None).await.assert_problem(403, "not_your_seat");
    s.call(Method::POST, &reclaim, Some(&c.seated), None).await.assert_problem(409, "not_bot_controlled");
    s.call(Method::POST, &reclaim, Some(&c.host), None).await.assert_problem(409, "not_bot_controlled");

    // The lobby routes are closed once the game runs, for everyone including the host.
    s.call(Method::PATCH, &t, Some(&c.host), Some(json!({"party": true})))
        .await
        .assert_problem(409, "table_not_open");
    s.post(&format!("{t}/join"), Some(&c.spectator), json!({})).await.assert_problem(409, "table_not_open");
    s.call(Method::POST, &format!("{t}/leave"), Some(&c.seated), None)
        .await
        .assert_problem(409, "table_not_open");
    s.post(&format!("{t}/start"), Some(&c.host), json!({})).await.assert_problem(409, "table_not_open");
}

async fn private_play_routes_by_role(db: Db) {
    let s = TestServer::start(db).await;
    let c = cast(&s, "private").await;
    start(&s, &c).await;
    let t = format!("/v1/tables/{}", c.table);
    let (seq, _) = turn(&s, &c.table, &c.host).await;
    let roll = json!({"action": {"type": "roll"}, "seq": seq});
    // A non-member cannot even learn that the table exists, with or without the code.
    s.get(&t, Some(&c.spectator)).await.assert_problem(404, "table_not_found");
    s.post(&format!("{t}/actions"), Some(&c.spectator), roll.clone())
        .await
        .assert_problem(404, "table_not_found");
    s.call(Method::POST, &format!("{t}/reclaim"), Some(&c.spectator), None)
        .await
        .assert_problem(404, "table_not_found");
    s.post(&format!("{t}/actions"), None, roll).await.assert_problem(401, "unauthorized");
    let code = c.code.as_deref().unwrap();
    let r = s.get(&format!("{t}?invite_code={code}"), Some(&c.spectator)).await;
    assert_eq!(r.status, 200, "the code still lets one look");
    assert_eq!(r.json["play"]["legal_actions"], json!([]));
    for who in [&c.host, &c.seated] {
        let r = s.get(&t, Some(who)).await;
        assert!(r.json["play"]["your_seat"].is_u64());
    }
}

type Ws = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the events socket; `Err(status)` when the upgrade is refused (a status the spec
/// documents for the route).
async fn socket(s: &TestServer, table: &str, query: &str, token: Option<&str>) -> Result<Ws, u16> {
    let url = format!("{}/v1/tables/{table}/events{query}", s.base.replacen("http", "ws", 1));
    let mut request = url.into_client_request().unwrap();
    if let Some(t) = token {
        request.headers_mut().insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    match connect_async(request).await {
        Ok((ws, _)) => Ok(ws),
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            let status = resp.status().as_u16();
            spec::documented_response(&Method::GET, &format!("/v1/tables/{table}/events"), status)
                .unwrap_or_else(|e| panic!("{e}"));
            Err(status)
        }
        Err(e) => panic!("websocket: {e}"),
    }
}

/// The next text message, skipping presence updates and pings.
async fn next_text(ws: &mut Ws) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(10), ws.next()).await.ok()?? {
            Ok(Message::Text(t)) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                if v["type"] != "presence" {
                    return Some(v);
                }
            }
            Ok(Message::Close(_)) | Err(_) => return None,
            Ok(_) => {}
        }
    }
}

/// Sends an action over the socket and returns the reply.
async fn ws_act(ws: &mut Ws, seq: i64) -> Value {
    let msg = json!({"type": "action", "id": 7, "seq": seq, "action": {"type": "roll"}});
    ws.send(Message::Text(msg.to_string().into())).await.unwrap();
    loop {
        let v = next_text(ws).await.expect("a reply");
        if v["type"] == "reply" {
            return v;
        }
    }
}

async fn events_socket_by_role(db: Db) {
    let s = TestServer::start(db).await;
    let public = cast(&s, "public").await;
    let private = cast(&s, "private").await;

    // Before the start the socket follows the lobby's entries: anyone's at a public table, a
    // private table's players' only (an invite code is not enough to watch).
    assert!(socket(&s, &public.table, "", None).await.is_ok());
    let stranger = format!("?token={}", private.spectator);
    assert_eq!(socket(&s, &private.table, &stranger, None).await.err(), Some(404));
    assert_eq!(socket(&s, &private.table, "", None).await.err(), Some(404));
    assert!(socket(&s, &private.table, "", Some(&private.seated)).await.is_ok());
    // The lobby stream: anyone; an unknown token is refused as everywhere.
    let lobby = format!("{}/v1/lobby/events", s.base.replacen("http", "ws", 1));
    assert!(connect_async(lobby.clone()).await.is_ok());
    let Err(tokio_tungstenite::tungstenite::Error::Http(refused)) =
        connect_async(format!("{lobby}?token={UNKNOWN}")).await
    else {
        panic!("an unknown token is refused");
    };
    assert_eq!(refused.status().as_u16(), 401);
    start(&s, &public).await;
    start(&s, &private).await;

    // Unknown tokens are refused, in the header or the query.
    assert_eq!(socket(&s, &public.table, "", Some(UNKNOWN)).await.err(), Some(401));
    assert_eq!(socket(&s, &public.table, &format!("?token={UNKNOWN}"), None).await.err(), Some(401));

    // A public table: anyone may watch; only seat holders may act.
    let (seq, _) = turn(&s, &public.table, &public.host).await;
    let mut anon = socket(&s, &public.table, "", None).await.expect("anyone watches a public table");
    let first = next_text(&mut anon).await.unwrap();
    assert_eq!(first["type"], "entry");
    let reply = ws_act(&mut anon, seq).await;
    assert_eq!(reply["ok"], false);
    assert_eq!(reply["error"]["code"], "unauthorized");
    let mut spectator = socket(&s, &public.table, &format!("?token={}", public.spectator), None)
        .await
        .expect("a spectator watches a public table");
    let reply = ws_act(&mut spectator, seq).await;
    assert_eq!(reply["error"]["code"], "not_your_seat");
    assert_eq!(reply["error"]["status"], 403);

    // A private table: only its players, however they authenticate.
    assert_eq!(socket(&s, &private.table, "", None).await.err(), Some(404));
    assert_eq!(socket(&s, &private.table, "", Some(&private.spectator)).await.err(), Some(404));
    let q = format!("?token={}", private.spectator);
    assert_eq!(socket(&s, &private.table, &q, None).await.err(), Some(404));
    let code = private.code.as_deref().unwrap();
    let q = format!("?invite_code={code}");
    assert_eq!(socket(&s, &private.table, &q, None).await.err(), Some(400), "no such parameter");
    for who in [&private.host, &private.seated] {
        let mut ws = socket(&s, &private.table, "", Some(who)).await.expect("players watch");
        assert_eq!(next_text(&mut ws).await.unwrap()["type"], "entry");
    }
    let mut ws = socket(&s, &private.table, &format!("?token={}", private.seated), None)
        .await
        .expect("players watch with ?token=");
    assert_eq!(next_text(&mut ws).await.unwrap()["type"], "entry");
}

async fn invite_codes_are_unguessable(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    const ALPHABET: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut codes = BTreeSet::new();
    for _ in 0..8 {
        let t = s.table(&host, json!({"game": "luddo", "seat_count": 2, "visibility": "private"})).await;
        let code = t["invite_code"].as_str().unwrap().to_string();
        assert!(code.chars().all(|ch| ALPHABET.contains(ch)), "{code}");
        // log2(32) = 5 bits a character.
        assert!(code.len() * 5 >= 64, "{code} carries fewer than 64 bits");
        codes.insert(code);
    }
    // A table made private later gets a code of the same kind.
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 2})).await;
    let r = s
        .call(
            Method::PATCH,
            &format!("/v1/tables/{}", t["id"].as_str().unwrap()),
            Some(&host),
            Some(json!({"visibility": "private"})),
        )
        .await;
    let code = r.json["invite_code"].as_str().unwrap().to_string();
    assert!(code.len() * 5 >= 64 && code.chars().all(|ch| ALPHABET.contains(ch)), "{code}");
    codes.insert(code);
    assert_eq!(codes.len(), 9, "codes repeat: {codes:?}");
}

async fn the_seed_stays_secret_until_the_game_ends(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    // Snakes on a board whose entry square climbs to 99: with these dice the host wins in two
    // throws (whatever the dice, the loop below plays the game to its end).
    let board = json!({"ladders": [[6, 99]], "snakes": []});
    let t = s
        .table(
            &host,
            json!({"game": "snakes", "seat_count": 2, "options": {"board": board}, "dice": [6, 1, 6, 1]}),
        )
        .await;
    let id = t["id"].as_str().unwrap().to_string();
    // Everything anyone could see, in order, with whether the game was over by then.
    let mut seen: Vec<(bool, String)> = vec![(false, t.to_string())];
    let started =
        s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    seen.push((false, started.json.to_string()));
    let mut watcher = socket(&s, &id, "", None).await.expect("watch");

    let mut finished = false;
    for _ in 0..500 {
        let r = s.get(&format!("/v1/tables/{id}"), Some(&host)).await;
        finished = r.json["status"] == "finished";
        seen.push((finished, r.json.to_string()));
        let anon = s.get(&format!("/v1/tables/{id}"), None).await;
        seen.push((anon.json["status"] == "finished", anon.json.to_string()));
        let record = s.get(&format!("/v1/tables/{id}/record"), None).await;
        seen.push((record.json["table"]["status"] == "finished", record.json.to_string()));
        if finished {
            break;
        }
        let play = &r.json["play"];
        if play["to_act"] == play["your_seat"]
            && let Some(action) = play["legal_actions"].get(0)
        {
            let body = json!({"action": action, "seq": play["seq"]});
            let ok = s.post(&format!("/v1/tables/{id}/actions"), Some(&host), body).await;
            assert_eq!(ok.status, 200, "{}", ok.json);
            // Engine events only: never the seed, even for the winning move.
            seen.push((false, ok.json.to_string()));
        }
        let lobby = s.get("/v1/tables?status=playing", None).await;
        seen.push((false, lobby.json.to_string()));
    }
    assert!(finished, "the game did not end");
    let seed = s.get(&format!("/v1/tables/{id}"), None).await.json["seed"].as_str().unwrap().to_string();
    assert_eq!(seed.len(), 64);

    // The socket: every entry before `finish` keeps the seed; the finish entry reveals it.
    let mut revealed = false;
    while let Some(m) = next_text(&mut watcher).await {
        let text = m.to_string();
        if m["action"]["type"] == "finish" {
            assert!(text.contains(&seed), "the finish entry reveals the seed");
            revealed = true;
            break;
        }
        assert!(!text.contains(&seed), "the seed leaked before the end: {text}");
    }
    assert!(revealed, "no finish entry");
    // A replay of the whole log after the end tells the same story.
    let mut replay = socket(&s, &id, "?since=0", None).await.expect("replay");
    while let Some(m) = next_text(&mut replay).await {
        if m["action"]["type"] == "finish" {
            break;
        }
        assert!(!m.to_string().contains(&seed), "the seed is in a logged entry before the end: {m}");
    }
    for (over, text) in &seen {
        if !over {
            assert!(!text.contains(&seed), "the seed leaked before the end: {text}");
        }
    }
    // Hex in any case: also not upper-cased.
    let upper = seed.to_ascii_uppercase();
    assert!(seen.iter().filter(|(over, _)| !over).all(|(_, t)| !t.contains(&upper)));
}

/// Chat: seated players post and read, the host alone sets it, strangers to a private table
/// are told it does not exist; mutes and reports need a token; the admin routes are refused to
/// every player who is not an admin.
async fn chat_and_moderation_routes_by_role(db: Db) {
    let s = TestServer::start(db).await;
    for visibility in ["public", "private"] {
        let c = cast(&s, visibility).await;
        let chat = format!("/v1/tables/{}/chat", c.table);
        let say = json!({"emote": "hello"});
        for who in [None, Some(UNKNOWN)] {
            s.post(&chat, who, say.clone()).await.assert_problem(401, "unauthorized");
            let settings = Some(json!({"text": false}));
            s.call(Method::PATCH, &chat, who, settings).await.assert_problem(401, "unauthorized");
        }
        s.get(&chat, Some(UNKNOWN)).await.assert_problem(401, "unauthorized");
        for who in [&c.host, &c.seated] {
            assert_eq!(s.post(&chat, Some(who), say.clone()).await.status, 201, "{visibility}");
            assert_eq!(s.get(&chat, Some(who)).await.status, 200);
        }
        let settings = Some(json!({"text": true}));
        s.call(Method::PATCH, &chat, Some(&c.seated), settings.clone()).await.assert_problem(403, "not_host");
        assert_eq!(s.call(Method::PATCH, &chat, Some(&c.host), settings.clone()).await.status, 200);
        match visibility {
            "public" => {
                s.get(&chat, None).await.assert_problem(403, "not_seated");
                s.get(&chat, Some(&c.spectator)).await.assert_problem(403, "not_seated");
                s.post(&chat, Some(&c.spectator), say.clone()).await.assert_problem(403, "not_seated");
            }
            _ => {
                s.get(&chat, None).await.assert_problem(404, "table_not_found");
                s.get(&chat, Some(&c.spectator)).await.assert_problem(404, "table_not_found");
                s.post(&chat, Some(&c.spectator), say.clone()).await.assert_problem(404, "table_not_found");
                let with_code = format!("{chat}?invite_code={}", c.code.as_deref().unwrap());
                s.get(&with_code, Some(&c.spectator)).await.assert_problem(403, "not_seated");
                let r = s.call(Method::PATCH, &chat, Some(&c.spectator), settings.clone()).await;
                r.assert_problem(404, "table_not_found");
            }
        }
    }
    let (other, _) = s.player("Other").await;
    let mute = format!("/v1/players/me/mutes/{other}");
    for who in [None, Some(UNKNOWN)] {
        s.get("/v1/players/me/mutes", who).await.assert_problem(401, "unauthorized");
        s.call(Method::PUT, &mute, who, None).await.assert_problem(401, "unauthorized");
        s.call(Method::DELETE, &mute, who, None).await.assert_problem(401, "unauthorized");
        let report = json!({"player_id": other, "reason": "x"});
        s.post("/v1/reports", who, report).await.assert_problem(401, "unauthorized");
    }
    let (_, player) = s.player("Player").await;
    let id = uuid::Uuid::new_v4();
    let sanction = json!({"seconds": 60, "reason": "x"});
    for who in [None, Some(UNKNOWN), Some(player.as_str())] {
        let (status, code) =
            if who == Some(player.as_str()) { (403, "admin_only") } else { (401, "unauthorized") };
        s.get("/v1/admin/reports", who).await.assert_problem(status, code);
        s.get("/v1/admin/log", who).await.assert_problem(status, code);
        s.post(&format!("/v1/admin/reports/{id}/close"), who, json!({})).await.assert_problem(status, code);
        s.post(&format!("/v1/admin/tables/{id}/chat/1/hide"), who, json!({}))
            .await
            .assert_problem(status, code);
        for what in ["mute", "ban"] {
            let path = format!("/v1/admin/players/{other}/{what}");
            s.post(&path, who, sanction.clone()).await.assert_problem(status, code);
            s.call(Method::DELETE, &path, who, None).await.assert_problem(status, code);
        }
    }
}
