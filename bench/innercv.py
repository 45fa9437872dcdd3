"""Inner cross-validation for the lambdarank settings (bench/lambdarank.sh cv).

  innercv.py CRONUS TRAIN VALI TEST WORKDIR

Fold1's train (S1+S2+S3) and validation (S4) sets are four blocks of 157
queries; each block in turn validates a model trained on the other three, so
a setting is judged on all 628 queries of S1-S4 instead of S4's 157, and the
test set S5 is never looked at to judge it. For every setting the script
prints the inner-CV mean NDCG@10, Fold1's own validation and test figures
(the model trained on S1-S3), and, for settings with random draws, the mean
over seeds 1-3 with each seed's test figure.
"""
import subprocess, sys

from folds import inner_folds, ndcg10, queries  # bench/folds.py

cronus, train, vali, test, work = sys.argv[1:6]


tr = queries(train)
assert len(tr) == 471, len(tr)
S = [tr[0:157], tr[157:314], tr[314:471], queries(vali)]
inner_folds(S, work + '/in')


def fit(data, args, seed):
    m = work + '/cv.json'
    subprocess.run([cronus, 'train', '--train', data, '--objective', 'lambdarank', '--seed', str(seed), '--out', m] + args,
                   check=True, capture_output=True)
    return m


def ndcg(model, data):
    return ndcg10(cronus, data, model)


settings = [('min-docs %d, sigma %d' % (md, sg), ['--min-docs', str(md), '--sigma', str(sg)], [1])
            for md in (1, 20, 50, 100) for sg in (1, 2)]
settings += [
    ('col-sample 0.5', ['--col-sample', '0.5'], [1, 2, 3]),
    ('row-sample 0.8', ['--row-sample', '0.8'], [1, 2, 3]),
    ('col 0.5, row 0.8', ['--col-sample', '0.5', '--row-sample', '0.8'], [1, 2, 3]),
    ('pair-sample, md 1', ['--pair-sample', '1', '--min-docs', '1', '--min-hessian', '1'], [1, 2, 3]),
    ('pair-sample, md 50', ['--pair-sample', '1'], [1, 2, 3]),
    ('l2 10', ['--l2', '10'], [1]),
    ('truncation 10', ['--truncation', '10'], [1]),
    ('truncation 1000', ['--truncation', '1000'], [1]),
    ('lambda-norm off', ['--lambda-norm=false'], [1]),
    ('lambda-norm off, sg 2', ['--lambda-norm=false', '--sigma', '2'], [1]),
    ('max-depth 6', ['--max-depth', '6'], [1]),
    ('max-depth 8', ['--max-depth', '8'], [1]),
    ('min-hessian 1', ['--min-hessian', '1'], [1]),
    ('l2 0', ['--l2', '0'], [1]),
    ('l2 3', ['--l2', '3'], [1]),
    ('min-docs 30', ['--min-docs', '30'], [1]),
]
# The minimum split gain with σ 1 and 2 (2026-12-03; bench/nestedcv.py
# repeats this grid's choice on each of the five folds).
settings += [('min-gain %g, sigma %d' % (g, sg), ['--min-gain', str(g), '--sigma', str(sg)], [1])
             for g in (0.3, 1, 3) for sg in (1, 2)]
print('%-22s %9s %11s %10s  %s' % ('setting', 'inner-CV', 'Fold1 vali', 'Fold1 test', 'test per seed'))
for name, args, seeds in settings:
    inner, v1, t1 = [], [], []
    for seed in seeds:
        for r in range(4):
            inner.append(ndcg(fit('%s/in%d-train.txt' % (work, r), args, seed), '%s/in%d-vali.txt' % (work, r)))
        m = fit(train, args, seed)
        v1.append(ndcg(m, vali))
        t1.append(ndcg(m, test))
    mean = lambda v: sum(v) / len(v)
    print('%-22s %9.4f %11.4f %10.4f  %s' % (name, mean(inner), mean(v1), mean(t1), ' '.join('%.4f' % t for t in t1)), flush=True)
