"""bench/front.py's comparisons, query by query: is a gap more than noise?

  paired.py CURVE.csv[+MORE.csv ...] [CURVE.csv[+MORE.csv ...] ...]

The arguments are front.py's (a + pools sweeps of one model and data; several
arguments are the folds of a data set), and each curve X.csv needs beside it
X.queries.tsv, the file `cronus sweep --out X.csv --per-query X.queries.tsv`
wrote in the same run: every point's NDCG@10 on each query of its split.

front.py sets each Cronus point against the best baseline point at no higher
cost, each baseline point against Cronus's front, and, by budget, the points
chosen on validation against each other on test. paired.py makes the same
choices (from front.py's means) and tests each pair on the queries: the mean
difference in NDCG@10, its paired standard error and the two-sided p of
Student's paired t test. With several folds a point's queries are those of
every fold's split (the folds' test sets are disjoint), each weighted by
1/(folds × its fold's queries), so that the mean difference is front.py's
difference of the fold means; the t test runs on the weighted differences.

A pair counts as significant at p < 0.05; with many pairs some are by
chance (1 in 20 where there is no difference), so the count that survives
Holm's step-down correction over the distinct pairs of a comparison is
given too (by budget, many budgets pick the same pair: it is tested once,
and counts at each of its budgets).
The baseline front's test points are each the best of many on test, so even
a significant gap there overstates what a baseline chosen on validation
would give; the by-budget comparison has no such choice.
"""
import collections, math, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import front  # noqa: E402

ALPHA = 0.05


def queries_path(curve):
    base = curve[:-4] if curve.endswith('.csv') else curve
    return base + '.queries.tsv'


def read_queries(paths):
    """Per fold (argument) and split, the qids in order, and per point
    (method, split, λ as front.py labels a pooled sweep's) its NDCG@10 on
    each of them."""
    folds = []
    for arg in paths:
        parts = [arg] if os.path.exists(arg) else arg.split('+')
        qids, vals = {}, {}
        for j, p in enumerate(parts):
            qp = queries_path(p)
            try:
                f = open(qp)
            except OSError as e:
                sys.exit('%s: %s (run cronus sweep --out %s --per-query %s)' % (qp, e.strerror, p, qp))
            with f:
                head = f.readline().rstrip('\n').split('\t')
                if head[:4] != ['method', 'split', 'lambda', 'qid'] or 'ndcg@10' not in head:
                    sys.exit('%s:1: not a cronus sweep --per-query file (its header is method, split, lambda, qid, p@5, ndcg@10, err@3)' % qp)
                col = head.index('ndcg@10')
                own = collections.defaultdict(list)
                for n, line in enumerate(f, 2):
                    r = line.rstrip('\n').split('\t')
                    if len(r) != len(head):
                        sys.exit('%s:%d: %d fields, the header has %d' % (qp, n, len(r), len(head)))
                    l = r[2] if j == 0 else '%s@%d' % (r[2], j + 1)
                    try:
                        v = float(r[col])
                    except ValueError:
                        sys.exit('%s:%d: ndcg@10 %r is not a number' % (qp, n, r[col]))
                    own[(r[0], r[1], l)].append((r[3], v))
            for k, qv in own.items():
                ids = [q for q, _ in qv]
                s = k[1]
                if s not in qids:
                    qids[s] = ids
                elif qids[s] != ids:
                    sys.exit('%s: %s %s %s: its queries are not those of the split\'s other points' % (qp, k[0], s, front.label(k[2])))
                vals.setdefault(k, [v for _, v in qv])
        folds.append((qids, vals))
    return folds


def pooled(folds, key):
    """key's per-query values over the folds, weighted so that their
    mean is the mean of the fold means; None when a fold lacks it."""
    split = key[1]
    n = sum(len(q[split]) for q, _ in folds if split in q)
    out = []
    for qids, vals in folds:
        v = vals.get(key)
        if v is None:
            return None
        w = n / (len(folds) * len(v))
        out.extend(x * w for x in v)
    return out


