#!/usr/bin/env bash
# The cluster's figures of BENCHMARKS.md (cluster mode, docs/architecture.md), in one run, with
# every client behind a real nginx (WebSocket upgrade, as in deploy/nginx.conf and
# tests/cluster.rs) balancing as BALANCE says: `hash` (the default, as deploy/nginx.conf: every
# request and socket of a table to one process by consistent hashing on its id, the rest round
# robin) or `round-robin` (each socket and request lands on any process, not on the one that
# drives its table):
#   1. the limit: pgbench one-row appends on the same PostgreSQL (scripts/limits.sh);
#   2. for each N in PROCESSES: N server processes on one fresh database behind nginx, an
#      unthrottled luddo-load run, then (again on a fresh database and fresh processes) one
#      capped at RATE actions/s for the latency;
#   3. HOLD_TABLES 4-seat tables (4 WebSockets each) held through nginx on HOLD_SERVERS processes
#      by HOLD_GENERATORS generators (as scripts/hold.sh, but every generator at nginx).
# While each load runs, the script samples every 2 s the established connections on nginx's port
# and on the servers' ports, the servers' summed RSS, nginx's RSS (master and workers) and the
# most files one server process holds; the peaks go with each run's JSON. luddo-load reports
# the CPU time of every `luddo`, `postgres` and `nginx` process over its measured window
# (`--cpu-of`: run on an otherwise quiet machine, every PostgreSQL backend counts), and each
# run's servers' /metrics give the calls forwarded between them and the tables handed over.
#
# One process may open at most `ulimit -Hn` (20,000) files here. nginx holds both ends of each
# proxied socket, so the hold's nginx runs HOLD_NGINX_WORKERS workers (`reuseport`: the kernel
# spreads connections over them) and connects to the servers from 4 loopback addresses
# (proxy_bind), as the generators connect to it from 4 (--source-ips 4): no (source, destination)
# pair runs out of ephemeral ports. A server holds, besides its own clients' sockets, a presence
# link to the driver per socket of a table it does not drive, and the driver holds the other end:
# with S sockets spread over N processes that is S/N * (1 + 2(N-1)/N) files a process — the
# script warns when that is above the limit.
#
# Each server's pool (LUDDO_DATABASE_CONNECTIONS) is sized so that all of them, with their
# listening connections, stay under PostgreSQL's max_connections (16 each at most).
#
# Usage: scripts/cluster_load.sh [OUT_DIR]   (default: $TMPDIR/luddo-cluster-load/<date>)
# Environment: PGHOST/PGPORT/PGUSER as for limits.sh; LIMITS (a limits.json to reuse instead of
#   measuring; else PG_CLIENTS (16), PG_SECONDS (10) and WS_SECONDS (0: no fan-out) go to
#   limits.sh); BALANCE (hash); PROCESSES ("1 2 3"); RUNS ("unthrottled rate": either or both);
#   TABLES (1000); DURATION (20s); RATE (2000 actions/s, the
#   capped run); NGINX_WORKERS (2, the load runs'); HOLD_TABLES (10000; 0 skips the hold);
#   HOLD_SERVERS (3); HOLD_GENERATORS (6); HOLD_RATE (50 actions/s per generator); HOLD (30s
#   measured after every generator's ramp-up); HOLD_RAMP_TIMEOUT (30m); HOLD_NGINX_WORKERS (8);
#   SETUP (16 tables set up at once per hold generator); PORT_BASE (21000: the servers and nginx
#   listen on the free ports from there on).
# Writes, in OUT_DIR: limits.json; per run NAME (n<N>-unthrottled, n<N>-rate-<RATE>) NAME.json
#   (luddo-load's report; its RSS is the first server's), NAME.cluster.json (the sampled peaks),
#   NAME.forwarding.json (forwarded calls, hand-overs and actions from the servers' /metrics)
#   and NAME/ (the servers' and nginx's logs and configuration); hold.json and hold/; the
#   summary as summary.txt and summary.json.
# Exits 1 if any run saw an error or a lost event.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

