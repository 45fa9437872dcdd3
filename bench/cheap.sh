#!/usr/bin/env bash
# How far the cheap features alone go on the synthetic world: for each cost
# cap, the features costing more are deleted from the files, a full ensemble
# (squared loss, 300 depth-2 trees, as bench/cascade.sh) is trained on what is
# left, and its test NDCG@10 and cost per document are printed. A cascade
# cannot beat the quality of its cheap stages on the documents they reject,
# so this bounds what any cascade can keep at a given cost. Then a hand-made
# two-stage cascade: the cheap ensemble scores every document, its top x of
# each query go on to the full ensemble (paying the features and trees not
# yet paid), and the ranking is the full ensemble's order of those x
# followed by the others in the cheap order.
#
#   bash bench/cheap.sh [QUERIES]     (training queries; default 400 = 50,000 documents)
#
# The files are those of `SYNTH_QUERIES=QUERIES bash bench/cascade.sh synth`
# (train seed 1, test seed 3 with a quarter of the queries, MSLR costs).
set -euo pipefail
cd "$(dirname "$0")/.."
q=${1:-400}
. bench/lib.sh
need_count "bench/cheap.sh [QUERIES]" QUERIES "$q" 4
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

for cap in 1 10 20 100; do
  "$c" predict --model "$dir/model-$cap.json" --data "$dir/test-$cap.txt" --out "$dir/scores-$cap.txt" > /dev/null
done
echo
echo "two stages: features up to a cost cap for everyone, the full ensemble for the top x of each query"
/usr/bin/python3 - "$dir" "$costs" <<'PY'
import collections, json, math, sys
d = sys.argv[1]
fcost = [float(l.split()[0]) for l in open(sys.argv[2]) if l.strip()]
def feats(cap):
    """The features model-CAP splits on (file numbering, from 1)."""
    m = json.load(open('%s/model-%d.json' % (d, cap)))
    return {f for t in m['trees'] for f in t.get('split_feature', [])}
labels, qids = [], []
for line in open(d + '/test.txt'):
    f = line.split()
    labels.append(float(f[0])); qids.append(f[1])
caps = (1, 10, 20)
score = {c: [float(x) for x in open('%s/scores-%d.txt' % (d, c))] for c in caps + (100,)}
ev = {c: json.load(open('%s/eval-%d.json' % (d, c))) for c in caps + (100,)}
for c in caps + (100,):  # the feature numbering read right: the same cost as cronus eval's
    assert abs(sum(fcost[f - 1] for f in feats(c)) - ev[c]['cost']['features']) < 1e-6, c
full = ev[100]['cost']['total']
queries = collections.defaultdict(list)
for i, q in enumerate(qids):
    queries[q].append(i)
def ndcg10(order):
    dcg = sum((2 ** labels[i] - 1) / math.log2(r + 2) for r, i in enumerate(order[:10]))
    ideal = sorted((labels[i] for i in order), reverse=True)[:10]
    idcg = sum((2 ** l - 1) / math.log2(r + 2) for r, l in enumerate(ideal))
    return dcg / idcg if idcg > 0 else 0.0
print('%-10s %6s %9s %10s %8s' % ('cap', 'top x', 'reach', 'cost/doc', 'ndcg@10'))
for c in caps:
    for x in (5, 10, 20, 30):
        total, kept = 0.0, 0
        for docs in queries.values():
            cheap = sorted(docs, key=lambda i: -score[c][i])
            top = sorted(cheap[:x], key=lambda i: -score[100][i])
            total += ndcg10(top + cheap[x:])
            kept += len(top)
        reach = kept / len(labels)
        # A document the full ensemble scores pays its trees and the
        # features of its own not paid already: the cheap stage's features
        # that the full ensemble does not split on stay paid once, and are
        # not taken off (full minus the cheap stage's whole feature cost
        # took them off too, as if the full ensemble used every one).
        shared = sum(fcost[f - 1] for f in feats(c) & feats(100))
        cost = ev[c]['cost']['total'] + reach * (full - shared)
        print('%-10s %6d %8.1f%% %10.1f %8.4f' % ('<= %d' % c, x, 100 * reach, cost, total / len(queries)))
print('full ensemble: cost %.1f, ndcg@10 %.4f' % (full, ev[100]['metrics']['ndcg@10']))
PY
