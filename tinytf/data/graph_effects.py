"""Effects of a whole dataset (TFRecordWriter.write, Dataset.save) inside a tf.function: TF's ops for them run
when the graph runs, each call, on the dataset the call's tensors make. Here the effect is a py_function node
taking the dataset's variant (bound to the graph's tensors when it runs); eagerly it happens now."""

from __future__ import annotations

from tinytf.runtime.context import state
from tinytf.runtime.ops.py_function import py_function


def when_run(effect, dataset) -> None:
    """effect(dataset) now (eager), or each time the graph being traced runs."""
    if state.graph is None:
        effect(dataset)
        return None
    from .symbolic import as_variant

    def run(variant):
        effect(variant._value[()])
        return []

    py_function(run, [as_variant(dataset)], [])
    return None
