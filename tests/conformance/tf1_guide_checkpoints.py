"""TF's "Migrate checkpoint saving" guide (site/en/guide/migrate/migrating_checkpoints.ipynb), its cells as
programs: a TF1 Saver used eagerly (sess=None), a TF1 name-based checkpoint restored by tf.train.Checkpoint
(variables matched by name), tf.train.Checkpoint saved and restored inside a TF1 Session
(run_restore_ops), the conversions between the two formats, and what tf.train.load_checkpoint lists (the
object graph key is a tf.string)."""

from __future__ import annotations

import os
import tempfile

from . import outcome, program


def _listing(tf, path):
    reader = tf.train.load_checkpoint(path)
    shapes = reader.get_variable_to_shape_map()
    dtypes = reader.get_variable_to_dtype_map()
    # sorted: the order of TF's map is its C++ map's
    return sorted([key, shapes[key], dtypes[key].name] for key in shapes)


def _values(tf, path):
    reader = tf.train.load_checkpoint(path)
    return {key: float(reader.get_tensor(key)) for key in reader.get_variable_to_shape_map()
            if key != "_CHECKPOINTABLE_OBJECT_GRAPH"}


def _tf1_checkpoint(tf, folder):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        a = v1.get_variable("a", shape=[], dtype=tf.float32, initializer=v1.zeros_initializer())
        b = v1.get_variable("b", shape=[], dtype=tf.float32, initializer=v1.zeros_initializer())
        c = v1.get_variable("scoped/c", shape=[], dtype=tf.float32, initializer=v1.zeros_initializer())
        with v1.Session() as sess:
            saver = v1.train.Saver()
            sess.run(a.assign(1))
            sess.run(b.assign(2))
            sess.run(c.assign(3))
            return saver.save(sess, os.path.join(folder, "tf1-ckpt"))


