#!/usr/bin/env bash
# SIGKILL test: the real `luddo` binary on SQLite is killed with SIGKILL at random moments while
# clients play, and restarted on the same data; after each restart every acknowledged action
# must be in the log, the log must run 1..=seq without gap or duplicate, and every unfinished
# table must resume. Driver: examples/kill_client.rs. Exits 1 on any violation.
#
# Usage: scripts/kill_test.sh [KILLS (default 50)] [extra kill_client options, e.g. --tables 8 --seed 7]
# Debug build on purpose (tests build it anyway); the database lives in a temp dir.
set -euo pipefail
cd "$(dirname "$0")/.."

kills="${1:-50}"
shift || true
target="${CARGO_TARGET_DIR:-target}"
cargo build -q --bin luddo --example kill_client
timeout 170 "$target/debug/examples/kill_client" --binary "$target/debug/luddo" --kills "$kills" "$@"
