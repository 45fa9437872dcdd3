# Shared by bench/stage-prefixes.sh, bench/last-prefix.sh and
# bench/cut-prefixes.sh (sourced, not run): pool_variants SCRIPT TAG WHAT
# rebuilds each of the five folds'
# cascades of bench/cascade-folds.sh's sweeps (BENCH_DIR, CASCADE_ARGS as
# there; stopping unless each cascade's validation and test figures are the
# sweep's, to the last digit), scores each variant of it with `cronus eval
# --cascade C ARGS` on valid and test, writes the rows to each fold's
# curve-TAG.csv (method cronus, λ written λ#SUFFIX) and their per-query
# values to curve-TAG.queries.tsv, and runs bench/front.py and
# bench/paired.py on each sweep pooled with them (and with the uncapped
# sweep's points, curve-uncapped.csv, where there is one, and with the
# curve-T.csv of each tag T of POOL_ALSO, a space-separated list, where the
# fold has it: other variants' curves of the same run). The variants
# are what the caller's function `variants CASCADE_FILE` prints, one
# "SUFFIX ARGS..." line each. WHAT names them in the report ("first k
# stages").
# bench/sweep-variants.sh (`cronus sweep --variants all`) writes the same
# rows, to the digit, in one sweep per fold, in a minute where these took
# half an hour; these stay as the independent path (a `cronus eval` per
# variant) the sweep was checked against.
# read_prefixes SCRIPT sets prefixes, the comma-separated prefix lengths
# of LAST_PREFIXES (default 10,15,20,30,50,75,100,150,200,300,500), and
# stops, with SCRIPT's usage, unless each is a whole number.
read_prefixes() {
  prefixes=${LAST_PREFIXES:-10,15,20,30,50,75,100,150,200,300,500}
  for n in ${prefixes//,/ }; do need_count "LAST_PREFIXES=n,n,... bash $1" "each of LAST_PREFIXES" "$n"; done
}

pool_variants() {
  local script=$1 tag=$2 what=$3
  c=$dir/cronus
  go build -o "$c" .
  curves=() sweeps=()
  for f in 1 2 3 4 5; do
    d=$dir/cascade-mq2008-fold$f
    if [ ! -f "$d/curve.csv" ] || [ ! -f "$d/model.json" ]; then
      echo "$script: $d has no curve.csv and model.json: run bench/cascade-folds.sh first (same BENCH_DIR)" >&2
      exit 1
    fi
    if [ -f "$d/train-cascade.txt" ]; then
      echo "$script: $d was made with HOLDOUT, which this script does not rebuild" >&2
      exit 1
    fi
    common=(--model "$d/model.json" --train "$d/f$f-train.txt" --valid "$d/f$f-vali.txt" --test "$d/f$f-test.txt" --costs builtin:mq2008/costs)
    cascade_args common
    w=$d/$tag
    rm -rf "$w"
    mkdir -p "$w"
    out=$d/curve-$tag.csv
    pq=$d/curve-$tag.queries.tsv
    echo "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3" > "$out.tmp"
    printf 'method\tsplit\tlambda\tqid\tp@5\tndcg@10\terr@3\n' > "$pq.tmp"
    for lam in $(awk -F, '$1 == "cronus" && $2 == "valid" {print $3}' "$d/curve.csv"); do
      cas=$w/cascade-$lam.json
      "$c" cascade "${common[@]}" --lambda "$lam" --out "$cas" --json > "$w/cascade-$lam.out.json" 2> "$w/cascade-$lam.log" \
        || { cat "$w/cascade-$lam.log" >&2; exit 1; }
      while read -r suffix args; do
        for split in valid test; do
          data=$d/f$f-vali.txt
          [ "$split" = test ] && data=$d/f$f-test.txt
          "$c" eval --cascade "$cas" $args --data "$data" --metrics p@5,ndcg@10,err@3 \
            --per-query "$w/q.tsv" --json > "$w/eval.json" < /dev/null
          $py - "$w/eval.json" "$w/q.tsv" "$split" "$lam#$suffix" "$out.tmp" "$pq.tmp" <<'PY'
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
      done < <(variants "$cas")
      # The cascade rebuilt must be the sweep's: its figures, to the digit.
      $py - "$w/cascade-$lam.out.json" "$d/curve.csv" "$lam" "$script" <<'PY'
import csv, json, sys
r = json.load(open(sys.argv[1]))
for row in csv.DictReader(open(sys.argv[2])):
    if row['method'] == 'cronus' and row['lambda'] == sys.argv[3]:
        got = r[row['split']]
        if float(row['cost']) != got['cost']['total'] or float(row['ndcg@10']) != got['metrics']['ndcg@10']:
            sys.exit('%s: %s: cronus cascade --lambda %s gave cost %r ndcg@10 %r on %s, the sweep %s %s: not the same arguments (CASCADE_ARGS?)'
                     % (sys.argv[4], sys.argv[2], sys.argv[3], got['cost']['total'], got['metrics']['ndcg@10'], row['split'], row['cost'], row['ndcg@10']))
PY
    done
    mv "$out.tmp" "$out"
    mv "$pq.tmp" "$pq"
    echo "fold $f: $(($(wc -l < "$out") - 1)) rows of $what in $out"
    # The uncapped sweep's points near λ_max (bench/cascade.sh, UNCAPPED)
    # are pooled as bench/cascade-folds.sh pools them, without variants.
    sweep=$d/curve.csv
    [ -f "$d/curve-uncapped.csv" ] && sweep+="+$d/curve-uncapped.csv"
    sweeps+=("$sweep")
    also=
    for t in ${POOL_ALSO:-}; do
      [ -f "$d/curve-$t.csv" ] && also+="+$d/curve-$t.csv"
    done
    curves+=("$sweep$also+$out")
  done
  echo "== the sweeps alone"
  $py bench/front.py "${sweeps[@]}" | grep -E 'cronus on or above|at every cost'
  echo "== with every cascade's $what"
  $py bench/front.py "${curves[@]}"
  $py bench/paired.py "${curves[@]}"
}
