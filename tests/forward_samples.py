"""Sample inputs for the registry-wide forward test: every registered op is run by some sample here, or is
in SKIPPED with the reason it cannot run standalone.

Elementwise ops without attrs get their samples generated: every dtype their inference accepts (probed),
as scalars, as arrays that broadcast, and as arrays big enough for the fusion code generator's buffer form.
The other ops have SAMPLES: thunks that call the public API eagerly (the recorder keeps every op they run,
so one thunk may cover several ops)."""

from __future__ import annotations

import numpy as np

import tinytf as tf
from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply
from tinytf.runtime.registry import OPS
from tinytf.runtime.tensor import EagerTensor

# Ops that cannot run as one node fed by constants, each with its reason.
SKIPPED = {
    "placeholder": "the graph's inputs: every rendered check feeds one",
    "const": "a graph constant: every folding check compiles them",
    "fused": "made by the fusion pass: every elementwise op is checked as a one-step fused block",
    "cond": "holds subgraphs and is emitted as inline Python `if` (tests/test_control_flow_ops.py)",
    "while_loop": "holds subgraphs and is emitted as inline Python `while` (tests/test_control_flow_ops.py)",
    "assert": "stateful, no outputs: raises or not (tests/test_debugging.py runs it eagerly and in graphs)",
    "assign_variable": "stateful: writes a variable's buffer (tests/test_variables.py)",
    "read_variable": "stateful: reads a variable's buffer, its input is a resource handle (tests/test_variables.py)",
    "var_is_initialized": "stateful: asks whether a variable holds a value in the TF1 session running the graph "
                          "(tests/test_tf1_variable_checks.py)",
    "strided_slice_assign": "writes a variable's slice: its render and kernel are checked by tests/test_scatter.py",
    "dropout_keep": "stateful random stream (tests/test_random.py checks graph vs eager streams)",
    "random_shuffle": "stateful random stream (tests/test_random.py)",
    "random_standard_normal": "stateful random stream (tests/test_random.py)",
    "random_uniform": "stateful random stream (tests/test_random.py)",
    "random_uniform_int": "stateful random stream (tests/test_random.py)",
    "truncated_normal": "stateful random stream (tests/test_random.py)",
    # tf.random's gamma, poisson and categorical: stateful streams, checked against TF in
    # tests/conformance/random_distributions.py and tests/test_random_distributions.py
    **{name: "stateful random stream (tests/test_random_distributions.py)"
       for name in ("random_gamma", "random_poisson", "multinomial")},
    "print": "stateful I/O to a stream (tests/test_eager.py, docs)",
    "python_print": "stateful I/O to a stream (tests/test_autograph.py)",
    "write_summary": "stateful I/O to a summary file (tests/test_summary.py)",
    "merge_call": "stateful cross-replica rendezvous: its callback waits for the other replicas "
                  "(tests/test_distribute.py runs it eagerly and in graphs)",
    "read_file": "stateful I/O: reads a file when run (tests/test_data_files.py)",
    "write_file": "stateful I/O: writes a file when run (tests/test_data_files.py)",
    "py_function": "calls back into Python; its hidden output is the tape of that call (tests/test_py_function.py)",
    "py_function_grad": "reads the tape a py_function call kept (tests/test_py_function.py)",
    "no_op": "stateful, no inputs and no outputs: an ordering anchor",
    "lookup_table_find": "stateful: reads a lookup table, its input is a resource (tests/test_lookup.py)",
    "lookup_table_insert": "stateful: writes a lookup table (tests/test_lookup.py)",
    "lookup_table_remove": "stateful: writes a lookup table (tests/test_lookup.py)",
    "lookup_table_size": "stateful: reads a lookup table (tests/test_lookup.py)",
    "lookup_table_export": "stateful: reads a lookup table (tests/test_lookup.py)",
    "lookup_table_import": "stateful: replaces a lookup table's contents (tests/test_lookup.py)",
    "iterator_new": "stateful: a tf.data iterator over a Python source (tests/test_data_*.py)",
    "iterator_get_next": "stateful: advances a tf.data iterator (tests/test_data_*.py)",
    "iterator_get_next_optional": "stateful: advances a tf.data iterator (tests/test_data_*.py)",
    "iterator_has_next": "stateful: peeks a tf.data iterator (tests/test_data_*.py)",
    "dataset_bind": "makes a tf.data dataset of graph tensors for another tf.function (tests/test_data_graph.py)",
    "dataset_cardinality": "the cardinality of a tf.data dataset of graph tensors (tests/test_data_graph_args.py)",
    "gradient_stack": "a mutable list made by while_loop's gradient (tests/test_gradients_second_order_loops.py)",
    "gradient_stack_push": "mutates a gradient stack (tests/test_gradients_second_order_loops.py)",
    "gradient_stack_read": "reads a gradient stack (tests/test_gradients_second_order_loops.py)",
    "gradient_stack_take": "made by the stack_release pass only (tests/test_stack_release.py)",
    "gradient_slab_stack": "made by the loop_saved_slabs pass only (tests/test_loop_saved_slabs.py)",
    "gradient_slab_push": "made by the loop_saved_slabs pass only (tests/test_loop_saved_slabs.py)",
    "loop_accumulator": "made by the loop_accumulation pass only (tests/test_loop_accumulation.py)",
    "accumulate_matmul": "made by the loop_accumulation pass only (tests/test_loop_accumulation.py)",
    "accumulate_sum": "made by the loop_accumulation pass only (tests/test_loop_accumulation.py)",
    "accumulated_matmul": "made by the loop_accumulation pass only (tests/test_loop_accumulation.py)",
    "accumulated_sum": "made by the loop_accumulation pass only (tests/test_loop_accumulation.py)",
    "loop_projection": "made by the recurrent_projection pass only (tests/test_loop_projection.py)",
    "project_step": "made by the recurrent_projection pass only (tests/test_loop_projection.py)",
    "tensor_array_sum": "made by the simplification pass only (tests/test_stacked_reductions.py)",
    "gradient_list_fill": "made by the simplification pass only (tests/test_stacked_reductions.py)",
    **{f"gradient_list_{name}": "mutates a list made by TensorArray gradients (tests/test_gradients_control_flow.py)"
       for name in ("add", "read", "set", "clear", "unstack", "stack", "scatter", "gather", "split", "concat")},
    **{f"tensor_list_{name}": "a TensorList value (a list of arrays), not an array: tests/test_tensor_list.py checks "
       "each op eagerly, in graphs with passes on and off, and its gradient against finite differences"
       for name in ("empty", "reserve", "from_tensor", "push_back", "pop_back", "get_item", "set_item", "stack",
                    "length", "element_shape", "zeros_like", "add", "resize", "scatter_into_existing", "gather",
                    "concat", "split")},
    **{f"optional_{name}": "a TF optional value, not an array: tests/test_tensor_list.py checks each op eagerly, in "
       "graphs with passes on and off, and its gradient" for name in ("from_value", "none", "get_value", "has_value")},
    **{f"tensor_array_{name}": "a mutable TensorArray handle, not a value (tests/test_tensor_array.py)"
       for name in ("new", "write", "read", "stack", "gather", "concat", "unstack", "scatter", "size")},
}

# --- generated elementwise samples ----------------------------------------------------------------------
CANDIDATE_DTYPES = [d for d in dtypes.ALL if d.name != "resource"]
_ATTR_ELEMENTWISE = {"cast", "leaky_relu", "silu", "fused"}  # elementwise ops with attrs: explicit samples


class _Spec:
    __slots__ = ("dtype", "_shape")

    def __init__(self, dtype, shape):
        self.dtype, self._shape = dtype, shape


def arity(op) -> int:
    import inspect

    return len([p for p in inspect.signature(op.infer).parameters.values() if p.kind == p.POSITIONAL_OR_KEYWORD])


def accepted_dtypes(op) -> list:
    """The dtypes the op's inference accepts when every input has that dtype."""
    found = []
    for dtype in CANDIDATE_DTYPES:
        try:
            op.infer_outputs([_Spec(dtype, (2,))] * arity(op), {})
        except (TypeError, ValueError):
            continue
        found.append(dtype)
    return found


def values(dtype, shape, seed):
    """Deterministic values of `dtype`: mixed signs, zeros, and for floats a NaN and infinities at the end of
    arrays of 12 or more elements."""
    rng = np.random.default_rng(seed)
    size = int(np.prod(shape)) if shape else 1
    if dtype.is_string:
        pool = np.array([b"", b"a", b"Ab", b"abc", b" x "], dtype=object)
        flat = pool[rng.integers(0, len(pool), size)]
    elif dtype.is_bool:
        flat = rng.integers(0, 2, size).astype(bool)
    elif dtype.is_unsigned:
        flat = rng.integers(0, 10, size).astype(dtype.np)
    elif dtype.is_integer:
        flat = rng.integers(-6, 7, size).astype(dtype.np)
    elif dtype.is_complex:
        flat = (rng.uniform(-2, 2, size) + 1j * rng.uniform(-2, 2, size)).astype(dtype.np)
    else:
        flat = np.round(rng.uniform(-3, 3, size), 2)
        if size >= 12:
            flat[-3:] = [np.nan, np.inf, -np.inf]
            flat[0] = 0.0
        flat = flat.astype(dtype.np)
    if not shape:
        return flat.reshape(())[()] if not dtype.is_string else flat.reshape(())
    return flat.reshape(shape)


UNARY_SHAPES = [((),), ((2, 3),), ((300,),)]
BINARY_SHAPES = [((), ()), ((2, 3), (3,)), ((), (2, 3)), ((2, 1), ()), ((300,), (300,)), ((300,), ())]


def elementwise_thunk(op):
    shape_sets = UNARY_SHAPES if arity(op) == 1 else BINARY_SHAPES

    def run():
        for dtype in accepted_dtypes(op):
            for k, shapes in enumerate(shape_sets):
                try:  # some elementwise ops take equal shapes only (sigmoid_cross_entropy_with_logits)
                    op.infer_outputs([_Spec(dtype, s) for s in shapes], {})
                except ValueError:
                    continue
                inputs = [EagerTensor(values(dtype, s, seed=k * 7 + i), dtype) for i, s in enumerate(shapes)]
                try:
                    apply(op, inputs, {})
                except tf.errors.InvalidArgumentError as e:  # integer division by zero: TF raises too
                    if "by zero" not in str(e) and "negative integer powers" not in str(e):
                        raise
    return run


def generated_elementwise() -> dict:
    return {name: [elementwise_thunk(op)] for name, op in OPS.items()
            if op.elementwise and name not in _ATTR_ELEMENTWISE and name not in SKIPPED}


# --- explicit samples -----------------------------------------------------------------------------------
def c(value, dtype=None):
    return tf.constant(value, dtype)


def arr(shape, dtype=tf.float32, seed=0):
    return tf.constant(values(dtype, shape, seed), dtype)


def pos(shape, dtype=tf.float32, seed=0):
    return tf.abs(arr(shape, dtype, seed)) + tf.constant(0.5, dtype)


def _finite(shape, dtype=tf.float32, seed=0):
    rng = np.random.default_rng(seed)
    return tf.constant(rng.uniform(-2, 2, shape).astype(dtype.np), dtype)


