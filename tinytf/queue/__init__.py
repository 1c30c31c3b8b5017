"""tf.queue: TF's queues (FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue), eagerly and in TF1
graphs, where TF1's QueueRunner threads fill them (tinytf/compat/v1/queue_runner.py)."""

from .queues import FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue  # noqa: F401
