"""Functions exported as GraphDefs and run by real TensorFlow 2.21 (tools/record_graph_def_reference.py records
TF's outputs; tests/test_graph_def_export.py checks tinytf's against them). Each function case returns
(the tf.function, its input signature, feeds {argument name: array}); `concrete` traces it. The tf.function
must stay referenced while its graph is used: a graph holds its variables weakly. The
graph's outputs are fetched as Identity, Identity_1, ... (TF's names for a function's outputs); a TF1 graph
case names its fetches itself."""

from __future__ import annotations

import numpy as np


def collatz(tf):
    @tf.function
    def collatz(n):
        steps = tf.constant(0)
        while n > 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            steps += 1
        return steps

    return collatz, (tf.TensorSpec([], tf.int32),), {"n": np.int32(27)}


def dense_with_state(tf):
    w = tf.Variable(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], np.float32), name="kernel")
    b = tf.Variable(np.array([0.1, 0.2, 0.3], np.float32), name="bias")

    @tf.function
    def dense(x):
        y = tf.nn.relu(tf.matmul(x, w) + b)
        b.assign_add(tf.reduce_mean(y, axis=0))
        return y[0, 1:], tf.reduce_sum(y, axis=1), tf.nn.softmax(y), tf.argmax(y, axis=1)

    x = np.array([[1.0, -2.0], [3.0, 0.5], [-1.0, 4.0]], np.float32)
    return dense, (tf.TensorSpec([None, 2], tf.float32),), {"x": x}


def rnn_loop(tf):
    wx = tf.Variable(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), name="wx")
    wh = tf.Variable(np.linspace(0.5, -0.5, 16, dtype=np.float32).reshape(4, 4), name="wh")

    @tf.function
    def rnn(xs):
        h = tf.zeros([2, 4])
        for t in tf.range(tf.shape(xs)[0]):
            h = tf.tanh(tf.matmul(xs[t], wx) + tf.matmul(h, wh))
        return h

    xs = np.sin(np.arange(5 * 2 * 3, dtype=np.float32)).reshape(5, 2, 3)
    return rnn, (tf.TensorSpec([None, 2, 3], tf.float32),), {"xs": xs}


def elementwise(tf):
    @tf.function
    def mix(x, i):
        a = tf.sigmoid(x) * 2.0 - x / 3.0 + x ** 2
        b = tf.cast(i, tf.float32) + tf.reduce_max(x)
        c = tf.concat([tf.transpose(x), tf.reshape(x, [3, 2])], axis=1)
        d = tf.where(x > 0.5, x, -x)
        e = tf.stack([tf.maximum(x, 0.0), tf.minimum(x, 1.0)])
        f = tf.squeeze(tf.expand_dims(x, 0)) + tf.ones_like(x)
        g = tf.clip_by_value(x, -0.5, 0.5) + tf.abs(x) + tf.exp(-x * x)
        return a, b, c, d, e, f, g

    x = np.array([[0.25, -1.5, 2.0], [1.0, 0.0, -0.75]], np.float32)
    return mix, (tf.TensorSpec([2, 3]), tf.TensorSpec([], tf.int32),), \
        {"x": x, "i": np.int32(4)}


def nested_cond_with_state(tf):
    counter = tf.Variable(0, name="counter")

    @tf.function
    def step(x):
        if tf.reduce_sum(x) > 0:
            counter.assign_add(1)
            y = x * 2.0
        else:
            y = -x
        return y, counter.read_value()

    return step, (tf.TensorSpec([3], tf.float32),), {"x": np.array([1., -0.5, 2.], np.float32)}


def small_cnn(tf):
    rng = np.random.default_rng(5)
    kernel = tf.Variable(rng.normal(0, 0.5, (3, 3, 2, 4)).astype(np.float32), name="conv_kernel")
    dense = tf.Variable(rng.normal(0, 0.5, (16, 3)).astype(np.float32), name="dense_kernel")

    @tf.function
    def cnn(images):
        y = tf.nn.relu(tf.nn.conv2d(images, kernel, strides=1, padding="SAME"))
        y = tf.nn.max_pool2d(y, ksize=2, strides=2, padding="VALID")
        y = tf.nn.avg_pool2d(y, ksize=2, strides=2, padding="SAME")
        y = tf.nn.conv2d(y, tf.concat([kernel[:2, :2], kernel[1:, 1:]], axis=2), strides=1, padding="VALID")
        return tf.matmul(tf.reshape(y, [2, -1]), dense)

    images = rng.normal(size=(2, 12, 12, 2)).astype(np.float32)
    return cnn, (tf.TensorSpec([2, 12, 12, 2]),), {"images": images}


