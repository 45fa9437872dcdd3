#!/usr/bin/env python3
"""Check how `cronus predict --cascade` runs documents through a cascade
against an independent implementation written from README's cascade file
format ("File formats", Cascades and Models) and its exit rules (numpy only,
no Cronus code).

    python3 bench/check_cascade.py [CRONUS]
    python3 bench/check_cascade.py CRONUS CASCADE DATA

CRONUS is the binary (default, or "-": built into a temporary directory
with `go build`). With CASCADE and DATA (a cascade file and an SVMlight/LETOR
file, plain or gzip; `builtin:mq2008/test` is read from
data/builtin/mq2008/test.txt.gz) it checks that pair, with the cascade's own
`params.absent`. Without them it trains a 200-tree depth-2 regression model
on builtin:mq2008/train and makes cascades of it with `cronus cascade`
(the default rule, top-m 5 over 10 stages; `--rule global`; `--rule top-m
--top-m 2 --stages 4`; `--rule global --stages 6 --lambda 0.003`; `--absent
missing --top-m 10 --stages 3`), plus hand-edited variants (a tree listed
by two stages, a zero weight, a stage without trees given a theta; one-tree
stages whose scores tie within queries and with theta exactly; under both
rules), and checks each on builtin:mq2008/test and on a copy of it with its
zeros left out (read as 0, and, for the `--absent missing` cascade, as
missing). Then six random cascades over the same trees (2 to 6 stages of 0
to 11 trees, weights of both signs, thetas at quantiles of the stage's
scores or null, top_m 1 to 7 or global, random default_left on the splits,
two read as missing) on two files of 600 test documents regrouped into
queries of 1 to 30 with qids out of order and a third of the values left
out (one file without qids: one query), and with `--costs` a file of
fractional costs.

The reimplementation, per document:

  tree output  the leaf the walk reaches (x <= threshold goes left; a
               missing value follows default_left), rounded to float32;
  stage score  intercept + sum over the stage's trees in ascending order of
               weight * output, each product rounded on its own, in float64
               (Python's float arithmetic: no fused multiply-add);
  exits        global: leave at the first stage whose score is below theta
               (equal goes on; theta null passes everyone); top-m: the
               top_m best of its query among those at the stage (by score,
               ties in input order) go on, the others leave below theta;
               all who reach the last stage stay there;
  costs        a tree is paid (tree_cost[t] and every feature it splits on
               not yet paid, whatever the path) at the first stage that
               lists it with a non-zero weight; the document's cost is what
               it paid up to its exit stage;
  ranking      within a query: stage reached (later first), then score at
               exit (larger first), then input order; the key `predict`
               writes is the number of the query's documents ranked below.

Compared: `--exits`' stage, feature_cost and tree_cost and `--out`'s keys
exactly (integers; the costs are sums of MQ2008's integer costs, exact;
the fractional `--costs` within 1e-9 relative, their sums taken in another
order), `--exits`' score within 1e-12 * (1 + |score|) (the summation
order is README's, so the scores should agree to the bit: `predict` writes
the shortest decimal that reads back to the same float64; the tolerance
only allows for a last-bit difference, and none is expected), and
`cronus eval --cascade --json`'s `cost` {total, features, trees} and
`reached` against the means over the documents within 1e-9 relative.
Prints counts and the largest differences, the first mismatches, and exits
1 if there is any.
"""

import copy
import json
import os
import shutil
import sys
import tempfile

import numpy as np

from checkbin import cronus_exe
import checkdata
from checkdata import data_path, dense, read_costs, read_svmlight, sparse_copy, tree_output

FAILS = []
STATS = {"cases": 0, "docs": 0, "queries": 0, "score_maxdiff": 0.0, "score_exact": 0,
         "mean_maxreldiff": 0.0, "cost_maxreldiff": 0.0, "exits": {}}


def run(cmd):
    return checkdata.run("check_cascade", cmd)


def fail(what):
    FAILS.append(what)


