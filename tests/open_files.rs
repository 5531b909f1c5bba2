//! The accept loop survives running out of file descriptors (`EMFILE`): it pauses and tries
//! again, and serves once descriptors are free. The default cap on connections fits the
//! open-files limit the server finds; only a setting above it is warned about.
//!
//! A test binary of its own: it lowers this process's open-files limit, which the server it
//! runs in-process shares.

mod common;

use common::{Db, TestServer};
use std::{
    fs::File,
    io::Read,
    os::unix::process::CommandExt,
    process::{Command, Stdio},
    time::Duration,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Held by each test: one lowers this process's open-files limit and takes every descriptor,
/// which the others' children (and pipes) would meet.
static FILES: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Files open in this process now.
fn open_files() -> u64 {
    std::fs::read_dir("/proc/self/fd").map(|d| d.count() as u64).unwrap_or(64)
}

fn set_soft_limit(limit: u64) -> u64 {
    let mut current = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit and setrlimit only read and write the struct passed.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut current), 0);
        let lowered = libc::rlimit { rlim_cur: limit, rlim_max: current.rlim_max };
        assert_eq!(libc::setrlimit(libc::RLIMIT_NOFILE, &lowered), 0);
    }
    current.rlim_cur
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_accepts_again_once_file_descriptors_are_free() {
    let _files = FILES.lock().await;
    let s = TestServer::start(Db::Sqlite).await;
    assert_eq!(s.get("/health", None).await.status, 200);
    let addr = s.base.trim_start_matches("http://").to_string();

    let before = set_soft_limit(open_files() + 32);
    // Take every descriptor left, then give one back for the client's socket: the server has
    // none left for accepting it.
    let mut fillers = vec![];
    while let Ok(f) = File::open("/dev/null") {
        fillers.push(f);
    }
    fillers.pop();
    let mut client = tokio::net::TcpStream::connect(&addr).await.expect("connect");
    client.write_all(b"GET /health HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n").await.unwrap();
    // Let the server fail to accept a few times.
    tokio::time::sleep(Duration::from_millis(300)).await;
    drop(fillers);
    set_soft_limit(before);

    let mut answer = vec![];
    tokio::time::timeout(Duration::from_secs(60), client.read_to_end(&mut answer))
        .await
        .expect("the server answered once descriptors were free")
        .expect("read");
    assert!(answer.starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&answer));
}

/// What the binary logs (at `warn`) from its start to its first answer, started with an
/// open-files limit of `limit` (soft and hard: the binary raises the soft one to the hard one)
/// and these extra settings.
async fn start_up_log(limit: u64, settings: &[(&str, &str)]) -> String {
    let _files = FILES.lock().await;
    let dir = std::env::temp_dir().join(format!("luddo-nofile-{}", uuid::Uuid::new_v4().simple()));
    let addr = common::process::free_addr();
    let mut command = Command::new(env!("CARGO_BIN_EXE_luddo"));
    command
        .env_remove("LUDDO_MAX_CONNECTIONS")
        .env("LUDDO_ADDR", &addr)
        .env("LUDDO_DATA_DIR", &dir)
        .env("DATABASE_URL", format!("sqlite://{}?mode=rwc", dir.join("luddo.db").display()))
        .env("RUST_LOG", "warn")
        .envs(settings.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let lowered = libc::rlimit { rlim_cur: limit, rlim_max: limit };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &lowered) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut child = command.spawn().expect("the server starts");
    let mut up = false;
    for _ in 0..600 {
        if reqwest::get(format!("http://{addr}/health")).await.is_ok_and(|r| r.status() == 200) {
            up = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut log = String::new();
    child.stdout.take().unwrap().read_to_string(&mut log).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(up, "the server answered: {log}");
    log
}

#[tokio::test]
async fn the_default_cap_on_connections_fits_the_open_files_limit_without_a_warning() {
    let log = start_up_log(4096, &[]).await;
    assert!(!log.contains("LUDDO_MAX_CONNECTIONS"), "a default start warns: {log}");
}

#[tokio::test]
async fn a_cap_on_connections_set_above_the_open_files_limit_is_warned_about() {
    let log = start_up_log(4096, &[("LUDDO_MAX_CONNECTIONS", "20000")]).await;
    assert!(log.contains("LUDDO_MAX_CONNECTIONS is above the open-files limit"), "{log}");
}
