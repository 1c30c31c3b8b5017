"""`tinytf inspect FILE:FUNC` and `tinytf bench FILE:FUNC`: one user function through every view (AutoGraph's
converted source, the graph as traced, what each optimizer pass changed, the generated code, the time each
stage took, eager vs graph timing, and pictures), or just its timings.

Bad input (a missing file or function, arguments that do not evaluate, a function that does not trace)
prints one clear line (and, for a trace failure, the user's traceback) and exits with status 2."""

from __future__ import annotations

import argparse
import difflib
import html
import importlib.util
import inspect
import os
import shutil
import sys
import textwrap
import time
import traceback

import numpy as np

import tinytf as tf
from tinytf import config
from tinytf.runtime.clone import clone_graph
from tinytf.runtime.codegen import compile_graph
from tinytf.runtime.optimize import PIPELINE


class UsageError(Exception):
    """A problem with what the user asked for: one line, exit status 2."""


def load_function(target: str):
    """FILE:FUNC (FUNC may be dotted, e.g. Model.call) -> (the Python function, its file)."""
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name:
        raise UsageError(f"expected FILE:FUNCTION, got {target!r}")
    if not os.path.exists(path):
        raise UsageError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(path))[0], path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - the user's module failed to import: say so in one line
        raise UsageError(f"importing {path} failed: {type(e).__name__}: {e}") from e
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            raise UsageError(f"{path} has no function {name!r}")
        obj = getattr(obj, part)
    if isinstance(obj, tf.Function):
        obj = obj.python_function
    if not callable(obj):
        raise UsageError(f"{name!r} in {path} is not a function")
    return obj, path


def evaluate(expression: str, what: str):
    """Python expressions with tinytf imported as tf and numpy as np; a tuple of values."""
    if not expression:
        return ()
    try:
        value = eval(f"({expression},)", {"tf": tf, "np": np})  # noqa: S307 - the user's own command line
    except Exception as e:  # noqa: BLE001 - reported as a usage error
        raise UsageError(f"{what} {expression!r} did not evaluate: {type(e).__name__}: {e}") from e
    return value


def _trace(fn, args, signature, passes):
    saved = config.optimizer_snapshot()
    tf.config.optimizer.set_experimental_options(passes)
    try:
        function = tf.function(fn)
        start = time.perf_counter()
        concrete = function.get_concrete_function(*(signature or args))
        return function, concrete, time.perf_counter() - start
    finally:
        config.restore_optimizer_snapshot(saved)


def _pass_options(names):
    if names is None:
        return {"disable_all": False}
    chosen = {n.strip() for n in names.split(",") if n.strip()}
    unknown = chosen - {name for name, _ in PIPELINE}
    if unknown:
        raise UsageError(f"unknown pass(es) {sorted(unknown)}; passes: {', '.join(n for n, _ in PIPELINE)}")
    return {"disable_all": False, **{name: name in chosen for name, _ in PIPELINE}}


def blas_line() -> str:
    """numpy's BLAS, its thread settings and the machine's load, reported with every timing."""
    try:
        blas = np.__config__.CONFIG["Build Dependencies"]["blas"]
        name = f"{blas.get('name')} {blas.get('version', '')}".strip()
    except (AttributeError, KeyError, TypeError):
        name = "unknown BLAS"
    threads = {k: os.environ[k] for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
               if k in os.environ}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"numpy {np.__version__}, BLAS {name}, threads {threads or 'default'} on {os.cpu_count()} cores, "
            f"load {load:.2f}")


def timings(fn, args, passes) -> dict:
    from tinytf.bench.timing import time_variants

    graph, _, _ = _trace(fn, args, None, passes)
    plain, _, _ = _trace(fn, args, None, {"disable_all": True})
    seconds = time_variants({"eager": lambda: fn(*args), "graph": lambda: graph(*args),
                             "graph_no_passes": lambda: plain(*args)}, rounds=5)
    return {name: s * 1e6 for name, s in seconds.items()}


def collect(fn, args, signature, passes) -> dict:
    """Every view of `fn` traced on `args` (or `signature`): a dict of texts and figures."""
    views = {}
    try:
        views["source"] = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):  # defined in a REPL or by exec: no source file to show
        views["source"] = "(source not available)"
    start = time.perf_counter()
    views["converted"] = tf.autograph.to_code(fn)
    views["convert_ms"] = (time.perf_counter() - start) * 1e3
    _, unoptimized, trace_s = _trace(fn, args, signature, {"disable_all": True})
    views["trace_ms"] = trace_s * 1e3
    graph = unoptimized.graph
    views["ir"] = str(graph)
    steps = []
    current = clone_graph(graph)
    for name, run in PIPELINE:
        if not passes.get(name, True):
            continue
        before = str(current)
        start = time.perf_counter()
        current = run(current)
        elapsed = (time.perf_counter() - start) * 1e3
        after = str(current)
        diff = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), "before", "after", n=1))
        steps.append((name, elapsed, diff))
    views["passes"] = steps
    start = time.perf_counter()
    compiled = compile_graph(current, unoptimized.name)
    views["compile_ms"] = (time.perf_counter() - start) * 1e3
    views["code"] = compiled.source
    views["graph"] = current
    return views


