#!/usr/bin/env python3
"""Check `cronus train`'s trees against an independent implementation written
from README's `train` paragraph, "Binning", "Boosting details" and the model
file format (numpy only, no Cronus code).

    python3 bench/check_trees.py [CRONUS]

CRONUS is the binary (default, or "-": built into a temporary directory
with `go build`). Three small training sets (a `cronus gen` set, the first
queries of the built-in MQ2008 train set, and a hand-made file of coarse
values with a constant feature and lines that leave features out), each
with a held-out set, are trained with `regression`, `binary` and
`lambdarank` under several settings (2 to 31 leaves, depth caps, --min-docs,
--min-hessian, --l2, --min-gain, learning rates, --truncation and --sigma;
no subsampling). For every tree, from the data, the model's base score and
its earlier trees alone, it recomputes:

  gradients  regression: score − label; binary: sigmoid(score) − [label > 0]
             with hessian p(1 − p); lambdarank: LightGBM's all-pairs
             LambdaMART (gain 2^label − 1, 0 for a label <= 0; discount
             1/log2(rank + 2) after a stable sort by score; pairs whose
             better-placed document is in the top --truncation;
             |ΔNDCG| / (0.01 + |Δs|) unless the query's scores are all
             equal; σ; the log2(1 + Σλ)/Σλ normalisation);
  base score regression: the label mean; binary: log-odds of
             (positives + 0.5)/(documents + 1); lambdarank: 0;
  routing    cover and leaf_cover against the hessian sums of the training
             documents the walk (x <= threshold goes left) sends there;
             each threshold lies between two distinct training values;
  leaves     −η·G/(H + λ) (0 where H < --min-hessian or H = 0);
  split_gain G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ);
  split      the largest gain over every boundary between distinct values
             of every feature under --min-docs and --min-hessian, above
             --min-gain (ties reported apart; a better boundary that the
             binning may have merged, on a feature of more than --max-bins
             values, is reported apart too);
  growth     nodes in the order they were split, leaf-wise: each split is
             the best of the leaves open at that point (under the depth
             cap), and a tree with fewer leaves than --leaves has no open
             leaf left with a split;
  predict    `cronus predict` against its own walk, on train and held-out.

Prints counts and the largest differences, the first mismatches, and exits
1 if there is any.
"""

import gzip
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile

import numpy as np

from checkbin import cronus_exe

FAILS = []
TIES = []
BINNING = []
STATS = {"models": 0, "trees": 0, "splits": 0, "leaves": 0, "docs_checked": 0,
         "leaf_maxdiff": 0.0, "gain_maxreldiff": 0.0, "cover_maxdiff": 0.0,
         "pred_maxdiff": 0.0, "base_maxdiff": 0.0, "candidates": 0}


def fail(what):
    FAILS.append(what)


def read_svmlight(path, nfeat=None):
    op = gzip.open if path.endswith(".gz") else open
    labels, qids, rows = [], [], []
    with op(path, "rt") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            labels.append(float(parts[0]))
            row = {}
            for p in parts[1:]:
                k, v = p.split(":", 1)
                if k == "qid":
                    qids.append(int(v))
                else:
                    row[int(k)] = np.float32(float(v))
            rows.append(row)
    width = max(max(r) if r else 0 for r in rows)
    if nfeat is not None:
        width = max(width, nfeat)
    X = np.zeros((len(rows), width), dtype=np.float32)  # absent features read as 0
    for i, r in enumerate(rows):
        for k, v in r.items():
            X[i, k - 1] = v
    offs = [0]
    for i in range(1, len(qids)):
        if qids[i] != qids[i - 1]:
            offs.append(i)
    offs.append(len(rows))
    return X, np.array(labels), offs


def write_svmlight(path, X, y, qid, sparse=False):
    with open(path, "w") as f:
        for i in range(len(y)):
            feats = " ".join("%d:%s" % (j + 1, repr(float(X[i, j]))) for j in range(X.shape[1])
                             if not (sparse and X[i, j] == 0))
            f.write("%s qid:%d %s # d%d\n" % (repr(float(y[i])), qid[i], feats, i))


