"""Records what TensorFlow 2.21's auto-sharding gives each worker, for tests/test_worker_shards.py: the
per-worker stream of TF's AutoShardDataset (before the per-replica rebatch) for each policy over small text
files and ranges, and the errors of FILE sharding. Run in a scratch environment with TF installed:

    TF_CPP_MIN_LOG_LEVEL=3 python tools/record_autoshard_reference.py tests/tf_reference/autoshard.json
"""

from __future__ import annotations

import json
import os
import sys
import tempfile

import tensorflow as tf
from tensorflow.python.data.experimental.ops import distribute

# The cases: name -> (how the dataset is built, policy, workers). Files are f0..f3 with i + 2 lines each.
CASES = {
    "text_file": ("tf.data.TextLineDataset(files).batch(4)", "FILE", 2),
    "text_auto": ("tf.data.TextLineDataset(files).batch(4)", "AUTO", 2),
    "text_file_3_workers": ("tf.data.TextLineDataset(files).batch(3)", "FILE", 3),
    "list_files_interleave": ("tf.data.Dataset.list_files(files, shuffle=False).interleave("
                              "tf.data.TextLineDataset, cycle_length=1).batch(3)", "FILE", 2),
    "range_off": ("tf.data.Dataset.range(10).batch(4)", "OFF", 2),
    "range_hint": ("tf.data.Dataset.range(10).shard(tf.data.experimental.SHARD_HINT, "
                   "tf.data.experimental.SHARD_HINT).batch(4)", "HINT", 2),
    "range_file": ("tf.data.Dataset.range(10).batch(4)", "FILE", 2),
    "one_file_two_workers": ("tf.data.TextLineDataset(files[:1]).batch(4)", "FILE", 2),
}


def write_files(folder: str) -> list:
    files = []
    for i in range(4):
        path = os.path.join(folder, f"f{i}.txt")
        with open(path, "w") as f:
            f.write("\n".join(f"f{i}-{j}" for j in range(i + 2)) + "\n")
        files.append(path)
    return files


def plain(value):
    if isinstance(value, bytes):
        return value.decode()
    if hasattr(value, "tolist"):
        return plain(value.tolist())
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def record(files: list) -> dict:
    out = {}
    for name, (source, policy, workers) in CASES.items():
        dataset = eval(source, {"tf": tf, "files": files})
        options = tf.data.Options()
        options.experimental_distribute.auto_shard_policy = getattr(tf.data.experimental.AutoShardPolicy, policy)
        dataset = dataset.with_options(options)
        try:
            streams = [plain(list(distribute._AutoShardDataset(dataset, workers, i, num_replicas=workers)
                                  .as_numpy_iterator())) for i in range(workers)]
            out[name] = {"streams": streams}
        except tf.errors.OpError as error:
            out[name] = {"error": type(error).__name__}
    return out


def main():
    with tempfile.TemporaryDirectory() as folder:
        result = {"tensorflow": tf.__version__, "cases": {k: {"source": v[0], "policy": v[1], "workers": v[2]}
                                                           for k, v in CASES.items()},
                  "outputs": record(write_files(folder))}
    with open(sys.argv[1], "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
