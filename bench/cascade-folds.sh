#!/usr/bin/env bash
# Cascades and baselines on all five LETOR folds of MQ2008 (rebuilt from the
# built-in Fold1 by bench/folds.py), averaged: MQ2008's 156 test queries per
# fold make one fold's curve noisy, the mean over 784 test queries much less.
#
#   bash bench/cascade-folds.sh [TREES]     (default 500)
#
# Runs `bench/cascade.sh mq2008-fold N` for N = 1..5, then averages each
# curve point (method, λ) over the folds — cost per document and NDCG@10 — and
# prints, for every Cronus point on test, the best baseline point (prefix,
# early exit, single stage) at no higher mean cost, and the fronts at
# every cost (at each baseline point's cost too). That best baseline is
# picked on test, which favours the baselines; so the script also compares
# by budget: for each budget (each point's mean validation cost, Cronus's and the baselines'), the
# Cronus point and the baseline point a user would pick on validation (the
# best validation NDCG@10 at no more than that validation cost), on test.
# bench/paired.py then tests each of those pairs query by query (Student's
# paired t test on NDCG@10, over the five folds' 784 test queries).
# CASCADE_ARGS, LAMBDAS, UNCAPPED, VARIANTS, LAST_PREFIXES, BASE_OBJECTIVE, BASE_DEPTH, BASE_SEED, HOLDOUT and EARLY_STOP are passed on to bench/cascade.sh
# (e.g. CASCADE_ARGS=--graded, BASE_OBJECTIVE=lambdarank).
# The folds sweep the grid alone (REFINE=0): a refined λ is chosen on each
# fold's own validation set, so the folds would not share it, and the
# average point by point leaves out what one fold lacks.
set -euo pipefail
cd "$(dirname "$0")/.."
trees=${1:-500}
. bench/lib.sh
need_count "bench/cascade-folds.sh [TREES]" TREES "$trees"
for f in 1 2 3 4 5; do
  echo "== fold $f"
  REFINE=0 bash bench/cascade.sh mq2008-fold "$f" "$trees" | grep -E '^(base ensemble:|cronus at|initialisation)'
done
# Each fold's curve pools the λ grid's sweep with the uncapped one near
# λ_max (bench/cascade.sh, UNCAPPED) when it was made.
curves=()
for f in 1 2 3 4 5; do
  d=$dir/cascade-mq2008-fold$f
  if [ -f "$d/curve-uncapped.csv" ]; then curves+=("$d/curve.csv+$d/curve-uncapped.csv"); else curves+=("$d/curve.csv"); fi
done
$py bench/front.py "${curves[@]}"
# The same comparisons query by query over the five folds' 784 test
# queries (each sweep's --per-query file): which gaps are more than noise.
$py bench/paired.py "${curves[@]}"