def print_views(views, out=None):
    out = out or sys.stdout  # looked up now: the caller may have redirected it
    def section(title):
        out.write(f"\n=== {title} " + "=" * max(0, 72 - len(title)) + "\n")

    section(f"AutoGraph's converted source ({views['convert_ms']:.1f} ms)")
    out.write(views["converted"].rstrip() + "\n")
    section(f"graph as traced ({views['trace_ms']:.1f} ms)")
    out.write(views["ir"] + "\n")
    for name, ms, diff in views["passes"]:
        section(f"pass {name} ({ms:.2f} ms)")
        out.write(diff if diff else "(no change)\n")
    section(f"generated code ({views['compile_ms']:.1f} ms to compile)")
    out.write(views["code"].rstrip() + "\n")
    if "timing" in views:
        t = views["timing"]
        section("timing (one run; min over rounds of the mean per call)")
        out.write(f"eager {t['eager']:.1f} us, graph {t['graph']:.1f} us, graph without passes "
                  f"{t['graph_no_passes']:.1f} us: graph is {t['eager'] / t['graph']:.2f}x faster than eager\n")
        out.write(blas_line() + "\n")


def write_html(views, path, title):
    svg = ""
    if shutil.which("dot"):
        tmp = path + ".tmp.svg"
        views["graph"].to_svg(tmp)
        with open(tmp) as f:
            svg = f.read()
        os.remove(tmp)
    else:
        svg = "<p>(install Graphviz's dot for the picture)</p>"

    def pre(text):
        return f"<pre>{html.escape(text)}</pre>"

    passes = "".join(f"<h3>{html.escape(name)} ({ms:.2f} ms)</h3>{pre(diff or '(no change)')}"
                     for name, ms, diff in views["passes"])
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>body{{font-family:sans-serif;margin:1em}} .grid{{display:grid;grid-template-columns:1fr 1fr;gap:1em}}
pre{{background:#f6f8fa;padding:.5em;overflow:auto;font-size:12px}} svg{{max-width:100%;height:auto}}</style>
</head><body><h1>{html.escape(title)}</h1><div class="grid">
<div><h2>Source</h2>{pre(views['source'])}</div>
<div><h2>Converted source</h2>{pre(views['converted'])}</div>
<div><h2>Graph as traced</h2>{pre(views['ir'])}</div>
<div><h2>Passes</h2>{passes}</div>
<div><h2>Generated code</h2>{pre(views['code'])}</div>
</div><h2>Optimized graph</h2>{svg}</body></html>"""
    with open(path, "w") as f:
        f.write(page)


def _parser(command):
    parser = argparse.ArgumentParser(prog=f"tinytf {command}", description=__doc__.split("\n\n")[0])
    parser.add_argument("target", metavar="FILE:FUNC", help="the Python file and the function in it")
    parser.add_argument("--args", default="", help='arguments, as Python expressions with tf and np imported, '
                                                   'e.g. "tf.ones([64, 784]), 3"')
    parser.add_argument("--signature", default="", help='tf.TensorSpec(...)s to trace with instead of --args')
    parser.add_argument("--passes", default=None, help="comma-separated passes to run (default: all)")
    if command == "inspect":
        parser.add_argument("--dot", help="write the optimized graph as Graphviz DOT text to this file")
        parser.add_argument("--svg", help="write the optimized graph as SVG (needs Graphviz's dot)")
        parser.add_argument("--png", help="write the optimized graph as PNG (needs Graphviz's dot)")
        parser.add_argument("--html", help="write one self-contained page with every view")
        parser.add_argument("--no-timing", action="store_true", help="skip the eager vs graph timing")
    return parser


def main(command: str, argv) -> int:
    args = _parser(command).parse_args(argv)
    try:
        fn, path = load_function(args.target)
        call_args = evaluate(args.args, "--args")
        signature = evaluate(args.signature, "--signature")
        passes = _pass_options(args.passes)
        if command == "bench":
            if not call_args:
                raise UsageError("tinytf bench needs --args to call the function with")
            t = timings(fn, call_args, passes)
            print(f"{args.target}: eager {t['eager']:.1f} us, graph {t['graph']:.1f} us, graph without passes "
                  f"{t['graph_no_passes']:.1f} us; eager/graph {t['eager'] / t['graph']:.2f}x")
            print(blas_line())
            return 0
        try:
            views = collect(fn, call_args, signature, passes)
        except UsageError:
            raise
        except Exception as e:  # noqa: BLE001 - the user's function failed to trace: their traceback, then one line
            traceback.print_exc()
            raise UsageError(f"{args.target} failed to trace: {type(e).__name__}: {e}") from e
        if call_args and not args.no_timing:
            views["timing"] = timings(fn, call_args, passes)
        print_views(views)
        graph = views["graph"]
        if args.dot:
            with open(args.dot, "w") as f:
                f.write(graph.to_dot())
        if args.svg:
            graph.to_svg(args.svg)
        if args.png:
            graph.to_png(args.png)
        if args.html:
            write_html(views, args.html, args.target)
        return 0
    except UsageError as e:
        print(f"tinytf {command}: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:  # e.g. Graphviz missing for --svg
        print(f"tinytf {command}: {e}", file=sys.stderr)
        return 2
