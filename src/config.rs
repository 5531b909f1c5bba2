//! Server configuration, read from the environment (every variable is optional).
//!
//! | variable | meaning | default |
//! |---|---|---|
//! | `LUDDO_ADDR` | address to listen on | `127.0.0.1:8080` |
//! | `DATABASE_URL` | `postgres://…` or `sqlite://…`; unset: SQLite under `LUDDO_DATA_DIR` | unset |
//! | `LUDDO_DATA_DIR` | where the embedded SQLite database lives | `./data` |
//! | `LUDDO_LOG_FORMAT` | `human` or `json` | `human` |
//! | `RUST_LOG` | tracing filter | `info` |
//! | `LUDDO_CORS_ORIGINS` | comma-separated allowed origins, or `*` | `*` |
//! | `LUDDO_TURN_SECONDS` | clock for each roll and move | `15` |
//! | `LUDDO_PARTY_TURN_SECONDS` | the same on party tables | `30` |
//! | `LUDDO_AWAY_SECONDS` | away this long + one timeout = a bot takes the seat | `45` |
//! | `LUDDO_STALL_TIMEOUTS` | this many timeouts among a player's last `LUDDO_STALL_WINDOW` decisions = a bot takes the seat | `4` |
//! | `LUDDO_STALL_WINDOW` | how many of a player's latest decisions the stalling rule looks at (at most 32) | `6` |
//! | `LUDDO_REQUEST_TIMEOUT_SECONDS` | longest an HTTP request may take | `10` |
//! | `LUDDO_MAX_BODY_BYTES` | largest request body accepted | `65536` |
//! | `LUDDO_RATE_PER_MINUTE` | account and table creations per client IP, and table creations per player, per minute (a quick play counts as a creation) | `60` |
//! | `LUDDO_ACTIONS_PER_MINUTE` | actions per player per minute | `600` |
//! | `LUDDO_MAX_SOCKETS_PER_PLAYER` | open WebSockets per player | `8` |
//! | `LUDDO_MAX_SPECTATORS_PER_TABLE` | anonymous WebSockets per table | `200` |
//! | `LUDDO_MAX_WAITING_SEATS_PER_PLAYER` | seats one player may hold at tables not yet started (created, joined or by quick play) | `10` |
//! | `LUDDO_HEADER_TIMEOUT_SECONDS` | longest a client may take to send a request's head, from connecting or from the end of its previous request: a slower (or idle keep-alive) connection is closed | `10` |
//! | `LUDDO_MAX_CONNECTIONS` | open connections (HTTP and WebSocket) in all, at most the open-files limit less the database pool and 84; more are accepted and closed at once | `20000`, or fewer to fit the open-files limit |
//! | `LUDDO_MAX_CONNECTIONS_PER_ADDRESS` | open connections from one client IP address; more are accepted and closed at once | `256` |
//! | `LUDDO_TRUSTED_PROXIES` | comma-separated CIDR blocks of the reverse proxies in front; only from them are `Forwarded` / `X-Forwarded-For` believed | none |
//! | `LUDDO_BACKLOG_PAGE` | log entries a resuming WebSocket reads from the database at a time | `64` |
//! | `LUDDO_INSTANCE_ID` | this server process's name in table leases; unique among running processes, kept across restarts to take its tables back at once | kept in `LUDDO_DATA_DIR` (see [`crate::instance`]) |
//! | `LUDDO_INTERNAL_ADDR` | `host:port` where the other processes sharing the database reach this one with the calls it forwards to the process driving a table (cluster mode, PostgreSQL) | `LUDDO_ADDR` when it names an address; on `0.0.0.0`/`::`, the address this host reaches the database from, with `LUDDO_ADDR`'s port |
//! | `LUDDO_LEASE_SECONDS` | how long a table stays owned by a process that stopped renewing | `10` |
//! | `LUDDO_METRICS` | `on` serves `GET /metrics` (Prometheus text format), `off` neither serves nor counts | `on` |
//! | `LUDDO_TEST_MODE` | `1` lets tables be created with scripted dice (never in production) | off |

use std::{net::SocketAddr, path::PathBuf, time::Duration};

