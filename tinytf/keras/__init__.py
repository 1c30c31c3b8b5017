"""tf.keras: the Keras namespace of tinytf (Keras 3 semantics, as TF 2.16+ ships it): layers, initializers,
activations, regularizers, constraints and optimizers."""

from . import (
    activations,
    backend,
    callbacks,
    config,
    constraints,
    datasets,
    initializers,
    layers,
    losses,
    metrics,
    models,
    ops,
    optimizers,
    preprocessing,
    random,
    regularizers,
    saving,
    utils,
)
from .layers import Input, InputSpec, Layer
from .models import Model, Sequential

__all__ = ["activations", "callbacks", "constraints", "datasets", "initializers", "layers", "losses", "metrics",
           "models", "utils", "optimizers", "preprocessing", "random", "regularizers", "saving", "Input", "InputSpec",
           "Layer", "Model", "Sequential", "backend", "config", "ops"]