def gradient_step(tf):
    """Gradients taken inside the function: tinytf's gradient helpers (the gradient of a mean, of a broadcast
    add) go out as the TF ops TF's gradients use."""
    w = tf.Variable(np.array([[0.5, -0.2], [0.1, 0.4], [-0.3, 0.2]], np.float32), name="gw")
    b = tf.Variable(np.array([0.05, -0.1], np.float32), name="gb")

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = tf.nn.relu(x @ w + b)
            loss = tf.reduce_mean(y * y) + tf.reduce_sum(y)
        grad_w, grad_b = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * grad_w)
        b.assign_sub(0.1 * grad_b)
        return loss, grad_w, grad_b

    x = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 1.5], [2.0, 0.0, 1.0], [-1.0, 1.0, 0.5]], np.float32)
    return step, (tf.TensorSpec([4, 3]),), {"x": x}


def gradient_unknown_batch(tf):
    """Gradients of a batch of unknown size: the gradient helpers read their target shapes at run time (Shape,
    BroadcastGradientArgs, BroadcastTo), as TF's own gradients do."""
    w = tf.Variable(np.array([[0.5, -0.2], [0.1, 0.4], [-0.3, 0.2]], np.float32), name="uw")
    scale = tf.Variable(np.array([1.5, -0.5, 2.0], np.float32), name="uscale")

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            h = x * scale  # a broadcast: its gradient sums over the unknown batch
            y = tf.tanh(h @ w)
            loss = tf.reduce_mean(y * y) + tf.reduce_sum(tf.reduce_mean(h, axis=1))
        grad_x, grad_w, grad_scale = tape.gradient(loss, [x, w, scale])
        return loss, grad_x, grad_w, grad_scale

    x = np.array([[1.0, 2.0, -1.0], [0.5, -0.5, 1.5], [2.0, 0.0, 1.0]], np.float32)
    return step, (tf.TensorSpec([None, 3]),), {"x": x}


def export_forms(tf):
    """Ops whose export needs more than one TF op: norms of order 1, inf and 3 (vector) and 1, inf (matrix),
    tensordot over axis lists (transposes around a MatMul), reductions of a tensor of unknown rank (Rank, Range)."""
    @tf.function
    def forms(x, t, u):
        return (tf.norm(x, ord=1), tf.norm(x, ord=np.inf, axis=1), tf.norm(x, ord=3, axis=0, keepdims=True),
                tf.norm(x, ord=1, axis=[0, 1]), tf.norm(x, ord=np.inf, axis=[0, 1], keepdims=True),
                tf.tensordot(x, t, axes=[[1], [0]]), tf.tensordot(t, x, axes=[[0], [1]]),
                tf.reduce_sum(u), tf.reduce_max(u * 2.0))

    x = np.array([[1.0, -2.0, 0.5, 3.0], [0.25, 4.0, -1.5, 2.0], [-3.0, 0.5, 1.0, -0.75]], np.float32)
    t = np.linspace(-1.0, 2.0, 8, dtype=np.float32).reshape(4, 2)
    u = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5
    return forms, (tf.TensorSpec([3, 4], tf.float32), tf.TensorSpec([4, 2], tf.float32),
                   tf.TensorSpec(None, tf.float32)), {"x": x, "t": t, "u": u}


def gradient_forms(tf):
    """Gradients whose export needs TF's extra forms: convolution gradients with explicit paddings (TF's EXPLICIT),
    the gradient of a gather with batch_dims (offset indices into one UnsortedSegmentSum), and tf.linspace of
    tensors along an axis (TF's linspace_nd)."""
    @tf.function
    def grads(x, k, params, indices):
        with tf.GradientTape() as tape:
            tape.watch([x, k, params])
            y = tf.nn.conv2d(x, k, 1, [[0, 0], [1, 0], [0, 1], [0, 0]])
            picked = tf.gather(params, indices, batch_dims=1, axis=1)
            loss = tf.reduce_sum(y * y) + tf.reduce_sum(picked * picked * params[:, :1])
        dx, dk, dp = tape.gradient(loss, [x, k, params])
        return dx, dk, dp, tf.linspace(params[:, 0], params[:, 1], 4, axis=1)

    x = np.sin(np.arange(16, dtype=np.float32)).reshape(1, 4, 4, 1)
    k = np.array([[1.0, -0.5], [0.25, 2.0]], np.float32).reshape(2, 2, 1, 1)
    params = np.arange(8, dtype=np.float32).reshape(2, 4) / 4.0 - 0.5
    indices = np.array([[0, 3, 3], [1, 1, 2]], np.int32)
    return grads, (tf.TensorSpec([1, 4, 4, 1], tf.float32), tf.TensorSpec([2, 2, 1, 1], tf.float32),
                   tf.TensorSpec([2, 4], tf.float32), tf.TensorSpec([2, 3], tf.int32)), \
        {"x": x, "k": k, "params": params, "indices": indices}


