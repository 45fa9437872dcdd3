#!/usr/bin/env bash
# Tree ensembles: Cronus against XGBoost 1.7 (Debian's python3-xgboost) on
# the same files, trees, leaves, learning rate, bins (255), L2 (1) and
# threads (2), both scored by Cronus's own metric code. Each library keeps
# its own default smallest leaf: Cronus --min-docs 50 (chosen on MQ2008
# Fold1 validation) and --min-hessian 0.001, XGBoost min_child_weight 1
# (for squared loss, a leaf of one document); quality also shows Cronus
# with XGBoost's (--min-docs 1 --min-hessian 1), and lambdarank with σ 2
# and a minimum split gain of 1 (--sigma 2 --min-gain 1), the best of the
# settings bench/innercv.py judges by inner cross-validation on Fold1's
# train and validation sets.
#
#   bash bench/train.sh [quality|folds|speed|speed-rank|all]     (default all)
#
# quality: built-in MQ2008 Fold1, 500 trees, 31 leaves, learning rate 0.1,
#   no early stopping: test NDCG@10 of Cronus lambdarank vs XGBoost rank:ndcg,
#   and of Cronus regression vs XGBoost reg:squarederror.
# folds: the same comparison on all five LETOR folds of MQ2008, rebuilt from
#   Fold1 by bench/folds.py: test NDCG@10 per fold and the mean (784 queries).
# speed: a 200,000-document, 136-feature `cronus gen` set (seed 2), squared
#   loss, 500 trees × 31 leaves, 2 threads: training time (data loading
#   excluded on both sides), peak memory of the whole process, and prediction
#   time per document per tree with the very same model (XGBoost's, imported).
# speed-rank: the same set and shape with the ranking objectives: training
#   seconds of Cronus lambdarank (all pairs, the default; and --pair-sample 1,
#   XGBoost 1.7's one sampled partner per document) and XGBoost rank:ndcg.
#   Not part of all.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
case "$what" in
  quality|folds|speed|speed-rank|all) ;;
  *) echo "usage: bench/train.sh [quality|folds|speed|speed-rank|all]" >&2; exit 2 ;;
esac
. bench/lib.sh
need_py xgboost python3-xgboost
need_time
go build -o "$dir/cronus" .
# Two threads, as XGBoost's nthread (bench/xgb.py): on a larger machine
# Cronus would otherwise take every core.
cr() { "$dir/cronus" "$1" --threads 2 "${@:2}"; }
c=cr
field() { $py -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval('d'+sys.argv[2]))" "$1" "$2"; }

