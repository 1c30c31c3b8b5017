"""tf.saved_model: save tf.functions as graphs with their variables; load them without the Python source."""

from . import experimental  # noqa: F401
from .asset import Asset  # noqa: F401
from .load import load  # noqa: F401
from .save import save  # noqa: F401
