"""tf.compat.v1.train.warm_start and VocabInfo (helper tf1rest): TF1 graph variables started from a previous
model's name-based or object-based checkpoint, chosen by regex, by name list or as variables, renamed with
var_name_to_prev_var_name, and embedding rows (axis 0) or output columns (axis 1) remapped through
vocabulary files with OOV buckets and a backup initializer; TF's errors for unused names."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import data, outcome, program


def _previous_model(tf, folder):
    """A name-based checkpoint of a previous model: embeddings over the vocabulary a, b, c, d."""
    v1 = tf.compat.v1
    with open(os.path.join(folder, "old_vocab.txt"), "w") as f:
        f.write("a\nb\nc\nd\n")
    with open(os.path.join(folder, "new_vocab.txt"), "w") as f:
        f.write("c\nx\na\ny\n")
    with tf.Graph().as_default():
        v1.get_variable("emb", initializer=data([4, 3]))
        v1.get_variable("dense/kernel", initializer=data([3, 4], seed=1))
        v1.get_variable("dense/bias", initializer=data([2], seed=2))
        v1.get_variable("step", initializer=np.int64(7), trainable=False)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            return v1.train.Saver().save(sess, os.path.join(folder, "old"))


@program
def p_tf1_rest_warm_start_names(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    path = _previous_model(tf, folder)
    out = {}
    with tf.Graph().as_default():
        bias = v1.get_variable("dense/bias", [2], initializer=v1.zeros_initializer())
        kernel = v1.get_variable("dense/kernel", [3, 4], initializer=v1.zeros_initializer())
        step = v1.get_variable("step", initializer=np.int64(0), trainable=False)
        other = v1.get_variable("renamed", [4, 3], initializer=v1.ones_initializer())
        v1.train.warm_start(path, vars_to_warm_start="dense/.*",
                            var_name_to_prev_var_name={"dense/kernel": "dense/kernel"})
        v1.train.warm_start(path, vars_to_warm_start=[other], var_name_to_prev_var_name={"renamed": "emb"})
        init = v1.global_variables_initializer()
        with v1.Session() as sess:
            sess.run(init)
            out["values"] = [np.round(v, 4).tolist() for v in sess.run([bias, kernel, step, other])]
    with tf.Graph().as_default():
        step = v1.get_variable("step", initializer=np.int64(0), trainable=False)
        s = v1.get_variable("dense/bias", [2], initializer=v1.zeros_initializer())
        v1.train.warm_start(path, vars_to_warm_start=["step"])
        init = v1.global_variables_initializer()
        with v1.Session() as sess:
            sess.run(init)
            out["by_list"] = [int(sess.run(step)), sess.run(s).tolist()]
        out["unused"] = outcome(lambda: v1.train.warm_start(path, var_name_to_prev_var_name={"nope": "emb"}),
                                "were not used")
        out["bad_type"] = outcome(lambda: v1.train.warm_start(path, vars_to_warm_start=3), "must be a `list`")
        out["mixed"] = outcome(lambda: v1.train.warm_start(path, vars_to_warm_start=["step", s]), "all `Variable`")
        out["no_path"] = outcome(lambda: v1.train.warm_start(""), "Failed to find any matching files")
    out["axis"] = outcome(lambda: v1.train.VocabInfo("n", 3, 0, "o", axis=2), "axis")
    info = v1.train.VocabInfo("n.txt", 3, 1, "o.txt")
    out["info"] = [info.new_vocab, info.new_vocab_size, info.num_oov_buckets, info.old_vocab, info.old_vocab_size,
                   info.backup_initializer, info.axis]
    return out


@program
def p_tf1_rest_warm_start_vocab(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    path = _previous_model(tf, folder)
    new_vocab, old_vocab = os.path.join(folder, "new_vocab.txt"), os.path.join(folder, "old_vocab.txt")
    out = {}
    with tf.Graph().as_default():
        emb = v1.get_variable("emb", [5, 3], initializer=v1.zeros_initializer())
        kernel = v1.get_variable("dense/kernel", [3, 3], initializer=v1.zeros_initializer())
        rows = v1.train.VocabInfo(new_vocab, 4, 1, old_vocab, backup_initializer=v1.ones_initializer())
        cols = v1.train.VocabInfo(new_vocab, 3, 0, old_vocab, old_vocab_size=2, axis=1)
        v1.train.warm_start(path, vars_to_warm_start=[emb, kernel],
                            var_name_to_vocab_info={"emb": rows, "dense/kernel": cols})
        init = v1.global_variables_initializer()
        with v1.Session() as sess:
            sess.run(init)
            out["emb"], out["kernel"] = [np.round(v, 4).tolist() for v in sess.run([emb, kernel])]
    with tf.Graph().as_default():
        v1.get_variable("emb", [4, 3], initializer=v1.zeros_initializer())
        out["unused"] = outcome(lambda: v1.train.warm_start(
            path, vars_to_warm_start=None,
            var_name_to_vocab_info={"missing": v1.train.VocabInfo(new_vocab, 4, 0, old_vocab)}), "were not used")
    return out


@program
def p_tf1_rest_warm_start_object_checkpoint(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    with tf.Graph().as_default():
        w = v1.get_variable("w", initializer=data([2, 2]))
        with v1.Session() as sess:
            sess.run(w.initializer)
            path = tf.train.Checkpoint(model={"w": w}).save(os.path.join(folder, "obj"))
    with tf.Graph().as_default():
        w = v1.get_variable("w", [2, 2], initializer=v1.zeros_initializer())
        v1.train.warm_start(path)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            restored = np.round(sess.run(w), 4).tolist()
    with tf.Graph().as_default():
        v1.get_variable("absent", [2, 2])
        missing = outcome(lambda: v1.train.warm_start(path), "did not contain values for all variables")
    return {"restored": restored, "missing": missing}
