"""keras.tree: Keras 3's utilities for nested structures (lists, tuples, namedtuples, dicts), with its rules: dict
leaves in sorted-key order while a rebuilt dict keeps its own key order, None a leaf, strings and tensors leaves,
list and tuple different structures, `traverse` with MAP_TO_NONE."""

from __future__ import annotations

import collections.abc

MAP_TO_NONE = object()  # what a traverse function returns to put None in place of a node


def is_nested(structure) -> bool:
    """Whether structure is a list, tuple or mapping (a node, not a leaf)."""
    return isinstance(structure, (list, tuple, collections.abc.Mapping))


def _children(node):
    """(path key, child) pairs of a node in flattening order."""
    if isinstance(node, collections.abc.Mapping):
        return [(key, node[key]) for key in sorted(node)]
    return list(enumerate(node))


def _rebuild(node, values: dict):
    """A node of node's type with its children replaced by values[key]."""
    if isinstance(node, collections.abc.Mapping):
        return type(node)((key, values[key]) for key in node)
    items = [values[i] for i in range(len(node))]
    if isinstance(node, tuple) and hasattr(node, "_fields"):
        return type(node)(*items)
    return type(node)(items)


def flatten_with_path(structure) -> list:
    """[(path, leaf), ...]: each leaf with the keys and indices leading to it."""
    if not is_nested(structure):
        return [((), structure)]
    return [((key,) + path, leaf) for key, child in _children(structure) for path, leaf in flatten_with_path(child)]


def flatten(structure) -> list:
    """The leaves of structure in order (a leaf alone gives [leaf])."""
    return [leaf for _, leaf in flatten_with_path(structure)]


def _check_same(a, b):
    if is_nested(a) != is_nested(b):
        raise ValueError("Structures don't have the same nested structure.")
    if not is_nested(a):
        return
    mappings = isinstance(a, collections.abc.Mapping) and isinstance(b, collections.abc.Mapping)
    if type(a) is not type(b) and not mappings:
        raise ValueError(f"Expected an instance of {type(a).__name__}, got {b!r}.")
    if isinstance(a, collections.abc.Mapping) and sorted(a) != sorted(b):
        raise ValueError(f"dictionary key mismatch; expected key(s): {sorted(a)}, got key(s): {sorted(b)}.")
    if len(a) != len(b):
        raise ValueError(f"{type(a).__name__} arity mismatch; expected: {len(a)}, got: {len(b)}; "
                         f"{type(b).__name__}: {b!r}.")
    for (_, x), (_, y) in zip(_children(a), _children(b)):
        _check_same(x, y)


def assert_same_structure(a, b, check_types=None) -> None:
    """Raise ValueError unless a and b nest the same way (check_types is Keras' deprecated argument)."""
    _check_same(a, b)


def assert_same_paths(a, b) -> None:
    """Raise ValueError unless a and b have the same leaf paths (their node types may differ)."""
    paths_a = {path for path, _ in flatten_with_path(a)}
    paths_b = {path for path, _ in flatten_with_path(b)}
    if paths_a != paths_b:
        raise ValueError(f"`a` and `b` don't have the same paths.\nPaths in `a` missing in `b`:\n{paths_a - paths_b}"
                         f"\nPaths in `b` missing in `a`:\n{paths_b - paths_a}")


def pack_sequence_as(structure, flat_sequence):
    """structure's nesting filled with flat_sequence's values in flattening order."""
    flat = list(flat_sequence)
    if len(flat) != len(flatten(structure)):
        raise ValueError(f"The target structure is of type `{type(structure)}`\n  {structure}\nHowever the input "
                         f"is a sequence ({type(flat_sequence)}) of length {len(flat)}.\n  {flat_sequence}\nThe "
                         f"input sequence length should match the number of leaves of the target structure, "
                         f"{len(flatten(structure))}.")
    values = iter(flat)

    def fill(node):
        if not is_nested(node):
            return next(values)
        return _rebuild(node, {key: fill(child) for key, child in _children(node)})
    return fill(structure)


def map_structure(func, *structures, none_is_leaf=True):
    """func applied to the leaves at each position of structures (which must nest alike)."""
    if not structures:
        raise ValueError("Must provide at least one structure")
    for other in structures[1:]:
        _check_same(structures[0], other)

    def apply(*nodes):
        first = nodes[0]
        if first is None and not none_is_leaf:
            return None
        if not is_nested(first):
            return func(*nodes)
        children = [dict(_children(n)) for n in nodes]
        return _rebuild(first, {key: apply(*[c[key] for c in children]) for key, _ in _children(first)})
    return apply(*structures)


def map_structure_up_to(shallow_structure, func, *structures):
    """func applied to the subtrees of structures at the leaves of shallow_structure."""
    def apply(shallow, *nodes):
        if not is_nested(shallow):
            return func(*nodes)
        for node in nodes:
            if not is_nested(node) or len(node) != len(shallow):
                raise ValueError(f"The two structures don't have the same sequence length. Input structure has "
                                 f"length {len(node) if is_nested(node) else 0}, while shallow structure has "
                                 f"length {len(shallow)}.")
        children = [dict(_children(n)) for n in nodes]
        return _rebuild(shallow, {key: apply(sub, *[c[key] for c in children]) for key, sub in _children(shallow)})
    return apply(shallow_structure, *structures)


def lists_to_tuples(structure):
    """structure with every list (at any depth) turned into a tuple."""
    if not is_nested(structure):
        return structure
    rebuilt = _rebuild(structure, {key: lists_to_tuples(child) for key, child in _children(structure)})
    return tuple(rebuilt) if isinstance(rebuilt, list) else rebuilt


def _is_shape(value) -> bool:
    return isinstance(value, (list, tuple)) and all(d is None or isinstance(d, int) for d in value)


def map_shape_structure(func, structure):
    """func applied to every shape (a tuple or list of ints and None) in structure."""
    if _is_shape(structure) or not is_nested(structure):
        return func(structure)
    return _rebuild(structure, {key: map_shape_structure(func, child) for key, child in _children(structure)})


def traverse(func, structure, top_down=True):
    """func on every node and leaf: top down, a None result descends into the node and anything else replaces it
    (MAP_TO_NONE: by None); bottom up, func sees each node rebuilt from its children and None keeps it."""
    def result(value, fallback):
        if value is MAP_TO_NONE:
            return None
        return fallback if value is None else value

    def down(node):
        value = func(node)
        if value is not None:
            return result(value, node)
        if not is_nested(node):
            return node
        return _rebuild(node, {key: down(child) for key, child in _children(node)})

    def up(node):
        if is_nested(node):
            node = _rebuild(node, {key: up(child) for key, child in _children(node)})
        return result(func(node), node)
    return down(structure) if top_down else up(structure)


__all__ = ["MAP_TO_NONE", "assert_same_paths", "assert_same_structure", "flatten", "flatten_with_path", "is_nested",
           "lists_to_tuples", "map_shape_structure", "map_structure", "map_structure_up_to", "pack_sequence_as",
           "traverse"]
