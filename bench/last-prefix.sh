#!/usr/bin/env bash
# Cascades whose last stage is the base ensemble's own prefix (`cronus eval
# --cascade C --last-prefix n`), on the five LETOR folds of MQ2008, against
# the baselines.
#
#   bash bench/last-prefix.sh
#
# Run it after bench/cascade-folds.sh, with the same BENCH_DIR and
# CASCADE_ARGS: it reads each fold's model and sweep (curve.csv). For each
# fold and each λ of the sweep's Cronus rows, `cronus cascade` rebuilds the
# sweep's cascade from the same arguments as bench/cascade.sh's sweep (the
# script stops unless its validation and test figures are the sweep's, to
# the last digit), then `cronus eval --last-prefix n`, for each n of
# LAST_PREFIXES (default 10,15,20,30,50,75,100,150,200,300,500; those
# above the ensemble's trees are left out), writes the cost and quality on
# valid and test of the cascade whose last stage ranks the documents
# reaching it by the ensemble's first n trees (weight 1, as the prefix
# scores them) to curve-lastprefix.csv (method cronus, λ written λ#pn) and
# their per-query values to curve-lastprefix.queries.tsv. Each fold's curve
# is then pooled with them for bench/front.py and bench/paired.py, as
# bench/stage-prefixes.sh pools the cuts. The earlier stages filter as
# Cronus trained them; the re-weighted last stage, fitted to the training
# data, is what the prefix replaces.
# HOLDOUT runs (bench/cascade.sh's train-cascade.txt) are not supported.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
. bench/variants.sh
read_prefixes bench/last-prefix.sh
# The variants: the last stage the ensemble's first n trees, for each n of
# LAST_PREFIXES up to its trees (`eval --last-prefix n`).
variants() {
  local T
  T=$($py -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["ensemble"]["trees"]))' "$1")
  for n in ${prefixes//,/ }; do
    [ "$n" -le "$T" ] && echo "p$n --last-prefix $n"
  done
  return 0
}
pool_variants bench/last-prefix.sh lastprefix "last stage a prefix of the ensemble"
