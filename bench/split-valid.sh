#!/usr/bin/env bash
# What choosing on validation adds to validation figures, on the five LETOR
# folds of MQ2008. `cronus sweep` chooses ρ on validation (Cronus's and the
# single stage's) and keeps Cronus's best cycle on validation, so each of
# their validation points is the best of several, and the validation front
# (and the by-budget choice) sees them at their luckiest.
#
#   bash bench/split-valid.sh
#
# Run it after bench/cascade-folds.sh, with the same BENCH_DIR, LAMBDAS and
# CASCADE_ARGS: it reads each fold's model and files. Each fold's
# validation queries are halved (bench/holdout.py 0.5: A and B, every
# other query). For each half S (O the other), two sweeps choose on S
# (--valid S), one scoring O as its test set and one the fold's test set;
# they choose alike, so their rows are the same points. Then
# bench/splitvalid.py prints, per method, how much higher the half that
# chose scores than the other half (the halves' own difference cancels
# over the two directions), and bench/front.py compares Cronus with the
# baselines twice per half: validation the half that chose (as the sweep
# reports it), and validation the other half (which chose nothing); test
# the same in both, so the by-budget lines differ in the choice alone.
# Outputs in BENCH_DIR/split-valid/foldN. About 4 sweeps per fold, two at
# a time. HOLDOUT runs (bench/cascade.sh's train-cascade.txt) are not
# supported.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 0 ] || { echo "usage: bash bench/split-valid.sh (no arguments; BENCH_DIR, LAMBDAS and CASCADE_ARGS as for bench/cascade-folds.sh)" >&2; exit 2; }
. bench/lib.sh
base=$dir
lambdas=${LAMBDAS:-0.002:0.5:8}
need_folds bench/split-valid.sh
out=$dir/split-valid
mkdir -p "$out"
c=$out/cronus
go build -o "$c" .
# sweep FOLD S O: the two sweeps choosing on half S.
sweep() {
  local f=$1 s=$2 o=$3 d=$base/cascade-mq2008-fold$1 w=$out/fold$1
  local common=(--model "$d/model.json" --train "$d/f$f-train.txt" --valid "$w/$s.txt" --costs builtin:mq2008/costs --lambdas "$lambdas" --every-prefix --threads 1)
  cascade_args common
  "$c" sweep "${common[@]}" --test "$w/$o.txt" --out "$w/sel$s-on$o.csv" --per-query "$w/sel$s-on$o.queries.tsv" > /dev/null 2> "$w/sel$s-on$o.log"
  "$c" sweep "${common[@]}" --test "$d/f$f-test.txt" --out "$w/sel$s-ontest.csv" --per-query "$w/sel$s-ontest.queries.tsv" > /dev/null 2> "$w/sel$s-ontest.log"
}
for f in 1 2 3 4 5; do
  w=$out/fold$f
  mkdir -p "$w"
  $py bench/holdout.py "$base/cascade-mq2008-fold$f/f$f-vali.txt" 0.5 "$w/A.txt" "$w/B.txt" > /dev/null
  sweep "$f" A B &
  a=$!
  sweep "$f" B A &
  b=$!
  wait "$a"
  wait "$b"
  echo "fold $f swept"
done
dirs=()
for f in 1 2 3 4 5; do dirs+=("$out/fold$f"); done
$py bench/splitvalid.py bias "${dirs[@]}"
for s in A B; do
  o=$([ "$s" = A ] && echo B || echo A)
  same=()
  other=()
  for f in 1 2 3 4 5; do
    w=$out/fold$f
    $py bench/splitvalid.py merge "$w/sel$s-on$o.csv" "$w/sel$s-ontest.csv" "$w/other$s.csv"
    same+=("$w/sel$s-ontest.csv")
    other+=("$w/other$s.csv")
  done
  echo
  echo "== chosen on half $s; validation: half $s, which chose"
  $py bench/front.py "${same[@]}" | grep -v -E '^  (λ |budget )|^    '
  echo
  echo "== chosen on half $s; validation: half $o, which did not"
  $py bench/front.py "${other[@]}" | grep -v -E '^  (λ |budget )|^    '
done
