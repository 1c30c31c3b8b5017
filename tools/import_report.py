#!/usr/bin/env python3
"""Which imports run inside functions, and why: an AST walk over runtime/, autograph/ and tinytf/.

Run from the project's root: python tools/import_report.py [--list CLASS] [--circles]

An import inside a function (or a module-level import placed after the code, `# noqa: E402`) is put in one
class:

- circle      the target module, imported at module level, would import the importing module back (through
              the module-level import graph), so moving the import to the top would close an import circle.
              These exist only to dodge a circle; issue 10 wants none.
- optional    an optional or heavy third-party package (ray, h5py, graphviz, scipy, PIL, ...), or a
              module of this project that imports one at its top (ray_worker imports ray) which `import tinytf`
              does not load anyway, deferred so that tinytf does not need it. These stay, with a comment.
- stdlib      a standard-library module (cheap, but deferring it has no reason either).
- required    a required third-party package (numpy, gast, ...), also without reason to be deferred.
- internal    a module of this project whose import at the top would close no circle: deferred for no
              structural reason (or to keep a large subsystem out of `import tinytf`'s cost).

The module graph has an edge A -> B for every module-level import of B in A. `from package import submodule`
points at the submodule, not at the package's __init__: a package's __init__ only gathers its modules, and
Python has run it (runtime/__init__ imports ops/ first) before any module inside it is imported. An import of an
enclosing package (`import tinytf as tf` inside tinytf/) has no edge: that package is being imported already.
`--circles` prints the graph's strongly connected components (the module circles) inside runtime/.
"""
from __future__ import annotations

import argparse
import ast
import pathlib
import sys
from collections import Counter, defaultdict

ROOT = pathlib.Path(__file__).resolve().parent.parent
FOLDERS = {"runtime": "tinytf.runtime", "autograph": "tinytf.autograph", "tinytf": "tinytf"}
# third-party packages tinytf declares as required (pyproject's dependencies) and the ones it only uses when
# present or when a feature asks (optional extras, or heavy parts of a required package)
REQUIRED = {"numpy", "gast", "astunparse", "ml_dtypes", "google_crc32c", "google"}  # google: tensorboard's protobuf
OPTIONAL = {"h5py", "ray", "tensorboard", "graphviz", "scipy", "PIL", "pydot", "psutil", "IPython",
            "matplotlib", "tensorflow", "keras", "pandas", "zstandard", "lz4"}


def module_files() -> dict:
    """Module name -> (path, is_package) for every project module."""
    modules = {}
    for folder, package in FOLDERS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder)
            parts = [package, *rel.parts[:-1]]
            if rel.name != "__init__.py":
                parts.append(rel.stem)
            modules[".".join(parts)] = (path, rel.name == "__init__.py")
    return modules


def absolute(module: str | None, level: int, current: str, is_package: bool) -> str:
    if level == 0:
        return module or ""
    parts = current.split(".")
    if not is_package:
        parts = parts[:-1]
    base = parts[: len(parts) - level + 1]
    return ".".join(base + ([module] if module else []))


def targets(node, current: str, is_package: bool, modules: dict) -> list:
    """The project modules an import statement loads (with their packages), or its top-level foreign name."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = absolute(node.module, node.level, current, is_package)
        names = [base] + [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules]
    out = []
    for name in names:
        if current.startswith(name + "."):
            continue  # an enclosing package: Python runs its __init__ before this module, so no circle
        if name in modules:
            out.append(name)
        elif not name.startswith("tinytf."):
            out.append(name)  # foreign
    if isinstance(node, ast.ImportFrom) and len(out) > 1 and out[0] in modules and not modules[out[0]][1]:
        out = out[:1]
    elif isinstance(node, ast.ImportFrom) and len(out) > 1:
        out = out[1:]  # `from package import submodule`: the submodules, not the package's __init__
    return out


class Walker(ast.NodeVisitor):
    """Collects module-level imports (edges) and deferred ones (in functions, or after the module's code)."""

    def __init__(self):
        self.top: list = []  # import nodes run at import time
        self.deferred: list = []  # (node, "function" | "late")
        self.depth = 0
        self.seen_code = False
        self.type_checking = 0

    def visit_FunctionDef(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_If(self, node):
        guard = isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        self.type_checking += guard
        self.generic_visit(node)
        self.type_checking -= guard

    def _import(self, node):
        if self.type_checking:
            return
        if self.depth:
            self.deferred.append((node, "function"))
        else:
            self.top.append(node)
            if self.seen_code:
                self.deferred.append((node, "late"))

    visit_Import = visit_ImportFrom = _import

    def visit_Module(self, node):
        for stmt in node.body:
            if not isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Expr, ast.If, ast.Try)):
                self.seen_code = True
            self.visit(stmt)


