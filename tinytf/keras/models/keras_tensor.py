"""KerasTensor: the symbolic value `keras.Input` makes and layers return when called on one. It has a shape
and dtype and remembers which layer call produced it, which is all a Functional model needs."""

from __future__ import annotations

from tinytf.runtime import dtypes

from .. import naming


class KerasTensor:
    """A symbolic placeholder for a shape and dtype, used to wire Functional models."""

    def __init__(self, shape, dtype="float32", name: str | None = None, history=None, sparse: bool = False):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.sparse = bool(sparse)  # stands for a tf.SparseTensor (keras.Input(sparse=True))
        self.dtype = dtypes.as_dtype(dtype).name  # a string, as Keras 3 reports it
        self.name = name or naming.unique_name("keras_tensor")
        self._keras_history = history  # (layer, node, index of this tensor among the node's outputs)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse={self.sparse}, "
                f"ragged=False, name={self.name}>")

    def __array__(self, *args, **kwargs):
        raise ValueError(_SYMBOLIC.format("a NumPy array"))

    def __int__(self):
        raise ValueError(_SYMBOLIC.format("an int"))

    def __float__(self):
        raise ValueError(_SYMBOLIC.format("a float"))

    def __tf_tensor__(self, dtype=None, name=None):
        """TensorFlow's conversion protocol: a tf function given a KerasTensor raises, as in TF 2.21 (Keras 3)."""
        raise ValueError(_MISUSE)

    def __iter__(self):
        raise NotImplementedError("Iterating over a symbolic KerasTensor is not supported.")

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __hash__(self):
        return id(self)


_MISUSE = ("A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a symbolic placeholder "
           "for a shape and dtype, used when constructing Keras Functional models or Keras Functions. You can only "
           "use it as input to a Keras layer or a Keras operation (from the namespaces `keras.layers` and "
           "`keras.ops`). You are likely doing something like:\n\n```\nx = Input(...)\n...\ntf_fn(x)  # Invalid.\n"
           "```\n\nWhat you should do instead is wrap `tf_fn` in a layer:\n\n```\nclass MyLayer(Layer):\n"
           "    def call(self, x):\n        return tf_fn(x)\n\nx = MyLayer()(x)\n```\n")
_SYMBOLIC = ("A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have any actual "
             "numerical value. You cannot convert it to {}.")
