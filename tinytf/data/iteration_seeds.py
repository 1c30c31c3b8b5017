"""When a random stage's pass draws its seeds: TF draws them when an iterator is *created*.

A shuffle with reshuffle_each_iteration (and Dataset.random with rerandomize_each_iteration) seeds each pass
from the next draw of a seed generator, and TF's iterator draws it in its Initialize, for every stage of the
pipeline at once. So an iterator made and never read still uses up a draw: `a = iter(ds); b = iter(ds)` gives
`b` the second order, and Keras' fit, which makes an extra iterator at the end of each epoch over a dataset of
known length, sees the first, third, fifth... orders. tinytf's stages are lazy generators that start at the
first element, so the iterator reserves each stage's draw when it is created, and a stage whose pass starts
while that iterator pulls (in its thread, or in a prefetch thread working for it) takes the iterator's own
reservation; started elsewhere it takes the oldest one; a pass with no reservation (a repeat's later passes)
draws anew. An iterator dropped unread gives its reservations back, but the draws stay used, as in TF.
"""

from __future__ import annotations

import collections
import threading

from tinytf.runtime.ops.random import IteratorKernels, iterator_kernels

# re-entrant: an iterator's finalizer (release_passes) can run inside a section that holds the lock, when the
# garbage collector runs there, in the same thread (a plain Lock deadlocked the suite that way)
_LOCK = threading.RLock()
_PULLING = threading.local()  # .reservations: those of the iterator pulling an element in this thread;
# .probing: a look at the first element that is not an iteration (it must not use up a draw)


def _stages_started_at_creation(dataset):
    """The stages whose iterators TF initializes with the pipeline's: all of them, except below a cache that is
    complete (its passes read the cache and never make an input iterator)."""
    yield dataset
    for d in dataset._inputs_started_at_creation():
        yield from _stages_started_at_creation(d)


def reserve_passes(dataset) -> list:
    """Draw now, for each random stage of the pipeline, the pass number its next start will use."""
    reservations = []
    with _LOCK:
        for stage in _stages_started_at_creation(dataset):
            if hasattr(stage, "_epoch"):
                number = stage._epoch
                stage._epoch += 1
                stage.__dict__.setdefault("_reserved_passes", collections.deque()).append(number)
                reservations.append((stage, number))
    return reservations


def release_passes(reservations: list) -> None:
    """An iterator is gone: the reservations its pipeline never started are no one's (the draws stay used)."""
    with _LOCK:
        for stage, number in reservations:
            pending = stage.__dict__.get("_reserved_passes")
            if pending and number in pending:
                pending.remove(number)


class Reservations(list):
    """An iterator's reservations, and the random kernels of its pipeline's functions (TF instantiates them per
    iterator: a second `iter(dataset)` draws the same numbers as the first)."""

    def __init__(self, reservations):
        super().__init__(reservations)
        self.random_kernels = iterator_kernels()


class Pulling:
    """`with Pulling(reservations):` around an iterator's pull, so the passes it starts take its reservations
    and its functions' random nodes draw from its own kernels."""

    __slots__ = ("reservations", "outer", "kernels")

    def __init__(self, reservations):
        self.reservations = reservations
        kernels = getattr(reservations, "random_kernels", None)
        self.kernels = IteratorKernels(kernels) if kernels is not None else None

    def __enter__(self):
        self.outer = getattr(_PULLING, "reservations", None)
        _PULLING.reservations = self.reservations
        if self.kernels is not None:
            self.kernels.__enter__()

    def __exit__(self, *exc):
        _PULLING.reservations = self.outer
        if self.kernels is not None:
            self.kernels.__exit__()


def pulling_now():
    """The reservations of the iterator pulling in this thread (None: none), for a thread that pulls for it."""
    return getattr(_PULLING, "reservations", None)


class Probing:
    """`with Probing():` around a look at a pipeline's first element that TF does not make (flat_map's element
    spec, which tinytf finds by running the function on it): the passes it starts draw nothing."""

    def __enter__(self):
        self.outer = getattr(_PULLING, "probing", False)
        _PULLING.probing = True

    def __exit__(self, *exc):
        _PULLING.probing = self.outer


def begin_pass(stage) -> int:
    """The pass number for a stage whose pass starts now: the pulling iterator's reservation for it (none left:
    a new draw), or, started outside any iterator's pull, the oldest reservation; else a new draw."""
    with _LOCK:
        pending = stage.__dict__.get("_reserved_passes")
        if getattr(_PULLING, "probing", False):
            return pending[0] if pending else stage._epoch
        own = getattr(_PULLING, "reservations", None)
        if pending and own is not None:  # an iterator pulls in this thread: its own reservation, or a new draw
            for i, (reserved_stage, number) in enumerate(own):
                if reserved_stage is stage and number in pending:
                    del own[i]
                    pending.remove(number)
                    return number
        elif pending:
            return pending.popleft()
        number = stage._epoch
        stage._epoch += 1
        return number
