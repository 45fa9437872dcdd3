#!/usr/bin/python3
"""An independent check of the optimiser's mathematics against Chen et al.
2012 (§3) and README's "How the optimiser works" conventions.

  go build -o /tmp/cronus . && /usr/bin/python3 bench/check_objective.py /tmp/cronus

(from the repository's root; numpy, no scipy; about 20 s on 2 cores). It
trains a 30-tree depth-2 model on the built-in MQ2008 train set, makes
cascades with `cronus cascade` (both exit rules, several K, λ, ρ, ε, σ,
targets and tree costs, from scratch and warm from perturbed cascades),
and recomputes from the data, the model's trees and the cascade files
alone, without the Go code:

  H        the tree outputs (float32 leaves), against `predict --model`;
  eq (8)   loss, ℓ1, tree cost, feature cost and total, with the soft reach
           d_k, σ_k from the file, top-m protection under --rule top-m,
           against the trace line of the step the cascade file is;
  exits    each document's hard exit stage, score and cost (each tree and
           feature paid once), against `predict --cascade --exits`, on
           train and validation;
  init     θ_k (bisection to d_{k+1} = (1 − ε) d_k with top-m counted as
           going on), σ_k = σ × the p-weighted spread, and the KKT
           conditions of each stage's convex problem at README's
           λ_k = min(λ δ^(K−k), max(0.7 λ_max,k, λ));
  λ_max    the coordinate-wise single-stage λ_max (the default) against
           the file's, and eq (7)'s exact λ_max (the dual norm of the
           penalty, by bisection and projected gradient) against
           `--joint-entry`'s.

It prints each quantity's largest difference and exits 1 if one is beyond
its tolerance.
"""
import gzip
import json
import math
import os
import random
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    sys.exit("check_objective.py: %s has no numpy; install Debian's python3-numpy (apt-get install python3-numpy, as root)" % sys.executable)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data", "builtin", "mq2008")
FAILED = []


def report(what, diff, tol):
    ok = diff <= tol
    if not ok:
        FAILED.append(what)
    print("%-58s %.2e %s" % (what, diff, "ok" if ok else "FAIL (tol %.0e)" % tol))


def read_svmlight(path):
    labels, qids, rows, nf = [], [], [], 0
    with gzip.open(path, "rt") as f:
        for line in f:
            parts = line.split("#", 1)[0].split()
            if not parts:
                continue
            labels.append(float(parts[0]))
            feats = {}
            for p in parts[1:]:
                k, v = p.split(":")
                if k == "qid":
                    qids.append(int(v))
                else:
                    feats[int(k)] = float(v)
                    nf = max(nf, int(k))
            rows.append(feats)
    X = np.zeros((len(rows), nf), dtype=np.float32)
    for i, r in enumerate(rows):
        for k, v in r.items():
            X[i, k - 1] = v
    offsets = [0] + [i for i in range(1, len(qids)) if qids[i] != qids[i - 1]] + [len(qids)]
    return X, np.array(labels, dtype=np.float32), np.array(offsets)


def tree_outputs(model, X):
    """H[i, t], tree t's leaf for document i as float32, and each tree's
    features (0-based)."""
    n, T = X.shape[0], len(model["trees"])
    H = np.zeros((n, T), dtype=np.float32)
    feats = []
    for t, tr in enumerate(model["trees"]):
        sf = np.array(tr["split_feature"], dtype=np.int64)
        feats.append(sorted(set((sf - 1).tolist())))
        leaves = np.array(tr["leaf_value"], dtype=np.float64)
        if len(sf) == 0:
            H[:, t] = np.float32(leaves[0])
            continue
        thr = np.array(tr["threshold"], dtype=np.float32)
        lc, rc = np.array(tr["left_child"]), np.array(tr["right_child"])
        node = np.zeros(n, dtype=np.int64)
        out = np.zeros(n)
        live = np.arange(n)
        while len(live):
            nd = node[live]
            nxt = np.where(X[live, sf[nd] - 1] <= thr[nd], lc[nd], rc[nd])
            leaf = nxt < 0
            out[live[leaf]] = leaves[-nxt[leaf] - 1]
            node[live[~leaf]] = nxt[~leaf]
            live = live[~leaf]
        H[:, t] = out.astype(np.float32)
    return H, feats


