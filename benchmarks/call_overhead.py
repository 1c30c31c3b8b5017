"""call_overhead: what one call of a traced tf.function costs for each kind of argument TF2 code passes
(tensors, numpy arrays, Python scalars, keywords, nested tuples/lists/dicts, and mixes). The body is one
small op, so the figure is the call machinery: binding the arguments, finding the trace, running its code.

    python -m tinytf.bench.call_overhead              # microseconds per call, interleaved rounds
    python -m tinytf.bench.call_overhead --callgrind  # instructions per call, counted by valgrind's callgrind

Timings are the best of interleaved rounds (benchmarks/timing.py); instruction counts do not depend on the
machine's load. For callgrind the benchmark runs itself under valgrind: a call of `sys.getswitchinterval`
(which nothing else calls) dumps and zeroes the counters before each kind's loop and after the last, so each
dump between the first and the last holds exactly one kind's calls."""

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


def callables() -> dict:
    out = {}
    for kind, (function, args, kwargs) in argument_kinds().items():
        function(*args, **kwargs)  # trace
        function(*args, **kwargs)  # a second call: the first may have specialized the function
        out[kind] = (lambda f=function, a=args, k=kwargs: f(*a, **k))
    return out


def timings() -> dict:
    return {kind: seconds * 1e6 for kind, seconds in time_variants(callables(), rounds=7, budget_s=0.05).items()}


def _marked_loops(calls: int) -> None:
    """Run inside valgrind: each kind's loop between two marks (callgrind dumps at each)."""
    for fn in callables().values():
        sys.getswitchinterval()
        for _ in range(calls):
            fn()
    sys.getswitchinterval()


def instruction_counts(calls: int = CALLGRIND_CALLS) -> dict:
    """{kind: instructions per call} from one valgrind run (slow: a minute or more)."""
    kinds = list(argument_kinds())
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        "--dump-before=sys_getswitchinterval", sys.executable, "-m", "benchmarks.call_overhead",
                        "--loops", str(calls)], check=True, capture_output=True,
                       cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        dumps = sorted(glob.glob(out + ".*"), key=lambda p: int(p.rsplit(".", 1)[1]))
        totals = []
        for path in dumps:
            with open(path) as f:
                match = re.search(r"^(?:totals|summary): (\d+)", f.read(), re.M)
            totals.append(int(match.group(1)) if match else 0)
    # numbered dumps: the start-up (before the first mark), then one per kind; the exit goes to `out` itself
    per_kind = totals[-len(kinds):]
    return {kind: count / calls for kind, count in zip(kinds, per_kind)}


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--loops"]:
        _marked_loops(int(argv[1]))
        return 0
    for line in describe():
        print(line)
    width = max(len(k) for k in argument_kinds())
    if argv[:1] == ["--callgrind"]:
        print(f"instructions per call (callgrind, {CALLGRIND_CALLS} calls per kind)")
        for kind, count in instruction_counts().items():
            print(f"  {kind:<{width}}  {count:>9.0f}")
        return 0
    print("microseconds per call (best of 7 interleaved rounds)")
    for kind, micros in timings().items():
        print(f"  {kind:<{width}}  {micros:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
