"""The core layers: Dense, Activation, Dropout and Lambda."""

from __future__ import annotations

import inspect

import tinytf as _tf

from .. import activations, constraints, initializers, regularizers, serialization
from .. import random as keras_random
from ..models.functional import is_symbolic
from .input_spec import InputSpec
from .layer import Layer


class Dense(Layer):
    _checkpoint_names = {"kernel": "_kernel"}
    """activation(inputs @ kernel + bias), applied along the last axis of inputs of any rank >= 2."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, quantization_config=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape) -> None:
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. Found None. "
                             f"Full input shape received: {input_shape}")
        self.kernel = self.add_weight(name="kernel", shape=(input_dim, self.units),
                                      initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True

    def call(self, inputs):
        if isinstance(inputs, _tf.sparse.SparseTensor):
            return self._call_sparse(inputs)
        rank = len(inputs.shape)
        if not inputs.dtype.is_floating and not inputs.dtype.is_complex:
            # Keras 3's matmul promotes: int64 x float32 is float32 (a multi_hot or count TextVectorization or
            # StringLookup output, int64, feeds a Dense directly)
            inputs = _tf.cast(inputs, self.kernel.dtype)
        if rank == 2:
            outputs = _tf.matmul(inputs, self.kernel)
        else:
            outputs = _tf.tensordot(inputs, self.kernel, [[rank - 1], [0]])
        if self.bias is not None:
            outputs = outputs + self.bias
        return self.activation(outputs)

    def _call_sparse(self, inputs):
        """A 2-D SparseTensor times the kernel as Keras 3's TF backend computes it: each row's entries are
        embedding lookups of kernel rows (ids = column indices, weights = values) summed; empty rows give zeros.
        So the kernel's gradient is IndexedSlices of the rows the batch touched, as in TF."""
        if len(inputs.shape) != 2:
            raise ValueError(f"Dense {self.name!r}: a SparseTensor input must have rank 2, got shape {inputs.shape}")
        if inputs.dtype != self.kernel.dtype:
            inputs = _tf.cast(inputs, self.kernel.dtype)
        filled, _ = _tf.sparse.fill_empty_rows(inputs, _tf.zeros([], inputs.dtype))
        ids = _tf.sparse.SparseTensor(filled.indices, filled.indices[:, 1], filled.dense_shape)
        outputs = _tf.nn.embedding_lookup_sparse(self.kernel, ids, filled, combiner="sum")
        outputs.set_shape([inputs.shape[0], self.units])  # Keras sets the matmul's static shape, as here
        if self.bias is not None:
            outputs = outputs + self.bias
        return self.activation(outputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self) -> dict:
        return {**super().get_config(), "units": self.units, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint), "quantization_config": None}


class Activation(Layer):
    """Applies an activation function (by name or callable)."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "activation": activations.serialize(self.activation)}


class Dropout(Layer):
    """Zeroes a fraction `rate` of the inputs and scales the rest by 1 / (1 - rate), in training only."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                             f"Received: rate={rate}")
        self.rate, self.noise_shape, self.seed = rate, noise_shape, seed
        if rate > 0:  # Keras makes its seed generator here (keeping later default seeds in step with Keras)
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        # Keras 3 on TF: the generator's next seed pair into TF's stateless dropout (TF's masks, step for step)
        return keras_random.dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=self.seed_generator)

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape}


class Lambda(Layer):
    """Wraps a function of the inputs as a layer (with optional extra keyword `arguments`)."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = output_shape
        self.mask = mask
        self._fn_takes_training = "training" in _parameters(function)
        self._fn_takes_mask = "mask" in _parameters(function)
        self.supports_masking = mask is not None

    def __call__(self, *args, **kwargs):
        if self._output_shape is not None or not is_symbolic((args, kwargs)):
            return super().__call__(*args, **kwargs)
        try:  # Keras 3 infers the output by running the function; any failure there is this error
            return super().__call__(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - Keras turns every failure of the inference into this one
            raise NotImplementedError(
                f"Exception encountered when calling Lambda.call().\n\nWe could not automatically infer the shape "
                f"of the Lambda's output. Please specify the `output_shape` argument for this Lambda layer. "
                f"(The function raised {type(e).__name__}: {e})") from e

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_takes_training:
            kwargs["training"] = training
        if self._fn_takes_mask:
            kwargs["mask"] = mask
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs, previous_mask=None):
        """`mask=` a function of (inputs, previous_mask) or a fixed mask; without one, no mask (Keras 3)."""
        if callable(self.mask):
            return self.mask(inputs, previous_mask)
        return self.mask

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return super().compute_output_shape(input_shape)
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        return (input_shape[0],) + tuple(self._output_shape)

    def get_config(self) -> dict:
        from ..saving.lambda_functions import dump_lambda, is_python_lambda

        def function_config(fn):  # a Python lambda as its bytecode (Keras 3), a named function by its name
            if is_python_lambda(fn):
                return dump_lambda(fn)
            name = serialization.registered_name(fn) or getattr(fn, "__name__", "<lambda>")  # "package>name"
            return {"module": "builtins", "class_name": "function", "config": name, "registered_name": "function"}

        config = {**super().get_config(), "function": function_config(self.function)}
        if self._output_shape is not None:
            config["output_shape"] = (function_config(self._output_shape) if callable(self._output_shape)
                                      else self._output_shape)
        return {**config, "arguments": self.arguments}

    @classmethod
    def from_config(cls, config: dict, custom_objects=None, safe_mode=None):
        from ..config import in_safe_mode
        from ..saving.lambda_functions import is_dumped_lambda, load_lambda

        config = dict(config)
        safe_mode = safe_mode if safe_mode is not None else in_safe_mode()

        def rebuilt(function):
            if is_dumped_lambda(function):
                return load_lambda(function, safe_mode)
            if isinstance(function, dict):
                name = function.get("config")
                found = serialization.get_registered_object(name, custom_objects)
                if found is None and ">" in str(name):  # registered as "package>name", passed by its bare name
                    found = (custom_objects or {}).get(name.split(">", 1)[1])
                if found is None:
                    raise TypeError(f"Could not locate function '{name}'. Make sure custom classes and functions "
                                    "are decorated with `@keras.saving.register_keras_serializable()`. If they are "
                                    "already decorated, make sure they are all imported so that the decorator is "
                                    f"run before trying to load them. Full object config: {function}")
                return found
            return function

        config["function"] = rebuilt(config["function"])
        if isinstance(config.get("output_shape"), dict):
            config["output_shape"] = rebuilt(config["output_shape"])
        elif isinstance(config.get("output_shape"), list):
            config["output_shape"] = tuple(config["output_shape"])
        return cls(**config)


def _parameters(function) -> tuple:
    try:
        return tuple(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return ()
