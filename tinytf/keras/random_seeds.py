"""Keras 3's default seeds. A random initializer or a layer's seed generator made without a seed draws one from
Python's `random` (which keras.utils.set_random_seed seeds; tf.random.set_seed does not, as in Keras 3). A
program that draws the same seeds in the same order as Keras, and the values through the same stateless ops,
starts from TensorFlow's initial weights."""

from __future__ import annotations

import random


def make_default_seed() -> int:
    return random.randint(1, int(1e9))


def seed_generator_seed(seed) -> int:
    """The seed a Keras SeedGenerator(seed) would hold: the given one, or a fresh default (drawn now, in the
    constructor where Keras makes its generator, so later draws stay in step with Keras)."""
    return seed if seed is not None else make_default_seed()
