"""Run every `>>>` example of TensorFlow's public API docstrings under TensorFlow, then under tinytf, and list
the docstrings whose outputs differ: TF's own examples as a judge of tinytf.

    # 1. with a Python that has TensorFlow: collect the examples and record what TF prints (~10 min)
    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/docstring_sweep.py record OUT_DIR
    # 2. with tinytf's Python: run the same examples (~1 min)
    PYTHONPATH=. python tools/docstring_sweep.py run OUT_DIR
    # 3. the docstrings that differ, each with its first differing example
    python tools/docstring_sweep.py compare OUT_DIR [REGEX]

Each docstring's examples run in order in a fresh namespace holding `tf` and `np`, in a scratch folder of
OUT_DIR; an example's result is what it prints (an expression's repr, as the interactive prompt shows it) or
`EXC <class name>`. Addresses in reprs are masked and whitespace is normalized before comparing. Differences
in the last digit of float32 results, unseeded random draws, and namespaces tinytf leaves out (dtensor, TPU,
raw_ops) are expected: read the list, do not count it.
"""

from __future__ import annotations

import contextlib
import doctest
import inspect
import io
import json
import os
import re
import signal
import sys
import types

SKIPPED_PREFIXES = ("tf.dtensor", "tf.raw_ops", "tf.tpu", "tf.xla", "tf.lite", "tf.sysconfig", "tf.compat")
TIMEOUT_SECONDS = 10


class _Timeout(Exception):
    pass


def _alarm(*_):
    raise _Timeout()


def run_examples(tf, examples: list) -> list:
    """What each example prints, in order, in one namespace (a timeout ends the docstring)."""
    import numpy as np

    namespace = {"tf": tf, "np": np, "__name__": "__doc__"}
    outputs = []
    signal.signal(signal.SIGALRM, _alarm)
    for source in examples:
        printed = io.StringIO()
        try:
            signal.alarm(TIMEOUT_SECONDS)
            with contextlib.redirect_stdout(printed):
                try:
                    code = compile(source, "<doc>", "single")
                except SyntaxError:
                    code = compile(source, "<doc>", "exec")
                exec(code, namespace)  # noqa: S102 - running TF's documented examples is the point
            signal.alarm(0)
            outputs.append(printed.getvalue())
        except _Timeout:
            outputs.append(printed.getvalue() + "TIMEOUT")
            break
        except BaseException as e:  # noqa: BLE001 - an example's exception is its result
            signal.alarm(0)
            outputs.append(printed.getvalue() + "EXC " + type(e).__name__)
    return outputs


def collect(tf) -> dict:
    """{qualified name: [example source, ...]} for every public function, class and method with examples."""
    parser, seen, found = doctest.DocTestParser(), set(), {}

    def visit(module, path, depth):
        if depth > 4:
            return
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            try:
                obj = getattr(module, name)
            except Exception:  # noqa: BLE001 - lazy modules may fail to load; skip them
                continue
            qualified = f"{path}.{name}"
            if isinstance(obj, types.ModuleType):
                if obj.__name__.startswith(("tensorflow", "keras")) and not qualified.startswith(SKIPPED_PREFIXES):
                    visit(obj, qualified, depth + 1)
                continue
            targets = [(qualified, obj)]
            if inspect.isclass(obj):
                targets += [(f"{qualified}.{m}", v) for m, v in vars(obj).items()
                            if not m.startswith("_") or m == "__init__"]
            for key, target in targets:
                doc = getattr(target, "__doc__", None)
                if not isinstance(doc, str) or ">>>" not in doc or id(doc) in seen:
                    continue
                seen.add(id(doc))
                try:
                    examples = [e.source for e in parser.get_examples(doc)]
                except ValueError:
                    continue
                if examples:
                    found[key] = examples

    visit(tf, "tf", 0)
    return found


def _normalized(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"0x[0-9a-f]+", "0x?", text)).strip()


def compare(out_dir: str, pattern: str | None = None) -> None:
    with open(os.path.join(out_dir, "tf.json")) as f:
        reference = json.load(f)
    with open(os.path.join(out_dir, "tinytf.json")) as f:
        ours = json.load(f)
    differing = 0
    for key, record in sorted(reference.items()):
        if key.startswith(SKIPPED_PREFIXES) or (pattern and not re.search(pattern, key)):
            continue
        mine = ours.get(key, [])
        equal = [i < len(mine) and _normalized(a) == _normalized(mine[i]) for i, a in enumerate(record["out"])]
        if all(equal):
            continue
        differing += 1
        first = equal.index(False)
        print(f"===== {key}: {sum(equal)}/{len(equal)} examples equal")
        print("example:", record["src"][first].strip()[:400])
        print("TF     :", record["out"][first].strip()[:400])
        print("tinytf :", (mine[first] if first < len(mine) else "<not run>").strip()[:400])
    print(f"{differing} of {len(reference)} docstrings differ")


def main(argv: list) -> None:
    if len(argv) < 2 or argv[0] not in ("record", "run", "compare"):
        raise SystemExit(__doc__)
    command, out_dir = argv[0], os.path.abspath(argv[1])
    if command == "compare":
        compare(out_dir, argv[2] if len(argv) > 2 else None)
        return
    scratch = os.path.join(out_dir, "scratch_" + command)
    os.makedirs(scratch, exist_ok=True)
    if command == "record":
        import tensorflow as tf

        examples = collect(tf)
        os.chdir(scratch)
        results = {key: {"src": src, "out": run_examples(tf, src)} for key, src in sorted(examples.items())}
        name = "tf.json"
    else:
        import tinytf as tf

        with open(os.path.join(out_dir, "tf.json")) as f:
            reference = json.load(f)
        os.chdir(scratch)
        results = {}
        for key, record in sorted(reference.items()):
            tf.keras.backend.clear_session()
            results[key] = run_examples(tf, record["src"])
        name = "tinytf.json"
    with open(os.path.join(out_dir, name), "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main(sys.argv[1:])
