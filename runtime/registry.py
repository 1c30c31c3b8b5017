"""The op registry: every op is declared once, here, with everything every interpreter needs."""

from __future__ import annotations

from typing import Callable, Optional

from .dtypes import DType

OPS: dict = {}


class OpDef:
    """One op: its numpy kernel, its shape/dtype inference, and how each interpreter treats it.

    kernel(*input_values, **attrs) -> one value, a tuple of values (several outputs) or None (no output).
    infer(*input_tensors, **attrs) -> (dtype, shape) or a list of them; raises ValueError/TypeError with a
        message naming the problem (the dispatcher adds the op name, the inputs and the user's line).
    grad(op_call, *output_grads) -> one gradient per input (None where there is none); filled by the
        gradient module of the op's family. `differentiable=False` declares that no gradient flows.
    typed_attrs: attributes that only repeat the output's dtype/shape, which printed graphs leave out (a cast's
        dtype is its meaning, so cast declares none).
    calls_python: the kernel calls the user's Python function (py_function): eagerly it runs under the user's
        numpy error state, not under tinytf's (see numpy_errors.py).
    render: optional Python expression template for the code generator, e.g. "{0} + {1}"; attrs by name.
        It may also be a function of the node returning the template (or None: call the kernel), for ops
        whose best code depends on the node (x[key], integer division by a known non-zero).
    """

    __slots__ = ("name", "kernel", "infer", "stateful", "grad", "differentiable", "render",
                 "elementwise", "emit", "foldable", "doc", "typed_attrs", "calls_python", "__weakref__")

    def __init__(self, name: str, kernel: Callable, infer: Callable, *, stateful: bool = False,
                 differentiable: bool = True, render: Optional[str | Callable] = None, elementwise: bool = False,
                 emit: Optional[Callable] = None, foldable: bool = True, doc: str = "",
                 typed_attrs: tuple = ("dtype", "shape"), calls_python: bool = False):
        self.name = name
        self.kernel = kernel
        self.infer = infer
        self.stateful = stateful
        self.grad = None
        self.differentiable = differentiable
        self.render = render
        self.elementwise = elementwise
        self.emit = emit  # custom code generator (control flow); None means render/kernel call
        self.foldable = foldable and not stateful
        self.doc = doc
        self.typed_attrs = typed_attrs
        self.calls_python = calls_python

    def infer_outputs(self, inputs, attrs) -> list:
        """Run inference and normalize the result to a list of (dtype, shape)."""
        result = self.infer(*inputs, **attrs)
        if result is None:
            return []
        if isinstance(result, tuple) and len(result) == 2 and isinstance(result[0], DType):
            return [result]
        return list(result)

    def __repr__(self):
        return f"<op {self.name}>"


def register(opdef: OpDef) -> OpDef:
    if opdef.name in OPS:
        raise ValueError(f"op {opdef.name!r} is registered twice")
    OPS[opdef.name] = opdef
    return opdef


def get(name: str) -> OpDef:
    try:
        return OPS[name]
    except KeyError:
        raise KeyError(f"no op named {name!r} is registered") from None


def gradient(op: OpDef):
    """Decorator that attaches a gradient rule to a registered op: `@gradient(add_op)`."""
    def attach(rule):
        op.grad = rule
        return rule

    return attach


def wants(record, index: int) -> bool:
    """Whether the backward walk needs the gradient of input `index` of the op call `record` (the walk marks
    which inputs lead to a source; rules may skip the others' work)."""
    needed = record.needed
    return needed is None or needed[index]
