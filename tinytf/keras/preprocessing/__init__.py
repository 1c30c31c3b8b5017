"""keras.preprocessing: the `sequence` and `text` helpers TF 2.21 still ships under this name (pad_sequences is
keras.utils.pad_sequences itself), and the dataset makers it re-exports from keras.utils."""

from ..utils.text_dataset import text_dataset_from_directory
from ..utils.timeseries_dataset import timeseries_dataset_from_array
from . import sequence, text

__all__ = ["sequence", "text", "text_dataset_from_directory", "timeseries_dataset_from_array"]