def targets(labels, par):
    pos = labels.astype(np.float64) >= float(np.float32(par["relevant"]))
    return (np.where(pos, 1.0, -1.0),
            np.where(pos, par["pos_weight"], par["neg_weight"] * par["neg_multiply"]))


def scales(H, y, om, feats, fc, tc):
    """Single-stage λ_max (ρ 0, coordinate-wise entry: README's default) and
    ρ_max (λ 0), from the gradient at the intercept-only fit; also that
    gradient, each tree's price and which trees are flat."""
    Hd = H.astype(np.float64)
    g = Hd.T @ (om * (y - (om * y).sum() / om.sum()))
    flat = np.all(H == H[0], axis=0)
    price = np.array([tc[t] + sum(fc[a] for a in feats[t]) for t in range(H.shape[1])])
    ok = ~flat & (price > 0)
    return np.max(np.abs(g[ok]) / price[ok]), np.max(np.abs(g[~flat])), g, flat


def exact_lambda_max(g, flat, feats, fc, tc):
    """Eq (7)'s λ_max: the dual norm of Σ e_t|β_t| + Σ c_α‖β_{T_α}‖₂ at g,
    the least λ with g = z + Σ_α w_α, |z_t| ≤ λ e_t, ‖w_α‖ ≤ λ c_α."""
    T = len(g)
    g = np.where(flat, 0.0, g)
    pairs = [(a, t) for a in range(len(fc)) for t in range(T) if a in feats[t]]
    ga = np.array([a for a, _ in pairs])
    gt = np.array([t for _, t in pairs])
    groups, start = np.unique(ga, return_index=True)
    L = max(np.bincount(gt, minlength=T).max(), 1)
    tc = np.asarray(tc, dtype=np.float64)

    def excess(lam):
        w = np.zeros(len(pairs))
        v, tk = w.copy(), 1.0
        cap = lam * np.asarray(fc)[groups]
        for _ in range(3000):
            s = g - np.bincount(gt, weights=v, minlength=T)
            e = np.sign(s) * np.maximum(np.abs(s) - lam * tc, 0)
            x = v + e[gt] / L
            nr = np.sqrt(np.add.reduceat(x * x, start))
            x = x * np.repeat(np.minimum(1, cap / np.maximum(nr, 1e-300)), np.diff(np.append(start, len(x))))
            tn = (1 + math.sqrt(1 + 4 * tk * tk)) / 2
            v, w, tk = x + (tk - 1) / tn * (x - w), x, tn
        s = g - np.bincount(gt, weights=w, minlength=T)
        return np.sum(np.maximum(np.abs(s) - lam * tc, 0) ** 2) / np.sum(g * g)

    price = np.array([tc[t] + sum(fc[a] for a in feats[t]) for t in range(T)])
    lo = np.max(np.abs(g) / np.where(price > 0, price, np.inf)) * 0.999
    hi = lo * 10
    for _ in range(30):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if excess(mid) > 1e-14 else (lo, mid)
    return hi


def stage_scores(c, H):
    out = []
    for st in c["stages"]:
        s = np.full(H.shape[0], float(st["intercept"]))
        for t, w in zip(st["trees"], st["weights"]):
            s = s + w * H[:, t].astype(np.float64)
        out.append(s)
    return out


def thetas(c):
    K = len(c["stages"])
    return [-math.inf if st.get("theta") is None or k == K - 1 else st["theta"]
            for k, st in enumerate(c["stages"])]


def topm(c):
    return c.get("top_m", 0) if c["rule"] == "top-m" else 0


