//! Shared helpers for the integration tests: a real server on `127.0.0.1:0` over a fresh
//! database (a SQLite file, or a new PostgreSQL database when `TEST_DATABASE_URL` is set), an
//! HTTP client whose every response is checked against openapi/openapi.yaml, and a macro that
//! runs one test body against both stores.

#![allow(dead_code)]

pub mod metrics;
pub mod nginx;
pub mod process;
pub mod spec;

use futures_util::{SinkExt, StreamExt};
use luddo::{AppState, clock::Clock, config::Config, store::Store};
use reqwest::{Method, StatusCode, header::HeaderMap};
use serde_json::{Value, json};
use std::path::PathBuf;
use tokio::{sync::oneshot, task::JoinHandle};

/// Which store a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// Runs each named `async fn name(db: Db)` once per store: `sqlite::name` and `postgres::name`.
/// The Postgres variant is ignored, and counted as such, when `TEST_DATABASE_URL` was unset at
/// build time (build.rs; CI sets it).
#[macro_export]
macro_rules! both_stores {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    super::$name($crate::common::Db::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test]
                #[cfg_attr(not(postgres_tests), ignore = "needs PostgreSQL: set TEST_DATABASE_URL")]
                async fn $name() {
                    super::$name($crate::common::Db::Postgres).await
                }
            )*
        }
    };
}

