#!/usr/bin/env bash
# Validates asyncapi/asyncapi.json (the document the server serves at /asyncapi.json; a test
# fails when they differ) with the official AsyncAPI parser, @asyncapi/parser, pinned in
# scripts/asyncapi/package.json and package-lock.json. Fails on any diagnostic of severity
# error; prints warnings.
#
#   scripts/asyncapi.sh
set -euo pipefail
cd "$(dirname "$0")/asyncapi"
if ! command -v npm >/dev/null 2>&1; then
  echo "asyncapi: needs Node.js (>= 20) and npm on PATH" >&2
  exit 2
fi
npm ci --no-audit --no-fund --silent
node validate.mjs ../../asyncapi/asyncapi.json
