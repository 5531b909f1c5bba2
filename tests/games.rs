//! `GET /v1/games`: the games' registry as clients read it, checked against what table creation
//! does with each game, over real HTTP on SQLite and PostgreSQL.

mod common;

use common::{Db, TestServer, test_config};
use luddo::{config::Config, games::GameKind};
use serde_json::{Value, json};
use std::time::Duration;

both_stores!(
    the_games_are_the_registrys_in_its_order,
    each_games_defaults_fit_its_options_schema_and_make_a_table,
    the_listed_seat_counts_are_the_ones_table_creation_accepts,
    a_private_only_option_changed_is_refused_at_a_public_table,
    the_clocks_are_the_servers_and_a_current_copy_is_answered_304,
    ludos_enter_on_schema_admits_exactly_the_sets_table_creation_accepts,
);

async fn games(s: &TestServer) -> Vec<Value> {
    let r = s.get("/v1/games", None).await;
    assert_eq!(r.status, 200, "{}", r.json);
    r.json["games"].as_array().expect("games is a list").clone()
}

async fn the_games_are_the_registrys_in_its_order(db: Db) {
    let s = TestServer::start(db).await;
    let listed: Vec<String> =
        games(&s).await.iter().map(|g| g["game"].as_str().unwrap().to_string()).collect();
    let registry: Vec<&str> = GameKind::ALL.iter().map(|g| g.as_str()).collect();
    assert_eq!(listed, registry);
    for game in games(&s).await {
        assert_eq!(game["bot_levels"], json!(["easy", "normal", "strong"]));
        assert_eq!(game["default_bot_level"], "strong");
        assert!(!game["label"].as_str().unwrap().is_empty());
    }
}

async fn each_games_defaults_fit_its_options_schema_and_make_a_table(db: Db) {
    let s = TestServer::start(db).await;
    for game in games(&s).await {
        // A host of its own per game: a player hosts at most 20 unfinished tables.
        let (_, host) = s.player("Host").await;
        let schema = jsonschema::draft202012::new(&game["options_schema"])
            .unwrap_or_else(|e| panic!("{}: the options schema does not compile: {e}", game["game"]));
        let defaults = &game["default_options"];
        if let Err(e) = schema.validate(defaults) {
            panic!("{}: the defaults break the options schema: {e}", game["game"]);
        }
        assert!(
            !schema.is_valid(&json!({"no_such_option": true})),
            "{}: unknown fields are refused",
            game["game"]
        );
        for seats in game["seats"]["allowed"].as_array().unwrap() {
            let body = json!({"game": game["game"], "seat_count": seats, "options": defaults});
            let t = s.table(&host, body).await;
            assert_eq!(&t["options"], defaults, "{}: a table gets the defaults as listed", game["game"]);
            let bare = s.table(&host, json!({"game": game["game"], "seat_count": seats})).await;
            assert_eq!(
                &bare["options"], defaults,
                "{}: a table naming no options gets the defaults",
                game["game"]
            );
        }
    }
}

async fn the_listed_seat_counts_are_the_ones_table_creation_accepts(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    for game in games(&s).await {
        let seats = &game["seats"];
        let allowed: Vec<u64> =
            seats["allowed"].as_array().unwrap().iter().map(|n| n.as_u64().unwrap()).collect();
        assert_eq!(seats["min"], allowed[0]);
        assert_eq!(seats["max"], *allowed.last().unwrap());
        for count in 0..=allowed.last().unwrap() + 1 {
            let r =
                s.post("/v1/tables", Some(&host), json!({"game": game["game"], "seat_count": count})).await;
            if allowed.contains(&count) {
                assert_eq!(r.status, 201, "{} with {count} seats: {}", game["game"], r.json);
            } else {
                r.assert_problem(422, "invalid_seat_count");
            }
        }
    }
}

async fn a_private_only_option_changed_is_refused_at_a_public_table(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let mut checked = 0;
    for game in games(&s).await {
        for field in game["private_only_options"].as_array().unwrap() {
            let field = field.as_str().unwrap();
            let default = &game["default_options"][field];
            let Some(flag) = default.as_bool() else { continue };
            let options = json!({ field: !flag });
            let body = json!({"game": game["game"], "seat_count": 2, "options": options});
            s.post("/v1/tables", Some(&host), body.clone()).await.assert_problem(422, "invalid_options");
            let mut private = body;
            private["visibility"] = "private".into();
            assert_eq!(s.post("/v1/tables", Some(&host), private).await.status, 201);
            checked += 1;
        }
    }
    assert!(checked >= 1, "luddo's home_bonus is listed");
}

async fn the_clocks_are_the_servers_and_a_current_copy_is_answered_304(db: Db) {
    let mut config: Config = test_config();
    config.timers.turn = Duration::from_millis(7500);
    config.timers.party_turn = Duration::from_secs(45);
    let s = TestServer::start_with(db, config).await;
    let (_, host) = s.player("Host").await;
    for game in games(&s).await {
        assert_eq!(game["clocks"], json!({"turn_seconds": 7.5, "party_turn_seconds": 45.0}));
    }
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 2})).await;
    assert_eq!(t["turn_seconds"], 7.5);
    let party = s.table(&host, json!({"game": "luddo", "seat_count": 2, "party": true})).await;
    assert_eq!(party["turn_seconds"], 45.0);

    let first = s.get("/v1/games", None).await;
    let etag = first.headers["etag"].to_str().unwrap().to_string();
    assert_eq!(first.headers["cache-control"], "no-cache");
    let again =
        s.client.get(format!("{}/v1/games", s.base)).header("if-none-match", &etag).send().await.unwrap();
    assert_eq!(again.status(), 304);
}

/// The create form offers `enter_on` as the schema's titled choices; a client that validates
/// against the schema must neither refuse a set the server takes (`[6, 1]`, the same set as
/// `[1, 6]`) nor send one it refuses.
async fn ludos_enter_on_schema_admits_exactly_the_sets_table_creation_accepts(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let ludo = games(&s).await.into_iter().find(|g| g["game"] == "ludo").expect("ludo is listed");
    let schema = jsonschema::draft202012::new(&ludo["options_schema"]).expect("the schema compiles");
    let candidates = [
        json!([]),
        json!([6]),
        json!([1]),
        json!([1, 6]),
        json!([6, 1]),
        json!([6, 6]),
        json!([2, 6]),
        json!([1, 6, 6]),
    ];
    for enter_on in candidates {
        let options = json!({ "enter_on": enter_on });
        let r = s
            .post("/v1/tables", Some(&host), json!({"game": "ludo", "seat_count": 2, "options": options}))
            .await;
        assert!(r.status == 201 || r.status == 422, "{enter_on}: {} {}", r.status, r.json);
        assert_eq!(schema.is_valid(&options), r.status == 201, "{enter_on}: schema and server disagree");
    }
}
