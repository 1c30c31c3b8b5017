"""tf.DeviceSpec: a device name's parts (job, replica, task, device type and index), parsed from and printed
as TF's `/job:J/replica:R/task:T/device:TYPE:N`. Immutable and hashable, as TF 2's DeviceSpecV2."""

from __future__ import annotations

# TF's known device types: a bare `TYPE:N` part is recognised only for these (`device:X:N` takes any type).
_VALID_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPU"})


def _as_str_or_none(value):
    return None if value is None else str(value)


def _as_int_or_none(value):
    return None if value is None else int(value)


def _as_device_type(device_type):
    # TF keeps accepting the lowercase cpu/gpu of TF1 device strings, spelled upper
    return device_type.upper() if device_type in ("cpu", "gpu") else _as_str_or_none(device_type)


def _string_to_components(spec):
    job = replica = task = device_type = device_index = None
    spec = spec or ""
    for part in (x.split(":") for x in spec.split("/")):
        size = len(part)
        if size == 2 and part[0] == "job":
            job = part[1]
        elif size == 2 and part[0] == "replica":
            replica = part[1]
        elif size == 2 and part[0] == "task":
            task = part[1]
        elif size in (1, 2) and part[0].upper() in _VALID_DEVICE_TYPES:
            if device_type is not None:
                raise ValueError(f"Multiple device types are not allowed while parsing the device spec: {spec}.")
            device_type = part[0].upper()
            if size == 2 and part[1] != "*":
                device_index = int(part[1])
        elif size == 3 and part[0] == "device":
            if device_type is not None:
                raise ValueError(f"Multiple device types are not allowed while parsing the device spec: {spec}.")
            device_type = part[1]
            if part[2] != "*":
                device_index = int(part[2])
        elif size and part[0] != "":
            raise ValueError(f"Unknown attribute '{part[0]}' is encountered while parsing the device spec: "
                             f"'{spec}'.")
    return job, replica, task, device_type, device_index


def _components_to_string(job, replica, task, device_type, device_index) -> str:
    out = []
    if job is not None:
        out.append("/job:" + job)
    if replica is not None:
        out.append(f"/replica:{replica}")
    if task is not None:
        out.append(f"/task:{task}")
    if device_type is not None:
        out.append(f"/device:{device_type}:{'*' if device_index is None else device_index}")
    return "".join(out)


class DeviceSpec:
    """Represents a (possibly partial) specification for a TensorFlow device: `from_string` parses one,
    `to_string` prints it, `make_merged_spec` fills this spec's unset parts from another's set ones."""

    __slots__ = ("_job", "_replica", "_task", "_device_type", "_device_index", "_as_string", "_hash")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self._job = _as_str_or_none(job)
        self._replica = _as_int_or_none(replica)
        self._task = _as_int_or_none(task)
        self._device_type = _as_device_type(device_type)
        self._device_index = _as_int_or_none(device_index)
        self._as_string = _components_to_string(self._job, self._replica, self._task, self._device_type,
                                                self._device_index)
        self._hash = hash(self._as_string)

    def to_string(self) -> str:
        return self._as_string

    @classmethod
    def from_string(cls, spec):
        return cls(*_string_to_components(spec))

    def parse_from_string(self, spec):
        return self.from_string(spec)

    def make_merged_spec(self, dev):
        """A new spec: `dev`'s set fields, this spec's where `dev` leaves them unset."""
        return self.__class__(*(theirs if theirs is not None else mine
                                for theirs, mine in zip(dev._components(), self._components())))

    def replace(self, **kwargs):
        fields = dict(zip(("job", "replica", "task", "device_type", "device_index"), self._components()))
        fields.update(kwargs)
        return self.__class__(**fields)

    def _components(self):
        return self._job, self._replica, self._task, self._device_type, self._device_index

    job = property(lambda self: self._job)
    replica = property(lambda self: self._replica)
    task = property(lambda self: self._task)
    device_type = property(lambda self: self._device_type)
    device_index = property(lambda self: self._device_index)

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.to_string() == other.to_string()

    def __hash__(self):
        return self._hash

    def __repr__(self):
        return (f"<DeviceSpec(job={self.job}, replica={self.replica}, task={self.task}, "
                f"device_type={self.device_type}, device_index={self.device_index})>")
