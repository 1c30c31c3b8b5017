"""BLAS lingers at one thread for LINGER_S after the convolution kernels' last single-thread region, then a
daemon thread gives it its count back (runtime/blas_threads.py says why: a woken OpenBLAS worker spins through
the next convolution). count() reports the count BLAS goes back to; restore() gives it back at once; a region
opened while BLAS lingers does not take the lingering 1 for the user's count; a forked child gets the count
back at once."""

import os
import time

import numpy as np
import pytest

from tinytf.runtime import blas_threads
from tinytf.runtime.ops import conv, conv_kernels

pytestmark = pytest.mark.skipif(not blas_threads.available() or blas_threads.count() < 2,
                                reason="needs OpenBLAS with more than one thread")


def _live():
    return int(blas_threads._functions()[0]())


def _conv():
    x = np.ones((8, 12, 12, 3), np.float32)
    w = np.ones((3, 3, 3, 8), np.float32)
    geo = conv.conv_geometry((12, 12), (3, 3), (1, 1), (1, 1), "SAME")
    return conv_kernels.conv2d(x, w, geo)


@pytest.fixture
def linger(monkeypatch):
    blas_threads.restore()
    user = _live()
    monkeypatch.setattr(conv_kernels, "TASK_BYTES", 64)  # many tasks: every call opens a region
    monkeypatch.setattr(conv_kernels, "PARALLEL_MIN_FLOPS", 0)
    yield user, monkeypatch
    blas_threads.restore()
    assert _live() == user


def test_stays_at_one_thread_until_restored(linger):
    user, monkeypatch = linger
    monkeypatch.setattr(blas_threads, "LINGER_S", 60.0)
    with blas_threads.single():
        assert _live() == 1 and blas_threads.count() == user  # inside: still the user's count (not timing's)
    assert _live() == 1  # lingering: the small GEMMs between a step's convolutions wake no BLAS worker
    assert blas_threads.count() == user  # what the user's GEMMs are meant to run with
    _conv()  # a region opened while lingering keeps the user's count, not the lingering 1
    with blas_threads.single():
        blas_threads.restore()  # no effect while a region is open
        assert _live() == 1
    blas_threads.restore()
    assert _live() == user


def test_comes_back_by_itself(linger):
    user, monkeypatch = linger
    monkeypatch.setattr(blas_threads, "LINGER_S", 0.01)
    _conv()
    deadline = time.monotonic() + 20  # the restorer may wait for a loaded machine's scheduler
    while _live() != user and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _live() == user and blas_threads.count() == user


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_child_gets_the_count_back(linger):
    user, monkeypatch = linger
    monkeypatch.setattr(blas_threads, "LINGER_S", 60.0)
    _conv()
    assert _live() == 1
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: no restorer thread was forked with it
        os.write(write, bytes([_live()]))
        os._exit(0)
    os.close(write)
    got = os.read(read, 1)[0]
    os.close(read)
    os.waitpid(pid, 0)
    assert got == user
