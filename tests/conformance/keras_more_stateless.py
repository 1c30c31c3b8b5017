"""keras.StatelessScope and keras.SymbolicScope as TF 2.21's Keras 3 runs them: a layer called on the values of
`state_mapping`, assignments recorded in the scope (the variables unchanged), BatchNormalization's moving
statistics as scope values, add_loss collected only with collect_losses=True, regularizers of the mapped values,
the scope's errors, and a stateless call inside tf.function."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


def _weight(variable):
    """A Keras variable's value (its dtype is a string in Keras 3, so `val` cannot take it)."""
    return np.asarray(variable.numpy()).tolist()


def _dense(tf):
    d = tf.keras.layers.Dense(2)
    d.build((None, 3))
    d.kernel.assign(np.arange(6, dtype="float32").reshape(3, 2) / 10)
    return d


@program
def p_stateless_scope_reads_mapping_and_records_assignments(tf):
    d = _dense(tf)
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.keras.StatelessScope(state_mapping=[(d.kernel, np.ones((3, 2))), (d.bias, tf.zeros([2]))]) as scope:
        y1 = d(x)
        returned = d.kernel.assign(d.kernel * 2)
        d.bias.assign_add([1.0, 1.0])
        y2 = d(x)
        inside = d.kernel.numpy()
    return [val(y1), val(y2), val(returned), inside.tolist(), _weight(d.kernel), _weight(d.bias),
            val(scope.get_current_value(d.kernel)), val(scope.get_current_value(d.bias)),
            scope.get_current_value(tf.Variable(1.0))]


@program
def p_stateless_scope_batch_norm_updates(tf):
    bn = tf.keras.layers.BatchNormalization()
    bn.build((None, 2))
    with tf.keras.StatelessScope(state_mapping=[(v, v) for v in bn.weights]) as scope:
        out = bn(tf.constant([[1.0, 2.0], [3.0, 6.0]]), training=True)
    return [val(out), _weight(bn.moving_mean), val(scope.get_current_value(bn.moving_mean)),
            val(scope.get_current_value(bn.moving_variance))]


@program
def p_stateless_scope_losses(tf):
    class AddsLoss(tf.keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return x

    layer = AddsLoss()
    x = tf.constant([[1.0, 2.0, 3.0]])
    out = []
    for collect in (False, True):
        with tf.keras.StatelessScope(collect_losses=collect) as scope:
            layer(x)
            out.append([collect, [float(v) for v in scope.losses], [float(v) for v in layer.losses]])
        out.append(len(layer.losses))
    reg = tf.keras.layers.Dense(2, kernel_regularizer=tf.keras.regularizers.L2(0.5))
    reg.build((None, 3))
    with tf.keras.StatelessScope(state_mapping=[(reg.kernel, np.ones((3, 2)))]):
        out.append([float(v) for v in reg.losses])
    return out


@program
def p_stateless_scope_errors(tf):
    d = _dense(tf)

    def assign_wrong_shape():
        with tf.keras.StatelessScope():
            d.kernel.assign(np.ones((2, 2)))

    with tf.keras.SymbolicScope() as symbolic:
        name = type(symbolic).__name__
    return [outcome(lambda: tf.keras.StatelessScope(state_mapping=[(tf.Variable(1.0), 1.0)]),
                    "Invalid reference variable"),
            outcome(lambda: tf.keras.StatelessScope(state_mapping=[(d.kernel, np.ones((2, 2)))]),
                    "Invalid variable value"),
            outcome(assign_wrong_shape, "must match"), name]


@program
def p_stateless_scope_in_tf_function(tf):
    d = _dense(tf)

    @tf.function
    def stateless_call(x, kernel):
        with tf.keras.StatelessScope(state_mapping=[(d.kernel, kernel)]) as scope:
            y = d(x)
            d.kernel.assign(kernel + 1.0)
        return y, scope.get_current_value(d.kernel)

    return [val(stateless_call(tf.constant([[1.0, 2.0, 3.0]]), tf.ones([3, 2]))), _weight(d.kernel)]
