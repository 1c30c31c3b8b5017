"""TF1's `output_types` / `output_shapes` / `output_classes` of a dataset or an iterator: its element_spec told
the TF1 way (tf.compat.v1.data.get_output_*), shared by DatasetV1 and the public Iterator."""

from __future__ import annotations


class LegacyOutputProperties:
    @property
    def output_types(self):
        from .data import get_output_types  # data.py builds on the classes that use this

        return get_output_types(self)

    @property
    def output_shapes(self):
        from .data import get_output_shapes

        return get_output_shapes(self)

    @property
    def output_classes(self):
        from .data import get_output_classes

        return get_output_classes(self)
