"""Two base ensembles' fronts against each other, from the five folds' sweeps.

  bases.py A_DIR B_DIR

Each DIR is a BENCH_DIR of bench/cascade-folds.sh (its cascade-mq2008-fold1
... fold5, each curve pooled with its curve-uncapped.csv and, when
bench/last-prefix.sh has run and LASTPREFIX=1 is set, curve-lastprefix.csv,
as front.py pools them; DISTINCT=1 leaves out the twins, as there).
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
from front import points, split_points, best_baseline, best_cronus  # noqa: E402


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


def cronus_at(cron):
    """Cronus's front as a function: the best NDCG@10 at no more than a
    cost (front.py's best_cronus), or None."""
    return lambda c: (best_cronus(cron, c) or (None,))[0]


def baseline_at(base):
    """The baseline front as a function, from front.py's best_baseline."""
    def at(c):
        b = best_baseline(base, c)
        return b[3] if b else None
    return at


def compare(name, a, b, costs):
    """Prints where front a (a function of cost, as cronus_at makes) is on
    or above front b at each of costs where b has a point."""
    on = behind = none = 0
    gaps = []
    for c in costs:
        x, y = a(c), b(c)
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
        (ba, ca), (bb, cb) = split_points(a, split), split_points(b, split)
        costs = sorted({p[0] for p in ca + cb} | {p[2] for p in ba + bb})
        print('%s (%d costs):' % (split, len(costs)))
        compare("A's Cronus front against B's", cronus_at(ca), cronus_at(cb), costs)
        compare("A's Cronus front against B's baseline front", cronus_at(ca), baseline_at(bb), costs)
        compare("A's baseline front against B's", baseline_at(ba), baseline_at(bb), costs)
        print('  best: A Cronus %.4f, A baseline %.4f, B Cronus %.4f, B baseline %.4f' % (
            max(p[1] for p in ca), max(p[3] for p in ba), max(p[1] for p in cb), max(p[3] for p in bb)))


if __name__ == '__main__':
    main()
