#!/usr/bin/env bash
# The workbench's default cascade on a squared-loss base ensemble against
# one on a LambdaMART base (the panel's loss, regression or lambdarank),
# on the five LETOR folds of MQ2008.
#
#   bash bench/workbench-loss.sh [FOLDS]
#
# For each fold (default 1 2 3 4 5; bench/folds.py rebuilds folds 2-5 from
# the built-in Fold1) and each loss, the commands the workbench's session
# amounts to: `cronus train --objective LOSS --trees 300 --leaves 4
# --max-depth 2` (the workbench's base ensemble) and `cronus cascade` with
# its defaults (λ 0.01 × λ_max, K 10, top-m 5, 10 cycles) and the
# workbench's fixed ρ, 0.02 × ρ_max; the best cascade on validation, with
# its validation and test NDCG@10 and cost per document, and the full
# ensemble's. Last, the means over the folds.
set -euo pipefail
cd "$(dirname "$0")/.."
folds=${*:-1 2 3 4 5}
. bench/lib.sh
for f in $folds; do
  case "$f" in [1-5]) ;; *) echo "bench/workbench-loss.sh: a fold is 1 to 5, not '$f'" >&2; exit 2 ;; esac
done
dir=$dir/workbench-loss
mkdir -p "$dir"
go build -o "$dir/cronus" .
c="$dir/cronus"
make_folds "$dir"
out="$dir/results.tsv"
: > "$out"
for f in $folds; do
  for loss in regression lambdarank; do
    "$c" train --train "$dir/f$f-train.txt" --objective "$loss" --trees 300 --leaves 4 --max-depth 2 --out "$dir/f$f-$loss.json" > /dev/null
    "$c" cascade --model "$dir/f$f-$loss.json" --train "$dir/f$f-train.txt" --valid "$dir/f$f-vali.txt" --test "$dir/f$f-test.txt" \
      --costs builtin:mq2008/costs --rho1 0.02 --rhoK 0.02 --out "$dir/f$f-$loss.cascade.json" --json 2> /dev/null |
      /usr/bin/python3 -c '
import json, sys
r = json.load(sys.stdin)
row = [sys.argv[1], sys.argv[2]]
for k in ("valid", "test", "full_valid", "full_test"):
    row += ["%.4f" % r[k]["metrics"]["ndcg@10"], "%.1f" % r[k]["cost"]["total"]]
print("\t".join(row))' "$f" "$loss" >> "$out"
  done
done
/usr/bin/python3 - "$out" <<'PY'
import sys
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
print("%-5s %-10s | %-16s %-16s | %-16s %-16s" % ("fold", "loss", "cascade valid", "cascade test", "full valid", "full test"))
def pair(a, b): return "%s at %s" % (a, b)
for r in rows:
    print("%-5s %-10s | %-16s %-16s | %-16s %-16s" % (r[0], r[1], pair(r[2], r[3]), pair(r[4], r[5]), pair(r[6], r[7]), pair(r[8], r[9])))
for loss in ("regression", "lambdarank"):
    rs = [r for r in rows if r[1] == loss]
    m = [sum(float(r[i]) for r in rs) / len(rs) for i in range(2, 10)]
    print("%-5s %-10s | %-16s %-16s | %-16s %-16s" % ("mean", loss, pair("%.4f" % m[0], "%.1f" % m[1]), pair("%.4f" % m[2], "%.1f" % m[3]),
        pair("%.4f" % m[4], "%.1f" % m[5]), pair("%.4f" % m[6], "%.1f" % m[7])))
PY
