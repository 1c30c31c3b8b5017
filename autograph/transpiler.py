"""Source to source: a function's source is parsed with gast, run through the converter passes, printed
with astunparse, compiled, and loaded as a function with the original's globals, closure cells and
defaults. The generated source is registered in linecache, with a map from its lines to the user's lines
(runtime.errors.SOURCE_MAPS) so that every error raised from converted code points at the user's code.
Conversions are cached per code object."""

from __future__ import annotations

import ast
import itertools
import linecache
import types
import weakref

import gast

from tinytf.runtime.errors import SOURCE_MAPS

from .convert_assert import AssertConverter
from .convert_break import BreakConverter
from .convert_calls import CallConverter
from .convert_conditional_expressions import ConditionalExpressionConverter
from .convert_continue import ContinueConverter
from .convert_control_flow import ControlFlowConverter
from .convert_delete import DeleteConverter
from .convert_directives import DirectivesConverter
from .convert_logical import LogicalConverter
from .convert_return import ReturnConverter
from .errors import ConversionError, UnsupportedLanguageElementError, conversion_error
from .naming import Namer, names_in
from .parsing import SourceUnavailableError, parse_function
from .printer import to_source

AG_NAME = "ag__"
FACTORY_NAME = "ag__factory"
_file_counter = itertools.count()
# code object -> Converted, or the error its conversion raised. Held weakly: when a user's function (and so its
# code) is gone, its conversion and the generated source registered in linecache go too.
_cache = weakref.WeakKeyDictionary()
generated_files: set = set()  # filenames of generated code: functions defined there are converted already

# The passes, in order. Jumps become flags first, so that the control flow converter sees structured code.
PASSES = [DirectivesConverter, BreakConverter, ContinueConverter, ReturnConverter, AssertConverter,
          LogicalConverter, ConditionalExpressionConverter, DeleteConverter, ControlFlowConverter, CallConverter]


class ConversionContext:
    """What the converters share while converting one function."""

    def __init__(self, node, filename: str, function_name: str, freevars, namespace=None):
        self.filename = filename
        # The names the function reads from outside (its globals and closure cells), to resolve a call's target
        # while converting, as TF does for directives: {} when converting source without a live function.
        self.namespace = namespace or {}
        self.function_name = function_name
        self.freevars = tuple(freevars)
        self.namer = Namer(names_in(node) | {AG_NAME, FACTORY_NAME} | set(freevars))
        self.deleted_names: set = set()  # names a `del` statement made Undefined (reads of them are guarded)

    def source_of(self, node) -> str:
        """Source text of an expression (for messages and option values)."""
        text = to_source(gast.gast_to_ast(node)).strip()
        if text.startswith("(") and text.endswith(")") and _balanced(text[1:-1]):
            text = text[1:-1]
        return text


def _balanced(text: str) -> bool:
    depth = 0
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if depth < 0:
            return False
    return depth == 0


class Converted:
    """The result of converting one code object: the compiled code of the converted function and its source."""

    __slots__ = ("code", "source", "filename")

    def __init__(self, code, source, filename):
        self.code = code
        self.source = source
        self.filename = filename


def convert(fn) -> Converted:
    """The conversion of `fn` (a plain function or lambda), cached per code object."""
    key = fn.__code__
    cached = _cache.get(key)
    if cached is None:
        try:
            cached = _convert(fn)
        except (SourceUnavailableError, ConversionError) as e:
            cached = e
        _cache[key] = cached
        if isinstance(cached, Converted):
            weakref.finalize(key, _forget, cached.filename)
    if isinstance(cached, Exception):
        raise cached
    return cached


def _forget(filename: str) -> None:
    """Drop a dead conversion's generated source (linecache, source map)."""
    linecache.cache.pop(filename, None)
    SOURCE_MAPS.pop(filename, None)
    generated_files.discard(filename)


def _convert(fn) -> Converted:
    node, filename = parse_function(fn)
    name = "lambda" if isinstance(node, gast.Lambda) else fn.__name__
    if isinstance(node, gast.Lambda):
        node = gast.FunctionDef(name=name, args=node.args, body=[gast.Return(value=node.body, lineno=node.lineno)],
                                decorator_list=[], returns=None, type_comment=None, type_params=[],
                                lineno=node.lineno)
    ctx = ConversionContext(node, filename, fn.__name__, fn.__code__.co_freevars, _namespace(fn))
    _check_supported(ctx, node)
    user_functions = {(n.lineno, n.name) for n in gast.walk(node) if isinstance(n, gast.FunctionDef)}
    node.decorator_list = []
    for converter in PASSES:
        if converter is ControlFlowConverter:
            converter(ctx).convert_function(node)
        else:
            node = converter(ctx).visit(node)
    node.name = ctx.namer.new(f"tf__{name}")
    return _load(ctx, node, user_functions)


