//! SIGKILL test (driven by scripts/kill_test.sh): starts the real `luddo` binary on a SQLite file
//! (or on a PostgreSQL database with `--database-url`), plays games through the HTTP API from
//! several tasks, records every acknowledged action
//! (HTTP 200 and its `seq`), `kill -9`s the server at a random moment, restarts it on the same
//! data and checks after each restart that:
//!
//! - every acknowledged action is in the table's log at its `seq` (read over the WebSocket from
//!   `since=0`), by the same seat-holder, with the same action;
//! - the log is contiguous: entries 1..=seq, each once, in order;
//! - every unfinished table resumes: its clock (`play.deadline`) is armed and it accepts the
//!   next action.
//!
//! Usage: cargo run -p luddo-load --example kill_client -- --binary target/debug/luddo [--kills 50]
//!        [--tables 4] [--seed 1] [--min-ms 50] [--max-ms 600] [--database-url URL]
//!
//! `--database-url` (or `KILL_DATABASE_URL`) is handed to every server as `DATABASE_URL`; it
//! should name an empty database (scripts/kill_test.sh --postgres makes a fresh one). Without
//! it the server runs on a SQLite file in a temp dir. Every server runs with the settings of every
//! server under test (`scripts/test-server.env`) and test mode. Every server process gets the same
//! `LUDDO_INSTANCE_ID=kill-test`: a restart is the same instance coming back, not another one
//! that would have to wait out the killed process's table leases.
//!
//! Exits 1 on any violation; the last line sums it up:
//! `kill_test: 50 kills, 1234 acknowledged actions, 0 lost, 0 duplicated`.

use futures_util::StreamExt;
use luddo_load::{api, server};
use rand::{Rng, SeedableRng, rngs::StdRng};
use serde_json::{Value, json};
use std::{
    collections::HashMap,
    path::PathBuf,
    process::Stdio,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::Message;

struct Args {
    binary: PathBuf,
    kills: usize,
    tables: usize,
    seed: u64,
    min_ms: u64,
    max_ms: u64,
    /// `None`: a SQLite file in a temp dir.
    database_url: Option<String>,
}

fn args() -> Args {
    let mut a = Args {
        binary: PathBuf::from("target/debug/luddo"),
        kills: 50,
        tables: 4,
        seed: 1,
        min_ms: 50,
        max_ms: 600,
        database_url: std::env::var("KILL_DATABASE_URL").ok().filter(|u| !u.is_empty()),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--binary" => a.binary = value.into(),
            "--kills" => a.kills = value.parse().expect("--kills N"),
            "--tables" => a.tables = value.parse().expect("--tables N"),
            "--seed" => a.seed = value.parse().expect("--seed N"),
            "--min-ms" => a.min_ms = value.parse().expect("--min-ms N"),
            "--max-ms" => a.max_ms = value.parse().expect("--max-ms N"),
            "--database-url" => a.database_url = Some(value),
            other => panic!("unknown option {other}"),
        }
    }
    a
}

/// One table under test: its players (seat i = token i).
#[derive(Clone)]
struct Table {
    id: String,
    tokens: Vec<String>,
}

/// An acknowledged action: the server answered 200 with this `seq`.
#[derive(Clone, Debug)]
struct Ack {
    seq: i64,
    action: Value,
}

#[derive(Default)]
struct Record {
    /// Table id → acknowledged actions.
    acks: HashMap<String, Vec<Ack>>,
    /// Actions posted whose answer never came (the kill cut them): in the log or not, both fine.
    cut: usize,
}

struct Server {
    child: Child,
    base: String,
}

