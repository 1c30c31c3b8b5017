"""Small TF2 programs that run unchanged under TensorFlow and tinytf: the conformance suite.

Each program is a function taking the library module (`tensorflow` or `tinytf`) as its only argument and
returning a JSON-able result: tensors as [dtype, shape, values], texts, and errors as
{"error": class name, "phrase": key phrase, "found": whether the message contains it}. The recorder
(tools/record_tf_reference.py) runs them under TensorFlow; tests/test_tf_conformance.py runs them under
tinytf and compares. Programs live in this package's modules, one topic each; TensorFlow's results for
module `m` are in tests/tf_reference/m.json. This package imports neither library.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import tempfile

import numpy as np

PROGRAMS: dict = {}  # program name -> function
MODULE_OF: dict = {}  # program name -> the module (topic) that defines it, which names its reference file

# Programs whose tinytf result differs from TensorFlow for a reason too large to fix locally (name -> why).
# The conformance test expects these to differ (strict xfail), so fixing one shows up as a test to update.
KNOWN_DIFFERENCES: dict = {}


def program(fn):
    """Register a program under its function name (without the `p_` prefix)."""
    name = fn.__name__.removeprefix("p_")
    if name in PROGRAMS:
        raise ValueError(f"conformance program {name!r} is defined twice")
    PROGRAMS[name] = fn
    MODULE_OF[name] = fn.__module__.rsplit(".", 1)[-1]
    return fn


def run(tf, name):
    """Program `name`'s result under `tf`, from a fresh Keras state: Keras names layers, metrics and
    optimizers from process-wide counters (`auc`, `auc_1`, ...), so without it a name would depend on which
    programs ran before in the same process (the recorder runs one module, the test all of them, pytest -k a
    few)."""
    tf.keras.backend.clear_session()
    return PROGRAMS[name](tf)


def load_all() -> dict:
    """Import every module of this package (each registers its programs) and return PROGRAMS."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return PROGRAMS


# --- helpers shared by the programs -------------------------------------------------------------------------
def is_tensor(x) -> bool:
    return hasattr(x, "numpy") and hasattr(x, "dtype") and hasattr(x, "shape")


def val(x):
    """A tensor (or variable) as [dtype name, shape, values]; nests and Python values pass through."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, dict):
        return {str(k): val(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [val(v) for v in x]
    if is_tensor(x):
        return [x.dtype.name, x.shape.as_list(), x.numpy().tolist()]
    if isinstance(x, (np.ndarray, np.generic)):
        return ["numpy:" + str(x.dtype), list(np.shape(x)), x.tolist()]
    return str(x)


def outcome(fn, phrase):
    """The value of fn(), or the class of the exception it raises and whether its message holds `phrase`.
    "bases" lists the class names of the exception's type (so a tinytf error that a TF program's `except`
    clause would catch counts as the same); "message" is for people reading the reference."""
    try:
        result = fn()
    except Exception as e:  # noqa: BLE001 - recording which exception is the point
        return {"error": type(e).__name__, "phrase": phrase, "found": phrase.lower() in str(e).lower(),
                "bases": [k.__name__ for k in type(e).__mro__], "message": str(e)[:300]}
    return {"value": val(result)}


def data(shape, seed=0, scale=1.0, dtype="float32"):
    """Deterministic, numpy-version-independent inputs (no random generator involved)."""
    size = int(np.prod(shape)) if shape else 1
    values = np.round(np.sin(np.arange(size) * 1.37 + seed * 0.71) * scale, 3)
    return values.astype(dtype).reshape(shape)


def fixed_weights(model, seed=0, scale=0.5):
    """Give every weight of a built layer or model deterministic values, in its weight order (the same in
    Keras 3 and tinytf), so a program compares computations, not initializers."""
    model.set_weights([data(w.shape, seed=seed + i, scale=scale) for i, w in enumerate(model.get_weights())])
    return model


def printed(tf, *args, **kwargs):
    """What tf.print writes, captured through a `file://` output stream (TensorFlow accepts no file object)."""
    fd, path = tempfile.mkstemp(suffix=".txt")
    os.close(fd)
    try:
        tf.print(*args, output_stream="file://" + path, **kwargs)
        with open(path) as f:
            return f.read()
    finally:
        os.remove(path)


def counted(tf, fn, **kwargs):
    """A tf.function of `fn` and a list that grows by one per trace (a Python side effect)."""
    traces = []

    def traced(*args, **kw):
        traces.append(1)
        return fn(*args, **kw)

    return tf.function(traced, **kwargs), traces
