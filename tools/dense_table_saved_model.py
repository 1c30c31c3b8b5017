"""DenseHashTables in SavedModels, both ways between tinytf and TensorFlow 2.21. Three steps, two Pythons:

    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/dense_table_saved_model.py make \\
        tests/tf_files/saved_models                   # with TF: dense_table/ (TF's SavedModel) and dense_table.json
    python tools/dense_table_saved_model.py write DIR  # with tinytf: DIR/dense_table, the same module saved by tinytf
    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/dense_table_saved_model.py read DIR \\
        tests/tf_reference/dense_table_read_by_tf.json  # with TF: what it computes from tinytf's SavedModel

The module holds an int64 -> float32 DenseHashTable of 8 buckets with colliding keys inserted and one removed (so
the saved buckets hold a probe chain and a deleted bucket: TF's import copies buckets as they are, so a lookup
finds a key only where TF's hashing put it), and an int32 -> float32 table with vector values that grew from 4 to 8
buckets. `outcomes` runs its functions on a loaded copy: lookups, the export, an insert through a saved function
and lookups after it. tests/test_dense_table_saved_model.py checks tinytf against both JSON files."""

from __future__ import annotations

import json
import os
import shutil
import sys


def dense_module(tf):
    """The module both libraries save (tf is tinytf or TensorFlow)."""

    class Dense(tf.Module):
        def __init__(self):
            super().__init__()
            self.scores = tf.lookup.experimental.DenseHashTable(tf.int64, tf.float32, default_value=-1.0,
                                                                empty_key=0, deleted_key=-1, initial_num_buckets=8)
            self.scores.insert(tf.constant([5, 13, 21, 9, -7], tf.int64), tf.constant([0.5, 1.3, 2.1, 0.9, -0.7]))
            self.scores.remove(tf.constant([13], tf.int64))
            self.pairs = tf.lookup.experimental.DenseHashTable(tf.int32, tf.float32, default_value=[-1.0, -1.0],
                                                               empty_key=-5, deleted_key=-6, initial_num_buckets=4)
            self.pairs.insert(tf.constant([1, 2, 3, 4], tf.int32),
                              tf.constant([[1.0, 10.0], [2.0, 20.0], [3.0, 30.0], [4.0, 40.0]]))

        @tf.function(input_signature=[tf.TensorSpec([None], tf.int64)])
        def look(self, keys):
            return self.scores.lookup(keys)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
        def look_pairs(self, keys):
            return self.pairs.lookup(keys)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.int64), tf.TensorSpec([None], tf.float32)])
        def put(self, keys, values):
            self.scores.insert(keys, values)
            return self.scores.size()

        @tf.function(input_signature=[])
        def export(self):
            keys, values = self.scores.export()
            return {"keys": keys, "values": values}

    return Dense()


def save(tf, path) -> None:
    module = dense_module(tf)
    shutil.rmtree(path, ignore_errors=True)
    tf.saved_model.save(module, path, signatures={"look": module.look})


def outcomes(tf, path) -> dict:
    """What a library computes with the SavedModel at `path` (loaded by it)."""
    loaded = tf.saved_model.load(path)
    keys = tf.constant([5, 13, 21, 9, -7, 3, 29], tf.int64)
    before = loaded.look(keys).numpy().tolist()
    exported = {k: v.numpy().reshape(-1).tolist() for k, v in loaded.export().items()}  # now: TF's export
    # aliases the table's buckets, so a later insert would show through it
    served = loaded.signatures["look"](keys=tf.constant([21, 9], tf.int64))
    pairs = loaded.look_pairs(tf.constant([4, 1, 9], tf.int32)).numpy().tolist()
    size = int(loaded.put(tf.constant([29, 37], tf.int64), tf.constant([2.9, 3.7])).numpy())
    after = loaded.look(keys).numpy().tolist()
    return {"before": [round(v, 6) for v in before], "export_keys": exported["keys"],
            "export_values": [round(v, 6) for v in exported["values"]],
            "served": [round(v, 6) for v in next(iter(served.values())).numpy().tolist()], "pairs": pairs,
            "size_after_put": size, "after": [round(v, 6) for v in after],
            "export_after": loaded.export()["keys"].numpy().reshape(-1).tolist()}


if __name__ == "__main__":
    step, folder = sys.argv[1], sys.argv[2]
    if step == "write":
        import tinytf

        os.makedirs(folder, exist_ok=True)
        save(tinytf, os.path.join(folder, "dense_table"))
    else:
        import tensorflow

        if step == "make":
            save(tensorflow, os.path.join(folder, "dense_table"))
            target, source = os.path.join(folder, "dense_table.json"), os.path.join(folder, "dense_table")
        else:
            target, source = sys.argv[3], os.path.join(folder, "dense_table")
        with open(target, "w") as f:
            json.dump(outcomes(tensorflow, source), f, indent=1)
            f.write("\n")
