//! Fair dice over real HTTP, against SQLite and PostgreSQL: the commitment comes first, every
//! seated player gives a client seed until the start, the table's client seed is fixed at the
//! start from all of them, and the dice (checked by `luddo verify`) follow it.

mod common;

use common::{Db, TestDb, TestServer, test_config};
use hmac::{Hmac, Mac};
use reqwest::Method;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

both_stores!(
    the_commitment_is_published_before_any_client_seed,
    every_seated_player_sets_its_client_seed_until_the_start,
    the_client_seed_is_fixed_at_the_start_from_every_seat,
    every_game_verifies_and_a_changed_die_does_not,
    luddo_verify_checks_a_saved_log_and_a_url,
    tables_from_before_per_seat_seeds_replay_and_verify,
);

/// The documented combination, written out again here so that the server cannot drift from
/// docs/fairness.md: SHA-256 hex of the seats' seeds joined with "\n".
fn combined(seeds: &[&str]) -> String {
    hex::encode(Sha256::digest(seeds.join("\n").as_bytes()))
}

/// Die `k` by the documented recipe.
fn die(server_seed: &[u8], client_seed: &str, k: u64) -> u8 {
    let mut mac = Hmac::<Sha256>::new_from_slice(server_seed).unwrap();
    mac.update(format!("{client_seed}:{k}").as_bytes());
    let b = mac.finalize().into_bytes().into_iter().find(|&b| b < 252).expect("a byte below 252");
    1 + b % 6
}

async fn set_seed(s: &TestServer, id: &str, token: Option<&str>, body: Value) -> common::Resp {
    s.call(Method::PATCH, &format!("/v1/tables/{id}/seats/me"), token, Some(body)).await
}

fn seat_seeds(table: &Value) -> Vec<String> {
    table["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["client_seed"].as_str().unwrap().to_string())
        .collect()
}

async fn the_commitment_is_published_before_any_client_seed(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 3})).await;
    let commitment = t["seed_commitment"].as_str().unwrap().to_string();
    assert_eq!(commitment.len(), 64);
    assert!(t.get("client_seed").is_none(), "no client seed before the start: {t}");
    assert_eq!(seat_seeds(&t), ["", "", ""]);
    // A seed in the create body is only the host seat's seed.
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 3, "client_seed": "lucky"})).await;
    assert_eq!(seat_seeds(&t), ["lucky", "", ""]);
    assert!(t.get("client_seed").is_none(), "{t}");
    // Seeds given later never move the commitment.
    let id = t["id"].as_str().unwrap();
    let r = set_seed(&s, id, Some(&host), json!({"client_seed": "luckier"})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["seed_commitment"], t["seed_commitment"]);
    assert_eq!(seat_seeds(&r.json), ["luckier", "", ""]);
}

