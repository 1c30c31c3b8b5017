"""Does TensorFlow load the SavedModels tinytf writes, and compute tinytf's numbers? Two steps, two Pythons:

    python tools/check_tf_loads_tinytf_saved_models.py write DIR            # with tinytf: writes DIR/*
    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/check_tf_loads_tinytf_saved_models.py read DIR \\
        tests/tf_reference/tinytf_saved_models_read_by_tf.json             # with TensorFlow: loads and runs them

The JSON holds each SavedModel's structure digest (saved_model.pb parsed and serialized deterministically,
the variables' bytes, the assets and fingerprint.pb: `digests`), what TensorFlow computed with each
(`read`), and `saved_model_cli show --all`'s exit status and the lines naming signatures and functions
(`cli`). tests/test_saved_model_tf_reads.py writes the files again with tinytf, checks the digests (the files
TensorFlow loaded are the files tinytf writes today) and that tinytf's loader computes the same numbers.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

X = [[1.0, -2.0, 0.5], [0.25, 3.0, -1.5]]


def _models(tf):
    """name -> a function writing one SavedModel into the path it is given (tf is the library: tinytf)."""
    import numpy as np

    class Adder(tf.Module):  # the seed
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(3.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def __call__(self, x):
            return x + self.v

    class Counter(tf.Module):  # a variable updated by a function: state lives on in the loaded object
        def __init__(self):
            super().__init__()
            self.count = tf.Variable(10, dtype=tf.int32)
            self.total = tf.Variable([0.0, 0.0])

        @tf.function(input_signature=[tf.TensorSpec([], tf.int32), tf.TensorSpec([2], tf.float32)])
        def add(self, by, x):
            self.count.assign_add(by)
            self.total.assign_add(x * 2.0)
            return self.count.read_value(), self.total.read_value()

    class Flow(tf.Module):  # AutoGraph: a tensor `if` and a tensor `while`, with a variable read in the loop
        def __init__(self):
            super().__init__()
            self.scale = tf.Variable(1.5)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32), tf.TensorSpec([], tf.int32)])
        def __call__(self, x, n):
            if x > 0:
                y = x * self.scale
            else:
                y = -x
            i = tf.constant(0)
            while i < n:
                y = y * 0.5 + 1.0
                i += 1
            return {"y": y, "steps": i}

    def mlp():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                     tf.keras.layers.Dense(2)])
        for w in model.weights:  # fixed weights: the files are the same on every run
            w.assign(np.linspace(-1.0, 1.0, int(np.prod(w.shape))).reshape(w.shape).astype(np.float32))
        return model

    return {
        "adder": lambda path: tf.saved_model.save(Adder(), path),
        "counter": lambda path: tf.saved_model.save(Counter(), path),
        "control_flow": lambda path: tf.saved_model.save(Flow(), path),
        "keras_export": lambda path: mlp().export(path, verbose=False),
        "keras_save": lambda path: tf.saved_model.save(mlp(), path),
    }


def write(tf, folder: str) -> None:
    """The SavedModels, written with the library given (tinytf)."""
    os.makedirs(folder, exist_ok=True)
    for name, save in _models(tf).items():
        save(os.path.join(folder, name))


def _numbers(value):
    if isinstance(value, dict):
        return {k: _numbers(v) for k, v in sorted(value.items())}
    if isinstance(value, (tuple, list)):
        return [_numbers(v) for v in value]
    return value.numpy().tolist()


def read(tf, folder: str) -> dict:
    """What the library given computes with the loaded SavedModels (TensorFlow when recording, tinytf in
    the test): calls of the functions, the signatures, the variables after stateful calls."""
    out = {}
    x = tf.constant(X)
    adder = tf.saved_model.load(os.path.join(folder, "adder"))
    out["adder"] = {"call": _numbers(adder(tf.constant([1.0, 2.0]))),
                    "serving_default": _numbers(adder.signatures["serving_default"](x=tf.constant([0.5]))),
                    "signatures": sorted(adder.signatures), "variables": _numbers(adder.v)}
    counter = tf.saved_model.load(os.path.join(folder, "counter"))
    first = counter.add(tf.constant(1), tf.constant([1.0, 2.0]))
    second = counter.add(tf.constant(5), tf.constant([0.5, -1.0]))
    out["counter"] = {"first": _numbers(first), "second": _numbers(second),
                      "count": _numbers(counter.count), "total": _numbers(counter.total)}
    flow = tf.saved_model.load(os.path.join(folder, "control_flow"))
    out["control_flow"] = {f"{x_},{n}": _numbers(flow(tf.constant(x_), tf.constant(n)))
                           for x_, n in ((2.0, 3), (-4.0, 0), (0.0, 5))}
    exported = tf.saved_model.load(os.path.join(folder, "keras_export"))
    out["keras_export"] = {"serve": _numbers(exported.serve(x)),
                           "serving_default": _numbers(exported.signatures["serving_default"](x))}
    saved = tf.saved_model.load(os.path.join(folder, "keras_save"))
    out["keras_save"] = {"signatures": sorted(saved.signatures),
                         "serving_default": _numbers(saved.signatures["serving_default"](x))}
    return out


def _file_digest(path: str) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def digests(folder: str) -> dict:
    """Per SavedModel: the structure of saved_model.pb (parsed, then serialized deterministically, so map
    order does not matter) and every other file's bytes."""
    from tinytf.saved_model.load import read_meta_graph

    out = {}
    for name in sorted(os.listdir(folder)):
        root = os.path.join(folder, name)
        files = {"saved_model.pb": hashlib.sha256(read_meta_graph(root).SerializeToString(deterministic=True))
                 .hexdigest()}
        for base, _, names in sorted(os.walk(root)):
            for file in sorted(names):
                rel = os.path.relpath(os.path.join(base, file), root)
                if rel != "saved_model.pb":
                    files[rel] = _file_digest(os.path.join(base, file))
        out[name] = files
    return out


def cli(folder: str) -> dict:
    """`saved_model_cli show --dir D --all` on each SavedModel (run with TensorFlow's Python): its exit status
    and the lines that name a signature, a tensor or a function."""
    tool = os.path.join(os.path.dirname(sys.executable), "saved_model_cli")
    out = {}
    for name in sorted(os.listdir(folder)):
        run = subprocess.run([tool, "show", "--dir", os.path.join(folder, name), "--all"], capture_output=True,
                             text=True, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
        keep = [line.strip() for line in run.stdout.splitlines()
                if line.strip().startswith(("signature_def[", "inputs[", "outputs[", "Function Name:", "Method name"))]
        out[name] = {"returncode": run.returncode, "lines": keep}
    return out


def main(argv) -> None:
    if argv[1] == "write":
        import tinytf

        write(tinytf, argv[2])
    elif argv[1] == "read":
        import tensorflow

        record = {"read": read(tensorflow, argv[2]), "cli": cli(argv[2])}
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
        record["digests"] = digests(argv[2])
        with open(argv[3], "w") as f:
            json.dump(record, f, indent=1, sort_keys=True)
            f.write("\n")
        print(json.dumps(record["read"], indent=1))
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
