//! The dice verifier behind `luddo verify`: checks a finished table's log against the recipe of
//! [`crate::rules::dice`] without trusting the server that wrote it.
//!
//! A [`TableLog`] is a table's JSON record (docs/records.md): the table as `GET /v1/tables/{id}`
//! shows it once the game is over, and every entry of its log as the events WebSocket sends them
//! (`type: "entry"`). [`verify`] checks, in order:
//!
//! 1. the revealed server seed (the finish entry's `seed`, the same as the table's) hashes to the
//!    `seed_commitment` published at creation;
//! 2. the table's client seed is [`combine_client_seeds`] of the seats' seeds listed in the start
//!    entry (`client_seeds`), which are those the seats show;
//! 3. every die the log shows, in order, is die number 0, 1, 2, … of the recipe: the dice of the
//!    events `opening_rolled` and `rolled` (their `dice`), and in logs stored before the shared
//!    event vocabulary (docs/events.md) `opening_throw`, `opening_roll` and `dice_rolled` (their
//!    `value`, `die` or `dice`; `null` in an old opening roll is a seat that did not throw). A die
//!    the server drew but did not show would shift every later one, so it is caught too;
//! 4. fresh dice: the start entry's `dice_chains` are the heads the seats show, and each seat's
//!    reveals, in log order, walk its chain back from its head (`SHA-256(reveal)` is the link
//!    revealed before it: none out of order, none skipped); an entry played by a `human` at a
//!    seat with a chain that threw dice carries a reveal (else the server used its own source
//!    where the player's was due); and the dice of an entry with a reveal follow the recipe
//!    with it (`client_seed ":" k ":" reveal`).
//!
//! [`fetch`] reads a table's record from a running server over plain HTTP (hyper's own HTTP/1
//! client, so the server needs no other).

use crate::rules::dice::{ServerSeed, combine_client_seeds, fresh_die, reveal_follows};
use http_body_util::{BodyExt, Empty};
use hyper::{Request, Uri, body::Bytes, header};
use hyper_util::rt::TokioIo;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A table's JSON record (`GET /v1/tables/{id}/record?format=json`, docs/records.md), which
/// `luddo verify` reads and `luddo verify --save` writes: a finished table and its whole log.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TableLog {
    /// [`RECORD_FORMAT`] (a file saved before records had it reads as one).
    #[serde(default = "record_format")]
    pub format: String,
    /// 1.
    #[serde(default = "first_version")]
    pub version: u32,
    /// The table, as `GET /v1/tables/{id}` shows it.
    pub table: Value,
    /// Every log entry from `seq` 1, as the events WebSocket sends them.
    pub entries: Vec<Value>,
}

/// The `format` of a JSON record.
pub const RECORD_FORMAT: &str = "luddo-record";

fn record_format() -> String {
    RECORD_FORMAT.into()
}

fn first_version() -> u32 {
    1
}

impl TableLog {
    /// The record of `table` and its `entries`.
    pub fn new(table: Value, entries: Vec<Value>) -> Self {
        Self { format: record_format(), version: first_version(), table, entries }
    }
}

/// A log that passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verified {
    pub seed_commitment: String,
    pub client_seed: String,
    /// How many dice were recomputed.
    pub dice: u64,
    pub entries: usize,
    /// The table started before per-seat seeds: its client seed is its host's, taken as shown.
    pub legacy: bool,
    /// Fresh dice: how many chain links the seats revealed (each checked against its chain).
    pub reveals: u64,
}

impl std::fmt::Display for Verified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "verified: {} dice in {} log entries match the commitment {} and the client seed {:?}",
            self.dice, self.entries, self.seed_commitment, self.client_seed
        )?;
        if self.reveals > 0 {
            write!(f, "; {} reveals follow their seats' dice chains", self.reveals)?;
        }
        if self.legacy {
            write!(f, " (a table from before per-seat seeds: its client seed is its host's)")?;
        }
        Ok(())
    }
}

