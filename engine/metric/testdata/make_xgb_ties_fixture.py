#!/usr/bin/python3
"""Make the XGBoost fixture of tied scores that engine/metric checks P@k, MAP and NDCG against.

This script is the provenance of two files beside it:

  mq2008-test.ties.scores.txt  mq2008-test.scores.txt rounded to one decimal,
                               as float32 (written with repr, so they read
                               back exactly): most queries then have ties
  mq2008-test.ties.xgb.json    XGBoost's own map, map-, pre@k and ndcg@10(-)
                               figures on those scores, with the labels of
                               mq2008-test.labels.txt and with them made
                               binary at label >= 2

Run it with Debian's Python, which is where Debian's XGBoost lives:

  apt-get install -y python3-xgboost
  /usr/bin/python3 engine/metric/testdata/make_xgb_ties_fixture.py

XGBoost ranks a query with std::stable_sort on float32 predictions, highest
first: equal scores keep their input order, which is our tie rule. The
tie-free fixture (make_xgb_fixture.py) checks the formulas; this one checks
the tie-breaking, and P@k with k above the size of a query (XGBoost, like
trec_eval, divides by k).

XGBoost's map and pre@k count a document as relevant when its integer label
is not 0. Our --relevant 2 is then XGBoost on labels made 0/1 at label >= 2
(the "@rel2" figures).

Getting XGBoost to evaluate given scores: a booster of zero rounds predicts
base_margin exactly (checked below); one booster per metric, since several
("eval_metric", m) pairs given to xgb.train all become the last one in 1.7.4.
"""

import json
import os

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = ["map", "map-", "pre@1", "pre@3", "pre@5", "pre@10", "pre@20", "pre@200", "ndcg@10", "ndcg@10-"]
BINARY = ["map", "map-", "pre@1", "pre@5", "pre@200"]  # also on labels >= 2


def evaluate(labels, scores, sizes, metric):
    d = xgb.DMatrix(np.zeros((len(labels), 1)), label=labels, base_margin=scores)
    d.set_group(sizes)
    b = xgb.train({"objective": "rank:pairwise", "nthread": 1, "eval_metric": metric}, d, num_boost_round=0)
    assert np.array_equal(b.predict(d, output_margin=True), scores), "zero rounds: predictions differ from base_margin"
    name, value = b.eval(d).split("\t")[1].split(":")
    assert name == "eval-" + metric, (name, metric)
    return float(value)


def main():
    qid, labels = np.loadtxt(os.path.join(HERE, "mq2008-test.labels.txt"), dtype=np.int64, unpack=True)
    scores = np.loadtxt(os.path.join(HERE, "mq2008-test.scores.txt"), dtype=np.float64)
    scores = np.round(scores, 1).astype(np.float32)
    change = np.flatnonzero(np.diff(qid)) + 1
    sizes = np.diff(np.concatenate(([0], change, [len(qid)])))
    assert len(np.unique(qid)) == len(sizes), "a query's lines are not contiguous"
    tied = sum(1 for g in np.split(scores, np.cumsum(sizes)[:-1]) if len(np.unique(g)) < len(g))

    labels = labels.astype(np.float64)
    out = {
        "xgboost_version": xgb.__version__,
        "scores": "mq2008-test.scores.txt rounded to 1 decimal, float32",
        "queries": int(len(sizes)),
        "docs": int(len(scores)),
        "queries_without_relevant": int(sum(1 for g in np.split(labels, np.cumsum(sizes)[:-1]) if g.max() <= 0)),
        "queries_with_ties": int(tied),
        "largest_query": int(sizes.max()),
    }
    for m in METRICS:
        out[m] = evaluate(labels, scores, sizes, m)
    binary = (labels >= 2).astype(np.float64)
    for m in BINARY:
        out[m + "@rel2"] = evaluate(binary, scores, sizes, m)

    with open(os.path.join(HERE, "mq2008-test.ties.scores.txt"), "w") as f:
        for s in scores:
            f.write(repr(float(s)) + "\n")
    with open(os.path.join(HERE, "mq2008-test.ties.xgb.json"), "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
