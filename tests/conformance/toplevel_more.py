"""TF 2.21's top-level leftovers (tf.DeviceSpec, tf.AggregationMethod, tf.variable_creator_scope,
tf.register_tensor_conversion_function, tf.make_tensor_proto / make_ndarray, tf.guarantee_const, tf.edit_distance,
tf.approx_top_k, tf.extract_volume_patches, tf.eig / eigvals / matrix_square_root) and tf.quantization's fake
quantization: TF's docstring examples first, then edge cases, eagerly and inside tf.function."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val


@program
def p_doc_aggregation_method(tf):
    @tf.function
    def example():
        x = tf.constant(1.0)
        y = x * 2.0
        z = y + y + y + y
        return tf.gradients(z, [x, y], aggregation_method=tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N)
    methods = tf.AggregationMethod
    return [val(example()), [methods.ADD_N, methods.DEFAULT, methods.EXPERIMENTAL_TREE,
                             methods.EXPERIMENTAL_ACCUMULATE_N]]


@program
def p_device_spec(tf):
    d = tf.DeviceSpec.from_string("/job:foo/replica:0/task:1/device:CPU:0")
    gpu = tf.DeviceSpec(job="a", device_type="gpu", device_index=1)
    cpu = tf.DeviceSpec(device_type="cpu", device_index=0)
    merged = d.make_merged_spec(tf.DeviceSpec(device_type="GPU"))
    with tf.device(cpu.to_string()):
        inside = tf.constant(1.0) + 1.0
    return [d.to_string(), repr(d), [d.job, d.replica, d.task, d.device_type, d.device_index], gpu.to_string(),
            merged.to_string(), d.replace(task=3).to_string(), d == tf.DeviceSpec.from_string(d.to_string()),
            hash(d) == hash(tf.DeviceSpec.from_string(d.to_string())), d == merged,
            tf.DeviceSpec.from_string("/cpu:0").to_string(), tf.DeviceSpec.from_string("/GPU:*").to_string(),
            tf.DeviceSpec.from_string("CPU:1").to_string(), tf.DeviceSpec().to_string(),
            tf.DeviceSpec.from_string("/job:w/device:TPU_SYSTEM:0").device_type, val(inside),
            outcome(lambda: tf.DeviceSpec.from_string("/cpu:0/gpu:1"), "Multiple device types"),
            outcome(lambda: tf.DeviceSpec.from_string("/foo:bar"), "Unknown attribute")]


@program
def p_variable_creator_scope(tf):
    seen = []

    def outer(next_creator, **kwargs):
        seen.append(("outer", kwargs["name"], kwargs["trainable"]))
        return next_creator(**kwargs)

    def inner(next_creator, **kwargs):
        seen.append(("inner", sorted(kwargs)))
        kwargs["initial_value"] = kwargs["initial_value"] * 10.0
        kwargs["trainable"] = False
        return next_creator(**kwargs)

    with tf.variable_creator_scope(outer):
        with tf.variable_creator_scope(inner):
            v = tf.Variable(1.5, name="v")
        w = tf.Variable([1.0, 2.0])
    after = tf.Variable(3.0)
    return [val(v), v.trainable, val(w), w.trainable, val(after), [list(map(str, s)) for s in seen]]


@program
def p_register_tensor_conversion_function(tf):
    class Meters:
        def __init__(self, value):
            self.value = value

    class Feet:
        def __init__(self, value):
            self.value = value

    def meters_to_tensor(value, dtype=None, name=None, as_ref=False):
        return tf.constant(value.value, dtype=dtype or tf.float32, name=name)

    def feet_first(value, dtype=None, name=None, as_ref=False):
        return NotImplemented if value.value < 0 else tf.constant(value.value * 0.3048, dtype=dtype, name=name)

    tf.register_tensor_conversion_function(Meters, meters_to_tensor)
    tf.register_tensor_conversion_function(Feet, feet_first, priority=1)
    tf.register_tensor_conversion_function(Feet, lambda v, dtype=None, name=None, as_ref=False: tf.constant(-1.0))

    @tf.function
    def graph(x):
        return tf.convert_to_tensor(Meters(2.0)) + x

    return [val(tf.add(Meters(2.0), 1.0)), val(tf.convert_to_tensor(Meters(3), dtype=tf.float64)),
            val(tf.convert_to_tensor(Feet(10.0))), val(tf.convert_to_tensor(Feet(-1.0))), val(graph(tf.constant(1.0))),
            outcome(lambda: tf.register_tensor_conversion_function(int, meters_to_tensor), "numeric types"),
            outcome(lambda: tf.register_tensor_conversion_function(Meters, 3), "callable"),
            outcome(lambda: tf.register_tensor_conversion_function("x", meters_to_tensor), "type")]


@program
def p_make_tensor_proto(tf):
    cases = [[[1, 2], [3, 4]], 3.0, np.array([1.5, 2], np.float32), [True, False], np.float16([1, 2]), [b"ab", "c"],
             [1.0, 2.0]]
    protos = [tf.make_tensor_proto(c) for c in cases]
    protos += [tf.make_tensor_proto([1, 2, 3], dtype=tf.float32, shape=[3]), tf.make_tensor_proto(7, shape=[2, 2]),
               tf.make_tensor_proto([1, 2], shape=[4]), tf.make_tensor_proto(tf.constant([1.0, 2.0])),
               tf.make_tensor_proto([1, 2], dtype=tf.float64), tf.make_tensor_proto(2**40),
               tf.make_tensor_proto(np.zeros([0, 3], np.int64))]
    arrays = [tf.make_ndarray(p) for p in protos]
    return [[str(p) for p in protos], [[str(a.dtype), list(a.shape), str(a.tolist())] for a in arrays],
            outcome(lambda: tf.make_tensor_proto([1, 2, 3], shape=[2]), "Too many elements"),
            outcome(lambda: tf.make_tensor_proto([1, 2], shape=[4], verify_shape=True), "Expected Tensor's shape"),
            outcome(lambda: tf.make_tensor_proto([1.5], dtype=tf.int32), "Expected int32"),
            outcome(lambda: tf.make_tensor_proto(None), "None values not supported")]


@program
def p_guarantee_const(tf):
    x = tf.constant([1.0, 2.0])
    return [val(tf.guarantee_const(x)), val(tf.function(lambda t: tf.guarantee_const(t) * 2.0)(x))]


@program
def p_doc_edit_distance(tf):
    hypothesis = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], (2, 1, 1))
    truth = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ["a", "b", "c", "a"], (2, 2, 2))
    numbers_h = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0]], [1, 2, 3, 4], [2, 3])
    numbers_t = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [1, 3, 4, 4, 4], [2, 4])
    graph = tf.function(lambda: tf.edit_distance(hypothesis, truth, normalize=False))
    return [val(tf.edit_distance(hypothesis, truth)), val(tf.edit_distance(hypothesis, truth, normalize=False)),
            val(graph()), val(tf.edit_distance(numbers_h, numbers_t)),
            val(tf.edit_distance(numbers_h, numbers_t, normalize=False)),
            outcome(lambda: tf.edit_distance(tf.constant([1]), truth), "SparseTensor")]


@program
def p_approx_top_k(tf):
    x = tf.constant([[1.0, 5, 3, 2], [4, 0, 7, 7]])
    values, indices = tf.approx_top_k(x, 2)
    graph = tf.function(lambda t: tf.approx_top_k(t, 3))(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        top = tf.approx_top_k(x, 2).values
        loss = tf.reduce_sum(top * tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    return [val(values), val(indices), val(graph[0]), val(graph[1]),
            val(tape.gradient(loss, x)),
            outcome(lambda: tf.approx_top_k(x, 2, is_max_k=False), "Could not find device"),
            outcome(lambda: tf.approx_top_k(x, 1, reduction_dimension=0), "Could not find device"),
            outcome(lambda: tf.approx_top_k(tf.constant([[1, 2]]), 1), "not in the list of allowed values")]


@program
def p_extract_volume_patches(tf):
    v = tf.reshape(tf.range(2 * 4 * 4 * 4 * 2, dtype=tf.float32), [2, 4, 4, 4, 2])
    valid = tf.extract_volume_patches(v, [1, 2, 2, 2, 1], [1, 2, 2, 2, 1], "VALID")
    same = tf.extract_volume_patches(v, [1, 3, 2, 2, 1], [1, 2, 1, 3, 1], "SAME")
    graph = tf.function(lambda t: tf.extract_volume_patches(t, [1, 3, 3, 1, 1], [1, 1, 2, 1, 1], "SAME"))(v)
    with tf.GradientTape() as tape:
        tape.watch(v)
        loss = tf.reduce_sum(tf.extract_volume_patches(v, [1, 3, 2, 2, 1], [1, 2, 1, 3, 1], "SAME") ** 2)
    return [val(valid), val(same), val(graph), val(tape.gradient(loss, v))]


@program
def p_eig_and_square_root(tf):
    a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    w, _ = tf.eig(a)
    spd = tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.float64)
    values = tf.eigvals(tf.constant([[2.0, 0.0], [0.0, 3.0]], tf.float64))
    return [val(tf.math.real(w)), val(tf.math.imag(w)), val(tf.math.real(values)), values.dtype.name,
            tf.eig(a)[1].dtype.name,
            val(tf.matrix_square_root(spd)), val(tf.function(tf.matrix_square_root)(tf.cast(spd, tf.float32)))]


@program
def p_fake_quant(tf):
    q = tf.quantization
    x = tf.constant(np.linspace(-7, 7, 29).astype(np.float32))
    m, big = tf.Variable(-2.1), tf.Variable(3.3)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(q.fake_quant_with_min_max_vars(x, m, big) * tf.range(29.0))
    grads = tape.gradient(y, [x, m, big])
    xc = tf.reshape(x[:28], [7, 4])
    low, high = tf.constant([-1.0, -2.0, 0.5, -6.0]), tf.constant([1.0, 3.0, 4.0, 0.25])
    with tf.GradientTape() as tape:
        tape.watch([xc, low, high])
        z = tf.reduce_sum(q.fake_quant_with_min_max_vars_per_channel(xc, low, high, 3) * tf.reshape(tf.range(28.0),
                                                                                                   [7, 4]))
    channel_grads = tape.gradient(z, [xc, low, high])
    with tf.GradientTape() as tape:
        tape.watch(x)
        a = tf.reduce_sum(q.fake_quant_with_min_max_args(x, -1.0, 2.0) ** 2)
    graph = tf.function(lambda t: q.fake_quant_with_min_max_args(t, -1.3, 2.7, num_bits=4, narrow_range=True))
    return [val(q.fake_quant_with_min_max_args(x)), val(graph(x)),
            val(q.fake_quant_with_min_max_vars(x, -0.1, 5.3, 5)), val(q.fake_quant_with_min_max_vars(x, 0.5, 3.0)),
            val(q.fake_quant_with_min_max_vars(x, -4.0, -1.0, 6, True)), val(grads),
            val(q.fake_quant_with_min_max_vars_per_channel(xc, low, high, 3)), val(channel_grads),
            val(tape.gradient(a, x)),
            val(q.fake_quant_with_min_max_args_gradient(tf.ones([29]), x, -1.0, 1.0)),
            val(q.fake_quant_with_min_max_vars_gradient(tf.ones([29]), x, -1.0, 1.0)),
            val(q.fake_quant_with_min_max_vars_per_channel_gradient(tf.ones([7, 4]), xc, low, high)),
            outcome(lambda: q.fake_quant_with_min_max_args(x, 2.0, 1.0), "min has to be smaller than max"),
            outcome(lambda: q.fake_quant_with_min_max_args(x, num_bits=1), "num_bits"),
            outcome(lambda: q.fake_quant_with_min_max_args(tf.constant([1.0], tf.float64)), "float")]


@program
def p_doc_critical_section(tf):
    v = tf.Variable(0.0, name="v")

    def count():
        value = v.read_value()
        with tf.control_dependencies([value]):
            with tf.control_dependencies([v.assign_add(1)]):
                return tf.identity(value)

    cs = tf.CriticalSection()
    f1 = cs.execute(count)
    f2 = cs.execute(count)
    graph = tf.function(lambda: cs.execute(count) + cs.execute(count))
    nested = cs.execute(lambda: {"a": v * 2.0, "b": (v + 1.0,)})
    return [val(f1 + f2), val(graph()), val(v), val(nested),
            outcome(lambda: cs.execute(lambda: cs.execute(count)), "already running")]


@program
def p_random_index_shuffle(tf):
    results = []
    for top in [0, 1, 9, 100, 65535, 65536, 2**20 + 7, 2**40]:  # 65536: TF's block leaves its top bit out
        results.append([int(tf.random_index_shuffle(tf.constant(i, tf.int64), tf.constant([1, 2, 3], tf.int64),
                                                    tf.constant(top, tf.int64))) for i in range(min(top + 1, 12))])
    graph = tf.function(lambda i: tf.random_index_shuffle(i, [5, 6, 7], 9, rounds=8))
    seeds = tf.constant([[1, 2, 3], [4, 5, 6], [7, 8, 9], [2**31, 5, 2**32 - 1]], tf.uint64)
    return [results, val(graph(tf.range(10))),
            val(tf.random_index_shuffle(tf.constant([0, 1, 2, 3], tf.uint32), seeds, tf.constant(1000, tf.uint32))),
            val(tf.random.experimental.index_shuffle(tf.range(10), [3, 4], 9)),
            val(tf.random.experimental.index_shuffle(tf.range(10, dtype=tf.int64), tf.constant([-3, 4], tf.int32),
                                                     tf.constant(9, tf.int64))),
            tf.random.experimental.stateless_fold_in is tf.random.fold_in,
            outcome(lambda: tf.random_index_shuffle(tf.range(3), [[1, 2, 3]] * 2, 5), "Seed must be")]


@program
def p_quantize_and_dequantize(tf):
    q = tf.quantization
    x = tf.constant(np.linspace(-3.3, 2.9, 17).astype(np.float32))
    out = []
    for kw in [dict(input_min=-1.0, input_max=1.5, range_given=True), dict(input_min=0.0, input_max=0.0),
               dict(input_min=-2.0, input_max=2.0, range_given=True, num_bits=4, narrow_range=True),
               dict(input_min=0.0, input_max=2.0, range_given=True, signed_input=False, round_mode="HALF_UP"),
               dict(input_min=-1.0, input_max=1.0, range_given=True, num_bits=3)]:
        out += [val(q.quantize_and_dequantize_v2(x, **kw)), val(q.quantize_and_dequantize(x, **kw))]
    xm = tf.reshape(x[:16], [4, 4])
    low, high = tf.constant([-1.0, -2, 0, -3]), tf.constant([1.0, 2, 3, 0.5])
    out += [val(q.quantize_and_dequantize_v2(xm, low, high, axis=1)), val(q.quantize_and_dequantize(xm, low, high,
                                                                                                     axis=0)),
            val(tf.function(lambda t: q.quantize_and_dequantize_v2(t, -1.0, 1.0, range_given=True, num_bits=5))(x)),
            outcome(lambda: q.quantize_and_dequantize_v2(xm, low, high, range_given=True, axis=1), "must be a scalar"),
            outcome(lambda: q.quantize_and_dequantize_v2(xm, -1.0, 1.0, range_given=True, axis=1), "rank 1"),
            val(q.quantize_and_dequantize_v2(xm, -1.0, 1.0, axis=1)),
            outcome(lambda: q.quantize_and_dequantize_v2(x, 2.0, 1.0, range_given=True), "Invalid range")]
    mn, mx = tf.constant(-1.0), tf.constant(1.5)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, mn, mx])
        a = q.quantize_and_dequantize_v2(x, mn, mx, range_given=True)
        b = q.quantize_and_dequantize(x, mn, mx, range_given=True)
        c = q.quantize_and_dequantize_v2(x, mn, mx)
    for y in (a, b, c):
        out.append([None if g is None else val(g) for g in tape.gradient(y, [x, mn, mx])])
    return out