async fn every_seated_player_sets_its_client_seed_until_the_start(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, ann) = s.player("Ann").await;
    let (_, bob) = s.player("Bob").await;
    let (_, stranger) = s.player("Stranger").await;
    let t = s.table(&host, json!({"game": "snakes", "seat_count": 4, "client_seed": "h"})).await;
    let id = t["id"].as_str().unwrap();
    let join_path = format!("/v1/tables/{id}/join");
    let join = |token, body| s.post(&join_path, Some(token), body);
    let r = join(&ann, json!({"seat": 1, "client_seed": "ann 🎲"})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let r = join(&bob, json!({"seat": 2})).await;
    assert_eq!(seat_seeds(&r.json), ["h", "ann 🎲", "", ""]);
    assert_eq!(set_seed(&s, id, Some(&bob), json!({"client_seed": "bob"})).await.status, 200);
    let r = set_seed(&s, id, Some(&ann), json!({"client_seed": "ann again"})).await;
    assert_eq!(seat_seeds(&r.json), ["h", "ann again", "bob", ""]);

    // Bad seeds, strangers and anonymous callers change nothing.
    join(&stranger, json!({"client_seed": "x".repeat(65)})).await.assert_problem(422, "invalid_client_seed");
    set_seed(&s, id, Some(&bob), json!({"client_seed": "x".repeat(65)}))
        .await
        .assert_problem(422, "invalid_client_seed");
    set_seed(&s, id, Some(&bob), json!({"client_seed": "two\nlines"}))
        .await
        .assert_problem(422, "invalid_client_seed");
    set_seed(&s, id, Some(&bob), json!({"client_seed": 7})).await.assert_problem(422, "invalid_body");
    set_seed(&s, id, Some(&bob), json!({})).await.assert_problem(422, "invalid_body");
    set_seed(&s, id, Some(&stranger), json!({"client_seed": "mine"})).await.assert_problem(409, "not_seated");
    set_seed(&s, id, None, json!({"client_seed": "mine"})).await.assert_problem(401, "unauthorized");
    let missing = uuid::Uuid::new_v4();
    set_seed(&s, &missing.to_string(), Some(&bob), json!({"client_seed": "b"}))
        .await
        .assert_problem(404, "table_not_found");
    assert_eq!(seat_seeds(&s.table_view(id, None).await), ["h", "ann again", "bob", ""]);

    // A seat given up takes its seed with it.
    assert_eq!(s.post(&format!("/v1/tables/{id}/leave"), Some(&bob), json!({})).await.status, 200);
    let r = join(&stranger, json!({"seat": 2})).await;
    assert_eq!(seat_seeds(&r.json), ["h", "ann again", "", ""]);

    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    for token in [&host, &ann, &stranger] {
        set_seed(&s, id, Some(token), json!({"client_seed": "too late"}))
            .await
            .assert_problem(409, "table_not_open");
    }
    assert_eq!(seat_seeds(&s.table_view(id, None).await), ["h", "ann again", "", ""]);
}

