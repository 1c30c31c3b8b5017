"""A while body's generated code deletes a loop variable at its last use (runtime/codegen.py, `owned_inputs`):
the incoming value of a recurrence dies before the iteration ends, not beside its successor. Checked: the
`del` is there, variables passed through or swapped into another variable's place are kept, the results match
eager and numpy, and the peak memory of a loop over large values drops by one of them."""


import numpy as np
from ways import traced_with

import tinytf as tf
from tinytf.bench.run import peak_bytes as _peak

rng = np.random.default_rng(5)


def _code(fn, args, **options):
    compiled = traced_with(fn, args, **{"disable_all": False, **options})
    return compiled, compiled.get_concrete_function(*args).code


def _body_lines(code):
    """The generated lines of the (only) while loop's body."""
    lines = code.splitlines()
    start = next(k for k, line in enumerate(lines) if line.strip() == "while True:")
    indent = len(lines[start]) - len(lines[start].lstrip())
    body = []
    for line in lines[start + 1:]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        body.append(line.strip())
    return body


def recurrence(x, w):
    def body(i, h):
        return i + 1, tf.tanh(h @ w)  # h is not needed after the product

    return tf.while_loop(lambda i, h: i < 5, body, (tf.constant(0), x))[1]


def test_a_loop_variable_is_deleted_at_its_last_use():
    x = tf.constant(rng.standard_normal((8, 8)).astype(np.float32))
    w = tf.constant((rng.standard_normal((8, 8)) * 0.3).astype(np.float32))
    compiled, code = _code(recurrence, (x, w))
    body = _body_lines(code)
    product = next(k for k, line in enumerate(body) if "@" in line)
    h = body[product].split("=", 1)[1].split("@")[0].strip()  # the loop variable's name
    assert any(line.startswith("del ") and h in line.split(None, 1)[1].split(", ") for line in body[product:])
    expected = x.numpy()
    for _ in range(5):
        expected = np.tanh(expected @ w.numpy())
    for result in (compiled(x, w), recurrence(x, w), traced_with(recurrence, (x, w), disable_all=True)(x, w)):
        np.testing.assert_allclose(result.numpy(), expected, rtol=1e-5, atol=1e-6)


def swap_and_pass(a, b, c):
    def body(i, a, b, c):
        return i + 1, b, a * 2.0, c  # a and b trade places, c passes through

    return tf.while_loop(lambda i, a, b, c: i < 3, body, (tf.constant(0), a, b, c))[1:]


def test_swapped_and_passed_through_variables_are_kept():
    a, b, c = (tf.constant(rng.standard_normal((4, 3)).astype(np.float32)) for _ in range(3))
    compiled, code = _code(swap_and_pass, (a, b, c))
    x, y, z = a.numpy(), b.numpy(), c.numpy()
    for _ in range(3):
        x, y = y, x * 2.0
    for result in (compiled(a, b, c), swap_and_pass(a, b, c),
                   traced_with(swap_and_pass, (a, b, c), disable_all=True)(a, b, c)):
        for got, want in zip(result, (x, y, z)):
            np.testing.assert_array_equal(got.numpy(), want)


def chain(x, w):
    def body(i, h):
        return i + 1, tf.tanh(h @ w) @ w  # h is dead once the first product is made

    return tf.while_loop(lambda i, h: i < 4, body, (tf.constant(0), x))[1]




def test_the_old_value_is_gone_before_the_iteration_ends():
    x = tf.constant(rng.standard_normal((256, 256)).astype(np.float32))  # 256 KiB
    w = tf.constant((rng.standard_normal((256, 256)) / 16).astype(np.float32))
    compiled, _ = _code(chain, (x, w), buffer_planning=False)
    compiled(x, w)
    peak = _peak(lambda: compiled(x, w))
    # during the second product: its operand and its result, not the old value beside them (three arrays)
    assert peak < 2.5 * x.numpy().nbytes
    expected = x.numpy()
    for _ in range(4):
        expected = np.tanh(expected @ w.numpy()) @ w.numpy()
    np.testing.assert_allclose(compiled(x, w).numpy(), expected, rtol=1e-4, atol=1e-5)
