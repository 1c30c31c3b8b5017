"""The call overhead of `Session.run` against a tf.function call (issue 13's bar: within 1.5x), on `x + 1.0` of
a 4-element float32 array fed each call, and the seed's `placeholder (4, 1024) -> matmul(x, x^T)` against
numpy's `x @ x.T`. One process, interleaved rounds, best of the rounds; numpy's BLAS, its threads and the load
are printed with the figures.

    python -m benchmarks.session_overhead            # microseconds per call
    python -m benchmarks.session_overhead sess 4000  # only N calls of one side, for callgrind:
    valgrind --tool=callgrind python -m benchmarks.session_overhead sess 4000   (then the same with 'function',
    'sess0' / 'function0' for the setup alone; the difference over N is the instructions per call)"""

from __future__ import annotations

import sys
import timeit

import numpy as np

import tinytf as tf

from .environment import blas_threads, numpy_blas


def _sides():
    array = np.arange(4, dtype=np.float32)
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        x = tf.compat.v1.placeholder(tf.float32, shape=(4,))
        y = x + 1.0
        big = tf.compat.v1.placeholder(tf.float32, shape=(None, 1024))
        product = tf.matmul(big, big, transpose_b=True)
    sess = tf.compat.v1.Session(graph=graph)

    @tf.function
    def plus_one(t):
        return t + 1.0

    @tf.function
    def gram(t):
        return tf.matmul(t, t, transpose_b=True)

    tensor = tf.constant(array)
    matrix = np.random.default_rng(0).random((4, 1024)).astype(np.float32)
    matrix_tensor = tf.constant(matrix)
    feeds, big_feeds = {x: array}, {big: matrix}
    return {
        "sess": lambda: sess.run(y, feed_dict=feeds),
        "function": lambda: plus_one(tensor),
        "sess_matmul": lambda: sess.run(product, feed_dict=big_feeds),
        "function_matmul": lambda: gram(matrix_tensor),
        "numpy_matmul": lambda: matrix @ matrix.T,
    }


def _count_only(side: str, calls: int) -> None:
    """Run one side `calls` times after a warm-up call (side names ending in 0: the warm-up alone)."""
    sides = _sides()
    call = sides[side.rstrip("0")]
    call()
    for _ in range(0 if side.endswith("0") else calls):
        call()


def main(argv) -> None:
    if argv:
        _count_only(argv[0], int(argv[1]) if len(argv) > 1 else 4000)
        return
    import os

    sides = _sides()
    best = {name: float("inf") for name in sides}
    for _ in range(7):
        for name, call in sides.items():
            call()
            best[name] = min(best[name], min(timeit.repeat(call, number=2000, repeat=3)) / 2000 * 1e6)
    print(f"load {os.getloadavg()[0]:.1f}; numpy BLAS {numpy_blas()}, threads {blas_threads()}")
    for name, us in best.items():
        print(f"{name:16s} {us:8.2f} us")
    print(f"sess / function: {best['sess'] / best['function']:.2f}x; "
          f"sess_matmul / numpy: {best['sess_matmul'] / best['numpy_matmul']:.2f}x")


if __name__ == "__main__":
    main(sys.argv[1:])
