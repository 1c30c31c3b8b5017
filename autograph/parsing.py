"""Reading a function's source and parsing it with gast, line numbers set to the lines of the user's file."""

from __future__ import annotations

import inspect
import linecache

import gast


class SourceUnavailableError(Exception):
    """The function's source cannot be read (defined in a REPL, by exec, or a builtin)."""


def _source_lines(fn):
    try:
        lines, start = inspect.getsourcelines(fn.__code__)  # the code object: no unwrapping of decorators
    except (OSError, TypeError) as e:
        raise SourceUnavailableError(f"could not get source code ({e})") from None
    if not lines:
        raise SourceUnavailableError("could not get source code (empty source)")
    return lines, max(start, 1)


def _shift_lines(tree, offset):
    for node in gast.walk(tree):
        if getattr(node, "lineno", None) is not None:
            node.lineno += offset
        if getattr(node, "end_lineno", None) is not None:
            node.end_lineno += offset


def parse_function(fn):
    """(gast node of the function or lambda, filename). Lambdas: the one lambda on the source lines whose
    arguments match; several candidates make the source ambiguous."""
    lines, start = _source_lines(fn)
    filename = fn.__code__.co_filename
    code = fn.__code__
    if fn.__name__ == "<lambda>":
        return _find_lambda(_lambda_parses(lines, start), code), filename
    module, indented = _parse_block(lines)
    if module is None:
        raise SourceUnavailableError("could not parse the source code")
    _shift_lines(module, start - 2 if indented else start - 1)
    for node in gast.walk(module):
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)) and node.name == code.co_name:
            return node, filename
    raise SourceUnavailableError(f"could not find the definition of {code.co_name} in its source")


def _parse_block(text_or_lines):
    """(module or None, indented). An indented block goes under `if 1:`, which keeps its own indentation
    (methods, nested functions) whatever that of its continuation lines and strings, and shifts every line
    by exactly one; columns stay the file's."""
    text = "".join(text_or_lines)
    indented = text[:1].isspace()
    try:
        return gast.parse(("if 1:\n" if indented else "") + text), indented
    except SyntaxError:
        return None, indented


def _lambda_parses(lines, start) -> list:
    """Modules holding the lambdas that start on the first of `lines`, line numbers and columns the file's.
    A lambda inside a larger expression (`ds.map(\n lambda d: f(d)).flat_map(lambda d: g(d))`) does not parse
    with its lines alone: each `lambda` of the first line is parsed from where it starts (the text before it
    blanked, so columns stay), its trailing text trimmed until it parses."""
    text = "".join(lines).rstrip()
    module, indented = _parse_block(text)
    candidates = [(module, indented)] if module is not None else []
    first_line = text.split("\n", 1)[0]
    at = first_line.find("lambda")
    while at >= 0:
        pad = len(text[:at].encode("utf-8"))  # gast's columns count UTF-8 bytes, as the code's positions do
        blanked = " " * pad + text[at:]
        for end in range(len(blanked), pad, -1):
            module, indented = _parse_block(blanked[:end])
            if module is not None:
                candidates.append((module, indented))
                break
        at = first_line.find("lambda", at + 1)
    for module, indented in candidates:
        _shift_lines(module, start - 2 if indented else start - 1)
    return [module for module, _ in candidates]


def _find_lambda(modules, code):
    wanted = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = {}
    for module in modules:
        for node in gast.walk(module):
            if isinstance(node, gast.Lambda):
                args = node.args
                names = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
                if names == wanted and node.lineno == code.co_firstlineno:
                    found.setdefault((node.lineno, node.col_offset), node)  # one lambda seen by several parses
    candidates = list(found.values())
    # The code's first instruction lies in its lambda's body: with several lambdas on a line that picks one,
    # and with a single one it checks that the parse found the right one (not a neighbour with the same
    # arguments while the lambda itself did not parse).
    start = next(((line, col) for line, _, col, end in code.co_positions()
                  if line is not None and col is not None and end is not None and end > col), None)
    if start is not None:
        candidates = [c for c in candidates if _spans(c.body, start)]
    if len(candidates) != 1:
        raise SourceUnavailableError(
            "could not identify the lambda in its source: "
            + ("it was not found" if not candidates else "several lambdas on that line have the same arguments"))
    return candidates[0]


def _spans(node, position) -> bool:
    begin = (node.lineno, node.col_offset)
    end = (node.end_lineno, node.end_col_offset)
    return begin <= position <= end


def source_line(filename: str, lineno: int) -> str:
    return linecache.getline(filename, lineno).strip()
