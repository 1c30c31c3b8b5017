"""tf.Variable: mutable state that graphs capture by reference (a later assign is seen by the next call)."""

from __future__ import annotations

import re
import weakref

import numpy as np

from tinytf.runtime import dtypes, numpy_errors, shapes
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import apply, convert_to_tensor, to_numpy
from tinytf.runtime.errors import at_user_line
from tinytf.runtime.graph import SymbolicTensor
from tinytf.runtime.naming import CONVERTED
from tinytf.runtime.ops.array import expand_dims
from tinytf.runtime.ops.core import placeholder_op
from tinytf.runtime.ops.operators import TensorEquality, _Ref
from tinytf.runtime.ops.scatter import slice_assign, tensor_scatter_nd
from tinytf.runtime.ops.state import assign_variable_op, read_variable_op
from tinytf.runtime.resource import Resource
from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import EagerTensor, Tensor

from . import variable_creator
from .scopes import current_name_scope, init_scope


class VariableAggregation:
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


class VariableSynchronization:
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


# Called with the class of each Variable being made; returns the class to make (tf.distribute adds one).
creation_class_hooks: list = []

_AGGREGATIONS = {"none": 0, "sum": 1, "mean": 2, "only_first_replica": 3}


def _aggregation(aggregation) -> int:
    """tf.VariableAggregation (or Keras' name of one, "mean"), checked; None is NONE."""
    if aggregation is None:
        return VariableAggregation.NONE
    value = _AGGREGATIONS.get(aggregation.lower()) if isinstance(aggregation, str) else aggregation
    if value not in (0, 1, 2, 3) or isinstance(value, bool):
        raise ValueError(f"Invalid variable aggregation mode: {aggregation} for variable")
    return int(value)


