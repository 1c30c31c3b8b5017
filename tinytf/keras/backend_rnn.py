"""keras.backend.rnn: Keras 2's loop of a step function over the time axis (keras.src.legacy.backend.rnn, which
tf.keras.backend keeps in TF 2.21): unrolled in Python with `unroll=True`, else a while_loop over TensorArrays;
masks keep the previous output and states where a step is masked, go_backwards reads the sequence from its end."""

from __future__ import annotations

import tinytf as tf


def _swap_batch_timestep(t):
    axes = list(range(len(t.shape)))
    axes[0], axes[1] = 1, 0
    return tf.transpose(t, axes)


def _expand_mask(mask_t, input_t, fixed_dim=1):
    """mask_t tiled to input_t's shape beyond its first `fixed_dim` axes."""
    if tf.nest.is_nested(mask_t):
        raise ValueError(f"mask_t is expected to be tensor, but got {mask_t}")
    if tf.nest.is_nested(input_t):
        raise ValueError(f"input_t is expected to be tensor, but got {input_t}")
    for _ in range(len(input_t.shape) - len(mask_t.shape)):
        mask_t = tf.expand_dims(mask_t, -1)
    return tf.tile(mask_t, [1] * fixed_dim + input_t.shape.as_list()[fixed_dim:])


def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None, unroll=False,
        input_length=None, time_major=False, zero_output_for_mask=False, return_all_outputs=True):
    """(last_output, outputs, new_states) of `step_function(input_t, states + constants) -> (output, states)`
    run over axis 1 of inputs (axis 0 when time_major)."""
    if not time_major:
        inputs = tf.nest.map_structure(_swap_batch_timestep, inputs)
    flat_inputs = tf.nest.flatten(inputs)
    time_steps, batch = flat_inputs[0].shape[0], flat_inputs[0].shape[1]
    time_steps_t = tf.shape(flat_inputs[0])[0]
    for input_ in flat_inputs:
        if len(input_.shape) < 3:
            raise ValueError(f"Shape {input_.shape} must have rank at least 3")
    if mask is not None:
        mask = mask if mask.dtype == tf.bool else tf.cast(mask, tf.bool)
        if len(mask.shape) == 2:
            mask = tf.expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_timestep(mask)
    constants = [] if constants is None else constants
    if unroll:
        last_output, outputs, new_states = _unrolled(step_function, inputs, initial_states, go_backwards, mask,
                                                     constants, time_steps, zero_output_for_mask, return_all_outputs)
    else:
        last_output, outputs, new_states = _looped(step_function, inputs, flat_inputs, initial_states, go_backwards,
                                                   mask, constants, input_length, time_steps_t, zero_output_for_mask,
                                                   return_all_outputs)

    def set_shape(output):
        if tf.is_tensor(output):
            shape = output.shape.as_list()
            shape[0] = time_steps if return_all_outputs else 1
            shape[1] = batch
            output.set_shape(shape)
        return output

    outputs = tf.nest.map_structure(set_shape, outputs)
    if not time_major:
        outputs = tf.nest.map_structure(_swap_batch_timestep, outputs)
    return last_output, outputs, new_states


def _unrolled(step_function, inputs, initial_states, go_backwards, mask, constants, time_steps,
              zero_output_for_mask, return_all_outputs):
    if not time_steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    states = tuple(initial_states)

    def steps_of(t):
        steps = tf.unstack(t)
        return steps[::-1] if go_backwards else steps

    processed = tf.nest.map_structure(steps_of, inputs) if tf.nest.is_nested(inputs) else (steps_of(inputs),)

    def input_at(time):
        return tf.nest.pack_sequence_as(inputs, [steps[time] for steps in processed])

    outputs, all_states = [], []
    mask_list = steps_of(mask) if mask is not None else None
    for i in range(time_steps):
        output, new_states = step_function(input_at(i), tuple(states) + tuple(constants))
        if mask is not None:
            mask_t = mask_list[i]
            previous = outputs[-1] if outputs else tf.zeros_like(output)
            output = tf.where(_expand_mask(mask_t, output), output, previous)
            flat_states, flat_new = tf.nest.flatten(states), tf.nest.flatten(new_states)
            new_states = tf.nest.pack_sequence_as(states, tuple(
                tf.where(_expand_mask(mask_t, s), n, s) for s, n in zip(flat_states, flat_new)))
        states = new_states
        if return_all_outputs:
            outputs.append(output)
            all_states.append(states)
        else:
            outputs, all_states = [output], [states]
    last_output, new_states, stacked = outputs[-1], all_states[-1], tf.stack(outputs)
    if mask is not None and zero_output_for_mask:
        last_output = tf.where(_expand_mask(mask_list[-1], last_output), last_output, tf.zeros_like(last_output))
        stacked = tf.where(_expand_mask(mask, stacked, fixed_dim=2), stacked, tf.zeros_like(stacked))
    return last_output, stacked, new_states


