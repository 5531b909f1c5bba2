#!/usr/bin/env bash
# The figures of BENCHMARKS.md "Load", in one run: the machine's limits, then the server on the
# local PostgreSQL at increasing action rates, a 60 s unthrottled run, and 10,000 tables =
# 40,000 WebSockets held (scripts/hold.sh). Each load run gets a fresh database, dropped
# afterwards.
#
# Usage: scripts/measure.sh [OUT_DIR]   (default: $TMPDIR/luddo-load-results/<date>); ~9 minutes.
# Environment: PGHOST/PGPORT/PGUSER as for limits.sh; RATES ("1000 2500 5000"); TABLES (1000);
#   HOLD_TABLES (10000; 0 skips the hold run).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

out="$(out_dir luddo-load-results "${1:-}")"
rates="${RATES:-1000 2500 5000}"
tables="${TABLES:-1000}"
hold_tables="${HOLD_TABLES:-10000}"

cargo build -q --release -p luddo -p luddo-load --bin luddo --bin luddo-load
scripts/limits.sh "$out/limits.json" >/dev/null

db="luddo_load_$(date +%s)_$$"
trap 'psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true' EXIT

# load NAME [luddo-load options]: one run against a fresh database.
load() {
  local name="$1"
  shift
  psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" -c "CREATE DATABASE $db" >/dev/null
  echo "measure: $name: $*" >&2
  timeout 600 "$target/release/luddo-load" --spawn-server --url http://127.0.0.1:0 \
    --database-url "postgres://$PGUSER@$PGHOST:$PGPORT/$db?sslmode=disable" --limits "$out/limits.json" --quiet \
    --json "$out/$name.json" "$@" >/dev/null || echo "measure: $name reported errors (see $out/$name.json)" >&2
}

for rate in $rates; do
  load "rate-$rate" --tables "$tables" --rate "$rate" --duration 20s
done
load "unthrottled-60s" --tables "$tables" --duration 60s
if [ "$hold_tables" -gt 0 ]; then
  TABLES="$hold_tables" scripts/hold.sh "$out/hold" >&2 || echo "measure: hold reported errors (see $out/hold)" >&2
fi

echo "measure: results in $out" >&2
for f in "$out"/*.json; do
  [ "$(basename "$f")" = limits.json ] && continue
  python3 - "$f" <<'PY' || true
import json, sys
r = json.load(open(sys.argv[1]))
l, lim = r["latency_ms"], r.get("limits") or {}
print(f'{sys.argv[1].split("/")[-1]:>24}: {r["actions_per_s"]:>7} actions/s {r["entries_per_s"]:>7} entries/s '
      f'p50 {l["p50"]} p99 {l["p99"]} max {l["max"]} ms; conns {r["connections"]["peak"]}; '
      f'rss {(r["server"]["rss_peak_bytes"] or 0) / 2**20:.0f} MiB; errors {r["error_total"]}; '
      f'lost {r["lost_events"]["total"]}; vs pg {lim.get("entries_per_s_vs_pg_append_per_s")}')
PY
done
