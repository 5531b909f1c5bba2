//! The real server binary as a child process, for the tests of what only whole processes show:
//! restarts, crashes (SIGKILL), shutdowns (SIGTERM), several processes on one database.

use std::{
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    time::Duration,
};

/// A server process on `addr`, SIGKILLed when dropped (also when a test fails).
pub struct ServerProcess {
    child: Option<Child>,
    pub addr: String,
    data_dir: PathBuf,
    database_url: String,
    env: Vec<(String, String)>,
}

/// A free local address (`127.0.0.1:port`), free when asked (as good as it gets).
pub fn free_addr() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

impl ServerProcess {
    /// Starts the binary on `addr` with its data in `data_dir`, over `database_url`, with no
    /// `LUDDO_INSTANCE_ID` (the one kept in the data directory) and these extra settings; waits
    /// (a bounded while) until it answers `/health`.
    pub async fn spawn(addr: &str, data_dir: &Path, database_url: &str, env: &[(&str, &str)]) -> Self {
        let mut server = Self {
            child: None,
            addr: addr.into(),
            data_dir: data_dir.into(),
            database_url: database_url.into(),
            env: env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
        };
        server.start().await;
        server
    }

    /// Starts it again (after [`ServerProcess::kill`] or [`ServerProcess::terminate`]).
    pub async fn start(&mut self) {
        assert!(self.child.is_none(), "already running");
        let mut command = Command::new(env!("CARGO_BIN_EXE_luddo"));
        command
            .env_remove("LUDDO_INSTANCE_ID")
            .env("LUDDO_ADDR", &self.addr)
            .env("LUDDO_DATA_DIR", &self.data_dir)
            .env("DATABASE_URL", &self.database_url)
            .env("RUST_LOG", std::env::var("SERVER_LOG").unwrap_or_else(|_| "warn".into()))
            .stdout(Stdio::null());
        for (k, v) in &self.env {
            command.env(k, v);
        }
        self.child = Some(command.spawn().expect("the server starts"));
        let client = reqwest::Client::new();
        for _ in 0..600 {
            let health = client.get(format!("http://{}/health", self.addr)).send().await;
            if health.is_ok_and(|r| r.status() == 200) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("the server on {} did not answer within a minute", self.addr);
    }

    /// The running process's id (to signal it).
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// The process's resident set size, in bytes (`VmRSS` of /proc/PID/status).
    pub fn rss_bytes(&self) -> u64 {
        let pid = self.child.as_ref().expect("running").id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
        let kib: u64 = line.split_whitespace().nth(1).and_then(|k| k.parse().ok()).expect("VmRSS in kB");
        kib * 1024
    }

    /// SIGKILL: the process ends at once, giving nothing up (its lease runs out on its own).
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// SIGTERM, and waits (at most 30 s) for the process to end.
    pub async fn terminate(&mut self) -> ExitStatus {
        let mut child = self.child.take().expect("running");
        let sent = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -TERM");
        for _ in 0..300 {
            if let Some(status) = child.try_wait().expect("wait") {
                return status;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let _ = child.kill();
        panic!("the server on {} did not stop within 30 s of SIGTERM", self.addr);
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}
