"""`tf.nest`: nested structures (lists, tuples, namedtuples, dicts) flattened, mapped and rebuilt as TF does
(dict values in sorted-key order; with `expand_composites`, SparseTensor and RaggedTensor as their components)."""

from __future__ import annotations

import collections.abc

from tinytf.runtime import nest as _nest


def is_nested(seq) -> bool:
    """True for lists, tuples (namedtuples too), dicts and dict views: the containers tf.nest walks into."""
    return _nest.is_nested(seq) or isinstance(seq, collections.abc.MappingView)


def flatten(structure, expand_composites: bool = False) -> list:
    """The leaves of `structure` in order (a non-nested value is one leaf; None too)."""
    return _nest.flatten(structure, expand_composites)


def pack_sequence_as(structure, flat_sequence, expand_composites: bool = False, sequence_fn=None):
    """`structure` rebuilt with its leaves taken in order from `flat_sequence`."""
    if not is_nested(flat_sequence):
        raise TypeError(f"Attempted to pack value:\n  {flat_sequence!r}\ninto a structure, but found incompatible "
                        f"type `{type(flat_sequence)}` instead.")
    flat = list(flat_sequence)
    expected = len(_nest.flatten(structure, expand_composites))
    if expected != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {expected} atoms, but flat_sequence had "
                         f"{len(flat)} items. Structure: {structure}, flat_sequence: {flat_sequence}.")
    return _nest.pack_sequence_as(structure, flat, expand_composites)


def assert_same_structure(nest1, nest2, check_types: bool = True, expand_composites: bool = False) -> None:
    """TF's checks, container by container in TF's order: whether both are nested (ValueError), their types with
    `check_types` (TypeError), a dict's keys with `check_types` (ValueError), their lengths (ValueError). Without
    `check_types` a container is only its values in flatten order: a namedtuple and a dict of two values have
    the same structure."""
    try:
        _assert_same(nest1, nest2, check_types, expand_composites)
    except ValueError as e:
        raise ValueError(f"The two structures don't have the same nested structure.\n\nFirst structure: "
                         f"{_described(nest1)}\n\nSecond structure: {_described(nest2)}\n\nMore specifically: {e}"
                         f"\nEntire first structure:\n{_dots(nest1)}\nEntire second structure:\n{_dots(nest2)}"
                         ) from None


def _dots(value) -> str:
    """The structure with every leaf shown as an unquoted dot, as TF's messages show it."""
    return repr(_nest.map_leaves_to_dots(value)).replace("'.'", ".")


def _described(value) -> str:
    return f"type={type(value).__name__} str={value}"


def _assert_same(a, b, check_types, expand_composites) -> None:
    if is_nested(a) != is_nested(b):
        nested, leaf = (a, b) if is_nested(a) else (b, a)
        raise ValueError(f'Substructure "{_described(nested)}" is a sequence, while substructure '
                         f'"{_described(leaf)}" is not')
    if not is_nested(a):
        if expand_composites and _nest.is_composite(a) and _nest.is_composite(b) and type(a) is not type(b):
            raise TypeError(f"The two structures don't have the same sequence type: {type(a).__name__} and "
                            f"{type(b).__name__}")
        return
    if check_types and _kind(a) != _kind(b):
        raise TypeError(f"The two structures don't have the same sequence type. Input structure has type "
                        f"{type(a)}, while shallow structure has type {type(b)}.")
    if check_types and isinstance(a, dict) and set(a) != set(b):
        raise ValueError(f"The two dictionaries don't have the same set of keys. First structure has keys "
                         f"{_described(_nest._sorted_keys(a))}, while second structure has keys "
                         f"{_described(_nest._sorted_keys(b))}")
    children_a, children_b = _nest._children(a), _nest._children(b)
    if len(children_a) != len(children_b):
        raise ValueError(f"The two structures don't have the same number of elements. First structure: "
                         f"{_described(a)}. Second structure: {_described(b)}")
    for x, y in zip(children_a, children_b):
        _assert_same(x, y, check_types, expand_composites)


def _kind(value):
    if isinstance(value, dict):
        return dict
    return type(value)


def map_structure(func, *structure, **kwargs):
    """`func` applied leaf-wise to structures of one shape; the result has that shape."""
    check_types = kwargs.pop("check_types", True)
    expand_composites = kwargs.pop("expand_composites", False)
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types` and `expand_composites`, not: "
                         f"`{', '.join(kwargs)}`")
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types, expand_composites)
    flats = [flatten(s, expand_composites) for s in structure]
    return _nest.pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flats)], expand_composites)


def flatten_with_paths(structure) -> list:
    """(path, leaf) pairs, a path being the tuple of keys and indices that reaches the leaf."""
    return _nest.flatten_with_paths(structure)


def map_structure_with_paths(func, *structure, **kwargs):
    """func(path, *leaves) for every leaf; TF's path is a '/'-joined string of keys and indices."""
    first = structure[0]
    paths = ["/".join(str(p) for p in path) for path, _ in _nest.flatten_with_paths(first)]
    flats = [flatten(s) for s in structure]
    return _nest.pack_sequence_as(first, [func(p, *leaves) for p, *leaves in zip(paths, *flats)])
