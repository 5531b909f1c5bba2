//! Makes the tests that need something from outside honest: built without it, they are marked
//! ignored (`#[cfg_attr(not(…), ignore = …)]`), so `cargo test` counts them as ignored, with the
//! reason, instead of as passed. Setting or clearing a variable rebuilds the package.
//!
//! - `TEST_DATABASE_URL` (a PostgreSQL server): `postgres_tests`, the PostgreSQL variants;
//! - `GNUBG_PYTHON` (a Python with the `gnubg` package, as `.ci/run` sets up): `gnubg_tests`,
//!   GNU Backgammon importing the `.mat` records (tests/records.rs).

fn main() {
    for (variable, cfg) in [("TEST_DATABASE_URL", "postgres_tests"), ("GNUBG_PYTHON", "gnubg_tests")] {
        println!("cargo::rerun-if-env-changed={variable}");
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        if std::env::var_os(variable).is_some_and(|value| !value.is_empty()) {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}
