"""What choosing on validation does to validation figures (bench/split-valid.sh).

  splitvalid.py merge OTHER.csv TEST.csv OUT.csv
  splitvalid.py bias FOLD_DIR...

`cronus sweep` chooses ρ on validation (for Cronus and the single stage)
and keeps Cronus's best cycle on validation, so a point's validation figure
is the best of several. bench/split-valid.sh halves each fold's validation
queries into A and B and sweeps twice per half S (O the other half): with
--valid S --test O (selS-onO.csv) and with --valid S --test TEST
(selS-ontest.csv); the runs choose alike, so their rows are the same
points.

merge writes OUT.csv, a curve whose validation rows are OTHER's test rows
(the half that chose nothing) and whose test rows are TEST's, and
OUT.queries.tsv from the two curves' per-query files (X.csv's is
X.queries.tsv) when both are there, for bench/front.py and bench/paired.py.

bias prints, per method, the mean over the folds' points and both halves of
NDCG@10 on the half that chose minus NDCG@10 on the other half. The
halves' own difference in difficulty enters once with each sign and
cancels, so a method that chooses nothing on validation (prefix, early
exit) comes out at 0 and the others at what the choice adds to their
validation figures.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paired import queries_path  # noqa: E402


def read_csv(path):
    with open(path, newline='') as f:
        rows = list(csv.reader(f))
    if not rows or rows[0][:3] != ['method', 'split', 'lambda']:
        sys.exit('splitvalid.py: %s: not a curve (its header must start method,split,lambda)' % path)
    return rows[0], rows[1:]


def read_tsv(path):
    with open(path) as f:
        lines = f.read().splitlines()
    if not lines or lines[0].split('\t')[:3] != ['method', 'split', 'lambda']:
        sys.exit('splitvalid.py: %s: not a per-query file (its header must start method, split, lambda)' % path)
    return lines[0], [l.split('\t') for l in lines[1:] if l]


def write(path, text):
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


def relabel(rows, split, to):
    return [[r[0], to] + r[2:] for r in rows if len(r) > 1 and r[1] == split]


def merge(other, test, out):
    head, o = read_csv(other)
    head2, t = read_csv(test)
    if head != head2:
        sys.exit('splitvalid.py: %s and %s have different columns' % (other, test))
    lines = [head] + relabel(o, 'test', 'valid') + relabel(t, 'test', 'test')
    write(out, ''.join(','.join(r) + '\n' for r in lines))
    qo, qt = queries_path(other), queries_path(test)
    if os.path.exists(qo) and os.path.exists(qt):
        h, o = read_tsv(qo)
        _, t = read_tsv(qt)
        rows = [h.split('\t')] + relabel(o, 'test', 'valid') + relabel(t, 'test', 'test')
        write(queries_path(out), ''.join('\t'.join(r) + '\n' for r in rows))


def ndcg(path, split):
    head, rows = read_csv(path)
    col = head.index('ndcg@10')
    return {(r[0], r[2]): float(r[col]) for r in rows if r[1] == split}


def bias(dirs):
    sums = {}
    for d in dirs:
        for s, o in (('A', 'B'), ('B', 'A')):
            chose = ndcg(os.path.join(d, 'sel%s-ontest.csv' % s), 'valid')
            other = ndcg(os.path.join(d, 'sel%s-on%s.csv' % (s, o)), 'test')
            if chose.keys() != other.keys():
                sys.exit('splitvalid.py: %s: the two sweeps choosing on %s have different points' % (d, s))
            for (method, lam), v in chose.items():
                n, total = sums.get(method, (0, 0.0))
                sums[method] = (n + 1, total + v - other[(method, lam)])
    print('NDCG@10 on the validation half that chose, minus on the other half (mean over %d folds, both halves):' % len(dirs))
    for method in sorted(sums):
        n, total = sums[method]
        print('  %-13s %+.4f over %d points' % (method, total / n, n))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == 'merge' and len(sys.argv) == 5:
        merge(*sys.argv[2:])
    elif len(sys.argv) >= 3 and sys.argv[1] == 'bias':
        bias(sys.argv[2:])
    else:
        sys.exit('usage: splitvalid.py merge OTHER.csv TEST.csv OUT.csv | splitvalid.py bias FOLD_DIR...')


if __name__ == '__main__':
    main()
