//! Two jobs before the package compiles.
//!
//! Makes the tests that need something from outside honest: built without it, they are marked
//! ignored (`#[cfg_attr(not(…), ignore = …)]`), so `cargo test` counts them as ignored, with the
//! reason, instead of as passed. Setting or clearing a variable rebuilds the package.
//!
//! - `TEST_DATABASE_URL` (a PostgreSQL server): `postgres_tests`, the PostgreSQL variants;
//! - `GNUBG_PYTHON` (a Python with the `gnubg` package, as `.ci/run` sets up): `gnubg_tests`,
//!   GNU Backgammon importing the `.mat` records (tests/records.rs).
//!
//! Lists the web client's files (every file under `web/src/`, subfolders included, but for the
//! `.d.ts` type declarations that only the type checker reads) for `src/api/web.rs` to embed:
//! `$OUT_DIR/web_files.rs` holds `FILES`, each file's path under `web/src/` and its bytes
//! (`include_bytes!`). A file added or removed there rebuilds the package.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
};

fn main() {
    for (variable, cfg) in [("TEST_DATABASE_URL", "postgres_tests"), ("GNUBG_PYTHON", "gnubg_tests")] {
        println!("cargo::rerun-if-env-changed={variable}");
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        if std::env::var_os(variable).is_some_and(|value| !value.is_empty()) {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
    web_files();
}

/// Writes `$OUT_DIR/web_files.rs`: `FILES`, the web client's files in name order.
fn web_files() {
    let root = Path::new(&std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("web/src");
    println!("cargo::rerun-if-changed={}", root.display());
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    let mut out = String::from("/// The web client's files: path under `web/src/`, contents.\n");
    writeln!(out, "const FILES: [(&str, &[u8]); {}] = [", files.len()).unwrap();
    for file in &files {
        let name = file
            .strip_prefix(&root)
            .expect("under web/src")
            .to_str()
            .expect("a UTF-8 path")
            .replace('\\', "/");
        writeln!(out, "    ({name:?}, include_bytes!({:?})),", file.display().to_string()).unwrap();
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("web_files.rs");
    std::fs::write(target, out).expect("writes web_files.rs");
}

/// Every file under `dir`, into `files`.
fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reads {}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            walk(&path, files);
        } else if !path.to_str().is_some_and(|p| p.ends_with(".d.ts")) {
            files.push(path);
        }
    }
}