def hard_walk(scores, th, offsets, m):
    """The hard rule: per stage the protected documents (a query's m best
    among those reaching it, ties to the lower index; None: none), the
    documents reaching it, and each document's exit stage."""
    n, K = len(scores[0]), len(scores)
    reach, exit_ = np.ones(n, dtype=bool), np.full(n, K - 1)
    prots, reaches = [], []
    for k in range(K):
        reaches.append(reach.copy())
        prot = None
        if k < K - 1 and m > 0 and th[k] != -math.inf:
            prot = np.zeros(n, dtype=bool)
            for q in range(len(offsets) - 1):
                idx = np.arange(offsets[q], offsets[q + 1])[reach[offsets[q]:offsets[q + 1]]]
                prot[idx[np.lexsort((idx, -scores[k][idx]))[:m]]] = True
        prots.append(prot)
        if k < K - 1:
            leave = reach & (scores[k] < th[k]) & (~prot if prot is not None else True)
            exit_[leave] = k
            reach = reach & ~leave
    return prots, reaches, exit_


def soft_exit(s, theta, sigma, prot):
    if theta == -math.inf:
        return np.ones_like(s)
    I = 1 / (1 + np.exp(-(s - theta) / sigma))
    return I if prot is None else np.where(prot, 1.0, I)


def soft_reach(c, scores, prots):
    th = thetas(c)
    p, ps = np.ones(len(scores[0])), []
    for k, st in enumerate(c["stages"]):
        ps.append(p)
        if k < len(th) - 1:
            p = p * soft_exit(scores[k], th[k], st["sigma_abs"], prots[k])
    return ps


def weights(c, T):
    B = np.zeros((len(c["stages"]), T))
    for k, st in enumerate(c["stages"]):
        B[k, st["trees"]] = st["weights"]
    return B


def eq8(c, H, y, om, feats, lam, rho, offsets):
    """Eq (8) and its four terms, and d_k."""
    fc, tc = np.array(c["feature_cost"]), np.array(c["tree_cost"])
    K = len(c["stages"])
    scores = stage_scores(c, H)
    prots, _, _ = hard_walk(scores, thetas(c), offsets, topm(c))
    ps = soft_reach(c, scores, prots)
    loss = 0.0
    for k in range(K):
        q = ps[k] - (ps[k + 1] if k < K - 1 else 0)  # p^k (1 − I^k); p^K at the last
        loss += 0.5 * np.sum(om * q * (y - scores[k]) ** 2)
    d = np.array([p.mean() for p in ps])
    B = weights(c, H.shape[1])
    sq = ((B * d[:, None]) ** 2).sum(axis=0)
    fsq = np.zeros(len(fc))
    for t, fs in enumerate(feats):
        fsq[fs] += sq[t]
    terms = {"loss": loss, "reg": sum(rho[k] * np.abs(B[k]).sum() for k in range(K)),
             "tree_cost": lam * np.sum(tc * np.sqrt(sq)), "feature_cost": lam * np.sum(fc * np.sqrt(fsq))}
    terms["total"] = sum(terms.values())
    return terms, d


