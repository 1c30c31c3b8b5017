"""tf.py_function and tf.numpy_function: graph nodes that call back into Python when they run.

Both are stateful ops (kept in program order, never folded or merged). The Python function is an attr of the
node, so it lives exactly as long as the graph (and generated code) holding the node: dropping the
tf.function frees it. The kernel runs the function eagerly on the calling thread (no graph is being built
there, no outer tape sees its inner ops), so concurrent calls from several threads are independent.

py_function gives the function eager tensors and is differentiable once, as TF's: when a gradient may be
asked for (a tape was recording when the node was made), the kernel runs the function under an inner tape and
returns that tape as a hidden extra output (a `resource` value); the gradient op then asks that tape, so
the function is not run again for its gradient. numpy_function gives numpy arrays and has no gradient."""

from __future__ import annotations

import traceback

import numpy as np

from .. import dtypes, nest, numpy_errors
from ..autodiff.tape import Tape
from ..context import building, executing_eagerly, no_tapes, state
from ..dispatch import apply, convert_to_tensor, to_numpy
from ..errors import (
    InvalidArgumentError,
    OpError,
    OutOfRangeError,
    ResourceExhaustedError,
    UnimplementedError,
    UnknownError,
)
from ..graph import RESOURCE
from ..registry import OpDef, gradient, register
from ..tensor import EagerTensor, Tensor
from .array import zeros_like


class PythonFunction:
    """The node attr holding the user's function (printed by name in graphs and generated code)."""

    __slots__ = ("func", "name", "__weakref__")

    def __init__(self, func, name):
        self.func = func
        self.name = name

    def __repr__(self):
        return f"<python function {self.name}>"


class SavedCall:
    """The hidden output of a py_function call: the tape its forward run recorded (or None), with the inputs
    and outputs that tape saw. `shape` lets messages describe it like any value."""

    __slots__ = ("tape", "inputs", "outputs")
    shape = ()

    def __init__(self, tape=None, inputs=(), outputs=()):
        self.tape, self.inputs, self.outputs = tape, inputs, outputs


# TF's mapping of Python exceptions raised inside the function to op error classes
_ERROR_CLASSES = ((StopIteration, OutOfRangeError), (NotImplementedError, UnimplementedError),
                  (MemoryError, ResourceExhaustedError), ((ValueError, TypeError), InvalidArgumentError))


def _call(holder, args):
    """Run the user's function; its Python exceptions become TF's op errors, with the Python traceback."""
    try:
        with numpy_errors.user_state():  # the user's numpy code warns as it would outside tinytf
            return holder.func(*args)
    except OpError:
        raise
    except Exception as e:  # noqa: BLE001 - every Python failure is reported as the op's error, as TF does
        kind = next((cls for types, cls in _ERROR_CLASSES if isinstance(e, types)), UnknownError)
        text = "".join(traceback.format_exception(type(e), e, e.__traceback__))
        raise kind(f"{type(e).__name__}: {e}\n{text}") from e


def _results(result, n):
    """The function's return value as a list of n values (None for no outputs)."""
    if n == 0:
        return []
    if n == 1 and not isinstance(result, (list, tuple)):
        return [result]
    values = list(result) if isinstance(result, (list, tuple)) else [result]
    if len(values) != n:
        raise InvalidArgumentError(f"the Python function returned {len(values)} values, but Tout lists {n}")
    return values


# --- tf.py_function ---------------------------------------------------------------------------------------
def _py_function_kernel(*args, func, Tin, Tout, keep_tape):
    # a tape inside the traced function (keep_tape) or one recording this eager call may ask for gradients
    keep_tape = keep_tape or bool(state.tapes)
    with building(None), no_tapes():  # eager inside, whatever the caller is doing
        tensors = [EagerTensor(a, d) for a, d in zip(args, Tin)]
        tape = None
        if keep_tape:
            tape = Tape()
            for t in tensors:
                if t.dtype.is_inexact:
                    tape.watch(t)
            state.tapes = [tape]
        try:
            result = _call(func, tensors)
        finally:
            state.tapes = []
        outputs = [convert_to_tensor(v, d) for v, d in zip(_results(result, len(Tout)), Tout)]
    saved = SavedCall(tape, tensors, outputs) if keep_tape else SavedCall()
    return tuple(o._value for o in outputs) + (saved,) if outputs else saved


