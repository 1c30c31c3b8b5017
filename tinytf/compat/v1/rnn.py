"""TF1's RNN drivers (tf.compat.v1.nn): `dynamic_rnn` (a while_loop over time, TensorArrays in and out),
`static_rnn` (the loop unrolled in Python), and their bidirectional forms. They run in a TF1 graph, eagerly and
in a tf.function, and differentiate through the loop. The cell's variables live in the scope `rnn` (or
`bidirectional_rnn/fw` and `/bw`), as TF1 names them; tinytf creates them before the loop (a loop body makes no
variables), exactly as the cell's first call would."""

from __future__ import annotations

from tinytf.runtime import dtypes

from ... import nest
from .rnn_cell import LayerRNNCell, MultiRNNCell, _build_cell, _RNNCellWrapper
from .variable_scope import variable_scope


def _tf():
    import tinytf

    return tinytf


def _assert_like_rnncell(name, cell) -> None:
    problems = []
    if not hasattr(cell, "output_size"):
        problems.append("'output_size' property is missing")
    if not hasattr(cell, "state_size"):
        problems.append("'state_size' property is missing")
    if not (hasattr(cell, "zero_state") or hasattr(cell, "get_initial_state")):
        problems.append("either 'zero_state' or 'get_initial_state' method is required")
    if not callable(cell):
        problems.append("is not callable")
    if problems:
        raise TypeError(f"The argument {name!r} ({cell}) is not an RNNCell: {', '.join(problems)}.")


def _builds_in_build(cell) -> bool:
    """Whether build() makes all of the cell's weights (every built-in cell), rather than its call()."""
    return isinstance(cell, (LayerRNNCell, MultiRNNCell, _RNNCellWrapper))


def _prepare_cell(cell, step, state, batch_size) -> None:
    """Make the cell's variables before the loop: by build() for the built-in cells, else by one call of the
    cell on zeros outside the loop (its result unused), in the current variable scope."""
    tf = _tf()
    if getattr(cell, "built", False):
        return
    flat_step = nest.flatten(step)
    if _builds_in_build(cell) and len(flat_step) == 1:
        _build_tree(cell, flat_step[0].shape, flat_step[0].dtype)
        return
    rows = batch_size if isinstance(batch_size, int) else 1

    def zeros(t):
        return tf.zeros([rows] + t.shape.as_list()[1:], dtype=t.dtype)

    cell(nest.map_structure(zeros, step), nest.map_structure(zeros, state))


def _build_tree(cell, input_shape, dtype) -> None:
    _build_cell(cell, input_shape.as_list(), dtype)


def _infer_state_dtype(explicit_dtype, state):
    if explicit_dtype is not None:
        return explicit_dtype
    flat = nest.flatten(state)
    return flat[0].dtype


def _best_effort_batch(flat_input):
    tf = _tf()
    for x in flat_input:
        if x.shape.rank is not None and x.shape.rank < 2:
            raise ValueError(f"Input size (depth of inputs) must be accessible via shape inference, but saw value "
                             f"None.; expected rank >= 2, got shape {x.shape}")
        if x.shape[1] is not None:
            return x.shape[1]
    return tf.shape(flat_input[0])[1]


def _initial_state(cell, initial_state, batch_size, dtype, message):
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError(message)
    return cell.zero_state(batch_size, dtypes.as_dtype(dtype))


def _check_sequence_length(sequence_length):
    tf = _tf()
    if sequence_length is None:
        return None
    sequence_length = tf.cast(sequence_length, tf.int32)
    if sequence_length.shape.rank not in (None, 1):
        raise ValueError("Argument sequence_length must be a vector of length batch_size. Received "
                         f"sequence_length={sequence_length} of shape: {sequence_length.shape}")
    return tf.identity(sequence_length, name="sequence_length")


def _copy_some_through(time, sequence_length, zero_output, state, new_output, new_state):
    """Past an example's length its output is zeros and its state stays as it was (TF's _rnn_step)."""
    tf = _tf()
    done = time >= sequence_length  # [batch]

    def pick(old, new):
        cond = tf.reshape(done, [-1] + [1] * (new.shape.rank - 1))
        return tf.where(cond, old, new)

    outputs = nest.map_structure(pick, zero_output, new_output)
    states = nest.map_structure(pick, state, new_state)
    return outputs, states


def _zero_output(cell, batch_size, dtype):
    tf = _tf()

    def zeros(size):
        dims = [batch_size, int(size)] if not hasattr(size, "as_list") else [batch_size] + size.as_list()
        return tf.zeros(tf.stack(dims) if tf.is_tensor(batch_size) else dims, dtype=dtype)

    return nest.map_structure(zeros, cell.output_size)


