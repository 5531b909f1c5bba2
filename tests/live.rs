//! Live tables over real HTTP and WebSocket, against SQLite and PostgreSQL: whole games, the
//! seq rule, seats, spectators, resuming, bots. Clocks are in tests/clocks.rs.

mod common;

use common::{Db, TestServer, entries_upto, seated_table, test_config};
use luddo::config::Config;
use serde_json::json;
use sha2::{Digest, Sha256};

both_stores!(
    a_full_luddo_game_between_four_clients,
    actions_follow_the_seq_and_seat_rules,
    spectators_watch_and_resume_with_since,
    private_tables_are_not_watched_by_strangers,
    every_game_plays_to_the_end_with_bots,
    backgammon_positions_are_analysed,
    a_one_point_backgammon_match_has_no_crawford_game,
    an_uckers_challenge_lapses_on_the_order_the_owner_posted,
    up_boarding_goes_on_the_back_of_the_board,
    actions_and_connections_are_limited,
    a_game_played_from_the_entries_alone,
    many_clients_posting_at_once_are_serialized,
    problem_details_speak_json_not_rust,
);

/// Bodies, options, queries and actions serde refuses: each problem's detail says what was
/// wrong in JSON's words (object, array, whole number, value) and names no Rust type;
/// `assert_problem` checks the latter for every problem of the suite.
async fn problem_details_speak_json_not_rust(db: Db) {
    let s = TestServer::start(db).await;
    let (_, host) = s.player("Host").await;
    let detail = |r: &common::Resp| r.json["detail"].as_str().unwrap_or_default().to_string();
    let create = |body: serde_json::Value| s.post("/v1/tables", Some(&host), body);
    let cases = [
        (json!([]), "expected an object"),
        // serde reads a struct from an array of its fields too: the spec does not.
        (json!(["luddo", 2]), "invalid type: array, expected an object"),
        (json!("luddo"), "invalid type: string \"luddo\", expected an object"),
        (json!({"game": "luddo", "seats": 4}), "unknown field `seats`"),
        (json!({"game": "luddo", "seat_count": "four"}), "expected a whole number"),
        (json!({"game": "luddo", "seat_count": 4, "visibility": "secret"}), "unknown value `secret`"),
        (json!({"game": "luddo", "seat_count": 4, "party": 1}), "expected a boolean"),
        (json!({"game": "luddo", "seat_count": 4, "options": {"home_bonus": "yes"}}), "expected a boolean"),
        (json!({"game": "luddo", "seat_count": 4, "options": "fast"}), "expected an object"),
    ];
    for (body, words) in cases {
        let r = create(body.clone()).await;
        assert_eq!(r.status, 422, "{body}: {}", r.json);
        r.assert_problem(422, r.json["code"].as_str().unwrap());
        assert!(detail(&r).contains(words), "{body}: {}", r.json);
    }
    let r = s.get("/v1/tables?limit=many", None).await;
    r.assert_problem(400, "invalid_query");

    let (id, tokens) = seated_table(&s, "luddo", 2, json!({})).await;
    let seq = s.table_view(&id, Some(&tokens[0])).await["play"]["seq"].as_i64().unwrap();
    let actions = [
        (json!("roll"), "expected an object with a \"type\" field"),
        (json!({"type": "jump"}), "unknown value `jump`, expected `roll` or `move`"),
        (json!({"type": "move"}), "missing field `piece`"),
        (json!({"type": "move", "piece": -1}), "expected a whole number from 0 to 255"),
    ];
    for (action, words) in actions {
        let r = s.act(&id, &tokens[0], &action, seq).await;
        r.assert_problem(422, "illegal_action");
        assert!(detail(&r).contains(words), "{action}: {}", r.json);
    }
}

