"""tf.nn.sampled_softmax_loss and tf.nn.nce_loss: a loss over the true classes and a few sampled ones instead of
all num_classes (word2vec, large-vocabulary language models). Built, as TF builds them (nn_impl.py's
_compute_sampled_logits), from ordinary ops, so their gradients wrt weights (as tf.IndexedSlices rows),
biases and inputs follow; the sampled classes come from the log-uniform sampler with TF's numbers for a seed."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import dtypes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.ops import array as _a
from tinytf.runtime.ops import indexing as _i
from tinytf.runtime.ops import linalg as _linalg
from tinytf.runtime.ops import math as _m
from tinytf.runtime.ops import nn as _nn
from tinytf.runtime.ops.candidate_sampling import compute_accidental_hits, log_uniform_candidate_sampler
from tinytf.runtime.ops.gradient_helpers import stop_gradient
from tinytf.runtime.ops.sparse import sparse_to_dense

from .embedding_ops import embedding_lookup


def sharded_lookup(params, ids, partition_strategy="div"):
    """Rows `ids` of a table given whole or as a list of shards: "div" (contiguous ranges, TF 2's layout) or
    "mod" (id i in shard i % p at row i // p, TF 1's default). Gathers from the shards' concatenation, so the
    gradient of each shard is the rows it gave."""
    if not isinstance(params, (list, tuple)) or len(params) == 1:
        table = params[0] if isinstance(params, (list, tuple)) else params
        return _i.gather(table, ids)
    if partition_strategy == "div":
        return embedding_lookup(list(params), ids)
    if partition_strategy != "mod":
        raise ValueError(f"Unrecognized partition_strategy: {partition_strategy}")
    shards = [convert_to_tensor(p) for p in params]
    sizes = [s._shape[0] if s._shape is not None else None for s in shards]
    if None in sizes:
        raise ValueError("embedding lookup with partition_strategy='mod' needs shards of known first dimension")
    p = len(shards)
    offsets = convert_to_tensor(np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64))
    ids = _m.cast(ids, dtypes.int64)
    rows = _i.gather(offsets, _m.floormod(ids, np.int64(p))) + _m.floordiv(ids, np.int64(p))
    return _i.gather(_a.concat(shards, 0), rows)


def _sum_rows(x):
    """Each row's sum as x @ ones, as TF's _sum_rows (the same float32 rounding as TF's losses)."""
    ones = _a.ones(_a.stack([_a.shape(x)[1], 1]), x.dtype)
    return _a.reshape(_linalg.matmul(x, ones), [-1])


def compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                           sampled_values=None, subtract_log_q=True, remove_accidental_hits=False,
                           partition_strategy="mod", seed=None):
    """TF's _compute_sampled_logits: ([batch, num_true + num_sampled] logits, labels) for the true classes then
    the sampled ones, the sampled logits of accidental hits pushed to -FLT_MAX, log Q subtracted."""
    inputs = convert_to_tensor(inputs)
    labels = _m.cast(convert_to_tensor(labels), dtypes.int64)
    labels_flat = _a.reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True, num_classes, seed=seed)
    sampled, true_expected_count, sampled_expected_count = (stop_gradient(s) for s in sampled_values)
    sampled = _m.cast(sampled, dtypes.int64)
    all_ids = _a.concat([labels_flat, sampled], 0)
    num_labels = _a.shape(labels_flat)[0]

    all_w = sharded_lookup(weights, all_ids, partition_strategy)
    if all_w.dtype is not inputs.dtype:
        all_w = _m.cast(all_w, inputs.dtype)
    true_w = _i.slice(all_w, [0, 0], _a.stack([num_labels, -1]))
    sampled_w = _i.slice(all_w, _a.stack([num_labels, 0]), [-1, -1])
    sampled_logits = _linalg.matmul(inputs, sampled_w, transpose_b=True)

    all_b = sharded_lookup(biases, all_ids, partition_strategy)
    if all_b.dtype is not inputs.dtype:
        all_b = _m.cast(all_b, inputs.dtype)
    true_b = _i.slice(all_b, [0], _a.shape(labels_flat))
    sampled_b = _i.slice(all_b, _a.shape(labels_flat), [-1])

    dim = _a.shape(true_w)[1:2]
    row_wise_dots = _m.multiply(_a.expand_dims(inputs, 1), _a.reshape(true_w, _a.concat([[-1, num_true], dim], 0)))
    dots_as_matrix = _a.reshape(row_wise_dots, _a.concat([[-1], dim], 0))
    true_logits = _a.reshape(_sum_rows(dots_as_matrix), [-1, num_true]) + _a.reshape(true_b, [-1, num_true])
    sampled_logits = sampled_logits + sampled_b

    if remove_accidental_hits:
        acc_indices, acc_ids, acc_weights = compute_accidental_hits(labels, sampled, num_true=num_true)
        sparse_indices = _a.concat([_a.reshape(_m.cast(acc_indices, dtypes.int64), [-1, 1]),
                                    _a.reshape(acc_ids, [-1, 1])], 1)
        logits_shape = _a.concat([_a.shape(labels, dtypes.int64)[:1], [np.int64(num_sampled)]], 0)
        sampled_logits = sampled_logits + sparse_to_dense(
            sparse_indices, _m.cast(acc_weights, sampled_logits.dtype), logits_shape,
            convert_to_tensor(0.0, sampled_logits.dtype))

    if subtract_log_q:
        true_logits = true_logits - _m.log(true_expected_count)
        sampled_logits = sampled_logits - _m.log(sampled_expected_count)

    out_logits = _a.concat([true_logits, sampled_logits], 1)
    out_labels = _a.concat([_a.ones_like(true_logits) / num_true, _a.zeros_like(sampled_logits)], 1)
    return out_logits, out_labels


def _check_rank2(inputs, labels, num_true, what):
    inputs, labels = convert_to_tensor(inputs), convert_to_tensor(labels)
    if inputs._shape is not None and len(inputs._shape) != 2:
        raise ValueError(f"{what}: inputs must be a [batch_size, dim] matrix, got shape {list(inputs._shape)}")
    if labels._shape is not None and (len(labels._shape) != 2 or labels._shape[1] not in (None, num_true)):
        raise ValueError(f"{what}: labels must be a [batch_size, num_true={num_true}] matrix, got shape "
                         f"{list(labels._shape)}")


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
             remove_accidental_hits=False, name="nce_loss"):
    """`tf.nn.nce_loss`: the noise-contrastive estimation loss of each example, [batch_size]: the sigmoid
    cross-entropy of the true classes (label 1 / num_true) and the sampled ones (label 0), logits minus log Q.
    `weights` [num_classes, dim] (or a list of "div" shards), `biases` [num_classes], `labels` [batch, num_true]."""
    return nce_loss_v1(weights, biases, labels, inputs, num_sampled, num_classes, num_true, sampled_values,
                       remove_accidental_hits, partition_strategy="div", name=name)


