"""Entry points of compiled graphs: Python functions generated for one trace, next to the code generator
whose body they inline (codegen.build_entry). An entry binds the graph's arguments and captures, runs the
body in the same frame, and wraps the results, so a call costs one Python frame.

- `call_entry`: the entry of a ConcreteFunction. Captured eager tensors are constants of the code; captured
  variables are held weakly and resolved at each call (a deleted one raises through `_dead`).
- `guard_prologue`: the checks that make an entry safe to install as a Function's own __call__ (each
  argument's type, dtype and shape against the trace's); any other call falls back to the general path.
"""

from __future__ import annotations

from .codegen import CompiledGraph, build_entry
from .tensor import EagerTensor, Tensor


def call_entry(compiled: CompiledGraph, name: str, params, prologue, extra: dict, *, n_args: int, captures,
               out_dtypes, pack, dead, error, label: str, structure=None):
    """`name(params)`: `prologue` binds the graph's first `n_args` parameters; `captures` gives, per captured
    input, ("value", v) or ("ref", weakref); `out_dtypes` the output dtypes (one output is returned as an
    EagerTensor, several as the literal of `structure` (a template: None where an output goes) when it is
    made of tuples, lists and dicts, else through `pack`); `dead(i)` raises for a deleted variable;
    `error(exc)` re-raises exceptions of the body."""
    namespace = {"_new": object.__new__, "_ET": EagerTensor, "_pack": pack, "_dead": dead, "_error": error}
    namespace.update(extra)
    lines = list(prologue)
    for i, (kind, value) in enumerate(captures):
        param = compiled.params[n_args + i]
        if kind == "ref":
            namespace[f"_ref{i}"] = value
            lines += [f"{param} = _ref{i}()", f"if {param} is None:", f"    _dead({i})"]
        else:
            namespace[param] = value  # captured eager tensors are constants of the code
    literal = None if structure is None else structure_literal(structure, compiled.outputs, namespace)
    if pack is None:
        namespace["_d0"] = out_dtypes[0]
        epilogue = ["_t = _new(_ET)", f"_t._value = {compiled.outputs[0]}", "_t.dtype = _d0", "return _t"]
        if out_dtypes[0].is_string:  # the constructor keeps a string scalar a 0-d array
            epilogue = [f"return _ET({compiled.outputs[0]}, _d0)"]
    elif literal is not None:
        namespace.update({f"_od{i}": dtype for i, dtype in enumerate(out_dtypes)})
        epilogue = [f"return {literal}"]
    else:
        epilogue = [f"return _pack(({''.join(o + ', ' for o in compiled.outputs)}))"]
    return build_entry(compiled, name, params, lines, epilogue, namespace, label)


def structure_literal(structure, outputs, namespace):
    """A Python expression that builds `structure` (a function's structured result) from the graph's output
    names `outputs`: each tensor of `structure`, in nest.flatten's order, becomes the next output wrapped as
    an EagerTensor of dtype `_od{i}`. It builds what nest.pack_sequence_as would, without the walk. Other
    leaves are constants of the code. None for structures it does not write (composites, namedtuples, dict
    subclasses, unsortable dict keys)."""
    counter = iter(range(len(outputs)))
    constants = iter(range(1 << 30))

    def constant(value):
        name = f"_oc{next(constants)}"
        namespace[name] = value
        return name

    def literal(node):
        kind = type(node)
        if isinstance(node, Tensor):
            i = next(counter, None)
            return None if i is None else f"_ET({outputs[i]}, _od{i})"
        if kind is tuple or kind is list:
            items = [literal(child) for child in node]
            if any(item is None for item in items):
                return None
            return f"({''.join(i + ', ' for i in items)})" if kind is tuple else f"[{', '.join(items)}]"
        if kind is dict:
            try:
                order = sorted(node)  # leaves are numbered in sorted-key order; the dict keeps its own order
            except TypeError:
                return None
            items = {key: literal(node[key]) for key in order}
            if any(item is None for item in items.values()):
                return None
            return "{" + ", ".join(f"{constant(key)}: {items[key]}" for key in node) + "}"
        if isinstance(node, (list, tuple, dict)) or hasattr(kind, "_to_components") or hasattr(kind, "_type_spec"):
            return None
        return constant(node)

    text = literal(structure)
    return text if text is not None and next(counter, None) is None else None


def guard_prologue(names, args, params, fallback: str, extra: dict) -> list:
    """Prologue lines of an entry taking the parameters `names`: hold them (for the fallback), check each is
    an EagerTensor of the dtype and shape of `args` (the traced call's), bind the graph's `params`, and count
    the call in extra["_count"]. Fills `extra` with the expected dtypes and shapes."""
    held = [f"_a{i}" for i in range(len(names))]
    checks = []
    for i, (a, name) in enumerate(zip(args, names)):
        extra[f"_k{i}d"], extra[f"_k{i}s"] = a.dtype, a._value.shape
        checks.append(f"type({name}) is not _ET or {name}.dtype is not _k{i}d")
    hold = f"{held[0]} = {names[0]}" if len(names) == 1 else f"{', '.join(held)}, = {', '.join(names)},"
    lines = [hold, f"if {' or '.join(checks)}:", fallback]
    lines += [f"{param} = _a{i}._value" for i, param in enumerate(params)]
    lines += [f"if {' or '.join(f'{p}.shape != _k{i}s' for i, p in enumerate(params))}:", fallback,
              "_count[0] += 1"]
    return lines
