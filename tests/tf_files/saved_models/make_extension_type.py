"""Recorded with TensorFlow 2.21: `python make_extension_type.py tests/tf_files/saved_models` writes
`extension_type`, a tf.Module whose tf.function (no input signature, one trace) takes and returns an
ExtensionType registered as "tftest.Masked" with a Python field and a TensorShape field.
tests/test_extension_type.py loads it with tinytf (its class defined alike) and checks TF's numbers."""

import os
import shutil
import sys

import tensorflow as tf


class Masked(tf.experimental.ExtensionType):
    __name__ = "tftest.Masked"
    values: tf.Tensor
    mask: tf.Tensor
    tag: str = "t"
    shape: tf.TensorShape = None


class Module(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(3.0)

    @tf.function
    def grow(self, x):
        return Masked(x.values * self.v, x.mask, x.tag + "!", x.shape)


out = os.path.join(sys.argv[1], "extension_type")
shutil.rmtree(out, ignore_errors=True)
module = Module()
module.grow.get_concrete_function(Masked.Spec(tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.bool), "t",
                                              tf.TensorShape([2])))
tf.saved_model.save(module, out)
print(module.grow(Masked([1.0, 2.0], [True, False], "t", [2])))
