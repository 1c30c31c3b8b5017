"""keras.losses BinaryFocalCrossentropy, CategoricalFocalCrossentropy, CategoricalHinge, Dice, Tversky, Circle,
CategoricalGeneralizedCrossEntropy and their function forms against Keras 3 (the `>>>` examples of their
docstrings, reductions, sample weights, configs, gradients, tf.function), and keras.losses.Reduction."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


@program
def p_keras_losses_extra_binary_focal_docstring(tf):
    L = tf.keras.losses
    out = {}
    y_true, y_pred = np.array([0, 1, 0, 0]), np.array([-18.6, 0.51, 2.94, -12.8])
    out["ex1"] = val(L.BinaryFocalCrossentropy(gamma=2, from_logits=True)(y_true, y_pred))
    balanced = L.BinaryFocalCrossentropy(apply_class_balancing=True, gamma=2, from_logits=True)
    out["ex1_bal"] = val(balanced(y_true, y_pred))
    y_true, y_pred = np.array([[0, 1], [0, 0]]), np.array([[-18.6, 0.51], [2.94, -12.8]])
    for gamma, kwargs in [(3, {}), (4, {"reduction": "sum"}), (5, {"reduction": None})]:
        for bal in (False, True):
            loss = L.BinaryFocalCrossentropy(apply_class_balancing=bal, gamma=gamma, from_logits=True, **kwargs)
            out[f"g{gamma}_{bal}"] = val(loss(y_true, y_pred))
            out[f"g{gamma}_{bal}_sw"] = val(loss(y_true, y_pred, sample_weight=[0.8, 0.2]))
    out["fn"] = val(L.binary_focal_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], gamma=2))
    out["fn_gamma0"] = val(L.binary_focal_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]], gamma=0))
    out["fn_smooth"] = val(L.binary_focal_crossentropy([[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]],
                                                       label_smoothing=0.2, alpha=0.4, apply_class_balancing=True))
    return out


@program
def p_keras_losses_extra_categorical_focal_docstring(tf):
    L = tf.keras.losses
    y_true, y_pred = [[0., 1., 0.], [0., 0., 1.]], [[0.05, 0.95, 0], [0.1, 0.8, 0.1]]
    cce = L.CategoricalFocalCrossentropy()
    return {
        "auto": val(cce(y_true, y_pred)),
        "weighted": val(cce(y_true, y_pred, sample_weight=np.array([0.3, 0.7]))),
        "sum": val(L.CategoricalFocalCrossentropy(reduction="sum")(y_true, y_pred)),
        "none": val(L.CategoricalFocalCrossentropy(reduction=None)(y_true, y_pred)),
        "fn": val(L.categorical_focal_crossentropy([[0, 1, 0], [0, 0, 1]], [[0.05, 0.9, 0.05], [0.1, 0.85, 0.05]])),
        "logits_smooth": val(L.CategoricalFocalCrossentropy(alpha=0.5, gamma=1.5, from_logits=True,
                                                            label_smoothing=0.1)(y_true, [[1.0, 2.0, -1.0],
                                                                                          [0.3, 0.2, 0.1]])),
        "axis_bool": outcome(lambda: L.categorical_focal_crossentropy(y_true, y_pred, axis=True), "axis"),
    }


@program
def p_keras_losses_extra_dice_tversky(tf):
    L = tf.keras.losses
    y_true = [[[[1.0], [1.0]], [[0.0], [0.0]]], [[[1.0], [1.0]], [[0.0], [0.0]]]]
    y_pred = [[[[0.0], [1.0]], [[0.0], [1.0]]], [[[0.4], [0.0]], [[0.0], [0.9]]]]
    axis = (1, 2, 3)
    return {
        "dice_axis_none_red": val(L.Dice(axis=axis, reduction=None)(y_true, y_pred)),
        "dice_default": val(L.Dice()(y_true, y_pred)),
        "dice_np": val(L.Dice(axis=axis, reduction=None)(np.array(y_true), np.array(y_pred))),
        "dice_fn_axis": val(L.dice(y_true, y_pred, axis=axis)),
        "dice_fn": val(L.dice(y_true, y_pred)),
        "dice_weighted": val(L.Dice(axis=axis)(y_true, y_pred, sample_weight=[0.25, 1.0])),
        "tversky_default": val(L.Tversky()(y_true, y_pred)),
        "tversky_ab": val(L.Tversky(alpha=0.3, beta=0.7, axis=axis, reduction=None)(y_true, y_pred)),
        "tversky_fn": val(L.tversky(y_true, y_pred, alpha=0.2, beta=0.8, axis=axis)),
        "tversky_sum": val(L.Tversky(axis=axis, reduction="sum")(y_true, y_pred)),
    }


@program
def p_keras_losses_extra_categorical_hinge(tf):
    L = tf.keras.losses
    y_true = np.array([[0., 1., 0.], [0., 0., 1.], [1., 0., 0.]], "float32")
    y_pred = data((3, 3), seed=2, scale=2.0)
    return {"fn": val(L.categorical_hinge(y_true, y_pred)), "cls": val(L.CategoricalHinge()(y_true, y_pred)),
            "weighted": val(L.CategoricalHinge()(y_true, y_pred, sample_weight=[1.0, 0.5, 0.0])),
            "sum": val(L.CategoricalHinge(reduction="sum")(y_true, y_pred)),
            "metric_fn": val(tf.keras.metrics.categorical_hinge(y_true, y_pred))}


@program
def p_keras_losses_extra_circle(tf):
    L = tf.keras.losses
    emb = tf.math.l2_normalize(tf.constant(data((6, 4), seed=3)), axis=-1)
    labels = tf.constant([0, 1, 0, 2, 1, 2])
    other = tf.math.l2_normalize(tf.constant(data((5, 4), seed=7)), axis=-1)
    return {
        "cls": val(L.Circle()(labels, emb)),
        "cls_none": val(L.Circle(reduction="none")(labels, emb)),
        "cls_opts": val(L.Circle(gamma=10.0, margin=0.2)(labels, emb)),
        "keep_diagonal": val(L.Circle(gamma=2.0, remove_diagonal=False, reduction=None)(labels, emb)),
        "fn": val(L.circle(labels, emb, gamma=5)),
        "fn_ref": val(L.circle(labels, emb, ref_labels=tf.constant([0, 1, 2, 0, 1]), ref_embeddings=other,
                               remove_diagonal=False, gamma=4)),
        "sum": val(L.Circle(gamma=5.0, reduction="sum")(labels, emb)),
    }


@program
def p_keras_losses_extra_generalized_ce(tf):
    L = tf.keras.losses
    y_true = np.array([0, 1, 0, 1])
    y_pred = np.array([[0.7, 0.3], [0.2, 0.8], [0.6, 0.4], [0.4, 0.6]])
    return {
        "cls": val(L.CategoricalGeneralizedCrossEntropy()(y_true, y_pred)),
        "cls_q": val(L.CategoricalGeneralizedCrossEntropy(q=0.2, reduction=None)(y_true, y_pred)),
        "fn": val(L.categorical_generalized_cross_entropy(tf.constant(y_true), tf.constant(y_pred, tf.float32),
                                                          q=0.7)),
        "bad_q": outcome(lambda: L.CategoricalGeneralizedCrossEntropy(q=1.5), "q must be in the interval"),
    }


@program
def p_keras_losses_extra_configs(tf):
    L = tf.keras.losses
    made = [L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3, gamma=1.0, from_logits=True,
                                      label_smoothing=0.1, axis=-1, name="bfc"),
            L.CategoricalFocalCrossentropy(alpha=0.4, gamma=3.0), L.CategoricalHinge(), L.Dice(axis=(1, 2)),
            L.Tversky(alpha=0.1, beta=0.9), L.Circle(gamma=20.0, margin=0.1, remove_diagonal=False),
            L.CategoricalGeneralizedCrossEntropy(q=0.3, reduction="sum")]
    out = {}
    for loss in made:
        config = loss.get_config()
        config.pop("dtype", None)
        s = L.serialize(loss)
        out[type(loss).__name__] = {"config": {k: list(v) if isinstance(v, tuple) else v
                                               for k, v in sorted(config.items())}, "class_name": s["class_name"]}
        if type(loss).__name__ != "CategoricalGeneralizedCrossEntropy":  # Keras 3.15 deserializes it to a str
            back = L.deserialize(s)
            out[type(loss).__name__].update(back=type(back).__name__, back_name=back.name)
    for name in ["binary_focal_crossentropy", "categorical_focal_crossentropy", "categorical_hinge", "dice",
                 "tversky", "circle", "Dice", "Tversky",
                 "CategoricalHinge", "BinaryFocalCrossentropy"]:
        got = L.get(name)
        out["get_" + name] = getattr(got, "__name__", type(got).__name__)
    out["reduction"] = [L.Reduction.AUTO, L.Reduction.NONE, L.Reduction.SUM, L.Reduction.SUM_OVER_BATCH_SIZE,
                        list(L.Reduction.all())]
    out["reduction_validate"] = outcome(lambda: L.Reduction.validate("mean"), "Invalid Reduction Key")
    return out


@program
def p_keras_losses_extra_gradients_in_function(tf):
    """Each loss's value and gradient with respect to the predictions, inside tf.function."""
    L = tf.keras.losses
    probs = tf.nn.softmax(tf.constant(data((3, 4), seed=1, scale=2.0)))
    onehot = tf.one_hot([0, 3, 1], 4)
    cases = {
        "bfc": (L.BinaryFocalCrossentropy(gamma=2.0), tf.constant([[0., 1., 1., 0.], [1., 0., 0., 1.],
                                                                  [0., 0., 1., 1.]]), probs),
        "bfc_logits": (L.BinaryFocalCrossentropy(from_logits=True, apply_class_balancing=True),
                       onehot, tf.constant(data((3, 4), seed=2, scale=3.0))),
        "cfc": (L.CategoricalFocalCrossentropy(), onehot, probs),
        "cfc_logits": (L.CategoricalFocalCrossentropy(from_logits=True), onehot, tf.constant(data((3, 4), seed=4))),
        "chinge": (L.CategoricalHinge(), onehot, tf.constant(data((3, 4), seed=5))),
        "dice": (L.Dice(), onehot, probs),
        "tversky": (L.Tversky(alpha=0.7, beta=0.3), onehot, probs),
        "gce": (L.CategoricalGeneralizedCrossEntropy(q=0.4), tf.constant([0, 3, 1]), probs),
        "circle": (L.Circle(gamma=4.0), tf.constant([0, 1, 0]),
                   tf.math.l2_normalize(tf.constant(data((3, 4), seed=6)), axis=-1)),
    }
    out = {}
    for name, (loss, y_true, y_pred) in cases.items():
        @tf.function
        def value_and_grad(y_true, y_pred, loss=loss):
            with tf.GradientTape() as tape:
                tape.watch(y_pred)
                value = loss(y_true, y_pred)
            return value, tape.gradient(value, y_pred)

        value, grad = value_and_grad(y_true, y_pred)
        out[name] = [val(value), val(grad)]
    return out


@program
def p_keras_losses_extra_compile_fit(tf):
    keras = tf.keras
    out = {}
    for loss in ["binary_focal_crossentropy", keras.losses.Dice(), keras.losses.Tversky(alpha=0.4, beta=0.6),
                 keras.losses.CategoricalFocalCrossentropy(), "categorical_hinge"]:
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="sigmoid",
                                                                        kernel_initializer="ones")])
        model.compile(optimizer=keras.optimizers.SGD(0.5), loss=loss)
        x, y = data((8, 3), seed=1), np.eye(2, dtype="float32")[np.arange(8) % 2]
        history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        name = loss if isinstance(loss, str) else type(loss).__name__
        out[name] = [round(v, 5) for v in history.history["loss"]]
    return out