def betainc(a, b, x):
    """The regularised incomplete beta function I_x(a, b), by its continued
    fraction (Lentz's method, as Numerical Recipes' betacf)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    if x > (a + 1) / (a + b + 2):
        return 1 - betainc(b, a, 1 - x)
    tiny = 1e-300

    def nz(v):
        return v if abs(v) > tiny else tiny

    front_ = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)) / a
    c, d = 1.0, 1 / nz(1 - (a + b) * x / (a + 1))
    h = d
    for m in range(1, 10000):
        for aa in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                   -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 / nz(1 + aa * d)
            c = nz(1 + aa / c)
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return front_ * h


def paired(a, b):
    """a − b query by query: mean difference, its standard error and the
    two-sided p of Student's paired t test (1 when every difference is 0,
    0 when they are all the same non-zero value)."""
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    m = sum(d) / n
    if n < 2:
        return m, float('nan'), float('nan')
    var = sum((x - m) ** 2 for x in d) / (n - 1)
    se = math.sqrt(var / n)
    if se == 0:
        return m, 0.0, 1.0 if m == 0 else 0.0
    t = m / se
    df = n - 1
    return m, se, betainc(df / 2, 0.5, df / (df + t * t))


def holm_cut(ps):
    """The largest p that Holm's step-down procedure rejects at ALPHA
    among ps (-1 when none): every p at or below it is rejected."""
    cut = -1.0
    for i, p in enumerate(sorted(ps)):
        if p > ALPHA / (len(ps) - i):
            break
        cut = p
    return cut


def tally(name, tests, unit='pairs'):
    """A line counting the tests (diff, p, n) of one comparison, each
    standing for n of unit (a pair, or the budgets that pick it): where
    cronus, the first of each pair, is ahead and where behind, and at how
    many of each p < ALPHA, alone and after Holm's correction over the
    tests (the distinct pairs)."""
    cut = holm_cut([p for _, p, _ in tests])

    def count(sign, sig):
        return sum(n for d, p, n in tests if d * sign > 0 and sig(p))

    print('  %s: %d %s; cronus ahead at %d (p < %.2g at %d, after Holm\'s correction over %d pairs %d), behind at %d (p < %.2g at %d, after Holm\'s %d)' % (
        name, sum(n for _, _, n in tests), unit, count(1, lambda p: True), ALPHA, count(1, lambda p: p < ALPHA), len(tests), count(1, lambda p: p <= cut),
        count(-1, lambda p: True), ALPHA, count(-1, lambda p: p < ALPHA), count(-1, lambda p: p <= cut)))


def main():
    paths = sys.argv[1:]
    if not paths or paths[0] in ('-h', '--help'):
        sys.exit(__doc__)
    pts = front.points(paths)
    folds = read_queries(paths)
    vec = {}
    for k, (c, q) in pts.items():
        v = pooled(folds, k)
        if v is None:
            sys.exit('paired.py: %s %s %s is in the curves but not in every per-query file' % (k[0], k[1], front.label(k[2])))
        if abs(sum(v) / len(v) - q) > 1e-9:
            sys.exit('paired.py: %s %s %s: the per-query values average %.12g, the curve says %.12g: not the same sweep?' % (
                k[0], k[1], front.label(k[2]), sum(v) / len(v), q))
        vec[k] = v
    what = 'mean over %d curves' % len(paths) if len(paths) > 1 else paths[0]

    def test(x, y):
        """x against y (keys): diff, se, p."""
        return paired(vec[x], vec[y])

    for split in ('valid', 'test'):
        base, cron = front.split_points(pts, split)
        if not base or not cron:
            print('%s, %s: no rows' % (split, what))
            continue
        nq = len(vec[('cronus', split, cron[0][2])])
        print('%s, %s (%d queries): cronus point against the best baseline at no higher cost, NDCG@10, paired t test' % (split, what, nq))
        tests = []
        for c, n, l in cron:
            best = front.best_baseline(base, c)
            if best is None:
                print('  λ %-9s cost %7.1f ndcg@10 %.4f   no baseline that cheap' % (front.label(l), c, n))
                continue
            d, se, p = test(('cronus', split, l), (best[0], split, best[1]))
            tests.append((d, p, 1))
            print('  λ %-9s cost %7.1f ndcg@10 %.4f   %s %s: cost %.1f ndcg@10 %.4f   diff %+.4f se %.4f p %.3g%s' % (
                front.label(l), c, n, best[0], front.label(best[1]), best[2], best[3], d, se, p, ' *' if p < ALPHA else ''))
        tally('cronus points', tests)
        # Every baseline point above Cronus's front, against the best
        # Cronus point at no higher cost (front.py's "at every cost").
        tests, none = [], 0
        for m, l, c, n in sorted(base, key=lambda b: b[2]):
            best = front.best_cronus(cron, c)
            if best is None:
                none += 1
                continue
            q, ll = best
            if q < n:
                d, se, p = test(('cronus', split, ll), (m, split, l))
                tests.append((d, p, 1))
        print('  at every cost: %d baseline points lie above cronus\'s front (and %d are cheaper than any cronus point)' % (len(tests), none))
        if tests:
            tally('baseline points above cronus\'s front', tests, 'points')
            worst = min(tests, key=lambda t: t[1])
            print('    the smallest p among them: %.3g (diff %+.4f)' % (worst[1], worst[0]))
    pairs = front.budget_pairs(pts)
    if not pairs:
        return
    print('by budget, points chosen on validation, test: cronus against the baseline')
    seen = {}  # pair -> [diff, p, budgets], in order of first budget
    for b, cr, bl in pairs:
        if cr is None or bl is None:
            continue
        pair = (cr[1], bl[0], bl[1])
        if pair not in seen:
            d, se, p = test(('cronus', 'test', cr[1]), (bl[0], 'test', bl[1]))
            seen[pair] = [d, p, 0]
            print('  from budget %7.1f: cronus λ %-9s test %.4f   %s %s: test %.4f   diff %+.4f se %.4f p %.3g%s' % (
                b, front.label(cr[1]), cr[5], bl[0], front.label(bl[1]), bl[5], d, se, p, ' *' if p < ALPHA else ''))
        seen[pair][2] += 1
    print('  (each pair at the first budget that picks it, * where p < %.2g)' % ALPHA)
    tally('budgets', [tuple(v) for v in seen.values()], 'budgets')


if __name__ == '__main__':
    main()
