"""tf.RegisterGradient and tf.no_gradient (tf.compat.v1.NotDifferentiable / NoGradient): gradients registered by
TF op type name. tinytf keeps its gradient rules on the op objects (`@gradient(op)` in runtime/ops/*_grad.py);
these register a rule for every tinytf op whose TensorFlow type is the name given (the GraphDef table's name, or
the op's name in TF's CamelCase: `Unique` for tinytf's `unique`), so GradientTape and tf.gradients use it,
eagerly and in graphs. As in TF, a type that already has a gradient (one of tinytf's rules, or an earlier
registration) cannot be registered again: KeyError. A name no tinytf op has is kept, as TF keeps it."""

from __future__ import annotations

import inspect

from tinytf.runtime import registry
from tinytf.runtime.ops.array import zeros_like

_REGISTERED: dict = {}  # TF op type -> where it was registered (for the KeyError of a second registration)
_BEFORE: dict = {}  # TF op type -> the (op, grad, differentiable) it replaced, for tests to undo a registration


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in name.split("_"))


def ops_of_type(op_type: str) -> list:
    """The registered tinytf ops whose TF type is `op_type`."""
    from .graph_def.node_names import tf_type
    from .graph_def.rules_more import TF_NAMES

    found = []
    for name, op in registry.OPS.items():
        exported = TF_NAMES.get(name)
        if op_type in (tf_type(op), _camel(name), exported if isinstance(exported, str) else None):
            found.append(op)
    return found


class OpView:
    """What a registered gradient function receives as `op` (TF's mock op in eager mode, an Operation in graphs):
    the op's `type`, `inputs`, `outputs` and attributes (`get_attr`, by tinytf's attribute names; "T" is the
    dtype of the first input, as most TF ops name it)."""

    __slots__ = ("type", "inputs", "outputs", "_attrs")

    def __init__(self, op_type: str, record):
        self.type = op_type
        self.inputs = list(record.inputs)
        self.outputs = list(record.outputs)
        self._attrs = record.attrs

    def get_attr(self, name: str):
        if name in self._attrs:
            return self._attrs[name]
        if name == "T" and self.inputs:
            return self.inputs[0].dtype
        raise ValueError(f"Operation of type {self.type!r} has no attr named {name!r}.")

    def __repr__(self):
        return f"<gradient op view type={self.type}>"


def _rule_calling(op_type: str, fn):
    def rule(record, *out_grads):
        # TF hands the function a gradient for every output: zeros where nothing flowed back
        grads = [zeros_like(o) if g is None else g for o, g in zip(record.outputs, out_grads)]
        result = fn(OpView(op_type, record), *grads)
        return tuple(result) if isinstance(result, (list, tuple)) else (result,)

    return rule


def _register(op_type, fn, caller) -> None:
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    if op_type in _REGISTERED:
        raise KeyError(f"Registering two gradient with name '{op_type}'! (Previous registration was in "
                       f"{_REGISTERED[op_type]})")
    ops = ops_of_type(op_type)
    built_in = [op.name for op in ops if op.grad is not None]
    if built_in:
        raise KeyError(f"Registering two gradient with name '{op_type}'! (Previous registration was in tinytf's "
                       f"gradient rule of op '{built_in[0]}')")
    _REGISTERED[op_type] = caller
    _BEFORE[op_type] = [(op, op.grad, op.differentiable) for op in ops]
    for op in ops:
        if fn is None:  # no gradient flows through it: the tape records nothing, the gradient is None
            op.differentiable = False
        else:
            op.grad = _rule_calling(op_type, fn)
            op.differentiable = True


def _unregister(op_type: str) -> None:
    """Undo a registration (TF has no way to; tests use it so that one test's gradient does not leak into the
    next)."""
    _REGISTERED.pop(op_type, None)
    for op, grad, differentiable in _BEFORE.pop(op_type, []):
        op.grad, op.differentiable = grad, differentiable


def _caller() -> str:
    frame = inspect.stack()[2]
    return f"{frame.function} {frame.filename}:{frame.lineno}"


class RegisterGradient:
    """A decorator registering `f(op, *grads) -> gradients of op's inputs` as the gradient of op type `op_type`:
    `@tf.RegisterGradient("Unique")`."""

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        _register(self._op_type, f, _caller())
        return f


def no_gradient(op_type) -> None:
    """Declare that ops of type `op_type` have no gradient: GradientTape gives None through them (rather than
    raising LookupError)."""
    _register(op_type, None, _caller())