# ------------------------------------------------------------------ trees

def walk(tree, X):
    """Leaf index (−c−1 → c) of each row; x <= threshold goes left."""
    n = X.shape[0]
    if not tree.get("split_feature"):
        return np.zeros(n, dtype=int)
    node = np.zeros(n, dtype=int)
    done = np.zeros(n, dtype=bool)
    leaf = np.zeros(n, dtype=int)
    while not done.all():
        act = np.where(~done)[0]
        nd = node[act]
        f = np.array(tree["split_feature"])[nd] - 1
        t = np.array(tree["threshold"], dtype=np.float64)[nd]
        x = X[act, f].astype(np.float64)
        left = x <= t
        nxt = np.where(left, np.array(tree["left_child"])[nd], np.array(tree["right_child"])[nd])
        isleaf = nxt < 0
        leaf[act[isleaf]] = -nxt[isleaf] - 1
        done[act[isleaf]] = True
        node[act[~isleaf]] = nxt[~isleaf]
    return leaf


def tree_out(tree, X):
    return np.array(tree["leaf_value"], dtype=np.float64)[walk(tree, X)]


def node_docs(tree, X):
    """Documents reaching each split node, and each leaf."""
    ns = len(tree.get("split_feature", []))
    at_node = [None] * ns
    at_leaf = [None] * len(tree["leaf_value"])
    if ns == 0:
        at_leaf[0] = np.arange(X.shape[0])
        return at_node, at_leaf, [], [0]
    depth = [0] * ns
    leaf_depth = [0] * len(tree["leaf_value"])
    stack = [(0, np.arange(X.shape[0]), 0)]
    while stack:
        k, idx, d = stack.pop()
        at_node[k] = idx
        depth[k] = d
        f = tree["split_feature"][k] - 1
        left = X[idx, f].astype(np.float64) <= tree["threshold"][k]
        for child, sub in ((tree["left_child"][k], idx[left]), (tree["right_child"][k], idx[~left])):
            if child >= 0:
                stack.append((child, sub, d + 1))
            else:
                at_leaf[-child - 1] = sub
                leaf_depth[-child - 1] = d + 1
    return at_node, at_leaf, depth, leaf_depth


# ------------------------------------------------------------ objectives

def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def lambdarank_grad(F, y, offs, trunc, sigma):
    g = np.zeros(len(F))
    h = np.zeros(len(F))
    gain = np.where(y > 0, 2.0 ** np.maximum(y, 0) - 1.0, 0.0)
    for a, b in zip(offs[:-1], offs[1:]):
        n = b - a
        s = F[a:b]
        gq = gain[a:b]
        ideal = np.sort(gq)[::-1][:trunc]
        maxdcg = float(np.sum(ideal / np.log2(np.arange(len(ideal)) + 2.0)))
        if maxdcg <= 0:
            continue
        inv = 1.0 / maxdcg
        order = sorted(range(n), key=lambda i: -s[i])  # stable: ties in input order
        best, worst = s[order[0]], s[order[-1]]
        lam = np.zeros(n)
        hes = np.zeros(n)
        total = 0.0
        for i in range(min(n - 1, trunc)):
            for j in range(i + 1, n):
                di, dj = order[i], order[j]
                if y[a + di] == y[a + dj]:
                    continue
                if y[a + di] > y[a + dj]:
                    hi, lo, rh, rl = di, dj, i, j
                else:
                    hi, lo, rh, rl = dj, di, j, i
                ds = s[hi] - s[lo]
                dn = abs(gq[hi] - gq[lo]) * abs(1 / math.log2(rh + 2) - 1 / math.log2(rl + 2)) * inv
                if best != worst:
                    dn /= 0.01 + abs(ds)
                p = 1.0 / (1.0 + math.exp(sigma * ds))
                pl = -sigma * dn * p
                ph = sigma * sigma * dn * p * (1 - p)
                lam[hi] += pl
                hes[hi] += ph
                lam[lo] -= pl
                hes[lo] += ph
                total -= 2 * pl
        if total > 0:
            nf = math.log2(1 + total) / total
            lam *= nf
            hes *= nf
        g[a:b] = lam
        h[a:b] = hes
    return g, h


