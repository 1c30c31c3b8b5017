"""The vectorised Philox4x32-10 (two words per ufunc call) against the same rounds on Python ints: across chunk
boundaries, a carry into the counter's upper half, the 128-bit wrap, and explicit offsets."""

import numpy as np
import pytest

from tinytf.runtime.ops import philox

KEY = (0x12345678, 0x9ABCDEF0)


def _reference(start, offsets):
    return philox._blocks_python(KEY, [(start + int(o)) & ((1 << 128) - 1) for o in offsets])


@pytest.mark.parametrize("start", [0, (7 << 64) + 123, (1 << 64) - 5, (1 << 128) - 7])
def test_vectorised_rounds_match_python_ints_across_chunks(monkeypatch, start):
    monkeypatch.setattr(philox, "_CHUNK", 16)  # several chunks for a few dozen counters
    for count in (9, 16, 17, 50):
        np.testing.assert_array_equal(philox.blocks(KEY, start, count), _reference(start, range(count)))


def test_explicit_offsets_match_python_ints(monkeypatch):
    monkeypatch.setattr(philox, "_CHUNK", 8)
    offsets = np.array([3, 1 << 40, 5, 77, (1 << 64) - 1, 0, 2, 9, 11, 12], np.uint64)
    start = (1 << 64) - 2
    np.testing.assert_array_equal(philox.blocks(KEY, start, offsets), _reference(start, offsets.tolist()))


def test_known_answer():
    """Random123's published known-answer vector for Philox4x32-10 with a zero counter and key."""
    got = philox._blocks_python((0, 0), [0])
    assert [hex(v) for v in got[0]] == ["0x6627e8d5", "0xe169c58d", "0xbc57ac4c", "0x9b00dbd8"]
    vectorised = philox.blocks((0, 0), 0, 9)[0]
    np.testing.assert_array_equal(vectorised, got[0])
