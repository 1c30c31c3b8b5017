"""TF1's global step: the int64 scalar variable `global_step` in the GLOBAL_STEP collection, which
`optimizer.minimize(loss, global_step=...)` increments and the learning-rate decays read."""

from __future__ import annotations


def _v1():
    from tinytf.compat import v1

    return v1


def get_global_step(graph=None):
    """The graph's global step variable, or None (TF's errors when there are several or it is no scalar)."""
    v1 = _v1()
    graph = graph or v1.get_default_graph()
    found = graph.collections.get("global_step", [])
    if len(found) > 1:
        raise TypeError("There are multiple items in collection global_step. There should be only one.")
    if not found:
        return None
    assert_global_step(found[0])
    return found[0]


def create_global_step(graph=None):
    """A new global step of `graph` (the default graph); ValueError when it has one already."""
    v1 = _v1()
    graph = graph or v1.get_default_graph()
    if get_global_step(graph) is not None:
        raise ValueError('"global_step" already exists.')
    with graph.as_default(), v1.variable_scope(v1.get_variable_scope(), reuse=v1.AUTO_REUSE):
        import tinytf as tf

        return v1.get_variable("global_step", shape=[], dtype=tf.int64, initializer=v1.zeros_initializer(),
                               trainable=False, collections=["variables", "global_step"])


def get_or_create_global_step(graph=None):
    found = get_global_step(graph)
    return create_global_step(graph) if found is None else found


def assert_global_step(global_step_tensor) -> None:
    """TypeError unless `global_step_tensor` is an integer scalar (a variable or a tensor)."""
    dtype = getattr(global_step_tensor, "dtype", None)
    if dtype is None or not dtype.is_integer:
        raise TypeError(f"Existing \"global_step\" does not have integer type: {dtype}")
    if global_step_tensor.shape.rank != 0 and global_step_tensor.shape.is_fully_defined():
        raise TypeError(f"Existing \"global_step\" is not scalar: {global_step_tensor.shape}")


def global_step(sess, global_step_tensor) -> int:
    """The global step's value in `sess`, as a Python int."""
    return int(sess.run(global_step_tensor))
