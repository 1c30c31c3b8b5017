"""keras.layers.ReversibleEmbedding and keras.distillation (helper savetab): forward lookups with their masks,
reverse projections with tied or separate weights, soft-capped logits, gradients, eagerly and in tf.function."""

from __future__ import annotations

import numpy as np

from . import fixed_weights, outcome, program, val


@program
def p_savetab_reversible_embedding(tf):
    keras = tf.keras
    ids = np.array([[1, 0, 3], [4, 2, 0]])
    out = {}
    for tie in (True, False):
        layer = keras.layers.ReversibleEmbedding(6, 4, tie_weights=tie, mask_zero=True, logit_soft_cap=1.5)
        layer.build()
        fixed_weights(layer, seed=1)
        hidden = layer(ids)
        logits = layer(hidden, reverse=True)
        graph_logits = tf.function(lambda h, layer=layer: layer(h, reverse=True))(hidden)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(layer(ids), reverse=True) ** 2)
        grads = tape.gradient(loss, layer.trainable_weights)
        out[str(tie)] = {"hidden": val(hidden), "mask": val(hidden._keras_mask), "logits": val(logits),
                         "graph": val(graph_logits), "grads": [val(tf.convert_to_tensor(g)) for g in grads],
                         "weights": [w.name for w in layer.weights], "shape": list(layer.compute_output_shape(
                             (2, 3, 4), reverse=True))}
    layer = keras.layers.ReversibleEmbedding(5, 3, reverse_dtype="float64")
    layer.build()
    fixed_weights(layer, seed=2)
    out["float64"] = val(layer(tf.constant([[0.5, -1.0, 2.0]]), reverse=True))
    config = layer.get_config()
    out["config"] = {k: config[k] for k in ("input_dim", "output_dim", "tie_weights", "reverse_dtype",
                                            "logit_soft_cap", "mask_zero")}
    clone = keras.layers.ReversibleEmbedding.from_config(config)
    out["clone"] = [clone.tie_weights, clone.reverse_dtype, clone.input_dim]
    model_in = keras.Input((3,), dtype="int32")
    embed = keras.layers.ReversibleEmbedding(7, 2)
    model = keras.Model(model_in, embed(embed(model_in), reverse=True))
    fixed_weights(model, seed=3)
    out["model"] = val(model(np.array([[1, 2, 6]])))
    out["bad_reverse"] = outcome(lambda: layer(tf.ones([1, 4]), reverse=True), "")
    return out


def _teacher_student(keras, fixed):
    teacher = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, activation="relu", name="h"),
                                keras.layers.Dense(3, name="out")])
    student = keras.Sequential([keras.Input((4,)), keras.layers.Dense(6, name="h"), keras.layers.Dense(3, name="out")])
    fixed(teacher, seed=1)
    fixed(student, seed=5)
    return teacher, student


@program
def p_savetab_distillation(tf):
    keras = tf.keras
    dist = keras.distillation
    x = np.linspace(-1.0, 1.0, 48).reshape(12, 4).astype("float32")
    y = np.arange(12) % 3
    out = {}
    for name, losses, weights, student_weight in (
            ("logits_by_name", dist.LogitsDistillation(2.0), None, 0.5),
            ("kl_instance", dist.LogitsDistillation(4.0, loss=keras.losses.KLDivergence()), None, 0.2),
            ("both", [dist.LogitsDistillation(3.0, loss="categorical_crossentropy"),
                      dist.FeatureDistillation("mse", "h", "h")], [1.0, 0.25], 0.3),
            ("feature_only", dist.FeatureDistillation(keras.losses.MeanAbsoluteError()), None, 0.0)):
        teacher, student = _teacher_student(keras, fixed_weights)
        distiller = dist.Distiller(teacher, student, losses, distillation_loss_weights=weights,
                                   student_loss_weight=student_weight)
        distiller.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy",
                          metrics=["accuracy"])
        history = distiller.fit(x, y, epochs=2, batch_size=6, shuffle=False, verbose=0)
        out[name] = {"history": {k: [round(v, 5) for v in vs] for k, vs in history.history.items()},
                     "evaluate": {k: round(float(v), 5) for k, v in
                                  distiller.evaluate(x, y, verbose=0, return_dict=True).items()},
                     "predict": val(np.round(distiller.predict(x[:2], verbose=0), 5)),
                     "metrics": [m.name for m in distiller.metrics],
                     "counts": [len(distiller.trainable_weights), len(distiller.weights), teacher.trainable]}
    logits = dist.LogitsDistillation(2.0, loss=["kl_divergence", None])
    t = [tf.constant([[1.0, 2.0, 0.5]]), tf.constant([[0.0, 1.0]])]
    s = [tf.constant([[0.5, 1.0, 1.5]]), tf.constant([[2.0, 1.0]])]
    out["structured"] = round(float(logits.compute_loss(t, s)), 6)
    out["structured_fn"] = round(float(tf.function(lambda a, b: logits.compute_loss(a, b))(t, s)), 6)
    out["feature_value"] = round(float(dist.FeatureDistillation("cosine_similarity").compute_loss(t[0], s[0])), 6)
    out["configs"] = [dist.LogitsDistillation(3.0).get_config(), dist.FeatureDistillation().get_config(),
                      dist.FeatureDistillation(["mse", None], "h", "h").get_config()]
    teacher, student = _teacher_student(keras, fixed_weights)
    wide = keras.Sequential([keras.Input((5,)), keras.layers.Dense(3)])
    out["errors"] = {
        "temperature": outcome(lambda: dist.LogitsDistillation(0.0), "temperature must be positive"),
        "all_none": outcome(lambda: dist.LogitsDistillation(loss=[None]), "non-`None`"),
        "feature_none": outcome(lambda: dist.FeatureDistillation(loss=None), "non-`None`"),
        "weight": outcome(lambda: dist.Distiller(teacher, student, dist.LogitsDistillation(),
                                                 student_loss_weight=1.5), "between 0.0 and 1.0"),
        "none_losses": outcome(lambda: dist.Distiller(teacher, student, None), "cannot be `None`"),
        "weights_count": outcome(lambda: dist.Distiller(teacher, student, [dist.LogitsDistillation()],
                                                        distillation_loss_weights=[1.0, 2.0]), "must match"),
        "shapes": outcome(lambda: dist.Distiller(wide, student, dist.LogitsDistillation()), "incompatible"),
        "layer": outcome(lambda: dist.Distiller(teacher, student, dist.FeatureDistillation("mse", "nope", "h")),
                         "In teacher model"),
        "teacher_type": outcome(lambda: dist.Distiller("t", student, dist.LogitsDistillation()), "keras.Model"),
        "compile": outcome(lambda: dist.Distiller(teacher, student, dist.LogitsDistillation()).compile("sgd"),
                           "'loss' cannot be `None`"),
    }
    return out


