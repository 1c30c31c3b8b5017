"""tf.summary.experimental.summary_scope and write_raw_pb (helper gapsa): raw Summary protos reach the event
file merged into one event, bad protos raise TF's DataLossError."""

from __future__ import annotations

import glob

import pytest
from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
from tensorboard.compat.proto import summary_pb2

import tinytf as tf


def _summary(tag, value):
    return summary_pb2.Summary(value=[summary_pb2.Summary.Value(tag=tag, simple_value=value)]).SerializeToString()


def _events(logdir):
    (path,) = glob.glob(str(logdir / "*"))
    return [e for e in EventFileLoader(path).Load() if e.HasField("summary")]


def test_write_raw_pb_eager_and_in_function(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))

    @tf.function
    def write(protos, step):
        return tf.summary.experimental.write_raw_pb(protos, step=step)

    with writer.as_default():
        assert bool(tf.summary.experimental.write_raw_pb([_summary("a", 1.5), _summary("b", 2.5)], step=3))
        assert bool(write(tf.constant([_summary("c", 4.0)]), tf.constant(4, tf.int64)))
        with pytest.raises(tf.errors.DataLossError, match="Bad tf.compat.v1.Summary binary proto tensor string at "
                                                          "index 1"):
            tf.summary.experimental.write_raw_pb([_summary("a", 1.0), b"\xff\xff"], step=1)
        with pytest.raises(ValueError, match="No step set"):
            tf.summary.experimental.write_raw_pb(_summary("a", 1.0))
    writer.flush()
    events = _events(tmp_path)
    assert [(e.step, [v.tag for v in e.summary.value]) for e in events] == [(3, ["a", "b"]), (4, ["c"])]
    assert not bool(tf.summary.experimental.write_raw_pb(_summary("a", 1.0), step=1))  # no default writer


def test_summary_scope_yields_tag_and_scope():
    with tf.name_scope("outer"):
        with tf.summary.experimental.summary_scope("my loss") as (tag, scope):
            assert (tag, scope) == ("outer/my loss", "outer/myloss/")
