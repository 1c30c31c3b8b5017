"""A dropped iterator's finalizer gives its shuffle reservations back under the module's lock; the garbage
collector can run that finalizer inside another iterator's creation, in the same thread, while the lock is held.
The lock must be re-entrant there (a plain Lock hung the whole test suite once)."""

import gc
import threading

import tinytf as tf
from tinytf.data import iteration_seeds


def test_release_inside_a_reservation_does_not_deadlock():
    dataset = tf.data.Dataset.range(8).shuffle(8, seed=1).map(lambda x: x + 1).shuffle(4, seed=2)
    dropped = iter(dataset)
    reservations = dropped._reservations if hasattr(dropped, "_reservations") else iteration_seeds.reserve_passes(
        dataset)
    done = threading.Event()

    def reserve_while_a_finalizer_runs():
        with iteration_seeds._LOCK:  # as the collector would: a release inside a held section, same thread
            iteration_seeds.release_passes(list(reservations))
            iteration_seeds.reserve_passes(dataset)
        done.set()

    worker = threading.Thread(target=reserve_while_a_finalizer_runs, daemon=True)
    worker.start()
    worker.join(timeout=10)
    assert done.is_set(), "release_passes inside a held section deadlocked"


def test_many_dropped_iterators_with_collections_still_give_tf_orders():
    dataset = tf.data.Dataset.range(6).shuffle(6, seed=3)
    first = [int(x) for x in dataset]
    for _ in range(50):
        iter(dataset)
        gc.collect()
    assert sorted(first) == list(range(6))
    assert sorted(int(x) for x in dataset) == list(range(6))
