#!/usr/bin/env bash
# CI load run: short runs of the load generator against a SQLite server it starts itself.
# Fails on any error or lost event (luddo-load exits 1), never on speed.
#   1. Luddo, 300 tables x 4 seats (1,200 WebSockets), 20 s measured after the ramp-up;
#   2. Snakes and Ladders, 20 tables, 15 s: short games, so games finish and new tables follow
#      within the run (the finish entry must reach every socket).
#
# Debug binaries on purpose: `cargo test --workspace` has already built them (integration tests
# build their package's binaries), so this adds no compile time; correctness, not speed, is
# checked here.
# The database lives on tmpfs when there is one, so the disk does not slow the run down.
#
# Usage: scripts/ci_load.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

cargo build -q -p luddo -p luddo-load --bin luddo --bin luddo-load
scratch="$(mktemp -d -p "$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")" luddo-ci-load.XXXXXX)"
trap 'rm -rf "$scratch"' EXIT

# run_load NAME [luddo-load options]: one bounded run with its own server and database.
run_load() {
  local name="$1"
  shift
  local out="$scratch/$name.json" status=0
  mkdir -p "$scratch/$name"
  timeout 120 "$target/debug/luddo-load" --spawn-server "$target/debug/luddo" --url http://127.0.0.1:0 \
    --database-url "sqlite://$scratch/$name/luddo.db?mode=rwc" --ramp-timeout 60s --quiet --json "$out" "$@" \
    >/dev/null || status=$?
  if [ -s "$out" ]; then
    sed -nE '/^  "(ok|actions_per_s|entries_per_s|error_total|ramp_s|games_finished)"/p' "$out" \
      | tr -d '\n' | sed -E "s/ +/ /g; s/^/ci_load: $name:/; s/$/\n/"
  fi
  if [ "$status" -ne 0 ]; then
    echo "ci_load: $name FAILED (exit $status)" >&2
    if [ -s "$out" ]; then cat "$out" >&2; fi
    exit 1
  fi
}

run_load luddo --game luddo --tables 300 --seats 4 --duration 20s
run_load snakes --game snakes --tables 20 --seats 4 --duration 15s
echo "ci_load: ok"
