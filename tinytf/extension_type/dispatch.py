"""Type-based dispatch, as TF's tf.experimental.dispatch_for_api and the elementwise variants: a target
registered for an API runs instead of it when the call's arguments match the target's type signature.

An API is known by its root function (wrappers such as ragged dispatch are unwrapped through `__wrapped__`),
so `tf.add` and `tf.math.add` are one API. Registering installs a dispatching wrapper over every public
binding of the API in tinytf's modules (not in the runtime's kernels); a call whose arguments hold no
instance of a dispatchable type (anything but a plain tensor) goes straight to the API."""

from __future__ import annotations

import collections.abc
import functools
import inspect
import sys
import typing

from tinytf.runtime.tensor import Tensor

_TARGETS: dict = {}  # root API function -> [Target]
_BY_FUNCTION: dict = {}  # dispatch target function -> [(root, Target)]


def _root(fn):
    seen = set()
    while hasattr(fn, "__wrapped__") and id(fn) not in seen:
        seen.add(id(fn))
        fn = fn.__wrapped__
    return fn


def _matches(value, annotation) -> bool:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union:
        return any(_matches(value, a) for a in args)
    if origin in (list, collections.abc.Sequence):
        return isinstance(value, (list, tuple)) and (not args or all(_matches(v, args[0]) for v in value))
    if annotation is None:
        return value is None
    return isinstance(value, annotation)


def _dispatchable_types(annotation) -> set:
    """The types in an annotation that make a call dispatch (plain tensors never do)."""
    args = typing.get_args(annotation)
    if args:
        return set().union(*(_dispatchable_types(a) for a in args if a is not Ellipsis))
    if isinstance(annotation, type) and not issubclass(annotation, Tensor) and annotation is not type(None):
        return {annotation}
    return set()


class _Target:
    """One registration: a function and the signatures (parameter name -> annotation) it serves."""

    def __init__(self, fn, api_signature, signatures, kind="api"):
        self.fn, self.api_signature, self.signatures, self.kind = fn, api_signature, signatures, kind
        self.types = set().union(*(_dispatchable_types(a) for sig in signatures for a in sig.values()))

    def matches(self, bound) -> bool:
        arguments = bound.arguments
        for sig in self.signatures:
            if all(name in arguments and _matches(arguments[name], ann) for name, ann in sig.items()) and \
                    any(_holds(arguments.get(name), self.types) for name in sig):
                return True
        return False

    def call(self, api, bound):
        if self.kind == "api":
            return self.fn(*bound.args, **bound.kwargs)
        names = list(self.api_signature.parameters)
        if self.kind == "unary":
            x = bound.arguments[names[0]]
            rest = {k: v for k, v in bound.arguments.items() if k != names[0]}
            return self.fn(lambda v: api(v, **rest), x)
        x, y = bound.arguments[names[0]], bound.arguments[names[1]]
        rest = {k: v for k, v in bound.arguments.items() if k not in names[:2]}
        return self.fn(lambda a, b: api(a, b, **rest), x, y)


def _holds(value, types) -> bool:
    if isinstance(value, tuple(types)):
        return True
    return isinstance(value, (list, tuple)) and any(isinstance(v, tuple(types)) for v in value)


def _dispatching(fn, root, signature):
    """`fn` (one binding of the API `root`) checking the registered targets first."""
    if getattr(fn, "_tf_type_dispatch_root", None) is root:
        return fn

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        targets = _TARGETS.get(root)
        if targets:
            types = tuple(set().union(*(t.types for t in targets)))
            if any(_holds(a, types) for a in args) or any(_holds(v, types) for v in kwargs.values()):
                try:
                    bound = signature.bind(*args, **kwargs)
                except TypeError:
                    bound = None
                if bound is not None:
                    chosen = [t for t in targets if t.matches(bound)]
                    if len(chosen) > 1:
                        raise ValueError(f"Multiple dispatch targets that were registered with tf.dispatch_for "
                                         f"({chosen[0].fn} and {chosen[1].fn}) match the arguments to "
                                         f"{root.__name__}")
                    if chosen:
                        return chosen[0].call(fn, bound)
        return fn(*args, **kwargs)

    wrapper._tf_type_dispatch_root = root
    return wrapper


_WRAPPERS: dict = {}  # id(binding) -> (binding, its dispatching wrapper): one wrapper per function object


def _install(root, signature) -> None:
    """Put a dispatching wrapper over every binding of `root` in tinytf's public modules; a function bound under
    two names (tf.math.softsign, tf.nn.softsign) keeps one object."""
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("tinytf") or name.startswith("tinytf.runtime"):
            continue
        for attr, value in list(vars(module).items()):
            if callable(value) and not isinstance(value, type) and _root(value) is root and \
                    getattr(value, "_tf_type_dispatch_root", None) is not root:
                entry = _WRAPPERS.get(id(value))
                if entry is None or entry[0] is not value:
                    entry = _WRAPPERS[id(value)] = (value, _dispatching(value, root, signature))
                setattr(module, attr, entry[1])


