#!/usr/bin/env bash
# Other ways to choose ρ, offline, on the five LETOR folds of MQ2008.
# `cronus sweep` chooses ρ per λ on validation (§3.4: the initialised
# cascade's NDCG@10; --rho-rule 1se the one-standard-error rule). To try a
# rule without a sweep per rule, this script runs one sweep per ρ of the
# grid, each fixing that ρ (--rhos R), and bench/rhochoose.py picks from
# them per λ by each rule and writes the curve that rule gives.
#
#   bash bench/fixed-rho.sh
#
# Run it after bench/cascade-folds.sh, with the same BENCH_DIR, LAMBDAS and
# CASCADE_ARGS: it reads each fold's model and files. RHOS is the grid
# (default cronus's, 0.0002 0.001 0.005 0.02 0.05 0.1, in that order);
# RULES the rules (default "best 1se optimised grid"; fixed:R too, see
# bench/rhochoose.py). Outputs in BENCH_DIR/fixed-rho/foldN: rhoR.csv and
# rhoR.queries.tsv per ρ (kept, and reused by the next run with the same
# sweep arguments, its args.txt), RULE.csv and RULE.queries.tsv per rule.
# For each rule it prints the ρ picked per fold and λ, whether the fold's
# curve is the same as bench/cascade-folds.sh's (best should be, byte for
# byte, where no λ continued from another: see rhochoose.py), and
# bench/front.py's and bench/paired.py's summaries over the five folds: the
# λ grid alone, as cascade-folds.sh's first table. Six sweeps per fold, two
# at a time. HOLDOUT runs are not supported.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 0 ] || { echo "usage: bash bench/fixed-rho.sh (no arguments; BENCH_DIR, LAMBDAS and CASCADE_ARGS as for bench/cascade-folds.sh, RHOS and RULES)" >&2; exit 2; }
. bench/lib.sh
base=$dir
lambdas=${LAMBDAS:-0.002:0.5:8}
rhos=(${RHOS:-0.0002 0.001 0.005 0.02 0.05 0.1})
rules=(${RULES:-best 1se optimised grid})
[ ${#rhos[@]} -ge 2 ] || { echo "bench/fixed-rho.sh: RHOS needs at least two values to choose from" >&2; exit 2; }
for r in "${rules[@]}"; do
  case $r in best|1se|optimised|grid|grid-init|fixed:?*) ;; *) echo "bench/fixed-rho.sh: RULES: unknown rule '$r' (best, 1se, optimised, grid, grid-init or fixed:R)" >&2; exit 2 ;; esac
done
need_folds bench/fixed-rho.sh
out=$dir/fixed-rho
mkdir -p "$out"
c=$out/cronus
go build -o "$c" .
common() {
  local f=$1 d=$base/cascade-mq2008-fold$1
  args=(--model "$d/model.json" --train "$d/f$f-train.txt" --valid "$d/f$f-vali.txt" --test "$d/f$f-test.txt" --costs builtin:mq2008/costs --lambdas "$lambdas" --every-prefix --threads 1)
  cascade_args args
}
# sweep FOLD RHO: the sweep fixing ρ RHO.
sweep() {
  local f=$1 r=$2 w=$out/fold$1
  common "$f"
  "$c" sweep "${args[@]}" --rhos "$r" --out "$w/rho$r.csv" --per-query "$w/rho$r.queries.tsv" > /dev/null 2> "$w/rho$r.log"
}
for f in 1 2 3 4 5; do
  w=$out/fold$f
  mkdir -p "$w"
  common "$f"
  # The sweeps of another set-up are not reused.
  if [ "$(cat "$w/args.txt" 2>/dev/null)" != "${args[*]}" ]; then
    rm -f "$w"/rho*.csv "$w"/rho*.queries.tsv
    printf '%s\n' "${args[*]}" > "$w/args.txt"
  fi
  todo=()
  for r in "${rhos[@]}"; do
    [ -f "$w/rho$r.csv" ] && [ -f "$w/rho$r.queries.tsv" ] || todo+=("$r")
  done
  i=0
  while [ $i -lt ${#todo[@]} ]; do
    sweep "$f" "${todo[$i]}" &
    a=$!
    b=
    if [ $((i + 1)) -lt ${#todo[@]} ]; then
      sweep "$f" "${todo[$((i + 1))]}" &
      b=$!
    fi
    wait "$a"
    [ -z "$b" ] || wait "$b"
    i=$((i + 2))
  done
  echo "fold $f: ${#rhos[@]} fixed-ρ sweeps (${#todo[@]} run, the rest reused)"
done
for rule in "${rules[@]}"; do
  name=${rule/:/-}
  curves=()
  echo
  echo "== ρ by $rule"
  for f in 1 2 3 4 5; do
    w=$out/fold$f
    in=()
    for r in "${rhos[@]}"; do in+=("$w/rho$r.csv"); done
    $py bench/rhochoose.py "$rule" "$w/$name.csv" "${in[@]}" | sed "s/^/fold $f: /"
    std=$base/cascade-mq2008-fold$f/curve.csv
    if [ -f "$std" ]; then
      if cmp -s "$w/$name.csv" "$std"; then same="the same as"; else same="differs from"; fi
      echo "fold $f: $rule's curve $same $std"
    fi
    curves+=("$w/$name.csv")
  done
  $py bench/front.py "${curves[@]}" | grep -v -E '^  (λ |budget )|^    '
  $py bench/paired.py "${curves[@]}" | grep -v -E '^  (λ |budget |from budget |\(each pair)|^    '
done
