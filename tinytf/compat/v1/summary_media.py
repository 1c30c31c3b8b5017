"""TF1's tf.compat.v1.summary.image and .audio (serialized Summary protos, as summary_ops.py's scalar and
histogram), get_summary_description, all_v2_summary_ops and initialize.

image follows TF's ImageSummary kernel: uint8 images as they are; float images each mapped to uint8 on their
own: all finite values >= 0 are scaled so the largest is 255, otherwise 0.0 goes to 128 and the largest
magnitude to +-127; NaN and inf pixels get the bad color (red, cut to the depth); values truncate to uint8.
Tags are `<tag>/image/<i>` (`<tag>/image` when max_outputs is 1), likewise for audio."""

from __future__ import annotations

import io
import zlib

import numpy as np
from tensorboard.compat.proto import summary_pb2

from tinytf.runtime.ops.py_function import numpy_function

from .summary_ops import _collect, _family_tag


def _tf():
    import tinytf

    return tinytf


def _png(pixels: np.ndarray) -> bytes:
    """A PNG of an [h, w, c] uint8 image (c = 1 grey, 3 RGB, 4 RGBA), unfiltered rows, zlib-compressed."""
    height, width, depth = pixels.shape
    color = {1: 0, 3: 2, 4: 6}[depth]
    raw = b"".join(b"\x00" + pixels[row].tobytes() for row in range(height))

    def chunk(kind, data):
        body = kind + data
        return len(data).to_bytes(4, "big") + body + zlib.crc32(body).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, color, 0, 0, 0])
    out = io.BytesIO()
    out.write(b"\x89PNG\r\n\x1a\n")
    out.write(chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))
    return out.getvalue()


def to_uint8(image: np.ndarray, bad_color: np.ndarray) -> np.ndarray:
    """One image as TF's ImageSummary kernel maps it to uint8 (see the module docstring)."""
    if image.dtype == np.uint8:
        return image
    compute = np.float64 if image.dtype == np.float64 else np.float32
    values = image.astype(compute)
    finite = np.isfinite(values)
    lo = values[finite].min() if finite.any() else np.inf
    hi = values[finite].max() if finite.any() else -np.inf
    if lo < 0:
        largest = max(abs(lo), abs(hi))
        scale, offset = (compute(0) if largest < 1e-6 else compute(127.0) / compute(largest)), compute(128.0)
    else:
        scale, offset = (compute(0) if hi < 1e-6 else compute(255.0) / compute(hi)), compute(0.0)
    mapped = np.where(finite, values * scale + offset, 0).astype(np.uint8)
    bad_pixel = ~finite.all(axis=-1)
    mapped[bad_pixel] = bad_color[: image.shape[-1]]
    return mapped


def _named(serialized, name):
    """The summary tensor as TF's: a scalar string named as the summary (its op is the node of that name)."""
    tf = _tf()
    return tf.identity(tf.ensure_shape(serialized, []), name=name)


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """A Summary with up to `max_outputs` PNG images of a [batch, height, width, 1|3|4] uint8/float tensor."""
    tf = _tf()
    tag = _family_tag(name, family)
    tensor = tf.convert_to_tensor(tensor)
    red = np.array([255, 0, 0, 255], np.uint8)

    def encode(data):
        data = np.asarray(data)
        if data.ndim != 4 or data.shape[-1] not in (1, 3, 4):
            raise tf.errors.InvalidArgumentError(None, None, "Tensor must be 4-D with last dim 1, 3, or 4, not "
                                                             f"[{','.join(str(d) for d in data.shape)}]")
        values = []
        for i, picture in enumerate(data[:max_outputs]):
            pixels = to_uint8(picture, red)
            values.append(summary_pb2.Summary.Value(
                tag=f"{tag}/image/{i}" if max_outputs > 1 else f"{tag}/image",
                image=summary_pb2.Summary.Image(height=pixels.shape[0], width=pixels.shape[1],
                                                colorspace=pixels.shape[2], encoded_image_string=_png(pixels))))
        return np.asarray(summary_pb2.Summary(value=values).SerializeToString(), dtype=object)

    return _collect(_named(numpy_function(encode, [tensor], tf.string), name), collections)


