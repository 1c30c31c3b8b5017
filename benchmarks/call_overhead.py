"""call_overhead: what one call of a traced tf.function costs for each kind of argument TF2 code passes
(tensors, numpy arrays, Python scalars, keywords, nested tuples/lists/dicts, and mixes). Each body is one
or two small ops. Per kind: the call, the trace's compiled entry alone on the same values (the body and
its result wrapping) and their difference, the call machinery (binding, finding the trace).

    python -m tinytf.bench.call_overhead              # microseconds per call, interleaved rounds
    python -m tinytf.bench.call_overhead --callgrind  # instructions per call, counted by valgrind's callgrind

Timings are the best of interleaved rounds (benchmarks/timing.py); instruction counts do not depend on the
machine's load. For callgrind the benchmark runs itself under valgrind: a call of `sys.getswitchinterval`
(which nothing else calls) dumps and zeroes the counters before each variant's loop and after the last, so
each numbered dump after the start-up holds exactly one variant's calls."""

from __future__ import annotations

import glob
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

import tinytf as tf

from .environment import describe
from .timing import time_variants

CALLGRIND_CALLS = 1000


def argument_kinds() -> dict:
    """{kind: (traced function, args, kwargs)}: each function is traced before it is measured."""
    x, y = tf.constant(1.5), tf.constant([1.0, 2.0])
    xn, yn = np.float32(1.5) + np.zeros((64, 1), np.float32), np.zeros((64, 1), np.float32)

    @tf.function
    def one(a):
        return a + 1.0

    @tf.function
    def two(a, b):
        return a + b

    @tf.function
    def scaled(a, scale):
        return a * scale

    @tf.function
    def keyword(a, b=None):
        return a + b

    @tf.function
    def pair(data):
        a, b = data
        return a - b

    @tf.function
    def named(data):
        return data["a"] - data["b"]

    @tf.function
    def mixed(data, scale, offset=None):
        (a, b), (c,) = data
        return a * scale + b + c + offset

    @tf.function(reduce_retracing=True)
    def step(data):  # what Keras' fit gives its train step: an (x, y) tuple of numpy batches
        a, b = data
        return {"loss": tf.reduce_mean(a - b), "count": tf.reduce_sum(b)}

    @tf.function
    def other(a):
        return a + 1.0

    other(y)
    other(x)  # the latest trace: calls with `y` fall back from the specialized __call__ to the keyed path

    return {
        "tensor (tiny_call)": (one, (x,), {}),
        "two tensors": (two, (x, y), {}),
        "tensor, not the latest trace": (other, (y,), {}),
        "numpy array": (one, (xn,), {}),
        "tensor + python float": (scaled, (x, 2.0), {}),
        "keyword tensor": (keyword, (x,), {"b": y}),
        "tuple of tensors": (pair, ((x, y),), {}),
        "tuple of numpy arrays": (pair, ((xn, yn),), {}),
        "dict of tensors": (named, ({"a": x, "b": y},), {}),
        "mix (nested, numpy, scalar, kwarg)": (mixed, (((x, yn), [y]), 3.0), {"offset": xn}),
        "keras-like step: (x, y) numpy, reduce_retracing": (step, ((xn, yn),), {}),
    }


BODY = " [body]"
_MODULE = __spec__.name if __spec__ is not None else "benchmarks.call_overhead"  # tinytf.bench.call_overhead


def callables() -> dict:
    """{kind: call} and, where the trace's compiled entry can be reached, {kind + BODY: that entry alone on
    the call's values}: the body and its result wrapping, without the call machinery."""
    out = {}
    for kind, (function, args, kwargs) in argument_kinds().items():
        function(*args, **kwargs)  # trace
        function(*args, **kwargs)  # a second call: the first may have specialized the function
        out[kind] = (lambda f=function, a=args, k=kwargs: f(*a, **k))
        pattern = getattr(function, "_pattern", None)
        found = pattern(args, kwargs) if pattern is not None else None
        concrete = function._fast_cache.get(found[0]) if found is not None else None
        if concrete is not None:
            out[kind + BODY] = (lambda run=concrete._run, v=found[1]: run(*v))
    return out


def timings() -> dict:
    return {name: seconds * 1e6 for name, seconds in time_variants(callables(), rounds=7, budget_s=0.05).items()}


def _marked_loops(calls: int) -> None:
    """Run inside valgrind: each variant's loop between two marks (callgrind dumps at each); its name is
    printed first, so that the parent knows the order."""
    for name, fn in callables().items():
        print(name, flush=True)
        sys.getswitchinterval()
        for _ in range(calls):
            fn()
    sys.getswitchinterval()


def instruction_counts(calls: int = CALLGRIND_CALLS) -> dict:
    """{variant: instructions per call} from one valgrind run (slow: several minutes)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                              "--dump-before=sys_getswitchinterval", sys.executable, "-m", _MODULE, "--loops",
                              str(calls)], check=True, capture_output=True, text=True)
        names = run.stdout.splitlines()
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = []
        for path in dumps:
            with open(path) as f:
                match = re.search(r"^(?:totals|summary): (\d+)", f.read(), re.M)
            totals.append(int(match.group(1)) if match else 0)
    # numbered dumps: the start-up (before the first mark), then one per variant; the exit goes to `out`
    return {name: count / calls for name, count in zip(names, totals[-len(names):])}


def _table(figures: dict, unit: str) -> None:
    """One line per kind: the call, the body alone and their difference (the call machinery)."""
    width = max(len(k) for k in figures)
    print(f"  {'argument kind':<{width}}  {'call':>9}  {'body':>9}  {'machinery':>9}   ({unit})")
    for name, value in figures.items():
        if name.endswith(BODY):
            continue
        body = figures.get(name + BODY)
        extra = f"  {body:>9.2f}  {value - body:>9.2f}" if body is not None else ""
        print(f"  {name:<{width}}  {value:>9.2f}{extra}")


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--loops"]:
        _marked_loops(int(argv[1]))
        return 0
    for line in describe():
        print(line)
    if argv[:1] == ["--callgrind"]:
        print(f"instructions per call (callgrind, {CALLGRIND_CALLS} calls per variant)")
        _table(instruction_counts(), "instructions")
        return 0
    print("microseconds per call (best of 7 interleaved rounds)")
    _table(timings(), "us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
