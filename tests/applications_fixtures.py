"""Deterministic weights for a built keras.applications model (the offline Keras cache fixture is in conftest)."""

from __future__ import annotations

import numpy as np


def fixed_weights(model, seed=0):
    """Every weight set from one seeded stream, scaled so activations stay of order one; returns the model."""
    rng = np.random.default_rng(seed)
    values = []
    for w in model.weights:
        shape = tuple(w.shape)
        if "variance" in w.name:
            values.append(rng.uniform(0.5, 1.5, shape))
        elif len(shape) >= 2:
            values.append(rng.normal(0, 1.5 / np.sqrt(np.prod(shape[:-1])), shape))
        else:
            values.append(rng.normal(0, 0.1, shape))
    model.set_weights([v.astype("float32") for v in values])
    return model
