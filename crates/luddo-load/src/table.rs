//! One table slot: players sign up once, then the slot plays game after game, each at a new
//! table, until the run stops.
//!
//! A game: the host creates the table, the others join, the host starts it, and every seat
//! (plus any spectators) opens the table's WebSocket from `since=0`. One task drives the whole
//! table: it reads every socket, checks that each receives every log entry exactly once and in
//! order, and when an entry says a seat must decide (`to_act` with a running clock), picks one
//! of the seat's legal actions the entry lists (`legal_actions_by_seat`) at random and sends it
//! over the seat's socket (with `--http-actions`, posts it over HTTP, and decides the next one
//! once the answer is in). The latency of an action runs from sending it until every socket of
//! the table has received its entry.

use crate::stats::Stats;
use futures_util::{
    SinkExt, StreamExt,
    future::BoxFuture,
    stream::{BoxStream, SelectAll},
};
use rand::{Rng, SeedableRng, rngs::StdRng};
use serde::Deserialize;
use serde_json::{Value, json};
use std::{
    borrow::Cow,
    collections::VecDeque,
    net::{IpAddr, Ipv4Addr, SocketAddr},
    sync::{
        Arc,
        atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed},
    },
    time::Duration,
};
use tokio::{
    net::TcpStream,
    sync::{Semaphore, watch},
    time::Instant,
};
use tokio_tungstenite::{
    WebSocketStream,
    tungstenite::{Message, protocol::WebSocketConfig},
};

/// A table that hears nothing for this long while a game is on is stalled.
const STALL: Duration = Duration::from_secs(30);
/// How long the sockets of a finished game may take to all receive the last entry.
const FINISH_WAIT: Duration = Duration::from_secs(10);
/// Actions a player never picks at random (they end the game at once): resigning.
const SHUNNED: &[&str] = &["up_board"];

type Sink = futures_util::stream::SplitSink<WebSocketStream<TcpStream>, Message>;
type Incoming = (usize, Option<Result<Message, tokio_tungstenite::tungstenite::Error>>);

/// What every table task shares.
pub struct Ctx {
    pub args: crate::args::Args,
    pub http: reqwest::Client,
    /// `http://host:port`.
    pub base: String,
    pub server: SocketAddr,
    pub stats: Stats,
    pub pacer: Option<Arc<Pacer>>,
    /// Bounds the tables being set up at once (sign-ups, create, join, start, connect).
    pub setup: Semaphore,
    pub stop: watch::Receiver<bool>,
    /// Flips to true when the ramp-up is over: tables set up earlier wait for it to play, so
    /// that setting up the rest is not slowed down by their games.
    pub go: watch::Receiver<bool>,
    /// Round-robin over the local addresses WebSockets connect from.
    pub next_source: AtomicUsize,
    pub source_ips: usize,
}

/// Spaces actions evenly across all tables to a given rate.
pub struct Pacer {
    start: Instant,
    interval_ns: u64,
    next_ns: AtomicU64,
}

impl Pacer {
    pub fn new(per_second: f64) -> Self {
        Self { start: Instant::now(), interval_ns: (1e9 / per_second) as u64, next_ns: AtomicU64::new(0) }
    }

    /// Waits for the next free slot. Slots unused while nobody asked are not made up later.
    pub async fn wait(&self) {
        let now = self.start.elapsed().as_nanos() as u64;
        let mut current = self.next_ns.load(Relaxed);
        loop {
            let slot = current.max(now);
            match self.next_ns.compare_exchange_weak(current, slot + self.interval_ns, Relaxed, Relaxed) {
                Ok(_) => {
                    tokio::time::sleep_until(self.start + Duration::from_nanos(slot)).await;
                    return;
                }
                Err(c) => current = c,
            }
        }
    }
}

#[derive(Clone)]
struct Player {
    token: String,
}

/// A failure, named by kind (the report counts errors by kind).
type Failure = String;

/// A seat's chosen action: (seat, the `seq` it answers, the action).
type Decision = Result<(usize, i64, Value), Failure>;

/// How a game ended for the generator.
enum GameEnd {
    Finished,
    Stopped,
}

