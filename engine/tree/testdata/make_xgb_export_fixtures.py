#!/usr/bin/python3
"""Make the fixtures of the exporter tests in engine/tree (export_xgboost_test.go).

Run with Debian's python3 and its python3-xgboost (XGBoost 1.7.4), from
anywhere, with Go on the PATH:

    /usr/bin/python3 make_xgb_export_fixtures.py

For each cronus model NAME.json below it runs `cronus export --to xgboost`
(`go run` in the repository) into NAME.xgb.json, loads that file into
XGBoost (Booster(model_file=...)) and writes NAME.xgb.pred.txt: XGBoost's
raw margin (output_margin=True) for each document, in order, with 9
significant digits (exact for float32). The test checks that the exporter
still writes NAME.xgb.json byte for byte, and that cronus's scores of
NAME.json are XGBoost's.

Models:
  export-lambdarank  cronus train --train builtin:mq2008/train --objective
                     lambdarank --trees 40 --leaves 15 --seed 1: rank:ndcg.
  export-binary      cronus train --train builtin:mq2008/train --objective
                     binary --trees 20 --leaves 7 --learning-rate 0.3
                     --seed 1: binary:logistic, whose base_score is the
                     sigmoid of cronus's base score.
  Both are predicted on the first 300 documents of mq2008-test.txt.gz,
  dense (every MQ2008 line gives all 46 features).
  export-edge        written by hand: 3 features, thresholds 0.5, -1.25,
                     1e-07 and -0.5, NaN sent left at some splits and right
                     at others, a single-leaf tree, base score 0.3.
                     Predicted on export-edge.data.txt, rows of values at,
                     just above and just below each threshold (float32
                     neighbours), 0 and NaN (missing to XGBoost).
  export-inf         written by hand: 2 features, splits at the largest
                     float32 (what a LightGBM split of NaN from every
                     number, threshold 1e300, imports as), which XGBoost's
                     x < c says with c = Infinity; NaN sent right there,
                     left at the split under one of them; base score
                     0.25. Predicted on export-inf.data.txt, rows of
                     -3.4028235e+38, -1, 0, 0.5 and its float32
                     neighbours, 1, 3.4028235e+38 and NaN.
"""

import gzip
import os
import subprocess

import numpy as np
import xgboost as xgb

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.abspath(os.path.join(here, '..', '..', '..'))


def mq2008_test(n):
    rows = []
    with gzip.open(os.path.join(here, 'mq2008-test.txt.gz'), 'rt') as f:
        for line in f:
            x = np.zeros(46, dtype=np.float32)
            for t in line.split('#')[0].split()[2:]:
                i, v = t.split(':')
                x[int(i) - 1] = np.float32(v)
            rows.append(x)
            if len(rows) == n:
                break
    return np.array(rows)


def edge_data():
    f32 = np.float32
    def around(v):
        v = f32(v)
        return [np.nextafter(v, f32(-np.inf)), v, np.nextafter(v, f32(np.inf))]
    cols = [around(0.5) + around(-0.5) + [f32(0), f32(np.nan)],
            around(-1.25) + [f32(0), f32(np.nan)],
            around(1e-07) + [f32(0), f32(np.nan)]]
    rows = []
    for a in cols[0]:
        for b in cols[1]:
            for c in cols[2]:
                rows.append([a, b, c])
    return np.array(rows, dtype=np.float32)


def inf_data():
    f32 = np.float32
    big = np.finfo(f32).max
    half = f32(0.5)
    vals = [-big, f32(-1), f32(0), np.nextafter(half, f32(-np.inf)), half,
            np.nextafter(half, f32(np.inf)), f32(1), big, f32(np.nan)]
    return np.array([[a, b] for a in vals for b in vals], dtype=np.float32)


def export(name):
    subprocess.run(['go', 'run', '.', 'export', '--model', os.path.join(here, name + '.json'),
                    '--to', 'xgboost', '--out', os.path.join(here, name + '.xgb.json')],
                   cwd=repo, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def predict(name, X):
    b = xgb.Booster(model_file=os.path.join(here, name + '.xgb.json'))
    b.set_param({'nthread': 2})
    p = b.predict(xgb.DMatrix(X, missing=np.nan), output_margin=True)
    with open(os.path.join(here, name + '.xgb.pred.txt'), 'w') as f:
        for v in p:
            f.write('%.9g\n' % v)


def main():
    X = mq2008_test(300)
    for name in ('export-lambdarank', 'export-binary'):
        export(name)
        predict(name, X)
    E = edge_data()
    with open(os.path.join(here, 'export-edge.data.txt'), 'w') as f:
        for r in E:
            f.write('\t'.join('%.9g' % v for v in r) + '\n')
    export('export-edge')
    predict('export-edge', E)
    I = inf_data()
    with open(os.path.join(here, 'export-inf.data.txt'), 'w') as f:
        for r in I:
            f.write('\t'.join('%.9g' % v for v in r) + '\n')
    export('export-inf')
    predict('export-inf', I)


if __name__ == '__main__':
    main()
