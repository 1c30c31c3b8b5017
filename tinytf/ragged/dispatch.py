"""Ragged dispatch, as TF's: elementwise functions (tf.math.sqrt, tf.add, `+`, ...) given a RaggedTensor run on
its flat values and keep its row partition; tf.reduce_* given a RaggedTensor reduce over its rows. The public
functions of tinytf and tinytf.math are wrapped once, at import, by `install`."""

from __future__ import annotations

import functools
import inspect

import numpy as np

from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.tensor import Tensor

from .broadcast import check_same_partition, dense_against_ragged
from .ragged_tensor import RaggedTensor

UNARY = ["abs", "negative", "sqrt", "rsqrt", "square", "exp", "expm1", "log", "log1p", "sin", "cos", "tan", "tanh",
         "sigmoid", "sign", "floor", "ceil", "round", "reciprocal", "logical_not", "is_nan", "is_inf", "is_finite",
         "acos", "asin", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "erf", "erfc", "cast", "softplus",
         "identity", "zeros_like", "ones_like", "relu", "clip_by_value"]
BINARY = ["add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "mod", "pow", "maximum",
          "minimum", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
          "logical_or", "logical_xor", "squared_difference", "divide_no_nan", "atan2", "where"]
REDUCTIONS = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any", "reduce_all"]


def elementwise(fn, *args, **kwargs):
    """fn on the flat values of the ragged arguments (which must share one row partition)."""
    ragged = [x for x in list(args) + list(kwargs.values()) if isinstance(x, RaggedTensor)]
    first = ragged[0]
    for other in ragged[1:]:
        check_same_partition(first, other)

    def flat(x):
        if isinstance(x, RaggedTensor):
            return x.flat_values
        if isinstance(x, (Tensor, np.ndarray)) or isinstance(x, (list, tuple)):
            t = convert_to_tensor(x, dtype_hint=first.dtype) if not isinstance(x, Tensor) else x
            if t._shape is not None and len(t._shape) > 0:
                return dense_against_ragged(first, t)
            return t
        return x

    result = fn(*[flat(a) for a in args], **{k: flat(v) for k, v in kwargs.items()})
    return first.with_flat_values(result)


def _elementwise_operands(fn, names, args, kwargs):
    """`elementwise` over the operands named `names` (given by position or keyword), the rest passed as is."""
    positional = list(args[:len(names)])
    rest = args[len(names):]
    keyword_names = [n for n in names[len(positional):] if n in kwargs]
    operands = positional + [kwargs.pop(n) for n in keyword_names]
    n_positional = len(positional)

    def call(*values):
        return fn(*values[:n_positional], *rest, **dict(zip(keyword_names, values[n_positional:])), **kwargs)

    return elementwise(call, *operands)


def _has_ragged(args, kwargs) -> bool:
    return any(isinstance(x, RaggedTensor) for x in args) or any(isinstance(x, RaggedTensor)
                                                                  for x in kwargs.values())


def dispatching(fn, operands=None):
    """fn, but elementwise on the flat values when an argument is ragged. With `operands` (1 or 2), only the
    API's first `operands` parameters are its elementwise operands (TF's elementwise dispatch): the others
    (a hash key, a dtype, bounds) pass through as given."""
    if getattr(fn, "_ragged_dispatch", False):
        return fn
    names = list(inspect.signature(fn).parameters)[:operands] if operands else None

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if _has_ragged(args, kwargs):
            if names is None:
                return elementwise(fn, *args, **kwargs)
            return _elementwise_operands(fn, names, args, kwargs)
        return fn(*args, **kwargs)

    wrapper._ragged_dispatch = True
    return wrapper


def reducing(fn, identity_of):
    """tf.reduce_*: over a RaggedTensor, the rows are padded with the reduction's identity and reduced densely;
    mean divides by how many real values each result covers."""
    if getattr(fn, "_ragged_dispatch", False):
        return fn

    @functools.wraps(fn)
    def wrapper(input_tensor, axis=None, keepdims=False, name=None, **kwargs):
        if not isinstance(input_tensor, RaggedTensor):
            return fn(input_tensor, axis, keepdims, name, **kwargs)
        return reduce_ragged(fn, identity_of, input_tensor, axis, keepdims)

    wrapper._ragged_dispatch = True
    return wrapper


