"""keras.random on TF 2.21: int seeds, SeedGenerators (whose state advances per draw, eagerly and inside a
tf.function), and the VAE guide's Sampling layer."""

from __future__ import annotations

from . import program, val


@program
def p_keras_random_functions(tf):
    keras = tf.keras
    generator = keras.random.SeedGenerator(1337)
    draws = [keras.random.normal((2, 3), seed=generator), keras.random.normal((2, 3), seed=generator),
             keras.random.uniform((2, 2), seed=3), keras.random.uniform((3,), minval=-2.0, maxval=5.0, seed=4),
             keras.random.truncated_normal((2, 2), mean=1.0, stddev=0.5, seed=5),
             keras.random.randint((4,), 0, 10, seed=6), keras.random.randint((2,), 0, 5, dtype="int64", seed=7)]
    traced = keras.random.SeedGenerator(42)

    @tf.function
    def draw():
        return keras.random.uniform((2,), seed=traced)

    return [val(draws), val([draw(), draw()]), val(tf.convert_to_tensor(generator.state)),
            val(tf.convert_to_tensor(traced.state))]


@program
def p_keras_vae_sampling_layer(tf):
    keras = tf.keras

    class Sampling(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.seed_generator = keras.random.SeedGenerator(1337)

        def call(self, inputs):
            z_mean, z_log_var = inputs
            batch, dim = tf.shape(z_mean)[0], tf.shape(z_mean)[1]
            epsilon = keras.random.normal(shape=(batch, dim), seed=self.seed_generator)
            return z_mean + tf.exp(0.5 * z_log_var) * epsilon

    sampling = Sampling()
    mean, log_var = tf.constant([[0.0, 1.0], [2.0, 3.0]]), tf.constant([[0.0, -1.0], [1.0, 0.5]])
    return [val(sampling([mean, log_var])), val(sampling([mean, log_var])), len(sampling.weights)]
