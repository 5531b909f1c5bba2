//! The tamper-evident history (docs/history.md): every finished table's record hashed into an
//! append-only chain of links, whose head the server signs now and then (a checkpoint), so that
//! an operator who rewrites a finished game or a rating after a checkpoint is caught by anyone
//! holding the record, its proof and the server's public key.
//!
//! Here: the record's canonical form and hash, a link's hash, a checkpoint's signed message,
//! [`verify_proof`] (which `luddo verify` runs), the signing key (from `LUDDO_SIGNING_KEY` or a
//! file in the data directory) and [`sign_checkpoints`], the task that signs the head. The
//! store appends the links (`store/history.rs`, in the finish's transaction) and keeps the
//! checkpoints; `api/history.rs` serves the proofs and the public key.

use ed25519_dalek::{Signature, Signer as _, SigningKey, Verifier as _, VerifyingKey};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use uuid::Uuid;

/// The hash before the first link (`prev_hash` of position 1): 32 zero bytes.
pub const GENESIS: [u8; 32] = [0; 32];

/// What a link's hash begins with, so that no other SHA-256 input of the server can pass for one.
const LINK_DOMAIN: &[u8] = b"luddo-history-link-v1\0";
/// What a checkpoint's signed message begins with.
const CHECKPOINT_DOMAIN: &[u8] = b"luddo-history-checkpoint-v1\0";

/// One link of the chain, as stored and served (hashes in lowercase hex).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// 1 for the first link, then one more each.
    pub position: i64,
    pub prev_hash: String,
    pub table_id: Uuid,
    /// [`record_hash`] of the table's record at its finish.
    pub record_hash: String,
    /// The table's `seed_commitment`.
    pub commitment: String,
    /// [`link_hash`] of the fields above.
    pub hash: String,
}

/// A signed statement of the chain's head.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The head's position when signed.
    pub position: i64,
    /// The head link's hash.
    pub hash: String,
    /// When it was signed (Unix milliseconds): part of the signed message.
    pub at: i64,
    /// [`key_id`] of the public key.
    pub key_id: String,
    /// The Ed25519 public key, hex.
    pub public_key: String,
    /// The Ed25519 signature of [`checkpoint_message`], hex.
    pub signature: String,
}

/// What `GET /v1/tables/{id}/history` answers: the table's link, every link after it up to the
/// first checkpoint at or after it, that checkpoint, and the table's rating changes (which the
/// record hash covers and the record itself does not carry).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Proof {
    pub link: Link,
    pub links: Vec<Link>,
    pub checkpoint: Checkpoint,
    pub ratings: Vec<Value>,
}

/// `value` in the canonical form the hashes read: serde_json's compact text of a tree whose
/// objects' keys are sorted by their bytes (no spaces; strings escaped only where JSON must;
/// numbers as the server writes them).
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

