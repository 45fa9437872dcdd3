#!/usr/bin/python3
"""Make the XGBoost fixtures of the feature-contribution tests in engine/tree
(contrib_test.go): small models and XGBoost's own TreeSHAP values for them.

Run with Debian's python3 and its python3-xgboost (XGBoost 1.7.4), from
anywhere:

    /usr/bin/python3 make_xgb_contrib_fixtures.py

It trains on the first 2,000 documents (whole queries) of the repository's
data/builtin/mq2008/train.txt.gz and computes
Booster.predict(DMatrix, pred_contribs=True) on the first 50 documents of
testdata/mq2008-test.txt.gz. Each model is saved as NAME.json; xgb-shap.json
holds, per model file, "nan_zeros" (every 0 of the test documents was given
to XGBoost as NaN, missing) and "contribs", a row per document of 47 numbers:
features 1..46 (XGBoost's f0..f45), then the bias, with 9 significant digits
(exact for XGBoost's float32s), and "margin", its output_margin=True score.

Models (8 trees each, eta 0.3):
  xgb-shap-rank       rank:ndcg, depthwise (max_depth 4), tree_method hist.
  xgb-shap-lossguide  reg:squarederror, lossguide (max_leaves 12, no depth
                      limit), tree_method hist.
  xgb-shap-missing    reg:squarederror, exact, max_depth 5, trained with
                      every 0 as NaN (missing), so that splits learn default
                      directions; its contributions are on test documents
                      with their zeros as NaN (cronus predict --absent
                      missing on mq2008-test-sparse.txt.gz reads them so).
"""

import gzip
import json
import os

import numpy as np
import xgboost as xgb

NUM_FEATURES = 46
TRAIN_DOCS = 2000
TEST_DOCS = 50


def parse(lines):
    x = np.zeros((len(lines), NUM_FEATURES), dtype=np.float32)
    y = np.zeros(len(lines), dtype=np.float32)
    qid = []
    for i, l in enumerate(lines):
        toks = l.partition("#")[0].split()
        y[i] = float(toks[0])
        qid.append(int(toks[1].split(":")[1]))
        for t in toks[2:]:
            k, v = t.split(":")
            x[i, int(k) - 1] = np.float32(float(v))
    return x, y, np.array(qid)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.normpath(os.path.join(here, "..", "..", ".."))
    with gzip.open(os.path.join(repo, "data/builtin/mq2008/train.txt.gz"), "rt") as f:
        train_lines = [l for l in f if l.strip()]
    with gzip.open(os.path.join(here, "mq2008-test.txt.gz"), "rt") as f:
        test_lines = [l for l in f if l.strip()][:TEST_DOCS]
    xtr, ytr, qtr = parse(train_lines)
    # Whole queries: cut at the first query boundary from TRAIN_DOCS on.
    n = TRAIN_DOCS
    while n < len(qtr) and qtr[n] == qtr[n - 1]:
        n += 1
    xtr, ytr, qtr = xtr[:n], ytr[:n], qtr[:n]
    xte, _, _ = parse(test_lines)
    nan = lambda x: np.where(x == 0, np.float32(np.nan), x)

    out = {}

    def save(name, booster, xtest, nan_zeros):
        booster.save_model(os.path.join(here, name + ".json"))
        d = xgb.DMatrix(xtest)
        contribs = booster.predict(d, pred_contribs=True)
        margin = booster.predict(d, output_margin=True)
        assert contribs.shape == (len(xtest), NUM_FEATURES + 1)
        out[name + ".json"] = {
            "nan_zeros": nan_zeros,
            "contribs": [[float("%.9g" % v) for v in row] for row in contribs],
            "margin": [float("%.9g" % v) for v in margin],
        }

    _, sizes = np.unique(qtr, return_counts=True)
    drank = xgb.DMatrix(xtr, label=ytr)
    drank.set_group(sizes)
    params = {"objective": "rank:ndcg", "eta": 0.3, "max_depth": 4,
              "tree_method": "hist", "seed": 7, "nthread": 1}
    save("xgb-shap-rank", xgb.train(params, drank, num_boost_round=8), xte, False)

    dreg = xgb.DMatrix(xtr, label=ytr)
    params = {"objective": "reg:squarederror", "eta": 0.3, "grow_policy": "lossguide",
              "max_leaves": 12, "max_depth": 0, "tree_method": "hist", "seed": 7, "nthread": 1}
    save("xgb-shap-lossguide", xgb.train(params, dreg, num_boost_round=8), xte, False)

    dmiss = xgb.DMatrix(nan(xtr), label=ytr)
    params = {"objective": "reg:squarederror", "eta": 0.3, "max_depth": 5,
              "tree_method": "exact", "seed": 7, "nthread": 1}
    save("xgb-shap-missing", xgb.train(params, dmiss, num_boost_round=8), nan(xte), True)

    with open(os.path.join(here, "xgb-shap.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
