"""keras.utils: get_file, to_categorical, normalize, pad_sequences, set_random_seed, plot_model, model_to_dot and
the registry of custom objects (register_keras_serializable, get_custom_objects, custom_object_scope),
clear_session, is_keras_tensor, standardize_dtype; PyDataset/Sequence, Progbar and the data helpers."""

from ..backend import clear_session, is_keras_tensor
from ..ops.dtype_rules import standardize_dtype
from ..saving import deserialize_keras_object, serialize_keras_object
from ..serialization import get_registered_name, get_registered_object, register_keras_serializable
from . import bounding_boxes
from .audio_dataset import audio_dataset_from_directory
from .custom_objects import CustomObjectScope, custom_object_scope, get_custom_objects
from .dataset_utils import get_source_inputs, pack_x_y_sample_weight, split_dataset, unpack_x_y_sample_weight
from .feature_space import FeatureSpace
from .file_utils import get_file
from .image_dataset import image_dataset_from_directory
from .image_utils import array_to_img, img_to_array, load_img, save_img
from .model_visualization import model_to_dot, plot_model
from .numerical import normalize, to_categorical
from .progbar import Progbar
from .py_dataset import PyDataset, Sequence
from .random_seed import set_random_seed
from .sequence_utils import pad_sequences
from .text_dataset import text_dataset_from_directory
from .timeseries_dataset import timeseries_dataset_from_array

__all__ = ["CustomObjectScope", "clear_session", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "is_keras_tensor", "serialize_keras_object", "standardize_dtype", "get_file",
           "get_registered_name", "get_registered_object", "model_to_dot", "normalize", "pad_sequences",
           "plot_model", "register_keras_serializable", "set_random_seed", "to_categorical", "PyDataset", "Sequence",
           "Progbar", "split_dataset", "pack_x_y_sample_weight", "unpack_x_y_sample_weight", "get_source_inputs",
           "text_dataset_from_directory", "timeseries_dataset_from_array",
           "array_to_img", "img_to_array", "load_img", "save_img", "image_dataset_from_directory"]
__all__ += ["audio_dataset_from_directory", "bounding_boxes"]

# keras.utils.Config and the interactive-logging switches (also in keras.config)
from ..config_logging import (  # noqa: E402
    disable_interactive_logging,
    enable_interactive_logging,
    is_interactive_logging_enabled,
)
from .config_object import Config  # noqa: E402

__all__ += ["FeatureSpace", "Config", "disable_interactive_logging", "enable_interactive_logging",
            "is_interactive_logging_enabled"]

# keras.utils.legacy: Keras 2's serialize/deserialize_keras_object (legacy.py)
from . import legacy  # noqa: E402

__all__ += ["legacy"]
