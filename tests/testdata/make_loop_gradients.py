"""Writes tests/testdata/loop_gradients (a SavedModel) and loop_gradients.json with TensorFlow 2.21:
functions whose graphs hold while-loop and TensorArray gradients as TF writes them (StatelessWhile / While with
EmptyTensorList + TensorListPushBack accumulators, a gradient While popping them with TensorListPopBack, and
TensorArrays as TensorListReserve / SetItem / GetItem / Stack / FromTensor).

    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python /work/wt/NAME/tests/testdata/make_loop_gradients.py
"""

import json
import os

import numpy as np
import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
XS3 = np.arange(6, dtype=np.float32).reshape(2, 3) / 5
X42 = np.arange(8, dtype=np.float32).reshape(4, 2)


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

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def rnn_grad(self, xs):
        """An AutoGraph for loop over the rows, a variable the body reads, the gradient for it and the input."""
        with tf.GradientTape() as tape:
            tape.watch(xs)
            h = tf.zeros([2])
            for x in xs:
                h = tf.tanh(tf.linalg.matvec(self.w, h) + x)
            loss = tf.reduce_sum(h * h)
        dw, dxs = tape.gradient(loss, [self.w, xs])
        return {"loss": loss, "dw": dw, "dxs": dxs}

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def tensor_array_grad(self, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            ta = tf.TensorArray(tf.float32, size=3)
            for i in tf.range(3):
                ta = ta.write(i, x[i] * x[i])
            s = ta.stack()
            y = tf.reduce_sum(s * s)
        return {"y": y, "dy_dx": tape.gradient(y, x)}

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def cond_in_loop(self, xs):
        """An `if` in a for loop: the cond's values reach the gradient loop as optionals in TensorLists."""
        with tf.GradientTape() as tape:
            tape.watch(xs)
            s = tf.constant(0.0)
            for x in xs:
                if x > 0:
                    s = s + tf.sin(x) * x
                else:
                    s = s - x * x
        return {"y": s, "dy_dxs": tape.gradient(s, xs)}

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def map_fn_grad(self, xs):
        with tf.GradientTape() as tape:
            tape.watch(xs)
            y = tf.reduce_sum(tf.map_fn(lambda r: tf.reduce_sum(tf.sin(r) * r), xs))
        return {"y": y, "dy_dxs": tape.gradient(y, xs)}

    @tf.function(input_signature=[tf.TensorSpec([4, 2], tf.float32)])
    def gather_scatter(self, x):
        """TensorArray scatter, gather and concat: TensorListScatterIntoExistingList, TensorListGather,
        TensorListConcatV2, and TensorListSplit in the gradient."""
        with tf.GradientTape() as tape:
            tape.watch(x)
            ta = tf.TensorArray(tf.float32, size=4).scatter([3, 0, 2, 1], x)
            y = tf.reduce_sum(ta.gather([1, 2]) ** 2) + tf.reduce_sum(ta.concat() * 0.5)
        return {"y": y, "dy_dx": tape.gradient(y, x)}


def main():
    module = LoopGradients()
    path = os.path.join(HERE, "loop_gradients")
    tf.saved_model.save(module, path)
    xs = np.array([[0.1, -0.2], [0.3, 0.4], [-0.5, 0.6]], np.float32)

    def plain(d):
        return {k: v.numpy().tolist() for k, v in d.items()}

    reference = {
        "while_grad_0.5": plain(module.while_grad(tf.constant(0.5))),
        "while_grad_-1.25": plain(module.while_grad(tf.constant(-1.25))),
        "rnn_xs": xs.tolist(), "rnn_grad": plain(module.rnn_grad(tf.constant(xs))),
        "rnn_grad_1row": plain(module.rnn_grad(tf.constant(xs[:1]))),
        "tensor_array_grad": plain(module.tensor_array_grad(tf.constant([1.0, 2.0, 3.0]))),
        "cond_in_loop": plain(module.cond_in_loop(tf.constant([0.5, -1.0, 2.0]))),
        "map_fn_grad": plain(module.map_fn_grad(tf.constant(XS3))),
        "gather_scatter": plain(module.gather_scatter(tf.constant(X42))),
    }
    with open(os.path.join(HERE, "loop_gradients.json"), "w") as f:
        json.dump(reference, f, indent=1)


if __name__ == "__main__":
    main()
