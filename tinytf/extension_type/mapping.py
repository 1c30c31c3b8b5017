"""tf.map_fn over BatchableExtensionTypes: a batched value's rows are values of its unbatched spec. map_fn
runs on the component tensors (rows of every component are rows of the value) and the results are rebuilt
with the output spec batched to the number of rows, as TF's batch encoder does."""

from __future__ import annotations

from tinytf.runtime import nest

from .spec import ExtensionTypeSpec


def _is_extension(x) -> bool:
    return hasattr(type(x), "_tf_extension_type_fields")


def involves_extension_types(elems, signature) -> bool:
    return any(_is_extension(x) for x in nest.flatten(elems)) or \
        any(isinstance(s, ExtensionTypeSpec) for s in nest.flatten(signature))


def _row_spec(value):
    spec = value._type_spec
    if not hasattr(spec, "_unbatch"):
        raise ValueError(f"map_fn: {type(value).__name__} is not a BatchableExtensionType: its rows have no spec")
    return spec._unbatch()


def map_fn_over_extension_types(map_fn, fn, elems, signature, **kwargs):
    leaves = nest.flatten(elems)
    row_specs = [_row_spec(x) if _is_extension(x) else None for x in leaves]
    lowered_elems = nest.pack_sequence_as(elems, [tuple(x._to_components()) if _is_extension(x) else x for x in leaves])
    if signature is None and all(s is not None for s in row_specs):
        signature = nest.pack_sequence_as(elems, row_specs)  # fn's results: the structure and row specs of elems
    out_specs = nest.flatten(signature) if signature is not None else None

    def lowered_fn(row):
        row_leaves = iter(nest.flatten(row))
        values = []
        for spec in row_specs:
            if spec is None:
                values.append(next(row_leaves))
            else:
                count = len(spec._component_specs)
                values.append(spec._from_components([next(row_leaves) for _ in range(count)]))
        result = fn(nest.pack_sequence_as(elems, values))
        return nest.pack_sequence_as(result, [tuple(x._to_components()) if _is_extension(x) else x
                                              for x in nest.flatten(result)])

    lowered_signature = None
    if out_specs is not None:
        lowered_signature = nest.pack_sequence_as(signature, [
            tuple(s._component_specs) if isinstance(s, ExtensionTypeSpec) else s for s in out_specs])
    result = map_fn(lowered_fn, lowered_elems, fn_output_signature=lowered_signature, **kwargs)
    if out_specs is None:
        return result
    flat, at, rebuilt = nest.flatten(result), 0, []
    for s in out_specs:
        if isinstance(s, ExtensionTypeSpec):
            count = len(s._component_specs)
            comps = flat[at:at + count]
            at += count
            rows = comps[0]._shape[0] if comps and comps[0]._shape else None
            rebuilt.append(s._batch(rows)._from_components(comps))
        else:
            rebuilt.append(flat[at])
            at += 1
    return nest.pack_sequence_as(signature, rebuilt)

