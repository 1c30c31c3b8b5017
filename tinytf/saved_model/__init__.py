"""tf.saved_model: save tf.functions as graphs with their variables; load them without the Python source."""

from . import experimental  # noqa: F401
from .asset import Asset  # noqa: F401
from .constants import *  # noqa: F401,F403,E402  (TF's tf.saved_model.* constants and contains_saved_model)
from .load import load  # noqa: F401
from .options import LoadOptions, SaveOptions  # noqa: F401,E402
from .save import save  # noqa: F401
