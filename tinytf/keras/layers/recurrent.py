"""Recurrent layers: SimpleRNN, LSTM and GRU (Keras 3's gate layouts: LSTM i, f, c, o; GRU z, r, h with
reset_after), with return_sequences, return_state, go_backwards, stateful, initial_state, an explicit `mask`
(masked steps keep the previous state and output), and Keras' dropout / recurrent_dropout (one mask per
sequence); and Bidirectional. A time axis of known length is unrolled (one graph node per step, which the
graph optimizer fuses); an unknown one (keras.Input(shape=(None, ...)), a tf.function traced with None) runs
as a tf.while_loop over TensorArrays, as Keras' TF backend does."""

from __future__ import annotations

import tinytf as _tf
from tinytf.scopes import init_scope
from tinytf.variables import Variable

from .. import activations, constraints, initializers, regularizers
from .. import random as keras_random
from .input_spec import InputSpec
from .layer import Layer, _PathScope


def cell_weight_config(cell, with_forget_bias: bool = False) -> dict:
    """The config entries every Keras recurrent cell writes for its three weights (kernel, recurrent kernel, bias:
    initializer, regularizer, constraint) and its dropouts and seed, in Keras' order (ConvLSTM's cell writes
    unit_forget_bias among them; LSTMCell writes it last, itself)."""
    return {"kernel_initializer": initializers.serialize(cell.kernel_initializer),
            "recurrent_initializer": initializers.serialize(cell.recurrent_initializer),
            "bias_initializer": initializers.serialize(cell.bias_initializer),
            **({"unit_forget_bias": cell.unit_forget_bias} if with_forget_bias else {}),
            "kernel_regularizer": regularizers.serialize(cell.kernel_regularizer),
            "recurrent_regularizer": regularizers.serialize(cell.recurrent_regularizer),
            "bias_regularizer": regularizers.serialize(cell.bias_regularizer),
            "kernel_constraint": constraints.serialize(cell.kernel_constraint),
            "recurrent_constraint": constraints.serialize(cell.recurrent_constraint),
            "bias_constraint": constraints.serialize(cell.bias_constraint), "dropout": cell.dropout,
            "recurrent_dropout": cell.recurrent_dropout, "seed": cell.seed}