/// Plays games at slot `slot` until the run stops.
pub async fn run_slot(ctx: Arc<Ctx>, slot: usize) {
    let mut rng = StdRng::seed_from_u64(ctx.args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ slot as u64);
    let mut stop = ctx.stop.clone();
    let players = loop {
        if *stop.borrow() {
            return;
        }
        match sign_up(&ctx, slot).await {
            Ok(p) => break p,
            Err(kind) => {
                ctx.stats.error(kind);
                tokio::select! { _ = tokio::time::sleep(Duration::from_secs(1)) => {}, _ = stop.changed() => return }
            }
        }
    };
    let mut first = true;
    loop {
        if *stop.borrow() {
            return;
        }
        match game(&ctx, &players, &mut rng, &mut first).await {
            Ok(GameEnd::Finished) => {
                ctx.stats.games_finished.fetch_add(1, Relaxed);
                if ctx.args.one_game {
                    return;
                }
            }
            Ok(GameEnd::Stopped) => return,
            Err(kind) => {
                ctx.stats.error(kind);
                if first {
                    // Count the slot as ready anyway, so a broken server does not hold up the ramp.
                    first = false;
                    ctx.stats.tables_ready.fetch_add(1, Relaxed);
                }
                tokio::select! { _ = tokio::time::sleep(Duration::from_millis(500)) => {}, _ = stop.changed() => return }
            }
        }
    }
}

async fn sign_up(ctx: &Ctx, slot: usize) -> Result<Vec<Player>, Failure> {
    let _permit = ctx.setup.acquire().await.map_err(|_| "setup_closed".to_string())?;
    let mut players = vec![];
    for seat in 0..ctx.args.seats {
        let v = call(
            ctx,
            reqwest::Method::POST,
            "/v1/players",
            None,
            Some(json!({"name": format!("load {slot}.{seat}")})),
        )
        .await?;
        let token = v["token"].as_str().ok_or("signup_no_token")?.to_string();
        players.push(Player { token });
    }
    Ok(players)
}

/// One HTTP call; non-2xx answers become `http_<status>_<code>` failures.
async fn call(
    ctx: &Ctx,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> Result<Value, Failure> {
    let answer = luddo_load::api::call(&ctx.http, &ctx.base, method, path, token, body.as_ref())
        .await
        .map_err(request_failure)?;
    answered(answer)
}

/// A request that got no answer, by kind.
fn request_failure(e: reqwest::Error) -> Failure {
    if e.is_timeout() {
        "http_timeout"
    } else if e.is_connect() {
        "http_connect"
    } else {
        "http_error"
    }
    .to_string()
}

/// An answer's JSON body, or its failure: `http_<status>_<code>` for a non-2xx answer.
fn answered(answer: luddo_load::api::Answer) -> Result<Value, Failure> {
    let status = answer.status;
    let value = answer.body.ok_or_else(|| format!("http_{status}_unreadable"))?;
    if !(200..300).contains(&status) {
        return Err(format!("http_{status}_{}", value["code"].as_str().unwrap_or("unknown")));
    }
    Ok(value)
}

/// Posts `action` for the player of `token` at table `table`, seen at `seq`
/// (`--http-actions`): done when the server answers that it accepted it.
fn post_action(
    ctx: &Ctx,
    token: &str,
    table: &str,
    seq: i64,
    action: Value,
) -> BoxFuture<'static, Result<(), Failure>> {
    let (http, base, token) = (ctx.http.clone(), ctx.base.clone(), token.to_owned());
    let path = format!("/v1/tables/{table}/actions");
    Box::pin(async move {
        let body = json!({"action": action, "seq": seq});
        let answer =
            luddo_load::api::call(&http, &base, reqwest::Method::POST, &path, Some(&token), Some(&body))
                .await
                .map_err(request_failure)?;
        answered(answer).map(drop)
    })
}

