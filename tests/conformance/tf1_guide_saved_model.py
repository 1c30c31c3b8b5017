"""TF's "Migrate the SavedModel workflow" guide (site/en/guide/migrate/saved_model.ipynb), its TF1 cells as
programs: a Session's graph and variables saved with tf.compat.v1.saved_model.Builder and simple_save, loaded
back into a Session with tf.compat.v1.saved_model.load (signatures name the tensors), the text form, and
TF's errors (tags not found, a second add_meta_graph_and_variables, a non-empty export directory, empty
signature inputs)."""

from __future__ import annotations

import os
import tempfile

from . import outcome, program


def _add_two_model(tf, folder, use_builder, as_text=False):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        with v1.Session() as sess:
            x = v1.placeholder(tf.float32, shape=[], name="input")
            offset = v1.get_variable("offset", initializer=2.0)
            output = x + offset
            sess.run(offset.initializer)
            sess.run(offset.assign(2.5))
            first = float(sess.run(output, {x: 3.0}))
            if use_builder:
                builder = v1.saved_model.Builder(folder)
                sig = v1.saved_model.predict_signature_def(inputs={"input": x}, outputs={"output": output})
                builder.add_meta_graph_and_variables(sess, tags=["serve"], signature_def_map={
                    tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY: sig})
                again = outcome(lambda: builder.add_meta_graph_and_variables(sess, tags=["other"]),
                                "has already been saved")
                builder.add_meta_graph(["serve", "gpu"], signature_def_map={"double": v1.saved_model
                                       .predict_signature_def({"input": x}, {"output": 2.0 * output})})
                saved = builder.save(as_text=as_text)
                written = [type(saved).__name__, os.path.basename(os.fsdecode(saved))]
                return first, again, written
            v1.saved_model.simple_save(sess, folder, inputs={"input": x}, outputs={"output": output})
            return first, None, None


def _load(tf, folder, tags, key, value):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        with v1.Session() as sess:
            meta = v1.saved_model.load(sess, tags, folder)
            sig = meta.signature_def[key]
            names = [sig.inputs["input"].name, sig.outputs["output"].name]
            result = float(sess.run(names[1], feed_dict={names[0]: value}))
            return {"names": names, "result": result, "tags": sorted(meta.meta_info_def.tags),
                    "method": sig.method_name, "signatures": sorted(meta.signature_def.keys()),
                    "variables": [v.name for v in v1.global_variables()]}


@program
def p_tf1_guide_saved_model_builder(tf):
    folder = os.path.join(tempfile.mkdtemp(), "builder")
    first, again, written = _add_two_model(tf, folder, use_builder=True)
    return {"first": first, "again": again, "written": written,
            "files": sorted(os.listdir(folder)), "variables": sorted(os.listdir(os.path.join(folder, "variables"))),
            "serve": _load(tf, folder, ["serve"], "serving_default", 5.0),
            "gpu": _load(tf, folder, ["gpu", "serve"], "double", 5.0),
            "missing_tags": outcome(lambda: _load(tf, folder, ["train"], "serving_default", 1.0),
                                    "could not be found in SavedModel"),
            "not_empty": outcome(lambda: tf.compat.v1.saved_model.Builder(folder), "isn't empty")}


@program
def p_tf1_guide_saved_model_simple_save(tf):
    v1 = tf.compat.v1
    folder = os.path.join(tempfile.mkdtemp(), "simple")
    first, _, _ = _add_two_model(tf, folder, use_builder=False)
    text_folder = os.path.join(tempfile.mkdtemp(), "text")
    _, _, written = _add_two_model(tf, text_folder, use_builder=True, as_text=True)
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="batch")
        info = v1.saved_model.build_tensor_info(x)
        empty = outcome(lambda: v1.saved_model.predict_signature_def({}, {"y": x}), "cannot be None or empty")
        no_out = outcome(lambda: v1.saved_model.predict_signature_def({"x": x}, None), "cannot be None or empty")
    return {"first": first, "simple": _load(tf, folder, ["serve"], "serving_default", 1.5),
            "text": [written, _load(tf, text_folder, ["serve"], "serving_default", 0.5)["result"]],
            "info": [info.name, info.dtype, [d.size for d in info.tensor_shape.dim]], "empty": empty,
            "no_outputs": no_out,
            "missing_dir": outcome(lambda: _load(tf, os.path.join(folder, "nope"), ["serve"], "x", 1.0),
                                   "SavedModel file does not exist")}
