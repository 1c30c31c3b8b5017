"""StructuredTensor.from_pyval / to_pyval: nested Python dicts and lists to a field-major StructuredTensor
and back (TF's rules: dicts become structures, lists of dicts a dimension of structures, other lists
Tensors or RaggedTensors; a typespec fixes the field types)."""

from __future__ import annotations

import numpy as np

from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import EagerTensor, Tensor

from ..ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec
from ..tensor_spec import TensorSpec
from .spec import StructuredTensorSpec
from .structured_tensor import StructuredTensor


def _mismatch(path, a, b):
    return ValueError(f"Value at {path!r} does not match typespec: {a!r} vs {b!r}")


def _is_st_spec(spec) -> bool:
    return isinstance(spec, StructuredTensorSpec)


def from_pyval(pyval, typespec, path: tuple):
    if isinstance(pyval, dict):
        return _from_dict(pyval, typespec, path)
    if isinstance(pyval, (list, tuple)):
        keys: set = set()
        rank = _find_keys_and_depth(pyval, keys)
        if rank is not None:
            return _from_list_of_dict(pyval, keys, rank, typespec, path)
        return _from_list_of_values(pyval, typespec, path)
    return _from_scalar(pyval, typespec, path)


def _from_dict(pyval, typespec, path):
    if typespec is None:
        fields = {k: from_pyval(v, None, path + (k,)) for k, v in pyval.items()}
    else:
        if not (_is_st_spec(typespec) and typespec.rank == 0 and set(pyval) == set(typespec._fields)):
            raise _mismatch(path, pyval, typespec)
        fields = {k: from_pyval(v, typespec._fields[k], path + (k,)) for k, v in pyval.items()}
    return StructuredTensor.from_fields(fields=fields, shape=())


def _from_list_of_dict(pyval, keys, rank, typespec, path):
    # sorted: TF iterates a Python set here, whose order depends on string hashing
    fields = {key: [] for key in sorted(keys)}
    for child in pyval:
        _update_fields(child, fields, 1)
    if typespec is None:
        shape = TensorShape([None] * rank)
        for key, target in fields.items():
            fields[key] = from_pyval(target, None, path + (key,))
    else:
        specs = typespec._fields if _is_st_spec(typespec) else None
        if specs is None or set(fields) - set(specs):
            raise _mismatch(path, pyval, typespec)
        shape = typespec._shape
        if shape.rank < rank:
            raise ValueError(f"Value at {path!r} does not match typespec (rank mismatch): {pyval!r} vs "
                             f"{typespec!r}")
        for key, spec in specs.items():
            fields[key] = from_pyval(fields.get(key, []), spec, path + (key,))
    try:
        if not fields and typespec is None:
            return _from_list_of_empty_dict(pyval, rank)
        return StructuredTensor.from_fields(fields=fields, shape=shape)
    except Exception as e:
        raise ValueError(f"Error parsing path {path!r}") from e


def _dicts_to_zeros(pyval):
    if isinstance(pyval, dict):
        return 0
    return [_dicts_to_zeros(x) for x in pyval]


def _from_list_of_empty_dict(pyval, rank):
    if rank == 1:
        return StructuredTensor.from_fields(fields={}, shape=(len(pyval),), nrows=len(pyval))
    from ..ragged.constant import constant

    zeros = constant(_dicts_to_zeros(pyval))
    parts, level = [], zeros
    while isinstance(level, RaggedTensor):
        parts.append(level._row_partition())
        level = level.values
    return StructuredTensor.from_fields(fields={}, shape=[len(pyval)] + [None] * (rank - 1),
                                        row_partitions=parts[:rank - 1], nrows=len(pyval))


