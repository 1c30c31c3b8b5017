"""The two kernels keras.utils.FeatureSpace spends its time in, timed under tinytf and TensorFlow in one
sitting: the per-row bincount that encodes categorical features as multi_hot/count vectors (Keras' bincount path,
`tf.math.bincount(..., axis=-1)`), and HashedCrossing's hashed cross of a string and an integer feature
(FingerprintCat64 over the features' hashes). Same inputs on both sides; median of repeated calls, eager.

    python -m benchmarks.featurespace_kernels                    # tinytf, then TensorFlow via /work/tfenv
    python benchmarks/featurespace_kernels.py --library tinytf  # one library only (prints JSON)
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
import time

import numpy as np

TF_PYTHON = "/work/tfenv/bin/python"
ROWS = 4096


def _median_us(fn, repeats: int = 15) -> float:
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times) * 1e6)


def measure(library: str) -> dict:
    tf = importlib.import_module(library)
    rng = np.random.default_rng(0)
    categories = tf.constant(rng.integers(0, 64, size=(ROWS, 8)).astype(np.int64))
    words = tf.constant(np.array([b"city_%d" % i for i in rng.integers(0, 500, ROWS)], dtype=object))
    numbers = tf.constant(rng.integers(0, 10_000, ROWS).astype(np.int64))
    crossing = tf.keras.layers.HashedCrossing(num_bins=1000)
    return {
        "library": library,
        "bincount_multi_hot_us": _median_us(lambda: tf.math.bincount(
            categories, minlength=64, maxlength=64, binary_output=True, axis=-1)),
        "bincount_count_us": _median_us(lambda: tf.math.bincount(
            categories, minlength=64, maxlength=64, dtype=tf.int64, axis=-1)),
        "hashed_crossing_us": _median_us(lambda: crossing((words, numbers))),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--library", choices=("tinytf", "tensorflow"))
    args = parser.parse_args()
    if args.library:
        print(json.dumps(measure(args.library)))
        return
    mine = measure("tinytf")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([TF_PYTHON, os.path.abspath(__file__), "--library", "tensorflow"], env=env,
                         capture_output=True, text=True, check=True).stdout
    theirs = json.loads(out.strip().splitlines()[-1])
    print(f"{ROWS} rows; load {os.getloadavg()[0]:.1f}; OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}")
    for key in ("bincount_multi_hot_us", "bincount_count_us", "hashed_crossing_us"):
        ratio = mine[key] / theirs[key]
        print(f"{key:24s} tinytf {mine[key]:10.1f}  tensorflow {theirs[key]:10.1f}  ratio {ratio:6.2f}")


if __name__ == "__main__":
    sys.exit(main())
