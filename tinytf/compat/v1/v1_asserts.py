"""TF1's assertions: TF2's, with TF1's argument order (`data` after the tensors, then `summarize`, `message`).
`data` (tensors TF1 prints when the assertion fails) is added to the message when it has values now."""

from __future__ import annotations


def _tf():
    import tinytf

    return tinytf


def _with_data(message, data):
    if not data:
        return message
    shown = []
    for item in data:
        numpy = getattr(item, "numpy", None)
        try:
            shown.append(str(numpy()) if numpy is not None else str(item))
        except Exception:  # noqa: BLE001 - a graph tensor has no value yet: name it instead
            shown.append(getattr(item, "name", repr(item)))
    return " ".join(([message] if message else []) + shown)


def _named(check, tf2_name: str):
    check.__name__ = check.__qualname__ = tf2_name
    check.__doc__ = f"TF1's {tf2_name}: tf.debugging.{tf2_name} with TF1's arguments (data, summarize, message)."
    return check


def _binary(tf2_name: str):
    def check(x, y, data=None, summarize=None, message=None, name=None):
        return getattr(_tf().debugging, tf2_name)(x, y, message=_with_data(message, data), summarize=summarize,
                                                  name=name)

    return _named(check, tf2_name)


def _unary(tf2_name: str):
    def check(x, data=None, summarize=None, message=None, name=None):
        return getattr(_tf().debugging, tf2_name)(x, message=_with_data(message, data), summarize=summarize,
                                                  name=name)

    return _named(check, tf2_name)


def _rank(tf2_name: str):
    def check(x, rank, data=None, summarize=None, message=None, name=None):
        return getattr(_tf().debugging, tf2_name)(x, rank, message=_with_data(message, data), name=name)

    return _named(check, tf2_name)


assert_equal = _binary("assert_equal")
assert_none_equal = _binary("assert_none_equal")
assert_greater = _binary("assert_greater")
assert_greater_equal = _binary("assert_greater_equal")
assert_less = _binary("assert_less")
assert_less_equal = _binary("assert_less_equal")
assert_negative = _unary("assert_negative")
assert_non_negative = _unary("assert_non_negative")
assert_non_positive = _unary("assert_non_positive")
assert_positive = _unary("assert_positive")
assert_rank = _rank("assert_rank")
assert_rank_at_least = _rank("assert_rank_at_least")
assert_rank_in = _rank("assert_rank_in")


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None, name=None):
    return _tf().debugging.assert_near(x, y, rtol=rtol, atol=atol, message=_with_data(message, data),
                                       summarize=summarize, name=name)


def assert_scalar(tensor, name=None, message=None):
    return _tf().debugging.assert_scalar(tensor, message=message, name=name)


def assert_integer(x, message=None, name=None):
    return _tf().debugging.assert_integer(x, message=message, name=name)


def assert_type(tensor, tf_type, message=None, name=None):
    return _tf().debugging.assert_type(tensor, tf_type, message=message, name=name)


__all__ = [n for n in list(globals()) if n.startswith("assert_")]
