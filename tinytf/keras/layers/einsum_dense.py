"""EinsumDense: a dense layer whose product with its kernel is an einsum equation ("abc,cde->abde"), so the
kernel can map the last axis onto several (heads x head size), as MultiHeadAttention's projections do."""

from __future__ import annotations

import string

import tinytf as _tf

from .. import activations, constraints, initializers, regularizers
from .layer import Layer


def _split_equation(equation: str, input_rank: int) -> tuple:
    """(input, kernel, output) subscripts, an ellipsis replaced by letters for the input's extra leading dims."""
    try:
        operands, output = equation.replace(" ", "").split("->")
        inputs, kernel = operands.split(",")
    except ValueError as error:
        raise ValueError(f"Invalid einsum equation for EinsumDense: {equation!r}; expected 'ab,bc->ac' "
                         f"(one input, one kernel, one output)") from error
    if "..." in inputs:
        unused = [c for c in string.ascii_letters if c not in inputs + kernel + output]
        extra = "".join(unused[:input_rank - (len(inputs) - 3)])
        inputs, output = inputs.replace("...", extra), output.replace("...", extra)
    return inputs, kernel, output


class EinsumDense(Layer):
    """activation(einsum(equation, inputs, kernel) + bias). `output_shape` gives the output's dimensions after
    the batch one (or after the ellipsis); None entries are taken from the input. `bias_axes` names the output
    letters the bias spans."""

    def __init__(self, equation, output_shape, activation=None, bias_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, **kwargs):
        super().__init__(**kwargs)
        self.equation = equation
        self.partial_output_shape = (output_shape,) if isinstance(output_shape, int) else tuple(output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)

    def _full_output_shape(self, input_shape) -> tuple:
        inputs, _, output = _split_equation(self.equation, len(input_shape))
        given = list(self.partial_output_shape)
        lead = len(output) - len(given)  # batch (and ellipsis) dims come from the input
        if lead < 0:
            raise ValueError(f"EinsumDense {self.name!r}: output_shape {self.partial_output_shape} has more "
                             f"dimensions than the equation's output {output!r}")
        full = []
        for position, letter in enumerate(output):
            dim = given[position - lead] if position >= lead else None
            if dim is None and letter in inputs:
                dim = input_shape[inputs.index(letter)]
            full.append(dim)
        return tuple(full)

    def _kernel_fans_initializer(self, kernel: str, output: str):
        """The kernel initializer, told which kernel axes are fan-out (letters of the output) and which fan-in,
        as Keras 3 tells a VarianceScaling one (same seed: the values differ only by the scale)."""
        init = self.kernel_initializer
        if not isinstance(init, initializers.VarianceScaling) or (init.input_axes is not None and
                                                                  init.output_axes is not None):
            return init
        config = {**init.get_config(), "seed": init._seed_used,
                  "input_axes": [i for i, c in enumerate(kernel) if c not in output],
                  "output_axes": [i for i, c in enumerate(kernel) if c in output]}
        return type(init).from_config(config)

    def build(self, input_shape) -> None:
        inputs, kernel, output = _split_equation(self.equation, len(input_shape))
        if len(inputs) != len(input_shape):
            raise ValueError(f"EinsumDense {self.name!r}: the equation {self.equation!r} expects inputs of rank "
                             f"{len(inputs)}, got shape {tuple(input_shape)}")
        full_output = self._full_output_shape(input_shape)
        dims = {letter: input_shape[i] for i, letter in enumerate(inputs)}
        for letter, dim in zip(output, full_output):
            dims.setdefault(letter, dim)
        kernel_shape = tuple(dims.get(letter) for letter in kernel)
        if any(d is None for d in kernel_shape):
            raise ValueError(f"EinsumDense {self.name!r}: the kernel's shape {kernel_shape} for equation "
                             f"{self.equation!r} needs every dimension known; input shape {tuple(input_shape)}")
        self.kernel = self.add_weight(name="kernel", shape=kernel_shape, initializer=self._kernel_fans_initializer(
            kernel, output),
                                      regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.bias_axes:
            missing = [c for c in self.bias_axes if c not in output]
            if missing:
                raise ValueError(f"EinsumDense {self.name!r}: bias_axes {self.bias_axes!r} name letters {missing} "
                                 f"that are not in the output {output!r}")
            first = min(output.index(c) for c in self.bias_axes)
            bias_shape = tuple(dims[c] if c in self.bias_axes else 1 for c in output[first:])
            self.bias = self.add_weight(name="bias", shape=bias_shape, initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs):
        inputs_spec, kernel_spec, output_spec = _split_equation(self.equation, len(inputs.shape))
        outputs = _tf.einsum(f"{inputs_spec},{kernel_spec}->{output_spec}", inputs, self.kernel)
        if self.bias is not None:
            outputs = outputs + self.bias
        return self.activation(outputs)

    def compute_output_shape(self, input_shape):
        return self._full_output_shape(tuple(input_shape))

    def get_config(self) -> dict:
        return {**super().get_config(), "output_shape": list(self.partial_output_shape), "equation": self.equation,
                "activation": activations.serialize(self.activation), "bias_axes": self.bias_axes,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint)}
