"""TF1's other batchers (tf.compat.v1.train): batch_join and shuffle_batch_join, which fill one queue from several
lists of tensors (one enqueue op, and so one QueueRunner thread, per list: several readers feeding one batch),
and the maybe_ forms of all four, which enqueue an example only where `keep_input` is true (a scalar: the whole
example; a vector with enqueue_many: the rows it marks). An example that is not kept is enqueued as zero rows of
an enqueue_many, so no cond is needed around the queue op."""

from __future__ import annotations

from ... import nest
from ...queue import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from ...scopes import name_scope
from .queue_runner import QueueRunner, add_queue_runner


def _tf():
    import tinytf

    return tinytf


def _require_graph():
    if _tf().executing_eagerly():
        raise ValueError("Input pipelines based on Queues are not supported when eager execution is enabled. "
                         "Please use tf.data to ingest data into your model instead.")


def _as_list(tensors):
    """The tensors of one example as a flat list (a dict by its sorted keys, as TF), and how to give the dequeued
    batch back in the example's structure."""
    tf = _tf()
    if isinstance(tensors, dict):
        keys = sorted(tensors, key=str)
        return [tf.convert_to_tensor(tensors[k]) for k in keys], lambda out: dict(zip(keys, out))
    if isinstance(tensors, (list, tuple)):
        flat = [tf.convert_to_tensor(t) for t in nest.flatten(tensors)]
        if not flat:
            raise ValueError("Expected at least one tensor in batch().")
        return flat, lambda out: out
    return [tf.convert_to_tensor(tensors)], lambda out: out


def _as_lists(tensors_list):
    if not tensors_list:
        raise ValueError("Expected at least one set of tensors")
    if isinstance(tensors_list[0], dict):
        expected = set(tensors_list[0])
        if any(set(t) != expected for t in tensors_list[1:]):
            raise ValueError("All dictionaries in tensors_list must have the same keys")
    lists = [_as_list(t) for t in tensors_list]
    return [flat for flat, _ in lists], lists[0][1]


def _dtypes(lists):
    types = [t.dtype for t in lists[0]]
    for other in lists[1:]:
        other_types = [t.dtype for t in other]
        if other_types != types:
            raise TypeError(f"Expected types to be consistent: {', '.join(t.name for t in types)} vs. "
                            f"{', '.join(t.name for t in other_types)}.")
    return types


def _shapes(lists, shapes, enqueue_many):
    tf = _tf()
    if shapes is not None:
        return [tf.TensorShape(s) for s in shapes]
    merged = []
    for i in range(len(lists[0])):
        shape = None
        for flat in lists:
            if flat[i].shape.rank is None:
                raise ValueError(f"Cannot infer Tensor's rank: {flat[i]}")
            this = flat[i].shape[1:] if enqueue_many else flat[i].shape
            shape = this if shape is None else shape.merge_with(this)
        merged.append(shape)
    return merged


def _keep_input(keep_input, enqueue_many):
    tf = _tf()
    if keep_input is True:
        return None  # everything is kept: plain enqueue ops
    keep_input = tf.convert_to_tensor(keep_input)
    rank = keep_input.shape.rank
    if rank is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and rank == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if rank > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _enqueue_op(queue, tensors, enqueue_many, keep_input):
    """The enqueue of one example (or batch of rows), restricted to what keep_input keeps."""
    tf = _tf()
    if keep_input is None:
        return queue.enqueue_many(tensors) if enqueue_many else queue.enqueue(tensors)
    if not enqueue_many:
        rows = [tf.expand_dims(t, 0) for t in tensors]
        mask = tf.reshape(keep_input, [1])
    elif keep_input.shape.rank == 0:
        rows = tensors
        mask = tf.fill(tf.shape(tensors[0])[:1], keep_input)
    else:
        rows, mask = tensors, keep_input
    return queue.enqueue_many([tf.boolean_mask(r, mask) for r in rows])


