"""tf.compat.v1.saved_model's signature and tensor-info utilities as TF1 programs use them: the Predict,
Classify and Regress SignatureDefs (their protos and TF's type checks), build_signature_def with defaults,
is_valid_signature, TensorInfo of dense and sparse graph tensors and back, the constants' values, main_op and
main_op_with_restore run by the loader, maybe_saved_model_directory and MethodNameUpdater."""

from __future__ import annotations

import os
import tempfile

from . import outcome, program


def _text(proto) -> str:
    """A proto's text form (map entries sorted by key; the same in TF's and tinytf's proto classes)."""
    from google.protobuf import text_format

    return text_format.MessageToString(proto)


@program
def p_tf1_signature_defs(tf):
    sm = tf.compat.v1.saved_model
    out = {}
    with tf.Graph().as_default():
        examples = tf.compat.v1.placeholder(tf.string, [None], name="examples")
        scores = tf.compat.v1.placeholder(tf.float32, [None, 3], name="scores")
        classes = tf.compat.v1.placeholder(tf.string, [None, 3], name="classes")
        ints = tf.compat.v1.placeholder(tf.int32, [None], name="ints")
        out["classify"] = _text(sm.classification_signature_def(examples, classes, scores))
        out["classify_scores"] = _text(sm.signature_def_utils.classification_signature_def(examples, None, scores))
        out["regress"] = _text(sm.regression_signature_def(examples, scores))
        out["predict"] = _text(sm.predict_signature_def({"a": examples, "b": ints}, {"s": scores}))
        k = tf.constant([2, 3], name="k")
        out["built"] = _text(sm.build_signature_def(
            {"in": sm.build_tensor_info(ints)}, {"out": sm.utils.build_tensor_info(scores)}, "my/method",
            defaults={"k": k}))
        out["empty_built"] = _text(sm.build_signature_def())
        out["errors"] = {
            "classify_none": outcome(lambda: sm.classification_signature_def(None, classes, scores),
                                     "`examples` cannot be None"),
            "classify_not_tensor": outcome(lambda: sm.classification_signature_def("x", classes, scores),
                                           "must be a string Tensor"),
            "classify_both_none": outcome(lambda: sm.classification_signature_def(examples, None, None),
                                          "cannot both be None"),
            "classify_int_input": outcome(lambda: sm.classification_signature_def(ints, classes, scores),
                                          "input tensors must be of type string"),
            "classify_float_classes": outcome(lambda: sm.classification_signature_def(examples, scores, None),
                                              "classes must be of type string Tensor"),
            "classify_int_scores": outcome(lambda: sm.classification_signature_def(examples, None, ints),
                                           "scores must be a float Tensor"),
            "regress_none": outcome(lambda: sm.regression_signature_def(None, scores), "cannot be None"),
            "regress_not_tensor": outcome(lambda: sm.regression_signature_def([b"x"], scores), "of type Tensor"),
            "regress_no_predictions": outcome(lambda: sm.regression_signature_def(examples, None),
                                              "`predictions` cannot be None"),
            "regress_int_input": outcome(lambda: sm.regression_signature_def(ints, scores),
                                         "input tensors must be of type string"),
            "regress_int_output": outcome(lambda: sm.regression_signature_def(examples, ints),
                                          "output tensors must be of type float"),
            "predict_no_inputs": outcome(lambda: sm.predict_signature_def(None, {"s": scores}),
                                         "Prediction `inputs` cannot be None or empty"),
            "predict_no_outputs": outcome(lambda: sm.predict_signature_def({"a": ints}, {}),
                                          "Prediction `outputs` cannot be None or empty"),
            "default_not_const": outcome(lambda: sm.build_signature_def(defaults={"s": scores * 2.0}),
                                         "Unable to convert object"),
        }
        valid = sm.is_valid_signature
        regress = sm.regression_signature_def(examples, scores)
        bad_regress = sm.regression_signature_def(examples, scores)
        bad_regress.outputs["extra"].CopyFrom(sm.build_tensor_info(scores))
        renamed = sm.predict_signature_def({"a": examples}, {"s": scores})
        renamed.method_name = "tensorflow/serving/classify"
        out["valid"] = [valid(None), valid(regress), valid(bad_regress), valid(renamed),
                        valid(sm.classification_signature_def(examples, classes, None)),
                        valid(sm.build_signature_def({"a": sm.build_tensor_info(ints)}, {},
                                                     sm.PREDICT_METHOD_NAME)),
                        valid(sm.predict_signature_def({"a": ints}, {"b": ints}))]
    return out


