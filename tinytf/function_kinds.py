"""tf.types.experimental's function types and distributed value types: abstract classes that tinytf's own
objects are registered under, so `isinstance(f, tf.types.experimental.GenericFunction)` and friends answer as in
TF 2.21 (where tf.function's classes subclass them).
AtomicFunction is the type of `concrete_function.inference_fn` (tinytf/atomic_function.py)."""

from __future__ import annotations

import abc
import inspect
import typing

import numpy as np


class Callable(abc.ABC):
    """Base of the callable TF function types: has a `function_type` and is called like a Python function."""

    @property
    @abc.abstractmethod
    def function_type(self):
        """The FunctionType of the callable."""

    def __call__(self, *args, **kwargs):
        raise NotImplementedError


class ConcreteFunction(Callable):
    """A function traced for one input signature (what get_concrete_function returns)."""


class AtomicFunction(Callable):
    """One traced graph called with flat tensors (a ConcreteFunction's inference_fn)."""


class PolymorphicFunction(Callable):
    """A function that traces a ConcreteFunction per input signature (what tf.function returns)."""


GenericFunction = PolymorphicFunction  # TF 2.21 keeps the old name as an alias of the same class


class FunctionType(inspect.Signature, metaclass=abc.ABCMeta):
    """The signature of a traced function: parameters annotated with their traced types."""


class Mirrored(abc.ABC):  # noqa: B024 - a marker type: TF checks membership with isinstance only
    """A distributed value with the same content on every replica (a MirroredVariable)."""


class PerReplica(abc.ABC):  # noqa: B024 - a marker type, as Mirrored
    """A distributed value with one content per replica (what strategy.run returns)."""


def register(concrete_function, function, function_type, mirrored=(), per_replica=(), atomic=None) -> None:
    ConcreteFunction.register(concrete_function)
    if atomic is not None:
        AtomicFunction.register(atomic)
    PolymorphicFunction.register(function)
    FunctionType.register(function_type)
    for cls in mirrored:
        Mirrored.register(cls)
    for cls in per_replica:
        PerReplica.register(cls)


@typing.runtime_checkable
class TensorProtocol(typing.Protocol):
    """An object that converts itself to a tensor (TF's __tf_tensor__ protocol)."""

    def __tf_tensor__(self, dtype=None, name=None):
        ...


def tensor_like(tensor):
    """TF's TensorLike: the Union of what convert_to_tensor takes, for annotations."""
    return typing.Union[tensor, TensorProtocol, int, float, bool, str, bytes, complex, tuple, list, np.ndarray,
                        np.generic]


def distributed_namespace():
    """tf.types.experimental.distributed: the Mirrored and PerReplica types."""
    import types as _py_types
    return _py_types.SimpleNamespace(Mirrored=Mirrored, PerReplica=PerReplica)
