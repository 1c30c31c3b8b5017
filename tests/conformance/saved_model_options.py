"""tf.saved_model's SaveOptions / LoadOptions (function aliases written and loaded back, extra tags, the
variable policy's checks), its constants and contains_saved_model, as TF 2.21 has them."""

from __future__ import annotations

import os
import tempfile

from . import program


@program
def p_saved_model_options_and_constants(tf):
    class M(tf.Module):
        @tf.function
        def f(self, x):
            return x * 2

    m = M()
    m.f.get_concrete_function(tf.TensorSpec([2]))
    m.f.get_concrete_function(tf.TensorSpec([3]))
    d = tempfile.mkdtemp()
    out = [tf.saved_model.contains_saved_model(d)]
    tf.saved_model.save(m, d, options=tf.saved_model.SaveOptions(function_aliases={"double": m.f}, extra_tags=["x"]))
    out.append(tf.saved_model.contains_saved_model(d))
    loaded = tf.saved_model.load(d, options=tf.saved_model.LoadOptions(experimental_load_function_aliases=True))
    doubled = loaded.function_aliases["double"](tf.constant([1.0, 2.0]))
    out += [sorted(loaded.function_aliases), doubled.numpy().tolist(),
            hasattr(tf.saved_model.load(d), "function_aliases")]
    options = tf.saved_model.SaveOptions(namespace_whitelist=["Custom"],
                                         experimental_variable_policy="save_variable_devices")
    out += [options.namespace_whitelist, str(options.experimental_variable_policy), options.function_aliases,
            options.save_debug_info, str(tf.saved_model.LoadOptions().experimental_variable_policy)]
    for bad in ({"experimental_variable_policy": "bogus"}, {"namespace_whitelist": "Custom"}):
        try:
            tf.saved_model.SaveOptions(**bad)
        except (TypeError, ValueError) as e:
            out.append([type(e).__name__, str(e)])
    names = ["ASSETS_DIRECTORY", "ASSETS_KEY", "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES",
             "CLASSIFY_OUTPUT_SCORES", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB", "DEFAULT_SERVING_SIGNATURE_DEF_KEY",
             "GPU", "PREDICT_INPUTS", "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS", "REGRESS_METHOD_NAME",
             "REGRESS_OUTPUTS", "SAVED_MODEL_FILENAME_PB", "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION",
             "SERVING", "TPU", "TRAINING", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME"]
    out.append({n: getattr(tf.saved_model, n) for n in names})
    out.append(os.path.isdir(os.path.join(d, tf.saved_model.VARIABLES_DIRECTORY)))
    return out
