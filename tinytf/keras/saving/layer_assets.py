"""The "assets/" folder of a .keras file: files a layer writes with `save_assets(dir)` and reads back with
`load_assets(dir)` (a lookup layer's vocabulary.txt), under the same path as the layer's weights
("assets/layers/text_vectorization/_lookup_layer/vocabulary.txt"), as Keras 3's saving_lib writes them."""

from __future__ import annotations

import os
import tempfile

from .weights_file import _children


def _walk(layer, path: str = ""):
    """(inner path, layer) of `layer` and every layer saved under it, in the weights file's naming."""
    yield path, layer
    container, children = _children(layer)
    for key, child in children:
        inner = "/".join(p for p in (path, container, key) if p)
        yield from _walk(child, inner)


def write_assets(archive, model) -> None:
    """Add each layer's asset files to the open zip `archive`."""
    for path, layer in _walk(model):
        if not hasattr(layer, "save_assets"):
            continue
        with tempfile.TemporaryDirectory() as folder:
            layer.save_assets(folder)
            for name in sorted(os.listdir(folder)):
                archive.write(os.path.join(folder, name), "/".join(p for p in ("assets", path, name) if p))


def read_assets(archive, model) -> None:
    """Give each layer that reads assets the files the zip holds for it."""
    names = archive.namelist()
    for path, layer in _walk(model):
        if not hasattr(layer, "load_assets"):
            continue
        prefix = "/".join(p for p in ("assets", path) if p) + "/"
        mine = [n for n in names if n.startswith(prefix) and "/" not in n[len(prefix):]]
        if not mine:
            continue
        with tempfile.TemporaryDirectory() as folder:
            for name in mine:
                with open(os.path.join(folder, name[len(prefix):]), "wb") as f:
                    f.write(archive.read(name))
            layer.load_assets(folder)
