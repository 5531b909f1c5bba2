#!/usr/bin/env python3
"""Imports a `.mat` match file into GNU Backgammon (the Python package `gnubg`) and writes what
gnubg read as JSON: `gnubg.match()` (the match's information and every game's moves and cube
actions, as gnubg keeps them).

    .venv/bin/python scripts/gnubg_import.py MATCH.mat OUT.json

tests/records.rs runs it (with the Python named by GNUBG_PYTHON) on the `.mat` records of
matches played over HTTP, and compares what gnubg read with the table's log. gnubg prints the
board as it imports; that goes to stdout, the JSON to OUT.json. gnubg does not take a money
game's Jacoby rule from the file's `[Jacoby]` tag (its own setting, on by default, applies), so
this sets it from the tag first.
"""

import json
import sys

import gnubg


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, out = sys.argv[1], sys.argv[2]
    if any(c in path for c in "\"' \n"):
        sys.exit("the .mat file's path must not hold quotes, spaces or newlines")
    # gnubg reads the [Jacoby] tag but keeps its own setting (on by default) for money games.
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith('; [Jacoby "'):
                gnubg.command("set jacoby " + ("on" if '"On"' in line else "off"))
    gnubg.command(f"import mat {path}")
    match = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    with open(out, "w") as f:
        json.dump(match, f, default=list)


if __name__ == "__main__":
    main()