def _relu_pool(x, r):
    """(x, relu(r), its 2x2 VALID max pool): the inputs of max_pool2d_relu_grad_filter after the conv's x."""
    relu = np.maximum(r.numpy(), 0)
    n, h, w, c = relu.shape
    pooled = relu[:, :h // 2 * 2, :w // 2 * 2].reshape(n, h // 2, 2, w // 2, 2, c).max(axis=(2, 4))
    return x, tf.constant(relu), tf.constant(pooled)


def _spd(n, dtype=tf.float64):
    a = np.random.default_rng(n).uniform(-1, 1, (n, n))
    return tf.constant(a @ a.T + n * np.eye(n), dtype)


def _raw(name, inputs, **attrs):
    return lambda: apply(OPS[name], inputs(), attrs)


def _numpy_function(fn, inputs, tout):
    from tinytf.runtime.ops.py_function import PythonFunction

    return apply(OPS["numpy_function"], inputs, {"func": PythonFunction(fn, "fn"), "Tout": tout, "api_name": "pyfunc"})


FLOATS = (tf.float16, tf.bfloat16, tf.float32, tf.float64)
REALS = (tf.float32, tf.float64, tf.int32, tf.int64, tf.uint8)
NUMBERS = REALS + (tf.complex64,)


def _each(dtypes_, fn):
    return [lambda d=d: fn(d) for d in dtypes_]


SAMPLES = {
    # --- math with attrs ---
    "cast": [lambda: [tf.cast(arr(s, a), b) for a in (tf.float32, tf.float64, tf.int32, tf.bool, tf.float16)
                      for b in (tf.float32, tf.int64, tf.uint8, tf.bool, tf.float16, tf.complex64)
                      for s in ((), (2, 3), (300,))]],
    "leaky_relu": _each(FLOATS, lambda d: [tf.nn.leaky_relu(arr(s, d), a) for s in ((), (2, 3), (300,))
                                           for a in (0.2, 2.0)]),
    "silu": _each(FLOATS, lambda d: [tf.nn.silu(arr(s, d), 1.5) for s in ((), (2, 3), (300,))]),
    # --- reductions ---
    "reduce_sum": _each(NUMBERS, lambda d: [tf.reduce_sum(arr((2, 3), d), axis=1), tf.reduce_sum(arr((), d)),
                                            tf.reduce_sum(arr((2, 3, 2), d), axis=[0, 2], keepdims=True)]),
    "reduce_prod": _each(NUMBERS, lambda d: [tf.reduce_prod(arr((2, 3), d), axis=0), tf.reduce_prod(arr((4,), d))]),
    "reduce_mean": _each(NUMBERS, lambda d: [tf.reduce_mean(arr((2, 3), d), axis=-1), tf.reduce_mean(arr((), d))]),
    "reduce_max": _each(REALS, lambda d: [tf.reduce_max(arr((2, 3), d), axis=1), tf.reduce_max(arr((3,), d))]),
    "reduce_min": _each(REALS, lambda d: [tf.reduce_min(arr((2, 3), d), axis=0, keepdims=True)]),
    "reduce_all": [lambda: [tf.reduce_all(arr((2, 3), tf.bool), axis=1), tf.reduce_all(arr((), tf.bool))]],
    "reduce_any": [lambda: [tf.reduce_any(arr((2, 3), tf.bool), axis=0), tf.reduce_any(arr((3,), tf.bool))]],
    "reduce_variance": _each(FLOATS, lambda d: [tf.math.reduce_variance(_finite((2, 3), d), axis=1)]),
    "reduce_std": _each(FLOATS, lambda d: [tf.math.reduce_std(_finite((2, 3), d), axis=0)]),
    "reduce_logsumexp": _each(FLOATS, lambda d: [tf.math.reduce_logsumexp(_finite((2, 3), d), axis=1),
                                                 tf.math.reduce_logsumexp(_finite((), d))]),
    "reduce_euclidean_norm": _each((tf.float32, tf.float64, tf.int32),
                                   lambda d: [tf.math.reduce_euclidean_norm(arr((2, 3), d), axis=1)]),
    "count_nonzero": _each((tf.float32, tf.int32, tf.bool), lambda d: [tf.math.count_nonzero(arr((2, 3), d), axis=1),
                                                                       tf.math.count_nonzero(arr((), d))]),
    "argmax": _each(REALS, lambda d: [tf.argmax(arr((2, 3), d), axis=1),
                                      tf.argmax(arr((4,), d), output_type=tf.int32)]),
    "argmin": _each(REALS, lambda d: [tf.argmin(arr((2, 3), d), axis=0)]),
    "cumsum": _each(NUMBERS, lambda d: [tf.math.cumsum(arr((2, 3), d), axis=1),
                                        tf.math.cumsum(arr((3,), d), exclusive=True, reverse=True)]),
    "cumprod": _each(NUMBERS, lambda d: [tf.math.cumprod(arr((2, 3), d), axis=0, exclusive=True)]),
    "add_n": _each(NUMBERS, lambda d: [tf.math.add_n([arr((2, 3), d, 1), arr((2, 3), d, 2), arr((2, 3), d, 3)]),
                                       tf.math.add_n([arr((), d)])]),
    "clip_by_value": _each(REALS, lambda d: [tf.clip_by_value(arr((2, 3), d), c(1, d), c(4, d)),
                                             tf.clip_by_value(arr((), d), c(0, d), c(2, d))]),
    # --- arrays ---
    "identity": [lambda: tf.identity(arr((2, 3)))],
    "stop_gradient": [lambda: [tf.stop_gradient(arr((2,))), tf.stop_gradient(arr((), tf.int32))]],
    "reshape": _each((tf.float32, tf.string), lambda d: [tf.reshape(arr((2, 3), d), [3, 2]),
                                                         tf.reshape(arr((), d), [1, 1])]),
    "fill": [lambda: [tf.fill([2, 3], c(1.5)), tf.fill([2], c("a")), tf.fill([], c(3))]],
    "squeeze": [lambda: [tf.squeeze(arr((2, 1, 3)), axis=1), tf.squeeze(arr((1, 1)))]],
    "expand_dims": [lambda: [tf.expand_dims(arr((2, 3)), -1), tf.expand_dims(arr(()), 0)]],
    "broadcast_to": [lambda: [tf.broadcast_to(arr((3, 1)), [2, 3, 3]), tf.broadcast_to(arr((), tf.int32), [2])]],
    "transpose": [lambda: [tf.transpose(arr((2, 3, 2)), [1, 2, 0]), tf.transpose(arr((2, 3), tf.string))]],
    "reverse": [lambda: [tf.reverse(arr((2, 3)), [0, 1]), tf.reverse(arr((3,), tf.int32), [-1])]],
    "tile": [lambda: [tf.tile(arr((2, 2)), [2, 3]), tf.tile(arr((2,), tf.string), [2])]],
    "pad": [lambda: [tf.pad(arr((2, 3)), [[1, 0], [2, 1]], constant_values=7.0),
                     tf.pad(arr((4, 3), tf.int32), [[1, 2], [2, 1]], mode="REFLECT"),
                     tf.pad(arr((3, 3)), [[2, 1], [0, 3]], mode="SYMMETRIC")]],
    "linspace": [lambda: [tf.linspace(c(0.0), c(1.0), 5), tf.linspace(c([0.0, 1.0]), c([2.0, 5.0]), 3, axis=1),
                          tf.linspace(c(1.0, tf.float64), c(2.0, tf.float64), 4)]],
    "range": [lambda: [tf.range(5), tf.range(1.0, 2.0, 0.25), tf.range(10, 0, -3, dtype=tf.int64)]],
    "stack": [lambda: [tf.stack([arr((2, 3)), arr((2, 3), seed=1)], axis=1), tf.stack([c(1), c(2)])]],
    "unstack": [lambda: [tf.unstack(arr((2, 3)), axis=1), tf.unstack(arr((2,), tf.string))]],
    "concat": [lambda: [tf.concat([arr((2, 3)), arr((2, 1))], axis=1), tf.concat([arr((2,), tf.int32)], 0),
                        tf.concat([arr((1, 2), tf.string), arr((2, 2), tf.string)], 0)]],
    "split": [lambda: [tf.split(arr((2, 3)), [1, 2], axis=1), tf.split(arr((4,), tf.int32), 2)]],
    "shape": [lambda: [tf.shape(arr((2, 3))), tf.shape(arr(()), out_type=tf.int64)]],
    "size": [lambda: [tf.size(arr((2, 3))), tf.size(arr(()), out_type=tf.int64)]],
    "rank": [lambda: [tf.rank(arr((2, 3))), tf.rank(arr(()))]],
    "one_hot": [lambda: [tf.one_hot(c([0, 2, -1, 1]), 3), tf.one_hot(c([[1], [0]]), 2, 5.0, -1.0, axis=0)]],
    "where": [lambda: [tf.where(arr((2, 3), tf.bool)), tf.where(arr((4,), tf.bool))]],
    "select": [lambda: [tf.where(arr((2, 3), tf.bool), arr((2, 3)), arr((3,), seed=1)),
                        tf.where(c(True), c(1), c(2))]],
    # --- indexing ---
    "strided_slice": [lambda: [arr((3, 4))[1:, ::-2], arr((3, 2, 4))[1, None, ..., 2], arr((5,), tf.int32)[3],
                               arr((3,), tf.string)[::2]]],
    "slice": [lambda: [tf.slice(arr((3, 4)), [1, 0], [1, -1]), tf.slice(arr((3,), tf.int32), [1], [2])]],
    "gather": [lambda: [tf.gather(arr((2, 3)), c([2, 0, 2]), axis=1), tf.gather(arr((4,), tf.int32), c(1)),
                        tf.gather(arr((2, 3, 2)), c([[1, 1], [0, 2]]), axis=1, batch_dims=1)]],
    "gather_nd": [lambda: [tf.gather_nd(arr((2, 3)), c([[0, 1], [1, 2]])), tf.gather_nd(arr((2, 3)), c([1])),
                           tf.gather_nd(arr((2, 3, 2)), c([[1], [0]]), batch_dims=1)]],
    "boolean_mask": [lambda: [tf.boolean_mask(arr((3, 2)), c([True, False, True])),
                              tf.boolean_mask(arr((3, 2)), c([False, True]), axis=1)]],
    "tensor_scatter_nd": [lambda: [tf.tensor_scatter_nd_update(arr((3, 2)), c([[2, 0], [0, 1]]), arr((2,), seed=1)),
                                   tf.tensor_scatter_nd_add(arr((3,), tf.int32), c([[1], [1]]), c([4, 5])),
                                   tf.tensor_scatter_nd_max(arr((3,)), c([[0]]), arr((1,), seed=2)),
                                   tf.tensor_scatter_nd_min(arr((3,)), c([[2]]), arr((1,), seed=2)),
                                   tf.tensor_scatter_nd_sub(arr((3,)), c([[2]]), arr((1,), seed=2))]],
    # --- sorting ---
    "sort": [lambda: [tf.sort(arr((3, 2)), axis=0), tf.sort(arr((4,), tf.int32), direction="DESCENDING")]],
    "argsort": [lambda: [tf.argsort(arr((3, 2)), axis=0), tf.argsort(arr((4,), tf.int32), direction="DESCENDING")]],
    "top_k": [lambda: [tf.math.top_k(arr((2, 4)), k=2), tf.math.top_k(arr((5,), tf.int32), k=3, sorted=True)]],
    # --- linear algebra ---
    "matmul": _each(NUMBERS, lambda d: [tf.matmul(arr((2, 3), d), arr((3, 4), d, 1)),
                                        tf.matmul(arr((3, 2), d), arr((4, 3), d, 1), transpose_a=True,
                                                  transpose_b=True),
                                        tf.matmul(arr((2, 2, 3), d), arr((3, 2), d, 1))]),
    "matvec": [lambda: [tf.linalg.matvec(arr((2, 3)), arr((3,), seed=1)),
                        tf.linalg.matvec(arr((3, 2), tf.float64), arr((2, 3), tf.float64, 1), transpose_a=True)]],
    "tensordot": [lambda: [tf.tensordot(arr((2, 3)), arr((3, 2), seed=1), 1),
                           tf.tensordot(arr((2, 3, 4)), arr((4, 2, 2), seed=1), [[0, 2], [2, 0]])]],
    "einsum": [lambda: [tf.einsum("ij,jk->ik", arr((2, 3)), arr((3, 4), seed=1)), tf.einsum("ij->j", arr((2, 3))),
                        tf.einsum("ii", arr((3, 3), tf.int32))]],
    "norm": [lambda: [tf.norm(_finite((2, 3))), tf.norm(_finite((2, 3)), ord=1, axis=1),
                      tf.norm(_finite((3, 3), tf.float64), ord=2, axis=(0, 1)), tf.norm(_finite((2, 3)), ord=np.inf)]],
    "matrix_transpose": [lambda: tf.linalg.matrix_transpose(arr((2, 3, 2)))],
    "matrix_diag": [lambda: [tf.linalg.diag(arr((2, 3))), tf.linalg.diag(arr((3,), tf.int32), k=1)]],
    "matrix_diag_part": [lambda: [tf.linalg.diag_part(arr((2, 3, 3))), tf.linalg.diag_part(arr((2, 5)), k=2)]],
    "trace": [lambda: [tf.linalg.trace(arr((2, 3, 3))), tf.linalg.trace(arr((3, 3), tf.int32))]],
    "matrix_inverse": [lambda: [tf.linalg.inv(_spd(3)), tf.linalg.inv(_spd(2, tf.float32), adjoint=True)]],
    "matrix_determinant": [lambda: [tf.linalg.det(_spd(3)), tf.linalg.det(_spd(2, tf.float32))]],
    "log_matrix_determinant": [lambda: tf.linalg.slogdet(_spd(3))],
    "cholesky": [lambda: [tf.linalg.cholesky(_spd(3)), tf.linalg.cholesky(_spd(2, tf.float32))]],
    "matrix_solve": [lambda: [tf.linalg.solve(_spd(3), arr((3, 2), tf.float64)),
                              tf.linalg.solve(_spd(2), arr((2, 1), tf.float64), adjoint=True)]],
    "spectral_norm_direction": [lambda: _raw("spectral_norm_direction", lambda: [_finite((3, 2, 4), tf.float64)],
                                             rows=0, cols=2)()],
    # --- neural networks ---
    "softmax": _each(FLOATS, lambda d: [tf.nn.softmax(_finite((2, 3), d)), tf.nn.softmax(_finite((3, 2), d), axis=0)]),
    "log_softmax": _each(FLOATS, lambda d: [tf.nn.log_softmax(_finite((2, 3), d))]),
    "sparse_softmax_cross_entropy_with_logits": [lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=c([2, 0]), logits=_finite((2, 3)))],
    "softmax_cross_entropy_with_logits": [lambda: tf.nn.softmax_cross_entropy_with_logits(
        labels=tf.nn.softmax(_finite((2, 3))), logits=_finite((2, 3), seed=1)),
        lambda: tf.nn.softmax_cross_entropy_with_logits(  # classes along axis 0
            labels=tf.nn.softmax(_finite((3, 2)), axis=0), logits=_finite((3, 2), seed=1), axis=0)],
    "l2_loss": _each(FLOATS, lambda d: [tf.nn.l2_loss(_finite((2, 3), d)), tf.nn.l2_loss(_finite((), d))]),
    "bias_add": [lambda: [tf.nn.bias_add(arr((2, 3)), arr((3,), seed=1)),
                          tf.nn.bias_add(arr((2, 3, 2, 2)), arr((3,), seed=1), data_format="NCHW")]],
    "conv2d": [lambda: [tf.nn.conv2d(_finite((2, 4, 4, 2)), _finite((3, 3, 2, 3), seed=1), 1, "VALID"),
                        tf.nn.conv2d(_finite((1, 5, 4, 2)), _finite((3, 2, 2, 2), seed=1), 2, "SAME")]],
    "max_pool2d": [lambda: [tf.nn.max_pool2d(_finite((2, 4, 4, 2)), 2, 2, "VALID"),
                            tf.nn.max_pool2d(_finite((1, 5, 4, 1)), 3, 2, "SAME")]],
    "avg_pool2d": [lambda: [tf.nn.avg_pool2d(_finite((2, 4, 4, 2)), 2, 2, "VALID"),
                            tf.nn.avg_pool2d(_finite((1, 5, 4, 1)), 3, 2, "SAME")]],
    "check_numerics": _each(FLOATS, lambda d: [tf.debugging.check_numerics(_finite((2, 3), d), "m"),
                                               tf.debugging.check_numerics(_finite((), d), "m")]),
    # eagerly tf.numpy_function calls the function directly (as TF): the op is applied here as a graph would
    "numpy_function": [lambda: [_numpy_function(lambda a: a * 2, [arr((2, 3), d)], (d,)) for d in REALS],
                       lambda: _numpy_function(lambda a, b: (a + b, a - b), [arr(()), arr((), seed=1)],
                                               (tf.float32, tf.float32))],
    # --- strings ---
    "as_string": [lambda: [tf.strings.as_string(arr((2, 3))), tf.strings.as_string(arr((), tf.int32)),
                           tf.strings.as_string(c([1.5, 2.25]), precision=1)]],
    "string_join": [lambda: [tf.strings.join([c(["a", "b"]), c(["c", "d"])], separator="-"),
                             tf.strings.join([c("x"), c(["y", "z"])])]],
    "string_length": [lambda: [tf.strings.length(c(["ab", "", "héllo"])),
                               tf.strings.length(c("héllo"), unit="UTF8_CHAR")]],
    "string_lower": [lambda: [tf.strings.lower(c(["AbC", "D"])), tf.strings.lower(c("XY"))]],
    "string_upper": [lambda: [tf.strings.upper(c(["AbC", "d"])), tf.strings.upper(c("xy"))]],
    "string_strip": [lambda: [tf.strings.strip(c([" a ", "b  "])), tf.strings.strip(c("  c"))]],
    "string_to_number": [lambda: [tf.strings.to_number(c(["1.5", "-2"])),
                                  tf.strings.to_number(c(["3", "4"]), out_type=tf.int64)]],
    "string_split": [lambda: tf.strings.split(c(["a b", "c d e", ""]))],
    "bytes_split": [lambda: tf.strings.bytes_split(c(["ab", "c"]))],
    "reduce_join": [lambda: [tf.strings.reduce_join(c([["a", "b"], ["c", "d"]]), axis=1, separator=","),
                             tf.strings.reduce_join(c(["x", "y"]))]],
    "string_format": [lambda: [tf.strings.format("x={} y={}", [c([1, 2]), c(2.5)]), tf.strings.format("n", [])]],
    "regex_full_match": [lambda: tf.strings.regex_full_match(c(["abc", "xbc"]), "a.*")],
    "regex_replace": [lambda: [tf.strings.regex_replace(c(["aab", "ba"]), "a", "X"),
                               tf.strings.regex_replace(c("aab"), "a", "X", replace_global=False)]],
    "substr": [lambda: [tf.strings.substr(c(["hello", "world"]), 1, 3), tf.strings.substr(c("hello"), c(0), c(2))]],
    "unsorted_segment_join": [lambda: tf.strings.unsorted_segment_join(c(["a", "b", "c"]), c([1, 0, 1]), 2)],
}


