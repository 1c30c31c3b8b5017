"""tf.device and tf.is_tensor. tinytf runs on the CPU: `tf.device("/GPU:0")` is accepted and places ops on
the CPU, as TF's soft placement does when no GPU is present."""

from __future__ import annotations

import contextlib

from tinytf.runtime.resource import Resource
from tinytf.runtime.tensor import Tensor


@contextlib.contextmanager
def device(device_name):
    """A placement scope: checked for TF's device-string syntax, then ignored (everything runs on the CPU)."""
    if callable(device_name):
        raise RuntimeError("tf.device does not support functions when eager execution is enabled.")
    if hasattr(device_name, "to_string"):  # a tf.DeviceSpec, as TF's tf.device takes it
        device_name = device_name.to_string()
    if device_name is not None:
        check_device_spec(str(device_name))
    yield


def check_device_spec(spec: str) -> None:
    """TF's DeviceSpec syntax: `/`-separated parts `job:NAME`, `replica:N`, `task:N`, `device:TYPE:N` or
    `TYPE:N` (the index may be `*` or left out, the type in either case); ValueError as TF's parser."""
    for part in spec.split("/"):
        if not part:
            continue
        fields = part.split(":")
        key = fields[0].lower()
        if key == "job" and len(fields) == 2:
            continue
        if key in ("replica", "task") and len(fields) == 2:
            int(fields[1])  # TF's ValueError for a bad number
            continue
        if key == "device":
            fields = fields[1:]
        if fields and fields[0].upper() in _DEVICE_TYPES and len(fields) <= 2:
            if len(fields) == 2 and fields[1] != "*":
                int(fields[1])
            continue
        raise ValueError(f"Unknown attribute '{fields[0] if fields else part}' is encountered while parsing the "
                         f"device spec: '{spec}'.")


_DEVICE_TYPES = ("CPU", "GPU", "TPU")


def is_tensor(x) -> bool:
    """True for tensors (eager or symbolic), variables and composite tensors (sparse, ragged); False for
    numpy arrays and Python values, as TF's tf.is_tensor."""
    return isinstance(x, (Tensor, Resource)) or hasattr(type(x), "_to_components")
