"""tf.config.experimental's execution switches (TensorFloat-32, device policy, synchronous execution, the MLIR
bridge, memory statistics) and tf.config.optimizer's JIT switch, as TF 2.21 answers them on a CPU-only machine.

tinytf computes in numpy on the host: TF32 never applies, ops always run synchronously in program order and
there is no XLA or MLIR bridge. The switches are still kept and reported back as TF does, so programs that set
and read them run unchanged; the memory functions raise TF's ValueError (TF has no allocator stats on the CPU).
"""

from __future__ import annotations

import logging

from tinytf.device_spec import DeviceSpec

_state = {"tf32": True, "device_policy": "silent", "synchronous": True, "jit": "", "mlir_bridge": None}
_DEVICE_POLICIES = ("warn", "explicit", "silent", "silent_for_int32")


def enable_tensor_float_32_execution(enabled: bool) -> None:
    """TF32 matmuls/convs on Ampere GPUs. Kept as a setting: numpy on the CPU always computes in full float32."""
    _state["tf32"] = bool(enabled)


def tensor_float_32_execution_enabled() -> bool:
    return _state["tf32"]


def set_device_policy(device_policy) -> None:
    """How inputs on the wrong device are copied: 'silent' (TF's default), 'warn', 'explicit',
    'silent_for_int32'; None restores the default. Everything is on the CPU here, so no copy is ever needed."""
    if device_policy is None:
        device_policy = "silent"
    if device_policy not in _DEVICE_POLICIES:
        raise ValueError(
            f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
            "https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_device_policy for valid "
            "`device_policy` arguments.")
    _state["device_policy"] = device_policy


def get_device_policy() -> str:
    return _state["device_policy"]


def set_synchronous_execution(enable: bool) -> None:
    """TF's async eager mode: kept as a setting (tinytf's kernels return when done, so both modes agree)."""
    _state["synchronous"] = bool(enable)


def get_synchronous_execution() -> bool:
    return _state["synchronous"]


def enable_mlir_bridge() -> None:
    """TF's MLIR bridge for TPU/XLA graph lowering: nothing to lower here; recorded like TF records it."""
    _state["mlir_bridge"] = True


def disable_mlir_bridge() -> None:
    _state["mlir_bridge"] = False


def _checked_device(device: str) -> str:
    """The device type named by `device`, with TF's errors for unparsable or absent devices."""
    try:
        spec = DeviceSpec.from_string(device)
    except (ValueError, TypeError):
        spec = None
    if spec is None or spec.device_type is None or spec.device_index is None:
        raise ValueError(
            f"Failed parsing device name: '{device}'. Note a valid device string should at least contain a "
            'device type and a device index, like "GPU:0".')
    if spec.device_type.upper() != "CPU" or spec.device_index != 0:
        raise ValueError(f"No matching devices found for '{device}'")
    return "CPU"


def get_memory_info(device: str) -> dict:
    """TF tracks allocator statistics only for GPUs and TPUs: on the CPU it raises, and so does tinytf."""
    _checked_device(device)
    raise ValueError(f"Allocator stats not available for device '{device}'")


def get_memory_usage(device: str) -> int:
    logging.getLogger("tensorflow").warning(
        "get_memory_usage (from tensorflow.python.framework.config) is deprecated and will be removed in a "
        "future version.\nInstructions for updating:\nUse tf.config.experimental.get_memory_info(device)"
        "['current'] instead.")
    return get_memory_info(device)["current"]


def reset_memory_stats(device: str) -> None:
    _checked_device(device)
    raise ValueError(f"Cannot reset memory stats for device '{device}'")


def set_jit(enabled) -> None:
    """XLA auto-clustering: True or 'autoclustering' turns it on, False off (TF's values). tinytf has no XLA;
    per-function `jit_compile=` is accepted by tf.function and compiles to Python as always."""
    if enabled is True or enabled == "autoclustering":
        _state["jit"] = "autoclustering"
    elif enabled is False or enabled == "":
        _state["jit"] = ""
    else:
        raise ValueError(f"Invalid value for `enabled`: {enabled!r}. It must be True, False or 'autoclustering'.")


def get_jit() -> str:
    """'' when off, 'autoclustering' when on (TF 2.21 returns a string)."""
    return _state["jit"]


class ClusterDeviceFilters:
    """Which devices each task of a cluster may see: device filters by job name and task index, which
    tf.config.experimental_connect_to_cluster sends to the servers."""

    def __init__(self):
        self._device_filters: dict = {}

    def set_device_filters(self, job_name: str, task_index: int, device_filters) -> None:
        if not all(isinstance(f, str) for f in device_filters):
            raise AssertionError("Device filters must be strings.")
        self._device_filters.setdefault(job_name, {})[task_index] = list(device_filters)

    def __repr__(self):
        return f"ClusterDeviceFilters({self._device_filters})"
