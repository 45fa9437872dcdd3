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
c=$dir/cronus
go build -o "$c" .
extra=(${CASCADE_ARGS:-})
prefixes=${LAST_PREFIXES:-10,15,20,30,50,75,100,150,200,300,500}
for n in ${prefixes//,/ }; do need_count "LAST_PREFIXES=n,n,... bash bench/last-prefix.sh" "each of LAST_PREFIXES" "$n"; done
given() { [[ " ${extra[*]} " == *" $1 "* ]]; }
curves=()
for f in 1 2 3 4 5; do
  d=$dir/cascade-mq2008-fold$f
  if [ ! -f "$d/curve.csv" ] || [ ! -f "$d/model.json" ]; then
    echo "bench/last-prefix.sh: $d has no curve.csv and model.json: run bench/cascade-folds.sh first (same BENCH_DIR)" >&2
    exit 1
  fi
  if [ -f "$d/train-cascade.txt" ]; then
    echo "bench/last-prefix.sh: $d was made with HOLDOUT, which this script does not rebuild" >&2
    exit 1
  fi
  common=(--model "$d/model.json" --train "$d/f$f-train.txt" --valid "$d/f$f-vali.txt" --test "$d/f$f-test.txt" --costs builtin:mq2008/costs)
  given --rule || common+=(--rule top-m)
  given --rule || given --top-m || common+=(--top-m 5)
  given --relevant || common+=(--relevant 1)
  common+=("${extra[@]}")
  w=$d/lastprefix
  rm -rf "$w"
  mkdir -p "$w"
  out=$d/curve-lastprefix.csv
  pq=$d/curve-lastprefix.queries.tsv
  echo "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3" > "$out.tmp"
  printf 'method\tsplit\tlambda\tqid\tp@5\tndcg@10\terr@3\n' > "$pq.tmp"
  for lam in $(awk -F, '$1 == "cronus" && $2 == "valid" {print $3}' "$d/curve.csv"); do
    cas=$w/cascade-$lam.json
    "$c" cascade "${common[@]}" --lambda "$lam" --out "$cas" --json > "$w/cascade-$lam.out.json" 2> "$w/cascade-$lam.log" \
      || { cat "$w/cascade-$lam.log" >&2; exit 1; }
    T=$($py -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["ensemble"]["trees"]))' "$cas")
    for n in ${prefixes//,/ }; do
      [ "$n" -le "$T" ] || continue
      for split in valid test; do
        data=$d/f$f-vali.txt
        [ "$split" = test ] && data=$d/f$f-test.txt
        "$c" eval --cascade "$cas" --last-prefix "$n" --data "$data" --metrics p@5,ndcg@10,err@3 \
          --per-query "$w/q.tsv" --json > "$w/eval.json"
        $py - "$w/eval.json" "$w/q.tsv" "$split" "$lam#p$n" "$out.tmp" "$pq.tmp" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
split, lam = sys.argv[3], sys.argv[4]
m, cost = r['metrics'], r['cost']
with open(sys.argv[5], 'a') as f:
    f.write('cronus,%s,%s,%r,%r,%r,%r,%r,%r\n' % (split, lam, cost['total'], cost['features'], cost['trees'], m['p@5'], m['ndcg@10'], m['err@3']))
with open(sys.argv[2]) as q, open(sys.argv[6], 'a') as out:
    head = q.readline().rstrip('\n').split('\t')
    assert head == ['qid', 'p@5', 'ndcg@10', 'err@3'], head
    for line in q:
        out.write('cronus\t%s\t%s\t%s' % (split, lam, line))
PY
      done
    done
    # The cascade rebuilt must be the sweep's: its figures, to the digit.
    $py - "$w/cascade-$lam.out.json" "$d/curve.csv" "$lam" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
for row in csv.DictReader(open(sys.argv[2])):
    if row['method'] == 'cronus' and row['lambda'] == sys.argv[3]:
        got = r[row['split']]
        if float(row['cost']) != got['cost']['total'] or float(row['ndcg@10']) != got['metrics']['ndcg@10']:
            sys.exit('bench/last-prefix.sh: %s: cronus cascade --lambda %s gave cost %r ndcg@10 %r on %s, the sweep %s %s: not the same arguments (CASCADE_ARGS?)'
                     % (sys.argv[2], sys.argv[3], got['cost']['total'], got['metrics']['ndcg@10'], row['split'], row['cost'], row['ndcg@10']))
PY
  done
  mv "$out.tmp" "$out"
  mv "$pq.tmp" "$pq"
  echo "fold $f: $(($(wc -l < "$out") - 1)) rows of last prefixes in $out"
  curves+=("$d/curve.csv+$out")
done
echo "== the sweeps alone"
$py bench/front.py "$dir"/cascade-mq2008-fold{1,2,3,4,5}/curve.csv | grep -E 'cronus on or above|at every cost'
echo "== with every cascade's last stage a prefix of the ensemble"
$py bench/front.py "${curves[@]}"
$py bench/paired.py "${curves[@]}"