# --- gradient helpers: run by the backward pass of a tape (the recorder sees the eager backward ops) ---
def grads(fn, *xs):
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
    return tape.gradient(y, list(xs))


def _dyn(name, *inputs, **attrs):
    return apply(OPS[name], [c(x) if not isinstance(x, tf.Tensor) else x for x in inputs], attrs)


def _advanced(generator):
    """A generator's state after a draw and a skip (the state's counter carries into its second word)."""
    generator.normal([2])
    generator.skip(3)
    return generator.state.read_value()


_I = tf.int32
def _examples():
    """Two serialized tf.train.Examples with a fixed-length float feature and a variable-length int feature."""
    def example(values, ids):
        return tf.train.Example(features=tf.train.Features(feature={
            "x": tf.train.Feature(float_list=tf.train.FloatList(value=values)),
            "ids": tf.train.Feature(int64_list=tf.train.Int64List(value=ids))})).SerializeToString()

    return tf.constant([example([1.5, -2.0], [3, 4, 5]), example([0.25, 8.0], [])])


SAMPLES.update({
    # --- segments, sets, searching and counting ---
    "segment_reduction": [lambda: [f(arr((5, 2), d), c([0, 0, 1, 3, 3])) for d in (tf.float32, tf.int32, tf.float64)
                                   for f in (tf.math.segment_sum, tf.math.segment_mean, tf.math.segment_max,
                                             tf.math.segment_min, tf.math.segment_prod)]],
    "unsorted_segment_reduction": [lambda: [
        f(arr((5, 2), d), c([2, 0, 2, -1, 1]), 4) for d in (tf.float32, tf.int64, tf.float64)
        for f in (tf.math.unsorted_segment_sum, tf.math.unsorted_segment_max, tf.math.unsorted_segment_min,
                  tf.math.unsorted_segment_prod)]],
    "unique": [lambda: [tf.unique(c([1, 1, 2, 4, 4, 4, 7, 8, 8])), tf.unique(c([3.0, -1.0, 3.0]), tf.int64),
                        tf.unique_with_counts(c(["a", "b", "a"]))]],
    "searchsorted": [lambda: [tf.searchsorted(c([[0.0, 3.0, 9.0, 9.0, 10.0]]), c([[2.0, 9.0, 10.0]]), side=side)
                              for side in ("left", "right")] + [tf.searchsorted(c([1, 5, 7]), c([5, 8]),
                                                                                out_type=tf.int64)]],
    "in_top_k": [lambda: [tf.math.in_top_k(c([2, 0]), arr((2, 4)), k) for k in (1, 2)]],
    "bincount": [lambda: [tf.math.bincount(c([1, 1, 2, 5])), tf.math.bincount(c([1, 2, 2]), weights=c([0.5, 1.0, 2.0])),
                          tf.math.bincount(c([[1, 2], [2, 0]]), minlength=4, axis=-1),
                          tf.math.bincount(c([3, 3, 0]), binary_output=True)]],
    "histogram_fixed_width": [lambda: [tf.histogram_fixed_width(_finite((20,)), [-3.0, 3.0], nbins=5),
                                       tf.histogram_fixed_width(arr((7,), tf.int32), [-6, 6], nbins=3)]],
    "confusion_matrix": [lambda: [tf.math.confusion_matrix(c([1, 2, 4]), c([2, 2, 4])),
                                  tf.math.confusion_matrix(c([0, 1]), c([1, 1]), num_classes=3,
                                                           weights=c([0.5, 2.0]))]],
    "decode_csv": [lambda: tf.io.decode_csv(tf.constant(["1,2.5,a,x", "3,,b,\"y,z\""]),
                                            record_defaults=[[0], [0.0], [""], tf.constant([], tf.string)]),
                   lambda: tf.io.decode_csv(tf.constant("7;8"), record_defaults=[[0.0], [0]], field_delim=";")],
    "parse_example": [lambda: tf.io.parse_example(_examples(), {"x": tf.io.FixedLenFeature([2], tf.float32),
                                                                "ids": tf.io.VarLenFeature(tf.int64)}),
                      lambda: tf.io.parse_example(_examples(), {"r": tf.io.RaggedFeature(tf.float32, value_key="x")})],
    "parse_sequence_example": [lambda: tf.io.parse_sequence_example(
        [tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={"s": tf.train.FeatureList(
            feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=[i, i + 1])) for i in range(n)])}))
         .SerializeToString() for n in (1, 3)],
        sequence_features={"s": tf.io.FixedLenSequenceFeature([2], tf.int64), "v": tf.io.VarLenFeature(tf.int64)})],
    "conv2d_backprop_input": [lambda: grads(lambda x, f: tf.nn.conv2d(x, f, 2, "SAME"), _finite((1, 5, 4, 2)),
                                            _finite((3, 2, 2, 2), seed=1))],
    "conv2d_backprop_filter": [lambda: grads(lambda x, f: tf.nn.conv2d(x, f, 1, "VALID"), _finite((2, 4, 4, 2)),
                                             _finite((3, 3, 2, 3), seed=1))],
    "depthwise_conv2d": [lambda: [tf.nn.depthwise_conv2d(_finite((2, 5, 4, 2)), _finite((3, 2, 2, 2), seed=1),
                                                         [1, 2, 1, 1], "SAME"),
                                  tf.nn.depthwise_conv2d(_finite((1, 4, 4, 3)), _finite((2, 2, 3, 1), seed=1),
                                                         [1, 1, 1, 1], "VALID", dilations=[2, 2])]],
    "depthwise_conv2d_backprop_input": [lambda: grads(lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "SAME"),
                                                      _finite((1, 5, 4, 2)), _finite((3, 3, 2, 2), seed=1))],
    "depthwise_conv2d_backprop_filter": [lambda: grads(lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1],
                                                                                           "VALID"),
                                                       _finite((2, 4, 4, 2)), _finite((2, 2, 2, 3), seed=1))],
    "max_pool2d_grad": [lambda: grads(lambda x: tf.nn.max_pool2d(x, 2, 2, "VALID"), _finite((1, 4, 4, 2)))],
    "dropout_select": [lambda: _dyn("dropout_select", c(np.array([[True, False, True], [False, True, True]])),
                                    c(np.array([[-1.5, -2.0, np.inf], [np.nan, -0.0, 3.0]], np.float32))),
                       lambda: _dyn("dropout_select", c(np.array([True, False, True, False])),
                                    _finite((4,), tf.float64)),
                       lambda: _dyn("dropout_select", c(np.array([True, False, True, False])),
                                    _finite((4,)), scale=1.25, scale_first=True),
                       lambda: _dyn("dropout_select", c(np.array([True, False, True, False])),
                                    _finite((4,)), scale=2.0, scale_first=False)],
    "conv2d_epilogue": [lambda: [_dyn("conv2d_epilogue", _finite((2, 5, 4, 2)), _finite((3, 3, 2, 3), seed=1),
                                      _finite((3,), seed=2), strides=(1, 1), padding="SAME", dilations=(1, 1),
                                      relu=True, pool=(2, 2)),
                                 _dyn("conv2d_epilogue", _finite((1, 5, 4, 2)), _finite((3, 2, 2, 2), seed=1),
                                      strides=(2, 1), padding="VALID", dilations=(1, 1), relu=True, pool=None)]],
    "conv2d_epilogue_pooled": [lambda: [_dyn("conv2d_epilogue_pooled", _finite((2, 5, 4, 2)),
                                             _finite((3, 3, 2, 3), seed=1), _finite((3,), seed=2), strides=(1, 1),
                                             padding="SAME", dilations=(1, 1), relu=True, pool=(2, 2)),
                                        _dyn("conv2d_epilogue_pooled", _finite((1, 6, 4, 2)),
                                             _finite((3, 2, 2, 2), seed=1), strides=(1, 1), padding="VALID",
                                             dilations=(1, 1), relu=False, pool=(2, 1))]],
    "max_pool2d_relu_grad_filter": [lambda: [
        _dyn("max_pool2d_relu_grad_filter", *_relu_pool(_finite((2, 6, 4, 2)), _finite((2, 6, 4, 3), seed=1)),
             _finite((2, 3, 2, 3), seed=2), filter_shape=(3, 3, 2, 3), strides=(1, 1), padding="SAME",
             dilations=(1, 1), ksize=(2, 2), pool_strides=(2, 2), pool_padding="VALID", with_bias=True),
        _dyn("max_pool2d_relu_grad_filter", *_relu_pool(_finite((1, 7, 5, 2)), _finite((1, 5, 3, 3), seed=1)),
             _finite((1, 2, 1, 3), seed=2), filter_shape=(3, 3, 2, 3), strides=(1, 1), padding="VALID",
             dilations=(1, 1), ksize=(2, 2), pool_strides=(2, 2), pool_padding="VALID", with_bias=False)]],
    "conv2d_backprop_input_filter": [lambda: [
        _dyn("conv2d_backprop_input_filter", _finite((2, 5, 4, 2)), _finite((2, 5, 4, 3), seed=1),
             _finite((3, 3, 2, 3), seed=2), strides=(1, 1), padding="SAME", dilations=(1, 1)),
        _dyn("conv2d_backprop_input_filter", _finite((1, 6, 5, 2)), _finite((1, 2, 4, 2), seed=1),
             _finite((3, 2, 2, 2), seed=2), strides=(2, 1), padding="VALID", dilations=(1, 1))]],
    "conv2d_and_filter_grad": [lambda: [
        _dyn("conv2d_and_filter_grad", _finite((2, 9, 8, 3)), _finite((3, 3, 3, 4), seed=1),
             _finite((2, 5, 4, 4), seed=2), strides=(2, 2), padding="SAME", dilations=(1, 1)),
        _dyn("conv2d_and_filter_grad", _finite((1, 6, 5, 2)), _finite((3, 2, 2, 2), seed=1),
             _finite((1, 4, 4, 2), seed=2), strides=(1, 1), padding="VALID", dilations=(1, 1))]],
    "conv2d_input_spectrum": [lambda: [
        _dyn("conv2d_input_spectrum", _finite((2, 5, 4, 2)), filter_shape=(3, 3, 2, 3), strides=(1, 1),
             padding="SAME", dilations=(1, 1))]],  # zeros: the direct kernels take these small convs
    "conv2d_epilogue_spectral": [lambda: [
        _dyn("conv2d_epilogue_spectral", _finite((2, 5, 4, 2)), _finite((3, 3, 2, 3), seed=1),
             _dyn("conv2d_input_spectrum", _finite((2, 5, 4, 2)), filter_shape=(3, 3, 2, 3), strides=(1, 1),
                  padding="SAME", dilations=(1, 1)),
             _finite((3,), seed=2), strides=(1, 1), padding="SAME", dilations=(1, 1), relu=True, pool=(2, 2))]],
    "max_pool2d_relu_grad": [lambda: [_dyn("max_pool2d_relu_grad", x, tf.nn.max_pool2d(x, 2, 2, "VALID"),
                                           _finite((1, 2, 2, 2), seed=1), ksize=(2, 2), strides=(2, 2),
                                           padding="VALID") for x in [tf.nn.relu(_finite((1, 4, 5, 2)))]][0]],
    "max_pool2d_take": [lambda: grads(lambda x: grads(lambda y: tf.reduce_sum(tf.nn.max_pool2d(y, 2, 1, "SAME") ** 2),
                                                      x)[0], _finite((1, 3, 3, 2)))],
    "avg_pool2d_grad": [lambda: grads(lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"), _finite((1, 5, 4, 1)))],
    "sparse_softmax_cross_entropy_backprop": [lambda: grads(
        lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=c([2, 0]), logits=x), _finite((2, 3)))],
    "strided_slice_grad": [lambda: grads(lambda x: x[1:, ::-2] * 2.0, _finite((3, 4)))],
    "gather_grad": [lambda: grads(lambda x: tf.gather(x, c([2, 0, 2]), axis=1), _finite((2, 3)))],
    "gather_nd_grad": [lambda: grads(lambda x: tf.gather_nd(x, c([[0, 1], [1, 2], [0, 1]])), _finite((2, 3)))],
    "boolean_mask_grad": [lambda: grads(lambda x: tf.boolean_mask(x, c([True, False, True])), _finite((3, 2)))],
    "take_along_axis": [lambda: grads(lambda x: tf.sort(x, axis=1) * 3.0, _finite((2, 3)))],
    "scatter_along_axis": [lambda: grads(lambda x: grads(lambda y: tf.reduce_sum(tf.sort(y) ** 2), x)[0],
                                         _finite((2, 3)))],
    "mirror_pad_grad": [lambda: grads(lambda x: tf.pad(x, [[1, 2], [2, 1]], mode="REFLECT"), _finite((4, 3)))],
    "mirror_pad_dynamic": [lambda: [_dyn("mirror_pad_dynamic", arr((4, 3), d), c([[1, 2], [2, 0]]), mode=m)
                                    for d in (tf.float32, tf.int32) for m in ("REFLECT", "SYMMETRIC")]],
    "mirror_pad_grad_dynamic": [lambda: [_dyn("mirror_pad_grad_dynamic", arr((7, 5)), c([[1, 2], [2, 0]]), mode=m)
                                         for m in ("REFLECT", "SYMMETRIC")]],
    # the *_like ops take their target shape from an input only when it is unknown at trace time; eagerly
    # the gradient code passes the shape as an attr, so both forms are run here directly
    "sum_to_like": [lambda: [_dyn("sum_to_like", arr((2, 3)), arr((1, 3), seed=1), shape=None),
                             _dyn("sum_to_like", arr((2, 3), tf.int32), shape=(3,)),
                             _dyn("sum_to_like", arr((4, 2)), arr((), seed=1), shape=None)]],
    "broadcast_to_like": [lambda: [_dyn("broadcast_to_like", arr((3,)), arr((2, 3), seed=1), shape=None),
                                   _dyn("broadcast_to_like", arr(()), shape=(2, 2))]],
    "reshape_like": [lambda: [_dyn("reshape_like", arr((2, 3)), arr((3, 2), seed=1)),
                              _dyn("reshape_like", arr((1,)), arr(()))]],
    "broadcast_reduced": [lambda: grads(lambda x: tf.reduce_sum(x, axis=1), _finite((2, 3))),
                          lambda: grads(lambda x: tf.reduce_mean(x), _finite((2, 3)))],
    "spectral_norm_direction_grad": [lambda: grads(lambda x: grads(
        lambda y: tf.norm(y, ord=2, axis=[0, 1]), x)[0] * x, _finite((3, 2), tf.float64))],
    "fill_like": [lambda: [_dyn("fill_like", arr((2, 3)), c(0.0)), _dyn("fill_like", arr(()), c(1))]],
    # --- the dynamic twins (shape-like inputs as tensors, as graphs make them) ---
    "fill_dynamic": [lambda: [_dyn("fill_dynamic", c([2, 3]), c(1.5)), _dyn("fill_dynamic", c([], _I), c(2))]],
    "reshape_dynamic": [lambda: [_dyn("reshape_dynamic", arr((2, 3)), c([3, -1])),
                                 _dyn("reshape_dynamic", arr(()), c([1, 1]))]],
    "broadcast_to_dynamic": [lambda: _dyn("broadcast_to_dynamic", arr((3, 1)), c([2, 3, 3]))],
    "tile_dynamic": [lambda: _dyn("tile_dynamic", arr((2, 2)), c([2, 3]))],
    "pad_dynamic": [lambda: _dyn("pad_dynamic", arr((2, 3)), c([[1, 0], [2, 1]]), c(7.0))],
    "slice_dynamic": [lambda: [_dyn("slice_dynamic", arr((3, 3)), c([1, 0]), c([1, -1])),
                               _dyn("slice_dynamic", arr((4,), _I), c([2]), c([2]))]],
    "eye_dynamic": [lambda: [_dyn("eye_dynamic", c(3), c(2), dtype=tf.float32),
                             _dyn("eye_dynamic", c(2), c(2), dtype=tf.int32)]],
    "one_hot_dynamic": [lambda: _dyn("one_hot_dynamic", c([0, 2, -1]), c(1.0), c(0.0), c(3), axis=-1)],
    # --- stateless random numbers: deterministic functions of the seed, so they fold and render like any op ---
    "stateless_shuffle": [lambda: [tf.random.experimental.stateless_shuffle(c([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
                                                                            seed=[1, 2]),
                                   tf.random.experimental.stateless_shuffle(c([4, 5, 6, 7]), seed=c([3, 4]))]],
    "stateless_random_float": [lambda: [tf.random.stateless_uniform([2, 3], seed=[1, 2]),
                                        tf.random.stateless_normal([3], seed=[3, 4], dtype=tf.float64),
                                        tf.random.stateless_truncated_normal([], seed=[5, 6], dtype=tf.float16)]],
    "stateless_random_int": [lambda: [tf.random.stateless_uniform([4], seed=[1, 2], minval=0, maxval=10,
                                                                  dtype=tf.int32),
                                      tf.random.stateless_uniform([], seed=[7, 8], minval=-5, maxval=5,
                                                                  dtype=tf.int64)]],
    "stateless_random_full_int": [lambda: [tf.random.split(c([1, 2])),
                                           tf.random.stateless_uniform([3], [1, 2], minval=None, maxval=None,
                                                                       dtype=tf.int64)]],
    # --- gamma, Poisson, binomial and categorical samples determined by a seed (random_gamma.py and siblings) ---
    "stateless_random_gamma": [lambda: [tf.random.stateless_gamma([3, 2], seed=[1, 2], alpha=[0.5, 3.0]),
                                        tf.random.stateless_gamma([4], seed=[3, 4], alpha=1.0, dtype=tf.float64)]],
    "random_gamma_grad": [lambda: [apply(OPS["random_gamma_grad"], [c([0.5, 2.0, 9.0]), c([0.3, 1.5, 8.0])], {})]],
    "stateless_random_poisson": [lambda: [tf.random.stateless_poisson([5], seed=[1, 2], lam=4.0),
                                          tf.random.stateless_poisson([2, 2], seed=[5, 6], lam=[1.0, 40.0],
                                                                      dtype=tf.float32)]],
    "stateless_random_binomial": [lambda: [tf.random.stateless_binomial([3, 2], seed=[1, 2], counts=[4.0, 90.0],
                                                                        probs=[0.3, 0.6])]],
    "stateless_parameterized_truncated_normal": [lambda: [tf.random.stateless_parameterized_truncated_normal(
        [3, 2], seed=[1, 2], means=[0.0, 1.0], stddevs=1.0, minvals=[-0.5, 2.0], maxvals=[0.5, 9.0])]],
    "stateless_multinomial": [lambda: [tf.random.stateless_categorical(c([[0.0, 1.0, -1.0], [2.0, 2.0, 0.0]]), 4,
                                                                       seed=[7, 8])]],
    # --- tf.random.Generator: pure functions of the generator's state (an int64[3] input) ---
    "generator_random_float": [lambda: [tf.random.Generator.from_seed(1).uniform([2, 3]),
                                        tf.random.Generator.from_seed(2).normal([3], dtype=tf.float64),
                                        tf.random.Generator.from_seed(3).truncated_normal([], dtype=tf.float16)]],
    "generator_random_int": [lambda: [tf.random.Generator.from_seed(1).uniform([4], minval=0, maxval=10,
                                                                               dtype=tf.int32),
                                      tf.random.Generator.from_seed(2).uniform([], minval=-5, maxval=5,
                                                                               dtype=tf.int64)]],
    "generator_random_full_int": [lambda: [tf.random.Generator.from_seed(1).uniform_full_int([3], tf.int64),
                                           tf.random.Generator.from_seed(2).make_seeds(2)]],
    "generator_advance": [lambda: _advanced(tf.random.Generator.from_state([-1, 0, 5], "philox"))],
    # --- sparse and ragged kernels ---
    "sparse_to_dense": [lambda: tf.sparse.to_dense(tf.sparse.SparseTensor([[0, 1], [1, 0]], [1.5, 2.5], [2, 3]))],
    "sparse_add": [lambda: tf.sparse.add(tf.sparse.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2]),
                                         tf.sparse.SparseTensor([[1, 1], [0, 1]], [3.0, 4.0], [2, 2]))],
    "sparse_add_grad": [lambda: grads(lambda a, b: tf.sparse.add(tf.sparse.SparseTensor([[0, 0], [1, 1]], a, [2, 2]),
                                                                 tf.sparse.SparseTensor([[1, 1], [0, 1]], b, [2, 2])
                                                                 ).values, c([1.0, 2.0]), c([3.0, 4.0]))],
    "sparse_reorder_permutation": [lambda: tf.sparse.reorder(
        tf.sparse.SparseTensor([[1, 0], [0, 1], [0, 0]], [1, 2, 3], [2, 2]))],
    "ragged_to_dense": [lambda: tf.RaggedTensor.from_row_splits(arr((3,)), [0, 2, 2, 3]).to_tensor()],
    "ragged_from_dense": [lambda: grads(lambda v: tf.RaggedTensor.from_row_splits(v, [0, 2, 2, 3]).to_tensor(),
                                        arr((3,)))],
})

