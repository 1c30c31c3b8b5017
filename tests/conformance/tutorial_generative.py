"""TF's generative tutorials (site/en/tutorials/generative/cvae.ipynb, dcgan.ipynb, autoencoder.ipynb), small:
the CVAE's encoder and decoder built from InputLayer(input_shape=...) (deprecated in Keras 3: a warning, and it
wins over `shape`), its ELBO loss with the reparameterization's tf.random.normal under a global seed, trained in
a tf.function with Adam; one DCGAN step (BatchNormalization, LeakyReLU, Conv2DTranspose, two tapes, two Adams);
the denoising autoencoder's Conv2D/Conv2DTranspose subclassed model fit with SGD."""

from __future__ import annotations

import warnings

import numpy as np

from . import program


def _images(n, seed):
    """Binarized 12x12 'digits' from a formula (no random generator)."""
    k = np.arange(n * 12 * 12).reshape(n, 12, 12, 1)
    return (np.sin(k * 0.37 + seed) > 0.2).astype("float32")


@program
def p_tutorial_cvae_input_layer_input_shape_warns_and_wins(tf):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        layer = tf.keras.layers.InputLayer(input_shape=(6, 6, 1))
        both = tf.keras.layers.InputLayer(input_shape=(6, 6, 1), shape=(3,))
        plain = tf.keras.layers.InputLayer(shape=(2,))
    messages = [str(w.message) for w in caught if "input_shape" in str(w.message)]
    return [list(layer.batch_shape), list(both.batch_shape), list(plain.batch_shape), messages]


@program
def p_tutorial_cvae_elbo_training_steps(tf):
    tf.keras.utils.set_random_seed(4)
    latent_dim = 2
    layers = tf.keras.layers
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        encoder = tf.keras.Sequential([
            layers.InputLayer(input_shape=(12, 12, 1)),
            layers.Conv2D(filters=4, kernel_size=3, strides=(2, 2), activation="relu"),
            layers.Flatten(), layers.Dense(latent_dim + latent_dim)])
        decoder = tf.keras.Sequential([
            layers.InputLayer(input_shape=(latent_dim,)),
            layers.Dense(units=3 * 3 * 4, activation=tf.nn.relu), layers.Reshape(target_shape=(3, 3, 4)),
            layers.Conv2DTranspose(filters=4, kernel_size=3, strides=2, padding="same", activation="relu"),
            layers.Conv2DTranspose(filters=1, kernel_size=3, strides=2, padding="same")])
    optimizer = tf.keras.optimizers.Adam(1e-2)

    def log_normal_pdf(sample, mean, logvar, raxis=1):
        log2pi = tf.math.log(2. * np.pi)
        return tf.reduce_sum(-.5 * ((sample - mean) ** 2. * tf.exp(-logvar) + logvar + log2pi), axis=raxis)

    def compute_loss(x):
        mean, logvar = tf.split(encoder(x), num_or_size_splits=2, axis=1)
        eps = tf.random.normal(shape=mean.shape)
        z = eps * tf.exp(logvar * .5) + mean
        x_logit = decoder(z)
        cross_ent = tf.nn.sigmoid_cross_entropy_with_logits(logits=x_logit, labels=x)
        logpx_z = -tf.reduce_sum(cross_ent, axis=[1, 2, 3])
        return -tf.reduce_mean(logpx_z + log_normal_pdf(z, 0., 0.) - log_normal_pdf(z, mean, logvar))

    variables = encoder.trainable_variables + decoder.trainable_variables

    @tf.function
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = compute_loss(x)
        optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss

    data = tf.data.Dataset.from_tensor_slices(_images(12, 0)).shuffle(12).batch(4)
    losses = [round(float(train_step(x)), 3) for _ in range(2) for x in data]
    probs = tf.sigmoid(decoder(tf.constant([[0.5, -0.5]])))
    return [losses, probs.shape.as_list(), round(float(tf.reduce_mean(probs)), 4)]


