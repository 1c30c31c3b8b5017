"""The depthwise and conv_transpose benchmark workloads (benchmarks/conv_variant_workloads.py) compute what
their numpy baselines compute, eagerly and as graphs, and are listed with the others."""

import numpy as np
import pytest

import tinytf as tf
from benchmarks import workloads


@pytest.mark.parametrize("name", ["depthwise", "conv_transpose"])
def test_workload_matches_its_numpy_baseline(name):
    w = workloads.ALL[name](batch=2)
    loss, grads = w.numpy_fn(*w.numpy_args)
    for got_loss, got_grads in (w.fn(*w.args), tf.function(w.fn)(*w.args)):
        np.testing.assert_allclose(got_loss.numpy(), loss, rtol=1e-4)
        for a, b in zip(got_grads, grads):
            np.testing.assert_allclose(a.numpy(), b, rtol=1e-4, atol=1e-4)
