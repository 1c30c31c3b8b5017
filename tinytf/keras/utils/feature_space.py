"""keras.utils.FeatureSpace: Keras 3's one-stop preprocessing of structured data. Each named feature gets a
preprocessing layer (Normalization, Rescaling, Discretization, IntegerLookup, StringLookup, Hashing, or one of
the user's), `adapt` fits the adaptable ones on a dataset or a dict of arrays, crosses hash pairs of
categorical features (HashedCrossing), one-hot features are multi-hot encoded (CategoryEncoding), and the
result is one concatenated float vector (output_mode="concat", features in sorted name order, then the crosses)
or a dict of the encoded features ("dict"). It saves to and loads from .keras files laid out as Keras writes
them (the preprocessors' state under "preprocessors/<class>", their vocabularies under assets/)."""

from __future__ import annotations

import numpy as np

import tinytf as _tf

from .. import naming
from ..layers.layer import Layer


def _auto_name(prefix: str) -> str:
    return naming.unique_name(prefix)


class Cross:
    """A feature cross: the named categorical features hashed together into `crossing_dim` bins."""

    def __init__(self, feature_names, crossing_dim, output_mode="one_hot"):
        if output_mode not in {"int", "one_hot"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'int', 'one_hot'}. "
                             f"Received: output_mode={output_mode}")
        self.feature_names = tuple(feature_names)
        self.crossing_dim = crossing_dim
        self.output_mode = output_mode

    @property
    def name(self) -> str:
        return "_X_".join(self.feature_names)

    def get_config(self) -> dict:
        return {"feature_names": self.feature_names, "crossing_dim": self.crossing_dim,
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class Feature:
    """One feature: its input dtype, the layer that preprocesses it and how its result is encoded."""

    def __init__(self, dtype, preprocessor, output_mode):
        if output_mode not in {"int", "one_hot", "float"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'int', 'one_hot', "
                             f"'float'}}. Received: output_mode={output_mode}")
        self.dtype = dtype
        if isinstance(preprocessor, dict):
            from ..saving.layer_config import deserialize_layer

            preprocessor = deserialize_layer(preprocessor)
        self.preprocessor = preprocessor
        self.output_mode = output_mode

    def get_config(self) -> dict:
        from ..saving.layer_config import serialize_layer

        return {"dtype": self.dtype, "preprocessor": serialize_layer(self.preprocessor),
                "output_mode": self.output_mode}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


_SAVEABLES = {"Feature": Feature, "Cross": Cross}


def _serialize(obj) -> dict:
    """Keras' dict for a Feature or Cross (registered under its class name, as Keras writes it)."""
    return {"module": "keras.src.layers.preprocessing.feature_space", "class_name": type(obj).__name__,
            "config": obj.get_config(), "registered_name": type(obj).__name__}


def _deserialize(config):
    if isinstance(config, dict) and config.get("class_name") in _SAVEABLES:
        return _SAVEABLES[config["class_name"]].from_config(dict(config["config"]))
    raise ValueError(f"FeatureSpace: cannot rebuild {config!r}: expected a serialized Feature or Cross")


class TFDIdentity(Layer):
    """The preprocessor of a plain float feature: its input as it is."""

    _keras_module = "keras.src.layers.preprocessing.feature_space"
    _keras_registered_name = "TFDIdentity"

    def call(self, x):
        return x


class TFDConcat(Layer):
    """Concatenates the encoded features on the last axis."""

    _keras_module = "keras.src.layers.preprocessing.feature_space"
    _keras_registered_name = "TFDConcat"

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, xs):
        return _tf.concat(list(xs), axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


def _dtype_name(x) -> str:
    dtype = x.dtype
    return getattr(dtype, "name", str(dtype))


class FeatureSpace(Layer):
    """`FeatureSpace(features={"age": "float_normalized", "city": "string_categorical"}, crosses=[...])`,
    `adapt(dataset)`, then call it on a dict of (batched or single) values, or build a model from
    `get_inputs()` / `get_encoded_features()`."""

    _keras_module = "keras.utils"  # where Keras' configs name the class
    _custom_build_config = True  # its build config maps feature names to their preprocessors' build configs

    # --- feature types -------------------------------------------------------------------------------------
    @classmethod
    def cross(cls, feature_names, crossing_dim, output_mode="one_hot"):
        return Cross(feature_names, crossing_dim, output_mode=output_mode)

    @classmethod
    def feature(cls, dtype, preprocessor, output_mode):
        return Feature(dtype, preprocessor, output_mode)

    @classmethod
    def float(cls, name=None):
        name = name or _auto_name("float")
        return Feature("float32", TFDIdentity(dtype="float32", name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_rescaled(cls, scale=1.0, offset=0.0, name=None):
        from ..layers import Rescaling

        name = name or _auto_name("float_rescaled")
        return Feature("float32", Rescaling(scale=scale, offset=offset, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_normalized(cls, name=None):
        from ..layers import Normalization

        name = name or _auto_name("float_normalized")
        return Feature("float32", Normalization(axis=-1, name=f"{name}_preprocessor"), "float")

    @classmethod
    def float_discretized(cls, num_bins, bin_boundaries=None, output_mode="one_hot", name=None):
        from ..layers import Discretization

        name = name or _auto_name("float_discretized")
        layer = Discretization(num_bins=num_bins, bin_boundaries=bin_boundaries, name=f"{name}_preprocessor")
        return Feature("float32", layer, output_mode)

    @classmethod
    def integer_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        from ..layers import IntegerLookup

        name = name or _auto_name("integer_categorical")
        layer = IntegerLookup(name=f"{name}_preprocessor", max_tokens=max_tokens, num_oov_indices=num_oov_indices)
        return Feature("int32", layer, output_mode)

    @classmethod
    def string_categorical(cls, max_tokens=None, num_oov_indices=1, output_mode="one_hot", name=None):
        from ..layers import StringLookup

        name = name or _auto_name("string_categorical")
        layer = StringLookup(name=f"{name}_preprocessor", max_tokens=max_tokens, num_oov_indices=num_oov_indices)
        return Feature("string", layer, output_mode)

    @classmethod
    def string_hashed(cls, num_bins, output_mode="one_hot", name=None):
        from ..layers import Hashing

        name = name or _auto_name("string_hashed")
        return Feature("string", Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    @classmethod
    def integer_hashed(cls, num_bins, output_mode="one_hot", name=None):
        from ..layers import Hashing

        name = name or _auto_name("integer_hashed")
        return Feature("int32", Hashing(name=f"{name}_preprocessor", num_bins=num_bins), output_mode)

    # --- construction --------------------------------------------------------------------------------------
    def __init__(self, features, output_mode="concat", crosses=None, crossing_dim=32, hashing_dim=32,
                 num_discretization_bins=32, name=None):
        super().__init__(name=name)
        if not features:
            raise ValueError("The `features` argument cannot be None or empty.")
        self.crossing_dim = crossing_dim
        self.hashing_dim = hashing_dim
        self.num_discretization_bins = num_discretization_bins
        self.features = {name: self._standardize_feature(name, value) for name, value in features.items()}
        self.crosses = []
        for cross in crosses or []:
            if isinstance(cross, dict):
                cross = _deserialize(cross)
            if isinstance(cross, Cross):
                self.crosses.append(cross)
                continue
            if not crossing_dim:
                raise ValueError("When specifying `crosses`, the argument `crossing_dim` (dimensionality of the "
                                 "crossing space) should be specified as well.")
            for key in cross:
                if key not in features:
                    raise ValueError("All features referenced in the `crosses` argument should be present in the "
                                     f"`features` dict. Received unknown features: {cross}")
            self.crosses.append(Cross(cross, crossing_dim=crossing_dim))
        self.crosses_by_name = {cross.name: cross for cross in self.crosses}
        if output_mode not in {"dict", "concat"}:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of {'dict', 'concat'}. "
                             f"Received: output_mode={output_mode}")
        self.output_mode = output_mode
        self.inputs = {name: self._feature_to_input(name, value) for name, value in self.features.items()}
        self.preprocessors = {name: value.preprocessor for name, value in self.features.items()}
        self.encoded_features = None
        from ..layers import HashedCrossing

        self.crossers = {cross.name: HashedCrossing(cross.crossing_dim, name=cross.name) for cross in self.crosses}
        self.one_hot_encoders = {}
        self._is_adapted = False
        self.concat = None
        self._preprocessed_features_names = None
        self._crossed_features_names = None
        self._sublayers_built = False

    @staticmethod
    def _feature_to_input(name, feature):
        from ..models.input_layer import Input

        return Input(shape=(1,), dtype=feature.dtype, name=name)

    def _standardize_feature(self, name, feature):
        if isinstance(feature, Feature):
            return feature
        if isinstance(feature, dict):
            return _deserialize(feature)
        makers = {"float": lambda: self.float(name=name),
                  "float_normalized": lambda: self.float_normalized(name=name),
                  "float_rescaled": lambda: self.float_rescaled(name=name),
                  "float_discretized": lambda: self.float_discretized(name=name,
                                                                      num_bins=self.num_discretization_bins),
                  "integer_categorical": lambda: self.integer_categorical(name=name),
                  "string_categorical": lambda: self.string_categorical(name=name),
                  "integer_hashed": lambda: self.integer_hashed(self.hashing_dim, name=name),
                  "string_hashed": lambda: self.string_hashed(self.hashing_dim, name=name)}
        if not isinstance(feature, str) or feature not in makers:
            raise ValueError(f"Invalid feature type: {feature}")
        return makers[feature]()

    # --- adapt ---------------------------------------------------------------------------------------------
    def _list_adaptable_preprocessors(self) -> list:
        from ..layers import Normalization, TextVectorization

        names = []
        for name in self.features:
            preprocessor = self.preprocessors[name]
            if isinstance(preprocessor, Normalization) and preprocessor.input_mean is not None:
                continue  # given its mean and variance: nothing to learn
            if isinstance(preprocessor, TextVectorization) and getattr(preprocessor, "_has_input_vocabulary",
                                                                       False):
                continue
            if hasattr(preprocessor, "adapt"):
                names.append(name)
        return names

    def adapt(self, dataset):
        """Fit every adaptable preprocessor on its feature of `dataset` (a tf.data.Dataset of dicts, or a dict
        of arrays/lists), one feature at a time as Keras does; unbatched scalars are batched by 32."""
        if not isinstance(dataset, _tf.data.Dataset):
            if not isinstance(dataset, dict):
                raise ValueError("`adapt()` can only be called on a tf.data.Dataset or a dict of arrays/lists. "
                                 f"Received instead: {dataset} (of type {type(dataset)})")
            dataset = _tf.data.Dataset.from_tensor_slices(dataset)
        for name in self._list_adaptable_preprocessors():
            feature_dataset = dataset.map(lambda x, name=name: x[name])
            first = next(iter(feature_dataset))
            if len(first.shape) == 0:
                feature_dataset = feature_dataset.batch(32)
            if len(first.shape) in (0, 1):  # a trailing axis of 1, so the layer reduces on axis -1
                feature_dataset = feature_dataset.map(lambda x: _tf.expand_dims(x, -1))
            self.preprocessors[name].adapt(feature_dataset)
        self._is_adapted = True
        self.get_encoded_features()  # builds the encoders and the concatenation
        self.built = True
        self._sublayers_built = True

    # --- the symbolic model --------------------------------------------------------------------------------
    def get_inputs(self) -> dict:
        self._check_if_built()
        return self.inputs

    def get_encoded_features(self):
        self._check_if_adapted()
        if self.encoded_features is None:
            preprocessed = self._preprocess_features(self.inputs)
            crossed = self._cross_features(preprocessed)
            self.encoded_features = self._merge_features(preprocessed, crossed)
        return self.encoded_features

    def _preprocess_features(self, features) -> dict:
        return {name: self.preprocessors[name](features[name]) for name in features}

    def _cross_features(self, features) -> dict:
        return {cross.name: self.crossers[cross.name]([features[n] for n in cross.feature_names])
                for cross in self.crosses}

    def _cardinality(self, name):
        from ..layers import CategoryEncoding, Discretization, HashedCrossing, Hashing, IntegerLookup, StringLookup

        preprocessor = self.preprocessors.get(name) or self.crossers.get(name)
        if isinstance(preprocessor, (IntegerLookup, StringLookup)):
            return preprocessor.vocabulary_size()
        if isinstance(preprocessor, CategoryEncoding):
            return preprocessor.num_tokens
        if isinstance(preprocessor, (Discretization, HashedCrossing, Hashing)):
            return preprocessor.num_bins
        raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. However it isn't a standard feature and "
                         "the dimensionality of its output space is not known, thus it cannot be one-hot encoded. "
                         "Try using `output_mode='int'`.")

    def _merge_features(self, preprocessed, crossed):
        from ..layers import CategoryEncoding

        if not self._preprocessed_features_names:
            self._preprocessed_features_names = sorted(preprocessed)
            self._crossed_features_names = sorted(crossed)
        names = self._preprocessed_features_names + self._crossed_features_names
        values = [preprocessed[n] for n in self._preprocessed_features_names] + \
                 [crossed[n] for n in self._crossed_features_names]
        if self._sublayers_built:  # the encoders exist: apply them
            encoded = {}
            for name, value in zip(names, values):
                encoder = self.one_hot_encoders.get(name)
                encoded[name] = encoder(value) if encoder else value
            return encoded if self.output_mode == "dict" else self.concat(list(encoded.values()))
        specs = [self.features[n] for n in self._preprocessed_features_names] + \
                [self.crosses_by_name[n] for n in self._crossed_features_names]
        encoded = {}
        for name, value, spec in zip(names, values, specs):
            if spec.output_mode == "one_hot":
                dtype = _dtype_name(value)
                if not dtype.startswith("int"):
                    raise ValueError(f"Feature '{name}' has `output_mode='one_hot'`. Thus its preprocessor should "
                                     f"return an integer dtype. Instead it returns a {dtype} dtype.")
                encoder = CategoryEncoding(num_tokens=self._cardinality(name), output_mode="multi_hot")
                self.one_hot_encoders[name] = encoder
                value = encoder(value)
            if self.output_mode == "concat":
                dtype = _dtype_name(value)
                if dtype.startswith("int") or dtype == "string":
                    raise ValueError(f"Cannot concatenate features because feature '{name}' has not been encoded "
                                     f"(it has dtype {dtype}). Consider using `output_mode='dict'`.")
            encoded[name] = value
        if self.output_mode == "dict":
            return encoded
        self.concat = TFDConcat(axis=-1)
        return self.concat(list(encoded.values()))

    def _check_if_adapted(self):
        if not self._is_adapted:
            if self._list_adaptable_preprocessors():
                raise ValueError("You need to call `.adapt(dataset)` on the FeatureSpace before you can start "
                                 "using it.")
            self._is_adapted = True

    def _check_if_built(self):
        if not self._sublayers_built:
            self._check_if_adapted()
            self.get_encoded_features()
            self._sublayers_built = True

    # --- calling -------------------------------------------------------------------------------------------
    @staticmethod
    def _convert_input(x):
        if isinstance(x, (_tf.Tensor, _tf.Variable)) or hasattr(x, "_keras_history"):
            return x
        if not isinstance(x, (list, tuple, int, float)):
            x = np.asarray(x)
        return _tf.convert_to_tensor(x)

    def __call__(self, data):
        """The encoded features of a dict of values: batched ((batch,) or (batch, 1) each), or one example
        (scalars: the result then has no batch axis). Works eagerly, in tf.function and in Dataset.map."""
        self._check_if_built()
        if not isinstance(data, dict):
            raise ValueError(f"A FeatureSpace can only be called with a dict. Received: data={data} (of type "
                             f"{type(data)}")
        data = {key: self._convert_input(value) for key, value in data.items()}
        rebatched = False
        for name, x in data.items():
            if len(x.shape) == 0:
                data[name] = _tf.reshape(x, (1, 1))
                rebatched = True
            elif len(x.shape) == 1:
                data[name] = _tf.expand_dims(x, -1)
        preprocessed = self._preprocess_features(data)
        merged = self._merge_features(preprocessed, self._cross_features(preprocessed))
        if rebatched:
            if self.output_mode == "concat":
                if merged.shape[0] != 1:
                    raise ValueError(f"Expected rebatched data to have batch size 1. Received: shape={merged.shape}")
                merged = _tf.squeeze(merged, axis=0)
            else:
                merged = {name: _tf.squeeze(x, axis=0) if len(x.shape) == 2 and x.shape[0] == 1 else x
                          for name, x in merged.items()}
        return merged

    # --- saving --------------------------------------------------------------------------------------------
    def get_config(self) -> dict:
        return {"features": {name: _serialize(f) for name, f in self.features.items()},
                "output_mode": self.output_mode, "crosses": [_serialize(c) for c in self.crosses],
                "crossing_dim": self.crossing_dim, "hashing_dim": self.hashing_dim,
                "num_discretization_bins": self.num_discretization_bins}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def get_build_config(self) -> dict:
        return {name: (f.preprocessor.get_build_config() or {}) for name, f in self.features.items()}

    def build_from_config(self, config) -> None:
        for name in config:
            preprocessor = self.features[name].preprocessor
            if not preprocessor.built and config[name].get("input_shape") is not None:
                preprocessor.build_from_config(config[name])
        self._is_adapted = True

    def _saved_children(self) -> list:
        """(path, layer) of what the .keras weights and assets hold, as Keras lays them out: its containers in
        attribute order, each dict's layers keyed by class name in snake case, made unique in the dict."""
        children = [("concat", self.concat)] if self.concat is not None else []
        for container in ("crossers", "one_hot_encoders", "preprocessors"):
            layers = list(getattr(self, container).values())
            from ..saving.weights_file import _layer_keys

            children += [(f"{container}/{key}", layer) for key, layer in zip(_layer_keys(layers), layers)]
        return children

    def save(self, filepath):
        from ..saving.keras_file import save_model

        save_model(self, filepath)
