#!/usr/bin/env bash
# How far the cheap features alone go on the synthetic world: for each cost
# cap, the features costing more are deleted from the files, a full ensemble
# (squared loss, 300 depth-2 trees, as bench/cascade.sh) is trained on what is
# left, and its test NDCG@10 and cost per document are printed. A cascade
# cannot beat the quality of its cheap stages on the documents they reject,
# so this bounds what any cascade can keep at a given cost.
#
#   bash bench/cheap.sh [QUERIES]     (training queries; default 400 = 50,000 documents)
#
# The files are those of `SYNTH_QUERIES=QUERIES bash bench/cascade.sh synth`
# (train seed 1, test seed 3 with a quarter of the queries, MSLR costs).
set -euo pipefail
cd "$(dirname "$0")/.."
q=${1:-400}
. bench/lib.sh
dir=$dir/cheap-$q
mkdir -p "$dir"
go build -o "$dir/cronus" .
c="$dir/cronus"
costs=data/builtin/mslr-web10k.feature_cost.txt
[ -f "$dir/train.txt" ] || "$c" gen --queries "$q" --docs-per-query 125 --seed 1 --out "$dir/train.txt" > /dev/null
[ -f "$dir/test.txt" ] || "$c" gen --queries $((q / 4)) --docs-per-query 125 --seed 3 --out "$dir/test.txt" > /dev/null
# keep FILE CAP: FILE without the features whose cost exceeds CAP.
keep() {
  awk -v cap="$2" 'NR == FNR { cost[NR] = $1; next }
    { out = $1 " " $2
      for (i = 3; i <= NF; i++) { split($i, kv, ":"); if (kv[1] in cost && cost[kv[1]] <= cap) out = out " " $i }
      print out }' "$costs" "$1"
}
printf '%-18s %10s %10s\n' "features costing" "cost/doc" "ndcg@10"
for cap in 1 10 20 50 100; do
  keep "$dir/train.txt" "$cap" > "$dir/train-$cap.txt"
  keep "$dir/test.txt" "$cap" > "$dir/test-$cap.txt"
  "$c" train --train "$dir/train-$cap.txt" --objective regression --trees 300 --leaves 4 --max-depth 2 --out "$dir/model-$cap.json" > /dev/null
  "$c" eval --model "$dir/model-$cap.json" --data "$dir/test-$cap.txt" --costs "$costs" --metrics ndcg@10 --json > "$dir/eval-$cap.json"
  /usr/bin/python3 - "$dir/eval-$cap.json" "$cap" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print('%-18s %10.1f %10.4f' % ('<= ' + sys.argv[2], r['cost']['total'], r['metrics']['ndcg@10']))
PY
done
