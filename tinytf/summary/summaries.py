"""`tf.summary.scalar/histogram/image/audio/text/write`: check the value, resolve the step, the tag and the
record condition now (at trace time inside a tf.function, as TF does), then apply the stateful
write_summary op, which writes on every call. Without a default writer nothing is staged and the result is
False."""

from __future__ import annotations

import contextlib

from tinytf.runtime.dtypes import bool_, float32, int64
from tinytf.runtime.ops.math import cast
from tinytf.runtime.ops.summary import write_summary
from tinytf.runtime.resource import Resource

from ..constant import constant, convert_to_tensor
from ..scopes import current_name_scope
from .writer import state


def _value(data):
    return data.read_value() if isinstance(data, Resource) else convert_to_tensor(data)


def _step(step):
    step = state.step if step is None else step
    if step is None:
        raise ValueError("No step set. Please specify one either through the `step` argument or through "
                         "tf.summary.experimental.set_step()")
    if isinstance(step, Resource):
        step = step.read_value()
    return convert_to_tensor(step, int64)


def _record():
    condition = state.record_if
    if callable(condition):
        condition = condition()
    return constant(True) if condition is None else convert_to_tensor(condition, bool_)


def should_record_summaries():
    """`tf.summary.should_record_summaries()`: a bool tensor, False when no writer is the default."""
    if state.writer is None:
        return constant(False)
    return _record()


@contextlib.contextmanager
def record_if(condition):
    """Record summaries inside the block only when `condition` (a bool, a bool tensor or a callable
    returning one, evaluated at each summary call) is true."""
    previous = state.record_if
    state.record_if = condition
    try:
        yield
    finally:
        state.record_if = previous


def _write(plugin, name, data, step, options):
    if state.writer is None:
        return constant(False)
    return write_summary(state.writer, plugin, current_name_scope() + name, _step(step), data, _record(), options)


def scalar(name, data, step=None, description=None):
    """`tf.summary.scalar`: one number per step (TensorBoard's scalars dashboard)."""
    data = _value(data)
    if data.shape.rank not in (None, 0):
        raise ValueError(f"Expected scalar shape, saw shape: {data.shape}.")
    # TensorBoard's scalars are float32, whatever the data's dtype (as TF's scalar summary casts them).
    return _write("scalars", name, cast(data, float32), step, {"description": description or ""})


def histogram(name, data, step=None, buckets=None, description=None):
    """`tf.summary.histogram`: the distribution of a tensor's values in `buckets` (30) equal-width buckets."""
    return _write("histograms", name, _value(data), step, {"description": description or "", "buckets": buckets})


def image(name, data, step=None, max_outputs=3, description=None):
    """`tf.summary.image`: up to `max_outputs` images of a [k, h, w, c] tensor (floats in [0, 1])."""
    data = _value(data)
    rank = data.shape.rank
    if rank is not None and rank != 4:
        raise ValueError(f"Tensor  must have rank 4.  Received rank {rank}, shape {data.shape}")
    channels = data.shape[3] if rank == 4 else None
    if channels is not None and channels not in (1, 2, 3, 4):
        raise ValueError(f"tf.summary.image: images must have 1, 2, 3 or 4 channels, got shape {data.shape}")
    return _write("images", name, data, step, {"description": description or "", "max_outputs": int(max_outputs)})


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """`tf.summary.audio`: up to `max_outputs` clips of a [k, t, c] float tensor in [-1, 1], as WAV."""
    if encoding not in (None, "wav"):
        raise ValueError(f"Unknown encoding: {encoding!r}")
    data = _value(data)
    if data.shape.rank not in (None, 3):
        raise ValueError(f"Tensor  must have rank 3.  Received rank {data.shape.rank}, shape {data.shape}")
    return _write("audio", name, data, step, {"description": description or "", "sample_rate": int(sample_rate),
                                              "max_outputs": int(max_outputs)})


def text(name, data, step=None, description=None):
    """`tf.summary.text`: a string tensor, rendered as Markdown by TensorBoard."""
    return _write("text", name, _value(data), step, {"description": description or ""})
