"""TF's top-level core names as TensorFlow 2.21 computes them: tf.repeat, sequence_mask, ensure_shape,
reverse_sequence, dynamic_partition / dynamic_stitch, unravel_index, shape_n, identity_n, broadcast shapes,
bitcast, space_to_batch_nd / batch_to_space, required_space_to_batch_paddings, get_static_value, tuple, group,
grad_pass_through, recompute_grad and hessians: the >>> examples of TF's docstrings, values, gradients, inside
tf.function, and the errors TF raises."""

from __future__ import annotations

from . import data, outcome, program, val


def _grad(tf, fn, *inputs):
    inputs = [tf.constant(v) for v in inputs]
    with tf.GradientTape() as tape:
        for t in inputs:
            tape.watch(t)
        y = fn(*inputs)
        loss = tf.reduce_sum(y * tf.constant(data(y.shape.as_list(), seed=9)))
    return [val(y)] + [val(g) for g in tape.gradient(loss, inputs)]


@program
def p_repeat_docstring_and_grads(tf):
    return [[s.decode() for s in tf.repeat(["a", "b", "c"], repeats=[3, 0, 2], axis=0).numpy().tolist()],
            val(tf.repeat([[1, 2], [3, 4]], repeats=[2, 3], axis=0)),
            val(tf.repeat([[1, 2], [3, 4]], repeats=[2, 3], axis=1)),
            val(tf.repeat(3, repeats=4)), val(tf.repeat([[1, 2], [3, 4]], repeats=2)),
            val(tf.repeat(tf.constant([[1.5], [2.5]]), 3, axis=-1)),
            _grad(tf, lambda x: tf.repeat(x, [1, 0, 3], axis=1), data([2, 3], seed=1)),
            _grad(tf, lambda x: tf.repeat(x, 2), data([2, 2], seed=2)),
            val(tf.function(lambda x, r: tf.repeat(x, r, axis=0))(tf.constant([1.0, 2.0]), tf.constant([2, 1]))),
            outcome(lambda: tf.repeat([1, 2, 3], [1, 2], axis=0), "")]


@program
def p_sequence_mask(tf):
    return [val(tf.sequence_mask([1, 3, 2], 5)), val(tf.sequence_mask([[1, 3], [2, 0]])),
            val(tf.sequence_mask([2, 0, 1], 3, dtype=tf.float32)),
            val(tf.sequence_mask(tf.constant([3, 1], tf.int64), tf.constant(4, tf.int64))),
            val(tf.function(lambda n: tf.sequence_mask(n))(tf.constant([2, 4, 1]))),
            outcome(lambda: tf.sequence_mask([1, 2], [3, 4]), "")]


@program
def p_ensure_shape(tf):
    x = tf.constant([[1, 2, 3], [4, 5, 6]])
    shapes = []

    @tf.function
    def f(tensor):
        shapes.append(tensor.shape.as_list())
        tensor = tf.ensure_shape(tensor, [None, 3])
        shapes.append(tensor.shape.as_list())
        return tensor

    cf = f.get_concrete_function(tf.TensorSpec([None, None]))
    return [val(tf.ensure_shape(x, [2, 3])), val(tf.ensure_shape(x, [None, 3])), val(tf.ensure_shape(x, [2, None])),
            outcome(lambda: tf.ensure_shape(x, [5]), "not compatible"),
            val(cf(tf.zeros([3, 3]))), shapes, outcome(lambda: cf(tf.zeros([3, 2])), "not compatible"),
            _grad(tf, lambda v: tf.ensure_shape(v * v, [2, None]), data([2, 2], seed=3))]


@program
def p_reverse_sequence(tf):
    seq_lengths = [7, 2, 3, 5]
    inp = [[1, 2, 3, 4, 5, 0, 0, 0], [1, 2, 0, 0, 0, 0, 0, 0], [1, 2, 3, 4, 0, 0, 0, 0], [1, 2, 3, 4, 5, 6, 7, 8]]
    return [val(tf.reverse_sequence(inp, seq_lengths, seq_axis=1, batch_axis=0)),
            val(tf.reverse_sequence(tf.reshape(tf.range(24), [3, 2, 4]), [1, 3], seq_axis=0, batch_axis=1)),
            _grad(tf, lambda v: tf.reverse_sequence(v, tf.constant([2, 3], tf.int64), seq_axis=1, batch_axis=0),
                  data([2, 4], seed=4)),
            outcome(lambda: tf.reverse_sequence(inp, [9, 2, 3, 5], seq_axis=1, batch_axis=0), "")]