def nce_loss_v1(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1, sampled_values=None,
                remove_accidental_hits=False, partition_strategy="mod", name="nce_loss"):
    """TF 1's nce_loss, with its partition_strategy (default "mod")."""
    _check_rank2(inputs, labels, num_true, "nce_loss")
    logits, labels = compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                            sampled_values, True, remove_accidental_hits, partition_strategy)
    return _sum_rows(_nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits))


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, seed=None, name="sampled_softmax_loss"):
    """`tf.nn.sampled_softmax_loss`: the softmax cross-entropy of each example, [batch_size], over its true
    classes and num_sampled classes drawn (log-uniformly, unless `sampled_values` gives them), logits minus
    log Q; sampled classes that are true classes are removed by default."""
    return sampled_softmax_loss_v1(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                   sampled_values, remove_accidental_hits, partition_strategy="div", name=name,
                                   seed=seed)


def sampled_softmax_loss_v1(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                            sampled_values=None, remove_accidental_hits=True, partition_strategy="mod",
                            name="sampled_softmax_loss", seed=None):
    """TF 1's sampled_softmax_loss, with its partition_strategy (default "mod")."""
    _check_rank2(inputs, labels, num_true, "sampled_softmax_loss")
    logits, labels = compute_sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                                            sampled_values, True, remove_accidental_hits, partition_strategy,
                                            seed=seed)
    return _nn.softmax_cross_entropy_with_logits(labels=stop_gradient(labels), logits=logits)