@program
def p_tutorial_dcgan_one_training_step(tf):
    tf.keras.utils.set_random_seed(5)
    layers = tf.keras.layers
    noise_dim = 8
    generator = tf.keras.Sequential([
        layers.Input((noise_dim,)), layers.Dense(3 * 3 * 8, use_bias=False), layers.BatchNormalization(),
        layers.LeakyReLU(), layers.Reshape((3, 3, 8)),
        layers.Conv2DTranspose(4, (5, 5), strides=(2, 2), padding="same", use_bias=False),
        layers.BatchNormalization(), layers.LeakyReLU(),
        layers.Conv2DTranspose(1, (5, 5), strides=(2, 2), padding="same", use_bias=False, activation="tanh")])
    discriminator = tf.keras.Sequential([
        layers.Input((12, 12, 1)), layers.Conv2D(4, (5, 5), strides=(2, 2), padding="same"), layers.LeakyReLU(),
        layers.Dropout(0.3), layers.Flatten(), layers.Dense(1)])
    cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    g_opt, d_opt = tf.keras.optimizers.Adam(1e-3), tf.keras.optimizers.Adam(1e-3)

    @tf.function
    def train_step(images):
        noise = tf.random.normal([4, noise_dim])
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            generated = generator(noise, training=True)
            real_output = discriminator(images, training=True)
            fake_output = discriminator(generated, training=True)
            gen_loss = cross_entropy(tf.ones_like(fake_output), fake_output)
            disc_loss = (cross_entropy(tf.ones_like(real_output), real_output)
                         + cross_entropy(tf.zeros_like(fake_output), fake_output))
        g_opt.apply_gradients(zip(gen_tape.gradient(gen_loss, generator.trainable_variables),
                                  generator.trainable_variables))
        d_opt.apply_gradients(zip(disc_tape.gradient(disc_loss, discriminator.trainable_variables),
                                  discriminator.trainable_variables))
        return gen_loss, disc_loss

    images = _images(8, 1) * 2 - 1
    out = [[round(float(v), 4) for v in train_step(images[i:i + 4])] for i in (0, 4)]
    sample = generator(tf.random.normal([1, noise_dim]), training=False)
    moving = [round(float(tf.reduce_sum(w)), 4) for w in generator.non_trainable_weights]
    return [out, sample.shape.as_list(), round(float(tf.reduce_mean(sample)), 4), moving]


@program
def p_tutorial_denoising_autoencoder_fit_with_sgd(tf):
    tf.keras.utils.set_random_seed(6)
    layers = tf.keras.layers

    class Denoise(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.encoder = tf.keras.Sequential([
                layers.Input(shape=(12, 12, 1)),
                layers.Conv2D(4, (3, 3), activation="relu", padding="same", strides=2),
                layers.Conv2D(2, (3, 3), activation="relu", padding="same", strides=2)])
            self.decoder = tf.keras.Sequential([
                layers.Conv2DTranspose(2, kernel_size=3, strides=2, activation="relu", padding="same"),
                layers.Conv2DTranspose(4, kernel_size=3, strides=2, activation="relu", padding="same"),
                layers.Conv2D(1, kernel_size=(3, 3), activation="sigmoid", padding="same")])

        def call(self, x):
            return self.decoder(self.encoder(x))

    clean = _images(16, 2)
    noisy = tf.clip_by_value(clean + 0.2 * tf.random.normal(shape=clean.shape), 0., 1.)
    model = Denoise()
    model.compile(optimizer="sgd", loss=tf.keras.losses.MeanSquaredError())
    history = model.fit(noisy, clean, epochs=2, batch_size=8, shuffle=True, validation_data=(noisy, clean),
                        verbose=0)
    decoded = model.decoder(model.encoder(noisy[:2])).numpy()
    return [{k: np.round(v, 5).tolist() for k, v in sorted(history.history.items())}, list(decoded.shape),
            round(float(decoded.mean()), 5)]


@program
def p_tutorial_pix2pix_random_jitter_restarts_with_each_iterator(tf):
    """pix2pix's random_jitter in a dataset map, under a global seed: each iterator TF makes instantiates the
    map function anew, so its random ops start over (the same jitter for every `iter`), while a repeat's
    later passes, inside one iterator, continue the sequence; an op seed behaves the same."""
    tf.random.set_seed(1)

    def jitter(x):
        image = tf.reshape(tf.range(16.0) + tf.cast(x, tf.float32), [4, 4, 1])
        image = tf.image.random_crop(image, size=[2, 2, 1])
        if tf.random.uniform(()) > 0.5:
            image = tf.image.flip_left_right(image)
        return tf.reduce_sum(image)

    data = tf.data.Dataset.range(4).map(jitter)
    draw = tf.data.Dataset.range(3).map(lambda x: tf.random.uniform((), maxval=100, dtype=tf.int32))
    seeded = tf.data.Dataset.range(3).map(lambda x: tf.random.uniform((), maxval=100, dtype=tf.int32, seed=5))
    first, second = iter(draw), iter(draw)
    interleaved = [int(next(first)), int(next(second)), int(next(first))]

    @tf.function
    def total():  # an iterator made inside a function: a new one each call
        s = tf.constant(0)
        for v in draw:
            s = s * 100 + v
        return s

    return [[int(total()), int(total())], [float(v) for v in data], [float(v) for v in data],
            [int(v) for v in draw], [int(v) for v in draw.repeat(2)],
            [int(v) for v in tf.data.Dataset.range(3).repeat(2).map(lambda x: tf.random.uniform(
                (), maxval=100, dtype=tf.int32))],
            [int(v) for v in seeded], [int(v) for v in seeded], interleaved]
