#!/usr/bin/env bash
# Run both crash harnesses with the DuckDB of each given virtualenv; JSON and logs into OUT.
# Usage: benchmarks/crash/run_all.sh OUT KILLS_PLAIN KILLS_EVALHOUSE VENV...
set -u
out=$1; plain=$2; kills=$3; shift 3
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
# the campaign measures DuckDB 1.5's tears too: evalhouse writes with 1.5 only when told to (docs/crash-safety.md)
export EVALHOUSE_ALLOW_DUCKDB_1_5_WRITES=1
for venv in "$@"; do
  v=$("$venv/bin/python" -c 'import duckdb; print(duckdb.__version__)')
  "$venv/bin/python" "$here/duckdb_commit_kill.py" --kills "$plain" --allow-torn --json "$out/plain-$v.json" > "$out/plain-$v.log" 2>&1
  for s in treebank outputs analyze export; do
    "$venv/bin/python" "$here/evalhouse_kill.py" --scenario "$s" --kills "$kills" --allow-torn \
      --workdir "$out/work-$v" --json "$out/$s-$v.json" > "$out/$s-$v.log" 2>&1
  done
done
