"""TF's "Better performance with tf.function" guide: a ConcreteFunction's `inference_fn` (an AtomicFunction)
called with flat tensors; a graph that captures a variable refuses a plain call; no gradient flows through it."""

from . import program


@program
def p_inference_fn_of_a_concrete_function(tf):
    @tf.function
    def double(a):
        return a + a

    atomic_fn = double.get_concrete_function(tf.TensorSpec(shape=None, dtype=tf.string)).inference_fn
    flat = atomic_fn.call_flat(tf.constant("b"))
    out = [atomic_fn(tf.constant("a")).numpy().decode(), [t.numpy().decode() for t in flat],
           atomic_fn.name.startswith(b"__inference_double_"), str(atomic_fn.function_type)]
    try:
        atomic_fn(tf.constant(1.0))
        out.append("no error")
    except TypeError:
        out.append("TypeError")
    v = tf.Variable(2.0)

    @tf.function
    def scaled(x):
        return {"y": x * v}

    try:
        scaled.get_concrete_function(tf.TensorSpec([2])).inference_fn(tf.constant([1.0, 2.0]))
        out.append("no error")
    except ValueError as e:
        out.append(["ValueError", "call_with_captures" in str(e)])

    @tf.function
    def tripled(x):
        return {"y": x * 3.0}

    fn = tripled.get_concrete_function(tf.TensorSpec([2])).inference_fn
    out.append(fn(tf.constant([1.0, 2.0]))["y"].numpy().tolist())

    @tf.function
    def outer(x):
        return fn(x)["y"] + 1

    out.append(outer(tf.constant([1.0, 1.0])).numpy().tolist())
    with tf.GradientTape() as tape:
        x = tf.constant([1.0, 2.0])
        tape.watch(x)
        y = fn(x)["y"]
    out.append(tape.gradient(y, x) is None)
    return out
