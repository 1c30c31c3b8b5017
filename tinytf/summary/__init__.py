"""tf.summary: TensorBoard event files written eagerly or from inside `tf.function` graphs."""

from . import experimental  # noqa: F401
from .graph_and_write import graph, write  # noqa: F401
from .summaries import audio, histogram, image, record_if, scalar, should_record_summaries, text  # noqa: F401
from .trace import trace_export, trace_off, trace_on  # noqa: F401
from .writer import SummaryWriter, create_file_writer, create_noop_writer, state  # noqa: F401


def flush(writer=None, name=None):
    """Flush `writer` (the default writer when None)."""
    writer = writer or state.writer
    if writer is not None:
        writer.flush()
