"""The one dispatch entry point: `apply(op, inputs, attrs)` runs the kernel now when every input is
concrete and no graph is being built, and otherwise appends a node to the graph being built."""

from __future__ import annotations

import time

import numpy as np

from . import conversion_registry, dtypes, numerics_checks, numpy_errors, shapes
from .context import shared, state
from .errors import InvalidArgumentError, OpError, ResourceExhaustedError, at_user_line, user_location
from .graph import SymbolicTensor
from .naming import CONVERTED
from .ops.core import constant_node, stack_op
from .resource import Resource
from .tensor import EagerTensor, Tensor

_NO_ATTRS: dict = {}
NO_ATTRS = _NO_ATTRS  # what wrappers pass positionally before `name` (an op without attributes)
_run_quietly = numpy_errors.run


# --- conversion of Python values --------------------------------------------------------------------
def _python_default_dtype(value):
    """TensorFlow's defaults: float -> float32, int -> int32 (int64 if it does not fit), bool -> bool."""
    try:
        array = np.asarray(value)
    except ValueError:  # numpy's "inhomogeneous shape"
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    kind = array.dtype.kind
    if kind == "f":
        return array, dtypes.float32
    if kind in "iu":
        if array.size and (array.min() < -(2**31) or array.max() >= 2**31):
            return array, dtypes.int64
        return array, dtypes.int32
    if kind == "b":
        return array, dtypes.bool_
    if kind == "c":
        return array, dtypes.complex128  # TF: a Python complex is complex128
    if kind in "SUO":
        return _as_byte_strings(value), dtypes.string
    raise TypeError(f"Cannot convert {value!r} to a tensor: unsupported element type {array.dtype}")


def _encode(item):
    """One string element as TF stores it: bytes, text encoded as UTF-8."""
    if isinstance(item, np.ndarray) and item.ndim == 0:  # an eager string scalar in a list (TF packs those)
        item = item[()]
    if isinstance(item, bytes):
        return item
    if isinstance(item, (str, np.str_)):
        return item.encode("utf-8")
    if isinstance(item, int) and not isinstance(item, bool) and abs(item) >= 2**63:  # numpy keeps it as an object
        raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
    raise TypeError(f"Failed to convert elements of {item!r} to Tensor: a string tensor holds only str or bytes")


def _as_byte_strings(value) -> np.ndarray:
    """Python strings, bytes, nested lists of them or a numpy text array as an object array of bytes (TF's
    own `.numpy()` form of a string tensor)."""
    array = np.asarray(value, dtype=object)
    out = np.empty(array.shape, dtype=object)
    flat = out.reshape(-1)
    for i, item in enumerate(array.reshape(-1)):
        flat[i] = _encode(item)
    return out


def to_numpy(value, dtype=None):
    """Convert a Python or numpy value to (numpy value, DType), following TF's rules. Rank-0 results are
    numpy scalars, which are much cheaper to compute with than 0-d arrays."""
    if isinstance(value, (np.ndarray, np.generic)):
        array = value
        if array.dtype.kind in "SUO" and (dtype is None or dtype.is_string):
            return _string_array(array, dtype)
        if dtype is None:
            dtype = dtypes.of_numpy(array)
        elif dtype.is_string:  # numbers never become strings (TF's ValueError)
            kind = type(np.asarray(array).reshape(-1)[:1].tolist()[0]).__name__ if array.size else "float"
            raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object type {kind}).")
        elif array.dtype != dtype.np:
            # a numpy value takes the requested dtype as numpy casts it (floats truncate, integers wrap, text
            # parses), as TF's EagerTensor does; Python numbers are checked below instead
            array = np.asarray(array).astype(dtype.np)
    else:
        if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in _flat(value)):
            packed = packed_dtype(value)
            dtype = packed if dtype is None else dtype
            value = _materialize(value)
        array, default = _python_default_dtype(value)
        if array.dtype == np.uint64 and dtype is not dtypes.uint64:
            # beyond int64 (TF converts Python integers as int64): only uint64 holds it
            raise ValueError("Can't convert Python sequence with out-of-range integer to Tensor.")
        if dtype is None:
            dtype = default
        elif default is not dtype:
            if not array.size:  # an empty list takes any dtype: tf.constant([], tf.int32)
                if dtype.is_string:
                    array = np.empty(array.shape, dtype=object)
            elif default.is_string or dtype.is_string or (default.is_complex and not dtype.is_complex):
                raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
            elif default.is_floating and not (dtype.is_floating or dtype.is_complex):
                raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
            if dtype.is_integer and array.size and (array.min() < dtype.min or array.max() > dtype.max):
                # TF converts Python integers as int64 and casts them: a narrower type wraps around
                # (tf.constant(300, tf.int8) is 44; tf.add(int8 tensor, [129]) adds -127)
                array = array.astype(np.int64).astype(dtype.np)
        if not dtype.is_string:
            array = np.asarray(array, dtype.np)
    if array.ndim == 0 and not dtype.is_string:  # a string scalar stays a 0-d array (numpy has no bytes scalar)
        array = array[()]
    return array, dtype


