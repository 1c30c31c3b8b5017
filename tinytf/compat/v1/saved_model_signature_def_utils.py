"""tf.compat.v1.saved_model.signature_def_utils: SignatureDef protos for TF Serving's Predict, Classify and
Regress APIs (with TF 2.21's type checks and messages), a generic builder, and the servability check.
MethodNameUpdater (rewriting a saved signature's method name) is in saved_model_method_name_updater.py."""

from __future__ import annotations

from tensorboard.compat.proto import meta_graph_pb2, types_pb2

from . import saved_model_signature_constants as sc
from .saved_model_utils import build_tensor_info


def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    """A SignatureDef from name -> TensorInfo maps, a method name and defaults (name -> constant tensor)."""
    signature = meta_graph_pb2.SignatureDef()
    for key in inputs or {}:
        signature.inputs[key].CopyFrom(inputs[key])
    for key in outputs or {}:
        signature.outputs[key].CopyFrom(outputs[key])
    if method_name is not None:
        signature.method_name = method_name
    for name, default in (defaults or {}).items():
        op = getattr(default, "op", None)
        if op is None:  # an eager tensor: its value
            from ...tensor_proto import make_tensor_proto

            signature.defaults[name].CopyFrom(make_tensor_proto(default.numpy()))
        elif op.type == "Const":
            signature.defaults[name].CopyFrom(op.get_attr("value"))
        else:
            raise ValueError(f"Unable to convert object {default} of type {type(default)} to TensorProto.")
    return signature


def _is_graph_tensor(value) -> bool:
    from ...runtime.tensor import Tensor  # TF checks for any Tensor (graph or eager)

    return isinstance(value, Tensor)


def regression_signature_def(examples, predictions):
    """A Regress signature: serialized tf.Examples (a string tensor) in, float predictions out."""
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if not _is_graph_tensor(examples):
        raise ValueError(f"Expected regression `examples` to be of type Tensor. Found `examples` of type "
                         f"{type(examples)}.")
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    inputs = build_tensor_info(examples)
    if inputs.dtype != types_pb2.DT_STRING:
        raise ValueError(f"Regression input tensors must be of type string. Found tensors with type {inputs.dtype}.")
    outputs = build_tensor_info(predictions)
    if outputs.dtype != types_pb2.DT_FLOAT:
        raise ValueError(f"Regression output tensors must be of type float. Found tensors with type "
                         f"{outputs.dtype}.")
    return build_signature_def({sc.REGRESS_INPUTS: inputs}, {sc.REGRESS_OUTPUTS: outputs}, sc.REGRESS_METHOD_NAME)


def classification_signature_def(examples, classes, scores):
    """A Classify signature: serialized tf.Examples in, string classes and/or float scores out."""
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if not _is_graph_tensor(examples):
        raise ValueError(f"Classification `examples` must be a string Tensor. Found `examples` of type "
                         f"{type(examples)}.")
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    inputs = build_tensor_info(examples)
    if inputs.dtype != types_pb2.DT_STRING:
        raise ValueError(f"Classification input tensors must be of type string. Found tensors of type "
                         f"{inputs.dtype}")
    outputs = {}
    if classes is not None:
        info = build_tensor_info(classes)
        if info.dtype != types_pb2.DT_STRING:
            # TF's message ends with a stray backquote; kept so that messages match
            raise ValueError(f"Classification classes must be of type string Tensor. Found tensors of type "
                             f"{info.dtype}.`")
        outputs[sc.CLASSIFY_OUTPUT_CLASSES] = info
    if scores is not None:
        info = build_tensor_info(scores)
        if info.dtype != types_pb2.DT_FLOAT:
            raise ValueError("Classification scores must be a float Tensor.")
        outputs[sc.CLASSIFY_OUTPUT_SCORES] = info
    return build_signature_def({sc.CLASSIFY_INPUTS: inputs}, outputs, sc.CLASSIFY_METHOD_NAME)


def predict_signature_def(inputs, outputs):
    """A Predict signature: any named input and output tensors."""
    if inputs is None or not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if outputs is None or not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({key: build_tensor_info(t) for key, t in inputs.items()},
                               {key: build_tensor_info(t) for key, t in outputs.items()}, sc.PREDICT_METHOD_NAME)


def _valid_predict(sig) -> bool:
    return sig.method_name == sc.PREDICT_METHOD_NAME and bool(sig.inputs) and bool(sig.outputs)


def _valid_regression(sig) -> bool:
    return (sig.method_name == sc.REGRESS_METHOD_NAME and set(sig.inputs) == {sc.REGRESS_INPUTS}
            and sig.inputs[sc.REGRESS_INPUTS].dtype == types_pb2.DT_STRING
            and set(sig.outputs) == {sc.REGRESS_OUTPUTS}
            and sig.outputs[sc.REGRESS_OUTPUTS].dtype == types_pb2.DT_FLOAT)


def _valid_classification(sig) -> bool:
    if sig.method_name != sc.CLASSIFY_METHOD_NAME or set(sig.inputs) != {sc.CLASSIFY_INPUTS}:
        return False
    if sig.inputs[sc.CLASSIFY_INPUTS].dtype != types_pb2.DT_STRING:
        return False
    if not sig.outputs or set(sig.outputs) - {sc.CLASSIFY_OUTPUT_CLASSES, sc.CLASSIFY_OUTPUT_SCORES}:
        return False
    wanted = {sc.CLASSIFY_OUTPUT_CLASSES: types_pb2.DT_STRING, sc.CLASSIFY_OUTPUT_SCORES: types_pb2.DT_FLOAT}
    return all(sig.outputs[key].dtype == dtype for key, dtype in wanted.items() if key in sig.outputs)


def is_valid_signature(signature_def) -> bool:
    """Whether TF Serving can serve the SignatureDef (a well-formed Classify, Regress or Predict signature)."""
    if signature_def is None:
        return False
    return (_valid_classification(signature_def) or _valid_regression(signature_def)
            or _valid_predict(signature_def))


__all__ = ["build_signature_def", "classification_signature_def", "is_valid_signature", "predict_signature_def",
           "regression_signature_def"]
