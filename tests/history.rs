//! The tamper-evident history (docs/history.md) over real HTTP and the real stores: finished
//! tables are linked in the finish's transaction, the head is signed, a table's proof verifies
//! against its record and the server's public key — and no longer does once a finished game's
//! entry or rating is edited in the database, or a link is deleted.

mod common;

use common::{Db, TestServer, play_out, seated_table, test_config};
use luddo::{
    config::Config,
    history::{Proof, ProofError, Signer, verify_proof},
    verify::TableLog,
};
use serde_json::{Value, json};
use std::time::Duration;

both_stores!(
    finished_tables_are_in_the_signed_history_and_verify,
    the_verifier_refuses_a_record_edited_after_its_checkpoint,
    the_verifier_refuses_a_skipped_link,
    the_history_answers_problems_before_a_table_is_in_it,
);

const SECRET: [u8; 32] = [7; 32];

/// A server that signs with [`SECRET`], every `every`.
async fn server(db: Db, every: Duration) -> TestServer {
    let config = Config { signing_key: Some(SECRET), checkpoint_every: every, ..test_config() };
    TestServer::start_with(db, config).await
}

/// Plays out a 2-seat snakes table of two players (rated): its id.
async fn finished_table(s: &TestServer) -> String {
    let (id, tokens) = seated_table(s, "snakes", 2, json!({})).await;
    play_out(s, &id, &tokens).await;
    id
}

async fn record(s: &TestServer, id: &str) -> TableLog {
    let r = s.get(&format!("/v1/tables/{id}/record?format=json"), None).await;
    assert_eq!(r.status, 200, "{}", r.json);
    serde_json::from_value(r.json).unwrap()
}

/// The table's proof, once a checkpoint covers it.
async fn proof(s: &TestServer, id: &str) -> Proof {
    for _ in 0..200 {
        let r = s.get(&format!("/v1/tables/{id}/history"), None).await;
        if r.status == 200 {
            return serde_json::from_value(r.json).unwrap();
        }
        r.assert_problem(409, "history_not_checkpointed");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("no checkpoint covered table {id}");
}

/// Signs the head now, as the server's task would.
async fn sign_now(s: &TestServer) {
    let cp = luddo::history::sign_once(&s.store, &Signer::new(SECRET), Duration::ZERO, 1, 0).await.unwrap();
    assert!(cp.is_some(), "the head had moved");
}

/// `luddo verify <url>`, the binary: its exit code and what it printed (awaited, so that the
/// test's runtime keeps serving it).
async fn luddo_verify(url: &str) -> (Option<i32>, String) {
    let out = tokio::process::Command::new(env!("CARGO_BIN_EXE_luddo"))
        .args(["verify", url])
        .output()
        .await
        .unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

async fn finished_tables_are_in_the_signed_history_and_verify(db: Db) {
    let s = server(db, Duration::from_millis(50)).await;
    let key = s.get("/.well-known/luddo-history-key", None).await;
    assert_eq!(key.status, 200);
    assert_eq!(key.json["algorithm"], "Ed25519");
    assert_eq!(key.json["public_key"], Signer::new(SECRET).public_hex());
    let mut positions = vec![];
    for _ in 0..3 {
        let id = finished_table(&s).await;
        let record = record(&s, &id).await;
        let proof = proof(&s, &id).await;
        assert_eq!(proof.link.table_id.to_string(), id);
        assert_eq!(proof.ratings.len(), 2, "two players, both rated: {:?}", proof.ratings);
        let verified = verify_proof(&record.table, &record.entries, &proof, key.json["public_key"].as_str())
            .unwrap_or_else(|e| panic!("{e}"));
        positions.push(verified.position);
        // The binary, from the server: the dice and the history.
        let (code, out) = luddo_verify(&format!("{}/v1/tables/{id}", s.base)).await;
        assert_eq!(code, Some(0), "{out}");
        assert!(out.contains(&format!("link {} of the chain", verified.position)), "{out}");
    }
    assert_eq!(positions, [1, 2, 3], "one link per finish, in order");
    assert_eq!(s.db.text("SELECT CAST(position AS TEXT) FROM history_head").await.as_deref(), Some("3"));
}

async fn the_verifier_refuses_a_record_edited_after_its_checkpoint(db: Db) {
    let s = server(db, Duration::from_millis(50)).await;
    let id = finished_table(&s).await;
    let url = format!("{}/v1/tables/{id}", s.base);
    let before = proof(&s, &id).await;
    assert_eq!(luddo_verify(&url).await.0, Some(0));
    // A move of the finished game rewritten in the database (its time, which no die shows):
    // the dice still verify, the history does not.
    s.db.execute(&format!("UPDATE actions SET at = at + 1000 WHERE table_id = '{id}' AND seq = 4")).await;
    let edited = record(&s, &id).await;
    luddo::verify::verify(&edited).expect("the dice check cannot see it");
    let err = verify_proof(&edited.table, &edited.entries, &before, None).unwrap_err();
    assert!(matches!(err, ProofError::RecordChanged { .. }), "{err}");
    let (code, out) = luddo_verify(&url).await;
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("NOT verified") && out.contains("the record was changed"), "{out}");
    // Put back, it verifies again; a rating rewritten, it does not.
    s.db.execute(&format!("UPDATE actions SET at = at - 1000 WHERE table_id = '{id}' AND seq = 4")).await;
    assert_eq!(luddo_verify(&url).await.0, Some(0));
    s.db.execute(&format!(
        "UPDATE rating_changes SET rating_after = rating_after + 100 WHERE table_id = '{id}'"
    ))
    .await;
    let (code, out) = luddo_verify(&url).await;
    assert_eq!(code, Some(1), "{out}");
    // A proof served with the rating put back in it: still the record, so still verifies.
    let mut proof = proof(&s, &id).await;
    proof.ratings = before.ratings.clone();
    let r = record(&s, &id).await;
    verify_proof(&r.table, &r.entries, &proof, None).unwrap();
}

async fn the_verifier_refuses_a_skipped_link(db: Db) {
    // No checkpoint but the ones the test signs.
    let s = server(db, Duration::from_secs(3600)).await;
    let mut ids = vec![];
    for _ in 0..4 {
        ids.push(finished_table(&s).await);
    }
    s.get(&format!("/v1/tables/{}/history", ids[1]), None)
        .await
        .assert_problem(409, "history_not_checkpointed");
    sign_now(&s).await;
    let url = format!("{}/v1/tables/{}", s.base, ids[1]);
    let p = proof(&s, &ids[1]).await;
    assert_eq!((p.link.position, p.links.len(), p.checkpoint.position), (2, 2, 4));
    assert_eq!(luddo_verify(&url).await.0, Some(0));
    // The third table's link deleted: the chain from the second to the checkpoint has a gap.
    s.db.execute(&format!("DELETE FROM history_links WHERE table_id = '{}'", ids[2])).await;
    let (code, out) = luddo_verify(&url).await;
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("does not follow link 2"), "{out}");
    let p: Value = s.get(&format!("/v1/tables/{}/history", ids[1]), None).await.json;
    assert_eq!(p["links"].as_array().unwrap().len(), 1);
    // A checkpoint whose signature is not the server's key (the last table's, past the gap): refused too.
    let first = &ids[3];
    let mut proof = proof(&s, first).await;
    let r = record(&s, first).await;
    let other = Signer::random();
    proof.checkpoint =
        other.checkpoint(proof.checkpoint.position, &proof.checkpoint.hash, proof.checkpoint.at).unwrap();
    let ours = Signer::new(SECRET).public_hex();
    assert!(matches!(
        verify_proof(&r.table, &r.entries, &proof, Some(&ours)),
        Err(ProofError::WrongKey { .. })
    ));
    proof.checkpoint.public_key = ours.clone();
    assert_eq!(verify_proof(&r.table, &r.entries, &proof, Some(&ours)), Err(ProofError::BadSignature));
}

