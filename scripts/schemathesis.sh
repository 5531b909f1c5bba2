#!/usr/bin/env bash
# Property-based tests of the HTTP API from the spec it serves, /openapi.json (schemathesis): builds the server,
# starts it on SQLite on a free loopback port (test mode and scripts/test-server.env), signs up
# a player for a bearer token, runs schemathesis against every route but the WebSocket, and
# stops the server. Fails on a 5xx, a response the spec does not document or whose body breaks
# its schema, or a panic in the server's log.
#
#   scripts/schemathesis.sh                 # 100 examples per operation
#   MAX_EXAMPLES=1000 scripts/schemathesis.sh
#
# Needs `schemathesis` (pip install schemathesis; 4.x) on PATH, or SCHEMATHESIS=/path/to/it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

MAX_EXAMPLES="${MAX_EXAMPLES:-100}"
SEED="${SEED:-$RANDOM}"
SCHEMATHESIS="${SCHEMATHESIS:-schemathesis}"
if ! command -v "$SCHEMATHESIS" >/dev/null 2>&1; then
  echo "schemathesis is not installed: pip install schemathesis" >&2
  exit 2
fi

cargo build --quiet --bin luddo
bin="$target/debug/luddo"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
work="$(mktemp -d)"
mapfile -t server_env < <(test_server_env)
env "${server_env[@]}" LUDDO_ADDR="127.0.0.1:$port" LUDDO_DATA_DIR="$work/data" LUDDO_TEST_MODE=1 \
  RUST_LOG=warn "$bin" >"$work/server.log" 2>&1 &
server=$!
stop() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap stop EXIT

for _ in $(seq 1 100); do
  curl -sf "$base/ready" >/dev/null && break
  sleep 0.1
done
curl -sf "$base/ready" >/dev/null

token="$(curl -sf -X POST "$base/v1/players" -H 'content-type: application/json' \
  -d '{"name":"Schemathesis"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])')"

echo "schemathesis: $MAX_EXAMPLES examples per operation, seed $SEED, server $base"
root="$(pwd)"
status=0
# From the scratch directory, so schemathesis's cache (.schemathesis/) goes with it.
cd "$work"
"$SCHEMATHESIS" --config-file "$root/scripts/schemathesis.toml" run "$base/openapi.json" \
  --url "$base" \
  --header "Authorization: Bearer $token" \
  --checks all \
  --exclude-path '/v1/tables/{id}/events' \
  --exclude-path-regex '^/(docs|web/|$)' \
  --max-examples "$MAX_EXAMPLES" \
  --seed "$SEED" \
  --workers 2 \
  --suppress-health-check all \
  --warnings off \
  --report junit --report-dir "${SCHEMATHESIS_REPORT_DIR:-$root/target/schemathesis}" || status=$?

if grep -E "panicked|internal error" "$work/server.log"; then
  echo "the server logged a panic or an internal error" >&2
  status=1
fi
exit "$status"
