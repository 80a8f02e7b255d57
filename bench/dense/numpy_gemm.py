#!/usr/bin/env python3
# numpy's matmul on the dense suite's GEMM shapes, the way a PyTorch-or-numpy user would run it:
# `x @ w` into a preallocated output (np.matmul(..., out=y)), its BLAS threads set by the caller
# (OPENBLAS_NUM_THREADS / OMP_NUM_THREADS in the environment). Reads a JSON list of
# {m, k, n, precision, reps} on stdin and prints one JSON object: numpy's version and, per shape,
# the median seconds of `reps` calls after two warm-up calls.
import json
import sys
import time

import numpy as np


def main():
    shapes = json.load(sys.stdin)
    rng = np.random.default_rng(1)
    out = []
    for s in shapes:
        dtype = np.float32 if s["precision"] == "f32" else np.float64
        x = (rng.random((s["m"], s["k"])) - 0.5).astype(dtype)
        w = (rng.random((s["k"], s["n"])) - 0.5).astype(dtype)
        y = np.empty((s["m"], s["n"]), dtype=dtype)
        for _ in range(2):
            np.matmul(x, w, out=y)
        times = []
        for _ in range(s["reps"]):
            t0 = time.perf_counter()
            np.matmul(x, w, out=y)
            times.append(time.perf_counter() - t0)
        times.sort()
        out.append(times[len(times) // 2])
    json.dump({"version": np.__version__, "seconds": out}, sys.stdout)


main()
