"""TF's guides on subclassed layers and models and on saving custom objects, on TF 2.21 with Keras' default
seeds: the VAE (Encoder and Decoder layers, a Sampling layer on keras.random, add_loss of the KL term, fit), and
custom classes and functions registered with keras.utils.register_keras_serializable surviving a .keras file."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import program, val


@program
def p_keras_vae_guide(tf):
    keras = tf.keras
    layers = keras.layers
    keras.backend.clear_session()
    keras.utils.set_random_seed(7)

    class Sampling(layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.seed_generator = keras.random.SeedGenerator(1337)

        def call(self, inputs):
            z_mean, z_log_var = inputs
            epsilon = keras.random.normal(shape=(tf.shape(z_mean)[0], tf.shape(z_mean)[1]), seed=self.seed_generator)
            return z_mean + tf.exp(0.5 * z_log_var) * epsilon

    class Encoder(layers.Layer):
        def __init__(self, latent_dim=4, intermediate_dim=8, name="encoder", **kwargs):
            super().__init__(name=name, **kwargs)
            self.dense_proj = layers.Dense(intermediate_dim, activation="relu")
            self.dense_mean = layers.Dense(latent_dim)
            self.dense_log_var = layers.Dense(latent_dim)
            self.sampling = Sampling()

        def call(self, inputs):
            x = self.dense_proj(inputs)
            z_mean, z_log_var = self.dense_mean(x), self.dense_log_var(x)
            return z_mean, z_log_var, self.sampling((z_mean, z_log_var))

    class Decoder(layers.Layer):
        def __init__(self, original_dim, intermediate_dim=8, name="decoder", **kwargs):
            super().__init__(name=name, **kwargs)
            self.dense_proj = layers.Dense(intermediate_dim, activation="relu")
            self.dense_output = layers.Dense(original_dim, activation="sigmoid")

        def call(self, inputs):
            return self.dense_output(self.dense_proj(inputs))

    class VariationalAutoEncoder(keras.Model):
        def __init__(self, original_dim, intermediate_dim=8, latent_dim=4, name="autoencoder", **kwargs):
            super().__init__(name=name, **kwargs)
            self.encoder = Encoder(latent_dim=latent_dim, intermediate_dim=intermediate_dim)
            self.decoder = Decoder(original_dim, intermediate_dim=intermediate_dim)

        def call(self, inputs):
            z_mean, z_log_var, z = self.encoder(inputs)
            self.add_loss(-0.5 * tf.reduce_mean(z_log_var - tf.square(z_mean) - tf.exp(z_log_var) + 1))
            return self.decoder(z)

    vae = VariationalAutoEncoder(12)
    x = np.random.RandomState(0).rand(64, 12).astype("float32")
    vae.compile(keras.optimizers.Adam(learning_rate=1e-3), loss=keras.losses.MeanSquaredError())
    history = vae.fit(x, x, epochs=2, batch_size=32, shuffle=False, verbose=0)
    return [val(history.history), [w.path for w in vae.weights]]


@program
def p_keras_registered_custom_objects(tf):
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(8)

    @keras.utils.register_keras_serializable(package="GuideLayers")
    class ScaleBy(keras.layers.Layer):
        def __init__(self, factor, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    @keras.utils.register_keras_serializable(package="guide_package", name="squared")
    def squared(x):
        return x ** 2

    model = keras.Sequential([keras.Input((3,)), ScaleBy(0.5), keras.layers.Dense(2, activation=squared)])
    path = os.path.join(tempfile.mkdtemp(), "custom.keras")
    model.save(path)
    reloaded = keras.models.load_model(path)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    return [val(model(x)), val(reloaded(x)), type(reloaded.layers[0]).__name__, reloaded.layers[0].factor,
            keras.utils.get_registered_name(ScaleBy), keras.utils.get_registered_object("guide_package>squared") is
            squared, keras.utils.get_registered_name(keras.layers.Dense)]
