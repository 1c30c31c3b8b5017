"""TF1's other RNN drivers (tf.compat.v1.nn): `raw_rnn`, where a user's `loop_fn` decides each step's input, state,
what to emit and when each example is finished (a while_loop that runs until every example is), and
`static_state_saving_rnn`, static_rnn whose initial state comes from a state saver and whose final state is saved
back to it before the last output is available. Variables live in the scope `rnn`, as TF1 names them."""

from __future__ import annotations

from ... import nest
from .rnn import _assert_like_rnncell, _prepare_cell, static_rnn
from .variable_scope import variable_scope


def _tf():
    import tinytf

    return tinytf


def _size_shape(size):
    tf = _tf()
    if hasattr(size, "as_list"):
        return size.as_list()
    if tf.is_tensor(size):
        return size
    return [int(size)]


def raw_rnn(cell, loop_fn, parallel_iterations=None, swap_memory=False, scope=None):
    """Run `cell` while some example is unfinished. loop_fn(time, cell_output, cell_state, loop_state) returns
    (finished, next_input, next_cell_state, emit_output, next_loop_state); its call at time 0 (with None for the
    rest) gives the first input, the initial state and the emit structure (None: the cell's output_size).
    Returns (emit TensorArrays, final state, final loop state); a finished example emits zeros and keeps its
    state."""
    tf = _tf()
    _assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"Argument `loop_fn` must be a callable. Received: {loop_fn}.")
    with variable_scope(scope or "rnn"):
        time = tf.constant(0, dtype=tf.int32)
        finished, next_input, initial_state, emit_structure, init_loop_state = loop_fn(time, None, None, None)
        flat_input = [tf.convert_to_tensor(x) for x in nest.flatten(next_input)]
        next_input = nest.pack_sequence_as(next_input, flat_input)
        loop_state = init_loop_state if init_loop_state is not None else tf.constant(0, dtype=tf.int32)
        static_batch = flat_input[0].shape[0]
        for x in flat_input[1:]:
            if static_batch is not None and x.shape[0] is not None and x.shape[0] != static_batch:
                raise ValueError(f"Dimensions {static_batch} and {x.shape[0]} are not compatible")
        batch_size = static_batch if static_batch is not None else tf.shape(flat_input[0])[0]
        nest.assert_same_structure(initial_state, cell.state_size)
        state = nest.map_structure(tf.convert_to_tensor, initial_state)
        flat_state = nest.flatten(state)
        if emit_structure is not None:
            flat_emit = nest.flatten(emit_structure)
            emit_sizes = [e.shape.as_list() if e.shape.is_fully_defined() else tf.shape(e) for e in flat_emit]
            emit_dtypes = [e.dtype for e in flat_emit]
        else:
            emit_structure = cell.output_size
            emit_sizes = [_size_shape(s) for s in nest.flatten(emit_structure)]
            emit_dtypes = [flat_state[0].dtype] * len(emit_sizes)

        def zeros(size, dtype):
            if tf.is_tensor(size) or tf.is_tensor(batch_size):
                return tf.zeros(tf.concat([tf.reshape(batch_size, [1]), tf.cast(size, tf.int32)], 0), dtype)
            return tf.zeros([batch_size] + list(size), dtype)

        zero_emit = nest.pack_sequence_as(emit_structure, [zeros(s, d) for s, d in zip(emit_sizes, emit_dtypes)])
        emit_tas = nest.pack_sequence_as(emit_structure, [
            tf.TensorArray(d, size=0, dynamic_size=True,
                           element_shape=[static_batch] + (list(s) if isinstance(s, list) else [None]),
                           name=f"rnn_output_{i}")
            for i, (d, s) in enumerate(zip(emit_dtypes, emit_sizes))])
        _prepare_cell(cell, next_input, state, static_batch)

        def copy_some_through(finished, current, candidate):
            def pick(cur, cand):
                if cur.shape.rank == 0:
                    return cand
                mask = tf.reshape(finished, [-1] + [1] * (cand.shape.rank - 1))
                return tf.where(mask, cur, cand)

            return nest.map_structure(pick, current, candidate)

        def body(time, finished, current_input, emit_tas, state, loop_state):
            next_output, cell_state = cell(current_input, state)
            nest.assert_same_structure(state, cell_state)
            nest.assert_same_structure(cell.output_size, next_output)
            next_time = time + 1
            next_finished, next_input, next_state, emit_output, next_loop_state = loop_fn(
                next_time, next_output, cell_state, loop_state)
            nest.assert_same_structure(state, next_state)
            nest.assert_same_structure(current_input, next_input)
            nest.assert_same_structure(emit_tas, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state
            emit_output = copy_some_through(finished, zero_emit, emit_output)
            next_state = copy_some_through(finished, state, next_state)
            for new, old in zip(nest.flatten(next_state), nest.flatten(state)):
                new.set_shape(old.shape)
            emit_tas = nest.map_structure(lambda ta, emit: ta.write(time, emit), emit_tas, emit_output)
            return next_time, tf.logical_or(finished, next_finished), next_input, emit_tas, next_state, loop_state

        def condition(time, finished, *_):
            return tf.logical_not(tf.reduce_all(finished))

        results = tf.while_loop(condition, body, [time, finished, next_input, emit_tas, state, loop_state],
                                parallel_iterations=parallel_iterations or 32, swap_memory=swap_memory)
        emit_tas, final_state, final_loop_state = results[-3:]
        return emit_tas, final_state, None if init_loop_state is None else final_loop_state


def static_state_saving_rnn(cell, inputs, state_saver, state_name, sequence_length=None, scope=None):
    """static_rnn starting from state_saver.state(state_name) (a name per component of a tuple state); the final
    state goes back through state_saver.save_state before the last output and the returned state are ready."""
    tf = _tf()
    state_size = cell.state_size
    state_is_tuple = nest.is_nested(state_size)
    if state_is_tuple != nest.is_nested(state_name):
        raise ValueError(f"Argument `state_name` should be the same type as `cell.state_size`. Received: "
                         f"state_name={state_name!s}, cell.state_size={state_size!s}.")
    if state_is_tuple:
        names, sizes = nest.flatten(state_name), nest.flatten(state_size)
        if len(names) != len(sizes):
            raise ValueError(f"Number of elements in argument `state_name` and `cell.state_size` are mismatched. "
                             f"Received state_name={state_name} with {len(names)} elements and "
                             f"cell.state_size={cell.state_size} with {len(sizes)} elements.")
        initial_state = nest.pack_sequence_as(state_size, [state_saver.state(n) for n in names])
    else:
        initial_state = state_saver.state(state_name)
    outputs, state = static_rnn(cell, inputs, initial_state=initial_state, sequence_length=sequence_length,
                                scope=scope)
    if state_is_tuple:
        saves = [state_saver.save_state(n, s) for n, s in zip(nest.flatten(state_name), nest.flatten(state))]
    else:
        saves = [state_saver.save_state(state_name, state)]
    with tf.control_dependencies(saves):
        last = outputs[-1]
        outputs[-1] = nest.pack_sequence_as(last, [tf.identity(o) for o in nest.flatten(last)])
        state = nest.map_structure(tf.identity, state)
    return outputs, state


__all__ = ["raw_rnn", "static_state_saving_rnn"]
