#!/usr/bin/env bash
# Peak memory of the cascade optimiser, which grows with the square of the
# trees (two Gram products HᵀΩH of (T+1)² float64), against the estimate
# the commands check before allocating (cronus.ProblemBytes; README,
# cascade, "Memory grows with the square of the trees").
#
#   bash bench/cascade-mem.sh [TREES ...]     (default 2500 5000)
#
# The data: `cronus gen --queries 40 --docs-per-query 100` (3,879
# documents), a regression model of 2 leaves and as many trees as the
# largest TREES; each cascade takes the model's first T trees
# (--trees T), one initialisation (--rhos 0.02) and no cycles, and
# /usr/bin/time -v gives its peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
need_time
trees=("$@")
[ ${#trees[@]} -gt 0 ] || trees=(2500 5000)
most=0
for t in "${trees[@]}"; do
  need_count "bench/cascade-mem.sh [TREES ...]" TREES "$t" 1
  t=$((10#$t))
  [ "$t" -gt "$most" ] && most=$t
done
go build -o "$dir/cronus" .
c=$dir/cronus
costs=data/builtin/mslr-web10k.feature_cost.txt
g=$dir/mem-gen.txt
m=$dir/mem-model-$most.json
[ -s "$g" ] || "$c" gen --queries 40 --docs-per-query 100 --out "$g"
[ -s "$m" ] || "$c" train --train "$g" --leaves 2 --trees "$most" --objective regression --out "$m"
n=$(wc -l < "$g")
printf '%8s %10s %14s %12s\n' trees documents "estimate MiB" "peak RSS MiB"
for t in "${trees[@]}"; do
  t=$((10#$t))
  log=$dir/mem-$t.time
  /usr/bin/time -v "$c" cascade --model "$m" --train "$g" --valid "$g" --costs "$costs" \
    --trees "$t" --rhos 0.02 --cycles 0 --out "$dir/mem-cascade-$t.json" > /dev/null 2> "$log"
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
  # ProblemBytes: 5/4·(16·(T+1)² + 4·n·T + 8·⌈m/512⌉·(min(n,512)+8)·(T+2)), m = min(n, 2048).
  est=$(awk -v T="$t" -v n="$n" 'BEGIN {
    m = n < 2048 ? n : 2048; s = n < 512 ? n : 512
    b = 1.25 * (16*(T+1)*(T+1) + 4*n*T + 8*int((m+511)/512)*(s+8)*(T+2))
    printf "%.0f", b / 1048576 }')
  printf '%8d %10d %14s %12.0f\n' "$t" "$n" "$est" "$(awk -v k="$rss" 'BEGIN {print k/1024}')"
done
