"""Fixes found by running TF's loading-data and saving tutorials side by side with TF 2.21 (the values TF gives
are in tests/tf_reference/tutorial2_loading_saving.json; these check what a reference cannot: file order,
log records, export signatures, and the same answers with a tf.function)."""

from __future__ import annotations

import logging
import os

import numpy as np
import pytest

import tinytf as tf


def test_gfile_listdir_keeps_the_directory_order(tmp_path):
    for name in ("right", "stop", "go", "up", "yes", "down"):
        (tmp_path / name).mkdir()
    assert tf.io.gfile.listdir(str(tmp_path)) == os.listdir(tmp_path)  # TF's order is readdir's, unsorted


def test_experimental_transformations_log_tf_deprecation_once(caplog, monkeypatch):
    from tinytf import deprecation_warning

    monkeypatch.setattr(deprecation_warning, "_warned", set())
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        dataset = tf.data.Dataset.range(3).apply(tf.data.experimental.enumerate_dataset())
        tf.data.experimental.enumerate_dataset()
        tf.data.experimental.ignore_errors()
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert "enumerate_dataset (from tensorflow.python.data.experimental.ops.enumerate_ops) is deprecated" in \
        messages[0] and "Use `tf.data.Dataset.enumerate()`." in messages[0]
    assert __file__ in messages[0]  # the caller's line, as TF names it
    assert "Use `tf.data.Dataset.ignore_errors` instead." in messages[1]
    assert [tuple(int(v) for v in e) for e in dataset] == [(0, 0), (1, 1), (2, 2)]


def test_make_csv_dataset_ignore_errors_logs_the_notice(tmp_path, caplog, monkeypatch):
    from tinytf import deprecation_warning

    monkeypatch.setattr(deprecation_warning, "_warned", set())
    path = tmp_path / "t.csv"
    path.write_text("a,b\n1,2\n3,x\n5,6\n")
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        ds = tf.data.experimental.make_csv_dataset(str(path), 4, label_name="b", num_epochs=1, shuffle=False,
                                                   ignore_errors=True, column_defaults=[0, 0])
    assert any("ignore_errors" in r.getMessage() for r in caplog.records)
    features, labels = next(iter(ds))
    assert features["a"].numpy().tolist() == [1, 5] and labels.numpy().tolist() == [2, 6]  # the bad row dropped


def _string_model():
    vectorize = tf.keras.layers.TextVectorization(max_tokens=20, output_mode="binary")
    vectorize.adapt(tf.data.Dataset.from_tensor_slices(["a b c", "b c d", "e f"]))
    model = tf.keras.Sequential([vectorize, tf.keras.layers.Dense(4)])
    model.compile(loss="mse", optimizer="adam")
    model.fit(tf.constant(["a b", "c d"]), tf.constant([[0.0, 1, 0, 0], [1, 0, 0, 0]]), verbose=0)
    return model


def test_export_signature_takes_the_models_input_dtype():
    from tinytf.keras.export import input_signature, serving_function

    model = _string_model()
    (spec,) = input_signature(model)
    assert spec.dtype == tf.string and spec.shape.as_list() == [None]
    serve = serving_function(model)
    np.testing.assert_allclose(serve(tf.constant(["a b"])).numpy(), model.predict(tf.constant(["a b"]), verbose=0),
                               rtol=1e-6)


def test_export_lists_the_lookup_tables_it_reads(tmp_path):
    from tinytf.keras.export import ExportArchive, input_signature

    model = _string_model()
    archive = ExportArchive()
    archive.track(model)
    archive.add_endpoint("serve", lambda x: model(x, training=False), input_signature=input_signature(model))
    concrete = archive._concrete("serve")
    tables = [v for v in concrete.variables if not hasattr(v, "trainable")]
    assert tables  # the vocabulary is a captured resource, not one of the variables
    try:
        archive.write_out(str(tmp_path / "m"), verbose=False)
    except AssertionError:
        pass  # saving a lookup table in a SavedModel is another piece of work; the lists are made first
    assert archive._tf_trackable._misc_assets == tables
    assert all(hasattr(v, "trainable") for v in archive._tf_trackable._all_variables)


