#!/usr/bin/env python3
"""Check `cronus predict --leaves` against XGBoost's own
`Booster.predict(..., pred_leaf=True)` (Debian's python3-xgboost 1.7.4,
numpy; no Cronus code).

    /usr/bin/python3 bench/check_leaves.py [CRONUS]

CRONUS is the binary (default, or "-": built into a temporary directory
with `go build`). XGBoost's pred_leaf gives node ids (splits and leaves
numbered together); README's **Leaves** paragraph numbers the leaves of a
tree from 0 in the order of its `leaf_value` and says that `import --from
xgboost` numbers them in a depth-first walk from the root, `yes` (left)
before `no`. The check maps node ids to leaf numbers from the XGBoost JSON
model alone:

  imported  a walk of each XGBoost tree, left child first: the c-th leaf
            node met is leaf c (and the imported model's `leaf_value[c]`
            must be that node's value, `split_conditions`);
  exported  a walk of the Cronus model file's tree (`left_child`/
            `right_child`, −c−1 for leaf c) in step with the exported
            XGBoost tree: the XGBoost leaf node reached with Cronus leaf c
            is leaf c (and the two trees must split alike).

Models: seven trained here by xgboost on the built-in MQ2008 train set
(depthwise `exact` and `hist`, lossguide `hist`, dense and with NaN in the
DMatrix — the zeros and a tenth of the other values — a forest of
`num_parallel_tree` 2, one whose `gamma` leaves later trees a single leaf,
and 400 depth-2 trees, which `predict` computes in chunks of documents),
each imported with `cronus import --from xgboost`; and five trained by
`cronus train` (regression, binary, lambdarank; one whose trees cannot
split; 300 trees), exported with `cronus export --to xgboost` (one with
`--missing-as-zero`) and loaded in xgboost. Each is scored on MQ2008 test
(2,874 documents): the dense file (every value given) against a dense
DMatrix; a copy that leaves out the zeros and a random sixth of the other
values with `--absent missing` against a DMatrix with NaN there, and with
`--absent zero` against one with 0 there; and the same for a narrower copy
(features 41–46 on no line, the first line without any value). A model
exported with `--missing-as-zero` sends a missing value where 0 goes, so
for it `--absent missing` is left out and `--absent zero` is also compared
with the NaN DMatrix. Every pairing runs with all trees and with `--trees
k` against `iteration_range=(0, r)` (k = r·num_parallel_tree) for r = 1 and
half the rounds; the leaves file's header and qid column are checked too.

Prints counts and the first mismatches, and exits 1 if there is any.
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import xgboost as xgb

from checkbin import cronus_exe

NF = 46
FAILS = []
STATS = {"models": 0, "runs": 0, "docs": 0, "trees": 0, "leaves": 0, "mismatched": 0}


def fail(what):
    FAILS.append(what)


def read_svmlight(path):
    """Dense float32 matrix (absent values 0), labels, qids, and the raw lines."""
    op = gzip.open if path.endswith(".gz") else open
    labels, qids, rows, lines = [], [], [], []
    with op(path, "rt") as f:
        for line in f:
            body = line.split("#", 1)[0].split()
            if not body:
                continue
            lines.append(line.rstrip("\n"))
            labels.append(float(body[0]))
            qids.append(body[1].split(":", 1)[1])
            row = np.zeros(NF, dtype=np.float32)
            for tok in body[2:]:
                k, v = tok.split(":")
                row[int(k) - 1] = np.float32(v)
            rows.append(row)
    return np.array(rows), np.array(labels, dtype=np.float32), qids, lines


def write_sparse(path, X, y, qids, absent):
    """A libsvm file that leaves out the values where absent is true."""
    with open(path, "w") as f:
        for i in range(len(y)):
            feats = " ".join("%d:%s" % (j + 1, repr(float(X[i, j]))) for j in range(NF) if not absent[i, j])
            f.write("%g qid:%s %s # d%d\n" % (y[i], qids[i], feats, i))


# ------------------------------------------------------- mapping node ids

def xgb_trees(path):
    return json.load(open(path))["learner"]["gradient_booster"]["model"]["trees"]


def dfs_leaf_numbers(t):
    """XGBoost node id → leaf number in a depth-first walk, left first."""
    left, right = t["left_children"], t["right_children"]
    num, stack = {}, [0]
    while stack:
        k = stack.pop()
        if left[k] == -1:
            num[k] = len(num)
        else:
            stack.append(right[k])
            stack.append(left[k])
    return num


def lockstep_leaf_numbers(ct, t, where):
    """XGBoost node id → Cronus leaf, walking the Cronus tree ct and the XGBoost
    tree t together (their splits must agree)."""
    left, right = t["left_children"], t["right_children"]
    num = {}
    if not ct.get("split_feature"):
        if left[0] != -1:
            fail("%s: a Cronus tree of one leaf exported with splits" % where)
        return {0: 0}
    stack = [(0, 0)]  # (Cronus node (>= 0) or -c-1, XGBoost node)
    while stack:
        c, k = stack.pop()
        if c < 0:
            if left[k] != -1:
                fail("%s: Cronus leaf %d is XGBoost split node %d" % (where, -c - 1, k))
                continue
            num[k] = -c - 1
            continue
        if left[k] == -1:
            fail("%s: Cronus split %d is XGBoost leaf node %d" % (where, c, k))
            continue
        # Cronus: x <= threshold goes left; XGBoost: x < split_condition
        thr = np.float32(ct["threshold"][c])
        if t["split_indices"][k] != ct["split_feature"][c] - 1 or \
                np.float32(t["split_conditions"][k]) != np.nextafter(thr, np.float32(np.inf)):
            fail("%s: Cronus split %d (f%d <= %r) vs XGBoost node %d (f%d < %r)" % (
                where, c, ct["split_feature"][c], ct["threshold"][c], k, t["split_indices"][k] + 1,
                t["split_conditions"][k]))
        stack.append((ct["right_child"][c], right[k]))
        stack.append((ct["left_child"][c], left[k]))
    return num


# ------------------------------------------------------------- comparing

class Checker:
    def __init__(self, exe, tmp, data):
        self.exe, self.tmp, self.data = exe, tmp, data

    def run(self, *args):
        p = subprocess.run([self.exe, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            raise SystemExit("cronus %s failed (%d):\n%s" % (" ".join(args), p.returncode, p.stderr))
        return p

    def leaves(self, model, data, absent, k):
        out = os.path.join(self.tmp, "leaves.tsv")
        args = ["predict", "--model", model, "--data", data, "--out", os.path.join(self.tmp, "s.txt"),
                "--leaves", out, "--absent", absent]
        if k is not None:
            args += ["--trees", str(k)]
        self.run(*args)
        rows = open(out).read().splitlines()
        return rows[0].split("\t"), [r.split("\t") for r in rows[1:]]

    def compare(self, name, cmodel, booster, maps, npar, rounds, cases):
        """cases: (label, data file, --absent, DMatrix) each scored with all trees
        and with the first r rounds for each r in rounds."""
        STATS["models"] += 1
        ntrees = len(maps)
        for label, path, absent, dm in cases:
            for r in [None] + rounds:
                k = ntrees if r is None else r * npar
                where = "%s, %s, --absent %s, --trees %s" % (name, label, absent, "all" if r is None else k)
                header, rows = self.leaves(cmodel, path, absent, None if r is None else k)
                if r is None:
                    xl = booster.predict(dm, pred_leaf=True)
                else:
                    xl = booster.predict(dm, pred_leaf=True, iteration_range=(0, r))
                xl = np.asarray(xl).reshape(len(self.data["qids"]), -1).astype(np.int64)
                STATS["runs"] += 1
                want_header = ["qid", "docid"] + ["t%d" % (i + 1) for i in range(k)]
                if header != want_header:
                    fail("%s: header %r, want qid, docid, t1 … t%d" % (where, header[:4] + ["…"], k))
                    continue
                if len(rows) != len(self.data["qids"]) or xl.shape[1] != k:
                    fail("%s: %d lines of leaves, xgboost %s, for %d documents and %d trees"
                         % (where, len(rows), xl.shape, len(self.data["qids"]), k))
                    continue
                qcol = [r[0] for r in rows]
                if qcol != self.data["qids"]:
                    i = next(i for i in range(len(qcol)) if qcol[i] != self.data["qids"][i])
                    fail("%s: line %d has qid %s, want %s" % (where, i + 2, qcol[i], self.data["qids"][i]))
                got = np.array([r[2:] for r in rows], dtype=np.int64)
                want = np.empty_like(xl)
                for t in range(k):
                    lut = np.full(max(maps[t], default=-1) + 1, -1, dtype=np.int64)  # node id -> leaf (-1: a split)
                    lut[list(maps[t])] = list(maps[t].values())
                    col = xl[:, t]
                    if col.min() < 0 or col.max() >= len(lut) or (lut[col] < 0).any():
                        fail("%s: tree %d: xgboost gives a node id that is not a leaf" % (where, t + 1))
                        want[:, t] = -1
                    else:
                        want[:, t] = lut[col]
                bad = np.argwhere(got != want)
                for i, t in bad[:3]:
                    fail("%s: doc %d (line %d) tree %d: cronus leaf %d, xgboost node %d = leaf %d"
                         % (where, i, i + 2, t + 1, got[i, t], xl[i, t], want[i, t]))
                if len(bad) > 3:
                    fail("%s: … %d leaf indices differ in all" % (where, len(bad)))
                STATS["mismatched"] += len(bad)
                STATS["docs"] += len(rows)
                STATS["trees"] += k
                STATS["leaves"] += len(rows) * k


def main():
    if len(sys.argv) > 2:
        print("usage: /usr/bin/python3 bench/check_leaves.py [CRONUS]", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="check_leaves.")
    try:
        exe = cronus_exe(sys.argv[1] if len(sys.argv) > 1 else None, tmp)
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        Xtr, ytr, qtr, _ = read_svmlight(os.path.join(root, "data", "builtin", "mq2008", "train.txt.gz"))
        test = os.path.join(root, "engine", "tree", "testdata", "mq2008-test.txt.gz")
        Xte, yte, qte, lines = read_svmlight(test)
        rng = np.random.default_rng(11)

        # scoring sets: dense; sparse (zeros and a sixth of the rest left out)
        dense_path = os.path.join(tmp, "test.txt")
        open(dense_path, "w").write("\n".join(lines) + "\n")
        absent = (Xte == 0) | (rng.random(Xte.shape) < 1 / 6)
        sparse_path = os.path.join(tmp, "test-sparse.txt")
        write_sparse(sparse_path, Xte, yte, qte, absent)
        Xnan = np.where(absent, np.nan, Xte).astype(np.float32)
        Xzero = np.where(absent, 0, Xte).astype(np.float32)
        d_dense, d_nan, d_zero = xgb.DMatrix(Xte), xgb.DMatrix(Xnan), xgb.DMatrix(Xzero)
        # narrow: features 41-46 on no line, and the first line gives no value at all
        narrow = absent.copy()
        narrow[:, 40:] = True
        narrow[0, :] = True
        narrow_path = os.path.join(tmp, "test-narrow.txt")
        write_sparse(narrow_path, Xte, yte, qte, narrow)
        n_nan = xgb.DMatrix(np.where(narrow, np.nan, Xte).astype(np.float32))
        n_zero = xgb.DMatrix(np.where(narrow, 0, Xte).astype(np.float32))
        standard = [("dense", dense_path, "zero", d_dense),
                    ("sparse", sparse_path, "missing", d_nan),
                    ("sparse", sparse_path, "zero", d_zero),
                    ("narrow", narrow_path, "missing", n_nan),
                    ("narrow", narrow_path, "zero", n_zero)]
        ch = Checker(exe, tmp, {"qids": qte})

        # training sets for xgboost: dense, and with NaN for zeros and a tenth of the rest
        trmiss = (Xtr == 0) | (rng.random(Xtr.shape) < 0.1)
        dtr = xgb.DMatrix(Xtr, label=ytr)
        dtr_nan = xgb.DMatrix(np.where(trmiss, np.nan, Xtr).astype(np.float32), label=ytr)
        dtr_bin = xgb.DMatrix(np.where(trmiss, np.nan, Xtr).astype(np.float32), label=(ytr > 0).astype(np.float32))
        group = np.unique(qtr, return_counts=True)
        _, first = np.unique(qtr, return_index=True)
        dtr_rank = xgb.DMatrix(Xtr, label=ytr)
        dtr_rank.set_group([c for _, c in sorted(zip(first, group[1]))])
        base = {"eta": 0.3, "seed": 3, "nthread": 2}
        XGB = [
            ("xgb-depthwise-exact", dtr_rank, 12, dict(objective="rank:ndcg", tree_method="exact", max_depth=4)),
            ("xgb-depthwise-hist-nan", dtr_nan, 10, dict(objective="reg:squarederror", tree_method="hist",
                                                         max_depth=6, min_child_weight=0)),
            ("xgb-lossguide", dtr, 10, dict(objective="reg:squarederror", tree_method="hist",
                                            grow_policy="lossguide", max_leaves=19, max_depth=0)),
            ("xgb-lossguide-nan", dtr_bin, 10, dict(objective="binary:logistic", tree_method="hist",
                                                    grow_policy="lossguide", max_leaves=31, max_depth=0)),
            ("xgb-forest-nan", dtr_nan, 4, dict(objective="reg:squarederror", tree_method="hist", max_depth=3,
                                                num_parallel_tree=2, subsample=0.7, colsample_bynode=0.7)),
            ("xgb-gamma", dtr, 8, dict(objective="reg:squarederror", tree_method="exact", max_depth=3,
                                       gamma=40, eta=1.0)),
            # 400 trees: predict --leaves computes 2,874 documents in chunks of 1,310
            ("xgb-many-nan", dtr_nan, 400, dict(objective="reg:squarederror", tree_method="hist", max_depth=2,
                                                eta=0.05)),
        ]
        for name, dm, rounds, params in XGB:
            b = xgb.train(dict(base, **params), dm, num_boost_round=rounds)
            jpath = os.path.join(tmp, name + ".json")
            b.save_model(jpath)
            cpath = os.path.join(tmp, name + ".cronus.json")
            ch.run("import", "--from", "xgboost", jpath, "--out", cpath)
            trees = xgb_trees(jpath)
            cm = json.load(open(cpath))
            maps = []
            for t, (xt, ct) in enumerate(zip(trees, cm["trees"])):
                m = dfs_leaf_numbers(xt)
                maps.append(m)
                for node, c in m.items():
                    if c >= len(ct["leaf_value"]) or np.float32(ct["leaf_value"][c]) != np.float32(xt["split_conditions"][node]):
                        fail("%s tree %d: imported leaf_value[%d] is not xgboost leaf node %d's %r"
                             % (name, t, c, node, xt["split_conditions"][node]))
                        break
            if len(cm["trees"]) != len(trees):
                fail("%s: %d trees imported of %d" % (name, len(cm["trees"]), len(trees)))
            npar = params.get("num_parallel_tree", 1)
            ch.compare(name, cpath, b, maps, npar, [1, rounds // 2], standard)

        # Cronus-trained models, exported to XGBoost
        train = os.path.join(root, "data", "builtin", "mq2008", "train.txt.gz")
        CRONUS = [
            ("cronus-regression-d3", ["--objective", "regression", "--trees", "10", "--max-depth", "3"], []),
            ("cronus-binary-16", ["--objective", "binary", "--trees", "8", "--leaves", "16"], ["--missing-as-zero"]),
            ("cronus-lambdarank-31", ["--objective", "lambdarank", "--trees", "8", "--leaves", "31"], []),
            ("cronus-stumps", ["--objective", "regression", "--trees", "3", "--min-docs", "100000"], []),
            ("cronus-many", ["--objective", "regression", "--trees", "300", "--leaves", "5"], []),
        ]
        for name, flags, eflags in CRONUS:
            cpath = os.path.join(tmp, name + ".json")
            ch.run("train", "--train", train, "--out", cpath, *flags)
            xpath = os.path.join(tmp, name + ".xgb.json")
            ch.run("export", "--model", cpath, "--to", "xgboost", "--out", xpath, *eflags)
            b = xgb.Booster(model_file=xpath)
            cm = json.load(open(cpath))
            trees = xgb_trees(xpath)
            if len(trees) != len(cm["trees"]):
                fail("%s: %d trees exported of %d" % (name, len(trees), len(cm["trees"])))
            maps = [lockstep_leaf_numbers(ct, xt, "%s tree %d" % (name, t))
                    for t, (ct, xt) in enumerate(zip(cm["trees"], trees))]
            cases = standard
            if eflags:  # missing goes where 0 goes: XGBoost's NaN is Cronus's 0 (not its NaN)
                cases = [standard[0], standard[2], standard[4], ("sparse, NaN in xgboost", sparse_path, "zero", d_nan),
                         ("narrow, NaN in xgboost", narrow_path, "zero", n_nan)]
            ch.compare(name, cpath, b, maps, 1, [1, len(trees) // 2], cases)

        for f in FAILS[:20]:
            print("MISMATCH:", f)
        if len(FAILS) > 20:
            print("MISMATCH: … %d more" % (len(FAILS) - 20))
        s = STATS
        print("%d models, %d runs of predict --leaves (%d document lines, %d tree columns), "
              "%d leaf indices compared, %d differ, %d mismatches"
              % (s["models"], s["runs"], s["docs"], s["trees"], s["leaves"], s["mismatched"], len(FAILS)))
        return 1 if FAILS else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
