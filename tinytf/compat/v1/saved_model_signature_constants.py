"""tf.compat.v1.saved_model.signature_constants: TF Serving's signature keys and method names (TF 2.21's
values, from tinytf.saved_model.constants: a SignatureDef's method_name selects Predict, Classify or Regress)."""

from ...saved_model.constants import (
                                      CLASSIFY_INPUTS,
                                      CLASSIFY_METHOD_NAME,
                                      CLASSIFY_OUTPUT_CLASSES,
                                      CLASSIFY_OUTPUT_SCORES,
                                      DEFAULT_SERVING_SIGNATURE_DEF_KEY,
                                      PREDICT_INPUTS,
                                      PREDICT_METHOD_NAME,
                                      PREDICT_OUTPUTS,
                                      REGRESS_INPUTS,
                                      REGRESS_METHOD_NAME,
                                      REGRESS_OUTPUTS,
)

__all__ = ["DEFAULT_SERVING_SIGNATURE_DEF_KEY", "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES",
           "CLASSIFY_OUTPUT_SCORES", "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS",
           "REGRESS_METHOD_NAME", "REGRESS_OUTPUTS"]
