//! `luddo-load`: a load generator that plays complete games against a Luddo server through its
//! public HTTP and WebSocket API, and reports throughput, latency, errors, lost events,
//! connections held and the server's memory.
//!
//! The run has two phases: a ramp-up that signs up players and sets up `--tables` tables (each
//! connected and waiting for its first move), then `--duration` of measurement, in which they
//! all play and every finished game is followed by a new table. Only the measured phase counts towards
//! throughput and latency; errors and lost events count throughout. See docs/performance.md.
//!
//! - [`args`]: the command line.
//! - [`table`]: one table slot, from sign-up to game after game.
//! - [`stats`]: the counters and latency samples shared by every table.
//! - [`server`] (in the library, shared with the examples): spawning the server, finding its
//!   process, reading its RSS.

mod args;
mod stats;
mod table;

use args::Args;
use luddo_load::server;
use serde_json::{Value, json};
use stats::Stats;
use std::{
    collections::BTreeMap,
    net::{SocketAddr, ToSocketAddrs},
    sync::{Arc, atomic::Ordering::Relaxed},
    time::Duration,
};
use table::{Ctx, Pacer};
use tokio::{sync::Semaphore, time::Instant};

/// Connections per local source address: loopback gives each (source, destination) pair about
/// 28,000 ephemeral ports; stay well below.
const CONNECTIONS_PER_SOURCE_IP: usize = 25_000;
/// How long stopping tables may take before the report is written anyway.
const STOP_WAIT: Duration = Duration::from_secs(15);

/// The same allocator as the server: the generator shares the machine with it, and every
/// cycle it spends in malloc is one the server does not get.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args = match Args::parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(message) => {
            eprintln!("{message}");
            std::process::exit(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime");
    let code = match runtime.block_on(run(args)) {
        Ok(ok) => i32::from(!ok),
        Err(e) => {
            eprintln!("luddo-load: {e}");
            2
        }
    };
    runtime.shutdown_timeout(Duration::from_secs(1));
    std::process::exit(code);
}

