"""AutoGraph's entry points: converting the function a tf.function traces, converting the functions it
calls (converted_call, at run time), to_code / to_graph, and do_not_convert."""

from __future__ import annotations

import functools
import inspect
import sys
import threading
import types
import warnings

from . import ops_assert, ops_conditionals, ops_loops, transpiler, undefined, verbosity
from .errors import ConversionError, UnsupportedLanguageElementError, endless_recursion_error, with_user_frames
from .features import Feature, as_features, enabled, features_active
from .ops_builtins import OVERLOADS, print_
from .parsing import SourceUnavailableError

_LIBRARY_MODULES = {"tinytf", "numpy", "gast", "astunparse", "pytest", "_pytest", "pluggy", "builtins"}
_DO_NOT_CONVERT = "__ag_do_not_convert__"
_tracing = threading.local()  # depth: how many converted tf.function bodies are running in this thread


class AutoGraphWarning(UserWarning):
    """AutoGraph could not convert a function and runs it as it is."""


# --- what gets converted ---------------------------------------------------------------------------------
# Programs that ship inside the tinytf package but are user code: the benchmark workloads and the demo.
_USER_CODE_IN_LIBRARY = ("tinytf.bench", "tinytf.demo")


def _is_library(fn) -> bool:
    module = getattr(fn, "__module__", None) or ""
    if module.startswith(_USER_CODE_IN_LIBRARY):
        return False
    top = module.split(".")[0]
    return top in _LIBRARY_MODULES or top in sys.stdlib_module_names


def _marked_do_not_convert(f) -> bool:
    return getattr(f, _DO_NOT_CONVERT, False) or getattr(getattr(f, "__func__", None), _DO_NOT_CONVERT, False)


def _converted_function(fn, warn: bool):
    """The converted version of the plain function (or lambda) `fn`, or None when it must run as it is."""
    if _is_library(fn) or fn.__code__.co_filename in transpiler.generated_files:
        return None
    try:
        converted = transpiler.convert(fn)
    except (SourceUnavailableError, UnsupportedLanguageElementError) as e:
        if warn and not getattr(e, "ag_warned", False):
            e.ag_warned = True
            warnings.warn(f"AutoGraph could not transform {fn!r} and will run it as-is.\nCause: {e}\n"
                          "To silence this warning, decorate the function with "
                          "@tf.autograph.experimental.do_not_convert", AutoGraphWarning, stacklevel=4)
        return None
    verbosity.log(1, "Converted call: %s", fn)
    verbosity.log(2, "Transformed %s:\n\n%s\n", fn, converted.source)
    return transpiler.instantiate(converted, fn, namespace())


class _BoundMethod:
    """A converted method bound to the instance of a method-like object (tf.function's weakly held methods:
    the instance is looked up at every call)."""

    def __init__(self, function, method):
        self._function = function
        self._method = method
        functools.update_wrapper(self, method.__func__)

    def __call__(self, *args, **kwargs):
        instance = self._method.__self__
        if instance is None:
            raise ReferenceError("the object this method belongs to was deleted")
        return self._function(instance, *args, **kwargs)


def _convert_callable(f, warn: bool):
    """The converted callable for `f` (function, lambda, method, partial, callable object), or None."""
    if _marked_do_not_convert(f):
        return None
    if isinstance(f, types.FunctionType):
        return _converted_function(f, warn)
    if isinstance(f, types.MethodType):
        inner = _convert_callable(f.__func__, warn)
        return None if inner is None else types.MethodType(inner, f.__self__)
    if isinstance(f, functools.partial):
        inner = _convert_callable(f.func, warn)
        return None if inner is None else functools.partial(inner, *f.args, **f.keywords)
    if isinstance(getattr(f, "__func__", None), types.FunctionType) and hasattr(f, "__self__"):
        inner = _convert_callable(f.__func__, warn)
        return None if inner is None else _BoundMethod(inner, f)
    if isinstance(f, type) or _is_library(type(f)):
        return None
    call = inspect.getattr_static(type(f), "__call__", None)
    if isinstance(call, types.FunctionType):
        inner = _convert_callable(call, warn)
        return None if inner is None else types.MethodType(inner, f)
    return None


