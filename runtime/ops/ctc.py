"""Connectionist temporal classification: the CTC loss (forward-backward over the blank-extended label sequence,
in log space and float64, batched) with its gradient as a second output, and the greedy decoder, as TF's CTCLoss
and CTCGreedyDecoder ops compute them. Logits are time-major (max_time, batch, num_classes); labels are dense,
padded rows with their lengths (tf.nn.ctc_loss turns sparse labels into these); `blank` is the blank's class.

The loss is -log p(labels | logits) summed over all alignments that collapse to the labels (repeats merged,
blanks removed); the gradient w.r.t. the logits is softmax(logits) - the posterior of each class at each frame
(zero past a sequence's logit_length), which TF's gradient rule scales by the incoming gradient of the loss."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..registry import OpDef, register

_NEG_INF = -np.inf


def _log_softmax(x):
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _logsumexp(*terms):
    stacked = np.stack(terms)
    top = np.max(stacked, axis=0)
    safe = np.where(np.isfinite(top), top, 0.0)
    return safe + np.log(np.sum(np.exp(stacked - safe), axis=0))


def _extended(labels, label_length, blank):
    """The blank-extended label sequences (batch, 2 L + 1), their lengths, and where a skip (s-2 -> s) is allowed."""
    batch, width = labels.shape
    ext = np.full((batch, 2 * width + 1), blank, np.int64)
    ext[:, 1::2] = labels
    s_len = 2 * label_length + 1
    skip = np.zeros(ext.shape, bool)
    skip[:, 2:] = (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])
    positions = np.arange(ext.shape[1])[None, :]
    ext = np.where(positions < s_len[:, None], ext, blank)
    return ext, s_len, skip


def ctc_forward_backward(logits, labels, label_length, logit_length, blank):
    """(loss (batch,), gradient (time, batch, classes)) in float64."""
    log_probs = _log_softmax(logits.astype(np.float64))  # (T, B, C)
    steps, batch, _ = log_probs.shape
    label_length = label_length.astype(np.int64)
    logit_length = np.minimum(logit_length.astype(np.int64), steps)
    ext, s_len, skip = _extended(labels.astype(np.int64), label_length, blank)
    width = ext.shape[1]
    rows = np.arange(batch)[:, None]
    emit = log_probs[:, rows, ext]  # (T, B, S): the log probability of each extended symbol at each frame
    valid = np.arange(width)[None, :] < s_len[:, None]

    def shifted(a, by):
        out = np.full_like(a, _NEG_INF)
        out[:, by:] = a[:, :-by]
        return out

    alpha = np.full((steps, batch, width), _NEG_INF)
    start = np.full((batch, width), _NEG_INF)
    start[:, 0] = emit[0, :, 0]
    start[:, 1] = np.where(s_len > 1, emit[0, :, 1], _NEG_INF)
    alpha[0] = start
    for t in range(1, steps):
        prev = alpha[t - 1]
        merged = _logsumexp(prev, shifted(prev, 1), np.where(skip, shifted(prev, 2), _NEG_INF))
        alpha[t] = np.where(valid, merged + emit[t], _NEG_INF)
    beta = np.full((steps, batch, width), _NEG_INF)
    last = np.arange(width)[None, :]
    final = (last == (s_len - 1)[:, None]) | (last == (s_len - 2)[:, None])
    for t in range(steps - 1, -1, -1):
        if t + 1 < steps:
            nxt = beta[t + 1]
            # beta_t(s) = emit_t(s) + logsumexp(beta_{t+1}(s), beta_{t+1}(s+1), beta_{t+1}(s+2) if s+2 may skip)
            after1 = np.full_like(nxt, _NEG_INF)
            after1[:, :-1] = nxt[:, 1:]
            after2 = np.full_like(nxt, _NEG_INF)
            after2[:, :-2] = np.where(skip[:, 2:], nxt[:, 2:], _NEG_INF)
            recursed = _logsumexp(nxt, after1, after2) + emit[t]
        else:
            recursed = np.full((batch, width), _NEG_INF)
        ends_here = (t == logit_length - 1)[:, None]
        beta[t] = np.where(ends_here, np.where(final & valid, emit[t], _NEG_INF),
                           np.where((t < logit_length - 1)[:, None] & valid, recursed, _NEG_INF))
    b_index = np.arange(batch)
    t_last = np.maximum(logit_length - 1, 0)
    end_alpha = alpha[t_last, b_index]  # (B, S)
    tail = np.where(final & valid, end_alpha, _NEG_INF)
    log_likelihood = _logsumexp(*tail.T) if width > 1 else tail[:, 0]
    log_likelihood = np.where(logit_length > 0, log_likelihood, np.where(label_length == 0, 0.0, _NEG_INF))
    # posterior of each extended symbol: alpha + beta counts the frame's emission twice
    gamma = alpha + beta - emit - log_likelihood[None, :, None]
    in_time = (np.arange(steps)[:, None] < logit_length[None, :])[:, :, None]
    occupancy = np.where(in_time & np.isfinite(log_likelihood)[None, :, None], np.exp(gamma), 0.0)
    posterior = np.zeros_like(log_probs)
    t_index = np.arange(steps)[:, None, None]
    np.add.at(posterior, (t_index, rows[None], ext[None]), occupancy)
    grad = np.where(in_time, np.exp(log_probs) - posterior, 0.0)
    return -log_likelihood, grad


def _ctc_loss_kernel(logits, labels, label_length, logit_length, *, blank):
    loss, grad = ctc_forward_backward(logits, labels, label_length, logit_length, blank)
    return loss.astype(logits.dtype), grad.astype(logits.dtype)


def _infer_ctc_loss(logits, labels, label_length, logit_length, *, blank):
    if logits.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"ctc_loss: logits must be float32 or float64, got {logits.dtype.name}")
    if not labels.dtype.is_integer or not label_length.dtype.is_integer or not logit_length.dtype.is_integer:
        raise TypeError(f"ctc_loss: labels and lengths must be integers, got {labels.dtype.name}, "
                        f"{label_length.dtype.name}, {logit_length.dtype.name}")
    shape = logits._shape
    if shape is not None and len(shape) != 3:
        raise ValueError(f"ctc_loss: logits must be 3-D (max_time, batch_size, num_classes), got shape {list(shape)}")
    if labels._shape is not None and len(labels._shape) != 2:
        raise ValueError(f"ctc_loss: labels must be 2-D (batch_size, max_label_length), got {list(labels._shape)}")
    batch = None if shape is None else shape[1]
    return [(logits.dtype, (batch,)), (logits.dtype, shape)]


ctc_loss_op = register(OpDef("ctc_loss", _ctc_loss_kernel, _infer_ctc_loss,
                             doc="TF's CTCLoss: (loss, gradient) of time-major logits against padded labels"))


def _greedy_kernel(inputs, sequence_length, *, merge_repeated, blank):
    steps, batch, classes = inputs.shape
    blank = blank if blank >= 0 else classes + blank
    best = np.argmax(inputs, axis=-1)  # (T, B): numpy's argmax keeps the first maximum, as TF's does
    log_probability = np.zeros((batch, 1), inputs.dtype)
    rows, values = [], []
    for b in range(batch):
        length = int(min(sequence_length[b], steps))
        log_probability[b, 0] = -np.sum(inputs[np.arange(length), b, best[:length, b]])
        previous = -1
        decoded = []
        for t in range(length):
            label = int(best[t, b])
            if label != blank and not (merge_repeated and label == previous):
                decoded.append(label)
            previous = label
        rows.append(decoded)
    longest = max((len(r) for r in rows), default=0)
    indices = np.array([[b, i] for b, r in enumerate(rows) for i in range(len(r))], np.int64).reshape(-1, 2)
    values = np.array([v for r in rows for v in r], np.int64)
    return indices, values, np.array([batch, longest], np.int64), log_probability


def _infer_greedy(inputs, sequence_length, *, merge_repeated, blank):
    if inputs.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"ctc_greedy_decoder: inputs must be float32 or float64, got {inputs.dtype.name}")
    if inputs._shape is not None and len(inputs._shape) != 3:
        raise ValueError(f"ctc_greedy_decoder: inputs must be 3-D (max_time, batch_size, num_classes), got shape "
                         f"{list(inputs._shape)}")
    batch = None if inputs._shape is None else inputs._shape[1]
    return [(dtypes.int64, (None, 2)), (dtypes.int64, (None,)), (dtypes.int64, (2,)), (inputs.dtype, (batch, 1))]


ctc_greedy_decoder_op = register(OpDef("ctc_greedy_decoder", _greedy_kernel, _infer_greedy, differentiable=False,
                                       doc="TF's CTCGreedyDecoder: the most likely class per frame, merged"))
