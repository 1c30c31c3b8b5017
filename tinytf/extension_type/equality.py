"""The default `==` of ExtensionTypes: component tensors compared by shape and by value."""

from __future__ import annotations


def components_equal(mine: list, theirs: list):
    from tinytf.runtime.ops.array import shape, stack
    from tinytf.runtime.ops.math import equal
    from tinytf.runtime.ops.reduce import reduce_all

    if len(mine) != len(theirs):
        return False
    if not mine:
        from ..constant import constant

        return constant(True)
    conditions = []
    for a, b in zip(mine, theirs):
        same_shape = a._shape is not None and b._shape is not None and None not in a._shape and a._shape == b._shape
        if same_shape:
            conditions.append(reduce_all(equal(a, b)))
            continue
        from tinytf.runtime.ops.control import cond

        shapes_equal = reduce_all(equal(shape(a), shape(b))) if len(a._shape or ()) == len(b._shape or ()) \
            else None
        if shapes_equal is None:
            return False
        conditions.append(cond(shapes_equal, lambda a=a, b=b: reduce_all(equal(a, b)), lambda s=shapes_equal: s))
    return reduce_all(stack(conditions))
