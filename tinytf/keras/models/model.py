"""keras.Model: a Layer with training and inspection on top. `keras.Model(inputs, outputs)` makes a
Functional model; subclasses define `call`."""

from __future__ import annotations

from .. import naming
from ..layers.layer import Layer
from . import summary
from .trainer import Trainer


def _functional_arguments(args, kwargs) -> bool:
    """Whether Model(...) was given the inputs and outputs of a functional graph (Keras 3's test)."""
    return len(args) == 2 or (len(args) == 1 and "outputs" in kwargs) or ("inputs" in kwargs and "outputs" in kwargs)


def _inject_functional(cls: type, functional: type) -> type:
    """Put Functional where Model stands in cls's bases (recursively), so cls's instances are Functional."""
    if cls is Model:
        return functional
    if cls is object or issubclass(cls, functional):
        return cls
    cls.__bases__ = tuple(_inject_functional(base, functional) for base in cls.__bases__)
    return cls


class Model(Trainer, Layer):
    """Base of subclassed, Functional and Sequential models."""

    # `keras.Model(inputs, outputs)` makes a Functional model. Functional subclasses Model, so this module
    # cannot import it: functional_model.py installs the class here when it is defined.
    functional_class: type | None = None

    def __new__(cls, *args, **kwargs):
        if cls is Model and (args or "inputs" in kwargs):
            return Model.functional_class.__new__(Model.functional_class)
        model = super().__new__(cls)
        # Keras 3 (TF backend): a model belongs to the strategy current at its construction; fit, evaluate and
        # predict run under it (trainer.py _strategy_scope). Set here, before any __init__ a subclass writes.
        from tinytf.distribute.strategy import get_strategy, has_strategy

        object.__setattr__(model, "_distribute_strategy", get_strategy() if has_strategy() else None)
        return model

    @classmethod
    def from_config(cls, config: dict, custom_objects=None):
        """A Functional model's config (its "layers" and "input_layers") rebuilds the graph, as Keras 3's
        Model.from_config does; any other config goes to the constructor."""
        if cls is Model and "layers" in config and "input_layers" in config:
            from ..saving.layer_config import functional_from_config

            return functional_from_config(config, custom_objects)
        return super().from_config(config)

    def _summary_layout(self) -> tuple:
        """(whether the summary lists the layers as one column, the call nodes whose connections it shows):
        a subclassed or Sequential model is a column; Functional models say otherwise."""
        return True, None

    def __init__(self, *args, **kwargs):
        functional = Model.functional_class
        if _functional_arguments(args, kwargs) and not isinstance(self, functional):
            # A Model subclass built from inputs and outputs becomes a Functional subclass, as Keras 3 makes it:
            # its own train_step or methods ride on the graph of layers.
            _inject_functional(type(self), functional)
            functional.__init__(self, *args, **kwargs)
            return
        if args:  # not inputs and outputs: Keras 3 hands them to Layer.__init__, which takes none
            raise TypeError(f"Layer.__init__() takes 1 positional argument but {len(args) + 1} were given")
        name = kwargs.pop("name", None)
        trainable = kwargs.pop("trainable", True)
        dtype = kwargs.pop("dtype", None)
        super().__init__(name=name if name is not None else naming.unique_name(naming.snake_case(type(self).__name__)),
                         trainable=trainable, dtype=dtype, **kwargs)
        self.optimizer = None
        self._initial_epoch = None  # set by BackupAndRestore when it restores an interrupted fit
        self.compiled = False
        self.stop_training = False

    def get_layer(self, name: str | None = None, index: int | None = None) -> Layer:
        """A layer of the model by name or by index in `model.layers`."""
        if index is not None and name is not None:
            raise ValueError(f"Provide only a layer name or a layer index. Received: index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only has "
                                 f"{len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: {[layer.name for layer in self.layers]}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False, show_trainable=False,
                layer_range=None) -> None:
        """Print the Keras 3 table of layers, output shapes and parameter counts."""
        text = "\n".join(summary.summary_lines(self, line_length, positions, layer_range))
        if print_fn is None:
            print(text)
        else:  # Keras hands a print_fn the captured console text, which ends with its line break
            print_fn(text + "\n")

    # --- saving ------------------------------------------------------------------------------------------------
    def save(self, filepath, overwrite: bool = True, **kwargs) -> None:
        """Write a Keras 3 `.keras` file (config, metadata and weights)."""
        from ..saving.keras_file import save_model

        save_model(self, filepath, overwrite=overwrite, **kwargs)

    def export(self, filepath, format="tf_saved_model", verbose=True, **kwargs) -> None:  # noqa: A002
        """A SavedModel serving the model's inference call as `serve` (see tinytf/keras/export.py)."""
        from ..export import export_model

        export_model(self, filepath, format=format, verbose=verbose, **kwargs)

    def _default_save_signature(self):
        """What tf.saved_model.save(model) serves as serving_default: the model on a batch named `inputs`; None
        for a model never called (TF then saves it without signatures)."""
        from ..export import serving_function

        if not self.built:
            return None
        return serving_function(self, name="inputs").get_concrete_function()

    def save_weights(self, filepath, overwrite: bool = True) -> None:
        """Write the weights in Keras 3's `.weights.h5` layout."""
        if not str(filepath).endswith(".weights.h5"):
            raise ValueError(f"The filename must end in `.weights.h5`. Received: filepath={filepath}")
        from ..saving.weights_file import save_weights_to

        save_weights_to(str(filepath), self)

    def load_weights(self, filepath, skip_mismatch: bool = False, **kwargs) -> None:
        """Read weights written by save_weights (here or in Keras 3), or a legacy Keras 2 ".h5" weights file
        (the layout of keras.applications' ImageNet weights)."""
        from ..saving import legacy_h5
        from ..saving.weights_file import load_weights_from

        path = str(filepath)
        if path.endswith((".h5", ".hdf5")) and not path.endswith(".weights.h5") and legacy_h5.is_legacy_weights_file(
                path):
            legacy_h5.load_weights(path, self, skip_mismatch=skip_mismatch)
            return
        load_weights_from(path, self)

    def to_json(self, **kwargs) -> str:
        """The model's serialized config as JSON (keras.models.model_from_json reads it)."""
        import json

        from ..saving.layer_config import serialize_layer

        return json.dumps(serialize_layer(self), **kwargs)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"