out="$(out_dir luddo-cluster-load "${1:-}")"
processes="${PROCESSES:-1 2 3}"
tables="${TABLES:-1000}" duration="${DURATION:-20s}" rate="${RATE:-2000}"
nginx_workers="${NGINX_WORKERS:-2}"
balance="${BALANCE:-hash}"
case "$balance" in
  hash) hash_line='        hash $luddo_table consistent;' ;;
  round-robin) hash_line='' ;;
  *) echo "cluster_load: BALANCE is hash or round-robin, not $balance" >&2; exit 2 ;;
esac
hold_tables="${HOLD_TABLES:-10000}" hold_servers="${HOLD_SERVERS:-3}"
hold_generators="${HOLD_GENERATORS:-6}" hold_rate="${HOLD_RATE:-50}" hold="${HOLD:-30s}"
hold_nginx_workers="${HOLD_NGINX_WORKERS:-8}" hold_ramp_timeout="${HOLD_RAMP_TIMEOUT:-30m}"
nofile="$(ulimit -Hn)"
[ "$nofile" = unlimited ] && nofile=1048576
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
if ! "$nginx_bin" -v 2>/dev/null; then
  echo "cluster_load: nginx is not installed: apt-get install -y nginx" >&2
  exit 2
fi

cargo build -q --release -p luddo -p luddo-load --bin luddo --bin luddo-load