async fn a_full_luddo_game_between_four_clients(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 4, json!({})).await;
    // Each client reads its socket while the game is played, as a real one does (a client that
    // stops reading is dropped once the server's writes to it block, and one that answers no
    // ping for a minute is closed as idle): every entry up to the finish.
    let mut readers = vec![];
    for t in &tokens {
        let mut ws = s.ws(&id, &format!("token={t}")).await;
        readers.push(tokio::spawn(async move {
            let mut entries = vec![];
            loop {
                let e = ws.next_entry().await.expect("socket open until the finish");
                let finished = e["action"]["type"] == "finish";
                entries.push(e);
                if finished {
                    return entries;
                }
            }
        }));
    }
    let mut human_actions = 0;
    let final_seq = loop {
        let view = s.table_view(&id, Some(&tokens[0])).await;
        let play = &view["play"];
        if view["status"] == "finished" {
            break play["seq"].as_i64().unwrap();
        }
        let seat = play["to_act"].as_u64().expect("someone is to act") as usize;
        let mine = s.table_view(&id, Some(&tokens[seat])).await;
        let actions = mine["play"]["legal_actions"].as_array().unwrap().clone();
        assert!(!actions.is_empty(), "the seat to act has legal actions");
        // Vary the choice so games do not all look alike.
        let action = &actions[human_actions % actions.len()];
        let r = s.act(&id, &tokens[seat], action, mine["play"]["seq"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "{}", r.json);
        human_actions += 1;
        assert!(human_actions < 5_000, "the game ends");
    };
    // Every client saw every entry exactly once, in order, ending with the revealed seed.
    for reader in readers {
        let entries = reader.await.expect("the reader finished");
        let seqs: Vec<i64> = entries.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(seqs, (1..=final_seq).collect::<Vec<_>>(), "no gap, no duplicate, in order");
        // The lobby's entries first (each player's seat), then the start.
        assert_eq!(entries[0]["action"]["type"], "seat_taken");
        assert_eq!(entries[tokens.len()]["action"]["type"], "start");
        let last = entries.last().unwrap();
        assert_eq!(last["action"]["type"], "finish");
        let seed = last["action"]["seed"].as_str().unwrap();
        let view = s.table_view(&id, None).await;
        assert_eq!(view["seed"], seed);
        assert_eq!(
            view["seed_commitment"].as_str().unwrap(),
            hex::encode(Sha256::digest(hex::decode(seed).unwrap()))
        );
        let mut places: Vec<u64> = view["play"]["outcome"]["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        places.sort();
        assert_eq!(places, vec![1, 2, 3, 4], "everyone plays on for places");
        assert!(entries.iter().any(|e| e["actor"] == "human"));
    }
    let r = s.act(&id, &tokens[0], &json!({"type": "roll"}), final_seq).await;
    r.assert_problem(409, "game_over");
}

async fn actions_follow_the_seq_and_seat_rules(db: Db) {
    let s = TestServer::start(db).await;
    // Seat 0 wins the opening (6 against 1) and rolls a 3: nothing can leave base.
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"dice": [6, 1, 3]})).await;
    let view = s.table_view(&id, Some(&tokens[0])).await;
    assert_eq!(view["play"]["to_act"], 0);
    assert_eq!(view["play"]["your_seat"], 0);
    assert_eq!(view["play"]["legal_actions"], json!([{"type": "roll"}]));
    assert!(view["play"]["deadline"].is_string());
    let seq = view["play"]["seq"].as_i64().unwrap();
    let roll = json!({"type": "roll"});

    // Seat 1 may not act for seat 0; a stranger holds no seat; anonymous needs a token.
    let (_, stranger) = s.player("Stranger").await;
    s.act(&id, &tokens[1], &roll, seq).await.assert_problem(409, "not_your_turn");
    s.act(&id, &stranger, &roll, seq).await.assert_problem(403, "not_your_seat");
    s.post(&format!("/v1/tables/{id}/actions"), None, json!({"action": roll, "seq": seq}))
        .await
        .assert_problem(401, "unauthorized");
    s.act(&id, &tokens[0], &json!({"type": "move", "piece": 0}), seq)
        .await
        .assert_problem(422, "illegal_action");
    s.act(&id, &tokens[0], &json!({"type": "fly"}), seq).await.assert_problem(422, "illegal_action");
    s.post(&format!("/v1/tables/{id}/actions"), Some(&tokens[0]), json!({"action": roll}))
        .await
        .assert_problem(422, "invalid_body");

    // A stale seq is refused; the right one is applied once; repeating it is stale.
    s.act(&id, &tokens[0], &roll, seq - 1).await.assert_problem(409, "stale_seq");
    // A seq the table has not reached is a client's mistake, not a race: its own code.
    let ahead = s.act(&id, &tokens[0], &roll, seq + 5).await;
    ahead.assert_problem(409, "seq_ahead");
    assert!(!ahead.json["detail"].as_str().unwrap().contains("moved on"), "{}", ahead.json);
    let ok = s.act(&id, &tokens[0], &roll, seq).await;
    assert_eq!(ok.status, 200);
    assert_eq!(ok.json["seq"], seq + 1);
    assert!(
        ok.json["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["type"] == "rolled" && e["dice"] == json!([3]))
    );
    s.act(&id, &tokens[0], &roll, seq).await.assert_problem(409, "stale_seq");

    // Reclaiming a seat no bot holds is refused; a table that has not started has no play.
    s.post(&format!("/v1/tables/{id}/reclaim"), Some(&tokens[0]), json!({}))
        .await
        .assert_problem(409, "not_bot_controlled");
    s.post(&format!("/v1/tables/{id}/reclaim"), Some(&stranger), json!({}))
        .await
        .assert_problem(403, "not_your_seat");
    let open = s.table(&stranger, json!({"game": "luddo", "seat_count": 2})).await;
    let open_id = open["id"].as_str().unwrap();
    s.act(open_id, &stranger, &roll, 0).await.assert_problem(409, "table_not_started");
    s.act(&uuid::Uuid::new_v4().to_string(), &stranger, &roll, 0)
        .await
        .assert_problem(404, "table_not_found");

    // Actions over the WebSocket follow the same rules, one reply each.
    let mut ws = s.ws(&id, &format!("token={}", tokens[1])).await;
    let now = s.table_view(&id, Some(&tokens[1])).await["play"]["seq"].as_i64().unwrap();
    ws.send(json!({"type": "action", "id": "a", "seq": now - 1, "action": roll})).await;
    let reply = loop {
        let m = ws.next().await.unwrap();
        if m["type"] == "reply" {
            break m;
        }
    };
    assert_eq!(reply["ok"], false);
    assert_eq!(reply["error"]["code"], "stale_seq");
    ws.send(json!({"type": "action", "id": "b", "seq": now, "action": roll})).await;
    let reply = loop {
        let m = ws.next().await.unwrap();
        if m["type"] == "reply" {
            break m;
        }
    };
    assert_eq!(reply["id"], "b");
    assert_eq!(reply["ok"], true, "{reply}");
    assert_eq!(reply["seq"], now + 1);
    ws.send(json!({"type": "nonsense"})).await;
    let err = loop {
        let m = ws.next().await.unwrap();
        if m["type"] == "error" {
            break m;
        }
    };
    assert_eq!(err["code"], "invalid_message");
}

