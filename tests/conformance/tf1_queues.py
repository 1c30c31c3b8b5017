"""tf.queue (FIFOQueue, PaddingFIFOQueue, RandomShuffleQueue, PriorityQueue) eagerly and in TF1 sessions, and
TF1's queue-based input pipelines: QueueRunner threads, Coordinator, slice/string/range input producers,
batch and shuffle_batch, ending with tf.errors.OutOfRangeError."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


@program
def p_tf1_queue_eager_fifo(tf):
    q = tf.queue.FIFOQueue(3, [tf.int32, tf.float32], shapes=[[], [2]])
    q.enqueue_many(([1, 2], [[1.0, 2.0], [3.0, 4.0]]))
    q.enqueue((7, [5.0, 6.0]))
    first = q.dequeue()
    size = q.size()
    q.close()
    closed = q.is_closed()
    rest = q.dequeue_up_to(5)
    results = [val(first), val(size), val(closed), val(rest), q.dtypes[1].name, [s.as_list() for s in q.shapes],
               outcome(lambda: q.enqueue((1, [1.0, 1.0])), "is closed"),
               outcome(lambda: q.dequeue(), "is closed and has insufficient elements"),
               outcome(lambda: q.dequeue_many(1), "is closed and has insufficient elements")]
    named = tf.queue.FIFOQueue(2, [tf.float32, tf.int64], shapes=[[], []], names=["a", "b"])
    results.append(outcome(lambda: named.enqueue([1.0, 2]), "You must enqueue a dictionary"))
    named.enqueue({"a": 1.5, "b": 3})
    results.append(val(named.dequeue()))
    unshaped = tf.queue.FIFOQueue(2, tf.float32)
    unshaped.enqueue(1.0)
    results.append(outcome(lambda: unshaped.dequeue_many(1), "require the components to have specified shapes"))
    return results


@program
def p_tf1_queue_eager_padding_priority_shuffle(tf):
    padding = tf.queue.PaddingFIFOQueue(5, [tf.int32, tf.string], shapes=[[None], []])
    padding.enqueue(([1, 2, 3], "abc"))
    padding.enqueue(([4], "d"))
    padding.enqueue(([5, 6], "ef"))
    padded = padding.dequeue_many(3)
    priority = tf.queue.PriorityQueue(5, [tf.string], shapes=[[]])
    for p, s in [(3, "c"), (1, "a"), (2, "b")]:
        priority.enqueue((tf.constant(p, tf.int64), s))
    ordered = [[int(p.numpy()), s.numpy().decode()] for p, s in (priority.dequeue() for _ in range(3))]
    shuffle = tf.queue.RandomShuffleQueue(10, 2, tf.int32, shapes=[[]], seed=3)
    shuffle.enqueue_many([list(range(6))])
    first = shuffle.dequeue_many(4)
    left = shuffle.size()
    shuffle.close()
    tail = shuffle.dequeue_up_to(5)
    everything = sorted(first.numpy().tolist() + tail.numpy().tolist())
    strings = [s.decode() for s in padded[1].numpy().tolist()]
    return [val(padded[0]), strings, ordered, val(left), everything]


@program
def p_tf1_queue_in_a_session(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        q = tf.queue.FIFOQueue(4, tf.int32, shapes=[[]])
        fed = v1.placeholder(tf.int32, [None])
        enqueue = q.enqueue_many([fed])
        one = q.dequeue()
        two = q.dequeue_many(2)
        up_to = q.dequeue_up_to(3)
        size = q.size()
        close = q.close()
    with v1.Session(graph=graph) as sess:
        sess.run(enqueue, {fed: [5, 6, 7, 8]})
        results = [int(sess.run(size)), int(sess.run(one)), sess.run(two).tolist()]
        sess.run(close)
        results.append(sess.run(up_to).tolist())
        results.append(outcome(lambda: sess.run(one), "is closed and has insufficient elements"))
        results.append(outcome(lambda: sess.run(enqueue, {fed: [1]}), "is closed"))
    return results + [type(enqueue).__name__, one.dtype.name, two.shape.as_list(), up_to.shape.as_list()]


def _drain(tf, sess, fetch, limit=50):
    """Run `fetch` with the queue runners started until OutOfRangeError; the results in order."""
    v1 = tf.compat.v1
    coord = v1.train.Coordinator()
    threads = v1.train.start_queue_runners(sess, coord)
    out = []
    try:
        for _ in range(limit):
            out.append(sess.run(fetch))
    except tf.errors.OutOfRangeError:
        out.append("OutOfRangeError")
    finally:
        coord.request_stop()
    coord.join(threads)
    return out


@program
def p_tf1_queue_runner_pipeline(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        features = np.arange(20, dtype=np.float32).reshape(10, 2)
        labels = np.arange(10, dtype=np.int64)
        x, y = v1.train.slice_input_producer([features, labels], num_epochs=2, shuffle=False)
        xb, yb = v1.train.batch([x, y], batch_size=4, allow_smaller_final_batch=True)
        init = [v1.global_variables_initializer(), v1.local_variables_initializer()]
        runners = v1.get_collection(v1.GraphKeys.QUEUE_RUNNERS)
        shapes = [xb.shape.as_list(), yb.shape.as_list()]
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        batches = _drain(tf, sess, [xb, yb])
    return [len(runners), shapes, [val(b) if b != "OutOfRangeError" else b for b in batches]]


@program
def p_tf1_queue_string_and_range_producers(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        names = v1.train.string_input_producer(["a.txt", "b.txt", "c.txt"], num_epochs=2, shuffle=False)
        name = names.dequeue()
        init = v1.local_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        seen = _drain(tf, sess, name)
    graph2 = v1.Graph()
    with graph2.as_default():
        numbers = v1.train.range_input_producer(4, num_epochs=1, shuffle=False)
        number = numbers.dequeue()
        padded = v1.train.batch([tf.fill([number + 1], number)], batch_size=3, dynamic_pad=True,
                                allow_smaller_final_batch=True)
        init = v1.local_variables_initializer()
    with v1.Session(graph=graph2) as sess:
        sess.run(init)
        batches = _drain(tf, sess, padded)
    return [[s if isinstance(s, str) else np.asarray(s).item().decode() for s in seen],
            [b if isinstance(b, str) else val(b) for b in batches]]


@program
def p_tf1_queue_shuffle_batch_covers_the_data(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        (value,) = v1.train.slice_input_producer([np.arange(12, dtype=np.int32)], num_epochs=1, shuffle=True,
                                                 seed=5)
        batch = v1.train.shuffle_batch([value], batch_size=5, capacity=20, min_after_dequeue=3, seed=7,
                                       allow_smaller_final_batch=True)
        init = v1.local_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        batches = _drain(tf, sess, batch)
    sizes = [len(b) for b in batches if not isinstance(b, str)]
    seen = sorted(int(v) for b in batches if not isinstance(b, str) for v in b)
    return [sizes, seen, batches[-1]]


@program
def p_tf1_queue_errors(tf):
    v1 = tf.compat.v1
    q = tf.queue.FIFOQueue(2, tf.float32)
    return [
        outcome(lambda: v1.train.QueueRunner(q, [q.enqueue(1.0)]), "not supported when eager execution"),
        outcome(lambda: v1.train.start_queue_runners(), "not compatible with eager execution"),
        outcome(lambda: q.enqueue({"a": 1.0}), "Queue must have names to enqueue a dictionary"),
        outcome(lambda: v1.train.string_input_producer([]), "requires a non-null input tensor"),
    ]
