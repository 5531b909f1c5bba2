//! The binary's command line: `--help` names every command and setting, `--version` the
//! package's version, and a wrong command is refused with a usage error.

use std::process::Command;

fn luddo(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_luddo")).args(args).output().expect("the luddo binary runs")
}

#[test]
fn help_lists_every_command_and_setting() {
    let out = luddo(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for command in ["serve", "healthcheck", "verify"] {
        assert!(help.contains(command), "--help lacks {command}:\n{help}");
    }
    for variable in luddo::config::VARIABLES {
        assert!(help.contains(variable), "--help lacks {variable}:\n{help}");
    }
    assert!(luddo(&["verify", "--help"]).status.success());
}

/// Each command's line in `--help` is its own: `backup` says it copies the database, `verify` that
/// it checks a table's dice (a doc comment placed above the wrong variant once gave `backup`
/// verify's text and `verify` none).
#[test]
fn each_command_is_described_by_its_own_text() {
    let help = String::from_utf8(luddo(&["--help"]).stdout).unwrap();
    let line = |command: &str| {
        help.lines()
            .find(|l| l.trim_start().starts_with(&format!("{command} ")))
            .unwrap_or_else(|| panic!("--help has no line for {command}:\n{help}"))
            .to_owned()
    };
    assert!(line("backup").contains("copy of the SQLite database"), "{}", line("backup"));
    assert!(line("verify").contains("dice"), "{}", line("verify"));
    assert!(line("admin").contains("admin role"), "{}", line("admin"));
    for command in ["serve", "healthcheck", "backup", "verify", "admin", "openapi", "asyncapi"] {
        let text = line(command);
        assert!(text.trim() != command, "{command} has no description");
    }
}

#[test]
fn version_is_the_packages() {
    let out = luddo(&["--version"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), format!("luddo {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn a_wrong_command_is_a_usage_error() {
    let out = luddo(&["serv"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("serve"), "the error suggests the command meant:\n{err}");
    assert_eq!(luddo(&["verify"]).status.code(), Some(2), "verify needs a source");
}

/// `luddo verify` fetches a table over plain HTTP only, and says why it could not: an `https://`
/// address is not one it reads, and a server that is not there is named with the address.
#[test]
fn verify_refuses_what_it_cannot_fetch() {
    let out = luddo(&["verify", "https://127.0.0.1:1/v1/tables/t"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("is not a table's address"), "{err}");

    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("http://127.0.0.1:{port}/v1/tables/t");
    let out = luddo(&["verify", &url]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains(&format!("GET {url}/record?format=json: cannot connect")), "{err}");
}

/// `luddo backup` copies the SQLite database while the server may still hold it open; the copy
/// opens as a store with the same data, and an existing file is never overwritten.
#[tokio::test]
async fn backup_copies_the_sqlite_database() {
    let dir = std::env::temp_dir().join(format!("luddo-backup-{}", uuid::Uuid::new_v4().simple()));
    let data = dir.join("data");
    std::fs::create_dir_all(&data).unwrap();
    let url = format!("sqlite://{}?mode=rwc", data.join("luddo.db").display());
    // The original stays open (as a running server's would) while the copy is made.
    let store = luddo::store::Store::open(&url).await.unwrap();
    let ann = store.create_player("Ann", "hash-of-ann", None).await.unwrap();
    let copy = dir.join("copy.db");
    let backup = |dest: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_luddo"))
            .arg("backup")
            .arg(dest)
            .env("LUDDO_DATA_DIR", &data)
            .env_remove("DATABASE_URL")
            .output()
            .unwrap()
    };
    let out = backup(&copy);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let restored = luddo::store::Store::open(&format!("sqlite://{}", copy.display())).await.unwrap();
    assert_eq!(restored.player(ann.id).await.unwrap().unwrap().name, "Ann");
    let again = backup(&copy);
    assert!(!again.status.success(), "an existing file is not overwritten");
    restored.close().await;
    store.close().await;
    std::fs::remove_dir_all(&dir).ok();
}

/// The admin role is granted and taken by the binary, on the server's database, and each change
/// is in the moderation log with no admin as its actor; an unknown player is an error.
#[tokio::test]
async fn the_admin_role_is_granted_and_taken_by_the_command_line() {
    let dir = std::env::temp_dir().join(format!("luddo-admin-{}", uuid::Uuid::new_v4().simple()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.join("luddo.db").display());
    let store = luddo::store::Store::open(&url).await.unwrap();
    let ann = store.create_player("Ann", "hash-of-ann", None).await.unwrap();
    let admin = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_luddo"))
            .arg("admin")
            .args(args)
            .env("LUDDO_DATA_DIR", &dir)
            .env_remove("DATABASE_URL")
            .env_remove("LUDDO_DATABASE_URL")
            .output()
            .unwrap()
    };
    let id = ann.id.to_string();
    let out = admin(&["grant", &id]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(store.is_admin(ann.id).await.unwrap());
    let out = admin(&["revoke", &id]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!store.is_admin(ann.id).await.unwrap());
    let log = store.moderation_log(None, 10).await.unwrap();
    let actions: Vec<_> = log.iter().map(|e| (e.action.as_str(), e.actor, e.player)).collect();
    assert_eq!(actions, [("revoke_admin", None, Some(ann.id)), ("grant_admin", None, Some(ann.id))]);
    let nobody = uuid::Uuid::new_v4().to_string();
    assert!(!admin(&["grant", &nobody]).status.success(), "no such player");
    assert!(!admin(&["grant", "not-an-id"]).status.success());
    store.close().await;
    std::fs::remove_dir_all(&dir).ok();
}

/// The README's set-up names what a fresh machine needs before its two commands work: the Rust
/// version the crate declares (`rust-version`) and a C compiler.
#[test]
fn the_readme_names_the_toolchain_the_build_needs() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let set_up =
        readme.split("## Set up").nth(1).and_then(|s| s.split("\n## ").next()).expect("a Set up section");
    let manifest = std::fs::read_to_string(format!("{root}/Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = \""))
        .and_then(|l| l.strip_suffix('"'))
        .expect("the workspace declares its rust-version");
    assert!(set_up.contains(&format!("Rust {version} or newer")), "Set up names Rust {version}:\n{set_up}");
    assert!(set_up.contains("C compiler"), "Set up names the C compiler:\n{set_up}");
    assert!(set_up.contains("target/"), "Set up says how large target/ grows:\n{set_up}");
}
