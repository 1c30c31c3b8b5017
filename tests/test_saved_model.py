"""tf.saved_model: round trips in a fresh process that cannot import the saving code, loaded graphs run
eagerly-called, inside tf.function, with and without the graph passes, against numpy and finite
differences; SavedModels and a GraphDef written by TensorFlow 2.21 (tests/tf_files/saved_models); the
file format; corrupted, truncated and interrupted saves."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from tensorboard.compat.proto import graph_pb2, meta_graph_pb2

import tinytf as tf
from tinytf.saved_model.proto import SavedModel
from tinytf.saved_model.tf_library import native_functions

HERE = os.path.dirname(os.path.abspath(__file__))
TF_FILES = os.path.join(HERE, "tf_files", "saved_models")
REFERENCE = json.load(open(os.path.join(TF_FILES, "reference.json")))

DEFINITION = '''
import tinytf as tf

class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]])
        self.b = tf.Variable([0.1, -0.2])
        self.steps = tf.Variable(0, trainable=False)
        self.offset = tf.constant([1.0, 2.0])  # a captured eager tensor

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def __call__(self, x):
        return tf.nn.tanh(tf.matmul(x, self.w) + self.b) + self.offset * 0.0

    @tf.function
    def scan(self, x, power=2):
        total = tf.zeros([2])
        for row in x:
            total += tf.matmul(row[None] ** power, self.w)[0]
        if tf.reduce_sum(total) > 1.0:
            total = total * self.b
        else:
            total = total - self.offset
        self.steps.assign_add(1)
        return {"total": total, "n": self.steps.read_value()}
'''

LOADER = '''
import importlib.util, json, sys
import numpy as np
import tinytf as tf
assert importlib.util.find_spec("net_def") is None, "the loading process must not see the defining module"
loaded = tf.saved_model.load(sys.argv[1])
x = tf.constant(np.array(json.loads(sys.argv[2]), np.float32))
out = {"call": loaded(x).numpy().tolist(),
       "scan": {k: v.numpy().tolist() for k, v in loaded.scan(x).items()},
       "scan3": loaded.scan(x, power=3)["total"].numpy().tolist(),
       "signature": loaded.signatures["serving_default"](x=x)["output_0"].numpy().tolist(),
       "wrapped": tf.function(lambda v: loaded(v) * 2.0)(x).numpy().tolist()}
with tf.GradientTape() as tape:
    y = tf.reduce_sum(loaded(x) ** 2)
out["grads"] = [g.numpy().tolist() for g in tape.gradient(y, [loaded.w, loaded.b])]
print(json.dumps(out))
'''


@pytest.fixture
def net(tmp_path, monkeypatch):
    """The Net class from a module of its own, importable only in this process."""
    defs = tmp_path / "defs"
    defs.mkdir()
    (defs / "net_def.py").write_text(DEFINITION)
    monkeypatch.syspath_prepend(str(defs))
    import importlib

    module = importlib.import_module("net_def")
    yield module.Net()
    sys.modules.pop("net_def", None)


X = np.array([[0.3, -0.2, 0.9], [1.1, 0.4, -0.6]], np.float32)


def _load_elsewhere(path, passes=None):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if passes is not None:
        env["TINYTF_PASSES"] = passes
    result = subprocess.run([sys.executable, "-c", LOADER, str(path), json.dumps(X.tolist())], env=env,
                            capture_output=True, text=True, cwd=os.path.dirname(path), timeout=300)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _numpy_net(x, w, b, power=2):
    return np.tanh(x @ w + b)


@pytest.mark.parametrize("passes", ["all", "none"])
def test_round_trip_in_a_process_without_the_source(net, tmp_path, passes):
    net.scan(tf.constant(X))
    net.scan(tf.constant(X), power=3)
    path = tmp_path / "saved" / "net"
    tf.saved_model.save(net, str(path))
    got = _load_elsewhere(str(path), passes=None if passes == "all" else "none")
    expected = net(tf.constant(X)).numpy()
    np.testing.assert_allclose(got["call"], expected, rtol=1e-6)
    np.testing.assert_allclose(got["call"], _numpy_net(X, net.w.numpy(), net.b.numpy()), rtol=1e-5)
    np.testing.assert_allclose(got["signature"], expected, rtol=1e-6)
    np.testing.assert_allclose(got["wrapped"], expected * 2, rtol=1e-6)
    steps_before = int(net.steps.numpy())
    scanned = net.scan(tf.constant(X))
    np.testing.assert_allclose(got["scan"]["total"], scanned["total"].numpy(), rtol=1e-6)
    assert got["scan"]["n"] == steps_before + 1  # the saved value (two calls before the save) plus the call
    np.testing.assert_allclose(got["scan3"], net.scan(tf.constant(X), power=3)["total"].numpy(), rtol=1e-6)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(net(tf.constant(X)) ** 2)
    for g, e in zip(got["grads"], tape.gradient(y, [net.w, net.b])):
        np.testing.assert_allclose(g, e.numpy(), rtol=1e-5)


def _finite_difference(f, variable, eps=1e-3):
    base = variable.numpy().astype(np.float64)
    grad = np.zeros_like(base)
    for index in np.ndindex(base.shape):
        for sign in (1, -1):
            shifted = base.copy()
            shifted[index] += sign * eps
            variable.assign(shifted.astype(np.float32))
            grad[index] += sign * float(f().numpy()) / (2 * eps)
    variable.assign(base.astype(np.float32))
    return grad


def test_loaded_gradients_match_finite_differences_and_fine_tuning(net, tmp_path):
    tf.saved_model.save(net, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    x = tf.constant(X)

    def loss():
        return tf.reduce_sum(loaded(x) ** 2)

    with tf.GradientTape() as tape:
        value = loss()
    grads = tape.gradient(value, [loaded.w, loaded.b])
    for g, variable in zip(grads, [loaded.w, loaded.b]):
        np.testing.assert_allclose(g.numpy(), _finite_difference(loss, variable), rtol=2e-2, atol=2e-3)
    optimizer = tf.keras.optimizers.SGD(0.1)
    first = float(loss().numpy())
    for _ in range(5):
        with tf.GradientTape() as tape:
            value = loss()
        optimizer.apply_gradients(zip(tape.gradient(value, [loaded.w, loaded.b]), [loaded.w, loaded.b]))
    assert float(loss().numpy()) < first
    assert not np.allclose(loaded.w.numpy(), net.w.numpy())  # the loaded variables are their own


def test_never_traced_signature_lists_the_saved_ones(net, tmp_path):
    net.scan(tf.constant(X))
    tf.saved_model.save(net, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    with pytest.raises(ValueError, match="Could not find matching concrete function") as info:
        loaded.scan(tf.constant([[1.0, 2.0]]))
    assert "Option 1:" in str(info.value) and "TensorSpec(shape=(2, 3), dtype=tf.float32, name='x')" in str(info.value)
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        loaded(tf.constant([[1, 2, 3]]))
    # A signature of one input also takes it positionally, as in TF 2.21 (allowed_positional_arguments=1)
    serving = loaded.signatures["serving_default"]
    np.testing.assert_allclose(serving(tf.constant(X))["output_0"].numpy(),
                               serving(x=tf.constant(X))["output_0"].numpy())
    with pytest.raises(TypeError, match="multiple values"):
        serving(tf.constant(X), x=tf.constant(X))


def test_format_is_tensorflows_layout(net, tmp_path):
    net.scan(tf.constant(X))
    path = tmp_path / "m"
    tf.saved_model.save(net, str(path))
    assert sorted(os.listdir(path)) == ["assets", "fingerprint.pb", "saved_model.pb", "variables"]
    saved = SavedModel()
    saved.ParseFromString((path / "saved_model.pb").read_bytes())
    meta = meta_graph_pb2.MetaGraphDef()
    meta.ParseFromString(saved.meta_graphs[0].SerializeToString())
    assert list(meta.meta_info_def.tags) == ["serve"]
    kinds = [node.WhichOneof("kind") for node in meta.object_graph_def.nodes]
    assert kinds[0] == "user_object" and kinds.count("variable") == 3 and kinds.count("function") == 2
    assert "constant" in kinds  # the captured eager tensor
    signature = meta.signature_def["serving_default"]
    assert signature.inputs["x"].name == "serving_default_x:0"
    assert signature.outputs["output_0"].name == "StatefulPartitionedCall:0"
    ops = {node.op for f in meta.graph_def.library.function for node in f.node_def}
    assert {"MatMul", "Tanh", "AssignVariableOp"} <= ops and ops & {"While", "StatelessWhile"} \
        and ops & {"If", "StatelessIf"}  # TF's ops, for TF's loader
    native = {node.op for f in native_functions(meta) for node in f.node_def}
    assert {"matmul", "tanh", "while_loop", "cond", "assign_variable"} <= native  # tinytf's ops, as data
    names = {v[0] for v in tf.train.list_variables(str(path / "variables" / "variables"))}
    assert {"w/.ATTRIBUTES/VARIABLE_VALUE", "b/.ATTRIBUTES/VARIABLE_VALUE"} <= names


def test_corrupted_and_truncated_files(net, tmp_path):
    path = tmp_path / "m"
    tf.saved_model.save(net, str(path))
    with pytest.raises(OSError, match="SavedModel file does not exist at"):
        tf.saved_model.load(str(tmp_path / "absent"))
    pb = (path / "saved_model.pb").read_bytes()
    (path / "saved_model.pb").write_bytes(pb[: len(pb) // 3])
    with pytest.raises(OSError, match="Cannot parse file"):
        tf.saved_model.load(str(path))
    (path / "saved_model.pb").write_bytes(pb)
    data = path / "variables" / "variables.data-00000-of-00001"
    raw = data.read_bytes()
    data.write_bytes(raw[:-4])
    with pytest.raises(tf.errors.DataLossError):
        tf.saved_model.load(str(path))
    data.write_bytes(raw[:8] + bytes([raw[8] ^ 0xFF]) + raw[9:])
    with pytest.raises(tf.errors.DataLossError, match="Checksum"):
        tf.saved_model.load(str(path))


def test_failed_save_leaves_the_old_model(net, tmp_path):
    path = tmp_path / "m"
    tf.saved_model.save(net, str(path))
    before = {p: (path / p).read_bytes() for p in ["saved_model.pb", "variables/variables.index"]}

    class Bad(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return x + tf.Variable(2.0)  # an untracked variable: TF refuses to save it

    with pytest.raises((ValueError, AssertionError)):
        tf.saved_model.save(Bad(), str(path))
    assert {p: (path / p).read_bytes() for p in before} == before
    assert sorted(os.listdir(tmp_path)) == ["defs", "m"]  # no staging directory left behind
    tf.saved_model.save(net, str(path))  # saving over an existing SavedModel replaces it whole
    assert tf.saved_model.load(str(path))(tf.constant(X)).shape == (2, 2)


def test_interrupted_save_keeps_the_previous_model(net, tmp_path):
    path = tmp_path / "m"
    tf.saved_model.save(net, str(path))
    script = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(tmp_path / 'defs')!r})
        import tinytf as tf
        import net_def
        save_module = sys.modules["tinytf.saved_model.save"]
        real = save_module.write_bundle
        def dying(prefix, tensors):  # the process dies while the variables are being written
            real(prefix, tensors)
            os._exit(3)
        save_module.write_bundle = dying
        tf.saved_model.save(net_def.Net(), {str(path)!r})
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 3, result.stderr
    loaded = tf.saved_model.load(str(path))
    np.testing.assert_allclose(loaded(tf.constant(X)).numpy(), net(tf.constant(X)).numpy(), rtol=1e-6)


def test_unsavable_op_is_named(tmp_path):
    import io

    class Printer(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            tf.print(x, output_stream=io.StringIO())
            return x

    with pytest.raises(ValueError, match="op print .*'stream'.*StringIO"):
        tf.saved_model.save(Printer(), str(tmp_path / "p"))
    assert not (tmp_path / "p").exists()


def test_printing_and_random_functions_round_trip(tmp_path, capfd):
    class Noisy(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
        def f(self, x):
            tf.print("x is", x, output_stream="file://" + str(tmp_path / "log.txt"))
            return x + tf.random.uniform([3], seed=5)

    tf.saved_model.save(Noisy(), str(tmp_path / "n"))
    loaded = tf.saved_model.load(str(tmp_path / "n"))
    first, second = (loaded.f(tf.constant([1.0, 2.0, 3.0])).numpy() - [1.0, 2.0, 3.0] for _ in range(2))
    assert ((0 <= first) & (first < 1)).all() and not np.allclose(first, second)  # a random op, drawing anew
    assert (tmp_path / "log.txt").read_text() == "x is [1 2 3]\nx is [1 2 3]\n"


def test_keras_export_round_trip_in_a_fresh_process(tmp_path):
    keras = tf.keras
    model = keras.Sequential([keras.Input((8, 8, 1)), keras.layers.Conv2D(3, 3, activation="relu"),
                              keras.layers.MaxPooling2D(2), keras.layers.Flatten(), keras.layers.Dense(2)])
    x = np.random.RandomState(0).rand(2, 8, 8, 1).astype(np.float32)
    model.export(str(tmp_path / "exported"), verbose=False)
    code = ("import sys, json, numpy as np, tinytf as tf\n"
            "m = tf.saved_model.load(sys.argv[1])\n"
            "x = np.array(json.loads(sys.argv[2]), np.float32)\n"
            "print(json.dumps([m.serve(x).numpy().tolist(), len(m.trainable_variables), sorted(m.signatures)]))")
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path / "exported"), json.dumps(x.tolist())],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    served, n_trainable, signatures = json.loads(result.stdout.strip().splitlines()[-1])
    np.testing.assert_allclose(served, model(x).numpy(), rtol=1e-5, atol=1e-6)
    assert n_trainable == 4 and signatures == ["serve", "serving_default"]


# --- written by TensorFlow 2.21 -----------------------------------------------------------------------------
def test_tf_module_with_loop_and_branch():
    loaded = tf.saved_model.load(os.path.join(TF_FILES, "module"))
    np.testing.assert_allclose(loaded(tf.constant([1.0, 2.0])).numpy(), REFERENCE["module_y"])
    assert float(loaded.countdown(tf.constant(5.0))) == REFERENCE["countdown5"]
    assert float(loaded.countdown(tf.constant(3.0))) == REFERENCE["countdown3"]
    assert list(loaded.signatures) == ["serving_default"]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(loaded(tf.constant([1.0, 2.0])))
    assert [float(g) if g.shape == () else g.numpy().tolist() for g in tape.gradient(y, [loaded.scale, loaded.v])] \
        == [3.0, [2.0, 0.0]]


@pytest.mark.parametrize("passes", [True, False])
def test_tf_keras_mlp_and_cnn(passes):
    saved = tf.config.optimizer.get_experimental_options()
    tf.config.optimizer.set_experimental_options({"disable_all": not passes})
    try:
        mlp = tf.saved_model.load(os.path.join(TF_FILES, "keras_mlp"))
        x = np.array(REFERENCE["mlp_x"], np.float32)
        np.testing.assert_allclose(mlp.serve(x).numpy(), REFERENCE["mlp_y"], rtol=1e-5, atol=1e-7)
        out = mlp.signatures["serving_default"](keras_tensor=x)["output_0"]
        np.testing.assert_allclose(out.numpy(), REFERENCE["mlp_y"], rtol=1e-5, atol=1e-7)
        assert len(mlp.trainable_variables) == 4
        cnn = tf.saved_model.load(os.path.join(TF_FILES, "keras_cnn"))
        y = cnn.signatures["serving_default"](inputs=np.array(REFERENCE["cnn_x"], np.float32))["output_0"]
        np.testing.assert_allclose(y.numpy(), REFERENCE["cnn_y"], rtol=1e-5, atol=1e-6)
    finally:
        tf.config.optimizer.set_experimental_options({"disable_all": saved.get("disable_all", False)})


def test_tf_keras_mlp_fine_tunes():
    mlp = tf.saved_model.load(os.path.join(TF_FILES, "keras_mlp"))
    x = tf.constant(REFERENCE["mlp_x"])
    variables = list(mlp.trainable_variables)

    def loss():
        return -tf.reduce_mean(tf.math.log(mlp.serve(x)[:, 0]))

    with tf.GradientTape() as tape:
        value = loss()
    grads = tape.gradient(value, variables)
    np.testing.assert_allclose(grads[1].numpy(), _finite_difference(loss, variables[1]), rtol=3e-2, atol=3e-3)
    for _ in range(10):
        with tf.GradientTape() as tape:
            value = loss()
        for g, v in zip(tape.gradient(value, variables), variables):
            v.assign_sub(0.5 * g)
    assert float(loss()) < float(value) + 1e-6 < -np.log(np.array(REFERENCE["mlp_y"])[:, 0]).mean()


def _graph_def():
    graph_def = graph_pb2.GraphDef()
    graph_def.ParseFromString(open(os.path.join(TF_FILES, "mlp_graph.pb"), "rb").read())
    return graph_def, json.load(open(os.path.join(TF_FILES, "mlp_graph.json")))


def test_import_graph_def_into_a_session_eagerly_and_in_a_function():
    graph_def, ref = _graph_def()
    x = np.array(ref["x"], np.float32)
    graph = tf.compat.v1.Graph()
    with graph.as_default():
        y, s = tf.compat.v1.import_graph_def(graph_def, return_elements=["y:0", "s:0"])
    with tf.compat.v1.Session(graph=graph) as sess:
        yv, sv = sess.run([y, s], feed_dict={"import/x:0": x})
        assert sess.run(graph.get_tensor_by_name("import/s:0"), feed_dict={"import/x:0": x}).shape == (2,)
    np.testing.assert_allclose(yv, ref["y"], rtol=1e-6)
    np.testing.assert_allclose(sv, ref["s"], rtol=1e-6)
    eager, = tf.graph_util.import_graph_def(graph_def, input_map={"x": tf.constant(x)}, return_elements=["y:0"])
    np.testing.assert_allclose(eager.numpy(), ref["y"], rtol=1e-6)

    @tf.function
    def run(v):
        return tf.graph_util.import_graph_def(graph_def, input_map={"x:0": v}, return_elements=["s:0"])[0]

    np.testing.assert_allclose(run(tf.constant(x)).numpy(), ref["s"], rtol=1e-6)


def test_import_graph_def_names_unsupported_ops():
    graph_def, _ = _graph_def()
    graph_def.node.add(name="weird", op="FancyNewOp", input=["y"])
    graph = tf.compat.v1.Graph()
    with graph.as_default():  # imported without a value: it raises when something needs it (TF1's Saver ops)
        tf.compat.v1.import_graph_def(graph_def)
        with pytest.raises(ValueError, match="'FancyNewOp' .*node 'weird'"):
            graph.get_tensor_by_name("import/weird:0")
        with pytest.raises(ValueError, match="'FancyNewOp' .*node 'weird'"):
            tf.compat.v1.import_graph_def(graph_def, return_elements=["weird:0"])
    with pytest.raises(ValueError, match="needs a value"):  # eagerly, y needs the placeholder x
        tf.graph_util.import_graph_def(_graph_def()[0], return_elements=["y:0"])
    assert tf.graph_util.import_graph_def(_graph_def()[0]) is None  # nothing fetched: nothing runs, as in TF


def test_tensor_arrays_strings_and_nested_structures(tmp_path):
    class Mixed(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def ta(self, x):
            arr = tf.TensorArray(tf.float32, size=0, dynamic_size=True)
            for i in tf.range(tf.shape(x)[0]):
                arr = arr.write(i, x[i] * self.v)
            return arr.stack()

        @tf.function
        def many(self, xs, scale):
            return [x * scale for x in xs], tf.strings.join(["a", "b"]), x_none()

    def x_none():
        return None

    mixed = Mixed()
    mixed.many([tf.constant(1.0), tf.constant([2.0, 3.0])], 2.0)
    tf.saved_model.save(mixed, str(tmp_path / "m"))
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert list(loaded.signatures) == ["serving_default"]  # the one function with an input_signature, as in TF
    np.testing.assert_allclose(loaded.signatures["serving_default"](x=[1.0, 2.0])["output_0"].numpy(), [2.0, 4.0])
    np.testing.assert_allclose(loaded.ta(tf.constant([1.0, 2.0, 3.0])).numpy(), [2.0, 4.0, 6.0])
    (a, b), text, none = loaded.many([tf.constant(1.0), tf.constant([2.0, 3.0])], 2.0)
    assert float(a) == 2.0 and b.numpy().tolist() == [4.0, 6.0] and text.numpy() == b"ab" and none is None
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(loaded.ta(tf.constant([1.0, 2.0, 3.0])))
    assert float(tape.gradient(y, loaded.v)) == 6.0


def test_function_with_a_loop_over_a_variable_inlined_in_another():
    """A traced function whose loop body captures a variable, called inside another tf.function (what a
    signature wrapper does): the inlined body's placeholders get fresh names too."""
    v = tf.Variable(2.0)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def inner(x):
        total = tf.constant(0.0)
        for i in tf.range(tf.shape(x)[0]):
            total += x[i] * v
        return total

    inner(tf.constant([1.0]))

    @tf.function
    def outer(x):
        return inner(x) * 2.0

    assert float(outer(tf.constant([1.0, 2.0]))) == 12.0


def test_import_a_tf2_function_graph_with_while_if_and_a_variable():
    graph_def = graph_pb2.GraphDef()
    graph_def.ParseFromString(open(os.path.join(TF_FILES, "loop_function_graph.pb"), "rb").read())
    ref = json.load(open(os.path.join(TF_FILES, "loop_function_graph.json")))
    w = tf.Variable(ref["w"])
    handle = ref["inputs"][1].split(":")[0]  # TF's placeholder for the captured variable

    def run(x):
        return tf.graph_util.import_graph_def(graph_def, input_map={"x": x, handle: w},
                                              return_elements=[ref["outputs"][0]])[0]

    x = tf.constant(ref["x"])
    np.testing.assert_allclose(run(x).numpy(), ref["y"], rtol=1e-6)
    np.testing.assert_allclose(tf.function(run)(x).numpy(), ref["y"], rtol=1e-6)
    with tf.GradientTape() as tape:
        y = run(x)[0]
    grad = tape.gradient(y, w).numpy()

    def value():
        return run(x)[0]

    np.testing.assert_allclose(grad, _finite_difference(value, w), rtol=2e-2, atol=2e-3)
