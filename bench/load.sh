#!/usr/bin/env bash
# Reading speed and memory: Cronus's SVMlight reader against XGBoost's own
# text loader (xgboost.DMatrix("FILE?format=libsvm"), Debian's python3-xgboost),
# on the same `cronus gen` file, both with 2 threads. Prints wall time, peak
# resident memory, and the ratios.
#
#   bash bench/load.sh [DOCS]        # default 1000000 documents × 136 features
#
# Needs: Go, /usr/bin/time, and `apt-get install python3-xgboost` (the script
# installs it when it is missing and it runs as root).
set -euo pipefail
cd "$(dirname "$0")/.."
docs=${1:-1000000}
. bench/lib.sh
need_count "bench/load.sh [DOCS]" DOCS "$docs" 125
need_py xgboost python3-xgboost
need_time

go build -o "$dir/cronus" .
file="$dir/synth-$docs.txt"
if [ ! -f "$file" ]; then
  "$dir/cronus" gen --queries $((docs / 125)) --docs-per-query 125 --features 136 --seed 1 --out "$file"
fi
bytes=$(stat -c %s "$file")
cat "$file" > /dev/null # both readers start from the page cache

measure() { # prints "seconds maxrss_kib" of the command
  /usr/bin/time -f '%e %M' -o "$dir/time.txt" "$@" > "$dir/out.txt"
  cat "$dir/time.txt"
}
read -r c_s c_kb < <(measure "$dir/cronus" inspect --json "$file")
ndocs=$(grep -m1 '"docs"' "$dir/out.txt" | tr -dc 0-9)
nfeat=$(grep -m1 '"features"' "$dir/out.txt" | tr -dc 0-9)
read -r x_s x_kb < <(measure $py -c '
import sys, time, xgboost
t = time.time()
m = xgboost.DMatrix(sys.argv[1] + "?format=libsvm", nthread=2)
print(m.num_row(), m.num_col(), time.time() - t)' "$file")
x_load=$(awk '{print $3}' "$dir/out.txt")
x_rows=$(awk '{print $1}' "$dir/out.txt")

dense=$((ndocs * nfeat * 4))
awk -v b="$bytes" -v n="$ndocs" -v d="$nfeat" -v xr="$x_rows" -v cs="$c_s" -v ck="$c_kb" \
    -v xs="$x_s" -v xl="$x_load" -v xk="$x_kb" -v dense="$dense" 'BEGIN {
  printf "file: %d documents × %d features, %.0f MB of text (XGBoost read %d rows)\n", n, d, b/1e6, xr
  printf "%-28s %10s %14s\n", "", "seconds", "peak RSS MiB"
  printf "%-28s %10.2f %14.0f\n", "cronus inspect (whole run)", cs, ck/1024
  printf "%-28s %10.2f %14.0f\n", "xgboost DMatrix (load only)", xl, xk/1024
  printf "%-28s %10.2f\n", "xgboost process (whole run)", xs
  printf "time ratio cronus/xgboost-load: %.2f  (goal <= 1.0)\n", cs/xl
  printf "peak memory / dense float32 size (%.0f MiB): %.2f  (goal <= 1.5)\n", dense/1048576, ck*1024/dense
}'
