"""Cronus against the baseline front, from sweep curves (cronus sweep --out).

  front.py CURVE.csv[+MORE.csv ...] [CURVE.csv[+MORE.csv ...] ...]

CURVE.csv+MORE.csv is one curve pooled from several sweeps of the same
model and data (bench/cascade.sh pools its λ grid with a sweep of the
uncapped λ schedule near λ_max, --stage-cap 0): every point of each counts,
the second sweep's λ shown as λ@2, the third's λ@3, but a baseline point
or a Cronus cascade a later sweep repeats counts once. With several curves
(the folds of a data set) each point (method, split, λ) is averaged over
them, cost per document and NDCG@10; points missing from one curve are
left out. Then, on valid and on test, every Cronus point is
set against the best baseline point (prefix, early exit, single stage) at no
higher cost: this picks the baseline on the split itself, which favours the
baselines; and at every cost: at each baseline point's cost too, the best
Cronus point at no higher cost against it (the goal's "on or above the
best baseline front at every cost"). It counts two things there: the
baseline points that lie above Cronus's front (each at its own cost), and
the distinct baseline costs where the baseline front (the best baseline at
no higher cost) is above Cronus's front. The goal holds when both are 0;
the second is the larger when a baseline point below Cronus's front sits
where a cheaper baseline point is still above it. Last, by budget, the way
a user picks: for each point's (Cronus's and the baselines') validation
cost, the Cronus point and the baseline point with the best
validation NDCG@10 at no more than that cost, compared on test; many
budgets pick the same pair (every budget past Cronus's dearest point),
so the verdict counts both budgets and distinct pairs.

A Cronus point that equals a baseline point on some curve (the same split,
cost and NDCG@10) is a cascade that on that data is the baseline: the
first k stages of a cascade whose earlier stages keep no tree or send no
document away, with a prefix as the k-th (bench/cut-prefixes.sh), or a
cascade of the uncapped schedule whose last stage alone keeps trees. Their
number is printed; they count as Cronus points unless DISTINCT=1 is in the
environment, which leaves them out (here and in bench/paired.py).

A sweep's Cronus and single-stage validation rows are the best of choices
made on that validation set (ρ, and Cronus's best cycle), the prefixes' and
early exit's are not: the validation comparisons favour the first two (on
MQ2008 by 0.006-0.010 NDCG@10: bench/split-valid.sh). The test comparisons
and the by-budget ones, which compare on test, do not.
"""
import collections, csv, math, os, sys

BASELINES = ('prefix', 'early-exit', 'single-stage')


def label(l):
    """A point's λ (k for a prefix, s for early exit) to 4 digits, with its
    sweep's @j in a pooled curve; early exit's +Inf as written; a cascade's
    first k stages (bench/stage-prefixes.sh's λ#k) as λ#k."""
    v, _, j = l.partition('@')
    v, _, k = v.partition('#')
    f = float(v)
    return '%s%s%s' % ('%.4g' % f if math.isfinite(f) else v, '#' + k if k else '', '@' + j if j else '')


def distinct():
    """Whether DISTINCT=1 is in the environment: twins left out."""
    return os.environ.get('DISTINCT') == '1'


def same_point(split, cost, ndcg):
    """What makes two points of one curve the same point: the split, cost
    and NDCG@10 (rounded past a CSV's printing noise)."""
    return split, round(cost, 6), round(ndcg, 9)


