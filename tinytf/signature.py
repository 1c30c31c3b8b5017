"""Abstract call signatures for tf.function: what makes two calls share one trace.

A call's key is (structure, leaf keys): tensors by (dtype, shape), variables by (dtype, shape), Python
scalars and strings by value (Python equality), objects with `__tf_tracing_type__` by the TraceType they give
(tf.types.experimental.TraceType; other kinds of arguments can join this way), other objects by identity.
Keys can be compared for generality (a [None, 3] trace serves a [1, 3] call) and relaxed (traces for [2] and [3]
generalize to [None])."""

from __future__ import annotations

import inspect
import weakref

import numpy as np

from tinytf.runtime import dtypes, nest, shapes
from tinytf.runtime.errors import at_user_line
from tinytf.runtime.resource import Resource
from tinytf.runtime.tensor import EagerTensor, Tensor

from .tensor_spec import TensorSpec

_PRIMITIVES = (int, float, bool, str, bytes, type(None), complex)
TENSOR = "tensor"
VARIABLE = "variable"
PYTHON_VALUE = "value"
OBJECT = "object"
TRACE_TYPE = "trace_type"  # an object that gives its own tf.types.experimental.TraceType (__tf_tracing_type__)


class ObjectKey:
    """An argument compared by identity, held weakly so that traces do not keep user objects alive."""

    __slots__ = ("id", "ref", "__weakref__")

    def __init__(self, obj):
        self.id = id(obj)
        try:
            self.ref = weakref.ref(obj)
        except TypeError:
            self.ref = None

    def __eq__(self, other):
        return isinstance(other, ObjectKey) and other.id == self.id and (self.ref is None or self.ref() is not None)

    def __hash__(self):
        return self.id


def leaf_key(value):
    if hasattr(type(value), "__tf_tracing_type__") and not isinstance(value, (Tensor, TensorSpec, Resource)):
        return (TRACE_TYPE, value.__tf_tracing_type__(None))  # compared with the type's __eq__ and __hash__
    if isinstance(value, (Tensor, TensorSpec)):
        return (TENSOR, value.dtype, value._shape)
    if isinstance(value, Resource):
        return (VARIABLE, value.dtype, value._shape)
    if isinstance(value, _PRIMITIVES):
        return (PYTHON_VALUE, value)  # by value alone, as TF: 2 and 2.0 (and 1 and True) share a trace
    if isinstance(value, (np.ndarray, np.generic)):
        raise TypeError("numpy arrays are converted to tensors before keying")
    try:
        hash(value)
    except TypeError:
        raise TypeError(at_user_line(
            f"tf.function cannot key an argument of type {type(value).__name__}: it is not hashable. Pass "
            "tensors, Python scalars, or (nested) lists/tuples/dicts of them")) from None
    return (OBJECT, ObjectKey(value))


def convert_numpy_leaves(structure):
    """numpy arrays are passed to graphs as tensors (TF treats them as TensorSpecs)."""
    from tinytf.runtime.dispatch import convert_to_tensor

    leaves = nest.flatten(structure)
    if not any(isinstance(x, (np.ndarray, np.generic)) for x in leaves):
        return structure
    return nest.pack_sequence_as(
        structure, [convert_to_tensor(x) if isinstance(x, (np.ndarray, np.generic)) else x for x in leaves])


def composite_spec(leaf):
    """The TypeSpec of a composite argument (SparseTensor, RaggedTensor, or such a TypeSpec itself), else None.
    A composite is keyed by its spec and passed to the graph as its component tensors."""
    if hasattr(type(leaf), "_component_specs"):
        return leaf
    if hasattr(type(leaf), "_type_spec"):
        return leaf._type_spec
    return None


def expand_leaves(structure) -> list:
    """The leaves of a call with every composite replaced by its components (a TypeSpec by its component
    specs): what the graph takes as arguments."""
    out = []
    for leaf in nest.flatten(structure):
        spec = composite_spec(leaf)
        if spec is None:
            out.append(leaf)
        elif spec is leaf:
            out.extend(spec._component_specs)
        else:
            out.extend(leaf._to_components())
    return out


