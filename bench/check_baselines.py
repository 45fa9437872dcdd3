#!/usr/bin/env python3
"""Check the baseline rows of `cronus sweep`'s curve (`prefix` and
`early-exit`, per split: cost, feature_cost, tree_cost, p@5, ndcg@10,
err@3; and the `single-stage` rows given the stage's trees) against an
independent implementation written from README's description of the
baselines ("The baselines of the curve, exactly"), its cost model, its
metric conventions ("Metric conventions") and the model and cascade JSON
formats ("File formats") (numpy only, no Cronus code).

    /usr/bin/python3 bench/check_baselines.py [CRONUS]

CRONUS is the binary (default, or "-": built into a temporary directory
with `go build`). The check trains a 60-tree depth-2 regression model on
builtin:mq2008/train (`--max-depth 2 --leaves 4`) and runs `cronus sweep
--every-prefix --lambdas 0.01:0.1:2 --cycles 0` on it with
builtin:mq2008/vali and builtin:mq2008/test and builtin:mq2008/costs,
three ways: the defaults (an exit every 10 trees, margins 0, 0.05, 0.1,
0.2, 0.5, 1, 2, inf, tree cost 1); `--exit-every 7 --exit-margins
inf,0.3,0,0.02 --tree-cost 2.5` (the last exit after 56 of 60 trees, a
margin grid out of order, fractional tree costs); and `--trees 25
--exit-every 4 --exit-margins 0,0.01,0.1,inf --absent missing` on a
40-tree model trained on copies of the three files with their zeros left
out, its splits given random `default_left`; and `--exit-every 5` on
copies of vali and test regrouped into queries of 1 to 12 documents (qids
out of order; many queries under five documents, which early exit never
thins, and many without a relevant document). Without `--every-prefix`,
the prefix counts kept (README's 12 for 60 trees, 1 2 3 4 6 8 11 15 21 30
42 60, and every k whose NDCG@10 on valid or test is above every shorter
prefix's there). Then, for the single stage,
two sweeps (`--lambdas 0.01:0.3:3 --cycles 0 --json`, tree cost 1 and
2.5): each λ's `single-stage` rows against the stage that `cronus cascade
--stages 1 --cycles 0 --lambda λ --rhos ρ` makes, ρ the sweep's
`single_stage_rho` (README: that command "makes the same stage"; the
curve does not give the stage's trees).

The reimplementation, on each split:

  scores     tree outputs are the leaf the walk reaches (x <= threshold
             goes left; a missing value follows default_left), rounded to
             float32; the running score is base_score plus the outputs in
             tree order, in float64;
  prefix     for k = 1..T: every document ranked by its k-tree score; cost
             k·e plus each feature the k trees split on, once; one row per
             k (--every-prefix);
  early exit M = ceil(T/N) exits; exit i < M after N·i trees: within a
             query the documents still in, ordered by running score
             (ties in input order), if five or more remain, every one
             outside the top five with f − r ≥ (M−i)/(M−1)·s, f the fifth
             one's score, leaves; ranking: the exit reached (later first),
             the score at it, input order; cost: a document that left at
             exit i pays N·i tree costs and each feature those trees split
             on, once; the others the whole ensemble; the row's cost is the
             mean over the split's documents;
  metrics    per query, ties in input order, averaged over all queries
             (those without a relevant document score 0): P@5 = documents
             with label >= 1 in the top 5, over 5; NDCG@10 with gain
             2^label − 1 and discount log2(rank + 1), over the ideal DCG
             of the same cut-off (0 when that is 0); ERR@3 with R =
             (2^l − 1)/2^lmax, lmax the split's largest label, label <= 0
             giving R = 0;
  single     the stage's trees with a non-zero weight and the features
  stage      they split on, each paid once, by every document; ranking by
             intercept + sum of weight · output in tree order (ties in
             input order).

Compared: the set of rows (every k from 1 to T for `prefix`, every margin
for `early-exit`, both splits, in the CSV's `lambda` column; a
`single-stage` row for each λ with a `single_stage_rho`), cost,
feature_cost and tree_cost within 1e-12 relative (MQ2008's costs are
integers, so prefix costs are exact; early exit's are means of integer or
half-integer sums over a few thousand documents, where only the division and
the summation order can differ, far below 1e-12), and the metrics within
1e-12 absolute (means of a few hundred per-query values in [0, 1]:
summation order costs at most about 1e-14; a ranking that differed on one
query moves a metric by orders of magnitude more). The rankings are not compared
directly, but any disagreement in scores that reorders a query shows up
there. Prints the largest differences and the first mismatches, and
exits 1 if there is any.
"""