# --- image transforms (Keras' RandomRotation/Zoom/Translation): every fill mode and interpolation, and the
# gradient op (the sampling's adjoint) ---
from tinytf.runtime.ops.image_transform import image_projective_transform_v3 as _projective  # noqa: E402

_TURN = [[0.8, -0.6, 1.5, 0.6, 0.8, -1.0, 0.01, -0.02], [1.2, 0.0, -2.0, 0.0, 0.7, 0.5, 0.0, 0.0]]
SAMPLES.update({
    "image_projective_transform_v3": [
        lambda: [_projective(arr((2, 5, 4, 3)), c(_TURN), [6, 3], 1.5, i, m)
                 for i in ("NEAREST", "BILINEAR") for m in ("REFLECT", "WRAP", "CONSTANT", "NEAREST")],
        lambda: _projective(c(np.arange(40, dtype=np.uint8).reshape(1, 5, 4, 2)), c(_TURN[:1]), [5, 4], 7.0)],
    "image_projective_transform_grad": [
        lambda: grads(lambda x: _projective(x, c(_TURN), [6, 3], 0.5, "BILINEAR", "REFLECT"), arr((2, 5, 4, 3))),
        lambda: grads(lambda x: _projective(x, c(_TURN), [4, 4], 0.0, "NEAREST", "CONSTANT"), arr((2, 5, 4, 3)))],
})