def explicit_and_broadcast_forms(tf):
    """Depthwise convolution with explicit paddings and both its gradients (TF's EXPLICIT), tf.linspace of
    start and stop of different shapes (TF broadcasts them), boolean_mask (TF's Reshape, Where, Squeeze,
    GatherV2 composite), and the gradient of a gather with batch_dims over a later axis than the next one."""
    @tf.function
    def grads(x, k, start, stop):
        with tf.GradientTape() as tape:
            tape.watch([x, k])
            y = tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], [[0, 0], [1, 2], [0, 1], [0, 0]])
            loss = tf.reduce_sum(y * y)
            later = tf.gather(x, [[1, 0, 1], [2, 2, 0]], batch_dims=1, axis=2)  # an axis after another
            loss += tf.reduce_sum(later * later * x[:, :1, :3, :1])
        dx, dk = tape.gradient(loss, [x, k])
        picked = tf.boolean_mask(tf.reshape(x, [2, -1]), [True, False])
        return y, dx, dk, tf.linspace(start, stop, 4, axis=1), picked

    x = np.cos(np.arange(2 * 5 * 6 * 3, dtype=np.float32)).reshape(2, 5, 6, 3)
    k = (np.arange(3 * 2 * 3 * 2, dtype=np.float32).reshape(3, 2, 3, 2) % 5) / 4.0 - 0.5
    start = np.array([[0.0], [1.0]], np.float32)
    stop = np.array([2.0, 4.0, 6.0], np.float32)
    return grads, (tf.TensorSpec([2, 5, 6, 3], tf.float32), tf.TensorSpec([3, 2, 3, 2], tf.float32),
                   tf.TensorSpec([2, 1], tf.float32), tf.TensorSpec([3], tf.float32)), \
        {"x": x, "k": k, "start": start, "stop": stop}


CASES = {"collatz": collatz, "dense_with_state": dense_with_state, "rnn_loop": rnn_loop,
         "elementwise": elementwise, "nested_cond_with_state": nested_cond_with_state, "small_cnn": small_cnn,
         "gradient_step": gradient_step, "gradient_unknown_batch": gradient_unknown_batch,
         "export_forms": export_forms, "gradient_forms": gradient_forms,
         "explicit_and_broadcast_forms": explicit_and_broadcast_forms}


def v1_graph(tf):
    """A TF1 graph: a placeholder, a variable (VarHandleOp) and a matmul; fetched by name."""
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, shape=(None, 3), name="x")
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
        y = tf.nn.relu(tf.matmul(x, w) - 4.0)
    return graph, {"x": np.array([[1., 2., 3.], [-1., 0.5, 2.]], np.float32)}, \
        {"w": np.arange(6, dtype=np.float32).reshape(3, 2)}, [y.name]


def v1_graph_initializers(tf):
    """A TF1 graph whose variables take their initial values in the session: a seeded random normal, get_variable's
    Glorot default and zeros, and a value computed from a fed placeholder; TF runs the graph's own `init`."""
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        v1.set_random_seed(7)
        x = v1.placeholder(tf.float32, [3], name="x")
        v = v1.Variable(tf.random.normal([3]), name="v")
        with v1.variable_scope("layer"):
            k = v1.get_variable("k", [3, 2])
            b = v1.get_variable("b", [2], initializer=v1.zeros_initializer())
        u = v1.Variable(x * 2.0, name="u")
        y = tf.nn.l2_normalize(tf.matmul(tf.reshape(v * u, [1, 3]), k) + b, axis=1, name="out")
        init = v1.global_variables_initializer()
    return graph, {"x": np.array([1.0, 2.0, 3.0], np.float32)}, init.name, [y.name, "v/Read/ReadVariableOp:0"]


def concrete(case):
    """(tf.function, its ConcreteFunction, feeds) of a case; keep the first while using the second."""
    function, specs, feeds = case
    return function, function.get_concrete_function(*specs), feeds