def _from_list_of_values(pyval, typespec, path):
    from ..constant import constant as dense_constant
    from ..ragged.constant import constant

    if typespec is None:
        try:
            return constant(pyval)
        except Exception as e:
            raise ValueError(f"Error parsing path {path!r}") from e
    if isinstance(typespec, TensorSpec):
        try:
            result = dense_constant(pyval, typespec.dtype)
        except Exception as e:
            raise ValueError(f"Error parsing path {path!r}") from e
        if not TensorShape(typespec.shape).is_compatible_with(result.shape):
            raise _mismatch(path, typespec, pyval)
        return result
    if isinstance(typespec, RaggedTensorSpec):
        try:
            return constant(pyval, dtype=typespec.dtype, ragged_rank=typespec.ragged_rank,
                            row_splits_dtype=typespec.row_splits_dtype,
                            inner_shape=typespec.shape[typespec.ragged_rank + 1:])
        except Exception as e:
            raise ValueError(f"Error parsing path {path!r}") from e
    if _is_st_spec(typespec):
        depth = _empty_list_depth(pyval)
        if depth is None:
            raise _mismatch(path, typespec, pyval)
        return _from_list_of_dict(pyval, set(), depth, typespec, path)
    raise _mismatch(path, typespec, pyval)


def _from_scalar(pyval, typespec, path):
    from ..constant import constant

    if typespec is None:
        try:
            return constant(pyval)
        except Exception as e:
            raise ValueError(f"Error parsing path {path!r}") from e
    if not (isinstance(typespec, TensorSpec) and TensorShape(typespec.shape).rank == 0):
        raise _mismatch(path, typespec, pyval)
    return constant(pyval, typespec.dtype)


def _find_keys_and_depth(pyval, keys: set):
    """The nesting depth of the dicts in `pyval` (None without dicts); their keys are added to `keys`."""
    if isinstance(pyval, dict):
        keys.update(pyval.keys())
        return 0
    if isinstance(pyval, (list, tuple)):
        depth = None
        for child in pyval:
            child_depth = _find_keys_and_depth(child, keys)
            if child_depth is not None:
                if depth is None:
                    depth = child_depth + 1
                elif depth != child_depth + 1:
                    raise ValueError("Inconsistent depth of dictionaries")
        return depth
    return None


def _update_fields(pyval, fields: dict, depth: int):
    """Append the field values of `pyval` (a dict or nested list of dicts) to `fields` at `depth`."""
    if not isinstance(pyval, (dict, list, tuple)):
        raise ValueError("Expected dict or nested list/tuple of dict")
    for key, target in fields.items():
        for _ in range(1, depth):
            target = target[-1]
        target.append(pyval[key] if isinstance(pyval, dict) else [])
    if isinstance(pyval, (list, tuple)):
        for child in pyval:
            _update_fields(child, fields, depth + 1)


def _empty_list_depth(pyval):
    if isinstance(pyval, list):
        if not pyval:
            return 1
        depths = [_empty_list_depth(v) for v in pyval]
        return None if any(d is None for d in depths) else max(depths) + 1
    return None


# --- to_pyval ---------------------------------------------------------------------------------------------------
def _is_eager(st) -> bool:
    return all(isinstance(t, EagerTensor) for t in st._to_components())


def _py(value):
    if isinstance(value, StructuredTensor):
        return to_pyval(value)
    if isinstance(value, RaggedTensor):
        return value.to_list()
    if isinstance(value, Tensor):
        array = value.numpy()
        return array.tolist() if isinstance(array, np.ndarray) else array
    return value


def to_pyval(st: StructuredTensor):
    if not _is_eager(st):
        raise ValueError("StructuredTensor.to_pyval() is only supported in eager mode.")
    result = {key: _py(value) for key, value in st._fields.items()}
    if st.rank == 0:
        return result
    if not result:
        return _empty_dicts(st.row_partitions, int(st.nrows().numpy()))
    return _field_major_to_node_major(list(result), list(result.values()), st.rank)


def _field_major_to_node_major(keys, values, depth):
    if depth == 0:
        return dict(zip(keys, values))
    return [_field_major_to_node_major(keys, row, depth - 1) for row in zip(*values)]


def _empty_dicts(partitions, nrows):
    if not partitions:
        return [{} for _ in range(nrows)]
    splits = [int(s) for s in partitions[0].row_splits().numpy()]
    values = _empty_dicts(partitions[1:], splits[-1])
    return [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