class Variable(Resource):
    """A mutable tensor. Assignments replace the value (never in place), so earlier reads keep theirs.
    `tf.Variable(...)` makes a ResourceVariable, the class name TF programs print."""

    def __new__(cls, *args, **kwargs):
        if variable_creator.active():  # tf.variable_creator_scope: the creators make it
            made = variable_creator.create(cls, args, kwargs)
            if isinstance(made, cls):  # Python calls __init__ on it next: it is already made
                made.__dict__["_made_by_creator"] = True
            return made
        cls = ResourceVariable if cls is Variable else cls
        for hook in creation_class_hooks:  # tf.distribute: MirroredStrategy's scope makes MirroredVariables
            cls = hook(cls)
        return super().__new__(cls)

    def __init__(self, initial_value=None, trainable=True, validate_shape=True, caching_device=None,
                 name=None, variable_def=None, dtype=None, import_scope=None, constraint=None,
                 synchronization=None, aggregation=None, shape=None):
        if self.__dict__.pop("_made_by_creator", False):
            return
        if initial_value is None:
            raise ValueError("tf.Variable needs an initial_value")
        for hook in list(state.variable_hooks):  # tf.function: creation on the first trace only
            hook(self)
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
        graph = state.graph
        start = getattr(graph, "start_variable", None)  # a TF1 graph: the initial value is one of its tensors
        symbolic = None if start is None else start(self, initial_value, dtype, name)
        if symbolic is not None:
            array, self.dtype = _graph_initial_array(symbolic, dtype)
            if shape is None:
                shape = symbolic._shape
        else:
            with init_scope():
                if callable(initial_value):
                    initial_value = initial_value()
                array, self.dtype = _initial_array(initial_value, dtype)
        self._array = array
        self._shape = np.shape(array) if shape is None else shapes.as_shape(shape)
        if not validate_shape:
            self._shape = None
        if not shapes.is_subshape(np.shape(array), self._shape):
            raise ValueError(f"tf.Variable: the initial value of shape {np.shape(array)} does not fit shape "
                             f"{shapes.fmt(self._shape)}")
        self.trainable = bool(trainable)
        self.constraint = constraint
        self._aggregation = _aggregation(aggregation)
        base = name or "Variable"
        scope = current_name_scope()
        self._name = f"{scope}{base}:0" if not base.endswith(":0") else f"{scope}{base}"
        self._graph_name = _identifier(base)
        if symbolic is not None:
            graph.finish_variable(self, symbolic)  # its initializer and read, and TF's name for it

    # --- the TF Variable API ----------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._shape)

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def ndim(self):
        return None if self._shape is None else len(self._shape)

    @property
    def aggregation(self):
        """How a distribution strategy combines the replicas' assignments (VariableAggregation)."""
        return self._aggregation

    @property
    def device(self) -> str:
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    def read_value(self):
        return apply(read_variable_op, (self,), {"dtype": self.dtype, "shape": self._shape})

    value = read_value

    def _to_tensor(self):
        # converted for an op's input: in a graph, the op names the read (`MatMul/ReadVariableOp`, as TF)
        return apply(read_variable_op, (self,), {"dtype": self.dtype, "shape": self._shape}, CONVERTED)

    def numpy(self):
        if state.graph is not None:
            raise NotImplementedError("Variable.numpy() is not available while tracing a tf.function: "
                                      "use the variable as a tensor, or tf.print it")
        value = self._array
        return value.copy() if isinstance(value, np.ndarray) else value

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Replace the value. Dtype and shape are checked first, so a bad value leaves the variable as it was."""
        if not isinstance(value, Tensor):
            if isinstance(value, Variable):
                value = value.read_value()
            else:
                try:
                    value = convert_to_tensor(value, self.dtype)
                except TypeError as e:
                    raise TypeError(at_user_line(f"assign to variable {self.name!r}: {e}")) from None
        if not shapes.compatible(value._shape, self._shape):
            raise ValueError(at_user_line(
                f"Cannot assign value to variable ' {self.name}': Shape mismatch.The variable shape "
                f"{shapes.fmt(self._shape)}, and the assigned value shape {shapes.fmt(value._shape)} are "
                "incompatible."))
        apply(assign_variable_op, (self, value), {"dtype": self.dtype, "shape": self._shape})
        return _UnreadVariable.of(self) if state.graph is None else self

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        return self.assign(self.read_value() + _as_operand(delta, self.dtype))

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        return self.assign(self.read_value() - _as_operand(delta, self.dtype))

    # --- scatter and sliced assignment (values are swapped in whole, never changed in place) ------------
    def _scatter(self, mode, indices, updates):
        return self.assign(tensor_scatter_nd(mode, self.read_value(), indices, _as_operand(updates, self.dtype)))

    def scatter_nd_update(self, indices, updates, name=None):
        """Replace the elements (or slices) at `indices` with `updates`."""
        return self._scatter("update", indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter("add", indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter("sub", indices, updates)

    def _scatter_rows(self, mode, sparse_delta):
        if not hasattr(sparse_delta, "indices") or not hasattr(sparse_delta, "values"):
            raise TypeError(at_user_line(f"sparse_delta must be a tf.IndexedSlices, got {type(sparse_delta).__name__}"))
        return self._scatter(mode, expand_dims(convert_to_tensor(sparse_delta.indices), -1), sparse_delta.values)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Replace rows: self[sparse_delta.indices[i]] = sparse_delta.values[i]."""
        return self._scatter_rows("update", sparse_delta)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("add", sparse_delta)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("sub", sparse_delta)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("max", sparse_delta)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("min", sparse_delta)

    def ref(self):
        return _Ref(self)

    experimental_ref = ref

    def __hash__(self):
        if not TensorEquality.enabled:  # TF1's behaviour (disable_tensor_equality): hashed by identity
            return id(self)
        raise TypeError(f"Variable is unhashable. Instead, use variable.ref() as the key. (Variable: {self!r})")

    def __eq__(self, other):
        if not TensorEquality.enabled:
            return self is other
        if other is None:
            return False
        return self.read_value() == other

    def __ne__(self, other):
        if not TensorEquality.enabled:
            return self is not other
        if other is None:
            return True
        return self.read_value() != other

    def __array__(self, dtype=None, copy=None):
        value = np.asarray(self._array)
        return value if dtype is None else value.astype(dtype, copy=False)

    def __bool__(self):
        return bool(self.read_value())

    def __len__(self):
        return len(self.read_value())

    def __iter__(self):
        return iter(self.read_value())

    def __getitem__(self, key):
        """`v[key]` is the read slice; it also remembers where it came from, so `v[key].assign(x)` works as in TF."""
        sliced = self.read_value()[key]
        _remember_slice(sliced, self, key)
        return sliced

    def __index__(self):
        return int(self._array)

    def __int__(self):
        return int(self._array)

    def __float__(self):
        return float(self._array)

    def __format__(self, spec):
        return format(self.read_value(), spec)

    def __repr__(self):
        if state.graph is not None:
            return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}>"
        value = self._array
        if not isinstance(value, (np.ndarray, np.generic, int, float, bool, complex, bytes, str)):
            # no value yet (UNSET: a wrapped function's variable imported from a MetaGraph, not yet restored)
            return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, numpy=<uninitialized>>"
        # a scalar shows its exact Python value, as TF does: numpy=0.10000000149011612 for float32 0.1
        text = np.array_repr(value) if isinstance(value, np.ndarray) and value.ndim else repr(np.asarray(value).item())
        sep = "\n" if "\n" in text else ""  # a multi-line array starts on its own line, as TF prints it
        return f"<tf.Variable '{self.name}' shape={self.shape} dtype={self.dtype.name}, numpy={sep}{text}>"

    def __deepcopy__(self, memo):
        copy = Variable(self.numpy(), trainable=self.trainable, name=self._name.split(":")[0], dtype=self.dtype)
        memo[id(self)] = copy
        return copy


class ResourceVariable(Variable):
    """What `tf.Variable(...)` returns, as in TF (`type(v).__name__` is 'ResourceVariable')."""


