"""The last small names of tf.compat.v1 (helper tf1rest): Dimension and dimension_at_index, TF1's tensor
equality switch, batch_scatter_update, TF1's string_split / decode_csv / parse_example signatures, the TF1
orthogonal and uniform-unit-scaling initializers, tables_initializer, extract_image_patches,
batch_to_space_nd, and the logging / gfile / python_io namespaces: eagerly and in TF1 sessions."""

from __future__ import annotations

import os
import tempfile

import numpy as np

from . import data, outcome, program, val


def text(x):
    """Nested lists with bytes as str (JSON keeps no bytes)."""
    if isinstance(x, (list, tuple)):
        return [text(v) for v in x]
    return x.decode() if isinstance(x, bytes) else x


@program
def p_tf1_rest_dimension(tf):
    v1 = tf.compat.v1
    D = v1.Dimension
    shape = tf.TensorShape([16, None, 256])
    return {
        "repr": [repr(D(3)), repr(D(None)), str(D(3)), str(D(None))],
        "arith": [str(D(3) + 2), str(D(3) * D(None)), str(D(6) // 4), str(D(6) % 4), str(4 - D(3)),
                  str(D(2) * 5), str(7 // D(2))],
        "compare": [D(3) == 3, D(None) == 3, D(3) != 4, D(3) < 4, D(None) < 4, D(5) >= D(5)],
        "int": [int(D(5)), D(3).value, D(None).value],
        "merge": [str(D(3).merge_with(None)), str(D(None).merge_with(D(4)))],
        "compatible": [D(3).is_compatible_with(D(None)), D(3).is_compatible_with(4), D(3).is_compatible_with(3)],
        "merge_error": outcome(lambda: D(3).merge_with(4), "are not compatible"),
        "assert_error": outcome(lambda: D(3).assert_is_compatible_with(4), "are not compatible"),
        "negative": outcome(lambda: D(-1), "must be >= 0"),
        "float": outcome(lambda: D(2.5), "must be integer or None"),
        "unhashable": outcome(lambda: hash(D(3)), "unhashable"),
        "at_index": [repr(v1.dimension_at_index(shape, 0)), repr(v1.dimension_at_index(shape, 1)),
                     repr(v1.dimension_at_index(tf.TensorShape(None), 3))],
        "dimension_value": [v1.dimension_value(D(4)), v1.dimension_value(7), v1.dimension_value(D(None))],
        "shape_bool": [bool(tf.TensorShape([])), bool(tf.TensorShape([0])), bool(tf.TensorShape([None])),
                       bool(tf.TensorShape(None))],
    }


@program
def p_tf1_rest_tensor_equality(tf):
    v1 = tf.compat.v1
    try:
        v1.disable_tensor_equality()
        x = tf.constant(1.0)
        v = tf.Variable(1.0)
        off = [x == x, x == tf.constant(1.0), x != x, v == v, v == tf.Variable(1.0), x == 1.0, v != v,
               hash(v) == id(v), len({v, v})]
    finally:
        v1.enable_tensor_equality()
    x = tf.constant([1.0, 2.0])
    on = val(x == tf.constant([1.0, 3.0]))
    v = tf.Variable(0.0)
    ref = repr(tf.constant(2.0).ref())
    return {"off": off, "on": on, "hash": outcome(lambda: hash(v), "Variable is unhashable"),
            "tensor_hash": outcome(lambda: hash(x), "Tensor is unhashable"), "ref": ref,
            "in_set": v.ref() in {v.ref(), x.ref()}}


@program
def p_tf1_rest_batch_scatter_update(tf):
    v1 = tf.compat.v1
    eager = tf.Variable(data([2, 3, 4]))
    v1.batch_scatter_update(eager, [[[0, 3], [1, 2], [2, 0]], [[3, 1], [0, 0], [1, 1]]],
                            np.arange(12, dtype=np.float32).reshape(2, 3, 2))
    flat = tf.Variable([1.0, 2.0, 3.0, 4.0])
    v1.batch_scatter_update(flat, [3, 0], [9.0, 8.0])
    graph = v1.Graph()
    with graph.as_default():
        var = v1.get_variable("w", initializer=data([2, 3]))
        op = v1.batch_scatter_update(var, [[0, 2], [1, 1]], [[10.0, 20.0], [30.0, 40.0]])
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        sess.run(op)
        session_value = sess.run(var).tolist()
    return {"eager": val(eager), "flat": val(flat), "session": session_value}


@program
def p_tf1_rest_string_split(tf):
    v1 = tf.compat.v1
    out = {}
    sparse = v1.string_split(["hello world", "a b  c", ""])
    out["sparse"] = text([val(sparse.indices), val(sparse.values), val(sparse.dense_shape)])
    out["ragged"] = text(v1.string_split(["hello world", "a,b;;c"], sep=",;", result_type="RaggedTensor").to_list())
    out["keep_empty"] = text(v1.string_split(["a,,b"], sep=",", skip_empty=False, result_type="RaggedTensor")
                             .to_list())
    out["delimiter"] = text(v1.string_split(["x|y"], delimiter="|", result_type="RaggedTensor").to_list())
    out["chars"] = text(v1.string_split(["abc"], sep="", result_type="RaggedTensor").to_list())
    out["bad_type"] = outcome(lambda: v1.string_split(["a"], result_type="Dense"), "result_type must be")
    graph = v1.Graph()
    with graph.as_default():
        lines = v1.placeholder(tf.string, [None])
        split = v1.string_split(lines, sep="-")
    with v1.Session(graph=graph) as sess:
        result = sess.run(split, {lines: ["a-b", "c--d-e"]})
    out["session"] = [result.indices.tolist(), text(result.values.tolist()), result.dense_shape.tolist()]
    return out


@program
def p_tf1_rest_initializers(tf):
    v1 = tf.compat.v1
    out = {
        "orthogonal": val(v1.orthogonal_initializer(seed=1)([3, 2])),
        "orthogonal_wide": val(v1.orthogonal_initializer(gain=2.0, seed=4)([2, 4])),
        "unit_scaling": val(v1.uniform_unit_scaling_initializer(factor=1.5, seed=3)([4, 3])),
        "unit_scaling_1d": val(v1.uniform_unit_scaling_initializer(seed=2)([5])),
        "orthogonal_1d": outcome(lambda: v1.orthogonal_initializer(seed=1)([3]), "at least two-dimensional"),
    }
    q = np.array(out["orthogonal"][2])
    out["orthonormal"] = bool(np.allclose(q.T @ q, np.eye(2), atol=1e-5))
    graph = v1.Graph()
    with graph.as_default():
        v1.set_random_seed(7)
        w = v1.get_variable("w", [4, 4], initializer=v1.orthogonal_initializer(seed=2))
        u = v1.get_variable("u", [3, 2], initializer=v1.uniform_unit_scaling_initializer(seed=5))
        init = v1.global_variables_initializer()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        w_value, u_value = sess.run([w, u])
    out["session"] = [np.round(w_value, 5).tolist(), np.round(u_value, 5).tolist()]
    return out


@program
def p_tf1_rest_parsing_signatures(tf):
    v1 = tf.compat.v1
    out = {"csv": val(v1.decode_csv(["1,2.5,x", "3,,y"], [[0], [9.0], ["?"]])),
           "csv_select": val(v1.decode_csv(["1;2;3"], [[0], [0]], field_delim=";", select_cols=[0, 2])),
           "csv_na": val(v1.decode_csv(["NA,1"], [[5], [0]], na_value="NA"))}
    example = tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2])),
        "b": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5]))})).SerializeToString()
    features = {"a": tf.io.FixedLenFeature([2], tf.int64), "b": tf.io.FixedLenFeature([], tf.float32)}
    out["single"] = val(v1.parse_single_example(example, features))
    out["batch"] = val(v1.parse_example([example, example], features))
    graph = v1.Graph()
    with graph.as_default():
        records = v1.placeholder(tf.string, [None])
        columns = v1.decode_csv(records, [[0], [0.0]])
    with v1.Session(graph=graph) as sess:
        out["session"] = [c.tolist() for c in sess.run(columns, {records: ["4,0.25", "5,1.5"]})]
    out["csv"] = text(out["csv"])
    return out


