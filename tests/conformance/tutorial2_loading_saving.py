"""Cells of TF's tutorials on loading data and saving models (site/en/tutorials/keras/save_and_load,
load_data/text, load_data/tfrecord, load_data/csv, audio/simple_audio) where tinytf answered differently, at
tiny sizes: a .keras model evaluated after load_model (its stored loss config), a Python list given to
predict, a bool tensor used as an index inside a py_function (the tfrecord tutorial's serialize_example), the
key order of parse_single_example, a reader dataset's repr, a single callback given to fit, and fit with an
empty validation set."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import data, fixed_weights, outcome, program, val


@program
def p_tutorial2_save_and_load_keras_file_evaluates(tf):
    model = tf.keras.Sequential([tf.keras.Input((6,)), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(3)])
    fixed_weights(model)
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
    x, y = data((8, 6)), np.arange(8) % 3
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "my_model.keras")
        model.save(path)
        restored = tf.keras.models.load_model(path)
    loss, acc = restored.evaluate(x, y, verbose=0)
    return [round(float(loss), 5), round(float(acc), 5), type(restored.optimizer).__name__,
            restored.loss.get_config()["from_logits"], val(restored.predict(x[:2], verbose=0))]


@program
def p_tutorial2_predict_python_list_refused(tf):
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(2)])
    model.compile(loss="mse")
    return [outcome(lambda: model.predict(["How do you sort a list?"], verbose=0), "Unrecognized data type"),
            outcome(lambda: model.predict([[1.0, 2.0]], verbose=0), "Unrecognized data type"),
            outcome(lambda: model.fit(data((2, 2)), [[1.0, 2.0], [1.0, 2.0]], verbose=0), "Unrecognized data type")]


@program
def p_tutorial2_tfrecord_bool_feature_in_py_function(tf):
    def serialize(flag, number):
        feature = {"f0": tf.train.Feature(int64_list=tf.train.Int64List(value=[flag])),
                   "f1": tf.train.Feature(int64_list=tf.train.Int64List(value=[number]))}
        return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()

    def attempt(flag):
        return tf.py_function(serialize, (flag, tf.constant(4, tf.int64)), tf.string)

    working = tf.io.parse_single_example(attempt(tf.constant(1, tf.int64)),
                                         {"f0": tf.io.FixedLenFeature([], tf.int64),
                                          "f1": tf.io.FixedLenFeature([], tf.int64)})
    return [outcome(lambda: attempt(tf.constant(True)), "__index__"), val(working)]


@program
def p_tutorial2_tensor_index_protocol(tf):
    import operator

    return [outcome(lambda: operator.index(tf.constant(True)), "__index__"),
            outcome(lambda: operator.index(tf.constant(1.5)), "__index__"),
            outcome(lambda: operator.index(tf.constant([1, 2])), "only integer scalar arrays"),
            [10, 20, 30, 40][tf.constant(3)], [10, 20, 30][tf.constant(1, tf.uint8)]]


@program
def p_tutorial2_parse_example_key_order(tf):
    example = tf.train.Example(features=tf.train.Features(feature={
        "height": tf.train.Feature(int64_list=tf.train.Int64List(value=[2])),
        "width": tf.train.Feature(int64_list=tf.train.Int64List(value=[3])),
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[1])),
        "image_raw": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"xy"])),
        "tags": tf.train.Feature(int64_list=tf.train.Int64List(value=[5, 6])),
        "extra": tf.train.Feature(int64_list=tf.train.Int64List(value=[7]))})).SerializeToString()
    spec = {"height": tf.io.FixedLenFeature([], tf.int64), "width": tf.io.FixedLenFeature([], tf.int64),
            "label": tf.io.FixedLenFeature([], tf.int64), "image_raw": tf.io.FixedLenFeature([], tf.string),
            "tags": tf.io.VarLenFeature(tf.int64), "more": tf.io.RaggedFeature(tf.int64, "extra")}
    single = tf.io.parse_single_example(example, spec)
    batch = tf.io.parse_example([example, example], spec)
    mapped = tf.data.Dataset.from_tensors(example).map(lambda s: tf.io.parse_single_example(s, spec))
    return [list(single), list(batch), list(mapped.element_spec), val(single["height"]), val(batch["width"])]


@program
def p_tutorial2_reader_dataset_reprs(tf):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.tfrecord")
        with tf.io.TFRecordWriter(path) as writer:
            writer.write(b"abc")
        text = os.path.join(d, "t.txt")
        with open(text, "w") as f:
            f.write("x\ny\n")
        records, lines = tf.data.TFRecordDataset(path), tf.data.TextLineDataset(text)
        return [repr(records), repr(lines), [r.numpy().decode() for r in records],
                [line.numpy().decode() for line in lines]]


@program
def p_tutorial2_fit_single_callback_and_empty_validation(tf):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    fixed_weights(model)
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    train = tf.data.Dataset.from_tensor_slices((data((4, 3)), data((4, 2), seed=1))).batch(2)
    empty = tf.data.Dataset.from_tensor_slices((np.ones((0, 3), np.float32), np.ones((0, 2), np.float32))).batch(2)
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1)
    history = model.fit(train, validation_data=empty, epochs=2, verbose=0, callbacks=stop)
    return [sorted(history.history), [round(v, 4) for v in history.history["loss"]],
            model.evaluate(empty, return_dict=True, verbose=0), model.evaluate(empty, verbose=0)]


@program
def p_tutorial2_make_csv_dataset_ignore_errors(tf):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.csv")
        with open(path, "w") as f:
            f.write("a,b\n1,2\n3,x\n5,6\n7\n9,10\n")
        dataset = tf.data.experimental.make_csv_dataset(path, 8, label_name="b", num_epochs=1, shuffle=False,
                                                        ignore_errors=True, column_defaults=[0, 0])
        rows = [[val(f["a"]), val(label)] for f, label in dataset]
        strict = tf.data.experimental.CsvDataset(path, [0, 0], header=True)
        return [rows, outcome(lambda: [val(r) for r in strict], "not a valid int32"),
                [val(r) for r in strict.ignore_errors()]]


@program
def p_tutorial2_functional_dict_with_an_extra_column(tf):
    # the preprocessing-layers tutorial feeds every dataframe column, its label included, to a dict-input model
    inputs = {"b": tf.keras.Input((1,), name="b"), "a": tf.keras.Input((1,), name="a")}
    joined = tf.keras.layers.concatenate([inputs["b"], inputs["a"] * 10])
    model = tf.keras.Model(inputs, tf.keras.layers.Dense(1, kernel_initializer="ones")(joined))
    features = {"a": data((4, 1)), "b": data((4, 1), seed=1), "target": data((4, 1), seed=2)}
    model.compile(optimizer="sgd", loss="mse")
    dataset = tf.data.Dataset.from_tensor_slices((features, data((4,), seed=3))).batch(2)
    history = model.fit(dataset, epochs=2, verbose=0)
    return [val(model({"a": tf.constant([[1.0]]), "b": tf.constant([[2.0]]), "z": tf.constant([[5.0]])})),
            [round(v, 4) for v in history.history["loss"]],
            outcome(lambda: model({"a": tf.constant([[1.0]])}), 'Missing data for input "b"')]
