#!/usr/bin/env bash
# Each fold's sweep run again with every cascade's variants as points of
# their own (`cronus sweep --variants`), on the five LETOR folds of MQ2008,
# against the baselines: in one sweep per fold what bench/stage-prefixes.sh,
# bench/last-prefix.sh and bench/cut-prefixes.sh pool from a `cronus eval`
# run per variant.
#
#   bash bench/sweep-variants.sh
#
# Run it after bench/cascade-folds.sh, with the same BENCH_DIR, LAMBDAS,
# REFINE and CASCADE_ARGS: it reads each fold's model and files. VARIANTS
# (default all) and LAST_PREFIXES (default the sweep's, 10,15,20,30,50,75,
# 100,150,200,300,500) are passed on as --variants and --last-prefixes.
# Each fold's curve goes to BENCH_DIR/cascade-mq2008-foldN/
# curve-variants.csv, its per-query values to curve-variants.queries.tsv;
# the script stops unless its rows without a variant are the fold's
# curve.csv, byte for byte (the same sweep). Then bench/front.py and
# bench/paired.py run on the five curves (each pooled with the fold's
# curve-uncapped.csv where there is one, as bench/cascade-folds.sh pools
# it). Two folds at a time. HOLDOUT runs (bench/cascade.sh's
# train-cascade.txt) are not supported.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 0 ] || { echo "usage: bash bench/sweep-variants.sh (no arguments; BENCH_DIR, LAMBDAS, REFINE and CASCADE_ARGS as for bench/cascade-folds.sh; VARIANTS, LAST_PREFIXES)" >&2; exit 2; }
. bench/lib.sh
need_folds bench/sweep-variants.sh
lambdas=${LAMBDAS:-0.002:0.5:8}
refine=${REFINE:-0}
need_count "REFINE=N bash bench/sweep-variants.sh" REFINE "$refine" 0
c=$dir/cronus
go build -o "$c" .
# sweep FOLD: the fold's sweep with the variants.
sweep() {
  local f=$1 d=$dir/cascade-mq2008-fold$1
  if [ -f "$d/train-cascade.txt" ]; then
    echo "bench/sweep-variants.sh: $d was made with HOLDOUT, which this script does not run" >&2
    return 1
  fi
  local common=(--model "$d/model.json" --train "$d/f$f-train.txt" --valid "$d/f$f-vali.txt" --test "$d/f$f-test.txt" --costs builtin:mq2008/costs)
  cascade_args common
  local more=(--variants "${VARIANTS:-all}")
  [ -n "${LAST_PREFIXES:-}" ] && more+=(--last-prefixes "$LAST_PREFIXES")
  /usr/bin/time -f '%e' -o "$d/curve-variants.time" "$c" sweep "${common[@]}" --lambdas "$lambdas" --refine "$refine" --every-prefix "${more[@]}" \
    --out "$d/curve-variants.csv" --per-query "$d/curve-variants.queries.tsv" > /dev/null 2> "$d/curve-variants.log" \
    || { cat "$d/curve-variants.log" >&2; return 1; }
  if ! cmp -s <(grep -v '#' "$d/curve-variants.csv") "$d/curve.csv"; then
    echo "bench/sweep-variants.sh: $d/curve-variants.csv: its rows without a variant are not $d/curve.csv: not the same sweep (LAMBDAS, REFINE, CASCADE_ARGS?)" >&2
    return 1
  fi
  echo "fold $f: $(grep -c '#' "$d/curve-variants.csv") rows of variants, $(cat "$d/curve-variants.time") s"
}
for f in 1 3 5; do
  pids=()
  sweep "$f" & pids+=($!)
  [ "$f" -lt 5 ] && { sweep $((f + 1)) & pids+=($!); }
  for p in "${pids[@]}"; do wait "$p"; done
done
curves=()
for f in 1 2 3 4 5; do
  d=$dir/cascade-mq2008-fold$f
  curve=$d/curve-variants.csv
  [ -f "$d/curve-uncapped.csv" ] && curve+="+$d/curve-uncapped.csv"
  curves+=("$curve")
done
$py bench/front.py "${curves[@]}"
$py bench/paired.py "${curves[@]}"
