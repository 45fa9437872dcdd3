"""Two base ensembles' fronts against each other, from the five folds' sweeps.

  bases.py A_DIR B_DIR

Each DIR is a BENCH_DIR of bench/cascade-folds.sh (its cascade-mq2008-fold1
... fold5, each curve pooled with its curve-uncapped.csv and, when
bench/last-prefix.sh has run, curve-lastprefix.csv, as front.py pools them).
The points are averaged over the folds as front.py averages them. On valid
and on test, at every cost where either run has a point, the script sets
the best Cronus point at no higher cost of A against B's, and A's Cronus
front against B's best baseline front (prefix, early exit, single stage):
bench/cascade.sh's BASE_DEPTH changes the base's trees, so its baselines
change too, and a user picks the base as well as the cascade. It prints
the counts of costs where A is on or above B, and the largest gaps.
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from front import points, BASELINES  # noqa: E402


def curves(d, lastprefix):
    out = []
    for f in range(1, 6):
        fd = os.path.join(d, 'cascade-mq2008-fold%d' % f)
        parts = [os.path.join(fd, 'curve.csv')]
        for extra in ['curve-uncapped.csv'] + (['curve-lastprefix.csv'] if lastprefix else []):
            if os.path.exists(os.path.join(fd, extra)):
                parts.append(os.path.join(fd, extra))
        if not os.path.exists(parts[0]):
            sys.exit('bases.py: %s: no curve.csv: run bench/cascade-folds.sh with BENCH_DIR=%s' % (fd, d))
        out.append('+'.join(parts))
    return out


def front(pts, split, methods):
    """The points of methods on split, as (cost, ndcg) sorted by cost."""
    return sorted(v for (m, s, _), v in pts.items() if s == split and m in methods)


def best(fr, c):
    """The best NDCG@10 at cost no higher than c, or None."""
    q = [n for cost, n in fr if cost <= c + 1e-9]
    return max(q) if q else None


def compare(name, a, b, costs):
    on = behind = none = 0
    gaps = []
    for c in costs:
        x, y = best(a, c), best(b, c)
        if y is None:
            continue
        if x is None:
            none += 1
            continue
        if x >= y:
            on += 1
        else:
            behind += 1
            gaps.append((y - x, c))
    worst = max(gaps) if gaps else None
    print('  %s: on or above at %d of %d costs, behind at %d%s%s' % (
        name, on, on + behind + none, behind,
        ' (A has no point that cheap at %d)' % none if none else '',
        ', by at most %.4f (at %.1f)' % worst if worst else ''))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    lp = os.environ.get('LASTPREFIX', '') == '1'
    a, b = (points(curves(d, lp)) for d in sys.argv[1:])
    print('A = %s, B = %s%s' % (sys.argv[1], sys.argv[2], ', last-prefix rows pooled' if lp else ''))
    for split in ('valid', 'test'):
        ca, cb = front(a, split, ('cronus',)), front(b, split, ('cronus',))
        ba, bb = front(a, split, BASELINES), front(b, split, BASELINES)
        costs = sorted({c for c, _ in ca + cb + ba + bb})
        print('%s (%d costs):' % (split, len(costs)))
        compare("A's Cronus front against B's", ca, cb, costs)
        compare("A's Cronus front against B's baseline front", ca, bb, costs)
        compare("A's baseline front against B's", ba, bb, costs)
        print('  best: A Cronus %.4f, A baseline %.4f, B Cronus %.4f, B baseline %.4f' % (
            max(n for _, n in ca), max(n for _, n in ba), max(n for _, n in cb), max(n for _, n in bb)))


if __name__ == '__main__':
    main()