def _string_array(array, dtype):
    """A numpy text, bytes or object array as a string tensor's value."""
    if dtype is not None and not dtype.is_string:
        raise TypeError(f"Cannot convert {array!r} to EagerTensor of dtype {dtype.name}")
    return _as_byte_strings(array), dtypes.string


def _flat(value):
    for v in value:
        if isinstance(v, (list, tuple)):
            yield from _flat(v)
        else:
            yield v


def packed_dtype(value):
    """The dtype TF gives a nested list holding tensors: the first tensor's (Python numbers in it are converted
    to it: [n, 2] with an int64 n is int64). A tensor of another dtype in the list raises, as TF's Pack does."""
    tensors = [v for v in _flat(value) if isinstance(v, Tensor)]
    for index, tensor in enumerate(tensors):
        if tensor.dtype is tensors[0].dtype:
            continue
        if state.graph is not None:  # TF refuses the list while building a graph, and Pack refuses it eagerly
            raise TypeError(at_user_line(
                f"Cannot convert a list containing a tensor of dtype {tensor.dtype!r} to {tensors[0].dtype!r} "
                f"(Tensor is: {tensor!r})"))
        raise InvalidArgumentError(at_user_line(
            f"cannot compute Pack as input #{index}(zero-based) was expected to be a {tensors[0].dtype.name} "
            f"tensor but is a {tensor.dtype.name} tensor"))
    return tensors[0].dtype


_PLAIN_TYPES = frozenset({int, float, bool, complex, str, bytes})


def _list_contents(value) -> tuple:
    """(whether a nested list holds tensor-like objects such as variables, whether it holds symbolic tensors),
    in one walk that passes over Python numbers at the cost of a type lookup."""
    tensor_likes = symbolic = False
    for v in _flat(value):
        if type(v) in _PLAIN_TYPES:
            continue
        if isinstance(v, SymbolicTensor):
            symbolic = True
        elif hasattr(v, "_to_tensor") or hasattr(type(v), "__tf_tensor__"):
            tensor_likes = True
    return tensor_likes, symbolic


def _read_tensor_likes(value):
    """A nested list with its tensor-like objects (variables) replaced by their tensors: while tracing, a read
    of the variable in the graph, not its value when traced."""
    if isinstance(value, (list, tuple)):
        return [_read_tensor_likes(v) for v in value]
    if hasattr(value, "_to_tensor"):
        return value._to_tensor()
    return value.__tf_tensor__() if hasattr(type(value), "__tf_tensor__") else value


def _materialize(value):
    """A nested list containing eager tensors becomes a nested list of numpy values."""
    if isinstance(value, (list, tuple)):
        return [_materialize(v) for v in value]
    if isinstance(value, EagerTensor):
        return value._value
    return value


