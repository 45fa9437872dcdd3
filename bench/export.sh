#!/usr/bin/env bash
# cronus export --to xgboost: XGBoost 1.7.4 loads what Cronus writes and
# scores as Cronus does, on the same documents.
#
#   bash bench/export.sh
#
# On the built-in MQ2008 (train for the models, all 2,874 test documents
# to score, dense, as both read them), it trains with Cronus
#   - regression, binary and lambdarank ensembles of 500 trees × 31 leaves,
#   - a depth-2 regression ensemble of 500 trees and a 10-stage cascade of
#     it (`cronus cascade`, its defaults, the built-in costs),
# exports each model and every stage of the cascade with `cronus export
# --to xgboost`, loads them with xgboost.Booster(model_file=...) and prints,
# for each, the largest difference between XGBoost's margin
# (output_margin=True) and Cronus's score: `cronus predict` for a model,
# for a stage the score at exit of the documents that left there (`predict
# --cascade --exits`). It also checks, for the regression model, that
# XGBoost's feature contributions (pred_contribs=True) are `cronus predict
# --contribs`'s, that a model exported with --libsvm-indices
# --missing-as-zero and read by XGBoost's own libsvm reader from a file
# whose zeros are left out scores as Cronus does from the file with them,
# that base scores past what XGBoost's float32 link takes (binary 40, -100,
# 17, 12; count:poisson 100, -200) give XGBoost margins equal to Cronus's,
# that `predict --cascade --contribs` gives each document the contributions
# XGBoost's pred_contribs gives it with the model of the stage it left at,
# and that every split condition XGBoost reads is the one written (its
# load_model then save_raw, compared as float32). XGBoost sums in float32:
# the differences grow with the number of trees and the size of the scores.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
need_py xgboost python3-xgboost
need_py numpy python3-numpy
go build -o "$dir/cronus" .
c="$dir/cronus"
d="$dir/export"
mkdir -p "$d"
for o in regression binary lambdarank; do
  "$c" train --train builtin:mq2008/train --objective "$o" --trees 500 --leaves 31 --out "$d/$o.json" >/dev/null
  "$c" export --model "$d/$o.json" --to xgboost --out "$d/$o.xgb.json" >/dev/null 2>&1
  "$c" predict --model "$d/$o.json" --data builtin:mq2008/test --out "$d/$o.pred" 2>/dev/null
done
"$c" predict --model "$d/regression.json" --data builtin:mq2008/test --out /dev/null --contribs "$d/regression.contribs" 2>/dev/null
"$c" export --model "$d/regression.json" --to xgboost --libsvm-indices --missing-as-zero --out "$d/regression.svm.json" >/dev/null
"$c" train --train builtin:mq2008/train --valid builtin:mq2008/vali --objective regression --trees 500 --max-depth 2 --out "$d/d2.json" >/dev/null
"$c" cascade --model "$d/d2.json" --train builtin:mq2008/train --valid builtin:mq2008/vali --costs builtin:mq2008/costs --out "$d/cascade.json" >/dev/null 2>&1
"$c" predict --cascade "$d/cascade.json" --data builtin:mq2008/test --out /dev/null --exits "$d/exits.tsv" --contribs "$d/cascade.contribs" 2>/dev/null
# Base scores past what XGBoost's float32 link takes: one split on feature
# 2 (0.5), leaves -0.25 and 0.5; XGBoost's margins at x2 = 0 and 1 must be
# base - 0.25 and base + 0.5.
bases="binary:40 binary:-100 binary:17 binary:12 count:poisson:100 count:poisson:-200"
for ob in $bases; do
  obj=${ob%:*} base=${ob##*:}
  printf '{"format":"cronus-ensemble","version":1,"objective":"%s","num_features":2,"base_score":%s,"source":"cronus","trees":[{"split_feature":[2],"threshold":[0.5],"left_child":[-1],"right_child":[-2],"leaf_value":[-0.25,0.5]}]}\n' "$obj" "$base" >"$d/base.json"
  "$c" export --model "$d/base.json" --to xgboost --out "$d/base-${obj}${base}.xgb.json" >/dev/null 2>&1
done
stages=$("$c" inspect "$d/cascade.json" --json | $py -c 'import json,sys; print(len(json.load(sys.stdin)["stages"]))')
# A stage without trees has no model to export (the table says so); any
# other failure stops the script. Stage files of an earlier run go first:
# one left where this cascade's stage has no trees would be compared.
rm -f "$d"/stage*.xgb.json
for k in $(seq "$stages"); do
  if ! err=$("$c" export --cascade "$d/cascade.json" --stage "$k" --to xgboost --out "$d/stage$k.xgb.json" 2>&1 >/dev/null); then
    case "$err" in
      *"stage $k of $stages has no trees"*) ;;
      *) echo "$err" >&2; exit 1 ;;
    esac
  fi
done