# --- core API names (helper coreapi): hashing, 3-D convolution and pooling, tf.* core ops ------------------------
SAMPLES.update({
    "string_to_hash_bucket_fast": [lambda: tf.strings.to_hash_bucket_fast(["a", "hello", "x" * 70], 10)],
    "string_to_hash_bucket_strong": [lambda: tf.strings.to_hash_bucket_strong([["a", ""], ["bb", "c"]], 7, [1, 2])],
    "string_to_hash_bucket": [lambda: tf.strings.to_hash_bucket(["a", "hello"], 5)],
    "fingerprint": [lambda: [tf.fingerprint(c([b"ab", b""])), tf.fingerprint(arr((2, 3)))]],
})
SAMPLES.update({
    # SAME padding times a non-finite filter: tinytf's GEMM gives 0 * inf = NaN where TF skips the padding
    "conv3d": [lambda: [tf.nn.conv3d(arr((1, 3, 4, 3, 2)), arr((2, 2, 2, 2, 3), seed=1), 1, "VALID"),
                        tf.nn.conv3d(_finite((1, 3, 4, 3, 2)), _finite((2, 2, 2, 2, 3), seed=1), [1, 1, 2, 1, 1],
                                     "SAME")]],
    "conv3d_backprop_input": [lambda: grads(lambda a, b: tf.nn.conv3d(a, b, 1, "VALID"), _finite((1, 3, 3, 3, 2)),
                                            _finite((2, 2, 2, 2, 2), seed=1))],
    "conv3d_backprop_filter": [lambda: grads(lambda a, b: tf.nn.conv3d(a, b, 1, "SAME"), _finite((1, 3, 3, 3, 2)),
                                             _finite((2, 2, 2, 2, 2), seed=1))],
    "max_pool3d": [lambda: tf.nn.max_pool3d(arr((1, 4, 4, 4, 2)), 2, 2, "VALID")],
    "avg_pool3d": [lambda: tf.nn.avg_pool3d(_finite((1, 3, 4, 5, 2)), 2, 1, "SAME")],
    "max_pool3d_grad": [lambda: grads(lambda a: tf.nn.max_pool3d(a, 2, 1, "SAME"), _finite((1, 3, 3, 3, 2)))],
    "avg_pool3d_grad": [lambda: grads(lambda a: tf.nn.avg_pool3d(a, 2, 1, "SAME"), _finite((1, 3, 3, 3, 2)))],
    "max_pool3d_grad_grad": [_raw("max_pool3d_grad_grad",
                                  lambda: [_finite((1, 3, 3, 3, 2)), arr((1, 3, 3, 3, 2), seed=1)],
                                  ksize=(2, 2, 2), strides=(1, 1, 1), padding="SAME")],
})

# --- text and category preprocessing (helper textprep): the hashed cross of Keras' HashedCrossing -----------------
SAMPLES.update({
    "cross_hashed": [lambda: tf.keras.layers.HashedCrossing(num_bins=7)((np.array(["A", "B", "A"]),
                                                                          np.array([101, 101, -2])))],
})

# --- PNG codec (tf.io.decode_png / encode_png) ---
_PNG_IMAGE = np.arange(60, dtype=np.uint8).reshape(4, 5, 3)
_BMP = (b"BM" + (54 + 2 * 12).to_bytes(4, "little") + bytes(4) + (54).to_bytes(4, "little")
        + (40).to_bytes(4, "little") + (3).to_bytes(4, "little") + (2).to_bytes(4, "little") + b"\x01\x00\x18\x00"
        + bytes(24) + bytes(range(9)) + bytes(3) + bytes(range(9, 18)) + bytes(3))
SAMPLES.update({
    "encode_png": [lambda: [tf.io.encode_png(c(_PNG_IMAGE)),
                            tf.io.encode_png(c(_PNG_IMAGE[..., :1].astype(np.uint16)))]],
    "decode_png": [lambda: [tf.io.decode_png(tf.io.encode_png(c(_PNG_IMAGE)), channels=ch) for ch in (0, 1, 3, 4)]],
})

# --- candidate samplers (runtime/ops/candidate_sampling.py) ---
_TRUE_CLASSES = np.array([[3], [7], [0]], np.int64)
SKIPPED.update({
    "log_uniform_candidate_sampler": "stateful random stream (tests/conformance/word2vec_sampling.py)",
    "uniform_candidate_sampler": "stateful random stream (tests/conformance/word2vec_sampling.py)",
})
SAMPLES.update({
    "all_candidate_sampler": [lambda: tf.random.all_candidate_sampler(c(_TRUE_CLASSES), 1, 8, True)],
    "compute_accidental_hits": [lambda: tf.nn.compute_accidental_hits(c(_TRUE_CLASSES), c(np.array([7, 1], np.int64)),
                                                                      1)],
})