def simulate(casc, qids, X):
    """Per document: exit stage (1-based), score at exit, feature cost, tree
    cost, ranking key."""
    trees = casc["ensemble"]["trees"]
    fcost = casc["feature_cost"]
    tcost = casc["tree_cost"]
    stages = casc["stages"]
    K = len(stages)
    rule = casc["rule"]
    top_m = casc.get("top_m", 0)
    n = X.shape[0]
    out_cache = {}

    def out(t):
        if t not in out_cache:
            out_cache[t] = tree_output(trees[t], X)
        return out_cache[t]

    # Cost of reaching each stage: same for every document that got there.
    paid_trees, paid_feats = set(), set()
    stage_fc, stage_tc = [], []
    fc, tc = 0.0, 0.0
    for s in stages:
        for t, w in zip(s["trees"], s["weights"]):
            if w == 0 or t in paid_trees:
                continue
            paid_trees.add(t)
            tc += tcost[t]
            for f in set(trees[t].get("split_feature") or []):
                if f not in paid_feats:
                    paid_feats.add(f)
                    fc += fcost[f - 1]
        stage_fc.append(fc)
        stage_tc.append(tc)

    scores = []
    for s in stages:
        sc = [float(s["intercept"])] * n
        for t, w in zip(s["trees"], s["weights"]):
            if w == 0:
                continue
            o = out(t)
            for i in range(n):
                sc[i] = sc[i] + float(w) * float(o[i])
        scores.append(sc)

    # group by query: consecutive equal qids (files are grouped by query)
    groups = []
    start = 0
    for i in range(1, n + 1):
        if i == n or qids[i] != qids[i - 1]:
            groups.append(list(range(start, i)))
            start = i
    exit_stage = [K] * n
    for g in groups:
        at = list(g)
        for k in range(K - 1):
            sc = scores[k]
            theta = stages[k]["theta"]
            keep = set()
            if rule == "top-m":
                order = sorted(at, key=lambda i: (-sc[i], i))
                keep = set(order[:top_m])
            nxt = []
            for i in at:
                if i in keep or theta is None or not (sc[i] < theta):
                    nxt.append(i)
                else:
                    exit_stage[i] = k + 1
            at = nxt
    score = [scores[exit_stage[i] - 1][i] for i in range(n)]
    key = [0] * n
    for g in groups:
        order = sorted(g, key=lambda i: (-exit_stage[i], -score[i], i))
        for pos, i in enumerate(order):
            key[i] = len(g) - 1 - pos
    feat = [stage_fc[exit_stage[i] - 1] for i in range(n)]
    tree = [stage_tc[exit_stage[i] - 1] for i in range(n)]
    return exit_stage, score, feat, tree, key, len(groups)