/// The first thing about a log that does not hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Mismatch {
    #[error("the log is not one this verifier reads: {0}")]
    Malformed(String),
    #[error("the game is not over: the server seed is revealed only at the end")]
    NotFinished,
    #[error("the revealed seed {0:?} is not 32 bytes of hex")]
    BadSeed(String),
    #[error("the finish entry reveals seed {entry}, the table shows {table}")]
    SeedsDiffer { entry: String, table: String },
    #[error("SHA-256 of the revealed seed is {actual}, but the commitment published was {published}")]
    Commitment { published: String, actual: String },
    #[error("the start entry lists {entry:?} as the seats' client seeds, the seats show {seats:?}")]
    SeatSeeds { entry: Vec<String>, seats: Vec<String> },
    #[error("the client seed is {shown:?}, but the seats' seeds combine to {combined:?}")]
    CombinedSeed { shown: String, combined: String },
    #[error("the log skips from seq {after} to seq {next}")]
    Gap { after: i64, next: i64 },
    #[error("seq {seq}, event {event} ({kind}): die #{k} is {logged}, the recipe gives {expected}")]
    Die { seq: i64, event: usize, kind: String, k: u64, logged: u8, expected: u8 },
    #[error("the start entry lists {entry:?} as the seats' dice chains, the seats show {seats:?}")]
    SeatChains { entry: Vec<Option<String>>, seats: Vec<Option<String>> },
    #[error(
        "seq {seq}: the reveal {reveal} does not follow seat {seat:?}'s dice chain (out of order, skipped or not its own)"
    )]
    Chain { seq: i64, seat: Option<usize>, reveal: String },
    #[error("seq {seq}: seat {seat}'s player threw dice without a reveal, though the seat has a dice chain")]
    RevealMissing { seq: i64, seat: usize },
}

#[derive(Deserialize)]
struct TableFields {
    seed_commitment: String,
    seed: Option<String>,
    client_seed: Option<String>,
    #[serde(default)]
    seats: Vec<SeatFields>,
}

#[derive(Deserialize)]
struct SeatFields {
    #[serde(default)]
    client_seed: String,
    #[serde(default)]
    dice_chain: Option<String>,
}

#[derive(Deserialize)]
struct EntryFields {
    seq: i64,
    #[serde(default)]
    seat: Option<usize>,
    #[serde(default)]
    actor: Option<String>,
    action: Value,
    #[serde(default)]
    events: Vec<Value>,
    #[serde(default)]
    reveal: Option<String>,
}

#[derive(Deserialize)]
struct StartFields {
    client_seeds: Option<Vec<String>>,
    client_seed: Option<String>,
    #[serde(default)]
    dice_chains: Option<Vec<Option<String>>>,
}

/// The dice fields of an event that throws dice.
#[derive(Deserialize)]
struct ThrownFields {
    value: Option<u8>,
    die: Option<u8>,
    #[serde(default)]
    dice: Vec<Option<u8>>,
}

/// The `type`s of the lobby's entries, which come before the start (`store::LobbyEntry`).
const LOBBY_ENTRIES: [&str; 5] = ["seat_taken", "seat_left", "bot_seated", "settings_changed", "closed"];

/// The events whose dice were thrown (rather than used or forfeited): the two of the shared
/// vocabulary, then the names older logs keep (`rolled` once had `value` or `die`).
const THROWING_EVENTS: [&str; 5] =
    ["opening_rolled", "rolled", "opening_throw", "opening_roll", "dice_rolled"];

fn parse<T: serde::de::DeserializeOwned>(what: &str, value: &Value) -> Result<T, Mismatch> {
    T::deserialize(value).map_err(|e| Mismatch::Malformed(format!("{what}: {e}")))
}

