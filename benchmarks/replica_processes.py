"""Threads or processes for MirroredStrategy's replicas, measured: the custom training step of
benchmarks/distributed.py (GradientTape, SGD, the MLP or the CNN) with 2 replicas as the threads of
MirroredStrategy, and as 2 forked processes that each hold a model copy and sum their gradients through shared
memory (a prototype of a process backend: slots in one shared float32 buffer, a barrier, every process sums the
slots in replica order and applies the same update). Reports CPU time per step, summed over the threads or the
processes (steady under load), and examples/s (not, on a loaded machine).
Run: python -m benchmarks.replica_processes [--model mlp|cnn] [--steps N]"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import time

import numpy as np

import tinytf as tf

from .distributed import GLOBAL_BATCH, arrays, examples_per_second, make_model


def _process_replica(index, count, kind, steps, shared, barrier, results):
    """One replica process: its half of every global batch, the gradients through the shared slots."""
    model = make_model(kind)
    optimizer = tf.keras.optimizers.SGD(0.01)
    optimizer.build(model.trainable_variables)
    variables = model.trainable_variables
    sizes = [int(np.prod(v.shape.as_list())) for v in variables]
    total = sum(sizes)
    slots = np.frombuffer(shared, dtype=np.float32).reshape(count, total)
    batch = GLOBAL_BATCH[kind]

    @tf.function
    def gradients(x, y):
        with tf.GradientTape() as tape:
            per_example = tf.keras.losses.sparse_categorical_crossentropy(y, model(x, training=True),
                                                                          from_logits=True)
            loss = tf.reduce_sum(per_example) / batch  # the mean over the GLOBAL batch: the sum is its gradient
        return tape.gradient(loss, variables)

    @tf.function
    def apply(*summed):
        optimizer.apply(list(summed), variables)

    x, y = arrays(kind, steps + 2)
    share = batch // count

    def step(i):
        lo = i * batch + index * share
        grads = gradients(x[lo:lo + share], y[lo:lo + share])
        np.concatenate([np.ravel(g.numpy()) for g in grads], out=slots[index])
        barrier.wait()
        flat = slots.sum(axis=0, dtype=np.float32)
        barrier.wait()  # every process has read the slots before any writes the next step's
        offsets = np.cumsum([0] + sizes)
        apply(*[flat[offsets[k]:offsets[k + 1]].reshape(v.shape.as_list()) for k, v in enumerate(variables)])

    for i in range(2):  # warm up: traces
        step(i)
    barrier.wait()
    start, cpu = time.perf_counter(), time.process_time()
    for i in range(2, steps + 2):
        step(i)
    results.put((index, time.perf_counter() - start, time.process_time() - cpu,
                 float(np.sum(variables[0].numpy()))))


def process_replicas(kind: str, steps: int, count: int = 2):
    """(examples/s, CPU seconds per step over all processes, a checksum of the first weight)."""
    context = multiprocessing.get_context("fork")
    model = make_model(kind)
    total = sum(int(np.prod(v.shape.as_list())) for v in model.trainable_variables)
    shared = context.RawArray("f", count * total)
    barrier, results = context.Barrier(count), context.Queue()
    workers = [context.Process(target=_process_replica, args=(i, count, kind, steps, shared, barrier, results))
               for i in range(count)]
    for worker in workers:
        worker.start()
    got = sorted(results.get(timeout=600) for _ in workers)
    for worker in workers:
        worker.join()
    wall = max(g[1] for g in got)
    return GLOBAL_BATCH[kind] * steps / wall, sum(g[2] for g in got) / steps, got[0][3]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("mlp", "cnn"), default="mlp")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()}, cpus {os.cpu_count()}, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
    print(f"{args.model}, global batch {GLOBAL_BATCH[args.model]}, {args.steps} timed steps, best of {args.repeats}")
    rows: dict = {"one process": [], "2 threads (MirroredStrategy)": [], "2 processes (shared memory)": []}
    for _ in range(args.repeats):  # interleaved, so that each row sees the same load
        rows["one process"].append(examples_per_second(tf.distribute.get_strategy(), args.model, args.steps))
        rows["2 threads (MirroredStrategy)"].append(examples_per_second(
            tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]), args.model, args.steps))
        rows["2 processes (shared memory)"].append(process_replicas(args.model, args.steps)[:2])
    for name, runs in rows.items():
        print(f"{name:30s} CPU {min(c for _, c in runs) * 1e3:7.2f} ms/step (best), "
              f"{max(r for r, _ in runs):8.0f} ex/s (best)")


if __name__ == "__main__":
    main()
