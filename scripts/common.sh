# Sourced by the scripts in this folder (after `cd` to the repository root): what they share.

# The local PostgreSQL, as psql, pgbench and the servers reach it (trust auth, as in .ci/run).
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
# Where cargo puts the binaries of the workspace (the server and crates/luddo-load alike).
target="${CARGO_TARGET_DIR:-target}"
# As many open files as this machine lets a process have: every WebSocket is one.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

# test_server_env: prints the settings of every server started for a test or a measurement
# (scripts/test-server.env, which the Rust programs that start servers read too), one NAME=value
# a line, for `env`: mapfile -t server_env < <(test_server_env); env "${server_env[@]}" … luddo
test_server_env() {
  grep -Ev '^[[:space:]]*(#|$)' scripts/test-server.env
}

# out_dir DEFAULT_NAME [GIVEN]: prints GIVEN, or $TMPDIR/DEFAULT_NAME/<UTC time>; creates it.
out_dir() {
  local dir="${2:-${TMPDIR:-/tmp}/$1/$(date -u +%Y%m%dT%H%M%SZ)}"
  mkdir -p "$dir"
  echo "$dir"
}

# needs_npm NAME: exits 2 with NAME's message unless Node.js and npm are on PATH.
needs_npm() {
  if ! command -v npm >/dev/null 2>&1; then
    echo "$1: needs Node.js (>= 20.19) and npm on PATH" >&2
    exit 2
  fi
}

# luddo_bin: prints the server binary to test: $LUDDO_BIN when set (a server built elsewhere),
# else the debug build, built now.
luddo_bin() {
  if [ -n "${LUDDO_BIN:-}" ]; then
    echo "$LUDDO_BIN"
  else
    cargo build --quiet --bin luddo >&2
    echo "$target/debug/luddo"
  fi
}
