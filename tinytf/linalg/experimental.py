"""tf.linalg.experimental: conjugate_gradient, the iterative solver of self-adjoint positive definite systems
given as a LinearOperator (TF's algorithm and its CGState result, in a tf.while_loop)."""

from __future__ import annotations

import collections

import tinytf as tf

CGState = collections.namedtuple("CGState", ["i", "x", "r", "p", "gamma"])


def _dot(x, y):
    return tf.reduce_sum(tf.math.conj(x) * y, axis=-1)


def conjugate_gradient(operator, rhs, preconditioner=None, x=None, tol=1e-5, max_iter=20,
                       name="conjugate_gradient"):
    """Solve operator @ x = rhs for self-adjoint positive definite `operator` by (preconditioned) conjugate
    gradients: at most max_iter steps, stopping once every residual's norm is below tol * |rhs|."""
    if not (operator.is_self_adjoint and operator.is_positive_definite):
        raise ValueError("Expected a self-adjoint, positive definite operator.")
    rhs = tf.convert_to_tensor(rhs)
    shape = tf.broadcast_dynamic_shape(tf.shape(rhs)[:-1], operator.batch_shape_tensor())
    if preconditioner is not None:
        shape = tf.broadcast_dynamic_shape(shape, preconditioner.batch_shape_tensor())
    rhs_shape = tf.concat([shape, tf.shape(rhs)[-1:]], axis=-1)
    r0 = tf.broadcast_to(rhs, rhs_shape)
    tol = tol * tf.norm(r0, axis=-1)
    if x is None:
        x = tf.zeros(rhs_shape, rhs.dtype)
    else:
        r0 = rhs - operator.matvec(x)
    p0 = r0 if preconditioner is None else preconditioner.matvec(r0)
    state = CGState(i=tf.constant(0, tf.int32), x=x, r=r0, p=p0, gamma=_dot(r0, p0))

    def keep_going(i, state):
        return tf.logical_and(i < max_iter, tf.reduce_any(tf.norm(state.r, axis=-1) > tol))

    def step(i, state):
        z = operator.matvec(state.p)
        alpha = state.gamma / _dot(state.p, z)
        x = state.x + alpha[..., None] * state.p
        r = state.r - alpha[..., None] * z
        q = r if preconditioner is None else preconditioner.matvec(r)
        gamma = _dot(r, q)
        p = q + (gamma / state.gamma)[..., None] * state.p
        return i + 1, CGState(i + 1, x, r, p, gamma)

    _, state = tf.while_loop(keep_going, step, [state.i, state])
    return CGState(state.i, x=state.x, r=state.r, p=state.p, gamma=state.gamma)


__all__ = ["conjugate_gradient"]
