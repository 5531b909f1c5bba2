//! Cluster mode behind a real load balancer: three server processes (the real binary) on one
//! PostgreSQL, behind nginx, and players who only know the balancer's address. Behind a round
//! robin each player's socket and actions land on whichever process nginx picks; behind the
//! shipped configuration a table's all land on one (hashing on its id), which drives it. One
//! process is SIGKILLed mid-game, then all three are restarted one after another (SIGTERM);
//! every game is played to its end with no entry lost or sent twice to anyone, and every
//! acknowledged action in the log at its `seq`.
//!
//! PostgreSQL only (SQLite is one process); nginx must be installed (`.ci/run` installs the
//! Debian package): without it the test fails, it does not skip.

mod common;

use common::{
    Db, TestDb, TestServer, entries_upto,
    nginx::{Balance, Nginx},
    play_out,
    process::{ServerProcess, free_addr},
    seated_table, test_config,
};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::{
    collections::{HashMap, HashSet},
    path::{Path, PathBuf},
    process::Command,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicI64, Ordering::Relaxed},
    },
    time::Duration,
};
use tokio_tungstenite::tungstenite::{Message, client::IntoClientRequest};

/// Tables played at once.
const TABLES: usize = 3;
/// Seats (players) per table.
const SEATS: usize = 4;
/// How long a player thinks before acting: the games last through every phase.
const PACE: Duration = Duration::from_millis(25);
/// A phase that takes longer than this fails the test.
const PHASE_LIMIT: Duration = Duration::from_secs(90);

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn any_process_serves_any_table_behind_a_round_robin_through_a_crash_and_a_rolling_restart() {
    crash_and_rolling_restart(Balance::RoundRobin).await;
}

/// The same behind deploy/nginx.conf as shipped: the calls of a table that changed hands (its
/// process killed, restarted) reach wherever it is driven, and nothing is lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn every_table_is_served_behind_the_shipped_balancer_through_a_crash_and_a_rolling_restart() {
    crash_and_rolling_restart(Balance::Shipped).await;
}

