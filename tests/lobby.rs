//! The service foundation over real HTTP: health, players, the lobby, and every error path,
//! against SQLite and PostgreSQL.

mod common;

use common::{Db, TestServer, test_config};
use luddo::config::Config;
use reqwest::{Method, StatusCode};
use serde_json::json;

both_stores!(
    health_and_readiness,
    sign_up_and_who_am_i,
    bad_sign_ups_are_refused_clearly,
    malformed_bodies_never_500,
    tables_are_created_with_normalized_options,
    bad_table_requests_are_refused,
    scripted_dice_need_test_mode,
    lobby_lists_public_open_tables_with_pages_and_filters,
    private_tables_need_the_invite_code,
    joining_and_leaving,
    host_changes_settings_before_start,
    the_bot_level_is_a_table_setting_until_the_start,
    only_a_private_table_may_turn_the_home_bonus_off,
    starting_a_table,
    sign_ups_are_rate_limited,
    racing_joins_are_refused_by_name_not_in_the_databases_words,
    bodies_read_numbers_and_nulls_as_the_spec_says,
    an_empty_cursor_is_the_first_page,
    rate_limits_count_the_client_a_trusted_proxy_forwards,
    browsers_may_send_and_read_the_request_id_and_read_retry_after,
    a_player_holds_at_most_the_allowed_seats_at_waiting_tables,
    one_players_seatings_at_once_never_pass_the_waiting_seats_cap,
);

async fn health_and_readiness(db: Db) {
    let s = TestServer::start(db).await;
    let r = s.get("/health", None).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["status"], "ok");
    let r = s.get("/ready", None).await;
    assert_eq!(r.status, 200);
    assert!(r.headers.contains_key("x-request-id"));
}

async fn sign_up_and_who_am_i(db: Db) {
    let s = TestServer::start(db).await;
    let r = s.post("/v1/players", None, json!({"name": "  Ann Bonny  "})).await;
    assert_eq!(r.status, StatusCode::CREATED);
    assert_eq!(r.json["name"], "Ann Bonny");
    let token = r.json["token"].as_str().unwrap();
    assert!(token.len() >= 32);
    let me = s.get("/v1/players/me", Some(token)).await;
    assert_eq!(me.status, 200);
    assert_eq!(me.json["id"], r.json["id"]);
    assert!(me.json.get("token").is_none());
    s.get("/v1/players/me", None).await.assert_problem(401, "unauthorized");
    s.get("/v1/players/me", Some("ldo_not-a-token")).await.assert_problem(401, "unauthorized");
    let raw = s
        .client
        .get(format!("{}/v1/players/me", s.base))
        .header("authorization", "Basic abc")
        .send()
        .await
        .unwrap();
    assert_eq!(raw.status(), 401);
}

async fn bad_sign_ups_are_refused_clearly(db: Db) {
    let s = TestServer::start(db).await;
    s.post("/v1/players", None, json!({"name": "   "})).await.assert_problem(422, "invalid_name");
    s.post("/v1/players", None, json!({"name": "x".repeat(33)})).await.assert_problem(422, "invalid_name");
    s.post("/v1/players", None, json!({"name": "a\u{7}b"})).await.assert_problem(422, "invalid_name");
    s.post("/v1/players", None, json!({"name": 5})).await.assert_problem(422, "invalid_body");
    s.post("/v1/players", None, json!({"name": "Ann", "admin": true}))
        .await
        .assert_problem(422, "invalid_body");
    s.post("/v1/players", None, json!({})).await.assert_problem(422, "invalid_body");
    // 32 characters of a multi-byte script are fine.
    let r = s.post("/v1/players", None, json!({"name": "ü".repeat(32)})).await;
    assert_eq!(r.status, 201);
    // Invisible, reordering and separator characters (Unicode Cf, Zl, Zp), alone or in a name.
    for c in [
        '\u{202E}', '\u{200B}', '\u{FEFF}', '\u{2066}', '\u{2069}', '\u{00AD}', '\u{2028}', '\u{2029}',
        '\u{2060}',
    ] {
        for name in [c.to_string(), format!("A{c}nn")] {
            s.post("/v1/players", None, json!({ "name": name })).await.assert_problem(422, "invalid_name");
        }
    }
    // White space of any kind alone is no name.
    s.post("/v1/players", None, json!({"name": "\u{3000}\u{2003} "}))
        .await
        .assert_problem(422, "invalid_name");
    // Names are stored in NFC: "e" + combining acute is the same name as "é".
    let r = s.post("/v1/players", None, json!({"name": "Rene\u{0301}"})).await;
    assert_eq!(r.status, 201);
    assert_eq!(r.json["name"], "Ren\u{00E9}");
}