# --- JPEG, GIF and BMP codecs (runtime/ops/image_decode.py) ---
_JPEG = lambda: tf.io.encode_jpeg(c(_PNG_IMAGE), quality=90)  # noqa: E731
SAMPLES.update({
    "encode_jpeg": [lambda: [_JPEG(), tf.io.encode_jpeg(c(_PNG_IMAGE[..., :1]), chroma_downsampling=False)]],
    "encode_jpeg_variable_quality": [lambda: tf.image.adjust_jpeg_quality(c(_PNG_IMAGE), c(40))],
    "decode_jpeg": [lambda: [tf.io.decode_jpeg(_JPEG(), channels=ch) for ch in (0, 1, 3)]],
    "decode_and_crop_jpeg": [lambda: tf.io.decode_and_crop_jpeg(_JPEG(), c([1, 1, 2, 3]))],
    "extract_jpeg_shape": [lambda: tf.io.extract_jpeg_shape(_JPEG())],
    "decode_gif": [lambda: tf.io.decode_gif(_JPEG())],
    "decode_image": [lambda: [tf.io.decode_image(_JPEG()), tf.io.decode_image(tf.io.encode_png(c(_PNG_IMAGE)),
                                                                              dtype=tf.float32)]],
    "decode_bmp": [lambda: tf.io.decode_bmp(_BMP)],
})
SAMPLES.update({
    "repeat": [lambda: [tf.repeat(arr((2, 3)), [1, 0, 2], axis=1), tf.repeat(arr((2, 2), _I), 2),
                        tf.repeat(c(["a", "b"]), [2, 1], axis=0)]],
    "repeat_grad": [lambda: grads(lambda a: tf.repeat(a, [2, 1], axis=0), _finite((2, 3)))],
    "ensure_shape": [lambda: [tf.ensure_shape(arr((2, 3)), [None, 3]), tf.ensure_shape(c(["a"]), [1])]],
    "reverse_sequence": [lambda: tf.reverse_sequence(arr((2, 4)), c([3, 1]), seq_axis=1, batch_axis=0)],
    "dynamic_partition": [lambda: tf.dynamic_partition(arr((4, 2)), c([1, 0, 1, 2]), 3)],
    "dynamic_stitch": [lambda: tf.dynamic_stitch([c([0, 2]), c([1])], [arr((2, 3)), arr((1, 3), seed=1)])],
    "unravel_index": [lambda: [tf.unravel_index(c([1, 5, 7]), c([3, 3])),
                               tf.unravel_index(c(3, tf.int64), c([2, 2], tf.int64))]],
    "broadcast_args": [lambda: tf.broadcast_dynamic_shape(c([1, 2, 3]), c([5, 1, 3]))],
    "bitcast": [lambda: [tf.bitcast(arr((3,)), tf.int32), tf.bitcast(c([[1, 2]], tf.int32), tf.int64),
                         tf.bitcast(c([7], tf.int16), tf.uint8)]],
    "space_to_batch_nd": [lambda: tf.space_to_batch_nd(arr((1, 4, 2, 2)), [2, 2], [[0, 0], [1, 1]])],
    "batch_to_space_nd": [lambda: tf.batch_to_space(arr((4, 2, 2, 1)), [2, 2], [[1, 0], [0, 1]])],
})
SKIPPED["timestamp"] = "stateful: reads the clock (tests/test_core_api_ops.py runs it eagerly and in graphs)"
SAMPLES.update({
    "cumulative_logsumexp": [lambda: [tf.math.cumulative_logsumexp(arr((2, 4)), axis=1),
                                      tf.math.cumulative_logsumexp(arr((3,), tf.float64), exclusive=True,
                                                                   reverse=True)]],
    "invert_permutation": [lambda: [tf.math.invert_permutation(c([2, 0, 1])),
                                    tf.math.invert_permutation(c([1, 0], tf.int64))]],
    "nextafter": [lambda: tf.math.nextafter(arr((3,)), arr((3,), seed=1))],
})
SAMPLES.update({
    "left_shift": [lambda: [tf.bitwise.left_shift(c([1, -3, 7], tf.int8), c([1, 9, -1], tf.int8)),
                            tf.bitwise.left_shift(c([5], tf.uint32), c([31], tf.uint32))]],
    "right_shift": [lambda: tf.bitwise.right_shift(c([-100, 100, 7]), c([2, 40, 0]))],
    "set_operation": [lambda: [tf.sets.intersection(c([[1, 2, 2], [3, 4, 5]]), c([[2, 1, 9], [5, 5, 5]])),
                               tf.sets.union(c([["a", "b"]]),
                                             tf.sparse.SparseTensor([[0, 0], [0, 1]], ["b", "c"], [1, 2]))]],
    "set_size": [lambda: tf.sets.size(tf.sparse.from_dense(c([[1, 1, 0], [2, 3, 4]])))],
})
SAMPLES.update({
    "lgamma": [lambda: [tf.math.lgamma(arr((5,))), tf.math.lgamma(arr((3,), tf.float64))]],
    "digamma": [lambda: [tf.math.digamma(arr((5,))), tf.math.digamma(arr((3,), tf.float64))]],
    "polygamma": [lambda: tf.math.polygamma(c([0.0, 1.0, 2.0]), c([0.5, 3.0, -1.5]))],
    "zeta": [lambda: tf.math.zeta(c([2.0, 3.5, 1.0]), c([0.5, 2.0, 1.0]))],
})
SAMPLES.update({
    "ndtri": [lambda: [tf.math.ndtri(c([0.0, 1e-30, 0.3, 0.5, 0.99, 1.0, 1.5])), tf.math.ndtri(arr((3,), tf.float64))]],
    "erfinv": [lambda: [tf.math.erfinv(c([-1.0, -0.5, 0.0, 0.25, 0.9999, 1.0])), tf.math.erfinv(arr((3,)))]],
    "erfcinv": [lambda: [tf.math.erfcinv(c([0.0, 0.05, 1.0, 1.7, 2.0])), tf.math.erfcinv(arr((3,), tf.float64))]],
})
# --- tf.signal's Fourier transforms (runtime/ops/fft.py): both complex dtypes, crop and pad, N-D axes ---
_COMPLEXES = (tf.complex64, tf.complex128)


def _real_fft_samples(fn, k):
    return _each((tf.float32, tf.float64), lambda d: [fn(arr((2, 3, 5), d)), fn(arr((2, 3, 4), d), [2, 3, 6][-k:]),
                                                     fn(arr((1, 1, 0), d))])


def _inverse_real_fft_samples(fn, k):
    return _each(_COMPLEXES, lambda d: [fn(arr((2, 3, 5), d)), fn(arr((2, 3, 4), d), [2, 3, 7][-k:])])


SAMPLES.update({
    **{name: _each(_COMPLEXES, lambda d, fn=fn: [fn(arr((2, 3, 4), d)), fn(arr((0, 2, 2, 2), d))])
       for name, fn in (("fft", tf.signal.fft), ("ifft", tf.signal.ifft), ("fft2d", tf.signal.fft2d),
                        ("ifft2d", tf.signal.ifft2d), ("fft3d", tf.signal.fft3d), ("ifft3d", tf.signal.ifft3d))},
    "fftnd": [lambda: [tf.signal.fftnd(arr((2, 3, 4), tf.complex64), axes=[0, 2]),
                       tf.signal.fftnd(arr((3, 4), tf.complex128), fft_length=[2, 6], norm="ortho")]],
    "ifftnd": [lambda: tf.signal.ifftnd(arr((2, 3, 4), tf.complex64), axes=[-1, 0], norm="forward")],
    "rfft": _real_fft_samples(tf.signal.rfft, 1), "rfft2d": _real_fft_samples(tf.signal.rfft2d, 2),
    "rfft3d": _real_fft_samples(tf.signal.rfft3d, 3), "irfft": _inverse_real_fft_samples(tf.signal.irfft, 1),
    "irfft2d": _inverse_real_fft_samples(tf.signal.irfft2d, 2),
    "irfft3d": _inverse_real_fft_samples(tf.signal.irfft3d, 3),
    "rfftnd": [lambda: [tf.signal.rfftnd(arr((2, 3, 4)), axes=[0, 1]),
                        tf.signal.rfftnd(arr((3, 4), tf.float64), [4, 7])]],
    "irfftnd": [lambda: [tf.signal.irfftnd(arr((2, 3, 4), tf.complex64), axes=[2, 0]),
                         tf.signal.irfftnd(arr((3, 4), tf.complex128), [4, 5], norm="ortho")]],
})


def _wav_file():
    """A 16-bit stereo WAV file of 5 frames at 8000 Hz, written by the encoder under test's twin."""
    return tf.audio.encode_wav(c([[0.0, 0.5], [-1.0, 1.0], [0.25, -0.3], [2.0, -2.0], [1e-5, 0.99999]]), 8000)


SAMPLES.update({
    "encode_wav": [lambda: [_wav_file(), tf.audio.encode_wav(c([[0.125], [-0.75]]), 44100)]],
    "decode_wav": [lambda: [tf.audio.decode_wav(_wav_file()).audio,
                            tf.audio.decode_wav(_wav_file(), desired_channels=3, desired_samples=7).audio,
                            tf.audio.decode_wav(_wav_file(), desired_channels=1, desired_samples=2).sample_rate]],
})
# --- CTC (runtime/ops/ctc.py, ctc_beam.py) ---
_CTC_LOGITS = np.random.RandomState(7).normal(size=(6, 2, 4))
SAMPLES.update({
    "ctc_loss": [lambda: [tf.nn.ctc_loss(c([[1, 2], [3, 0]]), c(_CTC_LOGITS, tf.float32), c([2, 1]), c([6, 4])),
                          tf.nn.ctc_loss(tf.sparse.from_dense(c([[1, 1], [2, 0]])), c(_CTC_LOGITS), None, c([5, 6]),
                                         blank_index=-1)]],
    "ctc_greedy_decoder": [lambda: [tf.nn.ctc_greedy_decoder(c(_CTC_LOGITS, tf.float32), c([6, 3]))[1],
                                    tf.nn.ctc_greedy_decoder(c(_CTC_LOGITS), c([2, 5]), False, 0)[0][0].values]],
    "ctc_beam_search_decoder": [lambda: [tf.nn.ctc_beam_search_decoder(c(_CTC_LOGITS, tf.float32), c([6, 3]), 3,
                                                                       2)[1]]],
})


# --- linalg decompositions (tnp's block) ---
def _normal(shape, dtype=tf.float64, seed=0):
    return tf.constant(np.random.default_rng(seed).normal(size=shape), dtype)


SAMPLES.update({  # the decompositions of tf.linalg (runtime/ops/linalg_decompositions.py)
    "self_adjoint_eig": [lambda: [tf.linalg.eigh(_spd(3)), tf.linalg.eigh(_spd(2, tf.float32))]],
    "eig": [lambda: [tf.linalg.eig(_spd(3)), tf.linalg.eig(tf.constant([[0.0, 1.0], [-1.0, 0.0]]))]],
    "qr": [lambda: [tf.linalg.qr(_normal((4, 3))), tf.linalg.qr(_normal((2, 3, 2), tf.float32), full_matrices=True)]],
    "svd": [lambda: [tf.linalg.svd(_normal((4, 3))), tf.linalg.svd(_normal((2, 3), tf.float32), full_matrices=True)]],
    "matrix_triangular_solve": [lambda: [tf.linalg.triangular_solve(_spd(3), _normal((3, 2))),
                                         tf.linalg.triangular_solve(_spd(2, tf.float32), _normal((2, 1), tf.float32),
                                                                    lower=False, adjoint=True)]],
    "lu": [lambda: [tf.linalg.lu(_spd(3)), tf.linalg.lu(_normal((2, 2, 2), tf.float32), output_idx_type=tf.int64)]],
    "matrix_square_root": [lambda: [tf.linalg.sqrtm(_spd(3)), tf.linalg.sqrtm(_spd(2, tf.float32))]],
    "matrix_logarithm": [lambda: [tf.linalg.logm(tf.cast(_spd(3), tf.complex128)),
                                  tf.linalg.logm(tf.cast(_spd(2), tf.complex64))]],
})


# --- tf.image's resize kernels (helper imageops): every ScaleAndTranslate kernel, ResizeBicubic's two rules,
# ResizeArea, and the gradient ops ---
from tinytf.runtime.ops import image_resize_kernels as _resize_kernels  # noqa: E402

SAMPLES.update({
    "scale_and_translate": [
        lambda: [_resize_kernels.scale_and_translate(arr((2, 5, 4, 3)), [7, 3], [1.4, 0.7], [0.5, -0.2], k, a)
                 for k in _resize_kernels.KERNEL_TYPES for a in (False, True)],
        lambda: _resize_kernels.scale_and_translate(c(np.arange(40, dtype=np.uint8).reshape(1, 5, 4, 2)), [2, 2],
                                                    [0.4, 0.5], [0.0, 0.0], "box")],
    "scale_and_translate_grad": [
        lambda: grads(lambda x: _resize_kernels.scale_and_translate(x, [7, 3], [1.4, 0.7], [0.5, -0.2]),
                      arr((2, 5, 4, 3)))],
    "resize_bicubic": [lambda: [_resize_kernels.resize_bicubic(arr((2, 5, 4, 3)), [7, 3], False, True),
                                _resize_kernels.resize_bicubic(arr((1, 3, 4, 1)), [6, 2], True, False),
                                _resize_kernels.resize_bicubic(c(np.arange(12, dtype=np.int32).reshape(1, 3, 4, 1)),
                                                               [2, 5])]],
    "resize_bicubic_grad": [lambda: grads(lambda x: _resize_kernels.resize_bicubic(x, [7, 3], False, True),
                                          arr((2, 5, 4, 3)))],
    "resize_area": [lambda: [_resize_kernels.resize_area(arr((2, 5, 4, 3)), [3, 7]),
                             _resize_kernels.resize_area(c(np.arange(40, dtype=np.uint8).reshape(1, 5, 4, 2)), [2, 3],
                                                         True)]],
})