def gradients(obj, F, y, offs, par):
    if obj == "regression":
        return F - y, np.ones(len(F))
    if obj == "binary":
        p = sigmoid(F)
        return p - (y > 0), p * (1 - p)
    return lambdarank_grad(F, y, offs, par.get("truncation", 30), par.get("sigma", 1.0))


def expected_base(obj, y):
    if obj == "regression":
        return float(np.mean(y))
    if obj == "binary":
        p = (np.sum(y > 0) + 0.5) / (len(y) + 1)
        return math.log(p / (1 - p))
    return 0.0


# ------------------------------------------------------------ split search

def best_splits(X, idx, g, h, par, absg):
    """Every valid split of the documents idx: (gain, feature, lo, hi, tol)
    sorted by gain, where lo < threshold <= hi are the distinct values."""
    lam, mind, minh = par["l2"], par["min_docs"], par["min_hessian"]
    G, H = g[idx].sum(), h[idx].sum()
    out = []
    scale = absg[idx].sum()
    tol = 2e-5 * (scale * scale / (H + lam + 1e-300) + 1e-12)
    for f in range(X.shape[1]):
        x = X[idx, f]
        o = np.argsort(x, kind="stable")
        xs = x[o]
        if xs[0] == xs[-1]:
            continue
        cg = np.cumsum(g[idx][o])
        ch = np.cumsum(h[idx][o])
        cut = np.where(xs[:-1] < xs[1:])[0]  # left = first cut+1 documents
        nl = cut + 1
        nr = len(idx) - nl
        gl, hl = cg[cut], ch[cut]
        gr, hr = G - gl, H - hl
        ok = (nl >= mind) & (nr >= mind) & (hl >= minh) & (hr >= minh) & (hl > 0) & (hr > 0)
        gain = gl * gl / (hl + lam) + gr * gr / (hr + lam) - G * G / (H + lam)
        for c, ok1, gn in zip(cut, ok, gain):
            if ok1:
                out.append((float(gn), f, float(xs[c]), float(xs[c + 1]), tol))
    STATS["candidates"] += len(out)
    return out


def split_allowed(gn, par):
    return gn > par.get("min_gain", 0.0) and gn > 0


# ------------------------------------------------------------ the checker

