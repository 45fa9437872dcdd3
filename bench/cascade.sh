#!/usr/bin/env bash
# Cost-aware cascades against the baselines, with operating points chosen on
# validation and reported on test.
#
#   bash bench/cascade.sh [mq2008|mq2008-fold N|synth] [TREES]
#
# mq2008: built-in MQ2008 Fold1 with its feature costs.
# mq2008-fold N: LETOR fold N (1-5) of MQ2008, rebuilt from Fold1 by
#         bench/folds.py (bench/cascade-folds.sh runs all five and averages).
# synth:  a `cronus gen` set with the MSLR costs (SYNTH_QUERIES queries of
#         ~125 documents for train, a quarter of that for valid and test;
#         default 1600 = 200,000 training documents).
# Positives are label >= 1 on MQ2008 (labels 0-2) and label >= 3 on the
# synthetic set (labels 0-4), the paper's threshold for 0-4 grades (§4).
# The base ensemble is squared-loss GBRT with depth-2 trees (4 leaves; column
# sampling chosen on validation, below; BASE_OBJECTIVE=lambdarank trains
# LambdaMART trees of that shape instead): each tree uses at most 3 features,
# which makes cascades far cheaper than with deep trees (see the README). For every method (single-stage, cronus-init,
# cronus, prefix, early-exit) the operating point is the cheapest point whose
# validation NDCG@10 is within 1% of the full ensemble's, or the best one
# when none is; the table shows that point's test figures. Last,
# bench/front.py sets every Cronus point of the sweep against the baseline
# front, on valid and test, at every cost, and by budget, and
# bench/paired.py tests each of its pairs query by query (the sweeps'
# --per-query files: is a gap more than the noise of the queries?). LAMBDAS sets the
# sweep's λ grid (default 0.002:0.5:8, FROM:TO:N in fractions of λ_max);
# REFINE=N lets the sweep add up to N more λ where a baseline lies above
# the Cronus front on validation (`cronus sweep --refine N`; default 0).
# UNCAPPED sets the λ grid of a second sweep, near λ_max, with the uncapped
# schedule λ_k = λ·δ^(K−k) (--stage-cap 0; default 0.5:0.99:11, the six
# λ of 0.5:0.99:6 and the five between them; "none" for no second sweep):
# there the early stages face more than their λ_max and stay empty, so the
# last stage alone keeps trees and the cascade reaches the cheap end the
# single stage reaches (with the cap every stage faces λ there, and the
# later ones, reached by fewer documents, keep trees the first does not).
# front.py pools the two sweeps' Cronus points; the table printed before
# it is the first sweep's. HOLDOUT=f grows the base ensemble's trees on
# part of the training queries and fits the cascade on the other f of
# them (below).
set -euo pipefail
cd "$(dirname "$0")/.."
set_=${1:-mq2008}
# BASE_OBJECTIVE sets the base ensemble's objective (default regression,
# the paper's GBRT; lambdarank trains LambdaMART trees of the same shape).
objective=${BASE_OBJECTIVE:-regression}
case "$objective" in regression|lambdarank) ;; *) echo "bench/cascade.sh: BASE_OBJECTIVE must be regression or lambdarank, got $objective" >&2; exit 2 ;; esac
# BASE_DEPTH sets the base trees' depth (default 2: 4 leaves; 1: stumps,
# each tree on one feature; 3: 8 leaves), leaves 2^depth.
depth=${BASE_DEPTH:-2}
case "$depth" in 1|2|3) ;; *) echo "bench/cascade.sh: BASE_DEPTH must be 1, 2 or 3, got $depth" >&2; exit 2 ;; esac
leaves=$((1 << depth))
# BASE_SEED sets the base ensemble's random seed (cronus train --seed: its
# column sampling; default 1, train's own), to see how far a figure
# depends on the one base ensemble the bench trains.
seed=${BASE_SEED:-1}
if [ "$set_" = mq2008-fold ]; then
  fold=${2:?usage: bench/cascade.sh mq2008-fold N [TREES]}
  set_=mq2008-fold$fold
  shift
