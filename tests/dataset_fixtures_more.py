"""Small files in the exact formats of the downloads of keras.datasets' california_housing (an .npz of x and
y), cifar100 (a tar.gz holding cifar-100-python/train and test, pickled dicts with fine and coarse labels) and
reuters (an .npz of ragged object arrays, and its word index JSON), for tests/test_keras_misc_datasets.py and
tests/keras_files/generate_datasets_more.py, which records what real Keras 3 returns for them."""

from __future__ import annotations

import io
import json
import os
import pickle
import tarfile

import numpy as np
from dataset_fixtures import _pixels, summary  # noqa: F401 - summary is re-exported for the tests


def _ragged(rows):
    out = np.empty(len(rows), dtype=object)
    out[:] = rows
    return out


REUTERS_ROWS = [[1, 14, 22, 16], [43, 530, 973], [65, 458], [4468, 66, 3941, 4], [9, 5, 25, 2, 8, 3],
                [10, 11], [5, 99, 7], [1, 2, 3, 4, 5, 6, 7], [30, 31, 32], [8, 8]]
WORD_INDEX = {"the": 1, "of": 2, "to": 3, "said": 5, "mln": 6}


def write_all(folder) -> dict:
    """Write every fixture into `folder`; returns {remote file name: local path}."""
    os.makedirs(folder, exist_ok=True)
    paths = {}

    def put(name, data: bytes):
        path = os.path.join(folder, name)
        with open(path, "wb") as f:
            f.write(data)
        paths[name] = path

    buffer = io.BytesIO()
    x = np.round(np.sin(np.arange(30 * 8)).reshape(30, 8) * 10, 3)
    np.savez(buffer, x=x, y=np.round(np.cos(np.arange(30)) * 1e5 + 2e5, 1))
    put("california_housing.npz", buffer.getvalue())

    archive = io.BytesIO()
    with tarfile.open(fileobj=archive, mode="w:gz") as tar:
        for index, (name, count) in enumerate([("train", 5), ("test", 3)]):
            batch = {b"data": _pixels(count, (3 * 32 * 32,), 11 + index).reshape(count, 3072),
                     b"fine_labels": [(7 * i + index) % 100 for i in range(count)],
                     b"coarse_labels": [(3 * i + index) % 20 for i in range(count)],
                     b"filenames": [f"img{i}.png".encode() for i in range(count)], b"batch_label": name.encode()}
            data = pickle.dumps(batch, protocol=4)
            info = tarfile.TarInfo(f"cifar-100-python/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    put("cifar-100-python.tar.gz", archive.getvalue())

    buffer = io.BytesIO()
    np.savez(buffer, x=_ragged(REUTERS_ROWS), y=np.array([3, 4, 3, 19, 1, 3, 45, 4, 11, 3]))
    put("reuters.npz", buffer.getvalue())
    put("reuters_word_index.json", json.dumps(WORD_INDEX).encode())
    return paths


# load_data calls to compare: (dataset, keyword arguments)
CALLS = [("california_housing", {}), ("california_housing", {"version": "small", "test_split": 0.3, "seed": 7}),
         ("cifar100", {}), ("cifar100", {"label_mode": "coarse"}), ("reuters", {}),
         ("reuters", {"num_words": 30, "skip_top": 2, "maxlen": 6, "seed": 3, "test_split": 0.5}),
         ("reuters", {"start_char": None, "oov_char": None, "index_from": 0, "num_words": 20}),
         ("reuters", {"maxlen": 5, "start_char": None})]
