"""keras.utils: get_file, to_categorical, normalize, pad_sequences, set_random_seed, plot_model, model_to_dot and
the registry of custom objects (register_keras_serializable)."""

from ..serialization import get_registered_name, get_registered_object, register_keras_serializable
from .file_utils import get_file
from .image_dataset import image_dataset_from_directory
from .image_utils import array_to_img, img_to_array, load_img, save_img
from .model_visualization import model_to_dot, plot_model
from .numerical import normalize, to_categorical
from .random_seed import set_random_seed
from .sequence_utils import pad_sequences

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img", "image_dataset_from_directory",
           "get_file", "get_registered_name", "get_registered_object", "model_to_dot", "normalize", "pad_sequences",
           "plot_model", "register_keras_serializable", "set_random_seed", "to_categorical"]
