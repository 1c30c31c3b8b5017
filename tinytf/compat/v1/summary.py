"""tf.compat.v1.summary: TF1's graph summary ops (summary_ops.py) and FileWriter (summary_writer.py)."""

from .summary_ops import histogram, merge, merge_all, scalar  # noqa: F401
from .summary_tensor_ops import SummaryDescription, TaggedRunMetadata, tensor_summary, text  # noqa: F401
from .summary_writer import (  # noqa: F401
    Event,
    FileWriter,
    FileWriterCache,
    HistogramProto,
    SessionLog,
    Summary,
    SummaryMetadata,
)
