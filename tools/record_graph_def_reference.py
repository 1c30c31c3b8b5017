"""GraphDefs written by tinytf and run by TensorFlow 2.21: the reference of tests/test_graph_def_export.py.

    python tools/record_graph_def_reference.py export     # with tinytf: tests/tf_files/graph_defs/*.pb + feeds
    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/record_graph_def_reference.py run
                                                           # with TensorFlow (never tinytf): import, run, record

Each function is exported with the graph passes on and off (NAME.nopasses.pb).
`run` imports each GraphDef with tf.compat.v1.import_graph_def, maps variable placeholders to TF resource
variables holding the case's initial values (a TF1 graph's own VarHandleOps are assigned those values, or its
own `init` op runs, which computes them), runs
the fetches once in a Session, and writes TF's outputs and the variables' values afterwards to
tests/tf_reference/graph_def_export.json."""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(HERE, os.pardir, "tests")
FOLDER = os.path.join(TESTS, "tf_files", "graph_defs")
REFERENCE = os.path.join(TESTS, "tf_reference", "graph_def_export.json")


def _plain(value):
    import numpy as np

    value = np.asarray(value)
    return {"dtype": str(value.dtype), "value": value.tolist()}


def export():
    import tinytf as tf

    sys.path.insert(0, TESTS)
    from graph_def_cases import CASES, concrete, v1_graph, v1_graph_initializers

    os.makedirs(FOLDER, exist_ok=True)
    plans = {}
    saved = tf.config.optimizer.get_experimental_options()
    # Each function twice: optimized (fused blocks go out as their steps) and as traced, with no passes.
    for variant, disable_all in (("", False), (".nopasses", True)):
        tf.config.optimizer.set_experimental_options({"disable_all": disable_all})
        for name, build in CASES.items():
            function, traced, feeds = concrete(build(tf))
            graph_def = traced.graph.as_graph_def(optimized=True)  # the graph that runs, in each mode
            # keyed by the variable's own name (stable), with the placeholder it is fed through
            variables = {c.outer.name.split(":")[0]: {**_plain(c.outer.numpy()), "placeholder": c.placeholder.node.name}
                         for c in traced.graph.captures.values() if c.kind == "resource"}
            fetches = [f"Identity{'' if i == 0 else f'_{i}'}:0" for i in range(len(traced.graph.outputs))]
            plans[name + variant] = {"feeds": {k: _plain(v) for k, v in feeds.items()}, "variables": variables,
                                     "fetches": fetches, "kind": "function"}
            with open(os.path.join(FOLDER, f"{name}{variant}.pb"), "wb") as f:
                f.write(graph_def.SerializeToString())
    tf.config.optimizer.set_experimental_options(saved)
    graph, feeds, variables, fetches = v1_graph(tf)
    with open(os.path.join(FOLDER, "v1_graph.pb"), "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())
    plans["v1_graph"] = {"feeds": {k: _plain(v) for k, v in feeds.items()},
                         "variables": {k: _plain(v) for k, v in variables.items()}, "fetches": fetches, "kind": "v1"}
    graph, feeds, init, fetches = v1_graph_initializers(tf)
    with open(os.path.join(FOLDER, "v1_graph_initializers.pb"), "wb") as f:
        f.write(graph.as_graph_def().SerializeToString())
    plans["v1_graph_initializers"] = {"feeds": {k: _plain(v) for k, v in feeds.items()}, "variables": {},
                                      "fetches": fetches, "init": init, "kind": "v1"}
    with open(os.path.join(FOLDER, "plans.json"), "w") as f:
        json.dump(plans, f, indent=1, sort_keys=True)


def run():
    import numpy as np
    import tensorflow as tf
    from tensorflow.core.framework import graph_pb2

    with open(os.path.join(FOLDER, "plans.json")) as f:
        plans = json.load(f)
    results = {"tensorflow": tf.__version__, "cases": {}}
    for name, plan in sorted(plans.items()):
        graph_def = graph_pb2.GraphDef()
        with open(os.path.join(FOLDER, f"{name}.pb"), "rb") as f:
            graph_def.ParseFromString(f.read())
        graph = tf.Graph()
        with graph.as_default():
            initial = {k: np.array(v["value"], v["dtype"]) for k, v in plan["variables"].items()}
            if plan["kind"] == "function":
                variables = {k: tf.compat.v1.get_variable(f"tf_{k}", initializer=v, use_resource=True)
                             for k, v in initial.items()}
                placeholders = {f"{plan['variables'][k]['placeholder']}:0": v.handle for k, v in variables.items()}
                tf.compat.v1.import_graph_def(graph_def, name="", input_map=placeholders)
                init = [tf.compat.v1.global_variables_initializer()]
                reads = {k: v.value() for k, v in variables.items()}
            else:
                tf.compat.v1.import_graph_def(graph_def, name="")
                handles = {k: graph.get_tensor_by_name(f"{k}:0") for k in initial}
                init = [tf.raw_ops.AssignVariableOp(resource=handles[k], value=v) for k, v in initial.items()]
                if "init" in plan:  # the graph's own initializer, which computes the initial values
                    init = [graph.get_operation_by_name(plan["init"])]
                reads = {k: tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.as_dtype(initial[k].dtype))
                         for k, h in handles.items()}
        feeds = {f"{k}:0": np.array(v["value"], v["dtype"]) for k, v in plan["feeds"].items()}
        with tf.compat.v1.Session(graph=graph) as session:
            session.run(init, feeds)
            outputs = session.run(plan["fetches"], feeds)
            after = session.run(reads)
        results["cases"][name] = {"outputs": [_plain(o) for o in outputs],
                                  "variables_after": {k: _plain(v) for k, v in after.items()},
                                  "ops": sorted({n.op for n in graph_def.node}
                                                | {n.op for f in graph_def.library.function for n in f.node_def})}
    with open(REFERENCE, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    {"export": export, "run": run}[sys.argv[1]]()
