"""tf.keras: the Keras namespace of tinytf (Keras 3 semantics, as TF 2.16+ ships it): layers, initializers,
activations, regularizers, constraints and optimizers."""

from . import (
    activations,
    callbacks,
    constraints,
    datasets,
    initializers,
    layers,
    losses,
    metrics,
    models,
    optimizers,
    preprocessing,
    random,
    regularizers,
    saving,
    utils,
)
from .layers import Input, InputSpec, Layer
from .models import Model, Sequential
from .naming import reset_names as _reset_names


class backend:  # noqa: N801 - Keras' module name
    """keras.backend's session helpers."""

    @staticmethod
    def clear_session() -> None:
        """Restart Keras' automatic names (the next Dense is `dense` again)."""
        _reset_names()


__all__ = ["activations", "callbacks", "constraints", "datasets", "initializers", "layers", "losses", "metrics",
           "models", "utils", "optimizers", "preprocessing", "random", "regularizers", "saving", "Input", "InputSpec",
           "Layer", "Model", "Sequential", "backend"]
