"""ConvLSTM1D/2D/3D (Shi et al., "Convolutional LSTM Network", 2015), as Keras 3 builds them: an LSTM whose
input and recurrent transformations are convolutions. Weights in Keras' layout: kernel (*kernel_size, channels,
4 filters), recurrent_kernel (*kernel_size, filters, 4 filters), bias (4 filters), gates i, f, c, o; the input
convolution takes the layer's strides, padding and dilation, the recurrent one stride 1 and "same" padding.
Dropout and recurrent dropout draw one mask per gate for a whole sequence from the cell's SeedGenerator (Keras'
dropout_mask_count = 4). The time loop is keras.layers.RNN's (recurrent.py): unrolled over a known number of
steps, a while loop over an unknown one."""

from __future__ import annotations

import tinytf as _tf
from tinytf.scopes import init_scope
from tinytf.variables import Variable

from .. import activations, constraints, initializers, regularizers
from .. import random as keras_random
from ..config import image_data_format
from .input_spec import InputSpec
from .layer import Layer
from .recurrent import RNN, cell_weight_config


def _tuple(value, rank: int, name: str) -> tuple:
    values = (value,) * rank if isinstance(value, int) else tuple(int(v) for v in value)
    if len(values) != rank:
        raise ValueError(f"The `{name}` argument must be a tuple of {rank} integers. Received {name}={value}")
    return values


