//! The luck and fairness ledger over real HTTP, against SQLite and PostgreSQL (docs/luck.md):
//! a finished table's dice are counted, a moment after its finish, for the players who held its
//! seats and for the site; the figures agree with a count made here by hand from the table's
//! own record; private tables count for strangers nowhere but the site's sums; the player's
//! own dice download recomputes from its proofs.

mod common;

use common::{Db, TestServer, play_out, play_out_choosing, seated_table};
use luddo::rules::backgammon::board::{Position, legal_plays};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

both_stores!(
    a_finished_tables_dice_are_counted_as_its_record_shows_them,
    backgammon_luck_is_the_nets_equity_against_every_roll_counted_by_brute_force,
    a_private_table_counts_for_strangers_only_on_the_site,
    the_dice_download_lists_every_die_with_its_proofs,
    bad_requests_get_problems,
);

/// The throwing events' dice, by seat, as the record shows them (written here without the
/// server's code).
fn dice_by_seat(record: &Value, seats: usize) -> Vec<Vec<Vec<u64>>> {
    let mut out = vec![vec![]; seats];
    for e in record["entries"].as_array().unwrap() {
        for ev in e["events"].as_array().unwrap() {
            let t = ev["type"].as_str().unwrap_or_default();
            if t != "rolled" && t != "opening_rolled" {
                continue;
            }
            let seat = ev["seat"].as_u64().or(e["seat"].as_u64()).unwrap() as usize;
            let dice: Vec<u64> = match &ev["dice"] {
                Value::Array(d) => d.iter().map(|d| d.as_u64().unwrap()).collect(),
                _ => vec![ev["value"].as_u64().or(ev["die"].as_u64()).unwrap()],
            };
            out[seat].push(dice);
        }
    }
    out
}

fn chi_square(observed: &[f64], expected: &[f64]) -> f64 {
    observed.iter().zip(expected).map(|(o, e)| (o - e) * (o - e) / e).sum()
}