class _Cell(Layer):
    """A recurrent cell: `call(x, states) -> (output, new_states)` for one time step."""

    gates = 1
    _seed_generator_first = False  # where Keras makes the cell's seed generator: before or after the initializers
    _untracked_attributes = frozenset({"_dropout_mask", "_recurrent_dropout_mask"})

    def __init__(self, units, activation="tanh", use_bias=True, kernel_initializer="glorot_uniform",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0, seed=None,
                 **kwargs):
        super().__init__(**kwargs)
        if self._seed_generator_first:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        # Keras clips the rates into [0, 1]; a rate of 1 applies no mask (Keras' 0 < rate < 1 test)
        self.dropout, self.recurrent_dropout = min(1.0, max(0.0, dropout)), min(1.0, max(0.0, recurrent_dropout))
        self.seed = seed
        if not self._seed_generator_first:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self._dropout_mask = self._recurrent_dropout_mask = None

    # --- dropout: one mask (or one per gate) for the whole sequence, as Keras' DropoutRNNCell --------------------
    def _per_gate_masks(self) -> bool:
        """Keras' implementation 1 (one mask per gate) is what a gated cell with recurrent_dropout runs."""
        return self.gates > 1 and self.recurrent_dropout != 0.0

    def _make_masks(self, like, rate):
        count = self.gates if self._per_gate_masks() else 1
        masks = [keras_random.dropout(_tf.ones_like(like), rate, seed=self.seed_generator) for _ in range(count)]
        return masks if self._per_gate_masks() else masks[0]

    def get_dropout_mask(self, step_input):
        if self._dropout_mask is None and 0.0 < self.dropout < 1.0:
            self._dropout_mask = self._make_masks(step_input, self.dropout)
        return self._dropout_mask

    def get_recurrent_dropout_mask(self, state):
        if self._recurrent_dropout_mask is None and 0.0 < self.recurrent_dropout < 1.0:
            self._recurrent_dropout_mask = self._make_masks(state, self.recurrent_dropout)
        return self._recurrent_dropout_mask

    def reset_dropout_mask(self) -> None:
        self._dropout_mask = None

    def reset_recurrent_dropout_mask(self) -> None:
        self._recurrent_dropout_mask = None

    def _projections(self, inputs, h_prev, training):
        """(inputs @ kernel, h_prev @ recurrent_kernel), their inputs dropped out in training: by one mask each,
        or per gate (the kernels' gate columns each see their own mask) when _per_gate_masks."""
        drop_input = bool(training) and 0.0 < self.dropout < 1.0
        drop_state = bool(training) and 0.0 < self.recurrent_dropout < 1.0
        if not self._per_gate_masks():
            if drop_input:
                inputs = inputs * self.get_dropout_mask(inputs)
            if drop_state:
                h_prev = h_prev * self.get_recurrent_dropout_mask(h_prev)
            return _tf.matmul(inputs, self.kernel), _tf.matmul(h_prev, self.recurrent_kernel)
        u = self.units
        input_masks = self.get_dropout_mask(inputs) if drop_input else [None] * self.gates
        state_masks = self.get_recurrent_dropout_mask(h_prev) if drop_state else [None] * self.gates

        def gate_columns(value, masks, kernel):
            return _tf.concat([_tf.matmul(value if mask is None else value * mask, kernel[:, k * u:(k + 1) * u])
                               for k, mask in enumerate(masks)], axis=1)
        return gate_columns(inputs, input_masks, self.kernel), gate_columns(h_prev, state_masks,
                                                                            self.recurrent_kernel)

    @property
    def state_size(self) -> list:
        return [self.units]

    def _bias_shape(self):
        return (self.gates * self.units,)

    def _bias_initializer(self):
        return self.bias_initializer

    def build(self, input_shape) -> None:
        width = self.gates * self.units
        self.kernel = self.add_weight(shape=(input_shape[-1], width), name="kernel",
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(shape=(self.units, width), name="recurrent_kernel",
                                                initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        self.bias = self.add_weight(shape=self._bias_shape(), name="bias", initializer=self._bias_initializer(),
                                    regularizer=self.bias_regularizer, constraint=self.bias_constraint) \
            if self.use_bias else None

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, **cell_weight_config(self)}


class SimpleRNNCell(_Cell):
    """h = activation(x W + h U + b)."""

    _seed_generator_first = True

    def call(self, inputs, states, training=None):
        x, inner = self._projections(inputs, states[0], training)
        h = x + inner
        if self.bias is not None:
            h = h + self.bias
        h = self.activation(h)
        return h, [h]


class LSTMCell(_Cell):
    """The LSTM step, gates in Keras' order (input, forget, candidate, output)."""

    gates = 4

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", unit_forget_bias=True, **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias

    @property
    def state_size(self) -> list:
        return [self.units, self.units]

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        units, base = self.units, self.bias_initializer

        def forget_ones(shape, dtype=None):
            parts = [base((units,), dtype), _tf.ones([units], dtype or "float32"), base((2 * units,), dtype)]
            return _tf.concat(parts, 0)
        return forget_ones

    def call(self, inputs, states, training=None):
        h_prev, c_prev = states
        x, inner = self._projections(inputs, h_prev, training)
        z = x + inner
        if self.bias is not None:
            z = z + self.bias
        u = self.units
        i = self.recurrent_activation(z[:, :u])
        f = self.recurrent_activation(z[:, u:2 * u])
        c = f * c_prev + i * self.activation(z[:, 2 * u:3 * u])
        o = self.recurrent_activation(z[:, 3 * u:])
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self) -> dict:
        return {**super().get_config(), "recurrent_activation": activations.serialize(self.recurrent_activation),
                "unit_forget_bias": self.unit_forget_bias}


class GRUCell(_Cell):
    """The GRU step (update z, reset r, candidate h), reset applied after the recurrent matmul (reset_after)."""

    gates = 3

    def __init__(self, units, activation="tanh", recurrent_activation="sigmoid", reset_after=True, **kwargs):
        super().__init__(units, activation=activation, **kwargs)
        if not reset_after:
            raise NotImplementedError("GRU(reset_after=False) is not supported yet")
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after

    def _bias_shape(self):
        return (2, 3 * self.units)

    def call(self, inputs, states, training=None):
        h_prev = states[0]
        x, inner = self._projections(inputs, h_prev, training)
        if self.bias is not None:
            x = x + self.bias[0]
            inner = inner + self.bias[1]
        u = self.units
        z = self.recurrent_activation(x[:, :u] + inner[:, :u])
        r = self.recurrent_activation(x[:, u:2 * u] + inner[:, u:2 * u])
        candidate = self.activation(x[:, 2 * u:] + r * inner[:, 2 * u:])
        h = z * h_prev + (1.0 - z) * candidate
        return h, [h]

    def get_config(self) -> dict:
        return {**super().get_config(), "recurrent_activation": activations.serialize(self.recurrent_activation),
                "reset_after": self.reset_after}