def check(exe, tmp, name, cpath, data, absent=None, costs=None):
    casc = json.load(open(cpath))
    if costs is not None:
        casc["feature_cost"] = read_costs(costs, len(casc["feature_cost"]))
    if absent is None:
        absent = casc.get("params", {}).get("absent", "zero")
    _, qids, docids, rows = read_svmlight(data_path(data))
    width = max(casc["ensemble"].get("num_features", 0), len(casc["feature_cost"]),
                max((max(r) for r in rows if r), default=0))
    X = dense(rows, width, absent)
    es, sc, fc, tc, key, nq = simulate(casc, qids, X)
    n = len(rows)
    flags = ["--absent", absent] + (["--costs", costs] if costs else [])
    scores = os.path.join(tmp, "p.scores")
    exits = os.path.join(tmp, "p.tsv")
    run([exe, "predict", "--cascade", cpath, "--data", data, "--out", scores, "--exits", exits] + flags)
    ev = json.loads(run([exe, "eval", "--cascade", cpath, "--data", data, "--json"] + flags))
    keys = [int(l) for l in open(scores).read().split()]
    lines = open(exits).read().splitlines()
    head = lines[0].split("\t")
    if head != ["qid", "docid", "stage", "score", "feature_cost", "tree_cost"]:
        fail("%s: --exits header %r" % (name, head))
        return
    if len(lines) - 1 != n or len(keys) != n:
        fail("%s: %d exit lines, %d keys for %d documents" % (name, len(lines) - 1, len(keys), n))
        return
    STATS["cases"] += 1
    STATS["docs"] += n
    STATS["queries"] += nq
    bad = 0
    for i in range(n):
        f = lines[i + 1].split("\t")
        q, d, st, s, f_c, t_c = f[0], f[1], int(f[2]), float(f[3]), float(f[4]), float(f[5])
        what = []
        if q != qids[i] or (docids[i] and d != docids[i]):
            what.append("qid/docid %s/%s, expected %s/%s" % (q, d, qids[i], docids[i]))
        if st != es[i]:
            what.append("stage %d, expected %d" % (st, es[i]))
        diff = abs(s - sc[i])
        if st == es[i]:
            STATS["score_maxdiff"] = max(STATS["score_maxdiff"], diff)
            STATS["score_exact"] += diff == 0
        if diff > 1e-12 * (1 + abs(sc[i])):
            what.append("score %r, expected %r" % (s, sc[i]))
        STATS["cost_maxreldiff"] = max(STATS["cost_maxreldiff"], abs(f_c - fc[i]) / (1 + fc[i]),
                                       abs(t_c - tc[i]) / (1 + tc[i]))
        if abs(f_c - fc[i]) > 1e-9 * (1 + fc[i]) or abs(t_c - tc[i]) > 1e-9 * (1 + tc[i]):
            what.append("cost %g+%g, expected %g+%g" % (f_c, t_c, fc[i], tc[i]))
        if keys[i] != key[i]:
            what.append("key %d, expected %d" % (keys[i], key[i]))
        if what:
            bad += 1
            if bad <= 5:
                fail("%s: document %d (line %d): %s" % (name, i, i + 1, "; ".join(what)))
    if bad > 5:
        fail("%s: … %d more documents differ" % (name, bad - 5))
    K = len(casc["stages"])
    for k in range(K):
        STATS["exits"].setdefault(name, []).append(sum(1 for e in es if e == k + 1))
    want = {"total": (sum(fc) + sum(tc)) / n, "features": sum(fc) / n, "trees": sum(tc) / n}
    for k, v in want.items():
        got = ev["cost"][k]
        rel = abs(got - v) / max(1.0, abs(v))
        STATS["mean_maxreldiff"] = max(STATS["mean_maxreldiff"], rel)
        if rel > 1e-9:
            fail("%s: eval cost %s %r, expected %r" % (name, k, got, v))
    reached = [sum(1 for e in es if e >= k + 1) / n for k in range(K)]
    got = ev.get("reached") or []
    if len(got) != K or any(abs(a - b) > 1e-9 for a, b in zip(got, reached)):
        fail("%s: eval reached %r, expected %r" % (name, got, reached))


def with_rule(d, rule, name, tmp):
    """Give cascade d the exit rule (top-m keeps its top_m, global drops
    it), write it to tmp as NAME-RULE.json and return its case (label,
    path)."""
    d["rule"] = d["params"]["rule"] = rule
    if rule == "global":
        d.pop("top_m", None)
        d["params"].pop("top_m", None)
    p = os.path.join(tmp, "%s-%s.json" % (name, rule))
    json.dump(d, open(p, "w"), indent=1)
    return ("%s/%s" % (name, rule), p)


