"""TF's "TensorFlow graph optimization with Grappler" guide: the option names of tf.config.optimizer and what
get_experimental_options reports, the debug stripper (check_numerics and Assert leave the graph), a chain of
products of one constant (folded: the value is what counts here), and get_concrete_function with a TensorSpec on a
function that has an input_signature (the SavedModel guide's cell)."""

import numpy as np

from . import program


def _with_options(tf, options, fn):
    old = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options(options)
    try:
        return fn()
    finally:
        tf.config.optimizer.set_experimental_options({**old, "debug_stripper": False, "constant_folding": True})


@program
def p_experimental_options_as_reported(tf):
    # the keys this program sets and the two TF always reports (others depend on what ran before in the process)
    mine = ["layout_optimizer", "constant_folding", "disable_model_pruning", "disable_meta_optimizer",
            "min_graph_nodes", "not_an_option"]
    options = _with_options(tf, {"constant_folding": False, "layout_optimizer": True, "min_graph_nodes": 5,
                                 "disable_meta_optimizer": False, "not_an_option": True},
                            tf.config.optimizer.get_experimental_options)
    return [[k, options[k]] for k in options if k in mine]


@program
def p_debug_stripper_removes_checks(tf):
    def make():
        @tf.function
        def simple_func(x):
            tf.debugging.check_numerics(x, "Bad!")
            return x * 2
        return simple_func

    out = []
    try:
        make()(tf.constant(float("inf")))
        out.append("no error")
    except tf.errors.InvalidArgumentError as e:
        out.append(["InvalidArgumentError", "Bad!" in str(e)])
    stripped = _with_options(tf, {"debug_stripper": True, "disable_meta_optimizer": False},
                             lambda: make()(tf.constant(float("inf"))))
    out.append(float(stripped.numpy()))
    return out


@program
def p_constant_product_chain(tf):
    def make():
        @tf.function
        def simple_function(x):
            a = tf.constant(np.linspace(-1, 1, 200 * 200).reshape(200, 200) / 100, dtype=tf.float32)
            c = a
            for _ in range(10):
                c = c @ a
            return tf.reduce_mean(c + x) * 1e6

        return simple_function

    folded = _with_options(tf, {"constant_folding": True}, lambda: make()(tf.constant(2.2)))
    plain = _with_options(tf, {"constant_folding": False}, lambda: make()(tf.constant(2.2)))
    return [round(float(folded.numpy()), -1), round(float(plain.numpy()), -1)]


@program
def p_concrete_function_of_a_spec_under_an_input_signature(tf):
    class CustomModuleWithOutputName(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0)

        @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
        def __call__(self, x):
            return {"custom_output_name": x * self.v}

    module = CustomModuleWithOutputName()
    call = module.__call__.get_concrete_function(tf.TensorSpec(None, tf.float32))
    out = [call is module.__call__.get_concrete_function(),
           call is module.__call__.get_concrete_function(tf.TensorSpec([3], tf.float32)),
           call(tf.constant([1.0, 2.0]))["custom_output_name"].numpy().tolist()]
    for spec in [tf.TensorSpec([3], tf.int32), tf.TensorSpec([2], tf.float64)]:
        try:
            module.__call__.get_concrete_function(spec)
            out.append("no error")
        except TypeError as e:
            out.append(["TypeError", "Can not cast" in str(e)])
    return out
