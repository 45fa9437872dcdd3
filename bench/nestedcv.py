"""Nested cross-validation of choosing lambdarank's σ and minimum split gain
by inner cross-validation (bench/lambdarank.sh nested).

  nestedcv.py CRONUS WORKDIR [FIRST_FOLD]

WORKDIR holds the five LETOR folds of MQ2008 as bench/folds.py writes them,
f{1..5}-{train,vali,test}.txt. For each fold, its train (three blocks of
queries) and validation (one block) sets are four blocks; each in turn
validates a model trained on the other three, for every setting of the grid
(σ 1 or 2 × minimum split gain 0, 0.3, 1 or 3; 500 trees of 31 leaves,
learning rate 0.1, the other parameters Cronus's defaults). The setting with
the highest mean inner NDCG@10 is then trained on the fold's train set, as
bench/train.sh trains, and scored on the fold's test set, which the choice
never looked at; beside it the defaults' test figure and XGBoost 1.7's
rank:ndcg (bench/xgb.py, its defaults, 2 threads). The last line averages
the five folds: the procedure's figure, where a fold's test queries are in
the inner cross-validation of no choice made for that fold.
"""
import subprocess, sys

from folds import inner_folds, ndcg10, queries  # bench/folds.py

cronus, work = sys.argv[1:3]
first = int(sys.argv[3]) if len(sys.argv) > 3 else 1  # resume from a fold
GRID = [(sg, g) for sg in (1, 2) for g in (0, 0.3, 1, 3)]
BASE = ['--objective', 'lambdarank', '--trees', '500', '--leaves', '31', '--learning-rate', '0.1']


def args(sg, g):
    return ['--sigma', str(sg), '--min-gain', str(g)]


def fit(data, extra):
    m = work + '/ncv.json'
    subprocess.run([cronus, 'train', '--train', data, '--out', m] + BASE + extra, check=True, capture_output=True)
    return m


def ndcg(data, model=None, scores=None):
    return ndcg10(cronus, data, model, scores)


print('%-5s %-22s %9s %9s %9s %9s' % ('fold', 'chosen (σ, min gain)', 'inner-CV', 'test', 'default', 'xgboost'), flush=True)
rows = []
for f in range(first, 6):
    tr, va, te = ('%s/f%d-%s.txt' % (work, f, s) for s in ('train', 'vali', 'test'))
    # The fold's train set is its three blocks S_f, S_f+1, S_f+2 in that
    # order (bench/folds.py); S1-S4 hold 157 queries, S5 156.
    t = queries(tr)
    sizes = [157 if (f - 1 + i) % 5 < 4 else 156 for i in range(3)]
    assert len(t) == sum(sizes), (len(t), sizes)
    S = [t[:sizes[0]], t[sizes[0]:sizes[0] + sizes[1]], t[sizes[0] + sizes[1]:], queries(va)]
    inner_folds(S, work + '/ncv')
    inner = {}
    for sg, g in GRID:
        v = [ndcg('%s/ncv%d-vali.txt' % (work, r), fit('%s/ncv%d-train.txt' % (work, r), args(sg, g))) for r in range(4)]
        inner[(sg, g)] = sum(v) / 4
    best = max(GRID, key=lambda k: inner[k])  # the first of equals, in grid order
    test = ndcg(te, fit(tr, args(*best)))
    default = ndcg(te, fit(tr, []))
    subprocess.run([sys.executable, 'bench/xgb.py', 'train', tr, 'rank:ndcg', '500', work + '/ncv-x.json', te,
                    work + '/ncv-x.scores'], check=True, capture_output=True)
    xgb = ndcg(te, scores=work + '/ncv-x.scores')
    rows.append((test, default, xgb))
    print('%-5d %-22s %9.4f %9.4f %9.4f %9.4f' % (f, 'σ %g, %g' % best, inner[best], test, default, xgb), flush=True)
mean = lambda i: sum(r[i] for r in rows) / len(rows)
print('%-5s %-22s %9s %9.4f %9.4f %9.4f' % ('mean', '(folds %d-5)' % first, '', mean(0), mean(1), mean(2)))
print('chosen ≥ xgboost on %d of %d folds; default ≥ xgboost on %d' % (
    sum(r[0] >= r[2] for r in rows), len(rows), sum(r[1] >= r[2] for r in rows)))