def reduce_ragged(fn, identity_of, rt: RaggedTensor, axis, keepdims):
    if axis is None:
        return fn(rt.flat_values, None, keepdims=keepdims)
    if keepdims:
        raise ValueError("reducing a RaggedTensor with keepdims=True is not supported")
    if axis < 0:
        axis += rt.ndim
    if axis >= 1 and isinstance(rt.values, RaggedTensor):
        return rt.with_values(reduce_ragged(fn, identity_of, rt.values, axis - 1, False))
    if rt.ragged_rank > 1:
        raise NotImplementedError(f"{fn.__name__} over axis 0 of a RaggedTensor of ragged_rank > 1")
    if fn.__name__ == "reduce_mean":
        from tinytf.runtime.ops.array import ones_like
        from tinytf.runtime.ops.math import divide
        from tinytf.runtime.ops.reduce import reduce_sum

        total = reduce_ragged(reduce_sum, identity_of, rt, axis, False)
        count = reduce_ragged(reduce_sum, identity_of, rt.with_flat_values(ones_like(rt.flat_values)), axis, False)
        return divide(total, count)
    return fn(rt.to_tensor(default_value=identity_of(fn.__name__, rt.dtype)), axis)


def identity_of(name, dtype):
    if name in ("reduce_sum", "reduce_any"):
        return False if dtype.is_bool else dtype.np.type(0)
    if name in ("reduce_prod", "reduce_all"):
        return True if dtype.is_bool else dtype.np.type(1)
    if name == "reduce_max":
        return dtype.np.type("-inf") if dtype.is_floating else dtype.np.type(dtype.min)
    if name == "reduce_min":
        return dtype.np.type("inf") if dtype.is_floating else dtype.np.type(dtype.max)
    return dtype.np.type(0)


def install_elementwise_apis(root) -> None:
    """Every API TF lists as unary or binary elementwise (tf.strings.lower, tf.math.erfinv, ...) runs on the flat
    values of RaggedTensor arguments, as TF's ragged dispatch makes them."""
    from ..elementwise_apis import BINARY, UNARY

    wrapped = {}  # id(original) -> its one wrapper: tf.math.softsign stays tf.nn.softsign
    for path in UNARY + BINARY:
        *parents, name = path.split(".")
        module = root
        for parent in parents:
            module = getattr(module, parent, None)
            if module is None:
                break
        fn = getattr(module, name, None) if module is not None else None
        if callable(fn) and not isinstance(fn, type) and not getattr(fn, "_ragged_dispatch", False):
            wrapper = wrapped.setdefault(id(fn), (fn, dispatching(fn, operands=1 if path in UNARY else 2)))[1]
            setattr(module, name, wrapper)
    for module in (root, root.math, root.nn, root.strings, root.image, root.bitwise, root.dtypes, root.io,
                   root.debugging):  # the same function under other names gets the same wrapper
        for attr, value in list(vars(module).items()):
            entry = wrapped.get(id(value))
            if entry is not None and entry[0] is value:
                setattr(module, attr, entry[1])


def _with_ragged_first(fn, ragged_fn):
    """fn, handing a RaggedTensor first argument (tf.tile, tf.reverse) to ragged_fn."""
    if getattr(fn, "_ragged_dispatch", False):
        return fn

    @functools.wraps(fn)
    def wrapper(input, *args, **kwargs):
        if isinstance(input, RaggedTensor):
            return ragged_fn(input, *args, **kwargs)
        return fn(input, *args, **kwargs)

    wrapper._ragged_dispatch = True
    return wrapper


