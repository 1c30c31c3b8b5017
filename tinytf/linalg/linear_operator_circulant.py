"""LinearOperatorCirculant, Circulant2D and Circulant3D: (nested block) circulant matrices given by their
spectrum, A x = ifft(spectrum * fft(x)) over the last one, two or three block axes. tinytf has no FFT op, so the
transforms are products with the (Kronecker product of) DFT matrices, built as constants: exact, differentiable,
and cheap at the sizes such operators are written out for."""

from __future__ import annotations

import numpy as np

import tinytf as tf

from .linear_operator import LinearOperator, concat_shapes


def _to_complex(x):
    if x.dtype.is_complex:
        return x
    return tf.cast(x, tf.complex128 if x.dtype == tf.float64 else tf.complex64)


def _dft_matrix(block_shape, dtype):
    """The unnormalized DFT of the flattened (row-major) block: the Kronecker product of one DFT per axis."""
    matrix = np.ones((1, 1), np.complex128)
    for n in block_shape:
        k = np.arange(n)
        matrix = np.kron(matrix, np.exp(-2j * np.pi * np.outer(k, k) / n))
    return tf.constant(matrix.astype(dtype.as_numpy_dtype))


def _cast(x, dtype):
    """x in dtype; complex to real keeps the real part (TF's cast), without numpy's ComplexWarning."""
    if x.dtype.is_complex and not dtype.is_complex:
        x = tf.math.real(x)
    return tf.cast(x, dtype)