/// Sorts the keys itself rather than trusting `Map`'s order: a dependency turning on
/// serde_json's `preserve_order` feature would otherwise change every hash.
fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut members: Vec<_> = map.iter().collect();
            members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (key, value)) in members.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                write_canonical(value, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// What of a finished table the record hash covers: only what never changes after the finish.
/// `table` is the record's `table` (or the store's row in the same shape), `entries` every log
/// entry as served, `ratings` the finish's rating changes (sorted by `player_id`).
pub fn record_document(table: &Value, entries: &[Value], ratings: &[Value]) -> Value {
    let seats: Vec<Value> = table["seats"]
        .as_array()
        .map(|seats| {
            seats
                .iter()
                .map(|s| json!({"seat": s["seat"], "player_id": s["player"]["id"], "client_seed": s["client_seed"]}))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "table_id": table["id"],
        "game": table["game"],
        "options": table["options"],
        "seats": seats,
        "seed_commitment": table["seed_commitment"],
        "client_seed": table["client_seed"],
        "seed": table["seed"],
        "entries": entries,
        "ratings": ratings,
    })
}

/// SHA-256 of the canonical [`record_document`], hex.
pub fn record_hash(table: &Value, entries: &[Value], ratings: &[Value]) -> String {
    hex::encode(Sha256::digest(canonical(&record_document(table, entries, ratings)).as_bytes()))
}

/// A 32-byte hash from its hex, if it is one.
fn hash32(text: &str) -> Option<[u8; 32]> {
    let mut out = [0; 32];
    hex::decode_to_slice(text, &mut out).ok()?;
    Some(out)
}

/// A link's hash: SHA-256 of [`LINK_DOMAIN`], the position (8 bytes, big-endian), the previous
/// hash (32 bytes), the table id (16 bytes), the record hash (32 bytes) and the commitment's
/// UTF-8 text (its length as 8 bytes big-endian, then the text), hex. `None` if a hash is not
/// 64 hex digits.
pub fn link_hash(
    position: i64,
    prev_hash: &str,
    table_id: Uuid,
    record_hash: &str,
    commitment: &str,
) -> Option<String> {
    let mut h = Sha256::new();
    h.update(LINK_DOMAIN);
    h.update(position.to_be_bytes());
    h.update(hash32(prev_hash)?);
    h.update(table_id.as_bytes());
    h.update(hash32(record_hash)?);
    h.update((commitment.len() as u64).to_be_bytes());
    h.update(commitment.as_bytes());
    Some(hex::encode(h.finalize()))
}

/// What a checkpoint's signature signs: [`CHECKPOINT_DOMAIN`], the position (8 bytes,
/// big-endian), the head's hash (32 bytes) and the time (8 bytes, big-endian).
pub fn checkpoint_message(position: i64, hash: &str, at: i64) -> Option<Vec<u8>> {
    let mut m = CHECKPOINT_DOMAIN.to_vec();
    m.extend_from_slice(&position.to_be_bytes());
    m.extend_from_slice(&hash32(hash)?);
    m.extend_from_slice(&at.to_be_bytes());
    Some(m)
}

/// A public key's id: the first 8 bytes of its SHA-256, hex.
pub fn key_id(public: &VerifyingKey) -> String {
    hex::encode(&Sha256::digest(public.as_bytes())[..8])
}

/// The server's signing key.
#[derive(Clone)]
pub struct Signer {
    key: SigningKey,
}

impl std::fmt::Debug for Signer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Signer").field("key_id", &key_id(&self.key.verifying_key())).finish()
    }
}

impl Signer {
    /// The signer of the 32-byte Ed25519 secret `secret`.
    pub fn new(secret: [u8; 32]) -> Self {
        Self { key: SigningKey::from_bytes(&secret) }
    }

    /// A signer with a fresh random key.
    pub fn random() -> Self {
        Self::new(rand::random())
    }

    /// The secret, hex (what `LUDDO_SIGNING_KEY` and the key file hold).
    pub fn secret_hex(&self) -> String {
        hex::encode(self.key.to_bytes())
    }

    pub fn public_hex(&self) -> String {
        hex::encode(self.key.verifying_key().as_bytes())
    }

    pub fn key_id(&self) -> String {
        key_id(&self.key.verifying_key())
    }

    /// The checkpoint of the head at `position` with `hash`, signed at `at`.
    pub fn checkpoint(&self, position: i64, hash: &str, at: i64) -> Option<Checkpoint> {
        let signature = self.key.sign(&checkpoint_message(position, hash, at)?);
        Some(Checkpoint {
            position,
            hash: hash.into(),
            at,
            key_id: self.key_id(),
            public_key: self.public_hex(),
            signature: hex::encode(signature.to_bytes()),
        })
    }
}

/// A secret from its 64 hex digits.
pub fn parse_secret(text: &str) -> Option<[u8; 32]> {
    hash32(text.trim())
}

/// The file in the data directory that keeps the signing key when `LUDDO_SIGNING_KEY` is unset.
pub const KEY_FILE: &str = "history-signing.key";

