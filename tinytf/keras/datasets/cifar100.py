"""CIFAR-100: 50,000 training and 10,000 test 32x32 colour images over 100 fine classes grouped into 20
coarse ones, from the Python version of the archive (one pickled "train" and one "test" file)."""

from __future__ import annotations

import os

import numpy as np

from .. import config
from ..utils.file_utils import get_file
from .cifar10 import load_batch

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
FILE_HASH = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"


def load_data(label_mode="fine"):
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 32, 32, 3) (channels first if the image data
    format says so), labels (N, 1) of the fine (0-99) or coarse (0-19) classes."""
    if label_mode not in ["fine", "coarse"]:
        raise ValueError(f'`label_mode` must be one of `"fine"`, `"coarse"`. Received: label_mode={label_mode}.')
    path = get_file(fname="cifar-100-python-target", origin=ORIGIN, extract=True, file_hash=FILE_HASH)
    path = os.path.join(path, "cifar-100-python")
    x_train, y_train = load_batch(os.path.join(path, "train"), label_key=f"{label_mode}_labels")
    x_test, y_test = load_batch(os.path.join(path, "test"), label_key=f"{label_mode}_labels")
    y_train = np.reshape(y_train, (len(y_train), 1))
    y_test = np.reshape(y_test, (len(y_test), 1))
    if config.image_data_format() == "channels_last":
        x_train, x_test = x_train.transpose(0, 2, 3, 1), x_test.transpose(0, 2, 3, 1)
    return (x_train, y_train), (x_test, y_test)
