"""What TF's image tutorials rely on beyond the conformance programs (tests/conformance/tutorial_images_*.py):
`PIL.Image` reachable after a bare `import PIL` (Keras imports it with itself), and a Sequential whose first
layer is a built model: built at once, and the same numbers eagerly, in tf.function, and with passes off."""

import importlib
import sys

import numpy as np
import pytest

import tinytf as tf
from tinytf import config


def test_pil_image_is_reachable_after_import_pil():
    pil = pytest.importorskip("PIL")
    import PIL.Image  # noqa: F401 - imported, so that the test can take it away and see it come back

    from tinytf.keras.utils import image_utils

    saved = sys.modules.pop("PIL.Image")
    del pil.Image  # as in a fresh process: `import PIL` alone does not import PIL.Image
    try:
        importlib.reload(image_utils)  # what `import tinytf` runs
        assert pil.Image.open.__name__ == "open"
    finally:
        sys.modules["PIL.Image"] = pil.Image = saved
        importlib.reload(image_utils)


def _stack():
    layers = tf.keras.layers
    inner = tf.keras.Sequential([layers.Dense(4, input_shape=(3,), activation="relu"), layers.Dense(5)])
    return tf.keras.Sequential([inner, layers.Dense(2)])


def test_sequential_after_a_built_model_is_built_and_computes_the_same_everywhere():
    tf.keras.utils.set_random_seed(3)
    model = _stack()
    assert model.built and model.output_shape == (None, 2)
    assert [tuple(w.shape) for w in model.weights] == [(3, 4), (4,), (4, 5), (5,), (5, 2), (2,)]
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)
    w = model.get_weights()
    expected = np.maximum(x @ w[0] + w[1], 0) @ w[2] + w[3]
    expected = expected @ w[4] + w[5]
    np.testing.assert_allclose(model(x).numpy(), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(tf.function(model)(x).numpy(), expected, rtol=1e-5, atol=1e-6)
    saved = config.optimizer_snapshot()
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})  # every pass off
    try:
        np.testing.assert_allclose(tf.function(lambda v: model(v))(x).numpy(), expected, rtol=1e-5, atol=1e-6)
    finally:
        config.restore_optimizer_snapshot(saved)


def test_a_single_built_model_does_not_build_the_stack():
    layers = tf.keras.layers
    inner = tf.keras.Sequential([layers.Dense(4, input_shape=(3,))])
    assert not tf.keras.Sequential([inner]).built  # Keras 3 builds only from two layers on
    inner_unbuilt = tf.keras.Sequential([layers.Dense(4)])
    assert not tf.keras.Sequential([inner_unbuilt, layers.Dense(2)]).built