def _ragged_gather(fn):
    if getattr(fn, "_ragged_dispatch", False):
        return fn
    from .array_ops import gather

    @functools.wraps(fn)
    def wrapper(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
        if isinstance(params, RaggedTensor) or isinstance(indices, RaggedTensor):
            return gather(params, indices, validate_indices, axis, batch_dims, name, dense_gather=fn)
        return fn(params, indices, validate_indices, axis, batch_dims, name)

    wrapper._ragged_dispatch = True
    return wrapper


def _ragged_ids(fn):
    """tf.nn.embedding_lookup(params, ids) with ragged ids: the result has the ids' row partition."""
    if getattr(fn, "_ragged_dispatch", False):
        return fn

    @functools.wraps(fn)
    def wrapper(params, ids, *args, **kwargs):
        if isinstance(ids, RaggedTensor):
            return ids.with_flat_values(fn(params, ids.flat_values, *args, **kwargs))
        return fn(params, ids, *args, **kwargs)

    wrapper._ragged_dispatch = True
    return wrapper


def _ragged_string_join(fn):
    if getattr(fn, "_ragged_dispatch", False):
        return fn
    from .array_ops import string_join

    @functools.wraps(fn)
    def wrapper(inputs, separator="", name=None):
        if isinstance(inputs, (list, tuple)) and any(isinstance(v, RaggedTensor) for v in inputs):
            return string_join(inputs, separator, name, dense_join=fn)
        return fn(inputs, separator, name)

    wrapper._ragged_dispatch = True
    return wrapper


ASSERTIONS = ["assert_equal", "assert_none_equal", "assert_less", "assert_less_equal", "assert_greater",
              "assert_greater_equal"]


def _ragged_assertion(fn):
    """tf.debugging.assert_* of two operands, one or both ragged: the row partitions must match (TF's assert of
    the row splits), then the flat values are compared (a dense operand broadcast as in `x + y`)."""
    if getattr(fn, "_ragged_dispatch", False):
        return fn

    @functools.wraps(fn)
    def wrapper(x, y, *args, **kwargs):
        if not (isinstance(x, RaggedTensor) or isinstance(y, RaggedTensor)):
            return fn(x, y, *args, **kwargs)
        first = x if isinstance(x, RaggedTensor) else y
        operands = []
        for value in (x, y):
            if isinstance(value, RaggedTensor):
                check_same_partition(first, value)
                operands.append(value.flat_values)
            else:
                t = convert_to_tensor(value, dtype_hint=first.dtype)
                operands.append(dense_against_ragged(first, t) if t._shape else t)
        return fn(*operands, *args, **kwargs)

    wrapper._ragged_dispatch = True
    return wrapper


def install_array_ops(root) -> None:
    """tf.tile, tf.reverse, tf.gather, tf.nn.embedding_lookup and tf.strings.join accept RaggedTensors."""
    from .array_ops import reverse, tile

    for module in (root, root.compat.v1) if hasattr(root, "compat") else (root,):
        if hasattr(module, "tile"):
            module.tile = _with_ragged_first(module.tile, tile)
        if hasattr(module, "reverse"):
            module.reverse = _with_ragged_first(module.reverse, reverse)
    root.gather = _ragged_gather(root.gather)
    root.nn.embedding_lookup = _ragged_ids(root.nn.embedding_lookup)
    root.strings.join = _ragged_string_join(root.strings.join)
    wrapped = {}  # id(original) -> its one wrapper: tf.assert_equal stays tf.debugging.assert_equal
    for module in (root.debugging, root):
        for name in ASSERTIONS:
            fn = getattr(module, name, None)
            if fn is not None:
                setattr(module, name, wrapped.setdefault(id(fn), _ragged_assertion(fn)))
    from .shape_ops import install as install_shape_ops

    install_shape_ops(root)


def install(*modules) -> None:
    """Wrap the elementwise and reduction functions of `modules` (tinytf, tinytf.math, tinytf.nn)."""
    install_elementwise_apis(modules[0])
    install_array_ops(modules[0])
    for module in modules:
        for name in UNARY + BINARY:
            fn = getattr(module, name, None)
            if fn is not None:
                setattr(module, name, dispatching(fn))
        from .concat import concat, dispatching_list, stack

        for name, ragged_fn in (("concat", concat), ("stack", stack)):
            fn = getattr(module, name, None)
            if fn is not None:
                setattr(module, name, dispatching_list(fn, ragged_fn))
        for name in REDUCTIONS:
            fn = getattr(module, name, None)
            if fn is not None:
                setattr(module, name, reducing(fn, identity_of))
        if getattr(module, "shape", None) is not None:  # tf.shape(rt): a DynamicRaggedShape
            from .dynamic_shape import shape_dispatching

            module.shape = shape_dispatching(module.shape)


def _binary(fn, reflected=False):
    def method(self, other):
        if reflected:
            return elementwise(fn, other, self)
        return elementwise(fn, self, other)

    return method


def _install_operators() -> None:
    from tinytf.runtime.ops import math as m

    ops = {"add": m.add, "sub": m.subtract, "mul": m.multiply, "truediv": m.truediv, "floordiv": m.floordiv,
           "mod": m.floormod, "pow": m.pow, "and": m.logical_and, "or": m.logical_or, "xor": m.logical_xor}
    for name, fn in ops.items():
        setattr(RaggedTensor, f"__{name}__", _binary(fn))
        setattr(RaggedTensor, f"__r{name}__", _binary(fn, reflected=True))
    for name, fn in {"lt": m.less, "le": m.less_equal, "gt": m.greater, "ge": m.greater_equal}.items():
        setattr(RaggedTensor, f"__{name}__", _binary(fn))
    RaggedTensor.__neg__ = lambda self: self.with_flat_values(m.negative(self.flat_values))
    RaggedTensor.__abs__ = lambda self: self.with_flat_values(m.abs(self.flat_values))
    RaggedTensor.__invert__ = lambda self: self.with_flat_values(m.logical_not(self.flat_values))


_install_operators()
