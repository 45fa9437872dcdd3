"""Cronus against the baseline front, from sweep curves (cronus sweep --out).

  front.py CURVE.csv [CURVE.csv ...]

With several curves (the folds of a data set) each point (method, split, λ)
is averaged over them, cost per document and NDCG@10; points missing from
one curve are left out. Then, on valid and on test, every Cronus point is
set against the best baseline point (prefix, early exit, single stage) at no
higher cost: this picks the baseline on the split itself, which favours the
baselines. Last, by budget, the way a user picks: for each Cronus point's
validation cost, the Cronus point and the baseline point with the best
validation NDCG@10 at no more than that cost, compared on test.
"""
import collections, csv, sys

BASELINES = ('prefix', 'early-exit', 'single-stage')


def points(paths):
    acc = collections.defaultdict(list)
    for p in paths:
        for r in csv.DictReader(open(p)):
            acc[(r['method'], r['split'], r['lambda'])].append((float(r['cost']), float(r['ndcg@10'])))
    n = len(paths)
    return {k: (sum(c for c, _ in v) / n, sum(q for _, q in v) / n) for k, v in acc.items() if len(v) == n}


def main():
    paths = sys.argv[1:]
    pts = points(paths)
    what = 'mean over %d curves' % len(paths) if len(paths) > 1 else paths[0]
    for split in ('valid', 'test'):
        base = [(m, l, c, n) for (m, s, l), (c, n) in pts.items() if s == split and m in BASELINES]
        cron = sorted((c, n, l) for (m, s, l), (c, n) in pts.items() if s == split and m == 'cronus')
        print('%s, %s: cronus point -> best baseline at no higher cost' % (split, what))
        above = 0
        for c, n, l in cron:
            ok = [b for b in base if b[2] <= c]
            best = max(ok, key=lambda b: b[3]) if ok else None
            if best is None or n >= best[3]:
                above += 1
            print('  λ %-9.4g cost %7.1f ndcg@10 %.4f   %s' % (float(l), c, n,
                  '%s %s: cost %.1f ndcg@10 %.4f' % best if best else 'no baseline that cheap'))
        print('  cronus on or above the front at %d of %d points' % (above, len(cron)))
    P = collections.defaultdict(dict)
    for (m, s, l), v in pts.items():
        P[(m, l)][s] = v
    cand = [(m, l, v['valid'][0], v['valid'][1], v['test'][0], v['test'][1]) for (m, l), v in P.items() if 'valid' in v and 'test' in v]

    def pick(methods, budget):
        ok = [c for c in cand if c[0] in methods and c[2] <= budget]
        return max(ok, key=lambda c: c[3]) if ok else None

    print('by budget, points chosen on validation, test figures: cronus -> best baseline')
    wins, budgets = 0, sorted(c[2] for c in cand if c[0] == 'cronus')
    for b in budgets:
        cr, bl = pick({'cronus'}, b), pick(set(BASELINES), b)
        wins += bl is None or cr[5] >= bl[5]
        print('  budget %7.1f: cronus λ %-9.4g test %.4f at %7.1f   %s' % (b, float(cr[1]), cr[5], cr[4],
              '%s %.4g: test %.4f at %.1f' % (bl[0], float(bl[1]), bl[5], bl[4]) if bl else 'no baseline that cheap'))
    print('  cronus on or above the baseline at %d of %d budgets' % (wins, len(budgets)))


if __name__ == '__main__':
    main()
