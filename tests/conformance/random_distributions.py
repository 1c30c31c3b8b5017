"""tf.random's gamma, poisson, categorical and binomial families and keras.random's gamma, beta, binomial and
categorical, as TF 2.21 draws them for the same seeds (its CPU kernels on Philox streams), eagerly and inside
tf.function; gamma's alpha gradient (RandomGammaGrad); tf.random.create_rng_state; the errors TF raises."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


@program
def p_stateless_gamma(tf):
    return [val(tf.random.stateless_gamma([5], seed=[1, 2], alpha=2.0)),
            val(tf.random.stateless_gamma([3, 2], seed=[3, 4], alpha=[0.5, 1.0], dtype=tf.float64)),
            val(tf.random.stateless_gamma([4, 3], seed=[5, 6], alpha=[0.1, 3.0, 20.0], beta=2.0)),
            val(tf.random.stateless_gamma([2, 2], seed=[7, 8], alpha=[[1.5], [0.7]], beta=[1.0, 4.0])),
            val(tf.function(lambda a: tf.random.stateless_gamma([3, 2], seed=[9, 9], alpha=a))(
                tf.constant([0.3, 5.0]))),
            val(tf.random.stateless_gamma([3], seed=[1, 1], alpha=tf.constant(2.0, tf.float16), dtype=tf.float16))]


@program
def p_stateful_gamma_and_poisson(tf):
    tf.random.set_seed(7)
    out = [val(tf.random.gamma([4], alpha=[1.5, 0.3])), val(tf.random.gamma([3], alpha=2.5, seed=3)),
           val(tf.random.gamma([2, 2], alpha=4.0, beta=[1.0, 0.5], seed=3)),
           val(tf.random.poisson([5], lam=[2.0, 30.0])), val(tf.random.poisson([3], lam=7, dtype=tf.int64, seed=2))]

    @tf.function
    def draws():
        return tf.random.gamma([2], alpha=[0.5, 9.0]), tf.random.poisson([2], lam=12.0)

    out.append(val(draws()))
    out.append(val(draws()))
    return out


@program
def p_stateless_poisson(tf):
    return [val(tf.random.stateless_poisson([6], seed=[1, 2], lam=3.5)),
            val(tf.random.stateless_poisson([4, 3], seed=[3, 4], lam=[0.5, 12.0, 150.0], dtype=tf.float32)),
            val(tf.function(lambda: tf.random.stateless_poisson(
                [3, 2], seed=[8, 8], lam=tf.constant([1.0, 1000.0], tf.float64), dtype=tf.int32))()),
            val(tf.random.stateless_poisson([2, 2], seed=[2, 3], lam=tf.constant([4, 11]), dtype=tf.int64))]


@program
def p_categorical(tf):
    out = [val(tf.random.stateless_categorical(tf.math.log([[0.5, 0.5], [0.1, 0.9]]), 7, seed=[1, 2])),
           val(tf.random.stateless_categorical([[1.0, 2.0, -np.inf, 0.5], [0.0, 0.0, 0.0, 0.0]], 5, seed=[3, 4],
                                               dtype=tf.int32)),
           val(tf.function(lambda logits: tf.random.stateless_categorical(logits, 6, seed=[9, 9]))(
               tf.constant([[0.1, 0.2, 0.3], [2.0, 0.0, 1.0]], tf.float64))),
           val(tf.random.stateless_categorical(tf.random.stateless_normal([3, 20], seed=[1, 1]), 12,
                                               seed=[5, 5]))]
    tf.random.set_seed(11)
    out += [val(tf.random.categorical(tf.math.log([[0.2, 0.3, 0.5]]), 10)),
            val(tf.random.categorical([[1.0, 1.0], [5.0, -5.0]], 3, seed=4)),
            outcome(lambda: tf.random.categorical([[1.0, 2.0]], 2, dtype=tf.float32), "dtype")]
    return out


@program
def p_stateless_binomial(tf):
    return [val(tf.random.stateless_binomial([6], seed=[1, 2], counts=10.0, probs=0.3)),
            val(tf.random.stateless_binomial([4, 3], seed=[3, 4], counts=[5.0, 100.0, 1000.0], probs=[0.5, 0.2, 0.9],
                                             output_dtype=tf.float32)),
            val(tf.random.stateless_binomial([3, 2, 2], seed=[5, 6], counts=[[20.0], [300.0]], probs=[0.05, 0.7])),
            val(tf.random.stateless_binomial([2, 4], seed=[7, 7], counts=[0.0, 3.0, 50.0, 40.0],
                                             probs=[0.5, 0.0, 1.0, 0.6], output_dtype=tf.int64)),
            val(tf.function(lambda: tf.random.stateless_binomial(
                [3], seed=[1, 9], counts=tf.constant(60.0, tf.float64), probs=tf.constant(0.45, tf.float64)))())]


@program
def p_stateless_parameterized_truncated_normal(tf):
    draw = tf.random.stateless_parameterized_truncated_normal
    return [val(draw([6], seed=[1, 2])),
            val(draw([3, 2], seed=[3, 4], means=[0.0, 5.0], stddevs=[1.0, 2.0], minvals=[-0.5, 6.0],
                     maxvals=[0.5, 20.0])),
            val(draw([4], seed=[5, 6], means=0.0, stddevs=1.0, minvals=3.0, maxvals=np.inf)),
            val(draw([4], seed=[5, 6], means=tf.constant(1.0, tf.float64), stddevs=tf.constant(0.5, tf.float64),
                     minvals=tf.constant(-np.inf, tf.float64), maxvals=tf.constant(0.0, tf.float64))),
            val(draw([5], seed=[7, 7], means=2.0, stddevs=3.0, minvals=-1.0, maxvals=10.0)),
            val(draw([2, 3], seed=[9, 1], means=tf.constant(0.0, tf.float16), stddevs=tf.constant(1.0, tf.float16),
                     minvals=tf.constant(-1.0, tf.float16), maxvals=tf.constant(1.0, tf.float16))),
            val(tf.function(lambda: draw([3], seed=[2, 2], minvals=1.0, maxvals=1.5))()),
            outcome(lambda: draw([3], seed=[1, 1], minvals=2.0, maxvals=1.0), "Invalid parameters")]


@program
def p_gamma_alpha_gradient(tf):
    alpha = tf.constant([0.5, 2.0, 7.0])
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        sample = tf.random.stateless_gamma([4, 3], seed=[1, 1], alpha=alpha)
        weighted = tf.reduce_sum(sample * tf.constant([[1.0], [2.0], [-1.0], [0.5]]))
    stateless_grad = tape.gradient(weighted, alpha)
    beta = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([alpha, beta])
        sample = tf.random.gamma([2], alpha=alpha, beta=beta, seed=5)
    alpha_grad, beta_grad = tape.gradient(sample, [alpha, beta])

    @tf.function
    def traced(a):
        with tf.GradientTape() as tape:
            tape.watch(a)
            s = tf.random.stateless_gamma([3, 2], seed=[4, 2], alpha=a)
        return s, tape.gradient(s, a)

    return [val(stateless_grad), val(alpha_grad), val(beta_grad), val(traced(tf.constant([1.5, 0.2])))]


@program
def p_keras_random_distributions(tf):
    kr = tf.keras.random
    generator = kr.SeedGenerator(7)
    out = [val(kr.gamma((2, 3), alpha=1.5, seed=1)), val(kr.beta((4,), alpha=2.0, beta=3.0, seed=2)),
           val(kr.binomial((5,), counts=20, probabilities=0.4, seed=3)),
           val(kr.categorical([[0.0, 1.0, 2.0], [3.0, 0.0, -1.0]], 6, seed=4)),
           val(kr.gamma((3,), 0.5, seed=generator)), val(kr.gamma((3,), 0.5, seed=generator)),
           val(kr.beta((2, 2), alpha=[0.5, 5.0], beta=1.0, seed=generator, dtype="float64")),
           val(kr.binomial((2, 3), counts=[5, 50, 500], probabilities=0.7, seed=generator, dtype="float16")),
           val(kr.categorical([[1.0, 2.0]], 3, seed=generator, dtype="int64")),
           outcome(lambda: kr.categorical([1.0, 2.0], 2, seed=1), "2-D tensor")]
    return out


@program
def p_create_rng_state(tf):
    return [val(tf.random.create_rng_state(1234, "philox")), val(tf.random.create_rng_state(2**70 + 5, 1)),
            val(tf.random.create_rng_state([1, 2], "threefry")), val(tf.random.create_rng_state(-1, "philox")),
            val(tf.random.create_rng_state([1, 2], "philox")), val(tf.random.create_rng_state([1, 2, 3, 4], 1)),
            val(tf.random.create_rng_state(7, "auto_select")),
            outcome(lambda: tf.random.create_rng_state(1, "foo"), "unsupported value")]


@program
def p_distribution_errors(tf):
    return [outcome(lambda: tf.random.stateless_gamma([3, 2], seed=[1, 2], alpha=[1.0, 2.0, 3.0]),
                    "broadcasted shape"),
            outcome(lambda: tf.random.stateless_binomial([3], seed=[1, 2], counts=[1.0, 2.0], probs=0.5),
                    "broadcasted shape"),
            outcome(lambda: tf.random.stateless_categorical([1.0, 2.0], 3, seed=[1, 2]), "matrix"),
            outcome(lambda: tf.random.stateless_gamma([2], seed=[1, 2, 3], alpha=1.0), "seed")]
