"""`>>>` examples of TF 2.21's API docstrings where tinytf answered differently (found by running every
docstring example of TF's public API under both): dataset cardinalities, a map function's nested lists,
rebatch's vector of sizes, from_list of differing shapes, Python integers converted to narrow integer dtypes,
top_k's index_type, max pool's explicit padding, TensorShape(n), tf.gradients' stop_gradients, tf.tuple's
control inputs in a TF1 graph, and gradients with respect to a RaggedTensor."""

from . import outcome, program, val


@program
def p_cardinality_of_transformations(tf):
    infinite, finite = tf.data.Dataset.range(5).repeat(), tf.data.Dataset.range(5)
    transforms = [
        lambda d: d.filter(lambda x: True),
        lambda d: d.flat_map(lambda x: tf.data.Dataset.from_tensors(x)),
        lambda d: d.interleave(lambda x: tf.data.Dataset.from_tensors(x), cycle_length=2),
        lambda d: d.take_while(lambda x: x < 3),
        lambda d: d.unique(),
        lambda d: d.ignore_errors(),
        lambda d: d.batch(2).unbatch(),
        lambda d: d.batch(4).rebatch(2),
        lambda d: tf.data.Dataset.choose_from_datasets([d, d], tf.data.Dataset.range(2).repeat()),
        lambda d: tf.data.Dataset.sample_from_datasets([d, d]),
        lambda d: tf.data.Dataset.sample_from_datasets([d, finite]),
        lambda d: d.scan(0, lambda s, x: (s + 1, x)),
    ]
    out = [[int(t(d).cardinality()) for d in (infinite, finite)] for t in transforms]
    unknown = infinite.filter(lambda x: True).cardinality()
    out.append(bool((unknown == tf.data.UNKNOWN_CARDINALITY).numpy()))
    return out


@program
def p_map_function_returning_nested_lists(tf):
    ds = tf.data.Dataset.range(3)
    fns = [lambda x: [x, x], lambda x: ([x, x],), lambda x: (x, [x, 2 * x]), lambda x: {"a": [x, x]},
           lambda x: [[x], [x]], lambda x: (x, ["a", "b"]), lambda x: (x, [1, 2]), lambda x: [(x, x)],
           lambda x: ((37.0, [42, 16]), "foo")]
    out = [str(ds.map(f).element_spec) for f in fns]
    out.append(val(list(ds.map(lambda x: (x, [x, 2 * x])).as_numpy_iterator())))
    return out


@program
def p_rebatch_with_a_vector_of_sizes(tf):
    ds = tf.data.Dataset.range(8).batch(4)
    out = []
    for sizes, drop in (([2, 1, 1], False), ([3], True), ([2, 2], True), ([3, 2], True), ([5, 0], False), (3, False)):
        d = ds.rebatch(sizes, drop_remainder=drop)
        out.append([str(d.element_spec), val(list(d.as_numpy_iterator()))])
    return out


@program
def p_from_list_of_differing_shapes(tf):
    out = []
    for elements in ([[1], [2, 3]], [([1], "a"), ([2, 3], "b")], [[[1]], [[2, 3], [4, 5]]],
                     [{"a": [1]}, {"a": [1, 2]}]):
        d = tf.data.experimental.from_list(elements)
        out.append([str(d.element_spec), val(list(d.as_numpy_iterator()))])
    return out


@program
def p_python_integers_into_narrow_integer_dtypes(tf):
    import numpy as np

    out = []
    for dtype in (tf.int8, tf.uint8, tf.int16, tf.uint16, tf.int32, tf.uint32, tf.int64):
        for v in (129, 300, -1, 2**31 + 5, 2**32 + 7, [1, 300], np.int64(300), np.array([300])):
            out.append(outcome(lambda v=v, dtype=dtype: tf.constant(v, dtype=dtype), "out-of-range"))
            out.append(outcome(lambda v=v, dtype=dtype: tf.convert_to_tensor(v, dtype=dtype), "out-of-range"))
        out.append(outcome(lambda dtype=dtype: tf.constant(2**63 + 1, dtype=dtype), "out-of-range"))
    out.append(outcome(lambda: tf.constant(2**63 + 1, dtype=tf.uint64), "out-of-range"))
    out.append(outcome(lambda: tf.constant(2**63 + 1), "out-of-range"))
    x = tf.constant([1, 2], dtype=tf.int8)
    for y in ([129, 130], [2**31 + 5, 1], 300, [1.5, 2]):
        for f in (tf.add, lambda a, b: a + b, tf.multiply, tf.subtract, tf.maximum):
            out.append(outcome(lambda f=f, y=y: f(x, y), "int8"))
    return out


