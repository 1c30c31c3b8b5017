"""keras.preprocessing: the `sequence` and `text` helpers TF 2.21 still ships under this name (pad_sequences is
keras.utils.pad_sequences itself), and the dataset makers it re-exports from keras.utils."""

from ..utils.image_dataset import image_dataset_from_directory
from ..utils.text_dataset import text_dataset_from_directory
from ..utils.timeseries_dataset import timeseries_dataset_from_array
from . import image, sequence, text

__all__ = ["image", "image_dataset_from_directory", "sequence", "text", "text_dataset_from_directory",
           "timeseries_dataset_from_array"]