/// Every environment variable the server reads (docker-compose.yml is checked against it).
pub const VARIABLES: &[&str] = &[
    "LUDDO_ADDR",
    "DATABASE_URL",
    "LUDDO_DATA_DIR",
    "LUDDO_LOG_FORMAT",
    "RUST_LOG",
    "LUDDO_CORS_ORIGINS",
    "LUDDO_TURN_SECONDS",
    "LUDDO_PARTY_TURN_SECONDS",
    "LUDDO_AWAY_SECONDS",
    "LUDDO_STALL_TIMEOUTS",
    "LUDDO_STALL_WINDOW",
    "LUDDO_REQUEST_TIMEOUT_SECONDS",
    "LUDDO_MAX_BODY_BYTES",
    "LUDDO_RATE_PER_MINUTE",
    "LUDDO_ACTIONS_PER_MINUTE",
    "LUDDO_MAX_SOCKETS_PER_PLAYER",
    "LUDDO_MAX_SPECTATORS_PER_TABLE",
    "LUDDO_MAX_WAITING_SEATS_PER_PLAYER",
    "LUDDO_HEADER_TIMEOUT_SECONDS",
    "LUDDO_MAX_CONNECTIONS",
    "LUDDO_MAX_CONNECTIONS_PER_ADDRESS",
    "LUDDO_BACKLOG_PAGE",
    "LUDDO_TRUSTED_PROXIES",
    "LUDDO_INSTANCE_ID",
    "LUDDO_INTERNAL_ADDR",
    "LUDDO_LEASE_SECONDS",
    "LUDDO_METRICS",
    "LUDDO_TEST_MODE",
    "LUDDO_SIGNING_KEY",
    "LUDDO_CHECKPOINT_SECONDS",
    "LUDDO_CHECKPOINT_LINKS",
];

/// Everything the server needs to know before it starts.
#[derive(Debug, Clone)]
pub struct Config {
    pub addr: SocketAddr,
    /// Where the store lives; see [`Config::database_url`].
    pub database_url: Option<String>,
    pub data_dir: PathBuf,
    pub log_json: bool,
    /// `None` allows any origin.
    pub cors_origins: Option<Vec<String>>,
    pub timers: Timers,
    /// When a bot takes a seat whose clock keeps running out.
    pub takeover: TakeoverRule,
    pub request_timeout: Duration,
    pub max_body_bytes: usize,
    pub rate_per_minute: u32,
    pub actions_per_minute: u32,
    pub max_sockets_per_player: usize,
    pub max_spectators_per_table: usize,
    /// Seats one player may hold at open (not started) tables: each is a table kept waiting,
    /// in the lobby and its stream, however many the player will never play.
    pub max_waiting_seats_per_player: usize,
    /// Longest a client may take to send a request's head, counted from when it connected or
    /// finished its previous request (so also how long an idle keep-alive connection stays).
    pub header_timeout: Duration,
    /// Open connections in all, WebSockets included: each is an open file, and the process has
    /// only so many (`ulimit -n`). `None`: [`DEFAULT_MAX_CONNECTIONS`], or fewer to fit the
    /// open-files limit found at start (a setting above it is lowered with a warning).
    pub max_connections: Option<usize>,
    /// Open connections from one client address, so that one client cannot take them all.
    pub max_connections_per_address: usize,
    /// Log entries a resuming WebSocket reads from the store at a time: what it holds of the
    /// log while it sends, however long the log and however slowly the client reads.
    pub backlog_page: usize,
    /// PostgreSQL connections of this process's pool (cluster mode adds one that listens).
    /// Replicas on one database must stay under its `max_connections` between them.
    pub database_connections: u32,
    /// The reverse proxies in front of the server: a request from one of them is counted
    /// against the client address it forwards, not the proxy's (rate limits).
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// This process's name in the leases of the tables it drives.
    pub instance_id: String,
    /// Whether `LUDDO_INSTANCE_ID` named it; if not, the binary takes the one kept in the data
    /// directory ([`crate::instance::claim`]) instead of the random default.
    pub instance_id_given: bool,
    /// Where the other processes sharing the database reach this one (`host:port`), if set;
    /// otherwise `serve` derives it from the listening address (see [`crate::cluster`]).
    pub internal_addr: Option<String>,
    /// How long a lease lasts without renewal (renewed every third of it).
    pub lease: Duration,
    /// Serve `GET /metrics` (and count what it shows): operator data, which a public server
    /// may rather not show.
    pub metrics: bool,
    /// Accept scripted dice at table creation. Only for tests: it makes games predictable.
    pub test_mode: bool,
    /// Serve the web client from this folder (read at each request) instead of the files built
    /// into the binary: for working on the client without building the server again.
    pub web_dir: Option<PathBuf>,
    /// The Ed25519 secret that signs the history's checkpoints (docs/history.md), from
    /// `LUDDO_SIGNING_KEY` (64 hex digits); `None`: the binary keeps one in the data directory
    /// ([`crate::history::key_from_data_dir`]), and a server started without one signs with a
    /// key of its own run.
    pub signing_key: Option<[u8; 32]>,
    /// How often the head of the history is signed when it has moved.
    pub checkpoint_every: Duration,
    /// Links past the last checkpoint at which the head is signed without waiting (so proofs
    /// stay short).
    pub checkpoint_links: u64,
}