async fn malformed_bodies_never_500(db: Db) {
    let s = TestServer::start(db).await;
    let ct = Some("application/json");
    s.raw(Method::POST, "/v1/players", None, ct, b"{\"name\":".to_vec())
        .await
        .assert_problem(400, "malformed_json");
    s.raw(Method::POST, "/v1/players", None, ct, b"{\"name\" \"a\"}".to_vec())
        .await
        .assert_problem(400, "malformed_json");
    s.raw(Method::POST, "/v1/players", None, None, b"{\"name\":\"a\"}".to_vec())
        .await
        .assert_problem(415, "unsupported_media_type");
    s.raw(Method::POST, "/v1/players", None, Some("text/plain"), b"hi".to_vec())
        .await
        .assert_problem(415, "unsupported_media_type");
    let huge = format!("{{\"name\":\"{}\"}}", "a".repeat(s.config.max_body_bytes + 10));
    s.raw(Method::POST, "/v1/players", None, ct, huge.into_bytes())
        .await
        .assert_problem(413, "payload_too_large");
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    let (_, token) = s.player("Deep").await;
    let r = s.raw(Method::POST, "/v1/tables", Some(&token), ct, deep.into_bytes()).await;
    assert!(r.status.is_client_error(), "{}", r.status);
    let r = s.client.delete(format!("{}/v1/players", s.base)).send().await.unwrap();
    assert_eq!(r.status(), 405);
    assert_eq!(r.json::<serde_json::Value>().await.unwrap()["code"], "method_not_allowed");
    let r = s.client.get(format!("{}/v1/nothing-here", s.base)).send().await.unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(r.json::<serde_json::Value>().await.unwrap()["code"], "not_found");
}

async fn tables_are_created_with_normalized_options(db: Db) {
    let s = TestServer::start(db).await;
    let (id, token) = s.player("Host").await;
    let t = s.table(&token, json!({"game": "luddo", "seat_count": 4})).await;
    assert_eq!(t["options"], json!({"home_bonus": true}));
    assert_eq!(t["status"], "open");
    assert_eq!(t["host_id"], id.as_str());
    assert_eq!(t["seats"].as_array().unwrap().len(), 4);
    assert_eq!(t["seats"][0]["player"]["id"], id.as_str());
    assert_eq!(t["seed_commitment"].as_str().unwrap().len(), 64);
    assert!(t.get("seed").is_none(), "the seed stays secret until the end");
    assert_eq!(t["turn_seconds"], 15.0);

    let t = s
        .table(
            &token,
            json!({"game": "ludo", "seat_count": 6, "party": true, "seat": 3,
        "options": {"enter_on": [1, 6]}, "client_seed": "lucky"}),
        )
        .await;
    assert_eq!(t["options"], json!({"enter_on": [1, 6], "play_for_places": true}));
    assert_eq!(t["turn_seconds"], 30.0);
    assert_eq!(t["seats"][3]["player"]["id"], id.as_str());
    assert_eq!(t["seats"][3]["client_seed"], "lucky", "the host's seed is its seat's");
    assert!(t.get("client_seed").is_none(), "the table's client seed is fixed at the start");
    for (game, seats) in [("uckers", 2), ("uckers", 4), ("snakes", 3), ("backgammon", 2), ("luddo", 5)] {
        s.table(&token, json!({"game": game, "seat_count": seats})).await;
    }
    let got = s.get(&format!("/v1/tables/{}", t["id"].as_str().unwrap()), None).await;
    assert_eq!(got.status, 200);
    assert_eq!(got.json["id"], t["id"]);
}

async fn bad_table_requests_are_refused(db: Db) {
    let s = TestServer::start(db).await;
    let (_, token) = s.player("Host").await;
    let create = |body| s.post("/v1/tables", Some(&token), body);
    s.post("/v1/tables", None, json!({"game": "luddo", "seat_count": 4}))
        .await
        .assert_problem(401, "unauthorized");
    create(json!({"game": "chess", "seat_count": 2})).await.assert_problem(422, "unknown_game");
    create(json!({"game": "luddo", "seat_count": 7})).await.assert_problem(422, "invalid_seat_count");
    create(json!({"game": "luddo", "seat_count": 1})).await.assert_problem(422, "invalid_seat_count");
    create(json!({"game": "uckers", "seat_count": 3})).await.assert_problem(422, "invalid_seat_count");
    create(json!({"game": "backgammon", "seat_count": 4})).await.assert_problem(422, "invalid_seat_count");
    create(json!({"game": "luddo", "seat_count": 4, "options": {"turbo": 1}}))
        .await
        .assert_problem(422, "invalid_options");
    create(json!({"game": "ludo", "seat_count": 4, "options": {"enter_on": [2]}}))
        .await
        .assert_problem(422, "invalid_options");
    create(json!({"game": "luddo", "seat_count": 4, "seat": 4})).await.assert_problem(422, "invalid_seat");
    create(json!({"game": "luddo", "seat_count": "four"})).await.assert_problem(422, "invalid_body");
    create(json!({"game": "luddo", "seat_count": -1})).await.assert_problem(422, "invalid_body");
    create(json!({"game": "luddo", "seat_count": 4, "visibility": "secret"}))
        .await
        .assert_problem(422, "invalid_body");
    // A number where a word is expected is a wrong field, not malformed JSON (serde_json's
    // reader says "expected value" for it).
    let r = create(json!({"game": "luddo", "seat_count": 4, "visibility": 3})).await;
    r.assert_problem(422, "invalid_body");
    assert!(r.json["detail"].as_str().unwrap().starts_with("visibility: "), "{}", r.json);
    create(json!({"game": "luddo", "seat_count": 4, "client_seed": "x".repeat(65)}))
        .await
        .assert_problem(422, "invalid_client_seed");
    s.get("/v1/tables/not-a-uuid", None).await.assert_problem(404, "not_found");
    s.get(&format!("/v1/tables/{}", uuid::Uuid::new_v4()), None).await.assert_problem(404, "table_not_found");
    for _ in 0..luddo::lobby::MAX_OPEN_TABLES_PER_HOST {
        s.table(&token, json!({"game": "snakes", "seat_count": 2})).await;
    }
    create(json!({"game": "snakes", "seat_count": 2})).await.assert_problem(429, "too_many_tables");
}