def _batch_from(make_queue, tensors_list, batch_size, keep_input, enqueue_many, shapes, allow_smaller_final_batch,
                name, default_name, threads=None):
    """The batcher all eight functions share: `threads` copies of one enqueue op (batch, maybe_batch, ...), or
    one enqueue op per list of tensors (the _join forms, threads=None)."""
    _require_graph()
    lists, restore = _as_lists(tensors_list)
    with name_scope(name or default_name):
        keep_input = _keep_input(keep_input, enqueue_many)
        types = _dtypes(lists)
        queue = make_queue(types, _shapes(lists, shapes, enqueue_many))
        if threads is None:
            enqueue_ops = [_enqueue_op(queue, flat, enqueue_many, keep_input) for flat in lists]
        else:
            enqueue_ops = [_enqueue_op(queue, lists[0], enqueue_many, keep_input)] * threads
        add_queue_runner(QueueRunner(queue, enqueue_ops))
        dequeued = queue.dequeue_up_to(batch_size) if allow_smaller_final_batch else queue.dequeue_many(batch_size)
        dequeued = dequeued if isinstance(dequeued, list) else [dequeued]
        if isinstance(tensors_list[0], dict):
            return restore(dequeued)
        return dequeued[0] if len(dequeued) == 1 else dequeued


def _fifo(capacity, dynamic_pad, shared_name):
    def make(types, shapes):
        if dynamic_pad:
            return PaddingFIFOQueue(capacity, types, shapes, shared_name=shared_name, name="padding_fifo_queue")
        for shape in shapes:
            if not shape.is_fully_defined():
                raise ValueError(f"All shapes must be fully defined: {[str(s) for s in shapes]}")
        return FIFOQueue(capacity, types, shapes, shared_name=shared_name)

    return make


def _shuffling(capacity, min_after_dequeue, seed, shared_name):
    def make(types, shapes):
        return RandomShuffleQueue(capacity, min_after_dequeue, types, shapes, seed=seed, shared_name=shared_name)

    return make


def batch_join(tensors_list, batch_size, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
               allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches from one FIFOQueue that each list of tensors feeds from a thread of its own."""
    return _batch_from(_fifo(capacity, dynamic_pad, shared_name), tensors_list, batch_size, True, enqueue_many,
                       shapes, allow_smaller_final_batch, name, "batch_join")


def maybe_batch_join(tensors_list, keep_input, batch_size, capacity=32, enqueue_many=False, shapes=None,
                     dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    return _batch_from(_fifo(capacity, dynamic_pad, shared_name), tensors_list, batch_size, keep_input,
                       enqueue_many, shapes, allow_smaller_final_batch, name, "batch_join")


def maybe_batch(tensors, keep_input, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None,
                dynamic_pad=False, allow_smaller_final_batch=False, shared_name=None, name=None):
    """batch(), enqueueing only the examples (or rows) where keep_input is true."""
    return _batch_from(_fifo(capacity, dynamic_pad, shared_name), [tensors], batch_size, keep_input, enqueue_many,
                       shapes, allow_smaller_final_batch, name, "batch", threads=num_threads)


def shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, seed=None, enqueue_many=False,
                       shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Shuffled batches from one RandomShuffleQueue that each list of tensors feeds from a thread of its own."""
    return _batch_from(_shuffling(capacity, min_after_dequeue, seed, shared_name), tensors_list, batch_size, True,
                       enqueue_many, shapes, allow_smaller_final_batch, name, "shuffle_batch_join")


def maybe_shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, keep_input, seed=None,
                             enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                             name=None):
    return _batch_from(_shuffling(capacity, min_after_dequeue, seed, shared_name), tensors_list, batch_size,
                       keep_input, enqueue_many, shapes, allow_smaller_final_batch, name, "shuffle_batch_join")


def maybe_shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input, num_threads=1, seed=None,
                        enqueue_many=False, shapes=None, allow_smaller_final_batch=False, shared_name=None,
                        name=None):
    return _batch_from(_shuffling(capacity, min_after_dequeue, seed, shared_name), [tensors], batch_size,
                       keep_input, enqueue_many, shapes, allow_smaller_final_batch, name, "shuffle_batch",
                       threads=num_threads)


__all__ = ["batch_join", "maybe_batch", "maybe_batch_join", "maybe_shuffle_batch", "maybe_shuffle_batch_join",
           "shuffle_batch_join"]
