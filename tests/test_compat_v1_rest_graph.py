"""TF1 graph helpers of helper v1rest beyond TF's recorded results (tests/conformance/compat_v1_rest_*.py):
the gradient checker against analytic Jacobians, image summaries' pixels against numpy, the opt-outs' warning."""

import logging

import numpy as np

import tinytf as tf

v1 = tf.compat.v1


def test_compute_gradient_matches_the_analytic_jacobian():
    x0 = np.array([0.3, -1.2, 2.0])
    graph = tf.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float64, [3])
        y = tf.stack([x[0] * x[1], tf.exp(x[2]), x[1] ** 2])
        with v1.Session():
            theoretical, numeric = v1.test.compute_gradient(x, [3], y, [3], x_init_value=x0)
    analytic = np.array([[x0[1], 0.0, 0.0], [x0[0], 0.0, 2 * x0[1]], [0.0, np.exp(x0[2]), 0.0]])  # [x, y]
    np.testing.assert_allclose(theoretical, analytic, rtol=1e-12)
    np.testing.assert_allclose(numeric, analytic, rtol=1e-5)


def test_image_summary_pixels_against_numpy():
    rgb = (np.arange(2 * 4 * 3) * 10 % 256).astype(np.uint8).reshape(1, 2, 4, 3)
    levels = np.linspace(0.0, 0.5, 8, dtype=np.float32).reshape(1, 2, 4, 1)
    graph = tf.Graph()
    with graph.as_default():
        summaries = [v1.summary.image("rgb", rgb), v1.summary.image("grey", levels, max_outputs=1)]
    with v1.Session(graph=graph) as sess:
        serialized = sess.run(summaries)
    first, second = (v1.Summary.FromString(s).value[0] for s in serialized)
    np.testing.assert_array_equal(tf.io.decode_png(first.image.encoded_image_string).numpy(), rgb[0])
    expected = (levels[0] * np.float32(255.0 / 0.5)).astype(np.uint8)  # the largest value maps to 255
    np.testing.assert_array_equal(tf.io.decode_png(second.image.encoded_image_string).numpy(), expected)
    assert (first.tag, second.tag) == ("rgb/image/0", "grey/image")


def test_opt_outs_keep_v2_and_warn_once(caplog):
    from tinytf.compat.v1 import v1_switch_offs

    v1_switch_offs._warned.discard("disable_resource_variables")  # an earlier test may have warned already
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        v1.disable_resource_variables()
        v1.disable_resource_variables()
    assert sum("disable_resource_variables" in r.getMessage() for r in caplog.records) == 1
    assert v1.resource_variables_enabled()
    assert tf.TensorShape([3, None])[0] == 3
