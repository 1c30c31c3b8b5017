"""keras.distillation.Distiller (Keras 3.12+, in TF 2.21's tf.keras): a Model that trains a student to match a
frozen teacher. Its loss is student_loss_weight * (the compiled loss of the student's predictions) + (1 -
student_loss_weight) * the weighted sum of its distillation losses (distillation_loss.py), whose features come
from the final outputs or, for FeatureDistillation with layer names, from extractor models built on the named
layers; fit logs "student_loss", "distillation_loss" and "total_loss" beside "loss", as Keras 3 does."""

from __future__ import annotations

import tinytf as _tf
from tinytf.runtime import nest

from .. import metrics as metrics_module
from ..models.model import Model
from ..models.sequential import Sequential
from .distillation_loss import _convert_loss_to_function, _map_losses


class Distiller(Model):
    """Knowledge distillation of `teacher` into `student` (see the module's note)."""

    def __init__(self, teacher, student, distillation_losses, distillation_loss_weights=None,
                 student_loss_weight=0.5, name="distiller", **kwargs):
        super().__init__(name=name, **kwargs)
        self._validate_models(teacher, student)
        self.teacher = teacher
        self.student = student
        if isinstance(student_loss_weight, bool) or not isinstance(student_loss_weight, (int, float)):
            raise ValueError(f"student_loss_weight must be a number, got {type(student_loss_weight)}")
        if student_loss_weight < 0.0 or student_loss_weight > 1.0:
            raise ValueError(f"student_loss_weight must be between 0.0 and 1.0, got {student_loss_weight}")
        self.student_loss_weight = student_loss_weight
        if distillation_losses is None:
            raise ValueError("'distillation_losses' cannot be `None`. Provide a distillation loss (e.g., "
                             "LogitsDistillation or FeatureDistillation) or a list of distillation losses.")
        if not isinstance(distillation_losses, (list, tuple)):
            losses, weights = [distillation_losses], [1.0]
        else:
            losses = list(distillation_losses)
            weights = [1.0] * len(losses) if distillation_loss_weights is None else list(distillation_loss_weights)
            if len(weights) != len(losses):
                raise ValueError(f"Number of distillation_loss_weights ({len(weights)}) must match number of "
                                 f"distillation_losses ({len(losses)})")
        self._distillation_losses, self.distillation_loss_weights = losses, weights
        for loss in losses:
            loss.validate_model_compatibility(teacher, student)
        self._create_multi_feature_extractors()
        self.teacher.trainable = False
        self.student_loss_tracker = metrics_module.Mean(name="student_loss")
        self.distillation_loss_tracker = metrics_module.Mean(name="distillation_loss")
        self.total_loss_tracker = metrics_module.Mean(name="total_loss")

    @property
    def distillation_losses(self):
        return self._distillation_losses

    # --- checks ------------------------------------------------------------------------------------------------
    def _validate_models(self, teacher, student):
        if not isinstance(teacher, Model):
            raise ValueError(f"Teacher must be a keras.Model, got {type(teacher)}")
        if not isinstance(student, Model):
            raise ValueError(f"Student must be a keras.Model, got {type(student)}")
        teacher_inputs, student_inputs = _symbolic(teacher, "inputs"), _symbolic(student, "inputs")
        teacher_outputs, student_outputs = _symbolic(teacher, "outputs"), _symbolic(student, "outputs")
        for context, a, b in (("input", teacher_inputs, student_inputs), ("output", teacher_outputs, student_outputs)):
            if a is not None and b is not None:
                nest.map_structure(lambda t, s, c=context: _same_shapes(t.shape, s.shape, c), a, b)
        for context, a, b in (("input", teacher_inputs, student_inputs), ("output", teacher_outputs, student_outputs)):
            if a is not None and b is not None:
                nest.map_structure(lambda t, s, c=context: _same_dtype(t.dtype, s.dtype, c), a, b)

    # --- features ----------------------------------------------------------------------------------------------
    def _create_multi_feature_extractors(self):
        teacher_names, student_names = [], []
        for loss in self._distillation_losses:
            name = getattr(loss, "teacher_layer_name", None)
            if name and name not in teacher_names:
                teacher_names.append(name)
            name = getattr(loss, "student_layer_name", None)
            if name and name not in student_names:
                student_names.append(name)
        self._teacher_feature_extractor = self._create_feature_extractor(self.teacher, teacher_names)
        self._student_feature_extractor = self._create_feature_extractor(self.student, student_names)

    def _create_feature_extractor(self, model, layer_names):
        if not layer_names:
            return None
        if getattr(model, "inputs", None) is None:
            raise ValueError(f"Cannot create feature extractor for {model.name}. The model has no symbolic inputs "
                             "attribute.")
        final_output = model.layers[-1].output if isinstance(model, Sequential) else model.output
        outputs = {"final_output": final_output}
        for name in layer_names:
            outputs[name] = model.get_layer(name=name).output
        return Model(inputs=model.inputs, outputs=outputs, name=f"{model.name}_multi_feature_extractor")

    def _teacher_features(self, x):
        if self._teacher_feature_extractor is not None:
            return self._teacher_feature_extractor(x, training=False)
        return {"final_output": self.teacher(x, training=False)}

    def _student_features(self, x, y_pred):
        if self._student_feature_extractor is not None:
            return self._student_feature_extractor(x, training=True)
        return {"final_output": y_pred}

    @staticmethod
    def _feature(loss, features, name):
        name = name or "final_output"
        if name not in features:
            raise ValueError(f"Layer '{name}' not found in extracted features. Available: {list(features.keys())}")
        return features[name]

    # --- training ----------------------------------------------------------------------------------------------
    def compile(self, optimizer="adam", loss=None, metrics=None, **kwargs):
        if loss is None:
            raise ValueError("'loss' cannot be `None`.")
        self._student_loss = _map_losses(_convert_loss_to_function, loss)
        self._student_loss_for_serialization = loss
        if metrics is not None and not isinstance(metrics, (list, tuple)):
            raise ValueError(f"metrics must be a list or tuple, got {type(metrics)}")
        super().compile(optimizer=optimizer, loss=None, metrics=metrics, **kwargs)

    def call(self, inputs, training=None, **kwargs):
        return self.student(inputs, training=training, **kwargs)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        if y_pred is None:
            y_pred = self(x, training=training)
        student_loss = 0.0
        if self.student_loss_weight > 0.0 and y is not None:
            if isinstance(self._student_loss, (list, tuple, dict)):
                values = nest.flatten(nest.map_structure(lambda loss, target, pred: loss(target, pred),
                                                         self._student_loss, y, y_pred))
            else:
                values = [self._student_loss(y, y_pred)]
            student_loss = _tf.reduce_sum(_tf.stack(values)) if len(values) > 1 else values[0]
            if len(student_loss.shape) > 0:
                student_loss = _tf.reduce_mean(student_loss)
        distillation_loss = _tf.constant(0.0)
        if self.student_loss_weight < 1.0:
            teacher_features = self._teacher_features(x)
            student_features = self._student_features(x, y_pred)
            for loss, weight in zip(self._distillation_losses, self.distillation_loss_weights):
                if getattr(loss, "teacher_layer_name", None) is not None:
                    try:
                        teacher_out = self._feature(loss, teacher_features, loss.teacher_layer_name)
                        student_out = self._feature(loss, student_features, loss.student_layer_name)
                    except ValueError as e:
                        raise RuntimeError(f"Failed to extract features for {type(loss).__name__} targeting teacher "
                                           f"layer '{loss.teacher_layer_name}' and student layer "
                                           f"'{loss.student_layer_name}'. Original error: {e}") from e
                else:
                    teacher_out, student_out = teacher_features["final_output"], y_pred
                loss.validate_outputs(teacher_out, student_out)
                value = loss.compute_loss(teacher_out, student_out)
                if len(getattr(value, "shape", ())) > 0:
                    raise ValueError(f"Distillation loss {type(loss).__name__} returned a non-scalar loss with shape "
                                     f"{value.shape}. The compute_loss method must return a scalar tensor.")
                distillation_loss = distillation_loss + weight * value
        student_loss = _tf.cast(student_loss, _tf.float32)
        total_loss = self.student_loss_weight * student_loss + (1.0 - self.student_loss_weight) * distillation_loss
        self.student_loss_tracker.update_state(student_loss)
        self.distillation_loss_tracker.update_state(distillation_loss)
        self.total_loss_tracker.update_state(total_loss)
        return total_loss

    @property
    def metrics(self) -> list:
        """Keras 3's: the compiled metrics, then the three loss trackers the Distiller holds."""
        return super().metrics + [self.student_loss_tracker, self.distillation_loss_tracker, self.total_loss_tracker]

    def _flat_metrics(self) -> list:
        return super()._flat_metrics() + [self.student_loss_tracker, self.distillation_loss_tracker,
                                          self.total_loss_tracker]

    def reset_metrics(self) -> None:
        super().reset_metrics()
        for tracker in (self.student_loss_tracker, self.distillation_loss_tracker, self.total_loss_tracker):
            tracker.reset_state()

    def get_config(self) -> dict:
        from .. import saving

        return {**super().get_config(), "teacher": saving.serialize_keras_object(self.teacher),
                "student": saving.serialize_keras_object(self.student),
                "distillation_losses": [{"module": "keras.distillation", "class_name": type(loss).__name__,
                                         "config": loss.get_config(), "registered_name": None}
                                        for loss in self._distillation_losses],
                "distillation_loss_weights": self.distillation_loss_weights,
                "student_loss_weight": self.student_loss_weight}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from .. import saving
        from . import distillation_loss as module

        config = dict(config)
        config["teacher"] = saving.deserialize_keras_object(config["teacher"])
        config["student"] = saving.deserialize_keras_object(config["student"])
        config["distillation_losses"] = [getattr(module, item["class_name"]).from_config(item["config"])
                                         for item in config["distillation_losses"]]
        return cls(**{k: v for k, v in config.items() if k not in ("trainable", "dtype")})


def _symbolic(model, attribute):
    try:
        return getattr(model, attribute, None)
    except (AttributeError, ValueError):
        return None


def _same_shapes(shape1, shape2, context):
    shape1, shape2 = tuple(shape1), tuple(shape2)
    if len(shape1) != len(shape2):
        raise ValueError(f"Teacher and student {context} shapes have different dimensions. Teacher: {shape1}, "
                         f"Student: {shape2}.")
    for a, b in zip(shape1, shape2):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Teacher and student {context} shapes are incompatible. Teacher: {shape1}, Student: "
                             f"{shape2}. All dimensions must match.")


def _same_dtype(teacher_dtype, student_dtype, context):
    if teacher_dtype != student_dtype:
        raise ValueError(f"Teacher and student {context} dtypes must match. Teacher: {teacher_dtype}, Student: "
                         f"{student_dtype}.")


__all__ = ["Distiller"]