async fn the_client_seed_is_fixed_at_the_start_from_every_seat(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let (_, ann) = s.player("Ann").await;
    let t = s.table(&host, json!({"game": "luddo", "seat_count": 4})).await;
    let id = t["id"].as_str().unwrap();
    let r =
        s.post(&format!("/v1/tables/{id}/join"), Some(&ann), json!({"seat": 2, "client_seed": "ann"})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    set_seed(&s, id, Some(&host), json!({"client_seed": "host"})).await;
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let expected = combined(&["host", "", "ann", ""]);
    assert_eq!(r.json["client_seed"], expected.as_str());
    assert_eq!(s.table_view(id, None).await["client_seed"], expected.as_str());

    // The start entry shows the seeds and their combination (every_game_verifies_… checks the
    // dice against it once the seed is revealed).
    let mut ws = s.ws(id, "since=0").await;
    let start = ws.entry_where(|e| e["action"]["type"] == "start").await;
    assert_eq!(
        start["action"],
        json!({"type": "start", "client_seeds": ["host", "", "ann", ""],
        "client_seed": expected, "dice_chains": [null, null, null, null]})
    );
}

/// Plays a started table to its end: the player of seat `i` (token `tokens[i]`) plays its
/// first legal action (never resigning), bots play the other seats.
async fn play_to_the_end(s: &TestServer, id: &str, tokens: &[String]) {
    for _ in 0..20_000 {
        let view = s.table_view(id, Some(&tokens[0])).await;
        if view["status"] == "finished" {
            return;
        }
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let token = &tokens[seat];
        let mine = s.table_view(id, Some(token)).await;
        let legal = mine["play"]["legal_actions"].as_array().unwrap();
        if let Some(action) = legal.iter().find(|a| a["type"] != "up_board").or(legal.first()) {
            let r = s.act(id, token, action, mine["play"]["seq"].as_i64().unwrap()).await;
            assert!(r.status == 200 || r.json["code"] == "stale_seq", "{}", r.json);
        }
    }
    panic!("the game did not end");
}

/// A started `visibility` table of `game` where `seeds.len()` players sat at seats 0, 1, … with
/// these seeds (the host's given at creation, the others' after joining; bots fill the other
/// seats); returns its id and the players' tokens by seat.
async fn table_with_seeds(
    s: &TestServer,
    game: &str,
    seats: usize,
    seeds: &[&str],
    visibility: &str,
) -> (String, Vec<String>) {
    let mut tokens = vec![];
    for i in 0..seeds.len() {
        tokens.push(s.player(&format!("P{i}")).await.1);
    }
    let body = json!({"game": game, "seat_count": seats, "client_seed": seeds[0], "visibility": visibility});
    let t = s.table(&tokens[0], body).await;
    let id = t["id"].as_str().unwrap().to_string();
    for (i, token) in tokens.iter().enumerate().skip(1) {
        let mut join = json!({ "seat": i });
        if let Some(code) = t["invite_code"].as_str() {
            join["invite_code"] = json!(code);
        }
        let r = s.post(&format!("/v1/tables/{id}/join"), Some(token), join).await;
        assert_eq!(r.status, 200, "{}", r.json);
        let r = set_seed(s, &id, Some(token), json!({"client_seed": seeds[i]})).await;
        assert_eq!(r.status, 200, "{}", r.json);
    }
    let r =
        s.post(&format!("/v1/tables/{id}/start"), Some(&tokens[0]), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    (id, tokens)
}

async fn every_game_verifies_and_a_changed_die_does_not(db: Db) {
    let s = TestServer::start(db).await;
    for (game, seats) in [("luddo", 4), ("ludo", 3), ("uckers", 4), ("snakes", 3), ("backgammon", 2)] {
        let seeds = ["first", "second"];
        let (id, tokens) = table_with_seeds(&s, game, seats, &seeds, "public").await;
        play_to_the_end(&s, &id, &tokens).await;
        let log = luddo::verify::fetch(&format!("{}/v1/tables/{id}", s.base), None).await.unwrap();
        let verified = luddo::verify::verify(&log).unwrap_or_else(|e| panic!("{game}: {e}"));
        let mut all = seeds.to_vec();
        all.resize(seats, "");
        assert_eq!(verified.client_seed, combined(&all), "{game}");
        assert!(verified.dice > 0 && !verified.legacy, "{game}: {verified}");

        // The first die shown is die 0 of the recipe, computed here from the revealed seed.
        let seed = hex::decode(log.table["seed"].as_str().unwrap()).unwrap();
        let first = first_die(&log).unwrap();
        assert_eq!(die(&seed, &combined(&all), 0), first.2, "{game}");

        let mut tampered = log.clone();
        let (entry, event, value) = first;
        let field = &mut tampered.entries[entry]["events"][event];
        let changed = json!(value % 6 + 1);
        match ["value", "die"].into_iter().find(|key| field.get(key).is_some()) {
            Some(key) => field[key] = changed,
            None => {
                let dice = field["dice"].as_array_mut().unwrap();
                *dice.iter_mut().find(|d| d.is_number()).unwrap() = changed;
            }
        }
        let err = luddo::verify::verify(&tampered).unwrap_err();
        assert!(matches!(err, luddo::verify::Mismatch::Die { k: 0, .. }), "{game}: {err}");
    }
}

/// Where the log's first die is: (entry index, event index, value).
fn first_die(log: &luddo::verify::TableLog) -> Option<(usize, usize, u8)> {
    for (i, entry) in log.entries.iter().enumerate() {
        for (j, event) in entry["events"].as_array()?.iter().enumerate() {
            let kind = event["type"].as_str().unwrap_or_default();
            if !["opening_rolled", "opening_throw", "opening_roll", "rolled", "dice_rolled"].contains(&kind) {
                continue;
            }
            let value = event
                .get("value")
                .or(event.get("die"))
                .cloned()
                .or_else(|| event["dice"].as_array()?.iter().find(|d| d.is_number()).cloned())?;
            return Some((i, j, value.as_u64()? as u8));
        }
    }
    None
}

async fn luddo_verify_checks_a_saved_log_and_a_url(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = table_with_seeds(&s, "snakes", 2, &["ann", "bob"], "private").await;
    play_to_the_end(&s, &id, &tokens).await;
    let dir = std::env::temp_dir().join(format!("luddo-verify-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let saved = dir.join("saved.json");
    let url = format!("{}/v1/tables/{id}", s.base);

    // From the server (a private table: with a player's token, saving the log), then from the
    // saved file.
    let out = luddo_verify(&[&url]).await;
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("404"), "{}", String::from_utf8_lossy(&out.stderr));
    let out = luddo_verify(&[&url, "--token", &tokens[1], "--save", saved.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("verified: "));
    let out = luddo_verify(&[saved.to_str().unwrap()]).await;
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    // One die changed: refused, with the die named.
    let mut log: luddo::verify::TableLog = serde_json::from_slice(&std::fs::read(&saved).unwrap()).unwrap();
    let (entry, event, value) = first_die(&log).unwrap();
    let dice = log.entries[entry]["events"][event]["dice"].as_array_mut().unwrap();
    *dice.iter_mut().find(|d| d.is_number()).unwrap() = json!(value % 6 + 1);
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, serde_json::to_vec(&log).unwrap()).unwrap();
    let out = luddo_verify(&[tampered.to_str().unwrap()]).await;
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("NOT verified") && stderr.contains("die #0"), "{stderr}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Runs `luddo verify` (without blocking the runtime the server runs on).
async fn luddo_verify(args: &[&str]) -> std::process::Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_luddo")).arg("verify").args(args).output().await.unwrap()
}

/// The schema before per-seat seeds: migrations 0001 and 0002 only.
async fn old_schema(db: Db) -> TestDb {
    let test_db = TestDb::new(db).await;
    let backend = match db {
        Db::Sqlite => "sqlite",
        Db::Postgres => "postgres",
    };
    let dir = std::env::temp_dir().join(format!("luddo-old-migrations-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["0001_initial.sql", "0002_table_leases.sql"] {
        std::fs::copy(format!("migrations/{backend}/{file}"), dir.join(file)).unwrap();
    }
    if let Some(path) = test_db.url.strip_prefix("sqlite://") {
        let path = std::path::Path::new(path.split('?').next().unwrap());
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    }
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(&test_db.url).await.unwrap();
    sqlx::migrate::Migrator::new(dir.as_path()).await.unwrap().run(&pool).await.unwrap();
    pool.close().await;
    let _ = std::fs::remove_dir_all(dir);
    test_db
}

/// SQL text literal.
fn text(value: impl std::fmt::Display) -> String {
    format!("'{}'", value.to_string().replace('\'', "''"))
}

async fn tables_from_before_per_seat_seeds_replay_and_verify(db: Db) {
    use luddo::{
        games::GameKind,
        rules::dice::{FairDice, ServerSeed},
    };
    let test_db = old_schema(db).await;
    let host_token = "ldo_old_host";
    let host = uuid::Uuid::new_v4();
    test_db
        .execute(&format!(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES ({}, 'Old', {}, 0)",
            text(host),
            text(luddo::api::extract::token_hash(host_token))
        ))
        .await;

    // A Snakes table of two bots, started by the old server: its dice used the host's seed
    // directly. Its log so far: the old start entry and six rolls.
    let seed = ServerSeed([9; 32]);
    let options = GameKind::Snakes.normalize_options(&json!({}), 2).unwrap();
    let mut dice = FairDice::new(seed.clone(), "old seed", 0);
    let (mut game, opening) = GameKind::Snakes.start(&options, 2, &mut dice).unwrap();
    // A two-seat Snakes table of `host`'s as the old server stored it, with its seats' players
    // (`None`: a bot).
    let old_table = |status: &'static str, client_seed: &'static str, players: [Option<uuid::Uuid>; 2]| {
        let (test_db, options, seed) = (&test_db, &options, &seed);
        async move {
            let id = uuid::Uuid::new_v4();
            test_db
                .execute(&format!(
                    "INSERT INTO game_tables (id, game, options, seat_count, visibility, party, status, host_id,
                        seed, seed_commitment, client_seed, created_at, started_at)
                     VALUES ({}, 'snakes', {}, 2, 'public', 0, {}, {}, {}, {}, {}, 0, {})",
                    text(id),
                    text(options),
                    text(status),
                    text(host),
                    text(seed.to_hex()),
                    text(seed.commitment()),
                    text(client_seed),
                    if status == "open" { "NULL" } else { "0" }
                ))
                .await;
            for (seat, player) in players.iter().enumerate() {
                let (player, controller) = match player {
                    Some(p) => (text(p), "human"),
                    None if status == "open" => ("NULL".into(), "human"),
                    None => ("NULL".into(), "bot"),
                };
                test_db
                    .execute(&format!(
                        "INSERT INTO seats (table_id, seat, player_id, controller)
                         VALUES ({}, {seat}, {player}, '{controller}')",
                        text(id)
                    ))
                    .await;
            }
            id
        }
    };
    let playing = old_table("playing", "old seed", [None, None]).await;
    let mut log = vec![(None, "server", json!({"type": "start"}), opening)];
    for _ in 0..6 {
        let seat = game.to_act().unwrap();
        let action = game.bot_action(seat, luddo::bots::Level::Strong).unwrap();
        let applied = game.apply(seat, &action, &mut dice).unwrap();
        log.push((Some(seat), "bot", applied.action, applied.events));
    }
    for (i, (seat, actor, action, events)) in log.iter().enumerate() {
        let payload = json!({"events": events, "to_act": null, "deadline": null, "legal": [[], []]});
        let seat = seat.map_or("NULL".to_string(), |s| s.to_string());
        test_db
            .execute(&format!(
                "INSERT INTO actions (table_id, seq, seat, actor, action, events, at)
                 VALUES ({}, {}, {seat}, {}, {}, {}, 0)",
                text(playing),
                i + 1,
                text(actor),
                text(action),
                text(payload)
            ))
            .await;
    }
    // One the old server started but stopped before writing its first entry.
    let unlogged = old_table("playing", "old seed", [None, None]).await;
    // And an open table whose host gave a seed at creation.
    let open = old_table("open", "hosts seed", [Some(host), None]).await;

    // The new server migrates, resumes the old table with the old seed, and its bots finish
    // it: the whole log verifies against the host's seed alone.
    let s = TestServer::start_on(test_db, test_config()).await;
    let view = s.table_view(&playing.to_string(), None).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["client_seed"], "old seed");
    let log = luddo::verify::fetch(&format!("{}/v1/tables/{playing}", s.base), None).await.unwrap();
    assert_eq!(log.entries[0]["action"], json!({"type": "start"}));
    let verified = luddo::verify::verify(&log).unwrap();
    assert!(verified.legacy && verified.dice > 6, "{verified}");
    let log = luddo::verify::fetch(&format!("{}/v1/tables/{unlogged}", s.base), None).await.unwrap();
    let verified = luddo::verify::verify(&log).unwrap_or_else(|e| panic!("{e}: {:?}", log.entries[0]));
    assert!(verified.legacy, "{verified}");

    // The open table's seed is now its host's seat's, and counts as one seat's among all.
    let view = s.table_view(&open.to_string(), None).await;
    assert_eq!(seat_seeds(&view), ["hosts seed", ""]);
    assert!(view.get("client_seed").is_none(), "{view}");
    let r =
        s.post(&format!("/v1/tables/{open}/start"), Some(host_token), json!({"fill_with_bots": true})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    assert_eq!(r.json["client_seed"], combined(&["hosts seed", ""]).as_str());
}