@program
def p_tf1_rest_image_space(tf):
    v1 = tf.compat.v1
    images = data([1, 4, 4, 1])
    patches = v1.extract_image_patches(images, ksizes=[1, 2, 2, 1], strides=[1, 2, 2, 1], rates=[1, 1, 1, 1],
                                       padding="VALID")
    both = outcome(lambda: v1.extract_image_patches(images, ksizes=[1, 2, 2, 1], sizes=[1, 2, 2, 1],
                                                    strides=[1, 1, 1, 1], rates=[1, 1, 1, 1], padding="VALID"),
                   "both")
    batch = data([4, 1, 1, 1])
    space = v1.batch_to_space_nd(batch, [2, 2], [[0, 0], [0, 0]])
    return {"patches": val(patches), "both": both, "space": val(space)}


@program
def p_tf1_rest_namespaces(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "r.tfrecord")
    with v1.python_io.TFRecordWriter(path) as writer:
        for text in (b"one", b"two", b"three"):
            writer.write(text)
    gz = os.path.join(folder, "r.gz")
    options = v1.python_io.TFRecordOptions(v1.python_io.TFRecordCompressionType.GZIP)
    with v1.python_io.TFRecordWriter(gz, options) as writer:
        writer.write(b"zipped")
    records = list(v1.python_io.tf_record_iterator(path))
    zipped = list(v1.python_io.tf_record_iterator(gz, options))
    zipped_enum = list(v1.python_io.tf_record_iterator(gz, v1.python_io.TFRecordCompressionType.GZIP))
    sub = os.path.join(folder, "a", "b")
    v1.gfile.MakeDirs(sub)
    with v1.gfile.GFile(os.path.join(sub, "f.txt"), "w") as f:
        f.write("text")
    v1.gfile.Copy(os.path.join(sub, "f.txt"), os.path.join(sub, "g.txt"))
    v1.gfile.Rename(os.path.join(sub, "g.txt"), os.path.join(sub, "h.txt"))
    with v1.gfile.FastGFile(os.path.join(sub, "h.txt"), "r") as f:
        copied = f.read()
    listing = sorted(v1.gfile.ListDirectory(sub))
    globbed = sorted(os.path.basename(p) for p in v1.gfile.Glob(os.path.join(sub, "*.txt")))
    exists = [v1.gfile.Exists(sub), v1.gfile.IsDirectory(sub), v1.gfile.Exists(os.path.join(sub, "g.txt"))]
    v1.gfile.Remove(os.path.join(sub, "h.txt"))
    v1.gfile.DeleteRecursively(os.path.join(folder, "a"))
    gone = v1.gfile.Exists(os.path.join(folder, "a"))
    before = v1.logging.get_verbosity()
    v1.logging.set_verbosity(v1.logging.ERROR)
    level = v1.logging.get_verbosity()
    v1.logging.set_verbosity(before)
    return {"records": [r.decode() for r in records], "zipped": [zipped[0].decode(), zipped_enum[0].decode()],
            "copied": copied, "listing": listing, "glob": globbed, "exists": exists, "gone": gone,
            "levels": [v1.logging.DEBUG, v1.logging.INFO, v1.logging.WARN, v1.logging.ERROR, v1.logging.FATAL,
                       level],
            "compression": [v1.python_io.TFRecordCompressionType.NONE, v1.python_io.TFRecordCompressionType.ZLIB,
                            v1.python_io.TFRecordCompressionType.GZIP]}


