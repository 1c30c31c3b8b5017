"""Keras 3.15's quantized dtype policies: "<mode>_from_<source>" names (int8_from_float32,
int4/128_from_mixed_bfloat16, gptq/4/128_from_float32, awq/4/-1_from_float32, float8_from_float32), their mode
checks and messages, configs and equality. They describe a quantized layer; tinytf's layers have no quantized
kernels, so a layer given one refuses it (layer.py) rather than silently computing in float."""

from __future__ import annotations

from .dtype_policy import DTypePolicy, dtype_policy

QUANTIZATION_MODES = ("int8", "float8", "int4", "gptq", "awq")


class QuantizedDTypePolicy(DTypePolicy):
    """A quantization mode on top of a float policy (the source): compute and variable dtypes are the source's."""

    def __init__(self, mode, source_name=None):
        if source_name is None:
            source_name = dtype_policy().name
        self._compute_dtype, self._variable_dtype = self._parse_name(source_name)
        self._check_quantization_mode(mode, self._compute_dtype)
        self._name = f"{mode}_from_{source_name}"
        self._source_name = source_name
        self._quantization_mode = mode

    def _check_quantization_mode(self, mode, compute_dtype):
        if mode not in QUANTIZATION_MODES:
            raise ValueError(f"Invalid quantization mode. Expected one of {QUANTIZATION_MODES}. Received: mode={mode}")
        if compute_dtype == "float16" and mode == "int8":
            raise ValueError(f"Quantization mode='{mode}' doesn't work well with compute_dtype='float16'.")

    def __eq__(self, other):
        if not isinstance(other, DTypePolicy) or type(other) is not type(self) or self._name != other._name:
            return False
        return (self._quantization_mode == other._quantization_mode
                and self._source_name == other._source_name)

    def __hash__(self):
        return hash(self._name)

    def get_config(self) -> dict:
        return {"mode": self._quantization_mode, "source_name": self._source_name}


class QuantizedFloat8DTypePolicy(QuantizedDTypePolicy):
    """float8 quantization, with the length of the amax history its scales are computed from."""

    default_amax_history_length = 1024

    def __init__(self, mode, source_name=None, amax_history_length=1024):
        super().__init__(mode=mode, source_name=source_name)
        if not isinstance(amax_history_length, int):
            raise TypeError(f"`amax_history_length` must be an integer. Received: "
                            f"amax_history_length={amax_history_length}")
        self._amax_history_length = amax_history_length

    @property
    def amax_history_length(self):
        return self._amax_history_length

    def __eq__(self, other):
        return super().__eq__(other) and self._amax_history_length == other._amax_history_length

    __hash__ = QuantizedDTypePolicy.__hash__

    def get_config(self) -> dict:
        return {**super().get_config(), "amax_history_length": self.amax_history_length}


def _int_parts(mode, prefix, count, expected, what):
    parts = mode.split("/")
    if len(parts) != count or parts[0] != prefix:
        raise ValueError(f"Invalid mode for {what}. Expected format {expected}, but got '{mode}'.")
    try:
        return [int(p) for p in parts[1:]]
    except ValueError:
        names = "<block_size> must be an integer" if count == 2 else "<weight_bits> and <group_size> must be integers"
        raise ValueError(f"Invalid mode for {what}. {names}. Expected format {expected}, but got '{mode}'.") from None


class Int4DTypePolicy(QuantizedDTypePolicy):
    """int4 with a block size in its mode: "int4/<block_size>" (-1: per channel)."""

    def __init__(self, mode, source_name=None):
        (block_size,) = _int_parts(mode, "int4", 2, "'int4/<block_size>'", "Int4DTypePolicy")
        if block_size < -1 or block_size == 0:
            raise ValueError("Invalid block_size in mode. Supported values are -1 (per-channel) or a positive integer "
                             f"(sub-channel), but got {block_size} from '{mode}'.")
        super().__init__(mode="int4", source_name=source_name)
        self._name = f"{mode}_from_{source_name}"
        self.mode, self.block_size = "int4", block_size

    def __eq__(self, other):
        return super().__eq__(other) and self.block_size == other.block_size

    __hash__ = QuantizedDTypePolicy.__hash__

    def get_config(self) -> dict:
        return {**super().get_config(), "mode": f"{self.mode}/{self.block_size}"}


class _GroupedDTypePolicy(QuantizedDTypePolicy):
    """GPTQ and AWQ: "<method>/<weight_bits>/<group_size>" modes."""

    _PREFIX = ""
    _CLASS = ""

    def __init__(self, mode, source_name=None):
        bits, group_size = _int_parts(mode, self._PREFIX, 3, f"'{self._PREFIX}/<weight_bits>/<group_size>'",
                                      self._CLASS)
        self._check_bits(bits, mode)
        if group_size < -1 or group_size == 0:
            raise ValueError(f"Invalid group_size in mode. Supported values are {self._GROUP_WORDS} or a positive "
                             f"integer, but got {group_size} from '{mode}'.")
        super().__init__(mode=self._PREFIX, source_name=source_name)
        self._name = f"{mode}_from_{source_name}"
        self.mode, self.weight_bits, self.group_size = self._PREFIX, bits, group_size

    def __eq__(self, other):
        return (super().__eq__(other) and self.weight_bits == other.weight_bits
                and self.group_size == other.group_size)

    __hash__ = QuantizedDTypePolicy.__hash__

    def get_config(self) -> dict:
        return {**super().get_config(), "mode": f"{self.mode}/{self.weight_bits}/{self.group_size}"}


class GPTQDTypePolicy(_GroupedDTypePolicy):
    _PREFIX, _CLASS, _GROUP_WORDS = "gptq", "GPTQDTypePolicy", "-1 (whole-tensor)"

    def _check_bits(self, bits, mode):
        if bits not in (2, 3, 4, 8):
            raise ValueError(f"Invalid weight_bits in mode. Supported values are 2, 3, 4, and 8, but got {bits} from "
                             f"'{mode}'.")


class AWQDTypePolicy(_GroupedDTypePolicy):
    _PREFIX, _CLASS, _GROUP_WORDS = "awq", "AWQDTypePolicy", "-1 (per-channel)"

    def _check_bits(self, bits, mode):
        if bits != 4:
            raise ValueError(f"Invalid weight_bits in mode. AWQ only supports 4-bit quantization, but got {bits} from "
                             f"'{mode}'.")


def quantized_policy_from_name(policy: str) -> QuantizedDTypePolicy:
    """The policy a "<mode>_from_<source>" name stands for (Keras' _get_quantized_dtype_policy_by_str)."""
    split = policy.split("_from_")
    if len(split) != 2:
        raise ValueError("Cannot convert `policy` into a valid pair (`mode`, `source_name`) to instantiate "
                         f"`QuantizedDTypePolicy`. Received: policy={policy}")
    mode, source_name = split
    if policy.startswith("int4") and "/" in mode:
        return Int4DTypePolicy(mode, source_name)
    if policy.startswith("gptq"):
        return GPTQDTypePolicy(mode, source_name)
    if policy.startswith("awq"):
        return AWQDTypePolicy(mode, source_name)
    if policy.startswith("float8"):
        return QuantizedFloat8DTypePolicy(mode, source_name)
    return QuantizedDTypePolicy(mode, source_name)
