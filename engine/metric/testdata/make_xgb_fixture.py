#!/usr/bin/python3
"""Make the XGBoost fixture that engine/metric checks its NDCG, MAP and P@k against.

This script is the provenance of three files beside it:

  mq2008-test.scores.txt  one score per line, in the order of the documents in
                          shared/data/mq2008/Fold1/test.txt (float32 values
                          written with repr, so they read back exactly)
  mq2008-test.labels.txt  "qid label" per line, same order
  mq2008-test.xgb.json    XGBoost's own ndcg/map/pre figures on those scores

Run it with Debian's Python, which is where Debian's XGBoost lives:

  apt-get install -y python3-xgboost python3-sklearn
  /usr/bin/python3 engine/metric/testdata/make_xgb_fixture.py [PATH/TO/Fold1]

The Fold1 directory defaults to ../shared/data/mq2008/Fold1 next to the
repository root.

Scores: a tiny rank:pairwise model (5 trees, depth 3, seed 0, one thread) trained
on Fold1/train.txt, its output-margin predictions on Fold1/test.txt, plus a small
deterministic jitter that depends only on the document's position in the file.
A five-tree model gives many equal scores within a query, and XGBoost and
engine/metric need not break ties the same way; the jitter makes every query
tie-free (checked below, in float32), so the comparison is about the formulas
and not about tie-breaking. The scores are rounded to float32 because XGBoost
holds predictions as float32; the Go side then sorts exactly the same numbers.

Getting XGBoost to evaluate *given* scores: it only evaluates a booster, so we
train one round with eta = 0 on a DMatrix whose base_margin is the scores. The
round's tree has all leaves scaled by eta = 0, so the predictions are exactly
base_margin (checked below), and the evaluation XGBoost prints after that round
is its metric of our scores.
"""

import json
import os
import sys

import numpy as np
import sklearn
import xgboost as xgb
from sklearn.datasets import load_svmlight_file

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
FOLD = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "shared", "data", "mq2008", "Fold1")

# ndcg@k- and map- score a query without relevant documents 0, the plain names
# score it 1 (XGBoost's parameter documentation; the Go test checks both).
METRICS = ["ndcg@5", "ndcg@10", "ndcg", "ndcg@5-", "ndcg@10-", "ndcg-", "map", "map-", "pre@5", "pre@10"]


def groups(qid):
    """Sizes of the runs of equal qid; LETOR files keep a query's lines together."""
    change = np.flatnonzero(np.diff(qid)) + 1
    bounds = np.concatenate(([0], change, [len(qid)]))
    assert len(np.unique(qid)) == len(bounds) - 1, "a query's lines are not contiguous"
    return np.diff(bounds)


def main():
    xtr, ytr, qtr = load_svmlight_file(os.path.join(FOLD, "train.txt"), query_id=True)
    xte, yte, qte = load_svmlight_file(os.path.join(FOLD, "test.txt"), query_id=True, n_features=xtr.shape[1])

    dtrain = xgb.DMatrix(xtr, label=ytr)
    dtrain.set_group(groups(qtr))
    params = {"objective": "rank:pairwise", "eta": 0.3, "max_depth": 3, "seed": 0,
              "nthread": 1, "tree_method": "exact"}
    model = xgb.train(params, dtrain, num_boost_round=5)
    margin = model.predict(xgb.DMatrix(xte), output_margin=True).astype(np.float64)

    # Jitter in [0, 1e-4): a multiplicative hash of the line number, so it is
    # unrelated to the label and the same on every run.
    i = np.arange(len(margin), dtype=np.uint64)
    jitter = ((i * np.uint64(2654435761)) % np.uint64(1 << 32)).astype(np.float64) / 2.0**32 * 1e-4
    scores = (margin + jitter).astype(np.float32)

    sizes = groups(qte)
    start = 0
    for n in sizes:
        q = scores[start:start + n]
        assert len(np.unique(q)) == n, "tie in query starting at line %d" % (start + 1)
        start += n

    # One round with eta = 0 on top of base_margin = scores, one booster per
    # metric so that no metric's name or state can leak into another's.
    deval = xgb.DMatrix(xte, label=yte, base_margin=scores)
    deval.set_group(sizes)
    figures = {}
    for m in METRICS:
        result = {}
        ev = xgb.train({"objective": "rank:pairwise", "eta": 0.0, "max_depth": 1, "seed": 0, "nthread": 1,
                        "tree_method": "exact", "eval_metric": m},
                       deval, num_boost_round=1, evals=[(deval, "test")], evals_result=result, verbose_eval=False)
        pred = ev.predict(deval, output_margin=True)
        assert np.array_equal(pred, scores), "eta=0 trick: predictions differ from base_margin"
        (name, values), = result["test"].items()
        assert name == m, (name, m)
        figures[m] = float(values[-1])

    with open(os.path.join(HERE, "mq2008-test.scores.txt"), "w") as f:
        for s in scores:
            f.write(repr(float(s)) + "\n")
    with open(os.path.join(HERE, "mq2008-test.labels.txt"), "w") as f:
        for q, y in zip(qte, yte):
            f.write("%d %d\n" % (q, y))

    out = {
        "xgboost_version": xgb.__version__,
        "sklearn_version": sklearn.__version__,
        "data": "shared/data/mq2008/Fold1/test.txt",
        "queries": int(len(sizes)),
        "docs": int(len(scores)),
        "queries_without_relevant": int(sum(1 for g in np.split(yte, np.cumsum(sizes)[:-1]) if g.max() <= 0)),
    }
    out.update(figures)
    with open(os.path.join(HERE, "mq2008-test.xgb.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
