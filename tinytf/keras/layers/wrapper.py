"""keras.layers.Wrapper: Keras 3's base of layers that wrap another layer (its config holds the wrapped layer's
own config), and keras.layers.serialize/deserialize, a layer to and from Keras 3's config dict."""

from __future__ import annotations

from .layer import Layer


class Wrapper(Layer):
    """A layer holding `layer`: builds it if unbuilt; subclasses define call."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. Please ensure "
                             f"wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    def get_config(self):
        from ..saving.layer_config import serialize_layer

        return {**super().get_config(), "layer": serialize_layer(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from ..saving.layer_config import deserialize_layer

        layer = config.pop("layer")  # from the caller's dict, as Keras does
        if isinstance(layer, dict):
            layer = deserialize_layer(layer, custom_objects)
        return cls(layer, **config)


def serialize(layer) -> dict:
    """The layer's Keras 3 config dict ({"module", "class_name", "config", "registered_name", "build_config"})."""
    from ..saving.layer_config import serialize_layer

    return serialize_layer(layer)


def deserialize(config, custom_objects=None):
    """A layer from its Keras 3 config dict (built when the dict has a build_config)."""
    from ..saving.layer_config import deserialize_layer

    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        raise ValueError(f"Improper config format for {config}. Expecting python dict contains `class_name` and "
                         f"`config` as keys")
    try:
        return deserialize_layer(config, custom_objects)
    except ValueError as e:
        if "Could not locate class" in str(e):
            raise TypeError(str(e)) from None
        raise
