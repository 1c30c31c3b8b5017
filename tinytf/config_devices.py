"""tf.config's device and threading answers. tinytf computes on the CPU with numpy, so the process has one
physical device, `/physical_device:CPU:0`, and one logical device, `/device:CPU:0`; GPU queries answer with empty
lists, as TF does on a machine without GPUs. Visibility, memory growth and thread counts are recorded and
checked as TF checks them."""

from __future__ import annotations

import threading
from collections import namedtuple

from tinytf.runtime import chunked
from tinytf.runtime.errors import NotFoundError

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])
PhysicalDevice.__doc__ = "A physical device of this process (TF's tf.config.PhysicalDevice)."
LogicalDevice.__doc__ = "A device ops are placed on (TF's tf.config.LogicalDevice)."

_CPU = PhysicalDevice("/physical_device:CPU:0", "CPU")
_PHYSICAL = (_CPU,)
_lock = threading.Lock()
_visible = list(_PHYSICAL)
_threads = {"inter": 0, "intra": 0}  # 0: let the system choose (TF's default)
_soft_placement = [True]


def _of_type(devices, device_type):
    return [d for d in devices if device_type is None or d.device_type == device_type]


def list_physical_devices(device_type=None) -> list:
    """`tf.config.list_physical_devices`: the CPU (device types are compared exactly: "CPU", not "cpu")."""
    return _of_type(_PHYSICAL, device_type)


def get_visible_devices(device_type=None) -> list:
    with _lock:
        return _of_type(_visible, device_type)


def set_visible_devices(devices, device_type=None) -> None:
    """`tf.config.set_visible_devices`: which physical devices of `device_type` (all types when None) the
    process may use; the others of that type are hidden."""
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    for d in devices:
        if d not in _PHYSICAL:
            raise ValueError(f"Unrecognized device: {d!r}")
    with _lock:
        kept = [d for d in _visible if device_type is not None and d.device_type != device_type]
        _visible[:] = [d for d in _PHYSICAL if d in kept or (d in devices and
                                                            (device_type is None or d.device_type == device_type))]


class LogicalDeviceConfiguration(namedtuple("LogicalDeviceConfiguration",
                                            ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """`tf.config.LogicalDeviceConfiguration`: one logical device to make of a physical one. Splitting the
    CPU into N is how TF programs get N replicas of MirroredStrategy on one CPU; the fields matter for GPUs."""

    def __new__(cls, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority, experimental_device_ordinal)


_logical_config: dict = {}  # physical device -> its list of LogicalDeviceConfiguration (absent: one device)
_initialized = [False]  # the logical devices have been read: TF refuses to change them from then on


def set_logical_device_configuration(device, logical_devices) -> None:
    """`tf.config.set_logical_device_configuration`: split `device` into len(logical_devices) logical devices
    (`/device:CPU:0`, `/device:CPU:1`, ...), before the logical devices are first used, as TF requires."""
    _known(device)
    configs = list(logical_devices) if logical_devices is not None else None
    for config in configs or []:
        if not isinstance(config, LogicalDeviceConfiguration):
            raise ValueError(f"Unrecognized logical device configuration: {config!r}")
    with _lock:
        if configs != _logical_config.get(device) and _initialized[0]:
            raise RuntimeError("Virtual devices cannot be modified after being initialized")
        if configs:
            _logical_config[device] = configs
        else:
            _logical_config.pop(device, None)


def list_logical_devices(device_type=None) -> list:
    """`tf.config.list_logical_devices`: the logical devices of each visible physical device (one, or as many as
    set_logical_device_configuration split it into)."""
    with _lock:
        visible = list(_visible)
        _initialized[0] = True
        counts = {d: len(_logical_config.get(d, [None])) for d in visible}
    if device_type == "CPU" and not _of_type(visible, "CPU") or device_type is None and not visible:
        raise NotFoundError("No CPU devices are available in this process")
    return [LogicalDevice(f"/device:{d.device_type}:{i}", d.device_type)
            for d in _of_type(visible, device_type) for i in range(counts[d])]


def _known(device):
    if device not in _PHYSICAL:
        raise ValueError(f"Unrecognized device: {device!r}")


def set_memory_growth(device, enable) -> None:
    """`tf.config.experimental.set_memory_growth`: only GPUs grow their memory; the CPU is refused, as TF
    refuses it."""
    _known(device)
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def get_memory_growth(device):
    """`tf.config.experimental.get_memory_growth`: unknown for the CPU (TF raises KeyError)."""
    _known(device)
    raise KeyError(device)


def get_device_details(device) -> dict:
    _known(device)
    return {}


def get_logical_device_configuration(device):
    """The configurations set for `device`, or None when it was not split."""
    _known(device)
    with _lock:
        configs = _logical_config.get(device)
    return list(configs) if configs is not None else None


def get_inter_op_parallelism_threads() -> int:
    return _threads["inter"]


def set_inter_op_parallelism_threads(num_threads) -> None:
    """Recorded for TF programs that set it; tinytf runs independent ops one after another on the calling
    thread, and numpy's BLAS keeps its own thread count."""
    _threads["inter"] = int(num_threads)


def get_intra_op_parallelism_threads() -> int:
    return _threads["intra"]


def set_intra_op_parallelism_threads(num_threads) -> None:
    """Also the threads of large fused elementwise blocks (runtime/chunked.py); 0 goes back to the default."""
    _threads["intra"] = int(num_threads)
    chunked.set_num_threads(int(num_threads))


def get_soft_device_placement() -> bool:
    return _soft_placement[0]


def set_soft_device_placement(enabled) -> None:
    """Recorded only: placement on a missing device (tf.device("/GPU:0")) always falls back to the CPU."""
    _soft_placement[0] = bool(enabled)


class threading_options:  # noqa: N801 - reached as tf.config.threading
    get_inter_op_parallelism_threads = staticmethod(get_inter_op_parallelism_threads)
    set_inter_op_parallelism_threads = staticmethod(set_inter_op_parallelism_threads)
    get_intra_op_parallelism_threads = staticmethod(get_intra_op_parallelism_threads)
    set_intra_op_parallelism_threads = staticmethod(set_intra_op_parallelism_threads)


class experimental:  # noqa: N801 - reached as tf.config.experimental
    list_physical_devices = staticmethod(list_physical_devices)
    list_logical_devices = staticmethod(list_logical_devices)
    get_visible_devices = staticmethod(get_visible_devices)
    set_visible_devices = staticmethod(set_visible_devices)
    set_memory_growth = staticmethod(set_memory_growth)
    get_memory_growth = staticmethod(get_memory_growth)
    get_device_details = staticmethod(get_device_details)
    set_virtual_device_configuration = staticmethod(set_logical_device_configuration)  # the TF 2.0-2.2 names
    get_virtual_device_configuration = staticmethod(get_logical_device_configuration)
    VirtualDeviceConfiguration = LogicalDeviceConfiguration

    @staticmethod
    def enable_op_determinism() -> None:
        """tinytf's kernels are deterministic already (numpy on one thread per op)."""
