"""How a Lambda layer's Python lambda is written into a config, as Keras 3 writes it: its bytecode (marshal,
base64), defaults and closure under {"class_name": "__lambda__"}. Loading runs that bytecode, so it is refused
in safe mode (the default) with Keras' message; `safe_mode=False` or keras.config.enable_unsafe_deserialization()
allow it. Bytecode only loads in the Python version that wrote it (Keras' own limitation)."""

from __future__ import annotations

import builtins
import codecs
import marshal
import types

UNSAFE_LAMBDA = ("Requested the deserialization of a `Lambda` layer whose `function` is a Python lambda. This "
                 "carries a potential risk of arbitrary code execution and thus it is disallowed by default. If "
                 "you trust the source of the artifact, you can override this error by passing `safe_mode=False` "
                 "to the loading function, or calling `keras.config.enable_unsafe_deserialization().")


def is_python_lambda(fn) -> bool:
    return isinstance(fn, types.LambdaType) and fn.__name__ == "<lambda>"


def dump_lambda(fn) -> dict:
    code = codecs.encode(marshal.dumps(fn.__code__), "base64").decode("ascii")
    closure = tuple(cell.cell_contents for cell in fn.__closure__) if fn.__closure__ else None
    return {"class_name": "__lambda__", "config": {"code": code, "defaults": fn.__defaults__, "closure": closure}}


def is_dumped_lambda(config) -> bool:
    return isinstance(config, dict) and config.get("class_name") == "__lambda__"


def _cell(value):
    return (lambda: value).__closure__[0]


def load_lambda(config: dict, safe_mode) -> types.FunctionType:
    """The function back from dump_lambda's config; ValueError in safe mode (None counts as safe)."""
    if safe_mode is not False:
        raise ValueError(UNSAFE_LAMBDA)
    inner = config["config"]
    code = marshal.loads(codecs.decode(inner["code"].encode("ascii"), "base64"))
    defaults = tuple(inner["defaults"]) if isinstance(inner.get("defaults"), list) else inner.get("defaults")
    closure = tuple(_cell(v) for v in inner["closure"]) if inner.get("closure") is not None else None
    return types.FunctionType(code, {"__builtins__": builtins}, name=code.co_name, argdefs=defaults,
                              closure=closure)
