"""tf.compat.v1.layers' BatchNormalization: gamma and beta trained, moving_mean and moving_variance updated
when training by ops that, in a TF1 graph, join the UPDATE_OPS collection (a training loop runs them with
`tf.control_dependencies(update_ops)`); eagerly they run at once."""

from __future__ import annotations

from ..initializers import ones_initializer, zeros_initializer
from ..legacy_layer import Layer
from .core import smart_cond


def _tf():
    import tinytf

    return tinytf


class BatchNormalization(Layer):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta over all axes but `axis`: the batch's moments when
    training, the moving ones otherwise."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer=zeros_initializer(), gamma_initializer=ones_initializer(),
                 moving_mean_initializer=zeros_initializer(), moving_variance_initializer=ones_initializer(),
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 renorm=False, renorm_clipping=None, renorm_momentum=0.99, fused=None, trainable=True,
                 virtual_batch_size=None, adjustment=None, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        if renorm or virtual_batch_size is not None or adjustment is not None:
            raise NotImplementedError("tinytf's TF1 BatchNormalization has no renorm, virtual_batch_size or "
                                      "adjustment")
        self.axis = axis
        self.momentum = momentum
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.beta_initializer, self.gamma_initializer = beta_initializer, gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer, self.gamma_regularizer = beta_regularizer, gamma_regularizer
        self.beta_constraint, self.gamma_constraint = beta_constraint, gamma_constraint
        self.fused = fused

    def build(self, input_shape):
        rank = len(input_shape)
        axes = self.axis if isinstance(self.axis, (list, tuple)) else [self.axis]
        self._axes = [a % rank for a in axes]
        for a in self._axes:
            if input_shape[a] is None:
                raise ValueError(f"Input has undefined `axis` dimension. Received input with shape {input_shape} "
                                 f"and axis={self.axis}")
        param_shape = [int(input_shape[a]) for a in self._axes]
        # TF fuses 4-D batch norm over the channel axis; its moving variance is then the unbiased one
        self._fused = self.fused is not False and rank == 4 and self._axes in ([3], [1])
        self.gamma = self.add_weight("gamma", param_shape, initializer=self.gamma_initializer,
                                     regularizer=self.gamma_regularizer, constraint=self.gamma_constraint) \
            if self.scale else None
        self.beta = self.add_weight("beta", param_shape, initializer=self.beta_initializer,
                                    regularizer=self.beta_regularizer, constraint=self.beta_constraint) \
            if self.center else None
        self.moving_mean = self.add_weight("moving_mean", param_shape, initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", param_shape,
                                               initializer=self.moving_variance_initializer, trainable=False)
        self.built = True

    def call(self, inputs, training=False):
        tf = _tf()
        inputs = tf.convert_to_tensor(inputs)
        rank = inputs.shape.rank
        reduce_axes = [a for a in range(rank) if a not in self._axes]
        broadcast = [1] * rank
        for a in self._axes:
            broadcast[a] = inputs.shape[a]

        def shaped(v):
            return None if v is None else tf.reshape(v, broadcast)

        def batch_moments():
            mean, variance = tf.nn.moments(inputs, reduce_axes)
            return mean, variance

        def moving_moments():
            return tf.identity(self.moving_mean), tf.identity(self.moving_variance)

        mean, variance = smart_cond(training, batch_moments, moving_moments)
        outputs = tf.nn.batch_normalization(inputs, shaped(mean), shaped(variance), shaped(self.beta),
                                            shaped(self.gamma), self.epsilon)
        if training is not False:
            count = 1
            for a in reduce_axes:
                count *= inputs.shape[a] if inputs.shape[a] is not None else 1
            new_variance = variance * (count / max(count - 1, 1)) if self._fused else variance
            decay = smart_cond(training, lambda: tf.constant(1.0 - self.momentum), lambda: tf.constant(0.0))
            for variable, value in ((self.moving_mean, mean), (self.moving_variance, new_variance)):
                self.add_update(variable.assign_sub((variable - value) * decay))
        return outputs


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=zeros_initializer(), gamma_initializer=ones_initializer(),
                        moving_mean_initializer=zeros_initializer(),
                        moving_variance_initializer=ones_initializer(), beta_regularizer=None,
                        gamma_regularizer=None, beta_constraint=None, gamma_constraint=None, training=False,
                        trainable=True, name=None, reuse=None, renorm=False, renorm_clipping=None,
                        renorm_momentum=0.99, fused=None, virtual_batch_size=None, adjustment=None):
    """`tf.compat.v1.layers.batch_normalization`: its moving-statistics updates go to UPDATE_OPS."""
    layer = BatchNormalization(axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
                               beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
                               moving_mean_initializer=moving_mean_initializer,
                               moving_variance_initializer=moving_variance_initializer,
                               beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
                               beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
                               renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
                               trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
                               name=name, _scope=name, _reuse=reuse)
    return layer(inputs, training=training)


BatchNorm = BatchNormalization
