#!/usr/bin/env bash
# Holds 10,000 live 4-seat tables = 40,000 WebSockets against the server on PostgreSQL, and
# reports the most held at once and the server's memory then.
#
# One process may open at most 20,000 files here (hard limit, no CAP_SYS_RESOURCE to raise it;
# two processes would each need 20,000 sockets plus HTTP and database connections), so the
# server runs as SERVERS processes on one database — tables are spread over them by the
# ownership leases (docs/architecture.md): each table is driven by the process it was started
# on — and the clients as GENERATORS luddo-load processes, each bound to one server. While they
# play (slowly: RATE actions/s each; WebSockets from 127.0.0.1-4, so loopback has ports
# enough), the script counts the established WebSockets on the servers' ports and sums the
# servers' RSS every 2 s; the figures are the peak of those sums.
#
# Usage: scripts/hold.sh [OUT_DIR]   Environment: TABLES (10000), SERVERS (3), GENERATORS (6),
#   RATE (50 actions/s per generator), HOLD (30s measured after every generator's ramp-up), SETUP
#   (16 tables set up at once per generator: more only overflows the listen backlog).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

out="$(out_dir luddo-hold "${1:-}")"
tables="${TABLES:-10000}" servers="${SERVERS:-3}" generators="${GENERATORS:-6}"
rate="${RATE:-50}" hold="${HOLD:-30s}"
cargo build -q --release -p luddo -p luddo-load --bin luddo --bin luddo-load

db="luddo_hold_$(date +%s)_$$"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
}
trap cleanup EXIT
psql -qX -d postgres -c "CREATE DATABASE $db" >/dev/null

ports=()
server_pids=()
mapfile -t server_env < <(test_server_env)
for i in $(seq 1 "$servers"); do
  port=$((18080 + i))
  env "${server_env[@]}" LUDDO_ADDR="127.0.0.1:$port" DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$db?sslmode=disable" \
    LUDDO_INSTANCE_ID="hold-$i" RUST_LOG=warn \
    "$target/release/luddo" >"$out/server-$i.log" 2>&1 &
  pids+=($!) server_pids+=($!) ports+=("$port")
done
for port in "${ports[@]}"; do
  for _ in $(seq 1 60); do curl -sf "http://127.0.0.1:$port/ready" >/dev/null && break; sleep 0.5; done
done

gen_pids=()
for g in $(seq 1 "$generators"); do
  port="${ports[$(((g - 1) % servers))]}"
  # TABLES split evenly; the first TABLES % GENERATORS generators take one more.
  per_gen=$((tables / generators + (g <= tables % generators ? 1 : 0)))
  "$target/release/luddo-load" --url "http://127.0.0.1:$port" --tables "$per_gen" --seats 4 \
    --rate "$rate" --duration "$hold" --ramp-timeout 10m --setup-concurrency "${SETUP:-16}" --seed "$g" --source-ips 4 \
    --server-pid "${server_pids[$(((g - 1) % servers))]}" --quiet --json "$out/generator-$g.json" \
    >"$out/generator-$g.out" 2>&1 &
  pids+=($!) gen_pids+=($!)
done

filter=$(printf "sport = :%s or " "${ports[@]}")
filter="( ${filter% or } )"
peak_conns=0 peak_rss=0 rss_at_peak=0
while kill -0 "${gen_pids[@]}" 2>/dev/null; do
  conns=$(ss -Htn state established "$filter" | wc -l)
  rss=0
  for p in "${server_pids[@]}"; do
    rss=$((rss + $(awk '/^VmRSS/ {print $2}' "/proc/$p/status") * 1024))
  done
  [ "$rss" -gt "$peak_rss" ] && peak_rss=$rss
  if [ "$conns" -gt "$peak_conns" ]; then peak_conns=$conns rss_at_peak=$rss; fi
  echo "hold: $(date -u +%T) connections $conns, servers' RSS $((rss / 1048576)) MiB" >>"$out/samples.log"
  sleep 2
done
status=0
for p in "${gen_pids[@]}"; do wait "$p" || status=1; done

errors=$(python3 -c 'import json,sys; print(sum(json.load(open(f))["error_total"] for f in sys.argv[1:]))' "$out"/generator-*.json)
lost=$(python3 -c 'import json,sys; print(sum(json.load(open(f))["lost_events"]["total"] for f in sys.argv[1:]))' "$out"/generator-*.json)
cat >"$out/hold.json" <<JSON
{"tables": $tables, "servers": $servers, "generators": $generators,
 "peak_connections": $peak_conns, "servers_rss_at_peak_bytes": $rss_at_peak, "servers_rss_peak_bytes": $peak_rss,
 "errors": $errors, "lost_events": $lost}
JSON
echo "hold: peak $peak_conns WebSockets held at once on $servers server processes; their RSS then $((rss_at_peak / 1048576)) MiB (peak $((peak_rss / 1048576)) MiB); errors $errors, lost $lost; details in $out"
exit "$status"
