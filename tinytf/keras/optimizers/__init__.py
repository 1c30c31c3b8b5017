"""tf.keras.optimizers: SGD, Adam, AdamW, RMSprop, Adagrad, Nadam, Adamax, Adadelta, Ftrl, Lion, Lamb, Adafactor,
LossScaleOptimizer and learning-rate schedules (Keras 3 update rules); get/serialize/deserialize."""

from tinytf.keras import serialization as _serialization

from . import schedules
from .adadelta import Adadelta
from .adafactor import Adafactor
from .adagrad import Adagrad
from .adam import Adam
from .adamax import Adamax
from .adamw import AdamW
from .ftrl import Ftrl
from .lamb import Lamb
from .lion import Lion
from .loss_scale_optimizer import LossScaleOptimizer
from .nadam import Nadam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

# Keras 3's ALL_OBJECTS_DICT: the names `get` and `deserialize` know, case-insensitively (Lamb is not among
# them in Keras 3.15 either: tf.keras.optimizers.get("lamb") raises there too)
_BY_NAME = {cls.__name__.lower(): cls for cls in (Optimizer, Adam, SGD, RMSprop, Adadelta, AdamW, Adagrad, Adamax,
                                                  Adafactor, Nadam, Ftrl, Lion, LossScaleOptimizer)}
_CLASSES = {cls.__name__: cls for cls in (*_BY_NAME.values(), Lamb)}


def serialize(optimizer) -> dict:
    """The optimizer as Keras 3's dict: {"module": "keras.optimizers", "class_name", "config", "registered_name"}."""
    return _serialization.serialize(optimizer, "keras.optimizers")


def deserialize(config, custom_objects=None):
    """An optimizer from Keras 3's dict (class names of built-in optimizers in any case)."""
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"Could not interpret optimizer identifier: {config!r}")
    name = config["class_name"]
    if name.lower() in _BY_NAME:  # Keras lower-cases a built-in class name in the caller's dict, in place
        config["class_name"] = name.lower()
    cls = ((custom_objects or {}).get(name) or _BY_NAME.get(name.lower()) or _CLASSES.get(name)
           or _serialization.get_registered_object(name, custom_objects))
    if cls is None:
        raise ValueError(f"Could not interpret optimizer identifier: {config!r}; known names: {sorted(_BY_NAME)}")
    inner = config.get("config") or {}
    if cls is LossScaleOptimizer:
        return cls.from_config(inner, custom_objects=custom_objects)
    return cls.from_config(inner)


def get(identifier):
    """An optimizer from a name ("adam"), a config dict ({"class_name": ..., "config": ...}) or an instance."""
    if identifier is None:
        return None
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        cls = _BY_NAME.get(identifier.lower())
        if cls is None or cls is Optimizer:
            raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
        return cls()
    if isinstance(identifier, dict):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")


__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Nadam", "Adamax", "Adadelta", "Ftrl",
           "Lion", "Lamb", "Adafactor", "LossScaleOptimizer", "schedules", "get", "serialize", "deserialize"]

from . import legacy  # noqa: E402 - Keras 2's names, which TF 2.21 keeps only to raise

__all__ += ["legacy"]

# ScheduleFreeAdamW (Keras 3.15's ALL_OBJECTS has it: get("schedulefreeadamw") finds it)
from .schedule_free_adamw import ScheduleFreeAdamW  # noqa: E402

_BY_NAME["schedulefreeadamw"] = _CLASSES["ScheduleFreeAdamW"] = ScheduleFreeAdamW
__all__ += ["ScheduleFreeAdamW"]

# MultiOptimizer / OptimizerMap: a variable's path picks its optimizer (Keras 3.15)
from .multi_optimizer import MultiOptimizer, OptimizerMap  # noqa: E402

_CLASSES["MultiOptimizer"] = MultiOptimizer
__all__ += ["MultiOptimizer", "OptimizerMap"]

# Muon (Keras 3.15's ALL_OBJECTS has it: get("muon") finds it)
from .muon import Muon  # noqa: E402

_BY_NAME["muon"] = _CLASSES["Muon"] = Muon
__all__ += ["Muon"]