async fn scripted_dice_need_test_mode(db: Db) {
    let s = TestServer::start_with(db, Config { test_mode: false, ..test_config() }).await;
    let (_, token) = s.player("Host").await;
    s.post("/v1/tables", Some(&token), json!({"game": "luddo", "seat_count": 2, "dice": [6, 6, 1]}))
        .await
        .assert_problem(403, "scripted_dice_disabled");
    let s = TestServer::start(db).await;
    let (_, token) = s.player("Host").await;
    s.table(&token, json!({"game": "luddo", "seat_count": 2, "dice": [6, 6, 1]})).await;
    s.post("/v1/tables", Some(&token), json!({"game": "luddo", "seat_count": 2, "dice": [7]}))
        .await
        .assert_problem(422, "invalid_dice");
}

async fn lobby_lists_public_open_tables_with_pages_and_filters(db: Db) {
    let s = TestServer::start(db).await;
    let (_, token) = s.player("Host").await;
    let mut ids = vec![];
    for i in 0..5 {
        let game = if i % 2 == 0 { "luddo" } else { "snakes" };
        ids.push(
            s.table(&token, json!({"game": game, "seat_count": 2, "party": i == 4})).await["id"].clone(),
        );
    }
    s.table(&token, json!({"game": "luddo", "seat_count": 2, "visibility": "private"})).await;
    let all = s.get("/v1/tables", None).await;
    assert_eq!(all.json["tables"].as_array().unwrap().len(), 5, "private tables are not listed");
    assert_eq!(all.json["tables"][0]["id"], ids[4], "newest first");
    assert!(all.json["tables"][0].get("invite_code").is_none());

    let mut seen = vec![];
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/tables?limit=2&cursor={c}"),
            None => "/v1/tables?limit=2".to_string(),
        };
        let page = s.get(&path, None).await;
        assert_eq!(page.status, 200);
        seen.extend(page.json["tables"].as_array().unwrap().iter().map(|t| t["id"].clone()));
        match page.json["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    ids.reverse();
    assert_eq!(seen, ids, "pages cover every table once, in order");

    let luddo = s.get("/v1/tables?game=luddo", None).await;
    assert_eq!(luddo.json["tables"].as_array().unwrap().len(), 3);
    let party = s.get("/v1/tables?party=true", None).await;
    assert_eq!(party.json["tables"].as_array().unwrap().len(), 1);
    let playing = s.get("/v1/tables?status=playing", None).await;
    assert_eq!(playing.json["tables"].as_array().unwrap().len(), 0);
    let free = s.get("/v1/tables?free_seats=true", None).await;
    assert_eq!(free.json["tables"].as_array().unwrap().len(), 5);

    s.get("/v1/tables?limit=0", None).await.assert_problem(400, "invalid_query");
    s.get("/v1/tables?limit=101", None).await.assert_problem(400, "invalid_query");
    s.get("/v1/tables?limit=abc", None).await.assert_problem(400, "invalid_query");
    s.get("/v1/tables?cursor=nope", None).await.assert_problem(400, "invalid_query");
    s.get("/v1/tables?game=chess", None).await.assert_problem(422, "unknown_game");
    s.get("/v1/tables?colour=red", None).await.assert_problem(400, "invalid_query");
}