async fn crash_and_rolling_restart(balance: Balance) {
    let db = TestDb::new(Db::Postgres).await;
    let dir = temp_dir("luddo-cluster");
    let settings = [
        // Short leases: a killed process's tables are taken over within a couple of seconds.
        ("LUDDO_LEASE_SECONDS", "2"),
        // No clock runs out during the test (presence is the driver's sockets' alone).
        ("LUDDO_TURN_SECONDS", "120"),
        ("LUDDO_AWAY_SECONDS", "600"),
        ("LUDDO_TRUSTED_PROXIES", "127.0.0.1"),
        ("LUDDO_RATE_PER_MINUTE", "10000"),
    ];
    let (mut servers, nginx) = three_behind_nginx(&db, &dir, &settings, balance).await;
    let base = format!("http://{}", nginx.addr);
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();

    // Tables made and started through the balancer: each request lands where nginx sends it.
    let mut players = vec![];
    for t in 0..TABLES {
        let mut tokens = vec![];
        for s in 0..SEATS {
            let p =
                call(&http, &format!("{base}/v1/players"), None, json!({"name": format!("T{t}S{s}")})).await;
            tokens.push(p["token"].as_str().unwrap().to_string());
        }
        let body = json!({"game": "luddo", "seat_count": SEATS});
        let table = call(&http, &format!("{base}/v1/tables"), Some(&tokens[0]), body).await;
        let id = table["id"].as_str().unwrap().to_string();
        for (s, token) in tokens.iter().enumerate().skip(1) {
            call(&http, &format!("{base}/v1/tables/{id}/join"), Some(token), json!({"seat": s})).await;
        }
        call(&http, &format!("{base}/v1/tables/{id}/start"), Some(&tokens[0]), json!({})).await;
        for (seat, token) in tokens.into_iter().enumerate() {
            players.push(Player { table: t, id: id.clone(), token, seat, over_socket: seat % 2 == 0 });
        }
    }
    let table_ids: Vec<String> = (0..TABLES).map(|t| players[t * SEATS].id.clone()).collect();

    let progress = Arc::new(Progress::new());
    let drivers = Drivers::default();
    let watcher = drivers.watch(db.url.clone());
    let mut clients = vec![];
    for player in players {
        let (base, http, progress, drivers) = (base.clone(), http.clone(), progress.clone(), drivers.clone());
        clients.push(tokio::spawn(async move { play(&base, &http, player, &progress, &drivers).await }));
    }

    // Play, then SIGKILL the process that drives the first table while everyone plays.
    progress.allow(20);
    progress.reached(20, "the first moves").await;
    progress.allow(70);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let owner = owner_address(&db, &table_ids[0]).await;
    let victim =
        servers.iter().position(|s| s.addr == owner).expect("the first table's driver is one of ours");
    assert!(!progress.any_finished(), "every game is still on when a process dies");
    servers[victim].kill();
    progress.reached(70, "play after the SIGKILL").await;
    servers[victim].start().await;

    // A rolling restart of all three, each while everyone plays.
    let mut goal = 70;
    for server in &mut servers {
        goal += 30;
        progress.allow(goal);
        tokio::time::sleep(Duration::from_millis(300)).await;
        let status = server.terminate().await;
        assert!(status.success(), "SIGTERM ends the process cleanly: {status}");
        server.start().await;
        progress.reached(goal, "play after a restart").await;
    }

    // Every game to its end.
    progress.allow(i64::MAX);
    let mut seen = vec![];
    for client in clients {
        let outcome = tokio::time::timeout(PHASE_LIMIT * 3, client).await.expect("every game ends").unwrap();
        seen.push(outcome);
    }

    // Each table's log, read afresh through the balancer.
    let mut logs = HashMap::new();
    for id in &table_ids {
        logs.insert(id.clone(), whole_log(&base, id).await);
    }
    let mut acknowledged = 0;
    let mut elsewhere_sockets = 0;
    let mut elsewhere_actions = 0;
    let mut processes = HashSet::new();
    for s in &seen {
        let log = &logs[&s.id];
        let seqs: Vec<i64> = log.iter().map(|e| e["seq"].as_i64().unwrap()).collect();
        assert_eq!(seqs, (1..=log.len() as i64).collect::<Vec<_>>(), "the log has each seq once, in order");
        assert_eq!(log.last().unwrap()["action"]["type"], "finish", "the game ended");
        // What each player was sent, across every reconnection: the whole log, once each.
        assert_eq!(s.entries.len(), log.len(), "{} was sent every entry once", s.name);
        for (sent, stored) in s.entries.iter().zip(log) {
            assert_eq!(sent["seq"], stored["seq"]);
            assert_eq!(sent["action"], stored["action"], "{} was sent the stored entry", s.name);
        }
        for (seq, action) in &s.acknowledged {
            assert_eq!(&log[(*seq - 1) as usize]["action"], action, "acknowledged action at seq {seq}");
            acknowledged += 1;
        }
        elsewhere_sockets += s.sockets_elsewhere;
        elsewhere_actions += s.actions_elsewhere;
        processes.extend(s.processes.iter().cloned());
    }
    assert!(acknowledged >= 100, "the players played: {acknowledged} acknowledged actions");
    if balance == Balance::RoundRobin {
        assert_eq!(processes.len(), 3, "players landed on every process: {processes:?}");
        assert!(
            elsewhere_sockets > 0,
            "some sockets were served by a process that did not drive their table"
        );
        assert!(elsewhere_actions > 0, "some actions were forwarded to the table's driver");
    }
    let reconnects: usize = seen.iter().map(|s| s.reconnects).sum();
    println!(
        "{acknowledged} acknowledged actions, {} entries sent, {reconnects} reconnections, \
         {elsewhere_sockets} sockets and {elsewhere_actions} actions served by a process that did not drive the table",
        seen.iter().map(|s| s.entries.len()).sum::<usize>()
    );
    assert!(reconnects >= TABLES * SEATS, "every player reconnected at least once: {reconnects}");
    watcher.abort();
    drop(nginx);
    drop(servers);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A player whose socket is on a process that does not drive the table is present at the
/// table all the same (the away rule and the views count it): the socket holds a link to the
/// driver. When the socket closes, the player is away there too.
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_players_socket_on_another_process_counts_as_presence_where_the_table_is_driven() {
    let (a, b, id, tokens) = a_table_started_on_a_beside_b().await;
    let connected = async |s: &TestServer| a_seat_connected(&s.table_view(&id, Some(&tokens[1])).await);
    assert!(!connected(&a).await, "nobody is connected yet");
    let ws = b.ws(&id, &format!("token={}", tokens[1])).await;
    assert_eq!(instance_driving(&a, &id).await.as_deref(), Some("a"), "A drives the table");
    let mut present = false;
    for _ in 0..100 {
        if connected(&a).await && connected(&b).await {
            present = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(present, "seat 1 counts as connected on A, whose view B shows");
    ws.close().await;
    let mut away = false;
    for _ in 0..100 {
        if !connected(&a).await {
            away = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(away, "the socket closed: the seat is away on A too");
}

/// Many calls at once on a process that does not drive the table — views, sockets — are all
/// served from the driver: none is handed an actor this process was only trying to start (its
/// claim of the table fails, another process holds it).
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn concurrent_calls_on_a_process_that_does_not_drive_the_table_are_all_served() {
    let (a, b, id, tokens) = a_table_started_on_a_beside_b().await;
    let path = format!("/v1/tables/{id}");
    let queries: Vec<String> = (0..16).map(|i| format!("token={}&since=0", tokens[i % 2])).collect();
    let views = (0..32).map(|i| b.get(&path, Some(&tokens[i % 2])));
    let sockets = queries.iter().map(|q| b.ws(&id, q));
    let (views, sockets) =
        tokio::join!(futures_util::future::join_all(views), futures_util::future::join_all(sockets));
    for view in &views {
        assert_eq!(view.status, 200, "a view through B: {}", view.json);
    }
    for mut ws in sockets {
        let first = ws.next_entry().await;
        assert_eq!(
            first.map(|e| e["seq"].clone()),
            Some(json!(1)),
            "a socket on B gets the log from its start"
        );
    }
    assert_eq!(instance_driving(&a, &id).await.as_deref(), Some("a"), "A still drives the table");
}

/// A table driven by a process its calls do not reach (started on A, then played through B
/// only, as a quick-play table started where its request landed is) is handed to B once
/// `HAND_OVER_AFTER` actions in a row came forwarded from B, and its game goes on there: every
/// action answered, none refused, every entry in the log once.
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_table_played_only_through_another_process_is_handed_to_it() {
    let (a, b, id, tokens) = a_table_started_on_a_beside_b().await;
    assert_eq!(instance_driving(&a, &id).await.as_deref(), Some("a"), "A started the table, so drives it");
    let mut acted = 0;
    while acted < luddo::cluster::HAND_OVER_AFTER - 1 {
        acted += u32::from(act_through(&b, &id, &tokens).await);
    }
    assert_eq!(
        instance_driving(&a, &id).await.as_deref(),
        Some("a"),
        "one action short, A still drives the table"
    );
    while acted < luddo::cluster::HAND_OVER_AFTER {
        acted += u32::from(act_through(&b, &id, &tokens).await);
    }
    let mut handed = false;
    for _ in 0..100 {
        if instance_driving(&a, &id).await.as_deref() == Some("b") {
            handed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(handed, "B drives the table after {acted} actions all forwarded from B");
    // On to the end through B; then the whole log, from its start.
    play_out(&b, &id, &tokens).await;
    let last = b.table_view(&id, Some(&tokens[0])).await["play"]["seq"].as_i64().unwrap();
    let mut ws = b.ws(&id, "since=0").await;
    let log = entries_upto(&mut ws, 1, last).await;
    assert_eq!(log.last().unwrap()["action"]["type"], "finish", "the game ended");
}

/// A table whose players act over sockets both on its driver and on another process stays with
/// its driver: the actions of the driver's own sockets are calls that reach it directly, so the
/// other process's forwarded ones never make `HAND_OVER_AFTER` in a row.
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_table_played_over_sockets_on_its_driver_and_another_process_stays_with_its_driver() {
    let (a, b, id, tokens) = a_table_started_on_a_beside_b().await;
    let mut sockets =
        [a.ws(&id, &format!("token={}", tokens[0])).await, b.ws(&id, &format!("token={}", tokens[1])).await];
    let mut played = [0, 0];
    let mut sent = 0;
    while played[1] < 3 * luddo::cluster::HAND_OVER_AFTER {
        let view = a.table_view(&id, Some(&tokens[0])).await;
        assert_eq!(view["status"], "playing", "the game goes on");
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let mine = a.table_view(&id, Some(&tokens[seat])).await;
        let Some(action) = mine["play"]["legal_actions"].as_array().and_then(|l| l.first()).cloned() else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        sent += 1;
        let seq = mine["play"]["seq"].clone();
        sockets[seat].send(json!({"type": "action", "id": sent, "seq": seq, "action": action})).await;
        let reply = loop {
            let m = sockets[seat].next().await.expect("the socket stays open");
            if m["type"] == "reply" && m["id"] == sent {
                break m;
            }
        };
        match reply["ok"] == true {
            true => played[seat] += 1,
            false => assert_eq!(reply["error"]["code"], "stale_seq", "{reply}"),
        }
    }
    assert_eq!(
        instance_driving(&a, &id).await.as_deref(),
        Some("a"),
        "A still drives the table: {} actions played over its socket, {} forwarded from B",
        played[0],
        played[1]
    );
}

/// One action of the seat whose turn it is, through `s`, the first it lists; `false` if it
/// listed none (the server plays on by itself).
async fn act_through(s: &TestServer, id: &str, tokens: &[String]) -> bool {
    let view = s.table_view(id, Some(&tokens[0])).await;
    let seat = view["play"]["to_act"].as_u64().expect("the game goes on") as usize;
    let mine = s.table_view(id, Some(&tokens[seat])).await;
    let Some(action) = mine["play"]["legal_actions"].as_array().and_then(|l| l.first()).cloned() else {
        return false;
    };
    let r = s.act(id, &tokens[seat], &action, mine["play"]["seq"].as_i64().unwrap()).await;
    assert_eq!(r.status, 200, "an action through {}: {}", s.base, r.json);
    true
}

/// Behind the shipped balancer a table's calls reach the process that drives it: a table made
/// by hand starts where its requests go (its join and start are among them), so none of its
/// calls is forwarded; a quick-play table, started wherever the quick-play request landed, is
/// driven where its calls go once a few turns have been played.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn behind_the_shipped_balancer_a_tables_calls_reach_the_process_that_drives_it() {
    const TABLES_BY_HAND: usize = 6;
    const QUICK_TABLES: usize = 3;
    let db = TestDb::new(Db::Postgres).await;
    let dir = temp_dir("luddo-hashed");
    let settings = [
        ("LUDDO_TURN_SECONDS", "120"),
        ("LUDDO_AWAY_SECONDS", "600"),
        ("LUDDO_TRUSTED_PROXIES", "127.0.0.1"),
        ("LUDDO_RATE_PER_MINUTE", "10000"),
    ];
    let (servers, nginx) = three_behind_nginx(&db, &dir, &settings, Balance::Shipped).await;
    let base = format!("http://{}", nginx.addr);
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
    let sign_up = async |name: String| {
        let p = call(&http, &format!("{base}/v1/players"), None, json!({ "name": name })).await;
        p["token"].as_str().unwrap().to_string()
    };

    let mut drivers = HashSet::new();
    for t in 0..TABLES_BY_HAND {
        let tokens = vec![sign_up(format!("H{t}a")).await, sign_up(format!("H{t}b")).await];
        let body = json!({"game": "luddo", "seat_count": 2});
        let id = call(&http, &format!("{base}/v1/tables"), Some(&tokens[0]), body).await["id"]
            .as_str()
            .unwrap()
            .to_string();
        call(&http, &format!("{base}/v1/tables/{id}/join"), Some(&tokens[1]), json!({"seat": 1})).await;
        call(&http, &format!("{base}/v1/tables/{id}/start"), Some(&tokens[0]), json!({})).await;
        for _ in 0..8 {
            let served_by = act_through_balancer(&http, &base, &id, &tokens).await;
            assert_eq!(served_by, owner_address(&db, &id).await, "table {t}'s action reached its driver");
        }
        drivers.insert(owner_address(&db, &id).await);
    }
    let forwarded = forwarded_calls(&http, &servers).await;
    assert_eq!(
        forwarded, 0.0,
        "no call of the {TABLES_BY_HAND} tables was forwarded (driven by {drivers:?})"
    );

    for t in 0..QUICK_TABLES {
        let tokens = vec![sign_up(format!("Q{t}a")).await, sign_up(format!("Q{t}b")).await];
        let quick = json!({"game": "luddo", "seats": 2});
        let mut id = String::new();
        for token in &tokens {
            let seat = call(&http, &format!("{base}/v1/quick-play"), Some(token), quick.clone()).await;
            id = seat["id"].as_str().unwrap().to_string();
        }
        let mut served_by = String::new();
        for _ in 0..luddo::cluster::HAND_OVER_AFTER + 8 {
            served_by = act_through_balancer(&http, &base, &id, &tokens).await;
        }
        assert_eq!(
            owner_address(&db, &id).await,
            served_by,
            "quick-play table {t} is driven where its calls go"
        );
    }
    drop(nginx);
    drop(servers);
    let _ = std::fs::remove_dir_all(&dir);
}

/// One action of the seat whose turn it is, through the balancer at `base` (the first action
/// it lists, read from its view there); the process that answered it.
async fn act_through_balancer(http: &reqwest::Client, base: &str, id: &str, tokens: &[String]) -> String {
    let view = async |token: &str| -> Value {
        let r = http.get(format!("{base}/v1/tables/{id}")).bearer_auth(token).send().await.unwrap();
        assert!(r.status().is_success(), "a view of {id}: {}", r.status());
        r.json().await.unwrap()
    };
    loop {
        let seat = view(&tokens[0]).await["play"]["to_act"].as_u64().expect("the game goes on") as usize;
        let mine = view(&tokens[seat]).await;
        let Some(action) = mine["play"]["legal_actions"].as_array().and_then(|l| l.first()).cloned() else {
            continue;
        };
        let body = json!({"action": action, "seq": mine["play"]["seq"]});
        let r = http
            .post(format!("{base}/v1/tables/{id}/actions"))
            .bearer_auth(&tokens[seat])
            .json(&body)
            .send()
            .await
            .unwrap();
        let served_by = upstream(r.headers());
        let status = r.status();
        assert!(status.is_success(), "an action on {id}: {status} {}", r.text().await.unwrap_or_default());
        return served_by;
    }
}

/// The calls the processes forwarded to each other so far (`luddo_forwarded_calls_total`,
/// summed over their `/metrics`).
async fn forwarded_calls(http: &reqwest::Client, servers: &[ServerProcess]) -> f64 {
    let mut total = 0.0;
    for server in servers {
        let text =
            http.get(format!("http://{}/metrics", server.addr)).send().await.unwrap().text().await.unwrap();
        total += common::metrics::Scrape::parse(&text).value("luddo_forwarded_calls_total", &[]);
    }
    total
}

/// Two server processes, "a" and "b", on one PostgreSQL database, and a 2-seat Luddo table
/// started on A (so A drives it): its id and its players' tokens by seat.
async fn a_table_started_on_a_beside_b() -> (TestServer, TestServer, String, Vec<String>) {
    let a = TestServer::start_with(Db::Postgres, instance_config("a")).await;
    let (id, tokens) = seated_table(&a, "luddo", 2, json!({})).await;
    let b = TestServer::start_on(a.db.shared(), instance_config("b")).await;
    (a, b, id, tokens)
}

/// The test configuration of the process named `instance`.
fn instance_config(instance: &str) -> luddo::config::Config {
    luddo::config::Config { instance_id: instance.into(), ..test_config() }
}

/// The instance id of the process that drives table `id`, as the database says.
async fn instance_driving(s: &TestServer, id: &str) -> Option<String> {
    s.db.text(&format!("SELECT owner FROM game_tables WHERE id = '{id}'")).await
}

/// Whether seat 1 shows as connected in a table view.
fn a_seat_connected(view: &Value) -> bool {
    view["play"]["presence"][1]["connected"] == true
}

/// What the players have reached, and how far they may play.
struct Progress {
    /// Players act only while their table's `seq` is below this.
    budget: AtomicI64,
    /// Each table's latest `seq` any of its players was sent.
    latest: Vec<AtomicI64>,
    finished: Vec<AtomicBool>,
}

impl Progress {
    fn new() -> Self {
        Self {
            budget: AtomicI64::new(0),
            latest: (0..TABLES).map(|_| AtomicI64::new(0)).collect(),
            finished: (0..TABLES).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    fn allow(&self, upto: i64) {
        self.budget.store(upto, Relaxed);
    }

    fn any_finished(&self) -> bool {
        self.finished.iter().any(|f| f.load(Relaxed))
    }

    /// Waits until every table is at `seq` or over.
    async fn reached(&self, seq: i64, what: &str) {
        let start = tokio::time::Instant::now();
        loop {
            let behind: Vec<i64> = (0..TABLES)
                .filter(|&t| !self.finished[t].load(Relaxed))
                .map(|t| self.latest[t].load(Relaxed))
                .filter(|&latest| latest < seq)
                .collect();
            if behind.is_empty() {
                return;
            }
            assert!(start.elapsed() < PHASE_LIMIT, "{what}: tables stuck at {behind:?}, short of {seq}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

struct Player {
    table: usize,
    id: String,
    token: String,
    seat: usize,
    /// Acts over its socket (else over HTTP).
    over_socket: bool,
}

/// What one player saw.
struct Seen {
    name: String,
    id: String,
    /// Every entry sent to it, in the order sent, across reconnections.
    entries: Vec<Value>,
    /// Its acknowledged actions: the `seq` each got.
    acknowledged: Vec<(i64, Value)>,
    reconnects: usize,
    /// Its sockets opened on a process that did not drive the table then.
    sockets_elsewhere: usize,
    /// Its actions acknowledged through a process that did not drive the table then.
    actions_elsewhere: usize,
    /// The processes nginx sent it to.
    processes: HashSet<String>,
}

/// Plays one seat to the end of the game through the balancer: follows the table's socket
/// (reconnecting with `since` whenever it closes), acts on its turn within the budget, over its
/// socket or over HTTP, and keeps what it was sent.
async fn play(
    base: &str,
    http: &reqwest::Client,
    player: Player,
    progress: &Progress,
    drivers: &Drivers,
) -> Seen {
    let name = format!("table {} seat {}", player.table, player.seat);
    let mut seen = Seen {
        name: name.clone(),
        id: player.id.clone(),
        entries: vec![],
        acknowledged: vec![],
        reconnects: 0,
        sockets_elsewhere: 0,
        actions_elsewhere: 0,
        processes: HashSet::new(),
    };
    let ws_base = base.replace("http://", "ws://");
    let mut last = 0i64;
    let mut mine: Vec<Value> = vec![];
    let mut asked: HashMap<u64, Value> = HashMap::new();
    let mut next_id = 0u64;
    let mut connections = 0;
    loop {
        let url = format!("{ws_base}/v1/tables/{}/events?since={last}&token={}", player.id, player.token);
        let request = url.into_client_request().unwrap();
        let (mut socket, response) = match tokio_tungstenite::connect_async(request).await {
            Ok(connected) => connected,
            // The balancer has no process to give right now, or the process went: try again.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        connections += 1;
        seen.reconnects = connections - 1;
        let landed_on = upstream(response.headers());
        if !landed_on.is_empty() {
            seen.processes.insert(landed_on.clone());
        }
        let driver = drivers.of(&player.id);
        if driver.as_deref().is_some_and(|d| d != landed_on) {
            seen.sockets_elsewhere += 1;
        }
        let mut acted_at = None;
        loop {
            let message = tokio::time::timeout(Duration::from_millis(400), socket.next()).await;
            let text = match message {
                Ok(Some(Ok(Message::Text(text)))) => text,
                Ok(Some(Ok(Message::Close(_)) | Err(_)) | None) => break,
                Ok(Some(Ok(_))) => continue,
                // Quiet: if it is still this seat's turn, the last try may have failed.
                Err(_) => {
                    acted_at = None;
                    String::new().into()
                }
            };
            if !text.is_empty() {
                let m: Value = serde_json::from_str(&text).unwrap();
                match m["type"].as_str() {
                    Some("entry") => {
                        let seq = m["seq"].as_i64().unwrap();
                        assert_eq!(seq, last + 1, "{name}: entry {seq} after {last}: a gap or a duplicate");
                        last = seq;
                        progress.latest[player.table].fetch_max(seq, Relaxed);
                        mine =
                            m["legal_actions_by_seat"][player.seat].as_array().cloned().unwrap_or_default();
                        let over = m["action"]["type"] == "finish";
                        seen.entries.push(m);
                        if over {
                            progress.finished[player.table].store(true, Relaxed);
                            return seen;
                        }
                    }
                    Some("reply") => {
                        let asked = asked.remove(&m["id"].as_u64().unwrap());
                        if m["ok"] == true {
                            seen.acknowledged.push((m["seq"].as_i64().unwrap(), asked.unwrap()));
                            if driver.as_deref().is_some_and(|d| d != landed_on) {
                                seen.actions_elsewhere += 1;
                            }
                        } else {
                            acted_at = None;
                        }
                    }
                    _ => {}
                }
            }
            if mine.is_empty() || acted_at == Some(last) || last >= progress.budget.load(Relaxed) {
                continue;
            }
            tokio::time::sleep(PACE).await;
            let action = mine[last as usize % mine.len()].clone();
            acted_at = Some(last);
            if player.over_socket {
                next_id += 1;
                asked.insert(next_id, action.clone());
                let message = json!({"type": "action", "id": next_id, "seq": last, "action": action});
                if socket.send(Message::Text(message.to_string().into())).await.is_err() {
                    break;
                }
            } else {
                let url = format!("{base}/v1/tables/{}/actions", player.id);
                let body = json!({"action": action, "seq": last});
                let Ok(r) = http.post(url).bearer_auth(&player.token).json(&body).send().await else {
                    continue;
                };
                let landed = upstream(r.headers());
                if !landed.is_empty() {
                    seen.processes.insert(landed.clone());
                }
                let status = r.status().as_u16();
                let answer: Value = r.json().await.unwrap_or_default();
                match status {
                    200 => {
                        seen.acknowledged.push((answer["seq"].as_i64().unwrap(), action));
                        if drivers.of(&player.id).is_some_and(|d| d != landed) {
                            seen.actions_elsewhere += 1;
                        }
                    }
                    // Someone acted first (the opening throws), or the socket is behind.
                    409 => {}
                    // A takeover under way, or the balancer's process just went: try again.
                    502..=504 => acted_at = None,
                    other => panic!("{name}: action answered {other}: {answer}"),
                }
            }
        }
    }
}

/// The process that answered a request nginx passed on (`X-Upstream`, set from
/// `$upstream_addr`: every process tried, the one that answered last).
fn upstream(headers: &reqwest::header::HeaderMap) -> String {
    let tried = headers.get("x-upstream").and_then(|v| v.to_str().ok()).unwrap_or_default();
    let last = tried.rsplit(", ").next().unwrap_or_default();
    let last = last.rsplit(" : ").next().unwrap_or_default().trim();
    // With every process left out for a while nginx names the upstream group: no process.
    last.parse::<std::net::SocketAddr>().map_or(String::new(), |_| last.to_string())
}

/// The internal address of the process that drives each table in play, as the database says,
/// looked at every 100 ms (to tell what was served by another process than the driver).
#[derive(Clone, Default)]
struct Drivers(Arc<std::sync::Mutex<HashMap<String, String>>>);

impl Drivers {
    fn watch(&self, url: String) -> tokio::task::JoinHandle<()> {
        let drivers = self.0.clone();
        tokio::spawn(async move {
            let pool = sqlx::PgPool::connect(&url).await.expect("connect");
            loop {
                let rows: Vec<(String, Option<String>)> = sqlx::query_as(
                    "SELECT game_tables.id, instances.address FROM game_tables
                     JOIN instances ON instances.id = game_tables.owner WHERE game_tables.status = 'playing'",
                )
                .fetch_all(&pool)
                .await
                .unwrap_or_default();
                let now: HashMap<String, String> =
                    rows.into_iter().filter_map(|(id, address)| Some((id, address?))).collect();
                *drivers.lock().unwrap() = now;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
    }

    fn of(&self, table: &str) -> Option<String> {
        self.0.lock().unwrap().get(table).cloned()
    }
}

/// The internal address the driver of table `id` registered.
async fn owner_address(db: &TestDb, id: &str) -> String {
    let sql = format!(
        "SELECT instances.address FROM game_tables JOIN instances ON instances.id = game_tables.owner
         WHERE game_tables.id = '{id}'"
    );
    db.text(&sql).await.expect("the table has a live driver")
}

/// The whole log of table `id`, from a socket opened through the balancer.
async fn whole_log(base: &str, id: &str) -> Vec<Value> {
    let url = format!("{}/v1/tables/{id}/events?since=0", base.replace("http://", "ws://"));
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.expect("a socket through nginx");
    let mut log = vec![];
    while let Ok(Some(Ok(message))) = tokio::time::timeout(Duration::from_secs(2), socket.next()).await {
        if let Message::Text(text) = message {
            let m: Value = serde_json::from_str(&text).unwrap();
            if m["type"] == "entry" {
                let over = m["action"]["type"] == "finish";
                log.push(m);
                if over {
                    break;
                }
            }
        }
    }
    log
}

/// One JSON call through the balancer, which must succeed.
async fn call(http: &reqwest::Client, url: &str, token: Option<&str>, body: Value) -> Value {
    let mut request = http.post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let body: Value = response.json().await.unwrap_or_default();
    assert!(status.is_success(), "{url}: {status} {body}");
    body
}

fn temp_dir(prefix: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{prefix}-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A frozen process (SIGSTOP: its kernel still completes the balancer's handshakes, nothing
/// answers) costs the shipped balancer's API read timeout once: that read goes on to another
/// process, and the frozen one is left out of the reads after it, instead of each one sent there
/// waiting for the WebSockets' long timeout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_frozen_process_stalls_one_read_behind_the_balancer_then_is_left_out() {
    /// Well under the WebSockets' 75 s, above the API's 15 s.
    const BOUND: Duration = Duration::from_secs(25);
    let db = TestDb::new(Db::Postgres).await;
    let dir = temp_dir("luddo-frozen");
    let settings = [("LUDDO_TRUSTED_PROXIES", "127.0.0.1")];
    let (servers, nginx) = three_behind_nginx(&db, &dir, &settings, Balance::Shipped).await;
    let http = reqwest::Client::builder().pool_max_idle_per_host(0).timeout(BOUND * 2).build().unwrap();
    let url = format!("http://{}/v1/tables", nginx.addr);

    let frozen = Frozen::stop(servers[0].pid());
    let mut reads_sent_to_it = vec![];
    let mut slow = 0;
    for read in 0..12 {
        let started = std::time::Instant::now();
        let response = http.get(&url).send().await.unwrap_or_else(|e| panic!("read {read} answered: {e}"));
        let took = started.elapsed();
        let tried =
            response.headers().get("x-upstream").and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        assert_eq!(response.status(), 200, "read {read} (tried {tried})");
        assert!(took < BOUND, "read {read} took {took:?} (tried {tried})");
        if took > Duration::from_secs(5) {
            slow += 1;
        }
        if tried.contains(&servers[0].addr) {
            reads_sent_to_it.push(read);
        }
    }
    assert_eq!(reads_sent_to_it.len(), 1, "only one read went to the frozen process: {reads_sent_to_it:?}");
    assert_eq!(slow, 1, "only that read waited");
    drop(frozen);
    drop(nginx);
    drop(servers);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Three server processes on `db` with these settings, their files under `dir`, behind the
/// shipped nginx, balancing as `balance` says.
async fn three_behind_nginx(
    db: &TestDb,
    dir: &Path,
    settings: &[(&str, &str)],
    balance: Balance,
) -> (Vec<ServerProcess>, Nginx) {
    let mut servers = vec![];
    for i in 0..3 {
        let data = dir.join(format!("server-{i}"));
        servers.push(ServerProcess::spawn(&free_addr(), &data, &db.url, settings).await);
    }
    let upstreams: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let nginx = Nginx::start_balancing(&dir.join("nginx"), &upstreams, balance);
    (servers, nginx)
}

/// A process stopped by SIGSTOP, continued (SIGCONT) when dropped, also when a test fails.
struct Frozen(u32);

impl Frozen {
    fn stop(pid: u32) -> Self {
        let sent = Command::new("kill").arg("-STOP").arg(pid.to_string()).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -STOP");
        Self(pid)
    }
}

impl Drop for Frozen {
    fn drop(&mut self) {
        let _ = Command::new("kill").arg("-CONT").arg(self.0.to_string()).status();
    }
}

/// A forwarded action that the driver commits but whose answer never comes back (the driver
/// dies, the connection drops) is answered as the driver would have: 200 with the entry, since
/// it is in the log, not `stale_seq` or `table_elsewhere` from the retries. Here A, the driver,
/// is reached by the others through a proxy that passes each request on and closes the
/// connection instead of relaying the answer; the players play through B, over HTTP and over
/// a socket.
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_forwarded_action_committed_before_its_answer_was_lost_is_answered_as_applied() {
    let proxy = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let proxy_addr = proxy.local_addr().unwrap().to_string();
    let a = TestServer::start_with(
        Db::Postgres,
        luddo::config::Config { internal_addr: Some(proxy_addr), ..instance_config("a") },
    )
    .await;
    let _proxy = AbortOnDrop(tokio::spawn(answer_losing_proxy(proxy, a.base.replace("http://", ""))));
    let (id, tokens) = seated_table(&a, "luddo", 2, json!({})).await;
    a.table_view(&id, Some(&tokens[0])).await;
    assert_eq!(instance_driving(&a, &id).await.as_deref(), Some("a"), "A drives the table");
    let b = TestServer::start_on(a.db.shared(), instance_config("b")).await;

    let mut played = vec![];
    for over_socket in [false, true, false] {
        let view = a.table_view(&id, Some(&tokens[0])).await;
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let mine = a.table_view(&id, Some(&tokens[seat])).await;
        let seq = mine["play"]["seq"].as_i64().unwrap();
        let action = mine["play"]["legal_actions"][0].clone();
        let (status, answer) = if over_socket {
            let mut ws = b.ws(&id, &format!("token={}&since={seq}", tokens[seat])).await;
            ws.send(json!({"type": "action", "id": 1, "seq": seq, "action": action})).await;
            let reply = loop {
                let m = ws.next().await.expect("a reply before the socket closes");
                if m["type"] == "reply" {
                    break m;
                }
            };
            assert_eq!(reply["ok"], true, "the socket's action is answered as applied: {reply}");
            (200, reply)
        } else {
            let r = b.act(&id, &tokens[seat], &action, seq).await;
            (r.status.as_u16(), r.json)
        };
        assert_eq!(status, 200, "the action through B is answered as applied: {answer}");
        assert_eq!(answer["seq"], seq + 1, "{answer}");
        let entry_sql = format!("SELECT events FROM actions WHERE table_id = '{id}' AND seq = {}", seq + 1);
        let stored: Value = serde_json::from_str(&a.db.text(&entry_sql).await.unwrap()).unwrap();
        assert_eq!(answer["events"], stored["events"], "the answer is the entry's, as the driver's would be");
        played.push((seq + 1, action));
    }
    for (seq, action) in &played {
        let at =
            format!("SELECT action FROM actions WHERE table_id = '{id}' AND seq = {seq} AND actor = 'human'");
        let logged: Value = serde_json::from_str(&a.db.text(&at).await.expect("a human entry")).unwrap();
        assert_eq!(&logged, action, "the action is in the log at its seq");
    }
    let humans = format!("SELECT COUNT(*)::text FROM actions WHERE table_id = '{id}' AND actor = 'human'");
    let humans: usize = a.db.text(&humans).await.unwrap().parse().unwrap();
    assert_eq!(humans, played.len(), "each action is in the log once");
}

/// A task that ends with its owner.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// A TCP proxy to `upstream` that passes what each client sends on, and closes the connection
/// as soon as the upstream starts to answer, relaying nothing of the answer.
async fn answer_losing_proxy(listener: tokio::net::TcpListener, upstream: String) {
    use tokio::io::AsyncReadExt;
    loop {
        let Ok((mut client, _)) = listener.accept().await else { return };
        let upstream = upstream.clone();
        tokio::spawn(async move {
            let Ok(server) = tokio::net::TcpStream::connect(&upstream).await else { return };
            let (mut from_server, mut to_server) = server.into_split();
            let (mut from_client, _to_client) = client.split();
            let pass_on = tokio::io::copy(&mut from_client, &mut to_server);
            let mut answer = [0u8; 1];
            tokio::select! {
                _ = pass_on => {}
                _ = from_server.read(&mut answer) => {}
            }
            // Dropped unread: the client sees its connection close with no answer.
        });
    }
}

/// A token revoked through one process closes its sockets on every other: here a table's
/// socket and a lobby socket on B, the token revoked through A.
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_tokens_sockets_on_another_process_close_when_it_is_revoked() {
    let (a, b, id, tokens) = a_table_started_on_a_beside_b().await;
    let created = a.post("/v1/players/me/tokens", Some(&tokens[1]), json!({})).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let (token_id, token) = (created.json["id"].as_str().unwrap(), created.json["token"].as_str().unwrap());
    let mut sockets =
        [b.ws(&id, &format!("token={token}")).await, b.lobby_ws(&format!("token={token}")).await];
    let mut kept = b.ws(&id, &format!("token={}", tokens[1])).await;
    // The sockets are up (B serves the table from the store).
    assert_eq!(sockets[0].next_entry().await.map(|e| e["seq"].clone()), Some(json!(1)));
    let revoked = a
        .call(reqwest::Method::DELETE, &format!("/v1/players/me/tokens/{token_id}"), Some(&tokens[1]), None)
        .await;
    assert_eq!(revoked.status, 204, "{}", revoked.json);
    for (i, ws) in sockets.iter_mut().enumerate() {
        assert_eq!(ws.close_code_within(Duration::from_secs(1)).await, Some(4401), "socket {i} on B");
    }
    assert_eq!(
        kept.close_code_within(Duration::from_millis(300)).await,
        None,
        "another token's socket stays"
    );
}

/// A token answered from B's recent sessions is refused by B once B heard of its revocation
/// through A: B's socket of the token closing says it heard.
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_token_revoked_through_one_process_is_refused_by_another_once_it_heard() {
    let a = TestServer::start_with(Db::Postgres, instance_config("a")).await;
    let (me, first) = a.player("Ann").await;
    let b = TestServer::start_on(a.db.shared(), instance_config("b")).await;
    let created = a.post("/v1/players/me/tokens", Some(&first), json!({})).await;
    assert_eq!(created.status, 201, "{}", created.json);
    let (token_id, token) = (created.json["id"].as_str().unwrap(), created.json["token"].as_str().unwrap());
    let mut socket = b.lobby_ws(&format!("token={token}")).await;
    for _ in 0..3 {
        assert_eq!(b.get("/v1/players/me", Some(token)).await.json["id"], me);
    }
    let revoked = a
        .call(reqwest::Method::DELETE, &format!("/v1/players/me/tokens/{token_id}"), Some(&first), None)
        .await;
    assert_eq!(revoked.status, 204, "{}", revoked.json);
    assert_eq!(socket.close_code_within(Duration::from_secs(5)).await, Some(4401), "B heard");
    b.get("/v1/players/me", Some(token)).await.assert_problem(401, "unauthorized");
    assert_eq!(b.get("/v1/players/me", Some(&first)).await.json["id"], me);
}

/// A chat message posted through one process reaches the table's sockets on another, and so
/// does a moderator's hiding of it.
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_chat_message_posted_through_one_process_reaches_the_sockets_on_another() {
    let (a, b, id, tokens) = a_table_started_on_a_beside_b().await;
    let mut on_b = b.ws(&id, &format!("token={}", tokens[1])).await;
    // The socket is up (B serves the table from the store) before the message is posted.
    assert_eq!(on_b.next_entry().await.map(|e| e["seq"].clone()), Some(json!(1)));
    let posted = a.post(&format!("/v1/tables/{id}/chat"), Some(&tokens[0]), json!({"text": "from A"})).await;
    assert_eq!(posted.status, 201, "{}", posted.json);
    let heard = on_b.next_of("chat").await;
    assert_eq!(heard["message"], posted.json);
    let (admin_id, admin) = a.player("Ada").await;
    common::grant_admin(&a, &admin_id).await;
    let hide = a.post(&format!("/v1/admin/tables/{id}/chat/1/hide"), Some(&admin), json!({})).await;
    assert_eq!(hide.status, 204, "{}", hide.json);
    assert_eq!(on_b.next_of("chat_hidden").await["n"], 1);
}

/// A ban through one process closes the player's sockets on every other with 4403, and the
/// other refuses the player's token once it heard.
#[tokio::test]
#[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
async fn a_ban_through_one_process_closes_the_players_sockets_on_another() {
    let (a, b, id, tokens) = a_table_started_on_a_beside_b().await;
    let t = a.table_view(&id, Some(&tokens[0])).await;
    let banned = t["seats"][1]["player"]["id"].as_str().unwrap().to_string();
    let mut sockets =
        [b.ws(&id, &format!("token={}", tokens[1])).await, b.lobby_ws(&format!("token={}", tokens[1])).await];
    assert_eq!(sockets[0].next_entry().await.map(|e| e["seq"].clone()), Some(json!(1)));
    assert_eq!(b.get("/v1/players/me", Some(&tokens[1])).await.status, 200, "B caches the session");
    let (admin_id, admin) = a.player("Ada").await;
    common::grant_admin(&a, &admin_id).await;
    let ban = a
        .post(
            &format!("/v1/admin/players/{banned}/ban"),
            Some(&admin),
            json!({"seconds": 600, "reason": "x"}),
        )
        .await;
    assert_eq!(ban.status, 200, "{}", ban.json);
    for (i, ws) in sockets.iter_mut().enumerate() {
        assert_eq!(ws.close_code_within(Duration::from_secs(1)).await, Some(4403), "socket {i} on B");
    }
    b.get("/v1/players/me", Some(&tokens[1])).await.assert_problem(403, "banned");
}
