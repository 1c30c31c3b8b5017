"""tf.compat.v1.train.warm_start and VocabInfo: start a TF1 graph's variables from a previous model's
checkpoint (a name-based one, or an object-based one through its object graph's names), as TF's
warm_starting_util does it: each chosen variable's initializer becomes the checkpoint's tensor
(init_from_checkpoint), and a variable with a VocabInfo gets the previous rows (or columns, axis=1) of the
words both vocabularies hold, the other rows and the OOV buckets from `backup_initializer` (zeros without
one), filled in row-major order as TF's load_and_remap_matrix fills its missing values."""

from __future__ import annotations

import collections

import numpy as np
from tensorboard.compat.proto import trackable_object_graph_pb2

from ...train.bundle import BundleReader
from ...train.reader import _prefix
from ...train.trackable import OBJECT_GRAPH_KEY
from .graph import get_default_graph
from .init_from_checkpoint import init_from_checkpoint


def _tf():
    import tinytf

    return tinytf


class VocabInfo(collections.namedtuple("VocabInfo", ["new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab",
                                                     "old_vocab_size", "backup_initializer", "axis"])):
    """How a variable's rows (axis 0) or columns (axis 1) follow a vocabulary file that changed since the
    checkpoint: `new_vocab` / `old_vocab` are files of one word a line, `new_vocab_size` the words used now,
    `old_vocab_size` those of the old file the checkpoint used (-1: all)."""

    def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size=-1,
                backup_initializer=None, axis=0):
        if axis != 0 and axis != 1:
            raise ValueError(f"The only supported values for the axis argument are 0 and 1.  Provided axis: {axis}")
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size,
                               backup_initializer, axis)


def _name(variable) -> str:
    return variable.name.rsplit(":", 1)[0]


def _collection(key, scope):
    from .variables import get_collection

    return get_collection(key, scope=scope)