@program
def p_tf1_saved_model_tensor_info(tf):
    v1 = tf.compat.v1
    sm = v1.saved_model
    out = {}
    with tf.Graph().as_default() as graph:
        x = v1.placeholder(tf.float64, [None, 4, 2], name="x")
        unknown = v1.placeholder(tf.int64, None, name="unknown")
        sp = v1.sparse_placeholder(tf.float32, shape=[3, 5], name="sp")
        out["dense"] = _text(sm.utils.build_tensor_info(x))
        out["unknown_rank"] = _text(sm.build_tensor_info(unknown))
        out["sparse"] = _text(sm.build_tensor_info(sp))
        back = sm.utils.get_tensor_from_tensor_info(sm.build_tensor_info(x))
        sparse_back = sm.get_tensor_from_tensor_info(sm.build_tensor_info(sp), graph=graph)
        out["back"] = [back.name, back is x, type(sparse_back).__name__, sparse_back.values.name,
                       sparse_back.indices.name]
        with tf.Graph().as_default() as other:
            with tf.name_scope("imported"):
                v1.placeholder(tf.float32, [2], name="x")
        scoped = sm.get_tensor_from_tensor_info(sm.build_tensor_info(x), graph=other, import_scope="imported")
        out["scoped"] = [scoped.name, scoped.dtype.name]
        info = sm.build_tensor_info(x)
        info.name = "nope:0"
        out["missing"] = outcome(lambda: sm.get_tensor_from_tensor_info(info), "nope")
        empty = type(info)()
        out["no_encoding"] = outcome(lambda: sm.get_tensor_from_tensor_info(empty), "Invalid TensorInfo.encoding")
    out["eager"] = outcome(lambda: sm.build_tensor_info(tf.constant(1.0)), "not supported in eager execution")
    return out


@program
def p_tf1_saved_model_constants(tf):
    sm = tf.compat.v1.saved_model
    names = {
        "constants": ["ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB",
                      "LEGACY_INIT_OP_KEY", "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB", "SAVED_MODEL_FILENAME_PBTXT",
                      "SAVED_MODEL_SCHEMA_VERSION", "VARIABLES_DIRECTORY", "VARIABLES_FILENAME"],
        "signature_constants": ["CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES",
                                "CLASSIFY_OUTPUT_SCORES", "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "PREDICT_INPUTS",
                                "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS", "REGRESS_METHOD_NAME",
                                "REGRESS_OUTPUTS"],
        "tag_constants": ["GPU", "SERVING", "TPU", "TRAINING"],
    }
    out = {}
    for module, attrs in names.items():
        sub = getattr(sm, module)
        out[module] = {a: [getattr(sub, a), getattr(sm, a) == getattr(sub, a)] for a in attrs}
    out["same_objects"] = [sm.builder.SavedModelBuilder is sm.Builder, sm.loader.load is sm.load,
                           sm.utils.build_tensor_info is sm.build_tensor_info,
                           sm.main_op.main_op_with_restore is sm.main_op_with_restore,
                           sm.signature_def_utils.predict_signature_def is sm.predict_signature_def,
                           sm.experimental.save is tf.saved_model.save,
                           sm.experimental.TrackableResource is tf.saved_model.experimental.TrackableResource,
                           sm.experimental.VariablePolicy is tf.saved_model.experimental.VariablePolicy]
    return out


def _saved_counter(tf, folder, restore_op):
    """A graph with a global and a local variable, saved with main_op (or main_op_with_restore). (No lookup table:
    tinytf's MetaGraphDef export has no TF1 table ops yet.)"""
    v1 = tf.compat.v1
    sm = v1.saved_model
    with tf.Graph().as_default():
        with v1.Session() as sess:
            x = v1.placeholder(tf.float32, [None], name="x")
            w = v1.get_variable("w", initializer=2.0)
            local = v1.get_variable("local", initializer=10.0, collections=[v1.GraphKeys.LOCAL_VARIABLES])
            key = v1.placeholder(tf.float32, [None], name="key")
            y = tf.add(x * w + local, key, name="y")
            sess.run([w.initializer, local.initializer])
            sess.run([w.assign(3.0), local.assign(20.0)])
            saved_run = sess.run(y, {x: [1.0, 2.0], key: [0.5, 0.25]}).tolist()
            if restore_op:
                marker = tf.no_op(name="restore_marker")
                main = sm.main_op_with_restore(marker)
            else:
                main = sm.main_op.main_op()
            builder = sm.builder.SavedModelBuilder(folder)
            builder.add_meta_graph_and_variables(
                sess, [sm.tag_constants.SERVING],
                {"pred": sm.predict_signature_def({"x": x, "key": key}, {"y": y})}, main_op=main)
            builder.save()
            # after the save (a failed call still names ops): an op's name is no op to TF 2.21's group
            by_name = outcome(lambda: sm.main_op_with_restore(marker.name), "should be zero or more") \
                if restore_op else None
            return saved_run, [main.type, by_name]