class _BaseLinearOperatorCirculant(LinearOperator):
    def __init__(self, spectrum, block_depth, input_output_dtype="complex64", is_non_singular=None,
                 is_self_adjoint=None, is_positive_definite=None, is_square=True, parameters=None, name=None):
        if block_depth not in (1, 2, 3):
            raise ValueError(f"Argument `block_depth` must be one of [1, 2, 3]. Received: {block_depth}.")
        self._block_depth = block_depth
        self._spectrum = tf.convert_to_tensor(spectrum)
        if self._spectrum.shape.rank is not None and self._spectrum.shape.rank < block_depth:
            raise ValueError(f"Argument `spectrum` must have at least {block_depth} dimensions. "
                             f"Received: {self._spectrum}.")
        if not self._spectrum.dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A real spectrum always corresponds to a self-adjoint operator. Expected argument "
                                 "`is_self_adjoint` to be True when `spectrum.dtype.is_complex` = True. "
                                 f"Received: {is_self_adjoint}.")
            is_self_adjoint = True
        if is_square is False:
            raise ValueError("A [[nested] block] circulant operator is always square. Expected argument "
                             f"`is_square` to be True. Received: {is_square}.")
        super().__init__(input_output_dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=True, name=name,
                         parameters=parameters)

    @property
    def block_depth(self):
        return self._block_depth

    @property
    def spectrum(self):
        return self._spectrum

    @property
    def block_shape(self):
        return tf.TensorShape(self._spectrum.shape.as_list()[-self._block_depth:])

    def block_shape_tensor(self):
        return tf.shape(self._spectrum)[-self._block_depth:]

    def _n(self):
        return int(np.prod(self.block_shape.as_list()))

    def _shape(self):
        n = self._n()
        return concat_shapes(self._spectrum.shape[:-self._block_depth], [n, n])

    def _flat_spectrum(self, spectrum):
        batch = spectrum.shape.as_list()[:-self._block_depth]
        return tf.reshape(spectrum, batch + [self._n()])

    def _transform(self, x, spectrum_op):
        """ifft(spectrum_op(fft(x))) over x's rows, x of shape [..., n, R], with DFT matrix products."""
        spectrum = _to_complex(self._spectrum)
        x = tf.cast(x, spectrum.dtype)
        dft = _dft_matrix(self.block_shape.as_list(), spectrum.dtype)
        columns = tf.linalg.matrix_transpose(x)  # [..., R, n]
        transformed = spectrum_op(tf.matmul(columns, dft), self._flat_spectrum(spectrum)[..., None, :])
        back = tf.matmul(transformed, tf.math.conj(dft)) / tf.cast(self._n(), spectrum.dtype)
        return _cast(tf.linalg.matrix_transpose(back), self.dtype)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        return self._transform(x, lambda fx, s: fx * (tf.math.conj(s) if adjoint else s))

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
        spectrum_dtype = _to_complex(self._spectrum).dtype
        rhs_dtype = _to_complex(rhs).dtype
        if rhs_dtype != spectrum_dtype:  # TF's solve does not cast to the spectrum's precision (its matmul does)
            raise TypeError(f"`x` and `y` must have the same dtype, got {rhs_dtype!r} != {spectrum_dtype!r}.")
        return self._transform(rhs, lambda fx, s: fx / (tf.math.conj(s) if adjoint else s))

    def _block_axes(self):
        rank = self._spectrum.shape.rank
        return list(range(rank - self._block_depth, rank))

    def _determinant(self):
        return _cast(tf.reduce_prod(self._spectrum, axis=self._block_axes()), self.dtype)

    def _log_abs_determinant(self):
        return _cast(tf.reduce_sum(tf.math.log(tf.abs(self._spectrum)), axis=self._block_axes()), self.dtype)

    def _trace(self):
        axes = self._block_axes()
        real = tf.reduce_sum(tf.math.real(self._spectrum) if self._spectrum.dtype.is_complex else self._spectrum,
                             axis=axes)
        if not self.dtype.is_complex:
            return _cast(real, self.dtype)
        imag = tf.zeros_like(real) if self.is_self_adjoint or not self._spectrum.dtype.is_complex else \
            tf.reduce_sum(tf.math.imag(self._spectrum), axis=axes)
        return _cast(tf.complex(real, imag), self.dtype)

    def _diag_part(self):
        n = self._n()
        return (self.trace() / tf.cast(n, self.dtype))[..., None] * tf.ones(self.shape.as_list()[:-1], self.dtype)

    def eigvals(self, name="eigvals"):
        if not self.is_self_adjoint:
            raise NotImplementedError("Only self-adjoint matrices are supported.")
        return self._flat_spectrum(self._spectrum)

    def cond(self, name="cond"):
        magnitudes = tf.abs(self._flat_spectrum(self._spectrum))
        return tf.reduce_max(magnitudes, -1) / tf.reduce_min(magnitudes, -1)

    def convolution_kernel(self, name="convolution_kernel"):
        """ifft(spectrum) over the block axes: the kernel whose circular convolution this operator is."""
        spectrum = _to_complex(self._spectrum)
        dft = _dft_matrix(self.block_shape.as_list(), spectrum.dtype)
        flat = tf.matmul(self._flat_spectrum(spectrum)[..., None, :], tf.math.conj(dft))[..., 0, :] / tf.cast(
            self._n(), spectrum.dtype)
        return _cast(tf.reshape(flat, self._spectrum.shape.as_list()), self.dtype)

    def _hints(self):
        return {"is_non_singular": self.is_non_singular, "is_self_adjoint": self.is_self_adjoint,
                "is_positive_definite": self.is_positive_definite}

    def _adjoint(self):
        # TF's adjoint does not pass input_output_dtype on: the adjoint has the default, complex64
        spectrum = tf.math.conj(self._spectrum) if self._spectrum.dtype.is_complex else self._spectrum
        return type(self)(spectrum, **self._hints())

    def _inverse(self):
        return type(self)(1.0 / self._spectrum, input_output_dtype=self.dtype, **self._hints())


class LinearOperatorCirculant(_BaseLinearOperatorCirculant):
    """A circulant matrix: spectrum [..., N]."""

    def __init__(self, spectrum, input_output_dtype="complex64", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant"):
        super().__init__(spectrum, 1, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, {"spectrum": spectrum, "input_output_dtype": input_output_dtype}, name)


class LinearOperatorCirculant2D(_BaseLinearOperatorCirculant):
    """A block circulant matrix with circulant blocks: spectrum [..., N0, N1]."""

    def __init__(self, spectrum, input_output_dtype="complex64", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant2D"):
        super().__init__(spectrum, 2, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, {"spectrum": spectrum, "input_output_dtype": input_output_dtype}, name)


class LinearOperatorCirculant3D(_BaseLinearOperatorCirculant):
    """A doubly nested block circulant matrix: spectrum [..., N0, N1, N2]."""

    def __init__(self, spectrum, input_output_dtype="complex64", is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=True, name="LinearOperatorCirculant3D"):
        super().__init__(spectrum, 3, input_output_dtype, is_non_singular, is_self_adjoint, is_positive_definite,
                         is_square, {"spectrum": spectrum, "input_output_dtype": input_output_dtype}, name)


__all__ = ["LinearOperatorCirculant", "LinearOperatorCirculant2D", "LinearOperatorCirculant3D"]
