#!/usr/bin/env bash
# The weighted Gram product of the cascade optimiser (engine/cronus Gram)
# against numpy (Debian's python3-numpy on OpenBLAS) on 2 threads.
#
#   bash bench/gram.sh [ROUNDS]     (default 2)
#
# Both sides: 200,000 documents × 1,000 trees plus the intercept, X = √w·H as
# float64, G = XᵀX; GFLOP/s counts N·(T+1)² flops (a multiply and an add per
# entry of the triangle, as dsyrk does). The Go time also includes converting
# H from float32 and r = XᵀWy; numpy's is X.T @ X alone. Each round runs the
# Go benchmark 3 times and numpy 3 times; the best of all rounds is shown, as
# the machine may be shared.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-2}
. bench/lib.sh
need_count "bench/gram.sh [ROUNDS]" ROUNDS "$rounds"
need_py numpy python3-numpy
# numpy links the generic libblas.so.3; Debian's OpenBLAS takes it over
# through the alternatives system once installed.
if [ ! -e /usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3 ]; then
  need_pkg "OpenBLAS (numpy would time the reference BLAS)" libopenblas0-pthread
fi
# threadpoolctl says which BLAS and which kernels numpy runs (printed with
# the figures, and checked below): without it the ratio is against an
# unknown BLAS.
need_py threadpoolctl python3-threadpoolctl
# OpenBLAS 0.3.21 does not know every CPU (on 2026-11-30 this VM's Xeon,
# family 6 model 207): it then falls back to its generic Prescott kernels,
# several times slower than its AVX ones (10.6 against about 60 GFLOP/s
# here), and the ratio would flatter Cronus (3.24 in place of about 0.7).
# Unless OPENBLAS_CORETYPE is set, the kernels the CPU's flags allow are
# named then.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  arch=$($py -c 'from threadpoolctl import threadpool_info
import numpy
print(*[l.get("architecture") for l in threadpool_info() if l.get("user_api") == "blas"])' 2>/dev/null || true)
  if [ "$arch" = Prescott ]; then
    if grep -qw avx512f /proc/cpuinfo; then
      export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo; then
      export OPENBLAS_CORETYPE=Haswell
    fi
    if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
      echo "OpenBLAS did not recognise this CPU and took its generic Prescott kernels: timing numpy with OPENBLAS_CORETYPE=$OPENBLAS_CORETYPE"
    fi
  fi
fi

go test -c -o "$dir/cronus.test" ./engine/cronus
: > "$dir/gram-go.txt"; : > "$dir/gram-np.txt"
for _ in $(seq "$rounds"); do
  GOMAXPROCS=2 "$dir/cronus.test" -test.run '^$' -test.bench '^BenchmarkGram$/N=200000/T=1000/workers=2$' \
    -test.benchtime 1x -test.count 3 \
    | grep GFLOP/s >> "$dir/gram-go.txt"
  OPENBLAS_NUM_THREADS=2 $py bench/gram.py 200000 1000 3 >> "$dir/gram-np.txt"
done
$py - "$dir/gram-go.txt" "$dir/gram-np.txt" <<'EOF'
import json, sys
go = [float(l.split()[-2]) for l in open(sys.argv[1])]
np = [json.loads(l) for l in open(sys.argv[2])]
print('BLAS used by numpy:', json.dumps(np[0]['blas']))
print('200,000 x 1,000 trees + intercept, G = XtX, 2 threads; GFLOP/s = N*(T+1)^2 / s / 1e9')
print('%-22s %8s   %s' % ('', 'best', 'all runs'))
print('%-22s %8.1f   %s' % ('cronus Gram (Go)', max(go), ' '.join('%.1f' % v for v in go)))
nps = [200000 * 1001 ** 2 / s / 1e9 for d in np for s in d['seconds']]
print('%-22s %8.1f   %s' % ('numpy X.T @ X', max(nps), ' '.join('%.1f' % v for v in nps)))
print('ratio Go/numpy (best)  %.2f' % (max(go) / max(nps)))
EOF
