"""Does TensorFlow load the datasets tinytf saves (Dataset.save, TF's snapshot format)? Two steps, two Pythons:

    PYTHONPATH=. python tools/check_tf_loads_tinytf_datasets.py write DIR           # with tinytf: saves DIR/*
    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/check_tf_loads_tinytf_datasets.py read DIR \\
        tests/tf_reference/tinytf_datasets_loaded_by_tf.json                       # with TensorFlow: loads them

The JSON holds what TensorFlow loaded (element spec, cardinality, elements); tests/test_data_exp_saving.py
checks that these are the elements the datasets of `datasets()` have, so the record shows TF reading tinytf's
files whole. Save files hold a random run id and a timestamp: their bytes are not compared.
"""

from __future__ import annotations

import json
import os
import sys


def datasets(tf) -> dict:
    """name -> (dataset, save keyword arguments)."""
    pairs = tf.data.Dataset.from_tensor_slices(({"a": [1, 2, 3], "b": [[1.0], [2.0], [3.0]]}, ["x", "y", "z"]))

    def by_parity(features, word):
        return tf.cast(features["a"] % 2, tf.int64)

    def filled(x):
        return tf.fill([3], tf.cast(x, tf.float64))

    return {
        "range": (tf.data.Dataset.range(4), {}),
        "pairs_sharded": (pairs, {"shard_func": by_parity}),
        "batches_gzip": (tf.data.Dataset.range(5).map(filled).batch(2), {"compression": "GZIP"}),
    }


def plain(x):
    if isinstance(x, dict):
        return {k: plain(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    value = x.numpy() if hasattr(x, "numpy") else x
    if isinstance(value, bytes):
        return value.decode()
    return value.tolist()


def spec_text(spec):
    """An element spec as JSON-able text, dict keys sorted (TF's load gives a dict spec in its proto's order)."""
    if isinstance(spec, dict):
        return {k: spec_text(v) for k, v in sorted(spec.items())}
    if isinstance(spec, (list, tuple)):
        return [spec_text(v) for v in spec]
    return str(spec)


def elements(dataset) -> list:
    return sorted((plain(e) for e in dataset), key=json.dumps)


def write(tf, folder: str) -> None:
    for name, (dataset, kwargs) in datasets(tf).items():
        dataset.save(os.path.join(folder, name), **kwargs)


def read(tf, folder: str) -> dict:
    out = {}
    for name, (_, kwargs) in datasets(tf).items():
        loaded = tf.data.Dataset.load(os.path.join(folder, name), compression=kwargs.get("compression"))
        out[name] = {"element_spec": spec_text(loaded.element_spec), "cardinality": int(loaded.cardinality()),
                     "elements": elements(loaded)}
    return out


if __name__ == "__main__":
    step, folder = sys.argv[1], sys.argv[2]
    if step == "write":
        import tinytf

        write(tinytf, folder)
    else:
        import tensorflow

        with open(sys.argv[3], "w") as f:
            json.dump(read(tensorflow, folder), f, indent=1, sort_keys=True)
            f.write("\n")
