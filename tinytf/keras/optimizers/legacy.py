"""keras.optimizers.legacy: TF 2.21's tf.keras (Keras 3) keeps the names of Keras 2's legacy optimizers only
to say they are gone: making one raises Keras' ImportError pointing at tf_keras."""

from __future__ import annotations


class LegacyOptimizerWarning:
    def __init__(self, *args, **kwargs):
        raise ImportError("`keras.optimizers.legacy` is not supported in Keras 3. When using `tf.keras`, to continue "
                          "using a `tf.keras.optimizers.legacy` optimizer, you can install the `tf_keras` package "
                          "(Keras 2) and set the environment variable `TF_USE_LEGACY_KERAS=True` to configure "
                          "TensorFlow to use `tf_keras` when accessing `tf.keras`.")


Adagrad = Adam = Ftrl = Optimizer = RMSprop = SGD = LegacyOptimizerWarning

__all__ = ["Adagrad", "Adam", "Ftrl", "Optimizer", "RMSprop", "SGD"]
