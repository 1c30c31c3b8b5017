"""tf.compat.v1.train's readers of files training writes: NewCheckpointReader (a checkpoint's tensors by name, TF1
Saver's and TF2 Checkpoint's alike) and summary_iterator (the Event protocol buffers of an events file, as
TensorBoard reads them)."""

from __future__ import annotations

from tensorboard.compat.proto import event_pb2
from tensorboard.compat.proto.saver_pb2 import SaverDef  # noqa: F401 - TF's message, as tf.compat.v1.train has it

from ...io.tfrecord import read_records
from ...train.reader import CheckpointReader, load_checkpoint


def NewCheckpointReader(filepattern) -> CheckpointReader:  # noqa: N802 - TF's name
    """The reader of the checkpoint with prefix (or in folder) `filepattern`; NotFoundError when there is none."""
    return load_checkpoint(filepattern)


def summary_iterator(path):
    """Yield each Event of the events file at `path`, in the order they were written."""
    for record in read_records(path):
        yield event_pb2.Event.FromString(record)


__all__ = ["NewCheckpointReader", "SaverDef", "summary_iterator"]
