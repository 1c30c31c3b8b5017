"""`use_ema=True` on a Keras optimizer: after each step it keeps an exponential moving average of every variable
it trains (`average = m * average + (1 - m) * variable`, with m = 0 on the very first step so the average
starts at the variable), every `ema_overwrite_frequency` steps it copies the averages into the variables, and
when fit ends (`finalize_variable_values`) the model's variables take their averages, as Keras 3 does. The
averages are optimizer variables (named "<var>_average", before the slots), written with ops so a traced
train step updates them in the graph. keras.callbacks.SwapEMAWeights swaps them in for evaluation."""

from __future__ import annotations


def make_averages(optimizer, variables) -> None:
    """A zero-filled average for each variable that has none yet (Keras' add_optimizer_variables(..., "average"))."""
    for variable in variables:
        key = variable.ref()
        if key not in optimizer._averages:
            optimizer._averages[key] = optimizer.add_variable_from_reference(variable, "average")


def pairs(optimizer):
    """(variable, its average) in the order the averages were made."""
    return [(key.deref(), average) for key, average in optimizer._averages.items()]


def update_averages(optimizer) -> None:
    """The moving-average step, then the periodic overwrite; `iterations` has not been incremented yet."""
    import tinytf as tf

    iterations = optimizer.iterations
    for variable, average in pairs(optimizer):
        not_first = tf.cast(tf.not_equal(iterations, 0), variable.dtype)
        momentum = not_first * optimizer.ema_momentum
        average.assign(momentum * average + (1 - momentum) * variable)
    frequency = optimizer.ema_overwrite_frequency
    if frequency:
        due = tf.equal((iterations + 1) % frequency, 0)

        def overwrite():
            for variable, average in pairs(optimizer):
                variable.assign(average)
            return tf.constant(0)

        tf.cond(due, overwrite, lambda: tf.constant(0))


def overwrite_with_averages(optimizer, var_list) -> None:
    """Give each variable of var_list that has an average its average's value."""
    for variable in var_list:
        average = optimizer._averages.get(variable.ref())
        if average is not None:
            variable.assign(average)
