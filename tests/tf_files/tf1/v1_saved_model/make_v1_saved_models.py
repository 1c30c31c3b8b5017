"""Writes TF1-style SavedModels with TensorFlow 2.21's tf.compat.v1.saved_model.Builder into this folder (run
with a Python that has TensorFlow, never tinytf):

    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python <this file>

`binary` (saved_model.pb) holds two MetaGraphDefs: ["serve"] with a Predict and a Regress signature and a
main_op (local variables initializer), and ["serve", "gpu"] (add_meta_graph) with another Predict signature;
`text` (saved_model.pbtxt) holds one. expected.json holds what TF's loader computes with each signature, read
by tests/test_v1_saved_model_fixtures.py (tinytf loads these files and must compute the same)."""

import json
import os
import shutil

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
v1 = tf.compat.v1
X = [[1.0, -2.0, 0.5], [0.25, 3.0, -1.5]]
FEEDS = {"x": X, "inputs": ["1.5", "-2"]}


def _make(folder, as_text):
    shutil.rmtree(folder, ignore_errors=True)
    with tf.Graph().as_default():
        with v1.Session() as sess:
            x = v1.placeholder(tf.float32, [None, 3], name="x")
            w = v1.get_variable("dense/w", initializer=np.arange(6, dtype=np.float32).reshape(3, 2) / 4.0)
            b = v1.get_variable("dense/b", initializer=[0.5, -0.5])
            count = v1.get_variable("count", initializer=7.0, collections=[v1.GraphKeys.LOCAL_VARIABLES])
            logits = tf.add(tf.matmul(x, w), b, name="logits")
            probs = tf.nn.softmax(logits, name="probs")
            total = tf.add(tf.reduce_sum(logits, axis=1), count, name="total")
            examples = v1.placeholder(tf.string, [None], name="examples")
            scaled = tf.multiply(tf.strings.to_number(examples), count, name="scaled")
            sess.run(v1.global_variables_initializer())
            sess.run(b.assign([1.0, 2.0]))  # saved values differ from the initializers
            sm = v1.saved_model
            builder = sm.Builder(folder)
            builder.add_meta_graph_and_variables(
                sess, [sm.SERVING],
                signature_def_map={
                    sm.DEFAULT_SERVING_SIGNATURE_DEF_KEY: sm.predict_signature_def({"x": x}, {"probs": probs,
                                                                                              "total": total}),
                    "regress": sm.regression_signature_def(examples, scaled)},
                main_op=v1.local_variables_initializer())
            if not as_text:
                builder.add_meta_graph([sm.SERVING, sm.GPU], signature_def_map={
                    "logits": sm.predict_signature_def({"x": x}, {"logits": logits})})
            builder.save(as_text=as_text)


def _run(folder, tags, key, input_key="x"):
    with tf.Graph().as_default():
        with v1.Session() as sess:
            meta = v1.saved_model.load(sess, tags, folder)
            sig = meta.signature_def[key]
            names = sorted(sig.outputs)
            values = sess.run([sig.outputs[n].name for n in names], {sig.inputs[input_key].name: FEEDS[input_key]})
            return {"inputs": {k: v.name for k, v in sig.inputs.items()},
                    "outputs": {n: [sig.outputs[n].name, np.asarray(v).tolist()] for n, v in zip(names, values)},
                    "method": sig.method_name, "tags": sorted(meta.meta_info_def.tags),
                    "signatures": sorted(meta.signature_def)}


_make(os.path.join(HERE, "binary"), as_text=False)
_make(os.path.join(HERE, "text"), as_text=True)
expected = {"tensorflow": tf.__version__, "feeds": FEEDS,
            "binary_regress": _run(os.path.join(HERE, "binary"), ["serve"], "regress", "inputs"),
            "binary_serve": _run(os.path.join(HERE, "binary"), ["serve"], "serving_default"),
            "binary_gpu": _run(os.path.join(HERE, "binary"), ["serve", "gpu"], "logits"),
            "text_serve": _run(os.path.join(HERE, "text"), ["serve"], "serving_default")}
with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