def call_key(structure):
    keys, specs = [], []
    for leaf in nest.flatten(structure):
        spec = composite_spec(leaf)
        if spec is None:
            keys.append(leaf_key(leaf))
        else:  # keyed by its spec; its components by the spec's (partial) component shapes
            specs.append(spec)
            keys.extend(leaf_key(c) for c in spec._component_specs)
    return ((nest.structure_signature(structure), tuple(specs)), tuple(keys))


def is_tensor_key(k) -> bool:
    return isinstance(k, tuple) and len(k) == 3 and k[0] in (TENSOR, VARIABLE)


def generalizes(general, specific) -> bool:
    """True when every call with key `specific` can run the trace made for key `general`."""
    if general[0] != specific[0] or len(general[1]) != len(specific[1]):
        return False
    for g, s in zip(general[1], specific[1]):
        if is_tensor_key(g):
            if not is_tensor_key(s) or g[0] != s[0] or g[1] is not s[1] or not shapes.is_subshape(s[2], g[2]):
                return False
        elif isinstance(g, tuple) and g[0] == TRACE_TYPE:
            if not (isinstance(s, tuple) and s[0] == TRACE_TYPE and (g == s or s[1].is_subtype_of(g[1]))):
                return False
        elif g != s:
            return False
    return True


def placeholder_for(key_leaf, value):
    """What the traced function receives for a non-tensor argument: the TraceType's placeholder value, or
    the value itself."""
    if isinstance(key_leaf, tuple) and key_leaf[0] == TRACE_TYPE:
        return key_leaf[1].placeholder_value(None)
    return value


def generality(key) -> int:
    """How many unknown dims a key has (the most specific matching trace has the fewest)."""
    total = 0
    for k in key[1]:
        if is_tensor_key(k):
            total += 100 if k[2] is None else sum(d is None for d in k[2])
    return total


def relax(a, b):
    """The least general key that covers both, if they differ only in tensor shapes of equal rank."""
    if a[0] != b[0] or len(a[1]) != len(b[1]):
        return None
    out = []
    for x, y in zip(a[1], b[1]):
        if is_tensor_key(x) and is_tensor_key(y) and x[0] == y[0] and x[1] is y[1]:
            out.append((x[0], x[1], shapes.most_specific_common(x[2], y[2])))
        elif x == y:
            out.append(x)
        else:
            return None
    return (a[0], tuple(out))


def describe_key(key_leaf) -> str:
    if is_tensor_key(key_leaf):
        kind, dtype, shape = key_leaf
        return f"{'Variable' if kind == VARIABLE else 'Tensor'}Spec(shape={shapes.fmt(shape)}, dtype=tf.{dtype.name})"
    if key_leaf[0] == OBJECT:
        return "<object>"
    if key_leaf[0] == TRACE_TYPE:
        return repr(key_leaf[1])
    return repr(key_leaf[1])


def bind_call(signature, args, kwargs, name="function"):
    """Canonical (args, kwargs) with defaults applied, so f(x) and f(x, scale=2.0) share a key."""
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:
        raise TypeError(at_user_line(f"{name}() {e}")) from None
    bound.apply_defaults()
    return (tuple(bound.args), dict(bound.kwargs))


# --- call patterns: the cheap key of a call, in front of the full key ----------------------------------------
_EMPTY = inspect.Parameter.empty
_PRIMITIVE_TYPES = frozenset(_PRIMITIVES)
# Tensor leaves are keyed by id(DType) (DTypes are singletons; their own __hash__ runs in Python) and shape.
# As dtypes.of_numpy resolves them: numeric numpy dtypes and numpy scalar types -> the token of their DType.
_ARRAY_DTYPES = {k: id(d) for k, d in dtypes.BY_NP.items() if isinstance(k, np.dtype) and not d.is_string}
_SCALAR_DTYPES = {k: id(d) for k, d in dtypes.BY_NP.items() if isinstance(k, type) and not d.is_string}


