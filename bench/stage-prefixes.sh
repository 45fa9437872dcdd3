#!/usr/bin/env bash
# A cascade's first k stages as operating points of their own (`cronus eval
# --stages k`), on the five LETOR folds of MQ2008, against the baselines.
#
#   bash bench/stage-prefixes.sh
#
# Run it after bench/cascade-folds.sh, with the same BENCH_DIR and
# CASCADE_ARGS: it reads each fold's model and sweep (curve.csv). For each
# fold and each λ of the sweep's Cronus rows, `cronus cascade` rebuilds the
# sweep's cascade from the same arguments as bench/cascade.sh's sweep (the
# script stops unless its validation and test figures are the sweep's, to
# the last digit), then `cronus eval --stages k`, k = 1 … K−1, writes the
# first k stages' cost and quality on valid and test to
# curve-stages.csv (method cronus, λ written λ#k) and their per-query
# values to curve-stages.queries.tsv. Each fold's curve is then pooled with
# them (curve.csv+curve-stages.csv; a cut that repeats a point already there
# counts once) for bench/front.py and bench/paired.py, as
# bench/cascade-folds.sh runs them on the sweeps alone. Every point a cut
# adds is a cascade a user can run (`predict --stages k`), chosen like any
# other on validation in the by-budget comparison.
# HOLDOUT runs (bench/cascade.sh's train-cascade.txt) are not supported.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/variants.sh
# The variants: the first k stages, k = 1 … K−1 (`eval --stages k`).
variants() {
  local K
  K=$($py -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["stages"]))' "$1")
  for k in $(seq 1 $((K - 1))); do echo "$k --stages $k"; done
}
pool_variants bench/stage-prefixes.sh stages "first k stages"
