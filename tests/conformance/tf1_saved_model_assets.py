"""A TF1 SavedModel's assets (tf.compat.v1.saved_model.Builder's assets_collection): files named by scalar
string constants are copied into `assets/` (a different file with a taken basename gets `name_1`), listed in
the `saved_model_assets` collection (which later MetaGraphDefs of the same builder repeat, as TF's graph
collection does), and fed their new paths when the loader runs the main op: the loaded model reads its own
copy after the original file is gone. Plus TF's checks of an asset tensor."""

from __future__ import annotations

import os
import tempfile

from . import outcome, program


def _write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


@program
def p_tf1_saved_model_assets(tf):
    v1 = tf.compat.v1
    sm = v1.saved_model
    root = tempfile.mkdtemp()
    vocab, other = os.path.join(root, "vocab.txt"), os.path.join(root, "sub", "vocab.txt")
    _write(vocab, "apple\nbanana\ncherry\n")
    _write(other, "x\n")
    folder = os.path.join(root, "model")
    with tf.Graph().as_default():
        with v1.Session() as sess:
            path = tf.constant(vocab, name="vocab_path")
            path2 = tf.constant(other, name="vocab_path2")
            size = tf.strings.length(tf.io.read_file(path), name="size")
            n = v1.get_variable("n", initializer=0, collections=[v1.GraphKeys.LOCAL_VARIABLES])
            init = v1.assign(n, size, name="init_n")
            tf.identity(n, name="n_value")  # fetched by name after the load
            builder = sm.Builder(folder)
            builder.add_meta_graph_and_variables(
                sess, ["serve"], {"s": sm.predict_signature_def({"p": path}, {"size": size})},
                assets_collection=[path, path2], main_op=tf.group(init))
            builder.add_meta_graph(["other"], assets_collection=[path])
            builder.save()
            errors = {
                "not_string": outcome(lambda: sm.Builder(os.path.join(root, "e1")).add_meta_graph_and_variables(
                    sess, ["a"], assets_collection=[tf.constant(1)]), "must be of dtype string"),
                "not_const": outcome(lambda: sm.Builder(os.path.join(root, "e2")).add_meta_graph_and_variables(
                    sess, ["a"], assets_collection=[tf.identity(path)]), "must be of type constant"),
                "not_scalar": outcome(lambda: sm.Builder(os.path.join(root, "e3")).add_meta_graph_and_variables(
                    sess, ["a"], assets_collection=[tf.constant([vocab, other])]), "must be a scalar"),
            }
    os.remove(vocab)  # the loaded model reads its own copy
    out = {"assets": sorted(os.listdir(os.path.join(folder, "assets"))), "errors": errors}
    for tags in (["serve"], ["other"]):
        with tf.Graph().as_default():
            with v1.Session() as sess:
                meta = sm.load(sess, tags, folder)
                packed = meta.collection_def["saved_model_assets"].any_list.value
                out["+".join(tags)] = {
                    "asset_file_def": len(meta.asset_file_def), "collection": len(packed),
                    "type_urls": sorted({a.type_url for a in packed}),
                    "n": int(sess.run("n_value:0")) if tags == ["serve"] else None}
    copied = os.path.join(folder, "assets", "vocab.txt")
    with tf.Graph().as_default():
        with v1.Session() as sess:
            meta = sm.load(sess, ["serve"], folder)
            sig = meta.signature_def["s"]
            out["signature"] = int(sess.run(sig.outputs["size"].name, {sig.inputs["p"].name: copied}))
    return out