/// The clocks of online tables (RULES.md §7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timers {
    pub turn: Duration,
    pub party_turn: Duration,
    pub away: Duration,
}

/// How many times longer every clock of a `long_clock` table is: WCAG 2.2.1 ("Timing
/// adjustable") asks that a time limit can be extended at least tenfold, for players who read
/// the board with a screen reader or play with other assistive technology.
pub const LONG_CLOCK_FACTOR: u32 = 10;

/// The clocks one table runs on, from the server's [`Timers`] and the table's settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableClock {
    /// Each roll and move.
    pub turn: Duration,
    /// Away this long, a timeout hands the seat to a bot.
    pub away: Duration,
}

impl Timers {
    /// The clocks of a table with these settings: the party turn at a `party` table, and every
    /// limit [`LONG_CLOCK_FACTOR`] times longer at a `long_clock` one.
    pub fn of_table(&self, party: bool, long_clock: bool) -> TableClock {
        let factor = if long_clock { LONG_CLOCK_FACTOR } else { 1 };
        let turn = if party { self.party_turn } else { self.turn };
        // Saturating: a server configured with absurd seconds still starts its tables.
        TableClock { turn: turn.saturating_mul(factor), away: self.away.saturating_mul(factor) }
    }
}

impl Default for Timers {
    fn default() -> Self {
        Self {
            turn: Duration::from_secs(15),
            party_turn: Duration::from_secs(30),
            away: Duration::from_secs(45),
        }
    }
}

/// Open connections in all when LUDDO_MAX_CONNECTIONS names no number and the open-files limit
/// allows as many.
pub const DEFAULT_MAX_CONNECTIONS: usize = 20_000;

/// Longest window of recent decisions the stalling rule may look at.
pub const MAX_STALL_WINDOW: u32 = 32;

/// When a bot takes a seat whose clock just ran out (besides being away, which depends on
/// presence: see [`Timers::away`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TakeoverRule {
    /// Clocks run out in a row (RULES.md §7: three).
    pub in_a_row: u32,
    /// Clocks run out among the player's last `window` decisions: acting once in every three
    /// dodges three-in-a-row forever, but not this.
    pub stalled: u32,
    pub window: u32,
}

impl Default for TakeoverRule {
    fn default() -> Self {
        Self { in_a_row: 3, stalled: 4, window: 6 }
    }
}

impl Default for Config {
    fn default() -> Self {
        Self {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database_url: None,
            data_dir: PathBuf::from("./data"),
            log_json: false,
            cors_origins: None,
            timers: Timers::default(),
            takeover: TakeoverRule::default(),
            request_timeout: Duration::from_secs(10),
            max_body_bytes: 64 * 1024,
            rate_per_minute: 60,
            actions_per_minute: 600,
            max_sockets_per_player: 8,
            max_spectators_per_table: 200,
            max_waiting_seats_per_player: 10,
            header_timeout: Duration::from_secs(10),
            max_connections: None,
            max_connections_per_address: 256,
            backlog_page: 64,
            database_connections: crate::store::POSTGRES_CONNECTIONS,
            trusted_proxies: vec![],
            instance_id: uuid::Uuid::new_v4().to_string(),
            instance_id_given: false,
            internal_addr: None,
            lease: Duration::from_secs(10),
            metrics: true,
            test_mode: false,
            web_dir: None,
            signing_key: None,
            checkpoint_every: Duration::from_secs(60),
            checkpoint_links: 1_000,
        }
    }
}

