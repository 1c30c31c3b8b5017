"""Python builtins over datasets in code AutoGraph converts, as tf.data registers them with TensorFlow's
AutoGraph: `enumerate(ds)` is ds.enumerate, `zip(ds1, ds2)` Dataset.zip, `map(f, ds...)` a zip mapped by f,
`filter(f, ds)` ds.filter, `any`/`all` of a dataset of bool scalars a filter-take-reduce, `abs(ds)` a map of
abs, and `len(ds)` the cardinality, asserted definite when the graph runs. So
`for i, x in enumerate(dataset)` inside a tf.function is one graph loop over the dataset."""

from __future__ import annotations

from tinytf.autograph.ops_builtins import register_override
from tinytf.runtime import dtypes, nest

from .dataset import INFINITE, UNKNOWN, DatasetV2


def _enumerate(ds, start=0):
    return ds.enumerate(start)


def _zip(*datasets, strict=False):
    if strict:
        raise ValueError("strict zip not supported by Dataset")
    return DatasetV2.zip(datasets)


def _map(fn, *datasets):
    return DatasetV2.zip(datasets).map(fn)


def _filter(fn, ds):
    return ds.filter(fn)


def _bool_scalars(ds, builtin: str) -> None:
    specs = nest.flatten(ds.element_spec)
    if len(specs) != 1 or getattr(specs[0], "dtype", None) != dtypes.bool_:
        raise ValueError(f'in graph mode, the "{builtin}" builtin only supports datasets that return bool '
                         f"scalars; got: {ds.element_spec}")


def _any(ds):
    import tinytf as tf

    _bool_scalars(ds, "any")
    return ds.filter(lambda x: x).take(1).reduce(tf.constant(False), lambda _, y: y)


def _all(ds):
    import tinytf as tf

    _bool_scalars(ds, "all")
    return ds.filter(tf.math.logical_not).take(1).reduce(tf.constant(True), lambda _, y: y)


def _abs(ds):
    import tinytf as tf

    if len(nest.flatten(ds.element_spec)) == 1:
        return ds.map(tf.abs)
    return ds.map(lambda *e: nest.map_structure(tf.abs, e))


def _len(ds):
    import tinytf as tf

    n = ds.cardinality()
    message = tf.strings.join(["len requires dataset with definitive cardinality, got ", tf.strings.as_string(n)])
    with tf.control_dependencies([tf.debugging.Assert(tf.logical_and(n != INFINITE, n != UNKNOWN), [message])]):
        return tf.identity(n)


for _builtin, _override in (("enumerate", _enumerate), ("zip", _zip), ("map", _map), ("filter", _filter),
                            ("any", _any), ("all", _all), ("abs", _abs), ("len", _len)):
    register_override(_builtin, DatasetV2, _override)