/// The secret kept in `dir`'s [`KEY_FILE`] (64 hex digits), created (mode 0600) with a fresh
/// key if there is none.
pub fn key_from_data_dir(dir: &std::path::Path) -> std::io::Result<[u8; 32]> {
    use std::io::Write;
    let path = dir.join(KEY_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => parse_secret(&text).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{} does not hold 64 hex digits", path.display()),
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir)?;
            let signer = Signer::random();
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut file = options.open(&path)?;
            writeln!(file, "{}", signer.secret_hex())?;
            file.sync_all()?;
            tracing::info!(path = %path.display(), key_id = %signer.key_id(), "generated the history's signing key");
            Ok(signer.key.to_bytes())
        }
        Err(e) => Err(e),
    }
}

/// Signs the chain's head whenever it has moved and `every` has passed since the last
/// checkpoint (or since the task began, before the first), or at once when it is `links` past
/// it; until `stopped` turns true. Every process of a cluster runs it: a head signed twice is
/// stored once.
pub async fn sign_checkpoints(
    store: crate::store::Store,
    signer: Signer,
    every: std::time::Duration,
    links: u64,
    mut stopped: tokio::sync::watch::Receiver<bool>,
) {
    let poll = every.min(std::time::Duration::from_secs(1));
    let began = crate::clock::now_millis();
    loop {
        tokio::select! {
            _ = tokio::time::sleep(poll) => {}
            _ = stopped.wait_for(|s| *s) => return,
        }
        if let Err(error) = sign_once(&store, &signer, every, links, began).await {
            tracing::warn!(%error, "could not sign the history's head");
        }
    }
}

/// One round of [`sign_checkpoints`]: the checkpoint signed, if one was due (`since`: the time
/// counted from when there is no checkpoint yet).
pub async fn sign_once(
    store: &crate::store::Store,
    signer: &Signer,
    every: std::time::Duration,
    links: u64,
    since: i64,
) -> crate::store::StoreResult<Option<Checkpoint>> {
    let (position, hash) = store.history_head().await?;
    let last = store.last_checkpoint().await?;
    let (last_position, last_at) = last.as_ref().map_or((0, since), |cp| (cp.position, cp.at));
    let now = crate::clock::now_millis();
    let due = position > last_position
        && (now - last_at >= every.as_millis() as i64 || (position - last_position) as u64 >= links);
    if !due {
        return Ok(None);
    }
    let started = std::time::Instant::now();
    let Some(cp) = signer.checkpoint(position, &hash, now) else {
        return Err(crate::store::StoreError::Corrupt(format!("history head hash {hash:?}")));
    };
    store.add_checkpoint(&cp).await?;
    metrics::histogram!("luddo_history_checkpoint_seconds").record(started.elapsed());
    Ok(Some(cp))
}

