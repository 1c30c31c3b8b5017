"""tf.data throughput, tinytf against TensorFlow in the same sitting, and prefetch overlap.

    python -m benchmarks.data_pipeline            # tinytf here, TensorFlow via /work/tfenv (if present)
    python benchmarks/data_pipeline.py --library tensorflow   # one library only

The pipeline is the issue's: 60,000 examples of 784 uint8 values -> shuffle(10,000) -> map(cast and scale)
-> batch(64) -> prefetch, one full epoch, reported as examples per second (best of a few epochs), iterated
by Python and by a loop inside a tf.function. The overlap case feeds batches that each take ~1 ms to produce
into a loop whose step takes ~1 ms: with prefetch the two overlap (about 1 ms per batch, not 2)."""

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


def cast_and_scale(tf):
    def fn(x, y):
        return tf.cast(x, tf.float32) / 255.0, y
    return fn


def pipeline_throughput(tf, epochs: int = 3, n: int = 60_000) -> dict:
    """One epoch iterated by Python (eager), and one iterated by a loop inside a tf.function (the issue's
    `train_epoch`), each the best of `epochs`."""
    images = (np.arange(n * 784, dtype=np.int64) % 251).astype(np.uint8).reshape(n, 784)
    labels = (np.arange(n) % 10).astype(np.int64)
    ds = (tf.data.Dataset.from_tensor_slices((images, labels))
          .shuffle(10_000, seed=1)
          .map(cast_and_scale(tf), num_parallel_calls=tf.data.AUTOTUNE)
          .batch(64)
          .prefetch(tf.data.AUTOTUNE))
    times = []
    for _ in range(epochs):
        start = time.perf_counter()
        count = 0
        for x, _y in ds:
            count += int(x.shape[0])
        times.append(time.perf_counter() - start)
    assert count == n

    @tf.function
    def graph_epoch(dataset):
        total = tf.constant(0.0)
        for x, _y in dataset:
            total += x[0, 0]
        return total

    graph_epoch(ds.take(1))  # traced on the first call: the timed epochs only run
    graph_times = []
    for _ in range(epochs):
        start = time.perf_counter()
        graph_epoch(ds)
        graph_times.append(time.perf_counter() - start)
    return {"examples_per_s": n / min(times), "epoch_s": min(times),
            "graph_examples_per_s": n / min(graph_times), "graph_epoch_s": min(graph_times)}


def prefetch_overlap(tf, batches: int = 200, delay: float = 0.001) -> dict:
    def slow_batches():
        x = np.zeros((64, 10), np.float32)
        for _ in range(batches):
            time.sleep(delay)  # ~1 ms to produce a batch
            yield x

    spec = tf.TensorSpec((64, 10), tf.float32)

    def epoch(ds):
        start = time.perf_counter()
        for _ in ds:
            time.sleep(delay)  # ~1 ms training step
        return (time.perf_counter() - start) / batches * 1e3

    plain = tf.data.Dataset.from_generator(slow_batches, output_signature=spec)
    return {"ms_per_batch_without_prefetch": epoch(plain), "ms_per_batch_with_prefetch": epoch(plain.prefetch(2))}


def measure(library: str) -> dict:
    if library == "tensorflow":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    tf = importlib.import_module(library)
    return {"library": library, **pipeline_throughput(tf), **prefetch_overlap(tf)}


def blas_threads() -> str:
    try:
        from threadpoolctl import threadpool_info

        return ", ".join(f"{i['internal_api']}:{i['num_threads']}" for i in threadpool_info())
    except ImportError:
        return os.environ.get("OPENBLAS_NUM_THREADS", "default")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", choices=["tinytf", "tensorflow"])
    args = parser.parse_args(argv)
    if args.library:
        print(json.dumps(measure(args.library)))
        return
    load = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else "?"
    print(f"load average {load}, cpus {os.cpu_count()}, BLAS threads {blas_threads()}")
    rows = [measure("tinytf")]
    if os.path.exists(TF_PYTHON):
        out = subprocess.run([TF_PYTHON, os.path.abspath(__file__), "--library", "tensorflow"],
                             capture_output=True, text=True, cwd="/tmp")
        lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
        if lines:
            rows.append(json.loads(lines[-1]))
        else:
            print("TensorFlow run failed:", out.stderr[-500:])
    print(f"{'library':<12}{'examples/s':>14}{'in tf.function':>16}{'ms/batch no prefetch':>24}"
          f"{'ms/batch prefetch':>20}")
    for r in rows:
        print(f"{r['library']:<12}{r['examples_per_s']:>14,.0f}{r['graph_examples_per_s']:>16,.0f}"
              f"{r['ms_per_batch_without_prefetch']:>24.2f}{r['ms_per_batch_with_prefetch']:>20.2f}")
    if len(rows) == 2:
        print(f"tinytf / TensorFlow throughput: {rows[0]['examples_per_s'] / rows[1]['examples_per_s']:.2f}x "
              f"(Python loop), {rows[0]['graph_examples_per_s'] / rows[1]['graph_examples_per_s']:.2f}x "
              "(loop inside tf.function)")


if __name__ == "__main__":
    main(sys.argv[1:])
