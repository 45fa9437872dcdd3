#!/usr/bin/python3
"""Make xgb-train.json and its data files, the fixture of TestTrainMatchesXGBoost.

Run with Debian's python3 and its python3-xgboost (XGBoost 1.7.4), from
anywhere:

    /usr/bin/python3 make_xgb_train_fixtures.py

Each case is a small SVMlight file (written here, every feature given on
every line, so that XGBoost has no missing values) on which XGBoost trains
with the settings under which its trees and Cronus's must be the same:
tree_method hist with max_bin 256 on features of fewer than 255 distinct
values (so that both histograms are exact), grow_policy lossguide with
max_leaves and no depth limit, lambda = Cronus's --l2, alpha 0, gamma =
Cronus's --min-gain (0 but in regression-gamma, where it stops some splits),
min_child_weight = Cronus's --min-hessian (Cronus trains with --min-docs 1),
eta = --learning-rate, no subsampling, one thread. XGBoost 1.7 starts every
objective from base_score 0.5; each case sets base_score to where Cronus's
README says Cronus starts ("Boosting details"), computed here from the
labels: the label mean for regression, (positives + 0.5)/(documents + 1) for
binary, a positive being a label > 0. XGBoost's binary:logistic takes labels
in [0, 1] only, so it is given label > 0 while Cronus reads the graded file.

The fixture is one JSON object: "xgboost_version" and "cases", each with
"name", "data" (the file, beside this script), the Cronus "objective" and
"params" (trees, leaves, learning_rate, l2, min_hessian, min_gain), XGBoost's
"xgb_params", and "margins": XGBoost's output_margin=True scores of every
document of the file after 1, 2, ..., trees trees (float32 printed with 9
significant digits).

The cases avoid what is known to differ (README, "Boosting details"):
XGBoost splits only when the gain is above 1e-6 (kRtEps) and Cronus on any
positive gain, so every split XGBoost made here must gain more than 1e-3,
which the script checks, and every tree must have max_leaves leaves, unless
the case is about a tree that cannot split.
"""

import json
import os

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))


def write_svmlight(path, X, y):
    with open(path, "w") as f:
        for i in range(len(y)):
            feats = " ".join("%d:%s" % (j + 1, repr(float(X[i, j]))) for j in range(X.shape[1]))
            f.write("%s qid:1 %s\n" % (repr(float(y[i])), feats))


def margins(booster, dm, trees):
    return [[float("%.9g" % v) for v in booster.predict(dm, output_margin=True, iteration_range=(0, k))]
            for k in range(1, trees + 1)]


def check_gains(booster, leaves, full, gamma=0):
    short = 0
    for t, tree in enumerate(booster.get_dump(dump_format="json", with_stats=True)):
        tree = json.loads(tree)
        nleaves, stack = 0, [tree]
        while stack:
            n = stack.pop()
            if "leaf" in n:
                nleaves += 1
                continue
            assert n["gain"] > 1e-3 + gamma, "tree %d: a split gains %g, too close to kRtEps or gamma" % (t, n["gain"])
            stack.extend(n["children"])
        assert not full or nleaves == leaves, "tree %d has %d leaves, not %d" % (t, nleaves, leaves)
        short += nleaves < leaves
    assert not gamma or short, "gamma %g stopped no split" % gamma


def case(name, X, y, objective, trees, leaves, eta, l2, min_hessian, full=True, gamma=0.0):
    path = os.path.join(HERE, name + ".txt")
    write_svmlight(path, X, y)
    y64 = y.astype(np.float64)
    if objective == "regression":
        xobj, xlabel, base = "reg:squarederror", y, float(np.mean(y64))
    else:
        pos = int(np.sum(y64 > 0))
        xobj, xlabel, base = "binary:logistic", (y > 0).astype(np.float32), (pos + 0.5) / (len(y) + 1)
    p = {"objective": xobj, "tree_method": "hist", "max_bin": 256, "grow_policy": "lossguide",
         "max_leaves": leaves, "max_depth": 0, "lambda": l2, "alpha": 0, "gamma": gamma,
         "min_child_weight": min_hessian, "eta": eta, "subsample": 1, "colsample_bytree": 1,
         "base_score": base, "nthread": 1, "seed": 0}
    dm = xgb.DMatrix(X, label=xlabel)
    b = xgb.train(p, dm, num_boost_round=trees)
    check_gains(b, leaves, full, gamma)
    params = {"trees": trees, "leaves": leaves, "learning_rate": eta, "l2": l2, "min_hessian": min_hessian}
    if gamma:
        params["min_gain"] = gamma
    return {"name": name, "data": name + ".txt", "objective": objective, "params": params,
            "xgb_params": p, "margins": margins(b, dm, trees)}


def main():
    rng = np.random.default_rng(20260321)
    n, d = 150, 4
    # Multiples of 0.5 from 0 to 15: 31 distinct values a feature, exact bins.
    X = rng.integers(0, 31, size=(n, d)).astype(np.float32) * np.float32(0.5)
    z = 0.3 * X[:, 0] - 0.2 * X[:, 1] + 0.1 * X[:, 2] * (X[:, 3] > 7) + rng.normal(0, 1, n)
    yreg = np.round(z, 2).astype(np.float32)
    # Graded 0, 1, 2: binary reads 1 and 2 as positive.
    ygraded = np.digitize(z, [np.quantile(z, 0.55), np.quantile(z, 0.85)]).astype(np.float32)
    # A tree that cannot split: 8 documents of one feature, whose hessians
    # (about 0.23 each at the start) sum to less than min_child_weight 3.
    Xs = np.array([[0], [1], [2], [3], [1], [2], [3], [3]], dtype=np.float32)
    ys = np.array([0, 0, 1, 1, 0, 1, 1, 1], dtype=np.float32)
    cases = [
        case("regression", X, yreg, "regression", trees=10, leaves=6, eta=0.3, l2=1.0, min_hessian=1.0),
        case("regression-l2", X, yreg, "regression", trees=10, leaves=12, eta=0.5, l2=5.0, min_hessian=4.0),
        case("binary", X, ygraded, "binary", trees=10, leaves=6, eta=0.3, l2=1.0, min_hessian=0.5),
        case("binary-min-hessian", Xs, ys, "binary", trees=3, leaves=4, eta=0.5, l2=1.0, min_hessian=3.0, full=False),
        case("regression-gamma", X, yreg, "regression", trees=10, leaves=12, eta=0.3, l2=1.0, min_hessian=1.0,
             full=False, gamma=3.0),
    ]
    with open(os.path.join(HERE, "xgb-train.json"), "w") as f:
        # One case a line: the margins make the file long, not deep.
        f.write('{"xgboost_version": %s, "cases": [\n' % json.dumps(xgb.__version__))
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
