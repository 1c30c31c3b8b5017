"""tf.map_fn, tf.vectorized_map, tf.scan, tf.foldl, tf.foldr: functions applied along dimension 0 of (nested)
tensors. Each is one tf.while_loop over the rows, reading them by index and collecting results in
TensorArrays, so the same code runs eagerly (a Python loop) and in graphs (one while node), and is
differentiable through the loop's gradient. tf.vectorized_map has no vectorizing compiler behind it here: it
runs map_fn's loop (TF's own fallback when pfor cannot vectorize), with the output signature taken from a
call of `fn` on the first row. RaggedTensor and SparseTensor elems, and RaggedTensorSpec results (rows of
different lengths), work eagerly and in graphs; results that are SparseTensors or ragged RaggedTensors
(fn returning a RaggedTensor) are built eagerly only."""

from __future__ import annotations

from tinytf.runtime import dtypes, nest
from tinytf.runtime.context import state
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops.array import concat, stack
from tinytf.runtime.ops.array import shape as _shape
from tinytf.runtime.ops.control import while_loop
from tinytf.runtime.ops.tensor_array import TensorArray
from tinytf.runtime.tensor import Tensor

from .ragged import RaggedTensor, RaggedTensorSpec
from .sparse import SparseTensor, SparseTensorSpec
from .tensor_spec import TensorSpec


def _as_tensors(elems, what):
    def convert(x):
        if isinstance(x, (RaggedTensor, SparseTensor)):
            return x
        return convert_to_tensor(x)

    flat = [convert(x) for x in nest.flatten(elems)]
    if not flat:
        raise ValueError(f"{what}: elems must be a Tensor or a (possibly nested) sequence of tensors, got {elems!r}")
    for x in flat:
        if isinstance(x, Tensor) and x._shape is not None and not x._shape:
            raise ValueError(f"{what}: elements in elems must be 1+ dimensional Tensors, not scalars")
    return flat


def _row_count(flat):
    first = flat[0]
    if isinstance(first, SparseTensor):
        return first._shape[0] if first._shape and first._shape[0] is not None else int(first.dense_shape.numpy()[0])
    if isinstance(first, RaggedTensor):
        return first._nrows if first._nrows is not None else first.nrows(dtypes.int32)
    static = None if first._shape is None else first._shape[0]
    return static if static is not None else _shape(first)[0]


def _rows(flat, i):
    from .sparse.reshape import row

    return [row(x, i) if isinstance(x, SparseTensor) else x[i] for x in flat]


def _signature_leaves(signature, elems_flat):
    if signature is None:
        return None
    return nest.flatten(signature)


def _spec_dtype(spec):
    if isinstance(spec, (TensorSpec, RaggedTensorSpec, SparseTensorSpec)):
        return spec.dtype
    return dtypes.as_dtype(spec)