def points(paths, twins=None):
    """The points of the curves, (method, split, λ) -> (cost, ndcg@10)
    averaged over them. The Cronus points (their λ labels) that equal a
    baseline point on some curve are added to the set twins if one is
    given, and with DISTINCT=1 in the environment left out."""
    twins = set() if twins is None else twins
    acc = collections.defaultdict(list)
    for arg in paths:
        # A name with a + in it that exists is a file; else the + pools.
        parts = [arg] if os.path.exists(arg) else arg.split('+')
        own = {}
        for j, p in enumerate(parts):
            if not p:
                sys.exit('front.py: %s: an empty name in a pooled curve (A.csv+B.csv)' % arg)
            try:
                with open(p) as f:
                    for r in csv.DictReader(f):
                        l = r['lambda'] if j == 0 else '%s@%d' % (r['lambda'], j + 1)
                        # a sweep writes a point once: the first is kept
                        own.setdefault((r['method'], r['split'], l), (float(r['cost']), float(r['ndcg@10'])))
            except OSError as e:
                sys.exit('%s: %s' % (p, e.strerror))
            except (KeyError, ValueError, AttributeError) as e:
                sys.exit('%s: not a cronus sweep curve (cronus sweep --out): %s %s' % (p, type(e).__name__, e))
        # A Cronus point that equals a baseline point of this curve on a
        # split, cost and NDCG@10 alike, is a cascade that on this data is
        # that baseline (a cut whose earlier stages keep no tree or send no
        # document away, in front of a prefix): a twin.
        base = {same_point(s, c, q) for (m, s, _), (c, q) in own.items() if m in BASELINES}
        twins.update(l for (m, s, l), (c, q) in own.items() if m == 'cronus' and same_point(s, c, q) in base)
        for k, v in own.items():
            acc[k].append(v)
    n = len(paths)
    pts = {k: (sum(c for c, _ in v) / n, sum(q for _, q in v) / n) for k, v in acc.items() if len(v) == n}
    # A later sweep's point that is, on every split, one of the same
    # method the pool has already (the same baseline point; the uncapped
    # sweep's single-stage cascade at several λ) counts once: it adds a
    # row, not a point. Judged on the means, so that the folds keep the
    # same points.
    groups = collections.defaultdict(dict)
    for (m, s, l), v in pts.items():
        groups[(m, l)][s] = v
    seen = set()
    for m, l in sorted(groups, key=lambda k: ('@' in k[1], k)):
        sig = (m, tuple(sorted(groups[(m, l)].items())))
        if '@' in l and sig in seen:
            for s in groups[(m, l)]:
                del pts[(m, s, l)]
        seen.add(sig)
    if distinct():
        for k in [k for k in pts if k[0] == 'cronus' and k[2] in twins]:
            del pts[k]
    return pts


def split_points(pts, split):
    """The baseline points of split, (method, λ, cost, ndcg@10), and its
    Cronus points, (cost, ndcg@10, λ) in order of cost."""
    base = [(m, l, c, n) for (m, s, l), (c, n) in pts.items() if s == split and m in BASELINES]
    cron = sorted((c, n, l) for (m, s, l), (c, n) in pts.items() if s == split and m == 'cronus')
    return base, cron


def best_baseline(base, cost):
    """The best of split_points's baseline points at no more than cost
    (ties: the cheaper, then the first, as baseline.BestBaseline breaks
    them for sweep --json's against_baseline), or None."""
    ok = [b for b in base if b[2] <= cost]
    return max(ok, key=lambda b: (b[3], -b[2])) if ok else None


def best_cronus(cron, cost):
    """The best of split_points's Cronus points at no more than cost,
    (ndcg@10, λ), or None."""
    ok = [(q, l) for c, q, l in cron if c <= cost]
    return max(ok) if ok else None


def budget_pairs(pts):
    """By budget, the way a user picks: for each point's validation cost
    (Cronus's and the baselines'), the Cronus point and the baseline point
    with the best validation NDCG@10 at no more than that cost, each
    (method, λ, valid cost, valid ndcg@10, test cost, test ndcg@10) or
    None: (budget, cronus, baseline) in order of budget."""
    P = collections.defaultdict(dict)
    for (m, s, l), v in pts.items():
        P[(m, l)][s] = v
    cand = [(m, l, v['valid'][0], v['valid'][1], v['test'][0], v['test'][1]) for (m, l), v in P.items() if 'valid' in v and 'test' in v]

    def pick(methods, budget):
        ok = [c for c in cand if c[0] in methods and c[2] <= budget]
        return max(ok, key=lambda c: c[3]) if ok else None

    # Budgets: every point's validation cost, the baselines' too (at
    # Cronus's alone a budget where a baseline point is better was missed).
    budgets = sorted({c[2] for c in cand if c[0] == 'cronus'} | {c[2] for c in cand if c[0] in BASELINES})
    return [(b, pick({'cronus'}, b), pick(set(BASELINES), b)) for b in budgets]


