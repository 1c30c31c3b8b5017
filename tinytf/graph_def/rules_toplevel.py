"""Export rules for the top level's leftovers and tf.quantization's fake quantization: each tinytf op is one TF
op (GuaranteeConst, EditDistance, FakeQuantWithMinMax{Args,Vars,VarsPerChannel} and their *Gradient ops), with
TF's attributes. rules_more.py merges RULES and TF_NAMES into its tables; OUTPUT_ARGS and SEPARATE_OUTPUTS (TF's
output argument names) go into export.py's tables; this module imports neither."""

from __future__ import annotations

from . import protos as p


def _guarantee_const(n, const):
    return "GuaranteeConst", list(n.refs), {"T": p.attr_type(n.inputs[0].dtype)}


def _edit_distance(n, const):
    return "EditDistance", list(n.refs), {"normalize": p.attr(bool(n.attrs["normalize"])),
                                          "T": p.attr_type(n.inputs[1].dtype)}


def _bits(n):
    return {"num_bits": p.attr(int(n.attrs["num_bits"])), "narrow_range": p.attr(bool(n.attrs["narrow_range"]))}


def _args(tf_op):
    def rule(n, const):
        return tf_op, list(n.refs), {"min": p.attr(float(n.attrs["min"])), "max": p.attr(float(n.attrs["max"])),
                                     **_bits(n)}

    return rule


def _vars(tf_op):
    def rule(n, const):
        return tf_op, list(n.refs), _bits(n)

    return rule


def _vars_gradient(n, const):
    # one tinytf op for both: a per-channel range is a vector
    low = n.inputs[2]._shape
    per_channel = low is None or len(low) == 1
    return ("FakeQuantWithMinMaxVarsPerChannelGradient" if per_channel else "FakeQuantWithMinMaxVarsGradient"), \
        list(n.refs), _bits(n)


def _random_index_shuffle(n, const):
    return "RandomIndexShuffle", list(n.refs), {"rounds": p.attr(int(n.attrs["rounds"])),
                                                "dtype": p.attr_type(n.inputs[0].dtype),
                                                "Tseed": p.attr_type(n.inputs[1].dtype)}


def _quantize_and_dequantize(tf_op):
    def rule(n, const):
        a = n.attrs
        return tf_op, list(n.refs), {"signed_input": p.attr(bool(a["signed_input"])),
                                     "num_bits": p.attr(int(a["num_bits"])),
                                     "range_given": p.attr(bool(a["range_given"])),
                                     "round_mode": p.attr(str(a["round_mode"])),
                                     "narrow_range": p.attr(bool(a["narrow_range"])), "axis": p.attr(int(a["axis"])),
                                     "T": p.attr_type(n.inputs[0].dtype)}

    return rule


def _quantize_and_dequantize_grad(n, const):
    return "QuantizeAndDequantizeV4Grad", list(n.refs), {"axis": p.attr(int(n.attrs["axis"])),
                                                         "T": p.attr_type(n.inputs[0].dtype)}


_QDQ = {"quantize_and_dequantize_v2": "QuantizeAndDequantizeV2",
        "quantize_and_dequantize_v4": "QuantizeAndDequantizeV4",
        "quantize_and_dequantize_v4_grad": "QuantizeAndDequantizeV4Grad"}
TF_NAMES = {**_QDQ, "random_index_shuffle": "RandomIndexShuffle",
            "guarantee_const": "GuaranteeConst", "edit_distance": "EditDistance",
            "fake_quant_with_min_max_args": "FakeQuantWithMinMaxArgs",
            "fake_quant_with_min_max_args_gradient": "FakeQuantWithMinMaxArgsGradient",
            "fake_quant_with_min_max_vars": "FakeQuantWithMinMaxVars",
            "fake_quant_with_min_max_vars_per_channel": "FakeQuantWithMinMaxVarsPerChannel",
            "fake_quant_with_min_max_vars_gradient": "FakeQuantWithMinMaxVarsGradient"}
RULES = {"quantize_and_dequantize_v2": _quantize_and_dequantize("QuantizeAndDequantizeV2"),
         "quantize_and_dequantize_v4": _quantize_and_dequantize("QuantizeAndDequantizeV4"),
         "quantize_and_dequantize_v4_grad": _quantize_and_dequantize_grad,
         "random_index_shuffle": _random_index_shuffle,
         "guarantee_const": _guarantee_const, "edit_distance": _edit_distance,
         "fake_quant_with_min_max_args": _args("FakeQuantWithMinMaxArgs"),
         "fake_quant_with_min_max_args_gradient": _args("FakeQuantWithMinMaxArgsGradient"),
         "fake_quant_with_min_max_vars": _vars("FakeQuantWithMinMaxVars"),
         "fake_quant_with_min_max_vars_per_channel": _vars("FakeQuantWithMinMaxVarsPerChannel"),
         "fake_quant_with_min_max_vars_gradient": _vars_gradient}
OUTPUT_ARGS = {"RandomIndexShuffle": "output",
               "FakeQuantWithMinMaxArgs": "outputs", "FakeQuantWithMinMaxArgsGradient": "backprops",
               "FakeQuantWithMinMaxVars": "outputs", "FakeQuantWithMinMaxVarsPerChannel": "outputs"}
SEPARATE_OUTPUTS = {name: ("backprops_wrt_input", "backprop_wrt_min", "backprop_wrt_max")
                    for name in ("FakeQuantWithMinMaxVarsGradient", "FakeQuantWithMinMaxVarsPerChannelGradient")}
SEPARATE_OUTPUTS["QuantizeAndDequantizeV4Grad"] = ("input_backprop", "input_min_backprop", "input_max_backprop")
UNEXPORTED = {name: "tf.CriticalSection's lock: TF's graph holds a MutexV2 resource, a MutexLock whose "
                    "variant lock the body's outputs consume (ConsumeMutexLock) and an identity per output; "
                    "tinytf's lock and unlock ops keep no variant lock a GraphDef could carry; not written"
              for name in ("critical_section_lock", "critical_section_unlock")}
# TF's quantized dtypes (helper toplvl2): TF's QuantizeV2 / Dequantize / QuantizedConcat nodes are not written yet
# (their export would need a run by TF 2.21 through tools/check_tf_runs_exported_ops.py, not done this session)
UNEXPORTED.update({name: "TF's quantized-dtype ops (QuantizeV2, Dequantize, QuantizedConcat): no GraphDef rule "
                         "written yet; a graph holding one refuses to export, naming the op"
                   for name in ("quantize_v2", "dequantize", "quantized_concat")})
UNEXPORTED["sobol_sample"] = ("TF's SobolSample: no GraphDef rule written yet (helper toplvl2); a graph holding one "
                              "refuses to export, naming the op")
UNEXPORTED.update({name: "TF1's quantized nn ops (QuantizedMaxPool, QuantizedAvgPool, QuantizedConv2D): no GraphDef "
                         "rule written yet (helper toplvl2)"
                   for name in ("quantized_max_pool", "quantized_avg_pool", "quantized_conv2d")})
