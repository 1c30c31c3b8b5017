"""ExtensionType values inside tf.data pipelines. An ExtensionType element travels as `ExtensionParts`: a
tuple of its component tensors (so batching, slicing and every other stage treat them as tensors), of a
class made per spec that remembers the ExtensionType's spec when it entered. It becomes an ExtensionType
again where elements leave the pipeline (an iterator, a function's arguments, `element_spec`); a spec batched
or unbatched on the way gains or loses its batch dimensions there (BatchableExtensionType's encoder)."""

from __future__ import annotations

import weakref

from ..tensor_spec import TensorSpec

_CLASSES = weakref.WeakValueDictionary()  # spec -> its parts class, alive while a pipeline structure uses it


class ExtensionParts(tuple):
    """Component tensors (or TensorSpecs) of one ExtensionType value; subclasses carry `_spec`."""

    _spec = None

    def __repr__(self):
        return f"ExtensionParts[{self._spec!r}]{tuple(self)!r}"


def parts_class(spec) -> type:
    cls = _CLASSES.get(spec)
    if cls is None:
        cls = type("ExtensionParts", (ExtensionParts,), {"_spec": spec})
        _CLASSES[spec] = cls
    return cls


def is_extension(value) -> bool:
    return hasattr(type(value), "_tf_extension_type_fields")


def to_parts(value, normalize_leaf):
    """An ExtensionType value as its parts (component tensors normalized by `normalize_leaf`). A value whose
    components do not all share the batch dimension (a StructuredTensor: row splits, inner shape) travels as
    its `_pipeline_components()` instead (its fields), which batch and slice like any element."""
    if hasattr(type(value), "_pipeline_components"):
        return parts_class(value._type_spec)(normalize_leaf(c) for c in value._pipeline_components())
    return parts_class(value._type_spec)(normalize_leaf(c) for c in value._to_components())


def _rank(spec):
    return None if spec._shape is None else len(spec._shape)


def actual_spec(parts):
    """The ExtensionType spec of parts whose components may have gained or lost outer dimensions."""
    base = type(parts)._spec
    if hasattr(base, "_pipeline_spec"):
        return base._pipeline_spec([actual_spec(p) if isinstance(p, ExtensionParts) else p for p in parts])
    mine = [p if isinstance(p, TensorSpec) else TensorSpec(p._shape, p.dtype) for p in parts]
    theirs = base._component_specs
    if not mine or _rank(mine[0]) is None or _rank(theirs[0]) is None:
        return base
    extra = _rank(mine[0]) - _rank(theirs[0])
    spec = base
    if extra > 0:
        for i in reversed(range(extra)):
            spec = spec._batch(mine[0]._shape[i])
    for _ in range(-extra):
        spec = spec._unbatch()
    return spec


def map_parts(structure, fn):
    """`structure` with `fn` applied to each ExtensionParts in it (the rest unchanged)."""
    if isinstance(structure, ExtensionParts):
        return fn(structure)
    if not _holds_parts(structure):
        return structure
    if isinstance(structure, dict):
        return type(structure)((k, map_parts(v, fn)) for k, v in structure.items())
    if hasattr(structure, "_fields"):
        return type(structure)(*[map_parts(v, fn) for v in structure])
    return type(structure)(map_parts(v, fn) for v in structure)


def restore(structure):
    """`structure` with every ExtensionParts of tensors turned back into its ExtensionType value."""
    def rebuild(parts):
        items = [restore(x) for x in parts]
        base = type(parts)._spec
        if hasattr(base, "_from_pipeline_components"):
            return base._from_pipeline_components(items)
        return actual_spec(parts)._from_components(items)
    return map_parts(structure, rebuild)


def restore_spec(structure):
    """`structure` (of specs) with every ExtensionParts of TensorSpecs turned into its ExtensionType spec."""
    return map_parts(structure, actual_spec)


def _holds_parts(structure) -> bool:
    if isinstance(structure, ExtensionParts):
        return True
    if isinstance(structure, dict):
        return any(_holds_parts(v) for v in structure.values())
    if isinstance(structure, (list, tuple)):
        return any(_holds_parts(v) for v in structure)
    return False


def _map_leaves(structure, fn):
    if isinstance(structure, dict):
        return type(structure)((k, _map_leaves(v, fn)) for k, v in structure.items())
    if isinstance(structure, tuple) and hasattr(structure, "_fields"):
        return type(structure)(*[_map_leaves(v, fn) for v in structure])
    if isinstance(structure, (list, tuple)) and not isinstance(structure, ExtensionParts):
        return type(structure)(_map_leaves(v, fn) for v in structure)
    return fn(structure)


def specs_as_parts(structure):
    """A user's element signature with each ExtensionType spec as the parts (TensorSpecs) the pipeline carries."""
    from ..extension_type.spec import ExtensionTypeSpec

    return _map_leaves(structure, lambda s: parts_class(s)(s._component_specs) if isinstance(s, ExtensionTypeSpec)
                       else s)


def values_as_parts(structure):
    """A generator's element with each ExtensionType value as its parts (component tensors)."""
    return _map_leaves(structure, lambda v: to_parts(v, lambda c: c) if is_extension(v) else v)
