"""TF1's queue-based input pipelines (tf.compat.v1.train): producers that fill a queue with the input's
elements, `num_epochs` times, shuffled (string_input_producer, range_input_producer, slice_input_producer,
input_producer, limit_epochs), and batchers that assemble examples into batches from QueueRunner threads (batch,
shuffle_batch). The end of the input reaches the training loop as tf.errors.OutOfRangeError."""

from __future__ import annotations

from tinytf.runtime.dispatch import apply
from tinytf.runtime.ops.queue import count_up_to_op

from ... import nest
from ...queue import FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue
from ...scopes import name_scope
from .queue_runner import QueueRunner, add_queue_runner
from .variable_scope import get_variable, variable_scope


def _tf():
    import tinytf

    return tinytf


def _require_graph(what):
    if _tf().executing_eagerly():
        raise RuntimeError(f"Input pipelines based on Queues are not supported when eager execution is enabled. "
                           f"Please use tf.data to ingest data into your model instead. ({what})")


def count_up_to(ref, limit, name=None):
    """`tf.compat.v1.count_up_to`: increment an integer variable, returning its old value; OutOfRangeError
    once it has reached `limit`."""
    return apply(count_up_to_op, [ref], {"limit": int(limit), "dtype": ref.dtype}, name=name or "CountUpTo")


def limit_epochs(tensor, num_epochs=None, name=None):
    """`tensor`, but the num_epochs+1-th run raises OutOfRangeError (a local `epochs` counter counts them)."""
    tf = _tf()
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with name_scope(name or "limit_epochs"):
        with variable_scope(None, default_name="limit_epochs"):
            epochs = get_variable("epochs", shape=[], dtype=tf.int64, initializer=tf.compat.v1.zeros_initializer(),
                                  trainable=False, collections=["local_variables"])
        counter = count_up_to(epochs, num_epochs)
        with tf.control_dependencies([counter]):
            return tf.identity(tensor)


def input_producer(input_tensor, element_shape=None, num_epochs=None, shuffle=True, seed=None, capacity=32,
                   shared_name=None, summary_name=None, name=None, cancel_op=None):
    """A FIFOQueue filled (by a QueueRunner) with the rows of `input_tensor`, shuffled each epoch."""
    tf = _tf()
    _require_graph("input_producer")
    with name_scope(name or "input_producer"):
        input_tensor = tf.convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:] if element_shape is None else tf.TensorShape(element_shape)
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or `element_shape` must be "
                             "specified")
        if shuffle:
            input_tensor = tf.random.shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        queue = FIFOQueue(capacity, dtypes=[input_tensor.dtype], shapes=[element_shape], shared_name=shared_name,
                          name=name or "input_producer")
        enqueue = queue.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(queue, [enqueue], cancel_op=cancel_op))
        return queue


def string_input_producer(string_tensor, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                          name=None, cancel_op=None):
    """A queue of the strings (file names, usually), `num_epochs` passes, shuffled."""
    tf = _tf()
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, tf.Tensor) and not string_tensor:
        raise ValueError(not_null_err)
    with name_scope(name or "input_producer"):
        string_tensor = tf.convert_to_tensor(string_tensor, dtype=tf.string)
        return input_producer(string_tensor, num_epochs=num_epochs, shuffle=shuffle, seed=seed, capacity=capacity,
                              shared_name=shared_name, name=name, cancel_op=cancel_op)


def range_input_producer(limit, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """A queue of the integers 0 .. limit-1 (int32), `num_epochs` passes, shuffled."""
    tf = _tf()
    with name_scope(name or "input_producer"):
        return input_producer(tf.range(limit), [], num_epochs, shuffle, seed, capacity, shared_name, name=name)


def slice_input_producer(tensor_list, num_epochs=None, shuffle=True, seed=None, capacity=32, shared_name=None,
                         name=None):
    """One row of each tensor of `tensor_list` (the same row of each), row by row, `num_epochs` passes."""
    tf = _tf()
    with name_scope(name or "input_producer"):
        tensor_list = [tf.convert_to_tensor(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = tensor_list[0].shape[0]
        range_size = range_size if range_size is not None else tf.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                                     capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [tf.gather(t, index) for t in tensor_list]


def _flat(tensors):
    tf = _tf()
    if isinstance(tensors, dict):
        keys = sorted(tensors)
        return [tf.convert_to_tensor(tensors[k]) for k in keys], lambda out: dict(zip(keys, out))
    if isinstance(tensors, (list, tuple)):
        flat = [tf.convert_to_tensor(t) for t in nest.flatten(tensors)]
    else:
        flat = [tf.convert_to_tensor(tensors)]
    # as TF's _as_original_type: what the dequeue gives (a list of one tensor comes back as that tensor)
    return flat, lambda out: out[0] if len(out) == 1 else list(out)


def _batcher(queue_factory, tensors, batch_size, num_threads, enqueue_many, shapes, allow_smaller_final_batch,
             name, what):
    tf = _tf()
    _require_graph(what)
    flat, restore = _flat(tensors)
    if shapes is None:
        shapes = [t.shape[1:] if enqueue_many else t.shape for t in flat]
    shapes = [tf.TensorShape(s) for s in shapes]
    with name_scope(name or what):
        queue = queue_factory([t.dtype for t in flat], shapes)
        enqueue = queue.enqueue_many(flat) if enqueue_many else queue.enqueue(flat)
        add_queue_runner(QueueRunner(queue, [enqueue] * num_threads))
        dequeued = queue.dequeue_up_to(batch_size) if allow_smaller_final_batch else queue.dequeue_many(batch_size)
        dequeued = dequeued if isinstance(dequeued, list) else [dequeued]
        return restore(dequeued)


def batch(tensors, batch_size, num_threads=1, capacity=32, enqueue_many=False, shapes=None, dynamic_pad=False,
          allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches of `batch_size` examples from a FIFOQueue (a PaddingFIFOQueue with dynamic_pad) that
    `num_threads` QueueRunner threads fill; the last, smaller batch only with allow_smaller_final_batch."""
    def make(component_dtypes, component_shapes):
        if dynamic_pad:
            return PaddingFIFOQueue(capacity, component_dtypes, component_shapes, shared_name=shared_name,
                                    name="padding_fifo_queue")
        for shape in component_shapes:
            if not shape.is_fully_defined():
                raise ValueError("All shapes must be fully defined: "
                                 f"{[str(s) for s in component_shapes]}")
        return FIFOQueue(capacity, component_dtypes, component_shapes, shared_name=shared_name)

    return _batcher(make, tensors, batch_size, num_threads, enqueue_many, shapes, allow_smaller_final_batch, name,
                    "batch")


def shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, num_threads=1, seed=None, enqueue_many=False,
                  shapes=None, allow_smaller_final_batch=False, shared_name=None, name=None):
    """Batches of examples drawn at random from a RandomShuffleQueue holding at least min_after_dequeue."""
    def make(component_dtypes, component_shapes):
        return RandomShuffleQueue(capacity, min_after_dequeue, component_dtypes, component_shapes, seed=seed,
                                  shared_name=shared_name)

    return _batcher(make, tensors, batch_size, num_threads, enqueue_many, shapes, allow_smaller_final_batch, name,
                    "shuffle_batch")


__all__ = ["batch", "count_up_to", "input_producer", "limit_epochs", "range_input_producer", "shuffle_batch",
           "slice_input_producer", "string_input_producer"]