def convert_to_tensor(value, dtype=None, name=None, dtype_hint=None) -> Tensor:
    """Return `value` as a Tensor (eager, or a graph constant while tracing), checking `dtype`."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype is not dtype:
            raise InvalidArgumentError(at_user_line(
                f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype {value.dtype.name}"))
        return value
    to_tensor = getattr(value, "_to_tensor", None)
    if to_tensor is None and hasattr(type(value), "__tf_tensor__"):  # TF's conversion protocol for other classes
        return convert_to_tensor(value.__tf_tensor__(dtype, name), dtype)
    if to_tensor is not None:  # variables and other tensor-like objects
        tensor = to_tensor()
        if dtype is not None and tensor.dtype is not dtype:
            raise InvalidArgumentError(at_user_line(
                f"Tensor conversion requested dtype {dtype.name} for variable with dtype {tensor.dtype.name}"))
        return tensor
    if hasattr(type(value), "_tf_extension_type_fields"):  # an ExtensionType is no tensor: TF's ValueError
        raise ValueError(at_user_line(f"Attempt to convert a value ({value!r}) with an unsupported type "
                                      f"({type(value)}) to a Tensor."))
    if conversion_registry.functions:  # tf.register_tensor_conversion_function's user types
        converted = conversion_registry.convert(value, dtype, name, Tensor)
        if converted is not None:
            return converted
    if isinstance(value, (list, tuple)):
        tensor_likes, symbolic = _list_contents(value)
        if tensor_likes:  # variables in a list: their values now (a read, while tracing)
            value = _read_tensor_likes(value)
            symbolic = _list_contents(value)[1]
        if symbolic:
            return _stack_nested(value, dtype or packed_dtype(value), cast_tensors=dtype is not None)
    if dtype is None and dtype_hint is not None and not isinstance(value, (np.ndarray, np.generic)):
        try:
            array, dtype = to_numpy(value, dtypes.as_dtype(dtype_hint))
        except TypeError:
            array, dtype = to_numpy(value)
    else:
        try:
            array, dtype = to_numpy(value, dtype)
        except TypeError as e:
            raise TypeError(at_user_line(str(e))) from None
    if state.graph is not None:
        return constant_node(array, dtype, CONVERTED if name is None else name)
    return EagerTensor(array, dtype)


def _stack_nested(value, dtype, cast_tensors=False):
    """A nested list mixing symbolic tensors and Python numbers becomes one tensor, as tf.stack of its parts.
    With `cast_tensors` (a dtype the caller asked for), a tensor of another dtype is cast to it, as TF's graph
    conversion does: tf.concat((int32_vector, [int64_scalar]), 0) is int32, as it is eagerly."""
    if isinstance(value, (list, tuple)):
        parts = [_stack_nested(v, dtype, cast_tensors) for v in value]
        if not parts:
            raise ValueError("tf.stack needs at least one value")
        return apply(stack_op, parts, {"axis": 0})
    if cast_tensors and isinstance(value, Tensor) and value.dtype is not dtype:
        from .ops.math import cast  # ops.math imports this module

        return cast(value, dtype)
    return convert_to_tensor(value, dtype)


def convert_inputs(inputs, hint_from_tensors: bool):
    """Convert the non-tensor inputs of an op; with `hint_from_tensors`, Python scalars take the dtype
    of the op's tensor inputs, as TF does for `x + 1`."""
    if all(isinstance(x, Tensor) for x in inputs):
        return inputs
    hint = None
    if hint_from_tensors:
        for x in inputs:
            if isinstance(x, Tensor) or hasattr(x, "_to_tensor"):  # a tensor or a variable
                hint = x.dtype
                break
        else:
            # no tensor among them: the first value's dtype is the others', as TF's eager argument matching:
            # tf.maximum(0., [1, -1]) is float32, tf.multiply(float64_array, 42) float64, a later numpy array is
            # cast (tf.add(int_array, float_array) truncates), a Python float into an integer dtype a TypeError
            first = convert_to_tensor(inputs[0])
            return [first] + [convert_to_tensor(x, first.dtype) for x in inputs[1:]]
    out = []
    for x in inputs:
        if isinstance(x, Tensor):
            out.append(x)
        elif hint is not None and not hasattr(x, "_to_tensor"):
            out.append(convert_to_tensor(x, hint))  # numpy arrays too: float32 + float64 array is float32
        else:
            out.append(convert_to_tensor(x))
    return out


def convert_with_first_as_hint(x, y):
    """TF's tf.add and tf.matmul: `x` converts as it is, `y` takes x's dtype where it can (a numpy array is cast,
    a Python int list becomes floats) and keeps its own where it cannot (a Python float for an int32 x), so a
    mismatch reaches the op, which raises InvalidArgumentError: `int_tensor + 2.5` and `tf.add(2, float_variable)`
    fail as in TF, where `int_tensor * 2.5` is a TypeError of the conversion (`convert_inputs`)."""
    if not isinstance(x, Tensor):
        x = convert_to_tensor(x)
    if isinstance(y, Tensor):
        return x, y
    try:
        return x, convert_to_tensor(y, x.dtype)
    except (TypeError, ValueError):
        return x, convert_to_tensor(y)


# --- describing inputs in messages ----------------------------------------------------------------
def describe(inputs) -> str:
    """`float32[2,3], int32[]`: the dtypes and shapes of an op's inputs, for messages."""
    def one(t):
        if not isinstance(t, (Tensor, Resource)):
            return repr(t)
        return shapes.typed(t.dtype, t._shape)

    return ", ".join(one(t) for t in inputs)


def op_error(op, inputs, problem: str, exc_type=InvalidArgumentError):
    return exc_type(at_user_line(f"{op.name}: {problem} (inputs: {describe(inputs)})"))


