//! The server under test: its settings, starting it and waiting for it (`--spawn-server`,
//! kill_client, stalled_resumers), finding its process by port, reading its memory.

use std::{
    collections::BTreeMap,
    net::SocketAddr,
    path::{Path, PathBuf},
    process::Stdio,
    time::Duration,
};
use tokio::process::{Child, Command};

/// The settings every server started for a test or a measurement runs with, from
/// `scripts/test-server.env` (which the shell scripts read too): limits out of the way of load,
/// turn clocks that never run out during a run. Each program adds its own address, database,
/// instance id and log level.
pub fn server_env() -> Vec<(&'static str, &'static str)> {
    include_str!("../../../scripts/test-server.env")
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| line.split_once('='))
        .collect()
}

/// A TCP port on 127.0.0.1 that was free a moment ago (for a server about to be started on it).
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Waits until `GET {base}/health` answers 2xx, polling every 50 ms for `within`; fails early if
/// `child` (the server process) exits first.
pub async fn wait_healthy(
    http: &reqwest::Client,
    base: &str,
    child: &mut Child,
    within: Duration,
) -> Result<(), String> {
    let health = format!("{base}/health");
    let deadline = tokio::time::Instant::now() + within;
    while tokio::time::Instant::now() < deadline {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(format!("the server exited before it became healthy: {status}"));
        }
        if http.get(&health).send().await.is_ok_and(|r| r.status().is_success()) {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Err(format!("the server at {base} did not become healthy within {within:?}"))
}

/// A server this generator started; killed (and its scratch directory removed) on drop.
pub struct Spawned {
    pub child: Child,
    scratch: Option<PathBuf>,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.child.start_kill();
        if let Some(dir) = &self.scratch {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Spawned {
    pub fn pid(&self) -> Option<u32> {
        self.child.id()
    }

    /// Stops the server and waits for it to exit.
    pub async fn stop(mut self) {
        if let Some(pid) = self.child.id() {
            // SIGTERM first, so the server shuts down as in production.
            let _ = std::process::Command::new("kill").arg(pid.to_string()).status();
            if tokio::time::timeout(Duration::from_secs(10), self.child.wait()).await.is_err() {
                let _ = self.child.kill().await;
            }
        }
    }
}

/// Starts `binary` (default: `luddo` beside this executable) listening on `addr`, with the
/// settings of every server under test (`scripts/test-server.env`: limits out of the way of
/// load, turn clocks that never run out during a run), and waits until `/health` answers.
pub async fn spawn(
    binary: Option<&Path>,
    addr: SocketAddr,
    database_url: Option<&str>,
    http: &reqwest::Client,
) -> Result<Spawned, String> {
    let binary = match binary {
        Some(b) => b.to_path_buf(),
        None => std::env::current_exe()
            .map_err(|e| format!("cannot find this executable: {e}"))?
            .with_file_name("luddo"),
    };
    if !binary.exists() {
        return Err(format!("{} does not exist: build it first (cargo build --bin luddo)", binary.display()));
    }
    let mut scratch = None;
    let database_url = match database_url {
        Some(url) => url.to_string(),
        None => {
            let dir = std::env::temp_dir().join(format!("luddo-load-{}", std::process::id()));
            std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            let url = format!("sqlite://{}?mode=rwc", dir.join("luddo.db").display());
            scratch = Some(dir);
            url
        }
    };
    let child = Command::new(&binary)
        .envs(server_env())
        .env("LUDDO_ADDR", addr.to_string())
        .env("DATABASE_URL", &database_url)
        .env("RUST_LOG", std::env::var("RUST_LOG").unwrap_or_else(|_| "warn".into()))
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
    let mut spawned = Spawned { child, scratch };
    wait_healthy(http, &format!("http://{addr}"), &mut spawned.child, Duration::from_secs(30)).await?;
    Ok(spawned)
}

/// The resident set size of `pid`, in bytes (`VmRSS` of /proc/PID/status).
pub fn rss_bytes(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The CPU time `pid` has used so far, in user and system mode (`utime` + `stime` of
/// /proc/PID/stat, counted in the kernel's `USER_HZ`, 100 a second on Linux).
pub fn cpu_time(pid: u32) -> Option<Duration> {
    const TICKS_PER_S: u64 = 100;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name in parentheses may hold spaces: the fields are counted after it, from `state`
    // (the third field); `utime` and `stime` are the 14th and 15th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    let total = ticks(11)? + ticks(12)?;
    Some(Duration::from_millis(total * 1000 / TICKS_PER_S))
}

/// The CPU time used so far by every process of this machine named one of `names` (the
/// kernel's `comm`, as `ps -o comm` shows it), summed by name: the servers of a cluster with
/// the database and the balancer in front of them (`luddo`, `postgres`, `nginx`). A process that
/// ends between two readings takes its time with it; one that starts counts from its start.
pub fn cpu_time_by_name(names: &[String]) -> BTreeMap<String, Duration> {
    let mut used: BTreeMap<String, Duration> = names.iter().map(|n| (n.clone(), Duration::ZERO)).collect();
    let Ok(entries) = std::fs::read_dir("/proc") else { return used };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(comm) = std::fs::read_to_string(format!("/proc/{pid}/comm")) else { continue };
        if let Some(total) = used.get_mut(comm.trim_end())
            && let Some(cpu) = cpu_time(pid)
        {
            *total += cpu;
        }
    }
    used
}

/// The process listening on TCP `port` on this machine, found through /proc/net/tcp and the
/// processes' open sockets (Linux only; `None` if it cannot be seen, e.g. another user's).
pub fn pid_listening_on(port: u16) -> Option<u32> {
    let mut inodes = vec![];
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        let Ok(text) = std::fs::read_to_string(table) else { continue };
        for line in text.lines().skip(1) {
            let cols: Vec<&str> = line.split_whitespace().collect();
            if cols.len() < 10 || cols[3] != "0A" {
                continue;
            }
            let local_port = cols[1].rsplit(':').next().and_then(|p| u16::from_str_radix(p, 16).ok());
            if local_port == Some(port) {
                inodes.push(format!("socket:[{}]", cols[9]));
            }
        }
    }
    if inodes.is_empty() {
        return None;
    }
    let me = std::process::id();
    for proc_entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = proc_entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        if pid == me {
            continue;
        }
        let Ok(fds) = std::fs::read_dir(proc_entry.path().join("fd")) else { continue };
        for fd in fds.flatten() {
            if let Ok(target) = std::fs::read_link(fd.path())
                && inodes.iter().any(|i| target.as_os_str() == i.as_str())
            {
                return Some(pid);
            }
        }
    }
    None
}

/// The CPU model (`model name` in /proc/cpuinfo) and the number of CPUs.
pub fn machine() -> (String, usize) {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, m)| m.trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    (model, cpus)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_time_of_processes_by_name_counts_this_one() {
        let me = std::fs::read_to_string("/proc/self/comm").unwrap().trim_end().to_owned();
        let named = [me.clone(), "no-such-process".to_owned()];
        let mut used = cpu_time_by_name(&named);
        // Spin until the kernel has counted a tick of ours (10 ms).
        while used[&me].is_zero() {
            std::hint::black_box((0..10_000u64).sum::<u64>());
            used = cpu_time_by_name(&named);
        }
        assert_eq!(used["no-such-process"], Duration::ZERO);
        assert_eq!(used.len(), 2);
    }

    #[test]
    fn this_process_has_used_some_cpu_time() {
        // Spins until the kernel has counted a tick of this process (on a loaded machine a
        // fixed spin of wall time may not get one), for at most 10 s.
        let spin = std::time::Instant::now();
        let used = loop {
            let used = cpu_time(std::process::id());
            if used.is_none_or(|t| t > Duration::ZERO) || spin.elapsed() > Duration::from_secs(10) {
                break used;
            }
        };
        assert!(used.is_some_and(|t| t > Duration::ZERO), "{used:?}");
        assert_eq!(cpu_time(u32::MAX), None);
    }

    #[test]
    fn the_test_server_env_file_reads_as_settings() {
        let env = server_env();
        assert!(env.len() >= 5, "{env:?}");
        for (name, value) in &env {
            assert!(name.starts_with("LUDDO_"), "{name}");
            assert!(!value.is_empty() && !value.contains(char::is_whitespace), "{name}={value}");
        }
        let names: Vec<&str> = env.iter().map(|(n, _)| *n).collect();
        for needed in
            ["LUDDO_ACTIONS_PER_MINUTE", "LUDDO_MAX_CONNECTIONS", "LUDDO_MAX_CONNECTIONS_PER_ADDRESS"]
        {
            assert!(names.contains(&needed), "{needed} missing from scripts/test-server.env");
        }
    }
}
