#!/usr/bin/python3
"""Make the XGBoost fixtures of the importer audit in engine/tree.

Run with Debian's python3 and its python3-xgboost (XGBoost 1.7.4), from
anywhere:

    /usr/bin/python3 make_xgb_audit_fixtures.py

Fixtures:
  xgb-config, xgb-config-dart
                   Booster.save_config of a gbtree and a dart model: a
                   configuration, no trees; the import is refused, naming
                   save_model.
  xgb-early-forest rank:pairwise random forest boosted (num_parallel_tree
                   2, depth 2) with early stopping on MQ2008 vali, so that
                   best_iteration is below the last round. .pred.txt has
                   XGBoost's margins (output_margin=True) of the first 300
                   documents of testdata/mq2008-test.txt.gz with all the
                   trees (Booster.predict's default), .best.pred.txt with
                   iteration_range=(0, best_iteration+1), which is cronus's
                   --trees (best_iteration+1)*2.
  xgb-categorical-unused
                   trained with enable_categorical on a categorical f0
                   (feature_types "c") that is constant, so that no split
                   uses it, and a numeric f1: imported, as no split is
                   categorical. .pred.txt has XGBoost's margins of the rows
                   (f0, f1) = (0, k/4) for k = 0..11, one a line.
"""

import gzip
import os

import numpy as np
import xgboost as xgb

from make_xgb_fixtures import NUM_FEATURES, write_pred

DOCS = 300


def read_lines(lines):
    y, q, rows = [], [], []
    for line in lines:
        t = line.split("#", 1)[0].split()
        y.append(float(t[0]))
        q.append(int(t[1][4:]))
        row = np.zeros(NUM_FEATURES, dtype=np.float32)
        for kv in t[2:]:
            k, v = kv.split(":")
            row[int(k) - 1] = np.float32(v)
        rows.append(row)
    q = np.array(q)
    starts = np.flatnonzero(np.r_[True, q[1:] != q[:-1]])
    groups = np.diff(np.r_[starts, len(q)])
    return np.array(rows, dtype=np.float32), np.array(y, dtype=np.float32), groups


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.normpath(os.path.join(here, "..", "..", ".."))

    def data(path, n=None):
        with gzip.open(path, "rt") as f:
            lines = f.readlines()
        x, y, g = read_lines(lines[:n] if n else lines)
        d = xgb.DMatrix(x, label=y)
        d.set_group(g)
        return d

    train = data(os.path.join(repo, "data/builtin/mq2008/train.txt.gz"))
    vali = data(os.path.join(repo, "data/builtin/mq2008/vali.txt.gz"))
    test = data(os.path.join(here, "mq2008-test.txt.gz"), DOCS)

    for name, booster in [("xgb-config", "gbtree"), ("xgb-config-dart", "dart")]:
        params = {"booster": booster, "objective": "rank:pairwise", "max_depth": 3,
                  "seed": 7, "nthread": 1}
        if booster == "dart":
            params["rate_drop"] = 0.1
        b = xgb.train(params, train, num_boost_round=2)
        with open(os.path.join(here, name + ".json"), "w") as f:
            f.write(b.save_config())

    params = {"objective": "rank:pairwise", "eta": 0.3, "max_depth": 2, "num_parallel_tree": 2,
              "subsample": 0.8, "colsample_bynode": 0.8, "eval_metric": "ndcg@10",
              "seed": 7, "tree_method": "hist", "nthread": 1}
    b = xgb.train(params, train, num_boost_round=100, evals=[(vali, "vali")],
                  early_stopping_rounds=3, verbose_eval=False)
    assert b.best_iteration + 1 < b.num_boosted_rounds()
    b.save_model(os.path.join(here, "xgb-early-forest.json"))
    write_pred(os.path.join(here, "xgb-early-forest.pred.txt"), b.predict(test, output_margin=True))
    write_pred(os.path.join(here, "xgb-early-forest.best.pred.txt"),
               b.predict(test, output_margin=True, iteration_range=(0, b.best_iteration + 1)))
    print("best_iteration", b.best_iteration, "rounds", b.num_boosted_rounds())

    rng = np.random.default_rng(7)
    x = np.zeros((64, 2), dtype=np.float32)
    x[:, 1] = rng.random(64) * 3
    y = np.sin(x[:, 1]).astype(np.float32)
    d = xgb.DMatrix(x, label=y, feature_types=["c", "q"], enable_categorical=True)
    b = xgb.train({"tree_method": "hist", "max_depth": 2, "seed": 7, "nthread": 1}, d, num_boost_round=3)
    b.save_model(os.path.join(here, "xgb-categorical-unused.json"))
    rows = np.zeros((12, 2), dtype=np.float32)
    rows[:, 1] = np.arange(12) / 4
    write_pred(os.path.join(here, "xgb-categorical-unused.pred.txt"),
               b.predict(xgb.DMatrix(rows, feature_types=["c", "q"], enable_categorical=True), output_margin=True))


if __name__ == "__main__":
    main()