def variants(cpath, tmp):
    """Hand-edited cascades exercising README's rules beyond what `cascade`
    writes: a tree listed again by a later stage, a zero weight, a stage
    without trees with a theta; under both rules."""
    base = json.load(open(cpath))
    out = []
    c = copy.deepcopy(base)
    s0, s1 = c["stages"][0], c["stages"][1]
    # stage 2 lists stage 1's first tree again (paid once), and stage 1 gets a
    # zero-weighted tree from later (not evaluated, not paid there).
    t = s0["trees"][0]
    if t not in s1["trees"]:
        pairs = sorted(list(zip(s1["trees"], s1["weights"])) + [(t, 0.5)])
        s1["trees"], s1["weights"] = [p[0] for p in pairs], [p[1] for p in pairs]
    later = [x for s in c["stages"][2:] for x in s["trees"] if x not in s0["trees"]]
    if later:
        pairs = sorted(list(zip(s0["trees"], s0["weights"])) + [(later[0], 0.0)])
        s0["trees"], s0["weights"] = [p[0] for p in pairs], [p[1] for p in pairs]
    # a stage without trees, with a theta, before the last
    empty = {"trees": [], "weights": [], "intercept": 0.0, "theta": -1.0}
    if "sigma_abs" in s0:
        empty["sigma_abs"] = s0["sigma_abs"]
    c["stages"].insert(2, empty)
    c["params"]["stages"] = len(c["stages"])
    for rule in ("top-m", "global"):
        out.append(with_rule(copy.deepcopy(c), rule, "edited", tmp))
    # ties: stage 1 is one tree (4 leaves: many equal scores in a query,
    # for top-m's and the ranking's input-order tie break) with weight 1 and
    # intercept 0, and theta exactly one of its float32 leaf values (a score
    # equal to theta goes on); under both rules
    for rule in ("top-m", "global"):
        d = copy.deepcopy(base)
        t = d["stages"][0]["trees"][0]
        leaves = sorted(float(np.float32(v)) for v in d["ensemble"]["trees"][t]["leaf_value"])
        d["stages"][0].update(trees=[t], weights=[1.0], intercept=0.0, theta=leaves[len(leaves) // 2])
        d["stages"][1].update(trees=d["stages"][1]["trees"][:1], weights=[1.0], intercept=0.0,
                              theta=leaves[-1])
        out.append(with_rule(d, rule, "ties", tmp))
    # the same, with the empty stage failing everyone (intercept < theta)
    d = copy.deepcopy(c)
    d["stages"][2]["theta"] = 1.0
    p = os.path.join(tmp, "edited-empty-exits.json")
    json.dump(d, open(p, "w"), indent=1)
    out.append(("edited/empty-exits", p))
    return out


def random_cases(base_path, tmp, rng):
    """Random cascades over the model's trees (random stages, weights of
    both signs, thetas at quantiles of the stage's scores or null, some
    splits given default_left), random small data files (queries of 1 to
    30 documents, qids out of order, a third of the values left out, one
    file without qids), and a cost file of fractional costs for --costs."""
    base = json.load(open(base_path))
    trees = base["ensemble"]["trees"]
    nt = len(trees)
    nfeat = len(base["feature_cost"])
    cases = []
    for r in range(6):
        c = copy.deepcopy(base)
        for t in c["ensemble"]["trees"]:
            if t.get("split_feature"):
                t["default_left"] = [bool(rng.random() < 0.5) for _ in t["split_feature"]]
        K = int(rng.integers(2, 7))
        stages = []
        for k in range(K):
            m = int(rng.integers(0 if 0 < k < K - 1 else 1, 12))
            ts = sorted(set(int(x) for x in rng.integers(0, nt, m)))
            ws = [float(rng.normal(0.3, 0.5)) for _ in ts]
            stages.append({"trees": ts, "weights": ws, "intercept": float(rng.normal(0, 0.1)),
                           "theta": None})
        c["stages"] = stages
        c["params"]["stages"] = K
        rule = "top-m" if r % 2 == 0 else "global"
        c["rule"] = c["params"]["rule"] = rule
        if rule == "top-m":
            c["top_m"] = c["params"]["top_m"] = int(rng.integers(1, 8))
        else:
            c.pop("top_m", None)
            c["params"].pop("top_m", None)
        c["params"]["absent"] = "missing" if r % 3 == 0 else "zero"
        cases.append(c)
    # data: the first 600 documents of test, regrouped into random queries
    _, qids, docids, rows = read_svmlight(data_path("builtin:mq2008/test"))
    rows = rows[:600]
    files = []
    for v in range(2):
        lines = []
        i = 0
        q = 0
        while i < len(rows):
            size = int(rng.integers(1, 31))
            q += 1
            qid = int(rng.integers(1, 10 ** 6)) * 1000 + q
            for row in rows[i:i + size]:
                feats = " ".join("%d:%s" % (k, repr(float(x))) for k, x in sorted(row.items())
                                 if rng.random() >= 0.33)
                lines.append("%d %s%s # docid = d%d\n" % (int(rng.integers(0, 3)),
                                                           "" if v == 1 else "qid:%d " % qid, feats, i))
                i += 1
                if i >= len(rows):
                    break
        p = os.path.join(tmp, "random%d.txt" % v)
        open(p, "w").writelines(lines)
        files.append(p)
    costs = os.path.join(tmp, "costs-frac.txt")
    with open(costs, "w") as f:
        for k in range(1, nfeat + 1):
            f.write("%d %r\n" % (k, round(float(rng.uniform(0, 50)), 3)))
    out = []
    for r, c in enumerate(cases):
        p = os.path.join(tmp, "random-c%d.json" % r)
        # thetas at quantiles of the stage's scores on the first data file
        X = dense(read_svmlight(files[0])[3], max(nfeat, c["ensemble"]["num_features"]), c["params"]["absent"])
        for k, st in enumerate(c["stages"][:-1]):
            if rng.random() < 0.2:
                continue
            sc = np.full(X.shape[0], st["intercept"])
            for t, w in zip(st["trees"], st["weights"]):
                sc = sc + w * tree_output(c["ensemble"]["trees"][t], X)
            st["theta"] = float(np.quantile(sc, rng.uniform(0.05, 0.5)))
        json.dump(c, open(p, "w"), indent=1)
        out.append(("random%d" % r, p))
    return out, files, costs


def main():
    if len(sys.argv) not in (1, 2, 4):
        print("usage: python3 bench/check_cascade.py [CRONUS [CASCADE DATA]]", file=sys.stderr)
        return 2
    tmp = tempfile.mkdtemp(prefix="check_cascade.")
    try:
        exe = cronus_exe(sys.argv[1] if len(sys.argv) > 1 else None, tmp)
        if len(sys.argv) == 4:
            check(exe, tmp, os.path.basename(sys.argv[2]), sys.argv[2], sys.argv[3])
        else:
            m = os.path.join(tmp, "m.json")
            run([exe, "train", "--train", "builtin:mq2008/train", "--objective", "regression",
                 "--max-depth", "2", "--leaves", "4", "--trees", "200", "--out", m])
            base = [exe, "cascade", "--model", m, "--train", "builtin:mq2008/train", "--valid",
                    "builtin:mq2008/vali", "--test", "builtin:mq2008/test", "--costs", "builtin:mq2008/costs"]
            runs = [("default", []), ("global", ["--rule", "global"]),
                    ("top-m2-k4", ["--rule", "top-m", "--top-m", "2", "--stages", "4"]),
                    ("global-k6-l0.003", ["--rule", "global", "--stages", "6", "--lambda", "0.003"]),
                    ("missing-top10-k3", ["--absent", "missing", "--top-m", "10", "--stages", "3"])]
            sparse = os.path.join(tmp, "test-sparse.txt")
            sparse_copy(data_path("builtin:mq2008/test"), sparse)
            cases = []
            for name, flags in runs:
                c = os.path.join(tmp, name + ".json")
                run(base + flags + ["--out", c])
                cases.append((name, c))
            cases += variants(cases[0][1], tmp)
            for name, c in cases:
                check(exe, tmp, name + " test", c, "builtin:mq2008/test")
                check(exe, tmp, name + " sparse", c, sparse)
            check(exe, tmp, "default sparse-as-missing", cases[0][1], sparse, "missing")
            rcases, rfiles, rcosts = random_cases(cases[0][1], tmp, np.random.default_rng(20261201))
            for name, c in rcases:
                for j, f in enumerate(rfiles):
                    check(exe, tmp, "%s data%d" % (name, j), c, f)
                check(exe, tmp, "%s data0 --costs" % name, c, rfiles[0], costs=rcosts)
        for f in FAILS[:20]:
            print("MISMATCH:", f)
        s = STATS
        for name, ex in s["exits"].items():
            print("  %-36s exits per stage %s" % (name, ex))
        print("%d cascade/data pairs, %d documents in %d queries" % (s["cases"], s["docs"], s["queries"]))
        print("largest differences: score at exit %.3g (%d of %d identical), document cost %.3g, "
              "mean cost/reached %.3g (relative)"
              % (s["score_maxdiff"], s["score_exact"], s["docs"], s["cost_maxreldiff"], s["mean_maxreldiff"]))
        print("%d mismatches" % len(FAILS))
        return 1 if FAILS else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
