#!/usr/bin/env bash
# Every cut of a cascade (its first k stages) scored in one pass against
# cut by cut: the time of each and their ratio, on a `cronus gen` set with
# the MSLR costs (QUERIES queries of about 125 documents per split,
# default 400: 50,000 documents), 300 depth-2 trees, `cronus cascade`'s
# defaults. `cronus cascade --json`, `sweep --first-stages` and the
# workbench score the cuts in one pass (cronus.EvaluateCuts); the tool
# also checks that both ways give the same figures, bit for bit.
#
#   bash bench/cuts.sh [QUERIES]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
nq=${1:-400}
need_count "bench/cuts.sh [QUERIES]" QUERIES "$nq" 4
c=$dir/cronus
go build -o "$c" .
w=$dir/cuts-$nq
mkdir -p "$w"
seed=1
for name in train valid test; do
  [ -f "$w/$name.txt" ] || "$c" gen --queries "$nq" --docs-per-query 125 --seed "$seed" --out "$w/$name.txt" > /dev/null
  seed=$((seed + 1))
done
[ -f "$w/model.json" ] || "$c" train --train "$w/train.txt" --trees 300 --leaves 4 --max-depth 2 --out "$w/model.json" > /dev/null
[ -f "$w/cascade.json" ] || "$c" cascade --model "$w/model.json" --train "$w/train.txt" --valid "$w/valid.txt" \
  --costs builtin:mslr-web10k/costs --out "$w/cascade.json" > /dev/null
go run ./bench/cutstime -cascade "$w/cascade.json" -rounds 3 "$w/test.txt"