async fn start_server(a: &Args, db_url: &str, http: &reqwest::Client) -> Server {
    let port = server::free_port().expect("free port");
    let mut child = Command::new(&a.binary)
        .envs(server::server_env())
        .env("LUDDO_ADDR", format!("127.0.0.1:{port}"))
        .env("DATABASE_URL", db_url)
        // The same instance after every restart (see the module docs).
        .env("LUDDO_INSTANCE_ID", "kill-test")
        .env("LUDDO_TEST_MODE", "1")
        .env("RUST_LOG", std::env::var("RUST_LOG").unwrap_or_else(|_| "error".into()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", a.binary.display()));
    let base = format!("http://127.0.0.1:{port}");
    if let Err(e) = server::wait_healthy(http, &base, &mut child, Duration::from_secs(30)).await {
        panic!("{e}");
    }
    Server { child, base }
}

/// A call whose answer counts only if it came: `(status, body or null)`.
async fn call(
    http: &reqwest::Client,
    base: &str,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Result<(u16, Value), String> {
    let answer =
        api::call(http, base, method, path, token, body.as_ref()).await.map_err(|e| e.to_string())?;
    Ok((answer.status, answer.json()))
}

async fn ok(
    http: &reqwest::Client,
    base: &str,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Value {
    let (status, v) = call(http, base, method, path, token, body).await.expect("request");
    assert!((200..300).contains(&status), "{path}: {status} {v}");
    v
}

/// Two players, a luddo table for them, started.
async fn new_table(http: &reqwest::Client, base: &str, n: usize) -> Table {
    use reqwest::Method;
    let mut tokens = vec![];
    for i in 0..n {
        let v =
            ok(http, base, Method::POST, "/v1/players", None, Some(json!({"name": format!("K{i}")}))).await;
        tokens.push(v["token"].as_str().unwrap().to_string());
    }
    let t = ok(
        http,
        base,
        Method::POST,
        "/v1/tables",
        Some(&tokens[0]),
        Some(json!({"game": "luddo", "seat_count": n})),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_string();
    for (i, token) in tokens.iter().enumerate().skip(1) {
        let mut join = json!({"seat": i});
        if let Some(code) = t["invite_code"].as_str() {
            join["invite_code"] = json!(code);
        }
        ok(http, base, Method::POST, &format!("/v1/tables/{id}/join"), Some(token), Some(join)).await;
    }
    ok(http, base, Method::POST, &format!("/v1/tables/{id}/start"), Some(&tokens[0]), Some(json!({}))).await;
    Table { id, tokens }
}

/// Plays the table until the server goes away (or the game ends); records every 200.
async fn play(http: reqwest::Client, base: String, table: Table, record: Arc<Mutex<Record>>, seed: u64) {
    use reqwest::Method;
    let mut rng = StdRng::seed_from_u64(seed);
    loop {
        let path = format!("/v1/tables/{}", table.id);
        let Ok((200, view)) = call(&http, &base, Method::GET, &path, Some(&table.tokens[0]), None).await
        else {
            return;
        };
        if view["status"] != "playing" {
            return;
        }
        let Some(seat) = view["play"]["to_act"].as_u64() else { return };
        let token = &table.tokens[seat as usize];
        let Ok((200, mine)) = call(&http, &base, Method::GET, &path, Some(token), None).await else { return };
        let actions = mine["play"]["legal_actions"].as_array().cloned().unwrap_or_default();
        let actions: Vec<Value> = actions.into_iter().filter(|a| a["type"] != "up_board").collect();
        if actions.is_empty() {
            continue;
        }
        let action = actions[rng.random_range(0..actions.len())].clone();
        let seq = mine["play"]["seq"].as_i64().unwrap();
        let body = json!({"action": action, "seq": seq});
        match call(&http, &base, Method::POST, &format!("{path}/actions"), Some(token), Some(body)).await {
            Ok((200, v)) => {
                let seq = v["seq"].as_i64().expect("an accepted action has a seq");
                record.lock().unwrap().acks.entry(table.id.clone()).or_default().push(Ack { seq, action });
            }
            Ok((409, _)) => continue,
            Err(_) => {
                record.lock().unwrap().cut += 1;
                return;
            }
            _ => return,
        }
    }
}

/// The whole log of a table over its WebSocket, up to `upto`.
async fn log_over_ws(base: &str, table: &Table, upto: i64) -> Result<Vec<Value>, String> {
    let url = format!(
        "{}/v1/tables/{}/events?since=0&token={}",
        base.replace("http://", "ws://"),
        table.id,
        table.tokens[0]
    );
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.map_err(|e| e.to_string())?;
    let mut out = vec![];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while out.last().and_then(|e: &Value| e["seq"].as_i64()).unwrap_or(0) < upto {
        let msg = tokio::time::timeout_at(deadline, ws.next())
            .await
            .map_err(|_| format!("timed out reading the log of {} at {}", table.id, out.len()))?;
        match msg {
            Some(Ok(Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).map_err(|e| e.to_string())?;
                if v["type"] == "entry" {
                    out.push(v);
                }
            }
            Some(Ok(_)) => {}
            _ => return Err(format!("socket of {} closed after {} entries", table.id, out.len())),
        }
    }
    let _ = ws.close(None).await;
    Ok(out)
}

#[derive(Default)]
struct Tally {
    lost: usize,
    duplicated: usize,
    other: usize,
}

/// Checks one table after a restart; returns whether it is still in play.
async fn check(http: &reqwest::Client, base: &str, table: &Table, acks: &[Ack], tally: &mut Tally) -> bool {
    use reqwest::Method;
    let view =
        ok(http, base, Method::GET, &format!("/v1/tables/{}", table.id), Some(&table.tokens[0]), None).await;
    let seq = view["play"]["seq"].as_i64().expect("play.seq");
    let log = match log_over_ws(base, table, seq).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("kill_test: VIOLATION {}: {e}", table.id);
            tally.other += 1;
            return false;
        }
    };
    // Contiguous: entry i has seq i + 1; anything else is a gap or a duplicate.
    let mut by_seq: HashMap<i64, &Value> = HashMap::new();
    for (i, e) in log.iter().enumerate() {
        let s = e["seq"].as_i64().unwrap_or(-1);
        if by_seq.insert(s, e).is_some() {
            eprintln!("kill_test: VIOLATION {}: seq {s} twice", table.id);
            tally.duplicated += 1;
        } else if s != i as i64 + 1 {
            eprintln!("kill_test: VIOLATION {}: entry {} has seq {s}", table.id, i + 1);
            tally.other += 1;
        }
    }
    for ack in acks {
        match by_seq.get(&ack.seq) {
            Some(e) if e["action"] == ack.action && e["actor"] == "human" => {}
            Some(e) => {
                eprintln!("kill_test: VIOLATION {}: acknowledged {:?}, log has {e}", table.id, ack);
                tally.lost += 1;
            }
            None => {
                eprintln!(
                    "kill_test: VIOLATION {}: acknowledged seq {} missing (log ends at {seq})",
                    table.id, ack.seq
                );
                tally.lost += 1;
            }
        }
    }
    if view["status"] != "playing" {
        return false;
    }
    if !view["play"]["deadline"].is_string() {
        eprintln!("kill_test: VIOLATION {}: unfinished table without a deadline after restart", table.id);
        tally.other += 1;
    }
    true
}

#[tokio::main]
async fn main() {
    let a = args();
    let started = Instant::now();
    let dir = std::env::temp_dir().join(format!("luddo-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db_url = match &a.database_url {
        Some(url) => url.clone(),
        None => format!("sqlite://{}?mode=rwc", dir.join("luddo.db").display()),
    };
    let store = if db_url.starts_with("postgres") { "PostgreSQL" } else { "SQLite" };
    eprintln!("kill_test: {} kills on {store}, {} tables, seed {}", a.kills, a.tables, a.seed);
    let http = reqwest::Client::builder().timeout(Duration::from_secs(15)).build().unwrap();
    let mut rng = StdRng::seed_from_u64(a.seed);
    let record = Arc::new(Mutex::new(Record::default()));
    let mut tally = Tally::default();
    let mut all: Vec<Table> = vec![];
    let mut playing: Vec<Table> = vec![];
    let mut resumed_actions = 0usize;

    let mut server = start_server(&a, &db_url, &http).await;
    for kill in 0..a.kills {
        while playing.len() < a.tables {
            let t = new_table(&http, &server.base, 2).await;
            all.push(t.clone());
            playing.push(t);
        }
        let tasks: Vec<_> = playing
            .iter()
            .enumerate()
            .map(|(i, t)| {
                tokio::spawn(play(
                    http.clone(),
                    server.base.clone(),
                    t.clone(),
                    record.clone(),
                    rng.random::<u64>() ^ i as u64,
                ))
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(rng.random_range(a.min_ms..=a.max_ms))).await;
        // SIGKILL: no shutdown, no flush.
        server.child.start_kill().expect("kill -9");
        server.child.wait().await.expect("reap");
        for t in tasks {
            let _ = t.await;
        }
        server = start_server(&a, &db_url, &http).await;
        let acks = record.lock().unwrap().acks.clone();
        let mut still = vec![];
        for t in &all {
            let empty = vec![];
            let in_play = check(&http, &server.base, t, acks.get(&t.id).unwrap_or(&empty), &mut tally).await;
            if in_play && playing.iter().any(|p| p.id == t.id) {
                still.push(t.clone());
            }
        }
        // Each unfinished table accepts its next action (the clock and the actor are back).
        for t in &still {
            let (status, view) =
                call(&http, &server.base, reqwest::Method::GET, &format!("/v1/tables/{}", t.id), None, None)
                    .await
                    .expect("view");
            let (Some(seat), 200) = (view["play"]["to_act"].as_u64(), status) else { continue };
            let token = &t.tokens[seat as usize];
            let path = format!("/v1/tables/{}", t.id);
            let (_, mine) = call(&http, &server.base, reqwest::Method::GET, &path, Some(token), None)
                .await
                .expect("view");
            let Some(action) = mine["play"]["legal_actions"].as_array().and_then(|a| a.first()).cloned()
            else {
                continue;
            };
            let body = json!({"action": action, "seq": mine["play"]["seq"]});
            match call(
                &http,
                &server.base,
                reqwest::Method::POST,
                &format!("{path}/actions"),
                Some(token),
                Some(body),
            )
            .await
            {
                Ok((200, v)) => {
                    resumed_actions += 1;
                    let seq = v["seq"].as_i64().unwrap();
                    record.lock().unwrap().acks.entry(t.id.clone()).or_default().push(Ack { seq, action });
                }
                other => {
                    eprintln!("kill_test: VIOLATION {}: no action accepted after restart: {other:?}", t.id);
                    tally.other += 1;
                }
            }
        }
        playing = still;
        if (kill + 1) % 10 == 0 {
            let n: usize = record.lock().unwrap().acks.values().map(Vec::len).sum();
            eprintln!(
                "kill_test: {} kills, {n} acknowledged, {:.0} s",
                kill + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    // One last check of everything, on the server as it stands.
    let acks = record.lock().unwrap().acks.clone();
    let mut finished = 0;
    for t in &all {
        let empty = vec![];
        if !check(&http, &server.base, t, acks.get(&t.id).unwrap_or(&empty), &mut tally).await {
            finished += 1;
        }
    }
    let _ = server.child.start_kill();
    let _ = server.child.wait().await;
    let _ = std::fs::remove_dir_all(&dir);
    let n: usize = acks.values().map(Vec::len).sum();
    println!(
        "kill_test: {} tables ({finished} finished), {} actions cut in flight, {resumed_actions} first actions after restarts accepted, {:.1} s",
        all.len(),
        record.lock().unwrap().cut,
        started.elapsed().as_secs_f64()
    );
    println!(
        "kill_test: {} kills, {n} acknowledged actions, {} lost, {} duplicated, {} other violations",
        a.kills, tally.lost, tally.duplicated, tally.other
    );
    if tally.lost + tally.duplicated + tally.other > 0 {
        std::process::exit(1);
    }
}