def _load_counter(tf, folder, tags=("serve",), key="pred"):
    v1 = tf.compat.v1
    with tf.Graph().as_default():
        with v1.Session() as sess:
            meta = v1.saved_model.loader.load(sess, list(tags), folder)
            sig = meta.signature_def[key]
            result = sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: [1.0, 2.0],
                                                      sig.inputs["key"].name: [1.0, 5.0]})
            return {"result": result.tolist(), "method": sig.method_name,
                    "main_op": list(meta.collection_def["saved_model_main_op"].node_list.value)}


@program
def p_tf1_saved_model_main_op_and_loader(tf):
    sm = tf.compat.v1.saved_model
    root = tempfile.mkdtemp()
    plain, restore = os.path.join(root, "plain"), os.path.join(root, "restore")
    # main_op re-initializes the variables after the restore: w back to 2.0, local to 10.0
    saved_plain, plain_type = _saved_counter(tf, plain, restore_op=False)
    saved_restore, restore_type = _saved_counter(tf, restore, restore_op=True)
    out = {"saved": [saved_plain, saved_restore], "types": [plain_type, restore_type],
           "plain": _load_counter(tf, plain), "restore": _load_counter(tf, restore),
           "maybe": [sm.loader.maybe_saved_model_directory(plain), sm.maybe_saved_model_directory(root),
                     sm.maybe_saved_model_directory(os.path.join(root, "nowhere"))]}
    updater = sm.signature_def_utils.MethodNameUpdater(plain)
    updater.replace_method_name("pred", "tensorflow/serving/regress", tags="serve")
    out["no_key"] = outcome(lambda: updater.replace_method_name("nope", "m"), "does not have a signature_def")
    out["no_tags"] = outcome(lambda: updater.replace_method_name("pred", "m", tags=["train"]),
                             "could not be found in SavedModel")
    out["no_name"] = outcome(lambda: updater.replace_method_name("pred", ""), "`method_name` must be defined")
    out["no_signature_key"] = outcome(lambda: updater.replace_method_name(None, "m"), "`signature_key` must be")
    updated = os.path.join(root, "updated")
    os.makedirs(updated)
    updater.save(updated)
    out["updated_files"] = sorted(os.listdir(updated))
    return out


@program
def p_tf1_saved_model_builder_checks(tf):
    """The builder's checks (TF's classes and messages) and its main op living in the graph's collection: a
    second main op on the same graph is refused, and later MetaGraphDefs carry the first."""
    v1 = tf.compat.v1
    sm = v1.saved_model
    root = tempfile.mkdtemp()
    out = {}
    with tf.Graph().as_default():
        with v1.Session() as sess:
            x = v1.placeholder(tf.float32, [2], name="x")
            v = v1.get_variable("v", initializer=1.0)
            sess.run(v.initializer)
            builder = sm.Builder(os.path.join(root, "checks"))
            out["tensor_main_op"] = outcome(lambda: builder.add_meta_graph_and_variables(sess, ["a"], main_op=x),
                                            "as a Python `bool` is not allowed")
            out["reserved_key"] = outcome(lambda: builder.add_meta_graph_and_variables(
                sess, ["a"], {"__saved_model_init_op": sm.predict_signature_def({"x": x}, {"y": x})}),
                "is reserved for initialization")
            nameless = sm.predict_signature_def({"x": x}, {"y": x})
            nameless.inputs["x"].ClearField("name")
            out["no_encoding"] = outcome(lambda: builder.add_meta_graph_and_variables(sess, ["a"], {"s": nameless}),
                                         "must have one of the 'encoding' fields")
            untyped = sm.predict_signature_def({"x": x}, {"y": x})
            untyped.outputs["y"].dtype = 0
            out["no_dtype"] = outcome(lambda: builder.add_meta_graph_and_variables(sess, ["a"], {"s": untyped}),
                                      "must have the dtype field set")
            builder = sm.Builder(os.path.join(root, "main_ops"))
            builder.add_meta_graph_and_variables(sess, ["a"], main_op=tf.group(v.initializer, name="first"))
            out["second_main_op"] = outcome(lambda: builder.add_meta_graph(["b"], main_op=tf.no_op(name="second")),
                                            "Graph already contains one or more main ops")
            builder.add_meta_graph(["c"])
            builder.save()
    with tf.Graph().as_default():
        with v1.Session() as sess:
            meta = sm.load(sess, ["c"], os.path.join(root, "main_ops"))
            out["carried"] = list(meta.collection_def["saved_model_main_op"].node_list.value)
            out["tags"] = outcome(lambda: sm.load(sess, ["b"], os.path.join(root, "main_ops")),
                                  "could not be found in SavedModel")
    return out
