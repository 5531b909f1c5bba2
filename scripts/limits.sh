#!/usr/bin/env bash
# What this machine allows, measured in one run, for the load report to compare against:
#   1. durable single-row appends per second into the local PostgreSQL: pgbench, one INSERT per
#      transaction into a scratch table, synchronous_commit on, a few client counts, best kept;
#   2. raw WebSocket fan-out: crates/luddo-load/examples/ws_fanout.rs (bare tokio-tungstenite,
#      loopback clients), messages delivered per second.
# Writes JSON (default limits.json) that `luddo-load --limits limits.json` reads.
#
# Usage: scripts/limits.sh [OUT.json]
# Environment: PGHOST (127.0.0.1), PGPORT (5432), PGUSER (postgres), PG_SECONDS (15),
#   PG_CLIENTS ("4 16 64"), WS_SECONDS (10; 0 skips the fan-out: its figures are then null),
#   WS_GROUPS (1000), WS_FANOUT (4), CARGO_TARGET_DIR as usual.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

out="${1:-limits.json}"
pg_seconds="${PG_SECONDS:-15}"
pg_clients="${PG_CLIENTS:-4 16 64}"
ws_seconds="${WS_SECONDS:-10}"
ws_groups="${WS_GROUPS:-1000}"
ws_fanout="${WS_FANOUT:-4}"

db="luddo_limits_$(date +%s)_$$"
work="$(mktemp -d)"
cleanup() {
  psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "limits: pgbench one-row appends (${pg_seconds}s per client count: $pg_clients)" >&2
psql -qX -d postgres -c "CREATE DATABASE $db" >/dev/null
# A row shaped like the server's log (`actions`): table id, seq, seat, actor, action, events, at.
psql -qX -d "$db" -c "CREATE TABLE appends (
    table_id TEXT NOT NULL, seq BIGINT NOT NULL, seat BIGINT, actor TEXT NOT NULL,
    action TEXT NOT NULL, events TEXT NOT NULL, at BIGINT NOT NULL,
    PRIMARY KEY (table_id, seq))" >/dev/null
cat >"$work/append.sql" <<'SQL'
\set seq random(1, 1000000000000)
INSERT INTO appends (table_id, seq, seat, actor, action, events, at)
VALUES ('00000000-0000-0000-0000-0000000000' || :client_id, :seq, 0, 'human', '{"type":"roll"}',
        '{"events":[{"type":"rolled","seat":0,"dice":[6]}],"to_act":0,"deadline":1700000000000}', 0);
SQL
synchronous_commit="$(psql -qXAt -d "$db" -c "SHOW synchronous_commit")"
fsync="$(psql -qXAt -d "$db" -c "SHOW fsync")"
best=0
by_clients=""
for c in $pg_clients; do
  # -n: no vacuum of pgbench's own tables; each script run is one transaction (autocommit).
  tps="$(PGOPTIONS='-c synchronous_commit=on' pgbench -n -c "$c" -j "$(( c < 2 ? c : 2 ))" -T "$pg_seconds" \
          -f "$work/append.sql" "$db" 2>/dev/null | awk '/^tps = / {print $3; exit}')"
  tps="${tps:-0}"
  echo "limits:   $c clients: $tps appends/s" >&2
  by_clients="${by_clients:+$by_clients, }\"$c\": $tps"
  best="$(awk -v a="$best" -v b="$tps" 'BEGIN { print (b > a ? b : a) }')"
done

if [ "$ws_seconds" = 0 ]; then
  echo "limits: WebSocket fan-out skipped (WS_SECONDS=0)" >&2
  fanout_json=null fanout_rate=null
else
  echo "limits: WebSocket fan-out (${ws_groups} groups x ${ws_fanout} clients, ${ws_seconds}s)" >&2
  cargo build -q --release -p luddo-load --example ws_fanout
  fanout_json="$("$target/release/examples/ws_fanout" --groups "$ws_groups" --fanout "$ws_fanout" \
                  --seconds "$ws_seconds")"
  fanout_rate="$(sed -E 's/.*"ws_fanout_msgs_per_s":([0-9.e+]+).*/\1/' <<<"$fanout_json")"
  echo "limits:   $fanout_rate messages/s" >&2
fi

cat >"$out" <<JSON
{
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "machine": {"cpu": "$(lscpu | sed -nE 's/^Model name:[[:space:]]+//p' | head -n1)", "cpus": $(nproc)},
  "pg_append_per_s": $best,
  "pg_append": {"seconds": $pg_seconds, "tps_by_clients": {$by_clients},
                "synchronous_commit": "$synchronous_commit", "fsync": "$fsync",
                "server": "$(psql -qXAt -d postgres -c 'SHOW server_version')"},
  "ws_fanout_msgs_per_s": $fanout_rate,
  "ws_fanout": $fanout_json
}
JSON
cat "$out"