async fn spectators_watch_and_resume_with_since(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    let mut watcher = s.ws(&id, "since=0").await;
    let first = watcher.next_entry().await.unwrap();
    assert_eq!(first["seq"], 1);
    assert_eq!(first["actor"], "server");
    // Play a few rolls.
    for _ in 0..6 {
        let view = s.table_view(&id, None).await;
        if view["status"] == "finished" {
            break;
        }
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let r =
            s.act(&id, &tokens[seat], &json!({"type": "roll"}), view["play"]["seq"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200);
    }
    let seq = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();
    let seen = entries_upto(&mut watcher, 2, 3).await;
    assert_eq!(seen.len(), 2);
    watcher.close().await;
    // Reconnect after seq 3: entries 4.. with no gap and no duplicate.
    let mut again = s.ws(&id, "since=3").await;
    let rest = entries_upto(&mut again, 4, seq).await;
    assert_eq!(rest.len() as i64, seq - 3);
    // A spectator cannot act over the socket.
    again.send(json!({"type": "action", "id": 1, "seq": seq, "action": {"type": "roll"}})).await;
    let reply = loop {
        let m = again.next().await.unwrap();
        if m["type"] == "reply" {
            break m;
        }
    };
    assert_eq!(reply["error"]["status"], 401);
    // since beyond the end: live only; negative: refused before the upgrade.
    let r = s.get(&format!("/v1/tables/{id}/events?since=-1"), None).await;
    assert_eq!(r.status, 400);
}

async fn private_tables_are_not_watched_by_strangers(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({"visibility": "private"})).await;
    let (_, stranger) = s.player("Stranger").await;
    let url = format!("{}/v1/tables/{id}/events", s.base.replace("http://", "ws://"));
    assert!(tokio_tungstenite::connect_async(url.clone()).await.is_err(), "anonymous refused");
    assert!(
        tokio_tungstenite::connect_async(format!("{url}?token={stranger}")).await.is_err(),
        "stranger refused"
    );
    assert!(
        tokio_tungstenite::connect_async(format!("{url}?token=ldo_wrong")).await.is_err(),
        "bad token refused"
    );
    let mut ws = s.ws(&id, &format!("token={}", tokens[1])).await;
    assert_eq!(ws.next_entry().await.unwrap()["seq"], 1);
}

