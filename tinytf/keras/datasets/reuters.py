"""Reuters newswires: 11,228 texts as lists of word ids (by frequency rank) labelled over 46 topics,
processed as Keras does: a seeded shuffle of the whole set, a start marker, ids shifted by index_from, long
texts dropped with maxlen, rare or too-frequent words replaced by the out-of-vocabulary id, then the split."""

from __future__ import annotations

import json

import numpy as np

from ..utils.file_utils import get_file
from .safe_arrays import load_npz

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "d6586e694ee56d7a4e65172e12b3e987c03096cb01eab99753921ef915959916"
WORD_INDEX_HASH = "4d44cc38712099c9e383dc6e5f11a921"

LABEL_NAMES = ("cocoa", "grain", "veg-oil", "earn", "acq", "wheat", "copper", "housing", "money-supply", "coffee",
               "sugar", "trade", "reserves", "ship", "cotton", "carcass", "crude", "nat-gas", "cpi", "money-fx",
               "interest", "gnp", "meal-feed", "alum", "oilseed", "gold", "tin", "strategic-metal", "livestock",
               "retail", "ipi", "iron-steel", "rubber", "heat", "jobs", "lei", "bop", "zinc", "orange", "pet-chem",
               "dlr", "gas", "silver", "wpi", "hog", "lead")


def load_data(path="reuters.npz", num_words=None, skip_top=0, maxlen=None, test_split=0.2, seed=113, start_char=1,
              oov_char=2, index_from=3):
    """((x_train, y_train), (x_test, y_test)); x are object arrays of lists of ints, y the topic ids."""
    path = get_file(fname=path, origin=f"{ORIGIN_FOLDER}reuters.npz", file_hash=FILE_HASH)
    arrays = load_npz(path)
    xs, labels = arrays["x"], arrays["y"]
    order = np.arange(len(xs))
    np.random.RandomState(seed).shuffle(order)
    xs, labels = xs[order], labels[order]
    if start_char is not None:
        xs = [[start_char] + [w + index_from for w in x] for x in xs]
    elif index_from:
        xs = [[w + index_from for w in x] for x in xs]
    if maxlen:
        kept = [(x, label) for x, label in zip(xs, labels) if len(x) < maxlen]
        xs, labels = [x for x, _ in kept], [label for _, label in kept]
    if not num_words:
        num_words = max(max(x) for x in xs)
    if oov_char is not None:
        xs = [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
    else:
        xs = [[w for w in x if skip_top <= w < num_words] for x in xs]
    cut = int(len(xs) * (1 - test_split))
    # np.array(..., dtype="object") as Keras makes it (lists of equal length become a 2-D object array)
    return ((np.array(xs[:cut], dtype="object"), np.array(labels[:cut])),
            (np.array(xs[cut:], dtype="object"), np.array(labels[cut:])))


def get_word_index(path="reuters_word_index.json"):
    """{word: rank} of the Reuters vocabulary (ranks start at 1; the data's ids are rank + index_from)."""
    path = get_file(path, origin=f"{ORIGIN_FOLDER}reuters_word_index.json", file_hash=WORD_INDEX_HASH)
    with open(path) as f:
        return json.load(f)


def get_label_names():
    """The 46 topic names, indexed by label."""
    return LABEL_NAMES