class Run:
    def __init__(self, cronus, tmp):
        self.cronus, self.tmp = cronus, tmp
        self.X, self.lab, self.off = read_svmlight(os.path.join(DATA, "train.txt.gz"))
        self.Xv, _, self.offv = read_svmlight(os.path.join(DATA, "vali.txt.gz"))
        self.model_path = self.path("m.json")
        self.go("train", "--train", "builtin:mq2008/train", "--objective", "regression", "--trees", "30",
                "--max-depth", "2", "--leaves", "4", "--out", self.model_path)
        model = json.load(open(self.model_path))
        self.H, self.feats = tree_outputs(model, self.X)
        self.Hv, _ = tree_outputs(model, self.Xv)
        pred = np.loadtxt(self.go_out("predict", "--model", self.model_path, "--data", "builtin:mq2008/train"))
        report("H: |predict --model − (base + Σ_t h_t)|", np.abs(pred - model["base_score"] - self.H.astype(np.float64).sum(1)).max(), 1e-6)
        self.dmax = {}

    def path(self, name):
        return os.path.join(self.tmp, name)

    def go(self, *args):
        subprocess.run([self.cronus, *args], check=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def go_out(self, *args):
        out = self.path("out.txt")
        self.go(*args, "--out", out)
        return out

    def cascade(self, name, *args):
        out, trace, rep = self.path(name + ".json"), self.path(name + ".jsonl"), self.path(name + ".r.json")
        with open(rep, "w") as f:
            subprocess.run([self.cronus, "cascade", "--model", self.model_path, "--train", "builtin:mq2008/train",
                            "--valid", "builtin:mq2008/vali", "--costs", "builtin:mq2008/costs",
                            "--out", out, "--trace", trace, "--json", *args], check=True, stdout=f, stderr=subprocess.PIPE)
        c = json.load(open(out))
        step = json.load(open(rep))["best_step"]
        return c, json.loads(open(trace).read().splitlines()[step]), out

    def note(self, key, v):
        self.dmax[key] = max(self.dmax.get(key, 0.0), v)

    def check(self, c, line, cpath):
        par = c["params"]
        y, om = targets(self.lab, par)
        lmax, rmax, _, _ = scales(self.H, y, om, self.feats, c["feature_cost"], c["tree_cost"])
        self.note("λ_max (coordinate-wise), relative", abs(lmax / par["lambda_max"] - 1))
        lam = par["lambda"] * lmax
        K = len(c["stages"])
        rho = [par["rho1"] * rmax] * (K - 1) + [par["rhoK"] * rmax]
        terms, d = eq8(c, self.H, y, om, self.feats, lam, rho, self.off)
        for k, v in terms.items():
            self.note("eq (8) %s, relative" % k, abs(v / line["objective"][k] - 1))
        self.note("d_k (soft_train)", np.abs(d - [s["soft_train"] for s in line["stages"]]).max())
        _, reaches, _ = hard_walk(stage_scores(c, self.H), thetas(c), self.off, topm(c))
        self.note("hard fractions (hard_train)", np.abs(np.array([r.mean() for r in reaches]) - [s["hard_train"] for s in line["stages"]]).max())
        self.check_exits(c, cpath)

    def check_exits(self, c, cpath):
        fc, tc = c["feature_cost"], c["tree_cost"]
        trees, fs, cost = set(), set(), []
        for st in c["stages"]:
            for t, w in zip(st["trees"], st["weights"]):
                if w != 0:
                    trees.add(t)
                    fs.update(self.feats[t])
            cost.append((sum(fc[a] for a in fs), sum(tc[t] for t in trees)))
        for split, H, off in (("train", self.H, self.off), ("vali", self.Hv, self.offv)):
            scores = stage_scores(c, H)
            _, _, ex = hard_walk(scores, thetas(c), off, topm(c))
            exits = self.path("exits.tsv")
            self.go_out("predict", "--cascade", cpath, "--data", "builtin:mq2008/" + split, "--exits", exits)
            rows = [r.split("\t") for r in open(exits).read().splitlines()[1:]]
            self.note("exit stage mismatches (documents)", float(sum(int(r[2]) - 1 != e for r, e in zip(rows, ex))))
            self.note("score at exit", max(abs(float(r[3]) - scores[e][i]) for i, (r, e) in enumerate(zip(rows, ex))))
            self.note("per-document feature + tree cost", max(abs(float(r[4]) - cost[e][0]) + abs(float(r[5]) - cost[e][1]) for r, e in zip(rows, ex)))

    def check_init(self, c):
        par = c["params"]
        y, om = targets(self.lab, par)
        fc, tc = np.array(c["feature_cost"]), np.array(c["tree_cost"])
        lmax, rmax, _, flat = scales(self.H, y, om, self.feats, fc, tc)
        lam, K, m = par["lambda"] * lmax, len(c["stages"]), topm(c)
        scores = stage_scores(c, self.H)
        th = thetas(c)
        prots, _, _ = hard_walk(scores, th, self.off, m)
        ps = soft_reach(c, scores, prots)
        n, T = self.H.shape
        Hd, B = self.H.astype(np.float64), weights(c, T)
        for k, st in enumerate(c["stages"]):
            p, d = ps[k], ps[k].mean()
            if st["trees"]:
                sw = np.sum(p)
                mu = np.sum(p * scores[k]) / sw
                sig = par["sigma"] * math.sqrt(np.sum(p * (scores[k] - mu) ** 2) / sw)
                self.note("init σ_k, relative", abs(st["sigma_abs"] / sig - 1))
            if k < K - 1 and th[k] != -math.inf:
                target = (1 - par["epsilon"]) * d
                f = lambda x: np.sum(p * soft_exit(scores[k], x, st["sigma_abs"], prots[k])) / n - target
                lo, hi = scores[k].min() - 40 * st["sigma_abs"], scores[k].max() + 40 * st["sigma_abs"]
                for _ in range(200):
                    lo, hi = ((lo + hi) / 2, hi) if f((lo + hi) / 2) > 0 else (lo, (lo + hi) / 2)
                self.note("init θ_k (bisection to d_k+1 = (1 − ε) d_k)", abs((lo + hi) / 2 - th[k]))
                if prots[k] is None or np.sum(p * prots[k]) / n < target:  # else θ goes above every score
                    self.note("init d_k+1 / d_k − (1 − ε)", abs(ps[k + 1].mean() / d - (1 - par["epsilon"])))
            # KKT of stage k's convex problem (Algorithm 2), at README's λ_k.
            rho = (par["rhoK"] if k == K - 1 else par["rho1"]) * rmax
            w = om * p
            dj = np.array([q.mean() for q in ps[:k]])
            A = ((B[:k] * dj[:, None]) ** 2).sum(0) if k else np.zeros(T)
            Bf = np.zeros(len(fc))
            for t, fs in enumerate(self.feats):
                Bf[fs] += A[t]
            g0 = Hd.T @ (w * (y - (w * y).sum() / w.sum()))
            lmk = 0.0
            for t in range(T):
                if not flat[t] and abs(g0[t]) > rho:
                    price = d * ((tc[t] if A[t] == 0 else 0) + sum(fc[a] for a in self.feats[t] if Bf[a] == 0))
                    lmk = math.inf if price == 0 else max(lmk, (abs(g0[t]) - rho) / price)
            lk = lam * par["delta"] ** (K - 1 - k)
            if par["stage_cap"] > 0 and K > 1 and lmk != math.inf:
                lk = min(lk, max(par["stage_cap"] * lmk, lam))
            beta = B[k]
            r = y - scores[k]
            g = -(Hd.T @ (w * r))
            S = Bf.copy()
            for t, fs in enumerate(self.feats):
                S[fs] += d * d * beta[t] ** 2
            scale = np.abs(Hd.T @ (w * y)).max()
            self.note("init KKT: intercept", abs(np.sum(w * r)) / scale)
            for t in range(T):
                if beta[t] != 0:
                    v = g[t] + rho * np.sign(beta[t]) + lk * d * d * beta[t] * (
                        tc[t] / math.sqrt(A[t] + d * d * beta[t] ** 2) + sum(fc[a] / math.sqrt(S[a]) for a in self.feats[t]))
                    self.note("init KKT: trees in (gradient)", abs(v) / scale)
                elif not flat[t]:
                    bound = rho + lk * d * ((tc[t] if A[t] == 0 else 0) + sum(fc[a] for a in self.feats[t] if S[a] == 0))
                    self.note("init KKT: trees out (coordinate-wise excess)", max(0.0, abs(g[t]) - bound) / scale)


def perturb(c, seed, out):
    rnd = random.Random(seed)
    K, T = len(c["stages"]), len(c["tree_cost"])
    for k, st in enumerate(c["stages"]):
        st["weights"] = [w * rnd.uniform(0.3, 2) * rnd.choice([1, 1, -1]) for w in st["weights"]]
        st["intercept"] += rnd.uniform(-0.1, 0.1)
        st["sigma_abs"] *= rnd.uniform(0.2, 5)
        if k < K - 1 and st["trees"]:
            st["theta"] += rnd.uniform(-0.1, 0.1)
    for k in (0, K - 1):
        st, t = c["stages"][k], rnd.randrange(T)
        if t not in st["trees"]:
            pairs = sorted(zip(st["trees"] + [t], st["weights"] + [rnd.uniform(-0.5, 0.5)]))
            st["trees"], st["weights"] = [a for a, _ in pairs], [b for _, b in pairs]
    json.dump(c, open(out, "w"))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    if not (os.path.isfile(sys.argv[1]) and os.access(sys.argv[1], os.X_OK)):
        sys.exit("check_objective.py: %s is not an executable cronus binary (go build -o %s . first)" % (sys.argv[1], sys.argv[1]))
    with tempfile.TemporaryDirectory() as tmp:
        run = Run(os.path.abspath(sys.argv[1]), tmp)
        R = ["--rho1", "0.02", "--rhoK", "0.02"]
        runs = [
            ("init-topm-k4", ["--stages", "4", "--lambda", "0.05", "--cycles", "0", *R], True),
            ("init-global-k4", ["--stages", "4", "--lambda", "0.05", "--cycles", "0", "--rule", "global", *R], True),
            ("init-topm-k10", ["--stages", "10", "--lambda", "0.3", "--cycles", "0", "--rho1", "0.005", "--rhoK", "0.02"], True),
            ("init-global-k6", ["--stages", "6", "--lambda", "0.01", "--cycles", "0", "--rule", "global", "--epsilon", "0.3",
                                "--sigma", "0.1", "--rho1", "0.001", "--rhoK", "0.001"], True),
            ("init-targets", ["--stages", "5", "--lambda", "0.1", "--cycles", "0", "--rule", "global", "--relevant", "2",
                              "--pos-weight", "2", "--neg-multiply", "3", "--tree-cost", "2", "--rho1", "0.01", "--rhoK", "0.03"], True),
            ("cyclic-topm-k4", ["--stages", "4", "--lambda", "0.05", "--cycles", "3", *R], False),
            ("cyclic-global-k4", ["--stages", "4", "--lambda", "0.05", "--cycles", "3", "--rule", "global", *R], False),
            ("cyclic-topm3-k6", ["--stages", "6", "--lambda", "0.02", "--cycles", "2", "--top-m", "3", "--sigma", "0.2",
                                 "--tree-cost", "0.5", "--rho1", "0.01", "--rhoK", "0.01"], False),
        ]
        made = {}
        for name, args, init in runs:
            c, line, path = run.cascade(name, *args)
            made[name] = c
            run.check(c, line, path)
            if init:
                run.check_init(c)
        for seed, (base, lam) in enumerate([("cyclic-topm-k4", "0.05"), ("init-topm-k10", "0.3"), ("init-global-k6", "0.02")]):
            p = run.path("perturbed%d.json" % seed)
            perturb(json.loads(json.dumps(made[base])), seed, p)
            c, line, path = run.cascade("warm%d" % seed, "--warm", p, "--lambda", lam, "--cycles", "0")
            run.check(c, line, path)
        tol = {"exit stage mismatches (documents)": 0, "d_k (soft_train)": 1e-12, "hard fractions (hard_train)": 0,
               "score at exit": 0, "per-document feature + tree cost": 1e-9, "init θ_k (bisection to d_k+1 = (1 − ε) d_k)": 1e-9,
               "init d_k+1 / d_k − (1 − ε)": 1e-9, "init KKT: intercept": 1e-6, "init KKT: trees in (gradient)": 1e-6,
               "init KKT: trees out (coordinate-wise excess)": 1e-9}
        for k, v in run.dmax.items():
            report(k, v, tol.get(k, 1e-10))
        # Eq (7)'s exact λ_max against --joint-entry's.
        c, _, _ = run.cascade("joint", "--stages", "1", "--lambda", "0.05", "--cycles", "0", "--joint-entry", *R)
        y, om = targets(run.lab, c["params"])
        lmax, _, g, flat = scales(run.H, y, om, run.feats, c["feature_cost"], c["tree_cost"])
        exact = exact_lambda_max(g, flat, run.feats, c["feature_cost"], c["tree_cost"])
        print("λ_max: coordinate-wise %.10g, eq (7) exact %.10g, --joint-entry %.10g" % (lmax, exact, c["params"]["lambda_max"]))
        report("λ_max (--joint-entry) against eq (7)'s exact, relative", abs(exact / c["params"]["lambda_max"] - 1), 1e-5)
    if FAILED:
        sys.exit("check_objective.py: %d beyond tolerance: %s" % (len(FAILED), "; ".join(FAILED)))
    print("all within tolerance")


if __name__ == "__main__":
    main()
