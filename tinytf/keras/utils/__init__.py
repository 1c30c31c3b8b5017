"""keras.utils: get_file, to_categorical, normalize, pad_sequences, set_random_seed, plot_model, model_to_dot and
the registry of custom objects (register_keras_serializable, get_custom_objects, custom_object_scope),
clear_session, is_keras_tensor, standardize_dtype."""

from ..backend import clear_session, is_keras_tensor
from ..ops.dtype_rules import standardize_dtype
from ..saving import deserialize_keras_object, serialize_keras_object
from ..serialization import get_registered_name, get_registered_object, register_keras_serializable
from .custom_objects import CustomObjectScope, custom_object_scope, get_custom_objects
from .file_utils import get_file
from .model_visualization import model_to_dot, plot_model
from .numerical import normalize, to_categorical
from .random_seed import set_random_seed
from .sequence_utils import pad_sequences

__all__ = ["CustomObjectScope", "clear_session", "custom_object_scope", "deserialize_keras_object",
           "get_custom_objects", "is_keras_tensor", "serialize_keras_object", "standardize_dtype", "get_file",
           "get_registered_name", "get_registered_object", "model_to_dot", "normalize", "pad_sequences",
           "plot_model", "register_keras_serializable", "set_random_seed", "to_categorical"]
