#!/usr/bin/python3
"""Make the extra XGBoost fixtures for the importer tests in engine/tree.

Run with Debian's python3 and its python3-xgboost (XGBoost 1.7.4):

    /usr/bin/python3 make_xgb_fixtures.py [MQ2008_FOLD1_DIR]

MQ2008_FOLD1_DIR defaults to /work/shared/data/mq2008/Fold1. Every model is
trained on train.txt and predicted on test.txt; each NAME.json gets a
NAME.pred.txt with XGBoost's own raw margin (output_margin=True) for every line
of test.txt, in file order, printed with 9 significant digits (exact for float32).

Fixtures:
  xgb-binary-logistic  binary:logistic on "label > 0", base_score 0.3 so that
                       the margin starts at logit(0.3), not at 0.
  xgb-missing          reg:squarederror trained on a CSR matrix without its
                       zeros, so XGBoost sees them as missing and learns
                       default_left directions. Predicted twice on dense input:
                       .pred.txt with the zeros as values (what cronus sees),
                       .nan.pred.txt with every zero replaced by NaN, which
                       exercises default_left against XGBoost's own rule.
  xgb-dart             booster dart: the per-tree weight_drop scales the leaves.
  xgb-poisson          count:poisson: the margin starts at log(base_score).
"""

import os
import sys

import numpy as np
import scipy.sparse as sp
import xgboost as xgb

NUM_FEATURES = 46


def read_svmlight(path):
    """Dense float32 matrix (features 1..46 in columns 0..45) and labels."""
    labels, rows = [], []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            labels.append(float(line[0]))
            row = np.zeros(NUM_FEATURES, dtype=np.float32)
            for tok in line[2:]:
                k, v = tok.split(":")
                row[int(k) - 1] = np.float32(v)
            rows.append(row)
    return np.array(rows, dtype=np.float32), np.array(labels, dtype=np.float32)


def write_pred(path, margins):
    with open(path, "w") as f:
        for v in margins:
            f.write("%.9g\n" % np.float32(v))


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/data/mq2008/Fold1"
    out = os.path.dirname(os.path.abspath(__file__))
    xtr, ytr = read_svmlight(os.path.join(src, "train.txt"))
    xte, _ = read_svmlight(os.path.join(src, "test.txt"))
    dense_test = xgb.DMatrix(xte)

    def save(name, booster, dtest=dense_test, suffix=".pred.txt"):
        booster.save_model(os.path.join(out, name + ".json"))
        write_pred(os.path.join(out, name + suffix),
                   booster.predict(dtest, output_margin=True))

    # binary:logistic on label > 0.
    dtrain = xgb.DMatrix(xtr, label=(ytr > 0).astype(np.float32))
    params = {"objective": "binary:logistic", "base_score": 0.3, "eta": 0.3,
              "max_depth": 3, "seed": 7, "tree_method": "exact", "nthread": 1}
    save("xgb-binary-logistic", xgb.train(params, dtrain, num_boost_round=20))

    # Zeros absent from the CSR matrix are missing to XGBoost.
    csr = sp.csr_matrix(xtr)
    csr.eliminate_zeros()
    dtrain = xgb.DMatrix(csr, label=ytr)
    params = {"objective": "reg:squarederror", "eta": 0.3, "max_depth": 4,
              "seed": 7, "tree_method": "hist", "nthread": 1}
    booster = xgb.train(params, dtrain, num_boost_round=30)
    save("xgb-missing", booster)
    nan_test = np.where(xte == 0, np.float32(np.nan), xte)
    write_pred(os.path.join(out, "xgb-missing.nan.pred.txt"),
               booster.predict(xgb.DMatrix(nan_test), output_margin=True))

    # DART: dropout during training leaves a weight per tree.
    dtrain = xgb.DMatrix(xtr, label=ytr)
    params = {"booster": "dart", "objective": "reg:squarederror", "eta": 0.3,
              "max_depth": 3, "rate_drop": 0.3, "skip_drop": 0.0,
              "normalize_type": "tree", "sample_type": "uniform", "seed": 7,
              "tree_method": "exact", "nthread": 1}
    save("xgb-dart", xgb.train(params, dtrain, num_boost_round=20))

    # count:poisson: base margin log(base_score).
    params = {"objective": "count:poisson", "base_score": 0.4, "eta": 0.3,
              "max_depth": 3, "seed": 7, "tree_method": "exact", "nthread": 1}
    save("xgb-poisson", xgb.train(params, dtrain, num_boost_round=10))


if __name__ == "__main__":
    main()
