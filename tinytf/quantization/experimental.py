"""tf.quantization.experimental: TF's post-training quantization of a SavedModel (an MLIR converter compiled into
TF) and its option messages. tinytf has no such converter: quantize_saved_model makes TF's checks (the SavedModel
exists; static-range quantization needs a representative dataset) and then raises NotImplementedError. The
option types are plain Python stand-ins for TF's protocol messages, with their field names and enum values, so
programs that build options run (fake quantization for QAT is tf.quantization.fake_quant_*)."""

from __future__ import annotations

import enum
import os


class _Message:
    _fields: dict = {}

    def __init__(self, **fields):
        for name, default in self._fields.items():
            setattr(self, name, fields.pop(name, default() if callable(default) else default))
        if fields:
            raise ValueError(f'Protocol message {type(self).__name__} has no "{next(iter(fields))}" field.')

    def __repr__(self):
        set_fields = {k: getattr(self, k) for k in self._fields if getattr(self, k) not in (None, [], 0, "")}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in set_fields.items())})"

    def __eq__(self, other):
        return type(other) is type(self) and all(getattr(self, k) == getattr(other, k) for k in self._fields)


class QuantizationMethod(_Message):
    class PresetMethod(enum.IntEnum):
        METHOD_UNSPECIFIED = 0
        METHOD_NO_QUANTIZE = 1
        METHOD_STATIC_RANGE_INT8 = 2
        METHOD_DYNAMIC_RANGE_INT8 = 3
        METHOD_STATIC_RANGE_WEIGHT_ONLY_INT8 = 4

    _fields = {"preset_method": 0, "quantization_component_specs": list}


class QuantizationComponentSpec(_Message):
    _fields = {"quantization_component": 0, "tensor_type": 0}


class UnitWiseQuantizationSpec(_Message):
    _fields = {"unit": list, "quantization_component_specs": list}


class QuantizationOptions(_Message):
    _fields = {"quantization_method": QuantizationMethod, "op_set": 0, "unit_wise_quantization_specs": list,
               "min_num_elements_for_weights": 0, "freeze_all_variables": False,
               "enable_per_channel_quantization": False, "enable_two_input_tensors": False,
               "experimental_enable_tpu_model_support": False, "enable_legacy_weight_only": False,
               "force_graph_mode_calibration": False, "tags": list, "signature_keys": list,
               "representative_datasets": dict, "calibration_options": None, "debugger_config": None}


class TfRecordRepresentativeDatasetSaver:
    """Saves representative datasets (signature key -> iterable of {input name: value}) to TFRecord files."""

    def __init__(self, path_map, expected_input_key_map=None):
        self.path_map = dict(path_map)
        self.expected_input_key_map = dict(expected_input_key_map or {})

    def save(self, representative_dataset):
        raise NotImplementedError("TfRecordRepresentativeDatasetSaver writes TF's RepresentativeDataSample protos, "
                                  "which only TF's quantizer reads; tinytf has no SavedModel quantizer")


def quantize_saved_model(saved_model_path, output_directory=None, quantization_options=None,
                         representative_dataset=None, *, overwrite_output_directory=False):
    """TF: quantize a SavedModel with the MLIR quantizer. tinytf checks the arguments as TF does, then raises."""
    path = os.fspath(saved_model_path)
    if not any(os.path.exists(os.path.join(path, name)) for name in ("saved_model.pb", "saved_model.pbtxt")):
        raise OSError(f"SavedModel file does not exist at: {path}/{{saved_model.pbtxt|saved_model.pb}}")
    method = getattr(getattr(quantization_options, "quantization_method", None), "preset_method", 0)
    static = method in (0, QuantizationMethod.PresetMethod.METHOD_STATIC_RANGE_INT8)
    if static and representative_dataset is None:
        raise ValueError("When `representative_dataset` is not provided, the model should be trained with "
                         "quantization-aware training (QAT).")
    raise NotImplementedError("quantize_saved_model needs TF's MLIR quantization converter, which tinytf does not "
                              "have (use tf.quantization.fake_quant_* for quantization-aware training)")
