"""Data, cost and tree reading shared by the independent checks
(bench/check_cascade.py, bench/check_baselines.py), written from README's
formats without the Go code: each check had its own copy of these.
"""

import gzip
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def data_path(name):
    """A data flag's file: builtin:mq2008/test is data/builtin/mq2008/test.txt.gz."""
    if name.startswith("builtin:"):
        return os.path.join(ROOT, "data", "builtin", name[len("builtin:"):] + ".txt.gz")
    return name


def read_svmlight(path):
    """Labels (float32, as float64), qids, docids (the comment's `docid =
    X`) and rows as dicts {feature (1-based): float32}."""
    op = gzip.open if path.endswith(".gz") else open
    labels, qids, docids, rows = [], [], [], []
    with op(path, "rt") as f:
        for line in f:
            body, _, comment = line.partition("#")
            parts = body.split()
            if not parts:
                continue
            row, q = {}, "0"
            for p in parts[1:]:
                k, v = p.split(":", 1)
                if k == "qid":
                    q = str(int(v))
                else:
                    row[int(k)] = np.float32(v)
            labels.append(float(np.float32(parts[0])))
            qids.append(q)
            c = comment.split()
            d = ""
            if "docid" in c:
                i = c.index("docid")
                if i + 2 < len(c) and c[i + 1] == "=":
                    d = c[i + 2]
            docids.append(d)
            rows.append(row)
    return np.array(labels), qids, docids, rows


def dense(rows, width, absent):
    """The rows as a float32 matrix of width columns; a value a row leaves
    out is 0, or NaN when absent is "missing"."""
    fill = np.float32("nan") if absent == "missing" else np.float32(0)
    X = np.full((len(rows), width), fill, dtype=np.float32)
    for i, r in enumerate(rows):
        for k, v in r.items():
            if k <= width:
                X[i, k - 1] = v
    return X


def tree_output(tree, X):
    """float32-rounded leaf value of each row, as float64 (vectorised walk:
    x <= threshold goes left, a NaN where default_left says)."""
    leaves = np.array([float(np.float32(v)) for v in tree["leaf_value"]])
    sf = tree.get("split_feature") or []
    if not sf:
        return np.full(X.shape[0], leaves[0])
    thr = np.array(tree["threshold"], dtype=np.float32)
    dl = tree.get("default_left") or [False] * len(sf)
    node = np.zeros(X.shape[0], dtype=np.int64)
    out = np.full(X.shape[0], np.nan)
    active = np.ones(X.shape[0], dtype=bool)
    while active.any():
        idx = np.nonzero(active)[0]
        for n in np.unique(node[idx]):
            sel = idx[node[idx] == n]
            x = X[sel, sf[n] - 1]
            left = np.where(np.isnan(x), bool(dl[n]), x <= thr[n])
            c = np.where(left, tree["left_child"][n], tree["right_child"][n])
            leaf = c < 0
            out[sel[leaf]] = leaves[-c[leaf] - 1]
            active[sel[leaf]] = False
            node[sel[~leaf]] = c[~leaf]
    return out


def read_costs(path, nfeat):
    """README's cost file: one cost per line, or lines `INDEX COST [NAME]`;
    a feature not mentioned costs 1."""
    costs = [1.0] * nfeat
    lines = [l.split("#", 1)[0].split() for l in open(path)]
    lines = [l for l in lines if l]
    if all(len(l) == 1 for l in lines):
        for i, l in enumerate(lines[:nfeat]):
            costs[i] = float(l[0])
    else:
        for l in lines:
            if int(l[0]) <= nfeat:
                costs[int(l[0]) - 1] = float(l[1])
    return costs


def sparse_copy(src, dst):
    """The data file with its zero values left out."""
    op = gzip.open if src.endswith(".gz") else open
    with op(src, "rt") as f, open(dst, "w") as g:
        for line in f:
            body, hashc, comment = line.partition("#")
            parts = body.split()
            keep = [p for p in parts[1:] if p.startswith("qid:") or float(p.split(":", 1)[1]) != 0]
            g.write(" ".join([parts[0]] + keep) + (" #" + comment if hashc else "\n"))


def run(who, cmd):
    """cmd's standard output; the check (who) exits naming cmd when it fails."""
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit("%s: %s failed (%d):\n%s" % (who, " ".join(cmd), p.returncode, p.stderr))
    return p.stdout