/// `luddo verify`'s history check of `log` (read from `source`, a file or the table's URL):
/// the proof from `proof_file`, else from the server when `source` is a URL; the key from
/// `key`, else the server's well-known URL. What was verified, or why not.
pub async fn check_record(
    log: &crate::verify::TableLog,
    source: &str,
    token: Option<&str>,
    proof_file: Option<&std::path::Path>,
    key: Option<String>,
) -> Result<String, String> {
    let url = source.split('?').next().unwrap_or_default().trim_end_matches('/');
    let is_url = url.starts_with("http://");
    let fetch = async |url: String| -> Result<(u16, String), String> {
        tokio::time::timeout(std::time::Duration::from_secs(30), crate::verify::get(&url, token))
            .await
            .unwrap_or_else(|_| Err("no answer within 30 s".into()))
            .map_err(|e| format!("{url}: {e}"))
    };
    let proof: Proof = match proof_file {
        Some(path) => {
            let text = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            serde_json::from_slice(&text)
                .map_err(|e| format!("{}: not a history proof: {e}", path.display()))?
        }
        None if is_url => {
            let (status, body) = fetch(format!("{url}/history")).await?;
            if status == 404 && body.contains("not_in_history") {
                return Ok(
                    "history: not checked: the table finished before the server kept its history".into()
                );
            }
            // Just finished: the dice are checked; the history can be once a checkpoint is signed.
            if status == 409 && body.contains("history_not_checkpointed") {
                return Ok("history: not checked yet: no signed checkpoint covers the table so far; run again in a minute".into());
            }
            if status != 200 {
                return Err(format!("the history proof: HTTP {status}: {body}"));
            }
            serde_json::from_str(&body).map_err(|e| format!("not a history proof: {e}"))?
        }
        None => return Ok("history: not checked (give --history proof.json)".into()),
    };
    let key = match key {
        Some(key) => Some(key),
        None if is_url => {
            let origin = url.split("/v1/").next().unwrap_or(url);
            let (status, body) = fetch(format!("{origin}/.well-known/luddo-history-key")).await?;
            let v: Value = serde_json::from_str(&body).unwrap_or_default();
            match (status, v["public_key"].as_str()) {
                (200, Some(key)) => Some(key.to_string()),
                _ => return Err(format!("the server's history key: HTTP {status}: {body}")),
            }
        }
        None => None,
    };
    let v = verify_proof(&log.table, &log.entries, &proof, key.as_deref()).map_err(|e| e.to_string())?;
    let whose = if key.is_some() { "the expected key" } else { "the key the proof names (no --key given)" };
    Ok(format!(
        "history: the record is link {} of the chain, which reaches checkpoint {} signed by {} ({})",
        v.position, v.checkpoint, whose, v.key_id
    ))
}

/// Why a record is not in the signed history.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    #[error("the record's hash {computed} is not its link's record_hash {linked}: the record was changed")]
    RecordChanged { computed: String, linked: String },
    #[error("the link is of table {linked}, not of the record's table {record}")]
    WrongTable { linked: Uuid, record: String },
    #[error("the link's commitment is not the record's seed_commitment")]
    WrongCommitment,
    #[error("link {position}'s hash does not match its fields: the link was changed")]
    LinkChanged { position: i64 },
    #[error("link {position} does not follow link {after} (a link is missing, or out of order)")]
    Broken { after: i64, position: i64 },
    #[error("link {position}'s prev_hash is not the hash of link {after}: a link was changed or removed")]
    PrevMismatch { after: i64, position: i64 },
    #[error("the chain ends at link {end}, not at the checkpoint's position {checkpoint}")]
    ShortOfCheckpoint { end: i64, checkpoint: i64 },
    #[error("the checkpoint's head hash is not the hash of link {position}")]
    HeadMismatch { position: i64 },
    #[error("the checkpoint is signed by key {found}, not the expected key {expected}")]
    WrongKey { found: String, expected: String },
    #[error("the checkpoint's signature does not verify with its key")]
    BadSignature,
}

/// What [`verify_proof`] established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub position: i64,
    pub checkpoint: i64,
    pub key_id: String,
}

