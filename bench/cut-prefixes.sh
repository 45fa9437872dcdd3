#!/usr/bin/env bash
# A cascade's first k stages with the k-th a prefix of the ensemble
# (`cronus eval --cascade C --stages k --last-prefix n`), on the five LETOR
# folds of MQ2008, against the baselines: bench/stage-prefixes.sh's cuts
# and bench/last-prefix.sh's prefixes together.
#
#   bash bench/cut-prefixes.sh
#   bash bench/cut-prefixes.sh --variants CASCADE.json   (the variants of
#     one cascade, one "SUFFIX ARGS..." line each, and nothing run)
#
# Run it after bench/cascade-folds.sh, with the same BENCH_DIR and
# CASCADE_ARGS: it reads each fold's model and sweep (curve.csv). For each
# fold and each λ of the sweep's Cronus rows, `cronus cascade` rebuilds the
# sweep's cascade (the script stops unless its validation and test figures
# are the sweep's, to the last digit), then for k = 2 … K−1 and each n of
# LAST_PREFIXES (default 10,15,20,30,50,75,100,150,200,300,500; those
# above the ensemble's trees are left out) `cronus eval --stages k
# --last-prefix n` writes the cost and quality on valid and test of the
# cascade whose first k−1 stages filter as Cronus trained them and whose
# k-th ranks the documents reaching it by the ensemble's first n trees, to
# curve-cutprefix.csv (method cronus, λ written λ#kpn) and their per-query
# values to curve-cutprefix.queries.tsv. k = 1 is left out: with no stage
# before it, it is the prefix baseline itself; so is any k whose earlier
# stages keep no tree (they pass every document, at no cost); k = K is
# bench/last-prefix.sh's. Each fold's curve is then pooled with them, and
# with the curves of bench/last-prefix.sh and bench/stage-prefixes.sh
# where the run has them (curve-lastprefix.csv, curve-stages.csv), for
# bench/front.py and bench/paired.py. Every point is a cascade a user can
# run (`predict --stages k --last-prefix n`).
# HOLDOUT runs (bench/cascade.sh's train-cascade.txt) are not supported.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/variants.sh
read_prefixes bench/cut-prefixes.sh
# The variants: stage k the ensemble's first n trees, for each k of 2 …
# K−1 whose earlier stages keep a tree, and each n of LAST_PREFIXES up to
# the ensemble's trees.
variants() {
  local T ks out
  out=$($py -c '
import json, sys
c = json.load(open(sys.argv[1]))
st = c["stages"]
first = next((i for i, s in enumerate(st) if s.get("trees")), len(st))  # the first stage keeping a tree (0-based)
print(len(c["ensemble"]["trees"]), *range(max(2, first + 2), len(st)))' "$1") || exit 1
  read -r T ks <<< "$out"
  for k in $ks; do
    for n in ${prefixes//,/ }; do
      [ "$n" -le "$T" ] && echo "${k}p$n --stages $k --last-prefix $n"
    done
  done
  return 0
}
if [ "${1:-}" = --variants ]; then
  [ $# = 2 ] || { echo "usage: bash bench/cut-prefixes.sh [--variants CASCADE.json]" >&2; exit 2; }
  variants "$2"
  exit
fi
[ $# = 0 ] || { echo "usage: bash bench/cut-prefixes.sh [--variants CASCADE.json]" >&2; exit 2; }
POOL_ALSO="lastprefix stages" pool_variants bench/cut-prefixes.sh cutprefix "first k stages, the k-th a prefix of the ensemble"
