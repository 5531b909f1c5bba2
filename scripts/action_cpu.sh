#!/usr/bin/env bash
# The server's CPU per HTTP action, a base revision against the working tree, in one run (the
# figures of BENCHMARKS.md "CPU per HTTP action"). Both servers are built in release, each into
# its own target directory under .bench/action-cpu/ (ignored through .git/info/exclude), then
# each is run RUNS times, alternating, on a fresh SQLite file: TABLES tables of SEATS seats whose
# every action is posted over HTTP (luddo-load --http-actions) for DURATION. A run's figure is
# the server's utime + stime over the measured phase (/proc/PID/stat) divided by the actions it
# accepted.
#
# Usage: scripts/action_cpu.sh [BASE_REV]   (default 2124c3e)
# Environment: TABLES (50), SEATS (4), DURATION (20s), RUNS (3), OUT (where the JSON goes;
#   default $TMPDIR/luddo-action-cpu/<date>).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/common.sh

base_rev="${1:-2124c3e}"
tables="${TABLES:-50}"
seats="${SEATS:-4}"
duration="${DURATION:-20s}"
runs="${RUNS:-3}"
bench="$PWD/.bench/action-cpu"
out="$(out_dir luddo-action-cpu "${OUT:-}")"

exclude="$(git rev-parse --git-path info/exclude)"
mkdir -p "$(dirname "$exclude")" "$bench"
grep -qx '/.bench/' "$exclude" 2>/dev/null || echo '/.bench/' >>"$exclude"

# The base revision's tree, exported once per revision, and its server.
src="$bench/base-src"
if [ "$(cat "$src/.rev" 2>/dev/null)" != "$base_rev" ]; then
  rm -rf "$src"
  mkdir -p "$src"
  git archive "$base_rev" | tar -x -C "$src"
  echo "$base_rev" >"$src/.rev"
fi
echo "action_cpu: building $base_rev and the working tree (release)" >&2
(cd "$src" && CARGO_TARGET_DIR="$bench/base-target" cargo build -q --release -p luddo --bin luddo)
CARGO_TARGET_DIR="$bench/after-target" cargo build -q --release -p luddo -p luddo-load --bin luddo --bin luddo-load
load="$bench/after-target/release/luddo-load"

uptime | sed 's/^/action_cpu: load before: /' >&2
for i in $(seq 1 "$runs"); do
  for which in base after; do
    echo "action_cpu: run $i, $which" >&2
    "$load" --spawn-server "$bench/$which-target/release/luddo" --url http://127.0.0.1:0 \
      --tables "$tables" --seats "$seats" --duration "$duration" --http-actions --quiet \
      --json "$out/$which-$i.json" >/dev/null || echo "action_cpu: $which run $i reported errors" >&2
  done
done
uptime | sed 's/^/action_cpu: load after: /' >&2

python3 - "$out" "$base_rev" "$(git rev-parse --short HEAD)" <<'PY'
import glob, json, statistics, subprocess, sys
out, base, head = sys.argv[1:]
lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
info = dict(l.split(":", 1) for l in lscpu.splitlines() if ":" in l)
print(f'machine: {info.get("Model name", "?").strip()}, {info.get("CPU(s)", "?").strip()} CPUs')
for which, rev in (("base", base), ("after", f"{head} + working tree")):
    figures = []
    for path in sorted(glob.glob(f"{out}/{which}-*.json")):
        r = json.load(open(path))
        us = r["server"]["cpu_us_per_action"]
        figures.append(us)
        print(f'{which:>5} {path.split("/")[-1]:>14}: {us} µs CPU per action, {r["actions_ok"]} actions '
              f'({r["actions_per_s"]}/s), cpu {r["server"]["cpu_s"]} s, errors {r["error_total"]}')
    known = [f for f in figures if f is not None]
    if known:
        print(f'{which:>5} ({rev}): median {statistics.median(known):.0f} µs CPU per action over {len(known)} runs')
PY
echo "action_cpu: results in $out" >&2
