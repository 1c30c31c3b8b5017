"""Does TensorFlow run the GraphDef tinytf exports for each op, and get tinytf's numbers? With TF's Python:

    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 PYTHONPATH=/path/to/tinytf /path/to/tf-venv/bin/python \\
        /path/to/tinytf/tools/check_tf_runs_exported_ops.py tests/tf_reference/graph_def_export_ops.json

For every op of tinytf's registry, every distinct sample of tests/forward_samples.py becomes a one-node graph
(placeholders in, the op, its outputs out), exported by `as_graph_def`; TensorFlow imports it, runs it on the
sample's inputs and compares with what tinytf computed eagerly. The node's TF op names are also checked
against TF's op registry, with the output argument names a FunctionDef refers to them by. The JSON records,
per op, how many samples TF ran with tinytf's outputs, the TF ops of the first, and the first failure;
tests/test_graph_def_export_registry.py reads it."""

from __future__ import annotations

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, os.pardir, "tests"))


def _close(got, want) -> bool:
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        return False
    if "bfloat16" in (got.dtype.name, want.dtype.name):
        return np.allclose(got.astype(np.float32), want.astype(np.float32), rtol=1e-2, atol=1e-2, equal_nan=True)
    if want.dtype.kind in "fc":
        return np.allclose(got.astype(want.dtype), want, rtol=2e-3, atol=2e-3, equal_nan=True)
    if want.dtype == object or got.dtype == object:
        return [x if isinstance(x, bytes) else str(x).encode() for x in got.reshape(-1)] == \
            [x if isinstance(x, bytes) else str(x).encode() for x in want.reshape(-1)]
    return np.array_equal(got, want)


def output_names_ok(tf, graph_def) -> list:
    """TF op names unknown to TF, and output refs the exporter would write that TF's OpDefs do not name."""
    from tensorflow.python.framework import op_def_registry

    from tinytf.graph_def.export import output_ref

    problems = []
    for node in graph_def.node:
        op_def = op_def_registry.get(node.op)
        if op_def is None:
            problems.append(f"{node.op}: not a TF op")
            continue
        names = []
        for arg in op_def.output_arg:
            names.append(arg.name)
        if len(names) > 1:
            expected = [f"x:{name}:0" for name in names]
            got = [output_ref("x", node.op, i) for i in range(len(names))]
            if got != expected:
                problems.append(f"{node.op}: outputs {got} != TF's {expected}")
        elif names and output_ref("x", node.op, 0) != f"x:{names[0]}:0":
            problems.append(f"{node.op}: output {output_ref('x', node.op, 0)} != TF's x:{names[0]}:0")
    return problems


def invocations() -> dict:
    """op name -> its distinct sample invocations (as tests/test_ops_registry_forward.py gathers them)."""
    from forward_check import record
    from forward_samples import SAMPLES, generated_elementwise

    found, seen = {}, set()
    for thunks in {**generated_elementwise(), **SAMPLES}.values():
        for thunk in thunks:
            for inv in record(thunk):
                if inv.key() not in seen:
                    seen.add(inv.key())
                    found.setdefault(inv.op.name, []).append(inv)
    return found


def main(out_path):
    import tensorflow as tf
    from forward_check import _one_node_graph

    from tinytf.graph_def.export import as_graph_def

    record = {}
    for name, cases in sorted(invocations().items()):
        entry = {"ran": 0, "failed": None}
        for inv in cases[:20]:
            graph, feed = _one_node_graph(inv, const_inputs=())
            try:
                graph_def = as_graph_def(graph)
            except Exception as e:  # noqa: BLE001 - recorded
                entry["failed"] = entry["failed"] or f"export: {type(e).__name__}: {e}"
                continue
            problems = output_names_ok(tf, graph_def)
            if problems:
                entry["failed"] = entry["failed"] or "names: " + "; ".join(problems)
                continue
            # the graph's outputs: the Identity nodes the exporter appends last (the op may be an Identity too),
            # before the NoOp they wait for when the op is stateful
            ends = [n for n in graph_def.node if not (n.op == "NoOp" and n.name.startswith("NoOp"))]
            outputs = [n.name for n in ends[len(ends) - len(graph.outputs):]]
            placeholders = [n.name for n in graph_def.node if n.op == "Placeholder"]
            try:
                with tf.Graph().as_default() as g:
                    tf.compat.v1.import_graph_def(tf.compat.v1.GraphDef.FromString(graph_def.SerializeToString()),
                                                  name="")
                    with tf.compat.v1.Session(graph=g) as sess:
                        got = sess.run([f"{o}:0" for o in outputs],
                                       {f"{p}:0": v for p, v in zip(placeholders, feed)})
            except Exception as e:  # noqa: BLE001 - recorded
                entry["failed"] = entry["failed"] or f"TF: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
                continue
            if not all(_close(g_, w) for g_, (w, _) in zip(got, inv.outputs)) or len(got) != len(inv.outputs):
                entry["failed"] = entry["failed"] or f"values differ: {inv!r}"
                continue
            entry["ran"] += 1
            entry.setdefault("tf_ops", sorted({node.op for node in graph_def.node}))
        record[name] = entry
    with open(out_path, "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    for name, entry in record.items():
        if entry["failed"]:
            print(name, entry)


if __name__ == "__main__":
    main(sys.argv[1])