@program
def p_savetab_legacy_saving(tf):
    keras = tf.keras
    legacy = keras.legacy.saving
    dense = keras.layers.Dense(3, activation="relu", name="d", kernel_regularizer=keras.regularizers.L2(0.1))
    out = {"dense": legacy.serialize_keras_object(dense),
           "loss": legacy.serialize_keras_object(keras.losses.Huber(delta=2.0)),
           "initializer": legacy.serialize_keras_object(keras.initializers.GlorotUniform(seed=3)),
           "none": legacy.serialize_keras_object(None)}
    restored = legacy.deserialize_keras_object(out["dense"], module_objects={"Dense": keras.layers.Dense,
                                                                             "L2": keras.regularizers.L2})
    out["restored"] = [type(restored).__name__, restored.name, restored.units,
                       type(restored.kernel_regularizer).__name__]
    # (a name found only in module_objects raises AttributeError in TF 2.21's Keras: it reads a registry attribute
    # Keras 3 no longer has; tinytf looks the name up there, as the function's documentation says)
    out["by_name"] = type(legacy.deserialize_keras_object("Zeros", custom_objects={
        "Zeros": keras.initializers.Zeros})).__name__
    out["custom"] = legacy.deserialize_keras_object(
        {"class_name": "Huber", "config": {"delta": 3.0}}, custom_objects={"Huber": keras.losses.Huber}).get_config()
    out["unknown"] = outcome(lambda: legacy.deserialize_keras_object({"class_name": "Nope", "config": {}},
                                                                     module_objects={}), "Unknown object")
    out["improper"] = outcome(lambda: legacy.deserialize_keras_object({"config": {}}), "Improper config format")
    out["uninterpretable"] = outcome(lambda: legacy.deserialize_keras_object(3), "Could not interpret")
    out["no_config"] = outcome(lambda: legacy.serialize_keras_object(object()), "get_config")
    return out


@program
def p_savetab_draw_segmentation_masks(tf):
    draw = tf.keras.visualization.draw_segmentation_masks
    images = (np.arange(2 * 3 * 4 * 3).reshape(2, 3, 4, 3) * 2.7 % 255).astype("float32")
    masks = (np.arange(24).reshape(2, 3, 4, 1) % 4).astype("int32") - 1
    return {"default": val(draw(images, masks)),
            "classes": val(draw(images, masks, num_classes=3, alpha=0.5)),
            "mapping": val(draw(images, np.maximum(masks, 0), num_classes=2,
                                color_mapping={0: [255, 0, 0], 1: [0, 0, 255]}, ignore_index=5)),
            "unblended": val(draw(images, masks, num_classes=4, blend=False)),
            "channels_first": val(draw(np.transpose(images, (0, 3, 1, 2)), np.transpose(masks, (0, 3, 1, 2)),
                                       data_format="channels_first")),
            "rank": outcome(lambda: draw(images[0], masks[0]), "batched 4D"),
            "dtype": outcome(lambda: draw(images, masks.astype("float32")), "integer dtype")}
