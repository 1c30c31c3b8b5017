"""Module-level functions for tests/test_data_service.py: a dataset built from them pickles, so it can travel to
a tf.data service worker in another process (which imports this module), and that worker's entry point."""

import sys


def square(x):
    return x * x


def is_even(x):
    return x % 2 == 0


def as_range(x):
    import tinytf as tf

    return tf.data.Dataset.range(x)


def serve_worker(dispatcher_address: str) -> None:
    """Runs a worker until stdin closes (the test's way of stopping it); prints its address first."""
    import tinytf as tf

    S = tf.data.experimental.service
    worker = S.WorkerServer(S.WorkerConfig(dispatcher_address=dispatcher_address))
    print(worker._address, flush=True)
    sys.stdin.read()
    worker._stop()


if __name__ == "__main__":
    serve_worker(sys.argv[1])