async fn private_tables_need_the_invite_code(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (bob_id, bob) = s.player("Bob").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 4, "visibility": "private"})).await;
    let id = t["id"].as_str().unwrap();
    let code = t["invite_code"].as_str().unwrap();
    assert!(code.len() >= 13, "at least 64 bits");

    s.get(&format!("/v1/tables/{id}"), None).await.assert_problem(404, "table_not_found");
    s.get(&format!("/v1/tables/{id}"), Some(&bob)).await.assert_problem(404, "table_not_found");
    s.get(&format!("/v1/tables/{id}?invite_code=WRONG"), Some(&bob))
        .await
        .assert_problem(404, "table_not_found");
    s.post(&format!("/v1/tables/{id}/join"), Some(&bob), json!({}))
        .await
        .assert_problem(404, "table_not_found");
    s.post(&format!("/v1/tables/{id}/join"), Some(&bob), json!({"invite_code": "WRONG"}))
        .await
        .assert_problem(404, "table_not_found");

    let seen = s.get(&format!("/v1/tables/{id}?invite_code={code}"), Some(&bob)).await;
    assert_eq!(seen.status, 200);
    assert!(seen.json.get("invite_code").is_none(), "only members see the code in the table");
    let by_code = s.get(&format!("/v1/invites/{code}"), None).await;
    assert_eq!(by_code.status, 200);
    assert_eq!(by_code.json["id"], id);
    s.get("/v1/invites/NOSUCHCODE000000", None).await.assert_problem(404, "not_found");

    let joined = s.post(&format!("/v1/tables/{id}/join"), Some(&bob), json!({"invite_code": code})).await;
    assert_eq!(joined.status, 200);
    assert_eq!(joined.json["seats"][1]["player"]["id"], bob_id.as_str());
    assert_eq!(joined.json["invite_code"], code);
    let now = s.get(&format!("/v1/tables/{id}"), Some(&bob)).await;
    assert_eq!(now.status, 200, "a seated player sees the private table");
}

async fn joining_and_leaving(db: Db) {
    let s = TestServer::start(db).await;
    let leak = |(id, token): (String, String)| (id, &*Box::leak(token.into_boxed_str()));
    let (host_id, host) = leak(s.player("Host").await);
    let (bob_id, bob) = leak(s.player("Bob").await);
    let (_, cat) = leak(s.player("Cat").await);
    let (_, dan) = leak(s.player("Dan").await);
    let t = s.table(host, json!({"game": "luddo", "seat_count": 3})).await;
    let id = t["id"].as_str().unwrap();
    let path = format!("/v1/tables/{id}/join");
    let join = |token: &'static str, body: serde_json::Value| s.post(&path, Some(token), body);
    s.post(&format!("/v1/tables/{id}/join"), None, json!({})).await.assert_problem(401, "unauthorized");
    join(host, json!({})).await.assert_problem(409, "already_seated");
    join(bob, json!({"seat": 0})).await.assert_problem(409, "seat_taken");
    join(bob, json!({"seat": 9})).await.assert_problem(422, "invalid_seat");
    join(bob, json!({"seat": "one"})).await.assert_problem(422, "invalid_body");
    let r = join(bob, json!({"seat": 2})).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["seats"][2]["player"]["id"], bob_id.as_str());
    // No body at all: the first free seat.
    let r = s.call(Method::POST, &format!("/v1/tables/{id}/join"), Some(cat), None).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["seats"][1]["player"]["name"], "Cat");
    join(dan, json!({})).await.assert_problem(409, "table_full");

    let r = s.call(Method::POST, &format!("/v1/tables/{id}/leave"), Some(bob), None).await;
    assert_eq!(r.status, 200);
    assert!(r.json["seats"][2]["player"].is_null());
    s.call(Method::POST, &format!("/v1/tables/{id}/leave"), Some(bob), None)
        .await
        .assert_problem(409, "not_seated");
    s.call(Method::POST, &format!("/v1/tables/{id}/leave"), None, None)
        .await
        .assert_problem(401, "unauthorized");

    // The host leaves: the next seated player hosts.
    let r = s.call(Method::POST, &format!("/v1/tables/{id}/leave"), Some(host), None).await;
    assert_eq!(r.status, 200);
    let t = s.get(&format!("/v1/tables/{id}"), None).await;
    assert_ne!(t.json["host_id"], host_id.as_str());
    assert_eq!(t.json["seats"][1]["player"]["name"], "Cat");
    assert_eq!(t.json["host_id"], t.json["seats"][1]["player"]["id"]);
    // The last player leaves: the table closes.
    s.call(Method::POST, &format!("/v1/tables/{id}/leave"), Some(cat), None).await;
    let t = s.get(&format!("/v1/tables/{id}"), None).await;
    assert_eq!(t.json["status"], "closed");
    join(dan, json!({})).await.assert_problem(409, "table_not_open");
}

