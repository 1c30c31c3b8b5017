"""ImageDataGenerator.flow_from_dataframe against numpy: the batches are the PNGs' pixels (rescaled), labels per
class_mode, sample weights, and model.fit trains on the iterator. Keras' own batches for the same frames:
tests/conformance/keras_flow_from_dataframe.py. Images are small synthetic PNGs written here (no downloads)."""


import numpy as np
import pytest

import tinytf as tf

pd = pytest.importorskip("pandas")
keras = tf.keras


@pytest.fixture
def folder(tmp_path):
    for i in range(6):
        pixels = ((np.arange(4 * 4 * 3).reshape(4, 4, 3) * (i + 1)) % 256).astype("uint8")
        keras.utils.save_img(str(tmp_path / f"p{i}.png"), pixels, scale=False)
    return str(tmp_path)


def _pixels(i):
    return ((np.arange(4 * 4 * 3).reshape(4, 4, 3) * (i + 1)) % 256).astype("float32")


def test_batches_are_the_files_pixels(folder):
    df = pd.DataFrame({"filename": [f"p{i}.png" for i in range(6)], "label": ["b", "a", "b", "c", "a", "b"],
                       "w": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]})
    gen = keras.preprocessing.image.ImageDataGenerator(rescale=0.5)
    it = gen.flow_from_dataframe(df, folder, y_col="label", weight_col="w", target_size=(4, 4), batch_size=4,
                                 shuffle=False)
    x, y, w = it[0]
    np.testing.assert_allclose(x, np.stack([_pixels(i) for i in range(4)]) * 0.5)
    assert it.class_indices == {"a": 0, "b": 1, "c": 2}
    np.testing.assert_array_equal(y, np.eye(3, dtype="float32")[[1, 0, 1, 2]])
    np.testing.assert_array_equal(w, [1.0, 2.0, 3.0, 4.0])
    assert len(it) == 2 and it[1][0].shape == (2, 4, 4, 3)
    sparse = gen.flow_from_dataframe(df, folder, y_col="label", class_mode="sparse", target_size=(4, 4),
                                     batch_size=6, shuffle=False)
    np.testing.assert_array_equal(sparse[0][1], [1, 0, 1, 2, 0, 1])


def test_fit_on_the_iterator(folder):
    df = pd.DataFrame({"filename": [f"p{i}.png" for i in range(6)], "y": [float(i) for i in range(6)]})
    it = keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255.0).flow_from_dataframe(
        df, folder, y_col="y", class_mode="raw", target_size=(4, 4), batch_size=3, shuffle=False)
    model = keras.Sequential([keras.Input((4, 4, 3)), keras.layers.Flatten(), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    history = model.fit(it, epochs=2, verbose=0).history
    assert len(history["loss"]) == 2 and np.all(np.isfinite(history["loss"]))


def test_missing_files_warn_and_are_dropped(folder):
    df = pd.DataFrame({"filename": ["p0.png", "gone.png", "p1.png"], "class": ["a", "b", "a"]})
    with pytest.warns(UserWarning, match="1 invalid image filename"):
        it = keras.preprocessing.image.ImageDataGenerator().flow_from_dataframe(df, folder, target_size=(4, 4))
    assert it.filenames == ["p0.png", "p1.png"] and it.class_indices == {"a": 0}
