//! The accept loop survives running out of file descriptors (`EMFILE`): it pauses and tries
//! again, and serves once descriptors are free.
//!
//! A test binary of its own: it lowers this process's open-files limit, which the server it
//! runs in-process shares.

mod common;

use common::{Db, TestServer};
use std::{fs::File, time::Duration};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

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
