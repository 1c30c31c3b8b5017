"""The variables layers own: tf.Variables that also carry Keras 3's short `name` ("kernel"), `path`
("dense/kernel"), regularizer and constraint, so GradientTape, tf.function and the optimizers see ordinary
variables."""

from __future__ import annotations

from tinytf.variables import Variable


class KerasVariable(Variable):
    """A layer weight: a tf.Variable named like Keras 3 names it."""

    _assign_add_combines_values = True  # under MirroredStrategy: Keras 3's assign_add (mirrored_variable.py)

    def __init__(self, initial_value, *, name: str, path: str, trainable=True, dtype=None, regularizer=None,
                 constraint=None, shape=None, aggregation="none"):
        super().__init__(initial_value, trainable=trainable, name=name, dtype=dtype, constraint=constraint,
                         shape=shape, aggregation=aggregation)
        self._keras_aggregation = aggregation
        self._short_name = name
        self.path = path
        self.regularizer = regularizer

    @property
    def name(self) -> str:
        return self._short_name

    @property
    def aggregation(self) -> str:
        """Keras 3's name of it ("none", "sum", "mean", "only_first_replica"); a strategy follows it."""
        return getattr(self, "_keras_aggregation", "none")

    @property
    def synchronization(self) -> str:
        return "auto"  # Keras 3's default (on write): add_weight takes no other

    def __repr__(self):
        return f"<KerasVariable shape={tuple(self.shape.as_list())}, dtype={self.dtype.name}, path={self.path}>"
