"""keras.distillation's losses (Keras 3.12+, in TF 2.21's tf.keras): what a Distiller adds to the student's loss.
`LogitsDistillation` compares the teacher's and the student's outputs divided by a temperature (with a
KLDivergence *instance* on their softmaxes, times temperature squared; a loss given by name, "kl_divergence"
included, is Keras' function on the scaled logits themselves, as Keras 3 computes it); `FeatureDistillation`
compares the outputs of two named layers (or the final outputs). Either takes a nest of losses, one per output,
None skipping one."""

from __future__ import annotations

import tinytf as _tf
from tinytf.runtime import nest

from .. import losses as losses_module


def _convert_loss_to_function(loss_item):
    if loss_item is None:
        return None
    if isinstance(loss_item, str):
        loss_fn = losses_module.get(loss_item)
        if loss_fn is None:
            raise ValueError(f"Unknown loss function: '{loss_item}'.")
        return loss_fn
    return loss_item


def _map_losses(fn, structure):
    # None is a leaf here (a skipped output), not an empty structure
    flat = nest.flatten(structure, expand_composites=False) if structure is not None else [None]
    if not isinstance(structure, (list, tuple, dict)):
        return fn(structure)
    return nest.pack_sequence_as(structure, [fn(x) for x in flat])


def serialize_loss(loss):
    """A nest of losses as Keras 3 serializes them: a function by name, a Loss by its config."""
    if loss is None:
        return None
    if isinstance(loss, (list, tuple)):
        return [serialize_loss(x) for x in loss]
    if isinstance(loss, dict):
        return {k: serialize_loss(v) for k, v in loss.items()}
    if callable(loss) and not isinstance(loss, losses_module.Loss):
        return {"module": "builtins", "class_name": "function", "config": loss.__name__,
                "registered_name": "function"}
    return losses_module.serialize(loss)


def deserialize_loss(config):
    if config is None:
        return None
    if isinstance(config, list):
        return [deserialize_loss(x) for x in config]
    if isinstance(config, dict) and "class_name" not in config:
        return {k: deserialize_loss(v) for k, v in config.items()}
    if isinstance(config, dict) and config.get("class_name") == "function":
        return losses_module.get(config["config"])
    return losses_module.deserialize(config)


def _check_losses(loss, message):
    flat = [loss] if not isinstance(loss, (list, tuple, dict)) else nest.flatten(loss)
    if all(item is None for item in flat):
        raise ValueError(message)


def _sum_of(values):
    flat = [values] if not isinstance(values, (list, tuple, dict)) else nest.flatten(values)
    return _tf.reduce_sum(_tf.stack([_tf.cast(v, _tf.float32) for v in flat]))


class DistillationLoss:
    """Base class: subclasses implement compute_loss(teacher_outputs, student_outputs)."""

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        raise NotImplementedError("Subclasses must implement compute_loss")

    def validate_outputs(self, teacher_outputs, student_outputs):
        nest.assert_same_structure(teacher_outputs, student_outputs)

    def validate_model_compatibility(self, teacher, student):
        pass


class FeatureDistillation(DistillationLoss):
    """The mean of `loss` between the teacher's and the student's features (named layers, or the outputs)."""

    def __init__(self, loss="mse", teacher_layer_name=None, student_layer_name=None):
        self.teacher_layer_name = teacher_layer_name
        self.student_layer_name = student_layer_name
        self.loss = _map_losses(_convert_loss_to_function, loss)
        _check_losses(self.loss, "The `loss` argument in `FeatureDistillation` must contain at least one "
                                 "non-`None` value.")

    def validate_model_compatibility(self, teacher, student):
        if self.teacher_layer_name is not None or self.student_layer_name is not None:
            subclassed = [role for role, model in (("teacher", teacher), ("student", student))
                          if getattr(model, "inputs", None) is None]
            if subclassed:
                raise ValueError(f"FeatureDistillation with specific layer names requires Functional or Sequential "
                                 f"models. The {' and '.join(subclassed)} model(s) appear to be subclassed (no "
                                 "symbolic inputs/outputs). Either use Functional/Sequential models, or use "
                                 "FeatureDistillation without layer names (to distill final outputs only), or use "
                                 "LogitsDistillation instead.")
        for role, model, name in (("teacher", teacher, self.teacher_layer_name),
                                  ("student", student, self.student_layer_name)):
            if name is not None:
                try:
                    model.get_layer(name=name)
                except ValueError as e:
                    raise ValueError(f"In {role} model: {e}") from None

    def validate_outputs(self, teacher_outputs, student_outputs):
        super().validate_outputs(teacher_outputs, student_outputs)
        if isinstance(self.loss, (list, tuple, dict)):
            try:
                nest.assert_same_structure(self.loss, teacher_outputs)
            except (ValueError, TypeError) as e:
                raise ValueError(f"Loss structure mismatch. Error: {e}") from None

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def apply(loss_fn, teacher, student):
            return 0.0 if loss_fn is None else _tf.reduce_mean(loss_fn(teacher, student))

        if not isinstance(self.loss, (list, tuple, dict)):
            return _sum_of(apply(self.loss, teacher_outputs, student_outputs))
        return _sum_of(nest.map_structure(apply, self.loss, teacher_outputs, student_outputs))

    def get_config(self):
        return {"loss": serialize_loss(self.loss), "teacher_layer_name": self.teacher_layer_name,
                "student_layer_name": self.student_layer_name}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = deserialize_loss(config["loss"])
        return cls(**config)


class LogitsDistillation(DistillationLoss):
    """`loss` between the teacher's and the student's outputs divided by `temperature` (see the module's note)."""

    def __init__(self, temperature=3.0, loss="kl_divergence"):
        self.temperature = temperature
        self.loss = _map_losses(_convert_loss_to_function, loss)
        _check_losses(self.loss, "At least one loss must be non-`None`.")
        if isinstance(self.temperature, bool) or not isinstance(self.temperature, (int, float)):
            raise ValueError(f"temperature must be a number, got {type(self.temperature)}")
        if self.temperature <= 0.0:
            raise ValueError("temperature must be positive.")

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def scaled(x):
            return x / self.temperature

        def apply(loss_fn, teacher_logits, student_logits):
            if loss_fn is None:
                return 0.0
            teacher_logits, student_logits = scaled(teacher_logits), scaled(student_logits)
            if isinstance(loss_fn, losses_module.KLDivergence):
                value = _tf.reduce_mean(loss_fn(_tf.nn.softmax(teacher_logits, axis=-1),
                                                _tf.nn.softmax(student_logits, axis=-1)))
                return value * (self.temperature ** 2)
            return _tf.reduce_mean(loss_fn(teacher_logits, student_logits))

        if not isinstance(self.loss, (list, tuple, dict)):
            return _sum_of(apply(self.loss, teacher_outputs, student_outputs))
        return _sum_of(nest.map_structure(apply, self.loss, teacher_outputs, student_outputs))

    def get_config(self):
        return {"temperature": self.temperature, "loss": serialize_loss(self.loss)}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = deserialize_loss(config["loss"])
        return cls(**config)


__all__ = ["DistillationLoss", "FeatureDistillation", "LogitsDistillation"]
