"""Threads or processes for MirroredStrategy's replicas, measured: one process (no strategy) against
MirroredStrategy with 2 replicas as threads and as processes (TINYTF_MIRRORED_REPLICAS=threads|processes), on the
custom GradientTape step through strategy.run (--mode run) or on Keras fit (--mode fit), for the MLP or the CNN of
benchmarks/distributed.py. Rows are interleaved over the repeats, so that each sees the same load. Reports
examples/s (best of the repeats) and CPU time per step summed over this process and the replica processes
(steadier under load than examples/s; the replica processes' from /proc).
Run: python -m benchmarks.replica_processes [--model mlp|cnn] [--mode run|fit] [--steps N] [--repeats N]"""

from __future__ import annotations

import argparse
import os
import time

import tinytf as tf

from .distributed import GLOBAL_BATCH, examples_per_second, fit_examples_per_second


def _children_cpu_seconds(pids) -> float:
    """utime + stime of the given processes (0 for one that is gone)."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total / os.sysconf("SC_CLK_TCK")


def measure(backend: str | None, kind: str, mode: str, steps: int):
    """(examples/s, CPU seconds per step of every process involved) for one configuration."""
    if backend is None:
        strategy = tf.distribute.get_strategy()
    else:
        os.environ["TINYTF_MIRRORED_REPLICAS"] = backend
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    run = examples_per_second if mode == "run" else fit_examples_per_second
    pids: list = []

    def clock():  # this process's CPU time, and the replica processes' (forked during the warm-up steps)
        if not pids:
            pids.extend(getattr(strategy, "replica_pids", []))
        return time.process_time() + _children_cpu_seconds(pids)

    rate, cpu = run(strategy, kind, steps, clock)
    if backend is not None:
        strategy.shutdown()
    return rate, cpu


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("mlp", "cnn"), default="mlp")
    parser.add_argument("--mode", choices=("run", "fit"), default="run")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()}, cpus {os.cpu_count()}, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}")
    print(f"{args.model}, global batch {GLOBAL_BATCH[args.model]}, mode {args.mode}, {args.steps} timed steps, "
          f"best of {args.repeats}")
    rows = {"one process": None, "2 threads (MirroredStrategy)": "threads",
            "2 processes (MirroredStrategy)": "processes"}
    results: dict = {name: [] for name in rows}
    for _ in range(args.repeats):  # interleaved, so that each row sees the same load
        for name, backend in rows.items():
            results[name].append(measure(backend, args.model, args.mode, args.steps))
    for name, runs in results.items():
        print(f"{name:32s} CPU {min(c for _, c in runs) * 1e3:7.2f} ms/step (best), "
              f"{max(r for r, _ in runs):8.0f} ex/s (best)")


if __name__ == "__main__":
    main()
