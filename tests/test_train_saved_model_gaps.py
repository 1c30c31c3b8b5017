"""tf.train.experimental (PythonState in checkpoints, sharding policies) and tf.saved_model.experimental's
TrackableResource and VariablePolicy (helper gapsa). TF 2.21 keys a PythonState's string at
`<path>/.ATTRIBUTES/py_state` (checked by hand against /work/tfenv)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import tinytf as tf


class Counter(tf.train.experimental.PythonState):
    def __init__(self):
        self.n = 0

    def serialize(self):
        return str(self.n)

    def deserialize(self, string_value):
        self.n = int(string_value)


def test_python_state_round_trips_through_a_checkpoint(tmp_path):
    counter, v = Counter(), tf.Variable(2.0)
    counter.n = 7
    ckpt = tf.train.Checkpoint(counter=counter, v=v)
    path = ckpt.save(os.path.join(str(tmp_path), "ck"))
    assert ("counter/.ATTRIBUTES/py_state", []) in tf.train.list_variables(path)
    assert tf.train.load_variable(path, "counter/.ATTRIBUTES/py_state") == b"7"
    counter.n, _ = 0, v.assign(0.0)
    ckpt.restore(path)
    assert counter.n == 7 and float(v) == 2.0
    with pytest.raises(TypeError):
        tf.train.experimental.PythonState()  # abstract, as TF's


def _shardable(key, array):
    return tf.train.experimental.ShardableTensor(
        _tensor_save_spec=None, tensor=array, dtype=None, device=tf.DeviceSpec.from_string("/job:w/task:0"),
        name=key, shape=None, slice_spec=None, checkpoint_key=key, trackable=None)


def test_sharding_policies_and_options(tmp_path):
    tensors = [_shardable("a", np.zeros(10, np.float32)), _shardable("b", np.zeros(20, np.float32)),
               _shardable("c", np.zeros(5, np.float32))]
    shards = tf.train.experimental.MaxShardSizePolicy(100)(tensors)
    assert [sorted(s) for s in shards] == [["a"], ["b", "c"]] or [sorted(s) for s in shards] == [["a"], ["b"], ["c"]]
    assert all(sum(np.asarray(t).nbytes for d in s.values() for t in d.values()) <= 100 or len(s) == 1 for s in shards)
    assert len(tf.train.experimental.ShardByTaskPolicy()(tensors)) == 1
    policy = tf.train.experimental.ShardByTaskPolicy()
    assert "task" in policy.description
    options = tf.train.CheckpointOptions(experimental_sharding_callback=policy)
    v = tf.Variable([1.0, 2.0])
    path = tf.train.Checkpoint(v=v).write(os.path.join(str(tmp_path), "w"), options=options)
    assert tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE").tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="must be of type ShardingCallback"):
        tf.train.CheckpointOptions(experimental_sharding_callback=lambda t: t)


class Demo(tf.saved_model.experimental.TrackableResource):
    created = 0

    def _create_resource(self):
        Demo.created += 1
        return tf.Variable([1.0, 1.0])


def test_trackable_resource_created_once_and_captured():
    resource = Demo()

    @tf.function
    def add(x):
        return x + resource.resource_handle

    assert add(tf.constant([5.0, 1.0])).numpy().tolist() == [6.0, 2.0]
    assert add(tf.constant([5.0, 2.0])).numpy().tolist() == [6.0, 3.0]
    assert Demo.created == 1
    with pytest.raises(NotImplementedError):
        _ = tf.saved_model.experimental.TrackableResource().resource_handle
    assert tf.saved_model.experimental.VariablePolicy.from_obj("save_variable_devices").value == "save_variable_devices"