/// Checks a finished table's log (see the module docs for what is checked).
pub fn verify(log: &TableLog) -> Result<Verified, Mismatch> {
    let table: TableFields = parse("table", &log.table)?;
    let entries: Vec<EntryFields> =
        log.entries.iter().map(|e| parse("entry", e)).collect::<Result<_, _>>()?;
    let kind = |e: &EntryFields| e.action.get("type").and_then(Value::as_str).unwrap_or_default().to_string();
    let mut after = 0;
    for e in &entries {
        if e.seq != after + 1 {
            return Err(Mismatch::Gap { after, next: e.seq });
        }
        after = e.seq;
    }

    // 1. The seed and its commitment.
    let finish = entries.iter().find(|e| kind(e) == "finish").ok_or(Mismatch::NotFinished)?;
    let revealed = finish.action.get("seed").and_then(Value::as_str).ok_or(Mismatch::NotFinished)?;
    if let Some(shown) = table.seed.as_deref().filter(|s| *s != revealed) {
        return Err(Mismatch::SeedsDiffer { entry: revealed.into(), table: shown.into() });
    }
    let seed = ServerSeed::from_hex(revealed).ok_or_else(|| Mismatch::BadSeed(revealed.into()))?;
    if seed.commitment() != table.seed_commitment {
        return Err(Mismatch::Commitment { published: table.seed_commitment, actual: seed.commitment() });
    }

    // 2. The client seed.
    // The lobby's entries (seats, settings) come before the start; they throw no dice.
    let start = entries
        .iter()
        .find(|e| !LOBBY_ENTRIES.contains(&kind(e).as_str()))
        .filter(|e| kind(e) == "start")
        .ok_or_else(|| Mismatch::Malformed("the log does not begin with the start entry".into()))?;
    let fields: StartFields = parse("start entry", &start.action)?;
    // 4. Each seat's chain: the last link revealed, the head at first.
    let mut chains: Vec<Option<String>> = fields.dice_chains.clone().unwrap_or_default();
    if let Some(entry) = &fields.dice_chains {
        let seats: Vec<Option<String>> = table.seats.iter().map(|s| s.dice_chain.clone()).collect();
        if *entry != seats {
            return Err(Mismatch::SeatChains { entry: entry.clone(), seats });
        }
    }
    let (client_seed, legacy) = match (fields.client_seeds, fields.client_seed) {
        (Some(seeds), Some(shown)) => {
            let seated: Vec<String> = table.seats.iter().map(|s| s.client_seed.clone()).collect();
            if seated != seeds {
                return Err(Mismatch::SeatSeeds { entry: seeds, seats: seated });
            }
            let combined = combine_client_seeds(&seeds);
            if combined != shown || table.client_seed.as_deref().is_some_and(|t| t != shown) {
                return Err(Mismatch::CombinedSeed { shown: table.client_seed.unwrap_or(shown), combined });
            }
            (shown, false)
        }
        _ => (table.client_seed.unwrap_or_default(), true),
    };

    // 3. Every die, in order (and 4., each reveal against its seat's chain).
    let mut k = 0u64;
    let mut reveals = 0u64;
    for entry in &entries {
        let chain = entry.seat.and_then(|s| chains.get_mut(s)).and_then(Option::as_mut);
        match (&entry.reveal, chain) {
            (Some(reveal), Some(last)) if reveal_follows(reveal, last) => {
                *last = reveal.clone();
                reveals += 1;
            }
            (Some(reveal), _) => {
                return Err(Mismatch::Chain { seq: entry.seq, seat: entry.seat, reveal: reveal.clone() });
            }
            (None, Some(_)) if entry.actor.as_deref() == Some("human") && throws(entry) => {
                return Err(Mismatch::RevealMissing { seq: entry.seq, seat: entry.seat.unwrap_or_default() });
            }
            (None, _) => {}
        }
        for (i, event) in entry.events.iter().enumerate() {
            let event_kind = event.get("type").and_then(Value::as_str).unwrap_or_default();
            if !THROWING_EVENTS.contains(&event_kind) {
                continue;
            }
            let thrown: ThrownFields = parse(&format!("seq {} event {i}", entry.seq), event)?;
            let values = thrown.value.into_iter().chain(thrown.die).chain(thrown.dice.into_iter().flatten());
            for logged in values {
                let expected = fresh_die(&seed, &client_seed, k, entry.reveal.as_deref());
                if logged != expected {
                    return Err(Mismatch::Die {
                        seq: entry.seq,
                        event: i,
                        kind: event_kind.into(),
                        k,
                        logged,
                        expected,
                    });
                }
                k += 1;
            }
        }
    }
    Ok(Verified {
        seed_commitment: table.seed_commitment,
        client_seed,
        dice: k,
        entries: entries.len(),
        legacy,
        reveals,
    })
}

/// Whether `entry` shows a die thrown.
fn throws(entry: &EntryFields) -> bool {
    entry.events.iter().any(|event| {
        let kind = event.get("type").and_then(Value::as_str).unwrap_or_default();
        THROWING_EVENTS.contains(&kind)
            && ThrownFields::deserialize(event)
                .is_ok_and(|t| t.value.is_some() || t.die.is_some() || t.dice.iter().any(Option::is_some))
    })
}

/// Why a table's log could not be read from its server.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    #[error("{0:?} is not a table's address (http://host:port/v1/tables/<id>)")]
    BadUrl(String),
    #[error("GET {url}: {detail}")]
    Http { url: String, detail: String },
    #[error("GET {url} answered {status}: {body}")]
    Status { url: String, status: u16, body: String },
    #[error("GET {url} did not answer with a table's record: {detail}")]
    NotARecord { url: String, detail: String },
    #[error("the table is {0}: only a finished table's seed is revealed")]
    NotFinished(String),
}

