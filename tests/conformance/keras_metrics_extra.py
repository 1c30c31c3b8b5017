"""keras.metrics added for issue 11 against Keras 3: the `>>>` examples of their docstrings (update_state with
and without sample_weight, reset_state, result), eagerly and inside tf.function, threshold lists, class_id,
averages, configs, names resolved by get() and by compile(metrics=[...])."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


def _docstring_run(tf, metric, args, kwargs_weighted, graph=False):
    """result after update_state(*args), then after reset_state and a weighted update."""
    update = tf.function(metric.update_state) if graph else metric.update_state
    update(*args)
    first = val(tf.convert_to_tensor(metric.result()))
    metric.reset_state()
    update(*args, **kwargs_weighted)
    return [first, val(tf.convert_to_tensor(metric.result()))]


def _examples(tf, graph):
    M = tf.keras.metrics
    a, b = [[0, 1], [0, 0]], [[0.6, 0.4], [0.4, 0.6]]
    c = [[1., 1.], [0., 0.]]  # Keras 3 on TF fails on integer predictions for these
    sw10 = {"sample_weight": [1, 0]}
    ex = {
        "KLDivergence": (M.KLDivergence(), (a, b), sw10),
        "Poisson": (M.Poisson(), (a, [[1., 1.], [0., 0.]]), sw10),  # Keras fails on int y_pred
        "MeanSquaredLogarithmicError": (M.MeanSquaredLogarithmicError(), (a, c), sw10),
        "CosineSimilarity": (M.CosineSimilarity(axis=1), ([[0., 1.], [1., 1.]], [[1., 0.], [1., 1.]]),
                             {"sample_weight": [0.3, 0.7]}),
        "LogCoshError": (M.LogCoshError(), (a, c), sw10),
        "Hinge": (M.Hinge(), (a, b), sw10),
        "SquaredHinge": (M.SquaredHinge(), (a, b), sw10),
        "CategoricalHinge": (M.CategoricalHinge(), (a, b), sw10),
        "IoU": (M.IoU(num_classes=2, target_class_ids=[0]), ([0, 0, 1, 1], [0, 1, 0, 1]),
                {"sample_weight": [0.3, 0.3, 0.3, 0.1]}),
        "IoU_int_weights": (M.IoU(num_classes=3, target_class_ids=[0, 2]), ([0, 2, 1, 1, 2], [0, 1, 2, 1, 2]),
                            {"sample_weight": [2, 1, 3, 1, 1]}),
        "BinaryIoU": (M.BinaryIoU(target_class_ids=[0, 1], threshold=0.3), ([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7]),
                      {"sample_weight": [0.2, 0.3, 0.4, 0.1]}),
        "FalsePositives": (M.FalsePositives(), ([0, 1, 0, 0], [0, 0, 1, 1]), {"sample_weight": [0, 0, 1, 0]}),
        "FalseNegatives": (M.FalseNegatives(), ([0, 1, 1, 1], [0, 1, 0, 0]), {"sample_weight": [0, 0, 1, 0]}),
        "TrueNegatives": (M.TrueNegatives(), ([0, 1, 0, 0], [1, 1, 0, 0]), {"sample_weight": [0, 0, 1, 0]}),
        "TruePositives": (M.TruePositives(), ([0, 1, 1, 1], [1, 0, 1, 1]), {"sample_weight": [0, 0, 1, 0]}),
        "TruePositives_thresholds": (M.TruePositives(thresholds=[0.0, 0.25, 0.5, 0.9]),
                                     ([0, 1, 1, 1], [0.1, 0.3, 0.6, 0.95]), {"sample_weight": [1, 2, 3, 4]}),
        "FalseNegatives_2d": (M.FalseNegatives(thresholds=[0.3, 0.7]), ([[0, 1], [1, 1]], [[0.2, 0.5], [0.8, 0.1]]),
                              {"sample_weight": [2.0, 0.5]}),
        "SensitivityAtSpecificity": (M.SensitivityAtSpecificity(0.5), ([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]),
                                     {"sample_weight": [1, 1, 2, 2, 1]}),
        "SpecificityAtSensitivity": (M.SpecificityAtSensitivity(0.5), ([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]),
                                     {"sample_weight": [1, 1, 2, 2, 2]}),
        "PrecisionAtRecall": (M.PrecisionAtRecall(0.5), ([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]),
                              {"sample_weight": [2, 2, 2, 1, 1]}),
        "RecallAtPrecision": (M.RecallAtPrecision(0.8), ([0, 0, 1, 1], [0, 0.5, 0.3, 0.9]),
                              {"sample_weight": [1, 0, 0, 1]}),
        "PrecisionAtRecall_class_id": (M.PrecisionAtRecall(0.4, num_thresholds=5, class_id=1),
                                       ([[0, 1], [1, 0], [0, 1], [1, 1]], [[0.3, 0.6], [0.9, 0.2], [0.1, 0.4],
                                                                           [0.7, 0.8]]),
                                       {"sample_weight": [1.0, 2.0, 0.5, 1.0]}),
        "PearsonCorrelation": (M.PearsonCorrelation(axis=-1), ([[0, 1, 0.5], [1, 1, 0.2]],
                                                               [[0.1, 0.9, 0.5], [1, 0.9, 0.2]]),
                               {"sample_weight": [0.25, 1.0]}),
        "ConcordanceCorrelation": (M.ConcordanceCorrelation(axis=-1), ([[0, 1, 0.5], [1, 1, 0.2]],
                                                                       [[0.1, 0.9, 0.5], [1, 0.9, 0.2]]),
                                   {"sample_weight": [0.25, 1.0]}),
    }
    return {name: _docstring_run(tf, m, args, kw, graph) for name, (m, args, kw) in ex.items()}


@program
def p_keras_metrics_extra_docstring_examples(tf):
    return _examples(tf, graph=False)


@program
def p_keras_metrics_extra_docstring_examples_in_function(tf):
    return _examples(tf, graph=True)


@program
def p_keras_metrics_extra_scores(tf):
    M = tf.keras.metrics
    y_true = np.array([[1, 1, 1], [1, 0, 0], [1, 1, 0]], np.int32)
    y_pred = np.array([[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]], np.float32)
    out = {}
    for name, metric in [("fbeta", M.FBetaScore(beta=2.0, threshold=0.5)), ("f1", M.F1Score(threshold=0.5)),
                         ("f1_argmax", M.F1Score()), ("f1_micro", M.F1Score(average="micro", threshold=0.4)),
                         ("f1_macro", M.F1Score(average="macro")),
                         ("fbeta_weighted", M.FBetaScore(average="weighted", beta=0.5, threshold=0.3))]:
        metric.update_state(y_true, y_pred)
        metric.update_state(y_true[:2], y_pred[1:], sample_weight=[0.5, 2.0])
        out[name] = val(tf.convert_to_tensor(metric.result()))
    r2_true, r2_pred = np.array([[1], [4], [3]], np.float32), np.array([[2], [4], [4]], np.float32)
    r2 = M.R2Score()
    r2.update_state(r2_true, r2_pred)
    out["r2"] = val(tf.convert_to_tensor(r2.result()))
    multi_true = data((6, 3), seed=1)
    multi_pred = multi_true + data((6, 3), seed=2, scale=0.3)
    for agg in [None, "uniform_average", "variance_weighted_average"]:
        m = M.R2Score(class_aggregation=agg)
        m.update_state(multi_true, multi_pred, sample_weight=np.linspace(0.5, 2.0, 6).astype("float32"))
        out[f"r2_{agg}"] = val(tf.convert_to_tensor(m.result()))
    adjusted = M.R2Score(num_regressors=2)
    adjusted.update_state(multi_true, multi_pred)
    out["r2_adjusted"] = val(tf.convert_to_tensor(adjusted.result()))
    one_hot_true = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0]])
    one_hot_pred = np.array([[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.5, 0.3, 0.1], [0.1, 0.4, 0.5]])
    for name, m in [("one_hot_iou", M.OneHotIoU(num_classes=3, target_class_ids=[0, 2])),
                    ("one_hot_mean_iou", M.OneHotMeanIoU(num_classes=3))]:
        m.update_state(one_hot_true, one_hot_pred, sample_weight=[0.1, 0.2, 0.3, 0.4])
        first = val(tf.convert_to_tensor(m.result()))
        m.reset_state()
        m.update_state(one_hot_true, one_hot_pred, sample_weight=[1, 2, 3, 4])
        out[name] = [first, val(tf.convert_to_tensor(m.result()))]
    ignore = M.IoU(num_classes=3, target_class_ids=[0, 1, 2], ignore_class=1)
    ignore.update_state([0, 1, 2, 2, 5], [0, 1, 1, 2, 2])
    out["iou_ignore"] = val(tf.convert_to_tensor(ignore.result()))
    return out


@program
def p_keras_metrics_extra_functions(tf):
    M = tf.keras.metrics
    y_true, y_pred = [[0, 1, 0.5], [1, 1, 0.2]], [[0.1, 0.9, 0.5], [1, 0.9, 0.2]]
    a, b = np.array([[0.0, 1.0], [0.0, 0.0]], "float32"), np.array([[0.6, 0.4], [0.4, 0.6]], "float32")
    return {
        "pearson": val(M.pearson_correlation(y_true, y_pred)),
        "concordance": val(M.concordance_correlation(y_true, y_pred)),
        "pearson_axis0": val(M.pearson_correlation(y_true, y_pred, axis=0)),
        "msle": val(M.msle(a, b)), "MSLE": val(M.MSLE(a, b)), "kld": val(M.kld(a + 0.1, b)),
        "KLD": val(M.KLD(a + 0.1, b)), "kl": val(M.kullback_leibler_divergence(a + 0.1, b)),
        "hinge": val(M.hinge(a, b)), "squared_hinge": val(M.squared_hinge(a, b)),
        "categorical_hinge": val(M.categorical_hinge(a, b)), "huber": val(M.huber(a, b)),
        "logcosh": val(M.logcosh(a, b)), "poisson": val(M.poisson(a, b)), "MAE": val(M.MAE(a, b)),
        "MSE": val(M.MSE(a, b)), "MAPE": val(M.MAPE(a + 1.0, b)),
        "bfc": val(M.binary_focal_crossentropy(a, b)), "cfc": val(M.categorical_focal_crossentropy(a, b)),
    }


@program
def p_keras_metrics_extra_names_and_configs(tf):
    M = tf.keras.metrics
    made = [M.TruePositives(thresholds=[0.2, 0.8]), M.FalseNegatives(), M.PrecisionAtRecall(0.7, num_thresholds=50),
            M.RecallAtPrecision(0.6, class_id=2), M.SensitivityAtSpecificity(0.4), M.SpecificityAtSensitivity(0.3),
            M.F1Score(average="macro", threshold=0.4), M.FBetaScore(beta=0.5), M.R2Score(num_regressors=1),
            M.IoU(num_classes=3, target_class_ids=[1]), M.BinaryIoU(), M.OneHotIoU(3, [0, 1]), M.OneHotMeanIoU(4),
            M.CosineSimilarity(axis=0), M.LogCoshError(), M.Hinge(), M.SquaredHinge(), M.CategoricalHinge(),
            M.KLDivergence(), M.Poisson(), M.MeanSquaredLogarithmicError(), M.PearsonCorrelation(axis=0),
            M.ConcordanceCorrelation(), M.TruePositives(), M.IoU(num_classes=2, target_class_ids=[0])]
    out = {}
    for i, metric in enumerate(made):
        config = metric.get_config()
        s = M.serialize(metric)
        back = M.deserialize(s)
        out[f"{i}_{type(metric).__name__}"] = {
            "name": metric.name,
            "config": {k: list(v) if isinstance(v, tuple) else v for k, v in sorted(config.items())},
            "class_name": s["class_name"], "back": type(back).__name__, "back_name": back.name}
    for name in ["true_positives", "false_negatives", "f1_score", "r2_score", "io_u", "binary_io_u", "hinge",
                 "log_cosh_error", "msle", "MSLE", "cosine_similarity", "kl_divergence", "poisson",
                 "pearson_correlation", "concordance_correlation", "one_hot_mean_io_u", "squared_hinge",
                 "categorical_hinge", "mean_squared_logarithmic_error", "precision_at_recall", "BCE", "TruePositives",
                 "F1Score"]:
        got = outcome(lambda name=name: M.get(name), "")
        out["get_" + name] = got["value"] if "value" in got else got["error"]
    out["errors"] = {
        "fbeta_average": outcome(lambda: M.FBetaScore(average="mean"), "Invalid `average` argument value"),
        "fbeta_beta_int": outcome(lambda: M.FBetaScore(beta=2), "It should be a Python float"),
        "f1_threshold": outcome(lambda: M.F1Score(threshold=1.5), "0 < threshold <= 1"),
        "r2_agg": outcome(lambda: M.R2Score(class_aggregation="median"), "class_aggregation"),
        "r2_regressors": outcome(lambda: M.R2Score(num_regressors=-1), "num_regressors"),
        "par_recall": outcome(lambda: M.PrecisionAtRecall(1.5), "must be in the range [0, 1]"),
        "sas_thresholds": outcome(lambda: M.SensitivityAtSpecificity(0.5, num_thresholds=0), "num_thresholds"),
        "iou_target": outcome(lambda: M.IoU(num_classes=2, target_class_ids=[3]), "out of range"),
        "f1_rank": outcome(lambda: M.F1Score()([1.0, 0.0], [0.3, 0.8]), "expects 2D inputs"),
        "get_unknown": outcome(lambda: M.get("f2_score"), "Could not interpret metric identifier"),
    }
    return out


@program
def p_keras_metrics_extra_in_compile(tf):
    keras = tf.keras
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="sigmoid",
                                                                    kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="binary_crossentropy",
                  metrics=["true_positives", "hinge", "msle", keras.metrics.F1Score(average="micro", threshold=0.5),
                           keras.metrics.PrecisionAtRecall(0.5, num_thresholds=20), "cosine_similarity",
                           keras.metrics.R2Score(), keras.metrics.BinaryIoU()])
    x, y = data((8, 3), seed=1), np.eye(2, dtype="float32")[np.arange(8) % 2]
    history = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
    evaluated = model.evaluate(x, y, verbose=0, return_dict=True)
    return {"history": {k: [round(v, 5) for v in vs] for k, vs in sorted(history.history.items())},
            "evaluate": {k: round(float(v), 5) for k, v in sorted(evaluated.items())}}
