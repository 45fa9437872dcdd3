#!/usr/bin/python3
"""Make the small XGBoost fixtures of the importer tests in engine/tree.

Run with Debian's python3 and its python3-xgboost (XGBoost 1.7.4), from
anywhere:

    /usr/bin/python3 make_xgb_small_fixtures.py

It trains on the repository's data/builtin/mq2008/train.txt.gz and predicts
the first 300 documents of testdata/mq2008-test.txt.gz; each NAME.json gets a
NAME.pred.txt with XGBoost's raw margin (output_margin=True) for those
documents, in file order, with 9 significant digits (exact for float32).
The models are a few trees deep and small, so that the files stay small.

Fixtures:
  xgb-logitraw     binary:logitraw with base_score 0.3: XGBoost adds
                   base_score itself to the margin (not logit(0.3), as for
                   binary:logistic).
  xgb-libsvm       reg:squarederror trained on XGBoost's own libsvm reader
                   (DMatrix("train.txt?format=libsvm")), whose f{k} is the
                   file's feature k (num_feature 47 for MQ2008's 46), and
                   predicted with the same reader; imported with
                   XGBoostOptions.LibSVMIndices.
  xgb-sparse       reg:squarederror trained on MQ2008 train with every value
                   that is 0 left out (NaN in the matrix, so missing to
                   XGBoost), predicted on mq2008-test-sparse.txt.gz, the first
                   300 test documents with their zeros left out the same way:
                   cronus predict --absent missing gives XGBoost's scores.
  xgb-categorical  a categorical split (feature_types "c"): XGBoost writes NaN
                   as its split condition; the import is refused. Trained on
                   a few synthetic rows; no predictions.
"""

import gzip
import os
import shutil
import tempfile

import numpy as np
import xgboost as xgb

from make_xgb_fixtures import NUM_FEATURES, read_svmlight, write_pred

DOCS = 300


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.normpath(os.path.join(here, "..", "..", ".."))
    with gzip.open(os.path.join(repo, "data/builtin/mq2008/train.txt.gz"), "rt") as f:
        train_lines = f.readlines()
    with gzip.open(os.path.join(here, "mq2008-test.txt.gz"), "rt") as f:
        test_lines = f.readlines()[:DOCS]

    def save(name, booster, margins):
        booster.save_model(os.path.join(here, name + ".json"))
        write_pred(os.path.join(here, name + ".pred.txt"), margins)

    tmp = tempfile.mkdtemp()
    try:
        train_txt = os.path.join(tmp, "train.txt")
        test_txt = os.path.join(tmp, "test.txt")
        with open(train_txt, "w") as f:
            f.writelines(train_lines)
        with open(test_txt, "w") as f:
            f.writelines(test_lines)
        xtr, ytr = read_svmlight(train_txt)
        xte, _ = read_svmlight(test_txt)

        # binary:logitraw: base_score is added to the margin as it is.
        params = {"objective": "binary:logitraw", "base_score": 0.3, "eta": 0.3,
                  "max_depth": 3, "seed": 7, "tree_method": "exact", "nthread": 1}
        b = xgb.train(params, xgb.DMatrix(xtr, label=(ytr > 0).astype(np.float32)), num_boost_round=4)
        save("xgb-logitraw", b, b.predict(xgb.DMatrix(xte), output_margin=True))

        # XGBoost's own libsvm reader keeps the file's indices.
        params = {"objective": "reg:squarederror", "eta": 0.3, "max_depth": 3,
                  "seed": 7, "tree_method": "hist", "nthread": 1}
        b = xgb.train(params, xgb.DMatrix(train_txt + "?format=libsvm"), num_boost_round=4)
        assert b.num_features() == NUM_FEATURES + 1
        save("xgb-libsvm", b, b.predict(xgb.DMatrix(test_txt + "?format=libsvm"), output_margin=True))

        # A sparse file: zeros left out, which XGBoost takes as missing.
        def sparse(lines):
            out = []
            for l in lines:
                body, hash_, comment = l.partition("#")
                toks = body.split()
                keep = toks[:2] + [t for t in toks[2:] if float(t.split(":")[1]) != 0]
                out.append(" ".join(keep) + (" #" + comment if hash_ else "\n"))
            return out

        def nan_matrix(lines):
            x = np.full((len(lines), NUM_FEATURES), np.nan, dtype=np.float32)
            for i, l in enumerate(lines):
                for t in l.partition("#")[0].split()[2:]:
                    k, v = t.split(":")
                    x[i, int(k) - 1] = np.float32(float(v))
            return x

        sparse_test = sparse(test_lines)
        with gzip.GzipFile(os.path.join(here, "mq2008-test-sparse.txt.gz"), "wb", mtime=0) as f:
            f.write("".join(sparse_test).encode())
        params = {"objective": "reg:squarederror", "eta": 0.3, "max_depth": 3,
                  "seed": 7, "tree_method": "hist", "nthread": 1}
        b = xgb.train(params, xgb.DMatrix(nan_matrix(sparse(train_lines)), label=ytr), num_boost_round=4)
        save("xgb-sparse", b, b.predict(xgb.DMatrix(nan_matrix(sparse_test)), output_margin=True))
    finally:
        shutil.rmtree(tmp)

    # A categorical split: NaN in split_conditions.
    rng = np.random.default_rng(7)
    x = rng.integers(0, 4, size=(64, 2)).astype(np.float32)
    y = (x[:, 0] == 2).astype(np.float32) + 0.1 * x[:, 1]
    d = xgb.DMatrix(x, label=y, feature_types=["c", "q"], enable_categorical=True)
    params = {"tree_method": "hist", "max_depth": 1, "max_cat_to_onehot": 1,
              "seed": 7, "nthread": 1}
    xgb.train(params, d, num_boost_round=1).save_model(os.path.join(here, "xgb-categorical.json"))


if __name__ == "__main__":
    main()
