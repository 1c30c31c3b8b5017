"""Records the structure of the large keras.applications variants as TF 2.21 builds them (weights=None,
32x32 inputs): parameter counts, layers, Operations, weights and the summary's totals, into
applications_large.json, which tests/test_applications_large.py compares tinytf's builders against. Run it with
TF 2.21's Python (never needed by the tests):
TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tests/keras_files/generate_applications_large.py"""
import json
import os

import tensorflow as tf

BUILDERS = ["ConvNeXtSmall", "ConvNeXtBase", "ConvNeXtLarge", "ConvNeXtXLarge", "EfficientNetV2B3",
            "EfficientNetV2S", "EfficientNetV2M", "EfficientNetV2L", "NASNetLarge"]
out = {}
for name in BUILDERS:
    tf.keras.backend.clear_session()
    model = getattr(tf.keras.applications, name)(weights=None, input_shape=(32, 32, 3))
    lines = []
    model.summary(print_fn=lambda text, *args, sink=lines, **kwargs: sink.extend(text.split("\n")))
    out[name] = {"name": model.name, "params": int(model.count_params()),
                 "layers": [[op.name, type(op).__name__] for op in model.layers],
                 "operations": [[op.name, type(op).__name__] for op in model.operations
                                if not isinstance(op, tf.keras.layers.Layer)],
                 "weights": [[w.name, list(w.shape)] for w in model.weights],
                 "output": list(model.output.shape), "summary_tail": lines[-5:]}
    del model
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "applications_large.json"), "w") as f:
    json.dump(out, f, separators=(",", ":"))
