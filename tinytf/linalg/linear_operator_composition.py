"""LinearOperators built of other operators: Composition (a product), Kronecker, BlockDiag, BlockLowerTriangular
and LowRankUpdate (base + U D V^H, solved with the Woodbury identity). Each acts through its parts, so a product
of diagonals never becomes a dense matrix until to_dense() asks for one."""

from __future__ import annotations

import tinytf as tf

from .linear_operator import LinearOperator, concat_shapes


def _check_operators(operators, what):
    operators = list(operators)
    if not operators:
        raise ValueError(f"Expected a non-empty list of operators. Found: {operators}")
    dtype = operators[0].dtype
    for op in operators:
        if op.dtype != dtype:
            names = [(o.name, o.dtype.name) for o in operators]
            raise TypeError(f"Expected all operators to have the same dtype.  Found {names}")
    return operators, dtype


def _all(operators, hint):
    values = [getattr(op, hint) for op in operators]
    return True if all(v is True for v in values) else None


def _inherited_hints(operators, is_non_singular, is_self_adjoint, is_positive_definite):
    """The hints a Kronecker product or block diagonal takes from its operators when not given: each holds when
    it holds for every operator (TF's rule for both)."""
    return (_all(operators, "is_non_singular") if is_non_singular is None else is_non_singular,
            _all(operators, "is_self_adjoint") if is_self_adjoint is None else is_self_adjoint,
            _all(operators, "is_positive_definite") if is_positive_definite is None else is_positive_definite)