def analyse():
    modules = module_files()
    graph: dict = defaultdict(set)
    foreign.clear()
    deferred = []  # (module, path, node, where, targets)
    for name, (path, is_package) in modules.items():
        walker = Walker()
        walker.visit(ast.parse(path.read_text(), str(path)))
        for node in walker.top:
            found = targets(node, name, is_package, modules)
            graph[name].update(t for t in found if t in modules)
            foreign[name].update(t.split(".")[0] for t in found if t not in modules)
        for node, where in walker.deferred:
            deferred.append((name, path, node, where, targets(node, name, is_package, modules)))
    return modules, graph, deferred


foreign: dict = defaultdict(set)  # module -> the top-level names of the foreign packages it imports at module level


def loaded_by_tinytf(graph: dict) -> set:
    """The foreign packages `import tinytf` loads anyway (deferring those saves nothing)."""
    seen, stack = set(), ["tinytf"]
    while stack:
        m = stack.pop()
        if m not in seen:
            seen.add(m)
            stack.extend(graph.get(m, ()))
    return set().union(*(foreign.get(m, set()) for m in seen))


def needs_optional(graph: dict, start: str) -> bool:
    """Whether importing `start` imports an optional package (through module-level imports)."""
    seen, stack = set(), [start]
    while stack:
        m = stack.pop()
        if m in seen:
            continue
        seen.add(m)
        if foreign.get(m, set()) & OPTIONAL - loaded_by_tinytf(graph):
            return True
        stack.extend(graph.get(m, ()))
    return False


def reaches(graph: dict, start: str, goal: str) -> bool:
    seen, stack = set(), [start]
    while stack:
        m = stack.pop()
        if m == goal:
            return True
        if m not in seen:
            seen.add(m)
            stack.extend(graph.get(m, ()))
    return False


def classify(modules, graph, module: str, found: list, where: str) -> str:
    internal = [t for t in found if t in modules]
    if not found:  # only enclosing packages (`import tinytf as tf` inside tinytf/)
        return "internal"
    if internal:
        if any(reaches(graph, t, module) for t in internal):
            return "circle"
        # a module of this project that needs an optional package (ray_worker imports ray) defers it as well
        return "optional" if any(needs_optional(graph, t) for t in internal) else "internal"
    top = found[0].split(".")[0] if found else ""
    if top in OPTIONAL - loaded_by_tinytf(graph):
        return "optional"
    if top in REQUIRED:
        return "required"
    if top in sys.stdlib_module_names:
        return "stdlib"
    return "optional"


def circles(graph: dict, prefix: str) -> list:
    """Strongly connected components with more than one module, among modules under `prefix` (Tarjan)."""
    nodes = [m for m in graph if m.startswith(prefix)]
    index, low, on, stack, out, counter = {}, {}, set(), [], [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if not w.startswith(prefix):
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--list", metavar="CLASS", help="list the imports of one class (or 'all')")
    parser.add_argument("--circles", action="store_true", help="print the module circles inside runtime/")
    args = parser.parse_args(argv)
    modules, graph, deferred = analyse()
    counts: Counter = Counter()
    rows = []
    for module, path, node, where, found in deferred:
        kind = classify(modules, graph, module, found, where)
        folder = path.relative_to(ROOT).parts[0]
        counts[(folder, kind)] += 1
        rows.append((kind, f"{path.relative_to(ROOT)}:{node.lineno}", ast.unparse(node), where))
    kinds = ["circle", "optional", "internal", "stdlib", "required"]
    print(f"{'deferred imports':<18}" + "".join(f"{k:>10}" for k in kinds) + f"{'total':>10}")
    for folder in FOLDERS:
        line = [counts[(folder, k)] for k in kinds]
        print(f"{folder + '/':<18}" + "".join(f"{n:>10}" for n in line) + f"{sum(line):>10}")
    totals = [sum(counts[(f, k)] for f in FOLDERS) for k in kinds]
    print(f"{'all':<18}" + "".join(f"{n:>10}" for n in totals) + f"{sum(totals):>10}")
    if args.list:
        for kind, where, text, how in sorted(rows):
            if args.list in (kind, "all"):
                print(f"{kind:<9} {where:<48} {text}{'   (module level, after code)' if how == 'late' else ''}")
    runtime_circles = circles(graph, "tinytf.runtime")
    print(f"module circles in runtime/: {len(runtime_circles)}")
    if args.circles:
        for component in runtime_circles:
            print("  " + " <-> ".join(component))
    return 0


if __name__ == "__main__":
    sys.exit(main())