async fn host_changes_settings_before_start(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, bob) = s.player("Bob").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 2})).await;
    let id = t["id"].as_str().unwrap();
    let path = format!("/v1/tables/{id}");
    let r = s
        .call(
            Method::PATCH,
            &path,
            Some(&host),
            Some(json!({"options": {"home_bonus": false}, "party": true, "visibility": "private"})),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["options"]["home_bonus"], false);
    assert_eq!(r.json["turn_seconds"], 30.0);
    let r = s.call(Method::PATCH, &path, Some(&host), Some(json!({"visibility": "private"}))).await;
    assert!(r.json["invite_code"].is_string());
    s.call(Method::PATCH, &path, Some(&host), Some(json!({"options": {"nope": 1}})))
        .await
        .assert_problem(422, "invalid_options");
    s.call(Method::PATCH, &path, Some(&host), Some(json!({"seats": 3})))
        .await
        .assert_problem(422, "invalid_body");
    let r = s
        .get(&format!("/v1/tables/{id}?invite_code={}", r.json["invite_code"].as_str().unwrap()), None)
        .await;
    assert_eq!(r.status, 200);
    let code = r.json["invite_code"].clone();
    assert!(code.is_null());
    let code = s.get(&path, Some(&host)).await.json["invite_code"].as_str().unwrap().to_string();
    s.post(&format!("{path}/join"), Some(&bob), json!({"invite_code": code})).await;
    s.call(Method::PATCH, &path, Some(&bob), Some(json!({"party": false})))
        .await
        .assert_problem(403, "not_host");
    s.call(Method::PATCH, &path, None, Some(json!({"party": false})))
        .await
        .assert_problem(401, "unauthorized");
    let r =
        s.call(Method::PATCH, &path, Some(&host), Some(json!({"visibility": "public", "options": {}}))).await;
    assert_eq!(r.json["visibility"], "public");
    assert!(r.json.get("invite_code").is_none());
    s.post(&format!("{path}/start"), Some(&host), json!({})).await;
    s.call(Method::PATCH, &path, Some(&host), Some(json!({"party": false})))
        .await
        .assert_problem(409, "table_not_open");
}

async fn the_bot_level_is_a_table_setting_until_the_start(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let t = s.table(&host, json!({"game": "backgammon", "seat_count": 2})).await;
    assert_eq!(t["bot_level"], "strong", "the default");
    let t = s.table(&host, json!({"game": "backgammon", "seat_count": 2, "bot_level": "easy"})).await;
    assert_eq!(t["bot_level"], "easy");
    let id = t["id"].as_str().unwrap();
    let path = format!("/v1/tables/{id}");
    s.post("/v1/tables", Some(&host), json!({"game": "ludo", "seat_count": 2, "bot_level": "grandmaster"}))
        .await
        .assert_problem(422, "invalid_body");
    s.call(Method::PATCH, &path, Some(&host), Some(json!({"bot_level": 3})))
        .await
        .assert_problem(422, "invalid_body");
    let r = s.call(Method::PATCH, &path, Some(&host), Some(json!({"bot_level": "normal"}))).await;
    assert_eq!(r.json["bot_level"], "normal");
    // The other settings are kept, and the change is in the table's log.
    let r = s.call(Method::PATCH, &path, Some(&host), Some(json!({"party": true}))).await;
    assert_eq!(r.json["bot_level"], "normal");
    let mut ws = s.ws(id, "").await;
    let changed = ws.entry_where(|e| e["action"]["type"] == "settings_changed").await;
    assert_eq!(changed["action"]["bot_level"], "normal");
    let r = s.post(&format!("{path}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.json["bot_level"], "normal");
    assert_eq!(r.json["seats"][1]["controller"], "bot");
}

/// RULES.md §3 (seed 004): the home bonus is on at every table but a private one whose host
/// turned it off, whichever way the host gets there.
async fn only_a_private_table_may_turn_the_home_bonus_off(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let off = json!({"home_bonus": false});
    for visibility in [json!("public"), serde_json::Value::Null] {
        let mut body = json!({"game": "luddo", "seat_count": 2, "options": off});
        if !visibility.is_null() {
            body["visibility"] = visibility;
        }
        s.call(Method::POST, "/v1/tables", Some(&host), Some(body))
            .await
            .assert_problem(422, "invalid_options");
    }

    let public = s.table(&host, json!({"game": "luddo", "seat_count": 2})).await;
    let path = format!("/v1/tables/{}", public["id"].as_str().unwrap());
    s.call(Method::PATCH, &path, Some(&host), Some(json!({"options": off})))
        .await
        .assert_problem(422, "invalid_options");
    assert_eq!(s.get(&path, Some(&host)).await.json["options"]["home_bonus"], true);

    let private = s
        .table(&host, json!({"game": "luddo", "seat_count": 2, "options": off, "visibility": "private"}))
        .await;
    assert_eq!(private["options"]["home_bonus"], false);
    let path = format!("/v1/tables/{}", private["id"].as_str().unwrap());
    s.call(Method::PATCH, &path, Some(&host), Some(json!({"visibility": "public"})))
        .await
        .assert_problem(422, "invalid_options");
    let t = s.get(&path, Some(&host)).await.json;
    assert_eq!(
        (t["visibility"].as_str(), t["options"]["home_bonus"].as_bool()),
        (Some("private"), Some(false))
    );
    // Going public with the bonus back on is fine.
    let r = s
        .call(
            Method::PATCH,
            &path,
            Some(&host),
            Some(json!({"visibility": "public", "options": {"home_bonus": true}})),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["options"]["home_bonus"], true);
}

async fn starting_a_table(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, bob) = s.player("Bob").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 4})).await;
    let id = t["id"].as_str().unwrap();
    let start = format!("/v1/tables/{id}/start");
    s.post(&format!("/v1/tables/{id}/join"), Some(&bob), json!({})).await;
    s.post(&start, Some(&bob), json!({})).await.assert_problem(403, "not_host");
    s.post(&start, None, json!({})).await.assert_problem(401, "unauthorized");
    s.post(&start, Some(&host), json!({})).await.assert_problem(409, "seats_empty");
    s.post(&start, Some(&host), json!({"fill_with_bots": "yes"})).await.assert_problem(422, "invalid_body");
    let r = s.post(&start, Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json["status"], "playing");
    assert_eq!(r.json["seats"][2]["controller"], "bot");
    assert_eq!(r.json["seats"][3]["controller"], "bot");
    assert_eq!(r.json["seats"][1]["controller"], "human");
    assert!(r.json["started_at"].is_string());
    s.post(&start, Some(&host), json!({"fill_with_bots": true})).await.assert_problem(409, "table_not_open");
    s.call(Method::POST, &format!("/v1/tables/{id}/leave"), Some(&bob), None)
        .await
        .assert_problem(409, "table_not_open");
    let (_, cat) = s.player("Cat").await;
    s.post(&format!("/v1/tables/{id}/join"), Some(&cat), json!({}))
        .await
        .assert_problem(409, "table_not_open");
    let playing = s.get("/v1/tables?status=playing", None).await;
    assert_eq!(playing.json["tables"][0]["id"], id);
}