import csv
import gzip
import json
import math
import os
import shutil
import sys
import tempfile

import numpy as np

from checkbin import cronus_exe
import checkdata
from checkdata import ROOT, data_path, dense, read_costs, read_svmlight, sparse_copy, tree_output

FAILS = []
STATS = {"runs": 0, "rows": 0, "ss_rows": 0, "count_sets": 0, "cost_maxrel": 0.0, "metric_maxdiff": 0.0}


def run(cmd):
    return checkdata.run("check_baselines", cmd)


def fail(what):
    FAILS.append(what)


def groups_of(qids):
    """Queries as lists of row indices: runs of equal qids."""
    out, start = [], 0
    for i in range(1, len(qids) + 1):
        if i == len(qids) or qids[i] != qids[i - 1]:
            out.append(list(range(start, i)))
            start = i
    return out


def metrics(labels, groups, keyfn):
    """Mean P@5, NDCG@10, ERR@3 over the queries; keyfn(i) sorts a query's
    documents best first (input order breaks ties via the index)."""
    lmax = max(0.0, float(labels.max()))
    p5, nd, er = [], [], []
    for g in groups:
        order = sorted(g, key=lambda i: keyfn(i) + (i,))
        lab = [labels[i] for i in order]
        p5.append(sum(1 for l in lab[:5] if l >= 1) / 5.0)
        gain = [2.0 ** l - 1 if l > 0 else 0.0 for l in lab]
        dcg = sum(gn / math.log2(r + 2) for r, gn in enumerate(gain[:10]))
        ideal = sorted(gain, reverse=True)
        idcg = sum(gn / math.log2(r + 2) for r, gn in enumerate(ideal[:10]))
        nd.append(dcg / idcg if idcg > 0 else 0.0)
        e, p = 0.0, 1.0
        for r, l in enumerate(lab[:3]):
            R = (2.0 ** l - 1) / 2.0 ** lmax if l > 0 else 0.0
            e += p * R / (r + 1)
            p *= 1 - R
        er.append(e)
    return float(np.mean(p5)), float(np.mean(nd)), float(np.mean(er))


