"""StructuredTensor indexing, as TF's: a scalar takes a field name (`st["f"]`, then the rest of the key on that
field) or a full slice; a tensor of structures applies ints, scalar integer tensors and slices to every field
(its structures' dimensions) and a string after them names a field (`people[3, "names", 0]`)."""

from __future__ import annotations

from tinytf.runtime.tensor import Tensor

from .structured_tensor import StructuredTensor


def _index(value, key: tuple):
    return value if not key else value.__getitem__(key if len(key) > 1 else key[0])


def getitem(st: StructuredTensor, key):
    if isinstance(key, list):
        key = tuple(key)
    elif not isinstance(key, tuple):
        key = (key,)
    if not key:
        return st
    return _scalar_getitem(st, key) if st.rank == 0 else _tensor_getitem(st, key)


def _scalar_getitem(st, key):
    first = key[0]
    if isinstance(first, slice) and first.start is None and first.stop is None and first.step is None:
        fields = {name: _index(value, key[1:]) for name, value in st._fields.items()}
        return StructuredTensor.from_fields(fields, st.shape)
    if not isinstance(first, (str, bytes)):
        raise ValueError("Key for indexing a StructuredTensor must be a string or a full slice (':')")
    name = first.decode() if isinstance(first, bytes) else first
    return _index(st._fields[name], key[1:])


def _tensor_getitem(st, key):
    rank = st.rank
    if len(key) <= rank:
        fields = {name: _index(value, key) for name, value in st._fields.items()}
        result_shape = st.shape.as_list()
        for d, k in enumerate(key):
            if isinstance(k, slice):
                if not (k.start is None and k.stop is None and k.step is None):
                    result_shape[d] = None
            elif isinstance(k, (int, Tensor)):
                result_shape[d] = -1  # this dimension is dropped
            elif k is None:
                raise ValueError("Slicing not supported for tf.newaxis")
            else:
                raise ValueError(f"Slicing not supported for {k!r}")
        return StructuredTensor.from_fields(fields, [d for d in result_shape if d != -1])
    name = key[rank]
    if not isinstance(name, (str, bytes)):
        raise ValueError("Key for indexing a StructuredTensor must be a string")
    name = name.decode() if isinstance(name, bytes) else name
    return _index(st._fields[name], key[:rank] + key[rank + 1:])
