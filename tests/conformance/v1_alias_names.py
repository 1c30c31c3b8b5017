"""tf.compat.v1 names that TF 2.21 has beyond its TF2 objects (helper v1alias): tf.compat.v1.errors' code table
and status context manager, TF1's image resize family (ResizeMethod codes, resize_images with align_corners,
resize_bilinear / resize_nearest_neighbor on the legacy and half-pixel rules, resize_image_with_pad), eagerly
and in a TF1 Session, and names of nested namespaces that are TF2 objects (config.experimental,
data.experimental, random.experimental) or other v1 objects (math.argmax with `dimension`)."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


@program
def p_v1_errors_codes(tf):
    e = tf.compat.v1.errors
    classes = [e.exception_type_from_error_code(code).__name__ for code in range(1, 17)]
    codes = [e.error_code_from_exception_type(getattr(tf.errors, name)) for name in classes]
    unknown = e.error_code_from_exception_type(ValueError)

    def not_ok():
        with e.raise_exception_on_not_ok_status():
            pass
        return "ok"

    return {"classes": classes, "codes": codes, "consts": [e.OK, e.NOT_FOUND, e.DATA_LOSS, e.UNAUTHENTICATED],
            "unknown": [type(unknown).__name__, str(unknown)],
            "missing": outcome(lambda: e.exception_type_from_error_code(0), "0"), "ok_status": not_ok()}


def _resizes(tf, x, nx):
    v1 = tf.compat.v1.image
    return [v1.resize_bilinear(x, [7, 4]), v1.resize_bilinear(x, [7, 4], align_corners=True),
            v1.resize_bilinear(x, [3, 9], half_pixel_centers=True), v1.resize_bilinear(x, [1, 1], align_corners=True),
            v1.resize_nearest_neighbor(nx, [7, 4]), v1.resize_nearest_neighbor(nx, [7, 11], align_corners=True),
            v1.resize_nearest_neighbor(nx, [3, 9], half_pixel_centers=True),
            v1.resize_images(x[0], [8, 3]), v1.resize_images(x, [8, 3], method=v1.ResizeMethod.NEAREST_NEIGHBOR),
            v1.resize(x, [8, 3], method=v1.ResizeMethod.BICUBIC, align_corners=True),
            v1.resize_images(x, [3, 4], method=v1.ResizeMethod.AREA),
            v1.resize_images(x, [9, 9], preserve_aspect_ratio=True),
            v1.resize_images(nx, [5, 7]),  # already that size: unchanged, int32 kept
            v1.resize_image_with_pad(x[1], 9, 4), v1.resize_image_with_pad(x, 4, 12, method=1, align_corners=True)]


@program
def p_v1_image_resize_eager(tf):
    x = tf.constant(data([2, 5, 7, 2]))
    nx = tf.constant(np.arange(70).reshape(2, 5, 7, 1).astype("int32"))
    v1 = tf.compat.v1.image
    return {"out": [val(t) for t in _resizes(tf, x, nx)],
            "method": [v1.ResizeMethod.BILINEAR, v1.ResizeMethod.NEAREST_NEIGHBOR, v1.ResizeMethod.BICUBIC,
                       v1.ResizeMethod.AREA],
            "both": outcome(lambda: v1.resize_bilinear(x, [3, 3], align_corners=True, half_pixel_centers=True),
                            "half_pixel_centers"),
            "glimpse": val(v1.extract_glimpse(x, [2, 3], [[0.0, 0.0], [-0.2, 0.3]], uniform_noise=False))}


@program
def p_v1_image_resize_session(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [2, 5, 7, 2])
        nx = v1.placeholder(tf.int32, [2, 5, 7, 1])
        outs = _resizes(tf, x, nx)
        shapes = [t.shape.as_list() for t in outs]
        outs = outs[:7] + [tf.reduce_sum(t, [-1, -2]) for t in outs[7:]]  # the rest in short (the file's size)
        with v1.Session() as sess:
            values = sess.run(outs, {x: data([2, 5, 7, 2]), nx: np.arange(70).reshape(2, 5, 7, 1)})
    return {"shapes": shapes, "values": [val(v) for v in values]}


@program
def p_v1_nested_namespaces(tf):
    v1 = tf.compat.v1
    x = tf.constant(data([3, 4]))
    return {"argmax": val(v1.math.argmax(x, dimension=1)), "argmin": val(v1.math.argmin(x, 0)),
            "sum": val(v1.math.reduce_sum(x, reduction_indices=[1], keep_dims=True)),
            "count": val(v1.math.count_nonzero(x > 0, axis=0, keep_dims=True)),
            "same": [v1.config.experimental.list_physical_devices is tf.config.list_physical_devices,
                     v1.data.experimental.AUTOTUNE == tf.data.AUTOTUNE,
                     v1.random.experimental.stateless_split is tf.random.split,
                     v1.dtypes.experimental.int4 is tf.dtypes.experimental.int4
                     if hasattr(tf.dtypes, "experimental") else None,
                     v1.io.gfile.exists is tf.io.gfile.exists, v1.math.argmax is v1.argmax,
                     v1.initializers.zeros is v1.zeros_initializer, v1.manip.gather_nd is v1.gather_nd],
            "cardinality": val(v1.data.experimental.cardinality(tf.data.Dataset.range(5))),
            "string": val(v1.strings.to_number(["1.5", "2"])),
            "sparse": val(tf.sparse.to_dense(v1.sparse.add(tf.sparse.from_dense(x), tf.sparse.from_dense(-x))))}


@program
def p_v1_namespace_functions(tf):
    v1 = tf.compat.v1
    split = v1.strings.split(["a b", "c  d e", ""])
    ragged = v1.strings.split("x-y-z", sep="-", result_type="RaggedTensor")
    return {"split": [val(split.indices), [b.decode() for b in split.values.numpy()], val(split.dense_shape)],
            "ragged": [[b.decode() for b in ragged.flat_values.numpy()], val(ragged.row_splits)],
            "both": outcome(lambda: v1.strings.split(input=["a"], source=["b"]), "Cannot specify both"),
            "kind": outcome(lambda: v1.strings.split(["a"], result_type="list"), "result_type"),
            "length": [val(v1.strings.length(["abc", "\u00e9"])),
                       val(v1.strings.length(["\u00e9"], None, "UTF8_CHAR"))],
            "multinomial": val(v1.random.stateless_multinomial([[0.0, 1.0, 2.0], [2.0, 0.0, -1.0]], 6, [3, 7],
                                                              output_dtype=tf.int32)),
            "identity": val(v1.initializers.identity(gain=3.0, dtype=tf.float64)([2, 3])),
            "identity_3d": outcome(lambda: v1.initializers.identity()([2, 2, 2]), "two-dimensional")}


@program
def p_v1_initializers_session(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        v1.set_random_seed(5)
        made = {name: getattr(v1.initializers, name)(seed=11)([40, 30])
                for name in ("he_normal", "he_uniform", "lecun_normal", "lecun_uniform")}
        with v1.Session() as sess:
            values = sess.run(made)
    return {name: [round(float(np.std(v)), 2), round(float(np.abs(v).max()), 2), val(v[:2, :3])]
            for name, v in values.items()}


def _summary_values(tf, serialized):
    summary = tf.compat.v1.Summary.FromString(serialized)
    return [[v.tag, v.metadata.plugin_data.plugin_name, v.metadata.display_name, v.metadata.summary_description,
             tf.make_ndarray(v.tensor).tolist()] for v in summary.value]


@program
def p_v1_summary_text_and_tensor(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        words = v1.placeholder(tf.string, [None])
        made = [v1.summary.text("notes", words), v1.summary.tensor_summary("tens", tf.constant([[1.5, 2.0]])),
                v1.summary.tensor_summary("ints", tf.constant(3), display_name="shown", summary_description="d")]
        with tf.name_scope("outer"):
            made.append(v1.summary.tensor_summary("inner", tf.constant([True, False]), family="fam"))
        bad = outcome(lambda: v1.summary.text("x", tf.constant(1)), "dtype string")
        merged = v1.summary.merge_all()
        with v1.Session() as sess:
            values = sess.run(made + [merged], {words: [b"hi", b"there"]})
    decoded = [_summary_values(tf, v) for v in values]
    for entry in decoded[0] + decoded[-1]:  # bytes of the text plugin's values, as text
        if entry[1] == "text":
            entry[4] = [b.decode() for b in entry[4]]
    return {"values": decoded, "bad": {k: v for k, v in bad.items() if k != "message"},
            "protos": [v1.summary.SummaryDescription(type_hint="x").type_hint,
                       v1.summary.TaggedRunMetadata(tag="t").tag]}


@program
def p_v1_graph_util_sub_graph(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.constant(np.ones([3, 2], np.float32), name="w")
        y = tf.matmul(x, w, name="y")
        with tf.control_dependencies([y]):
            z = tf.identity(x, name="z")
        tf.add(z, 1.0, name="other")
        shapes = [v1.graph_util.tensor_shape_from_node_def_name(graph, n).as_list() for n in ("y", "z:0")]
        graph_def = graph.as_graph_def()
    sub = v1.graph_util.extract_sub_graph(graph_def, ["z"])
    return {"shapes": shapes, "nodes": [[n.name, n.op] for n in sub.node],
            "y_only": [n.name for n in v1.graph_util.extract_sub_graph(graph_def, ["y"]).node],
            "absent": {k: v for k, v in outcome(lambda: v1.graph_util.extract_sub_graph(graph_def, ["q"]),
                                                "q is not in graph").items() if k != "message"},
            "bare": outcome(lambda: v1.graph_util.extract_sub_graph(graph_def, "z"), "iterable of strings")["error"],
            "not_def": outcome(lambda: v1.graph_util.extract_sub_graph(graph, ["z"]), "GraphDef")["error"]}


@program
def p_v1_graph_util_remove_training_nodes(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        x = v1.placeholder(tf.float32, [3], name="x")
        a = tf.identity(x, name="a")
        b = tf.identity(tf.stop_gradient(a, name="sg"), name="b")
        checked = v1.check_numerics(b, "bad", name="check")
        c = tf.multiply(b, 2.0, name="c")
        d = tf.add(c, checked, name="d")
        kept = tf.identity(d, name="kept")
        with tf.control_dependencies([kept]):
            tf.identity(c, name="after")
        graph_def = graph.as_graph_def()

    def listing(gd):
        return [[n.name, n.op, list(n.input)] for n in gd.node]
    return {"plain": listing(v1.graph_util.remove_training_nodes(graph_def)),
            "protected": listing(v1.graph_util.remove_training_nodes(graph_def, protected_nodes=["b", "check"]))}


@program
def p_v1_ragged_constant_value(tf):
    r = tf.compat.v1.ragged
    out = {}
    for key, args, kwargs in (("ints", [[[1, 2], [3]]], {}), ("floats", [[[[1.5, 2]], []]], {"ragged_rank": 1}),
                              ("nested", [[[[1], [2, 3]], [[4]]]], {}),
                              ("typed", [[[1, 2], []]], {"dtype": tf.float32, "row_splits_dtype": "int32"}),
                              ("dense", [[1, 2]], {}), ("empty", [[[], []]], {})):
        v = r.constant_value(*args, **kwargs)
        if isinstance(v, np.ndarray):
            out[key] = ["ndarray", str(v.dtype), v.tolist()]
            continue
        out[key] = [str(v.dtype), list(v.shape), v.ragged_rank, v.to_list(), [s.tolist() for s in v.nested_row_splits],
                    str(v.nested_row_splits[0].dtype), v.flat_values.tolist(), str(v).replace(" ", "")]
    direct = r.RaggedTensorValue(np.array([1.0, 2.0]), np.array([0, 0, 2]))
    out["direct"] = [direct.to_list(), list(direct.shape)]
    out["bad_splits"] = outcome(lambda: r.RaggedTensorValue(np.array([1]), [0, 1]), "row_splits")["error"]
    return out
