"""strategy.run called while a tf.function traces: TF's usual pattern (`@tf.function def distributed_step(x):
return strategy.reduce(..., strategy.run(step, args=(x,)))`) with several thread replicas.

The replicas cannot be traced into the caller's graph: each is a thread of its own that must meet the others
at the all-reduce when the step RUNS, not when it is traced. So the traced graph gets one node (a
py_function) that, each time the graph runs, runs the replicas as strategy.run does eagerly, each calling the
step as a tf.function of its own (traced once, shared by the replicas), and returns their results. The node's
outputs (dtypes, shapes) come from tracing replica 0's call in a graph of its own."""

from __future__ import annotations

from tinytf.runtime import nest

from . import context
from .values import regroup, select_replica


def _is_tensor(value) -> bool:
    return hasattr(value, "dtype") and hasattr(value, "shape") and not isinstance(value, type)


def run_in_trace(strategy, fn, args, kwargs):
    from tinytf.function import Function, function
    from tinytf.runtime.ops.py_function import py_function
    from tinytf.scopes import init_scope
    from tinytf.tensor_spec import TensorSpec

    n = strategy.num_replicas_in_sync
    step = fn if isinstance(fn, Function) else strategy._traced_steps.get(id(fn), (None, None))[1]
    if step is None or (not isinstance(fn, Function) and strategy._traced_steps[id(fn)][0] is not fn):
        step = function(fn)
        strategy._traced_steps[id(fn)] = (fn, step)
    per_replica = [select_replica(i, (args, kwargs)) for i in range(n)]
    flats = [nest.flatten(structure) for structure in per_replica]
    tensor_positions = [k for k, leaf in enumerate(flats[0]) if _is_tensor(leaf)]

    specs = [TensorSpec(leaf.shape, leaf.dtype) if _is_tensor(leaf) else leaf for leaf in flats[0]]
    spec_args, spec_kwargs = nest.pack_sequence_as(per_replica[0], specs)
    with init_scope():  # replica 0's call traced in a graph of its own, for the outputs' structure
        context.push(strategy, context.ReplicaContext(strategy, 0))
        try:
            outputs = step.get_concrete_function(*spec_args, **spec_kwargs).structured_outputs
        finally:
            context.pop()
    out_leaves = nest.flatten(outputs)
    out_positions = [k for k, leaf in enumerate(out_leaves) if _is_tensor(leaf)]
    out_dtypes = [out_leaves[k].dtype for k in out_positions]

    def run_replicas(*values):
        values = list(values)
        calls = []
        for i in range(n):
            flat = list(flats[i])
            for position, value in zip(tensor_positions, values[i * len(tensor_positions):]):
                flat[position] = value
            replica_args, replica_kwargs = nest.pack_sequence_as(per_replica[i], flat)
            calls.append(lambda a=replica_args, k=replica_kwargs: step(*a, **k))
        results = strategy._run_in_threads(calls)
        flat_results = []
        for result in results:
            leaves = nest.flatten(result)
            flat_results += [leaves[k] for k in out_positions]
        return flat_results

    inputs = [flats[i][k] for i in range(n) for k in tensor_positions]
    produced = []
    if out_dtypes:
        produced = py_function(run_replicas, inputs, Tout=out_dtypes * n)
    else:  # a step without outputs (it only assigns variables) is still a node: stateful, so the graph keeps it
        py_function(run_replicas, inputs, Tout=[])
    results = []
    for i in range(n):
        leaves = list(out_leaves)
        for j, position in enumerate(out_positions):
            tensor = produced[i * len(out_positions) + j]
            tensor.set_shape(out_leaves[position].shape)
            leaves[position] = tensor
        results.append(nest.pack_sequence_as(outputs, leaves))
    return regroup(results)
