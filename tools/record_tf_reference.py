"""Record TensorFlow's results for the conformance programs in tests/conformance/.

Run with a Python that has TensorFlow (never tinytf):

    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/record_tf_reference.py [MODULE ...] [--only=PROGRAM,...]

For each conformance module (all of them, or the ones named) it writes tests/tf_reference/MODULE.json, which
tests/test_tf_conformance.py compares tinytf against (so the tests never need TensorFlow). A program that
raises, or an expected error whose key phrase is not in TensorFlow's message, stops the recording: the
reference must say what TensorFlow really does.
"""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, os.pardir, "tests")


def missing_phrases(result, path="result"):
    """Paths of recorded errors whose key phrase TensorFlow's message does not contain."""
    if isinstance(result, dict):
        if "error" in result and not result.get("found", True):
            return [f"{path}: {result['error']}: {result['message']!r} lacks {result['phrase']!r}"]
        return [p for key, value in result.items() for p in missing_phrases(value, f"{path}.{key}")]
    if isinstance(result, list):
        return [p for i, value in enumerate(result) for p in missing_phrases(value, f"{path}[{i}]")]
    return []


def record_module(tf, conformance, module, only=frozenset()):
    """Run one module's programs (or those of them named in `only`) under TensorFlow; return (results, problems)."""
    results, problems = {}, []
    for name in conformance.PROGRAMS:
        if conformance.MODULE_OF[name] != module or (only and name not in only):
            continue
        try:
            result = conformance.run(tf, name)
            json.dumps(result)
        except Exception as e:  # noqa: BLE001 - report every failing program at once
            problems.append(f"{name}: raised {type(e).__name__}: {e}")
            continue
        results[name] = result
        problems += [f"{name}: {p}" for p in missing_phrases(result)]
    return results, problems


def main(argv):
    sys.path.insert(0, TESTS)
    import conformance
    import tensorflow as tf

    conformance.load_all()
    # --only=NAME[,NAME]: re-record these programs into their modules' files and keep the others' results (for a
    # module one of whose programs this TF build cannot run, e.g. an op another CPU's build has)
    only = {n for a in argv if a.startswith("--only=") for n in a[len("--only="):].split(",") if n}
    argv = [a for a in argv if not a.startswith("--only=")]
    modules = argv or sorted({conformance.MODULE_OF[n] for n in only} or set(conformance.MODULE_OF.values()))
    for module in modules:
        output = os.path.join(TESTS, "tf_reference", f"{module}.json")
        results, problems = record_module(tf, conformance, module, only)
        if problems:
            raise SystemExit(f"programs of {module} that failed under TensorFlow:\n" + "\n".join(problems))
        if only:
            with open(output) as f:
                kept = json.load(f)["programs"]
            results = {name: results.get(name, kept.get(name)) for name in conformance.PROGRAMS
                       if conformance.MODULE_OF[name] == module and (name in results or name in kept)}
        with open(output, "w") as f:
            json.dump({"tensorflow": tf.__version__, "programs": results}, f, indent=1, sort_keys=False)
            f.write("\n")
        print(f"recorded {len(results)} programs of {module} under TensorFlow {tf.__version__} -> {output}")


if __name__ == "__main__":
    main(sys.argv[1:])
