"""Functional models: `keras.Model(inputs, outputs)` over the graph of layer calls that links them. Calling
the model replays those calls in order on real tensors (eagerly, or inside a tf.function trace)."""

from __future__ import annotations

import warnings

import tinytf as _tf
from tinytf.runtime import nest

from .. import naming
from ..layers.input_spec import InputSpec, inputs_by_name
from ..layers.layer import Layer
from ..masking import get_keras_mask, set_keras_mask
from .input_layer import InputLayer
from .keras_tensor import KerasTensor
from .model import Model


def _history_layer(tensor: KerasTensor):
    if not isinstance(tensor, KerasTensor) or tensor._keras_history is None:
        raise ValueError(f"All `inputs` and `outputs` of a Functional model must be KerasTensors made by "
                         f"keras.Input and layer calls. Received: {tensor!r}")
    return tensor._keras_history


class Functional(Model):
    """A model defined by its symbolic inputs and outputs."""

    _untracked_attributes = frozenset({"_nodes", "_inputs_struct", "_outputs_struct", "_flat_inputs",
                                       "_flat_outputs"})

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        default_name = naming.snake_case(type(self).__name__)  # "functional", or a Model subclass's own name
        name = name if name is not None else naming.unique_name(default_name)
        super().__init__(name=name, trainable=trainable, **kwargs)
        if isinstance(inputs, tuple):
            inputs = list(inputs)
        if isinstance(outputs, tuple):
            outputs = list(outputs)
        self._inputs_struct, self._outputs_struct = inputs, outputs
        self._flat_inputs, self._flat_outputs = nest.flatten(inputs), nest.flatten(outputs)
        for tensor in self._flat_inputs:
            layer, _, _ = _history_layer(tensor)
            if not isinstance(layer, InputLayer):
                raise ValueError(f"The inputs of a Functional model must come from keras.Input; {tensor.name} was "
                                 f"made by layer {layer.name!r}")
        self._nodes = self._topological_nodes()
        self._graph_layers = self._layers_by_depth()
        self.input_spec = nest.map_structure(
            lambda t: InputSpec(shape=t.shape, name=t.name, allow_last_axis_squeeze=True), inputs)
        self.built = True

    def _topological_nodes(self) -> list:
        """The nodes from the inputs to the outputs, each after the nodes it reads from."""
        input_ids = {id(t) for t in self._flat_inputs}
        ordered, done = [], set()
        for tensor in self._flat_inputs:
            node = tensor._keras_history[1]
            done.add(id(node))
            ordered.append(node)

        def visit(tensor, path):
            _, node, _ = _history_layer(tensor)
            if id(node) in done:
                return
            if isinstance(node.layer, InputLayer) or id(tensor) in input_ids:
                raise ValueError(f"Output with path `{path}` is not connected to `inputs`: the graph reaches "
                                 f"{tensor.name} (from layer {node.layer.name!r}), which is not one of the inputs")
            for parent in node.input_tensors:
                visit(parent, path)
            done.add(id(node))
            ordered.append(node)

        for index, tensor in enumerate(self._flat_outputs):
            visit(tensor, "" if len(self._flat_outputs) == 1 else str(index))
        return ordered

    def _layers_by_depth(self) -> list:
        """The layers in Keras 3's order (what `model.layers`, `get_weights` and the summary list): deepest from
        the outputs first; within a depth, in the order a depth-first walk from the outputs first meets them."""
        first_met, post_order, done = {}, [], set()
        input_ids = {id(t) for t in self._flat_inputs}

        def walk(tensor):
            layer, node, _ = _history_layer(tensor)
            first_met.setdefault(id(layer), len(first_met))
            if id(node) in done:
                return
            if not isinstance(layer, InputLayer) and id(tensor) not in input_ids:
                for parent in node.input_tensors:
                    walk(parent)
            done.add(id(node))
            post_order.append(node)

        for tensor in self._flat_outputs:
            walk(tensor)
        node_depth, layer_depth, layers = {}, {}, {}
        for node in reversed(post_order):  # from the outputs: a node is deeper than every node reading it
            depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(id(node.layer), 0))
            layer_depth[id(node.layer)], node_depth[id(node)] = depth, depth
            layers[id(node.layer)] = node.layer
            if isinstance(node.layer, InputLayer):
                continue
            for parent in node.parent_nodes:
                node_depth[id(parent)] = max(depth + 1, node_depth.get(id(parent), 0))
        return sorted(layers.values(), key=lambda layer: (-layer_depth[id(layer)], first_met[id(layer)]))

    def _is_chain(self) -> bool:
        """Whether the graph is a single line of one-input layers (summary then prints like Sequential)."""
        seen_layers = set()
        for node in self._nodes:
            if len(node.input_tensors) > 1 or id(node.layer) in seen_layers:
                return False
            seen_layers.add(id(node.layer))
        inner = [n for n in self._nodes if n.input_tensors]
        return len(self._flat_inputs) == 1 and all(len(n.input_tensors) == 1 for n in inner) and len(
            {id(n.input_tensors[0]) for n in inner}) == len(inner)

    def _summary_layout(self) -> tuple:
        return self._is_chain(), self._nodes

    def _summary_rows(self) -> list:
        return self.operations  # Keras 3's summary of a Functional model lists its Operations too

    def _checkpoint_children(self):
        """Keras 3 checkpoints a Functional model's layers as `_operations` (the InputLayers included)."""
        return [("_operations" if key == "_graph_layers" else key, value)
                for key, value in super()._checkpoint_children()]

    # --- inspection --------------------------------------------------------------------------------------------
    @property
    def layers(self) -> list:
        """The graph's layers; Operations (`x * 2`, keras.ops calls on KerasTensors) are not layers (Keras 3)."""
        return [op for op in self._graph_layers if isinstance(op, Layer)]

    @property
    def operations(self) -> list:
        """Every layer and Operation of the graph, in the order of `layers`."""
        return list(self._graph_layers)

    @property
    def inputs(self) -> list:
        return list(self._flat_inputs)

    @property
    def outputs(self) -> list:
        return list(self._flat_outputs)

    @property
    def output_names(self) -> list:
        """The outputs' names: a dict's keys (sorted, as outputs flatten), or the layers making the outputs."""
        if isinstance(self._outputs_struct, dict):
            return sorted(self._outputs_struct)
        return [t._keras_history[0].name for t in self._flat_outputs]

    @property
    def input(self):
        return self._inputs_struct

    @property
    def output(self):
        return self._outputs_struct

    @property
    def input_shape(self):
        return nest.map_structure(lambda t: tuple(t.shape), self._inputs_struct)

    @property
    def output_shape(self):
        return nest.map_structure(lambda t: tuple(t.shape), self._outputs_struct)

    def compute_output_shape(self, input_shape):
        return self.output_shape

    def get_config(self) -> dict:
        from ..saving.layer_config import functional_config

        return functional_config(self)

    @classmethod
    def from_config(cls, config: dict, custom_objects=None):
        from ..saving.layer_config import functional_from_config

        return functional_from_config(config, custom_objects)

    # --- running -----------------------------------------------------------------------------------------------
    def _warn_inputs_struct_mismatch(self, inputs) -> None:
        """Keras 3's warning when a dict holds more than the model's inputs (the extra entries go unused)."""
        expected = nest.map_structure(lambda x: "None" if x is None else x.name, self._inputs_struct)
        received = {key: "None" if value is None else
                    f"Tensor(shape={tuple(_tf.TensorShape(getattr(value, 'shape', None)).as_list())})"
                    for key, value in inputs.items()}
        warnings.warn(f"The structure of `inputs` doesn't match the expected structure.\nExpected: {expected}\n"
                      f"Received: inputs={received}", stacklevel=2)

    def _flatten_inputs(self, inputs) -> list:
        if isinstance(self._inputs_struct, dict) and isinstance(inputs, dict):
            missing = set(self._inputs_struct) - set(inputs)
            if missing:
                raise ValueError(f"Model {self.name!r} is missing inputs {sorted(missing)}; it expects the keys "
                                 f"{sorted(self._inputs_struct)}")
            if set(inputs) - set(self._inputs_struct):
                self._warn_inputs_struct_mismatch(inputs)
            flat = nest.flatten({k: inputs[k] for k in self._inputs_struct})
        elif isinstance(inputs, dict):  # a dict for list or single inputs: matched by the Inputs' names (Keras 3)
            flat = inputs_by_name(inputs, [t.name for t in self._flat_inputs])
        else:
            flat = nest.flatten(inputs)
        if len(flat) != len(self._flat_inputs):
            raise ValueError(f"Model {self.name!r} expects {len(self._flat_inputs)} input(s), but it received "
                             f"{len(flat)} input tensors.")
        converted = []
        for value, spec in zip(flat, self._flat_inputs):
            if isinstance(value, _tf.sparse.SparseTensor) and spec.sparse:  # keras.Input(sparse=True)
                converted.append(value if value.dtype.name == spec.dtype else _tf.cast(value, spec.dtype))
                continue
            tensor = _tf.convert_to_tensor(value) if not isinstance(value, _tf.Tensor) else value
            if tensor.dtype.name != spec.dtype:
                input_mask = get_keras_mask(tensor)
                tensor = _tf.cast(tensor, spec.dtype)
                set_keras_mask(tensor, input_mask)
            converted.append(adjusted_rank(tensor, spec.shape, spec.name))
        return converted

    def call(self, inputs, training=None, mask=None):
        flat = self._flatten_inputs(inputs)
        if mask is not None:  # masks given for the inputs ride on them into the graph (Keras 3)
            for tensor, input_mask in zip(flat, nest.flatten(mask)):
                if input_mask is not None:
                    set_keras_mask(tensor, input_mask)
        values = {id(t): v for t, v in zip(self._flat_inputs, flat)}

        def real(value):
            return values[id(value)] if isinstance(value, KerasTensor) else value

        for node in self._nodes:
            if isinstance(node.layer, InputLayer):
                continue
            args, kwargs = nest.map_structure(real, (node.args, node.kwargs))
            if training is not None and "training" in kwargs:
                # Keras 3 passes the model's own `training` to every layer, over what the graph was built with:
                # base_model(x, training=False) in a Functional model runs in training mode under fit
                kwargs["training"] = training
            outputs = node.layer(*args, **kwargs)
            for symbolic, value in zip(node.output_tensors, nest.flatten(outputs)):
                values[id(symbolic)] = value
        return nest.map_structure(real, self._outputs_struct)

    def _convert_input(self, value):
        return value  # inputs take the dtypes of their keras.Input (in _flatten_inputs), not the model's


Model.functional_class = Functional


def adjusted_rank(tensor, reference_shape, input_name):
    """An input one rank off its keras.Input, as Keras 3 adjusts it: a trailing axis of 1 squeezed away, or added
    when the Input's last axis is 1 (a (n,) column fed to Input((1,))); anything else is a ValueError."""
    shape = tensor.shape
    if shape.rank is None or shape.rank == len(reference_shape):
        return tensor
    mask = get_keras_mask(tensor)
    if shape.rank == len(reference_shape) + 1 and shape[-1] == 1:
        adjusted = _tf.squeeze(tensor, axis=-1)
    elif shape.rank == len(reference_shape) - 1 and reference_shape[-1] == 1:
        adjusted = _tf.expand_dims(tensor, axis=-1)
    else:
        raise ValueError(f"Invalid input shape for input {tensor} with name '{input_name}'. Expected shape "
                         f"{tuple(reference_shape)}, but input has incompatible shape {tuple(shape.as_list())}")
    set_keras_mask(adjusted, mask)
    return adjusted
