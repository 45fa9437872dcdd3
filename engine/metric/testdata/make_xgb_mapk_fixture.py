#!/usr/bin/python3
"""Make the XGBoost fixture that engine/metric checks MAP@k against.

This script is the provenance of mq2008-test.mapk.xgb.json: XGBoost's own
map@k and map@k- figures on the scores and labels of
mq2008-test.scores.txt and mq2008-test.labels.txt (made by
make_xgb_fixture.py: MQ2008 Fold1 test, 156 queries, 2,874 documents, no
tie within a query), evaluated as make_xgb_fixture.py does it: one round of
eta = 0 on a DMatrix whose base_margin is the scores, so that XGBoost's
evaluation is of the scores given.

Run it with Debian's Python, which is where Debian's XGBoost lives:

  apt-get install -y python3-xgboost
  /usr/bin/python3 engine/metric/testdata/make_xgb_mapk_fixture.py
"""

import json
import os

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = ["map@1", "map@3", "map@5", "map@10", "map@200", "map@5-", "map@10-"]


def main():
    scores = np.array([float(l) for l in open(os.path.join(HERE, "mq2008-test.scores.txt"))], dtype=np.float32)
    qid, label = np.loadtxt(os.path.join(HERE, "mq2008-test.labels.txt"), dtype=np.int64, unpack=True)
    change = np.flatnonzero(np.diff(qid)) + 1
    sizes = np.diff(np.concatenate(([0], change, [len(qid)])))
    X = np.zeros((len(scores), 1), dtype=np.float32)
    d = xgb.DMatrix(X, label=label, base_margin=scores)
    d.set_group(sizes)
    figures = {}
    for m in METRICS:
        result = {}
        ev = xgb.train({"objective": "rank:pairwise", "eta": 0.0, "max_depth": 1, "seed": 0, "nthread": 1,
                        "tree_method": "exact", "eval_metric": m},
                       d, num_boost_round=1, evals=[(d, "test")], evals_result=result, verbose_eval=False)
        assert np.array_equal(ev.predict(d, output_margin=True), scores), "eta=0 trick: predictions differ from base_margin"
        (name, values), = result["test"].items()
        assert name == m, (name, m)
        figures[m] = float(values[-1])
    without = sum(1 for g in np.split(label, np.cumsum(sizes)[:-1]) if g.max() <= 0)
    out = {"xgboost_version": xgb.__version__, "queries": int(len(sizes)), "docs": int(len(scores)),
           "queries_without_relevant": int(without)}
    out.update(figures)
    with open(os.path.join(HERE, "mq2008-test.mapk.xgb.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
