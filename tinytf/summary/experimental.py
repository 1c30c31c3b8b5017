"""tf.summary.experimental: the default step, summary_scope and write_raw_pb."""

import contextlib
import re

import numpy as np
from tensorboard.compat.proto import summary_pb2

from .writer import state


def get_step():
    """The default step set by set_step (or a writer's as_default(step=...)), or None."""
    return state.step


def set_step(step):
    """Make `step` (an int, a tensor or a Variable, read at each write) the default step of this thread."""
    state.step = step


# --- summary_scope and write_raw_pb (helper gapsa) ---
_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


@contextlib.contextmanager
def summary_scope(name, default_name="summary", values=None):
    """A name scope for a summary op, yielding (tag, scope): the tag is the name under the enclosing name scopes
    (characters kept as given), the scope the name scope opened (its invalid characters dropped), as TF does."""
    from ..core_api import get_current_name_scope
    from ..scopes import name_scope

    name = name or default_name
    current = get_current_name_scope()
    tag = current + "/" + name if current else name
    name = _INVALID_SCOPE_CHARACTERS.sub("", name) or default_name
    with name_scope(name) as scope:
        yield tag, scope


def write_raw_pb(tensor, step=None, name=None):
    """Write serialized tf.compat.v1.Summary protos (a string tensor, each element one proto) to the default
    writer at `step`, merged into one event as TF's WriteRawProtoSummary does. Returns whether it wrote."""
    from tinytf.runtime.dtypes import string
    from tinytf.runtime.errors import DataLossError
    from tinytf.runtime.ops.summary import write_summary
    from tinytf.runtime.tensor import EagerTensor

    from ..constant import constant, convert_to_tensor
    from .summaries import _record, _step

    if state.writer is None:
        return constant(False)
    tensor = convert_to_tensor(tensor, string)
    if isinstance(tensor, EagerTensor):  # TF's kernel checks every proto before writing any
        for index, proto in enumerate(np.asarray(tensor.numpy(), dtype=object).reshape(-1)):
            try:
                summary_pb2.Summary().MergeFromString(proto)
            except Exception:  # noqa: BLE001 - protobuf's DecodeError (and friends, by implementation)
                raise DataLossError(f"Bad tf.compat.v1.Summary binary proto tensor string at index {index}") from None
    return write_summary(state.writer, "raw_pb", "", _step(step), tensor, _record(), {})