def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None, dtype=None, parallel_iterations=None,
                swap_memory=False, time_major=False, scope=None):
    """`tf.compat.v1.nn.dynamic_rnn`: run `cell` over the time axis of `inputs` ([batch, time, depth], or
    [time, batch, depth] with time_major) in a while_loop; returns (outputs, final_state). With
    `sequence_length`, outputs past an example's length are zeros and its state is the one at its length."""
    tf = _tf()
    _assert_like_rnncell("cell", cell)
    with variable_scope(scope or "rnn"):
        flat_input = [tf.convert_to_tensor(x) for x in nest.flatten(inputs)]
        if not time_major:
            flat_input = [_swap_batch_time(x) for x in flat_input]
        sequence_length = _check_sequence_length(sequence_length)
        batch_size = _best_effort_batch(flat_input)
        state = _initial_state(cell, initial_state, batch_size, dtype,
                               "If no initial_state is provided, argument `dtype` must be specified")
        first_steps = [x[0] for x in flat_input]
        _prepare_cell(cell, nest.pack_sequence_as(inputs, first_steps) if nest.is_nested(inputs) else first_steps[0],
                      state, batch_size)
        outputs, final_state = _dynamic_rnn_loop(cell, flat_input, inputs, state, sequence_length, batch_size,
                                                 _infer_state_dtype(dtype, state))
        if not time_major:
            outputs = nest.map_structure(_swap_batch_time, outputs)
        return outputs, final_state


def _swap_batch_time(x):
    tf = _tf()
    rank = x.shape.rank
    if rank is not None and rank < 2:
        return x
    return tf.transpose(x, [1, 0] + list(range(2, rank)))


def _dynamic_rnn_loop(cell, flat_input, inputs, state, sequence_length, batch_size, dtype):
    tf = _tf()
    static_steps = flat_input[0].shape[0]
    time_steps = static_steps if static_steps is not None else tf.shape(flat_input[0])[0]
    input_tas = [tf.TensorArray(x.dtype, size=time_steps, element_shape=x.shape[1:]).unstack(x)
                 for x in flat_input]
    zero_output = _zero_output(cell, batch_size, dtype)
    flat_zero = nest.flatten(zero_output)
    output_tas = [tf.TensorArray(z.dtype, size=time_steps, element_shape=z.shape) for z in flat_zero]
    flat_state = nest.flatten(state)

    def body(time, output_tas, *flat_state):
        state = nest.pack_sequence_as(state_template, list(flat_state))
        step = [ta.read(time) for ta in input_tas]
        for value, x in zip(step, flat_input):
            value.set_shape(x.shape[1:])
        step = nest.pack_sequence_as(inputs, step) if nest.is_nested(inputs) else step[0]
        new_output, new_state = cell(step, state)
        if sequence_length is not None:
            new_output, new_state = _copy_some_through(time, sequence_length, zero_output, state, new_output,
                                                       new_state)
        new_flat_state = nest.flatten(new_state)
        for new, old in zip(new_flat_state, flat_state):
            new.set_shape(old.shape)
        written = [ta.write(time, out) for ta, out in zip(output_tas, nest.flatten(new_output))]
        return (time + 1, written, *new_flat_state)

    state_template = state
    loop_vars = (tf.constant(0, name="time"), output_tas, *flat_state)
    results = tf.while_loop(lambda time, *_: time < time_steps, body, loop_vars,
                            maximum_iterations=time_steps)
    final_output_tas, final_flat_state = results[1], results[2:]
    outputs = []
    for ta, z in zip(final_output_tas, flat_zero):
        stacked = ta.stack()
        stacked.set_shape([static_steps] + z.shape.as_list())
        outputs.append(stacked)
    outputs = nest.pack_sequence_as(cell.output_size, outputs) if nest.is_nested(cell.output_size) else outputs[0]
    final_state = nest.pack_sequence_as(state_template, list(final_flat_state))
    return outputs, final_state