# --- entry points ----------------------------------------------------------------------------------------
def convert_for_function(python_function, options=None):
    """The callable tf.function traces for `python_function` (same signature): its AutoGraph conversion,
    raising errors that start with the user's frames. Functions whose source cannot be read run as they
    are, with a warning; unsupported features (generators) raise. `options`: tf.function's
    experimental_autograph_options (Feature values), in force for every function the conversion calls."""
    features = as_features(options)
    converted = _convert_callable(python_function, warn=True)
    if converted is None:
        return python_function

    @functools.wraps(python_function)
    def traced(*args, **kwargs):
        _tracing.depth = getattr(_tracing, "depth", 0) + 1
        try:
            with features_active(features):
                return converted(*args, **kwargs)
        except RecursionError as e:
            if _tracing.depth > 1:
                raise  # reported once, by the outermost trace, whose traceback holds the whole cycle
            raise endless_recursion_error(e, python_function).with_traceback(e.__traceback__) from None
        except Exception as e:  # noqa: BLE001 - re-raised, with the user's frames in front
            rewritten = with_user_frames(e)
            if rewritten is None:
                raise
            raise rewritten.with_traceback(e.__traceback__) from None
        finally:
            _tracing.depth -= 1

    traced.ag_converted = converted
    return traced


def converted_call(f, args, kwargs):
    """Call `f(*args, **kwargs)` from converted code, converting `f` first when it is user code."""
    if kwargs is None:
        kwargs = {}
    try:
        overload = OVERLOADS.get(f)
    except TypeError:  # unhashable callables (tensors are not callable anyway)
        overload = None
    if overload is not None:
        return overload(*args, **kwargs)
    if f is print and enabled(Feature.BUILTIN_FUNCTIONS):
        return print_(*args, **kwargs)
    converted = _convert_callable(f, warn=True)
    if converted is None:
        return f(*args, **kwargs)
    return converted(*args, **kwargs)


def to_graph(entity, recursive=True, experimental_optional_features=None):
    """The converted version of a function, method or callable object (what tf.function traces)."""
    if isinstance(entity, types.FunctionType) or inspect.ismethod(entity) or callable(entity):
        converted = _convert_callable(_unwrap_function(entity), warn=False)
        if converted is None:
            raise ConversionError(f"AutoGraph cannot convert {entity!r}")
        return converted
    raise TypeError(f"to_graph expects a function, method or callable object, got {entity!r}")


def to_code(entity, recursive=True, experimental_optional_features=None) -> str:
    """The converted source of a function (what AutoGraph generates for it), starting with `def tf__<name>`."""
    target = _unwrap_function(entity)
    if inspect.ismethod(target) or (hasattr(target, "__func__") and hasattr(target, "__self__")):
        target = target.__func__
    if isinstance(target, functools.partial):
        target = target.func
    if not isinstance(target, types.FunctionType):
        call = inspect.getattr_static(type(target), "__call__", None)
        if not isinstance(call, types.FunctionType):
            raise TypeError(f"to_code expects a function, method or callable object, got {entity!r}")
        target = call
    try:
        return transpiler.convert(target).source
    except SourceUnavailableError as e:  # TF wraps what stops the conversion in its ConversionError
        raise ConversionError(f"converting {entity!r}: {e}") from e


def _unwrap_function(entity):
    """A tf.function's Python function (to_code(f) works on both)."""
    return getattr(entity, "python_function", entity)


def do_not_convert(func=None):
    """Decorator: AutoGraph calls `func` as it is (neither it nor what it calls is converted)."""
    if func is None:
        return do_not_convert

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)

    setattr(wrapper, _DO_NOT_CONVERT, True)
    return wrapper


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None, shape_invariants=None):
    """Options of the loop it is the first statement of (read by AutoGraph when converting; a no-op when
    the code runs unconverted)."""


@functools.lru_cache(maxsize=None)
def namespace():
    """The `ag__` object converted code calls its helpers through."""
    module = types.ModuleType("ag__", "AutoGraph's run-time helpers, as converted code sees them")
    for name, value in {
        "if_stmt": ops_conditionals.if_stmt, "if_exp": ops_conditionals.if_exp,
        "compare_chain": ops_conditionals.compare_chain,
        "and_": ops_conditionals.and_, "or_": ops_conditionals.or_, "not_": ops_conditionals.not_,
        "while_stmt": ops_loops.while_stmt, "for_stmt": ops_loops.for_stmt,
        "assert_stmt": ops_assert.assert_stmt, "converted_call": converted_call,
        "Undefined": undefined.Undefined, "UndefinedReturnValue": undefined.UndefinedReturnValue,
        "retval": undefined.retval, "ldu": undefined.ldu, "ld": undefined.ld,
    }.items():
        setattr(module, name, value)
    return module
