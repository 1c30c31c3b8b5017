"""Does TensorFlow load the SavedModels tinytf writes, and compute tinytf's numbers? Two steps, two Pythons:

    python tools/check_tf_loads_tinytf_saved_models.py write DIR            # with tinytf: writes DIR/*
    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/check_tf_loads_tinytf_saved_models.py read DIR \\
        tests/tf_reference/tinytf_saved_models_read_by_tf.json             # with TensorFlow: loads and runs them

The JSON holds each SavedModel's structure digest (saved_model.pb parsed and serialized deterministically,
the variables' and the assets' bytes: `digests`), what TensorFlow computed with each and the error classes
of a missing asset and a corrupted or missing fingerprint (`read`), TF's own fingerprint of each
(`fingerprints`: tinytf's fingerprint.pb must hold the same hashes), and `saved_model_cli show --all`'s
exit status and the lines naming signatures and functions (`cli`). tests/test_saved_model_tf_reads.py
writes the files again with tinytf, checks the digests (the files TensorFlow loaded are the files tinytf
writes today), the fingerprints, and that tinytf's loader computes the same numbers.
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

    class Vocabulary(tf.Module):  # a tf.saved_model.Asset: the file travels in assets/, the path is rebound
        def __init__(self, path):
            super().__init__()
            self.vocab = tf.saved_model.Asset(path)

        @tf.function(input_signature=[])
        def read(self):
            return tf.io.read_file(self.vocab)

    def vocabulary(path):
        import tempfile

        with tempfile.TemporaryDirectory() as source:
            vocab = os.path.join(source, "vocab.txt")
            with open(vocab, "w") as f:
                f.write("alpha\nbeta\ngamma\n")
            tf.saved_model.save(Vocabulary(vocab), path)

    def mlp():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                     tf.keras.layers.Dense(2)])
        for w in model.weights:  # fixed weights: the files are the same on every run
            w.assign(np.linspace(-1.0, 1.0, int(np.prod(w.shape))).reshape(w.shape).astype(np.float32))
        return model

    class Printer(tf.Module):  # tf.print: StringFormat + PrintV2 in TF's library, to a file named relatively
        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
        def show(self, x):
            tf.print("x is", x, "sum", tf.reduce_sum(x), output_stream="file://printed.txt")
            tf.print(tf.constant("bare"), output_stream="file://printed.txt")
            return x * 2

    class Collect(tf.Module):  # TensorArrays in an AutoGraph loop: TF's TensorList ops
        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def running(self, x):
            sums = tf.TensorArray(tf.float32, size=0, dynamic_size=True, element_shape=[3])
            rows = tf.TensorArray(tf.float32, size=tf.shape(x)[0]).unstack(x)
            total = tf.zeros([3])
            for i in tf.range(tf.shape(x)[0]):
                total += rows.read(i)
                sums = sums.write(i, total)
            return sums.stack(), sums.gather([0]), sums.concat(), sums.size()

    class Draw(tf.Module):  # stateful random ops with op seeds: TF's kernels draw the same numbers
        @tf.function(input_signature=[])
        def draw(self):
            return (tf.random.uniform([4], seed=7), tf.random.normal([3], seed=8),
                    tf.random.truncated_normal([3], seed=9), tf.random.uniform([4], 0, 10, tf.int32, seed=10),
                    tf.random.shuffle(tf.range(6), seed=11))

    def cnn():
        model = tf.keras.Sequential([tf.keras.Input((8, 8, 1)), tf.keras.layers.Conv2D(3, 3, activation="relu"),
                                     tf.keras.layers.MaxPooling2D(2), tf.keras.layers.Flatten(),
                                     tf.keras.layers.Dense(2)])
        for w in model.weights:
            w.assign(np.linspace(-0.5, 0.7, int(np.prod(w.shape))).reshape(w.shape).astype(np.float32))
        return model

    Masked = masked_type(tf)

    class Traced(tf.Module):  # tf.functions without input signatures, one taking and returning an ExtensionType
        def __init__(self):
            super().__init__()
            self.scale = tf.Variable(3.0)

        @tf.function
        def double(self, x):
            return x * 2.0

        @tf.function
        def grow(self, m):
            return Masked(m.values * self.scale, m.mask, m.tag + "!")

    def traced(path):
        module = Traced()
        module.double.get_concrete_function(tf.TensorSpec([2], tf.float32))
        module.grow.get_concrete_function(Masked.Spec(tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.bool),
                                                      "m"))
        tf.saved_model.save(module, path)

    return {
        "traced": traced,
        "adder": lambda path: tf.saved_model.save(Adder(), path),
        "keras_cnn": lambda path: cnn().export(path, verbose=False),
        "printing": lambda path: tf.saved_model.save(Printer(), path),
        "tensor_array": lambda path: tf.saved_model.save(Collect(), path),
        "random": lambda path: tf.saved_model.save(Draw(), path),
        "counter": lambda path: tf.saved_model.save(Counter(), path),
        "control_flow": lambda path: tf.saved_model.save(Flow(), path),
        "keras_export": lambda path: mlp().export(path, verbose=False),
        "keras_save": lambda path: tf.saved_model.save(mlp(), path),
        "asset": vocabulary,
    }


def masked_type(tf):
    """An ExtensionType registered by name (`__name__`), as a SavedModel needs it, defined alike on both sides
    (built with `type`: this module's annotations are strings, which cannot name the `tf` given here)."""
    namespace = {"__name__": "tinytf_check.Masked", "__module__": __name__, "tag": "m",
                 "__annotations__": {"values": tf.Tensor, "mask": tf.Tensor, "tag": str}}
    return type("Masked", (tf.experimental.ExtensionType,), namespace)


def write(tf, folder: str) -> None:
    """The SavedModels, written with the library given (tinytf). Keras names layers from a process-wide
    counter (`dense`, `dense_1`, ...), and random ops record the global seed next to their op seed; both are in
    the files: start the count afresh and clear the global seed, so the digests do not depend on what the
    process ran before."""
    tf.keras.backend.clear_session()
    tf.random.set_seed(None)
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
    import numpy as np

    out = {}
    x = tf.constant(X)
    adder = tf.saved_model.load(os.path.join(folder, "adder"))
    out["adder"] = {"call": _numbers(adder(tf.constant([1.0, 2.0]))),
                    "serving_default": _numbers(adder.signatures["serving_default"](x=tf.constant([0.5]))),
                    "signatures": sorted(adder.signatures), "variables": _numbers(adder.v),
                    "versions": [adder.tensorflow_version, adder.tensorflow_git_version]}
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
    with tf.GradientTape() as tape:  # fine-tuning the loaded model: gradients through the loaded function
        loss = tf.reduce_sum(exported.serve(x) ** 2)
    grads = tape.gradient(loss, exported.trainable_variables)
    out["keras_export"]["gradient_norms"] = sorted(round(float(tf.norm(g)), 4) for g in grads)
    cnn = tf.saved_model.load(os.path.join(folder, "keras_cnn"))
    images = tf.constant(np.linspace(-1.0, 1.0, 128).reshape(2, 8, 8, 1).astype(np.float32))
    out["keras_cnn"] = {"serve": _numbers(cnn.serve(images))}
    out["printing"] = _printed(tf, os.path.join(folder, "printing"))
    drawn = tf.saved_model.load(os.path.join(folder, "random"))
    out["random"] = {"first": _numbers(drawn.draw()), "second": _numbers(drawn.draw())}
    collect = tf.saved_model.load(os.path.join(folder, "tensor_array"))
    out["tensor_array"] = _numbers(collect.running(tf.constant([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0], [4.0, 0.0, 1.0]])))
    asset = tf.saved_model.load(os.path.join(folder, "asset"))
    out["asset"] = {"read": asset.read().numpy().decode(),
                    "serving_default": {k: v.numpy().decode()
                                        for k, v in asset.signatures["serving_default"]().items()},
                    "asset_path_is_in_assets": asset.vocab.asset_path.numpy().decode()
                    == os.path.join(folder, "asset", "assets", "vocab.txt")}
    Masked = masked_type(tf)
    loaded = tf.saved_model.load(os.path.join(folder, "traced"))
    grown = loaded.grow(Masked([1.0, 2.0, 4.0], [True, False, True], "m"))
    out["traced"] = {"double": _numbers(loaded.double(tf.constant([1.5, -2.0]))),
                     "grow": [type(grown).__name__, _numbers(grown.values), _numbers(grown.mask), grown.tag]}
    out["errors"] = _errors(tf, folder)
    return out


