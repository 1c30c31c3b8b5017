"""`tf.train.Coordinator`: TF's helper to stop a group of threads together. A thread that fails calls
request_stop(error); the others see should_stop() and end; join() waits for them and raises the first error
(an OutOfRangeError, the end of the input, counts as a clean stop)."""

from __future__ import annotations

import contextlib
import sys
import threading
import time

from tinytf.runtime.errors import OutOfRangeError


class Coordinator:
    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads: set = set()

    def _filter_exception(self, ex):
        """None for a clean stop (an exception of the clean types); else the exc_info to raise in join()."""
        if isinstance(ex, tuple):
            ex_value = ex[1]
        else:
            ex_value = ex
            ex = (type(ex), ex, ex.__traceback__)
        if isinstance(ex_value, self._clean_stop_exception_types):
            return None
        return ex

    def request_stop(self, ex=None):
        """Ask every thread to stop; with an exception (or an exc_info tuple), join() re-raises it."""
        with self._lock:
            ex = self._filter_exception(ex) if ex is not None else None
            if self._joined:
                if ex is not None and isinstance(ex, tuple):
                    raise ex[1].with_traceback(ex[2])
                return
            if not self._stop_event.is_set():
                if ex is not None and self._exc_info_to_raise is None:
                    self._exc_info_to_raise = ex
                self._stop_event.set()

    def clear_stop(self):
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            if self._stop_event.is_set():
                self._stop_event.clear()

    def should_stop(self) -> bool:
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """`with coord.stop_on_exception():` an exception raised in the block asks the threads to stop."""
        try:
            yield
        except:  # noqa: E722 - TF's contract: every exception, even SystemExit, requests the stop
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None) -> bool:
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait for the threads (and the registered ones) to end after a stop was requested; raise the error
        that requested it. Threads still alive after the grace period raise RuntimeError."""
        with self._lock:
            threads = set(threads or []) | self._registered_threads
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(0.05):
            pass
        deadline = time.time() + stop_grace_period_secs
        for thread in threads:
            thread.join(max(deadline - time.time(), 0))
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise is not None:
                error = self._exc_info_to_raise
                raise error[1].with_traceback(error[2])
        if stragglers and not ignore_live_threads:
            raise RuntimeError(f"Coordinator stopped with threads still running: {' '.join(stragglers)}")

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self):
        with self._lock:
            if self._exc_info_to_raise is not None:
                error = self._exc_info_to_raise
                raise error[1].with_traceback(error[2])


class LooperThread(threading.Thread):
    """A thread that calls `target(*args)` (or its own run_loop) every `timer_interval_secs` until the
    coordinator stops."""

    def __init__(self, coord, timer_interval_secs, target=None, args=None, kwargs=None):
        if not isinstance(coord, Coordinator):
            raise ValueError(f"'coord' argument must be a Coordinator: {coord}")
        super().__init__()
        self.daemon = True
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        self._args = args or ()
        self._kwargs = kwargs or {}
        self._coord.register_thread(self)

    @staticmethod
    def loop(coord, timer_interval_secs, target, args=None, kwargs=None):
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args, kwargs=kwargs)
        looper.start()
        return looper

    def run(self):
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(max(next_time - time.time(), 0)):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self):
        pass

    def stop_loop(self):
        pass

    def run_loop(self):
        if self._target:
            self._target(*self._args, **self._kwargs)


__all__ = ["Coordinator", "LooperThread"]