# What runs now, stopped by stop_cluster and, should the script fail or be interrupted, by cleanup.
db="" server_pids=() server_ports=() nginx_pid="" nginx_port="" load_pids=()
cleanup() {
  for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  stop_cluster
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# take_port: sets $port to the next port from PORT_BASE (21000) on that no socket uses. Below the
# ephemeral range (32768-60999 here), so no outgoing connection takes it before it is listened on.
next_port="${PORT_BASE:-21000}"
take_port() {
  while [ -n "$(ss -Htan "sport = :$next_port")" ]; do next_port=$((next_port + 1)); done
  port=$next_port
  next_port=$((next_port + 1))
}

# start_cluster NAME N WORKERS SOURCES: a fresh database, N server processes on it and nginx
# (WORKERS workers) in front of them, connecting to them from SOURCES loopback addresses.
start_cluster() {
  local name="$1" n="$2" workers="$3" sources="$4" dir="$out/$1" i port trusted
  mkdir -p "$dir/nginx/logs" "$dir/nginx/tmp"
  db="luddo_cluster_$(date +%s)_$$"
  psql -qX -d postgres -c "CREATE DATABASE $db" >/dev/null
  # The servers believe X-Forwarded-For from every address nginx connects from.
  trusted="$(seq -f '127.0.0.%g' 1 "$sources" | paste -sd,)"
  mapfile -t server_env < <(test_server_env)
  # Every process's pool and listening connection under PostgreSQL's max_connections, with
  # ten to spare (psql, pgbench): 16 each at most.
  local max_conns pool
  max_conns="$(psql -qAtX -d postgres -c 'SHOW max_connections')"
  pool=$(((max_conns - 10) / n - 1))
  [ "$pool" -gt 16 ] && pool=16
  for i in $(seq 1 "$n"); do
    take_port
    env "${server_env[@]}" LUDDO_ADDR="127.0.0.1:$port" LUDDO_INTERNAL_ADDR="127.0.0.1:$port" \
      LUDDO_INSTANCE_ID="$name-$i" LUDDO_TRUSTED_PROXIES="$trusted" LUDDO_DATA_DIR="$dir/data-$i" \
      LUDDO_DATABASE_CONNECTIONS="$pool" \
      DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$db?sslmode=disable" RUST_LOG=warn \
      "$target/release/luddo" >"$dir/server-$i.log" 2>&1 &
    server_pids+=($!) server_ports+=("$port")
  done
  for i in "${!server_ports[@]}"; do wait_ready "${server_ports[$i]}" "$dir" "${server_pids[$i]}"; done

  # As tests/cluster.rs's nginx, sized to hold tens of thousands of WebSockets: each worker
  # may open the hard limit of files, and holds two per proxied socket.
  local upstreams bind="" split=""
  upstreams="$(printf '        server 127.0.0.1:%s max_fails=2 fail_timeout=5s;\n' "${server_ports[@]}")"
  if [ "$sources" -gt 1 ]; then
    split="$(awk -v k="$sources" 'BEGIN {
      printf "    split_clients \"$remote_addr:$remote_port\" $luddo_source {\n"
      for (i = 1; i < k; i++) printf "        %.2f%% 127.0.0.%d;\n", int(10000 / k) / 100, i
      printf "        * 127.0.0.%d;\n    }\n", k }')"
    bind="            proxy_bind \$luddo_source;"
  fi
  take_port
  nginx_port=$port
  cat >"$dir/nginx/nginx.conf" <<NGINX
worker_processes $workers;
worker_rlimit_nofile $nofile;
error_log logs/error.log warn;
pid logs/nginx.pid;
events { worker_connections $((nofile - 500)); }
http {
    access_log off;
    client_body_temp_path tmp/body;
    proxy_temp_path tmp/proxy;
    fastcgi_temp_path tmp/fastcgi;
    uwsgi_temp_path tmp/uwsgi;
    scgi_temp_path tmp/scgi;
    map \$http_upgrade \$connection_upgrade {
        default upgrade;
        ''      close;
    }
$split
    map \$uri \$luddo_table {
        ~^/v1/tables/(?<table>[^/]+) \$table;
        default "";
    }
    upstream luddo {
$hash_line
$upstreams
    }
    server {
        # Every address (generators connect from 127.0.0.1-4); one socket per worker.
        listen 0.0.0.0:$nginx_port reuseport backlog=4096;
        location / {
            proxy_pass http://luddo;
            proxy_http_version 1.1;
            proxy_set_header Upgrade \$http_upgrade;
            proxy_set_header Connection \$connection_upgrade;
            proxy_set_header Host \$host;
            proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;
            proxy_set_header X-Luddo-Forwarded "";
$bind
            proxy_connect_timeout 2s;
            proxy_read_timeout 75s;
            proxy_send_timeout 75s;
            proxy_next_upstream error timeout;
            proxy_next_upstream_tries 3;
        }
    }
}
NGINX
  # Workers run as nobody (started as root): let them write their files.
  chmod -R a+rwx "$dir/nginx"
  "$nginx_bin" -p "$dir/nginx" -e "$dir/nginx/logs/error.log" -c nginx.conf -g 'daemon off;' \
    >"$dir/nginx/logs/stdout.log" 2>&1 &
  nginx_pid=$!
  wait_ready "$nginx_port" "$dir" "$nginx_pid"
  echo "cluster_load: $name: $n server process(es) (ports ${server_ports[*]}, $pool database connections" \
    "each) behind nginx ($balance) on :$nginx_port" >&2
}

# wait_ready PORT DIR PID: until GET /ready on PORT answers (30 s at most, while PID lives).
wait_ready() {
  for _ in $(seq 1 60); do
    curl -sf "http://127.0.0.1:$1/ready" >/dev/null && return 0
    kill -0 "$3" 2>/dev/null || break
    sleep 0.5
  done
  echo "cluster_load: nothing ready on port $1; logs in $2" >&2
  return 1
}

# stop_cluster: SIGTERM to the servers and to nginx's master (which stops its workers), then
# the database dropped.
stop_cluster() {
  local p
  for p in "${server_pids[@]}" $nginx_pid; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${server_pids[@]}" $nginx_pid; do wait "$p" 2>/dev/null || true; done
  server_pids=() server_ports=() nginx_pid=""
  if [ -n "$db" ]; then
    psql -qX -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true
    db=""
  fi
}