def _grouped_variables(vars_to_warm_start) -> dict:
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        variables = _collection("trainable_variables", vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            variables = [v for scope in vars_to_warm_start for v in _collection("variables", scope)]
        elif all(hasattr(v, "assign") and hasattr(v, "dtype") for v in vars_to_warm_start):
            variables = list(vars_to_warm_start)
        else:
            raise ValueError(f"If `vars_to_warm_start` is a list, it must be all `Variable` or all `str`.  Given "
                             f"types are {[type(v) for v in vars_to_warm_start]}")
    else:
        raise ValueError(f"`vars_to_warm_start must be a `list` or `str`.  Given type is {type(vars_to_warm_start)}")
    grouped = {}
    for variable in variables:
        grouped.setdefault(_name(variable), variable)
    return grouped


def _object_checkpoint_renames(path, names) -> dict:
    """An object-based checkpoint: {variable name: checkpoint key} from its object graph's full names."""
    reader = BundleReader(_prefix(path))
    if not reader.has_tensor(OBJECT_GRAPH_KEY):
        return {}
    graph = trackable_object_graph_pb2.TrackableObjectGraph()
    graph.ParseFromString(reader.get_tensor(OBJECT_GRAPH_KEY))
    names_to_keys = {a.full_name: a.checkpoint_key for node in graph.nodes for a in node.attributes}
    missing = set(names) - set(names_to_keys)
    if missing:
        raise ValueError("Attempting to warm-start from an object-based checkpoint, but found that the checkpoint "
                         f"did not contain values for all variables. The following variables were missing: {missing}")
    return {name: names_to_keys[name] for name in names}


def _read_vocab(path, size):
    with open(path, encoding="utf-8") as f:
        words = f.read().splitlines()
    return words if size is None or size < 0 else words[:size]


def _remapped(variable, checkpoint, tensor_name, info):
    """The initial value of `variable` under `info`: the checkpoint's rows (columns) of the words in both
    vocabularies, the others from the backup initializer."""
    tf = _tf()
    shape = variable.shape.as_list()
    if len(shape) != 2:
        raise ValueError(f"warm_start with a VocabInfo needs a 2-D variable, {variable.name} has shape {shape}")
    new_words = _read_vocab(info.new_vocab, info.new_vocab_size)
    # TF passes old_vocab_size for rows only: columns (axis 1) look in the whole old vocabulary
    old_size = info.old_vocab_size if info.axis == 0 else -1
    old_index = {w: i for i, w in enumerate(_read_vocab(info.old_vocab, old_size))}
    old = np.asarray(BundleReader(_prefix(checkpoint)).get_tensor(tensor_name))
    if info.axis == 1:  # columns follow the vocabulary: remap the transpose
        shape, old = shape[::-1], old.T
    rows = len(new_words) + info.num_oov_buckets
    if rows != shape[0]:
        raise ValueError(f"{variable.name}: {len(new_words)} words + {info.num_oov_buckets} OOV buckets is not its "
                         f"size {shape[0]} along axis {info.axis}")
    known = np.zeros(shape, dtype=variable.dtype.np)
    present = np.zeros(shape, dtype=bool)
    for i, word in enumerate(new_words):
        j = old_index.get(word)
        if j is not None and j < old.shape[0]:
            known[i] = old[j]
            present[i] = True
    if info.axis == 1:
        known, present = known.T, present.T
    missing = np.argwhere(~present)
    value = tf.constant(known)
    if len(missing):
        initializer = info.backup_initializer or tf.compat.v1.zeros_initializer()
        fill = initializer([len(missing)], dtype=variable.dtype)
        value = tf.tensor_scatter_nd_update(value, tf.constant(missing, dtype=tf.int64), fill)
    return value


def _warm_start_with_vocab(variable, checkpoint, tensor_name, info):
    tf = _tf()
    with get_default_graph().as_default(), tf.name_scope("warm_start"):
        value = _remapped(variable, checkpoint, tensor_name, info)
        variable._v1_initializer = variable.assign(value)
        variable._v1_initial_value = value


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Give the chosen variables of the default TF1 graph initializers that read `ckpt_to_initialize_from`
    (call it before global_variables_initializer(), as init_from_checkpoint)."""
    tf = _tf()
    if tf.executing_eagerly():
        raise RuntimeError("warm_start is not supported when eager execution is enabled: it changes a TF1 "
                           "graph's variable initializers")
    grouped = _grouped_variables(vars_to_warm_start)
    var_name_to_vocab_info = var_name_to_vocab_info or {}
    if not var_name_to_prev_var_name:
        var_name_to_prev_var_name = _object_checkpoint_renames(ckpt_to_initialize_from, grouped.keys())
    prev_used, vocab_used = set(), set()
    plain: dict = {}
    for var_name, variable in grouped.items():
        prev_name = var_name_to_prev_var_name.get(var_name)
        if prev_name:
            prev_used.add(var_name)
        info = var_name_to_vocab_info.get(var_name)
        if info:
            vocab_used.add(var_name)
            _warm_start_with_vocab(variable, ckpt_to_initialize_from, prev_name or var_name, info)
        elif vars_to_warm_start:
            tensor_name = prev_name or var_name
            if tensor_name in plain:  # one checkpoint tensor for two variables: map them in two calls, as TF
                init_from_checkpoint(ckpt_to_initialize_from, plain)
                plain = {}
            plain[tensor_name] = variable
    if plain:
        init_from_checkpoint(ckpt_to_initialize_from, plain)
    unused_prev = set(var_name_to_prev_var_name) - prev_used
    if unused_prev:
        raise ValueError(f"You provided the following variables in var_name_to_prev_var_name that were not used: "
                         f"{unused_prev}.  Perhaps you misspelled them?  Here is the list of viable variable names: "
                         f"{grouped.keys()}")
    unused_vocab = set(var_name_to_vocab_info) - vocab_used
    if unused_vocab:
        raise ValueError(f"You provided the following variables in var_name_to_vocab_info that were not used: "
                         f"{unused_vocab}.  Perhaps you misspelled them?  Here is the list of viable variable names: "
                         f"{grouped.keys()}")


__all__ = ["VocabInfo", "warm_start"]
