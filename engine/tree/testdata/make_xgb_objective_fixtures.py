#!/usr/bin/python3
"""Make xgb-objectives.json.gz, the fixture of TestImportXGBoostObjectives.

Run with Debian's python3 and its python3-xgboost (XGBoost 1.7.4), from
anywhere:

    /usr/bin/python3 make_xgb_objective_fixtures.py

Each single-output objective of XGBoost 1.7 turns base_score into the
margin its trees start from in its own way (logit, log, or as it is); a
wrong link shifts every score by a constant. For each objective, a model of
one depth-2 tree is trained on the repository's MQ2008 train (labels made
to suit it) with a base_score other than the default, so that the link
shows. A few models check tree shapes too: a single leaf (a
root that gamma pruned, its other nodes left in the arrays), a random
forest (num_parallel_tree) and DART with normalize_type forest.

The fixture (gzip-compressed) is one JSON object: "xgboost_version", "docs" (the number of
documents of testdata/mq2008-test.txt.gz scored, from its start) and
"models", each with "name", the model as Booster.save_model writes it
("model"), and XGBoost's output_margin=True scores of those documents
("margins", float32 printed with 9 significant digits).
"""

import gzip
import itertools
import json
import os
import tempfile

import numpy as np
import xgboost as xgb

from make_xgb_fixtures import read_svmlight

DOCS = 20


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.normpath(os.path.join(here, "..", "..", ".."))
    with tempfile.TemporaryDirectory() as tmp:
        for src, dst, n in [(os.path.join(repo, "data/builtin/mq2008/train.txt.gz"), "train.txt", None),
                            (os.path.join(here, "mq2008-test.txt.gz"), "test.txt", DOCS)]:
            with gzip.open(src, "rt") as f:
                lines = f.readlines()
            with open(os.path.join(tmp, dst), "w") as f:
                f.writelines(lines[:n] if n else lines)
        xtr, ytr = read_svmlight(os.path.join(tmp, "train.txt"))
        xte, _ = read_svmlight(os.path.join(tmp, "test.txt"))
        with gzip.open(os.path.join(repo, "data/builtin/mq2008/train.txt.gz"), "rt") as f:
            qids = [l.split()[1] for l in f if l.strip()]
        groups = [sum(1 for _ in g) for _, g in itertools.groupby(qids)]

        yb = (ytr > 0).astype(np.float32)
        cases = [
            ("reg:squarederror", ytr, 0.7), ("reg:squaredlogerror", ytr, 0.4),
            ("reg:pseudohubererror", ytr, 1.5), ("reg:absoluteerror", ytr, 0.9),
            ("reg:logistic", ytr / 2, 0.2), ("binary:logistic", yb, 0.8),
            ("binary:logitraw", yb, 0.8), ("binary:hinge", yb, 0.3),
            ("count:poisson", ytr, 2.0), ("reg:gamma", ytr + 1, 3.0),
            ("reg:tweedie", ytr, 1.7), ("survival:cox", ytr + 1, 0.4),
            ("survival:aft", None, 2.5),
            ("rank:pairwise", ytr, 0.9), ("rank:ndcg", ytr, 0.1), ("rank:map", yb, 0.6),
        ]
        models = []

        def add(name, params, dtrain, rounds=2):
            p = {"eta": 0.3, "max_depth": 2, "seed": 7, "nthread": 1, "tree_method": "exact"}
            p.update(params)
            b = xgb.train(p, dtrain, num_boost_round=rounds)
            path = os.path.join(tmp, "m.json")
            b.save_model(path)
            with open(path) as f:
                model = json.load(f)
            margins = b.predict(xgb.DMatrix(xte), output_margin=True)
            models.append({"name": name, "model": model,
                           "margins": [float("%.9g" % np.float32(v)) for v in margins]})

        for obj, label, bs in cases:
            d = xgb.DMatrix(xtr, label=label)
            if obj == "survival:aft":
                d.set_float_info("label_lower_bound", ytr + 1)
                d.set_float_info("label_upper_bound", np.where(ytr > 1, np.inf, ytr + 1))
            if obj.startswith("rank:"):
                d.set_group(groups)
            p = {"objective": obj}
            if bs is not None:
                p["base_score"] = bs
            add(obj, p, d, rounds=1)
        d = xgb.DMatrix(xtr, label=ytr)
        add("single leaf", {"gamma": 1e9, "max_depth": 3}, d, rounds=1)
        add("random forest", {"num_parallel_tree": 3, "subsample": 0.6, "colsample_bynode": 0.5, "eta": 1}, d, rounds=1)
        add("dart forest", {"booster": "dart", "rate_drop": 0.5, "skip_drop": 0, "normalize_type": "forest",
                            "one_drop": 1, "max_depth": 1}, d, rounds=4)

    out = json.dumps({"xgboost_version": xgb.__version__, "docs": DOCS, "models": models},
                     separators=(",", ":")) + "\n"
    with gzip.GzipFile(os.path.join(here, "xgb-objectives.json.gz"), "wb", mtime=0) as f:
        f.write(out.encode())


if __name__ == "__main__":
    main()