def _state_sizes(cell) -> list:
    """A cell's state sizes as a list (a cell of one state may give its size as an int)."""
    sizes = cell.state_size
    return list(sizes) if isinstance(sizes, (list, tuple)) else [sizes]


def _output_size(cell) -> int:
    return getattr(cell, "output_size", None) or _state_sizes(cell)[0]


class StackedRNNCells(Layer):
    """Cells run one after another in each time step: each cell's output is the next one's input. Its states
    are every cell's states, one flat list in cell order."""

    def __init__(self, cells, **kwargs):
        super().__init__(**kwargs)
        for cell in cells:
            if not hasattr(cell, "call") or not hasattr(cell, "state_size"):
                raise ValueError(f"All cells must have a `call` method and a `state_size` attribute. Received: {cell}")
        self.cells = list(cells)

    @property
    def state_size(self) -> list:
        return [size for cell in self.cells for size in _state_sizes(cell)]

    @property
    def output_size(self) -> int:
        return _output_size(self.cells[-1])

    def build(self, input_shape) -> None:
        shape = tuple(input_shape)
        for cell in self.cells:
            if not cell.built:
                with _PathScope(self):  # the cells' weights are stacked_rnn_cells/<cell>/..., as in Keras
                    cell.build(shape)
                cell.built = True
            shape = (shape[0], _output_size(cell))
        self.built = True

    def call(self, inputs, states, training=None):
        new_states, start = [], 0
        for cell in self.cells:
            count = len(_state_sizes(cell))
            inputs, cell_states = cell(inputs, list(states[start:start + count]), training=training)
            new_states.extend(cell_states if isinstance(cell_states, (list, tuple)) else [cell_states])
            start += count
        return inputs, new_states

    def get_config(self) -> dict:
        from ..serialization import serialize

        return {**super().get_config(), "cells": [serialize(cell, "keras.layers") for cell in self.cells]}


