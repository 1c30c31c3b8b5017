"""Background threads: map with num_parallel_calls (a thread pool) and prefetch (a producer thread).

Each runs only while its consumer iterates: closing the consumer's generator (the iterator was exhausted,
dropped or garbage collected) stops and joins its threads. An exception raised in a thread is handed to
the consumer, which raises it, and the threads end."""

from __future__ import annotations

import queue
import threading
from collections import deque
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait

from .dataset import AUTOTUNE, UnaryDataset, dataset_methods
from .iteration_seeds import Pulling, pulling_now
from .sources import as_int
from .structure import ELEMENT_ERRORS, ElementError
from .symbolic import deferred_transform


def _apply(fn, item):
    if type(item) is ElementError:
        return item
    try:
        return fn(item)
    except ELEMENT_ERRORS as e:
        return ElementError(e)


def parallel_map(items, fn, workers: int, deterministic: bool):
    """fn over `items` on `workers` threads, at most 2 * workers in flight; in input order when
    deterministic, else in completion order."""
    pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tinytf-data-map")
    pending = deque()
    limit = 2 * workers
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < limit:
                item = next(items, None)
                if item is None:
                    exhausted = True
                    break
                pending.append(pool.submit(_apply, fn, item))
            if not pending:
                return
            if deterministic:
                yield pending.popleft().result()
            else:
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in [f for f in pending if f in done]:
                    pending.remove(future)
                    yield future.result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)
        items.close()


_END = object()


class _Failure:
    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error


def prefetched(items, buffer_size: int):
    """`items` produced ahead by one background thread, at most `buffer_size` elements beyond what the consumer
    has taken. As TF's prefetch thread, it waits for a free slot before it pulls the next element, so the input
    runs exactly buffer_size elements ahead (a shuffle behind a repeat draws its next pass's seeds when TF's
    does)."""
    slots: queue.Queue = queue.Queue()
    free = threading.Semaphore(max(buffer_size, 1))
    stop = threading.Event()

    def wait_for_room() -> bool:
        while not stop.is_set():
            if free.acquire(timeout=0.05):
                return True
        return False

    pulling_for = pulling_now()  # the iterator this thread works for: the passes it starts take its seeds

    def produce():
        try:
            with Pulling(pulling_for):
                produce_items()
        except BaseException as e:  # noqa: BLE001 - handed to the consumer, which raises it
            slots.put(_Failure(e))
        finally:
            items.close()

    def produce_items():
        while wait_for_room():
            item = next(items, _END)
            slots.put(item)
            if item is _END:
                return

    thread = threading.Thread(target=produce, name="tinytf-data-prefetch", daemon=True)
    thread.start()
    try:
        while True:
            value = slots.get()
            if value is _END:
                return
            if type(value) is _Failure:
                raise value.error
            free.release()
            yield value
    finally:
        stop.set()
        thread.join()


class PrefetchDataset(UnaryDataset):
    _tf_name = "_PrefetchDataset"

    def __init__(self, input_dataset, buffer_size):
        super().__init__(input_dataset)
        size = as_int(buffer_size, "buffer_size")
        self._buffer_size = 2 if size == AUTOTUNE else size

    def _flat_iter(self):
        if self._buffer_size == 0:
            return self._input._flat_iter()
        return prefetched(self._input._flat_iter(), self._buffer_size)


@dataset_methods
class _PrefetchMethods:
    def prefetch(self, buffer_size, name=None):
        return deferred_transform(self, PrefetchDataset, buffer_size) or PrefetchDataset(self, buffer_size)
