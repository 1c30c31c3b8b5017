"""tf.keras: the Keras namespace of tinytf (Keras 3 semantics, as TF 2.16+ ships it): layers, initializers,
activations, regularizers, constraints and optimizers."""

from . import (
    activations,
    applications,
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
from .backend import Variable
from .initializers import Initializer
from .layers import Input, InputSpec, Layer
from .losses import Loss
from .metrics import Metric
from .models import Model, Sequential
from .models.keras_tensor import KerasTensor
from .optimizers import Optimizer
from .regularizers import Regularizer

__all__ = ["activations", "callbacks", "constraints", "datasets", "initializers", "layers", "losses", "metrics",
           "models", "utils", "optimizers", "preprocessing", "random", "regularizers", "saving", "Input", "InputSpec",
           "Layer", "Model", "Sequential", "backend", "config", "ops", "Initializer", "KerasTensor", "Loss", "Metric",
           "Optimizer", "Regularizer", "Variable", "applications"]
