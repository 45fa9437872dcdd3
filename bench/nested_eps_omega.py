"""Nested choice of ε and ω⁺ on each MQ2008 fold's validation set (the
seventieth session's study, bench/MEASURED.md): for each fold, of the
runs below (bench/cascade-folds.sh with CASCADE_ARGS="--epsilon E
--pos-weight W", BENCH_DIR as listed), the one whose Cronus curve has the
best mean, over the budgets B, of the best validation NDCG@10 at no more
than the budget; each fold's chosen run is linked into OUT, for
bench/front.py and bench/paired.py on OUT/cascade-mq2008-fold*/curve.csv.

  python3 bench/nested_eps_omega.py OUT
"""
import csv, os, sys
B = [20, 40, 60, 100, 150, 200, 300, 400, 500, 700]
runs = {('0.15','3.5'): '/tmp/f5', ('0.08','3.5'): '/tmp/e0.08-5', ('0.25','3.5'): '/tmp/e0.25-5'}
for w in ['1','2','7','15']:
    runs[('0.15',w)] = f'/tmp/om5-{w}'
    for e in ['0.08','0.25']:
        runs[(e,w)] = f'/tmp/eo5-{e}-{w}'
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
tot = {}
for f in range(1, 6):
    score = {}
    for k, d in runs.items():
        pts = [(float(r['cost']), float(r['ndcg@10'])) for r in csv.DictReader(open(f'{d}/cascade-mq2008-fold{f}/curve.csv'))
               if r['method'] == 'cronus' and r['split'] == 'valid']
        score[k] = sum(max([n for c, n in pts if c <= b] or [0]) for b in B) / len(B)
        tot[k] = tot.get(k, 0) + score[k] / 5
    best = max(score, key=score.get)
    print('fold', f, 'picks ε %s ω⁺ %s' % best, '%.4f' % score[best])
    dst = f'{out}/cascade-mq2008-fold{f}'
    if os.path.islink(dst):
        os.remove(dst)
    os.symlink(f'{runs[best]}/cascade-mq2008-fold{f}', dst)
for k in sorted(tot, key=tot.get, reverse=True)[:6]:
    print('mean over folds: ε %s ω⁺ %s %.4f' % (k[0], k[1], tot[k]))
