"""TF 2.21's small names: tf.config's deprecated eager aliases, tf.autograph.set_verbosity / trace,
tf.types.experimental's function types (isinstance on tf.function objects), tf.train.CheckpointOptions,
CheckpointView and TrackableView (their `>>>` examples), tf.summary.write / graph read back with TensorBoard's
EventAccumulator."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tempfile

from . import outcome, program, val


@program
def p_config_experimental_run_functions_eagerly(tf):
    seen = []

    @tf.function
    def f(x):
        seen.append(tf.executing_eagerly())
        return x + 1

    tf.config.experimental_run_functions_eagerly(True)
    try:
        flag = tf.config.experimental_functions_run_eagerly()
        f(tf.constant(1))
        both = [flag, tf.config.functions_run_eagerly()]
    finally:
        tf.config.experimental_run_functions_eagerly(False)
    f(tf.constant(1))
    return [both, tf.config.experimental_functions_run_eagerly(), seen]


@program
def p_autograph_set_verbosity_and_trace(tf):
    tf.autograph.set_verbosity(0)
    printed = io.StringIO()

    @tf.function
    def f(n):
        total = tf.constant(0)
        for i in tf.range(n):
            tf.autograph.trace("step", i.shape)
            total += i
        return total

    with contextlib.redirect_stdout(printed):
        first = f(tf.constant(4))
        second = f(tf.constant(5))
        tf.autograph.trace("eager", 3)
        for i in tf.range(3):  # the docstring's example, eagerly: each step's tensor
            tf.autograph.trace(i)
    return [val(first), val(second), printed.getvalue().splitlines()]


@program
def p_types_experimental_function_types(tf):
    @tf.function
    def f(x):
        return x * 2

    concrete = f.get_concrete_function(tf.TensorSpec([None], tf.float32))
    kinds = tf.types.experimental
    return [isinstance(f, kinds.GenericFunction), isinstance(f, kinds.PolymorphicFunction),
            isinstance(f, kinds.Callable), isinstance(f, kinds.ConcreteFunction),
            isinstance(concrete, kinds.ConcreteFunction), isinstance(concrete, kinds.Callable),
            isinstance(concrete, kinds.GenericFunction), isinstance(concrete.function_type, kinds.FunctionType),
            kinds.GenericFunction is kinds.PolymorphicFunction, isinstance(tf.constant(1.0), kinds.Callable),
            isinstance(lambda: 1, kinds.Callable), issubclass(kinds.ConcreteFunction, kinds.Callable)]


def _simple_module(tf, name):
    module = tf.Module(name=name)
    module.a_var = tf.Variable(5.0)
    module.b_var = tf.Variable(4.0)
    module.vars = [tf.Variable(1.0), tf.Variable(2.0)]
    return module


def _kind(value) -> str:
    # TF wraps a list attribute in a ListWrapper; tinytf keeps the list
    return "list" if "list" in type(value).__name__.lower() else type(value).__name__


@program
def p_train_checkpoint_view_docs(tf):
    folder = tempfile.mkdtemp()
    try:
        root = _simple_module(tf, "root")
        leaf = root.leaf = _simple_module(tf, "leaf")
        leaf.leaf3 = tf.Variable(6.0, name="leaf3")
        leaf.leaf4 = tf.Variable(7.0, name="leaf4")
        # TF's example writes Checkpoint(root), which makes `root` the checkpoint's root node; tinytf's Checkpoint
        # keeps a positional root as the child "root", so the program names the child itself.
        save_path = tf.train.Checkpoint(model=root).save(os.path.join(folder, "tf_ckpts"))
        view = tf.train.CheckpointView(save_path)
        root2 = _simple_module(tf, "root")
        leaf2 = root2.leaf2 = _simple_module(tf, "leaf2")
        leaf2.leaf3 = tf.Variable(6.0)
        leaf2.leaf4 = tf.Variable(7.0)
        holder2 = tf.train.Checkpoint(model=root2)
        match = view.match(holder2)
        matched, only_ckpt, only_live = view.diff(holder2)
        tview = tf.train.TrackableView(root)
        return [view.children(0), {i: view.children(i) for i in view.descendants()},
                {k: (v.numpy().tolist() if hasattr(v, "numpy") else _kind(v)) for k, v in match.items() if k != 0},
                sorted(matched) == sorted(match), only_ckpt,
                [v.numpy().tolist() for v in only_live if hasattr(v, "numpy")],
                sorted(tview.children(root)), len(tview.descendants()),
                [v.numpy().tolist() for v in tview.descendants() if hasattr(v, "numpy")],
                outcome(lambda: tf.train.CheckpointView(os.path.join(folder, "missing")), "")]
    finally:
        shutil.rmtree(folder)


@program
def p_train_checkpoint_options(tf):
    folder = tempfile.mkdtemp()
    try:
        written = []
        options = tf.train.CheckpointOptions(experimental_io_device="/job:localhost",
                                             experimental_write_callbacks=[written.append, lambda: written.append(
                                                 "no-arg")])
        ckpt = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]))
        path = ckpt.save(os.path.join(folder, "c"), options=options)
        ckpt.v.assign([0.0, 0.0])
        ckpt.restore(path, options=tf.train.CheckpointOptions()).assert_consumed()
        plain = tf.train.CheckpointOptions()
        return [os.path.basename(path), [os.path.basename(w) for w in written], ckpt.v.numpy().tolist(),
                [options.experimental_io_device, options.enable_async, options.experimental_enable_async_checkpoint,
                 plain.experimental_write_callbacks, plain.experimental_skip_slot_variables,
                 plain.experimental_sharding_callback, tf.train.CheckpointOptions(enable_async=True).enable_async,
                 tf.train.CheckpointOptions(experimental_enable_async_checkpoint=True).enable_async],
                outcome(lambda: tf.train.CheckpointOptions(experimental_sharding_callback=1), "ShardingCallback"),
                tf.train.latest_checkpoint(folder) == path]
    finally:
        shutil.rmtree(folder)


def _events(folder):
    from tensorboard.backend.event_processing import event_accumulator
    acc = event_accumulator.EventAccumulator(folder, size_guidance={"tensors": 0})
    acc.Reload()
    return acc


@program
def p_summary_write_and_graph(tf):
    from tensorboard.compat.proto import graph_pb2, summary_pb2
    folder = tempfile.mkdtemp()
    try:
        writer = tf.summary.create_file_writer(folder)
        metadata = summary_pb2.SummaryMetadata()
        metadata.plugin_data.plugin_name = "custom"
        metadata.plugin_data.content = b"v1"
        without = [val(tf.summary.write("none", 1.0, step=0)), val(tf.summary.graph(graph_pb2.GraphDef()))]

        @tf.function
        def traced(x, step):
            return tf.summary.write("in_fn", x * 2, step=step, metadata=metadata.SerializeToString())

        with writer.as_default():
            results = [val(tf.summary.write("plain", tf.constant([1, 2, 3]), step=3)),
                       val(tf.summary.write("meta", lambda: tf.constant("hello"), step=4, metadata=metadata)),
                       val(traced(tf.constant(1.5), tf.constant(7, tf.int64))),
                       val(traced(tf.constant(2.5), tf.constant(8, tf.int64)))]
            with tf.name_scope("scoped"):
                results.append(val(tf.summary.write("tag", 0.5, step=9)))
            with tf.summary.record_if(False):
                results.append(val(tf.summary.write("skipped", 1.0, step=1)))
                results.append(val(tf.summary.graph(graph_pb2.GraphDef())))
            g = tf.Graph()
            with g.as_default():
                tf.constant(1.0, name="one")
            results.append(val(tf.summary.graph(g)))
            results.append(outcome(lambda: tf.summary.graph("nope"), "is not tf.Graph"))
            results.append(outcome(lambda: tf.function(lambda: tf.summary.graph(g))(),
                                   "graph() cannot be invoked inside a graph context"))
        writer.flush()
        acc = _events(folder)
        tags = acc.Tags()
        from tensorboard.util import tensor_util
        tensors = {tag: [(e.step, tensor_util.make_ndarray(e.tensor_proto).tolist()) for e in acc.Tensors(tag)]
                   for tag in sorted(tags["tensors"])}
        for tag, values in tensors.items():
            tensors[tag] = [(s, v.decode() if isinstance(v, bytes) else v) for s, v in values]
        plugin = acc.SummaryMetadata("meta").plugin_data
        graph = acc.Graph()
        return [without, results, tensors, [plugin.plugin_name, plugin.content.decode()], tags["graph"],
                [n.name for n in graph.node]]
    finally:
        shutil.rmtree(folder)