async fn sign_ups_are_rate_limited(db: Db) {
    let s = TestServer::start_with(db, Config { rate_per_minute: 3, ..test_config() }).await;
    for i in 0..3 {
        s.player(&format!("P{i}")).await;
    }
    let r = s.post("/v1/players", None, json!({"name": "Too many"})).await;
    r.assert_problem(429, "rate_limited");
    let after: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=20).contains(&after));
}

/// One player joining one table from many requests at once: one seat, and every other request a
/// 409 with a code of ours (the unique index that stops the race reports it, not the database's
/// message).
async fn racing_joins_are_refused_by_name_not_in_the_databases_words(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (bob_id, bob) = s.player("Bob").await;
    for _ in 0..4 {
        let t = s.table(&host, json!({"game": "luddo", "seat_count": 6})).await;
        let path = format!("/v1/tables/{}/join", t["id"].as_str().unwrap());
        let joins = (1..6).map(|seat| s.post(&path, Some(&bob), json!({ "seat": seat })));
        let answers = futures_util::future::join_all(joins).await;
        let mut seated = 0;
        for r in &answers {
            if r.status == 200 {
                seated += 1;
                continue;
            }
            r.assert_problem(409, "already_seated");
            let detail = r.json["detail"].as_str().unwrap().to_lowercase();
            for word in ["constraint", "unique", "duplicate", "seats", "key"] {
                assert!(!detail.contains(word), "a database's words reached the client: {detail}");
            }
        }
        assert_eq!(seated, 1, "Bob took one seat");
        let view = s.get(&format!("/v1/tables/{}", t["id"].as_str().unwrap()), None).await;
        let bobs = view.json["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|seat| seat["player"]["id"] == bob_id.as_str());
        assert_eq!(bobs.count(), 1);
    }
}

/// JSON Schema's `integer` takes `4.0`; an optional field's `null` is a wrong type, not absence.
async fn bodies_read_numbers_and_nulls_as_the_spec_says(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, bob) = s.player("Bob").await;
    s.post("/v1/players", None, json!({"name": "Nil", "expires_in_seconds": null}))
        .await
        .assert_problem(422, "invalid_body");
    let r = s.post("/v1/players", None, json!({"name": "Hour", "expires_in_seconds": 3600.0})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    let token = r.json["token"].as_str().unwrap().to_string();
    s.post("/v1/players/me/tokens", Some(&token), json!({"label": null}))
        .await
        .assert_problem(422, "invalid_body");
    let r = s.post("/v1/tables", Some(&host), json!({"game": "luddo", "seat_count": 4.0, "seat": 1.0})).await;
    assert_eq!(r.status, 201, "{}", r.json);
    assert_eq!(r.json["seats"].as_array().unwrap().len(), 4);
    assert_eq!(r.json["seats"][1]["player"]["name"], "Host");
    let id = r.json["id"].as_str().unwrap().to_string();
    s.post("/v1/tables", Some(&host), json!({"game": "luddo", "seat_count": 4.5}))
        .await
        .assert_problem(422, "invalid_body");
    s.post("/v1/tables", Some(&host), json!({"game": "luddo", "seat_count": 4, "dice": null}))
        .await
        .assert_problem(422, "invalid_body");
    let path = format!("/v1/tables/{id}");
    let patch = |body| s.call(Method::PATCH, &path, Some(&host), Some(body));
    patch(json!({"party": null})).await.assert_problem(422, "invalid_body");
    patch(json!({"visibility": null})).await.assert_problem(422, "invalid_body");
    patch(json!({"options": null})).await.assert_problem(422, "invalid_body");
    let join = format!("/v1/tables/{id}/join");
    s.post(&join, Some(&bob), json!({"seat": null})).await.assert_problem(422, "invalid_body");
    let r = s.post(&join, Some(&bob), json!({"seat": 3.0})).await;
    assert_eq!(r.json["seats"][3]["player"]["name"], "Bob", "{}", r.json);
    let plays = |body| s.post("/v1/backgammon/plays", None, body);
    let start = "4HPwATDgc/ABMA";
    plays(json!({"position_id": start, "xgid": null, "dice": [3, 1]}))
        .await
        .assert_problem(422, "invalid_body");
    let r = plays(json!({"position_id": start, "dice": [3.0, 1.0]})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    // A seq written as a float is read as the number it is: here one from the future, refused as
    // such rather than as a malformed body.
    let (table, tokens) = common::seated_table(&s, "snakes", 2, json!({})).await;
    let r = s
        .post(
            &format!("/v1/tables/{table}/actions"),
            Some(&tokens[0]),
            json!({"action": {"type": "roll"}, "seq": 1892.0}),
        )
        .await;
    r.assert_problem(409, "seq_ahead");
}

async fn an_empty_cursor_is_the_first_page(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    s.table(&host, json!({"game": "luddo", "seat_count": 2})).await;
    let r = s.get("/v1/tables?cursor=", None).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["tables"].as_array().unwrap().len(), 1);
    let r = s.get("/v1/hall-of-shame?game=luddo&cursor=", None).await;
    assert_eq!(r.status, 200, "{}", r.json);
    s.get("/v1/tables?cursor=nonsense", None).await.assert_problem(400, "invalid_query");
}

/// Behind a trusted proxy each client it forwards has its own sign-up budget; forwarding headers
/// from anyone else change nothing (a client cannot buy a new budget by inventing an address).
async fn rate_limits_count_the_client_a_trusted_proxy_forwards(db: Db) {
    let sign_up = |s: &TestServer, forwarded_for: &'static str| {
        let request = s
            .client
            .post(format!("{}/v1/players", s.base))
            .header("x-forwarded-for", forwarded_for)
            .json(&json!({"name": "Fwd"}));
        async move { request.send().await.unwrap().status() }
    };
    let trusted =
        Config { rate_per_minute: 2, trusted_proxies: vec!["127.0.0.0/8".parse().unwrap()], ..test_config() };
    let s = TestServer::start_with(db, trusted).await;
    assert_eq!(sign_up(&s, "203.0.113.1").await, 201);
    assert_eq!(sign_up(&s, "203.0.113.1").await, 201);
    assert_eq!(sign_up(&s, "203.0.113.1").await, 429, "that client's budget is spent");
    assert_eq!(sign_up(&s, "203.0.113.2").await, 201, "another client has its own");
    assert_eq!(sign_up(&s, "192.0.2.1, 203.0.113.2").await, 201, "read from the right");
    assert_eq!(sign_up(&s, "192.0.2.1, 203.0.113.2").await, 429);
    drop(s);

    let untrusted = Config { rate_per_minute: 2, ..test_config() };
    let s = TestServer::start_with(Db::Sqlite, untrusted).await;
    assert_eq!(sign_up(&s, "203.0.113.1").await, 201);
    assert_eq!(sign_up(&s, "203.0.113.2").await, 201);
    assert_eq!(sign_up(&s, "203.0.113.3").await, 429, "no proxy is trusted: one peer, one budget");
}

