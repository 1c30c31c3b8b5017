"""keras.quantizers' QuantizationConfig classes as Keras 3.15 has them: Int8QuantizationConfig (weights and,
by default, activations quantized by AbsMaxQuantizer), Int4QuantizationConfig (a block size; custom quantizers
only per channel), Float8QuantizationConfig, and the GPTQ / AWQ configs (their hyper-parameters; a calibration
dataset and tokenizer, left out of configs), with Keras' checks, messages, configs and modes.

They are what `Layer.quantize(mode, config=...)` takes in Keras; tinytf's layers have no quantized kernels and no
quantize(), so here they are configuration objects only."""

from __future__ import annotations


def _quantizers():
    from . import quantizers  # quantizers.py imports this module's names for keras.quantizers
    return quantizers


def _serialize(quantizer):
    return None if quantizer is None else _quantizers().serialize(quantizer)


def _deserialize(config):
    return None if config is None else _quantizers().deserialize(config)


class QuantizationConfig:
    """The base: a weight quantizer and an activation quantizer (None: the mode's defaults / none)."""

    def __init__(self, weight_quantizer=None, activation_quantizer=None):
        self.weight_quantizer = weight_quantizer
        self.activation_quantizer = activation_quantizer

    @property
    def mode(self):
        raise NotImplementedError("Subclasses must implement this property. Do not instantiate QuantizationConfig "
                                  "directly.")

    def get_config(self) -> dict:
        return {"weight_quantizer": _serialize(self.weight_quantizer),
                "activation_quantizer": _serialize(self.activation_quantizer)}

    @classmethod
    def from_config(cls, config):
        return cls(weight_quantizer=_deserialize(config.get("weight_quantizer")),
                   activation_quantizer=_deserialize(config.get("activation_quantizer")))

    @staticmethod
    def weight_quantizer_or_default(config, default):
        if config is not None and config.weight_quantizer is not None:
            return config.weight_quantizer
        return default

    @staticmethod
    def activation_quantizer_or_default(config, default):
        if config is not None:
            return config.activation_quantizer
        return default


class Int8QuantizationConfig(QuantizationConfig):
    def __init__(self, weight_quantizer=None, activation_quantizer="default"):
        if activation_quantizer == "default":
            activation_quantizer = _quantizers().AbsMaxQuantizer()
        super().__init__(weight_quantizer, activation_quantizer)
        if self.weight_quantizer is not None and self.weight_quantizer.output_dtype != "int8":
            raise ValueError("Int8QuantizationConfig requires a weight_quantizer with output_dtype='int8'. Received: "
                             f"output_dtype={self.weight_quantizer.output_dtype}")

    @property
    def mode(self):
        return "int8"


class Int4QuantizationConfig(QuantizationConfig):
    def __init__(self, weight_quantizer=None, activation_quantizer="default", block_size=128):
        if activation_quantizer == "default":
            activation_quantizer = None
        super().__init__(weight_quantizer, activation_quantizer)
        if block_size is not None and block_size != -1 and block_size <= 0:
            raise ValueError(f"block_size must be None, -1, or a positive integer. Received: block_size={block_size}")
        self.block_size = block_size
        sub_channel = block_size is not None and block_size > 0
        if sub_channel and (self.weight_quantizer is not None or self.activation_quantizer is not None):
            raise ValueError("Int4 sub-channel quantization (block_size > 0) does not support custom quantizers. "
                             "Either set block_size to None or -1 for per-channel quantization, or remove the custom "
                             f"quantizer arguments. Received: block_size={block_size}")
        if self.weight_quantizer is not None:
            if tuple(self.weight_quantizer.value_range) != (-8, 7):
                raise ValueError("Int4QuantizationConfig requires a weight_quantizer with value_range=(-8, 7). "
                                 f"Received: value_range={self.weight_quantizer.value_range}")
            if self.weight_quantizer.output_dtype != "int8":
                raise ValueError("Int4QuantizationConfig requires a weight_quantizer with output_dtype='int8'. "
                                 f"Received: output_dtype={self.weight_quantizer.output_dtype}")

    @property
    def mode(self):
        return "int4"

    def get_config(self) -> dict:
        return {**super().get_config(), "block_size": self.block_size}

    @classmethod
    def from_config(cls, config):
        return cls(weight_quantizer=_deserialize(config.get("weight_quantizer")),
                   activation_quantizer=_deserialize(config.get("activation_quantizer")),
                   block_size=config.get("block_size", None))


