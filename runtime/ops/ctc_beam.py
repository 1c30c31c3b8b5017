"""TF's CTCBeamSearchDecoder as an op: the prefix beam search of tensorflow/core/util/ctc/ctc_beam_search.h with
its default (no language model) scorer, step for step, so the same beams survive: each entry keeps the log
probabilities of its prefix ending in a blank and in its last label; a child repeating its parent's label can only
follow a blank; the beam keeps beam_width entries by total probability. The blank is the last class. Inputs are
turned into log probabilities per frame (log-softmax) first, as TF's op does."""

from __future__ import annotations

import numpy as np

from .. import dtypes
from ..errors import InvalidArgumentError
from ..registry import OpDef, register

_LOG_ZERO = -np.inf


def _logaddexp(a, b):
    return np.logaddexp(a, b) if a != _LOG_ZERO or b != _LOG_ZERO else _LOG_ZERO


class _Entry:
    __slots__ = ("parent", "label", "children", "old", "new")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.old = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]  # blank, label, total
        self.new = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]

    def active(self):
        return self.new[2] != _LOG_ZERO

    def child(self, label):
        entry = self.children.get(label)
        if entry is None:
            entry = self.children[label] = _Entry(self, label)
        return entry

    def labels(self, merge_repeated):
        out, previous, entry = [], -1, self
        while entry.parent is not None:
            if not merge_repeated or entry.label != previous:
                out.append(entry.label)
            previous = entry.label
            entry = entry.parent
        return out[::-1]


class _Leaves:
    """gtl::TopN by new total probability: at most `capacity` entries, the bottom one replaced by a better one."""

    def __init__(self, capacity):
        self.capacity, self.items = capacity, []

    def push(self, entry):
        if len(self.items) < self.capacity:
            self.items.append(entry)
            return
        bottom = self.bottom()
        if entry.new[2] > bottom.new[2]:
            self.items[self.items.index(bottom)] = entry

    def bottom(self):
        return min(self.items, key=lambda e: e.new[2])

    def extract(self):
        items, self.items = sorted(self.items, key=lambda e: -e.new[2]), []
        return items


def _step(leaves, row, beam_width, blank):
    # the C++ subtracts each frame's maximum for stability; it shifts every beam alike, and TF 2.21's reported
    # log probabilities are those of the unshifted log-softmax inputs, so nothing is subtracted here
    max_coeff = 0.0
    branches = leaves.extract()
    for b in branches:
        b.old = list(b.new)
    for b in branches:
        if b.parent is not None:
            if b.parent.active():
                previous = b.parent.old[0] if b.label == b.parent.label else b.parent.old[2]
                b.new[1] = _logaddexp(b.new[1], previous)
            b.new[1] += row[b.label] - max_coeff
        b.new[0] = b.old[2] + row[blank] - max_coeff
        b.new[2] = _logaddexp(b.new[0], b.new[1])
        leaves.push(b)

    def candidate(total):
        return total > _LOG_ZERO and (len(leaves.items) < beam_width or total > leaves.bottom().new[2])

    for b in branches:
        if not candidate(b.old[2]):
            continue
        for label in range(blank):
            c = b.child(label)
            if c.active():
                continue
            c.new[0] = _LOG_ZERO
            previous = b.old[0] if c.label == b.label else b.old[2]
            c.new[1] = row[label] - max_coeff + previous
            c.new[2] = c.new[1]
            if candidate(c.new[2]):
                if len(leaves.items) == beam_width:
                    leaves.bottom().new = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]
                leaves.push(c)
            else:
                c.old = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]
                c.new = [_LOG_ZERO, _LOG_ZERO, _LOG_ZERO]


def beam_search(log_probs, length, beam_width, top_paths, merge_repeated):
    """The top_paths label sequences of one batch entry and their log probabilities."""
    blank = log_probs.shape[-1] - 1
    leaves = _Leaves(beam_width)
    root = _Entry(None, -1)
    root.new = [0.0, _LOG_ZERO, 0.0]
    leaves.push(root)
    for t in range(length):
        _step(leaves, log_probs[t].astype(np.float64), beam_width, blank)
    if top_paths > len(leaves.items):
        raise InvalidArgumentError("Less leaves in the beam search than requested.")
    best = sorted(leaves.items, key=lambda e: -e.new[2])[:top_paths]
    return [e.labels(merge_repeated) for e in best], [e.new[2] for e in best]


def _log_softmax(x):
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _beam_kernel(inputs, sequence_length, *, beam_width, top_paths, merge_repeated):
    steps, batch, _ = inputs.shape
    if top_paths > beam_width:
        raise InvalidArgumentError("requested more paths than the beam width.")
    log_probs = _log_softmax(inputs.astype(np.float64)).astype(inputs.dtype)
    paths = [[] for _ in range(top_paths)]
    scores = np.zeros((batch, top_paths), inputs.dtype)
    for b in range(batch):
        found, totals = beam_search(log_probs[:, b], int(min(sequence_length[b], steps)), beam_width, top_paths,
                                    merge_repeated)
        for i in range(top_paths):
            paths[i].append(found[i])
            scores[b, i] = totals[i]
    outputs = []
    for rows in paths:
        indices = np.array([[b, j] for b, r in enumerate(rows) for j in range(len(r))], np.int64).reshape(-1, 2)
        values = np.array([v for r in rows for v in r], np.int64)
        outputs += [indices, values, np.array([batch, max((len(r) for r in rows), default=0)], np.int64)]
    return (*outputs, scores)


def _infer_beam(inputs, sequence_length, *, beam_width, top_paths, merge_repeated):
    if inputs.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"ctc_beam_search_decoder: inputs must be float32 or float64, got {inputs.dtype.name}")
    if inputs._shape is not None and len(inputs._shape) != 3:
        raise ValueError(f"ctc_beam_search_decoder: inputs must be 3-D (max_time, batch_size, num_classes), got "
                         f"shape {list(inputs._shape)}")
    batch = None if inputs._shape is None else inputs._shape[1]
    sparse = [(dtypes.int64, (None, 2)), (dtypes.int64, (None,)), (dtypes.int64, (2,))]
    return sparse * top_paths + [(inputs.dtype, (batch, top_paths))]


ctc_beam_search_decoder_op = register(OpDef(
    "ctc_beam_search_decoder", _beam_kernel, _infer_beam, differentiable=False,
    doc="TF's CTCBeamSearchDecoder: the top paths of a prefix beam search (blank last)"))