def baselines(model, fcost, tree_cost, T, every, margins, labels, qids, X):
    """{(method, knob): (cost, feature_cost, tree_cost, p5, ndcg10, err3)}."""
    trees = model["trees"][:T]
    n = X.shape[0]
    groups = groups_of(qids)
    # running scores after each number of trees: cum[k] = base + first k trees
    cum = np.empty((T + 1, n))
    cum[0] = float(model["base_score"])
    for t in range(T):
        cum[t + 1] = cum[t] + tree_output(trees[t], X)
    # cost of the first k trees
    fc_k, tc_k = [0.0], [0.0]
    paid = set()
    for t in range(T):
        fc = fc_k[-1]
        for f in sorted(set(trees[t].get("split_feature") or [])):
            if f not in paid:
                paid.add(f)
                fc += fcost[f - 1]
        fc_k.append(fc)
        tc_k.append(tc_k[-1] + tree_cost)
    rows = {}
    for k in range(1, T + 1):
        s = cum[k]
        m = metrics(labels, groups, lambda i: (-s[i],))
        rows[("prefix", float(k))] = (fc_k[k] + tc_k[k], fc_k[k], tc_k[k]) + m
    M = -(-T // every)
    exits = [min(every * i, T) for i in range(1, M + 1)]  # trees at exit i (1-based)
    for s in margins:
        reach = np.full(n, M)  # exit reached, 1..M
        for g in groups:
            at = list(g)
            for i in range(1, M):
                sc = cum[exits[i - 1]]
                if len(at) < 5:
                    break
                order = sorted(at, key=lambda j: (-sc[j], j))
                f = sc[order[4]]
                thr = (M - i) / (M - 1) * s
                left = set(j for j in order[5:] if f - sc[j] >= thr)
                for j in left:
                    reach[j] = i
                at = [j for j in at if j not in left]
        score = np.array([cum[exits[reach[j] - 1]][j] for j in range(n)])
        m = metrics(labels, groups, lambda j: (-reach[j], -score[j]))
        fc = sum(fc_k[exits[reach[j] - 1]] for j in range(n)) / n
        tc = sum(tc_k[exits[reach[j] - 1]] for j in range(n)) / n
        rows[("early-exit", s)] = (fc + tc, fc, tc) + m
    return rows


def knob(v):
    return math.inf if v in ("+Inf", "inf", "Inf") else float(v)


def check(exe, tmp, name, model_path, train, valid, test, flags, T, every, margins, tree_cost, absent):
    curve = os.path.join(tmp, name + ".csv")
    run([exe, "sweep", "--model", model_path, "--train", train, "--valid", valid,
         "--test", test, "--costs", "builtin:mq2008/costs", "--every-prefix",
         "--lambdas", "0.01:0.1:2", "--cycles", "0", "--out", curve] + flags)
    model = json.load(open(model_path))
    fcost = read_costs(os.path.join(ROOT, "data", "builtin", "mq2008", "costs.txt"), model["num_features"])
    got = {}
    with open(curve) as f:
        r = csv.reader(f)
        head = next(r)
        want_head = "method,split,lambda,cost,feature_cost,tree_cost,p@5,ndcg@10,err@3".split(",")
        if head != want_head:
            fail("%s: header %r" % (name, head))
            return
        for row in r:
            if row[0] in ("prefix", "early-exit"):
                key = (row[1], row[0], knob(row[2]))
                if key in got:
                    fail("%s: row %s given twice" % (name, key))
                got[key] = tuple(float(x) for x in row[3:])
    STATS["runs"] += 1
    for split, data in (("valid", valid), ("test", test)):
        labels, qids, _, rows = read_svmlight(data_path(data))
        width = max(model["num_features"], max((max(r) for r in rows if r), default=0))
        X = dense(rows, width, absent)
        want = baselines(model, fcost, tree_cost, T, every, margins, labels, qids, X)
        keys_got = sorted(k[1:] for k in got if k[0] == split)
        if keys_got != sorted(want):
            fail("%s %s: rows %s, expected %s" % (name, split, keys_got, sorted(want)))
        for (method, kn), w in sorted(want.items()):
            g = got.get((split, method, kn))
            if g is None:
                continue
            STATS["rows"] += 1
            what = row_differences(g, w)
            if what:
                fail("%s %s %s %s: %s" % (name, split, method, kn, "; ".join(what)))


def row_differences(have, want):
    """What differs between two rows (cost, feature_cost, tree_cost, p@5,
    ndcg@10, err@3): costs beyond 1e-12 relative, metrics beyond 1e-12
    absolute; the largest differences go to STATS."""
    what = []
    for col, a, b in zip(("cost", "feature_cost", "tree_cost"), have[:3], want[:3]):
        rel = abs(a - b) / max(1.0, abs(b))
        STATS["cost_maxrel"] = max(STATS["cost_maxrel"], rel)
        if rel > 1e-12:
            what.append("%s %r, expected %r" % (col, a, b))
    for col, a, b in zip(("p@5", "ndcg@10", "err@3"), have[3:], want[3:]):
        STATS["metric_maxdiff"] = max(STATS["metric_maxdiff"], abs(a - b))
        if abs(a - b) > 1e-12:
            what.append("%s %r, expected %r" % (col, a, b))
    return what


def check_single_stage(exe, tmp, name, model_path, train, valid, test, flags, fcost, tree_cost, absent):
    """Each `single-stage` row of sweep NAME's curve against the stage that
    `cascade --stages 1 --cycles 0 --lambda λ --rhos ρ` (ρ the sweep's
    `single_stage_rho`) makes: cost the stage's trees with a non-zero
    weight, each paid once, and every feature they split on, once; metrics
    from the ranking by stage score (intercept + sum of weight · output in
    tree order, ties in input order)."""
    curve = os.path.join(tmp, name + ".csv")
    js = json.loads(run([exe, "sweep", "--model", model_path, "--train", train, "--valid", valid,
                         "--test", test, "--costs", "builtin:mq2008/costs", "--lambdas", "0.01:0.3:3",
                         "--cycles", "0", "--out", curve, "--json"] + flags))
    got = {}
    with open(curve) as f:
        for row in csv.DictReader(f):
            if row["method"] == "single-stage":
                got[(row["split"], float(row["lambda"]))] = row
    data = {}
    for split, path in (("valid", valid), ("test", test)):
        labels, qids, _, rows = read_svmlight(data_path(path))
        width = max(json.load(open(model_path))["num_features"], max((max(r) for r in rows if r), default=0))
        data[split] = (labels, groups_of(qids), dense(rows, width, absent))
    for lam in js["lambdas"]:
        if "single_stage_rho" not in lam:
            continue
        c = os.path.join(tmp, "%s-ss-%g.json" % (name, lam["lambda"]))
        run([exe, "cascade", "--model", model_path, "--train", train, "--valid", valid,
             "--costs", "builtin:mq2008/costs", "--stages", "1", "--cycles", "0", "--lambda",
             repr(lam["lambda"]), "--rhos", repr(lam["single_stage_rho"]), "--out", c] + flags)
        casc = json.load(open(c))
        st = casc["stages"][0]
        trees = casc["ensemble"]["trees"]
        used = [(t, w) for t, w in zip(st["trees"], st["weights"]) if w != 0]
        feats = set(f for t, _ in used for f in (trees[t].get("split_feature") or []))
        fc = sum(fcost[f - 1] for f in sorted(feats))
        tc = tree_cost * len(set(t for t, _ in used))
        for split, (labels, groups, X) in data.items():
            g = got.get((split, lam["lambda"]))
            if g is None:
                fail("%s: no single-stage %s row at λ %g" % (name, split, lam["lambda"]))
                continue
            sc = np.full(X.shape[0], float(st["intercept"]))
            for t, w in used:
                sc = sc + float(w) * tree_output(trees[t], X)
            want = (fc + tc, fc, tc) + metrics(labels, groups, lambda i: (-sc[i],))
            have = tuple(float(g[k]) for k in ("cost", "feature_cost", "tree_cost", "p@5", "ndcg@10", "err@3"))
            STATS["ss_rows"] += 1
            what = row_differences(have, want)
            if what:
                fail("%s %s single-stage λ %g (%d trees): %s"
                     % (name, split, lam["lambda"], len(used), "; ".join(what)))


def regroup(src, dst, rng):
    """The data file's documents in order, regrouped into queries of 1 to 12
    documents with qids out of order (many without a relevant document, and
    many under five documents, which early exit never thins)."""
    op = gzip.open if src.endswith(".gz") else open
    with op(src, "rt") as f:
        lines = [l.split() for l in f if l.split()]
    out, i, q = [], 0, 0
    while i < len(lines):
        size = int(rng.integers(1, 13))
        q += 1
        qid = int(rng.integers(1, 10 ** 5)) * 1000 + q
        for parts in lines[i:i + size]:
            feats = [p for p in parts[1:] if ":" in p and not p.startswith("qid:")]
            out.append("%s qid:%d %s\n" % (parts[0], qid, " ".join(feats)))
        i += size
    open(dst, "w").writelines(out)


def check_prefix_counts(exe, tmp, model_path, T):
    """Without --every-prefix: README's 12 geometric counts for 60 trees
    plus every k whose NDCG@10 on valid or test is above every shorter
    prefix's there (no tree cost 0 here, so no ties on both)."""
    assert T == 60
    curve = os.path.join(tmp, "counts.csv")
    run([exe, "sweep", "--model", model_path, "--train", "builtin:mq2008/train", "--valid",
         "builtin:mq2008/vali", "--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs",
         "--lambdas", "0.1:0.1:1", "--cycles", "0", "--out", curve])
    model = json.load(open(model_path))
    want = {1, 2, 3, 4, 6, 8, 11, 15, 21, 30, 42, 60}
    for data in ("builtin:mq2008/vali", "builtin:mq2008/test"):
        labels, qids, _, rows = read_svmlight(data_path(data))
        X = dense(rows, model["num_features"], "zero")
        groups = groups_of(qids)
        s = np.full(X.shape[0], float(model["base_score"]))
        best = -1.0
        for k in range(1, T + 1):
            s = s + tree_output(model["trees"][k - 1], X)
            nd = metrics(labels, groups, lambda i: (-s[i],))[1]
            if nd > best:
                want.add(k)
                best = nd
    for split in ("valid", "test"):
        with open(curve) as f:
            got = sorted(int(float(r["lambda"])) for r in csv.DictReader(f)
                         if r["method"] == "prefix" and r["split"] == split)
        STATS["count_sets"] += 1
        if got != sorted(want):
            fail("prefix counts on %s: %s, expected %s" % (split, got, sorted(want)))


def main():
    if len(sys.argv) > 2:
        print("usage: python3 bench/check_baselines.py [CRONUS]", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="check_baselines.")
    try:
        exe = cronus_exe(sys.argv[1] if len(sys.argv) > 1 else None, tmp)
        m = os.path.join(tmp, "m.json")
        run([exe, "train", "--train", "builtin:mq2008/train", "--objective", "regression",
             "--max-depth", "2", "--leaves", "4", "--trees", "60", "--out", m])
        grid = [0, 0.05, 0.1, 0.2, 0.5, 1, 2, math.inf]
        tr, v, t = "builtin:mq2008/train", "builtin:mq2008/vali", "builtin:mq2008/test"
        check(exe, tmp, "default", m, tr, v, t, [], 60, 10, grid, 1.0, "zero")
        check(exe, tmp, "every7", m, tr, v, t,
              ["--exit-every", "7", "--exit-margins", "inf,0.3,0,0.02", "--tree-cost", "2.5"],
              60, 7, [0, 0.02, 0.3, math.inf], 2.5, "zero")
        sp = {}
        for s in ("train", "vali", "test"):
            sp[s] = os.path.join(tmp, s + "-sparse.txt")
            sparse_copy(data_path("builtin:mq2008/" + s), sp[s])
        mm = os.path.join(tmp, "mm.json")
        run([exe, "train", "--train", sp["train"], "--objective", "regression",
             "--max-depth", "2", "--leaves", "4", "--trees", "40", "--out", mm])
        # left-out values read as missing: give the splits random default_left
        rng = np.random.default_rng(20261201)
        d = json.load(open(mm))
        for tr_ in d["trees"]:
            if tr_.get("split_feature"):
                tr_["default_left"] = [bool(rng.random() < 0.5) for _ in tr_["split_feature"]]
        json.dump(d, open(mm, "w"), indent=1)
        check(exe, tmp, "missing-k25", mm, sp["train"], sp["vali"], sp["test"],
              ["--trees", "25", "--exit-every", "4", "--exit-margins", "0,0.01,0.1,inf",
               "--absent", "missing"], 25, 4, [0, 0.01, 0.1, math.inf], 1.0, "missing")
        rg = {}
        rng2 = np.random.default_rng(7)
        for s in ("vali", "test"):
            rg[s] = os.path.join(tmp, s + "-regrouped.txt")
            regroup(data_path("builtin:mq2008/" + s), rg[s], rng2)
        check(exe, tmp, "regrouped", m, tr, rg["vali"], rg["test"], ["--exit-every", "5"],
              60, 5, grid, 1.0, "zero")
        check_prefix_counts(exe, tmp, m, 60)
        fcost = read_costs(os.path.join(ROOT, "data", "builtin", "mq2008", "costs.txt"), 46)
        check_single_stage(exe, tmp, "single", m, tr, v, t, [], fcost, 1.0, "zero")
        check_single_stage(exe, tmp, "single-tc2.5", m, tr, v, t, ["--tree-cost", "2.5"], fcost, 2.5, "zero")
        for f in FAILS[:20]:
            print("MISMATCH:", f)
        if len(FAILS) > 20:
            print("… %d more" % (len(FAILS) - 20))
        print("%d sweeps, %d prefix/early-exit rows, %d single-stage rows and %d prefix count sets compared; largest differences: cost %.3g (relative), "
              "metrics %.3g; %d mismatches"
              % (STATS["runs"], STATS["rows"], STATS["ss_rows"], STATS["count_sets"], STATS["cost_maxrel"], STATS["metric_maxdiff"], len(FAILS)))
        return 1 if FAILS else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
