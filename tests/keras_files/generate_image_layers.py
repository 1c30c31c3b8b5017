"""Writes the .keras files of models with image preprocessing, 3-D and 1-D layers saved by TensorFlow 2.21
(tests/test_keras_image_prep_files.py loads them in tinytf). Run with TF's Python, from this folder:

    TF_CPP_MIN_LOG_LEVEL=3 /work/tfenv/bin/python generate_image_layers.py
"""

import keras
import numpy as np

L = keras.layers
rng = np.random.default_rng(0)
models = {
    "image_augment": (keras.Sequential([
        keras.Input((8, 8, 3)), L.Resizing(6, 6), L.RandomFlip(seed=1), L.RandomRotation(0.1, seed=2),
        L.RandomZoom(0.1, seed=3), L.RandomContrast(0.2, seed=4), L.RandomTranslation(0.1, 0.1),
        L.RandomBrightness(0.1), L.RandomGrayscale(0.2), L.CenterCrop(5, 5), L.Rescaling(1 / 255), L.Flatten(),
        L.Dense(2)]), rng.uniform(0, 255, (2, 8, 8, 3))),
    "layers_3d": (keras.Sequential([
        keras.Input((4, 6, 6, 1)), L.Conv3D(2, 3, padding="same"), L.MaxPooling3D(),
        L.Conv3DTranspose(2, 2, strides=2), L.AveragePooling3D(1), L.UpSampling3D(1), L.ZeroPadding3D(1),
        L.Cropping3D(1), L.GlobalAveragePooling3D(), L.Dense(1)]), rng.uniform(-1, 1, (2, 4, 6, 6, 1))),
    "layers_1d": (keras.Sequential([
        keras.Input((6, 2)), L.SeparableConv1D(3, 3), L.DepthwiseConv1D(2), L.Conv1DTranspose(2, 2, strides=2),
        L.UpSampling1D(2), L.ZeroPadding1D(1), L.Cropping1D(1), L.Flatten(), L.Dense(1)]),
        rng.uniform(-1, 1, (2, 6, 2))),
}
arrays = {}
for name, (model, x) in models.items():
    x = x.astype("float32")
    model.save(f"{name}.keras")
    arrays[f"{name}_input"], arrays[f"{name}_output"] = x, model.predict(x, verbose=0)
np.savez("image_layers_io.npz", **arrays)
