#!/usr/bin/env bash
# The TypeScript SDK end to end (clients/typescript/): builds the server, starts it on SQLite on a
# free loopback port (scripts/test-server.env's settings, a fresh data directory), installs the
# SDK's pinned packages (npm ci), generates the client from the spec the server serves
# (GET /openapi.json, which must answer: there is no fallback), compiles everything with
# `tsc --strict` (the type-level test included: an exhaustive switch on every game's actions and
# events), runs the WebSocket helper's tests (a scripted fake socket), and plays one game of
# each kind to the end with the example (examples/play-all.ts: lobby entries, then the start, and
# the end rendered from the last entry's state). Stops the server; fails on any failure, or on a
# panic in the server's log.
#
#   scripts/sdk.sh
#   LUDDO_BIN=/path/to/luddo scripts/sdk.sh     # a server built elsewhere: no cargo build
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

needs_npm sdk
bin="$(luddo_bin)"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
work="$(mktemp -d)"
mapfile -t server_env < <(test_server_env)
env "${server_env[@]}" LUDDO_ADDR="127.0.0.1:$port" LUDDO_DATA_DIR="$work/data" RUST_LOG=warn \
  "$bin" >"$work/server.log" 2>&1 &
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

cd clients/typescript
npm ci --no-audit --no-fund --loglevel=error
npm run --silent generate -- "$base/openapi.json"
npx tsc --strict --noEmit -p .
npm test --silent
status=0
timeout 150 npx tsx examples/play-all.ts "$base" || status=$?
cd - >/dev/null

if grep -E "panicked|internal error" "$work/server.log"; then
  echo "sdk: the server logged a panic or an internal error" >&2
  status=1
fi
if [ "$status" -ne 0 ]; then
  echo "sdk: FAILED (exit $status); the server's log:" >&2
  tail -n 50 "$work/server.log" >&2
fi
exit "$status"
