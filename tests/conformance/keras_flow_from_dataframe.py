"""ImageDataGenerator.flow_from_dataframe as Keras 3 (TF 2.21) runs it: a DataFrame of PNG file names (written
here: small synthetic images, no downloads) and labels, batched under every class_mode (categorical, multi-label
categorical, binary, sparse, raw, multi_output, input, None), with weight_col, given classes, a validation
subset, missing and non-image files dropped (or kept with validate_filenames=False), seeded augmentation with
shuffling, and the argument errors. Needs pandas (the `test` extra)."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import outcome, program


def _images(tf, count=8):
    """`count` 6x5 RGB PNGs img0.png ... in a new folder, plus notes.txt (not an image)."""
    folder = tempfile.mkdtemp()
    for i in range(count):
        pixels = (np.arange(6 * 5 * 3).reshape(6, 5, 3) * (i + 3) + 17 * i) % 256
        tf.keras.utils.save_img(os.path.join(folder, f"img{i}.png"), pixels.astype("uint8"), scale=False)
    with open(os.path.join(folder, "notes.txt"), "w") as f:
        f.write("not an image")
    return folder


def _frame(rows):
    import pandas as pd

    return pd.DataFrame(rows)


def _batches(iterator, n=None):
    """Every batch of one epoch, arrays as rounded lists."""
    out = []
    for k in range(len(iterator) if n is None else n):
        batch = iterator[k]
        parts = batch if isinstance(batch, tuple) else (batch,)
        out.append([np.round(np.asarray(p, np.float64), 4).tolist() if not isinstance(p, list)
                    else [np.asarray(q).tolist() for q in p] for p in parts])
    return out


@program
def p_keras_flow_from_dataframe_class_modes(tf):
    folder = _images(tf)
    gen = tf.keras.preprocessing.image.ImageDataGenerator(rescale=1 / 255.0)
    names = [f"img{i}.png" for i in range(8)]
    df = _frame({"filename": names + ["missing.png", "notes.txt"],
                 "class": ["cat", "dog", "cat", "bird", "dog", "cat", "bird", "dog", "cat", "dog"],
                 "kind": ["a", "b"] * 5, "score": [0.5 * i for i in range(10)], "other": list(range(10)),
                 "weight": [1.0, 2.0] * 5})
    results = {}
    for mode in ("categorical", "sparse", "input", None):
        it = gen.flow_from_dataframe(df, folder, target_size=(4, 4), class_mode=mode, batch_size=3, shuffle=False)
        results[str(mode)] = [it.samples, it.filenames, getattr(it, "class_indices", None), _batches(it, 1)]
    binary = gen.flow_from_dataframe(df, folder, y_col="kind", target_size=(3, 3), class_mode="binary",
                                     batch_size=4, shuffle=False, weight_col="weight")
    raw = gen.flow_from_dataframe(df, folder, y_col="score", target_size=(2, 2), class_mode="raw", batch_size=5,
                                  shuffle=False, color_mode="grayscale")
    multi = gen.flow_from_dataframe(df, folder, y_col=["score", "other"], target_size=(2, 2),
                                    class_mode="multi_output", batch_size=4, shuffle=False)
    unchecked = gen.flow_from_dataframe(df.iloc[:8], folder, target_size=(2, 2), batch_size=8, shuffle=False,
                                        validate_filenames=False)
    results["binary"] = [binary.class_indices, binary.classes, _batches(binary)]
    results["raw"] = [np.asarray(raw.labels).tolist(), _batches(raw)]
    results["multi_output"] = _batches(multi)
    results["unchecked"] = [unchecked.samples, unchecked.classes]
    return results


@program
def p_keras_flow_from_dataframe_labels_and_subsets(tf):
    folder = _images(tf)
    names = [f"img{i}.png" for i in range(8)]
    df = _frame({"filename": names,
                 "tags": [["a", "b"], ["b"], ("c", "a"), ["a"], "b", ["c"], ["b", "c"], ["d"]]})
    gen = tf.keras.preprocessing.image.ImageDataGenerator(validation_split=0.25)
    multi = gen.flow_from_dataframe(df, folder, y_col="tags", target_size=(2, 2), batch_size=8, shuffle=False)
    chosen = gen.flow_from_dataframe(df, folder, y_col="tags", classes=["c", "a"], target_size=(2, 2),
                                     batch_size=8, shuffle=False)
    training = gen.flow_from_dataframe(df, folder, y_col="tags", target_size=(2, 2), batch_size=8, shuffle=False,
                                       subset="training")
    validation = gen.flow_from_dataframe(df, folder, y_col="tags", target_size=(2, 2), batch_size=8,
                                         shuffle=False, subset="validation")
    return [multi.class_indices, multi.classes, _batches(multi)[0][1], chosen.class_indices, chosen.filenames,
            chosen.classes, _batches(chosen)[0][1], training.filenames, validation.filenames, validation.classes]


@program
def p_keras_flow_from_dataframe_augmented(tf):
    folder = _images(tf)
    df = _frame({"filename": [f"img{i}.png" for i in range(8)], "class": ["x", "y"] * 4})
    gen = tf.keras.preprocessing.image.ImageDataGenerator(horizontal_flip=True, vertical_flip=True,
                                                          rescale=1 / 255.0)
    it = gen.flow_from_dataframe(df, folder, target_size=(3, 3), batch_size=3, shuffle=True, seed=7)
    first = [next(it) for _ in range(4)]
    return [[np.round(x, 4).tolist() for x, _ in first], [y.tolist() for _, y in first], len(it)]


@program
def p_keras_flow_from_dataframe_errors(tf):
    folder = _images(tf, 2)
    gen = tf.keras.preprocessing.image.ImageDataGenerator()
    df = _frame({"filename": ["img0.png", "img1.png"], "class": ["a", "b"], "n": [1, 2], "w": ["x", "y"]})

    def flow(**kwargs):
        return gen.flow_from_dataframe(df, folder, **kwargs).samples

    three = _frame({"filename": ["img0.png", "img1.png", "img0.png"], "class": ["a", "b", "c"]})
    return [outcome(lambda: flow(class_mode="nope"), "Invalid class_mode"),
            outcome(lambda: flow(class_mode="multi_output", y_col="class"), "y_col must be a list"),
            outcome(lambda: flow(class_mode="sparse", y_col="n"), "column values must be strings"),
            outcome(lambda: flow(class_mode="categorical", y_col="n"), "must be type string, list or tuple"),
            outcome(lambda: gen.flow_from_dataframe(three, folder, class_mode="binary").samples,
                    "there must be 2 classes"),
            outcome(lambda: flow(class_mode="binary", classes=["a", "b", "c"]), "3 class/es were given"),
            outcome(lambda: flow(weight_col="w"), "must be numeric"),
            outcome(lambda: flow(x_col="n"), "must be strings"),
            outcome(lambda: flow(color_mode="cmyk"), "Invalid color mode"),
            outcome(lambda: flow(subset="test"), "Invalid subset name"),
            outcome(lambda: flow(class_mode="other", y_col="n"), "")]
