"""numpy side of bench/gram.sh: the weighted Gram product G = XᵀX, X = √w·[H 1]
as float64, through numpy's matmul (which calls BLAS dsyrk for X.T @ X).

  gram.py DOCS TREES REPS
      prints the BLAS numpy loaded, then one JSON line:
      {"seconds": [...], "gflops": best N·(T+1)²/seconds/1e9, ...}
The thread count is the BLAS's own (OPENBLAS_NUM_THREADS).
"""
import json, os, sys, time
import numpy as np


def blas():
    """The BLAS numpy uses at run time, as threadpoolctl sees it."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return {'libblas.so.3': os.path.realpath('/usr/lib/x86_64-linux-gnu/libblas.so.3')}
    for lib in threadpool_info():
        if lib.get('user_api') == 'blas':
            return {k: lib.get(k) for k in ('internal_api', 'version', 'architecture', 'num_threads', 'filepath')}
    return {}


def main():
    n, T, reps = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = np.random.default_rng(2012)
    X = np.empty((n, T + 1))
    X[:, :T] = rng.standard_normal((n, T), dtype=np.float32)
    X[:, T] = 1
    w = np.where(rng.integers(0, 4, n) == 0, 3.5, 1.0)
    X *= np.sqrt(w)[:, None]
    seconds = []
    for _ in range(reps):
        t = time.perf_counter()
        G = X.T @ X
        seconds.append(time.perf_counter() - t)
    assert G.shape == (T + 1, T + 1)
    print(json.dumps({'blas': blas(), 'seconds': seconds,
                      'gflops': n * (T + 1) ** 2 / min(seconds) / 1e9}))


main()