async fn browsers_may_send_and_read_the_request_id_and_read_retry_after(db: Db) {
    let s = TestServer::start(db).await;
    let preflight = s
        .client
        .request(Method::OPTIONS, format!("{}/v1/players", s.base))
        .header("origin", "https://app.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type, x-request-id")
        .send()
        .await
        .unwrap();
    let allowed = preflight.headers()["access-control-allow-headers"].to_str().unwrap().to_lowercase();
    assert!(allowed.contains("x-request-id") && allowed.contains("authorization"), "{allowed}");
    let r = s
        .client
        .get(format!("{}/health", s.base))
        .header("origin", "https://app.example")
        .send()
        .await
        .unwrap();
    let exposed = r.headers()["access-control-expose-headers"].to_str().unwrap().to_lowercase();
    assert!(exposed.contains("retry-after") && exposed.contains("x-request-id"), "{exposed}");
    // A client's own request id comes back in the header and in any problem it gets.
    let r = s
        .client
        .get(format!("{}/v1/no-such-route", s.base))
        .header("x-request-id", "trace-42")
        .send()
        .await
        .unwrap();
    assert_eq!(r.headers()["x-request-id"], "trace-42");
    let problem: serde_json::Value = r.json().await.unwrap();
    assert_eq!(problem["request_id"], "trace-42", "{problem}");
}

