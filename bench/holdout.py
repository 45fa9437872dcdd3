"""Splits a LETOR training file by whole queries: one part to grow the
base ensemble's trees on, the other to fit the cascade on (bench/cascade.sh,
HOLDOUT).

  holdout.py TRAIN FRACTION BASE_OUT CASCADE_OUT

Query i (0-based, in file order) goes to CASCADE_OUT when
floor((i+1)·FRACTION) > floor(i·FRACTION), to BASE_OUT otherwise: FRACTION
0.5 sends every second query to the cascade, 0.25 every fourth, and the
split is the same on every run. Lines are copied as they are.
"""
import math, os, sys


def main():
    if len(sys.argv) != 5:
        sys.exit('usage: holdout.py TRAIN FRACTION BASE_OUT CASCADE_OUT')
    train, base_out, cascade_out = sys.argv[1], sys.argv[3], sys.argv[4]
    try:
        frac = float(sys.argv[2])
    except ValueError:
        frac = math.nan
    if not 0 < frac < 1:
        sys.exit('holdout.py: FRACTION must lie strictly between 0 and 1, not %s' % sys.argv[2])
    counts = [0, 0]
    tmps = [base_out + '.tmp', cascade_out + '.tmp']
    try:
        with open(train) as src, open(tmps[0], 'w') as b, open(tmps[1], 'w') as c:
            i, last, side = -1, None, None
            for n, line in enumerate(src, 1):
                f = line.split()
                if len(f) < 2 or not f[1].startswith('qid:'):
                    raise SystemExit('%s:%d: no qid: the second field must be qid:Q' % (train, n))
                if f[1] != last:
                    i, last = i + 1, f[1]
                    side = 1 if math.floor((i + 1) * frac) > math.floor(i * frac) else 0
                    counts[side] += 1
                (c if side else b).write(line)
        if not all(counts):
            raise SystemExit('holdout.py: %s has %d queries; FRACTION %s leaves one part empty' % (train, sum(counts), sys.argv[2]))
        os.replace(tmps[0], base_out)
        os.replace(tmps[1], cascade_out)
    finally:
        for t in tmps:  # nothing half-written is left
            if os.path.exists(t):
                os.remove(t)
    print('%s: %d queries for the trees (%s), %d for the cascade (%s)' % (train, counts[0], base_out, counts[1], cascade_out))

main()
