"""keras.random.shuffle and keras.random.dropout against Keras 3 on TF 2.21 (same seeds, same numbers), and the
regularizer, constraint and initializer names added for issue 11 (OrthogonalRegularizer, MinMaxNorm,
IdentityInitializer, OrthogonalInitializer)."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


@program
def p_keras_random_shuffle_and_dropout(tf):
    R = tf.keras.random
    x = tf.constant(np.arange(24, dtype="float32").reshape(6, 4))
    gen = R.SeedGenerator(7)
    return {
        "shuffle_seed": val(R.shuffle(x, seed=3)),
        "shuffle_axis1": val(R.shuffle(x, axis=1, seed=5)),
        "shuffle_generator": [val(R.shuffle(x, seed=gen)), val(R.shuffle(x, seed=gen))],
        "dropout": val(R.dropout(tf.ones((4, 5)), 0.4, seed=11)),
        "dropout_noise_shape": val(R.dropout(tf.constant(data((3, 4))), 0.5, noise_shape=(3, 1), seed=2)),
        "dropout_generator": val(R.dropout(tf.ones((2, 6)), 0.3, seed=gen)),
        "dropout_rate0": val(R.dropout(tf.ones((2, 2)), 0.0, seed=1)),
        "dropout_rate1": val(R.dropout(tf.ones((2, 2)), 1.0, seed=1)),
        "in_function": val(tf.function(lambda t: R.dropout(t, 0.25, seed=4))(tf.ones((3, 3)))),
    }


@program
def p_keras_regularizers_constraints_initializers_extra(tf):
    K = tf.keras
    w = tf.constant(data((4, 3), seed=1))
    ortho = K.regularizers.OrthogonalRegularizer(factor=0.2)
    cols = K.regularizers.OrthogonalRegularizer(factor=0.1, mode="columns")
    minmax = K.constraints.MinMaxNorm(min_value=0.5, max_value=1.0, rate=0.7, axis=0)
    dense = K.layers.Dense(3, kernel_regularizer="orthogonal_regularizer", kernel_constraint="min_max_norm")
    dense(tf.ones((1, 4)))
    return {
        "ortho_rows": val(ortho(w)), "ortho_cols": val(cols(w)),
        "ortho_config": ortho.get_config(), "ortho_fn": val(K.regularizers.orthogonal_regularizer(0.3)(w)),
        "ortho_get": type(K.regularizers.get("orthogonal_regularizer")).__name__,
        "ortho_rank": outcome(lambda: ortho(tf.ones((2, 2, 2))), "must have rank 2"),
        "ortho_mode": outcome(lambda: K.regularizers.OrthogonalRegularizer(mode="diag"), "mode"),
        "ortho_factor": outcome(lambda: K.regularizers.OrthogonalRegularizer(factor=-1.0), "non-negative"),
        "minmax": val(minmax(w)), "minmax_axis1": val(K.constraints.MinMaxNorm(0.2, 0.4, axis=1)(w)),
        "minmax_config": minmax.get_config(), "minmax_get": type(K.constraints.get("min_max_norm")).__name__,
        "minmax_fn": val(K.constraints.min_max_norm(max_value=0.3)(w)),
        "dense_losses": len(dense.losses),
        "identity_init": val(K.initializers.IdentityInitializer(gain=2.0)((3, 3))),
        "identity_get": type(K.initializers.get("IdentityInitializer")).__name__,
        "orthogonal_get": type(K.initializers.get("OrthogonalInitializer")).__name__,
        "orthogonal_seeded_gram": val(tf.round(tf.matmul(K.initializers.OrthogonalInitializer(seed=1)((4, 4)),
                                                         K.initializers.OrthogonalInitializer(seed=1)((4, 4)),
                                                         transpose_a=True) * 1000) / 1000),
    }
