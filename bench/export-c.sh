#!/usr/bin/env bash
# cronus export --to c: the cascade compiled into a program ranks as cronus
# does, and how fast, against the full ensemble compiled the same way.
#
#   bash bench/export-c.sh [REPETITIONS]     (default 200)
#
# On the built-in MQ2008 it trains the cascade bench's base ensemble (500
# depth-2 regression trees), optimises a cascade of it (`cronus cascade`,
# its defaults, the built-in costs), exports the cascade (prefix cas) and
# the full ensemble (prefix full) as C, compiles them with
# bench/export_c_driver.c (gcc -std=c99 -O2 -march=native) and runs it on
# all 2,874 test documents: each query ranked by cas_rank, fetching its
# features through a callback, REPETITIONS times (then as often by
# cas_rank_work, its scratch allocated once), and every document scored by
# full_predict as often. It prints the time per document of each, the
# features fetched and the cost per document, and checks every document's
# exit stage and exit score against `cronus predict --cascade --exits`
# (equal bits). Timings are single-threaded; `predict`'s own time (two
# threads, once, its scoring with its set-up, not reading the cascade or
# the data) is printed beside them.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
command -v cc >/dev/null || need_pkg "a C compiler (cc)" gcc
reps=${1:-200}
need_count "bench/export-c.sh [REPETITIONS]" REPETITIONS "$reps"
go build -o "$dir/cronus" .
c="$dir/cronus"
d="$dir/export-c"
mkdir -p "$d"
"$c" train --train builtin:mq2008/train --objective regression --trees 500 --leaves 4 --max-depth 2 --out "$d/m.json" >/dev/null
"$c" cascade --model "$d/m.json" --train builtin:mq2008/train --valid builtin:mq2008/vali --costs builtin:mq2008/costs --out "$d/c.json" >/dev/null
"$c" export --cascade "$d/c.json" --to c --prefix cas --out "$d/cas.c"
"$c" export --model "$d/m.json" --to c --prefix full --out "$d/full.c"
"$c" predict --threads 2 --cascade "$d/c.json" --data builtin:mq2008/test --exits "$d/exits.tsv" --out "$d/keys.txt" --json > "$d/predict.json"
"$c" eval --model "$d/m.json" --data builtin:mq2008/test --costs builtin:mq2008/costs --json > "$d/full-eval.json"
cp bench/export_c_driver.c "$d/driver.c"
t0=$(date +%s%N)
cc -std=c99 -O2 -march=native -o "$d/driver" "$d/driver.c"
ms=$((($(date +%s%N) - t0) / 1000000))
printf 'compiled in %d.%d s (cas.c %s bytes, full.c %s bytes)\n' $((ms / 1000)) $((ms % 1000 / 100)) "$(wc -c < "$d/cas.c")" "$(wc -c < "$d/full.c")"
gzip -dc data/builtin/mq2008/test.txt.gz | "$d/driver" "$d/c-exits.txt" "$reps"
$py - "$d/exits.tsv" "$d/c-exits.txt" "$d/predict.json" "$d/full-eval.json" <<'PY'
import json, sys
want = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])][1:]
got = [l.split() for l in open(sys.argv[2])]
assert len(want) == len(got), (len(want), len(got))
same = sum(1 for w, g in zip(want, got) if w[2] == g[0] and float(w[3]) == float.fromhex(g[1]))
print(f"exit stage and exit score equal to predict --cascade --exits: {same} of {len(want)} documents")
p = json.load(open(sys.argv[3]))
print(f"cronus predict --cascade: {1e9 * p['predict_seconds'] / len(want):.0f} ns per document (one run, two threads), cost {p['cost']['total']:.2f} per document")
full = json.load(open(sys.argv[4]))["cost"]["total"]
print(f"the full ensemble's cost: {full:.2f} per document; the cascade's is {p['cost']['total'] / full:.3f} of it")
sys.exit(0 if same == len(want) else 1)
PY