def main():
    paths = sys.argv[1:]
    if not paths or paths[0] in ('-h', '--help'):
        sys.exit(__doc__)
    twins = set()
    pts = points(paths, twins)
    # A curve without both kinds of rows (a header alone) would read as a
    # front met; so would cascade --curve's, whose only baseline row is
    # the full ensemble's (prefix, k = T): its cascade "beat" the
    # baselines at every cost. cronus sweep --out always has early-exit
    # rows, which cascade --curve never has.
    for want, kinds in (('cronus', {'cronus'}), ('early-exit', {'early-exit'}), ('prefix', {'prefix'})):
        if not any(m in kinds for (m, _, _) in pts):
            sys.exit('front.py: %s: no %s rows (cascade --curve has no baselines but the full ensemble); want the curve of cronus sweep --out' % (', '.join(paths), want))
    what = 'mean over %d curves' % len(paths) if len(paths) > 1 else paths[0]
    if twins:
        print('%d cronus points equal a baseline point on some curve (a cascade that is, on that data, the baseline): %s' % (
            len(twins), 'left out (DISTINCT=1)' if distinct() else 'counted; DISTINCT=1 leaves them out'))
    for split in ('valid', 'test'):
        base, cron = split_points(pts, split)
        if not base and not cron:
            # a sweep without --test: no verdict (it read "cronus front on
            # or above the baseline front" on no points at all)
            print('%s, %s: no rows' % (split, what))
            continue
        print('%s, %s: cronus point -> best baseline at no higher cost' % (split, what))
        above = 0
        for c, n, l in cron:
            best = best_baseline(base, c)
            if best is None or n >= best[3]:
                above += 1
            print('  λ %-9s cost %7.1f ndcg@10 %.4f   %s' % (label(l), c, n,
                  '%s %s: cost %.1f ndcg@10 %.4f' % (best[0], label(best[1]), best[2], best[3]) if best else 'no baseline that cheap'))
        print('  cronus on or above the front at %d of %d points' % (above, len(cron)))
        # Every cost: the fronts are step functions that change only at
        # the points' costs, so Cronus's front is on or above the
        # baselines' at every cost when, at every baseline point's cost
        # too, the best Cronus point at no higher cost is at least as
        # good. (Checking at Cronus's costs alone missed a baseline point
        # between two Cronus points.)
        below = []
        for m, l, c, n in sorted(base, key=lambda b: b[2]):
            q = best_cronus(cron, c)
            if q is None or q[0] < n:
                below.append((m, l, c, n, q[0] if q else None))
        # The fronts themselves at each distinct baseline cost: a baseline
        # point below Cronus's front still leaves the baseline front above
        # it there when a cheaper baseline point is above (the count above
        # is of points, not of costs).
        costs = sorted({b[2] for b in base})
        fronts_above = 0
        for c in costs:
            q = best_cronus(cron, c)
            if q is None or q[0] < best_baseline(base, c)[3]:
                fronts_above += 1
        print('  at every cost: %s' % ('cronus front on or above the baseline front' if not below else
              '%d of the %d baseline points lie above cronus\'s front; the baseline front is above cronus\'s at %d of the %d distinct costs where a baseline has a point:' % (
                  len(below), len(base), fronts_above, len(costs))))
        for m, l, c, n, q in below:
            print('    %s %s: cost %.1f ndcg@10 %.4f against cronus %s' % (m, label(l), c, n,
                  '%.4f (its best at no higher cost)' % q if q is not None else 'nothing that cheap'))
    print('by budget, points chosen on validation, test figures: cronus -> best baseline')
    pairs = budget_pairs(pts)
    wins = 0
    # Many budgets pick the same two points (every budget past the
    # dearest Cronus point, for one): each distinct choice counts once too.
    choices = {}
    for b, cr, bl in pairs:
        win = bl is None or (cr is not None and cr[5] >= bl[5])
        wins += win
        choices[(cr and cr[1], bl and (bl[0], bl[1]))] = win
        print('  budget %7.1f: %s   %s' % (b,
              'cronus λ %-9s test %.4f at %7.1f' % (label(cr[1]), cr[5], cr[4]) if cr else 'no cronus point that cheap',
              '%s %s: test %.4f at %.1f' % (bl[0], label(bl[1]), bl[5], bl[4]) if bl else 'no baseline that cheap'))
    print('  cronus on or above the baseline at %d of %d budgets (every point\'s validation cost); at %d of the %d distinct choices (pairs of points) they make' % (
        wins, len(pairs), sum(choices.values()), len(choices)))


if __name__ == '__main__':
    main()
