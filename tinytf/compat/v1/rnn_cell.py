"""tf.compat.v1.nn.rnn_cell: TF1's RNN cells (TF 2.21 ships them in tf_keras' legacy_cells.py), each a TF1
layer whose weights are get_variables of its scope, named as TF1 names them (`rnn/basic_lstm_cell/kernel`,
`rnn/multi_rnn_cell/cell_0/gru_cell/gates/kernel`), so TF1 checkpoints restore into them. A cell maps
(inputs [batch, depth], state) to (output, new state); tf.compat.v1.nn.dynamic_rnn and static_rnn (rnn.py) run
it over time."""

from __future__ import annotations

import collections
import hashlib
import numbers

from tinytf.runtime import dtypes

from ... import nest
from .initializers import constant_initializer, zeros_initializer
from .legacy_layer import Layer
from .variable_scope import get_variable_scope, variable_scope

_WEIGHTS = "kernel"
_BIAS = "bias"


def _tf():
    import tinytf

    return tinytf


def _activation(activation):
    tf = _tf()
    if not activation:
        return tf.tanh
    if isinstance(activation, str):
        return tf.keras.activations.get(activation)
    return activation


def _check_supported_dtypes(dtype) -> None:
    if dtype is None:
        return
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_complex):
        raise ValueError(f"RNN cell only supports floating point inputs, but received dtype: {dtype.name}")


def _check_input_dtypes(values) -> None:
    for value in nest.flatten(values):
        _check_supported_dtypes(value.dtype)


def _depth(input_shape) -> int:
    depth = input_shape[-1]
    depth = getattr(depth, "value", depth)
    if depth is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, received shape: {input_shape}")
    return int(depth)


def _zero_state_tensors(state_size, batch_size, dtype):
    tf = _tf()

    def zeros(size):
        dims = list(size) if isinstance(size, (list, tuple)) else list(getattr(size, "as_list", lambda: [size])())
        return tf.zeros(tf.stack([batch_size] + dims) if tf.is_tensor(batch_size) else [batch_size] + dims,
                        dtype=dtype)

    return nest.map_structure(zeros, state_size) if nest.is_nested(state_size) else zeros(state_size)


_LSTMStateTuple = collections.namedtuple("LSTMStateTuple", ("c", "h"))


class LSTMStateTuple(_LSTMStateTuple):
    """An LSTM's state: (c, h), the memory cell and the output, in that order."""

    __slots__ = ()

    @property
    def dtype(self):
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent dtypes for internal state: {c.dtype} vs {h.dtype}")
        return c.dtype


class RNNCell(Layer):
    """An RNN cell: `output, new_state = cell(inputs, state)`, with `state_size`, `output_size`, `zero_state`.
    A cell whose call makes its weights with get_variable is built in the variable scope of its first call."""

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
        self._is_tf_rnn_cell = True
        self._rnncell_scope = None

    def __call__(self, inputs, state, scope=None):
        if scope is not None:
            with variable_scope(scope) as entered:
                return super().__call__(inputs, state, scope=entered)
        if self._rnncell_scope is None:
            self._rnncell_scope = get_variable_scope()
        with variable_scope(self._rnncell_scope):
            return super().__call__(inputs, state)

    @property
    def state_size(self):
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self):
        raise NotImplementedError("Abstract method")

    def build(self, input_shape) -> None:
        self.built = True

    def get_initial_state(self, inputs=None, batch_size=None, dtype=None):
        tf = _tf()
        if inputs is not None:
            inputs = tf.convert_to_tensor(inputs, name="inputs")
            static = inputs.shape[0]
            if batch_size is not None and not tf.is_tensor(batch_size) and static != batch_size:
                raise ValueError("batch size from input tensor is different from the input param. Input tensor "
                                 f"batch: {static}, batch_size: {batch_size}")
            if dtype is not None and inputs.dtype != dtype:
                raise ValueError("dtype from input tensor is different from the input param. Input tensor dtype: "
                                 f"{inputs.dtype}, dtype: {dtype}")
            batch_size = static if static is not None else tf.shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial state: "
                             f"batch_size={batch_size}, dtype={dtype}")
        return self.zero_state(batch_size, dtype)

    def zero_state(self, batch_size, dtype):
        """Zeros shaped [batch_size, size] for each size of state_size (a nest for a tuple state)."""
        with _tf().name_scope(type(self).__name__ + "ZeroState"):
            return _zero_state_tensors(self.state_size, batch_size, dtypes.as_dtype(dtype))

    def _build_for_rnn(self, input_shape, dtype=None) -> None:
        """Create the weights before an RNN loop runs the cell (tinytf builds no variable inside a loop body):
        the scope chosen and the weights made exactly as the first call would."""
        if self.built:
            return
        if self._rnncell_scope is None:
            self._rnncell_scope = get_variable_scope()
        with variable_scope(self._rnncell_scope):
            self._set_scope(None)
            with variable_scope(self._scope, reuse=self._reuse, auxiliary_name_scope=False):
                self._build_inner(input_shape, dtype)

    def _build_inner(self, input_shape, dtype=None) -> None:
        self.build(input_shape)
        self.built = True


