"""Keras' preprocessing layers: text and category lookups, hashing and encoding, image resizing and
augmentation. Each layer lives in a module of its own; tinytf.keras.layers exports them."""
