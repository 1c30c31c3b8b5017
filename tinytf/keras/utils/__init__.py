"""keras.utils: get_file, to_categorical, normalize, pad_sequences, set_random_seed, plot_model and model_to_dot."""

from .file_utils import get_file
from .model_visualization import model_to_dot, plot_model
from .numerical import normalize, to_categorical
from .random_seed import set_random_seed
from .sequence_utils import pad_sequences

__all__ = ["get_file", "model_to_dot", "normalize", "pad_sequences", "plot_model", "set_random_seed", "to_categorical"]
