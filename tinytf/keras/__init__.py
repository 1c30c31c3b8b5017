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
    dtype_policies,
    initializers,
    layers,
    losses,
    metrics,
    mixed_precision,
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
from .dtype_policies import DTypePolicy, FloatDTypePolicy
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
__all__ += ["DTypePolicy", "FloatDTypePolicy", "dtype_policies", "mixed_precision"]

# keras.export (ExportArchive), keras.Function, keras.remat/RematScope: one block, kept apart from the ends
# other work appends to
from . import export  # noqa: E402
from .keras_function import Function  # noqa: E402
from .remat import RematScope, remat  # noqa: E402

__all__ += ["export", "Function", "RematScope", "remat"]

# keras.Operation: what bare ops on KerasTensors become in a Functional model (ops/operation.py)
from .ops.operation import Operation  # noqa: E402

__all__ += ["Operation"]

# keras.name_scope, keras.device, keras.version and keras.tree (backend_scopes.py, tree.py)
from . import tree  # noqa: E402
from .backend_scopes import device, name_scope, version  # noqa: E402

__all__ += ["device", "name_scope", "tree", "version"]

# keras.quantizers and keras.Quantizer (quantizers.py)
from . import quantizers  # noqa: E402
from .quantizers import Quantizer  # noqa: E402

__all__ += ["quantizers", "Quantizer"]

# keras.StatelessScope and keras.SymbolicScope (stateless_scope.py)
from .stateless_scope import StatelessScope, SymbolicScope  # noqa: E402

__all__ += ["StatelessScope", "SymbolicScope"]

# keras.distillation (distillation/, helper savetab)
from . import distillation  # noqa: E402

__all__ += ["distillation"]

# keras.legacy (legacy/, helper savetab)
from . import legacy  # noqa: E402

__all__ += ["legacy"]

# keras.visualization's draw_segmentation_masks (visualization/, helper savetab)
from . import visualization  # noqa: E402

__all__ += ["visualization"]

# keras.distribution: meshes, layouts and the current distribution (distribution/, helper kerasgaps)
from . import distribution  # noqa: E402

__all__ += ["distribution"]