@program
def p_dynamic_partition_and_stitch(tf):
    parts = tf.dynamic_partition([10, 20, 30, 40, 50], [0, 0, 1, 1, 0], 2)
    rows = tf.dynamic_partition(tf.reshape(tf.range(12.0), [2, 3, 2]), [[1, 0, 2], [2, 2, 1]], 3)
    indices = [[6], [4, 1], [[5, 2], [0, 3]]]
    values = [[[61.0, 62.0]], [[41.0, 42.0], [11.0, 12.0]], [[[51.0, 52.0], [21.0, 22.0]], [[1.0, 2.0], [31.0, 32.0]]]]
    x = tf.constant(data([6], seed=5))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a, b = tf.dynamic_partition(x * x, [1, 0, 1, 1, 0, 1], 2)
        loss = tf.reduce_sum(a * tf.constant([1.0, 2.0])) + tf.reduce_sum(b * b)
        stitched = tf.dynamic_stitch([[0, 2, 4], [1, 3, 5, 0]], [x[:3], x[2:]])
        loss2 = tf.reduce_sum(stitched * tf.constant(data([6], seed=6)))
    fn = tf.function(lambda d, p: tf.dynamic_partition(d, p, 3))
    return [val(parts), val(rows), val(tf.dynamic_stitch(indices, values)),
            val(tape.gradient(loss, x)), val(tape.gradient(loss2, x)),
            val(fn(tf.constant([1.0, 2.0, 3.0]), tf.constant([2, 2, 0]))),
            outcome(lambda: tf.dynamic_partition([1, 2], [0, 3], 2), "")]


@program
def p_unravel_shape_identity_broadcast(tf):
    a, b, c = tf.ones([1, 2]), tf.ones([2, 3]), tf.ones([3, 4])
    return [val(tf.unravel_index([1, 5, 7], [3, 3])), val(tf.unravel_index(5, [2, 3])),
            val(tf.unravel_index(tf.constant([0, 23], tf.int64), tf.constant([2, 3, 4], tf.int64))),
            val(tf.shape_n([a, b, c])), val(tf.shape_n([a], out_type=tf.int64)),
            val(tf.identity_n([a, tf.constant([1, 2])])),
            val(tf.broadcast_dynamic_shape((1, 2, 3), (5, 1, 3))), val(tf.broadcast_dynamic_shape([4, 1], [3])),
            tf.broadcast_static_shape(tf.TensorShape([1, 2, 3]), tf.TensorShape([5, 1, 3])).as_list(),
            tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([4])).as_list(),
            outcome(lambda: tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3])), "Incompatible"),
            outcome(lambda: tf.broadcast_dynamic_shape([2], [3]), "Incompatible"),
            outcome(lambda: tf.unravel_index([9], [3, 3]), "")]


@program
def p_bitcast(tf):
    return [val(tf.bitcast(tf.constant(0xffffffff, dtype=tf.uint32), tf.uint8)),
            val(tf.bitcast(tf.constant([1.0, 2.0, 3.0]), tf.int32)),
            val(tf.bitcast(tf.cast(tf.equal([1.0, 2.0, 3.0], [0.0, 2.0, 3.0]), tf.float32), tf.uint8)),
            val(tf.bitcast(tf.constant([[1, 2], [3, 4]], tf.int32), tf.int64)),
            val(tf.bitcast(tf.constant([1.5, -2.0], tf.float64), tf.uint16)),
            outcome(lambda: tf.bitcast(tf.constant([1, 2, 3], tf.int32), tf.int64), "")]


@program
def p_space_to_batch(tf):
    x = tf.reshape(tf.range(1.0, 17.0), [1, 4, 4, 1])
    y = tf.reshape(tf.range(1.0, 13.0), [2, 2, 3, 1])
    return [val(tf.space_to_batch_nd([[[[1], [2]], [[3], [4]]]], [2, 2], [[0, 0], [0, 0]])),
            val(tf.space_to_batch_nd([[[[1, 2, 3], [4, 5, 6]], [[7, 8, 9], [10, 11, 12]]]], [2, 2],
                                     [[0, 0], [0, 0]])),
            val(tf.space_to_batch_nd(x, [2, 2], [[1, 1], [2, 0]])), val(tf.space_to_batch(y, [2, 3], [[0, 0], [0, 0]])),
            val(tf.batch_to_space([[[[1]]], [[[2]]], [[[3]]], [[[4]]]], [2, 2], [[0, 0], [0, 0]])),
            val(tf.batch_to_space(tf.reshape(tf.range(16), [8, 1, 2, 1]), [2, 2], [[0, 1], [1, 0]])),
            _grad(tf, lambda v: tf.space_to_batch_nd(v, [2, 2], [[1, 1], [0, 2]]), data([2, 4, 2, 2], seed=7)),
            _grad(tf, lambda v: tf.batch_to_space(v, [2, 1], [[1, 0], [0, 0]]), data([4, 2, 3, 1], seed=8)),
            val(tf.function(lambda v: tf.space_to_batch_nd(v, [2, 2], [[0, 0], [0, 0]]))(x)),
            [val(t) for t in tf.required_space_to_batch_paddings([5, 7], [2, 3], [[1, 0], [0, 1]])],
            [val(t) for t in tf.required_space_to_batch_paddings([4, 4], [2, 2])],
            outcome(lambda: tf.space_to_batch_nd(x, [3, 3], [[0, 0], [0, 0]]), "divisible")]


