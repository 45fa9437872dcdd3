"""Two variants' Cronus curves against each other, by budget.

  compare.py 'A_CURVES' 'B_CURVES' [BUDGET,BUDGET,...]

A_CURVES and B_CURVES are each one sweep curve (cronus sweep --out) or a
glob of several (the folds of a data set, averaged point by point as
bench/front.py averages them). For each budget, on valid and on test, the
script prints each variant's best Cronus NDCG@10 at no more than that
mean cost per document. For example, δ 1.3 against δ 2 over the five MQ2008
folds:

  BENCH_DIR=/tmp/a bash bench/cascade-folds.sh
  CASCADE_ARGS='--delta 2' BENCH_DIR=/tmp/b bash bench/cascade-folds.sh
  python3 bench/compare.py '/tmp/a/cascade-mq2008-fold*/curve.csv' \\
      '/tmp/b/cascade-mq2008-fold*/curve.csv' 50,100,200,300,700
"""
import glob, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from front import points  # noqa: E402


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    variants = []
    for pattern in sys.argv[1:3]:
        paths = sorted(glob.glob(pattern))
        if not paths:
            sys.exit('compare.py: no curve matches %s' % pattern)
        variants.append((pattern, paths, points(paths)))
    try:
        budgets = [float(b) for b in sys.argv[3].split(',')] if len(sys.argv) == 4 else None
    except ValueError:
        sys.exit('compare.py: budgets %r: want numbers separated by commas, such as 50,100,200' % sys.argv[3])
    for pattern, paths, pts in variants:
        if not any(m == 'cronus' for (m, _, _) in pts):
            sys.exit('compare.py: %s: no cronus rows (a curve of cronus sweep --out, or cronus cascade --curve?)' % pattern)
    for pattern, paths, _ in variants:
        print('%s: %d curve%s' % (pattern, len(paths), 's' if len(paths) > 1 else ''))
    for split in ('valid', 'test'):
        curves = [sorted((c, q) for (m, s, _), (c, q) in pts.items() if m == 'cronus' and s == split) for _, _, pts in variants]
        bs = budgets or sorted({c for cv in curves for c, _ in cv})
        print('%s: best cronus NDCG@10 at no more than the cost, A / B' % split)
        for b in bs:
            best = [max((q for c, q in cv if c <= b), default=None) for cv in curves]
            print('  %7.1f  %s' % (b, ' / '.join('%.4f' % q if q is not None else '-' for q in best)))


main()