/// Checks that the record (`table`, `entries`) with the proof's rating changes hashes to the
/// proof's link, that the links chain from it to the checkpoint's head without a gap, and that
/// the checkpoint is signed by `key` (hex public key; `None` trusts the key the proof names,
/// which only shows the chain is consistent, not whose it is).
pub fn verify_proof(
    table: &Value,
    entries: &[Value],
    proof: &Proof,
    key: Option<&str>,
) -> Result<Verified, ProofError> {
    let link = &proof.link;
    let computed = record_hash(table, entries, &proof.ratings);
    if table["id"].as_str() != Some(link.table_id.to_string().as_str()) {
        return Err(ProofError::WrongTable { linked: link.table_id, record: table["id"].to_string() });
    }
    if computed != link.record_hash {
        return Err(ProofError::RecordChanged { computed, linked: link.record_hash.clone() });
    }
    if table["seed_commitment"].as_str() != Some(link.commitment.as_str()) {
        return Err(ProofError::WrongCommitment);
    }
    let mut previous: Option<&Link> = None;
    for l in std::iter::once(link).chain(&proof.links) {
        let hash = link_hash(l.position, &l.prev_hash, l.table_id, &l.record_hash, &l.commitment);
        if hash.as_deref() != Some(l.hash.as_str()) {
            return Err(ProofError::LinkChanged { position: l.position });
        }
        if let Some(p) = previous {
            if l.position != p.position + 1 {
                return Err(ProofError::Broken { after: p.position, position: l.position });
            }
            if l.prev_hash != p.hash {
                return Err(ProofError::PrevMismatch { after: p.position, position: l.position });
            }
        }
        previous = Some(l);
    }
    let head = previous.unwrap_or(link);
    let cp = &proof.checkpoint;
    if head.position != cp.position {
        return Err(ProofError::ShortOfCheckpoint { end: head.position, checkpoint: cp.position });
    }
    if head.hash != cp.hash {
        return Err(ProofError::HeadMismatch { position: head.position });
    }
    if let Some(expected) = key
        && !expected.trim().eq_ignore_ascii_case(&cp.public_key)
    {
        return Err(ProofError::WrongKey { found: cp.public_key.clone(), expected: expected.trim().into() });
    }
    let public = hash32(&cp.public_key)
        .and_then(|k| VerifyingKey::from_bytes(&k).ok())
        .ok_or(ProofError::BadSignature)?;
    let signature = hex::decode(&cp.signature)
        .ok()
        .and_then(|s| Signature::from_slice(&s).ok())
        .ok_or(ProofError::BadSignature)?;
    let message = checkpoint_message(cp.position, &cp.hash, cp.at).ok_or(ProofError::BadSignature)?;
    public.verify(&message, &signature).map_err(|_| ProofError::BadSignature)?;
    Ok(Verified { position: link.position, checkpoint: cp.position, key_id: key_id(&public) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(id: Uuid) -> Value {
        json!({
            "id": id, "game": "luddo", "options": {"b": 1, "a": [1.5, "x"]}, "seed_commitment": "c0ffee",
            "client_seed": "s", "seed": "revealed", "status": "finished",
            "seats": [{"seat": 0, "player": {"id": Uuid::nil(), "name": "Ann"}, "client_seed": "a"},
                      {"seat": 1, "player": null, "client_seed": ""}],
        })
    }

    /// A table's record: its `table` and its entries.
    type Record = (Value, Vec<Value>);

    /// A chain of `n` tables with a checkpoint of its head, and each table's record.
    fn chain(n: usize, signer: &Signer) -> (Vec<Link>, Checkpoint, Vec<Record>) {
        let mut links = vec![];
        let mut records = vec![];
        let mut prev = hex::encode(GENESIS);
        for i in 0..n {
            let id = Uuid::new_v4();
            let t = table(id);
            let entries = vec![json!({"type": "entry", "seq": 1, "i": i})];
            let record_hash = record_hash(&t, &entries, &[]);
            let position = i as i64 + 1;
            let hash = link_hash(position, &prev, id, &record_hash, "c0ffee").unwrap();
            links.push(Link {
                position,
                prev_hash: prev.clone(),
                table_id: id,
                record_hash,
                commitment: "c0ffee".into(),
                hash: hash.clone(),
            });
            records.push((t, entries));
            prev = hash;
        }
        let cp = signer.checkpoint(n as i64, &prev, 1_000).unwrap();
        (links, cp, records)
    }

    fn proof(links: &[Link], cp: &Checkpoint, at: usize) -> Proof {
        Proof {
            link: links[at].clone(),
            links: links[at + 1..].to_vec(),
            checkpoint: cp.clone(),
            ratings: vec![],
        }
    }

    #[test]
    fn canonical_json_sorts_keys_and_has_no_spaces() {
        let v: Value = serde_json::from_str(r#"{ "b": 1, "a": {"d": [1, 2.5], "c": "é\n"} }"#).unwrap();
        assert_eq!(canonical(&v), r#"{"a":{"c":"é\n","d":[1,2.5]},"b":1}"#);
    }

    #[test]
    fn the_record_hash_ignores_names_and_covers_the_log() {
        let id = Uuid::new_v4();
        let mut t = table(id);
        let entries = vec![json!({"seq": 1})];
        let h = record_hash(&t, &entries, &[]);
        t["seats"][0]["player"]["name"] = json!("Renamed");
        t["finished_at"] = json!("later");
        assert_eq!(record_hash(&t, &entries, &[]), h);
        assert_ne!(record_hash(&t, &[json!({"seq": 2})], &[]), h);
        assert_ne!(record_hash(&t, &entries, &[json!({"rating_after": 1.0})]), h);
        t["seed"] = json!("other");
        assert_ne!(record_hash(&t, &entries, &[]), h);
    }

    #[test]
    fn a_proof_of_every_link_of_an_untouched_chain_verifies() {
        let signer = Signer::random();
        let (links, cp, records) = chain(5, &signer);
        for (i, (t, entries)) in records.iter().enumerate() {
            let v = verify_proof(t, entries, &proof(&links, &cp, i), Some(&signer.public_hex())).unwrap();
            assert_eq!((v.position, v.checkpoint), (i as i64 + 1, 5));
        }
    }

    #[test]
    fn the_verifier_refuses_a_record_edited_after_its_checkpoint() {
        let signer = Signer::random();
        let (links, cp, records) = chain(3, &signer);
        let (t, mut entries) = records[1].clone();
        entries[0]["i"] = json!(99);
        let err = verify_proof(&t, &entries, &proof(&links, &cp, 1), None).unwrap_err();
        assert!(matches!(err, ProofError::RecordChanged { .. }), "{err}");
    }

    #[test]
    fn the_verifier_refuses_a_skipped_link() {
        let signer = Signer::random();
        let (links, cp, records) = chain(4, &signer);
        let mut p = proof(&links, &cp, 0);
        p.links.remove(1);
        let (t, entries) = &records[0];
        let err = verify_proof(t, entries, &p, None).unwrap_err();
        assert_eq!(err, ProofError::Broken { after: 2, position: 4 });
        // Renumbered to hide the gap: the hashes no longer chain.
        let mut relinked = p.clone();
        relinked.links[1].position = 3;
        let err = verify_proof(t, entries, &relinked, None).unwrap_err();
        assert_eq!(err, ProofError::LinkChanged { position: 3 });
    }

    #[test]
    fn the_verifier_refuses_links_reordered() {
        let signer = Signer::random();
        let (links, cp, records) = chain(4, &signer);
        let mut p = proof(&links, &cp, 0);
        p.links.swap(0, 1);
        let (t, entries) = &records[0];
        assert!(matches!(verify_proof(t, entries, &p, None), Err(ProofError::Broken { .. })));
    }

    #[test]
    fn the_verifier_refuses_a_signature_of_another_key() {
        let signer = Signer::random();
        let (links, cp, records) = chain(2, &signer);
        let (t, entries) = &records[0];
        let other = Signer::random();
        // Signed by another key that claims to be ours.
        let mut forged = other.checkpoint(cp.position, &cp.hash, cp.at).unwrap();
        forged.public_key = signer.public_hex();
        let mut p = proof(&links, &cp, 0);
        p.checkpoint = forged;
        assert_eq!(verify_proof(t, entries, &p, None), Err(ProofError::BadSignature));
        // Signed by another key under its own name, when ours is expected.
        p.checkpoint = other.checkpoint(cp.position, &cp.hash, cp.at).unwrap();
        assert!(matches!(
            verify_proof(t, entries, &p, Some(&signer.public_hex())),
            Err(ProofError::WrongKey { .. })
        ));
        // A checkpoint's time changed after signing.
        let mut p = proof(&links, &cp, 0);
        p.checkpoint.at += 1;
        assert_eq!(verify_proof(t, entries, &p, None), Err(ProofError::BadSignature));
    }
}
