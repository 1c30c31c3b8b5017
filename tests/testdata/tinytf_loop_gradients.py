"""tinytf's side of the loop-gradient SavedModels TensorFlow reads (tests/test_saved_model_loop_gradients.py,
tests/testdata/check_tf_reads_loop_gradients.py): `own` holds tinytf's own while-loop gradients (its gradient
stacks exported as TF's accumulators), `again` re-exports the functions of TF's loop_gradients SavedModel that
tinytf imported (TF's TensorList ops, written back). Run with tinytf's Python:

    python tests/testdata/tinytf_loop_gradients.py OUT_DIR     # writes OUT_DIR/own and OUT_DIR/again
"""

from __future__ import annotations

import collections
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
XS = [[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]]


def own_module(tf):
    class LoopGradients(tf.Module):
        def __init__(self):
            super().__init__()
            self.w = tf.Variable([[0.5, -0.25], [0.75, 0.125]])

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def while_grad(self, x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.sin(v) * x), [0, x])[1]
            return {"y": y, "dy_dx": tape.gradient(y, x)}

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def while_second_derivative(self, x):
            """The backward loop differentiated again: its stack reads' gradients are gradient lists."""
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    y = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.sin(v) * x), [0, x])[1]
                dy_dx = inner.gradient(y, x)
            return {"dy_dx": dy_dx, "d2y_dx2": outer.gradient(dy_dx, x)}

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def rnn_grad(self, xs):
            with tf.GradientTape() as tape:
                tape.watch(xs)
                h = tf.zeros([2])
                for x in xs:  # AutoGraph: a while loop over the rows
                    h = tf.tanh(tf.linalg.matvec(self.w, h) + x)
                loss = tf.reduce_sum(h * h)
            dw, dxs = tape.gradient(loss, [self.w, xs])
            return {"loss": loss, "dw": dw, "dxs": dxs}

        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
        def tensor_array_grad(self, x):
            """Writes in a loop, then a stack: the gradient reads and clears the written elements."""
            with tf.GradientTape() as tape:
                tape.watch(x)
                arr = tf.TensorArray(tf.float32, size=3)
                for i in tf.range(3):
                    arr = arr.write(i, x[i] * x[i])
                y = tf.reduce_sum(arr.stack() ** 2)
            return {"y": y, "dy_dx": tape.gradient(y, x)}

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def tensor_array_read_grad(self, xs):
            """An unstack read in a loop: the gradient sets one element per iteration and adds them up."""
            with tf.GradientTape() as tape:
                tape.watch(xs)
                arr = tf.TensorArray(tf.float32, size=0, dynamic_size=True).unstack(xs)
                total = tf.zeros([2])
                for i in tf.range(arr.size()):
                    total = total * 0.5 + tf.sin(arr.read(i))
                y = tf.reduce_sum(total)
            return {"y": y, "dy_dxs": tape.gradient(y, xs)}

        @tf.function(input_signature=[tf.TensorSpec([4, 2], tf.float32)])
        def tensor_array_gather_scatter(self, x):
            """Scatter, a gather with a repeated index, stack: the gradient gathers, clears and scatters (summing the
            repeated index's rows)."""
            with tf.GradientTape() as tape:
                tape.watch(x)
                ta = tf.TensorArray(tf.float32, size=4).scatter([3, 0, 2, 1], x)
                y = tf.reduce_sum(ta.gather([1, 2, 1]) ** 2) + tf.reduce_sum(ta.stack() * 0.5)
            return {"y": y, "dy_dx": tape.gradient(y, x)}

    return LoopGradients()


def again_module(tf):
    """A module whose tf.functions call those of TF's SavedModel, as tinytf imported them."""
    loaded = tf.saved_model.load(os.path.join(HERE, "loop_gradients"))

    class Again(tf.Module):
        def __init__(self):
            super().__init__()
            self.inner = loaded

    def calling(name):
        return lambda x: getattr(loaded, name)(x)

    again = Again()
    for name, spec in SIGNATURES.items():
        setattr(again, name, tf.function(calling(name), input_signature=[spec(tf)]))
    return again


SIGNATURES = {
    "while_grad": lambda tf: tf.TensorSpec([], tf.float32),
    "rnn_grad": lambda tf: tf.TensorSpec([None, 2], tf.float32),
    "tensor_array_grad": lambda tf: tf.TensorSpec([3], tf.float32),
    "cond_in_loop": lambda tf: tf.TensorSpec([None], tf.float32),
    "map_fn_grad": lambda tf: tf.TensorSpec([None, 3], tf.float32),
    "gather_scatter": lambda tf: tf.TensorSpec([4, 2], tf.float32),
}
ARGUMENTS = {
    "while_grad": 0.5, "while_second_derivative": 0.5, "rnn_grad": XS, "tensor_array_grad": [1.0, 2.0, 3.0],
    "tensor_array_read_grad": XS, "cond_in_loop": [0.5, -1.0, 2.0], "map_fn_grad": [[0.0, 0.2, 0.4], [0.6, 0.8, 1.0]],
    "gather_scatter": [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]],
    "tensor_array_gather_scatter": [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]],
}


def calls(module, tf):
    """The results of each function the module has (of ARGUMENTS), by name."""
    out = {name: getattr(module, name)(tf.constant(arg)) for name, arg in ARGUMENTS.items() if hasattr(module, name)}
    return {name: {k: v.numpy().tolist() for k, v in result.items()} for name, result in out.items()}


def op_counts(path) -> list:
    """The op kinds of each FunctionDef of a SavedModel's library except TF's saver functions: a sorted list of
    sorted [op, count] lists (function names carry counters, their contents do not)."""
    from tinytf.saved_model.proto import SavedModel

    model = SavedModel()
    with open(os.path.join(path, "saved_model.pb"), "rb") as f:
        model.ParseFromString(f.read())
    found = []
    for function in model.meta_graphs[0].graph_def.library.function:
        counts = collections.Counter(node.op for node in function.node_def)
        if "SaveV2" in counts or "RestoreV2" in counts:
            continue
        found.append(sorted([op, n] for op, n in counts.items()))
    return sorted(found)


def write(out_dir, tf) -> dict:
    """Write both SavedModels; return {name: {"ops": op_counts, "tinytf": calls}}."""
    result = {}
    for name, make in (("own", own_module), ("again", again_module)):
        module = make(tf)
        path = os.path.join(out_dir, name)
        tf.saved_model.save(module, path)
        result[name] = {"ops": op_counts(path), "tinytf": calls(module, tf)}
    return result


if __name__ == "__main__":
    import tinytf

    print(json.dumps(write(sys.argv[1], tinytf)))
