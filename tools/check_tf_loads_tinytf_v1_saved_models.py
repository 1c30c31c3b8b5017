"""Does TensorFlow load the TF1-style SavedModels tinytf writes (tf.compat.v1.saved_model.Builder and
simple_save in a Session), and compute tinytf's numbers? Two steps, two Pythons:

    PYTHONPATH=<tinytf> python tools/check_tf_loads_tinytf_v1_saved_models.py write DIR     # with tinytf
    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python \\
        <tinytf>/tools/check_tf_loads_tinytf_v1_saved_models.py \\
        read DIR <tinytf>/tests/tf_reference/tinytf_v1_saved_models_read_by_tf.json          # with TensorFlow

`write` writes DIR/binary (two MetaGraphDefs: ["serve"] with a Predict and a Regress signature and a main_op,
["serve", "gpu"] added by add_meta_graph), DIR/text (as_text=True), DIR/simple (simple_save) and DIR/assets (a
main op reading an asset file the loader must feed from assets/), plus
DIR/digests.json (each file's sha256; saved_model.pb parsed and serialized deterministically). `read` loads
each in TensorFlow twice, with tf.compat.v1.saved_model.load into a Session (feeding the signatures' tensor
names) and with TF2's tf.saved_model.load (calling its `signatures`), and writes what TF computed and the
digests into the JSON. tests/test_v1_saved_model_tf_reads.py writes the files again with tinytf, checks the
digests (the files TF loaded are the files tinytf writes today) and that tinytf's loader computes TF's numbers.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys

X = [[1.0, -2.0, 0.5], [0.25, 3.0, -1.5]]
EXAMPLES = ["1.5", "-2"]  # the Regress signature's string inputs
FEEDS = {"x": X, "inputs": EXAMPLES}
# SavedModel -> [(tags, signature key, input key)] that `read` runs
RUNS = {"binary": [(["serve"], "serving_default", "x"), (["serve"], "regress", "inputs"),
                   (["serve", "gpu"], "logits", "x")],
        "text": [(["serve"], "serving_default", "x"), (["serve"], "regress", "inputs")],
        "simple": [(["serve"], "serving_default", "x")],
        "assets": [(["serve"], "serving_default", "x")]}


def _graph(tf):
    """The model in the default graph: a dense layer's logits, their softmax, a sum plus a local variable; strings
    parsed as numbers times the local variable (a Regress signature needs outputs of its string input alone)."""
    import numpy as np

    v1 = tf.compat.v1
    x = v1.placeholder(tf.float32, [None, 3], name="x")
    w = v1.get_variable("dense/w", initializer=np.arange(6, dtype=np.float32).reshape(3, 2) / 4.0)
    b = v1.get_variable("dense/b", initializer=[0.5, -0.5])
    count = v1.get_variable("count", initializer=7.0, collections=[v1.GraphKeys.LOCAL_VARIABLES])
    logits = tf.add(tf.matmul(x, w), b, name="logits")
    probs = tf.nn.softmax(logits, name="probs")
    total = tf.add(tf.reduce_sum(logits, axis=1), count, name="total")
    examples = v1.placeholder(tf.string, [None], name="examples")
    scaled = tf.multiply(tf.strings.to_number(examples), count, name="scaled")
    return x, b, logits, probs, total, examples, scaled


def _write_assets(tf, folder: str) -> None:
    """A main op that reads an asset (a file named by a string constant) into a local variable. The constant
    holds a relative path (written from inside `folder`) so that saved_model.pb's digest does not depend on
    `folder`; the source file is deleted after the save, so loaders must feed the copy in assets/."""
    v1 = tf.compat.v1
    sm = v1.saved_model
    here = os.getcwd()
    os.chdir(folder)
    try:
        with open("vocab.txt", "w") as f:
            f.write("apple\nbanana\ncherry\n")
        with tf.Graph().as_default():
            with v1.Session() as sess:
                x = v1.placeholder(tf.float32, [None, 3], name="x")
                path = tf.constant("vocab.txt", name="vocab_path")
                size = tf.strings.length(tf.io.read_file(path), name="size")
                n = v1.get_variable("n", initializer=0, collections=[v1.GraphKeys.LOCAL_VARIABLES])
                init = v1.assign(n, size, name="init_n")
                total = tf.add(tf.reduce_sum(x, axis=1), tf.cast(n, tf.float32), name="total")
                builder = sm.Builder("assets")
                builder.add_meta_graph_and_variables(
                    sess, ["serve"], {"serving_default": sm.predict_signature_def({"x": x}, {"total": total})},
                    assets_collection=[path], main_op=tf.group(init))
                builder.save()
        os.remove("vocab.txt")
    finally:
        os.chdir(here)


def write(tf, folder: str) -> None:
    """The SavedModels, written with `tf` (tinytf), and their digests."""
    v1 = tf.compat.v1
    sm = v1.saved_model
    _write_assets(tf, folder)
    for name in RUNS:
        if name == "assets":
            continue
        with tf.Graph().as_default():
            with v1.Session() as sess:
                x, b, logits, probs, total, examples, scaled = _graph(tf)
                sess.run(v1.global_variables_initializer())
                sess.run(v1.local_variables_initializer())
                sess.run(b.assign([1.0, 2.0]))  # saved values differ from the initializers
                path = os.path.join(folder, name)
                if name == "simple":
                    sm.simple_save(sess, path, inputs={"x": x}, outputs={"probs": probs, "total": total},
                                   legacy_init_op=v1.local_variables_initializer())
                    continue
                builder = sm.builder.SavedModelBuilder(path)
                builder.add_meta_graph_and_variables(
                    sess, [sm.tag_constants.SERVING],
                    signature_def_map={
                        sm.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                            sm.predict_signature_def({"x": x}, {"probs": probs, "total": total}),
                        "regress": sm.signature_def_utils.regression_signature_def(examples, scaled)},
                    main_op=v1.local_variables_initializer())
                if name == "binary":
                    builder.add_meta_graph([sm.SERVING, sm.GPU], signature_def_map={
                        "logits": sm.predict_signature_def({"x": x}, {"logits": logits})})
                builder.save(as_text=name == "text")
    with open(os.path.join(folder, "digests.json"), "w") as f:
        json.dump(digests(folder), f, indent=1, sort_keys=True)


def digests(folder: str) -> dict:
    """Per SavedModel: saved_model.pb parsed and serialized deterministically (map order does not matter), and
    every other file's bytes."""
    from tinytf.compat.v1.saved_model_v1 import read_saved_model

    out = {}
    for name in RUNS:
        root = os.path.join(folder, name)
        files = {"saved_model": hashlib.sha256(read_saved_model(root).SerializeToString(deterministic=True))
                 .hexdigest()}
        for base, _, names in sorted(os.walk(root)):
            for file in sorted(names):
                rel = os.path.relpath(os.path.join(base, file), root)
                if not rel.startswith("saved_model."):
                    with open(os.path.join(base, file), "rb") as f:
                        files[rel] = hashlib.sha256(f.read()).hexdigest()
        out[name] = files
    return out


