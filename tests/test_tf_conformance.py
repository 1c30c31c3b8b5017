"""Conformance with TensorFlow 2.21: every program of tests/conformance/, run under tinytf, must give what
TensorFlow gave when tools/record_tf_reference.py recorded tests/tf_reference/<module>.json (numbers within
float32 tolerance, texts and dtypes exactly, the same exception class and key phrase). TensorFlow itself is
not needed here."""

import json
import math
import os
import sys

import pytest

import tinytf as tf

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import conformance  # noqa: E402

PROGRAMS = conformance.load_all()


def _load_reference() -> dict:
    """Every recorded result, from one file per conformance module."""
    reference = {}
    for module in sorted(set(conformance.MODULE_OF.values())):
        path = os.path.join(HERE, "tf_reference", f"{module}.json")
        if os.path.exists(path):
            with open(path) as f:
                reference.update(json.load(f)["programs"])
    return reference


REFERENCE = _load_reference()

RTOL, ATOL = 2e-5, 1e-6  # float32 rounding, with room for a different summation order


def mismatches(expected, actual, path="result"):
    """Every place where `actual` differs from `expected`, as readable lines."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected a dict {expected}, got {actual!r}"]
        if ("error" in expected) != ("error" in actual):
            return [f"{path}: expected {_short(expected)}, got {_short(actual)}"]
        if "error" in expected:
            # The same exception, or a subclass of it (what a TF program's `except` clause catches); "message"
            # is for people reading the reference only.
            out = [] if expected["error"] in actual["bases"] else [
                f"{path}: expected {expected['error']}, got {actual['error']} ({actual['message']!r})"]
            return out + mismatches([expected["phrase"], expected["found"]], [actual["phrase"], actual["found"]],
                                    f"{path}.phrase")
        keys = sorted(set(expected) | set(actual))
        out = []
        for key in keys:
            if key not in expected or key not in actual:
                out.append(f"{path}: key {key!r} only in {'actual' if key in actual else 'expected'} "
                           f"(expected {expected!r}, got {actual!r})")
            else:
                out += mismatches(expected[key], actual[key], f"{path}.{key}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {expected!r}, got {actual!r}"]
        return [m for i, (e, a) in enumerate(zip(expected, actual)) for m in mismatches(e, a, f"{path}[{i}]")]
    if isinstance(expected, float):
        if not isinstance(actual, float):
            return [f"{path}: expected float {expected!r}, got {actual!r}"]
        if math.isnan(expected) and math.isnan(actual):
            return []
        if math.isinf(expected) or math.isinf(actual):
            return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]
        ok = abs(actual - expected) <= ATOL + RTOL * abs(expected)
        return [] if ok else [f"{path}: expected {expected!r}, got {actual!r}"]
    if type(expected) is not type(actual) or expected != actual:  # ints, bools, texts, None: exactly
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def _short(result):
    if "error" in result:
        return f"{result['error']} ({result['message'][:120]!r})"
    return repr(result)[:200]


def run_program(name):
    """The program's result under tinytf, through JSON like the reference (tuples become lists)."""
    return json.loads(json.dumps(conformance.run(tf, name)))


def test_every_program_is_recorded():
    assert sorted(PROGRAMS) == sorted(REFERENCE), "re-run tools/record_tf_reference.py MODULE"
    assert set(conformance.KNOWN_DIFFERENCES) <= set(PROGRAMS)


@pytest.mark.parametrize("name", [
    pytest.param(name, marks=pytest.mark.xfail(reason=conformance.KNOWN_DIFFERENCES[name], strict=True))
    if name in conformance.KNOWN_DIFFERENCES else name
    for name in PROGRAMS])
def test_program_matches_tensorflow(name):
    problems = mismatches(REFERENCE[name], run_program(name))
    assert not problems, f"{name} differs from TensorFlow 2.21:\n" + "\n".join(problems[:20])


def test_comparison_catches_differences():
    assert mismatches([1, 2.0, "a"], [1, 2.00001, "a"]) == []
    assert mismatches([1], [1.0])  # an int where TensorFlow gives a float is a dtype difference
    assert mismatches([True], [1])
    assert mismatches(["int32", [2], [1, 2]], ["int64", [2], [1, 2]])
    assert mismatches([0.5], [0.51])
    type_error = {"error": "TypeError", "phrase": "x", "found": True, "message": "m"}
    assert mismatches(type_error, {"error": "ValueError", "phrase": "x", "found": True, "message": "m",
                                   "bases": ["ValueError", "Exception"]})
    assert mismatches(type_error, {"error": "OperatorNotAllowedInGraphError", "phrase": "x", "found": True,
                                   "message": "m", "bases": ["OperatorNotAllowedInGraphError", "TypeError"]}) == []
    assert mismatches(type_error, {"error": "TypeError", "phrase": "x", "found": False, "message": "m",
                                   "bases": ["TypeError"]})
    assert mismatches(type_error, {"value": 1})
    assert mismatches([float("nan")], [float("nan")]) == []
    assert mismatches([float("inf")], [1e30])
