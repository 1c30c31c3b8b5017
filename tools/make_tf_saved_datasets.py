"""Writes tests/tf_files/data_saved/ with TensorFlow (run with a Python that has it, never tinytf):

    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/make_tf_saved_datasets.py

two datasets saved by TF 2.21's Dataset.save, which tests/test_data_exp_saving.py loads with tinytf (TF's
snapshot format read without TF). `plain` has two shards (shard_func) of (dict, string) elements; `gzip` is
GZIP-compressed batches."""

import os
import shutil

import tensorflow as tf

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "tests", "tf_files", "data_saved")
shutil.rmtree(HERE, ignore_errors=True)
ds = tf.data.Dataset.from_tensor_slices(({"id": tf.range(5, dtype=tf.int64),
                                          "x": tf.reshape(tf.range(10, dtype=tf.float32), [5, 2])},
                                         ["a", "bb", "ccc", "dddd", ""]))
ds.save(os.path.join(HERE, "plain"), shard_func=lambda f, s: f["id"] % 2)
batches = tf.data.Dataset.range(3).map(lambda x: tf.fill([x + 1], tf.cast(x, tf.int32))).padded_batch(2)
batches.save(os.path.join(HERE, "gzip"), compression="GZIP")