fi
trees=${2:-500}
. bench/lib.sh
need_count "bench/cascade.sh [mq2008|mq2008-fold N|synth] [TREES]" TREES "$trees"
need_count "BASE_SEED=S bash bench/cascade.sh" BASE_SEED "$seed" 0
if [ -n "${LAST_PREFIXES:-}" ] && [ -z "${VARIANTS:-}" ]; then
  echo "bench/cascade.sh: LAST_PREFIXES sets the prefix lengths of VARIANTS' last-prefix and cut-prefix: set VARIANTS too (e.g. VARIANTS=all)" >&2
  exit 2
fi
need_time
dir=$dir/cascade-$set_
mkdir -p "$dir"
go build -o "$dir/cronus" .
c="$dir/cronus"
case "$set_" in
  mq2008)
    train=builtin:mq2008/train valid=builtin:mq2008/vali test=builtin:mq2008/test costs=builtin:mq2008/costs rel=1 ;;
  mq2008-fold[1-5])
    make_folds "$dir"
    train=$dir/f$fold-train.txt valid=$dir/f$fold-vali.txt test=$dir/f$fold-test.txt costs=builtin:mq2008/costs rel=1 ;;
  synth)
    q=${SYNTH_QUERIES:-1600}
    # At least 4: valid and test take a quarter of them (cronus gen refuses 0).
    case "$q" in ''|*[!0-9]*|0*|[1-3]) echo "bench/cascade.sh: SYNTH_QUERIES must be a whole number of at least 4, not '$q'" >&2; exit 2 ;; esac
    # The files are kept for the next run, but only for the same number of
    # queries: synth.queries records what they were made with (files of
    # another SYNTH_QUERIES, or of a run before the record, are made again).
    if [ "$(cat "$dir/synth.queries" 2>/dev/null)" != "$q" ]; then
      rm -f "$dir/synth.queries" "$dir/train.txt" "$dir/valid.txt" "$dir/test.txt"
    fi
    for s in train:1:$q valid:2:$((q / 4)) test:3:$((q / 4)); do
      IFS=: read -r name seed nq <<<"$s"
      [ -f "$dir/$name.txt" ] || "$c" gen --queries "$nq" --docs-per-query 125 --seed "$seed" --out "$dir/$name.txt" > /dev/null
    done
    echo "$q" > "$dir/synth.queries"
    train=$dir/train.txt valid=$dir/valid.txt test=$dir/test.txt
    costs=$dir/mslr.costs; cp -f data/builtin/mslr-web10k.feature_cost.txt "$costs"; chmod 644 "$costs"; rel=3 ;;
  *) echo "usage: bench/cascade.sh [mq2008|mq2008-fold N|synth] [TREES]" >&2; exit 2 ;;