async fn the_history_answers_problems_before_a_table_is_in_it(db: Db) {
    let s = server(db, Duration::from_secs(3600)).await;
    let (id, _tokens) = seated_table(&s, "snakes", 2, json!({})).await;
    s.get(&format!("/v1/tables/{id}/history"), None).await.assert_problem(409, "table_not_finished");
    s.get(&format!("/v1/tables/{}/history", uuid::Uuid::new_v4()), None)
        .await
        .assert_problem(404, "table_not_found");
}

/// The history's costs (BENCHMARKS.md, "The history's costs"): one link's append for finished
/// tables of two games, and a checkpoint's signature and insert. Run by hand:
/// `cargo test --test history -- --ignored --nocapture measure`.
#[tokio::test]
#[ignore = "a measurement, not a check"]
async fn measure_history_costs() {
    for db in [Db::Sqlite, Db::Postgres] {
        if db == Db::Postgres && common::postgres_url().is_none() {
            continue;
        }
        let s = server(db, Duration::from_secs(3600)).await;
        for game in ["snakes", "ludo"] {
            let mut ids = vec![];
            for _ in 0..10 {
                let (id, tokens) = seated_table(&s, game, 2, json!({})).await;
                play_out(&s, &id, &tokens).await;
                ids.push(id);
            }
            let mut append = vec![];
            let mut entries = 0;
            for id in &ids {
                entries += record(&s, id).await.entries.len();
                for _ in 0..5 {
                    append.push(s.store.history_append_cost(id.parse().unwrap()).await.unwrap());
                }
            }
            append.sort();
            println!(
                "{db:?} {game}: {} entries a table on average; one append: p50 {:?}, p90 {:?}",
                entries / ids.len(),
                append[append.len() / 2],
                append[append.len() * 9 / 10]
            );
        }
        let signer = Signer::new(SECRET);
        let (mut sign, mut store) = (vec![], vec![]);
        for i in 0..50 {
            let started = std::time::Instant::now();
            let cp = signer.checkpoint(1_000_000 + i, &"ab".repeat(32), i).unwrap();
            sign.push(started.elapsed());
            let started = std::time::Instant::now();
            s.store.add_checkpoint(&cp).await.unwrap();
            store.push(started.elapsed());
        }
        sign.sort();
        store.sort();
        println!(
            "{db:?} checkpoint: sign p50 {:?}; insert p50 {:?}, p90 {:?}",
            sign[25], store[25], store[45]
        );
        s.stop().await;
    }
}