# forwarding FILE: the servers' forwarded calls, hand-overs and actions so far (/metrics), summed,
# as JSON in FILE.
forwarding() {
  local p forwarded=0 handovers=0 actions=0 text
  for p in "${server_ports[@]}"; do
    text="$(curl -sf "http://127.0.0.1:$p/metrics" || true)"
    forwarded=$((forwarded + $(awk '$1 == "luddo_forwarded_calls_total" {s += $2} END {printf "%d", s}' <<<"$text")))
    handovers=$((handovers + $(awk '$1 == "luddo_table_handovers_total" {s += $2} END {printf "%d", s}' <<<"$text")))
    actions=$((actions + $(awk '/^luddo_actions_total\{/ && /played_by="human"/ {s += $2} END {printf "%d", s}' <<<"$text")))
  done
  echo "{\"forwarded_calls\": $forwarded, \"handovers\": $handovers, \"human_actions\": $actions}" >"$1"
}

rss_of() { awk '/^VmRSS/ {print $2 * 1024}' "/proc/$1/status" 2>/dev/null || echo 0; }

# sample FILE: until every process of load_pids has exited, every 2 s: established connections
# on nginx's port and on the servers' ports, the servers' summed RSS, nginx's, and the most
# files one server holds; writes the peaks to FILE (JSON) and a line per sample to FILE.log.
sample() {
  local file="$1" p conns sconns rss nrss fds files
  local peak_conns=0 peak_sconns=0 peak_rss=0 rss_at_peak=0 peak_nrss=0 nrss_at_peak=0 peak_fds=0
  local nfilter sfilter
  nfilter="( sport = :$nginx_port )"
  sfilter="$(printf "sport = :%s or " "${server_ports[@]}")"
  sfilter="( ${sfilter% or } )"
  while kill -0 "${load_pids[@]}" 2>/dev/null; do
    conns=$(ss -Htn state established "$nfilter" | wc -l)
    sconns=$(ss -Htn state established "$sfilter" | wc -l)
    rss=0 fds=0
    for p in "${server_pids[@]}"; do
      rss=$((rss + $(rss_of "$p")))
      files=$(find "/proc/$p/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
      [ "$files" -gt "$fds" ] && fds=$files
    done
    nrss=0
    for p in $nginx_pid $(pgrep -P "$nginx_pid" || true); do nrss=$((nrss + $(rss_of "$p"))); done
    [ "$rss" -gt "$peak_rss" ] && peak_rss=$rss
    [ "$nrss" -gt "$peak_nrss" ] && peak_nrss=$nrss
    [ "$fds" -gt "$peak_fds" ] && peak_fds=$fds
    [ "$sconns" -gt "$peak_sconns" ] && peak_sconns=$sconns
    if [ "$conns" -gt "$peak_conns" ]; then peak_conns=$conns rss_at_peak=$rss nrss_at_peak=$nrss; fi
    echo "$(date -u +%T) nginx connections $conns, servers' connections $sconns, servers' RSS" \
      "$((rss / 1048576)) MiB, nginx RSS $((nrss / 1048576)) MiB, most files in a server $fds" >>"$file.log"
    sleep 2
  done
  cat >"$file" <<JSON
{"servers": ${#server_pids[@]}, "nginx_port": $nginx_port,
 "peak_nginx_connections": $peak_conns, "peak_server_connections": $peak_sconns,
 "servers_rss_at_peak_bytes": $rss_at_peak, "servers_rss_peak_bytes": $peak_rss,
 "nginx_rss_at_peak_bytes": $nrss_at_peak, "nginx_rss_peak_bytes": $peak_nrss,
 "server_open_files_peak": $peak_fds, "open_files_limit": $nofile}
JSON
}

status=0

# 1. The limit.
if [ -n "${LIMITS:-}" ]; then
  cp "$LIMITS" "$out/limits.json"
else
  PG_CLIENTS="${PG_CLIENTS:-16}" PG_SECONDS="${PG_SECONDS:-10}" WS_SECONDS="${WS_SECONDS:-0}" \
    scripts/limits.sh "$out/limits.json" >/dev/null
fi

# 2. N processes behind nginx: unthrottled, then capped.
for n in $processes; do
  for kind in ${RUNS:-unthrottled rate}; do
    case "$kind" in
      unthrottled) run=unthrottled ;;
      rate) run="rate-$rate" ;;
      *) echo "cluster_load: RUNS holds unthrottled and rate, not $kind" >&2; exit 2 ;;
    esac
    name="n$n-$run"
    cap=()
    [ "$run" != unthrottled ] && cap=(--rate "$rate")
    start_cluster "$name" "$n" "$nginx_workers" 1
    echo "cluster_load: $name: --tables $tables --duration $duration ${cap[*]}" >&2
    timeout 900 "$target/release/luddo-load" --url "http://127.0.0.1:$nginx_port" --tables "$tables" \
      --duration "$duration" "${cap[@]}" --server-pid "${server_pids[0]}" --limits "$out/limits.json" \
      --cpu-of luddo,postgres,nginx --quiet --json "$out/$name.json" >"$out/$name/luddo-load.out" 2>&1 &
    load_pids=($!)
    sample "$out/$name.cluster.json"
    if ! wait "${load_pids[0]}"; then
      status=1
      echo "cluster_load: $name reported errors (see $out/$name.json)" >&2
    fi
    forwarding "$out/$name.forwarding.json"
    load_pids=()
    stop_cluster
  done