@program
def p_top_k_index_type(tf):
    out = []
    for index_type in (tf.int16, tf.int32, tf.int64, tf.int8, tf.float32):
        out.append(outcome(lambda t=index_type: tf.math.top_k([1, 1, 0, 1, 0, 1, 0], k=3, index_type=t), "index_type"))

    @tf.function
    def f(x):
        return tf.math.top_k(x, k=2, index_type=tf.int64)

    out.append(val(f(tf.constant([3.0, 1.0, 2.0]))))
    return out


@program
def p_max_pool_explicit_padding(tf):
    x = tf.reshape(tf.range(1.0, 13.0), [1, 3, 4, 1])
    pads = [[0, 0], [1, 1], [1, 1], [0, 0]]
    out = [val(tf.nn.max_pool2d(x, ksize=(2, 2), strides=(2, 2), padding=pads)[0, :, :, 0]),
           val(tf.nn.max_pool2d(-x, 2, 2, padding=pads)[0, :, :, 0]),
           val(tf.nn.max_pool(tf.cast(x, tf.int32), 2, 2, padding=[[0, 0], [1, 0], [0, 1], [0, 0]])[0, :, :, 0]),
           val(tf.nn.max_pool1d(tf.reshape(tf.range(-4.0, 0.0), [1, 4, 1]), 2, 2, padding=[[0, 0], [1, 1], [0, 0]]))]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 2, padding=pads)
    out.append(val(tape.gradient(y, x)[0, :, :, 0]))

    @tf.function
    def f(x):
        return tf.nn.max_pool2d(x, 3, 1, padding=[[0, 0], [2, 0], [1, 1], [0, 0]])

    out.append(val(f(x)[0, :, :, 0]))
    return out


@program
def p_tensor_shape_of_an_int_and_a_queue_of_it(tf):
    q = tf.queue.FIFOQueue(10, tf.int32, shapes=tf.TensorShape(2))
    q.enqueue(tf.constant([1, 2], dtype=tf.int32, shape=(2)))
    q.enqueue(tf.constant([3, 4], dtype=tf.int32, shape=(2)))
    return [str(tf.TensorShape(2)), tf.TensorShape(3).as_list(), val(q.dequeue_many(2))]


@program
def p_gradients_stop_gradients(tf):
    @tf.function
    def example():
        a = tf.constant(0.0)
        b = 2 * a
        return tf.gradients(a + b, [a, b], stop_gradients=[a, b])

    @tf.function
    def more():
        a = tf.constant(1.0)
        b = 2 * a
        c = b * b
        return (tf.gradients(c + a, [a], stop_gradients=[b]), tf.gradients(c + a, [a, b], stop_gradients=[c]),
                tf.gradients(c + b, [a, b], stop_gradients=b))

    return [val(example()), val(more())]


@program
def p_tuple_gates_a_tf1_update(tf):
    out = []
    with tf.Graph().as_default():
        with tf.compat.v1.Session() as sess:
            v = tf.Variable(0.0)
            a = tf.constant(1.0)
            sess.run(tf.compat.v1.global_variables_initializer())
            for _ in range(3):
                update_op = v.assign_add(1.0)
                b = tf.tuple([a + v], [tf.group(update_op)])
                # b's value is a race in TF (its read of v is not ordered after the update): only the update is
                sess.run(b)
                out.append(float(sess.run(v)))
    return out


@program
def p_gradient_with_respect_to_a_ragged_tensor(tf):
    x = tf.ragged.constant([[1.0, 2.0], [3.0]])
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    grad = g.gradient(y, x)
    v = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as g:
        rt = tf.RaggedTensor.from_row_lengths(v * 2.0, [2, 1])
        s = tf.reduce_sum(rt * rt)
    st = tf.sparse.SparseTensor([[0, 1]], [2.0], [2, 2])

    def watch_sparse():
        with tf.GradientTape() as g2:
            g2.watch(st)

    return [type(grad).__name__, grad.to_list(), val(g.gradient(s, v)), outcome(watch_sparse, "SparseTensor")]


