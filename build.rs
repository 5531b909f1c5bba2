//! Makes the PostgreSQL variants of the tests honest: built without `TEST_DATABASE_URL`, they
//! are marked ignored (`#[cfg_attr(not(postgres_tests), ignore = …)]`), so `cargo test` counts
//! them as ignored, with the reason, instead of as passed. Setting or clearing the variable
//! rebuilds the package.

fn main() {
    println!("cargo::rerun-if-env-changed=TEST_DATABASE_URL");
    println!("cargo::rustc-check-cfg=cfg(postgres_tests)");
    if std::env::var_os("TEST_DATABASE_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=postgres_tests");
    }
}