async fn every_game_plays_to_the_end_with_bots(db: Db) {
    let s = TestServer::start(db).await;
    for (game, seats) in [("luddo", 6), ("ludo", 3), ("uckers", 4), ("snakes", 4), ("backgammon", 2)] {
        let (_, host) = s.player("Host").await;
        let t = s.table(&host, json!({"game": game, "seat_count": seats})).await;
        let id = t["id"].as_str().unwrap().to_string();
        let r = s.post(&format!("/v1/tables/{id}/start"), Some(&host), json!({"fill_with_bots": true})).await;
        assert_eq!(r.status, 200, "{game}: {}", r.json);
        let mut ws = s.ws(&id, &format!("token={host}")).await;
        let mut actions = 0;
        loop {
            let view = s.table_view(&id, Some(&host)).await;
            if view["status"] == "finished" {
                let outcome = &view["play"]["outcome"];
                assert!(outcome["places"].as_array().unwrap().iter().any(|p| p == 1), "{game}: a winner");
                break;
            }
            // The host plays its own seat with its first legal action.
            let play = &view["play"];
            let legal = play["legal_actions"].as_array().unwrap();
            // Uckers: never resign on purpose here.
            let action = legal.iter().find(|a| a["type"] != "up_board").or(legal.first()).cloned();
            if let Some(action) = action {
                let r = s.act(&id, &host, &action, play["seq"].as_i64().unwrap()).await;
                assert!(r.status == 200 || r.json["code"] == "stale_seq", "{game}: {}", r.json);
            }
            actions += 1;
            assert!(actions < 20_000, "{game} ends");
        }
        let last = ws.entry_where(|e| e["action"]["type"] == "finish").await;
        assert!(last["action"]["seed"].is_string(), "{game}: seed revealed");
    }
}

/// GNU Backgammon sets no Crawford game in a 1-point match (docs/rules/backgammon.md): its one
/// game is an ordinary one, where the cube may be turned.
async fn a_one_point_backgammon_match_has_no_crawford_game(db: Db) {
    let s = TestServer::start(db).await;
    // Opening: seat 0 throws 6, seat 1 throws 1; seat 0 plays 6-1.
    let extra = json!({"options": {"match_to": 1}, "dice": [6, 1]});
    let (id, tokens) = seated_table(&s, "backgammon", 2, extra).await;
    let view = s.table_view(&id, Some(&tokens[0])).await;
    assert_eq!(view["play"]["state"]["crawford_game"], false, "{}", view["play"]["state"]);
    let play = view["play"]["legal_actions"][0].clone();
    let r = s.act(&id, &tokens[0], &play, view["play"]["seq"].as_i64().unwrap()).await;
    assert_eq!(r.status, 200, "{}", r.json);
    let view = s.table_view(&id, Some(&tokens[1])).await;
    let legal = view["play"]["legal_actions"].as_array().unwrap();
    assert!(legal.contains(&json!({"type": "double"})), "{legal:?}");
    let r = s.act(&id, &tokens[1], &json!({"type": "double"}), view["play"]["seq"].as_i64().unwrap()).await;
    assert_eq!(r.status, 200, "{}", r.json);
}