@program
def p_tf1_rest_tables_initializer(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)
        looked = table.lookup(tf.constant(["b", "z", "a"]))
        init = v1.tables_initializer()
        same = v1.initialize_all_tables()
    with v1.Session(graph=graph) as sess:
        sess.run(init)
        sess.run(same)
        values = sess.run(looked).tolist()
    return {"values": values, "name": init.name, "type": type(init).__name__}


@program
def p_tf1_rest_queue_per_session(tf):
    """A queue's contents belong to the Session that ran its enqueue (TF gives each Session its own queue
    kernel); eager code has its own contents too."""
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        q = v1.FIFOQueue(10, tf.int32, shapes=[])
        enqueue = q.enqueue_many([[1, 2, 3]])
        size = q.size()
        take = q.dequeue()
        close = q.close()
        closed = q.is_closed()
    first = v1.Session(graph=graph)
    second = v1.Session(graph=graph)
    first.run(enqueue)
    sizes = [int(first.run(size)), int(second.run(size))]
    second.run(enqueue)
    second.run(enqueue)
    taken = [int(first.run(take)), int(second.run(take)), int(second.run(take))]
    sizes += [int(first.run(size)), int(second.run(size))]
    first.run(close)
    state = [bool(first.run(closed)), bool(second.run(closed))]
    second.run(enqueue)
    sizes.append(int(second.run(size)))
    empty = outcome(lambda: [int(first.run(take)) for _ in range(3)], "is closed and has insufficient elements")
    first.close()
    second.close()
    eager = tf.queue.FIFOQueue(5, tf.int32, shapes=[])
    eager.enqueue(7)
    return {"sizes": sizes, "taken": taken, "closed": state, "empty": empty, "eager": int(eager.size())}
