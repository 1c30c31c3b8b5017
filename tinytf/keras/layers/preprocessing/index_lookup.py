"""Keras' IndexLookup, the shared base of StringLookup and IntegerLookup (and TextVectorization's lookup):
a vocabulary given or learned by adapt() (tokens by count, high to low, ties by token, high to low: Keras'
lexsort), mask and OOV indices first, and the int / one_hot / multi_hot / count / tf_idf outputs."""

from __future__ import annotations

import collections
import os

import numpy as np

import tinytf as _tf
from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import apply
from tinytf.runtime.ops import lookup as lookup_ops

from ..layer import Layer
from .encoding import encode_categorical_inputs
from .vocabulary_table import VocabularyTable

OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")
_INT64_MAX = np.iinfo(np.int64).max


def validate_string_arg(value, allowed, caller: str, arg: str) -> None:
    if value not in allowed:
        raise ValueError(f"Unknown value for `{arg}` argument of {caller}. Allowed values are: {allowed}. "
                         f"Received: {arg}={value}")


def listify(value):
    """A vocabulary or idf weights as a list for a config (tensors and arrays become lists)."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, list):
        return [v.decode() if isinstance(v, bytes) else v for v in value]
    return value


class IndexLookup(Layer):
    """Maps tokens to indices from a vocabulary (see StringLookup and IntegerLookup for the public forms)."""

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary_dtype, vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", sparse=False, pad_to_max_tokens=False,
                 oov_method="floormod", name=None, salt=None, **kwargs):
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: max_tokens={max_tokens}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"If pad_to_max_tokens is True, must set `max_tokens`. Received: "
                             f"max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be greater than or equal to 0. Received: "
                             f"num_oov_indices={num_oov_indices}")
        validate_string_arg(oov_method, ("floormod", "farmhash"), type(self).__name__, "oov_method")
        if salt is not None:
            if dtypes.as_dtype(vocabulary_dtype).is_integer and oov_method != "farmhash":
                raise ValueError(f"`salt` can only be used when `oov_method='farmhash'`. Received: "
                                 f"oov_method={oov_method}")
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                salt = list(salt)
            elif isinstance(salt, int):
                salt = [salt, salt]
            else:
                raise ValueError(f"The `salt` argument for `IndexLookup` can only be a tuple of 2 integers, or a "
                                 f"single integer. Received: salt={salt}.")
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        validate_string_arg(output_mode, OUTPUT_MODES, type(self).__name__, "output_mode")
        if invert and output_mode != "int":
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. Received: "
                             f"output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `'one_hot'`, `'multi_hot'`, `'count'` "
                             f"or `'tf_idf'`. Received: sparse={sparse} and output_mode={output_mode}")
        if sparse:
            raise ValueError("sparse=True is not supported by tinytf's lookup layers: their outputs are dense")
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError(f"`idf_weights` should only be set if `output_mode` is `'tf_idf'`. Received: "
                             f"idf_weights={idf_weights} and output_mode={output_mode}")
        self._frozen_vocab_size = kwargs.pop("vocabulary_size", None)
        self._has_input_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("trainable", None)
        kwargs.pop("dtype", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword argument(s): {kwargs}")
        super().__init__(name=name, trainable=False, autocast=False)
        self.invert, self.max_tokens, self.num_oov_indices = invert, max_tokens, num_oov_indices
        self.mask_token, self.oov_token, self.output_mode = mask_token, oov_token, output_mode
        self.sparse, self.pad_to_max_tokens = sparse, pad_to_max_tokens
        self.vocabulary_dtype = dtypes.as_dtype(vocabulary_dtype).name
        self.oov_method, self.salt = oov_method, salt
        self.input_vocabulary = vocabulary if not isinstance(vocabulary, str) else None
        self.input_idf_weights = idf_weights
        self.idf_weights_const = None
        if invert:
            self._key_dtype, self._value_dtype = dtypes.int64, dtypes.as_dtype(self.vocabulary_dtype)
            mask_key, mask_value, default = (0 if mask_token is not None else None), mask_token, oov_token
        else:
            self._key_dtype, self._value_dtype = dtypes.as_dtype(self.vocabulary_dtype), dtypes.int64
            mask_key = mask_token
            mask_value = 0 if output_mode == "int" else _INT64_MAX
            default = self._oov_start_index() if num_oov_indices == 1 else -1
        self.lookup_table = VocabularyTable(
            self._key_dtype, self._value_dtype, invert=invert, num_oov_indices=num_oov_indices,
            oov_start=self._oov_start_index(), default_value=self._python_token(default),
            mask_key=self._python_token(mask_key), mask_value=self._python_token(mask_value), oov_method=oov_method,
            salt=salt)
        if output_mode == "tf_idf" and self._has_input_vocabulary and idf_weights is None:
            raise ValueError("When specifying the `vocabulary` argument, in TF-IDF output mode, the `idf_weights` "
                             "argument must also be provided.")
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)
        self._token_counts: collections.Counter = collections.Counter()
        self._document_counts: collections.Counter = collections.Counter()
        self._num_documents = 0

    @property
    def compute_dtype(self) -> str:
        return self.vocabulary_dtype  # as Keras 3: a Sequential built from shapes gives its input this dtype

    @property
    def variable_dtype(self) -> str:
        return self.vocabulary_dtype

    # --- tokens as the table keeps them (bytes for strings, ints for integers) ---------------------------------
    def _python_token(self, token):
        if token is None:
            return None
        if isinstance(token, str):
            return token.encode("utf-8")
        if isinstance(token, (np.generic,)):
            return token.item()
        return token

    def _plain_token(self, token):
        return token.decode("utf-8") if isinstance(token, bytes) else token

    def _shown_token(self, token):
        """A vocabulary token as Keras 3's get_vocabulary lists it: read back from its lookup table as a numpy
        array, so a numpy scalar (np.str_, np.int64), which numpy 2 prints with its type; the special tokens
        stay Python's."""
        token = self._plain_token(token)
        if isinstance(token, str):
            return np.str_(token)
        return np.int64(token) if isinstance(token, (int, np.integer)) else token

    # --- indices ----------------------------------------------------------------------------------------------
    def _oov_start_index(self) -> int:
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start_index(self) -> int:
        return self._oov_start_index() + self.num_oov_indices

    # --- the vocabulary ---------------------------------------------------------------------------------------
    def _tokens(self) -> list:
        """The learned or given tokens, in index order (without the special tokens)."""
        entries = self.lookup_table._entries
        if self.invert:
            return [entries[i] for i in sorted(entries)]
        return sorted(entries, key=entries.get)

    def vocabulary_size(self) -> int:
        """The vocabulary's size, including the mask and OOV indices."""
        return len(self.lookup_table._entries) + self._token_start_index()

    def get_vocabulary(self, include_special_tokens: bool = True) -> list:
        """The vocabulary: index i holds the token the layer maps to i (special tokens first)."""
        tokens = [self._shown_token(t) for t in self._tokens()]
        vocab = [self.oov_token] * self._token_start_index() + tokens
        if self.mask_token is not None and self.output_mode == "int":
            vocab[0] = self.mask_token
        if not include_special_tokens:
            vocab = vocab[self._token_start_index():]
        return vocab

    def set_vocabulary(self, vocabulary, idf_weights=None) -> None:
        """Set the vocabulary (a list, array, tensor, or the path of a file of one token a line) and, in
        tf_idf mode, its idf weights."""
        if self.output_mode == "tf_idf":
            if idf_weights is None:
                raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        elif idf_weights is not None:
            raise ValueError(f"`idf_weights` should only be set if output_mode is `'tf_idf'`. Received: "
                             f"output_mode={self.output_mode} and idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            if not os.path.exists(vocabulary):
                raise ValueError(f"Vocabulary file {vocabulary} does not exist.")
            if self.output_mode == "tf_idf":
                raise ValueError("output_mode `'tf_idf'` does not support loading a vocabulary from file.")
            with open(vocabulary, encoding="utf-8") as f:
                lines = f.read().split("\n")
            if lines and lines[-1] == "":
                lines.pop()
            vocabulary = lines if self.vocabulary_dtype == "string" else [int(v) for v in lines]
            self._set_tokens(vocabulary)
            self._record_vocabulary_size()
            return
        if hasattr(vocabulary, "numpy"):
            vocabulary = vocabulary.numpy()
        vocabulary = [self._plain_token(v.item() if isinstance(v, np.generic) else v) for v in
                      (vocabulary.tolist() if isinstance(vocabulary, np.ndarray) else list(vocabulary))]
        if hasattr(idf_weights, "numpy"):
            idf_weights = idf_weights.numpy()
        if isinstance(idf_weights, (list, tuple)):
            idf_weights = np.array(idf_weights)
        if len(vocabulary) == 0:
            raise ValueError(f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}")
        token_start = self._token_start_index()
        special = [self.mask_token] * self._oov_start_index() + [self.oov_token] * self.num_oov_indices
        found_special = vocabulary[:token_start] == special
        tokens = vocabulary[token_start:] if found_special else vocabulary
        repeated = [t for t, c in collections.Counter(tokens).items() if c > 1]
        if repeated:
            raise ValueError(f"The passed vocabulary has at least one repeated term. Please uniquify your dataset. "
                             f"The repeated terms are: {repeated}")
        if self.mask_token is not None and self.mask_token in tokens:
            raise ValueError(f"Found reserved mask token at unexpected location in `vocabulary`. Note that passed "
                             f"`vocabulary` does not need to include the OOV and mask tokens. Either remove all "
                             f"mask and OOV tokens, or include them only at the start of the vocabulary in "
                             f"precisely this order: {special}. Received: mask_token={self.mask_token} at "
                             f"vocabulary index {len(vocabulary) - 1 - vocabulary[::-1].index(self.mask_token)}")
        if self.num_oov_indices > 0 and self.oov_token in tokens:
            raise ValueError(f"Found reserved OOV token at unexpected location in `vocabulary`. Note that passed "
                             f"`vocabulary` does not need to include the OOV and mask tokens. Either remove all "
                             f"mask and OOV tokens, or include them only at the start of the vocabulary in "
                             f"precisely this order: {special}. Received: oov_token={self.oov_token} at "
                             f"vocabulary index {vocabulary.index(self.oov_token)}")
        size = token_start + len(tokens)
        if self.max_tokens is not None and size > self.max_tokens:
            raise ValueError(f"Attempted to set a vocabulary larger than the maximum vocab size. Received vocabulary "
                             f"size is {size}; `max_tokens` is {self.max_tokens}.")
        self._set_tokens(tokens)
        self._record_vocabulary_size()
        if self.output_mode == "tf_idf" and idf_weights is not None:
            if len(vocabulary) != len(idf_weights):
                raise ValueError(f"`idf_weights` must be the same length as vocabulary. len(idf_weights) is "
                                 f"{len(idf_weights)}; len(vocabulary) is {len(vocabulary)}")
            idf_weights = np.asarray(idf_weights)
            front, front_value = (0, 0) if found_special else (token_start, np.average(idf_weights))
            back = self.max_tokens - front - len(idf_weights) if self.pad_to_max_tokens else 0
            weights = np.pad(idf_weights, (front, back), "constant", constant_values=(front_value, 0))
            self.idf_weights_const = _tf.constant(weights.astype(np.float32))

    def _set_tokens(self, tokens) -> None:
        start = self._token_start_index()
        keys = [self._python_token(t) for t in tokens]
        ids = list(range(start, start + len(keys)))
        if self.invert:
            self.lookup_table.set_tokens(ids, keys)
        else:
            self.lookup_table.set_tokens(keys, ids)

    def _record_vocabulary_size(self) -> None:
        self._ensure_vocab_size_unchanged()
        self._frozen_vocab_size = self.vocabulary_size()

    def _ensure_vocab_size_unchanged(self) -> None:
        if self.output_mode == "int" or self.pad_to_max_tokens:
            return
        size = self.vocabulary_size()
        if self._frozen_vocab_size is not None and size != self._frozen_vocab_size:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, the "
                               f"vocabulary size cannot be changed after the layer is called. Old vocab size is "
                               f"{self._frozen_vocab_size}, new vocab size is {size}")

    def _ensure_known_vocab_size(self) -> None:
        if self.output_mode == "int" or self.pad_to_max_tokens:
            return
        if self._frozen_vocab_size is None:
            raise RuntimeError(f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, you must "
                               f"set the layer's vocabulary before calling it. Either pass a `vocabulary` argument "
                               f"to the layer, or call `adapt` with some sample data.")

    # --- adapt ------------------------------------------------------------------------------------------------
    def adapt(self, data, steps=None) -> None:
        """Learn the vocabulary (and in tf_idf mode the document frequencies) from data: an array, a list, a
        tensor, a tf.data.Dataset of batches, or an iterable of batches."""
        self.reset_state()
        if not feed_batches(data, steps, self.update_state):
            array = self._batch_array(data)
            if array.ndim == 1:
                array = array[:, None]
            self.update_state(array)
        self.finalize_state()

    def _batch_array(self, data) -> np.ndarray:
        if hasattr(data, "numpy"):
            data = data.numpy()
        if self.vocabulary_dtype == "string":
            array = np.asarray(data, dtype=object)
            return np.vectorize(self._python_token, otypes=[object])(array) if array.size else array
        return np.asarray(data).astype(np.int64)

    def update_state(self, data) -> None:
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static vocabulary via "
                             f"`vocabulary` argument or `set_vocabulary()` method.")
        array = self._batch_array(data)
        if array.ndim == 0:
            array = array[None]
        if array.ndim == 1:
            array = array[None]
        self._update_rows([document.tolist() for document in array.reshape(array.shape[0], -1)])

    def _update_rows(self, documents: list) -> None:
        """Count the tokens of documents (lists of tokens; a ragged batch gives rows of several lengths)."""
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static vocabulary via "
                             f"`vocabulary` argument or `set_vocabulary()` method.")
        for document in documents:
            self._token_counts.update(document)
        if self.output_mode == "tf_idf":
            for document in documents:
                self._document_counts.update(set(document))
            self._num_documents += len(documents)

    def finalize_state(self) -> None:
        if self._has_input_vocabulary or not self._token_counts:
            self._record_vocabulary_size()
            return
        counts = dict(self._token_counts)
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                counts.pop(self._python_token(special), None)
        ordered = sorted(counts, key=lambda t: (counts[t], t), reverse=True)
        if self.max_tokens:
            ordered = ordered[:self.max_tokens - self._token_start_index()]
        self._set_tokens(ordered)
        if self.output_mode == "tf_idf":
            documents = np.array([self._document_counts[t] for t in ordered], dtype=np.int64)
            idf = np.log(1 + self._num_documents / (1 + documents)).astype(np.float32)
            idf = np.pad(idf, (self._token_start_index(), 0), constant_values=np.mean(idf, dtype=np.float32))
            if self.pad_to_max_tokens and self.max_tokens is not None:
                idf = np.pad(idf, (0, self.max_tokens - idf.size), constant_values=0)
            self.idf_weights_const = _tf.constant(idf.astype(np.float32))
        self.reset_state()
        self._record_vocabulary_size()

    def reset_state(self) -> None:
        if self._has_input_vocabulary:
            return
        self._token_counts = collections.Counter()
        self._document_counts = collections.Counter()
        self._num_documents = 0

    # --- call -------------------------------------------------------------------------------------------------
    def _inputs_tensor(self, inputs):
        if isinstance(inputs, (_tf.SparseTensor, _tf.RaggedTensor)):
            return inputs
        if not isinstance(inputs, _tf.Tensor):
            if self._key_dtype.is_string:
                return _tf.convert_to_tensor(inputs, dtype=self._key_dtype)
            inputs = _tf.convert_to_tensor(np.asarray(inputs) if isinstance(inputs, (list, tuple)) else inputs)
        if inputs.dtype is not self._key_dtype:
            if self._key_dtype.is_string or inputs.dtype.is_string:
                raise TypeError(f"Layer '{self.name}' expects {self._key_dtype.name} inputs, got "
                                f"{inputs.dtype.name}")
            inputs = _tf.cast(inputs, self._key_dtype)
        return inputs

    def _lookup(self, keys):
        table = self.lookup_table
        default = _tf.constant(-1 if not self._value_dtype.is_string else "", self._value_dtype)

        def find(k):
            return apply(lookup_ops.lookup_find_op, [table, k, default], table._attrs())

        if isinstance(keys, _tf.SparseTensor):
            return _tf.SparseTensor(keys.indices, find(keys.values), keys.dense_shape)
        if isinstance(keys, _tf.RaggedTensor):
            return keys.with_flat_values(find(keys.flat_values))
        return find(keys)

    def call(self, inputs):
        self._ensure_known_vocab_size()
        inputs = self._inputs_tensor(inputs)
        scalar = not isinstance(inputs, (_tf.SparseTensor, _tf.RaggedTensor)) and inputs.shape.rank == 0
        if scalar:
            inputs = _tf.expand_dims(inputs, -1)
        lookups = self._lookup(inputs)
        if self.output_mode == "int":
            return _tf.squeeze(lookups, -1) if scalar else lookups
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        mode = "count" if self.output_mode == "tf_idf" else self.output_mode
        output = encode_categorical_inputs(lookups, mode, depth, self._value_dtype)
        if self.output_mode == "tf_idf":
            if self.idf_weights_const is None:
                raise ValueError("When `output_mode` is `'tf_idf'`, `idf_weights` must be provided.")
            output = _tf.cast(output, self.idf_weights_const.dtype) * self.idf_weights_const
        return output

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return input_shape
        depth = self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size
        input_shape = tuple(input_shape)
        if self.output_mode == "one_hot":
            if len(input_shape) > 1 and input_shape[-1] == 1:
                return input_shape[:-1] + (depth,)
            return input_shape + (depth,)
        return input_shape[:-1] + (depth,)

    # --- config and saving ------------------------------------------------------------------------------------
    def get_config(self) -> dict:
        config = {
            "invert": self.invert, "max_tokens": self.max_tokens, "num_oov_indices": self.num_oov_indices,
            "oov_token": self.oov_token, "mask_token": self.mask_token, "output_mode": self.output_mode,
            "sparse": self.sparse, "pad_to_max_tokens": self.pad_to_max_tokens,
            "vocabulary_dtype": self.vocabulary_dtype, "idf_weights": listify(self.input_idf_weights),
            "vocabulary": listify(self.input_vocabulary), "vocabulary_size": self._frozen_vocab_size,
            "oov_method": self.oov_method, "salt": self.salt,
        }
        return {**super().get_config(), **config}

    def get_build_config(self):
        return {}

    def build_from_config(self, config) -> None:
        self.build(None)
        self.built = True

    def save_assets(self, dir_path: str) -> None:
        """Keras' asset of an adapted layer: its vocabulary, one token a line, in vocabulary.txt."""
        if self.input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(str(w) for w in self.get_vocabulary(include_special_tokens=True)))

    def load_assets(self, dir_path: str) -> None:
        if self.input_vocabulary is not None:
            return
        with open(os.path.join(dir_path, "vocabulary.txt"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        while lines and lines[-1] == "":
            lines.pop()
        values = lines if self.vocabulary_dtype == "string" else [int(line) for line in lines]
        if self.output_mode == "tf_idf":
            self.set_vocabulary(values, idf_weights=self.idf_weights_const.numpy())
        else:
            self.set_vocabulary(values)


def feed_batches(data, steps, update_state) -> bool:
    """adapt()'s batches: a tf.data.Dataset or an iterable of batches goes to `update_state` batch by batch
    (at most `steps` of them); False when `data` is one in-memory array (a list, an array, a tensor), which
    the caller takes whole."""
    if isinstance(data, _tf.data.Dataset):
        for batch in data if steps is None else data.take(steps):
            update_state(batch)
        return True
    if hasattr(data, "__iter__") and not isinstance(data, (list, tuple, np.ndarray, _tf.Tensor)):
        for i, batch in enumerate(data):
            if steps is not None and i >= steps:
                break
            update_state(batch)
        return True
    return False