done

# 3. The hold, through nginx.
if [ "$hold_tables" -gt 0 ]; then
  sockets=$((hold_tables * 4))
  # Per server: its share of the sockets, a link out for each of those on a table driven
  # elsewhere, and the other ends of the links in for its own tables.
  per_server=$((sockets / hold_servers + 2 * sockets * (hold_servers - 1) / (hold_servers * hold_servers)))
  if [ "$per_server" -gt $((nofile - 100)) ]; then
    echo "cluster_load: warning: $sockets sockets on $hold_servers processes need about $per_server files" \
      "a process (sockets, presence links out and in), above the limit of $nofile" >&2
  fi
  start_cluster hold "$hold_servers" "$hold_nginx_workers" 4
  echo "cluster_load: hold: $hold_tables tables = $sockets WebSockets, $hold_generators generators at nginx" >&2
  for g in $(seq 1 "$hold_generators"); do
    # HOLD_TABLES split evenly; the first HOLD_TABLES % HOLD_GENERATORS take one more.
    per_gen=$((hold_tables / hold_generators + (g <= hold_tables % hold_generators ? 1 : 0)))
    timeout 3h "$target/release/luddo-load" --url "http://127.0.0.1:$nginx_port" --tables "$per_gen" \
      --seats 4 --rate "$hold_rate" --duration "$hold" --ramp-timeout "$hold_ramp_timeout" \
      --setup-concurrency "${SETUP:-16}" --seed "$g" --source-ips 4 \
      --server-pid "${server_pids[$(((g - 1) % hold_servers))]}" --quiet \
      --json "$out/hold/generator-$g.json" >"$out/hold/generator-$g.out" 2>&1 &
    load_pids+=($!)
  done
  sample "$out/hold.cluster.json"
  for p in "${load_pids[@]}"; do wait "$p" || status=1; done
  load_pids=()
  stop_cluster
  python3 - "$out" "$hold_tables" "$hold_generators" <<'PY'
import glob, json, sys
out, tables, generators = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
gens = []
for f in sorted(glob.glob(f"{out}/hold/generator-*.json")):
    gens.append(json.load(open(f)))
c = json.load(open(f"{out}/hold.cluster.json"))
errors = {}
for g in gens:
    for k, v in g["errors"].items():
        errors[k] = errors.get(k, 0) + v
hold = {"tables": tables, "sockets": tables * 4, "generators": generators,
        "generator_reports": len(gens),
        "errors": sum(g["error_total"] for g in gens) if len(gens) == generators else None,
        "errors_by_kind": errors,
        "lost_events": sum(g["lost_events"]["total"] for g in gens) if len(gens) == generators else None,
        "generators_connections_peak": sum(g["connections"]["peak"] for g in gens), **c}