def _namespace(fn) -> dict:
    """fn's globals overlaid with the values of its closure cells (an empty cell is left out)."""
    namespace = dict(getattr(fn, "__globals__", {}))
    for name, cell in zip(fn.__code__.co_freevars, getattr(fn, "__closure__", None) or ()):
        try:
            namespace[name] = cell.cell_contents
        except ValueError:
            namespace.pop(name, None)
    return namespace


def _check_supported(ctx, node):
    if isinstance(node, gast.AsyncFunctionDef):
        raise conversion_error(ctx, node, "AutoGraph does not support async functions")
    stack = list(node.body)
    while stack:
        child = stack.pop()
        if isinstance(child, (gast.For, gast.While)) and child.orelse:
            kind = "for" if isinstance(child, gast.For) else "while"
            raise conversion_error(ctx, child, f"{kind}/else statement not yet supported",
                                   kind=UnsupportedLanguageElementError)
        if isinstance(child, (gast.Yield, gast.YieldFrom)):
            raise conversion_error(ctx, child, f"AutoGraph does not support generators: {ctx.function_name} "
                                   "uses `yield`. Return a tensor (or a list of tensors) instead, or decorate "
                                   "the function with @tf.autograph.experimental.do_not_convert",
                                   kind=UnsupportedLanguageElementError)
        if not isinstance(child, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)):
            stack.extend(gast.iter_child_nodes(child))


def _load(ctx, node, user_functions) -> Converted:
    function = gast.gast_to_ast(node)
    factory = ast.FunctionDef(
        name=FACTORY_NAME,
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=a) for a in (AG_NAME, *ctx.freevars)], vararg=None,
                           kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]),
        body=[function, ast.Return(value=ast.Name(id=node.name, ctx=ast.Load()))], decorator_list=[], returns=None)
    module_source = to_source(ast.Module(body=[factory], type_ignores=[])).lstrip("\n")
    parsed = ast.parse(module_source)
    filename = f"<autograph {ctx.function_name} #{next(_file_counter)}>"
    line_map = {1: (ctx.filename, node.lineno, ctx.function_name)}
    _map_lines(function, parsed.body[0].body[0], node.lineno, ctx, user_functions, ctx.function_name, line_map)
    code = compile(parsed, filename, "exec")
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    function_code = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and
                         c.co_name == node.name)
    linecache.cache[filename] = (len(module_source), None, module_source.splitlines(True), filename)
    SOURCE_MAPS[filename] = line_map
    generated_files.add(filename)
    lines = module_source.splitlines()
    body = lines[parsed.body[0].body[0].lineno - 1:parsed.body[0].body[-1].lineno - 1]
    source = "\n".join(line[4:] for line in body).strip("\n") + "\n"
    return Converted(function_code, source, filename)


def _map_lines(original, generated, origin, ctx, user_functions, function_name, out):
    """Walk the converted AST (lines of the user's file) and its re-parsed print (lines of the generated
    file) side by side: each generated line maps to the user's line of the statement it comes from."""
    line = getattr(original, "lineno", None) or origin
    if isinstance(original, ast.FunctionDef) and (original.lineno, original.name) in user_functions:
        function_name = original.name
    generated_line = getattr(generated, "lineno", None)
    if generated_line is not None and (isinstance(generated, ast.stmt) or generated_line not in out):
        out[generated_line] = (ctx.filename, line, function_name)
    for a, b in zip(ast.iter_child_nodes(original), ast.iter_child_nodes(generated)):
        if type(a) is not type(b):
            return
        _map_lines(a, b, line, ctx, user_functions, function_name, out)


def instantiate(converted: Converted, fn, ag_namespace):
    """The converted function as a live function: `fn`'s globals, closure cells and defaults."""
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    ag_cell = types.CellType(ag_namespace)
    closure = tuple(ag_cell if name == AG_NAME else cells[name] for name in converted.code.co_freevars)
    new = types.FunctionType(converted.code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
    new.__kwdefaults__ = dict(fn.__kwdefaults__) if fn.__kwdefaults__ else None
    new.__dict__.update(fn.__dict__)
    new.__doc__ = fn.__doc__
    new.__module__ = fn.__module__
    new.__qualname__ = fn.__qualname__
    new.__annotations__ = dict(getattr(fn, "__annotations__", {}))
    new.ag_source = converted.source
    return new