def audio(name, tensor, sample_rate, max_outputs=3, collections=None, family=None):
    """A Summary with up to `max_outputs` WAV clips of a [batch, frames] or [batch, frames, channels] float
    tensor in [-1, 1]."""
    tf = _tf()
    from ...summary.encode import wav

    tag = _family_tag(name, family)
    tensor = tf.convert_to_tensor(tensor, dtype=tf.float32)
    rate = tf.convert_to_tensor(sample_rate, dtype=tf.float32)

    def encode(data, rate):
        data = np.asarray(data, np.float32)
        if data.ndim == 2:
            data = data[:, :, None]
        if data.ndim != 3:
            raise tf.errors.InvalidArgumentError(None, None, "sound must be of shape [batch_size, frames] or "
                                                             f"[batch_size, frames, channels], got {list(data.shape)}")
        rate = float(rate)
        values = []
        for i, clip in enumerate(data[:max_outputs]):
            values.append(summary_pb2.Summary.Value(
                tag=f"{tag}/audio/{i}" if max_outputs > 1 else f"{tag}/audio",
                audio=summary_pb2.Summary.Audio(sample_rate=rate, num_channels=clip.shape[1],
                                                length_frames=clip.shape[0], content_type="audio/wav",
                                                encoded_audio_string=wav(clip, int(rate)))))
        return np.asarray(summary_pb2.Summary(value=values).SerializeToString(), dtype=object)

    return _collect(_named(numpy_function(encode, [tensor, rate], tf.string), name), collections)


def get_summary_description(node_def):
    """The SummaryDescription a TensorSummary node keeps, as JSON, in its `description` attribute."""
    from google.protobuf import json_format

    if node_def.op != "TensorSummary":
        raise ValueError(f"Can't get_summary_description on {node_def.op}")
    description = node_def.attr["description"].s
    description = description.decode() if isinstance(description, bytes) else description
    return json_format.Parse(description, summary_pb2.SummaryDescription())


def all_v2_summary_ops():
    """The results (bool tensors) of the TF2-style summary writes (tf.summary.* inside the default TF1 graph);
    None when eager, as TF. TF 1.x's own summaries (tf.compat.v1.summary.scalar, ...) are not among them."""
    tf = _tf()
    from tinytf.runtime.context import state

    from .graph import Graph, get_default_graph

    if tf.executing_eagerly() or not isinstance(state.graph, Graph):
        return None
    return [op.outputs[0] for op in get_default_graph().get_operations() if op.type in _V2_SUMMARY_OP_TYPES]


_V2_SUMMARY_OP_TYPES = ("write_summary", "WriteSummary", "WriteScalarSummary", "WriteHistogramSummary",
                        "WriteImageSummary", "WriteAudioSummary", "WriteRawProtoSummary")


def initialize(graph=None, session=None):
    """Start the default TF2 summary writer from a TF1 program and, given a graph, write it to the writer's
    event file; a no-op eagerly (TF's tf.compat.v1.summary.initialize)."""
    tf = _tf()
    from ...summary.writer import state as summary_state
    from .session import get_default_session

    if tf.executing_eagerly():
        return
    writer = summary_state.writer
    if writer is None:
        raise RuntimeError("No default tf.contrib.summary.SummaryWriter found")
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Argument `session must be passed if no default session exists")
    writer.init()
    if graph is not None:
        from tinytf.runtime.context import state

        saved, state.graph = state.graph, None  # the writer writes eagerly, outside the graph being built
        try:
            with writer.as_default():
                tf.summary.graph(graph)
        finally:
            state.graph = saved


NAMES = ("image", "audio", "get_summary_description", "all_v2_summary_ops", "initialize")
