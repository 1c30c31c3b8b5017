"""tf.debugging.experimental.enable_dump_debug_info / disable_dump_debug_info (helper gapsa): TF's DebugEvent
files for eager executions, read back by tinytf.debug_dump.describe. tests/debug_dump_data holds the metadata
and execution files TF 2.21 wrote for `y = tf.constant([1., 2.]) * 2 + 1` under FULL_TENSOR (one Mul, one
AddV2), which describe() must read as it reads tinytf's own."""

from __future__ import annotations

import os

import numpy as np
import pytest

import tinytf as tf
from tinytf.debug_dump import describe

HERE = os.path.dirname(os.path.abspath(__file__))


def _program():
    x = tf.constant([1.0, 2.0])
    return x * 2 + 1


def test_full_tensor_dump_matches_tfs(tmp_path):
    tf.debugging.experimental.enable_dump_debug_info(str(tmp_path), tensor_debug_mode="FULL_TENSOR",
                                                     circular_buffer_size=-1)
    try:
        _program()
    finally:
        tf.debugging.experimental.disable_dump_debug_info()
    _program()  # after disable: not dumped
    ours, theirs = describe(tmp_path), describe(os.path.join(HERE, "debug_dump_data"))
    names = sorted(f.rsplit(".", 1)[-1] for f in os.listdir(tmp_path))
    assert names == sorted(["execution", "graph_execution_traces", "graphs", "metadata", "source_files",
                            "stack_frames"])
    assert ours["metadata"]["file_version"] == theirs["metadata"]["file_version"] == "debug.Event:1"
    assert theirs["metadata"]["tensorflow_version"] == "2.21.0"
    for mine, tfs in zip(ours["executions"], theirs["executions"], strict=True):
        for field in ("op_type", "num_outputs", "input_tensor_ids", "output_tensor_ids", "tensor_debug_mode"):
            assert mine[field] == tfs[field], field
        for a, b in zip(mine["tensors"], tfs["tensors"], strict=True):
            np.testing.assert_array_equal(a, b)


def test_no_tensor_mode_circular_buffer_and_filters(tmp_path):
    tf.debugging.experimental.enable_dump_debug_info(str(tmp_path), circular_buffer_size=2)
    try:
        x = tf.constant([1.0])
        for _ in range(5):
            x = x + 1
        tf.matmul([[1.0]], [[2.0]])
    finally:
        tf.debugging.experimental.disable_dump_debug_info()
    executions = describe(tmp_path)["executions"]
    assert [e["op_type"] for e in executions] == ["AddV2", "MatMul"]  # the buffer keeps the last two
    assert all(e["tensor_debug_mode"] == "NO_TENSOR" and not e["tensors"] for e in executions)


def test_modes_checked_like_tf(tmp_path):
    with pytest.raises(ValueError, match=r"Invalid value in tensor_debug_mode \('BAD'\)"):
        tf.debugging.experimental.enable_dump_debug_info(str(tmp_path), tensor_debug_mode="BAD")
    with pytest.raises(NotImplementedError, match="CURT_HEALTH"):
        tf.debugging.experimental.enable_dump_debug_info(str(tmp_path), tensor_debug_mode="CURT_HEALTH")
    tf.debugging.experimental.disable_dump_debug_info()  # when none is on: nothing to do, as TF