/// `host:port` with a non-empty host of no spaces or slashes and a port number.
fn valid_host_port(v: &str) -> bool {
    match v.rsplit_once(':') {
        Some((host, port)) => {
            !host.is_empty()
                && !host.contains(|c: char| c.is_whitespace() || c == '/')
                && port.parse::<u16>().is_ok()
        }
        None => false,
    }
}

/// A variable that is set but cannot be understood.
#[derive(Debug, thiserror::Error)]
#[error("{name}={value:?}: {reason}")]
pub struct ConfigError {
    name: &'static str,
    value: String,
    reason: &'static str,
}

impl Config {
    /// Reads the configuration from the process environment.
    pub fn from_env() -> Result<Self, ConfigError> {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    /// Reads the configuration through `lookup` (the environment, or a map in tests).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let d = Self::default();
        let get = |name: &'static str| lookup(name).filter(|v| !v.trim().is_empty());
        let parse = |name: &'static str, reason: &'static str| {
            move |value: String| ConfigError { name, value, reason }
        };
        let secs = |name: &'static str, default: Duration| -> Result<Duration, ConfigError> {
            match get(name) {
                None => Ok(default),
                Some(v) => match v.trim().parse::<f64>() {
                    Ok(s) if s > 0.0 && s.is_finite() => Ok(Duration::from_secs_f64(s)),
                    _ => Err(parse(name, "expected a positive number of seconds")(v)),
                },
            }
        };
        let addr = match get("LUDDO_ADDR") {
            None => d.addr,
            Some(v) => v.trim().parse().map_err(|_| parse("LUDDO_ADDR", "expected host:port")(v))?,
        };
        let log_json = match get("LUDDO_LOG_FORMAT").as_deref().map(str::trim) {
            None | Some("human") => false,
            Some("json") => true,
            Some(other) => {
                return Err(parse("LUDDO_LOG_FORMAT", "expected human or json")(other.into()));
            }
        };
        let cors_origins = match get("LUDDO_CORS_ORIGINS") {
            None => None,
            Some(v) if v.trim() == "*" => None,
            Some(v) => Some(v.split(',').map(|o| o.trim().to_string()).filter(|o| !o.is_empty()).collect()),
        };
        let number = |name: &'static str, default: u64| -> Result<u64, ConfigError> {
            match get(name) {
                None => Ok(default),
                Some(v) => v
                    .trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| parse(name, "expected a positive whole number")(v)),
            }
        };
        let metrics = match get("LUDDO_METRICS").as_deref().map(str::trim) {
            None | Some("on" | "1" | "true") => true,
            Some("off" | "0" | "false") => false,
            Some(other) => return Err(parse("LUDDO_METRICS", "expected on or off")(other.into())),
        };
        let test_mode = matches!(get("LUDDO_TEST_MODE").as_deref().map(str::trim), Some("1" | "true"));
        Ok(Self {
            addr,
            database_url: get("DATABASE_URL"),
            data_dir: get("LUDDO_DATA_DIR").map(PathBuf::from).unwrap_or(d.data_dir),
            log_json,
            cors_origins,
            timers: Timers {
                turn: secs("LUDDO_TURN_SECONDS", d.timers.turn)?,
                party_turn: secs("LUDDO_PARTY_TURN_SECONDS", d.timers.party_turn)?,
                away: secs("LUDDO_AWAY_SECONDS", d.timers.away)?,
            },
            takeover: {
                let stalled = number("LUDDO_STALL_TIMEOUTS", d.takeover.stalled as u64)?;
                let window = number("LUDDO_STALL_WINDOW", d.takeover.window as u64)?;
                if window > MAX_STALL_WINDOW as u64 || stalled > window {
                    let value = format!("{stalled} of {window}");
                    return Err(parse(
                        "LUDDO_STALL_WINDOW",
                        "expected LUDDO_STALL_TIMEOUTS <= LUDDO_STALL_WINDOW <= 32",
                    )(value));
                }
                TakeoverRule { stalled: stalled as u32, window: window as u32, ..d.takeover }
            },
            request_timeout: secs("LUDDO_REQUEST_TIMEOUT_SECONDS", d.request_timeout)?,
            max_body_bytes: number("LUDDO_MAX_BODY_BYTES", d.max_body_bytes as u64)? as usize,
            rate_per_minute: number("LUDDO_RATE_PER_MINUTE", d.rate_per_minute as u64)? as u32,
            actions_per_minute: number("LUDDO_ACTIONS_PER_MINUTE", d.actions_per_minute as u64)? as u32,
            max_sockets_per_player: number("LUDDO_MAX_SOCKETS_PER_PLAYER", d.max_sockets_per_player as u64)?
                as usize,
            max_spectators_per_table: number(
                "LUDDO_MAX_SPECTATORS_PER_TABLE",
                d.max_spectators_per_table as u64,
            )? as usize,
            max_waiting_seats_per_player: number(
                "LUDDO_MAX_WAITING_SEATS_PER_PLAYER",
                d.max_waiting_seats_per_player as u64,
            )? as usize,
            header_timeout: secs("LUDDO_HEADER_TIMEOUT_SECONDS", d.header_timeout)?,
            max_connections: match get("LUDDO_MAX_CONNECTIONS") {
                None => d.max_connections,
                Some(_) => Some(number("LUDDO_MAX_CONNECTIONS", 0)? as usize),
            },
            max_connections_per_address: number(
                "LUDDO_MAX_CONNECTIONS_PER_ADDRESS",
                d.max_connections_per_address as u64,
            )? as usize,
            backlog_page: number("LUDDO_BACKLOG_PAGE", d.backlog_page as u64)? as usize,
            database_connections: {
                let n = number("LUDDO_DATABASE_CONNECTIONS", d.database_connections.into())?;
                u32::try_from(n).map_err(|_| {
                    parse("LUDDO_DATABASE_CONNECTIONS", "expected at most 4294967295")(n.to_string())
                })?
            },
            trusted_proxies: match get("LUDDO_TRUSTED_PROXIES") {
                None => d.trusted_proxies,
                Some(v) => v
                    .split(',')
                    .map(str::trim)
                    .filter(|block| !block.is_empty())
                    .map(|block| {
                        // A bare address is a block of one.
                        block
                            .parse::<ipnet::IpNet>()
                            .or_else(|_| block.parse::<std::net::IpAddr>().map(Into::into))
                    })
                    .collect::<Result<_, _>>()
                    .map_err(|_| {
                        parse("LUDDO_TRUSTED_PROXIES", "expected comma-separated CIDR blocks or addresses")(v)
                    })?,
            },
            instance_id: match get("LUDDO_INSTANCE_ID") {
                None => d.instance_id,
                Some(v) if v.trim().len() <= 100 => v.trim().to_string(),
                Some(v) => return Err(parse("LUDDO_INSTANCE_ID", "expected at most 100 characters")(v)),
            },
            instance_id_given: get("LUDDO_INSTANCE_ID").is_some(),
            internal_addr: match get("LUDDO_INTERNAL_ADDR") {
                None => None,
                Some(v) if valid_host_port(v.trim()) => Some(v.trim().to_string()),
                Some(v) => return Err(parse("LUDDO_INTERNAL_ADDR", "expected host:port")(v)),
            },
            lease: secs("LUDDO_LEASE_SECONDS", d.lease)?,
            metrics,
            test_mode,
            web_dir: get("LUDDO_WEB_DIR").map(PathBuf::from),
            signing_key: match get("LUDDO_SIGNING_KEY") {
                None => None,
                Some(v) => Some(
                    crate::history::parse_secret(&v)
                        .ok_or_else(|| parse("LUDDO_SIGNING_KEY", "expected 64 hex digits")(v))?,
                ),
            },
            checkpoint_every: secs("LUDDO_CHECKPOINT_SECONDS", d.checkpoint_every)?,
            checkpoint_links: number("LUDDO_CHECKPOINT_LINKS", d.checkpoint_links)?,
        })
    }

    /// The database to open: `DATABASE_URL` if set, else SQLite in the data directory.
    pub fn database_url(&self) -> String {
        match &self.database_url {
            Some(url) => url.clone(),
            None => format!("sqlite://{}?mode=rwc", self.data_dir.join("luddo.db").display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_serve_sqlite_on_localhost() {
        let c = config(&[]).unwrap();
        assert_eq!(c.addr.to_string(), "127.0.0.1:8080");
        assert_eq!(c.database_url(), "sqlite://./data/luddo.db?mode=rwc");
        assert_eq!(c.timers, Timers::default());
        assert!(!c.test_mode);
    }

    #[test]
    fn variables_override_defaults() {
        let c = config(&[
            ("LUDDO_ADDR", "0.0.0.0:9000"),
            ("DATABASE_URL", "postgres://db/luddo"),
            ("LUDDO_TURN_SECONDS", "2.5"),
            ("LUDDO_CORS_ORIGINS", "https://a.example, https://b.example"),
            ("LUDDO_LOG_FORMAT", "json"),
        ])
        .unwrap();
        assert_eq!(c.addr.port(), 9000);
        assert_eq!(c.database_url(), "postgres://db/luddo");
        assert_eq!(c.timers.turn, Duration::from_millis(2500));
        assert_eq!(c.cors_origins.unwrap().len(), 2);
        assert!(c.log_json);
    }

    #[test]
    fn bad_values_are_named() {
        let err = config(&[("LUDDO_TURN_SECONDS", "soon")]).unwrap_err();
        assert!(err.to_string().contains("LUDDO_TURN_SECONDS"));
        assert!(config(&[("LUDDO_ADDR", "nowhere")]).is_err());
        assert!(config(&[("LUDDO_LOG_FORMAT", "xml")]).is_err());
        assert!(config(&[("LUDDO_METRICS", "maybe")]).is_err());
        assert!(!config(&[("LUDDO_METRICS", "off")]).unwrap().metrics);
        assert!(config(&[]).unwrap().metrics);
        let err = config(&[("LUDDO_STALL_TIMEOUTS", "7")]).unwrap_err();
        assert!(err.to_string().contains("LUDDO_STALL_WINDOW"), "7 timeouts of 6 decisions: {err}");
        assert!(config(&[("LUDDO_STALL_WINDOW", "33")]).is_err());
        let c = config(&[("LUDDO_STALL_TIMEOUTS", "5"), ("LUDDO_STALL_WINDOW", "8")]).unwrap();
        assert_eq!(c.takeover, TakeoverRule { in_a_row: 3, stalled: 5, window: 8 });
    }

    #[test]
    fn trusted_proxies_are_blocks_or_addresses() {
        assert!(config(&[]).unwrap().trusted_proxies.is_empty());
        let c = config(&[("LUDDO_TRUSTED_PROXIES", "10.0.0.0/8, 192.0.2.7 ,fd00::/8,")]).unwrap();
        let blocks: Vec<String> = c.trusted_proxies.iter().map(|b| b.to_string()).collect();
        assert_eq!(blocks, ["10.0.0.0/8", "192.0.2.7/32", "fd00::/8"]);
        let err = config(&[("LUDDO_TRUSTED_PROXIES", "10.0.0.0/8, proxy.local")]).unwrap_err();
        assert!(err.to_string().contains("LUDDO_TRUSTED_PROXIES"));
    }

    #[test]
    fn the_internal_address_is_a_host_and_a_port() {
        assert_eq!(config(&[]).unwrap().internal_addr, None);
        let c = config(&[("LUDDO_INTERNAL_ADDR", " server-2:8080 ")]).unwrap();
        assert_eq!(c.internal_addr.as_deref(), Some("server-2:8080"));
        assert!(config(&[("LUDDO_INTERNAL_ADDR", "[fd00::7]:8080")]).is_ok());
        for bad in ["server-2", ":8080", "server-2:http", "http://server-2:8080"] {
            let err = config(&[("LUDDO_INTERNAL_ADDR", bad)]).unwrap_err();
            assert!(err.to_string().contains("LUDDO_INTERNAL_ADDR"), "{bad}: {err}");
        }
    }

    #[test]
    fn a_long_clock_makes_every_limit_of_the_table_ten_times_longer() {
        let t = Timers::default();
        let secs = |c: TableClock| (c.turn.as_secs(), c.away.as_secs());
        assert_eq!(secs(t.of_table(false, false)), (15, 45));
        assert_eq!(secs(t.of_table(true, false)), (30, 45));
        assert_eq!(secs(t.of_table(false, true)), (150, 450));
        assert_eq!(secs(t.of_table(true, true)), (300, 450));
        let scaled = config(&[("LUDDO_TURN_SECONDS", "2.5"), ("LUDDO_AWAY_SECONDS", "7")]).unwrap().timers;
        let long = scaled.of_table(false, true);
        assert_eq!(
            (long.turn, long.away),
            (Duration::from_secs(25), Duration::from_secs(70)),
            "scaled from the server's own"
        );
    }
}
