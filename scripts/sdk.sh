#!/usr/bin/env bash
# The TypeScript SDK end to end (clients/typescript/): builds the server, starts it on SQLite on a
# free loopback port (scripts/test-server.env's settings, a fresh data directory), installs the
# SDK's pinned packages (npm ci), generates the client from the spec the server serves
# (GET /openapi.json, which must answer: there is no fallback), compiles everything with
# `tsc --strict` (the type-level test included: an exhaustive switch on every game's actions and
# events), runs the WebSocket helpers' tests (a scripted fake socket), and plays one game of
# each kind to the end with the example (examples/play-all.ts: lobby entries, then the start, and
# the end rendered from the last entry's state; public tables, so fresh dice: the player's chain
# committed, a reveal with each roll, and each finished table's record verified by the SDK's
# `verify`, the player's reveals among what it checked). Then the package as its users get it: `npm pack`
# (which builds dist/: ESM and .d.ts) into a scratch folder, a check that the tarball holds only
# what ships, an empty project that installs the tarball, `tsc --strict` on a Node example and a
# browser one (DOM types, no Node types) that import '@luddo/client', and the Node example,
# compiled, run against the server twice: on the `ws` package and on the global WebSocket
# (consumer/example.ts: a game played over the socket, the lobby followed). Stops the server;
# fails on any failure, or on a panic in the server's log.
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

# The package, installed from its tarball into an empty project.
version="$(node -p 'require("./package.json").version')"
npm pack --pack-destination "$work" --silent
tarball="$work/luddo-client-$version.tgz"
test -f "$tarball" || { echo "sdk: npm pack wrote no $tarball" >&2; exit 1; }
listing="$(tar -tzf "$tarball")"
unexpected="$(echo "$listing" | grep -vE '^package/(dist/.+\.(js|d\.ts)|README\.md|LICENSE-MIT|LICENSE-APACHE|package\.json)$' || true)"
if [ -n "$unexpected" ]; then
  echo "sdk: the tarball holds files that do not ship:" >&2
  echo "$unexpected" >&2
  exit 1
fi
for shipped in dist/index.js dist/index.d.ts dist/generated/sdk.gen.js dist/lobby.js LICENSE-MIT LICENSE-APACHE; do
  grep -qx "package/$shipped" <<<"$listing" || { echo "sdk: the tarball lacks $shipped" >&2; exit 1; }
done
tsc="$PWD/node_modules/typescript/bin/tsc"
types_node="$(node -p 'require("./package.json").devDependencies["@types/node"]')"
project="$work/project"
mkdir "$project"
cp consumer/example.ts consumer/browser.ts consumer/tsconfig.json consumer/tsconfig.browser.json "$project/"
(
  cd "$project"
  npm init -y >/dev/null
  npm pkg set type=module
  npm install --prefer-offline --no-audit --no-fund --loglevel=error "$tarball" "@types/node@$types_node"
  node "$tsc" --strict --noEmit -p tsconfig.json
  node "$tsc" --strict --noEmit -p tsconfig.browser.json
  node "$tsc" -p tsconfig.json
)
echo "sdk: $(basename "$tarball") installs into an empty project and type-checks (Node and browser)"
# Both WebSocket implementations: whichever this Node has by default, then the other.
if node -e 'process.exit(typeof WebSocket === "function" ? 0 : 1)'; then other=--no-experimental-websocket; else other=--experimental-websocket; fi
timeout 60 node "$project/out/example.js" "$base" || status=$?
timeout 60 node "$other" --no-warnings "$project/out/example.js" "$base" || status=$?
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