class LayerRNNCell(RNNCell):
    """A cell that makes its weights in build() (as every built-in cell does), like any TF1 layer."""

    def __call__(self, inputs, state, scope=None, *args, **kwargs):
        return Layer.__call__(self, inputs, state, *args, scope=scope, **kwargs)

    def _build_for_rnn(self, input_shape, dtype=None) -> None:
        if self.built:
            return
        self._set_scope(None)
        with variable_scope(self._scope, reuse=self._reuse, auxiliary_name_scope=False):
            if self._dtype is None:  # as the first call would: the inputs' dtype
                self._dtype = dtypes.as_dtype(dtype) if dtype is not None else dtypes.float32
            self._build_inner(input_shape)


class BasicRNNCell(LayerRNNCell):
    """output = new_state = activation(concat([inputs, state]) @ kernel + bias)."""

    def __init__(self, num_units, activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        _check_supported_dtypes(self._dtype)
        self._num_units = num_units
        self._activation = _activation(activation)

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, input_shape):
        depth = _depth(input_shape)
        self._kernel = self.add_weight(_WEIGHTS, shape=[depth + self._num_units, self._num_units])
        self._bias = self.add_weight(_BIAS, shape=[self._num_units], initializer=zeros_initializer(dtype=self._dtype))
        self.built = True

    def call(self, inputs, state):
        tf = _tf()
        _check_input_dtypes([inputs, state])
        gate_inputs = tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1), self._kernel), self._bias)
        output = self._activation(gate_inputs)
        return output, output

    def get_config(self):
        return {**super().get_config(), "num_units": self._num_units, "reuse": self._reuse}