/// Reads a finished table's JSON record (`GET {url}/record?format=json`, docs/records.md) from
/// the server at `url` (`http://host:port/v1/tables/<id>`), with the bearer `token` if given (a
/// private table's record is shown to its players only).
pub async fn fetch(url: &str, token: Option<&str>) -> Result<TableLog, FetchError> {
    let address = url.split('?').next().unwrap_or_default().trim_end_matches('/');
    if !address.starts_with("http://") || !address.contains("/v1/tables/") {
        return Err(FetchError::BadUrl(url.into()));
    }
    let record_url = format!("{address}/record?format=json");
    let (status, body) = tokio::time::timeout(HTTP_TIMEOUT, get(&record_url, token))
        .await
        .unwrap_or_else(|_| Err(format!("no answer within {HTTP_TIMEOUT:?}")))
        .map_err(|detail| FetchError::Http { url: record_url.clone(), detail })?;
    if !(200..300).contains(&status) {
        return Err(FetchError::Status { url: record_url, status, body });
    }
    let not_a_record = |detail: String| FetchError::NotARecord { url: record_url.clone(), detail };
    let record: TableLog = serde_json::from_str(&body).map_err(|e| not_a_record(e.to_string()))?;
    if record.format != RECORD_FORMAT {
        return Err(not_a_record(format!("its format is {:?}, not {RECORD_FORMAT:?}", record.format)));
    }
    match record.table["status"].as_str() {
        Some("finished") => Ok(record),
        Some(other) => Err(FetchError::NotFinished(other.into())),
        None => Err(not_a_record("its table has no status".into())),
    }
}