class Float8QuantizationConfig(QuantizationConfig):
    def __init__(self):
        super().__init__(None, None)

    @property
    def mode(self):
        return "float8"

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config):
        return cls()


def _check_common(num_samples, sequence_length, group_size, group_words):
    if num_samples <= 0:
        raise ValueError("num_samples must be a positive integer.")
    if sequence_length <= 0:
        raise ValueError("sequence_length must be a positive integer.")
    if group_size < -1 or group_size == 0:
        raise ValueError(f"Invalid group_size. Supported values are {group_words} or a positive integer, but got "
                         f"{group_size}.")


class GPTQConfig(QuantizationConfig):
    """GPTQ's settings: bits per weight, calibration samples and their length, Hessian damping, groups."""

    def __init__(self, dataset, tokenizer, *, weight_bits=4, num_samples=128, per_channel=True, sequence_length=512,
                 hessian_damping=0.01, group_size=128, symmetric=False, activation_order=False,
                 quantization_layer_structure=None):
        super().__init__()
        if weight_bits not in (2, 3, 4, 8):
            raise ValueError(f"Unsupported weight_bits {weight_bits}. Supported values are 2, 3, 4, and 8.")
        if num_samples <= 0:
            raise ValueError("num_samples must be a positive integer.")
        if sequence_length <= 0:
            raise ValueError("sequence_length must be a positive integer.")
        if hessian_damping < 0 or hessian_damping > 1:
            raise ValueError("hessian_damping must be between 0 and 1.")
        _check_common(num_samples, sequence_length, group_size, "-1 (whole-tensor)")
        self.dataset, self.tokenizer = dataset, tokenizer
        self.num_samples, self.per_channel, self.sequence_length = num_samples, per_channel, sequence_length
        self.hessian_damping, self.weight_bits, self.group_size = hessian_damping, weight_bits, group_size
        self.symmetric, self.activation_order = symmetric, activation_order
        self.quantization_layer_structure = quantization_layer_structure

    def get_config(self) -> dict:
        return {"dataset": None, "tokenizer": None, "weight_bits": self.weight_bits, "num_samples": self.num_samples,
                "per_channel": self.per_channel, "sequence_length": self.sequence_length,
                "hessian_damping": self.hessian_damping, "group_size": self.group_size, "symmetric": self.symmetric,
                "activation_order": self.activation_order,
                "quantization_layer_structure": self.quantization_layer_structure}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    @property
    def mode(self):
        return "gptq"

    def dtype_policy_string(self):
        return f"gptq/{self.weight_bits}/{self.group_size}"


class AWQConfig(QuantizationConfig):
    """AWQ's settings: 4-bit weights, calibration samples, groups and the grid of scales searched."""

    def __init__(self, dataset, tokenizer, *, weight_bits=4, num_samples=128, sequence_length=512, group_size=128,
                 num_grid_points=20, quantization_layer_structure=None):
        super().__init__()
        if weight_bits != 4:
            raise ValueError(f"AWQ only supports 4-bit quantization. Received weight_bits={weight_bits}.")
        _check_common(num_samples, sequence_length, group_size, "-1 (per-channel)")
        if num_grid_points <= 0:
            raise ValueError("num_grid_points must be a positive integer.")
        self.dataset, self.tokenizer = dataset, tokenizer
        self.weight_bits, self.num_samples, self.sequence_length = weight_bits, num_samples, sequence_length
        self.group_size, self.num_grid_points = group_size, num_grid_points
        self.quantization_layer_structure = quantization_layer_structure

    @property
    def mode(self):
        return "awq"

    def dtype_policy_string(self):
        return f"awq/{self.weight_bits}/{self.group_size}"

    def get_config(self) -> dict:
        return {"dataset": None, "tokenizer": None, "weight_bits": self.weight_bits, "num_samples": self.num_samples,
                "sequence_length": self.sequence_length, "group_size": self.group_size,
                "num_grid_points": self.num_grid_points,
                "quantization_layer_structure": self.quantization_layer_structure}

    @classmethod
    def from_config(cls, config):
        return cls(**config)