class RNN(Layer):
    """Runs a cell over axis 1 of (batch, time, features) inputs (a list of cells runs as StackedRNNCells)."""

    _untracked_attributes = frozenset({"_states"})

    def __init__(self, cell, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, zero_output_for_mask=False, **kwargs):
        super().__init__(**kwargs)
        self.cell = StackedRNNCells(cell) if isinstance(cell, (list, tuple)) else cell
        self.return_sequences, self.return_state = return_sequences, return_state
        self.go_backwards, self.stateful, self.unroll = go_backwards, stateful, unroll
        self.zero_output_for_mask = zero_output_for_mask
        self.input_spec = InputSpec(min_ndim=3)
        self.supports_masking = True
        self._states = None

    def build(self, input_shape) -> None:
        self.cell.build((input_shape[0], input_shape[-1]))
        self.cell.built = True
        if self.stateful:
            if input_shape[0] is None:
                raise ValueError(f"Layer '{self.name}': a stateful RNN needs a fixed batch size (batch_size or "
                                 f"batch_shape on the Input)")
            # plain variables, not weights: Keras 3 keeps the states out of get_weights and saved files
            with init_scope():
                self._states = [Variable(_tf.zeros([input_shape[0], size]), trainable=False, name=f"state_{i}")
                                for i, size in enumerate(_state_sizes(self.cell))]

    def reset_states(self) -> None:
        for state in self._states or []:
            state.assign(_tf.zeros(state.shape.as_list(), state.dtype))

    reset_state = reset_states

    def _zeros(self, inputs, size):
        column = inputs[:, 0, :1] * 0.0
        return _tf.tile(column, [1, size])

    def call(self, inputs, mask=None, training=None, initial_state=None):
        if initial_state is not None:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
        elif self._states is not None:
            states = [s.read_value() for s in self._states]
        else:
            states = [self._zeros(inputs, size) for size in _state_sizes(self.cell)]
        dropout_cells = self._dropout_cells(inputs, states) if training else ()
        try:
            if inputs.shape[1] is None:
                sequence, output, states = self._run_loop(inputs, states, mask, training)
            else:
                sequence, output, states = self._run_unrolled(inputs, states, mask, training)
        finally:
            for cell in dropout_cells:
                cell.reset_dropout_mask()
                cell.reset_recurrent_dropout_mask()
        if self._states is not None:
            for variable, value in zip(self._states, states):
                variable.assign(value)
        result = sequence if self.return_sequences else output
        return [result, *states] if self.return_state else result

    def _dropout_cells(self, inputs, states) -> list:
        """Make each cell's dropout masks for this sequence before the steps (inside a loop they would vary);
        returns the cells, whose masks are dropped after the call."""
        cells = self.cell.cells if isinstance(self.cell, StackedRNNCells) else [self.cell]
        made, start, width = [], 0, inputs.shape[-1]
        batch = _tf.shape(inputs)[0]
        for cell in cells:
            if isinstance(cell, _Cell):
                cell.get_dropout_mask(_tf.zeros(_tf.stack([batch, width]), inputs.dtype))
                cell.get_recurrent_dropout_mask(states[start])
                made.append(cell)
            start += len(_state_sizes(cell))
            width = _output_size(cell)
        return made

    def _step(self, step_input, step_mask, output, states, training):
        """One time step: the cell's output and states, or (where the mask is off) the previous ones."""
        new_output, new_states = self.cell(step_input, states, training=training)
        if step_mask is not None:
            keep = _tf.cast(_tf.expand_dims(step_mask, -1), step_input.dtype)
            new_states = [keep * n + (1.0 - keep) * s for n, s in zip(new_states, states)]
            previous = _tf.zeros_like(new_output) if self.zero_output_for_mask else output
            new_output = keep * new_output + (1.0 - keep) * previous
        return new_output, list(new_states)

    def _run_unrolled(self, inputs, states, mask, training):
        """(outputs stacked over time, last output, last states), one cell call per known time step."""
        steps = inputs.shape[1]
        order = range(steps - 1, -1, -1) if self.go_backwards else range(steps)
        outputs, output = [], self._zeros(inputs, _output_size(self.cell))
        for t in order:
            output, states = self._step(inputs[:, t], None if mask is None else mask[:, t], output, states,
                                        training)
            outputs.append(output)
        sequence = _tf.stack(outputs, axis=1) if self.return_sequences else None
        return sequence, output, states

    def _run_loop(self, inputs, states, mask, training):
        """_run_unrolled for a time axis known only when the graph runs: a while loop over TensorArrays."""
        steps = _tf.shape(inputs)[1]
        rank = len(inputs.shape)
        time_major = [1, 0, *range(2, rank)]
        step_inputs = _tf.TensorArray(inputs.dtype, size=steps).unstack(_tf.transpose(inputs, time_major))
        step_masks = None if mask is None else _tf.TensorArray(mask.dtype, size=steps).unstack(
            _tf.transpose(mask, [1, 0]))

        def body(t, output, states, outputs):
            index = steps - 1 - t if self.go_backwards else t
            output, states = self._step(step_inputs.read(index), None if step_masks is None else
                                        step_masks.read(index), output, states, training)
            return t + 1, output, states, outputs.write(t, output)

        _, output, states, outputs = _tf.while_loop(
            lambda t, *_: t < steps, body,
            (_tf.constant(0), self._zeros(inputs, _output_size(self.cell)), states,
             _tf.TensorArray(inputs.dtype, size=steps)))
        stacked = outputs.stack() if self.return_sequences else None  # (time, batch, ...): back to batch first
        sequence = None if stacked is None else _tf.transpose(stacked, [1, 0, *range(2, len(stacked.shape))])
        return sequence, output, list(states)

    def compute_mask(self, inputs, previous_mask=None):
        """The time mask goes on with the sequence output only; states carry none (Keras 3)."""
        mask = previous_mask[0] if isinstance(previous_mask, (list, tuple)) else previous_mask
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None] * len(_state_sizes(self.cell))
        return output_mask

    def get_config(self) -> dict:
        config = {**super().get_config(), "return_sequences": self.return_sequences, "return_state": self.return_state,
                  "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                  "zero_output_for_mask": self.zero_output_for_mask,
                  "activity_regularizer": regularizers.serialize(self.activity_regularizer)}
        cell_config = self.cell.get_config()
        for key in ("name", "trainable", "dtype"):
            cell_config.pop(key, None)
        return {**config, **cell_config}