esac
# HOLDOUT=f: the base ensemble's trees grow on part of the training queries
# and the cascade is fitted on the rest, a fraction f of them (every query
# i with floor((i+1)f) > floor(if): bench/holdout.py), as stacking fits its
# combiner on data its members did not see. The baselines are then those of
# the ensemble grown on the smaller part; pool the curve with a run without
# HOLDOUT (another BENCH_DIR) to set Cronus against both ensembles'
# (bench/front.py A.csv+B.csv). bench/MEASURED.md has what it changed (on
# MQ2008's five folds, nothing beyond the noise).
fit=$train
if [ -n "${HOLDOUT:-}" ] && [ "$HOLDOUT" != none ]; then
  src=$train
  case "$train" in builtin:mq2008/*) src=$dir/train-all.txt; gzip -dc "data/builtin/mq2008/${train#builtin:mq2008/}.txt.gz" > "$src" ;; esac
  $py bench/holdout.py "$src" "$HOLDOUT" "$dir/train-trees.txt" "$dir/train-cascade.txt"
  train=$dir/train-trees.txt fit=$dir/train-cascade.txt
fi
# The base ensemble's column sampling (1, 0.3 or 0.1 of the features per
# tree) is chosen on validation NDCG@10 of the full ensemble. Sampling gives
# the cascade trees over more (and cheaper) features to choose from; without
# it most trees split on the few most informative, expensive features.
# EARLY_STOP=R stops each base ensemble R trees after its best validation
# NDCG@10 and keeps the trees up to it (cronus train --early-stop R): the
# ensemble a user would deploy, its prefixes stopping there too (default:
# off, TREES trees).
stop=()
if [ -n "${EARLY_STOP:-}" ] && [ "$EARLY_STOP" != 0 ]; then
  need_count "EARLY_STOP=R bash bench/cascade.sh" EARLY_STOP "$EARLY_STOP"
  stop=(--valid "$valid" --early-stop "$EARLY_STOP")
fi
best=-1
for cs in 1 0.3 0.1; do
  "$c" train --train "$train" --objective "$objective" --trees "$trees" --leaves "$leaves" --max-depth "$depth" --col-sample "$cs" --seed "$seed" "${stop[@]}" --out "$dir/model-$cs.json" > /dev/null
  v=$("$c" eval --model "$dir/model-$cs.json" --data "$valid" --metrics ndcg@10 --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["metrics"]["ndcg@10"])')
  echo "base ensemble, column sample $cs: validation ndcg@10 $v"
  if /usr/bin/python3 -c 'import sys; sys.exit(not float(sys.argv[1]) > float(sys.argv[2]))' "$v" "$best"; then best=$v; colsample=$cs; fi
done
cp "$dir/model-$colsample.json" "$dir/model.json"
kept=$(/usr/bin/python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["trees"]))' "$dir/model.json")
echo "base ensemble: $objective, depth $depth, column sample $colsample, $kept trees"
# LAMBDAS sets the sweep's λ grid (FROM:TO:N, fractions of λ_max).
lambdas=${LAMBDAS:-0.002:0.5:8}
refine=${REFINE:-0}
common=(--model "$dir/model.json" --train "$fit" --valid "$valid" --test "$test" --costs "$costs")
# The bench's exit rule and relevance threshold, unless CASCADE_ARGS sets
# them (bench/lib.sh); extra is CASCADE_ARGS's words.
cascade_args common "$rel"
# VARIANTS=LIST also writes each cascade's variants (cuts, last-stage
# prefixes; `cronus sweep --variants LIST`, e.g. all) as rows of the
# curve, which front.py and paired.py then pool with the cascades; the
# table below is of the cascades alone. LAST_PREFIXES=LIST sets their
# prefix lengths (`--last-prefixes LIST`: numbers and ranges, such as
# 5-100,110-200/10; default the sweep's, 10,15,20,30,50,75,100,150,200,
# 300,500).
variants=()
[ -n "${VARIANTS:-}" ] && variants=(--variants "$VARIANTS")
[ -n "${LAST_PREFIXES:-}" ] && variants+=(--last-prefixes "$LAST_PREFIXES")
/usr/bin/time -f '%e' -o "$dir/sweep.time" "$c" sweep "${common[@]}" --lambdas "$lambdas" --refine "$refine" --every-prefix "${variants[@]}" --out "$dir/curve.csv" --per-query "$dir/curve.queries.tsv" --plot "$dir/curve.svg" > /dev/null
curves=$dir/curve.csv
uncapped=${UNCAPPED:-0.5:0.99:11}
rm -f "$dir/curve-uncapped.csv" "$dir/curve-uncapped.queries.tsv" # not another run's: cascade-folds.sh pools it when it is there
if [ "$uncapped" != none ] && ! given --stage-cap; then
  "$c" sweep "${common[@]}" --stage-cap 0 --lambdas "$uncapped" --out "$dir/curve-uncapped.csv" --per-query "$dir/curve-uncapped.queries.tsv" > /dev/null
  curves=$curves+$dir/curve-uncapped.csv
fi
/usr/bin/python3 - "$dir/curve.csv" > "$dir/choice.txt" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if "#" not in r["lambda"]]  # the cascades' variants (VARIANTS) aside
for r in rows:
    for k in ("lambda", "cost", "feature_cost", "tree_cost", "p@5", "ndcg@10", "err@3"):
        r[k] = float(r[k])
full = {s: max((r for r in rows if r["method"] == "prefix" and r["split"] == s), key=lambda r: r["lambda"]) for s in ("valid", "test")}
target = 0.99 * full["valid"]["ndcg@10"]
print("%-13s %10s %9s %8s %8s %7s %8s %7s" % ("method", "λ or k/s", "cost/doc", "features", "trees", "p@5", "ndcg@10", "err@3"))
def show(name, lam, r):
    print("%-13s %10.4g %9.1f %8.1f %8.1f %7.4f %8.4f %7.4f" % (name, lam, r["cost"], r["feature_cost"], r["tree_cost"], r["p@5"], r["ndcg@10"], r["err@3"]))
show("full", full["test"]["lambda"], full["test"])
for m in ("prefix", "early-exit", "single-stage", "cronus-init", "cronus"):
    v = [r for r in rows if r["method"] == m and r["split"] == "valid"]
    ok = [r for r in v if r["ndcg@10"] >= target]
    pick = min(ok, key=lambda r: r["cost"]) if ok else max(v, key=lambda r: r["ndcg@10"])
    t = next(r for r in rows if r["method"] == m and r["split"] == "test" and r["lambda"] == pick["lambda"])
    show(m, pick["lambda"], t)
    if m == "cronus":
        print("CHOSEN_LAMBDA", pick["lambda"])
PY
lam=$(awk '/^CHOSEN_LAMBDA/ {print $2}' "$dir/choice.txt")
"$c" cascade "${common[@]}" --lambda "$lam" --out "$dir/cascade.json" --json > "$dir/cascade.out.json"
echo "$set_: $kept depth-2 trees (of $trees); sweep over λ $lambdas (refine $refine) took $(cat "$dir/sweep.time")s; test figures at operating points chosen on validation"
grep -v CHOSEN_LAMBDA "$dir/choice.txt"
/usr/bin/python3 - "$dir/cascade.out.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("cronus at λ=%g×λ_max (ρ=%g), re-run: test ndcg@10 %.4f at cost %.1f; full %.4f at %.1f (cost ratio %.3f)" % (
    r["lambda"], r["rho1"], r["test"]["metrics"]["ndcg@10"], r["test"]["cost"]["total"],
    r["full_test"]["metrics"]["ndcg@10"], r["full_test"]["cost"]["total"], r["test"]["cost"]["total"] / r["full_test"]["cost"]["total"]))
c = r["paired_test"]["metrics"]["ndcg@10"]
# se, t and p_t are null when the test set has one query (SYNTH_QUERIES < 8).
na = lambda fmt, v: "n/a" if v is None else fmt % v
print("cascade - full, test ndcg@10: %+.4f ± %s over %d queries (two-sided p %s t test, %s randomisation)" % (
    c["diff"], na("%.4f", c["se"]), c["queries"], na("%.3f", c["p_t"]), na("%.3f", c["p_rand"])))
print("fraction of test documents reaching each stage:", " ".join("%.3f" % x for x in r["test"]["reached"]))
print("initialisation %.2fs, cyclic optimisation %.2fs" % (r["init_seconds"], r["cyclic_seconds"]))
PY
/usr/bin/python3 bench/front.py "$curves"
# The same comparisons query by query: which gaps are more than noise.
/usr/bin/python3 bench/paired.py "$curves"
