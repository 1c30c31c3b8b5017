"""The variables layers own: tf.Variables that also carry Keras 3's short `name` ("kernel"), `path`
("dense/kernel"), regularizer and constraint, so GradientTape, tf.function and the optimizers see ordinary
variables. Like Keras 3's variables they autocast: inside a mixed-precision layer's call (an AutocastScope,
keras/mixed_precision/autocast_scope.py) a float weight reads, and reports its dtype, as the compute dtype,
while it is kept, assigned and updated in its own dtype."""

from __future__ import annotations

from tinytf.runtime import dtypes
from tinytf.runtime.context import executing_eagerly
from tinytf.runtime.tensor import Tensor
from tinytf.variables import Variable

from .mixed_precision import autocast_scope
from .stateless_scope import _active as _stateless


def _in_own_dtype(method):
    """Run a Variable method with autocast off, so its reads, attrs and conversions use the kept dtype."""
    def run(self, *args, **kwargs):
        if autocast_scope.get_autocast_scope() is None:
            return method(self, *args, **kwargs)
        with autocast_scope.AutocastScope(None):
            return method(self, *args, **kwargs)

    run.__name__, run.__doc__ = method.__name__, method.__doc__
    return run


class KerasVariable(Variable):
    """A layer weight: a tf.Variable named like Keras 3 names it."""

    _is_keras_variable = True  # what a StatelessScope's state_mapping accepts (stateless_scope.py)
    _assign_add_combines_values = True  # under MirroredStrategy: Keras 3's assign_add (mirrored_variable.py)

    def __init__(self, initial_value, *, name: str, path: str, trainable=True, dtype=None, regularizer=None,
                 constraint=None, shape=None, aggregation="none", autocast: bool = True):
        self._autocast = bool(autocast)
        super().__init__(initial_value, trainable=trainable, name=name, dtype=dtype, constraint=constraint,
                         shape=shape, aggregation=aggregation)
        self._keras_aggregation = aggregation
        self._short_name = name
        self.path = path
        self.regularizer = regularizer

    # --- autocasting ---------------------------------------------------------------------------------------------
    @property
    def dtype(self):
        """The kept dtype, or inside an autocast scope (a mixed layer's call) the compute dtype of a float weight."""
        own = self._own_dtype
        target = autocast_scope.current_dtype()
        if target is not None and self._autocast and own.is_floating:
            return dtypes.as_dtype(target)
        return own

    @dtype.setter
    def dtype(self, value):
        self._own_dtype = value

    def _autocast_read(self, tensor):
        scope = autocast_scope.get_autocast_scope()
        return scope.maybe_cast(tensor) if scope is not None and self._autocast else tensor

    def read_value(self):
        if _stateless["stateless"] is not None:
            mapped = _stateless["stateless"].get_current_value(self)
            if mapped is not None:  # a StatelessScope's value (stateless_scope.py)
                return self._autocast_read(mapped)
        if autocast_scope.get_autocast_scope() is None:
            return super().read_value()
        return self._autocast_read(_in_own_dtype(Variable.read_value)(self))

    value = read_value

    def _to_tensor(self):
        if _stateless["stateless"] is not None:
            mapped = _stateless["stateless"].get_current_value(self)
            if mapped is not None:
                return self._autocast_read(mapped)
        if autocast_scope.get_autocast_scope() is None:
            return super()._to_tensor()
        return self._autocast_read(_in_own_dtype(Variable._to_tensor)(self))

    def _assign_in_scope(self, scope, value):
        """Keras 3 in a StatelessScope: the value is checked and recorded in the scope; the variable keeps its own."""
        import tinytf as _tf

        value = self._to_own_dtype(value)
        value = _tf.convert_to_tensor(value, self._own_dtype) if not isinstance(value, Tensor) else value
        if value.dtype is not self._own_dtype:
            value = _tf.cast(value, self._own_dtype)
        if tuple(value.shape.as_list()) != tuple(self.shape.as_list()):
            raise ValueError("The shape of the target variable and the shape of the target value in "
                             f"`variable.assign(value)` must match. variable.shape={tuple(self.shape.as_list())}, "
                             f"Received: value.shape={tuple(value.shape.as_list())}. Target variable: {self}")
        scope.add_update((self, value))
        return value

    def numpy(self):
        if _stateless["stateless"] is not None:
            mapped = _stateless["stateless"].get_current_value(self)
            if mapped is not None:
                return mapped.numpy()
        return super().numpy()

    def _to_own_dtype(self, value):
        """Keras 3 assigns a value of another float dtype (a float16 update of a mixed layer) cast to its own."""
        if isinstance(value, Variable):
            value = value.read_value()
        if isinstance(value, Tensor) and value.dtype is not self._own_dtype and value.dtype.is_floating \
                and self._own_dtype.is_floating:
            import tinytf as _tf

            value = _tf.cast(value, self._own_dtype)
        return value

    @_in_own_dtype
    def assign(self, value, use_locking=False, name=None, read_value=True):
        if _stateless["stateless"] is not None:
            return self._assign_in_scope(_stateless["stateless"], value)
        return super().assign(self._to_own_dtype(value), use_locking, name, read_value)

    @_in_own_dtype
    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        return super().assign_add(self._to_own_dtype(delta), use_locking, name, read_value)

    @_in_own_dtype
    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        return super().assign_sub(self._to_own_dtype(delta), use_locking, name, read_value)

    # --- Keras' names ----------------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._short_name

    @property
    def aggregation(self) -> str:
        """Keras 3's name of it ("none", "sum", "mean", "only_first_replica"); a strategy follows it."""
        return getattr(self, "_keras_aggregation", "none")

    @property
    def synchronization(self) -> str:
        return "auto"  # Keras 3's default (on write): add_weight takes no other

    def __repr__(self):
        # Keras 3's form; the value only where it can be read (not while a tf.function is being traced)
        value = f", value={self.numpy()}" if executing_eagerly() else ""
        return f"<Variable path={self.path}, shape={tuple(self.shape.as_list())}, dtype={self._own_dtype.name}{value}>"