@program
def p_static_value_tuple_group(tf):
    a, b = tf.constant(10), tf.constant(20)
    seen = []

    @tf.function
    def f(x):
        seen.append([tf.get_static_value(x), tf.get_static_value(tf.shape(x)).tolist(),
                     tf.get_static_value(tf.constant([1, 2])).tolist(), tf.inside_function(), tf.is_symbolic_tensor(x)])
        t = tf.tuple([x * 2.0, None, x + 1.0])
        tf.group(t[0], [t[2]])
        tf.no_op()
        return t[0], t[2]

    out = f(tf.constant([1.0, 2.0]))
    return [int(tf.get_static_value(a)), int(tf.get_static_value(tf.add(a, b))), tf.get_static_value(tf.Variable(30)),
            val(out), seen, tf.group(a, b), tf.no_op(), tf.inside_function(), tf.is_symbolic_tensor(a),
            [val(t) for t in tf.tuple([a, b])], outcome(lambda: tf.tuple([a], control_inputs=a), "")]


@program
def p_grad_pass_through_and_recompute(tf):
    x = tf.Variable(1.0, name="x")
    z = tf.Variable(3.0, name="z")
    with tf.GradientTape() as tape:
        y = tf.grad_pass_through(x.assign)(z ** 2)
    g1 = tape.gradient(y, z)
    w = tf.Variable(1.5)

    def my_function(v):
        return tf.sin(v * w) * v

    recomputed = tf.recompute_grad(my_function)
    with tf.GradientTape() as tape:
        r = tf.constant(1.0)
        for _ in range(3):
            r = recomputed(r)
    g2 = tape.gradient(r, [w])
    with tf.GradientTape() as tape:
        r = tf.constant(1.0)
        for _ in range(3):
            r = my_function(r)
    g3 = tape.gradient(r, [w])
    v = tf.constant([0.5, -1.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        q = tf.reduce_sum(tf.recompute_grad(lambda u: tf.exp(u) * u)(v))
    return [val(y), val(g1), val(x), val(g2), val(g3), val(tape.gradient(q, v))]


@program
def p_hessians(tf):
    @tf.function
    def h(x, y):
        return tf.hessians(tf.reduce_sum(x ** 3 * y + tf.sin(x) * y * y), [x, y])

    @tf.function
    def h2(m):
        return tf.hessians(tf.reduce_sum(tf.matmul(m, m) ** 2), m)

    return [val(h(tf.constant([1.0, 2.0, -0.5]), tf.constant(0.5))), val(h2(tf.constant(data([2, 2], seed=3)))),
            outcome(lambda: tf.hessians(tf.constant(1.0), tf.constant(2.0)), "eager")]


@program
def p_errors_classes_and_codes(tf):
    names = ["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
             "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
             "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"]
    classes = ["CancelledError", "UnknownError", "InvalidArgumentError", "DeadlineExceededError", "NotFoundError",
               "AlreadyExistsError", "PermissionDeniedError", "ResourceExhaustedError", "FailedPreconditionError",
               "AbortedError", "OutOfRangeError", "UnimplementedError", "InternalError", "UnavailableError",
               "DataLossError", "UnauthenticatedError"]
    made = [getattr(tf.errors, c)(None, None, f"{c} message") for c in classes]
    caught = []
    for error in made:
        try:
            raise error
        except tf.errors.OpError as e:
            caught.append([type(e).__name__, e.error_code, e.message, str(e), e.op, e.node_def])
    generic = tf.errors.OpError(None, None, "generic", tf.errors.ABORTED)
    return [{n: getattr(tf.errors, n) for n in names}, caught, [generic.error_code, generic.message],
            tf.errors.UnknownError(None, None, "x", 5).error_code,
            outcome(lambda: tf.constant([1, 2]) + tf.constant([1, 2, 3]), "")]


@program
def p_initializers_and_version(tf):
    normal = tf.random_normal_initializer(0.0, 1.0, seed=3)
    uniform = tf.random_uniform_initializer(-1, 1, seed=5)
    return [val(normal([2, 2])), val(normal([2, 2])), val(tf.random_normal_initializer(seed=1)([3], tf.float64)),
            val(uniform([3], tf.int32)), val(tf.random_uniform_initializer(0.0, 2.0, seed=5)([3])),
            normal.get_config(), uniform.get_config(),
            val(tf.random_normal_initializer.from_config(normal.get_config())([2])),
            outcome(lambda: normal([2], tf.int32), ""), outcome(lambda: uniform([2], tf.string), ""),
            [tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER, tf.version.GRAPH_DEF_VERSION_MIN_PRODUCER,
             tf.version.VERSION == tf.__version__, isinstance(tf.version.GRAPH_DEF_VERSION, int)]]
