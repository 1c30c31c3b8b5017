"""StructuredTensor.with_updates and promote: new StructuredTensors with fields set, transformed, removed or
copied up the nesting (TF's checks and messages)."""

from __future__ import annotations

from .structured_tensor import StructuredTensor, merge_dims


def _as_path(name) -> tuple:
    if isinstance(name, str):
        return (name,)
    return tuple(name)


def with_updates(st: StructuredTensor, updates: dict, validate=False) -> StructuredTensor:
    items = sorted((_as_path(name), value) for name, value in updates.items())
    for (prev, _), (name, _) in zip(items, items[1:]):  # a parent sorts just before its children
        if name[:len(prev)] == prev:
            raise ValueError(f"`StructuredTensor.with_updates` does not allow both parent and child nodes to be "
                             f"updated: parent={prev}, child={name}. If needed you can update child nodes in the "
                             "parent update value.")
    return _with_updates(st, (), items, validate)


def _with_updates(st, prefix: tuple, updates: list, validate) -> StructuredTensor:
    fields = dict(st._fields)

    def full(name):
        return str(prefix + (name,))

    for name, value in updates:
        if not name or not name[0]:
            raise ValueError(f"`StructuredTensor.with_updates` does not allow empty names {full(name)}.")
        if len(name) == 1:
            key = name[0]
            if value is None:
                if key not in fields:
                    raise ValueError(f"`StructuredTensor.with_updates` cannot delete field {full(key)} because it "
                                     "is not present.")
                fields.pop(key)
            elif callable(value):
                if key not in fields:
                    raise ValueError(f"`StructuredTensor.with_updates` cannot update the field {full(key)} because "
                                     "a transforming function was given, but that field does not already exist.")
                fields[key] = value(fields[key])
            else:
                fields[key] = value
            continue
        head, rest = name[0], name[1:]
        if head not in fields:
            raise ValueError(f"`StructuredTensor.with_updates` cannot create new sub-field {prefix + tuple(name)} "
                             f"if parent field {full(head)} is not set.")
        current = fields[head]
        if not isinstance(current, StructuredTensor):
            raise ValueError(f"`StructuredTensor.with_updates` cannot create new sub-field {prefix + tuple(name)} "
                             f"if parent structure {full(head)} is not a `StructuredTensor` that can contain "
                             f"sub-structures -- it is a `{type(current)}`.")
        fields[head] = _with_updates(current, prefix + (head,), [(rest, value)], validate)
    try:
        return StructuredTensor.from_fields(fields, shape=st.shape, row_partitions=st.row_partitions,
                                            nrows=st.nrows(), validate=validate)
    except ValueError as e:
        message = "`StructuredTensor.with_updates` failed"
        if prefix:
            message = f"{message} for field {prefix}"
        raise ValueError(message) from e


def promote(st: StructuredTensor, source_path, new_name) -> StructuredTensor:
    if not isinstance(new_name, str):
        raise ValueError("new_name is not a string")
    if not isinstance(source_path, (list, tuple)):
        raise ValueError("source_path must be a list or tuple")
    if len(source_path) < 2:
        raise ValueError("source_path must have length at least two")
    source_path = tuple(source_path)
    grandparent = source_path[:-2]
    field = st.field_value(source_path)
    new_parent_rank = st.field_value(grandparent).rank
    parent_rank = st.field_value(source_path[:-1]).rank
    if new_parent_rank != parent_rank:
        field_rank = field.shape.rank
        if field_rank is None:
            raise ValueError("Cannot determine if dimensions should be merged.")
        inner = min(parent_rank, field_rank - 1)
        if inner > new_parent_rank:
            field = merge_dims(field, new_parent_rank, inner)
    return st.with_updates({grandparent + (new_name,): field})
