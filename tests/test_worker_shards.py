"""Auto-sharding over the workers of a multi-worker strategy (tinytf/distribute/worker_shards.py): each
policy's per-worker streams against TF 2.21's AutoShardDataset on the same files and ranges
(tests/tf_reference/autoshard.json, recorded by tools/record_autoshard_reference.py), the rebatch to each
worker's share of the global batch, the lockstep over workers whose streams end at different steps, and TF's
errors. Pure data: no Ray needed."""

import json
import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.distribute.input import lockstep
from tinytf.distribute.worker_shards import per_worker_datasets, sharded_pipelines

REFERENCE = json.load(open(os.path.join(os.path.dirname(__file__), "tf_reference", "autoshard.json")))


@pytest.fixture
def files(tmp_path):
    paths = []
    for i in range(4):
        path = tmp_path / f"f{i}.txt"
        path.write_text("\n".join(f"f{i}-{j}" for j in range(i + 2)) + "\n")
        paths.append(str(path))
    return paths


def with_policy(dataset, policy):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = getattr(tf.data.experimental.AutoShardPolicy, policy)
    return dataset.with_options(options)


def plain(value):
    value = value.tolist() if hasattr(value, "tolist") else value
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value.decode() if isinstance(value, bytes) else value


@pytest.mark.parametrize("name", sorted(REFERENCE["outputs"]))
def test_each_policy_gives_tf_streams(name, files):
    case, want = REFERENCE["cases"][name], REFERENCE["outputs"][name]
    dataset = with_policy(eval(case["source"], {"tf": tf, "files": files}), case["policy"])
    if "error" in want:
        with pytest.raises(getattr(tf.errors, want["error"])):
            sharded_pipelines(dataset, case["workers"])
        return
    pipelines = sharded_pipelines(dataset, case["workers"])
    assert [plain(list(p.as_numpy_iterator())) for p in pipelines] == want["streams"]


def test_data_and_auto_without_files_leave_the_split_to_the_driver():
    assert sharded_pipelines(with_policy(tf.data.Dataset.range(8).batch(4), "DATA"), 2) is None
    assert sharded_pipelines(tf.data.Dataset.range(8).batch(4), 2) is None  # AUTO, no file reader
    assert sharded_pipelines(tf.data.Dataset.range(8).batch(4), 1) is None


def test_shards_are_rebatched_to_each_workers_share_and_read_in_lockstep(files):
    dataset = with_policy(tf.data.TextLineDataset(files).batch(5), "FILE")  # shares of 3 and 2
    steps = list(lockstep(per_worker_datasets(dataset, 2)))
    first = [plain(list(step[0][0])) for step in steps]
    second = [plain(list(step[1][0])) for step in steps]
    assert first == [["f0-0", "f0-1", "f2-0"], ["f2-1", "f2-2", "f2-3"], [], []]  # ended: empty batches
    assert second == [["f1-0", "f1-1"], ["f1-2", "f3-0"], ["f3-1", "f3-2"], ["f3-3", "f3-4"]]


def test_hint_placeholder_outside_a_strategy_is_tfs_error():
    hinted = tf.data.Dataset.range(4).shard(tf.data.experimental.SHARD_HINT, tf.data.experimental.SHARD_HINT)
    with pytest.raises(tf.errors.FailedPreconditionError, match="SHARD_HINT"):
        list(hinted)


def test_unbatched_dataset_is_refused(files):
    with pytest.raises(ValueError, match="batched dataset"):
        per_worker_datasets(with_policy(tf.data.TextLineDataset(files), "FILE"), 2)


def test_empty_batches_keep_the_element_shape():
    a = tf.data.Dataset.from_tensor_slices(np.ones((2, 3), np.float32)).batch(2)
    b = tf.data.Dataset.from_tensor_slices(np.ones((4, 3), np.float32)).batch(2)
    steps = list(lockstep([a, b]))
    assert len(steps) == 2 and steps[1][0][0].shape == (0, 3) and steps[1][0][0].dtype == np.float32