def _is_eager(flat) -> bool:
    return state.graph is None and not any(isinstance(x, Tensor) and type(x).__name__ != "EagerTensor"
                                           for x in flat)


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False, infer_shape=True,
           name=None, fn_output_signature=None):
    """`tf.map_fn`: stack(fn(row) for row in elems), rows along dimension 0 of every tensor of `elems`.
    `fn_output_signature` (or the deprecated `dtype`) gives the structure and dtypes of fn's result when they
    differ from those of `elems`; a tf.RaggedTensorSpec there makes the result ragged."""
    if fn_output_signature is None:
        fn_output_signature = dtype
    from .extension_type.mapping import involves_extension_types, map_fn_over_extension_types

    if involves_extension_types(elems, fn_output_signature):
        return map_fn_over_extension_types(map_fn, fn, elems, fn_output_signature,
                                           parallel_iterations=parallel_iterations, back_prop=back_prop,
                                           swap_memory=swap_memory, infer_shape=infer_shape, name=name)
    flat = _as_tensors(elems, "map_fn")
    n = _row_count(flat)
    signature = fn_output_signature
    if signature is None:
        signature = nest.pack_sequence_as(elems, [_spec_like(x) for x in flat])
    composite_out = any(isinstance(s, (RaggedTensorSpec, SparseTensorSpec)) for s in nest.flatten(signature))
    composite_in = any(isinstance(x, (RaggedTensor, SparseTensor)) for x in flat)
    if (composite_out or composite_in) and state.graph is None:
        return _map_eagerly(fn, elems, flat, n, signature)
    if any(isinstance(s, SparseTensorSpec) or isinstance(s, RaggedTensorSpec) and s.ragged_rank > 0
           for s in nest.flatten(signature)):
        raise NotImplementedError("map_fn inside tf.function: results that are SparseTensors or RaggedTensors of "
                                  "ragged rows are supported eagerly only")
    sig_leaves = nest.flatten(signature)

    def call(i):
        result = fn(nest.pack_sequence_as(elems, _rows(flat, i)))
        try:
            nest.assert_same_structure(signature, result, check_types=False)
        except ValueError:
            raise ValueError(f"The two structures don't have the same nested structure: fn_output_signature "
                             f"{signature!r} but fn returned {result!r}") from None
        out = [convert_to_tensor(r, dtype_hint=_spec_dtype(s)) for r, s in zip(nest.flatten(result), sig_leaves)]
        # a RaggedTensorSpec result (rows of different lengths) is collected as its rows and their lengths
        out = [x for r, s in zip(out, sig_leaves)
               for x in ([r, _shape(r, out_type=dtypes.int64)[0]] if isinstance(s, RaggedTensorSpec) else [r])]
        for r, s in zip(out, sig_leaves):
            if r.dtype is not _spec_dtype(s):
                raise TypeError(f"map_fn: fn returned a {r.dtype.name} tensor where fn_output_signature says "
                                f"{_spec_dtype(s).name}")
        return out

    arrays = []
    for s in sig_leaves:
        if isinstance(s, RaggedTensorSpec):
            arrays += [TensorArray(s.dtype, size=n, infer_shape=False), TensorArray(dtypes.int64, size=n)]
        else:
            arrays.append(TensorArray(_spec_dtype(s), size=n, element_shape=getattr(s, "_shape", None) if
                                      isinstance(s, TensorSpec) and fn_output_signature is not None else None,
                                      infer_shape=infer_shape))

    def body(i, *tas):
        return (i + 1,) + tuple(ta.write(i, r) for ta, r in zip(tas, call(i)))

    _, *tas = while_loop(lambda i, *_: i < n, body, [convert_to_tensor(0)] + arrays)
    results, arrays = [], iter(tas)
    for s in sig_leaves:
        if isinstance(s, RaggedTensorSpec):
            rows, lengths = next(arrays), next(arrays)
            results.append(RaggedTensor.from_row_lengths(rows.concat(), lengths.stack(), validate=False))
        else:
            results.append(next(arrays).stack())
    return nest.pack_sequence_as(signature, results)


def _spec_like(x):
    if isinstance(x, RaggedTensor):
        inner = x._static_shape()
        return RaggedTensorSpec(None if inner is None else inner[1:], x.dtype, x.ragged_rank - 1)
    if isinstance(x, SparseTensor):
        return TensorSpec(None, x.dtype)
    return TensorSpec(None if x._shape is None else x._shape[1:], x.dtype)


def _map_eagerly(fn, elems, flat, n, signature):
    """map_fn over ragged/sparse rows or to ragged/sparse results: a Python loop (eager only)."""
    if not isinstance(n, int):
        raise NotImplementedError("map_fn over RaggedTensor/SparseTensor rows, or to ragged results, "
                                  "needs a known number of rows (it runs eagerly)")
    results = [nest.flatten(fn(nest.pack_sequence_as(elems, _rows(flat, i)))) for i in range(n)]
    out = []
    for k, spec in enumerate(nest.flatten(signature)):
        column = [r[k] for r in results]
        if isinstance(spec, RaggedTensorSpec):
            out.append(_ragged_from_rows(column, spec))
        elif isinstance(spec, SparseTensorSpec):
            from .sparse.reshape import stack_rows

            out.append(stack_rows(column, spec.dtype))
        else:
            out.append(stack([convert_to_tensor(c, dtype_hint=_spec_dtype(spec)) for c in column]))
    return nest.pack_sequence_as(signature, out)