def _register(api, target_fn, signatures, kind) -> None:
    if not callable(api) or isinstance(api, type):
        raise ValueError(f"{api} does not support dispatch.")
    root = _root(api)
    if not getattr(root, "__module__", "").startswith("tinytf"):
        raise ValueError(f"{api} does not support dispatch.")
    api_signature = inspect.signature(root)
    target = _Target(target_fn, api_signature, signatures, kind)
    _install(root, api_signature)
    _TARGETS.setdefault(root, []).append(target)
    _BY_FUNCTION.setdefault(target_fn, []).append((root, target))


def dispatch_for_api(api, *signatures):
    """Decorator: the decorated function overrides `api` when called with arguments matching one of the
    signatures (dicts of parameter name -> type), or, with none given, its own parameter annotations."""
    root = _root(api) if callable(api) else api
    api_signature = _api_signature(api, root)
    api_params = list(api_signature.parameters)

    def decorator(target_fn):
        target_params = list(inspect.signature(target_fn).parameters)
        if target_params != api_params[:len(target_params)]:
            raise ValueError(f"Dispatch function's signature {inspect.signature(target_fn)} does not match API's "
                             f"signature {api_signature}.")
        sigs = [dict(s) for s in signatures]
        if not sigs:
            hints = {k: v.annotation for k, v in inspect.signature(target_fn).parameters.items()
                     if v.annotation is not inspect.Parameter.empty}
            if not hints:
                raise ValueError("The dispatch_for_api decorator must be called with at least one signature, or "
                                 "applied to a function that has type annotations on its parameters.")
            sigs = [hints]
        for sig in sigs:
            for name in sig:
                if name not in api_params:
                    raise ValueError(f"signature includes annotation for unknown parameter {name!r}.")
        _register(api, target_fn, sigs, "api")
        return target_fn

    return decorator


def _api_signature(api, root):
    if not callable(api) or isinstance(api, type) or not getattr(root, "__module__", "").startswith("tinytf"):
        raise ValueError(f"{api} does not support dispatch.")
    return inspect.signature(root)


def _elementwise_apis(names):
    import tinytf

    found, seen = [], set()
    for path in names:
        obj = tinytf
        try:
            for part in path.split("."):
                obj = getattr(obj, part)
        except AttributeError:
            continue
        root = _root(obj)
        if id(root) not in seen:
            seen.add(id(root))
            found.append(obj)
    return found


def dispatch_for_unary_elementwise_apis(x_type):
    """Decorator: `handler(api_func, x)` runs for every unary elementwise API whose first argument matches
    `x_type`; `api_func` is the API with the call's other arguments bound."""
    from ..elementwise_apis import UNARY

    def decorator(handler):
        for api in _elementwise_apis(UNARY):
            first = next(iter(inspect.signature(_root(api)).parameters))
            _register(api, handler, [{first: x_type}], "unary")
        return handler

    return decorator


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """Decorator: `handler(api_func, x, y)` runs for every binary elementwise API whose two first arguments
    match `x_type` and `y_type`."""
    from ..elementwise_apis import BINARY

    def decorator(handler):
        for api in _elementwise_apis(BINARY):
            first, second = list(inspect.signature(_root(api)).parameters)[:2]
            _register(api, handler, [{first: x_type, second: y_type}], "binary")
        return handler

    return decorator


def dispatch_for_binary_elementwise_assert_apis(x_type, y_type):
    """Decorator: `handler(assert_func, x, y)` runs for tf.debugging.assert_equal and its relatives."""
    from ..elementwise_apis import BINARY_ASSERT

    def decorator(handler):
        for api in _elementwise_apis(BINARY_ASSERT):
            first, second = list(inspect.signature(_root(api)).parameters)[:2]
            _register(api, handler, [{first: x_type, second: y_type}], "binary")
        return handler

    return decorator


def unregister_dispatch_for(dispatch_target) -> None:
    """Remove every registration of `dispatch_target`; ValueError if it has none."""
    entries = _BY_FUNCTION.pop(dispatch_target, None)
    if not entries:
        raise ValueError(f"Function {dispatch_target} was not registered using a `@dispatch_for_*` decorator.")
    for root, target in entries:
        remaining = [t for t in _TARGETS.get(root, []) if t is not target]
        if remaining:
            _TARGETS[root] = remaining
        else:
            _TARGETS.pop(root, None)