def _infer_py_function(*args, func, Tin, Tout, keep_tape):
    return [(d, None) for d in Tout] + [(RESOURCE, ())]


py_function_op = register(OpDef("py_function", _py_function_kernel, _infer_py_function, stateful=True,
                                 calls_python=True,
                                 doc="call a Python function on eager tensors when the node runs"))


def _py_function_grad_kernel(saved, *grads, Tin):
    if saved.tape is None:
        raise InvalidArgumentError("py_function: the forward call kept no tape (no tape was recording when "
                                   "the tf.py_function node was made or run)")
    tape, inputs, outputs = saved.tape, saved.inputs, saved.outputs
    with building(None), no_tapes():
        seeds = [EagerTensor(g, o.dtype) for g, o in zip(grads, outputs)]
        found = tape.backward_from(outputs, seeds, inputs)
        result = [np.zeros(np.shape(x._value), x.dtype.np) if g is None else convert_to_tensor(g)._value
                  for x, g in zip(inputs, found) if x.dtype.is_inexact]
    return result[0] if len(result) == 1 else tuple(result)


def _infer_py_function_grad(saved, *grads, Tin):
    return [(d, None) for d in Tin if d.is_inexact]


py_function_grad_op = register(OpDef(
    "py_function_grad", _py_function_grad_kernel, _infer_py_function_grad, stateful=True, differentiable=False,
    calls_python=True,  # the inner tape's backward walk applies ops (and may run custom gradients)
    doc="the gradient of a py_function call, from the tape its forward call kept"))


@gradient(py_function_op)
def _py_function_grad(record, *out_grads):
    n = len(record.attrs["Tout"])
    outputs, handle = record.outputs[:n], record.outputs[n]
    grads = [zeros_like(o) if g is None else g for o, g in zip(outputs, out_grads[:n]) if o.dtype.is_inexact]
    if not any(o.dtype.is_inexact for o in outputs) or not any(d.is_inexact for d in record.attrs["Tin"]):
        return [None] * len(record.inputs)
    found = apply(py_function_grad_op, (handle, *grads), {"Tin": record.attrs["Tin"]})
    found = iter([found] if isinstance(found, Tensor) else found)
    return [next(found) if d.is_inexact else None for d in record.attrs["Tin"]]


def _tout(Tout, api):
    if Tout is None:
        raise TypeError(f"Missing required argument: 'Tout'\n  If using tf.{api} as a decorator, set `Tout`\n"
                        f"  **by name** above the function:\n  `@tf.{api}(Tout=tout)`")
    if isinstance(Tout, (list, tuple)):
        return tuple(dtypes.as_dtype(d) for d in Tout), False
    return (dtypes.as_dtype(Tout),), True


def _inputs(inp):
    flat = nest.flatten(list(inp) if isinstance(inp, (list, tuple)) else [inp])
    return [convert_to_tensor(x) for x in flat]


def _decorator(api, wrapper, Tout, name):
    def decorate(fn):
        def call(*args):
            return wrapper(fn, args, Tout, name=name)

        call.__name__ = getattr(fn, "__name__", api)
        call.__doc__ = getattr(fn, "__doc__", None)
        call.__wrapped__ = fn
        return call

    return decorate