class _UnreadVariable(Variable):
    """What an eager assign returns, as in TF: the same variable (its state is shared, and every read or write
    goes through the assigned variable, so tapes and graphs see that one), printed as 'UnreadVariable'."""

    __slots__ = ("_parent",)

    @classmethod
    def of(cls, variable):
        unread = object.__new__(cls)
        unread.__dict__ = variable.__dict__  # one state: attributes read and written are the variable's
        unread._parent = variable
        return unread

    def read_value(self):
        return self._parent.read_value()

    value = read_value

    def assign(self, value, use_locking=False, name=None, read_value=True):
        return self._parent.assign(value, use_locking, name, read_value)

    def __repr__(self):
        return self._parent.__repr__().replace(f"'{self.name}'", "'UnreadVariable'", 1)


# --- v[key].assign(...): TF puts `assign` on the sliced tensor; tinytf's tensors have slots, so a side table
# maps a live slice (by id, checked through a weak reference) to its variable and key.
_SLICES: dict = {}


def _remember_slice(sliced, variable, key):
    ident = id(sliced)
    _SLICES[ident] = (weakref.ref(sliced, lambda _, ident=ident: _SLICES.pop(ident, None)), variable, key)


def _slice_origin(tensor, method):
    entry = _SLICES.get(id(tensor))
    if entry is None or entry[0]() is not tensor:
        raise AttributeError(f"'{type(tensor).__name__}' object has no attribute '{method}' (only a slice of a "
                             "tf.Variable, like v[1:3], can be assigned to)")
    return entry[1], entry[2]


def _slice_assign(self, value, use_locking=None, name=None, read_value=True):
    variable, key = _slice_origin(self, "assign")
    return variable.assign(slice_assign(variable.read_value(), key, _as_operand(value, variable.dtype)))


Tensor.assign = _slice_assign  # only assign: TF's slices have no assign_add/assign_sub


def _as_operand(delta, dtype):
    if isinstance(delta, (Tensor, Variable)):
        return delta
    return convert_to_tensor(delta, dtype)


def _identifier(name: str) -> str:
    base = re.sub(r"\W", "_", name.split(":")[0]).strip("_") or "variable"
    return base if not base[0].isdigit() else f"v_{base}"


def _initial_array(value, dtype):
    """The initial value as a numpy value; a symbolic value is computed now when it depends on no input."""
    if isinstance(value, Variable):
        value = value.read_value()
    if isinstance(value, SymbolicTensor):
        value = EagerTensor(_evaluate_constant(value), value.dtype)
    if isinstance(value, EagerTensor):
        if dtype is not None and value.dtype is not dtype:
            raise TypeError(at_user_line(
                f"tf.Variable: initial value has dtype {value.dtype.name}, but dtype={dtype.name} was given"))
        return value._value, value.dtype
    return to_numpy(value, dtype)


def _graph_initial_array(tensor, dtype):
    """The value a TF1 graph's variable holds outside any session: its initial value when that depends on
    constants only, else zeros of its shape (sessions start it uninitialized either way, and its initializer
    computes the initial value in the session that runs it: fresh random numbers, fed placeholders)."""
    if dtype is not None and tensor.dtype is not dtype:
        raise TypeError(at_user_line(
            f"tf.Variable: initial value has dtype {tensor.dtype.name}, but dtype={dtype.name} was given"))
    try:
        return _evaluate_constant(tensor), tensor.dtype
    except ValueError:
        shape = () if tensor._shape is None else tuple(d or 0 for d in tensor._shape)
        return np.zeros(shape, tensor.dtype.np), tensor.dtype


def _evaluate_constant(tensor):
    """Run the nodes a symbolic tensor depends on, if they depend on constants only."""
    node = tensor.node
    if node.op is placeholder_op or node.op.stateful:
        raise ValueError(at_user_line(
            "tf.Variable: the initial value depends on a function argument or on state of the function being "
            "traced; create the variable outside tf.function, or pass a callable / constant initial value"))
    values = [_evaluate_constant(t) for t in node.inputs]
    result = numpy_errors.call(node.op.kernel, values, node.attrs)  # kernels run without numpy warnings
    return result[tensor.index] if len(node.outputs) > 1 else result


def _install_operators():
    """Variables behave like their value in expressions: `v * 2`, `-v`, `v @ m`, `v < 3`."""
    names = ["__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
             "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__matmul__",
             "__rmatmul__", "__lt__", "__le__", "__gt__", "__ge__", "__and__", "__rand__", "__or__", "__ror__",
             "__xor__", "__rxor__", "__neg__", "__abs__", "__invert__"]
    for method_name in names:
        tensor_method = getattr(Tensor, method_name)

        def method(self, *args, _m=tensor_method):
            return _m(self.read_value(), *(a.read_value() if isinstance(a, Variable) else a for a in args))

        method.__name__ = method_name
        setattr(Variable, method_name, method)


_install_operators()
