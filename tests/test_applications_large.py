"""The large keras.applications variants (ConvNeXtSmall..XLarge, EfficientNetV2B3/S/M/L, NASNetLarge) against
the structure TF 2.21 gives them (tests/keras_files/applications_large.json, made by
generate_applications_large.py): parameter counts, layers, Operations, weights and the summary's totals. Their
weights are drawn as zeros here (the initializers' random draws are most of the build time and are checked on
the small variants); the four largest are built only with TINYTF_LARGE_APPLICATIONS=1 (each takes 10-20 s and
up to 1.5 GB)."""

from __future__ import annotations

import json
import os

import pytest

import tinytf as tf
from tinytf.keras import initializers

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "keras_files", "applications_large.json")) as f:
    REFERENCE = json.load(f)
LARGEST = {"ConvNeXtLarge", "ConvNeXtXLarge", "EfficientNetV2L", "NASNetLarge"}
RUN_LARGEST = os.environ.get("TINYTF_LARGE_APPLICATIONS") == "1"


@pytest.fixture
def zero_weights(monkeypatch):
    zeros = initializers.Zeros()
    monkeypatch.setattr(initializers, "get", lambda identifier: zeros)


@pytest.mark.parametrize("builder", [
    pytest.param(name, marks=pytest.mark.skipif(name in LARGEST and not RUN_LARGEST,
                                                reason="builds for 10-60 s; set TINYTF_LARGE_APPLICATIONS=1"))
    for name in REFERENCE])
def test_large_variant_matches_tensorflow(builder, zero_weights):
    tf.keras.backend.clear_session()
    model = getattr(tf.keras.applications, builder)(weights=None, input_shape=(32, 32, 3))
    expected = REFERENCE[builder]
    lines = []
    model.summary(print_fn=lambda text, *args, **kwargs: lines.extend(text.split("\n")))
    assert model.name == expected["name"]
    assert model.count_params() == expected["params"]
    assert [[op.name, type(op).__name__] for op in model.layers] == expected["layers"]
    assert [[op.name, type(op).__name__] for op in model.operations
            if not isinstance(op, tf.keras.layers.Layer)] == expected["operations"]
    assert [[w.name, list(w.shape)] for w in model.weights] == expected["weights"]
    assert list(model.output.shape) == expected["output"]
    assert lines[-5:] == expected["summary_tail"]