class Checker:
    def __init__(self, exe, tmp):
        self.exe, self.tmp = exe, tmp

    def train(self, name, data, obj, trees, flags):
        out = os.path.join(self.tmp, name.replace("/", "-").replace("#", "-") + ".json")
        subprocess.run([self.exe, "train", "--train", data, "--objective", obj, "--trees", str(trees),
                        "--out", out, *flags], check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return json.load(open(out)), out

    def predict(self, model, data):
        out = os.path.join(self.tmp, "pred.txt")
        subprocess.run([self.exe, "predict", "--model", model, "--data", data, "--out", out],
                       check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return np.array([float(l) for l in open(out).read().split()])

    def check(self, name, data, held, obj, trees, flags):
        m, mpath = self.train(name, data, obj, trees, flags)
        STATS["models"] += 1
        p = m["params"]
        par = {"l2": p["l2"], "min_docs": p["min_docs"], "min_hessian": p["min_hessian"],
               "min_gain": p.get("min_gain", 0.0), "eta": p["learning_rate"], "leaves": p["leaves"],
               "max_depth": p["max_depth"], "max_bins": p["max_bins"],
               "truncation": p.get("truncation", 30), "sigma": p.get("sigma", 1.0)}
        X, y, offs = read_svmlight(data, m["num_features"])
        X = X[:, :m["num_features"]] if X.shape[1] > m["num_features"] else X
        distinct = [len(np.unique(X[:, f])) for f in range(X.shape[1])]
        base = m["base_score"]
        eb = expected_base(obj, y)
        STATS["base_maxdiff"] = max(STATS["base_maxdiff"], abs(base - eb))
        if abs(base - eb) > 1e-9 * max(1, abs(eb)):
            fail("%s: base_score %r, expected %r" % (name, base, eb))
        F = np.full(len(y), base, dtype=np.float64)
        for t, tree in enumerate(m["trees"]):
            self.check_tree("%s tree %d" % (name, t), tree, X, y, offs, F, obj, par, distinct)
            F = F + tree_out(tree, X)
            STATS["trees"] += 1
        for dpath, Xd in ((data, X), (held, None)):
            if Xd is None:
                Xd = read_svmlight(dpath, m["num_features"])[0][:, :m["num_features"]]
            want = np.full(Xd.shape[0], base) + sum(tree_out(tr, Xd) for tr in m["trees"])
            got = self.predict(mpath, dpath)
            d = np.abs(got - want)
            STATS["pred_maxdiff"] = max(STATS["pred_maxdiff"], float(d.max()))
            STATS["docs_checked"] += len(d)
            bad = np.where(d > 1e-6 * np.maximum(1, np.abs(want)))[0]
            if len(bad):
                i = bad[0]
                fail("%s: predict on %s: %d documents differ, first doc %d: %r, walk %r"
                     % (name, os.path.basename(dpath), len(bad), i, got[i], want[i]))

    def check_tree(self, name, tree, X, y, offs, F, obj, par, distinct):
        g, h = gradients(obj, F, y, offs, par)
        absg = np.abs(g)
        lam, eta = par["l2"], par["eta"]
        at_node, at_leaf, depth, leaf_depth = node_docs(tree, X)
        ns = len(at_node)
        nl = len(tree["leaf_value"])
        STATS["splits"] += ns
        STATS["leaves"] += nl
        if nl > par["leaves"]:
            fail("%s: %d leaves, more than --leaves %d" % (name, nl, par["leaves"]))
        if par["max_depth"] > 0 and max(leaf_depth) > par["max_depth"]:
            fail("%s: a leaf at depth %d, past --max-depth %d" % (name, max(leaf_depth), par["max_depth"]))
        # leaves
        for c, idx in enumerate(at_leaf):
            if idx is None:
                fail("%s: leaf %d is reached by no path" % (name, c))
                continue
            G, H = g[idx].sum(), h[idx].sum()
            want = 0.0 if (H < par["min_hessian"] or H == 0) else -eta * G / (H + lam)
            got = tree["leaf_value"][c]
            tol = 1e-5 * eta * (absg[idx].sum() + 1e-12) / (H + lam) + 1e-12
            d = abs(got - want)
            STATS["leaf_maxdiff"] = max(STATS["leaf_maxdiff"], d)
            if d > tol:
                fail("%s: leaf %d (%d docs, G %.9g, H %.9g): value %.9g, expected %.9g"
                     % (name, c, len(idx), G, H, got, want))
            if "leaf_cover" in tree:
                dc = abs(tree["leaf_cover"][c] - H)
                STATS["cover_maxdiff"] = max(STATS["cover_maxdiff"], dc / max(1, H))
                if dc > 1e-5 * max(1, H):
                    fail("%s: leaf %d leaf_cover %r, hessian sum %r" % (name, c, tree["leaf_cover"][c], H))
        if ns == 0:
            # a single leaf: nothing could split the root
            cands = [c for c in best_splits(X, np.arange(len(y)), g, h, par, absg) if split_allowed(c[0], par)]
            if cands and par["leaves"] >= 2:
                c = max(cands)
                fail("%s: a single leaf, but feature %d split at (%g, %g] gains %.9g"
                     % (name, c[1] + 1, c[2], c[3], c[0]))
            return
        # splits: gain, cover, threshold between distinct values, optimality
        best = {}
        for k in range(ns):
            idx = at_node[k]
            if idx is None:
                fail("%s: node %d is reached by no path" % (name, k))
                return
            f = tree["split_feature"][k] - 1
            t = tree["threshold"][k]
            x = X[idx, f].astype(np.float64)
            left = x <= t
            if not left.any() or left.all():
                fail("%s: node %d threshold %r sends all %d documents one way" % (name, k, t, len(idx)))
                continue
            lo, hi = x[left].max(), x[~left].min()
            if not (lo <= t < hi):
                fail("%s: node %d threshold %r not between the values %r and %r" % (name, k, t, lo, hi))
            G, H = g[idx].sum(), h[idx].sum()
            GL, HL = g[idx][left].sum(), h[idx][left].sum()
            GR, HR = G - GL, H - HL
            gain = GL * GL / (HL + lam) + GR * GR / (HR + lam) - G * G / (H + lam)
            if "cover" in tree:
                dc = abs(tree["cover"][k] - H)
                STATS["cover_maxdiff"] = max(STATS["cover_maxdiff"], dc / max(1, H))
                if dc > 1e-5 * max(1, H):
                    fail("%s: node %d cover %r, hessian sum %r" % (name, k, tree["cover"][k], H))
            cands = best_splits(X, idx, g, h, par, absg)
            tol = cands[0][4] if cands else 1e-9
            if "split_gain" in tree:
                d = abs(tree["split_gain"][k] - gain)
                STATS["gain_maxreldiff"] = max(STATS["gain_maxreldiff"], d / max(1e-12, abs(gain)))
                if d > tol + 1e-6 * abs(gain):
                    fail("%s: node %d split_gain %r, expected %r" % (name, k, tree["split_gain"][k], gain))
            nleft, nright = int(left.sum()), int((~left).sum())
            if nleft < par["min_docs"] or nright < par["min_docs"]:
                fail("%s: node %d splits %d into %d + %d, under --min-docs %d" % (name, k, len(idx), nleft, nright, par["min_docs"]))
            if HL < par["min_hessian"] or HR < par["min_hessian"]:
                fail("%s: node %d hessian sums %r + %r, under --min-hessian %r" % (name, k, HL, HR, par["min_hessian"]))
            if not split_allowed(gain + tol, par):
                fail("%s: node %d gain %r not above --min-gain %r" % (name, k, gain, par["min_gain"]))
            self.optimal(name, k, cands, f, lo, hi, gain, tol, distinct, par)
            best[("n", k)] = gain
        # leaf-wise growth: node k is split k-th; the open leaves at that point
        for k in range(ns):
            for ch in (tree["left_child"][k], tree["right_child"][k]):
                if 0 <= ch <= k:
                    fail("%s: node %d has child %d, not split after it" % (name, k, ch))
                    return
        gains = tree["split_gain"] if "split_gain" in tree else [best[("n", k)] for k in range(ns)]
        open_ = {("n", 0)}
        for k in range(ns):
            if ("n", k) not in open_:
                fail("%s: node %d split before its parent" % (name, k))
                return
            for other in open_:
                if other == ("n", k):
                    continue
                kind, j = other
                if kind == "l":
                    bg, binned = self.leaf_best(at_leaf[j], X, g, h, par, absg, leaf_depth[j], distinct)
                else:
                    # a split made later: the gain it was found with (its
                    # own optimality is checked above)
                    bg, binned = gains[j], False
                mine = gains[k]
                if bg is not None and bg > mine + 2e-5 * max(1, abs(mine)):
                    msg = ("%s: split %d (gain %.9g) taken before an open %s %d of gain %.9g"
                           % (name, k, mine, "leaf" if kind == "l" else "node", j, bg))
                    if binned:
                        BINNING.append(msg + " (on a feature of more than --max-bins values)")
                    else:
                        fail(msg)
                elif bg is not None and abs(bg - mine) <= 2e-5 * max(1, abs(mine)) and kind == "n" and j < k:
                    TIES.append("%s: splits %d and %d tie in gain %.9g (taken in that order)" % (name, k, j, mine))
            open_.remove(("n", k))
            for ch in (tree["left_child"][k], tree["right_child"][k]):
                open_.add(("n", ch) if ch >= 0 else ("l", -ch - 1))
        if nl < par["leaves"]:
            for kind, j in open_:
                bg, binned = self.leaf_best(at_leaf[j], X, g, h, par, absg, leaf_depth[j], distinct)
                if bg is not None:
                    (BINNING.append if binned else fail)("%s: %d leaves of %d, but leaf %d (%d docs, depth %d) has a split of gain %.9g"
                         % (name, nl, par["leaves"], j, len(at_leaf[j]), leaf_depth[j], bg))

    def leaf_best(self, idx, X, g, h, par, absg, d, distinct):
        """The best gain of an open leaf, and whether only a feature of more
        values than --max-bins (whose boundaries the binning merges) has it."""
        if par["max_depth"] > 0 and d >= par["max_depth"]:
            return None, False
        cands = [c for c in best_splits(X, idx, g, h, par, absg) if split_allowed(c[0], par) and c[0] > c[4]]
        if not cands:
            return None, False  # a gain within rounding of 0 is no split
        exact = [c for c in cands if distinct[c[1]] <= par["max_bins"]]
        top = max(cands)[0]
        if exact and max(exact)[0] >= top - max(cands)[4]:
            return top, False
        return top, True

    def optimal(self, name, k, cands, f, lo, hi, gain, tol, distinct, par):
        if not cands:
            fail("%s: node %d splits where no split is valid" % (name, k))
            return
        top = max(c[0] for c in cands)
        better = [c for c in cands if c[0] > gain + tol]
        for c in sorted(better, reverse=True)[:1]:
            msg = ("%s: node %d splits feature %d at (%g, %g] gaining %.9g, but feature %d at (%g, %g] gains %.9g"
                   % (name, k, f + 1, lo, hi, gain, c[1] + 1, c[2], c[3], c[0]))
            if distinct[c[1]] > par["max_bins"]:
                BINNING.append(msg + " (%d distinct values: binned)" % distinct[c[1]])
            else:
                fail(msg)
        tied = [c for c in cands if abs(c[0] - gain) <= tol and not (c[1] == f and c[2] == lo)]
        if tied and not better:
            first = min(tied, key=lambda c: (c[1], c[2]))
            note = "" if (f, lo) <= (first[1], first[2]) else " (README: the lowest feature, then threshold, would be feature %d at %g)" % (first[1] + 1, first[3])
            TIES.append("%s: node %d feature %d at (%g, %g] ties with %d other candidates, e.g. feature %d at (%g, %g]%s"
                        % (name, k, f + 1, lo, hi, len(tied), first[1] + 1, first[2], first[3], note))


# ------------------------------------------------------------ data sets

def make_sets(exe, tmp):
    sets = []
    # 1. cronus gen: a small MSLR-shaped set and a held-out one of the same world
    for seed, nm in ((5, "gen"), (6, "gen-held")):
        subprocess.run([exe, "gen", "--queries", "10", "--docs-per-query", "30", "--features", "12",
                        "--seed", str(seed), "--out", os.path.join(tmp, nm + ".txt")],
                       check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sets.append(("gen", os.path.join(tmp, "gen.txt"), os.path.join(tmp, "gen-held.txt")))
    # 2. the first queries of MQ2008 train (about 300 documents), the next ones held out
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lines = gzip.open(os.path.join(root, "data", "builtin", "mq2008", "train.txt.gz"), "rt").read().splitlines()
    qids = [l.split()[1] for l in lines]
    cut1 = next(i for i in range(300, len(lines)) if qids[i] != qids[i - 1])
    cut2 = next(i for i in range(cut1 + 200, len(lines)) if qids[i] != qids[i - 1])
    open(os.path.join(tmp, "mq.txt"), "w").write("\n".join(lines[:cut1]) + "\n")
    open(os.path.join(tmp, "mq-held.txt"), "w").write("\n".join(lines[cut1:cut2]) + "\n")
    sets.append(("mq2008", os.path.join(tmp, "mq.txt"), os.path.join(tmp, "mq-held.txt")))
    # 3. hand-made: coarse values (ties everywhere), a constant feature, negative
    #    values, lines that leave features out (read as 0)
    rng = np.random.default_rng(7)
    for nm, nq in (("hand", 20), ("hand-held", 8)):
        qid = np.repeat(np.arange(1, nq + 1), 15)
        n = len(qid)
        X = np.zeros((n, 7), dtype=np.float32)
        X[:, 0] = rng.integers(0, 9, n) / 8
        X[:, 1] = rng.integers(-3, 4, n)
        X[:, 2] = rng.integers(0, 40, n) * 0.25
        X[:, 3] = 1.5  # constant
        X[:, 4] = np.where(rng.random(n) < 0.5, 0, rng.integers(1, 5, n))
        X[:, 5] = rng.normal(size=n).astype(np.float32)
        X[:, 6] = rng.integers(0, 3, n)
        z = X[:, 0] + 0.3 * X[:, 1] - 0.1 * X[:, 2] + 0.4 * X[:, 4] + rng.normal(scale=0.5, size=n)
        y = np.digitize(z, [0.2, 0.9, 1.6]).astype(float) - 1  # -1/0/1/2: a label <= 0 has gain 0
        write_svmlight(os.path.join(tmp, nm + ".txt"), X, y, qid, sparse=True)
    sets.append(("hand", os.path.join(tmp, "hand.txt"), os.path.join(tmp, "hand-held.txt")))
    return sets


SETTINGS = [
    ("regression", 4, ["--leaves", "8", "--min-docs", "5"]),
    ("regression", 3, ["--leaves", "31", "--min-docs", "1", "--min-hessian", "0", "--l2", "0", "--learning-rate", "0.3", "--max-depth", "3"]),
    ("regression", 5, ["--leaves", "2", "--min-docs", "20", "--l2", "10", "--learning-rate", "0.5"]),
    ("binary", 4, ["--leaves", "16", "--min-docs", "10", "--min-hessian", "0.5", "--l2", "2", "--learning-rate", "0.2"]),
    ("binary", 3, ["--leaves", "6", "--max-depth", "2", "--min-docs", "3", "--min-gain", "0.5"]),
    ("binary", 3, ["--leaves", "31", "--min-docs", "1", "--min-hessian", "2", "--l2", "0.1", "--learning-rate", "1"]),
    ("binary", 2, ["--leaves", "4", "--min-hessian", "1000"]),  # a root that cannot split: leaves of 0
    ("regression", 2, ["--leaves", "4", "--min-docs", "1000"]),
    ("lambdarank", 4, ["--leaves", "8", "--min-docs", "5"]),
    ("lambdarank", 3, ["--leaves", "12", "--min-docs", "2", "--min-hessian", "0.01", "--truncation", "5", "--sigma", "2", "--learning-rate", "0.3"]),
    ("lambdarank", 3, ["--leaves", "31", "--min-docs", "1", "--l2", "0.5", "--max-depth", "4"]),
]


def main():
    if len(sys.argv) > 2:
        print("usage: python3 bench/check_trees.py [CRONUS]", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="check_trees.")
    try:
        exe = cronus_exe(sys.argv[1] if len(sys.argv) > 1 else None, tmp)
        ch = Checker(exe, tmp)
        for sname, train, held in make_sets(exe, tmp):
            for i, (obj, trees, flags) in enumerate(SETTINGS):
                ch.check("%s/%s#%d" % (sname, obj, i), train, held, obj, trees, flags)
        for t in TIES[:10]:
            print("tie:", t)
        if len(TIES) > 10:
            print("tie: … %d more" % (len(TIES) - 10))
        for b in BINNING[:10]:
            print("binning:", b)
        for f in FAILS[:20]:
            print("MISMATCH:", f)
        s = STATS
        print("%d models, %d trees, %d splits, %d leaves (%d candidate splits scored), %d predictions"
              % (s["models"], s["trees"], s["splits"], s["leaves"], s["candidates"], s["docs_checked"]))
        print("largest differences: leaf value %.3g, split_gain %.3g (relative), cover %.3g (relative), "
              "predict %.3g, base score %.3g" % (s["leaf_maxdiff"], s["gain_maxreldiff"], s["cover_maxdiff"],
                                                 s["pred_maxdiff"], s["base_maxdiff"]))
        print("%d ties, %d better splits off the bins, %d mismatches" % (len(TIES), len(BINNING), len(FAILS)))
        return 1 if FAILS else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