# --- tf.image's window ops (helper imageops): crop_and_resize and its gradient ops, extract_patches and its
# gradient op, extract_glimpse (zero noise, or a window inside the image: no draw), draw_bounding_boxes ---
_CROP_BOXES = [[0.1, 0.2, 0.8, 0.9], [-0.2, 0.0, 0.5, 1.3], [0.5, 0.5, 0.5, 0.5]]
SAMPLES.update({
    "crop_and_resize": [
        lambda: [tf.image.crop_and_resize(arr((2, 5, 4, 3)), c(_CROP_BOXES), c([1, 0, 1]), [3, 2], m, 0.5)
                 for m in ("bilinear", "nearest")],
        lambda: tf.image.crop_and_resize(c(np.arange(32, dtype=np.uint8).reshape(2, 4, 4, 1)), c(_CROP_BOXES),
                                         c([0, 1, 0]), [1, 1])],
    "crop_and_resize_grad_image": [
        lambda m=m: grads(lambda x: tf.image.crop_and_resize(x, c(_CROP_BOXES), c([1, 0, 1]), [3, 2], m),
                          arr((2, 5, 4, 3)))
        for m in ("bilinear", "nearest")],
    "crop_and_resize_grad_boxes": [
        lambda: grads(lambda b: tf.image.crop_and_resize(arr((2, 5, 4, 3)), b, c([1, 0, 1]), [3, 2]), c(_CROP_BOXES))],
    "extract_image_patches": [
        lambda: [tf.image.extract_patches(arr((2, 7, 6, 3)), [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], p)
                 for p in ("SAME", "VALID")],
        lambda: tf.image.extract_patches(c(np.arange(25, dtype=np.int32).reshape(1, 5, 5, 1)), [1, 2, 2, 1],
                                         [1, 2, 2, 1], [1, 1, 1, 1], "SAME")],
    "extract_image_patches_grad": [
        lambda: grads(lambda x: tf.image.extract_patches(x, [1, 3, 2, 1], [1, 2, 1, 1], [1, 1, 2, 1], "SAME"),
                      arr((2, 7, 6, 3)))],
    "extract_glimpse": [lambda: [tf.image.extract_glimpse(arr((2, 5, 6, 2)), [3, 4], c([[0.3, -0.2], [0.9, 0.9]]),
                                                          noise="zero"),
                                 tf.image.extract_glimpse(arr((2, 5, 6, 2)), [2, 2], c([[1.0, 1.0], [2.5, 0.0]]),
                                                          centered=False, normalized=False)]],
    "draw_bounding_boxes": [lambda: [tf.image.draw_bounding_boxes(arr((2, 5, 6, 3)), c([[_CROP_BOXES[0]],
                                                                                      [_CROP_BOXES[1]]]), colors)
                                     for colors in (None, [[0.1, 0.2, 0.3], [0.5, 0.5, 0.5]])]],
})

# --- tf.image's non-max suppressions (helper imageops): hard and soft selection, overlaps, padded (single,
# batched, small tiles) and combined ---
_NMS_RNG = np.random.RandomState(31)
_NMS_CORNER = _NMS_RNG.rand(12, 2).astype(np.float32) * 0.7
_NMS_BOXES = np.concatenate([_NMS_CORNER, _NMS_CORNER + 0.3], 1)
_NMS_SCORES = np.round(_NMS_RNG.rand(12) * 4).astype(np.float32) / 4
_NMS_OVERLAPS = _NMS_RNG.rand(12, 12).astype(np.float32)
SAMPLES.update({
    "non_max_suppression_v3": [lambda: [tf.image.non_max_suppression(c(_NMS_BOXES), c(_NMS_SCORES), 6, 0.3),
                                        tf.image.non_max_suppression(c(_NMS_BOXES), c(_NMS_SCORES), 20, 0.6, 0.3)]],
    "non_max_suppression_v5": [lambda: [tf.image.non_max_suppression_with_scores(c(_NMS_BOXES), c(_NMS_SCORES), 8,
                                                                                 soft_nms_sigma=s)
                                        for s in (0.0, 0.5)]],
    "non_max_suppression_with_overlaps": [
        lambda: tf.image.non_max_suppression_overlaps(c(_NMS_OVERLAPS), c(_NMS_SCORES), 5)],
    "non_max_suppression_padded": [
        lambda: [tf.image.non_max_suppression_padded(c(_NMS_BOXES), c(_NMS_SCORES), 5, 0.3),
                 tf.image.non_max_suppression_padded(c(np.stack([_NMS_BOXES, _NMS_BOXES[::-1]])),
                                                     c(np.stack([_NMS_SCORES, _NMS_SCORES])), 6, 0.3, 0.2, True,
                                                     tile_size=4)]],
    "combined_non_max_suppression": [
        lambda: [tf.image.combined_non_max_suppression(c(_NMS_BOXES.reshape(2, 6, 1, 4)),
                                                       c(_NMS_SCORES.reshape(2, 6, 1) * np.float32([1.0, 0.5])), 3, k,
                                                       0.4, 0.1, k == 4, k == 10) for k in (4, 10)]],
})

# --- tf.image's distorted bounding boxes (helper imageops) ---
SKIPPED.update({
    "sample_distorted_bounding_box": "stateful random stream (tests/conformance/image_more_distorted_box.py records "
                                     "TF's seeded crops, eagerly and in a tf.function)",
})
SAMPLES.update({
    "stateless_sample_distorted_bounding_box": [
        lambda: [tf.image.stateless_sample_distorted_bounding_box(c(np.array(size, dtype)), c([[[0.1, 0.2, 0.7, 0.9]]]),
                                                                  c(seed), min_object_covered=0.3)
                 for size, dtype, seed in (([40, 50, 3], np.int32, [1, 2]), ([9, 7, 1], np.int64, [-5, 8]),
                                           ([30, 20, 3], np.uint8, [7, 0]))]],
})