def _looped(step_function, inputs, flat_inputs, initial_states, go_backwards, mask, constants, input_length,
            time_steps_t, zero_output_for_mask, return_all_outputs):
    states = tuple(initial_states)
    input_ta = tuple(tf.TensorArray(dtype=inp.dtype, size=time_steps_t).unstack(
        tf.reverse(inp, [0]) if go_backwards else inp) for inp in flat_inputs)
    input_time_zero = tf.nest.pack_sequence_as(inputs, [inp[0] for inp in flat_inputs])
    output_time_zero, _ = step_function(input_time_zero, tuple(initial_states) + tuple(constants))
    output_ta = tuple(tf.TensorArray(dtype=out.dtype, size=time_steps_t if return_all_outputs else 1,
                                     element_shape=out.shape) for out in tf.nest.flatten(output_time_zero))
    time = tf.constant(0, dtype="int32")
    max_iterations = time_steps_t if input_length is None else tf.reduce_max(input_length)
    loop_kwargs = {"cond": lambda time, *_: time < time_steps_t, "maximum_iterations": max_iterations}
    masking_fn = None
    if mask is not None:
        mask_ta = tf.TensorArray(dtype=tf.bool, size=time_steps_t).unstack(tf.reverse(mask, [0]) if go_backwards
                                                                            else mask)

        def masking_fn(time):
            return mask_ta.read(time)

        def masked(mask_t, flat_out, flat_fallback):
            return tuple(tf.where(_expand_mask(mask_t, o, fixed_dim=len(mask_t.shape)), o, f)
                         for o, f in zip(flat_out, flat_fallback))
    elif tf.is_tensor(input_length):
        if go_backwards:
            reversed_length = tf.reduce_max(input_length, axis=0) - 1 - input_length

            def masking_fn(time):
                return tf.less(reversed_length, time)
        else:
            def masking_fn(time):
                return tf.greater(input_length, time)

        def masked(mask_t, flat_out, flat_fallback):
            return tuple(tf.compat.v1.where(mask_t, o, f) for o, f in zip(flat_out, flat_fallback))

    def write(output_ta_t, time, flat_output):
        index = time if return_all_outputs else 0
        return tuple(ta.write(index, out) for ta, out in zip(output_ta_t, flat_output))

    if masking_fn is not None:
        flat_zero_output = tuple(tf.zeros_like(o) for o in tf.nest.flatten(output_time_zero))

        def step(time, output_ta_t, prev_output, *states):
            current = tf.nest.pack_sequence_as(inputs, tuple(ta.read(time) for ta in input_ta))
            mask_t = masking_fn(time)
            output, new_states = step_function(current, tuple(states) + tuple(constants))
            fallback = flat_zero_output if zero_output_for_mask else tf.nest.flatten(prev_output)
            flat_output = masked(mask_t, tf.nest.flatten(output), fallback)
            flat_state = masked(mask_t, tf.nest.flatten(new_states), tf.nest.flatten(states))
            new_states = tf.nest.pack_sequence_as(new_states, flat_state)
            return (time + 1, write(output_ta_t, time, flat_output), tuple(flat_output)) + tuple(new_states)

        final = tf.compat.v1.while_loop(body=step, loop_vars=(time, output_ta, flat_zero_output) + states,
                                        **loop_kwargs)
        new_states = final[3:]
    else:
        def step(time, output_ta_t, *states):
            current = tf.nest.pack_sequence_as(inputs, tuple(ta.read(time) for ta in input_ta))
            output, new_states = step_function(current, tuple(states) + tuple(constants))
            new_states = tf.nest.pack_sequence_as(initial_states, tf.nest.flatten(new_states))
            return (time + 1, write(output_ta_t, time, tf.nest.flatten(output))) + tuple(new_states)

        final = tf.compat.v1.while_loop(body=step, loop_vars=(time, output_ta) + states, **loop_kwargs)
        new_states = final[2:]
    outputs = tuple(o.stack() for o in final[1])
    last_output = tuple(o[-1] for o in outputs)
    return (tf.nest.pack_sequence_as(output_time_zero, last_output),
            tf.nest.pack_sequence_as(output_time_zero, outputs), new_states)
