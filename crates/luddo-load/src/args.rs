//! Command-line options (no parser crate: a handful of `--name value` flags).

use std::{path::PathBuf, time::Duration};

pub const USAGE: &str = "\
luddo-load: plays complete games against a Luddo server through its public API.

USAGE: luddo-load [OPTIONS]

  --url URL                 server to load (default http://127.0.0.1:8080; with
                            --spawn-server, port 0 picks a free port)
  --tables N                tables in play at once (default 200)
  --seats N                 seats per table, all played by the generator (default 4)
  --game NAME               luddo, ludo, uckers, snakes or backgammon (default luddo)
  --duration D              measured time after the ramp-up, e.g. 20s, 2m (default 20s)
  --ramp-timeout D          longest the ramp-up (setting up every table) may take (default 5m)
  --spectators N            extra token-less WebSockets per table (default 0)
  --rate R                  cap on actions per second, across all tables (default: none)
  --setup-concurrency N     tables being set up at once (default 64)
  --source-ips N            local addresses 127.0.0.1.. to spread WebSockets over
                            (default: one per 25,000 connections)
  --one-game                each table plays one game (default: a new table after each game)
  --http-actions            post each action over HTTP (POST /v1/tables/{id}/actions, answered
                            there) instead of sending it over the seat's WebSocket
  --server-pid PID          process whose RSS to report (default: whoever listens on the port)
  --cpu-of NAME[,NAME…]     also report the CPU time, while measuring, of every process with one
                            of these names (e.g. luddo,postgres,nginx): by name, in all, and per action
  --spawn-server [PATH]     start the server binary (default: `luddo` next to this binary)
  --database-url URL        DATABASE_URL for --spawn-server (default: a fresh SQLite file)
  --limits FILE             limits.json from scripts/limits.sh: report figures as fractions
  --json FILE               write the JSON summary there
  --seed N                  seed of the random choices (default 1)
  --quiet                   no progress lines

Exits 1 if any error or lost event was seen, never because of speed.";

/// What to do, from the command line.
#[derive(Debug, Clone)]
pub struct Args {
    pub url: String,
    pub tables: usize,
    pub seats: usize,
    pub game: String,
    pub duration: Duration,
    pub ramp_timeout: Duration,
    pub spectators: usize,
    pub rate: Option<f64>,
    pub setup_concurrency: usize,
    pub source_ips: Option<usize>,
    pub one_game: bool,
    /// Actions are posted over HTTP rather than sent over the seat's socket.
    pub http_actions: bool,
    pub server_pid: Option<u32>,
    /// Names of processes (`comm`) whose CPU time while measuring is reported beside the
    /// server's, by name and in all (a cluster's servers, its database, its balancer).
    pub cpu_of: Vec<String>,
    /// `Some(None)`: spawn the `luddo` binary found next to this one.
    pub spawn_server: Option<Option<PathBuf>>,
    pub database_url: Option<String>,
    pub limits: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub seed: u64,
    pub quiet: bool,
}

impl Default for Args {
    fn default() -> Self {
        Self {
            url: "http://127.0.0.1:8080".into(),
            tables: 200,
            seats: 4,
            game: "luddo".into(),
            duration: Duration::from_secs(20),
            ramp_timeout: Duration::from_secs(300),
            spectators: 0,
            rate: None,
            setup_concurrency: 64,
            source_ips: None,
            one_game: false,
            http_actions: false,
            server_pid: None,
            cpu_of: vec![],
            spawn_server: None,
            database_url: None,
            limits: None,
            json: None,
            seed: 1,
            quiet: false,
        }
    }
}

/// `20s`, `1500ms`, `2m`, or plain seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (number, unit) = match s.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let n: f64 = number.parse().map_err(|_| format!("bad duration {s:?}"))?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" => n,
        "m" => n * 60.0,
        "h" => n * 3600.0,
        _ => return Err(format!("bad duration unit in {s:?} (ms, s, m or h)")),
    };
    if !(secs.is_finite() && secs >= 0.0) {
        return Err(format!("bad duration {s:?}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl Args {
    pub fn parse(raw: impl IntoIterator<Item = String>) -> Result<Self, String> {
        let mut a = Args::default();
        let mut it = raw.into_iter().peekable();
        while let Some(flag) = it.next() {
            let (name, inline) = match flag.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (flag.clone(), None),
            };
            if name == "--spawn-server" {
                let path = inline.or_else(|| it.next_if(|v| !v.starts_with("--")));
                a.spawn_server = Some(path.map(PathBuf::from));
                continue;
            }
            let mut value = || inline.clone().or_else(|| it.next()).ok_or(format!("{name} needs a value"));
            let number =
                |v: String| v.parse::<usize>().map_err(|_| format!("{name}: expected a number, got {v:?}"));
            match name.as_str() {
                "--help" | "-h" => return Err(USAGE.into()),
                "--url" => a.url = value()?.trim_end_matches('/').to_string(),
                "--tables" => a.tables = number(value()?)?,
                "--seats" => a.seats = number(value()?)?,
                "--game" => a.game = value()?,
                "--duration" => a.duration = parse_duration(&value()?)?,
                "--ramp-timeout" => a.ramp_timeout = parse_duration(&value()?)?,
                "--spectators" => a.spectators = number(value()?)?,
                "--rate" => {
                    let v = value()?;
                    a.rate =
                        Some(v.parse().ok().filter(|r: &f64| *r > 0.0).ok_or(format!("bad --rate {v:?}"))?);
                }
                "--setup-concurrency" => a.setup_concurrency = number(value()?)?.max(1),
                "--source-ips" => a.source_ips = Some(number(value()?)?.clamp(1, 250)),
                "--one-game" => a.one_game = true,
                "--http-actions" => a.http_actions = true,
                "--server-pid" => a.server_pid = Some(number(value()?)? as u32),
                "--cpu-of" => {
                    a.cpu_of = value()?.split(',').filter(|n| !n.is_empty()).map(str::to_owned).collect()
                }
                "--database-url" => a.database_url = Some(value()?),
                "--limits" => a.limits = Some(value()?.into()),
                "--json" => a.json = Some(value()?.into()),
                "--seed" => a.seed = number(value()?)? as u64,
                "--quiet" => a.quiet = true,
                other => return Err(format!("unknown option {other:?}\n\n{USAGE}")),
            }
        }
        if a.tables == 0 || a.seats == 0 {
            return Err("--tables and --seats must be at least 1".into());
        }
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Args, String> {
        Args::parse(s.split_whitespace().map(String::from))
    }

    #[test]
    fn durations_take_units() {
        assert_eq!(parse_duration("20s").unwrap(), Duration::from_secs(20));
        assert_eq!(parse_duration("1500ms").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("3").unwrap(), Duration::from_secs(3));
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn flags_are_read_in_both_forms() {
        let a = parse("--tables 10 --game=uckers --spawn-server --json out.json").unwrap();
        assert_eq!(a.tables, 10);
        assert_eq!(a.game, "uckers");
        assert_eq!(a.spawn_server, Some(None));
        assert_eq!(a.json, Some(PathBuf::from("out.json")));
        let a = parse("--spawn-server /bin/luddo --rate 5000 --http-actions").unwrap();
        assert_eq!(a.spawn_server, Some(Some(PathBuf::from("/bin/luddo"))));
        assert_eq!(a.rate, Some(5000.0));
        assert!(a.http_actions);
        assert!(parse("--bogus 1").is_err());
    }
}
