"""Nested structures (lists, tuples, namedtuples, dicts) as TF's tf.nest sees them: dicts by sorted key.

Composites (objects made of tensors, like TensorArray) are leaves unless `expand_composites=True`, which
control flow passes so that a composite travels through cond and while_loop as its component tensors.
A composite has `_to_components()` -> list of tensors and `_from_components(tensors)` -> a new composite with
the same static metadata as the one it is called on; optionally `_join(other)` -> the composite whose metadata
holds for both (control flow calls it to merge two paths, e.g. the two branches of a cond)."""

from __future__ import annotations


def is_nested(value) -> bool:
    return isinstance(value, (list, tuple, dict))


def is_composite(value) -> bool:
    """True for objects made of component tensors (they define `_to_components`)."""
    return hasattr(type(value), "_to_components")


def has_composites(structure) -> bool:
    return any(is_composite(leaf) for leaf in flatten(structure))


def _children(value):
    if isinstance(value, dict):
        return [value[k] for k in _sorted_keys(value)]
    return list(value)


def _sorted_keys(d):
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def flatten(structure, expand_composites: bool = False) -> list:
    """Leaves in order; a non-nested value is its own single leaf. With `expand_composites`, a composite
    contributes its component tensors instead of itself."""
    if not is_nested(structure):
        if expand_composites and is_composite(structure):
            return list(structure._to_components())
        return [structure]
    out = []
    _flatten_into(structure, out, expand_composites)
    return out


def _flatten_into(value, out, expand_composites):
    if isinstance(value, (list, tuple, dict)):
        for child in _children(value):
            _flatten_into(child, out, expand_composites)
    elif expand_composites and is_composite(value):
        out.extend(value._to_components())
    else:
        out.append(value)


def pack_sequence_as(structure, flat, expand_composites: bool = False):
    """Rebuild `structure` with the leaves taken from `flat` in order. With `expand_composites`, each
    composite of `structure` takes as many values as it has components and is rebuilt from them."""
    flat = list(flat)
    if not is_nested(structure) and not (expand_composites and is_composite(structure)):
        if len(flat) != 1:
            raise ValueError(f"expected 1 value for a non-nested structure, got {len(flat)}")
        return flat[0]
    result, used = _pack(structure, flat, 0, expand_composites)
    if used != len(flat):
        raise ValueError(f"structure has {used} leaves but {len(flat)} values were given")
    return result


def _pack(structure, flat, index, expand_composites=False):
    if isinstance(structure, dict):
        packed = {}
        for key in _sorted_keys(structure):
            packed[key], index = _pack(structure[key], flat, index, expand_composites)
        return type(structure)((k, packed[k]) for k in structure) if type(structure) is not dict else \
            {k: packed[k] for k in structure}, index
    if isinstance(structure, (list, tuple)):
        items = []
        for child in structure:
            item, index = _pack(child, flat, index, expand_composites)
            items.append(item)
        if isinstance(structure, tuple) and hasattr(structure, "_fields"):
            return type(structure)(*items), index
        return type(structure)(items), index
    if expand_composites and is_composite(structure):
        counter = getattr(structure, "_component_count", None)  # a composite may count without converting
        count = counter() if counter is not None else len(structure._to_components())
        if index + count > len(flat):
            raise ValueError(f"structure has more leaves than the {len(flat)} values given")
        return structure._from_components(flat[index:index + count]), index + count
    return flat[index], index + 1


def map_structure(fn, *structures, expand_composites: bool = False):
    """Apply `fn` leaf-wise over structures of the same shape (composites' components with
    `expand_composites`)."""
    first = structures[0]
    for other in structures[1:]:
        assert_same_structure(first, other, expand_composites=expand_composites)
    flats = [flatten(s, expand_composites) for s in structures]
    return pack_sequence_as(first, [fn(*leaves) for leaves in zip(*flats)], expand_composites)


def structure_signature(value, expand_composites: bool = False):
    """A hashable description of the nesting (not the leaves): used to compare structures. With
    `expand_composites`, a composite is described by its type and number of components."""
    if isinstance(value, dict):
        return ("dict", tuple((k, structure_signature(value[k], expand_composites)) for k in _sorted_keys(value)))
    if isinstance(value, (list, tuple)):
        kind = type(value).__name__ if hasattr(value, "_fields") else ("list" if isinstance(value, list) else "tuple")
        return (kind, tuple(structure_signature(v, expand_composites) for v in value))
    if expand_composites and is_composite(value):
        return ("composite", type(value).__name__, len(value._to_components()))
    return "."


def assert_same_structure(a, b, check_types: bool = True, expand_composites: bool = False) -> None:
    sa, sb = structure_signature(a, expand_composites), structure_signature(b, expand_composites)
    if not check_types:
        sa, sb = _untyped(sa), _untyped(sb)
    if sa != sb:
        raise ValueError(f"The two structures don't have the same nested structure.\n\n"
                         f"First structure: {_describe(a, expand_composites)}\n\n"
                         f"Second structure: {_describe(b, expand_composites)}")


def _untyped(sig):
    if sig == "." or sig[0] == "composite":  # a composite's type always matters: it decides its components
        return sig
    kind, children = sig
    if kind == "dict":
        return ("dict", tuple((k, _untyped(c)) for k, c in children))
    return ("seq", tuple(_untyped(c) for c in children))


def _describe(value, expand_composites=False):
    return repr(map_leaves_to_dots(value, expand_composites))


class _CompositeMark:
    """How a composite shows in a structure message: its type name, unquoted."""

    def __init__(self, value):
        self.name = type(value).__name__

    def __repr__(self):
        return self.name


def map_leaves_to_dots(value, expand_composites: bool = False):
    if isinstance(value, dict):
        return {k: map_leaves_to_dots(v, expand_composites) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        items = [map_leaves_to_dots(v, expand_composites) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    if expand_composites and is_composite(value):
        return _CompositeMark(value)
    return "."


def flatten_with_paths(structure, path=()) -> list:
    """(path, leaf) pairs in flatten order; a path is a tuple of keys and indices."""
    if isinstance(structure, dict):
        return [pair for k in _sorted_keys(structure) for pair in flatten_with_paths(structure[k], path + (k,))]
    if isinstance(structure, (list, tuple)):
        return [pair for i, v in enumerate(structure) for pair in flatten_with_paths(v, path + (i,))]
    return [(path, structure)]