def _conv_output_length(length: int, kernel: int, padding: str, stride: int, dilation: int) -> int:
    effective = (kernel - 1) * dilation + 1
    if padding == "same":
        return -(-length // stride)
    return -(-(length - effective + 1) // stride)


class ConvLSTMCell(Layer):
    """One step of a ConvLSTM: (x, [h, c]) -> (h', [h', c']) with convolutions in place of the LSTM's matmuls."""

    _untracked_attributes = frozenset({"_dropout_mask", "_recurrent_dropout_mask"})

    def __init__(self, rank, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.seed_generator = keras_random.SeedGenerator(seed)  # made first, as Keras' ConvLSTMCell makes it
        if rank > 3:
            raise ValueError(f"Rank {rank} convolutions are not currently implemented. Received: rank={rank}")
        self.rank = rank
        self.filters = filters
        self.kernel_size = _tuple(kernel_size, rank, "kernel_size")
        self.strides = _tuple(strides, rank, "strides")
        self.padding = padding.lower()
        if self.padding not in ("valid", "same"):
            raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. Received: padding={padding}")
        self.data_format = data_format or image_data_format()
        self.dilation_rate = _tuple(dilation_rate, rank, "dilation_rate")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("Specifying `strides > 1` is not compatible with `dilation_rate > 1`. Please provide "
                             f"`strides=1` or `dilation_rate=1`. Received: strides={self.strides} and "
                             f"dilation_rate={self.dilation_rate}")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.unit_forget_bias = unit_forget_bias
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self.dropout_mask_count = 4
        self.input_spec = InputSpec(ndim=rank + 2)
        self._dropout_mask = self._recurrent_dropout_mask = None

    # --- shapes ---------------------------------------------------------------------------------------------------
    @property
    def state_size(self) -> list:
        return [self.filters, self.filters]

    @property
    def output_size(self) -> int:
        return self.filters

    def state_shape(self, step_shape) -> tuple:
        """The shape of h and c (without the batch) for step inputs of `step_shape` (with the batch)."""
        channels_last = self.data_format == "channels_last"
        spatial = step_shape[1:-1] if channels_last else step_shape[2:]
        out = tuple(_conv_output_length(n, k, self.padding, s, d) for n, k, s, d in
                    zip(spatial, self.kernel_size, self.strides, self.dilation_rate))
        return out + (self.filters,) if channels_last else (self.filters,) + out

    def build(self, input_shape) -> None:
        channel_axis = -1 if self.data_format == "channels_last" else 1
        spatial = input_shape[1:-1] if self.data_format == "channels_last" else input_shape[2:]
        if None in tuple(spatial):
            raise ValueError("ConvLSTM layers only support static input shapes for the spatial dimension. Received "
                             f"invalid input shape: input_shape={tuple(input_shape)}")
        if input_shape[channel_axis] is None:
            raise ValueError("The channel dimension of the inputs (last axis) should be defined. Found None. Full "
                             f"input shape received: input_shape={tuple(input_shape)}")
        self.input_spec = InputSpec(ndim=self.rank + 2, shape=(None,) + tuple(input_shape[1:]))
        channels = int(input_shape[channel_axis])
        self.kernel = self.add_weight(shape=self.kernel_size + (channels, self.filters * 4), name="kernel",
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(shape=self.kernel_size + (self.filters, self.filters * 4),
                                                name="recurrent_kernel", initializer=self.recurrent_initializer,
                                                regularizer=self.recurrent_regularizer,
                                                constraint=self.recurrent_constraint)
        if self.use_bias:
            initializer = self.bias_initializer
            if self.unit_forget_bias:
                filters, given = self.filters, self.bias_initializer

                def initializer(shape, dtype=None):  # the forget gate's quarter starts at one
                    return _tf.concat([given((filters,), dtype=dtype), _tf.ones((filters,), dtype=dtype),
                                       given((filters * 2,), dtype=dtype)], axis=0)
            self.bias = self.add_weight(shape=(self.filters * 4,), name="bias", initializer=initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None

    # --- dropout: four masks (one per gate) for the whole sequence ------------------------------------------------
    def _masks(self, like, rate):
        ones = _tf.ones_like(like)
        return [keras_random.dropout(ones, rate, seed=self.seed_generator) for _ in range(self.dropout_mask_count)]

    def get_dropout_mask(self, step_input):
        if self._dropout_mask is None and self.dropout > 0:
            self._dropout_mask = self._masks(step_input, self.dropout)
        return self._dropout_mask

    def get_recurrent_dropout_mask(self, state):
        if self._recurrent_dropout_mask is None and self.recurrent_dropout > 0:
            self._recurrent_dropout_mask = self._masks(state, self.recurrent_dropout)
        return self._recurrent_dropout_mask

    def reset_dropout_mask(self) -> None:
        self._dropout_mask = None

    def reset_recurrent_dropout_mask(self) -> None:
        self._recurrent_dropout_mask = None

    # --- the step ---------------------------------------------------------------------------------------------------
    def _conv(self, x, kernel, strides, padding, dilations):
        """A convolution of this rank, channels last inside (channels_first inputs are transposed around it)."""
        if self.data_format == "channels_first":
            x = _tf.transpose(x, [0, *range(2, self.rank + 2), 1])
        padding = padding.upper()
        if self.rank == 1:
            out = _tf.nn.conv1d(x, kernel, strides[0], padding, dilations=dilations[0])
        elif self.rank == 2:
            out = _tf.nn.conv2d(x, kernel, list(strides), padding, dilations=list(dilations))
        else:
            out = _tf.nn.conv3d(x, kernel, [1, *strides, 1], padding, dilations=[1, *dilations, 1])
        if self.data_format == "channels_first":
            out = _tf.transpose(out, [0, self.rank + 1, *range(1, self.rank + 1)])
        return out

    def _bias_shape(self):
        return (1,) * (self.rank + 1) + (self.filters,) if self.data_format == "channels_last" else \
            (1, self.filters) + (1,) * self.rank

    def call(self, inputs, states, training=False):
        h_prev, c_prev = states[0], states[1]
        gate_inputs = [inputs] * 4
        if training and 0.0 < self.dropout < 1.0:
            gate_inputs = [inputs * mask for mask in self.get_dropout_mask(inputs)]
        gate_states = [h_prev] * 4
        if training and 0.0 < self.recurrent_dropout < 1.0:
            gate_states = [h_prev * mask for mask in self.get_recurrent_dropout_mask(h_prev)]
        kernels = _tf.split(self.kernel, 4, axis=self.rank + 1)
        recurrent_kernels = _tf.split(self.recurrent_kernel, 4, axis=self.rank + 1)
        biases = _tf.split(self.bias, 4) if self.use_bias else [None] * 4
        ones = (1,) * self.rank
        pre = []
        for x, h, kernel, recurrent_kernel, bias in zip(gate_inputs, gate_states, kernels, recurrent_kernels, biases):
            x_part = self._conv(x, kernel, self.strides, self.padding, self.dilation_rate)
            if bias is not None:
                x_part = x_part + _tf.reshape(bias, self._bias_shape())
            pre.append(x_part + self._conv(h, recurrent_kernel, ones, "same", ones))
        i = self.recurrent_activation(pre[0])
        f = self.recurrent_activation(pre[1])
        c = f * c_prev + i * self.activation(pre[2])
        o = self.recurrent_activation(pre[3])
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self) -> dict:
        return {**super().get_config(), "filters": self.filters, "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate, "activation": activations.serialize(self.activation),
                "recurrent_activation": activations.serialize(self.recurrent_activation), "use_bias": self.use_bias,
                **cell_weight_config(self, with_forget_bias=True)}


class ConvLSTM(RNN):
    """The N-D ConvLSTM layer over (batch, time, *spatial, channels) sequences (ConvLSTM1D/2D/3D fix the rank)."""

    _rank = None

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None, dilation_rate=1,
                 activation="tanh", recurrent_activation="sigmoid", use_bias=True,
                 kernel_initializer="glorot_uniform", recurrent_initializer="orthogonal", bias_initializer="zeros",
                 unit_forget_bias=True, kernel_regularizer=None, recurrent_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, recurrent_constraint=None, bias_constraint=None, dropout=0.0,
                 recurrent_dropout=0.0, seed=None, return_sequences=False, return_state=False, go_backwards=False,
                 stateful=False, **kwargs):
        cell = ConvLSTMCell(
            self._rank, filters, kernel_size, strides=strides, padding=padding, data_format=data_format,
            dilation_rate=dilation_rate, activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer, recurrent_initializer=recurrent_initializer,
            bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
            kernel_regularizer=kernel_regularizer, recurrent_regularizer=recurrent_regularizer,
            bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
            recurrent_constraint=recurrent_constraint, bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, seed=seed, name="conv_lstm_cell", dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, **kwargs)
        self.input_spec = InputSpec(ndim=self._rank + 3)
        self._state_shape = None

    def build(self, input_shape) -> None:
        step_shape = (input_shape[0],) + tuple(input_shape[2:])
        self.cell.build(step_shape)
        self.cell.built = True
        self._state_shape = self.cell.state_shape(step_shape)
        if self.stateful:
            if input_shape[0] is None:
                raise ValueError(f"Layer '{self.name}': a stateful RNN needs a fixed batch size (batch_size or "
                                 f"batch_shape on the Input)")
            with init_scope():  # plain variables, not weights, as the other stateful RNNs keep them
                self._states = [Variable(_tf.zeros((input_shape[0],) + self._state_shape), trainable=False,
                                         name=f"state_{i}") for i in range(2)]

    def _zeros(self, inputs, size):
        """Zero h, c (and first output) of the state shape, for this batch."""
        batch = _tf.shape(inputs)[0]
        return _tf.zeros(_tf.concat([[batch], list(self._state_shape)], axis=0), inputs.dtype)

    def _dropout_cells(self, inputs, states) -> list:
        """The cell's four input and four recurrent masks, made before the steps (one set per sequence)."""
        self.cell.get_dropout_mask(inputs[:, 0])
        self.cell.get_recurrent_dropout_mask(states[0])
        return [self.cell]

    def call(self, inputs, initial_state=None, mask=None, training=False):
        return super().call(inputs, mask=mask, training=training, initial_state=initial_state)

    def compute_mask(self, inputs, previous_mask=None):
        mask = previous_mask[0] if isinstance(previous_mask, (list, tuple)) else previous_mask
        output_mask = mask if self.return_sequences else None
        return [output_mask, None, None] if self.return_state else output_mask

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _cell_property(name):
    return property(lambda self: getattr(self.cell, name))


for _name in ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate", "activation",
              "recurrent_activation", "use_bias", "kernel_initializer", "recurrent_initializer", "bias_initializer",
              "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
              "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout"):
    setattr(ConvLSTM, _name, _cell_property(_name))


class ConvLSTM1D(ConvLSTM):
    """A ConvLSTM over (batch, time, steps, channels) sequences with 1-D convolutions."""

    _rank = 1


class ConvLSTM2D(ConvLSTM):
    """A ConvLSTM over (batch, time, rows, cols, channels) sequences with 2-D convolutions."""

    _rank = 2


class ConvLSTM3D(ConvLSTM):
    """A ConvLSTM over (batch, time, depth, rows, cols, channels) sequences with 3-D convolutions."""

    _rank = 3
