"""keras.layers.TextVectorization: strings -> standardized, split, n-grammed tokens -> indices or vectors,
through a StringLookup with mask token "" (index 0 is padding, 1 is OOV), as Keras 3 does it."""

from __future__ import annotations

import tinytf as _tf

from ... import serialization
from ..layer import Layer
from .index_lookup import feed_batches, listify, validate_string_arg
from .string_lookup import StringLookup
from .text_ngrams import ngrams as make_ngrams

# Keras' punctuation class (keras/src/layers/preprocessing/text_vectorization.py), applied with RE2 there and
# Python's re here: the same set, "," to "." included as a range.
STRIP_PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'


class TextVectorization(Layer):
    """Turns strings into sequences of token indices or into one vector per string (multi_hot, count,
    tf_idf), with a vocabulary given or learned by adapt()."""

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation", split="whitespace", ngrams=None,
                 output_mode="int", output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None, **kwargs):
        if not callable(standardize) and standardize is not None:
            validate_string_arg(standardize, ("lower_and_strip_punctuation", "lower", "strip_punctuation"),
                                "TextVectorization", "standardize")
        if not callable(split) and split is not None:
            validate_string_arg(split, ("whitespace", "character"), "TextVectorization", "split")
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        validate_string_arg(output_mode, ("int", "one_hot", "multi_hot", "count", "tf_idf"), "TextVectorization",
                            "output_mode")
        if not (ngrams is None or isinstance(ngrams, int)
                or isinstance(ngrams, tuple) and all(isinstance(item, int) for item in ngrams)):
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. Received: ngrams={ngrams}")
        if output_mode == "int" and not (isinstance(output_sequence_length, int) or output_sequence_length is None):
            raise ValueError(f"`output_sequence_length` must be either None or an integer when `output_mode` is "
                             f"'int'. Received: output_sequence_length={output_sequence_length}")
        if output_mode != "int" and output_sequence_length is not None:
            raise ValueError(f"`output_sequence_length` must not be set if `output_mode` is not 'int'. Received "
                             f"output_sequence_length={output_sequence_length}.")
        if ragged and output_mode != "int":
            raise ValueError(f"`ragged` must not be true if `output_mode` is `'int'`. Received: ragged={ragged} and "
                             f"output_mode={output_mode}")
        self._max_tokens, self._standardize, self._split = max_tokens, standardize, split
        self._ngrams_arg = ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._ragged, self._output_mode = ragged, output_mode
        self._output_sequence_length, self._encoding = output_sequence_length, encoding
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        kwargs.pop("dtype", None)
        super().__init__(name=name, autocast=False, **kwargs)
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens, mask_token="", output_mode=output_mode, sparse=sparse,
            has_input_vocabulary=self._has_input_vocabulary, encoding=encoding, vocabulary_size=vocabulary_size)

    @property
    def compute_dtype(self) -> str:
        return "string"

    @property
    def variable_dtype(self) -> str:
        return "string"

    def build(self, input_shape=None) -> None:
        self.built = True

    # --- vocabulary -------------------------------------------------------------------------------------------
    def adapt(self, data, batch_size=None, steps=None) -> None:
        """Learn the vocabulary from strings: an array, a list, a tensor, a batched tf.data.Dataset or an
        iterable of batches."""
        self.reset_state()
        if not feed_batches(data, steps, self.update_state):
            data = _tf.convert_to_tensor(data, dtype=_tf.string)
            if data.shape.rank == 1:
                data = _tf.expand_dims(data, -1)
            self.update_state(data)
        self.finalize_state()

    def update_state(self, data) -> None:
        tokens = self._preprocess(data)
        if isinstance(tokens, _tf.RaggedTensor):  # one document a row, whatever their lengths
            self._lookup_layer._update_rows(tokens.to_list())
        else:
            self._lookup_layer.update_state(tokens)

    def finalize_state(self) -> None:
        self._lookup_layer.finalize_state()

    def reset_state(self) -> None:
        self._lookup_layer.reset_state()

    def get_vocabulary(self, include_special_tokens: bool = True) -> list:
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self) -> int:
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None) -> None:
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    # --- call -------------------------------------------------------------------------------------------------
    def _preprocess(self, inputs):
        inputs = _tf.convert_to_tensor(inputs, dtype=_tf.string) if not isinstance(inputs, _tf.Tensor) else inputs
        if self._standardize in ("lower", "lower_and_strip_punctuation"):
            inputs = _tf.strings.lower(inputs)
        if self._standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            inputs = _tf.strings.regex_replace(inputs, STRIP_PUNCTUATION, "")
        if callable(self._standardize):
            inputs = self._standardize(inputs)
        if self._split is not None:
            if inputs.shape.rank > 1:
                if inputs.shape[-1] != 1:
                    raise ValueError(f"When using `TextVectorization` to tokenize strings, the input rank must be 1 "
                                     f"or the last shape dimension must be 1. Received: inputs.shape={inputs.shape} "
                                     f"with rank={inputs.shape.rank}")
                inputs = _tf.squeeze(inputs, axis=-1)
            if self._split == "whitespace":
                inputs = _tf.strings.split(inputs)
            elif self._split == "character":
                inputs = _tf.strings.unicode_split(inputs, "UTF-8")
            else:
                inputs = self._split(inputs)
        if self._ngrams is not None:
            inputs = make_ngrams(inputs, self._ngrams, separator=" ")
        return inputs

    def call(self, inputs):
        tokens = self._preprocess(inputs)
        if isinstance(tokens, _tf.RaggedTensor) and self._output_mode != "int":
            # one vector a row: pad with the mask token "" (index 0 in int mode, dropped by the encoders)
            tokens = tokens.to_tensor(default_value="")
        lookup_data = self._lookup_layer.call(tokens)
        if self._output_mode != "int":
            return lookup_data
        length = self._output_sequence_length
        if isinstance(lookup_data, _tf.RaggedTensor):
            if self._ragged:
                return lookup_data if length is None else lookup_data[:, :length]
            shape = lookup_data.shape.as_list()
            shape[-1] = length
            return lookup_data.to_tensor(default_value=0, shape=shape)
        if length is not None:
            outputs = lookup_data[..., :length]
            missing = length - _tf.shape(outputs)[-1]
            rank = outputs.shape.rank
            paddings = _tf.concat([_tf.zeros([rank - 1, 2], _tf.int32), _tf.reshape(_tf.stack([0, missing]),
                                                                                     [1, 2])], 0)
            return _tf.pad(outputs, paddings)
        return lookup_data

    def compute_output_shape(self, input_shape):
        if self._output_mode == "int":
            return (input_shape[0], self._output_sequence_length)
        if self._split is None:
            if len(input_shape) <= 1:
                input_shape = tuple(input_shape) + (1,)
        else:
            input_shape = tuple(input_shape) + (None,)
        return self._lookup_layer.compute_output_shape(input_shape)

    # --- config and saving ------------------------------------------------------------------------------------
    def get_config(self) -> dict:
        lookup = self._lookup_layer
        config = {
            "max_tokens": lookup.max_tokens, "standardize": _callable_config(self._standardize),
            "split": _callable_config(self._split),
            "ngrams": self._ngrams_arg, "output_mode": self._output_mode,
            "output_sequence_length": self._output_sequence_length, "pad_to_max_tokens": lookup.pad_to_max_tokens,
            "sparse": lookup.sparse, "ragged": self._ragged, "vocabulary": listify(lookup.input_vocabulary),
            "idf_weights": listify(lookup.input_idf_weights), "encoding": self._encoding,
            "vocabulary_size": self.vocabulary_size(),
        }
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config: dict):
        config = dict(config)
        for key in ("standardize", "split"):
            if config.get(key) is not None and not isinstance(config[key], str):
                config[key] = _callable_from_config(config[key])
        if isinstance(config.get("ngrams"), list):
            config["ngrams"] = tuple(config["ngrams"])
        return cls(**config)

    def get_build_config(self):
        return {}

    def build_from_config(self, config) -> None:
        self.built = True

    def save_assets(self, dir_path: str) -> None:
        self._lookup_layer.save_assets(dir_path)

    def load_assets(self, dir_path: str) -> None:
        self._lookup_layer.load_assets(dir_path)


def _callable_config(value):
    """A standardize or split argument for a config: its name, or a registered function as Keras 3 writes it."""
    if not callable(value):
        return value
    name = serialization.registered_name(value) or getattr(value, "__name__", None)
    return {"module": getattr(value, "__module__", None), "class_name": "function", "config": name,
            "registered_name": serialization.registered_name(value) or name}


def _callable_from_config(config):
    name = config.get("registered_name") or config.get("config") if isinstance(config, dict) else config
    found = serialization.get_registered_object(name)
    if found is None:
        raise ValueError(f"Could not locate function '{name}'. Make sure custom functions are decorated with "
                         f"`@keras.saving.register_keras_serializable()`.")
    return found