@program
def p_tf1_guide_saver_in_eager(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    path = _tf1_checkpoint(tf, folder)
    a = tf.Variable(0.0, name="a")
    b = tf.Variable(0.0, name="b")
    with tf.name_scope("scoped"):
        c = tf.Variable(0.0, name="c")
    saver = v1.train.Saver(var_list=[a, b, c])
    saver.restore(sess=None, save_path=path)
    loaded = [float(a.numpy()), float(b.numpy()), float(c.numpy())]
    a.assign(5.0)
    saved = saver.save(sess=None, save_path=os.path.join(folder, "tf1-ckpt-saved-in-eager"))
    files = sorted(os.listdir(folder))
    a2 = tf.Variable(0.0, name="a")
    renamed = v1.train.Saver({"a": a2})
    renamed.restore(None, saved)
    no_list = outcome(lambda: v1.train.Saver(), "var_list")
    return {"loaded": loaded, "listing": _listing(tf, saved), "values": _values(tf, saved),
            "prefix": os.path.basename(saved), "files": files, "renamed": float(a2.numpy()),
            "no_var_list": no_list, "scalar_type": type(a2.numpy()).__name__}


@program
def p_tf1_guide_checkpoint_restores_name_based(tf):
    folder = tempfile.mkdtemp()
    path = _tf1_checkpoint(tf, folder)
    a = tf.Variable(0.0, name="a")
    b = tf.Variable(0.0, name="b")
    with tf.name_scope("scoped"):
        c = tf.Variable(0.0, name="c")
    c_2 = tf.Variable(0.0, name="scoped/c")
    ckpt = tf.train.Checkpoint(variables=[a, b, c, c_2])
    status = ckpt.restore(path)
    loaded = [float(v.numpy()) for v in (a, b, c, c_2)]
    consumed = outcome(lambda: status.assert_consumed() is status, "not restored")
    d = tf.Variable(0.0, name="not_in_checkpoint")
    partial = tf.train.Checkpoint(variables=[a, d]).restore(path)
    missing = outcome(partial.assert_consumed, "attributes which were not restored")
    return {"loaded": loaded, "names": [c.name, c_2.name], "consumed": consumed, "missing": missing}


@program
def p_tf1_guide_checkpoint_in_session(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    with tf.Graph().as_default():
        a = v1.get_variable("a", shape=[], dtype=tf.float32, initializer=v1.constant_initializer(1))
        b = v1.get_variable("b", shape=[], dtype=tf.float32, initializer=v1.constant_initializer(2))
        with v1.variable_scope("scoped"):
            c = v1.get_variable("c", shape=[], dtype=tf.float32, initializer=v1.constant_initializer(3))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            ckpt = tf.train.Checkpoint(unscoped=[a, b], scoped=[c])
            tf2_path = ckpt.save(os.path.join(folder, "tf2-ckpt"))
            by_name = tf.train.Checkpoint(var_list={v.name.split(":")[0]: v for v in v1.global_variables()})
            named_path = by_name.save(os.path.join(folder, "tf2-ckpt-saved-in-session"))
    with tf.Graph().as_default():
        a = v1.get_variable("a_different_name", shape=[], dtype=tf.float32, initializer=v1.zeros_initializer())
        b = v1.get_variable("b_different_name", shape=[], dtype=tf.float32, initializer=v1.zeros_initializer())
        with v1.variable_scope("different_scope"):
            c = v1.get_variable("c", shape=[], dtype=tf.float32, initializer=v1.zeros_initializer())
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            ckpt = tf.train.Checkpoint(unscoped=[a, b], scoped=[c])
            status = ckpt.restore(tf2_path).assert_consumed()
            before = [float(x) for x in sess.run([a, b, c])]
            status.run_restore_ops()
            after = [float(x) for x in sess.run([a, b, c])]
            scalar_type = type(sess.run(a)).__name__
    a = tf.Variable(0.0)
    b = tf.Variable(0.0)
    c = tf.Variable(0.0)
    tf.train.Checkpoint(unscoped=[a, b], scoped=[c]).restore(tf2_path).assert_consumed().run_restore_ops()
    eager = [float(a.numpy()), float(b.numpy()), float(c.numpy())]
    return {"prefix": os.path.basename(tf2_path), "listing": _listing(tf, tf2_path),
            "values": _values(tf, tf2_path), "named": _listing(tf, named_path), "before": before,
            "after": after, "eager": eager, "scalar_type": scalar_type}


@program
def p_tf1_guide_convert_checkpoints(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    with tf.Graph().as_default():
        a = v1.get_variable("a", shape=[], dtype=tf.float32, initializer=v1.constant_initializer(1))
        with v1.variable_scope("scoped"):
            c = v1.get_variable("c", shape=[], dtype=tf.float32, initializer=v1.constant_initializer(3))
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            ckpt = tf.train.Checkpoint(var_list={v.name.split(":")[0]: v for v in v1.global_variables()})
            tf2_path = ckpt.save(os.path.join(folder, "tf2-in-session"))
    variables = {}
    reader = tf.train.load_checkpoint(tf2_path)
    for key in reader.get_variable_to_dtype_map():
        if key.startswith("var_list/"):
            variables[key.split("/")[1].replace(".S", "/")] = tf.Variable(reader.get_tensor(key))
    tf1_path = v1.train.Saver(var_list=variables).save(sess=None, save_path=os.path.join(folder, "converted"))
    with tf.Graph().as_default():
        a = v1.get_variable("a", shape=[], dtype=tf.float32, initializer=v1.constant_initializer(0))
        with v1.variable_scope("scoped"):
            c = v1.get_variable("c", shape=[], dtype=tf.float32, initializer=v1.constant_initializer(0))
        with v1.Session() as sess:
            v1.train.Saver([a, c]).restore(sess, tf1_path)
            restored = [float(x) for x in sess.run([a, c])]
    return {"listing": _listing(tf, tf1_path), "restored": restored,
            "object_graph_dtype": reader.get_variable_to_dtype_map()["_CHECKPOINTABLE_OBJECT_GRAPH"].name}


@program
def p_tf1_guide_saver_export_meta_graph(tf):
    """The SavedModel guide's "multiply" graph: Saver.export_meta_graph as text, then import_meta_graph and
    restore in a new graph (TF's tf.compat.v1 round trip)."""
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    meta_path = os.path.join(folder, "multiply.pb")
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, shape=[], name="x")
        v = tf.Variable(3.0, name="v")
        y = tf.multiply(x, v, name="y")
        with v1.Session() as sess:
            sess.run(v.initializer)
            first = float(sess.run(y, feed_dict={x: 5}))
            saver = v1.train.Saver()
            meta = saver.export_meta_graph(meta_path, as_text=True)
            saved = saver.save(sess, os.path.join(folder, "multiply_values.ckpt"))
            kept = [os.path.basename(p) for p in saver.last_checkpoints]
    with open(meta_path) as f:
        text = f.read()
    with tf.Graph().as_default() as graph:
        restorer = v1.train.import_meta_graph(meta_path)
        with v1.Session() as sess:
            restorer.restore(sess, saved)
            again = float(sess.run("y:0", feed_dict={"x:0": 7.0}))
    return {"first": first, "again": again, "kept": kept, "text": text.startswith("meta_info_def"),
            "has_y": any(n.name == "y" for n in meta.graph_def.node),
            "ops": sorted({op.type for op in graph.get_operations()} & {"Mul", "Placeholder"})}