class LinearOperatorComposition(LinearOperator):
    """operators[0] @ operators[1] @ ... as one operator."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        operators, dtype = _check_operators(operators, "composition")
        if all(op.is_non_singular for op in operators) and is_non_singular is False:
            raise ValueError("The composition of non-singular operators is always non-singular.")
        if is_non_singular is None and all(op.is_non_singular for op in operators):
            is_non_singular = True
        self._operators = operators
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_o_".join(op.name for op in operators), parameters={"operators": operators})

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        for left, right in zip(self._operators[:-1], self._operators[1:]):
            if left.domain_dimension is not None and right.range_dimension is not None and \
                    left.domain_dimension != right.range_dimension:
                raise ValueError(f"Operators are incompatible. Expected {left.name} to have domain dimension "
                                 f"{right.range_dimension}, found {left.domain_dimension}")
        batch = tf.TensorShape([])
        for op in self._operators:
            batch = tf.broadcast_static_shape(batch, op.batch_shape)
        return concat_shapes(batch, [self._operators[0].range_dimension, self._operators[-1].domain_dimension])

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        ops = self._operators if adjoint else self._operators[::-1]
        result = ops[0].matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ops[1:]:
            result = op.matmul(result, adjoint=adjoint)
        return result

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        ops = self._operators[::-1] if adjoint else self._operators
        result = ops[0].solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        for op in ops[1:]:
            result = op.solve(result, adjoint=adjoint)
        return result

    def _determinant(self):
        if all(op.is_square for op in self._operators):
            result = self._operators[0].determinant()
            for op in self._operators[1:]:
                result = result * op.determinant()
            return result
        return super()._determinant()

    def _log_abs_determinant(self):
        if all(op.is_square for op in self._operators):
            return sum(op.log_abs_determinant() for op in self._operators)
        return super()._log_abs_determinant()


def _kron_dense(a, b):
    rows_a, cols_a = a.shape[-2], a.shape[-1]
    rows_b, cols_b = b.shape[-2], b.shape[-1]
    product = a[..., :, None, :, None] * b[..., None, :, None, :]
    batch = tf.shape(product)[:-4]
    return tf.reshape(product, tf.concat([batch, [rows_a * rows_b, cols_a * cols_b]], 0))


class LinearOperatorKronecker(LinearOperator):
    """The Kronecker product operators[0] (x) operators[1] (x) ..."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name=None):
        operators, dtype = _check_operators(operators, "kronecker")
        is_non_singular, is_self_adjoint, is_positive_definite = _inherited_hints(
            operators, is_non_singular, is_self_adjoint, is_positive_definite)
        self._operators = operators
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_x_".join(op.name for op in operators), parameters={"operators": operators})

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        rows = cols = 1
        batch = tf.TensorShape([])
        for op in self._operators:
            rows *= op.range_dimension
            cols *= op.domain_dimension
            batch = tf.broadcast_static_shape(batch, op.batch_shape)
        return concat_shapes(batch, [rows, cols])

    def _to_dense(self):
        dense = self._operators[0].to_dense()
        for op in self._operators[1:]:
            dense = _kron_dense(dense, op.to_dense())
        return dense

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        # (A (x) B)^-1 = A^-1 (x) B^-1: the inverse is the Kronecker product of the inverses
        inverse = LinearOperatorKronecker([op.inverse() for op in self._operators])
        return inverse.matmul(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)

    def _determinant(self):
        total = self.domain_dimension
        result = None
        for op in self._operators:
            factor = op.determinant() ** (total // op.domain_dimension)
            result = factor if result is None else result * factor
        return result

    def _log_abs_determinant(self):
        total = self.domain_dimension
        return sum(tf.cast(total // op.domain_dimension, op.dtype.real_dtype) * op.log_abs_determinant()
                   for op in self._operators)

    def _trace(self):
        result = self._operators[0].trace()
        for op in self._operators[1:]:
            result = result * op.trace()
        return result

    def _inverse(self):
        return LinearOperatorKronecker([op.inverse() for op in self._operators])

    def _adjoint(self):
        return LinearOperatorKronecker([op.adjoint() for op in self._operators])


def _broadcast_parts(parts):
    """Tensors [..., m_i, k] broadcast to one batch shape, so they can be concatenated along the rows."""
    batch = tf.shape(parts[0])[:-2]
    for part in parts[1:]:
        batch = tf.broadcast_dynamic_shape(batch, tf.shape(part)[:-2])
    return [tf.broadcast_to(p, tf.concat([batch, tf.shape(p)[-2:]], 0)) for p in parts]


class _Blockwise:
    """matmul/matvec/solve/solvevec of block operators taking a list of blocks (then answering a list), as TF's
    block operators do; a single tensor is split along its rows and the answer concatenated."""

    def matmul(self, x, adjoint=False, adjoint_arg=False, name="matmul"):
        if not isinstance(x, (list, tuple)):
            return super().matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        parts = [tf.linalg.adjoint(self._as_input(p)) if adjoint_arg else self._as_input(p) for p in x]
        return self._block_matmul(parts, adjoint)

    def matvec(self, x, adjoint=False, name="matvec"):
        if not isinstance(x, (list, tuple)):
            return super().matvec(x, adjoint=adjoint)
        return [tf.squeeze(y, -1) for y in self._block_matmul([self._as_input(p)[..., None] for p in x], adjoint)]

    def solve(self, rhs, adjoint=False, adjoint_arg=False, name="solve"):
        if not isinstance(rhs, (list, tuple)):
            return super().solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        parts = [tf.linalg.adjoint(self._as_input(p)) if adjoint_arg else self._as_input(p) for p in rhs]
        return self._block_solve(parts, adjoint)

    def solvevec(self, rhs, adjoint=False, name="solve"):
        if not isinstance(rhs, (list, tuple)):
            return super().solvevec(rhs, adjoint=adjoint)
        return [tf.squeeze(y, -1) for y in self._block_solve([self._as_input(p)[..., None] for p in rhs], adjoint)]

    def _split_rows(self, x, adjoint):
        return tf.split(x, self._block_sizes(), axis=-2)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        return tf.concat(_broadcast_parts(self._block_matmul(self._split_rows(x, adjoint), adjoint)), -2)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
        return tf.concat(_broadcast_parts(self._block_solve(self._split_rows(rhs, adjoint), adjoint)), -2)


class LinearOperatorBlockLowerTriangular(_Blockwise, LinearOperator):
    """A block lower triangular matrix: operators[i] lists the blocks of row i, the last one on the diagonal."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=None, name="LinearOperatorBlockLowerTriangular"):
        rows = [list(row) for row in operators]
        if not rows:
            raise ValueError(f"Argument operators must be a list of >=1 operators. Found: {operators}")
        for i, row in enumerate(rows):
            if len(row) != i + 1:
                raise ValueError(f"Argument operators[{i}] must contain {i + 1} blocks. Found: {len(row)} blocks.")
        _check_operators([op for row in rows for op in row], "block lower triangular")
        if is_non_singular is None and all(row[-1].is_non_singular for row in rows):
            is_non_singular = True
        self._rows = rows
        super().__init__(rows[0][0].dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters={"operators": operators})

    @property
    def operators(self):
        return self._rows

    def _block_sizes(self):
        return [row[-1].domain_dimension for row in self._rows]

    def _shape(self):
        n = sum(self._block_sizes())
        batch = tf.TensorShape([])
        for row in self._rows:
            for op in row:
                batch = tf.broadcast_static_shape(batch, op.batch_shape)
        return concat_shapes(batch, [n, n])

    def _block_matmul(self, parts, adjoint):
        if not adjoint:  # y_i = sum_j L_ij x_j
            return [sum(op.matmul(part) for op, part in zip(row, parts)) for row in self._rows]
        count = len(self._rows)  # y_j = sum_i L_ij^H x_i
        return [sum(self._rows[i][j].matmul(parts[i], adjoint=True) for i in range(j, count)) for j in range(count)]

    def _block_solve(self, parts, adjoint):
        count = len(self._rows)
        solved = [None] * count
        order = range(count - 1, -1, -1) if adjoint else range(count)
        for i in order:  # forward substitution (backward for the adjoint, an upper triangular system)
            part = parts[i]
            if adjoint:
                for k in range(i + 1, count):
                    part = part - self._rows[k][i].matmul(solved[k], adjoint=True)
            else:
                for j in range(i):
                    part = part - self._rows[i][j].matmul(solved[j])
            solved[i] = self._rows[i][i].solve(part, adjoint=adjoint)
        return solved

    def _to_dense(self):
        sizes = self._block_sizes()
        blocks = []
        for i, row in enumerate(self._rows):
            dense = [op.to_dense() for op in row]
            dense += [tf.zeros([sizes[i], sizes[j]], self.dtype) for j in range(i + 1, len(self._rows))]
            blocks.append(dense)
        flat = _broadcast_parts([b for row in blocks for b in row])
        rows, k = [], 0
        for row in blocks:
            rows.append(tf.concat(flat[k:k + len(row)], -1))
            k += len(row)
        return tf.concat(rows, -2)

    def _determinant(self):
        result = self._rows[0][-1].determinant()
        for row in self._rows[1:]:
            result = result * row[-1].determinant()
        return result

    def _log_abs_determinant(self):
        return sum(row[-1].log_abs_determinant() for row in self._rows)

    def _inverse(self):
        """Block lower triangular again: its blocks cut from the dense inverse (as FullMatrix operators)."""
        from .linear_operator_basic import LinearOperatorFullMatrix

        inverse = tf.linalg.inv(self.to_dense())
        bounds = [0]
        for size in self._block_sizes():
            bounds.append(bounds[-1] + size)
        rows = [[LinearOperatorFullMatrix(inverse[..., bounds[i]:bounds[i + 1], bounds[j]:bounds[j + 1]])
                 for j in range(i + 1)] for i in range(len(self._rows))]
        return LinearOperatorBlockLowerTriangular(rows, is_non_singular=True)


class LinearOperatorBlockDiag(_Blockwise, LinearOperator):
    """The block diagonal matrix of square operators."""

    def __init__(self, operators, is_non_singular=None, is_self_adjoint=None, is_positive_definite=None,
                 is_square=True, name=None):
        operators, dtype = _check_operators(operators, "block diag")
        for op in operators:
            if op.is_square is False:
                raise ValueError(f"Argument operators must be square, found {op.name}")
        is_non_singular, is_self_adjoint, is_positive_definite = _inherited_hints(
            operators, is_non_singular, is_self_adjoint, is_positive_definite)
        self._operators = operators
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square,
                         name=name or "_ds_".join(op.name for op in operators), parameters={"operators": operators})

    @property
    def operators(self):
        return self._operators

    def _shape(self):
        n = sum(op.domain_dimension for op in self._operators)
        batch = tf.TensorShape([])
        for op in self._operators:
            batch = tf.broadcast_static_shape(batch, op.batch_shape)
        return concat_shapes(batch, [n, n])

    def _block_sizes(self):
        return [op.domain_dimension for op in self._operators]

    def _block_matmul(self, parts, adjoint):
        return [op.matmul(part, adjoint=adjoint) for op, part in zip(self._operators, parts)]

    def _block_solve(self, parts, adjoint):
        return [op.solve(part, adjoint=adjoint) for op, part in zip(self._operators, parts)]

    def _determinant(self):
        result = self._operators[0].determinant()
        for op in self._operators[1:]:
            result = result * op.determinant()
        return result

    def _log_abs_determinant(self):
        return sum(op.log_abs_determinant() for op in self._operators)

    def _trace(self):
        return sum(op.trace() for op in self._operators)

    def _diag_part(self):
        return tf.concat([op.diag_part() for op in self._operators], -1)

    def _inverse(self):
        return LinearOperatorBlockDiag([op.inverse() for op in self._operators], is_non_singular=True)

    def _adjoint(self):
        return LinearOperatorBlockDiag([op.adjoint() for op in self._operators])


class LinearOperatorLowRankUpdate(LinearOperator):
    """base_operator + U diag(diag_update) V^H (V = U when not given), solved with the Woodbury identity and its
    determinant from the matrix determinant lemma."""

    def __init__(self, base_operator, u, diag_update=None, v=None, is_diag_update_positive=None,
                 is_non_singular=None, is_self_adjoint=None, is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        dtype = base_operator.dtype
        self._base = base_operator
        self._u = tf.convert_to_tensor(u, dtype)
        self._v = self._u if v is None else tf.convert_to_tensor(v, dtype)
        self._diag_update = None if diag_update is None else tf.convert_to_tensor(diag_update, dtype)
        self._is_diag_update_positive = is_diag_update_positive
        if v is None and is_self_adjoint is None and base_operator.is_self_adjoint:
            is_self_adjoint = True
        if (v is None and base_operator.is_positive_definite and is_positive_definite is None
                and (diag_update is None or is_diag_update_positive)):
            is_positive_definite = True
        super().__init__(dtype, is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                         is_positive_definite=is_positive_definite, is_square=is_square, name=name,
                         parameters={"base_operator": base_operator, "u": u, "diag_update": diag_update, "v": v})

    @property
    def base_operator(self):
        return self._base

    @property
    def u(self):
        return self._u

    @property
    def v(self):
        return self._v

    @property
    def diag_update(self):
        return self._diag_update

    @property
    def is_diag_update_positive(self):
        return self._is_diag_update_positive

    def _shape(self):
        batch = tf.broadcast_static_shape(self._base.batch_shape, self._u.shape[:-2])
        return concat_shapes(batch, self._base.shape[-2:])

    def _diag(self):
        k = self._u.shape[-1]
        return tf.ones(self._u.shape[:-2].as_list() + [k], self.dtype) if self._diag_update is None else \
            self._diag_update

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = tf.linalg.adjoint(x) if adjoint_arg else x
        left, right = (self._v, self._u) if adjoint else (self._u, self._v)
        d = tf.math.conj(self._diag()) if adjoint else self._diag()
        update = tf.matmul(left, d[..., None] * tf.matmul(right, x, adjoint_a=True))
        return self._base.matmul(x, adjoint=adjoint) + update

    def _capacitance(self):
        """C = D^-1 + V^H A^-1 U, the small k x k matrix of the Woodbury identity."""
        return tf.linalg.diag(1.0 / self._diag()) + tf.matmul(self._v, self._base.solve(self._u), adjoint_a=True)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if adjoint:
            return super()._solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        rhs = tf.linalg.adjoint(rhs) if adjoint_arg else rhs
        a_inv_rhs = self._base.solve(rhs)
        correction = tf.linalg.solve(self._capacitance(), tf.matmul(self._v, a_inv_rhs, adjoint_a=True))
        return a_inv_rhs - self._base.solve(tf.matmul(self._u, correction))

    def _log_abs_determinant(self):
        # det(A + U D V^H) = det(C) det(D) det(A)
        log_d = tf.reduce_sum(tf.math.log(tf.abs(self._diag())), axis=-1)
        return (self._base.log_abs_determinant() + log_d
                + tf.linalg.slogdet(self._capacitance())[1])

    def _determinant(self):
        return (self._base.determinant() * tf.reduce_prod(self._diag(), axis=-1)
                * tf.linalg.det(self._capacitance()))

    def _diag_part(self):
        return self._base.diag_part() + tf.reduce_sum(self._u * self._diag()[..., None, :] * tf.math.conj(self._v),
                                                      axis=-1)

    def _to_dense(self):
        return self._base.to_dense() + tf.matmul(self._u * self._diag()[..., None, :], self._v, adjoint_b=True)


__all__ = ["LinearOperatorComposition", "LinearOperatorKronecker", "LinearOperatorBlockDiag",
           "LinearOperatorBlockLowerTriangular", "LinearOperatorLowRankUpdate"]