def _printed(tf, path: str) -> dict:
    """What the loaded function prints (to file://printed.txt, relative to a scratch working directory)."""
    import tempfile

    loaded = tf.saved_model.load(path)
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        try:
            result = loaded.show(tf.constant([1.0, 2.5, -3.0]))
            with open("printed.txt") as f:
                text = f.read()
        finally:
            os.chdir(here)
    return {"result": _numbers(result), "printed": text}


def _error_class(call) -> str:
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the class is what is recorded
        return type(e).__name__
    return "no error"


def _errors(tf, folder: str) -> dict:
    """The error classes of a missing asset file (at the read: loading works), and of a corrupted and a missing
    fingerprint.pb (read_fingerprint fails; loading works). Works on copies: the files stay as written."""
    import shutil
    import tempfile

    out = {}
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "asset")
        shutil.copytree(os.path.join(folder, "asset"), copy)
        os.remove(os.path.join(copy, "assets", "vocab.txt"))
        loaded = tf.saved_model.load(copy)
        out["missing_asset_load"] = "loaded"
        out["missing_asset_read"] = _error_class(loaded.read)
        with open(os.path.join(copy, "fingerprint.pb"), "wb") as f:
            f.write(b"\xff\xff\xff")
        out["corrupted_fingerprint_read"] = _error_class(lambda: tf.saved_model.experimental.read_fingerprint(copy))
        out["corrupted_fingerprint_load"] = _error_class(lambda: tf.saved_model.load(copy))
        os.remove(os.path.join(copy, "fingerprint.pb"))
        out["missing_fingerprint_read"] = _error_class(lambda: tf.saved_model.experimental.read_fingerprint(copy))
        out["missing_fingerprint_load"] = _error_class(lambda: tf.saved_model.load(copy))
    return out


def fingerprints(folder: str) -> dict:
    """TensorFlow's own fingerprint of each SavedModel (its C++ CreateFingerprintDef, run with TF's Python),
    without the random uuid: tinytf's fingerprint.pb must hold the same hashes."""
    from tensorflow.core.protobuf import fingerprint_pb2
    from tensorflow.python.saved_model.pywrap_saved_model import fingerprinting

    out = {}
    for name in sorted(os.listdir(folder)):
        written = fingerprinting.CreateFingerprintDef(os.path.join(folder, name))
        proto = fingerprint_pb2.FingerprintDef.FromString(written)
        out[name] = {field: str(getattr(proto, field)) for field in FINGERPRINT_FIELDS}
        out[name]["version.producer"] = proto.version.producer
    return out


FINGERPRINT_FIELDS = ("saved_model_checksum", "graph_def_program_hash", "signature_def_hash",
                      "saved_object_graph_hash", "checkpoint_hash")


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
                if rel not in ("saved_model.pb", "fingerprint.pb"):  # fingerprint.pb: a random uuid; see fingerprints
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

        record = {"read": read(tensorflow, argv[2]), "cli": cli(argv[2]), "fingerprints": fingerprints(argv[2])}
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
