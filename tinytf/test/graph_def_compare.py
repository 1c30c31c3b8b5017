"""tf.test.assert_equal_graph_def: two GraphDefs hold the same nodes (by name, in any order) with the same op,
device, inputs (data inputs in order, control inputs as a set) and attributes; the first difference raises
AssertionError with TF's wording."""

from __future__ import annotations

from tensorboard.compat.proto import graph_pb2


def _split_inputs(node):
    data = [i for i in node.input if not i.startswith("^")]
    control = sorted(i for i in node.input if i.startswith("^"))
    return data, control


def _difference(expected, actual):
    actual_by_name = {node.name: node for node in actual.node}
    expected_names = set()
    for node in expected.node:
        expected_names.add(node.name)
        other = actual_by_name.get(node.name)
        if other is None:
            return f"Did not find expected node '{_short(node)}'"
        if node.op != other.op:
            return f"Node named '{node.name}' has op {other.op} that does not match expected op {node.op}"
        if node.device != other.device:
            return (f"Node named '{node.name}' has device '{other.device}' that does not match expected device "
                    f"'{node.device}'")
        data, control = _split_inputs(node)
        other_data, other_control = _split_inputs(other)
        if len(node.input) != len(other.input):
            return (f"Node named '{node.name}' has inputs {list(other.input)} that don't match expected "
                    f"{list(node.input)}")
        if data != other_data or control != other_control:
            return (f"Node named '{node.name}' has inputs {list(other.input)} that don't match expected "
                    f"{list(node.input)}")
        for key in sorted(set(node.attr) | set(other.attr)):
            if key.startswith("_"):
                continue  # TF ignores internal attributes
            if key not in other.attr:
                return f"Node named '{node.name}' missing expected attr {key}"
            if key not in node.attr:
                return f"Node named '{node.name}' has unexpected attr {key} with value: {other.attr[key]}"
            if node.attr[key] != other.attr[key]:
                return (f"Node named '{node.name}' has attr {key} with value: {other.attr[key]} that does not match "
                        f"expected value: {node.attr[key]}")
    for node in actual.node:
        if node.name not in expected_names:
            return f"Found unexpected node '{_short(node)}'"
    return None


def _short(node) -> str:
    inputs = ", ".join(node.input)
    return f"{node.name} = {node.op}[]({inputs})"


def assert_equal_graph_def(expected, actual) -> None:
    """Raise AssertionError when GraphDefs `expected` and `actual` differ (node order ignored)."""
    if not isinstance(actual, graph_pb2.GraphDef):
        raise TypeError(f"Expected tf.GraphDef for actual, got {type(actual).__name__}")
    if not isinstance(expected, graph_pb2.GraphDef):
        raise TypeError(f"Expected tf.GraphDef for expected, got {type(expected).__name__}")
    difference = _difference(expected, actual)
    if difference is not None:
        raise AssertionError(difference)
