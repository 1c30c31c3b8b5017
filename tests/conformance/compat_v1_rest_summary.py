"""TF1's tf.compat.v1.summary.image / audio protos from a Session, get_summary_description, all_v2_summary_ops
and initialize (helper v1rest)."""

from __future__ import annotations

import tempfile

import numpy as np

from . import outcome, program


def decoded(tf, serialized):
    """Tag, sizes and pixels / samples of each value of a serialized Summary (decoded eagerly)."""
    summary = tf.compat.v1.Summary.FromString(serialized)
    out = []
    for value in summary.value:
        if value.HasField("image"):
            pixels = tf.io.decode_png(value.image.encoded_image_string).numpy()
            out.append([value.tag, value.image.height, value.image.width, value.image.colorspace,
                        pixels.reshape(-1).tolist()])
        else:
            clip = value.audio
            samples, rate = tf.audio.decode_wav(clip.encoded_audio_string)
            out.append([value.tag, clip.sample_rate, clip.num_channels, clip.length_frames, clip.content_type,
                        np.round(samples.numpy(), 4).reshape(-1).tolist(), int(rate)])
    return out


@program
def p_v1rest_image_audio_summaries(tf):
    v1 = tf.compat.v1
    graph = tf.Graph()
    x = np.linspace(0, 1, 36).reshape(2, 3, 2, 3).astype(np.float32)
    with_nan = x[:, :, :, :1].copy()
    with_nan[0, 0, 0, 0] = np.nan
    with graph.as_default():
        summaries = [
            v1.summary.image("img", x),
            v1.summary.image("neg", x - 0.7, max_outputs=1),
            v1.summary.image("u8", (np.arange(12).reshape(1, 2, 2, 3) * 20).astype(np.uint8), family="fam"),
            v1.summary.image("bad", with_nan, max_outputs=5),
            v1.summary.image("wide", np.float64(x) * 4.0 - 1.0),
            v1.summary.audio("snd", np.sin(np.arange(12)).reshape(2, 6, 1).astype(np.float32) * 0.5, 8000,
                             max_outputs=1),
            v1.summary.audio("snd2", np.cos(np.arange(10)).reshape(2, 5).astype(np.float32), 16000.0),
        ]
        info = [[s.dtype.name, str(s.shape)] for s in summaries]
        collected = len(v1.get_collection(v1.GraphKeys.SUMMARIES))
        wrong = v1.summary.image("x", np.zeros((2, 2, 2), np.float32))
        merged = v1.summary.merge(summaries[:2])
    with v1.Session(graph=graph) as sess:
        values = sess.run(summaries)
        merged_value = sess.run(merged)
        error = outcome(lambda: sess.run(wrong), "must be 4-D with last dim 1, 3, or 4")
    return {"info": info, "collected": collected, "values": [decoded(tf, v) for v in values], "run_error": error,
            "merged_tags": [v.tag for v in v1.Summary.FromString(merged_value).value]}


@program
def p_v1rest_summary_helpers(tf):
    v1 = tf.compat.v1
    node = v1.NodeDef(name="n", op="TensorSummary",
                      attr={"description": v1.AttrValue(s=b'{"type_hint": "scalar"}')})
    description = v1.summary.get_summary_description(node)
    out = {"description": [type(description).__name__, description.type_hint],
           "not_summary": outcome(lambda: v1.summary.get_summary_description(v1.NodeDef(name="m", op="Const")),
                                  "Can't get_summary_description on Const"),
           "eager": [v1.summary.all_v2_summary_ops(), v1.summary.initialize()]}
    plain = tf.Graph()
    with plain.as_default():
        tf.constant(1.0, name="c")
    graph = tf.Graph()
    with graph.as_default():
        v1.summary.scalar("v1_style", tf.constant(1.0))
        out["none_yet"] = v1.summary.all_v2_summary_ops()
        writer = tf.summary.create_file_writer(tempfile.mkdtemp())
        with writer.as_default():
            written = tf.summary.scalar("loss", 0.5, step=tf.constant(1, tf.int64))
            found = v1.summary.all_v2_summary_ops()
            out["v2_ops"] = [len(found), [t.dtype.name for t in found], str(written.dtype)]
            with v1.Session() as sess:
                v1.summary.initialize(graph=plain)
                out["written"] = bool(sess.run(written))
        out["no_writer"] = outcome(lambda: v1.summary.initialize(), "No default")
    return out
