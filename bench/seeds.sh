#!/usr/bin/env bash
# The MQ2008 five-fold front for several base ensembles of one kind: each
# seed of SEEDS draws the base ensembles' column sampling (cronus train
# --seed, bench/cascade.sh's BASE_SEED), bench/cascade-folds.sh runs it in
# BENCH_DIR/seed-S (its whole output in BENCH_DIR/seed-S.log, its summary
# lines here), and bench/front.py then averages every seed's five curves
# together: each point's mean over the SEEDS × 5 curves, each curve pooled
# with its uncapped sweep where there is one. A figure met by one base
# ensemble and missed by the next is the draw, not the method.
# bench/paired.py is not run on the average: it holds the same 784 test
# queries once per seed, which its t test would take for independent
# queries (each seed's own paired.py is in its log).
#
#   SEEDS="1 2 3" bash bench/seeds.sh [TREES]     (default SEEDS 1 2 3, TREES 500)
#
# BASE_DEPTH, BASE_OBJECTIVE, LAMBDAS, UNCAPPED, VARIANTS, LAST_PREFIXES,
# CASCADE_ARGS, HOLDOUT and EARLY_STOP as for bench/cascade-folds.sh (e.g. VARIANTS=all
# BASE_DEPTH=1 LAMBDAS=0.002:0.5:16 for the stumps of the Measured
# section). POOL_ONLY=1 runs no seed: it averages the runs already in
# BENCH_DIR/seed-S.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
trees=${1:-500}
need_count "bench/seeds.sh [TREES]" TREES "$trees"
[ $# -le 1 ] || { echo "usage: SEEDS=\"1 2 3\" bash bench/seeds.sh [TREES]" >&2; exit 2; }
seeds=${SEEDS-1 2 3}
seen=" "
for s in $seeds; do
  need_count "SEEDS=\"1 2 3\" bash bench/seeds.sh [TREES]" "each of SEEDS" "$s" 0
  [[ "$seen" != *" $s "* ]] || { echo "usage: SEEDS=\"1 2 3\" bash bench/seeds.sh [TREES] (seed $s given twice)" >&2; exit 2; }
  seen+="$s "
done
[ "$seen" != " " ] || { echo "usage: SEEDS=\"1 2 3\" bash bench/seeds.sh [TREES] (SEEDS is empty)" >&2; exit 2; }
curves=()
for s in $seeds; do
  sd=$dir/seed-$s
  if [ "${POOL_ONLY:-0}" != 1 ]; then
    echo "== seed $s (BENCH_DIR=$sd; all of it in $sd.log)"
    mkdir -p "$sd"
    BENCH_DIR=$sd BASE_SEED=$s bash bench/cascade-folds.sh "$trees" > "$sd.log" 2>&1 || { tail -20 "$sd.log" >&2; exit 1; }
    grep -E '^(== fold|base ensemble:|valid|test|by budget)|at every cost|on or above the baseline at|the smallest p' "$sd.log" || true
  fi
  for f in 1 2 3 4 5; do
    d=$sd/cascade-mq2008-fold$f
    [ -f "$d/curve.csv" ] || { echo "bench/seeds.sh: no $d/curve.csv: run it without POOL_ONLY first" >&2; exit 1; }
    curve=$d/curve.csv
    [ -f "$d/curve-uncapped.csv" ] && curve+="+$d/curve-uncapped.csv"
    curves+=("$curve")
  done
done
echo "== the ${#curves[@]} curves of seeds ${seeds} averaged"
$py bench/front.py "${curves[@]}"
