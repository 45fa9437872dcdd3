#!/usr/bin/env python3
"""Check `cronus eval`'s metrics and `--compare` statistics against an
independent implementation written from README's "Metric conventions" and
`eval` section (numpy only, no Cronus code).

    python3 bench/check_metrics.py [CRONUS [CASES [SEED]]]

CRONUS is the binary (default, or "-": built into a temporary directory
with `go build`), CASES the number of random cases (default 150), SEED
the generator's seed (default 20261201). Each case is
a random LETOR file (1-25 queries of 1-14 documents; labels binary, 0-4,
0-40, -1/+1, fractional or above 1000; with and without qids and docids)
and two random score files (tied, negative, huge and tiny scores), scored
with random metrics (cut-offs above the list too), `--relevant`,
`--err-max-label` and `--exclude-no-relevant`. For each it compares the
means (`--json`), the `--per-query` TSV (and that each mean is the mean
of its rows), the `--run` file (order, ranks, scores, docids, tag), the
`--compare` statistics (means, difference, s.e., t, p(t) exactly;
p(rand) within 5 standard errors of the exact sign-flip p, enumerated),
and that a second run gives the same bytes. Prints the first mismatches
and exits 1 if there is any.
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

TOL = 1e-9


def f32(x):
    return float(np.float32(x))


# ---------------------------------------------------------------- metrics

def ranking(scores):
    # Highest score first, equal scores in input order (README: "Ties in
    # score are broken by input order").
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


def gain(l, shift):
    if not l > 0:
        return 0.0
    return 2.0 ** (l - shift) - 2.0 ** (-shift)


def ndcg(labels, scores, k, exclude):
    n = len(labels)
    kk = n if k == 0 else min(k, n)
    ideal = sorted(labels, reverse=True)[:kk]
    shift = max(0.0, ideal[0] - 1000) if ideal else 0.0
    disc = [1 / math.log2(r + 2) for r in range(kk)]
    idcg = sum(gain(l, shift) * disc[r] for r, l in enumerate(ideal))
    if idcg == 0:
        return math.nan if exclude else 0.0
    order = ranking(scores)[:kk]
    return sum(gain(labels[d], shift) * disc[r] for r, d in enumerate(order)) / idcg


def err(labels, scores, k, lmax, exclude):
    if not any(l > 0 for l in labels):
        return math.nan if exclude else 0.0
    n = len(labels)
    kk = n if k == 0 else min(k, n)
    shift = max(0.0, lmax - 1000)
    v, stop = 0.0, 1.0
    for r, d in enumerate(ranking(scores)[:kk]):
        R = gain(min(labels[d], lmax), shift) / 2.0 ** (lmax - shift)
        v += stop * R / (r + 1)
        stop *= 1 - R
    return v


def binary(labels, rel):
    t = f32(rel)
    return [1 if (l > 0 and l >= t) else 0 for l in labels]


def binmetric(name, labels, scores, k, p, rel, exclude):
    b = binary(labels, rel)
    nrel = sum(b)
    if nrel == 0:
        return math.nan if exclude else 0.0
    order = ranking(scores)
    n = len(labels)
    kk = n if k == 0 else min(k, n)
    top = [b[d] for d in order[:kk]]
    if name == "p":
        return sum(top) / k
    if name == "recall":
        return sum(top) / nrel
    if name == "rr":
        for r, x in enumerate(top):
            if x:
                return 1 / (r + 1)
        return 0.0
    if name == "map":
        hits, v = 0, 0.0
        for r, x in enumerate(top):
            if x:
                hits += 1
                v += hits / (r + 1)
        return v / nrel
    if name == "rbp":
        return (1 - p) * sum(b[d] * p ** i for i, d in enumerate(order))
    raise ValueError(name)


def metric_value(spec, labels, scores, rel, lmax, exclude):
    name, k, p = spec
    if name == "ndcg":
        return ndcg(labels, scores, k, exclude)
    if name == "err":
        return err(labels, scores, k, lmax, exclude)
    return binmetric(name, labels, scores, k, p, rel, exclude)


def spec_name(spec):
    name, k, p = spec
    if name == "rbp":
        return "rbp@" + repr(p)
    return name + ("@%d" % k if k else "")


# ------------------------------------------------------------- statistics

def betacf(a, b, x):
    # Numerical Recipes' continued fraction for the incomplete beta.
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c
        c = c if abs(c) > tiny else tiny
        de = d * c
        h *= de
        if abs(de - 1) < 1e-16:
            break
    return h


def betai(a, b, x):
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1) / (a + b + 2):
        return math.exp(lbt) * betacf(a, b, x) / a
    return 1 - math.exp(lbt) * betacf(b, a, 1 - x) / b


def t_two_sided(t, nu):
    return betai(nu / 2, 0.5, nu / (nu + t * t))


def paired(a, b):
    """README: queries both score, means, diff, paired s.e., t, two-sided p,
    and the exact two-sided sign-flip p (None when too many queries)."""
    pairs = [(x, y) for x, y in zip(a, b) if not (math.isnan(x) or math.isnan(y))]
    n = len(pairs)
    out = {"queries": n}
    if n == 0:
        return out
    d = np.array([x - y for x, y in pairs])
    out["this"] = sum(x for x, _ in pairs) / n
    out["that"] = sum(y for _, y in pairs) / n
    out["diff"] = float(d.mean())
    if n <= 16:
        obs = abs(d.sum())
        absum = np.abs(d).sum()
        signs = ((np.arange(2 ** n)[:, None] >> np.arange(n)) & 1) * -2 + 1
        s = np.abs(signs @ d)
        out["p_exact"] = float(np.mean(s >= obs - 1e-12 * absum)) if absum > 0 else 1.0
    if n == 1:
        return out
    sd = float(d.std(ddof=1))
    mag = sum(abs(x) + abs(y) for x, y in pairs) / n
    if sd <= 1e-10 * max(mag, 1e-300):
        out["se"] = 0.0
        return out
    out["se"] = sd / math.sqrt(n)
    out["t"] = out["diff"] / out["se"]
    out["p_t"] = t_two_sided(out["t"], n - 1)
    return out


# ------------------------------------------------------------- generators

def gen_labels(rng, n, kind):
    if kind == "binary":
        return [rng.choice([0, 0, 1]) for _ in range(n)]
    if kind == "graded":
        return [rng.choice([0, 0, 0, 1, 1, 2, 3, 4]) for _ in range(n)]
    if kind == "wide":
        return [rng.randint(0, 40) for _ in range(n)]
    if kind == "pm1":
        return [rng.choice([-1, -1, 1]) for _ in range(n)]
    if kind == "frac":
        return [rng.choice([0, 0.25, 0.5, 0.7, 1.5, 2.5]) for _ in range(n)]
    if kind == "huge":
        return [rng.choice([0, 3, 1001, 1500, 2000]) for _ in range(n)]
    raise ValueError(kind)


def gen_score(rng, kind):
    if kind == "ties":
        if rng.random() < 0.3:
            return 0.5

        return float(rng.randint(-2, 2))
    if kind == "wild":
        return rng.choice([0.0, -0.0, 1e300, -1e300, 5e-324, -5e-324, 1.0, 1.0, -3.5, 1e-300, 7.0])
    if kind == "normal":
        return rng.gauss(0, 1)
    return rng.choice([round(rng.uniform(-1, 1), 1), rng.gauss(0, 10)])


def fmt_score(rng, v):
    if v == 0 and math.copysign(1, v) < 0:
        return "-0"
    return rng.choice([repr(v), "%.17g" % v])


def gen_case(rng, ci):
    nq = rng.randint(1, 25)
    kind = rng.choice(["binary", "graded", "graded", "wide", "pm1", "frac", "huge"])
    with_qid = nq > 1 or rng.random() < 0.7
    if not with_qid:
        nq = 1
    qids = rng.sample(range(-50, 10 ** 6), nq)
    docids = rng.choice(["letor", "word", "none", "mixed"])
    queries = []
    for q in range(nq):
        n = rng.choice([1, 1, 2, 3, 5, 8, 14, 14, 40])
        queries.append((qids[q] if with_qid else 0, gen_labels(rng, n, kind)))
    lines, ids = [], []
    di = 0
    for qid, labels in queries:
        for l in labels:
            di += 1
            qpart = " qid:%d" % qid if with_qid else ""
            line = "%s%s 1:%g" % (l, qpart, rng.random())
            mode = docids if docids != "mixed" else rng.choice(["letor", "word", "none"])
            if mode == "letor":
                doc = "D%d-%d" % (ci, di)
                line += " #docid = %s inc = 1 prob = 0.5" % doc
            elif mode == "word":
                doc = "w%d" % rng.randint(0, 10 ** 6)
                line += " # %s trailing words" % doc
            else:
                doc = "doc%d" % di
            ids.append(doc)
            lines.append(line)
    skind = rng.choice(["ties", "wild", "normal", "mixed"])
    scores = [[gen_score(rng, skind) for _ in range(di)] for _ in range(2)]
    return queries, lines, ids, scores


def gen_specs(rng):
    pool = ["ndcg", "err", "map", "rr"]
    specs = []
    for _ in range(rng.randint(1, 5)):
        name = rng.choice(pool + ["p", "recall", "rbp"])
        if name == "rbp":
            spec = ("rbp", 0, rng.choice([0.5, 0.8, 0.95, 0.1]))
        elif name in ("p", "recall"):
            spec = (name, rng.choice([1, 3, 5, 10, 20]), 0)
        else:
            spec = (name, rng.choice([0, 1, 2, 3, 5, 10, 20]), 0)
        if spec_name(spec) not in [spec_name(s) for s in specs]:
            specs.append(spec)
    return specs


# ----------------------------------------------------------------- checks

class Checker:
    def __init__(self, exe, tmp):
        self.exe, self.tmp, self.fails = exe, tmp, []

    def fail(self, case, msg):
        self.fails.append("case %d: %s" % (case, msg))

    def close(self, case, what, got, want, tol=TOL):
        if want is None or (isinstance(want, float) and math.isnan(want)):
            ok = got is None or (isinstance(got, float) and math.isnan(got))
        else:
            ok = got is not None and not math.isnan(got) and abs(got - want) <= tol * max(1, abs(want))
        if not ok:
            self.fail(case, "%s: cronus %r, expected %r" % (what, got, want))

    def run(self, ci, rng):
        queries, lines, ids, scores = gen_case(rng, ci)
        d = os.path.join(self.tmp, "c%d" % ci)
        os.makedirs(d)
        dataf, sf, of = (os.path.join(d, x) for x in ("d.txt", "a.scores", "b.scores"))
        with open(dataf, "w") as f:
            f.write("\n".join(lines) + "\n")
        for path, s in ((sf, scores[0]), (of, scores[1])):
            form = rng.choice(["plain", "plain", "crlf", "bom", "ranklib", "gzip"])
            if form == "ranklib":
                place = [(qid, i) for qid, ls in queries for i in range(len(ls))]
                text = "".join("%d\t%d\t%s\n" % (q, i, fmt_score(rng, v)) for (q, i), v in zip(place, s))
            else:
                text = "".join(fmt_score(rng, v) + ("\r\n" if form == "crlf" else "\n") for v in s)
                if form == "bom":
                    text = "\ufeff" + text + "\n\n"
            with (gzip.open if form == "gzip" else open)(path, "wt", encoding="utf-8", newline="") as f:
                f.write(text)
        specs = gen_specs(rng)
        rel = rng.choice([1, 1, 2, 0.5, 0.7, 3])
        errmax = rng.choice([None, None, 4, 2, 1.5])
        exclude = rng.random() < 0.4
        args = [self.exe, "eval", "--scores", sf, "--data", dataf, "--metrics",
                ",".join(spec_name(s) for s in specs), "--json"]
        binmetrics = any(s[0] not in ("ndcg", "err") for s in specs)
        if binmetrics:
            args += ["--relevant", str(rel)]
        else:
            rel = 1
        if errmax is not None and any(s[0] == "err" for s in specs):
            args += ["--err-max-label", str(errmax)]
        else:
            errmax = None
        if exclude:
            args.append("--exclude-no-relevant")
        rounds = rng.choice([2000, 10000])
        tag = rng.choice([None, "sys-A"])
        outs = []
        for rep in range(2):
            pq, rn = os.path.join(d, "pq%d.tsv" % rep), os.path.join(d, "run%d.txt" % rep)
            a = args + ["--per-query", pq, "--run", rn, "--compare", of, "--compare-rounds", str(rounds)]
            if tag:
                a += ["--tag", tag]
            p = subprocess.run(a, capture_output=True, text=True)
            outs.append((p, pq, rn))
        p, pq, rn = outs[0]

        all_labels = [f32(l) for _, ls in queries for l in ls]
        lmax = f32(errmax) if errmax is not None else max(all_labels)
        per = {}
        for s in specs:
            vals, others = [], []
            off = 0
            for qid, ls in queries:
                ls32 = [f32(l) for l in ls]
                n = len(ls)
                vals.append(metric_value(s, ls32, scores[0][off:off + n], rel, lmax, exclude))
                others.append(metric_value(s, ls32, scores[1][off:off + n], rel, lmax, exclude))
                off += n
            per[spec_name(s)] = (vals, others)
        undefined = [k for k, (v, _) in per.items() if all(math.isnan(x) for x in v)]
        if p.returncode != 0:
            if len(undefined) == len(specs) and "leaves none to average" in p.stderr:
                return
            self.fail(ci, "exit %d: %s\n  args %s" % (p.returncode, p.stderr.strip(), " ".join(args)))
            return
        if len(undefined) == len(specs):
            self.fail(ci, "exit 0 where every metric is n/a")
        if "Traceback" in p.stderr or "panic" in p.stderr or "goroutine" in p.stderr:
            self.fail(ci, "stack trace: " + p.stderr)
        r = json.loads(p.stdout)
        if r["queries"] != len(queries) or r["docs"] != len(all_labels):
            self.fail(ci, "queries/docs %d/%d" % (r["queries"], r["docs"]))
        rows = open(pq).read().split("\n")
        if rows[-1] != "":
            self.fail(ci, "per-query TSV does not end in a newline")
        rows = [x.split("\t") for x in rows[:-1]]
        names = [spec_name(s) for s in specs]
        if rows[0] != ["qid"] + names:
            self.fail(ci, "per-query header %r, expected %r" % (rows[0], ["qid"] + names))
            return
        if len(rows) != len(queries) + 1:
            self.fail(ci, "per-query has %d rows for %d queries" % (len(rows) - 1, len(queries)))
            return
        for j, name in enumerate(names):
            vals, others = per[name]
            col = [float(row[j + 1]) for row in rows[1:]]
            for q, (qid, _) in enumerate(queries):
                if rows[q + 1][0] != str(qid):
                    self.fail(ci, "per-query row %d qid %s, expected %d" % (q + 1, rows[q + 1][0], qid))
                self.close(ci, "%s query %d (qid %d)" % (name, q, qid), col[q], vals[q])
            defined = [x for x in col if not math.isnan(x)]
            mean_rows = math.fsum(defined) / len(defined) if defined else None
            self.close(ci, "%s mean vs mean of per-query rows" % name, r["metrics"][name], mean_rows, 1e-12)
            want = [x for x in vals if not math.isnan(x)]
            self.close(ci, "%s mean" % name, r["metrics"][name], math.fsum(want) / len(want) if want else None)
            st = paired(vals, others)
            c = r["compare"]["metrics"][name]
            if c["queries"] != st["queries"]:
                self.fail(ci, "%s compare queries %d, expected %d" % (name, c["queries"], st["queries"]))
            for key in ("this", "that", "diff", "se", "t", "p_t"):
                if key in ("t",) and st.get("se") == 0:
                    if st["diff"] != 0 and abs(st["diff"]) > 1e-10 and c["t"] is not None:
                        self.fail(ci, "%s compare t %r with s.e. 0" % (name, c["t"]))
                    continue
                if key == "p_t" and st.get("se") == 0:
                    want_p = 1.0 if abs(st["diff"]) <= 1e-10 else 0.0
                    self.close(ci, "%s compare p_t" % name, c["p_t"], want_p, 1e-9)
                    continue
                if key == "diff" and key in st and abs(st[key]) < 1e-10:
                    if c[key] is None or abs(c[key]) > 1e-10:
                        self.fail(ci, "%s compare diff %r, expected ~0" % (name, c[key]))
                    continue
                self.close(ci, "%s compare %s" % (name, key), c[key], st.get(key), 1e-7)
            if "p_exact" in st and c["p_rand"] is not None:
                pe = st["p_exact"]
                sd = math.sqrt(max(pe * (1 - pe), 1 / rounds) / rounds)
                if abs(c["p_rand"] - pe) > 5 * sd + 1.0 / rounds:
                    self.fail(ci, "%s p_rand %r, exact sign-flip p %r (%d rounds; differences %r)" % (name, c["p_rand"], pe, rounds, [x - y for x, y in zip(vals, others)]))
            if "p_exact" in st and st["queries"] >= 1 and c["p_rand"] is None:
                self.fail(ci, "%s p_rand null with %d queries" % (name, st["queries"]))
        if r["compare"]["rounds"] != rounds:
            self.fail(ci, "compare rounds %r" % r["compare"]["rounds"])

        # The TREC run: per query, by descending score, ties in input order.
        run = open(rn).read().split("\n")
        if run[-1] != "":
            self.fail(ci, "run does not end in a newline")
        run = run[:-1]
        want_lines = []
        off = 0
        for qid, ls in queries:
            n = len(ls)
            for rank, i in enumerate(ranking(scores[0][off:off + n])):
                want_lines.append((str(qid), "Q0", ids[off + i], str(rank + 1), scores[0][off + i], tag or "cronus"))
            off += n
        if len(run) != len(want_lines):
            self.fail(ci, "run has %d lines for %d documents" % (len(run), len(want_lines)))
        else:
            for got, want in zip(run, want_lines):
                g = got.split(" ")
                if len(g) != 6 or g[:4] != list(want[:4]) or g[5] != want[5] or float(g[4]) != want[4]:
                    self.fail(ci, "run line %r, expected %r" % (got, want))
                    break
        # The same arguments give the same bytes.
        p2, pq2, rn2 = outs[1]
        if (p2.stdout, p2.returncode, open(pq2).read(), open(rn2).read()) != (p.stdout, p.returncode, open(pq).read(), open(rn).read()):
            self.fail(ci, "a second run differs")


def main():
    if len(sys.argv) > 4 or (len(sys.argv) > 2 and not sys.argv[2].isdigit()) or (len(sys.argv) > 3 and not sys.argv[3].isdigit()):
        print("usage: python3 bench/check_metrics.py [CRONUS [CASES [SEED]]]", file=sys.stderr)
        return 2
    cases = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 20261201
    tmp = tempfile.mkdtemp(prefix="check_metrics.")
    try:
        exe = cronus_exe(sys.argv[1] if len(sys.argv) > 1 else None, tmp)
        rng = random.Random(seed)
        ch = Checker(exe, tmp)
        for ci in range(cases):
            ch.run(ci, rng)
        for f in ch.fails[:20]:
            print(f)
        print("%d cases, %d mismatches" % (cases, len(ch.fails)))
        return 1 if ch.fails else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