def _ragged_from_rows(rows, spec: RaggedTensorSpec):
    dtype = spec.dtype  # each row is a tensor (spec ragged_rank 0) or a RaggedTensor: the result has one more
    parts = [r if isinstance(r, RaggedTensor) else convert_to_tensor(r, dtype_hint=dtype) for r in rows]
    if all(isinstance(p, RaggedTensor) for p in parts) and parts:
        values = _concat_ragged(parts)
        return RaggedTensor.from_row_lengths(values, [int(p.nrows().numpy()) for p in parts])
    lengths = [int(p._shape[0]) for p in parts]
    values = concat(parts, 0) if parts else convert_to_tensor([], dtype=dtype)
    return RaggedTensor.from_row_lengths(values, lengths)


def _concat_ragged(parts):
    rows = [row for p in parts for row in p.to_list()]
    from .ragged import constant

    return constant(rows, dtype=parts[0].dtype, ragged_rank=parts[0].ragged_rank)


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """`tf.vectorized_map`: fn applied to every row, results stacked; runs map_fn's loop (see the module doc)."""
    flat = _as_tensors(elems, "vectorized_map")
    probe = fn(nest.pack_sequence_as(elems, _rows(flat, 0))) if not _is_eager(flat) else None
    if probe is None:
        n = _row_count(flat)
        results = [fn(nest.pack_sequence_as(elems, _rows(flat, i))) for i in range(n)]
        if not results:
            return map_fn(fn, elems)
        return nest.map_structure(lambda *rows: stack([convert_to_tensor(r) for r in rows]), *results)
    signature = nest.map_structure(lambda t: TensorSpec(convert_to_tensor(t)._shape, convert_to_tensor(t).dtype),
                                   probe)
    return map_fn(fn, elems, fn_output_signature=signature)


def _scan_loop(fn, elems, initializer, reverse, collect, what):
    flat = _as_tensors(elems, what)
    n = _row_count(flat)
    first_given = initializer is not None
    if not first_given:
        start = n - 1 if reverse else 0
        initializer = nest.pack_sequence_as(elems, _rows(flat, start))
    acc_structure = initializer
    acc = [convert_to_tensor(a) for a in nest.flatten(initializer)]
    collected = [TensorArray(a.dtype, size=n, infer_shape=True) for a in acc] if collect else []
    if collect and not first_given:
        collected = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(collected, acc)]
    count = len(acc)

    def body(i, *state_):
        accs, tas = state_[:count], state_[count:]
        row = (n - 1 - i) if reverse else i
        result = fn(nest.pack_sequence_as(acc_structure, list(accs)), nest.pack_sequence_as(elems, _rows(flat, row)))
        try:
            nest.assert_same_structure(acc_structure, result, check_types=False)
        except ValueError:
            raise ValueError(f"{what}: fn must return the structure of the accumulator {acc_structure!r}, "
                             f"got {result!r}") from None
        new = [convert_to_tensor(r, dtype_hint=a.dtype) for r, a in zip(nest.flatten(result), accs)]
        tas = tuple(ta.write(row, r) for ta, r in zip(tas, new))
        return (i + 1, *new, *tas)

    start = convert_to_tensor(0 if first_given else 1)
    _, *final = while_loop(lambda i, *_: i < n, body, [start] + acc + collected)
    accs, tas = final[:count], final[count:]
    if collect:
        return nest.pack_sequence_as(acc_structure, [ta.stack() for ta in tas])
    return nest.pack_sequence_as(acc_structure, accs)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, infer_shape=True,
         reverse=False, name=None):
    """`tf.scan`: the accumulator after every row, stacked: a_i = fn(a_{i-1}, row_i) (a_0 = initializer, or the
    first row when there is none)."""
    return _scan_loop(fn, elems, initializer, reverse, True, "scan")


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """`tf.foldl`: fn(...fn(fn(initializer, row_0), row_1)..., row_n-1) (the first row when no initializer)."""
    return _scan_loop(fn, elems, initializer, False, False, "foldl")


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False, name=None):
    """`tf.foldr`: foldl from the last row to the first."""
    return _scan_loop(fn, elems, initializer, True, False, "foldr")
