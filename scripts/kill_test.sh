#!/usr/bin/env bash
# SIGKILL test: the real `luddo` binary is killed with SIGKILL at random moments while clients
# play, and restarted on the same data; after each restart every acknowledged action must be in
# the log, the log must run 1..=seq without gap or duplicate, and every unfinished table must
# resume. Driver: crates/luddo-load/examples/kill_client.rs. Exits 1 on any violation.
#
# Usage: scripts/kill_test.sh [KILLS (default 50)] [--postgres] [extra kill_client options,
#        e.g. --tables 8 --seed 7]
# Without --postgres the server runs on SQLite in a temp dir. With --postgres it runs on a fresh
# PostgreSQL database luddo_kill_<time>_<pid>, created with psql and dropped at exit; the server
# is found through the usual PGHOST, PGPORT, PGUSER (and PGPASSWORD) variables, by default
# postgres@127.0.0.1:5432 with trust auth, as in .ci/run.
# Debug build on purpose (tests build it anyway).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

kills="${1:-50}"
shift || true
postgres=0
args=()
for arg in "$@"; do
  if [ "$arg" = "--postgres" ]; then postgres=1; else args+=("$arg"); fi
done

cargo build -q -p luddo --bin luddo
cargo build -q -p luddo-load --example kill_client

if [ "$postgres" = 1 ]; then
  db="luddo_kill_$(date +%s)_$$"
  psql -d postgres -qc "CREATE DATABASE $db"
  trap 'psql -d postgres -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true' EXIT
  auth="$PGUSER"
  if [ -n "${PGPASSWORD:-}" ]; then auth="$PGUSER:$PGPASSWORD"; fi
  args+=(--database-url "postgres://$auth@$PGHOST:$PGPORT/$db")
fi

# No exec: the trap drops the database after the run.
timeout 170 "$target/debug/examples/kill_client" --binary "$target/debug/luddo" --kills "$kills" ${args[@]+"${args[@]}"}
