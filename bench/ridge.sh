#!/usr/bin/env bash
# An ℓ2 term on the stage weights (an elastic net), tried on the five LETOR
# folds of MQ2008: re-weighting overfits once a cascade keeps many trees
# (bench/MEASURED.md, "Fitting the cascade on held-out queries"), and a
# ridge term is the usual cure. It is not the paper's and not a Cronus
# option: bench/ridge.patch adds it, behind environment variables, to a copy
# of this tree built apart.
#
#   bash bench/ridge.sh [VARIANT ...]      (default: z1 z10 o0.1 o1 o10)
#
# A VARIANT is zA, ½μ Σ β_t² (towards zero), or oA, ½μ Σ (β_t − 1)²
# (towards the ensemble's own weights), with μ = A × the mean diagonal of
# HᵀΩH. Each fold's model is bench/cascade-folds.sh's (run first when one
# is missing), swept as there (top-m 5, label >= 1, λ grid LAMBDAS, default
# 0.002:0.5:8); bench/front.py then sets the fold means of the unpatched
# sweep (curve.csv) and of each variant against the baseline fronts, which
# the patch changes too: the single stage gets the term as well. The
# sweeps' warnings go to $BENCH_DIR/ridge-sweeps.log.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
variants=${*:-z1 z10 o0.1 o1 o10}
for v in $variants; do
  case "$v" in
    [zo][0-9]*) $py -c 'import sys; x = float(sys.argv[1]); sys.exit(not (x > 0 and x < 1e6))' "${v#?}" 2>/dev/null && continue ;;
  esac
  echo "bench/ridge.sh: a variant is z or o and a positive number (z1, o0.1), not '$v'" >&2
  exit 2
done
lambdas=${LAMBDAS:-0.002:0.5:8}
for f in 1 2 3 4 5; do
  if [ ! -f "$dir/cascade-mq2008-fold$f/model.json" ]; then
    echo "bench/ridge.sh: no fold models in $dir; running bench/cascade-folds.sh first"
    UNCAPPED=none bash bench/cascade-folds.sh > "$dir/ridge-folds.log"
    break
  fi
done
: > "$dir/ridge-sweeps.log"
src=$dir/ridge-src
rm -rf "$src"
mkdir -p "$src"
tar --exclude=./.git -cf - . | tar -xf - -C "$src"
patch -d "$src" -p1 -s < bench/ridge.patch
(cd "$src" && go build -o "$dir/cronus-ridge" .)
front() {
  echo "== $1"
  shift
  $py bench/front.py "$@" | grep -v '^  budget' | grep -v '^    '
}
curves() { for f in 1 2 3 4 5; do echo "$dir/cascade-mq2008-fold$f/curve$1.csv"; done; }
front "unpatched" $(curves "")
for v in $variants; do
  env=(CRONUS_RIDGE="${v#?}")
  [ "${v:0:1}" = o ] && env+=(CRONUS_RIDGE_ONE=1)
  for f in 1 2 3 4 5; do
    d=$dir/cascade-mq2008-fold$f
    env "${env[@]}" "$dir/cronus-ridge" sweep --model "$d/model.json" --train "$d/f$f-train.txt" --valid "$d/f$f-vali.txt" \
      --test "$d/f$f-test.txt" --costs builtin:mq2008/costs --rule top-m --top-m 5 --relevant 1 \
      --lambdas "$lambdas" --every-prefix --out "$d/curve-ridge-$v.csv" > /dev/null 2>> "$dir/ridge-sweeps.log"
  done
  front "$v" $(curves "-ridge-$v")
done
