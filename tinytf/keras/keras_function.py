"""keras.Function: a callable graph of operations between KerasTensors (the structure Functional models are
built on, without being a layer): `Function(inputs, outputs)` records which layer and op calls lead from the
inputs to the outputs; calling it runs them, in order, on real values (eagerly or inside a tf.function)."""

from __future__ import annotations

from tinytf.runtime import nest

from .models.keras_tensor import KerasTensor
from .naming import unique_name


class Function:
    def __init__(self, inputs, outputs, name=None):
        self.name = name or unique_name("function")
        self._inputs_struct, self._outputs_struct = inputs, outputs
        self._inputs = nest.flatten(inputs)
        self._outputs = nest.flatten(outputs)
        for tensor in self._inputs + self._outputs:
            if not isinstance(tensor, KerasTensor):  # Keras' own error (it reads the attribute)
                raise AttributeError(f"'{type(tensor).__name__}' object has no attribute '_keras_history': the "
                                     f"inputs and outputs of a keras.Function must be KerasTensors")
        self._nodes = self._nodes_between()

    def _nodes_between(self) -> list:
        """The recorded calls from the inputs to the outputs, each after the calls it depends on."""
        given = {id(t) for t in self._inputs}
        order, done = [], set()

        def visit(tensor, operation=None):
            if id(tensor) in given:
                return
            history = getattr(tensor, "_keras_history", None)
            if history is None:
                raise ValueError(f"Graph disconnected: cannot find parent for tensor {tensor} at operation "
                                 f"'{operation}'. The inputs given were {self._inputs}")
            node = history[1]
            if id(node) in done:
                return
            for parent in node.input_tensors:
                visit(parent, node.layer)
            done.add(id(node))
            order.append(node)

        for tensor in self._outputs:
            visit(tensor)
        return order

    @property
    def inputs(self):
        return self._inputs_struct

    @property
    def outputs(self):
        return self._outputs_struct

    @property
    def operations(self) -> list:
        return [node.layer for node in self._nodes]

    def __call__(self, inputs):
        import tinytf as tf

        flat = nest.flatten(inputs)
        if len(flat) != len(self._inputs):
            raise ValueError(f"Function {self.name!r} expects {len(self._inputs)} input(s), received {len(flat)}")
        values = {}
        for spec, value in zip(self._inputs, flat):
            values[id(spec)] = tf.convert_to_tensor(value, dtype=spec.dtype) if not isinstance(
                value, (tf.Tensor, tf.Variable)) else value

        def real(x):
            return values[id(x)] if isinstance(x, KerasTensor) else x

        for node in self._nodes:
            args, kwargs = nest.map_structure(real, (node.args, node.kwargs))
            result = node.layer(*args, **kwargs)
            for tensor, value in zip(node.output_tensors, nest.flatten(result)):
                values[id(tensor)] = value
        return nest.pack_sequence_as(self._outputs_struct, [values[id(t)] for t in self._outputs])
