"""The backward walk shared by GradientTape, tf.gradients and the gradients of control flow: given the
records of the ops that ran (in order), seed the targets' gradients and apply each op's registered rule
in reverse, summing the gradients of values used more than once."""

from __future__ import annotations

from ..errors import at_user_line
from ..ops.array import zeros_like
from ..ops.gradient_list import add_lists
from ..ops.indexed_rows import PASS_THROUGH, densify, is_sparse
from ..ops.indexed_rows import add as add_sparse
from ..ops.math import add
from ..ops.tensor_array import VARIANT
from .holomorphic import conjugated, needs_conjugation


def is_differentiable_value(value) -> bool:
    """Gradients flow only through floating-point and complex tensors (and into variables of a float dtype), and
    through TensorArray handles (whose gradient is a list of element gradients)."""
    dtype = getattr(value, "dtype", None)
    return dtype is not None and (dtype.is_inexact or dtype is VARIANT)


def reachable(records, source_ids, stop_ids=frozenset()):
    """The records that depend on a source (in order) and the ids of every value that does."""
    reach = set(source_ids)
    relevant = []
    for record in records:
        if not getattr(record.op, "differentiable", True):
            continue
        for x in record.inputs:
            if id(x) in reach:
                break
        else:
            continue
        relevant.append(record)
        for out in record.outputs:
            if is_differentiable_value(out) and id(out) not in stop_ids:
                reach.add(id(out))
    return relevant, reach


def accumulate(grads: dict, key: int, grad) -> None:
    """Sum the gradients of a value that feeds several ops."""
    previous = grads.get(key)
    grads[key] = grad if previous is None else add_gradients(previous, grad)


def add_gradients(a, b):
    """a + b for tensor gradients (sparse rows concatenate, see ops/indexed_rows); the elementwise sum for
    TensorArray gradients."""
    if is_sparse(a) or is_sparse(b):
        return add_sparse(a, b)
    if a.dtype is VARIANT:
        return add_lists(a, b)
    return add(a, b)


def backward(records, targets, seeds, sources, stop_ids=frozenset(), keep_sparse=False) -> list:
    """Gradients of sum(targets[i] * seeds[i]) with respect to each source (None where unconnected).

    records: op applications in the order they ran; targets, seeds: parallel lists of tensors; sources:
    tensors or variables, identified by object identity (as the records' inputs are). With keep_sparse, a
    source's gradient may be IndexedRows (TF's IndexedSlices, e.g. of a gathered variable); else all are dense."""
    source_ids = [id(s) for s in sources]
    relevant, reach = reachable(records, source_ids, stop_ids)
    grads: dict = {}
    for target, seed in zip(targets, seeds):
        if id(target) in reach and seed is not None:
            accumulate(grads, id(target), seed)
    wanted = set(source_ids)
    for record in reversed(relevant):
        # a stopped value (tf.gradients' stop_gradients) passes nothing back, even when it is a source itself
        out_grads = [None if id(o) in stop_ids else grads.get(id(o)) if id(o) in wanted else grads.pop(id(o), None)
                     for o in record.outputs]
        if all(g is None for g in out_grads):
            continue
        record.needed = tuple(id(x) in reach for x in record.inputs)
        if record.op not in PASS_THROUGH:
            out_grads = [densify(g) for g in out_grads]
        in_grads = apply_rule(record, out_grads)
        for x, g in zip(record.inputs, in_grads):
            if g is not None and id(x) in reach:
                accumulate(grads, id(x), g)
    found = [grads.get(key) for key in source_ids]
    return found if keep_sparse else [densify(g) for g in found]


def apply_rule(record, out_grads) -> tuple:
    """Run the op's gradient rule: one gradient (or None) per input."""
    rule = record.op.grad
    if rule is None:
        raise LookupError(at_user_line(
            f"gradient registry has no entry for: {record.op.name}. No gradient is defined for the op "
            f"'{record.op.name}', which lies on the path from the sources to the target; wrap its input in "
            "tf.stop_gradient if no gradient should flow through it"))
    if len(out_grads) > 1 and any(g is None for g in out_grads):
        out_grads = [zeros_like(o) if g is None and o.dtype.is_inexact else g
                     for o, g in zip(record.outputs, out_grads)]
    if needs_conjugation(record):  # complex values: TF's convention from the real-number rule
        record = conjugated(record)
    result = rule(record, *out_grads)
    if not isinstance(result, (tuple, list)):
        result = (result,)
    if len(result) != len(record.inputs):
        raise ValueError(f"the gradient rule of {record.op.name} returned {len(result)} gradients for "
                         f"{len(record.inputs)} inputs")
    return result