$py - "$d" "$stages" "$bases" <<'PY'
import gzip, json, os, sys
import numpy as np, xgboost as xgb
d, stages, bases = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
rows, sparse = [], []
with gzip.open('data/builtin/mq2008/test.txt.gz', 'rt') as f:
    for line in f:
        body, _, comment = line.partition('#')
        toks = body.split()
        x = np.zeros(46, dtype=np.float32)
        for t in toks[2:]:
            i, v = t.split(':')
            x[int(i) - 1] = float(v)
        rows.append(x)
        sparse.append(' '.join([toks[0], toks[1]] + [t for t in toks[2:] if float(t.split(':')[1]) != 0]))
X = xgb.DMatrix(np.array(rows))
with open(os.path.join(d, 'sparse.txt'), 'w') as f:
    f.write('\n'.join(sparse) + '\n')

def booster(name):
    b = xgb.Booster(model_file=os.path.join(d, name))
    b.set_param({'nthread': 2})
    written = json.load(open(os.path.join(d, name)))['learner']['gradient_booster']['model']['trees']
    read = json.loads(b.save_raw('json'))['learner']['gradient_booster']['model']['trees']
    changed = sum(np.float32(a) != np.float32(c) for w, r in zip(written, read)
                  for a, c in zip(w['split_conditions'], r['split_conditions']))
    return b, changed

print('%-34s %6s %14s %12s %9s' % ('model', 'trees', 'max |diff|', 'max |score|', 'changed'))
for o in ('regression', 'binary', 'lambdarank'):
    b, changed = booster(o + '.xgb.json')
    p = b.predict(X, output_margin=True)
    ours = np.loadtxt(os.path.join(d, o + '.pred'))
    print('%-34s %6d %14.3g %12.3g %9d' % (o + ' (500 × 31)', b.num_boosted_rounds(), np.abs(p - ours).max(), np.abs(ours).max(), changed))
ex = [l.rstrip('\n').split('\t') for l in open(os.path.join(d, 'exits.tsv'))][1:]
for k in range(1, stages + 1):
    path = os.path.join(d, 'stage%d.xgb.json' % k)
    idx = [i for i, r in enumerate(ex) if int(r[2]) == k]
    if not os.path.exists(path):
        print('%-34s %6d %14s %12s %9s   (%d documents leave here)' % ('cascade stage %d' % k, 0, 'no trees', '', '', len(idx)))
        continue
    b, changed = booster('stage%d.xgb.json' % k)
    at = np.array([float(ex[i][3]) for i in idx])
    diff = np.abs(b.predict(X, output_margin=True)[idx] - at).max() if idx else float('nan')
    print('%-34s %6d %14.3g %12.3g %9d   (%d documents leave here)' % ('cascade stage %d' % k, b.num_boosted_rounds(), diff, np.abs(at).max() if idx else 0, changed, len(idx)))
cc = np.loadtxt(os.path.join(d, 'cascade.contribs'), skiprows=1, usecols=range(2, 49))
worst = 0.0
for k in range(1, stages + 1):
    path = os.path.join(d, 'stage%d.xgb.json' % k)
    idx = [i for i, r in enumerate(ex) if int(r[2]) == k]
    if os.path.exists(path) and idx:
        b, _ = booster('stage%d.xgb.json' % k)
        worst = max(worst, np.abs(b.predict(X, pred_contribs=True)[idx] - cc[idx]).max())
print('cascade: largest |cronus predict --cascade --contribs - xgboost pred_contribs of the exit stage|: %.3g' % worst)
b, _ = booster('regression.xgb.json')
ref = b.predict(X, pred_contribs=True)
ours = np.loadtxt(os.path.join(d, 'regression.contribs'), skiprows=1, usecols=range(2, 2 + ref.shape[1]))
print('regression: largest |cronus - xgboost| feature contribution: %.3g' % np.abs(ours - ref).max())
b, _ = booster('regression.svm.json')
p = b.predict(xgb.DMatrix(os.path.join(d, 'sparse.txt') + '?format=libsvm'), output_margin=True)
ours = np.loadtxt(os.path.join(d, 'regression.pred'))
print('regression, --libsvm-indices --missing-as-zero, XGBoost reading the file without its zeros: max |diff| %.3g over %d documents' % (np.abs(p - ours).max(), len(p)))
worst = 0.0
for ob in bases:
    obj, base = ob.rsplit(':', 1)
    b = xgb.Booster(model_file=os.path.join(d, 'base-%s%s.xgb.json' % (obj, base)))
    m = b.predict(xgb.DMatrix(np.array([[0, 0], [0, 1]], dtype=np.float32)), output_margin=True)
    worst = max(worst, np.abs(m - (float(base) + np.array([-0.25, 0.5]))).max())
print('base scores %s: largest |XGBoost margin - cronus score| %.3g' % (', '.join(bases), worst))
PY