/// Stops tokio's clock for the rest of the test: from now on time moves only by [`advance`].
///
/// Tokio never auto-advances a paused clock while a blocking task runs, so one is kept running:
/// the clock cannot jump ahead while the server waits for its database (a SQLite worker thread
/// or the Postgres server), and the test decides exactly when each game clock runs out. The
/// blocking task also nudges the runtime every few milliseconds of real time, so that a runtime
/// parked "until the next timer" (which, with time stopped, could be forever) looks again at
/// what other threads finished meanwhile.
pub fn manual_time() -> ManualTime {
    tokio::time::pause();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<()>();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let flag = stop.clone();
    tokio::task::spawn_blocking(move || {
        while !flag.load(std::sync::atomic::Ordering::Relaxed) && tx.send(()).is_ok() {
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    });
    tokio::spawn(async move { while rx.recv().await.is_some() {} });
    ManualTime(stop)
}

/// Keeps time manual until dropped.
pub struct ManualTime(std::sync::Arc<std::sync::atomic::AtomicBool>);

impl Drop for ManualTime {
    fn drop(&mut self) {
        self.0.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Moves the stopped clock on by `secs` seconds (and 10 ms: tokio's timer wheel rounds a
/// deadline up to its next millisecond tick), firing every timer due on the way.
pub async fn advance(secs: u64) {
    tokio::time::advance(std::time::Duration::from_secs(secs) + std::time::Duration::from_millis(10)).await;
}

pub fn postgres_url() -> Option<String> {
    std::env::var("TEST_DATABASE_URL").ok().filter(|u| !u.is_empty())
}

/// A fresh, empty database of the given kind; dropped (best effort) when the guard goes.
pub struct TestDb {
    pub url: String,
    cleanup: Option<Cleanup>,
}

enum Cleanup {
    File(PathBuf),
    Postgres { admin_url: String, name: String },
}

impl TestDb {
    pub async fn new(db: Db) -> Self {
        let id = uuid::Uuid::new_v4().simple().to_string();
        match db {
            Db::Sqlite => {
                let dir = std::env::temp_dir().join(format!("luddo-test-{id}"));
                let url = format!("sqlite://{}?mode=rwc", dir.join("luddo.db").display());
                Self { url, cleanup: Some(Cleanup::File(dir)) }
            }
            Db::Postgres => {
                use sqlx::Connection;
                let admin_url = postgres_url().expect("TEST_DATABASE_URL");
                let name = format!("luddo_test_{id}");
                let mut conn = sqlx::PgConnection::connect(&admin_url).await.expect("connect to Postgres");
                sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut conn).await.expect("create db");
                let url = replace_db_name(&admin_url, &name);
                Self { url, cleanup: Some(Cleanup::Postgres { admin_url, name }) }
            }
        }
    }
}

impl TestDb {
    /// The same database for a second server (only the first one drops it).
    pub fn shared(&self) -> TestDb {
        TestDb { url: self.url.clone(), cleanup: None }
    }

    /// The first column of the first row of a query, as text (to look at what servers stored).
    pub async fn text(&self, sql: &str) -> Option<String> {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&self.url).await.expect("connect");
        let value = sqlx::query_scalar(sql).fetch_optional(&pool).await.expect("query");
        pool.close().await;
        value.flatten()
    }

    /// Runs one SQL statement on the database, beside the servers (to stage faults).
    pub async fn execute(&self, sql: &str) {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&self.url).await.expect("connect");
        sqlx::query(sql).execute(&pool).await.expect("statement");
        pool.close().await;
    }
}

/// `postgres://host/olddb?x` with the database renamed.
fn replace_db_name(url: &str, name: &str) -> String {
    let (base, query) = url.split_once('?').map_or((url, None), |(b, q)| (b, Some(q)));
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let base = match base[scheme_end..].find('/') {
        Some(slash) => &base[..scheme_end + slash],
        None => base,
    };
    match query {
        Some(q) => format!("{base}/{name}?{q}"),
        None => format!("{base}/{name}"),
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match self.cleanup.take() {
            Some(Cleanup::File(dir)) => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Some(Cleanup::Postgres { admin_url, name }) => {
                // Drop runs inside the test's runtime; use a thread with its own.
                let _ = std::thread::spawn(move || {
                    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
                    rt.block_on(async {
                        use sqlx::Connection;
                        let mut conn = sqlx::PgConnection::connect(&admin_url).await.ok()?;
                        sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                            .execute(&mut conn)
                            .await
                            .ok()
                    })
                })
                .join();
            }
            None => {}
        }
    }
}

/// A running server and a client for it.
pub struct TestServer {
    pub base: String,
    pub client: reqwest::Client,
    pub config: Config,
    pub store: Store,
    /// The game clock; a restarted server keeps it so stored deadlines keep their meaning.
    pub clock: Clock,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
    pub db: TestDb,
}

/// Settings tests usually want: test mode on, generous limits.
pub fn test_config() -> Config {
    Config {
        test_mode: true,
        rate_per_minute: 10_000,
        actions_per_minute: 100_000,
        max_waiting_seats_per_player: 1_000,
        ..Config::default()
    }
}

/// A server with the default turn clocks (15 s, party 30 s) and `away` seconds of absence, for
/// the tests that stop tokio's clock and move it by hand (tests/clocks.rs, tests/long_clock.rs).
pub fn clock_config(away: u64) -> Config {
    Config {
        timers: luddo::config::Timers {
            turn: std::time::Duration::from_secs(15),
            party_turn: std::time::Duration::from_secs(30),
            away: std::time::Duration::from_secs(away),
        },
        // A request caught in flight by a long jump of the stopped clock must not time out.
        request_timeout: std::time::Duration::from_secs(3600),
        ..test_config()
    }
}

/// Dice for a 2-seat Luddo game in which seat 0 starts and nobody leaves base for a long while
/// (so two bots cannot finish the game under a test's feet).
pub fn quiet_dice() -> Value {
    let mut dice = vec![6, 1];
    dice.extend(std::iter::repeat_n([3, 2], 2_000).flatten());
    json!(dice)
}

impl TestServer {
    pub async fn start(db: Db) -> Self {
        Self::start_with(db, test_config()).await
    }

    pub async fn start_with(db: Db, config: Config) -> Self {
        let db = TestDb::new(db).await;
        Self::start_on(db, config).await
    }

    /// Serves over an existing database (to restart a server on the same data).
    pub async fn start_on(db: TestDb, config: Config) -> Self {
        Self::start_on_with_clock(db, config, Clock::new()).await
    }

    /// Serves over an existing database with a given game clock.
    pub async fn start_on_with_clock(db: TestDb, config: Config, clock: Clock) -> Self {
        // Server logs in test output when RUST_LOG is set.
        if std::env::var_os("RUST_LOG").is_some() {
            let _ = tracing_subscriber::fmt().with_test_writer().try_init();
        }
        let store = Store::open(&db.url).await.expect("open store");
        // The server's own connections (cluster mode's listener) go to the test's database.
        let config = Config { database_url: Some(db.url.clone()), ..config };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = oneshot::channel::<()>();
        let state = AppState::with_clock(store.clone(), config.clone(), clock);
        let task = tokio::spawn(async move {
            luddo::serve(listener, state, async {
                let _ = rx.await;
            })
            .await
            .unwrap();
        });
        // No client timeout: under paused time it would fire while the server works. No idle
        // connections kept either: when a test moves the paused clock past the server's header
        // timeout, the server closes them, and a request sent on one as it closes would fail.
        let client = reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap();
        Self { base, client, config, store, clock, shutdown: Some(tx), task: Some(task), db }
    }

    /// Stops the server and hands back its database.
    pub async fn stop(mut self) -> TestDb {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
        self.store.close().await;
        TestDb { url: self.db.url.clone(), cleanup: self.db.cleanup.take() }
    }

    /// Sends a request and checks the answer against the OpenAPI spec.
    pub async fn call(&self, method: Method, path: &str, token: Option<&str>, body: Option<Value>) -> Resp {
        let mut req = self.client.request(method.clone(), format!("{}{}", self.base, path));
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.expect("request");
        let resp = Resp::read(resp).await;
        spec::check_response(&method, path, &resp);
        resp
    }

    /// Sends raw bytes with a content type (for malformed-input tests); checked against the spec.
    pub async fn raw(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
        content_type: Option<&str>,
        body: Vec<u8>,
    ) -> Resp {
        let mut req = self.client.request(method.clone(), format!("{}{}", self.base, path)).body(body);
        if let Some(t) = token {
            req = req.bearer_auth(t);
        }
        if let Some(ct) = content_type {
            req = req.header("content-type", ct);
        }
        let resp = Resp::read(req.send().await.expect("request")).await;
        spec::check_response(&method, path, &resp);
        resp
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Resp {
        self.call(Method::GET, path, token, None).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Resp {
        self.call(Method::POST, path, token, Some(body)).await
    }

    /// Signs up a player; returns (id, token).
    pub async fn player(&self, name: &str) -> (String, String) {
        let r = self.post("/v1/players", None, serde_json::json!({ "name": name })).await;
        assert_eq!(r.status, StatusCode::CREATED, "{:?}", r.json);
        (r.json["id"].as_str().unwrap().to_string(), r.json["token"].as_str().unwrap().to_string())
    }

    /// Creates a table; returns its JSON.
    pub async fn table(&self, token: &str, body: Value) -> Value {
        let r = self.post("/v1/tables", Some(token), body).await;
        assert_eq!(r.status, StatusCode::CREATED, "{:?}", r.json);
        r.json
    }
}

impl TestServer {
    /// Opens the events WebSocket of a table (`query` like `since=3&token=...`).
    pub async fn ws(&self, table: &str, query: &str) -> Ws {
        let url = format!("{}/v1/tables/{table}/events?{query}", self.base.replace("http://", "ws://"));
        let (stream, _) = tokio_tungstenite::connect_async(&url).await.expect("websocket connects");
        Ws { stream, url, watchdog: Watchdog::new(), game: spec::game_of_table(table) }
    }

    /// Opens the lobby's WebSocket (`query` like `limit=5&token=...`).
    pub async fn lobby_ws(&self, query: &str) -> Ws {
        let url = format!("{}/v1/lobby/events?{query}", self.base.replace("http://", "ws://"));
        let (stream, _) = tokio_tungstenite::connect_async(&url).await.expect("websocket connects");
        Ws { stream, url, watchdog: Watchdog::new(), game: None }
    }

    /// The table's JSON as `token` sees it.
    pub async fn table_view(&self, id: &str, token: Option<&str>) -> Value {
        let r = self.get(&format!("/v1/tables/{id}"), token).await;
        assert_eq!(r.status, 200, "{}", r.json);
        r.json
    }

    /// Posts an action at the table's current seq.
    pub async fn act(&self, id: &str, token: &str, action: &Value, seq: i64) -> Resp {
        self.post(
            &format!("/v1/tables/{id}/actions"),
            Some(token),
            serde_json::json!({"action": action, "seq": seq}),
        )
        .await
    }
}

/// A WebSocket client of the events stream.
pub struct Ws {
    pub stream: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    /// Where it is connected, for the message of a test that waited too long.
    url: String,
    /// Fails a [`Ws::next`] that waits longer than [`WS_MESSAGE_TIMEOUT`].
    watchdog: Watchdog,
    /// The table's game, if a response showed it: messages are checked against its schemas.
    game: Option<String>,
}

/// How long [`Ws::next`] waits for a message, in real time, before it fails the test: far more
/// than any server answer takes, so only a message that will never come reaches it.
pub const WS_MESSAGE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Keeps the time of a socket's waits in real time, not tokio's: a test that stopped tokio's
/// clock ([`manual_time`]) must not hang either. One thread per socket looks twice a second at
/// when the current wait began; arming and disarming a wait are two atomic stores, so reading
/// thousands of messages costs nothing.
struct Watchdog {
    /// What the times below count from.
    base: std::time::Instant,
    /// When the current wait began, in milliseconds since `base`, plus one; 0 when not waiting.
    armed_at: std::sync::Arc<std::sync::atomic::AtomicU64>,
    /// Told by the thread when a wait has gone on too long.
    expired: std::sync::Arc<tokio::sync::Notify>,
    /// Set when the socket goes: the thread ends.
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Watchdog {
    fn new() -> Self {
        use std::sync::{Arc, atomic::Ordering::Relaxed};
        let base = std::time::Instant::now();
        let armed_at = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let expired = Arc::new(tokio::sync::Notify::new());
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (armed, told, stopped) = (armed_at.clone(), expired.clone(), stop.clone());
        std::thread::spawn(move || {
            while !stopped.load(Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(500));
                let since = armed.load(Relaxed);
                let now = base.elapsed().as_millis() as u64 + 1;
                if since != 0 && now.saturating_sub(since) >= WS_MESSAGE_TIMEOUT.as_millis() as u64 {
                    told.notify_one();
                }
            }
        });
        Self { base, armed_at, expired, stop }
    }

    /// `future`'s output; panics with `what` once it has waited [`WS_MESSAGE_TIMEOUT`].
    async fn limit<F: std::future::Future>(&self, what: impl Fn() -> String, future: F) -> F::Output {
        use std::sync::atomic::Ordering::Relaxed;
        let began = self.base.elapsed();
        self.armed_at.store(began.as_millis() as u64 + 1, Relaxed);
        tokio::pin!(future);
        let out = loop {
            tokio::select! {
                out = &mut future => break out,
                // A notice meant for an earlier wait (it ended as the thread looked) is ignored.
                () = self.expired.notified() => {
                    if self.base.elapsed() - began >= WS_MESSAGE_TIMEOUT {
                        panic!("{}", what());
                    }
                }
            }
        };
        self.armed_at.store(0, Relaxed);
        out
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Ws {
    /// The next JSON message; `None` when the socket closed. Fails the test when none comes
    /// within [`WS_MESSAGE_TIMEOUT`].
    pub async fn next(&mut self) -> Option<Value> {
        use tokio_tungstenite::tungstenite::Message;
        let (url, stream, game) = (&self.url, &mut self.stream, self.game.as_deref());
        let what = || format!("no WebSocket message within {WS_MESSAGE_TIMEOUT:?} on {url}");
        // One wait for the whole call: pings and other frames in between do not restart it.
        self.watchdog
            .limit(what, async move {
                loop {
                    match stream.next().await? {
                        Ok(Message::Text(t)) => {
                            let message = serde_json::from_str(&t).expect("JSON message");
                            spec::check_ws_message(&message, game);
                            return Some(message);
                        }
                        Ok(Message::Close(_)) | Err(_) => return None,
                        Ok(_) => continue,
                    }
                }
            })
            .await
    }

    /// The next `entry` message (skipping presence and replies).
    pub async fn next_entry(&mut self) -> Option<Value> {
        loop {
            let m = self.next().await?;
            if m["type"] == "entry" {
                return Some(m);
            }
        }
    }

    /// Reads entries until one matches.
    pub async fn entry_where(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        loop {
            let m = self.next_entry().await.expect("socket closed before the expected entry");
            if pred(&m) {
                return m;
            }
        }
    }

    /// The next message of type `kind`, skipping the others.
    pub async fn next_of(&mut self, kind: &str) -> Value {
        loop {
            let m = self.next().await.unwrap_or_else(|| panic!("the socket closed before a {kind} message"));
            if m["type"] == kind {
                return m;
            }
        }
    }

    pub async fn send(&mut self, v: Value) {
        use tokio_tungstenite::tungstenite::Message;
        self.stream.send(Message::Text(v.to_string().into())).await.expect("send");
    }

    /// The close code the server ends the socket with within `within`, skipping messages;
    /// `None` if it is still open then (or ends without a close frame).
    pub async fn close_code_within(&mut self, within: std::time::Duration) -> Option<u16> {
        use tokio_tungstenite::tungstenite::Message;
        let closed = async {
            loop {
                match self.stream.next().await {
                    Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                    Some(Ok(_)) => continue,
                    _ => return None,
                }
            }
        };
        tokio::time::timeout(within, closed).await.ok().flatten()
    }

    pub async fn close(mut self) {
        let _ = self.stream.close(None).await;
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// A response, read whole.
#[derive(Debug)]
pub struct Resp {
    pub status: StatusCode,
    pub headers: HeaderMap,
    /// The body, when it is JSON (`Null` when it is empty, `text/plain` or NDJSON).
    pub json: Value,
    /// The body as text.
    pub text: String,
}

impl Resp {
    async fn read(resp: reqwest::Response) -> Self {
        let status = resp.status();
        let headers = resp.headers().clone();
        let bytes = resp.bytes().await.unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let plain = headers.get("content-type").is_some_and(|ct| {
            ct.as_bytes().starts_with(b"text/plain") || ct.as_bytes().starts_with(b"application/x-ndjson")
        });
        let json = if bytes.is_empty() || plain {
            Value::Null
        } else {
            serde_json::from_slice(&bytes).unwrap_or_else(|_| panic!("{status}: body is not JSON: {text}"))
        };
        Self { status, headers, json, text }
    }

    /// Asserts a problem+json error with this status and code.
    #[track_caller]
    pub fn assert_problem(&self, status: u16, code: &str) {
        assert_eq!(self.status.as_u16(), status, "{}", self.json);
        assert_eq!(self.json["code"], code, "{}", self.json);
        let ct = self.headers.get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert!(ct.starts_with("application/problem+json"), "content-type {ct}");
        assert_eq!(self.json["type"], format!("https://luddo.dev/problems/{code}"));
        // A client reads JSON words, never serde's Rust ones.
        let detail = self.json["detail"].as_str().unwrap_or_default();
        assert_eq!(rust_words(detail), Vec::<&str>::new(), "{}", self.json);
        let header = |name: &str| self.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        // Every problem names its request, as the response's header does.
        let id = header("x-request-id").expect("every response has an x-request-id");
        assert_eq!(self.json["request_id"], id.as_str(), "{}", self.json);
        match status {
            // RFC 9110: a 401 says how to authenticate.
            401 => assert_eq!(header("www-authenticate").as_deref(), Some(r#"Bearer realm="luddo""#)),
            // Every bound a 429 reports frees up by itself; the client is told when to retry.
            429 => {
                let after =
                    header("retry-after").unwrap_or_else(|| panic!("a 429 {code} without Retry-After"));
                assert!(after.parse::<u64>().is_ok_and(|s| s >= 1), "Retry-After: {after}");
            }
            _ => {}
        }
    }
}

/// The Rust words serde would put in an error message (type kinds, paths, integer types) that
/// `text` holds; a problem's detail must hold none.
pub fn rust_words(text: &str) -> Vec<&'static str> {
    const PHRASES: [&str; 3] = ["internally tagged", "::", "untagged"];
    const WORDS: [&str; 15] = [
        "enum", "struct", "variant", "usize", "isize", "u8", "u16", "u32", "u64", "i8", "i16", "i32", "i64",
        "f64", "map",
    ];
    let words: Vec<&str> = text.split(|c: char| !(c.is_alphanumeric() || c == '_')).collect();
    let mut found: Vec<&'static str> = PHRASES.into_iter().filter(|p| text.contains(p)).collect();
    found.extend(WORDS.into_iter().filter(|w| words.contains(w)));
    found
}

/// Makes player `id` an admin, as `luddo admin grant` does.
pub async fn grant_admin(s: &TestServer, id: &str) {
    use luddo::store::{Moderation, ModerationAction};
    let grant = Moderation {
        player: Some(id.parse().unwrap()),
        ..Moderation::new(None, ModerationAction::GrantAdmin, 1)
    };
    assert!(s.store.set_admin(&grant).await.unwrap());
}

/// Signs up `n` players, makes a table of `game` for them (seat i = player i) and starts it.
pub async fn seated_table(s: &TestServer, game: &str, n: usize, extra: Value) -> (String, Vec<String>) {
    let mut tokens = vec![];
    for i in 0..n {
        tokens.push(s.player(&format!("P{i}")).await.1);
    }
    let mut body = json!({"game": game, "seat_count": n});
    body.as_object_mut().unwrap().extend(extra.as_object().cloned().unwrap_or_default());
    let t = s.table(&tokens[0], body).await;
    let id = t["id"].as_str().unwrap().to_string();
    for (i, token) in tokens.iter().enumerate().skip(1) {
        let mut join = json!({"seat": i});
        if let Some(code) = t["invite_code"].as_str() {
            join["invite_code"] = json!(code);
        }
        let r = s.post(&format!("/v1/tables/{id}/join"), Some(token), join).await;
        assert_eq!(r.status, 200, "{}", r.json);
    }
    let r = s.post(&format!("/v1/tables/{id}/start"), Some(&tokens[0]), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.json);
    (id, tokens)
}

/// Reads entries until the one with `seq`, checking they come in order without gaps.
pub async fn entries_upto(ws: &mut Ws, from: i64, upto: i64) -> Vec<Value> {
    let mut out = vec![];
    let mut expect = from;
    while expect <= upto {
        let e = ws.next_entry().await.expect("socket open");
        assert_eq!(e["seq"], expect, "entries arrive in order, no gap, no duplicate");
        out.push(e);
        expect += 1;
    }
    out
}

/// Plays a started table to its end, each seat by its player's first legal action (`tokens` by
/// seat; bots play their own seats).
pub async fn play_out(s: &TestServer, id: &str, tokens: &[String]) {
    play_out_choosing(s, id, tokens, |_| 0).await
}

/// Plays a started table to its end, each seat by the legal action `choose` picks (its index,
/// given how many there are).
pub async fn play_out_choosing(
    s: &TestServer,
    id: &str,
    tokens: &[String],
    mut choose: impl FnMut(usize) -> usize,
) {
    for _ in 0..20_000 {
        let view = s.table_view(id, Some(&tokens[0])).await;
        if view["status"] == "finished" {
            return;
        }
        let seat = view["play"]["to_act"].as_u64().unwrap() as usize;
        let mine = s.table_view(id, Some(&tokens[seat])).await;
        let legal = mine["play"]["legal_actions"].as_array().unwrap();
        if !legal.is_empty() {
            let action = &legal[choose(legal.len())];
            let r = s.act(id, &tokens[seat], action, mine["play"]["seq"].as_i64().unwrap()).await;
            assert!(r.status == 200 || r.json["code"] == "stale_seq", "{}", r.json);
        }
    }
    panic!("the game did not end");
}