@program
def p_checkpoint_of_a_root_object_names_itself_root(tf):
    import tempfile

    class SimpleModule(tf.Module):
        def __init__(self, name=None):
            super().__init__(name=name)
            self.a_var = tf.Variable(5.0)
            self.vars = [tf.Variable(1.0), tf.Variable(2.0)]

    root = SimpleModule(name="root")
    root.leaf = SimpleModule(name="leaf")
    path = tf.train.Checkpoint(root).save(tempfile.mkdtemp() + "/ckpt")
    view = tf.train.CheckpointView(path)
    root.a_var.assign(0.0)
    tf.train.Checkpoint(root).restore(path).assert_consumed()
    return [dict(view.children(0)), sorted(n for n, _ in tf.train.list_variables(path)), float(root.a_var.numpy()),
            " object at 0x" in repr(root)]


@program
def p_specs_from_values_and_specs(tf):
    st = tf.SparseTensor(indices=[[0, 0], [1, 2]], values=[1, 2], dense_shape=[3, 4])
    st.set_shape([3, None])
    out = [str(st.shape), outcome(lambda: st.set_shape([1, 4]), "compatible"),
           outcome(lambda: st.set_shape([3, 4, 5]), "compatible")]
    out.append(str(tf.TensorSpec.from_spec(tf.TensorSpec([8, 3], tf.int32), "NewName")))
    out.append(str(tf.TensorSpec.from_spec(tf.TensorSpec([8, None], tf.int32, name="a"))))
    out.append(str(tf.data.DatasetSpec.from_value(tf.data.Dataset.range(3))))
    return out


@program
def p_parsed_features_in_tf_order(tf):
    ex = tf.train.Example(features=tf.train.Features(feature={
        k: tf.train.Feature(int64_list=tf.train.Int64List(value=[i])) for i, k in enumerate("zamb")}))
    features = {"z": tf.io.FixedLenFeature([1], tf.int64), "a": tf.io.VarLenFeature(tf.int64),
                "m": tf.io.RaggedFeature(tf.int64), "b": tf.io.FixedLenFeature([1], tf.int64)}
    serialized = ex.SerializeToString()
    seq = tf.train.SequenceExample(context=ex.features).SerializeToString()
    lists = {"y": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True), "c": tf.io.VarLenFeature(tf.int64),
             "r": tf.io.RaggedFeature(tf.int64)}
    context, sequences, lengths = tf.io.parse_sequence_example([seq], context_features=features,
                                                               sequence_features=lists)
    return [list(tf.io.parse_example([serialized], features)), list(tf.io.parse_single_example(serialized, features)),
            list(context), list(sequences), list(lengths)]


@program
def p_truncated_normal_with_a_far_bound(tf):
    stddevs = tf.math.exp(tf.random.stateless_uniform(shape=[2, 3], seed=[1, 2]))
    y = tf.random.stateless_parameterized_truncated_normal(
        shape=[10, 2, 3], seed=[7, 17], means=0.0, stddevs=stddevs, minvals=[-1.0, -2.0, -1000.0],
        maxvals=[[10000.0], [1.0]])
    return val(y)


@program
def p_constant_of_a_graph_tensor(tf):
    @tf.function
    def f(x):
        return tf.constant(x)

    out = [outcome(lambda: f(tf.constant(1.0)), "non-tensor"), val(tf.constant(tf.constant(2.0)))]
    with tf.compat.v1.Graph().as_default():
        i = tf.compat.v1.placeholder(shape=[None, None], dtype=tf.float32)
        out.append(outcome(lambda: tf.constant(i), "non-tensor"))
    return out


@program
def p_gfile_file_scheme(tf):
    import tempfile

    folder = tempfile.mkdtemp()
    path = folder + "/x"
    with tf.io.gfile.GFile("file://" + path, "w") as f:
        f.write("qwert")
        f.write("asdf")
    out = [tf.io.gfile.GFile("file://" + path).read(), tf.io.gfile.exists("file://" + path)]
    tf.io.gfile.copy(path, "file://" + path + "y", overwrite=True)
    out.append(tf.io.gfile.GFile(path + "y").read())
    out.append(tf.io.gfile.join("file:///tmp", "x"))
    f = tf.io.gfile.GFile(path)
    out += [f.read(3), f.seek(4), f.tell()]
    out.append([p[len("file://" + folder):] for p in tf.io.gfile.glob("file://" + path + "*")])
    return out


@program
def p_to_code_of_a_function_without_source(tf):
    namespace = {}
    exec("def f(x):\n    if x < 0:\n        x = -x\n    return x\n", namespace)  # noqa: S102 - no source file
    return outcome(lambda: tf.autograph.to_code(namespace["f"]), "")