# --- the nn / sparse / ragged leftovers slice ---
SKIPPED.update({
    "fixed_unigram_candidate_sampler": "stateful random stream (tests/conformance/nn_sampled_losses.py)",
    "learned_unigram_candidate_sampler": "stateful random stream and counts (tests/conformance/nn_sampled_losses.py)",
})
SAMPLES.update({
    "sparse_fill_empty_rows": [lambda: tf.sparse.fill_empty_rows(
        tf.SparseTensor([[1, 0], [1, 2], [3, 1]], c([1.5, -2.0, 4.0]), [5, 3]), 0.5)[0].values],
})
_POOL_IMAGE = np.round(np.sin(np.arange(2 * 5 * 6 * 3) * 0.37) * 4).reshape(2, 5, 6, 3).astype(np.float32)
_MORPH_FILTER = np.cos(np.arange(18) * 0.5).reshape(2, 3, 3).astype(np.float32)
SAMPLES.update({
    "max_pool_with_argmax": [lambda: [tf.nn.max_pool_with_argmax(c(_POOL_IMAGE), 3, 2, "SAME"),
                                      tf.nn.max_pool_with_argmax(c(_POOL_IMAGE), 2, 2, "VALID", output_dtype=tf.int32,
                                                                 include_batch_in_index=True)]],
    "dilation2d": [lambda: [tf.nn.dilation2d(c(_POOL_IMAGE), c(_MORPH_FILTER), [1, 1, 1, 1], "SAME", "NHWC",
                                             [1, 2, 2, 1]),
                            tf.nn.erosion2d(c(_POOL_IMAGE), c(_MORPH_FILTER), [1, 2, 2, 1], "VALID", "NHWC",
                                            [1, 1, 1, 1])]],
    "dilation2d_backprop": [lambda: apply(OPS["dilation2d_backprop"], [c(_POOL_IMAGE), c(_MORPH_FILTER),
                                                                       c(np.ones((2, 5, 6, 3), np.float32))],
                                          {"strides": (1, 1), "rates": (2, 2), "padding": "SAME"})],
    "isotonic_regression": [lambda: [tf.nn.isotonic_regression(c([[3.0, 3, 1, 2, 2, 0.5]])),
                                     tf.nn.isotonic_regression(c([[1, 3], [2, 4]]), axis=0, decreasing=False)]],
})
_SP_A = lambda: tf.SparseTensor([[0, 0], [0, 2], [1, 1]], c([1.0, -2.0, 3.0]), [2, 3])  # noqa: E731
_SP_B = lambda: tf.SparseTensor([[0, 2], [1, 0], [1, 1]], c([-5.0, 4.0, 1.0]), [2, 3])  # noqa: E731
SAMPLES.update({
    "sparse_sparse_minmax": [lambda: [tf.sparse.maximum(_SP_A(), _SP_B()).values,
                                      tf.sparse.minimum(_SP_A(), _SP_B()).values]],
    "sparse_bincount": [lambda: [tf.sparse.bincount(c([[1, 2, 2, 0], [3, 3, 3, 5]]), axis=-1).values,
                                 tf.sparse.bincount(c([1, 4, 4]), weights=c([0.5, 1.0, 2.0]), minlength=6).values]],
    "sparse_cross": [lambda: [tf.sparse.cross([tf.SparseTensor([[0, 0], [1, 0]], c(["a", "b"]), [2, 1]),
                                               c([["x", "y"], ["z", "w"]])]).values,
                              tf.sparse.cross_hashed([c([[1], [2]]), c([["x"], ["y"]])], num_buckets=10).values]],
})
SAMPLES.update({
    "fractional_pool": [lambda: [tf.nn.fractional_max_pool(c(_POOL_IMAGE), [1.0, 1.44, 1.73, 1.0], seed=5),
                                 tf.nn.fractional_avg_pool(c(_POOL_IMAGE), 1.5, pseudo_random=True, overlapping=True,
                                                           seed=2)]],
    "fractional_pool_grad": [lambda: apply(OPS["fractional_pool_grad"],
                                           [c(_POOL_IMAGE), c(np.ones((2, 3, 3, 3), np.float32)), c([0, 2, 4, 5]),
                                            c([0, 2, 4, 6])], {"overlapping": False, "reduce": "max"})],
})
_BESSEL_X = [-40.0, -2.5, 0.0, 0.3, 7.0, 31.0]
SAMPLES.update({name: [lambda name=name: [getattr(tf.math, name)(c(_BESSEL_X)),
                                          getattr(tf.math, name)(c(_BESSEL_X, tf.float64))]]
                for name in ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e")})

SKIPPED.update({  # TF1's queues: stateful, their input is a queue resource (tests/test_tf1_queues.py)
    "queue_enqueue": "stateful: adds to a queue resource (tests/test_tf1_queues.py)",
    "queue_dequeue": "stateful: takes from a queue resource, blocking (tests/test_tf1_queues.py)",
    "queue_size": "stateful: reads a queue resource (tests/test_tf1_queues.py)",
    "queue_close": "stateful: closes a queue resource (tests/test_tf1_queues.py)",
    "queue_is_closed": "stateful: reads a queue resource (tests/test_tf1_queues.py)",
    "get_session_handle": "stateful: keeps a value in the running TF1 Session (tests/conformance/tf1_more_session.py)",
    "get_session_tensor": "stateful: reads a kept value of a TF1 Session (tests/conformance/tf1_more_session.py)",
    "delete_session_tensor": "stateful: forgets a kept value of a TF1 Session (tests/conformance/tf1_more_session.py)",
    # TF1's conditional accumulators: stateful on an accumulator resource; take blocks (tests/test_tf1_more_session.py)
    "accumulator_apply_gradient": "stateful: adds to a TF1 accumulator resource (tf1_more_session)",
    "sparse_accumulator_apply_gradient": "stateful: adds to a TF1 accumulator resource (tf1_more_session)",
    "accumulator_take_gradient": "stateful, blocking: takes from a TF1 accumulator resource (tf1_more_session)",
    "sparse_accumulator_take_gradient": "stateful, blocking: takes from a TF1 accumulator resource (tf1_more_session)",
    "accumulator_num_accumulated": "stateful: reads a TF1 accumulator resource (tf1_more_session)",
    "accumulator_set_global_step": "stateful: writes a TF1 accumulator resource (tf1_more_session)",
})
SKIPPED["count_up_to"] = "stateful: increments a variable, raising at its limit (tests/test_tf1_queues.py)"

# --- tf.strings / tf.math / tf.io leftovers (strmath) ---------------------------------------------------------
SAMPLES.update({
    "unicode_decode_with_offsets": [lambda: tf.strings.unicode_decode_with_offsets(c([b"h\xc3\xa9", b"a\xffb"]),
                                                                                   "UTF-8")],
    "unicode_encode": [lambda: tf.strings.unicode_encode(c([[104, 233, -1], [0x1F600, 33, 0xD800]]), "UTF-8")],
    "unicode_transcode": [lambda: tf.strings.unicode_transcode(c([b"h\xc3\xa9", b"a\xffb"]), "UTF-8", "UTF-16-BE")],
    "unicode_script": [lambda: tf.strings.unicode_script(c([65, 0x3B1, 0x4E00, -1, 0x110000]))],
    "string_ngrams": [lambda: tf.strings.ngrams(tf.ragged.constant([["a", "b", "c"], [], ["d"]]), (1, 2),
                                                pad_values="#").values],
})
_SERIALIZED_SPARSE = lambda: tf.io.serialize_many_sparse(  # noqa: E731
    tf.SparseTensor([[0, 1], [2, 0]], c([1.5, 2.5]), [3, 2]))
SAMPLES.update({
    "serialize_tensor": [lambda: [tf.io.serialize_tensor(c([[1.5, 2.0]])), tf.io.serialize_tensor(c(["a", "bc"]))]],
    "parse_tensor": [lambda: tf.io.parse_tensor(tf.io.serialize_tensor(c([1, 2], tf.int64)), tf.int64)],
    "encode_base64": [lambda: tf.io.encode_base64(c([b"hi?>", b"\xff"]), pad=True)],
    "decode_base64": [lambda: tf.io.decode_base64(c([b"aGk_Pg", b"_w=="]))],
    "decode_raw": [lambda: tf.io.decode_raw(c([b"\x01\x00\x02\x00"]), tf.int16, little_endian=False)],
    "decode_padded_raw": [lambda: tf.io.decode_raw(c([b"\x01\x00\x02", b""]), tf.uint16, fixed_length=4)],
    "decode_compressed": [lambda: tf.io.decode_compressed(c([b"x\x9c\xcb\xc8\x04\x00\x01;\x00\xd2"]), "ZLIB")],
    "decode_json_example": [lambda: tf.io.decode_json_example(
        c(['{"features": {"feature": {"a": {"int64List": {"value": [1, "-2"]}}}}}']))],
    "matching_files": [lambda: tf.io.matching_files(c(["/nonexistent-tinytf-folder/*.txt"]))],
    "serialize_sparse": [lambda: tf.io.serialize_sparse(tf.SparseTensor([[0, 1]], c([1.5]), [2, 2]))],
    "serialize_many_sparse": [_SERIALIZED_SPARSE],
    "deserialize_many_sparse": [lambda: tf.io.deserialize_many_sparse(_SERIALIZED_SPARSE(), tf.float32).indices],
})
_GAMMA_A, _GAMMA_X = [0.5, 3.0, 100.0, -1.0, 2.0], [0.2, 7.5, 110.0, 1.0, 0.0]
SAMPLES.update({
    "igamma": [lambda: [tf.math.igamma(c(_GAMMA_A), c(_GAMMA_X)), tf.math.igamma(c(_GAMMA_A, tf.float64), 1.5)]],
    "igammac": [lambda: tf.math.igammac(c(_GAMMA_A), c(_GAMMA_X))],
    "igamma_grad_a": [lambda: apply(OPS["igamma_grad_a"], [c(_GAMMA_A, tf.float64), c(_GAMMA_X, tf.float64)])],
    "betainc": [lambda: tf.math.betainc(c([0.5, 2.0, 10.0, 0.0]), c([0.5, 3.0, 0.5, 1.0]), c([0.3, 0.9, 0.999, 0.5]))],
})
_SPECIAL_X = [-3.0, 0.0, 0.3, 1.0, 2.5, 30.0]
SAMPLES.update({name: [lambda name=name: [getattr(tf.math.special, name)(c(_SPECIAL_X)),
                                          getattr(tf.math.special, name)(c(_SPECIAL_X, tf.float64))]]
                for name in ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1",
                             "bessel_k1e", "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence")})

# the top level's leftovers and tf.quantization (helper toplvl): each op with the edge its kernel special-cases
_FQ_X = [-7.0, -2.2, -0.1, 0.0, 0.3, 1.26, 5.9, 8.0]
SAMPLES.update({
    "guarantee_const": [lambda: tf.guarantee_const(c([1.0, 2.0]))],
    "edit_distance": [lambda: [tf.edit_distance(tf.SparseTensor([[0, 0, 0], [1, 0, 0]], c(["a", "b"]), [2, 1, 1]),
                                                tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1]], c(["a", "b", "c"]),
                                                                [2, 2, 2]), normalize=norm)
                               for norm in (True, False)]],
    "fake_quant_with_min_max_args": [lambda: tf.quantization.fake_quant_with_min_max_args(c(_FQ_X), -1.3, 2.7, 4,
                                                                                           True)],
    "fake_quant_with_min_max_args_gradient": [lambda: tf.quantization.fake_quant_with_min_max_args_gradient(
        c([1.0] * 8), c(_FQ_X), -1.0, 1.0)],
    "fake_quant_with_min_max_vars": [lambda: tf.quantization.fake_quant_with_min_max_vars(c(_FQ_X), c(-2.1), c(3.3))],
    "fake_quant_with_min_max_vars_per_channel": [lambda: tf.quantization.fake_quant_with_min_max_vars_per_channel(
        tf.reshape(c(_FQ_X), [4, 2]), c([-1.0, 0.5]), c([1.0, 3.0]), 3)],
    "fake_quant_with_min_max_vars_gradient": [
        lambda: tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(
            c([[1.0, 2.0]] * 4), tf.reshape(c(_FQ_X), [4, 2]), c([-1.0, 0.5]), c([1.0, 3.0])),
        lambda: tf.quantization.fake_quant_with_min_max_vars_gradient(c([1.0] * 8), c(_FQ_X), c(-2.1), c(3.3), 5)],
})
SKIPPED.update({name: "stateful: takes a tf.CriticalSection resource (tests/test_toplevel_more_critical_section.py "
                      "runs it eagerly, in graphs and from threads)"
                for name in ("critical_section_lock", "critical_section_unlock")})
SAMPLES["random_index_shuffle"] = [
    lambda: tf.random_index_shuffle(c(7, tf.int64), c([1, 2, 3], tf.int64), c(100, tf.int64)),
    lambda: tf.random_index_shuffle(c([0, 1, 2], tf.uint32), c([[1, 2, 3]] * 3, tf.int32), c(2**20, tf.uint32),
                                    rounds=6)]
_QDQ_X = [-3.3, -1.0, -0.26, 0.0, 0.5, 1.49, 2.9, 0.75]
SAMPLES.update({
    "quantize_and_dequantize_v2": [lambda: tf.quantization.quantize_and_dequantize(c(_QDQ_X), -1.0, 1.5,
                                                                                   range_given=True, num_bits=4)],
    "quantize_and_dequantize_v4": [
        lambda: tf.quantization.quantize_and_dequantize_v2(c(_QDQ_X), 0.0, 0.0, signed_input=False),
        lambda: tf.quantization.quantize_and_dequantize_v2(tf.reshape(c(_QDQ_X), [2, 4]), c([0.0] * 4), c([0.0] * 4),
                                                           axis=1, round_mode="HALF_UP")],
    "quantize_and_dequantize_v4_grad": [lambda: apply(OPS["quantize_and_dequantize_v4_grad"],
                                                      [c([1.0] * 8), c(_QDQ_X), c(-1.0), c(1.5)], {"axis": -1})],
})

# TF's quantized dtypes (helper toplvl2): quantize, dequantize, quantized_concat
_Q_X = [1.0, -2.0, 3.5, -4.5, 0.3, 7.0]
SAMPLES.update({
    "quantize_v2": [lambda: [tf.quantization.quantize(c(_Q_X), -4.0, 4.0, T, mode=mode)
                             for T in (tf.qint8, tf.quint16) for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED")]],
    "dequantize": [lambda: [tf.quantization.dequantize(tf.constant([3, -7, 100], tf.qint8), -2.0, 1.0, mode=mode)
                            for mode in ("MIN_COMBINED", "MIN_FIRST", "SCALED")]],
    "quantized_concat": [lambda: tf.quantization.quantized_concat(
        0, [tf.constant([3, 200], tf.quint8), tf.constant([7], tf.quint8)], [-1.0, 0.0], [1.0, 4.0])],
})

# tf.math.sobol_sample (helper toplvl2)
SAMPLES.update({"sobol_sample": [lambda: [tf.math.sobol_sample(3, 5),
                                          tf.math.sobol_sample(40, 7, skip=9, dtype=tf.float64)]]})
SAMPLES.update({
    "quantized_max_pool": [lambda: tf.compat.v1.nn.quantized_max_pool(
        tf.constant(np.arange(32).reshape(1, 4, 4, 2), tf.quint8), -1.0, 2.0, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")],
    "quantized_avg_pool": [lambda: tf.compat.v1.nn.quantized_avg_pool(
        tf.constant(np.arange(32).reshape(1, 4, 4, 2), tf.quint8), -1.0, 2.0, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")],
    "quantized_conv2d": [lambda: tf.compat.v1.nn.quantized_conv2d(
        tf.constant(np.arange(32).reshape(1, 4, 4, 2), tf.quint8), tf.constant(np.arange(8).reshape(2, 2, 2, 1) * 30,
                                                                               tf.quint8),
        -1.0, 2.0, -0.5, 0.5, [1, 1, 1, 1], "SAME")],
})

# sum_of_squares (helper cnn5): made by its pass, run here standalone as every op
SAMPLES.update({"sum_of_squares": [lambda: [apply(OPS["sum_of_squares"], [arr((3, 5), dtype)], {})
                                            for dtype in (tf.float32, tf.float64)]]})
# the codecs of this sitting (helpers stensor, gapsa): their inputs are encoded bytes or descriptors
SKIPPED.update({
    "decode_proto": "needs a message type in a descriptor pool: tests/test_proto_codec.py runs it eagerly and in "
                    "tf.function against the protobuf library, tests/conformance/proto_codec.py against TF",
    "encode_proto": "needs a message type in a descriptor pool: tests/test_proto_codec.py runs it eagerly and in "
                    "tf.function against the protobuf library, tests/conformance/proto_codec.py against TF",
    "decode_webp": "decodes WebP bytes: tests/test_decode_webp.py runs it eagerly and in tf.function against TF's "
                   "pixels",
    "decode_jxl": "raises UnimplementedError for JPEG XL (no decoder; tests/test_decode_webp.py checks the error)",
})
