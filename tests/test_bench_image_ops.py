"""benchmarks/image_ops.py runs every case on small inputs without TensorFlow (its figures are not checked:
wall-clock assertions have no place in tests) and reports each case's best and median time."""

from benchmarks import image_ops


def test_every_case_runs_without_tensorflow():
    lines = []
    results = image_ops.run(rounds=1, with_tf=False, small=True, out=lines.append)
    assert set(results) == set(image_ops.cases(small=True))
    for sides in results.values():
        best, median = sides["tinytf"]
        assert 0 <= best <= median
    assert len(lines) == 1 + len(results)
