"""keras.utils.FeatureSpace beyond the recorded conformance programs: a file written by TF 2.21 loads here
with the same encodings and the same h5 layout as tinytf writes, the encodings are checked against numpy,
and a model trains on a tf.data pipeline that maps the FeatureSpace (eager and traced steps)."""

import io
import os
import zipfile

import h5py
import numpy as np
import pytest

import tinytf as tf

FS = tf.keras.utils.FeatureSpace
HERE = os.path.dirname(os.path.abspath(__file__))
TF_FILE = os.path.join(HERE, "keras_files", "featurespace_tf221.keras")
RAW = {"f": np.array([0.0, 0.1, 0.2, 0.3, 0.5], "float32"), "s": np.array(["zero", "one", "two", "one", "two"]),
       "i": np.array([0, 1, 2, 3, 1], "int32"), "d": np.array([1.0, 2.0, 3.0, 4.0, 5.0], "float32")}


def the_space():
    """The FeatureSpace featurespace_tf221.keras was made from (by TF 2.21, adapted on RAW)."""
    space = FS(features={"f": "float_normalized", "s": "string_categorical", "i": "integer_categorical",
                         "d": FS.float_discretized(num_bins=3)}, crosses=[("s", "i")], crossing_dim=8)
    space.adapt(tf.data.Dataset.from_tensor_slices(RAW))
    return space


def h5_paths(path):
    with zipfile.ZipFile(path) as archive:
        names = sorted(n for n in archive.namelist() if n.startswith("assets/"))
        with h5py.File(io.BytesIO(archive.read("model.weights.h5")), "r") as f:
            found = []
            f.visit(found.append)
    return sorted(found), names


def test_tf_file_loads_with_the_same_encodings_and_layout(tmp_path):
    restored = tf.keras.models.load_model(TF_FILE)
    space = the_space()
    np.testing.assert_allclose(restored(RAW).numpy(), space(RAW).numpy(), rtol=1e-6)
    mine = str(tmp_path / "mine.keras")
    space.save(mine)
    assert h5_paths(mine) == h5_paths(TF_FILE)


def test_encodings_against_numpy():
    out = the_space()(RAW).numpy()
    # sorted features d (3 bins), f (normalized), i (vocab 5: OOV + 4), s (vocab 4: OOV + 3), then the cross (8)
    assert out.shape == (5, 21)
    bins = np.digitize(RAW["d"], [5 / 3, 10 / 3])
    np.testing.assert_array_equal(out[:, :3], np.eye(3)[bins])
    f = RAW["f"].astype(np.float64)
    np.testing.assert_allclose(out[:, 3], (f - f.mean()) / np.sqrt(f.var()), rtol=1e-5)
    assert (out[:, 4:9].sum(axis=1) == 1).all() and (out[:, 9:13].sum(axis=1) == 1).all()
    assert (out[:, 13:].sum(axis=1) == 1).all()
    assert out[1, 4:9].tolist() == out[4, 4:9].tolist()  # i == 1 twice: the same one-hot column


@pytest.mark.parametrize("output_mode", ["concat", "dict"])
def test_eager_and_tf_function_agree(output_mode):
    space = FS(features={"s": "string_hashed", "i": FS.integer_hashed(5, output_mode="int"), "x": "float"},
               crosses=[FS.cross(("s", "i"), crossing_dim=4)], output_mode=output_mode)
    if output_mode == "concat":
        space = FS(features={"s": "string_hashed", "i": FS.integer_hashed(5), "x": "float"},
                   crosses=[("s", "i")], crossing_dim=4, output_mode=output_mode)
    data = {"s": tf.constant(["a", "b", "a"]), "i": tf.constant([1, 2, 3]), "x": tf.constant([0.5, 1.5, 2.5])}
    eager = space(data)
    traced = tf.function(lambda d: space(d))(data)
    for a, b in zip(tf.nest.flatten(eager), tf.nest.flatten(traced)):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_not_adapted_space_names_the_fix():
    with pytest.raises(ValueError, match=r"call `.adapt\(dataset\)`"):
        FS(features={"a": "float_normalized"}).get_encoded_features()


@pytest.mark.parametrize("run_eagerly", [False, True])
def test_training_on_a_mapped_dataset(run_eagerly):
    space = the_space()
    labels = np.array([0.0, 1.0, 1.0, 0.0, 1.0], np.float32)
    ds = tf.data.Dataset.from_tensor_slices((RAW, labels)).batch(2).map(lambda x, y: (space(x), y))
    model = tf.keras.Sequential([tf.keras.Input((21,)), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="binary_crossentropy", run_eagerly=run_eagerly)
    history = model.fit(ds, epochs=5, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_functional_model_on_the_space_saves_with_it(tmp_path):
    space = the_space()
    inputs = space.get_inputs()
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(space.get_encoded_features()))
    x = {k: tf.constant(v[:, None]) for k, v in RAW.items()}
    before = model(x).numpy()
    path = str(tmp_path / "model.keras")
    model.save(path)
    np.testing.assert_allclose(tf.keras.models.load_model(path)(x).numpy(), before, rtol=1e-6)
