#!/usr/bin/env bash
# Cascades and baselines on all five LETOR folds of MQ2008 (rebuilt from the
# built-in Fold1 by bench/folds.py), averaged: MQ2008's 156 test queries per
# fold make one fold's curve noisy, the mean over 784 test queries much less.
#
#   bash bench/cascade-folds.sh [TREES]     (default 500)
#
# Runs `bench/cascade.sh mq2008-fold N` for N = 1..5, then averages each
# curve point (method, λ) over the folds — cost per document and NDCG@10 — and
# prints, for every Cronus point on test, the best baseline point (prefix,
# early exit, single stage) at no higher mean cost. That best baseline is
# picked on test, which favours the baselines; so the script also compares
# by budget: for each budget (each Cronus point's mean validation cost), the
# Cronus point and the baseline point a user would pick on validation (the
# best validation NDCG@10 at no more than that validation cost), on test.
# CASCADE_ARGS is passed on to bench/cascade.sh (e.g. CASCADE_ARGS=--graded).
set -euo pipefail
cd "$(dirname "$0")/.."
trees=${1:-500}
. bench/lib.sh
for f in 1 2 3 4 5; do
  echo "== fold $f"
  bash bench/cascade.sh mq2008-fold "$f" "$trees" | grep -E '^(base ensemble:|cronus at|initialisation)'
done
$py - "$dir" <<'PY'
import csv, sys, collections
acc = collections.defaultdict(list)
for f in range(1, 6):
    for r in csv.DictReader(open('%s/cascade-mq2008-fold%d/curve.csv' % (sys.argv[1], f))):
        acc[(r['method'], r['split'], r['lambda'])].append((float(r['cost']), float(r['ndcg@10'])))
pts = {k: (sum(c for c, _ in v) / len(v), sum(n for _, n in v) / len(v)) for k, v in acc.items() if len(v) == 5}
for split in ('valid', 'test'):
    base = [(m, l, c, n) for (m, s, l), (c, n) in pts.items() if s == split and m in ('prefix', 'early-exit', 'single-stage')]
    cron = sorted(((c, n, l) for (m, s, l), (c, n) in pts.items() if s == split and m == 'cronus'))
    print('%s, mean over 5 folds: cronus point -> best baseline at no higher cost' % split)
    above = 0
    for c, n, l in cron:
        ok = [b for b in base if b[2] <= c]
        best = max(ok, key=lambda b: b[3]) if ok else None
        if best is None or n >= best[3]:
            above += 1
        print('  λ %-9.4g cost %7.1f ndcg@10 %.4f   %s' % (float(l), c, n,
              '%s %s: cost %.1f ndcg@10 %.4f' % (best[0], best[1], best[2], best[3]) if best else 'no baseline that cheap'))
    print('  cronus on or above the front at %d of %d points' % (above, len(cron)))
P = collections.defaultdict(dict)
for (m, s, l), (c, n) in pts.items():
    P[(m, l)][s] = (c, n)
cand = [(m, l, v['valid'][0], v['valid'][1], v['test'][0], v['test'][1]) for (m, l), v in P.items() if 'valid' in v and 'test' in v]
def pick(methods, budget):
    ok = [c for c in cand if c[0] in methods and c[2] <= budget]
    return max(ok, key=lambda c: c[3]) if ok else None
print('by budget, points chosen on validation, test figures: cronus -> best baseline')
wins, budgets = 0, sorted(c[2] for c in cand if c[0] == 'cronus')
for b in budgets:
    cr, bl = pick({'cronus'}, b), pick({'prefix', 'early-exit', 'single-stage'}, b)
    ok = bl is None or cr[5] >= bl[5]
    wins += ok
    print('  budget %7.1f: cronus λ %-9.4g test %.4f at %7.1f   %s' % (b, float(cr[1]), cr[5], cr[4],
          '%s %.4g: test %.4f at %.1f' % (bl[0], float(bl[1]), bl[5], bl[4]) if bl else 'no baseline that cheap'))
print('  cronus on or above the baseline at %d of %d budgets' % (wins, len(budgets)))
PY