def _walk(value, key, values) -> bool:
    """Append `value`'s tokens to `key` and its tensor values to `values`, in nest.flatten's order. A tensor
    or numpy array gives (dtype token, shape) and its numpy value (what the graph's code takes); a tuple, list
    or dict its type, length (and keys) then its children; a Python scalar or string its type and itself
    (baked into the trace, as the full key keys it by value). False for anything else (variables, composites,
    namedtuples, objects, string arrays): those calls take the full key."""
    kind = type(value)
    if kind is EagerTensor:
        array = value._value
        key.append(id(value.dtype))
        key.append(array.shape)
        values.append(array)
        return True
    if kind is np.ndarray:
        token = _ARRAY_DTYPES.get(value.dtype)
        if token is None:
            return False
        key.append(token)
        key.append(value.shape)
        values.append(value if value.ndim else value[()])  # as convert_to_tensor: rank 0 is a numpy scalar
        return True
    if kind is tuple or kind is list:
        key.append(kind)
        key.append(len(value))
        for item in value:
            if type(item) is np.ndarray:  # a batch of Keras' (x, y): walked here without a call
                token = _ARRAY_DTYPES.get(item.dtype)
                if token is None:
                    return False
                key.append(token)
                key.append(item.shape)
                values.append(item if item.ndim else item[()])
            elif not _walk(item, key, values):
                return False
        return True
    if kind is dict:
        try:
            names = sorted(value)
        except TypeError:
            return False
        key.append(dict)
        key.append(len(names))
        for name in names:
            key.append(name)
            if not _walk(value[name], key, values):
                return False
        return True
    if kind in _PRIMITIVE_TYPES:
        key.append(kind)
        key.append(value)
        return True
    token = _SCALAR_DTYPES.get(kind)
    if token is not None:  # a numpy scalar: a rank-0 tensor
        key.append(token)
        key.append(())
        values.append(value)
        return True
    return False


class CallPattern:
    """The cheap key of a call, in front of the full key (call_key of the bound, converted structure).

    `pattern(args, kwargs)` walks the arguments in the order `bind_call` then `nest.flatten` put them (each
    parameter in turn, defaults filled in, keyword-only parameters sorted by name) and gives (key, values):
    `key` a flat tuple of tokens that determines the full key (the same structure, the same tensor dtypes and
    shapes, the same Python values), `values` the numpy values of the tensor leaves, in the order the trace's
    code takes them. None when the call holds something else, or would not bind (the full path then raises).
    A function with **kwargs has no pattern."""

    def __init__(self, signature):
        params = list(signature.parameters.values())
        self.usable = not any(p.kind is p.VAR_KEYWORD for p in params)
        self._positional = [(p.name, p.default, p.kind is p.POSITIONAL_OR_KEYWORD) for p in params
                            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self._n = len(self._positional)
        self._var_positional = any(p.kind is p.VAR_POSITIONAL for p in params)
        self._keyword_only = sorted((p.name, p.default) for p in params if p.kind is p.KEYWORD_ONLY)

    def __call__(self, args, kwargs):
        n = len(args)
        key = [n]
        values = []
        if n > self._n and not self._var_positional:
            return None
        for value in args:
            if type(value) is EagerTensor:  # the commonest argument, walked here without a call
                array = value._value
                key.append(id(value.dtype))
                key.append(array.shape)
                values.append(array)
            elif not _walk(value, key, values):
                return None
        if n < self._n or kwargs or self._keyword_only:
            used = 0
            for name, default, by_keyword in self._positional[n:]:
                if by_keyword and name in kwargs:
                    value = kwargs[name]
                    used += 1
                elif default is _EMPTY:
                    return None
                else:
                    value = default
                if not _walk(value, key, values):
                    return None
            for name, default in self._keyword_only:
                if name in kwargs:
                    value = kwargs[name]
                    used += 1
                elif default is _EMPTY:
                    return None
                else:
                    value = default
                if not _walk(value, key, values):
                    return None
            if used != len(kwargs):
                return None
        return tuple(key), values


def same_values(pattern_values, graph_values) -> bool:
    """True when a call's pattern values are the values its full path passes to the graph (checked once per
    pattern, before it is cached): the same objects, or equal numpy scalars of one type (rank-0 conversions
    make new ones). Fails where the full path converted differently (an input_signature's dtype, a list
    where a TensorSpec stands), so such calls keep taking the full path."""
    if len(pattern_values) != len(graph_values):
        return False
    for a, b in zip(pattern_values, graph_values):
        if a is b:
            continue
        if type(a) is not type(b) or isinstance(a, np.ndarray) or not isinstance(a, np.generic):
            return False
        if not (a == b or (a != a and b != b)):
            return False
    return True