@pytest.mark.parametrize("x", [["a b"], [[1.0, 2.0]], ("a",), [1.0, 2.0]])
def test_python_values_are_not_arrays_to_fit_evaluate_predict(x):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(2)])
    model.compile(loss="mse")
    for call in (lambda: model.predict(x, verbose=0), lambda: model.evaluate(x, np.ones((1, 2)), verbose=0),
                 lambda: model.fit(x, np.ones((1, 2)), verbose=0)):
        with pytest.raises(ValueError, match="Unrecognized data type"):
            call()


def test_index_protocol_inside_tf_function_graph_and_eagerly():
    values = [10, 20, 30, 40]
    assert values[tf.constant(2)] == 30 and values[tf.constant(2, tf.int64)] == 30
    with pytest.raises(AttributeError, match="__index__"):
        values[tf.constant(True)]

    @tf.function
    def f(flag):
        return tf.py_function(lambda v: tf.constant(values[v]), [flag], tf.int32)

    assert int(f(tf.constant(1))) == 20
    with pytest.raises(tf.errors.UnknownError, match="__index__"):  # AttributeError is TF's UnknownError
        f(tf.constant(True))


@pytest.mark.parametrize("wrap", [lambda fn: fn, tf.function])
def test_parse_example_orders_sparse_dense_ragged_keys(wrap):
    example = tf.train.Example(features=tf.train.Features(feature={
        "b": tf.train.Feature(int64_list=tf.train.Int64List(value=[1])),
        "a": tf.train.Feature(float_list=tf.train.FloatList(value=[2.0])),
        "z": tf.train.Feature(int64_list=tf.train.Int64List(value=[3, 4])),
        "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[3, 4]))})).SerializeToString()
    spec = {"b": tf.io.FixedLenFeature([], tf.int64), "r": tf.io.RaggedFeature(tf.int64, "y"),
            "a": tf.io.FixedLenFeature([], tf.float32), "z": tf.io.VarLenFeature(tf.int64)}
    parsed = wrap(lambda s: tf.io.parse_single_example(s, spec))(tf.constant(example))
    assert list(parsed) == ["z", "a", "b", "r"]
    assert float(parsed["a"]) == 2.0 and parsed["r"].numpy().tolist() == [3, 4]


def test_feature_column_functions_log_tf_deprecation_once(caplog, monkeypatch):
    from tinytf import deprecation_warning

    monkeypatch.setattr(deprecation_warning, "_warned", set())
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        age = tf.feature_column.numeric_column("age")
        tf.feature_column.numeric_column("fee")
        tf.feature_column.bucketized_column(age, boundaries=[18, 25])
        animal = tf.feature_column.categorical_column_with_vocabulary_list("Type", ["Cat", "Dog"])
        tf.feature_column.crossed_column([animal, "Breed1"], hash_bucket_size=10)
    messages = [r.getMessage() for r in caplog.records]
    assert [m.split(": ", 1)[1].split(" (")[0] for m in messages] == [
        "numeric_column", "bucketized_column", "categorical_column_with_vocabulary_list", "crossed_column"]
    assert "feature_column_v2) is deprecated" in messages[0] and "tf.keras.utils.FeatureSpace" in messages[0]
    assert "HashedCrossing" in messages[3] and __file__ in messages[0]
    assert tf.feature_column.numeric_column.__name__ == "numeric_column" and age.key == "age"


def test_functional_model_warns_of_an_extra_dict_entry_and_ignores_it():
    inputs = {"b": tf.keras.Input((1,), name="b"), "a": tf.keras.Input((1,), name="a")}
    model = tf.keras.Model(inputs, tf.keras.layers.concatenate([inputs["b"], inputs["a"]]))
    given = {"a": tf.constant([[1.0]]), "b": tf.constant([[2.0]]), "target": tf.constant([[5.0]])}
    with pytest.warns(UserWarning, match="doesn't match the expected structure") as record:
        out = model(given)
    assert "Expected: {'b': 'b', 'a': 'a'}" in str(record[0].message)
    assert "'target': 'Tensor(shape=(1, 1))'" in str(record[0].message)
    np.testing.assert_array_equal(out.numpy(), [[2.0, 1.0]])
    np.testing.assert_array_equal(tf.function(model)(given).numpy(), [[2.0, 1.0]])
