"""TF 2.21 names added by helper gapsa with numbers to compare: tf.random.experimental.stateless_shuffle (TF's
permutation for a seed), tf.io.decode_webp / decode_image on WebP files (made here with Pillow, which both
environments have), tf.compat's helpers, tf.summary.experimental.summary_scope."""

from __future__ import annotations

import io

import numpy as np

from . import outcome, program, val


@program
def p_stateless_shuffle_permutations(tf):
    shuffle = tf.random.experimental.stateless_shuffle
    out = [val(shuffle(tf.range(10), seed=[1, 2])), val(shuffle(tf.range(37), seed=[7, 11])),
           val(shuffle(tf.reshape(tf.range(12.0), [4, 3]), seed=tf.constant([5, 6], tf.int64))),
           val(shuffle(tf.range(5), seed=[3, 4], alg="philox")), val(shuffle(tf.constant(5), seed=[3, 4])),
           val(shuffle(tf.constant([], tf.float32), seed=[3, 4]))]
    f = tf.function(lambda x, s: shuffle(x, seed=s))
    out.append(val(f(tf.range(8), tf.constant([9, 10]))))
    out.append(outcome(lambda: shuffle(tf.range(3), seed=[1]), "seed"))
    return out


def _webp(array, **options):
    from PIL import Image

    buffer = io.BytesIO()
    Image.fromarray(array).save(buffer, "WEBP", **options)
    return buffer.getvalue()


def _pixels():
    return (np.arange(6 * 7 * 3) * 37 % 256).astype(np.uint8).reshape(6, 7, 3)


@program
def p_decode_webp_still_images(tf):
    rgb = _pixels()
    rgba = np.dstack([rgb, (np.arange(42) * 5 % 256).astype(np.uint8).reshape(6, 7, 1)])
    lossless, with_alpha, lossy = _webp(rgb, lossless=True), _webp(rgba, lossless=True), _webp(rgb, quality=80)
    out = []
    for data in (lossless, with_alpha, lossy):
        for channels in (0, 3, 4):
            out.append(outcome(lambda d=data, c=channels: tf.io.decode_webp(d, channels=c),
                               "Number of channels requested does not match input"))
    out.append(val(tf.function(lambda d: tf.image.decode_webp(d))(tf.constant(lossless))))
    out.append(val(tf.io.decode_image(with_alpha)))
    out.append(val(tf.io.decode_image(lossless, expand_animations=False)))
    out.append(val(tf.image.convert_image_dtype(tf.io.decode_image(lossless, expand_animations=False), tf.float32)))
    out.append(outcome(lambda: tf.io.decode_webp(b"not a webp file"), "Unknown image file format"))
    return out


@program
def p_decode_jxl_and_webp_read_other_formats(tf):
    pixels = _pixels()
    png = tf.io.encode_png(pixels)
    webp = _webp(pixels, lossless=True)
    return [val(tf.io.decode_jxl(png)), val(tf.io.decode_webp(png)), val(tf.io.decode_jxl(webp)),
            outcome(lambda: tf.io.decode_jxl(b"junk data here"), "Unknown image file format")]


@program
def p_compat_helpers(tf):
    c = tf.compat
    return [c.as_bytes("é").decode("latin-1"), c.as_text(b"\xc3\xa9"), c.as_str_any(5), c.as_str_any(b"ab"),
            c.forward_compatible(2026, 1, 15), c.forward_compatible(2026, 1, 16),
            str(c.dimension_at_index(tf.TensorShape([3, None]), 1)), c.dimension_value(tf.TensorShape([4]).dims[0]),
            outcome(lambda: c.as_bytes(5), "Expected binary or unicode string")]


@program
def p_summary_scope_tags(tf):
    out = []
    with tf.summary.experimental.summary_scope("loss", "default_name", values=[1]) as (tag, scope):
        out.append([tag, scope])
    with tf.name_scope("outer"):
        with tf.summary.experimental.summary_scope("a b!") as (tag, scope):
            out.append([tag, scope])
        with tf.summary.experimental.summary_scope(None, "dflt") as (tag, scope):
            out.append([tag, scope])
    return out


def _cell(tf):
    return tf.keras.layers.SimpleRNNCell(3, kernel_initializer="ones", recurrent_initializer="ones",
                                         bias_initializer="zeros")


@program
def p_rnn_cell_v2_wrappers(tf):
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) / 10)
    state = [tf.constant(np.full((2, 3), 0.2, np.float32))]
    residual = tf.nn.RNNCellResidualWrapper(_cell(tf))
    device = tf.nn.RNNCellDeviceWrapper(_cell(tf), "/cpu:0")
    plus = tf.nn.RNNCellResidualWrapper(_cell(tf), residual_fn=lambda i, o: i * 2 + o)
    keep_all = tf.nn.RNNCellDropoutWrapper(_cell(tf), input_keep_prob=1.0, output_keep_prob=1.0)
    out = [val(residual(x, state)), val(device(x, state)), val(plus(x, state)), val(keep_all(x, state)),
           residual.output_size]
    out.append(outcome(lambda: tf.nn.RNNCellDropoutWrapper(_cell(tf), input_keep_prob=1.5),
                       "must be between 0 and 1"))
    return out