/// How long the table's `GET` may take, connection included.
const HTTP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// `GET url` (plain `http://`) on a connection of its own, with the bearer `token` if given:
/// the status and the body as text.
pub(crate) async fn get(url: &str, token: Option<&str>) -> Result<(u16, String), String> {
    let uri: Uri = url.parse().map_err(|e| format!("{e}"))?;
    let authority = uri.authority().ok_or("the address names no host")?.clone();
    let host = authority.host().trim_start_matches('[').trim_end_matches(']');
    let stream = tokio::net::TcpStream::connect((host, authority.port_u16().unwrap_or(80)))
        .await
        .map_err(|e| format!("cannot connect: {e}"))?;
    let (mut sender, connection) =
        hyper::client::conn::http1::handshake(TokioIo::new(stream)).await.map_err(|e| e.to_string())?;
    let connection = tokio::spawn(connection);
    let path = uri.path_and_query().map_or("/", |p| p.as_str());
    let mut request = Request::get(path)
        .header(header::HOST, authority.as_str())
        .header(header::ACCEPT, "application/json");
    if let Some(token) = token {
        request = request.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let request = request
        .body(Empty::<Bytes>::new())
        .map_err(|e| format!("the token is not a valid header value: {e}"))?;
    let answer = async {
        let response = sender.send_request(request).await.map_err(|e| e.to_string())?;
        let status = response.status().as_u16();
        let body = response.into_body().collect().await.map_err(|e| e.to_string())?.to_bytes();
        Ok((status, String::from_utf8_lossy(&body).into_owned()))
    }
    .await;
    connection.abort();
    answer
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A two-seat table whose log shows `dice` in `rolled` events.
    fn log(seed: &ServerSeed, seeds: [&str; 2], dice: &[u8]) -> TableLog {
        let client_seed = combine_client_seeds(&seeds);
        let mut entries = vec![json!({"seq": 1, "action": {"type": "start", "client_seeds": seeds,
            "client_seed": client_seed}, "events": []})];
        for (i, d) in dice.iter().enumerate() {
            entries.push(json!({"seq": i + 2, "action": {"type": "roll"},
                "events": [{"type": "rolled", "seat": 0, "dice": [d]}, {"type": "moved", "dice": [9]}]}));
        }
        entries.push(json!({"seq": dice.len() + 2, "action": {"type": "finish", "seed": seed.to_hex()}}));
        TableLog::new(
            json!({"seed_commitment": seed.commitment(), "seed": seed.to_hex(),
                "client_seed": client_seed,
                "seats": [{"client_seed": seeds[0]}, {"client_seed": seeds[1]}]}),
            entries,
        )
    }

    fn fair(seed: &ServerSeed, seeds: [&str; 2], n: u64) -> Vec<u8> {
        let dice = crate::rules::dice::FairDice::new(seed.clone(), combine_client_seeds(&seeds), 0);
        (0..n).map(|k| dice.die(k)).collect()
    }

    /// A fresh-dice log: seat 0 has a chain and rolls `rolls` times as a human, revealing the
    /// links `reveal_at(j)` (index into the chain `[h_0, …, h_8]`); seat 1 (no chain) is a bot
    /// rolling after each.
    fn fresh_log(seed: &ServerSeed, rolls: usize, reveal_at: impl Fn(usize) -> Option<usize>) -> TableLog {
        let links = crate::rules::dice::chain([9; 32], 8);
        let head = links[8].clone();
        let client_seed = combine_client_seeds(&["", ""]);
        let mut entries = vec![json!({"seq": 1, "action": {"type": "start", "client_seeds": ["", ""],
            "client_seed": client_seed, "dice_chains": [head, null]}, "events": []})];
        let mut k = 0;
        for j in 0..rolls {
            let reveal = reveal_at(j).map(|i| links[i].clone());
            let die = fresh_die(seed, &client_seed, k, reveal.as_deref());
            let mut entry = json!({"seq": entries.len() + 1, "seat": 0, "actor": "human",
                "action": {"type": "roll"}, "events": [{"type": "rolled", "seat": 0, "dice": [die]}]});
            if let Some(reveal) = reveal {
                entry["reveal"] = json!(reveal);
            }
            entries.push(entry);
            let die = fresh_die(seed, &client_seed, k + 1, None);
            entries.push(json!({"seq": entries.len() + 1, "seat": 1, "actor": "bot",
                "action": {"type": "roll"}, "events": [{"type": "rolled", "seat": 1, "dice": [die]}]}));
            k += 2;
        }
        entries.push(json!({"seq": entries.len() + 1, "action": {"type": "finish", "seed": seed.to_hex()}}));
        TableLog::new(
            json!({"seed_commitment": seed.commitment(), "seed": seed.to_hex(), "client_seed": client_seed,
                "seats": [{"client_seed": "", "dice_chain": head}, {"client_seed": "", "dice_chain": null}]}),
            entries,
        )
    }

    #[test]
    fn fresh_dice_verify_when_each_reveal_walks_its_chain_back() {
        let seed = ServerSeed([4; 32]);
        let verified = verify(&fresh_log(&seed, 4, |j| Some(7 - j))).unwrap();
        assert_eq!((verified.dice, verified.reveals), (8, 4));
    }

    #[test]
    fn a_changed_die_of_a_fresh_entry_is_caught() {
        let seed = ServerSeed([4; 32]);
        let mut log = fresh_log(&seed, 3, |j| Some(7 - j));
        let die = log.entries[3]["events"][0]["dice"][0].as_u64().unwrap();
        log.entries[3]["events"][0]["dice"][0] = json!(die % 6 + 1);
        assert!(matches!(verify(&log), Err(Mismatch::Die { seq: 4, k: 2, .. })));
        // The die without the reveal (today's recipe) is not the fresh one either.
        let mut plain = fresh_log(&seed, 3, |j| Some(7 - j));
        let client_seed = combine_client_seeds(&["", ""]);
        let unmixed = fresh_die(&seed, &client_seed, 2, None);
        let fresh = plain.entries[3]["events"][0]["dice"][0].as_u64().unwrap() as u8;
        if unmixed != fresh {
            plain.entries[3]["events"][0]["dice"][0] = json!(unmixed);
            assert!(matches!(verify(&plain), Err(Mismatch::Die { .. })));
        }
    }

    #[test]
    fn a_reveal_out_of_order_is_refused() {
        let seed = ServerSeed([4; 32]);
        // h_6 before h_7.
        let err = verify(&fresh_log(&seed, 2, |j| Some(6 + j))).unwrap_err();
        assert!(matches!(err, Mismatch::Chain { seq: 2, seat: Some(0), .. }), "{err}");
    }

    #[test]
    fn a_skipped_link_is_refused() {
        let seed = ServerSeed([4; 32]);
        // h_7, then h_5: h_6 skipped.
        let err = verify(&fresh_log(&seed, 2, |j| Some(7 - 2 * j))).unwrap_err();
        assert!(matches!(err, Mismatch::Chain { seq: 4, seat: Some(0), .. }), "{err}");
    }

    #[test]
    fn a_human_roll_of_a_chained_seat_without_a_reveal_is_refused() {
        let seed = ServerSeed([4; 32]);
        let err = verify(&fresh_log(&seed, 3, |j| (j != 1).then(|| 7 - j.min(1)))).unwrap_err();
        assert!(matches!(err, Mismatch::RevealMissing { seq: 4, seat: 0 }), "{err}");
        // A reveal at a seat that committed to no chain is not its own either.
        let mut log = fresh_log(&seed, 1, |_| Some(7));
        log.entries[2]["reveal"] = log.entries[1]["reveal"].clone();
        assert!(matches!(verify(&log), Err(Mismatch::Chain { seat: Some(1), .. })));
    }

    #[test]
    fn the_lobbys_entries_before_the_start_are_skipped() {
        let seed = ServerSeed([3; 32]);
        let dice = fair(&seed, ["ann", "bob"], 3);
        let mut log = log(&seed, ["ann", "bob"], &dice);
        let lobby = [
            json!({"type": "seat_taken", "seat": 0, "player_id": uuid::Uuid::nil(), "name": "Ann"}),
            json!({"type": "settings_changed", "options": {}, "visibility": "public", "party": false}),
            json!({"type": "bot_seated", "seat": 1}),
        ];
        let mut entries: Vec<Value> = lobby.iter().map(|a| json!({"action": a, "events": []})).collect();
        entries.append(&mut log.entries);
        for (i, e) in entries.iter_mut().enumerate() {
            e["seq"] = json!(i + 1);
        }
        log.entries = entries;
        assert_eq!(verify(&log).unwrap().dice, 3);
    }

    #[test]
    fn a_fair_log_is_verified_and_a_changed_die_is_caught() {
        let seed = ServerSeed([3; 32]);
        let dice = fair(&seed, ["ann", "bob"], 5);
        let verified = verify(&log(&seed, ["ann", "bob"], &dice)).unwrap();
        assert_eq!((verified.dice, verified.legacy), (5, false));

        let mut tampered = dice.clone();
        tampered[3] = tampered[3] % 6 + 1;
        let err = verify(&log(&seed, ["ann", "bob"], &tampered)).unwrap_err();
        assert!(matches!(err, Mismatch::Die { seq: 5, k: 3, .. }), "{err}");
    }

    /// Stored logs keep the events they were written with: the names before the shared
    /// vocabulary (docs/events.md) are read as well as the new ones.
    #[test]
    fn logs_with_the_old_event_names_still_verify() {
        let seed = ServerSeed([3; 32]);
        let dice = fair(&seed, ["ann", "bob"], 6);
        let old = [
            json!({"type": "opening_throw", "seat": 0, "value": dice[0]}),
            json!({"type": "opening_roll", "dice": [null, dice[1]], "starts": null}),
            json!({"type": "rolled", "seat": 0, "value": dice[2]}),
            json!({"type": "rolled", "seat": 1, "die": dice[3]}),
            json!({"type": "dice_rolled", "seat": 0, "dice": [dice[4], dice[5]]}),
        ];
        let mut log = log(&seed, ["ann", "bob"], &dice[..5]);
        for (entry, event) in log.entries[1..6].iter_mut().zip(old) {
            entry["events"] = json!([event]);
        }
        assert_eq!(verify(&log).unwrap().dice, 6);
        log.entries[5]["events"][0]["dice"][1] = json!(dice[5] % 6 + 1);
        assert!(matches!(verify(&log), Err(Mismatch::Die { k: 5, .. })));
    }

    #[test]
    fn seeds_and_commitment_are_checked() {
        let seed = ServerSeed([3; 32]);
        let dice = fair(&seed, ["ann", "bob"], 3);
        let mut other_commitment = log(&seed, ["ann", "bob"], &dice);
        other_commitment.table["seed_commitment"] = json!(ServerSeed([4; 32]).commitment());
        assert!(matches!(verify(&other_commitment), Err(Mismatch::Commitment { .. })));

        let mut other_seat_seed = log(&seed, ["ann", "bob"], &dice);
        other_seat_seed.table["seats"][1]["client_seed"] = json!("eve");
        assert!(matches!(verify(&other_seat_seed), Err(Mismatch::SeatSeeds { .. })));

        let mut other_combined = log(&seed, ["ann", "bob"], &dice);
        other_combined.table["client_seed"] = json!("bob");
        assert!(matches!(verify(&other_combined), Err(Mismatch::CombinedSeed { .. })));

        let mut unfinished = log(&seed, ["ann", "bob"], &dice);
        unfinished.entries.pop();
        assert_eq!(verify(&unfinished), Err(Mismatch::NotFinished));
    }
}
