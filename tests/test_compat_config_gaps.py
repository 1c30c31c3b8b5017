"""tf.compat's text/number helpers and forward-compatibility switch, tf.config's execution switches (helper
gapsa), checked against what TF 2.21 answers on a CPU-only machine (recorded by hand from /work/tfenv)."""

from __future__ import annotations

import numbers
import pathlib

import numpy as np
import pytest

import tinytf as tf


def test_text_conversions():
    c = tf.compat
    assert c.as_bytes("é") == b"\xc3\xa9" and c.as_bytes(bytearray(b"a")) == b"a"
    assert c.as_text(b"\xc3\xa9") == "é" and c.as_str(b"x") == "x" and c.as_str_any(5) == "5"
    assert c.as_bytes("é", "latin-1") == b"\xe9"
    with pytest.raises(TypeError, match="Expected binary or unicode string, got 5"):
        c.as_bytes(5)
    with pytest.raises(TypeError, match="Expected binary or unicode string"):
        c.as_text(5)
    assert c.path_to_str(pathlib.Path("/a/./b")) == "/a/b" and c.path_to_str(5) == 5


def test_type_tuples_classify_like_tf():
    c = tf.compat
    assert c.bytes_or_text_types == (bytes, str)
    assert isinstance(np.int8(1), c.integral_types) and not isinstance(1.5, c.integral_types)
    assert isinstance(np.float16(1), c.real_types) and isinstance(3, c.real_types)
    assert isinstance(1j, c.complex_types) and c.complex_types[0] is numbers.Complex


def test_dimensions():
    s = tf.TensorShape([3, None])
    assert tf.compat.dimension_value(s.dims[0]) == 3 and tf.compat.dimension_value(None) is None
    assert tf.compat.dimension_value(7) == 7
    assert tf.compat.dimension_at_index(s, 1).value is None
    assert tf.compat.dimension_at_index(tf.TensorShape(None), 4).value is None
    assert tf.compat.dimension_at_index([2, 5], 1).value == 5


def test_forward_compatibility_window():
    # TF 2.21's horizon is 2026-01-16
    assert tf.compat.forward_compatible(2026, 1, 15) and not tf.compat.forward_compatible(2026, 1, 16)
    with tf.compat.forward_compatibility_horizon(2030, 1, 1):
        assert tf.compat.forward_compatible(2029, 12, 31)
    assert not tf.compat.forward_compatible(2029, 12, 31)
    assert tf.compat.v2 is tf


def test_config_switches_round_trip():
    e = tf.config.experimental
    assert e.tensor_float_32_execution_enabled()
    e.enable_tensor_float_32_execution(False)
    assert not e.tensor_float_32_execution_enabled()
    e.enable_tensor_float_32_execution(True)
    assert e.get_device_policy() == "silent"
    e.set_device_policy("explicit")
    assert e.get_device_policy() == "explicit"
    e.set_device_policy(None)
    assert e.get_device_policy() == "silent"
    with pytest.raises(ValueError, match="Invalid argument `device_policy`: 'bad'"):
        e.set_device_policy("bad")
    assert e.get_synchronous_execution()
    e.set_synchronous_execution(False)
    assert not e.get_synchronous_execution()
    e.set_synchronous_execution(True)
    assert e.enable_mlir_bridge() is None and e.disable_mlir_bridge() is None


def test_jit_switch_reads_back_tf_strings():
    o = tf.config.optimizer
    assert o.get_jit() == ""
    o.set_jit(True)
    assert o.get_jit() == "autoclustering"
    o.set_jit(False)
    assert o.get_jit() == ""
    o.set_jit("autoclustering")
    assert o.get_jit() == "autoclustering"
    o.set_jit(False)


@pytest.mark.parametrize("fn", ["get_memory_info", "get_memory_usage"])
def test_memory_stats_raise_on_cpu_as_tf(fn):
    with pytest.raises(ValueError, match="Allocator stats not available for device 'CPU:0'"):
        getattr(tf.config.experimental, fn)("CPU:0")
    with pytest.raises(ValueError, match="No matching devices found for 'GPU:0'"):
        getattr(tf.config.experimental, fn)("GPU:0")
    with pytest.raises(ValueError, match="Failed parsing device name: 'foo'"):
        getattr(tf.config.experimental, fn)("foo")
    with pytest.raises(ValueError, match="Cannot reset memory stats for device 'CPU:0'"):
        tf.config.experimental.reset_memory_stats("CPU:0")


def test_cluster_device_filters():
    filters = tf.config.experimental.ClusterDeviceFilters()
    filters.set_device_filters("worker", 0, ["/job:ps"])
    assert filters._device_filters == {"worker": {0: ["/job:ps"]}}