def _rnn_layer(name, cell_class, doc):
    def __init__(self, units, *args, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, unroll=False, zero_output_for_mask=False, name=None, trainable=True, dtype=None,
                 activity_regularizer=None, input_shape=None, batch_input_shape=None, **cell_kwargs):
        unknown = set(cell_kwargs) - _cell_arguments(cell_class)
        if unknown:
            raise TypeError(f"{type(self).__name__}: unexpected arguments {sorted(unknown)}")
        cell = cell_class(units, *args, dtype=dtype, name=_snake(cell_class), **cell_kwargs)
        RNN.__init__(self, cell, return_sequences=return_sequences, return_state=return_state,
                     go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                     zero_output_for_mask=zero_output_for_mask, name=name, trainable=trainable, dtype=dtype,
                     activity_regularizer=activity_regularizer, input_shape=input_shape,
                     batch_input_shape=batch_input_shape)

    cls = type(name, (RNN,), {"__init__": __init__, "__doc__": doc})
    cls.from_config = classmethod(lambda c, config: c(**config))
    cls._forwarded_arguments = frozenset(_cell_arguments(cell_class)) - {"self", "units", "kwargs"}
    return cls


def _snake(cls) -> str:
    from ..naming import snake_case

    return snake_case(cls.__name__)


def _cell_arguments(cell_class) -> set:
    import inspect

    names = set()
    for klass in cell_class.__mro__:
        if "__init__" in vars(klass):
            names |= set(inspect.signature(klass.__init__).parameters)
    return names


SimpleRNN = _rnn_layer("SimpleRNN", SimpleRNNCell, "A fully connected RNN: h = tanh(x W + h U + b) per step.")
LSTM = _rnn_layer("LSTM", LSTMCell, "Long short-term memory (Hochreiter 1997), Keras 3's gate layout.")
GRU = _rnn_layer("GRU", GRUCell, "Gated recurrent unit (Cho et al. 2014), reset_after=True as in Keras 3.")


class Bidirectional(Layer):
    """Runs a recurrent layer forwards and a copy of it backwards and merges the two outputs."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        super().__init__(**kwargs)
        if merge_mode not in ("concat", "sum", "mul", "ave", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should be one of "
                             f'{{"sum", "mul", "ave", "concat", None}}')
        config = layer.get_config()
        config["name"] = f"forward_{layer.name}"
        self.forward_layer = type(layer).from_config(config)
        if backward_layer is None:
            config = layer.get_config()
            config["name"] = f"backward_{layer.name}"
            config["go_backwards"] = not config["go_backwards"]
            backward_layer = type(layer).from_config(config)
        self.backward_layer = backward_layer
        self.merge_mode = merge_mode
        self.return_sequences, self.return_state = layer.return_sequences, layer.return_state
        # Keras 3: masked steps of returned sequences are zeros in both directions
        for inner in (self.forward_layer, self.backward_layer):
            inner.zero_output_for_mask = inner.return_sequences
        self.supports_masking = True

    def call(self, inputs, mask=None, training=None):
        forward = self.forward_layer(inputs, mask=mask)
        backward = self.backward_layer(inputs, mask=mask)
        states = []
        if self.return_state:
            forward, *forward_states = forward
            backward, *backward_states = backward
            states = forward_states + backward_states
        if self.return_sequences:
            backward = _tf.reverse(backward, [1])
        if self.merge_mode == "concat":
            merged = _tf.concat([forward, backward], -1)
        elif self.merge_mode == "sum":
            merged = forward + backward
        elif self.merge_mode == "mul":
            merged = forward * backward
        elif self.merge_mode == "ave":
            merged = (forward + backward) / 2.0
        else:
            merged = [forward, backward]
        if self.return_state:
            return (merged if isinstance(merged, list) else [merged]) + states
        return merged

    def compute_mask(self, inputs, previous_mask=None):
        mask = previous_mask[0] if isinstance(previous_mask, (list, tuple)) else previous_mask
        if self.return_sequences:
            output_mask = [mask, mask] if self.merge_mode is None else mask
        else:
            output_mask = [None, None] if self.merge_mode is None else None
        if self.return_state:
            states = [None] * (2 * len(_state_sizes(self.forward_layer.cell)))
            return (output_mask if isinstance(output_mask, list) else [output_mask]) + states
        return output_mask

    def get_config(self) -> dict:
        from ..saving.layer_config import serialize_layer

        return {**super().get_config(), "merge_mode": self.merge_mode,
                "layer": serialize_layer(self.forward_layer)}