/// Runs the load; `Ok(true)` when no error and no lost event was seen.
async fn run(args: Args) -> Result<bool, String> {
    let mut args = args;
    let mut server_addr = resolve(&args.url)?;
    if args.spawn_server.is_some() && server_addr.port() == 0 {
        // Port 0: any free port for the server we start.
        let probe =
            std::net::TcpListener::bind((server_addr.ip(), 0)).map_err(|e| format!("no free port: {e}"))?;
        server_addr = probe.local_addr().map_err(|e| format!("no free port: {e}"))?;
        args.url = format!("http://{server_addr}");
    }
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .pool_max_idle_per_host(1024)
        .tcp_nodelay(true)
        .build()
        .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
    let spawned = match &args.spawn_server {
        Some(binary) => {
            let s =
                server::spawn(binary.as_deref(), server_addr, args.database_url.as_deref(), &http).await?;
            eprintln!("luddo-load: started the server (pid {})", s.pid().unwrap_or(0));
            Some(s)
        }
        None => None,
    };
    let server_pid = args
        .server_pid
        .or_else(|| spawned.as_ref().and_then(|s| s.pid()))
        .or_else(|| server::pid_listening_on(server_addr.port()));
    if server_pid.is_none() {
        eprintln!("luddo-load: server process not found; RSS will not be reported (use --server-pid)");
    }
    let limits = match &args.limits {
        Some(path) => Some(read_limits(path)?),
        None => None,
    };

    let subscribers = args.tables * (args.seats + args.spectators);
    let source_ips = args.source_ips.unwrap_or(subscribers.div_ceil(CONNECTIONS_PER_SOURCE_IP).max(1));
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let (go_tx, go_rx) = tokio::sync::watch::channel(false);
    let ctx = Arc::new(Ctx {
        base: args.url.clone(),
        server: server_addr,
        http,
        stats: Stats::default(),
        pacer: args.rate.map(|r| Arc::new(Pacer::new(r))),
        setup: Semaphore::new(args.setup_concurrency),
        stop: stop_rx,
        go: go_rx,
        next_source: Default::default(),
        source_ips,
        args: args.clone(),
    });
    let started = Instant::now();
    let tasks: Vec<_> =
        (0..args.tables).map(|slot| tokio::spawn(table::run_slot(ctx.clone(), slot))).collect();

    // Ramp-up: wait until every slot has its first table connected.
    let mut rss_peak = 0u64;
    let mut progress = Progress::new(&ctx.stats);
    let ramp_deadline = started + args.ramp_timeout;
    let mut tick = tokio::time::interval_at(Instant::now() + Duration::from_secs(1), Duration::from_secs(1));
    while (ctx.stats.tables_ready.load(Relaxed) as usize) < args.tables && Instant::now() < ramp_deadline {
        tokio::select! {
            _ = tick.tick() => {
                let rss = server_pid.and_then(server::rss_bytes);
                rss_peak = rss_peak.max(rss.unwrap_or(0));
                if !args.quiet {
                    eprintln!("ramp {}", progress.line(&ctx.stats, started, rss));
                }
            }
            _ = tokio::time::sleep(Duration::from_millis(50)) => {}
        }
    }
    let ramp = started.elapsed();
    let ramp_complete = ctx.stats.tables_ready.load(Relaxed) as usize >= args.tables;
    if !ramp_complete {
        ctx.stats.error("ramp_timeout");
    }

    // Measurement.
    let cpu_start = server_pid.and_then(server::cpu_time);
    let named_cpu_start = server::cpu_time_by_name(&args.cpu_of);
    ctx.stats.measuring.store(true, Relaxed);
    let _ = go_tx.send(true);
    let measure_start = Instant::now();
    progress = Progress::new(&ctx.stats);
    let mut tick = tokio::time::interval_at(measure_start + Duration::from_secs(1), Duration::from_secs(1));
    let mut rss_end = None;
    let mut connections_min = i64::MAX;
    while measure_start.elapsed() < args.duration {
        let left = args.duration.saturating_sub(measure_start.elapsed());
        tokio::select! {
            _ = tick.tick() => {
                let rss = server_pid.and_then(server::rss_bytes);
                rss_peak = rss_peak.max(rss.unwrap_or(0));
                rss_end = rss.or(rss_end);
                connections_min = connections_min.min(ctx.stats.connections.load(Relaxed));
                if !args.quiet {
                    eprintln!("run  {}", progress.line(&ctx.stats, measure_start, rss));
                }
            }
            _ = tokio::time::sleep(left) => {}
        }
    }
    let measured = measure_start.elapsed();
    ctx.stats.measuring.store(false, Relaxed);
    let cpu =
        cpu_start.zip(server_pid.and_then(server::cpu_time)).map(|(start, end)| end.saturating_sub(start));
    let named_cpu: BTreeMap<String, Duration> = server::cpu_time_by_name(&args.cpu_of)
        .into_iter()
        .map(|(name, end)| {
            let start = named_cpu_start.get(&name).copied().unwrap_or_default();
            (name, end.saturating_sub(start))
        })
        .collect();
    let connections_end = ctx.stats.connections.load(Relaxed);
    if let Some(rss) = server_pid.and_then(server::rss_bytes) {
        rss_peak = rss_peak.max(rss);
        rss_end = Some(rss);
    }

    // Stop every table and close its sockets.
    let _ = stop_tx.send(true);
    let joined = tokio::time::timeout(STOP_WAIT, futures_util::future::join_all(tasks)).await;
    if joined.is_err() {
        eprintln!("luddo-load: some tables did not stop within {STOP_WAIT:?}");
    }
    if let Some(s) = spawned {
        s.stop().await;
    }

    let summary = summarize(
        &args,
        &ctx.stats,
        Phases { ramp, ramp_complete, measured },
        Connections { end: connections_end, min: connections_min.min(connections_end), source_ips },
        Server { pid: server_pid, rss_peak, rss_end, cpu, named_cpu },
        limits.as_ref(),
    );
    let text = serde_json::to_string_pretty(&summary).expect("JSON");
    println!("{text}");
    if let Some(path) = &args.json {
        std::fs::write(path, format!("{text}\n"))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(summary["ok"] == Value::Bool(true))
}

fn resolve(url: &str) -> Result<SocketAddr, String> {
    let rest =
        url.strip_prefix("http://").ok_or_else(|| format!("--url must be http://host:port, not {url:?}"))?;
    let hostport = rest.split('/').next().unwrap_or(rest);
    let hostport = if hostport.contains(':') { hostport.to_string() } else { format!("{hostport}:80") };
    hostport
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {hostport}: {e}"))?
        .find(SocketAddr::is_ipv4)
        .ok_or_else(|| format!("{hostport} has no IPv4 address"))
}

fn read_limits(path: &std::path::Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{} is not JSON: {e}", path.display()))
}

/// Per-second deltas of the counters, for the progress line.
struct Progress {
    last: Instant,
    entries: u64,
    actions: u64,
    messages: u64,
}

impl Progress {
    fn new(stats: &Stats) -> Self {
        Self {
            last: Instant::now(),
            entries: stats.entries.load(Relaxed),
            actions: stats.actions_sent.load(Relaxed),
            messages: stats.messages.load(Relaxed),
        }
    }

    fn line(&mut self, stats: &Stats, since: Instant, rss: Option<u64>) -> String {
        let dt = self.last.elapsed().as_secs_f64().max(1e-3);
        self.last = Instant::now();
        let rate = |now: u64, before: &mut u64| {
            let r = (now - *before) as f64 / dt;
            *before = now;
            r
        };
        // Before measuring, the counters do not move: show the ramp's own progress instead.
        let actions = rate(stats.actions_sent.load(Relaxed), &mut self.actions);
        let entries = rate(stats.entries.load(Relaxed), &mut self.entries);
        let messages = rate(stats.messages.load(Relaxed), &mut self.messages);
        let p99 = stats.take_window_p99().map(|ms| format!("{ms:.1}ms")).unwrap_or_else(|| "-".into());
        format!(
            "t={:>4.0}s ready={} games={}/{} conns={} actions/s={actions:.0} entries/s={entries:.0} msgs/s={messages:.0} p99={p99} errors={} lost={} rss={}",
            since.elapsed().as_secs_f64(),
            stats.tables_ready.load(Relaxed),
            stats.games_finished.load(Relaxed),
            stats.games_started.load(Relaxed),
            stats.connections.load(Relaxed),
            stats.error_total(),
            stats.lost_total(),
            rss.map(|b| format!("{}MiB", b >> 20)).unwrap_or_else(|| "?".into()),
        )
    }
}

struct Phases {
    ramp: Duration,
    ramp_complete: bool,
    measured: Duration,
}

struct Connections {
    end: i64,
    min: i64,
    source_ips: usize,
}

/// What was seen of the server's process.
struct Server {
    pid: Option<u32>,
    rss_peak: u64,
    rss_end: Option<u64>,
    /// The CPU time it used while measuring.
    cpu: Option<Duration>,
    /// The CPU time the processes named by `--cpu-of` used while measuring, by name.
    named_cpu: BTreeMap<String, Duration>,
}

fn summarize(
    args: &Args,
    stats: &Stats,
    phases: Phases,
    connections: Connections,
    process: Server,
    limits: Option<&Value>,
) -> Value {
    let secs = phases.measured.as_secs_f64().max(1e-9);
    let per_s = |n: u64| (n as f64 / secs * 10.0).round() / 10.0;
    let entries = stats.entries.load(Relaxed);
    let messages = stats.messages.load(Relaxed);
    let entries_per_s = per_s(entries);
    let messages_per_s = per_s(messages);
    let errors = stats.errors();
    let error_total: u64 = errors.values().sum();
    let lost = stats.lost_total();
    let (model, cpus) = server::machine();
    let actions_ok = stats.actions_ok.load(Relaxed);
    let cpu_us_per_action = process
        .cpu
        .filter(|_| actions_ok > 0)
        .map(|cpu| (cpu.as_secs_f64() * 1e6 / actions_ok as f64).round());
    let seconds = |cpu: Duration| (cpu.as_secs_f64() * 100.0).round() / 100.0;
    let per_action =
        |cpu: Duration| (actions_ok > 0).then(|| (cpu.as_secs_f64() * 1e6 / actions_ok as f64).round());
    let named_total: Duration = process.named_cpu.values().sum();
    let ratio = |ours: f64, key: &str| {
        limits
            .and_then(|l| l[key].as_f64())
            .filter(|l| *l > 0.0)
            .map(|l| (ours / l * 1000.0).round() / 1000.0)
    };
    json!({
        "ok": error_total == 0 && lost == 0,
        "date": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "machine": {"cpu": model, "cpus": cpus},
        "config": {
            "url": args.url,
            "game": args.game,
            "tables": args.tables,
            "seats": args.seats,
            "spectators": args.spectators,
            "duration_s": args.duration.as_secs_f64(),
            "rate_cap": args.rate,
            "http_actions": args.http_actions,
            "source_ips": connections.source_ips,
            "database_url": args.database_url,
            "spawned_server": args.spawn_server.is_some(),
        },
        "ramp_s": (phases.ramp.as_secs_f64() * 10.0).round() / 10.0,
        "ramp_complete": phases.ramp_complete,
        "measured_s": (secs * 10.0).round() / 10.0,
        "actions_sent": stats.actions_sent.load(Relaxed),
        "actions_ok": actions_ok,
        "actions_per_s": per_s(actions_ok),
        "entries": entries,
        "entries_per_s": entries_per_s,
        "messages_delivered": messages,
        "messages_per_s": messages_per_s,
        "games_started": stats.games_started.load(Relaxed),
        "games_finished": stats.games_finished.load(Relaxed),
        "latency_ms": stats.fanout_summary(),
        "reply_latency_ms": stats.reply_summary(),
        "errors": errors,
        "error_total": error_total,
        "lost_events": {
            "gaps": stats.gaps.load(Relaxed),
            "duplicates": stats.duplicates.load(Relaxed),
            "missing_finish": stats.missing_finish.load(Relaxed),
            "total": lost,
        },
        "connections": {
            "peak": stats.connections_peak.load(Relaxed),
            "min_while_measuring": connections.min,
            "at_end": connections.end,
        },
        "server": {
            "pid": process.pid,
            "rss_peak_bytes": (process.rss_peak > 0).then_some(process.rss_peak),
            "rss_end_bytes": process.rss_end,
            "cpu_s": process.cpu.map(|cpu| (cpu.as_secs_f64() * 100.0).round() / 100.0),
            "cpu_us_per_action": cpu_us_per_action,
        },
        "cpu_of": (!process.named_cpu.is_empty()).then(|| json!({
            "cpu_s": process.named_cpu.iter().map(|(name, cpu)| (name.clone(), json!(seconds(*cpu)))).collect::<serde_json::Map<_, _>>(),
            "cpu_us_per_action": process.named_cpu.iter().map(|(name, cpu)| (name.clone(), json!(per_action(*cpu)))).collect::<serde_json::Map<_, _>>(),
            "total_cpu_s": seconds(named_total),
            "total_cpu_us_per_action": per_action(named_total),
        })),
        "limits": limits.map(|l| json!({
            "measured": l,
            "entries_per_s_vs_pg_append_per_s": ratio(entries_per_s, "pg_append_per_s"),
            "messages_per_s_vs_ws_fanout_per_s": ratio(messages_per_s, "ws_fanout_msgs_per_s"),
        })),
    })
}
