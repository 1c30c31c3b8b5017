"""Walking an ExtensionType's fields: its value splits into component tensors (what graphs, control flow and
datasets carry) and static parts (Python values, shapes, dtypes: what its Spec records), and is rebuilt from
the two. Fields nest: tuples, ImmutableDicts (by sorted key, as tf.nest orders dicts), composite tensors."""

from __future__ import annotations

from tinytf.runtime.shapes import TensorShape
from tinytf.runtime.tensor import Tensor

from ..tensor_spec import TensorSpec
from .immutable_dict import ImmutableDict


def _sorted_keys(mapping):
    try:
        return sorted(mapping)
    except TypeError:
        return sorted(mapping, key=repr)


def value_components(value, out: list) -> None:
    """Append the component tensors of one field value to `out`, depth first."""
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, tuple):
        for v in value:
            value_components(v, out)
    elif isinstance(value, ImmutableDict):
        for k in _sorted_keys(value):
            value_components(value[k], out)
    elif hasattr(type(value), "_to_components"):
        out.extend(value._to_components())


def spec_components(spec, out: list) -> None:
    """Append the component TensorSpecs of one spec field, in `value_components` order."""
    if isinstance(spec, TensorSpec):
        out.append(spec)
    elif isinstance(spec, tuple):
        for s in spec:
            spec_components(s, out)
    elif isinstance(spec, ImmutableDict):
        for k in _sorted_keys(spec):
            spec_components(spec[k], out)
    elif hasattr(type(spec), "_component_specs"):
        out.extend(spec._component_specs)


def rebuild(spec, components, index: int):
    """(the field value `spec` describes, rebuilt from components[index:], the next index)."""
    if isinstance(spec, TensorSpec):
        return components[index], index + 1
    if isinstance(spec, tuple):
        items = []
        for s in spec:
            item, index = rebuild(s, components, index)
            items.append(item)
        return tuple(items), index
    if isinstance(spec, ImmutableDict):
        built = {}
        for k in _sorted_keys(spec):
            built[k], index = rebuild(spec[k], components, index)
        return ImmutableDict((k, built[k]) for k in spec), index
    if hasattr(type(spec), "_component_specs"):
        count = len(spec._component_specs)
        return spec._from_components(list(components[index:index + count])), index + count
    return spec, index


def spec_of(value):
    """A field value's spec: tensors become TensorSpecs, composites their TypeSpecs, the rest stays."""
    if isinstance(value, Tensor):
        return TensorSpec(value._shape, value.dtype)
    if isinstance(value, tuple):
        return tuple(spec_of(v) for v in value)
    if isinstance(value, ImmutableDict):
        return ImmutableDict((k, spec_of(v)) for k, v in value.items())
    if hasattr(type(value), "_type_spec"):
        return value._type_spec
    return value


def hashable(spec):
    """A hashable form of a spec field, for spec equality and tf.function's trace keys."""
    if isinstance(spec, tuple):
        return ("tuple", tuple(hashable(s) for s in spec))
    if isinstance(spec, ImmutableDict):
        return ("mapping", tuple((k, hashable(spec[k])) for k in _sorted_keys(spec)))
    if isinstance(spec, TensorShape):
        return ("shape", spec._dims)
    if isinstance(spec, TensorSpec):
        return ("tensor", spec._shape, spec.dtype.name)
    return spec


def map_specs(fn, spec):
    """`fn` applied to every TypeSpec (and TensorShape) leaf of a spec field."""
    if isinstance(spec, tuple):
        return tuple(map_specs(fn, s) for s in spec)
    if isinstance(spec, ImmutableDict):
        return ImmutableDict((k, map_specs(fn, v)) for k, v in spec.items())
    return fn(spec)