def static_rnn(cell, inputs, initial_state=None, dtype=None, sequence_length=None, scope=None):
    """`tf.compat.v1.nn.static_rnn`: the RNN unrolled over a Python list of [batch, depth] inputs; returns
    (list of outputs, final state). Steps after the first reuse the cell's variables."""
    tf = _tf()
    _assert_like_rnncell("cell", cell)
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    outputs = []
    with variable_scope(scope or "rnn") as varscope:
        first = nest.flatten(inputs[0])
        for x in first:
            if x.shape.rank is not None and x.shape.rank < 2:
                raise ValueError(f"Input size (depth of inputs) must be accessible via shape inference, but saw "
                                 f"value None. Input shape: {x.shape}")
        batch_size = first[0].shape[0]
        if batch_size is None:
            batch_size = tf.shape(first[0])[0]
        state = _initial_state(cell, initial_state, batch_size, dtype,
                               "If no initial_state is provided, argument `dtype` must be specified")
        sequence_length = _check_sequence_length(sequence_length)
        if sequence_length is not None:
            zero_output = _zero_output(cell, batch_size, _infer_state_dtype(dtype, state))
        for time, step in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()
            output, new_state = cell(step, state)
            if sequence_length is not None:
                output, new_state = _copy_some_through(time, sequence_length, zero_output, state, output, new_state)
            state = new_state
            outputs.append(output)
        return outputs, state


def _reverse(x, lengths, seq_axis, batch_axis):
    tf = _tf()
    if lengths is not None:
        return tf.reverse_sequence(x, lengths, seq_axis=seq_axis, batch_axis=batch_axis)
    return tf.reverse(x, axis=[seq_axis])


def bidirectional_dynamic_rnn(cell_fw, cell_bw, inputs, sequence_length=None, initial_state_fw=None,
                              initial_state_bw=None, dtype=None, parallel_iterations=None, swap_memory=False,
                              time_major=False, scope=None):
    """`tf.compat.v1.nn.bidirectional_dynamic_rnn`: dynamic_rnn forwards (scope `fw`) and over the reversed
    sequences (scope `bw`, each example reversed within its length); returns ((out_fw, out_bw),
    (state_fw, state_bw)) with out_bw put back in forward time order."""
    _assert_like_rnncell("cell_fw", cell_fw)
    _assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = dynamic_rnn(cell_fw, inputs, sequence_length=sequence_length,
                                              initial_state=initial_state_fw, dtype=dtype, time_major=time_major,
                                              scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            reversed_inputs = nest.map_structure(
                lambda x: _reverse(x, sequence_length, time_axis, batch_axis), inputs)
            reversed_output, state_bw = dynamic_rnn(cell_bw, reversed_inputs, sequence_length=sequence_length,
                                                    initial_state=initial_state_bw, dtype=dtype,
                                                    time_major=time_major, scope=bw_scope)
    output_bw = nest.map_structure(lambda x: _reverse(x, sequence_length, time_axis, batch_axis), reversed_output)
    return (output_fw, output_bw), (state_fw, state_bw)


def _reverse_seq(steps, lengths):
    """A list of [batch, ...] steps reversed in time, each example within its own length when given."""
    tf = _tf()
    if lengths is None:
        return list(reversed(steps))
    flat_steps = [nest.flatten(step) for step in steps]
    columns = []
    for parts in zip(*flat_steps):
        stacked = tf.stack(parts)
        reversed_stack = tf.reverse_sequence(stacked, tf.cast(lengths, tf.int64), seq_axis=0, batch_axis=1)
        columns.append(tf.unstack(reversed_stack, num=len(steps)))
    return [nest.pack_sequence_as(steps[0], [column[t] for column in columns]) for t in range(len(steps))]


def static_bidirectional_rnn(cell_fw, cell_bw, inputs, initial_state_fw=None, initial_state_bw=None, dtype=None,
                             sequence_length=None, scope=None):
    """`tf.compat.v1.nn.static_bidirectional_rnn`: static_rnn forwards and backwards; returns (outputs, state_fw,
    state_bw), each output the concatenation [fw, bw] along depth."""
    tf = _tf()
    _assert_like_rnncell("cell_fw", cell_fw)
    _assert_like_rnncell("cell_bw", cell_bw)
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype, sequence_length,
                                             scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            reversed_inputs = _reverse_seq(inputs, sequence_length)
            tmp, state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw, dtype, sequence_length,
                                       scope=bw_scope)
    output_bw = _reverse_seq(tmp, sequence_length)
    flat_fw, flat_bw = nest.flatten(output_fw), nest.flatten(output_bw)
    flat_outputs = tuple(tf.concat([fw, bw], 1) for fw, bw in zip(flat_fw, flat_bw))
    return nest.pack_sequence_as(output_fw, flat_outputs), state_fw, state_bw


__all__ = ["bidirectional_dynamic_rnn", "dynamic_rnn", "static_bidirectional_rnn", "static_rnn"]