/// Opens a table's WebSocket from the next local source address.
async fn connect(ctx: &Ctx, table: &str, token: Option<&str>) -> Result<WebSocketStream<TcpStream>, Failure> {
    let i = ctx.next_source.fetch_add(1, Relaxed) % ctx.source_ips;
    let local = SocketAddr::new(IpAddr::V4(Ipv4Addr::new(127, 0, 0, 1 + i as u8)), 0);
    let url = match token {
        Some(t) => format!("ws://{}/v1/tables/{table}/events?since=0&token={t}", ctx.server),
        None => format!("ws://{}/v1/tables/{table}/events?since=0", ctx.server),
    };
    let open = async {
        let socket = tokio::net::TcpSocket::new_v4().map_err(|e| io_kind("ws_socket", &e))?;
        socket.bind(local).map_err(|e| io_kind("ws_bind", &e))?;
        let stream = socket.connect(ctx.server).await.map_err(|e| io_kind("ws_connect", &e))?;
        stream.set_nodelay(true).map_err(|e| io_kind("ws_socket", &e))?;
        // A small read buffer: tungstenite's default (128 KiB) is zero-filled before every read
        // and held per socket, which would dominate this generator's CPU and memory.
        let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
        let (ws, _) = tokio_tungstenite::client_async_with_config(url, stream, Some(config)).await.map_err(
            |e| match e {
                tokio_tungstenite::tungstenite::Error::Http(r) => {
                    format!("ws_handshake_{}", r.status().as_u16())
                }
                _ => "ws_handshake".to_string(),
            },
        )?;
        Ok::<_, Failure>(ws)
    };
    tokio::time::timeout(Duration::from_secs(30), open).await.map_err(|_| "ws_connect_timeout".to_string())?
}

fn io_kind(what: &str, e: &std::io::Error) -> Failure {
    match e.raw_os_error() {
        Some(24) => format!("{what}_too_many_open_files"),
        Some(99) => format!("{what}_no_free_port"),
        _ => format!("{what}_{:?}", e.kind()).to_lowercase(),
    }
}

/// The parts of a server message the generator reads.
#[derive(Deserialize)]
struct ServerMessage<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    seq: Option<i64>,
    to_act: Option<usize>,
    deadline: Option<serde::de::IgnoredAny>,
    action: Option<ActionKind<'a>>,
    ok: Option<bool>,
    error: Option<ReplyError<'a>>,
}

/// The legal actions by seat that an entry lists (read only from entries that need a decision).
#[derive(Deserialize)]
struct Legal {
    #[serde(rename = "legal_actions_by_seat")]
    legal: Vec<Vec<Value>>,
}

#[derive(Deserialize)]
struct ActionKind<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<Cow<'a, str>>,
}

#[derive(Deserialize)]
struct ReplyError<'a> {
    #[serde(borrow)]
    code: Option<Cow<'a, str>>,
}

/// One socket of the table.
struct Conn {
    /// The last `seq` it received.
    last: i64,
    closed: bool,
}

/// An action sent whose entry not every socket has received yet.
struct Pending {
    seq: i64,
    sent: Instant,
    received: usize,
}