/// Waits for the ledger worker to count what has finished: until `path` lists `tables` tables
/// of `game` for the viewer.
async fn counted(s: &TestServer, path: &str, token: Option<&str>, game: &str, tables: i64) -> Value {
    for _ in 0..300 {
        let r = s.get(path, token).await;
        assert_eq!(r.status, 200, "{}", r.json);
        let g = r.json["games"].as_array().unwrap().iter().find(|g| g["game"] == game).cloned();
        if g.as_ref().is_some_and(|g| g["tables"] == tables) {
            return g.unwrap();
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("{path}: {game} never counted {tables} tables");
}

async fn record(s: &TestServer, id: &str) -> Value {
    let r = s.get(&format!("/v1/tables/{id}/record?format=json"), None).await;
    assert_eq!(r.status, 200);
    r.json
}

async fn a_finished_tables_dice_are_counted_as_its_record_shows_them(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "luddo", 4, json!({})).await;
    play_out(&s, &id, &tokens).await;
    let record = record(&s, &id).await;
    let by_seat = dice_by_seat(&record, 4);
    let mut site_faces = [0f64; 6];
    for (seat, token) in tokens.iter().enumerate() {
        let me = s.get("/v1/players/me", Some(token)).await.json["id"].as_str().unwrap().to_string();
        let g = counted(&s, &format!("/v1/players/{me}/luck"), None, "luddo", 1).await;
        let mut faces = [0f64; 6];
        for d in by_seat[seat].iter().flatten() {
            faces[*d as usize - 1] += 1.0;
            site_faces[*d as usize - 1] += 1.0;
        }
        let n: f64 = faces.iter().sum();
        assert!(n > 0.0);
        assert_eq!(g["faces"], json!(faces.map(|f| f as u64)), "seat {seat}");
        assert_eq!(g["dice"], n as u64);
        assert_eq!(g["throws"], by_seat[seat].len());
        // The statistics by hand: faces against n/6 each, sixes against n/6.
        let x = chi_square(&faces, &[n / 6.0; 6]);
        assert!((g["faces_test"]["chi_square"].as_f64().unwrap() - x).abs() < 1e-9, "{g}");
        assert_eq!(g["faces_test"]["dof"], 5);
        // 5 degrees of freedom: erfc(√(x/2)) + √(2x/π)·e^(−x/2)·(1 + x/3); erfc from its series.
        let p = erfc((x / 2.0).sqrt())
            + (2.0 * x / std::f64::consts::PI).sqrt() * (-x / 2.0).exp() * (1.0 + x / 3.0);
        assert!((g["faces_test"]["p_value"].as_f64().unwrap() - p).abs() < 1e-9, "{g} vs {p}");
        let x6 = chi_square(&[faces[5], n - faces[5]], &[n / 6.0, 5.0 * n / 6.0]);
        assert!((g["sixes_test"]["chi_square"].as_f64().unwrap() - x6).abs() < 1e-9);
        let p6 = erfc((x6 / 2.0).sqrt());
        assert!((g["sixes_test"]["p_value"].as_f64().unwrap() - p6).abs() < 1e-9);
        assert!((g["sixes_rate"].as_f64().unwrap() - faces[5] / n).abs() < 1e-12);
        assert!(g.get("luck").is_none(), "luck is backgammon's");
        let luck = s.get(&format!("/v1/players/{me}/luck"), None).await.json;
        assert_eq!(luck["recent"][0]["table_id"], id.as_str());
        assert_eq!(luck["recent"][0]["seat"], seat);
    }
    let site = counted(&s, "/v1/fairness", None, "luddo", 1).await;
    assert_eq!(site["faces"], json!(site_faces.map(|f| f as u64)));
    // Counted once: the worker's next rounds add nothing.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    assert_eq!(counted(&s, "/v1/fairness", None, "luddo", 1).await, site);
}

/// erfc(x) from the series of erf (the arguments here are small).
fn erfc(x: f64) -> f64 {
    if x > 5.0 {
        return 0.0;
    }
    let (mut sum, mut term) = (0.0, x);
    for n in 0..400 {
        sum += term / (2 * n + 1) as f64;
        term *= -x * x / (n + 1) as f64;
    }
    1.0 - 2.0 / std::f64::consts::PI.sqrt() * sum
}

/// The luck of each roll, the plain way: the position before it from the previous entry's
/// `state` (not the events), every legal play of each of the 36 rolls evaluated.
fn brute_force_luck(record: &Value) -> [f64; 2] {
    let net = luddo::bots::backgammon::network();
    let mut luck = [0.0; 2];
    let entries = record["entries"].as_array().unwrap();
    for pair in entries.windows(2) {
        let (before, e) = (&pair[0], &pair[1]);
        for ev in e["events"].as_array().unwrap() {
            if ev["type"] != "rolled" {
                continue;
            }
            let seat = ev["seat"].as_u64().unwrap() as usize;
            let board: [[u8; 25]; 2] = serde_json::from_value(before["state"]["board"].clone()).unwrap();
            let pos = Position { me: board[seat], opp: board[1 - seat] };
            let best = |dice: [u8; 2]| -> f64 {
                let plays = legal_plays(&pos, dice);
                if plays.is_empty() {
                    return net.evaluate(&pos).equity() as f64;
                }
                plays.iter().map(|p| net.evaluate(&p.result).equity() as f64).fold(f64::MIN, f64::max)
            };
            let mut sum = 0.0;
            for a in 1..=6 {
                for b in 1..=6 {
                    sum += best([a, b]);
                }
            }
            let dice: [u8; 2] = serde_json::from_value(ev["dice"].clone()).unwrap();
            luck[seat] += best(dice) - sum / 36.0;
        }
    }
    luck
}

async fn backgammon_luck_is_the_nets_equity_against_every_roll_counted_by_brute_force(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "backgammon", 2, json!({"options": {"match_to": 1}})).await;
    let mut state = 11u64;
    play_out_choosing(&s, &id, &tokens, move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    })
    .await;
    let record = record(&s, &id).await;
    let expected = brute_force_luck(&record);
    let rolls = dice_by_seat(&record, 2);
    for (seat, token) in tokens.iter().enumerate() {
        let me = s.get("/v1/players/me", Some(token)).await.json["id"].as_str().unwrap().to_string();
        let g = counted(&s, &format!("/v1/players/{me}/luck"), None, "backgammon", 1).await;
        let luck = &g["luck"];
        // The opening's one-die throws are not rolls with a luck of their own.
        let two_dice = rolls[seat].iter().filter(|d| d.len() == 2).count();
        assert_eq!(luck["rolls"], two_dice, "{g}");
        assert!((luck["total"].as_f64().unwrap() - expected[seat]).abs() < 2e-3, "{g} vs {}", expected[seat]);
        assert_eq!(g["pairs"], two_dice);
        let doubles = rolls[seat].iter().filter(|d| d.len() == 2 && d[0] == d[1]).count();
        assert_eq!(g["doubles"], doubles);
    }
    let site = counted(&s, "/v1/fairness", None, "backgammon", 1).await;
    assert!((site["luck"]["total"].as_f64().unwrap() - (expected[0] + expected[1])).abs() < 4e-3);
}

