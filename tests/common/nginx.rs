//! The shipped balancer, deploy/nginx.conf, run by a real nginx in front of test servers: the
//! tests prove the configuration compose runs, not a copy of it.
//!
//! nginx must be installed (`.ci/run` installs the Debian package): without it a test fails, it
//! does not skip.

use super::process::free_addr;
use std::{
    path::Path,
    process::{Child, Command, Stdio},
    time::Duration,
};

/// nginx with deploy/nginx.conf in front of `upstreams`, on a free local port; stopped when
/// dropped.
pub struct Nginx {
    child: Child,
    pub addr: String,
}

/// How nginx picks the process for a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Balance {
    /// As shipped: a table's requests to one process (consistent hashing on its id), any other
    /// round robin.
    Shipped,
    /// The shipped configuration without its `hash` line: every request round robin, as a
    /// balancer that knows nothing of tables sends them.
    RoundRobin,
}

impl Nginx {
    /// Starts nginx with its files under `dir` and waits (a bounded while) until it listens.
    pub fn start(dir: &Path, upstreams: &[String]) -> Self {
        Self::start_balancing(dir, upstreams, Balance::Shipped)
    }

    /// [`Nginx::start`], balancing as `balance` says.
    pub fn start_balancing(dir: &Path, upstreams: &[String], balance: Balance) -> Self {
        let nginx = ["nginx", "/usr/sbin/nginx"]
            .into_iter()
            .find(|n| Command::new(n).arg("-v").stderr(Stdio::null()).status().is_ok())
            .expect("nginx is not installed: `apt-get install -y nginx` (.ci/run does)");
        for sub in ["logs", "tmp"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        // Workers may run as another user (nginx started as root): let them write their files.
        let _ = Command::new("chmod").arg("-R").arg("a+rwx").arg(dir).status();
        let addr = free_addr();
        std::fs::write(dir.join("nginx.conf"), shipped_conf(&addr, upstreams, balance)).unwrap();
        let child = Command::new(nginx)
            .arg("-p")
            .arg(dir)
            .arg("-e")
            .arg("logs/error.log")
            .arg("-c")
            .arg("nginx.conf")
            .arg("-g")
            .arg("daemon off; pid logs/nginx.pid;")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nginx starts");
        // Stopped when dropped, also when it never listens.
        let nginx = Self { child, addr };
        for _ in 0..100 {
            if std::net::TcpStream::connect(&nginx.addr).is_ok() {
                return nginx;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("nginx did not listen on {}; see {}", nginx.addr, dir.join("logs/error.log").display());
    }
}

impl Drop for Nginx {
    fn drop(&mut self) {
        // SIGTERM: the master stops its workers too (SIGKILL would leave them running).
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        for _ in 0..100 {
            if self.child.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// deploy/nginx.conf listening on `addr` in front of `upstreams` (each with the parameters of
/// the shipped `server server:8080 …` line, without `resolve`, which local addresses do not
/// need and Debian's nginx lacks), with its temporary files under the prefix directory and an
/// `X-Upstream` header naming the processes tried (`$upstream_addr`); without its `hash` line
/// for [`Balance::RoundRobin`].
pub fn shipped_conf(addr: &str, upstreams: &[String], balance: Balance) -> String {
    let path = format!("{}/deploy/nginx.conf", env!("CARGO_MANIFEST_DIR"));
    let conf = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    // Its comments name the lines replaced below.
    let conf: String =
        conf.lines().filter(|l| !l.trim_start().starts_with('#')).map(|l| format!("{l}\n")).collect();
    let replace_once = |conf: &str, from: &str, to: &str| {
        assert_eq!(conf.matches(from).count(), 1, "deploy/nginx.conf has {from:?} once");
        conf.replacen(from, to, 1)
    };
    let line = conf
        .lines()
        .find(|l| l.trim_start().starts_with("server server:8080 resolve "))
        .expect("deploy/nginx.conf names the `server` service's replicas");
    let params = line.trim().trim_start_matches("server server:8080 resolve ");
    let servers: Vec<String> = upstreams.iter().map(|u| format!("        server {u} {params}")).collect();
    let conf = replace_once(&conf, line, &servers.join("\n"));
    let conf = replace_once(&conf, "listen 8080;", &format!("listen {addr};"));
    let conf = match balance {
        Balance::Shipped => conf,
        Balance::RoundRobin => replace_once(&conf, "hash $luddo_table consistent;", ""),
    };
    replace_once(
        &conf,
        "http {",
        "http {
    client_body_temp_path tmp/body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
    add_header X-Upstream $upstream_addr always;",
    )
}
