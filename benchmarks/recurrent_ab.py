"""Interleaved A/B of the recurrent workloads (issue 15): tinytf's graph with all passes, with named passes off,
hand-written numpy, and (with --compare tensorflow) the TF2 twin under TensorFlow's tf.function, all in one
process, in turn within each round, CPU time and wall time per call, medians (and minima) over rounds.

    cd /tmp && PYTHONPATH=/work/wt/lstm python -m benchmarks.recurrent_ab lstm_step --compare tensorflow \
        --off recurrent_projection --rounds 15

One run of `tinytf bench` takes each side's minimum over 7 rounds of about 20 ms, which for the LSTM step is
one call per round: one sitting measured TensorFlow's twin at 19.5 ms and a later one at 13.3 ms. Here every
round times CALLS calls of each side back to back, and the figure is the median of ROUNDS rounds, so a burst of
load hits all sides alike and one lucky round does not decide. CPU time (time.process_time: every thread of the
process, TensorFlow's pool and BLAS's included) is the figure that holds on a loaded machine. Minor page
faults per call are reported too: they depend on what glibc's heap did before (its trim threshold grows after
large frees), and 1400 of them per LSTM step cost several milliseconds."""

from __future__ import annotations

import argparse
import importlib
import resource
import statistics
import time

import tinytf as tf

from .environment import describe
from .workloads import ALL


def _graph(fn, args, off: tuple = ()):
    """A fresh tf.function traced now with the passes `off` switched off (options apply at trace time)."""
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({name: False for name in off})
    try:
        compiled = tf.function(fn)
        compiled(*args)
    finally:
        tf.config.optimizer.set_experimental_options({name: saved.get(name, True) for name in off})
    return compiled


def _with_knob(knob: str, fn):
    """fn run with a runtime constant changed for the call: `ops.loop_projection.PREFETCH_MIN_WORK=1e18` (a module
    of tinytf.runtime, its attribute, the value: a number) for kernel choices that are no pass of their own."""
    target, value = knob.split("=")
    module_name, attribute = target.rsplit(".", 1)
    module = importlib.import_module(f"tinytf.runtime.{module_name}")
    value = type(getattr(module, attribute))(float(value))

    def run():
        saved = getattr(module, attribute)
        setattr(module, attribute, value)
        try:
            return fn()
        finally:
            setattr(module, attribute, saved)
    return run


def sides(name: str, off: list, other=None, knobs=()) -> dict:
    """{label: callable}: the graph with all passes, one graph per pass in `off` without it, the graph with
    each of `knobs` set, numpy, TF."""
    workload = ALL[name]()
    graph = _graph(workload.fn, workload.args)
    result = {"graph": lambda: graph(*workload.args)}
    for knob in knobs:
        result[knob.rsplit(".", 1)[-1]] = _with_knob(knob, result["graph"])
    for pass_name in off:
        variant = _graph(workload.fn, workload.args, tuple(pass_name.split("+")))
        result[f"no {pass_name}"] = lambda variant=variant: variant(*workload.args)
    if workload.numpy_fn is not None:
        result["numpy"] = lambda: workload.numpy_fn(*workload.numpy_args)
    if other is not None:
        twin = ALL[name](tf=other)
        twin_graph = other.function(twin.fn)
        twin_graph(*twin.args)
        result["tf_graph"] = lambda: twin_graph(*twin.args)
    return result


def interleaved(variants: dict, rounds: int, calls: int) -> dict:
    """{label: [(cpu ms, wall ms, minor page faults, caller's cpu ms) per call, one tuple per round]}: each round
    runs every side in turn, one untimed call then `calls` timed ones. The caller's CPU time (time.thread_time:
    the calling thread's alone) is the critical path's length when the other threads' work (flushes, blocks
    computed ahead, BLAS's or TensorFlow's workers) finds a free core: on a loaded machine, where wall time
    measures the scheduler, it shows what moving work off the caller's thread gains."""
    times = {label: [] for label in variants}
    order = list(variants.items())
    for round_ in range(rounds):
        # each round starts with the next side: what ran just before a side (TensorFlow freeing its memory, so
        # that glibc trims the heap the next side grows again: ~900 page faults per LSTM step) is not always
        # the same side's handicap
        for label, fn in order[round_ % len(order):] + order[:round_ % len(order)]:
            fn()
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            cpu, wall, own = time.process_time(), time.perf_counter(), time.thread_time()
            for _ in range(calls):
                fn()
            times[label].append(((time.process_time() - cpu) / calls * 1e3, (time.perf_counter() - wall) / calls * 1e3,
                                 (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults) / calls,
                                 (time.thread_time() - own) / calls * 1e3))
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.recurrent_ab", description=__doc__.splitlines()[0])
    parser.add_argument("workloads", nargs="+", help=", ".join(ALL))
    parser.add_argument("--off", action="append", default=[],
                        help="also time the graph with this pass off (repeatable; a+b for several at once)")
    parser.add_argument("--knob", action="append", default=[],
                        help="also time the graph with a runtime constant set, e.g. "
                             "ops.loop_projection.PREFETCH_MIN_WORK=1e18 (repeatable)")
    parser.add_argument("--compare", choices=["tensorflow"])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--calls", type=int, default=3)
    args = parser.parse_args(argv)
    other = importlib.import_module(args.compare) if args.compare else None
    print("\n".join(describe(other)))
    for name in args.workloads:
        variants = sides(name, args.off, other, args.knob)
        times = interleaved(variants, args.rounds, args.calls)
        base = statistics.median(row[0] for row in times["graph"])
        print(f"\n{name}: {args.rounds} rounds x {args.calls} calls, ms per call")
        print(f"{'side':28}{'CPU median':>12}{'CPU min':>10}{'wall median':>13}{'wall min':>10}{'faults':>8}"
              f"{'graph/side CPU':>16}{'caller CPU med':>16}{'min':>8}")
        for label, rows in times.items():
            cpu, wall, faults, own = (statistics.median(row[k] for row in rows) for k in range(4))
            print(f"{label:28}{cpu:12.2f}{min(row[0] for row in rows):10.2f}{wall:13.2f}"
                  f"{min(row[1] for row in rows):10.2f}{faults:8.0f}{base / cpu:15.2f}x{own:16.2f}"
                  f"{min(row[3] for row in rows):8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