class GRUCell(LayerRNNCell):
    """The GRU of Cho et al. 2014: gates r, u from concat([inputs, state]); new_h = u * h + (1 - u) * c."""

    def __init__(self, num_units, activation=None, reuse=None, kernel_initializer=None, bias_initializer=None,
                 name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        _check_supported_dtypes(self._dtype)
        self._num_units = num_units
        self._activation = _activation(activation)
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    @property
    def state_size(self):
        return self._num_units

    @property
    def output_size(self):
        return self._num_units

    def build(self, input_shape):
        depth, units = _depth(input_shape), self._num_units
        self._gate_kernel = self.add_weight(f"gates/{_WEIGHTS}", shape=[depth + units, 2 * units],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(f"gates/{_BIAS}", shape=[2 * units], initializer=(
            self._bias_initializer if self._bias_initializer is not None
            else constant_initializer(1.0, dtype=self._dtype)))
        self._candidate_kernel = self.add_weight(f"candidate/{_WEIGHTS}", shape=[depth + units, units],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(f"candidate/{_BIAS}", shape=[units], initializer=(
            self._bias_initializer if self._bias_initializer is not None else zeros_initializer(dtype=self._dtype)))
        self.built = True

    def call(self, inputs, state):
        tf = _tf()
        _check_input_dtypes([inputs, state])
        gates = tf.nn.bias_add(tf.matmul(tf.concat([inputs, state], 1), self._gate_kernel), self._gate_bias)
        r, u = tf.split(tf.sigmoid(gates), 2, axis=1)
        candidate = tf.nn.bias_add(tf.matmul(tf.concat([inputs, r * state], 1), self._candidate_kernel),
                                   self._candidate_bias)
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h

    def get_config(self):
        return {**super().get_config(), "num_units": self._num_units, "reuse": self._reuse}


class BasicLSTMCell(LayerRNNCell):
    """The basic LSTM: gates i, j, f, o from one kernel over concat([inputs, h]); `forget_bias` added to f."""

    def __init__(self, num_units, forget_bias=1.0, state_is_tuple=True, activation=None, reuse=None, name=None,
                 dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        _check_supported_dtypes(self._dtype)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation)

    @property
    def state_size(self):
        units = self._num_units
        return LSTMStateTuple(units, units) if self._state_is_tuple else 2 * units

    @property
    def output_size(self):
        return self._num_units

    def build(self, input_shape):
        depth = _depth(input_shape)
        self._kernel = self.add_weight(_WEIGHTS, shape=[depth + self._num_units, 4 * self._num_units])
        self._bias = self.add_weight(_BIAS, shape=[4 * self._num_units],
                                     initializer=zeros_initializer(dtype=self._dtype))
        self.built = True

    def call(self, inputs, state):
        tf = _tf()
        _check_input_dtypes([inputs, state])
        c, h = state if self._state_is_tuple else tf.split(state, 2, axis=1)
        gates = tf.nn.bias_add(tf.matmul(tf.concat([inputs, h], 1), self._kernel), self._bias)
        i, j, f, o = tf.split(gates, 4, axis=1)
        forget_bias = tf.constant(self._forget_bias, dtype=f.dtype)
        new_c = c * tf.sigmoid(f + forget_bias) + tf.sigmoid(i) * self._activation(j)
        new_h = self._activation(new_c) * tf.sigmoid(o)
        new_state = LSTMStateTuple(new_c, new_h) if self._state_is_tuple else tf.concat([new_c, new_h], 1)
        return new_h, new_state

    def get_config(self):
        return {**super().get_config(), "num_units": self._num_units, "forget_bias": self._forget_bias,
                "state_is_tuple": self._state_is_tuple, "reuse": self._reuse}


class LSTMCell(LayerRNNCell):
    """The full LSTM: optional peepholes (w_f_diag, w_i_diag, w_o_diag), cell clipping, and a projection of the
    output to `num_proj` units (clipped by `proj_clip`)."""

    def __init__(self, num_units, use_peepholes=False, cell_clip=None, initializer=None, num_proj=None,
                 proj_clip=None, num_unit_shards=None, num_proj_shards=None, forget_bias=1.0, state_is_tuple=True,
                 activation=None, reuse=None, name=None, dtype=None, **kwargs):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        _check_supported_dtypes(self._dtype)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation)
        output = num_proj if num_proj else num_units
        self._state_size = LSTMStateTuple(num_units, output) if state_is_tuple else num_units + output
        self._output_size = output

    @property
    def state_size(self):
        return self._state_size

    @property
    def output_size(self):
        return self._output_size

    def build(self, input_shape):
        depth = _depth(input_shape)
        h_depth = self._num_units if self._num_proj is None else self._num_proj
        units = self._num_units
        self._kernel = self.add_weight(_WEIGHTS, shape=[depth + h_depth, 4 * units], initializer=self._initializer)
        self._bias = self.add_weight(_BIAS, shape=[4 * units], initializer=zeros_initializer(dtype=self._dtype))
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", shape=[units], initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", shape=[units], initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", shape=[units], initializer=self._initializer)
        if self._num_proj is not None:
            self._proj_kernel = self.add_weight(f"projection/{_WEIGHTS}", shape=[units, self._num_proj],
                                                initializer=self._initializer)
        self.built = True

    def call(self, inputs, state):
        tf = _tf()
        _check_input_dtypes([inputs, state])
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = tf.slice(state, [0, 0], [-1, self._num_units])
            m_prev = tf.slice(state, [0, self._num_units], [-1, num_proj])
        if inputs.shape.rank != 2 or inputs.shape[1] is None:
            raise ValueError(f"Could not infer input size from inputs.get_shape()[-1].Received input shape: "
                             f"{inputs.shape}")
        lstm_matrix = tf.nn.bias_add(tf.matmul(tf.concat([inputs, m_prev], 1), self._kernel), self._bias)
        i, j, f, o = tf.split(lstm_matrix, 4, axis=1)
        if self._use_peepholes:
            c = (tf.sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev
                 + tf.sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = tf.sigmoid(f + self._forget_bias) * c_prev + tf.sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = tf.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = tf.sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = tf.sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = tf.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = tf.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else tf.concat([c, m], 1)
        return m, new_state

    def get_config(self):
        return {**super().get_config(), "num_units": self._num_units, "use_peepholes": self._use_peepholes,
                "cell_clip": self._cell_clip, "num_proj": self._num_proj, "proj_clip": self._proj_clip,
                "forget_bias": self._forget_bias, "state_is_tuple": self._state_is_tuple, "reuse": self._reuse}


class MultiRNNCell(RNNCell):
    """Cells stacked in order: cell i runs in variable scope `cell_i` on the output of cell i-1."""

    def __init__(self, cells, state_is_tuple=True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError(f"cells must be a list or tuple, but received: {cells}.")
        self._cells = list(cells)
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in self._cells):
            raise ValueError("Some cells return tuples of states, but the flag state_is_tuple is not set. State "
                             f"sizes are: {[c.state_size for c in self._cells]}")

    @property
    def state_size(self):
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    @property
    def output_size(self):
        return self._cells[-1].output_size

    def zero_state(self, batch_size, dtype):
        with _tf().name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return _zero_state_tensors(self.state_size, batch_size, dtypes.as_dtype(dtype))

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return [w for cell in self._cells for w in cell.trainable_weights]

    @property
    def non_trainable_weights(self):
        weights = [w for cell in self._cells for w in cell.non_trainable_weights]
        if not self.trainable:
            return [w for cell in self._cells for w in cell.trainable_weights] + weights
        return weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    variables = weights
    trainable_variables = trainable_weights

    def _build_inner(self, input_shape, dtype=None) -> None:
        shape = list(input_shape)
        for i, cell in enumerate(self._cells):
            with variable_scope(f"cell_{i}"):
                _build_cell(cell, shape, dtype)
            shape = shape[:-1] + [_flat_size(cell.output_size)]
        self.built = True

    def call(self, inputs, state):
        tf = _tf()
        position = 0
        current = inputs
        new_states = []
        for i, cell in enumerate(self._cells):
            with variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError(f"Expected state to be a tuple of length {len(self.state_size)}, but "
                                         f"received: {state}")
                    cell_state = state[i]
                else:
                    cell_state = tf.slice(state, [0, position], [-1, cell.state_size])
                    position += cell.state_size
                current, new_state = cell(current, cell_state)
                new_states.append(new_state)
        return current, (tuple(new_states) if self._state_is_tuple else tf.concat(new_states, 1))


def _flat_size(size) -> int:
    return int(size if isinstance(size, numbers.Integral) else size[-1])


def _build_cell(cell, input_shape, dtype=None) -> None:
    """Build `cell` (and the cells it wraps) in the current variable scope, as its first call would."""
    if hasattr(cell, "_build_for_rnn"):
        cell._build_for_rnn(input_shape, dtype)


class _RNNCellWrapper(RNNCell):
    """A cell around a cell: its calls go to the wrapped cell's __call__ (so the wrapped cell's variables
    keep their own names: a wrapper adds no scope of its own)."""

    def __init__(self, cell, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._check_cell(cell)
        self.cell = cell

    def _check_cell(self, cell) -> None:
        if not (hasattr(cell, "output_size") and hasattr(cell, "state_size") and callable(cell)):
            raise TypeError(f"The argument 'cell' ({cell}) is not an RNNCell: 'output_size' property is missing, "
                            "'state_size' property is missing, either 'zero_state' or 'get_initial_state' method "
                            "is required, is not callable.")

    def __call__(self, inputs, state, scope=None):
        return self._call_wrapped_cell(inputs, state, self.cell.__call__, scope=scope)

    @property
    def wrapped_cell(self):
        return self.cell

    @property
    def state_size(self):
        return self.cell.state_size

    @property
    def output_size(self):
        return self.cell.output_size

    def zero_state(self, batch_size, dtype):
        with _tf().name_scope(type(self).__name__ + "ZeroState"):
            return self.cell.zero_state(batch_size, dtype)

    # its weights lists stay empty, as TF 2.21's legacy wrappers' do: the wrapped cell lists its own

    def _build_for_rnn(self, input_shape, dtype=None) -> None:
        _build_cell(self.cell, input_shape, dtype)
        self.built = True


def _default_dropout_state_filter_visitor(substate):
    """Dropout on every state but an LSTM's memory cell `c`, as TF's DropoutWrapper does by default."""
    if isinstance(substate, LSTMStateTuple):
        return LSTMStateTuple(c=False, h=True)
    return True


class DropoutWrapper(_RNNCellWrapper):
    """Dropout on the wrapped cell's inputs, outputs and state, each with its keep probability; with
    `variational_recurrent`, one mask per wrapper used at every time step (Gal and Ghahramani)."""

    def __init__(self, cell, input_keep_prob=1.0, output_keep_prob=1.0, state_keep_prob=1.0,
                 variational_recurrent=False, input_size=None, dtype=None, seed=None,
                 dropout_state_filter_visitor=None, **kwargs):
        super().__init__(cell, dtype=dtype, **kwargs)
        if dropout_state_filter_visitor is not None and not callable(dropout_state_filter_visitor):
            raise TypeError("dropout_state_filter_visitor must be callable. Received: "
                            f"{dropout_state_filter_visitor}")
        self._dropout_state_filter = dropout_state_filter_visitor or _default_dropout_state_filter_visitor
        for name, prob in (("input_keep_prob", input_keep_prob), ("state_keep_prob", state_keep_prob),
                           ("output_keep_prob", output_keep_prob)):
            if isinstance(prob, numbers.Real) and not 0 < float(prob) <= 1:
                raise ValueError(f"Parameter {name} must be between 0 and 1: {prob}")
        self._input_keep_prob = input_keep_prob
        self._state_keep_prob = state_keep_prob
        self._output_keep_prob = output_keep_prob
        self._variational_recurrent = variational_recurrent
        self._input_size = input_size
        self._seed = seed
        self._noise: dict = {}
        if variational_recurrent:
            if dtype is None:
                raise ValueError("When variational_recurrent=True, dtype must be provided")
            if _should_dropout(input_keep_prob) and input_size is None:
                raise ValueError("When variational_recurrent=True and input_keep_prob < 1.0 or is unknown, "
                                 "input_size must be provided")
            # the masks' noise, drawn once here as TF does (so a loop's steps share it): [1, depth] each
            for salt, sizes in (("input", input_size), ("state", cell.state_size), ("output", cell.output_size)):
                if sizes is None:
                    continue
                for index, size in enumerate(nest.flatten(sizes)):
                    self._noise[(salt, index)] = _tf().random.uniform(
                        [1, _flat_size(size)], seed=self._gen_seed(salt, index), dtype=dtype)

    def _gen_seed(self, salt_prefix, index):
        """TF's per-tensor seed: md5 of the wrapper's seed and a salt, so each mask draws its own numbers."""
        if self._seed is None:
            return None
        digest = hashlib.md5((str(self._seed) + f"{salt_prefix}_{index}").encode("utf-8")).hexdigest()
        return int(digest[:8], 16) & 0x7FFFFFFF

    def _dropout(self, values, salt_prefix, keep_prob, visit=None):
        tf = _tf()
        flat = nest.flatten(values)
        keep_flags = _expand_filter(visit, values) if visit is not None else [True] * len(flat)
        out = []
        for index, (value, keep) in enumerate(zip(flat, keep_flags)):
            if not keep:
                out.append(value)
                continue
            seed = self._gen_seed(salt_prefix, index)
            if self._variational_recurrent:
                binary = tf.floor(keep_prob + self._noise[(salt_prefix, index)])
                out.append(tf.divide(value, keep_prob) * binary)
            else:
                out.append(tf.nn.dropout(value, rate=1 - keep_prob, seed=seed))
        return nest.pack_sequence_as(values, out)

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        if _should_dropout(self._input_keep_prob):
            inputs = self._dropout(inputs, "input", self._input_keep_prob)
        output, new_state = cell_call_fn(inputs, state, **kwargs)
        if _should_dropout(self._state_keep_prob):
            new_state = self._dropout(new_state, "state", self._state_keep_prob, self._dropout_state_filter)
        if _should_dropout(self._output_keep_prob):
            output = self._dropout(output, "output", self._output_keep_prob)
        return output, new_state


def _should_dropout(prob) -> bool:
    return not isinstance(prob, float) or prob < 1


def _expand_filter(visit, values) -> list:
    """The state filter's answer for every tensor of nest.flatten(values) (True: apply dropout). As TF's
    get_traverse_shallow_structure: True on a nested state goes into it; a structure of bools decides per part."""
    answer = visit(values)
    if not nest.is_nested(values):
        return [bool(answer)]
    if answer is True:
        return [flag for part in values for flag in _expand_filter(visit, part)]
    if answer is False:
        return [False] * len(nest.flatten(values))
    return [bool(flag) for part, flag in zip(values, answer) for _ in nest.flatten(part)]


class ResidualWrapper(_RNNCellWrapper):
    """output = inputs + cell's output (or `residual_fn(inputs, outputs)`); the state passes unchanged."""

    def __init__(self, cell, residual_fn=None, **kwargs):
        super().__init__(cell, **kwargs)
        self._residual_fn = residual_fn

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        outputs, new_state = cell_call_fn(inputs, state, **kwargs)

        def default_residual_fn(inputs, outputs):
            nest.assert_same_structure(inputs, outputs)
            for inp, out in zip(nest.flatten(inputs), nest.flatten(outputs)):
                if not inp.shape.is_compatible_with(out.shape):
                    raise ValueError(f"Shapes {inp.shape} and {out.shape} are incompatible")
            return nest.map_structure(lambda inp, out: inp + out, inputs, outputs)

        return (self._residual_fn or default_residual_fn)(inputs, outputs), new_state


class DeviceWrapper(_RNNCellWrapper):
    """Runs the wrapped cell on `device` (tinytf runs everything on the CPU: the device is recorded only)."""

    def __init__(self, cell, device, **kwargs):
        super().__init__(cell, **kwargs)
        self._device = device

    def _call_wrapped_cell(self, inputs, state, cell_call_fn, **kwargs):
        with _tf().device(self._device):
            return cell_call_fn(inputs, state, **kwargs)


__all__ = ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell", "LSTMCell",
           "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper"]
