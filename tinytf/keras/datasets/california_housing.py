"""California housing prices: 20,640 census block groups of 8 features (median income, house age, rooms,
bedrooms, population, occupancy, latitude, longitude) and the median house value, split into train and test
after a seeded shuffle (numpy's RandomState, as Keras does); version="small" keeps the first 600 samples."""

from __future__ import annotations

import numpy as np

from ..utils.file_utils import get_file

ORIGIN_FOLDER = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILE_HASH = "1a2e3a52e0398de6463aebe6f4a8da34fb21fbb6b934cf88c3425e766f2a1a6f"


def load_data(version="large", path="california_housing.npz", test_split=0.2, seed=113):
    """((x_train, y_train), (x_test, y_test)): float arrays (N, 8) and (N,)."""
    if not 0 <= test_split < 1:
        raise ValueError(f"Invalid `test_split` argument: {test_split}. It must be between 0 and 1 (exclusive of "
                         f"1).")
    path = get_file(path, origin=f"{ORIGIN_FOLDER}california_housing.npz", file_hash=FILE_HASH)
    with np.load(path, allow_pickle=False) as f:
        x, y = f["x"], f["y"]
    if version == "small":
        x, y = x[:600], y[:600]
    elif version != "large":
        raise ValueError(f"Argument `version` must be one of 'small', 'large'. Received: version={version}")
    order = np.arange(len(x))
    np.random.RandomState(seed).shuffle(order)
    x, y = x[order], y[order]
    cut = int(len(x) * (1 - test_split))
    return (np.array(x[:cut]), np.array(y[:cut])), (np.array(x[cut:]), np.array(y[cut:]))