/// Seats at tables not yet started are capped per player (`LUDDO_MAX_WAITING_SEATS_PER_PLAYER`):
/// one more, by creating, joining or quick play, is refused with 409 `too_many_waiting_seats`;
/// a start or a leave frees a place, and asking quick play again for the seat one holds is no
/// new seat.
async fn a_player_holds_at_most_the_allowed_seats_at_waiting_tables(db: Db) {
    let s = TestServer::start_with(db, Config { max_waiting_seats_per_player: 3, ..test_config() }).await;
    let (_, p) = s.player("P").await;
    let (_, q) = s.player("Q").await;
    let (_, r) = s.player("R").await;
    let snakes = |n: usize| json!({"game": "snakes", "seat_count": n});
    s.table(&p, snakes(2)).await;
    s.table(&p, snakes(2)).await;
    let tq = s.table(&q, snakes(2)).await["id"].as_str().unwrap().to_string();
    let tr = s.table(&r, snakes(3)).await["id"].as_str().unwrap().to_string();
    let (join_q, join_r) = (format!("/v1/tables/{tq}/join"), format!("/v1/tables/{tr}/join"));
    let join = |path| s.post(path, Some(&p), json!({}));
    assert_eq!(join(&join_q[..]).await.status, 200);
    let full = "too_many_waiting_seats";
    s.post("/v1/tables", Some(&p), snakes(2)).await.assert_problem(409, full);
    join(&join_r[..]).await.assert_problem(409, full);
    let quick = json!({"game": "snakes", "seats": 2});
    s.post("/v1/quick-play", Some(&p), quick.clone()).await.assert_problem(409, full);
    // A started table's seat is no longer a waiting one.
    let start = s.post(&format!("/v1/tables/{tq}/start"), Some(&q), json!({})).await;
    assert_eq!(start.status, 200, "{}", start.json);
    assert_eq!(join(&join_r[..]).await.status, 200);
    s.post("/v1/quick-play", Some(&p), quick.clone()).await.assert_problem(409, full);
    // Leaving frees one.
    assert_eq!(s.post(&format!("/v1/tables/{tr}/leave"), Some(&p), json!({})).await.status, 200);
    let first = s.post("/v1/quick-play", Some(&p), quick.clone()).await;
    assert_eq!(first.status, 201, "{}", first.json);
    let again = s.post("/v1/quick-play", Some(&p), quick).await;
    assert_eq!((again.status.as_u16(), &again.json["id"]), (200, &first.json["id"]), "the same seat");
}

/// A player's joins, creations and quick plays sent at once are counted one after the other:
/// together they never seat the player past the cap.
async fn one_players_seatings_at_once_never_pass_the_waiting_seats_cap(db: Db) {
    let s = TestServer::start_with(db, Config { max_waiting_seats_per_player: 3, ..test_config() }).await;
    let (_, p) = s.player("P").await;
    let mut paths = vec![];
    for i in 0..6 {
        let (_, host) = s.player(&format!("H{i}")).await;
        let id = s.table(&host, json!({"game": "snakes", "seat_count": 2})).await["id"].clone();
        paths.push((format!("/v1/tables/{}/join", id.as_str().unwrap()), json!({})));
    }
    for seats in 2..=4 {
        paths.push(("/v1/tables".into(), json!({"game": "luddo", "seat_count": seats})));
        paths.push(("/v1/quick-play".into(), json!({"game": "ludo", "seats": seats})));
    }
    let answers =
        futures_util::future::join_all(paths.iter().map(|(path, body)| s.post(path, Some(&p), body.clone())))
            .await;
    let seated = answers.iter().filter(|r| r.status.is_success()).count();
    for r in answers.iter().filter(|r| !r.status.is_success()) {
        r.assert_problem(409, "too_many_waiting_seats");
    }
    assert_eq!(seated, 3, "{:?}", answers.iter().map(|r| r.status.as_u16()).collect::<Vec<_>>());
}