json.dump(hold, open(f"{out}/hold.json", "w"), indent=1)
PY
fi

# 4. The summary.
(python3 - "$out" "$processes" "$rate" <<'PY'
import json, os, sys
out, processes, rate = sys.argv[1], sys.argv[2].split(), sys.argv[3]
limits = json.load(open(f"{out}/limits.json"))
pg = limits.get("pg_append_per_s")
mib = lambda b: f"{(b or 0) / 2**20:.0f}"
summary = {"limits": limits, "runs": {}, "hold": None}
print(f"cluster_load: pgbench one-row appends: {pg}/s; results in {out}")
print("(p50/p99/max: ms from an action sent to its entry on every socket of the table; conns: peak"
      " established on nginx's port; srv MiB: the servers' summed RSS; files: most in one server;"
      " cpu µs/a: CPU per action of the servers + PostgreSQL + nginx (of which servers);"
      " fwd: calls forwarded per human action, hand-overs)")
print(f"{'run':>16} {'actions/s':>9} {'entries/s':>9} {'vs pg':>6} {'p50':>6} {'p99':>7} {'max':>7}"
      f" {'errors':>6} {'lost':>4} {'conns':>6} {'srv MiB':>7} {'nginx MiB':>9} {'files':>6}"
      f" {'cpu µs/a':>13} {'fwd':>10}")
for n in processes:
    for run in ("unthrottled", f"rate-{rate}"):
        name = f"n{n}-{run}"
        try:
            r = json.load(open(f"{out}/{name}.json"))
        except (OSError, ValueError):
            print(f"{name:>16} (no report: see {out}/{name}/luddo-load.out)")
            continue
        c = json.load(open(f"{out}/{name}.cluster.json"))
        try:
            f = json.load(open(f"{out}/{name}.forwarding.json"))
        except (OSError, ValueError):
            f = {}
        l = r["latency_ms"]
        ratio = (r.get("limits") or {}).get("entries_per_s_vs_pg_append_per_s")
        summary["runs"][name] = {"processes": int(n), "report": r, "cluster": c, "forwarding": f}
        cpu = r.get("cpu_of") or {}
        per_action = cpu.get("cpu_us_per_action") or {}
        cpu_text = f"{cpu.get('total_cpu_us_per_action')} ({per_action.get('luddo')})"
        fwd = f.get("forwarded_calls", 0) / f["human_actions"] if f.get("human_actions") else None
        fwd_text = f"{fwd:.1%} {f.get('handovers')}" if fwd is not None else "-"
        print(f"{name:>16} {r['actions_per_s']:>9} {r['entries_per_s']:>9} {ratio!s:>6} {l['p50']!s:>6}"
              f" {l['p99']!s:>7} {l['max']!s:>7} {r['error_total']:>6} {r['lost_events']['total']:>4}"
              f" {c['peak_nginx_connections']:>6} {mib(c['servers_rss_peak_bytes']):>7}"
              f" {mib(c['nginx_rss_peak_bytes']):>9} {c['server_open_files_peak']:>6}"
              f" {cpu_text:>13} {fwd_text:>10}")
if os.path.exists(f"{out}/hold.json"):
    h = summary["hold"] = json.load(open(f"{out}/hold.json"))
    print(f"hold: {h['tables']} tables = {h['sockets']} WebSockets through nginx on {h['servers']} processes:"
          f" peak {h['peak_nginx_connections']} established on nginx's port ({h['peak_server_connections']}"
          f" on the servers' ports); servers' RSS then {mib(h['servers_rss_at_peak_bytes'])} MiB"
          f" (peak {mib(h['servers_rss_peak_bytes'])}), nginx's {mib(h['nginx_rss_at_peak_bytes'])} MiB"
          f" (peak {mib(h['nginx_rss_peak_bytes'])}); most files in a server {h['server_open_files_peak']}"
          f" of {h['open_files_limit']}; errors {h['errors']} {h['errors_by_kind'] or ''}, lost {h['lost_events']}")
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
PY
) | tee "$out/summary.txt"
exit "$status"