def read(tf, folder: str) -> dict:
    """What TensorFlow computes with each SavedModel: v1 loader in a Session, and TF2's load's signatures."""
    import numpy as np

    v1 = tf.compat.v1
    out = {}
    for name, runs in RUNS.items():
        path = os.path.join(folder, name)
        for tags, key, input_key in runs:
            with tf.Graph().as_default():
                with v1.Session() as sess:
                    meta = v1.saved_model.load(sess, tags, path)
                    sig = meta.signature_def[key]
                    names = sorted(sig.outputs)
                    values = sess.run([sig.outputs[n].name for n in names],
                                      {sig.inputs[input_key].name: FEEDS[input_key]})
                    session = {"outputs": {n: np.asarray(v).tolist() for n, v in zip(names, values)},
                               "method": sig.method_name, "signatures": sorted(meta.signature_def),
                               "tags": sorted(meta.meta_info_def.tags)}
            loaded = tf.saved_model.load(path, tags=tags)
            called = loaded.signatures[key](**{input_key: tf.constant(FEEDS[input_key])})
            out[f"{name}:{'+'.join(tags)}:{key}"] = {
                "session": session, "tf2_signatures": sorted(loaded.signatures.keys()),
                "tf2": {n: called[n].numpy().tolist() for n in sorted(called)}}
    return out


if __name__ == "__main__":
    step, folder = sys.argv[1], sys.argv[2]
    if step == "write":
        import tinytf

        os.makedirs(folder, exist_ok=True)
        write(tinytf, folder)
    else:
        import tensorflow

        with open(os.path.join(folder, "digests.json")) as f:
            recorded = {"tensorflow": tensorflow.__version__, "feeds": FEEDS, "digests": json.load(f),
                        "read": read(tensorflow, folder)}
        with open(sys.argv[3], "w") as f:
            json.dump(recorded, f, indent=1, sort_keys=True)
            f.write("\n")
