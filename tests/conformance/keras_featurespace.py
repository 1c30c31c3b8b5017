"""keras.utils.FeatureSpace as TF 2.21's Keras 3 runs it: every feature type, crosses, adapt on a dataset or a
dict, concat and dict outputs, batched and single examples, inside tf.data's map and tf.function, a Functional
model on get_inputs()/get_encoded_features(), .keras save and load, and its errors."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import data, outcome, program, val

RAW = {"f": [0.0, 0.1, 0.2, 0.3, 0.5, 0.8], "s": ["zero", "one", "two", "one", "two", "two"],
       "i": [0, 1, 2, 3, 1, 7], "d": [1.0, 2.0, 3.0, 4.0, 5.0, 0.5]}


def _raw():
    return {"f": np.array(RAW["f"], "float32"), "s": np.array(RAW["s"]), "i": np.array(RAW["i"], "int32"),
            "d": np.array(RAW["d"], "float32")}


def _space(tf, output_mode="concat", **kwargs):
    fs = tf.keras.utils.FeatureSpace
    return fs(features={"f": "float_normalized", "s": "string_categorical", "i": "integer_categorical",
                        "d": fs.float_discretized(num_bins=3)},
              crosses=[("s", "i")], crossing_dim=8, output_mode=output_mode, **kwargs)


@program
def p_featurespace_concat_with_cross(tf):
    space = _space(tf)
    space.adapt(tf.data.Dataset.from_tensor_slices(_raw()))
    single = space({k: v[2] for k, v in _raw().items()})
    return [val(space(_raw())), val(single), sorted(space.preprocessors), sorted(space.crossers),
            sorted(space.one_hot_encoders)]


@program
def p_featurespace_dict_outputs_every_type(tf):
    fs = tf.keras.utils.FeatureSpace
    space = fs(features={"plain": "float", "scaled": fs.float_rescaled(scale=2.0, offset=1.0),
                         "norm": fs.float_normalized(), "bins": fs.float_discretized(num_bins=4, output_mode="int"),
                         "ints": fs.integer_categorical(output_mode="int"),
                         "strs": fs.string_categorical(max_tokens=3, output_mode="int"),
                         "hashed_s": fs.string_hashed(num_bins=5, output_mode="int"),
                         "hashed_i": fs.integer_hashed(num_bins=6)},
               crosses=[fs.cross(("strs", "ints"), crossing_dim=16, output_mode="int")], output_mode="dict")
    raw = {"plain": RAW["f"], "scaled": RAW["d"], "norm": RAW["d"], "bins": RAW["f"], "ints": RAW["i"],
           "strs": RAW["s"], "hashed_s": RAW["s"], "hashed_i": RAW["i"]}
    space.adapt(raw)  # a dict of lists
    out = space({k: np.array(v) if k not in ("plain", "scaled", "norm", "bins") else np.array(v, "float32")
                 for k, v in raw.items()})
    return {name: [value.dtype.name in ("int32", "int64"), val(tf.cast(value, tf.float32))]
            for name, value in sorted(out.items())}


@program
def p_featurespace_in_dataset_map_and_tf_function(tf):
    space = _space(tf)
    space.adapt(_raw())
    labels = np.arange(6, dtype="float32")
    ds = tf.data.Dataset.from_tensor_slices((_raw(), labels)).batch(4).map(lambda x, y: (space(x), y))
    batches = [[val(x), val(y)] for x, y in ds]
    unbatched = [val(x) for x in tf.data.Dataset.from_tensor_slices(_raw()).map(space).take(2)]
    fn = tf.function(lambda d: space(d))
    return [batches, unbatched, val(fn({k: tf.constant(v) for k, v in _raw().items()}))]


@program
def p_featurespace_functional_model(tf):
    space = _space(tf, output_mode="concat")
    space.adapt(_raw())
    inputs = space.get_inputs()
    encoded = space.get_encoded_features()
    dense = tf.keras.layers.Dense(2)
    model = tf.keras.Model(inputs, dense(encoded))
    dense.set_weights([data((22, 2), scale=0.3), data((2,), seed=1)])
    x = {k: v[:, None] for k, v in _raw().items()}
    return [sorted(inputs), [inputs[k].dtype for k in sorted(inputs)], list(encoded.shape),
            val(model({k: tf.constant(v) for k, v in x.items()})),
            # numpy unicode arrays are refused by predict as by fit (strings go in as tensors or datasets)
            outcome(lambda: model.predict(x, verbose=0), "Invalid dtype: str")]


@program
def p_featurespace_save_and_load(tf):
    space = _space(tf)
    space.adapt(_raw())
    path = os.path.join(tempfile.mkdtemp(), "space.keras")
    space.save(path)
    restored = tf.keras.models.load_model(path)
    return [type(restored).__name__, val(restored(_raw())), restored.get_config()["crosses"][0]["config"],
            sorted(restored.get_config()["features"])]


@program
def p_featurespace_custom_text_feature(tf):
    fs = tf.keras.utils.FeatureSpace
    layer = tf.keras.layers.TextVectorization(output_mode="tf_idf")
    space = fs(features={"text": fs.feature(preprocessor=layer, dtype="string", output_mode="float"),
                         "n": "float"}, output_mode="dict")  # (concat fails in TF 2.21: the text is rank 3)
    raw = {"text": ["1st string", "2nd string", "3rd string"], "n": [1.0, 2.0, 3.0]}
    space.adapt(tf.data.Dataset.from_tensor_slices(raw))
    out = space({"text": np.array(raw["text"]), "n": np.array(raw["n"], "float32")})
    return {k: val(v) for k, v in sorted(out.items())}


@program
def p_featurespace_errors(tf):
    fs = tf.keras.utils.FeatureSpace
    raw = _raw()
    return [
        outcome(lambda: _space(tf)(raw), "You need to call `.adapt(dataset)`"),
        outcome(lambda: fs(features={"a": "floaty"}), "Invalid feature type: floaty"),
        outcome(lambda: fs(features={}), "cannot be None or empty"),
        outcome(lambda: fs(features={"a": "float"}, crosses=[("a", "b")]), "Received unknown features"),
        outcome(lambda: fs(features={"a": "float"}, output_mode="list"), "Expected one of {'dict', 'concat'}"),
        outcome(lambda: fs.cross(("a", "b"), 4, output_mode="float"), "Expected one of {'int', 'one_hot'}"),
        outcome(lambda: fs(features={"a": fs.float_rescaled()}).adapt([1.0]), "can only be called on a"),
        outcome(lambda: fs(features={"a": "float"})([1.0]), "can only be called with a dict"),
        outcome(lambda: fs(features={"a": fs.integer_hashed(4, output_mode="int")}, output_mode="concat")(
            {"a": np.array([1, 2])}), "Cannot concatenate features because feature 'a'"),
        outcome(lambda: fs(features={"a": fs.feature("float32", tf.keras.layers.Rescaling(2.0), "one_hot")})(
            {"a": np.array([1.0])}), "should return an integer dtype"),
        outcome(lambda: fs(features={"a": "float"}, crosses=[("a", "a")], crossing_dim=None),
                "should be specified as well"),
    ]