def _infer(op, inputs, attrs):
    try:
        return op.infer_outputs(inputs, attrs)
    except (ValueError, TypeError, InvalidArgumentError) as e:
        # TF: eager ops raise InvalidArgumentError; building a graph, shape inference fails with a ValueError
        # (TF converts the C++ InvalidArgumentError) and a dtype mismatch with a TypeError
        if state.graph is None:
            exc_type = InvalidArgumentError
        elif isinstance(e, OpError):  # an op that fails as TF's kernel would (at run time in TF) keeps its class
            exc_type = type(e)
        else:
            exc_type = TypeError if isinstance(e, TypeError) else ValueError
        raise op_error(op, inputs, str(e), exc_type) from None


# --- the entry point -----------------------------------------------------------------------------
def apply(op, inputs, attrs=_NO_ATTRS, name=None):
    """Run `op` on `inputs` (tensors) with `attrs`: eagerly when possible, else as a graph node named `name`
    (TF's `name=`; eagerly ignored, as TF ignores it). Returns one tensor, a tuple of tensors, or None,
    following the op's number of outputs."""
    busy = shared.busy
    graph = state.graph if busy else None  # shared.busy: skip the thread-local read when all is eager
    if graph is None:
        for x in inputs:
            if type(x) is not EagerTensor and not isinstance(x, Resource):
                if isinstance(x, SymbolicTensor):
                    raise op_error(op, inputs, f"the symbolic tensor {x.name} escaped the function that "
                                   "traced it; return it from the tf.function to get its value")
                raise op_error(op, inputs, f"expected tensors, got {type(x).__name__}", TypeError)
        if busy and shared.op_observers:
            return _run_observed(op, inputs, attrs)
        return _run_eager(op, inputs, attrs)
    return _add_node(graph, op, inputs, attrs, name)


def _run_eager(op, inputs, attrs):
    specs = _infer(op, inputs, attrs)
    values = [x._value if type(x) is EagerTensor else x for x in inputs]
    try:
        try:  # under tinytf's numpy error state: TF gives inf and nan without warnings
            result = op.kernel(*values, **attrs) if op.calls_python else _run_quietly(op.kernel, *values, **attrs)
        except RuntimeError as e:
            if not numpy_errors.run_refused(e):
                raise
            result = numpy_errors.call(op.kernel, values, attrs)  # a kernel applying ops, or another thread
    except (ValueError, TypeError, IndexError, ArithmeticError, np.linalg.LinAlgError) as e:
        # a kernel's own TF error keeps its class (OutOfRangeError is also an IndexError)
        raise op_error(op, inputs, str(e), type(e) if isinstance(e, OpError) else InvalidArgumentError) from None
    except MemoryError as e:  # TF: ResourceExhaustedError (OOM), naming the op
        raise op_error(op, inputs, f"OOM when allocating the result: {e}", ResourceExhaustedError) from None
    n = len(specs)
    if n == 1:
        outputs = EagerTensor(result, specs[0][0])
    elif n == 0:
        outputs = None
    else:
        outputs = tuple(EagerTensor(v, spec[0]) for v, spec in zip(result, specs))
    if shared.busy:
        if state.numeric_checks and n:
            numerics_checks.check_eager(op, inputs, outputs)
        if state.tapes:
            record(op, inputs, attrs, outputs)
    return outputs


def _run_observed(op, inputs, attrs):
    """_run_eager timed, then shown to the op observers (context.add_op_observer)."""
    start = time.perf_counter_ns()
    outputs = _run_eager(op, inputs, attrs)
    end = time.perf_counter_ns()
    for observer in shared.op_observers:
        observer(op, inputs, outputs, start, end)
    return outputs


def record(op, inputs, attrs, outputs):
    """Tell the active tapes that `op` ran (eagerly or symbolically)."""
    for tape in state.tapes:
        tape._record(op, inputs, attrs, outputs)


def _add_node(graph, op, inputs, attrs, name=None):
    inputs = [x if isinstance(x, SymbolicTensor) and x.node.graph is graph else graph.capture(x)
              for x in inputs]
    specs = _infer(op, inputs, attrs)
    node = graph.add_node(op, inputs, attrs, specs, user_location(3), name)
    outputs = node.outputs
    n = len(outputs)
    result = outputs[0] if n == 1 else (None if n == 0 else tuple(outputs))
    if state.tapes and n:
        record(op, inputs, attrs, result)
    if state.numeric_checks and n and numerics_checks.instrument is not None:
        checked = tuple(numerics_checks.instrument(op, i, n, t) for i, t in enumerate(outputs))
        result = checked[0] if n == 1 else checked
    return result