/// Sets up and plays one game at a new table.
async fn game(ctx: &Ctx, players: &[Player], rng: &mut StdRng, first: &mut bool) -> Result<GameEnd, Failure> {
    let seats = ctx.args.seats;
    let permit = ctx.setup.acquire().await.map_err(|_| "setup_closed".to_string())?;
    let host = &players[0].token;
    let table = call(
        ctx,
        reqwest::Method::POST,
        "/v1/tables",
        Some(host),
        Some(json!({"game": ctx.args.game, "seat_count": seats})),
    )
    .await?;
    let id = table["id"].as_str().ok_or("create_no_id")?.to_string();
    for (seat, p) in players.iter().enumerate().skip(1) {
        call(
            ctx,
            reqwest::Method::POST,
            &format!("/v1/tables/{id}/join"),
            Some(&p.token),
            Some(json!({"seat": seat})),
        )
        .await?;
    }
    call(
        ctx,
        reqwest::Method::POST,
        &format!("/v1/tables/{id}/start"),
        Some(host),
        Some(json!({"fill_with_bots": false})),
    )
    .await?;
    ctx.stats.games_started.fetch_add(1, Relaxed);

    let subscribers = seats + ctx.args.spectators;
    let mut sinks: Vec<Sink> = Vec::with_capacity(subscribers);
    let mut incoming: SelectAll<BoxStream<'static, Incoming>> = SelectAll::new();
    let mut guard = ConnectionCount(&ctx.stats, 0);
    for c in 0..subscribers {
        let token = players.get(c).map(|p| p.token.as_str());
        let ws = connect(ctx, &id, token).await?;
        guard.opened();
        let (sink, stream) = ws.split();
        sinks.push(sink);
        // Tag each message with its socket; a `None` marks the end of the socket's stream.
        incoming
            .push(stream.map(move |m| (c, Some(m))).chain(futures_util::stream::iter([(c, None)])).boxed());
    }
    drop(permit);
    if *first {
        *first = false;
        ctx.stats.tables_ready.fetch_add(1, Relaxed);
    }

    let mut conns: Vec<Conn> = (0..subscribers).map(|_| Conn { last: 0, closed: false }).collect();
    let mut latest = 0i64;
    let mut finish_seq: Option<i64> = None;
    let mut finish_by: Option<Instant> = None;
    let mut want: Option<(usize, i64, Vec<Value>)> = None;
    let mut deciding: Option<BoxFuture<'static, Decision>> = None;
    // `--http-actions`: the action posted and not answered yet, with when it was sent.
    let mut posting: Option<(BoxFuture<'static, Result<(), Failure>>, Instant)> = None;
    let mut pending: VecDeque<Pending> = VecDeque::new();
    let mut replies: VecDeque<(u64, Instant)> = VecDeque::new();
    let mut next_id = 0u64;
    let mut heard = Instant::now();
    let mut stop = ctx.stop.clone();
    let mut go = ctx.go.clone();
    let mut going = *go.borrow();

    let end = loop {
        if going
            && deciding.is_none()
            && posting.is_none()
            && finish_seq.is_none()
            && let Some((seat, seq, legal)) = want.take()
        {
            deciding = Some(Box::pin(decide(ctx, seat, seq, legal, rng.random())));
        }
        // Waiting for the ramp-up to end is not stalling.
        let wake = finish_by.unwrap_or(heard + if going { STALL } else { Duration::from_secs(86_400) });
        tokio::select! {
            Some((c, message)) = incoming.next() => {
                heard = Instant::now();
                let message = match message {
                    Some(Ok(m)) => m,
                    Some(Err(_)) => { conns[c].closed = true; break Err("ws_read_error".to_string()); }
                    None => { conns[c].closed = true; break Err("ws_ended".to_string()); }
                };
                let text = match &message {
                    Message::Text(t) => t.as_str(),
                    Message::Close(frame) => {
                        conns[c].closed = true;
                        break Err(format!("ws_closed_{}", frame.as_ref().map(|f| u16::from(f.code)).unwrap_or(0)));
                    }
                    _ => continue,
                };
                let Ok(m) = serde_json::from_str::<ServerMessage>(text) else {
                    ctx.stats.error("ws_unreadable_message");
                    continue;
                };
                match m.kind.as_ref() {
                    "entry" => {
                        let Some(seq) = m.seq else { ctx.stats.error("entry_without_seq"); continue };
                        let conn = &mut conns[c];
                        if seq <= conn.last {
                            ctx.stats.duplicates.fetch_add(1, Relaxed);
                            continue;
                        }
                        if seq > conn.last + 1 {
                            ctx.stats.gaps.fetch_add((seq - conn.last - 1) as u64, Relaxed);
                        }
                        conn.last = seq;
                        ctx.stats.count(&ctx.stats.messages, 1);
                        if seq > latest {
                            latest = seq;
                            ctx.stats.count(&ctx.stats.entries, 1);
                            let kind = m.action.as_ref().and_then(|a| a.kind.as_deref());
                            if kind == Some("finish") {
                                finish_seq = Some(seq);
                                finish_by = Some(Instant::now() + FINISH_WAIT);
                                want = None;
                            } else if let (Some(seat), Some(_)) = (m.to_act, &m.deadline)
                                && seat < seats
                            {
                                match serde_json::from_str::<Legal>(text) {
                                    Ok(mut l) if seat < l.legal.len() => {
                                        want = Some((seat, seq, std::mem::take(&mut l.legal[seat])));
                                    }
                                    _ => break Err("entry_without_legal_actions".to_string()),
                                }
                            }
                        }
                        if let Some(i) = pending.iter().position(|p| p.seq == seq) {
                            pending[i].received += 1;
                            if pending[i].received == subscribers {
                                let p = pending.remove(i).expect("present");
                                ctx.stats.fanout_latency(p.sent.elapsed());
                            }
                        }
                        if let Some(f) = finish_seq
                            && conns.iter().all(|c| c.last >= f)
                        {
                            break Ok(GameEnd::Finished);
                        }
                    }
                    "reply" => {
                        if let Some((_, sent)) = replies.pop_front()
                            && m.ok == Some(true)
                        {
                            ctx.stats.count(&ctx.stats.actions_ok, 1);
                            ctx.stats.reply_latency(sent.elapsed());
                        }
                        if m.ok != Some(true) {
                            let code = m.error.as_ref().and_then(|e| e.code.as_deref()).unwrap_or("unknown");
                            ctx.stats.error(format!("reply_{code}"));
                        }
                    }
                    "presence" => {}
                    "error" => ctx.stats.error("ws_error_message"),
                    other => ctx.stats.error(format!("ws_unknown_{other}")),
                }
            }
            decided = async { deciding.as_mut().expect("guarded").await }, if deciding.is_some() => {
                deciding = None;
                match decided {
                    Ok((seat, seq, action)) if ctx.args.http_actions => {
                        let now = Instant::now();
                        posting = Some((post_action(ctx, &players[seat].token, &id, seq, action), now));
                        ctx.stats.count(&ctx.stats.actions_sent, 1);
                        pending.push_back(Pending { seq: seq + 1, sent: now, received: 0 });
                    }
                    Ok((seat, seq, action)) => {
                        next_id += 1;
                        let text = json!({"type": "action", "id": next_id, "seq": seq, "action": action}).to_string();
                        let now = Instant::now();
                        if sinks[seat].send(Message::text(text)).await.is_err() {
                            break Err("ws_send".to_string());
                        }
                        ctx.stats.count(&ctx.stats.actions_sent, 1);
                        pending.push_back(Pending { seq: seq + 1, sent: now, received: 0 });
                        replies.push_back((next_id, now));
                    }
                    Err(kind) => break Err(kind),
                }
            }
            posted = async { posting.as_mut().expect("guarded").0.as_mut().await }, if posting.is_some() => {
                let (_, sent) = posting.take().expect("guarded");
                match posted {
                    Ok(()) => {
                        ctx.stats.count(&ctx.stats.actions_ok, 1);
                        ctx.stats.reply_latency(sent.elapsed());
                    }
                    Err(kind) => ctx.stats.error(kind),
                }
            }
            _ = tokio::time::sleep_until(wake) => {
                if let Some(f) = finish_seq {
                    let missing = conns.iter().filter(|c| c.last < f).count() as u64;
                    ctx.stats.missing_finish.fetch_add(missing, Relaxed);
                    break Err("finish_not_received".to_string());
                }
                break Err("stalled".to_string());
            }
            _ = go.changed(), if !going => {
                going = *go.borrow();
                heard = Instant::now();
            }
            _ = stop.changed() => break Ok(GameEnd::Stopped),
        }
    };
    for (sink, conn) in sinks.iter_mut().zip(&conns) {
        if !conn.closed {
            let _ = tokio::time::timeout(Duration::from_secs(2), sink.send(Message::Close(None))).await;
        }
    }
    drop(sinks);
    drop(incoming);
    drop(guard);
    end
}

/// Picks one of `seat`'s legal actions (`pick` chooses), when the pacer allows.
fn decide(
    ctx: &Ctx,
    seat: usize,
    seq: i64,
    legal: Vec<Value>,
    pick: u64,
) -> impl std::future::Future<Output = Decision> + Send + 'static {
    let pacer = ctx.pacer.clone();
    async move {
        if let Some(p) = pacer {
            p.wait().await;
        }
        let wanted: Vec<&Value> =
            legal.iter().filter(|a| !SHUNNED.contains(&a["type"].as_str().unwrap_or_default())).collect();
        let choices: Vec<&Value> = if wanted.is_empty() { legal.iter().collect() } else { wanted };
        if choices.is_empty() {
            return Err("no_legal_actions".to_string());
        }
        let action = choices[(pick % choices.len() as u64) as usize].clone();
        Ok((seat, seq, action))
    }
}

/// Keeps the open-connection gauge right however a game ends.
struct ConnectionCount<'a>(&'a Stats, u32);

impl ConnectionCount<'_> {
    fn opened(&mut self) {
        self.0.connection_opened();
        self.1 += 1;
    }
}

impl Drop for ConnectionCount<'_> {
    fn drop(&mut self) {
        for _ in 0..self.1 {
            self.0.connection_closed();
        }
    }
}
