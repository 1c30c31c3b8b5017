"""TF1's session configuration messages (ConfigProto, GPUOptions, GraphOptions, OptimizerOptions, RunOptions,
RunMetadata) as objects that behave like TF's protocol buffers where TF1 programs touch them: fields with
proto defaults, settable (`config.gpu_options.allow_growth = True`), nested messages made on first read,
`device_count` a map, TF's errors for unknown fields, and the text format from str(). A Session takes them and
runs as it would without: there is no GPU, no placement and no thread pool to configure here."""

from __future__ import annotations


class _Message:
    """A protocol-buffer-like message: _FIELDS maps name -> default (a scalar, list, dict, or a message class)."""

    _FIELDS: dict = {}
    _ENUMS: dict = {}  # field -> {number: name}: the text format names enum values

    def __init__(self, **fields):
        object.__setattr__(self, "_values", {})
        for name, value in fields.items():
            if name not in self._FIELDS:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
            default = self._FIELDS[name]
            if isinstance(default, type):
                self._values[name] = value
            elif isinstance(default, dict):
                self._values[name] = dict(value)
            elif isinstance(default, list):
                self._values[name] = list(value)
            else:
                setattr(self, name, value)

    def __getattr__(self, name):
        fields = type(self)._FIELDS
        if name.startswith("_") or name not in fields:
            raise AttributeError(f'Protocol message {type(self).__name__} has no "{name}" field.')
        if name in self._values:
            return self._values[name]
        default = fields[name]
        if isinstance(default, (type, dict, list)):  # made on first read, and kept (as a proto's submessage)
            value = default() if isinstance(default, type) else type(default)()
            self._values[name] = value
            return value
        return default

    def __setattr__(self, name, value):
        default = type(self)._FIELDS.get(name, _Message)
        if default is _Message:
            raise AttributeError(f'Protocol message {type(self).__name__} has no "{name}" field.')
        if isinstance(default, (type, dict, list)):
            raise AttributeError(f'Assignment not allowed to message field "{name}" in protocol message object.')
        if isinstance(default, bool):
            value = bool(value)
        elif isinstance(default, (int, float)) and not isinstance(value, (int, float)):
            raise TypeError(f"{value!r} has type {type(value).__name__}, but expected one of: "
                            f"{type(default).__name__}")
        self._values[name] = value

    def HasField(self, name) -> bool:  # noqa: N802 - the protobuf name
        return name in self._values

    def CopyFrom(self, other) -> None:  # noqa: N802 - the protobuf name
        import copy

        object.__setattr__(self, "_values", copy.deepcopy(other._values))

    def __eq__(self, other):
        return type(self) is type(other) and str(self) == str(other)

    def __str__(self):
        return "".join(_text(self, ""))

    __repr__ = __str__


def _text(message, indent: str):
    """The protobuf text format of the fields set to something other than their default."""
    for name in message._FIELDS:
        if name not in message._values:
            continue
        value, default = message._values[name], message._FIELDS[name]
        if isinstance(default, type):
            inner = "".join(_text(value, indent + "  "))
            if inner or value._values:
                yield f"{indent}{name} {{\n{inner}{indent}}}\n"
        elif isinstance(default, dict):
            for key, item in value.items():
                yield f'{indent}{name} {{\n{indent}  key: "{key}"\n{indent}  value: {item}\n{indent}}}\n'
        elif isinstance(default, list):
            for item in value:
                yield f'{indent}{name}: "{item}"\n'
        elif value != default:
            enum = type(message)._ENUMS.get(name)
            text = ("true" if value else "false") if isinstance(value, bool) else (
                f'"{value}"' if isinstance(value, str) else enum.get(value, value) if enum else value)
            yield f"{indent}{name}: {text}\n"


class _Opaque(_Message):
    """A nested message of TF's that nothing here reads (experimental options, step statistics)."""


class OptimizerOptions(_Message):
    L1, L0 = 0, -1  # Level
    DEFAULT, OFF, ON_1, ON_2 = 0, -1, 1, 2  # GlobalJitLevel
    _ENUMS = {"opt_level": {0: "L1", -1: "L0"}, "global_jit_level": {0: "DEFAULT", -1: "OFF", 1: "ON_1", 2: "ON_2"}}
    _FIELDS = {"do_common_subexpression_elimination": False, "do_constant_folding": False,
               "max_folded_constant_in_bytes": 0, "do_function_inlining": False, "opt_level": 0,
               "global_jit_level": 0, "cpu_global_jit": False}


class GPUOptions(_Message):
    _FIELDS = {"per_process_gpu_memory_fraction": 0.0, "allow_growth": False, "allocator_type": "",
               "deferred_deletion_bytes": 0, "visible_device_list": "", "polling_active_delay_usecs": 0,
               "polling_inactive_delay_msecs": 0, "force_gpu_compatible": False, "experimental": _Opaque}


class GraphOptions(_Message):
    _FIELDS = {"enable_recv_scheduling": False, "optimizer_options": OptimizerOptions, "build_cost_model": 0,
               "build_cost_model_after": 0, "infer_shapes": False, "place_pruned_graph": False,
               "enable_bfloat16_sendrecv": False, "timeline_step": 0, "rewrite_options": _Opaque}


class ConfigProto(_Message):
    _FIELDS = {"device_count": {}, "intra_op_parallelism_threads": 0, "inter_op_parallelism_threads": 0,
               "use_per_session_threads": False, "session_inter_op_thread_pool": [], "placement_period": 0,
               "device_filters": [], "gpu_options": GPUOptions, "pluggable_device_options": GPUOptions,
               "allow_soft_placement": False, "log_device_placement": False, "graph_options": GraphOptions,
               "operation_timeout_in_ms": 0, "rpc_options": _Opaque, "cluster_def": _Opaque,
               "isolate_session_state": False, "share_cluster_devices_in_session": False, "experimental": _Opaque}


class RunOptions(_Message):
    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3  # TraceLevel
    _ENUMS = {"trace_level": {0: "NO_TRACE", 1: "SOFTWARE_TRACE", 2: "HARDWARE_TRACE", 3: "FULL_TRACE"}}
    _FIELDS = {"trace_level": 0, "timeout_in_ms": 0, "inter_op_thread_pool": 0, "output_partition_graphs": False,
               "debug_options": _Opaque, "report_tensor_allocations_upon_oom": False, "experimental": _Opaque}


class RunMetadata(_Message):
    """What a Session.run may fill in; tinytf's sessions leave it empty (no step statistics are kept)."""

    _FIELDS = {"step_stats": _Opaque, "cost_graph": _Opaque, "partition_graphs": [], "function_graphs": [],
               "session_metadata": _Opaque}