async fn a_private_table_counts_for_strangers_only_on_the_site(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({"visibility": "private"})).await;
    play_out(&s, &id, &tokens).await;
    let me = s.get("/v1/players/me", Some(&tokens[0])).await.json["id"].as_str().unwrap().to_string();
    let path = format!("/v1/players/{me}/luck");
    counted(&s, &path, Some(&tokens[0]), "snakes", 1).await;
    counted(&s, "/v1/fairness", None, "snakes", 1).await;
    for token in [None, Some(tokens[1].as_str())] {
        let r = s.get(&path, token).await.json;
        assert_eq!(r["games"], json!([]), "{r}");
        assert_eq!(r["recent"], json!([]), "{r}");
    }
}

async fn the_dice_download_lists_every_die_with_its_proofs(db: Db) {
    let s = TestServer::start(db).await;
    let (id, tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    play_out(&s, &id, &tokens).await;
    let record = record(&s, &id).await;
    let r = s.get("/v1/players/me/dice", Some(&tokens[1])).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.headers["content-type"], "application/x-ndjson");
    let lines: Vec<Value> = r.text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let mine: Vec<u64> = dice_by_seat(&record, 2)[1].iter().flatten().copied().collect();
    assert_eq!(lines.iter().map(|l| l["value"].as_u64().unwrap()).collect::<Vec<_>>(), mine);
    let seed = record["table"]["seed"].as_str().unwrap();
    let commitment = hex::encode(Sha256::digest(hex::decode(seed).unwrap()));
    let mut last_k = None;
    for l in &lines {
        assert_eq!((l["table_id"].as_str(), l["seat"].as_u64()), (Some(id.as_str()), Some(1)));
        assert_eq!(l["server_seed"], seed);
        assert_eq!(l["seed_commitment"], commitment.as_str());
        assert_eq!(l["client_seed"], record["table"]["client_seed"]);
        let k = l["k"].as_u64().unwrap();
        assert!(last_k.is_none_or(|last| k > last));
        last_k = Some(k);
        // Die #k of the recipe is the value.
        let server = luddo::rules::dice::ServerSeed::from_hex(seed).unwrap();
        let dice = luddo::rules::dice::FairDice::new(server, l["client_seed"].as_str().unwrap(), 0);
        assert_eq!(l["value"].as_u64().unwrap() as u8, dice.die(k), "{l}");
    }
}

async fn bad_requests_get_problems(db: Db) {
    let s = TestServer::start(db).await;
    let (_, token) = s.player("Me").await;
    s.get("/v1/players/not-a-uuid/luck", None).await.assert_problem(404, "not_found");
    s.get(&format!("/v1/players/{}/luck", uuid::Uuid::new_v4()), None).await.assert_problem(404, "not_found");
    s.get("/v1/players/me/dice", None).await.assert_problem(401, "unauthorized");
    s.get("/v1/players/me/dice?format=csv", Some(&token)).await.assert_problem(400, "invalid_query");
    let r = s.get("/v1/players/me/dice", Some(&token)).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.text, "");
}