/// RULES §5 rule 7 over HTTP: green's play joins its challenged blob of 2, then leaves it, as
/// posted; the blob is never a single piece, so red's challenge stands (docs/rules/uckers.md).
async fn an_uckers_challenge_lapses_on_the_order_the_owner_posted(db: Db) {
    let s = TestServer::start(db).await;
    #[rustfmt::skip]
    let dice = [
        6, 6, 1, 2, 1, 2, 1, 2, // opening: yellow starts
        2, 3, // yellow: nothing out
        6, 6, 6, 6, 3, 1, // red: two out (forced), red 0 on by 12, then 3 (to square 28) and 1
        1, 1, // green: navy snake eyes, yellow and green all out
        2, 3, 2, 3, // blue: nothing out; yellow
        2, 1, // red: red 1 on
        3, 3, // green: two pieces to progress 3 (square 29), a blob before red 0
        2, 3, 2, 3, // blue; yellow
        6, 2, 2, 3, // red: challenge, then its extra throw
        4, 3, // green
    ];
    let (id, tokens) = seated_table(&s, "uckers", 4, json!({"dice": dice.to_vec()})).await;
    let piece = |colour: &str, index: u8| json!({"colour": colour, "index": index});
    // `null` plays the seat's first legal action (yellow's moves do not matter here).
    let act = async |seat: usize, action: serde_json::Value| {
        let view = s.table_view(&id, Some(&tokens[seat])).await;
        assert_eq!(view["play"]["to_act"], seat, "{}", view["play"]["state"]);
        let action = if action.is_null() { view["play"]["legal_actions"][0].clone() } else { action };
        let r = s.act(&id, &tokens[seat], &action, view["play"]["seq"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "{action}: {}", r.json);
    };
    let roll = || json!({"type": "roll"});
    let split = |colour: &str, [(a, da), (b, db)]: [(u8, u8); 2]| {
        let steps =
            [json!({"piece": piece(colour, a), "die": da}), json!({"piece": piece(colour, b), "die": db})];
        json!({"type": "move", "steps": steps})
    };
    let script = [
        (0, roll()),
        (1, roll()),
        (1, roll()),
        (1, json!({"type": "total", "piece": piece("red", 0)})),
        (1, roll()),
        (1, split("red", [(0, 3), (1, 1)])),
        (2, roll()),
        (3, roll()),
        (0, roll()),
        (0, serde_json::Value::Null),
        (1, roll()),
        (1, json!({"type": "total", "piece": piece("red", 1)})),
        (2, roll()),
        (2, split("green", [(0, 3), (1, 3)])),
        (3, roll()),
        (0, roll()),
        (0, serde_json::Value::Null),
        (1, roll()),
        (1, json!({"type": "challenge", "piece": piece("red", 0), "target": 29})),
        (1, roll()),
        (2, roll()),
    ];
    for (seat, action) in script {
        act(seat, action).await;
    }
    let view = s.table_view(&id, None).await;
    assert_eq!(view["play"]["state"]["colours"][1]["challenge"]["sixes"], 1, "{}", view["play"]["state"]);
    // Green piece 2 (on its start square) joins the blob, then piece 0 leaves it.
    act(2, split("green", [(2, 3), (0, 4)])).await;
    let view = s.table_view(&id, None).await;
    let state = &view["play"]["state"];
    assert_eq!(state["colours"][1]["challenge"]["sixes"], 1, "the challenge stands: {state}");
}

async fn backgammon_positions_are_analysed(db: Db) {
    let s = TestServer::start(db).await;
    let r =
        s.post("/v1/backgammon/plays", None, json!({"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]})).await;
    assert_eq!(r.status, 200);
    let plays = r.json["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 16, "GNU Backgammon lists 16 plays for an opening 31");
    assert!(plays.iter().any(|p| p["play"] == "8/5 6/5"));
    // Each play's `moves` are what a `play` action posts back, under the same name.
    let steps = json!([{"from": 8, "to": 5}, {"from": 6, "to": 5}]);
    assert!(plays.iter().any(|p| p["play"] == "8/5 6/5" && p["moves"] == steps), "{}", r.json);
    let r = s
        .post(
            "/v1/backgammon/plays",
            None,
            json!({"xgid": "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "dice": [6, 6]}),
        )
        .await;
    assert_eq!(r.status, 200);
    s.post("/v1/backgammon/plays", None, json!({"position_id": "nope", "dice": [3, 1]}))
        .await
        .assert_problem(422, "invalid_position");
    s.post("/v1/backgammon/plays", None, json!({"position_id": "4HPwATDgc/ABMA", "dice": [7, 1]}))
        .await
        .assert_problem(422, "invalid_dice");
    s.post("/v1/backgammon/plays", None, json!({"dice": [3, 1]}))
        .await
        .assert_problem(422, "invalid_position");
    s.post("/v1/backgammon/plays", None, json!({"position_id": "4HPwATDgc/ABMA", "dice": [3]}))
        .await
        .assert_problem(422, "invalid_body");
}

async fn up_boarding_goes_on_the_back_of_the_board(db: Db) {
    let s = TestServer::start(db).await;
    let empty = s.get("/v1/hall-of-shame", None).await;
    assert_eq!(empty.status, 200);
    assert_eq!(empty.json["entries"], json!([]));
    // Two tables of Uckers; in each, seat 1's player up-boards (resigns), out of turn if need be.
    let mut resigned = vec![];
    for _ in 0..2 {
        let (id, tokens) = seated_table(&s, "uckers", 2, json!({})).await;
        let me = s.get("/v1/players/me", Some(&tokens[1])).await.json;
        let view = s.table_view(&id, Some(&tokens[1])).await;
        assert!(view["play"]["legal_actions"].as_array().unwrap().contains(&json!({"type": "up_board"})));
        let r =
            s.act(&id, &tokens[1], &json!({"type": "up_board"}), view["play"]["seq"].as_i64().unwrap()).await;
        assert_eq!(r.status, 200, "{}", r.json);
        let view = s.table_view(&id, None).await;
        assert_eq!(view["status"], "finished");
        assert_eq!(view["play"]["outcome"]["shame"][0]["kind"], "up_board");
        resigned.push((id, me));
    }
    let page = s.get("/v1/hall-of-shame", None).await;
    let entries = page.json["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 2);
    let (newest_table, newest_player) = &resigned[1];
    assert_eq!(entries[0]["table_id"], newest_table.as_str(), "newest first");
    assert_eq!(entries[0]["name"], newest_player["name"]);
    assert_eq!(entries[0]["player_id"], newest_player["id"]);
    assert_eq!(entries[0]["kind"], "up_board");
    assert_eq!(entries[0]["game"], "uckers");
    assert!(entries[0]["at"].is_string());

    let first = s.get("/v1/hall-of-shame?limit=1", None).await;
    assert_eq!(first.json["entries"].as_array().unwrap().len(), 1);
    let cursor = first.json["next_cursor"].as_str().unwrap();
    let second = s.get(&format!("/v1/hall-of-shame?limit=1&cursor={cursor}"), None).await;
    assert_eq!(second.json["entries"][0]["table_id"], resigned[0].0.as_str());
    assert!(second.json.get("next_cursor").is_none());
    let mine =
        s.get(&format!("/v1/hall-of-shame?player={}", resigned[0].1["id"].as_str().unwrap()), None).await;
    assert_eq!(mine.json["entries"].as_array().unwrap().len(), 1);
    let luddo = s.get("/v1/hall-of-shame?game=luddo", None).await;
    assert_eq!(luddo.json["entries"], json!([]));
    s.get("/v1/hall-of-shame?limit=0", None).await.assert_problem(400, "invalid_query");
    s.get("/v1/hall-of-shame?game=chess", None).await.assert_problem(422, "unknown_game");
    s.get("/v1/hall-of-shame?cursor=x", None).await.assert_problem(400, "invalid_query");
}

async fn actions_and_connections_are_limited(db: Db) {
    let config = Config {
        actions_per_minute: 2,
        max_sockets_per_player: 1,
        max_spectators_per_table: 1,
        ..test_config()
    };
    let s = TestServer::start_with(db, config).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    // A player's second socket and a table's second spectator are refused until one closes.
    let first = s.ws(&id, &format!("token={}", tokens[0])).await;
    let url = format!("{}/v1/tables/{id}/events", s.base.replace("http://", "ws://"));
    match tokio_tungstenite::connect_async(format!("{url}?token={}", tokens[0])).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 429);
            let after = response.headers().get("retry-after").expect("a 429 says when to retry");
            assert!(after.to_str().unwrap().parse::<u64>().unwrap() >= 1);
        }
        other => panic!("expected a 429, got {other:?}"),
    }
    let spectator = s.ws(&id, "since=0").await;
    assert!(tokio_tungstenite::connect_async(format!("{url}?since=0")).await.is_err());
    first.close().await;
    spectator.close().await;
    // Closed sockets free their slots (the server notices the close a moment later).
    let mut reopened = false;
    for _ in 0..50 {
        if tokio_tungstenite::connect_async(format!("{url}?token={}", tokens[0])).await.is_ok() {
            reopened = true;
            break;
        }
        tokio::task::yield_now().await;
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(reopened, "a closed socket frees its slot");

    // Two actions a minute per player: the third is refused with Retry-After.
    let mut limited = None;
    for _ in 0..6 {
        let view = s.table_view(&id, None).await;
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let r =
            s.act(&id, &tokens[seat], &json!({"type": "roll"}), view["play"]["seq"].as_i64().unwrap()).await;
        if r.status == 429 {
            limited = Some(r);
            break;
        }
        assert_eq!(r.status, 200, "{}", r.json);
    }
    let r = limited.expect("the rate limit bites");
    r.assert_problem(429, "rate_limited");
    assert!(r.headers.contains_key("retry-after"));
}

/// Each entry carries every seat's legal actions: clients can play a whole game without asking
/// for the table between moves, and what the entry offers is what the view offers.
async fn a_game_played_from_the_entries_alone(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 2, json!({})).await;
    let mut ws = s.ws(&id, "since=0").await;
    let mut checked_against_view = false;
    let mut actions = 0;
    loop {
        let entry = ws.next_entry().await.expect("socket open");
        if entry["action"]["type"] == "finish" {
            assert!(
                entry["legal_actions_by_seat"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .all(|l| l.as_array().unwrap().is_empty())
            );
            break;
        }
        // A human decision is pending when the entry leaves a clock running.
        let (Some(seat), false) = (entry["to_act"].as_u64(), entry["deadline"].is_null()) else { continue };
        let seat = seat as usize;
        let legal = entry["legal_actions_by_seat"][seat].as_array().expect("legal actions by seat").clone();
        assert!(!legal.is_empty(), "the seat to act has legal actions: {entry}");
        let seq = entry["seq"].as_i64().unwrap();
        if !checked_against_view {
            let view = s.table_view(&id, Some(&tokens[seat])).await;
            if view["play"]["seq"] == seq {
                assert_eq!(view["play"]["legal_actions"], json!(legal));
                checked_against_view = true;
            }
        }
        let r = s.act(&id, &tokens[seat], &legal[actions % legal.len()], seq).await;
        assert_eq!(r.status, 200, "{}", r.json);
        actions += 1;
        assert!(actions < 5_000, "the game ends");
    }
    assert!(checked_against_view);
}

/// Every seat posts at the same moment, several times over, each what it believes is the next
/// action at the current `seq`: the actor takes exactly one per `seq`, refuses the rest (stale
/// `seq` or not their turn), and the log holds each `seq` once, in order.
async fn many_clients_posting_at_once_are_serialized(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 4, json!({})).await;
    let mut accepted = 0;
    for round in 0..30 {
        let view = s.table_view(&id, Some(&tokens[0])).await;
        if view["status"] == "finished" {
            break;
        }
        let seq = view["play"]["seq"].as_i64().unwrap();
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let mine = s.table_view(&id, Some(&tokens[seat])).await;
        let legal = mine["play"]["legal_actions"].as_array().unwrap().clone();
        // Five copies of each legal action from the seat to act, and a roll from every other
        // seat. (The seat to act posts only legal actions: a roll of its own while it must move
        // would be refused as illegal if it reached the actor first, which is a different test.)
        let mut posts = vec![];
        for _ in 0..5 {
            posts.extend(legal.iter().map(|action| (seat, action.clone())));
        }
        posts.extend((0..4).filter(|&other| other != seat).map(|other| (other, json!({"type": "roll"}))));
        let answers = futures_util::future::join_all(
            posts.iter().map(|(seat, action)| s.act(&id, &tokens[*seat], action, seq)),
        )
        .await;
        let ok: Vec<_> = answers.iter().filter(|r| r.status == 200).collect();
        assert_eq!(ok.len(), 1, "round {round}: exactly one post wins seq {seq}");
        for r in answers.iter().filter(|r| r.status != 200) {
            assert_eq!(r.status, 409, "{}", r.json);
            let code = r.json["code"].as_str().unwrap();
            assert!(["stale_seq", "not_your_turn", "not_your_seat"].contains(&code), "{code}");
        }
        assert_eq!(ok[0].json["seq"], seq + 1);
        accepted += 1;
    }
    assert!(accepted >= 10);
    let upto = s.table_view(&id, None).await["play"]["seq"].as_i64().unwrap();
    let mut ws = s.ws(&id, "since=0").await;
    entries_upto(&mut ws, 1, upto).await;
}