def py_function(func=None, inp=None, Tout=None, name=None):
    """`tf.py_function`: run `func` on eager tensors, eagerly or when the graph runs; differentiable once
    through the ops `func` runs. Tout a dtype gives one tensor, a list of dtypes a list (empty: none)."""
    if func is None:
        return _decorator("py_function", py_function, Tout, name)
    out_dtypes, single = _tout(Tout, "py_function")
    if inp is None:
        raise TypeError("Missing argument `inp`: you must set the `inp` argument (the list of arguments to the "
                        "function), unless you use `py_function` as a decorator (`func=None`).")
    tensors = _inputs(inp)
    attrs = {"func": PythonFunction(func, getattr(func, "__name__", "func")), "Tin": tuple(t.dtype for t in tensors),
             "Tout": out_dtypes, "keep_tape": bool(state.tapes)}
    result = apply(py_function_op, tensors, attrs)
    outputs = list(result[:-1]) if isinstance(result, tuple) else []
    return outputs[0] if single else outputs


# --- tf.numpy_function ------------------------------------------------------------------------------------
def _numpy_function_kernel(*args, func, Tout, api_name):
    arrays = [_numpy_argument(a) for a in args]
    values = []
    for k, (value, dtype) in enumerate(zip(_results(_call(func, arrays), len(Tout)), Tout)):
        array, found = to_numpy(value.numpy() if isinstance(value, Tensor) else value)
        if found is not dtype and not (dtype.is_string and found.is_string):
            raise InvalidArgumentError(f"{k}-th value returned by {api_name} is {_c_name(found)}, but expects "
                                       f"{_c_name(dtype)}")
        values.append(array)
    return values[0] if len(values) == 1 else (tuple(values) if values else None)


def _numpy_argument(value):
    """What TF hands the function: a numpy array (0-d for a scalar), or the bytes of a scalar string."""
    if isinstance(value, bytes):
        return value
    array = np.asarray(value)
    return array.item() if array.dtype == object and array.ndim == 0 else array


def _c_name(dtype) -> str:
    """TF's C++ type names in the numpy_function dtype message."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(dtype.name, dtype.name)


def _infer_numpy_function(*args, func, Tout, api_name):
    return [(d, None) for d in Tout]


numpy_function_op = register(OpDef("numpy_function", _numpy_function_kernel, _infer_numpy_function, stateful=True,
                                   calls_python=True, differentiable=False,
                                   doc="call a Python function on numpy arrays"))


def _numpy_function_eagerly(func, inp, out_dtypes, single):
    """TF's eager numpy_function: the function gets numpy's own conversion of each input (a Python float is a
    float64 array) and each result keeps the dtype it has (Tout is checked only in graphs)."""
    flat = nest.flatten(list(inp) if isinstance(inp, (list, tuple)) else [inp])
    arrays = [np.asarray(x._value if isinstance(x, EagerTensor) else x) for x in flat]
    results = _results(_call(PythonFunction(func, getattr(func, "__name__", "func")), arrays), len(out_dtypes))
    outputs = [convert_to_tensor(r.numpy() if isinstance(r, Tensor) else np.asarray(r) if np.ndim(r) else r)
               for r in results]
    return outputs[0] if single else outputs


def numpy_function(func=None, inp=None, Tout=None, stateful=True, name=None):
    """`tf.numpy_function`: run `func` on numpy arrays (eagerly, or when the graph runs); not differentiable.
    Every call is treated as stateful (kept in order, never folded), whatever `stateful` says."""
    if func is None:
        return _decorator("numpy_function", numpy_function, Tout, name)
    out_dtypes, single = _tout(Tout, "numpy_function")
    if executing_eagerly() and not any(isinstance(x, Tensor) and not isinstance(x, EagerTensor)
                                       for x in nest.flatten(list(inp) if isinstance(inp, (list, tuple)) else [inp])):
        return _numpy_function_eagerly(func, inp, out_dtypes, single)
    tensors = _inputs(inp)
    attrs = {"func": PythonFunction(func, getattr(func, "__name__", "func")), "Tout": out_dtypes,
             "api_name": "pyfunc"}
    result = apply(numpy_function_op, tensors, attrs)
    outputs = [] if result is None else [result] if isinstance(result, Tensor) else list(result)
    return outputs[0] if single else outputs


__all__ = ["py_function", "numpy_function"]