if [ "$what" = quality ] || [ "$what" = all ]; then
  for s in train test; do gzip -dc "data/builtin/mq2008/$s.txt.gz" > "$dir/mq2008-$s.txt"; done
  echo "MQ2008 Fold1, 500 trees x 31 leaves, learning rate 0.1; test NDCG@10 (Cronus's metric, queries without relevant documents score 0)"
  printf '%-12s %-22s %8s   %-22s %8s   %s\n' "" "cronus" "ndcg@10" "xgboost" "ndcg@10" "paired difference ± 1 s.e. over queries (two-sided p)"
  # Then Cronus with XGBoost's smallest leaf (min_child_weight 1), and
  # lambdarank with σ and the minimum split gain chosen by inner
  # cross-validation on Fold1's train and validation sets (bench/innercv.py,
  # whose best is σ 2, gain 1; bench/nestedcv.py makes that choice afresh on
  # each fold).
  for pair in "lambdarank rank:ndcg" "regression reg:squarederror" "lambdarank rank:ndcg leaf1" "regression reg:squarederror leaf1" "lambdarank rank:ndcg cv"; do
    set -- $pair
    extra=() name=$1
    if [ "${3:-}" = leaf1 ]; then extra=(--min-docs 1 --min-hessian 1) name="$1 leaf 1"; fi
    if [ "${3:-}" = cv ]; then extra=(--sigma 2 --min-gain 1) name="$1 σ 2, gain 1"; fi
    "$c" train --train "$dir/mq2008-train.txt" --objective "$1" --trees 500 --leaves 31 --learning-rate 0.1 "${extra[@]}" --out "$dir/c-$1.json" > /dev/null
    "$c" eval --model "$dir/c-$1.json" --data "$dir/mq2008-test.txt" --metrics ndcg@10 --json --per-query "$dir/c-$1.pq.tsv" > "$dir/c-$1.eval.json"
    [ -f "$dir/x-$1.scores" ] && [ -n "${3:-}" ] ||
      $py bench/xgb.py train "$dir/mq2008-train.txt" "$2" 500 "$dir/x-$1.json" "$dir/mq2008-test.txt" "$dir/x-$1.scores" > /dev/null
    "$c" eval --scores "$dir/x-$1.scores" --data "$dir/mq2008-test.txt" --metrics ndcg@10 --json --per-query "$dir/x-$1.pq.tsv" > "$dir/x-$1.eval.json"
    # The paired comparison of the two, query by query (eval --compare).
    "$c" eval --model "$dir/c-$1.json" --data "$dir/mq2008-test.txt" --metrics ndcg@10 --json --compare "$dir/x-$1.scores" > "$dir/c-$1.compare.json"
    diff=$($py -c '
import json, sys
c = json.load(open(sys.argv[1]))["compare"]["metrics"]["ndcg@10"]
print("%+.4f ± %.4f (p %.3f t test, %.3f randomisation)" % (c["diff"], c["se"], c["p_t"], c["p_rand"]))' "$dir/c-$1.compare.json")
    printf '%-12s %-22s %8.4f   %-22s %8.4f   %s\n' "" "$name" "$(field "$dir/c-$1.eval.json" "['metrics']['ndcg@10']")" \
      "$2" "$(field "$dir/x-$1.eval.json" "['metrics']['ndcg@10']")" "$diff"
  done
fi

if [ "$what" = folds ] || [ "$what" = all ]; then
  for s in train vali test; do gzip -dc "data/builtin/mq2008/$s.txt.gz" > "$dir/mq2008-$s.txt"; done
  $py bench/folds.py "$dir/mq2008-train.txt" "$dir/mq2008-vali.txt" "$dir/mq2008-test.txt" "$dir"
  echo "MQ2008, the five LETOR folds, 500 trees x 31 leaves, learning rate 0.1; test NDCG@10 per fold"
  ndcg() { $py -c 'import json,sys; print(json.load(sys.stdin)["metrics"]["ndcg@10"])'; }
  for pair in "lambdarank rank:ndcg" "regression reg:squarederror"; do
    set -- $pair
    : > "$dir/folds-$1.txt"
    for f in 1 2 3 4 5; do
      "$c" train --train "$dir/f$f-train.txt" --objective "$1" --trees 500 --leaves 31 --learning-rate 0.1 --out "$dir/cf-$1.json" > /dev/null
      $py bench/xgb.py train "$dir/f$f-train.txt" "$2" 500 "$dir/xf-$1.json" "$dir/f$f-test.txt" "$dir/xf-$1.scores" > /dev/null
      cn=$("$c" eval --model "$dir/cf-$1.json" --data "$dir/f$f-test.txt" --metrics ndcg@10 --json | ndcg)
      xn=$("$c" eval --scores "$dir/xf-$1.scores" --data "$dir/f$f-test.txt" --metrics ndcg@10 --json | ndcg)
      echo "$f $cn $xn" >> "$dir/folds-$1.txt"
    done
    $py - "$dir/folds-$1.txt" "$1" "$2" <<'EOF'
import sys
rows = [l.split() for l in open(sys.argv[1])]
c = [float(r[1]) for r in rows]; x = [float(r[2]) for r in rows]
print('%-30s %s   mean %.4f' % ('cronus ' + sys.argv[2], ' '.join('%.4f' % v for v in c), sum(c) / 5))
print('%-30s %s   mean %.4f' % ('xgboost ' + sys.argv[3], ' '.join('%.4f' % v for v in x), sum(x) / 5))
print('  cronus ahead on %d of 5 folds, mean difference %+.4f' % (sum(a >= b for a, b in zip(c, x)), (sum(c) - sum(x)) / 5))
EOF
  done
fi

if [ "$what" = speed ] || [ "$what" = all ]; then
  f="$dir/synth-200k.txt"
  [ -f "$f" ] || "$c" gen --queries 1600 --docs-per-query 125 --features 136 --seed 2 --out "$f" > /dev/null
  cat "$f" > /dev/null
  /usr/bin/time -f '%M' -o "$dir/c.rss" "$dir/cronus" train --threads 2 --train "$f" --objective regression --trees 500 --leaves 31 \
    --learning-rate 0.1 --out "$dir/c-200k.json" --json > "$dir/c-train.json"
  /usr/bin/time -f '%M' -o "$dir/x.rss" $py bench/xgb.py train "$f" reg:squarederror 500 "$dir/x-200k.json" > "$dir/x-train.json"
  "$c" import --from xgboost --libsvm-indices "$dir/x-200k.json" --out "$dir/x-200k.cronus.json" > /dev/null
  "$c" eval --model "$dir/x-200k.cronus.json" --data "$f" --metrics ndcg@10 --json > "$dir/c-pred.json"
  $py bench/xgb.py predict "$dir/x-200k.json" "$f" "$dir/x-200k.scores" > "$dir/x-pred.json"
  "$c" predict --model "$dir/x-200k.cronus.json" --data "$f" --out "$dir/c-200k.scores"
  ct=$(field "$dir/c-train.json" "['seconds']"); xt=$(field "$dir/x-train.json" "['train_seconds']")
  cm=$(cat "$dir/c.rss"); xm=$(cat "$dir/x.rss")
  cp=$(field "$dir/c-pred.json" "['predict_seconds']"); xp=$(field "$dir/x-pred.json" "['predict_seconds']")
  docs=$(field "$dir/x-pred.json" "['docs']"); trees=$(field "$dir/x-pred.json" "['trees']")
  awk -v ct="$ct" -v xt="$xt" -v cm="$cm" -v xm="$xm" -v cp="$cp" -v xp="$xp" -v n="$docs" -v t="$trees" 'BEGIN {
    printf "200,000 x 136 cronus gen set, squared loss, 500 trees x 31 leaves, 2 threads\n"
    printf "%-34s %10s %10s %8s\n", "", "cronus", "xgboost", "ratio"
    printf "%-34s %10.1f %10.1f %8.2f\n", "training seconds (no loading)", ct, xt, ct/xt
    printf "%-34s %10.0f %10.0f %8.2f\n", "peak RSS MiB (whole process)", cm/1024, xm/1024, cm/xm
    printf "%-34s %10.2f %10.2f %8.2f\n", "prediction ns per doc per tree", cp*1e9/n/t, xp*1e9/n/t, cp/xp
  }'
  # The timed model must score as XGBoost does, or the timing means nothing.
  paste "$dir/c-200k.scores" "$dir/x-200k.scores" | awk '{ d = $1 - $2; d = d < 0 ? -d : d; if (d > m) m = d; if (d > 1e-5) k++ }
    END { printf "same model: %d of %d scores differ from XGBoost'"'"'s by more than 1e-5 (largest %.2g)\n", k, NR, m }'
fi

if [ "$what" = speed-rank ]; then
  f="$dir/synth-200k.txt"
  [ -f "$f" ] || "$c" gen --queries 1600 --docs-per-query 125 --features 136 --seed 2 --out "$f" > /dev/null
  cat "$f" > /dev/null
  "$c" train --train "$f" --objective lambdarank --trees 500 --leaves 31 --learning-rate 0.1 \
    --out "$dir/c-rank.json" --json > "$dir/c-rank.json.out"
  "$c" train --train "$f" --objective lambdarank --pair-sample 1 --trees 500 --leaves 31 --learning-rate 0.1 \
    --out "$dir/c-rank1.json" --json > "$dir/c-rank1.json.out"
  $py bench/xgb.py train "$f" rank:ndcg 500 "$dir/x-rank.json" > "$dir/x-rank.json.out"
  ca=$(field "$dir/c-rank.json.out" "['seconds']"); c1=$(field "$dir/c-rank1.json.out" "['seconds']")
  xt=$(field "$dir/x-rank.json.out" "['train_seconds']")
  awk -v ca="$ca" -v c1="$c1" -v xt="$xt" 'BEGIN {
    printf "200,000 x 136 cronus gen set (1,600 queries of 125), 500 trees x 31 leaves, 2 threads; training seconds (no loading)\n"
    printf "%-44s %8.1f %8s\n", "xgboost rank:ndcg", xt, "ratio"
    printf "%-44s %8.1f %8.2f\n", "cronus lambdarank (all pairs)", ca, ca/xt
    printf "%-44s %8.1f %8.2f\n", "cronus lambdarank --pair-sample 1", c1, c1/xt
  }'
fi
