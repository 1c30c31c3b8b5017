"""keras.tree, keras.name_scope, keras.device, keras.version, keras.layers.Wrapper and keras.layers.serialize /
deserialize as TF 2.21 (Keras 3.15) gives them."""

from __future__ import annotations

import collections

from . import outcome, program, val

Pair = collections.namedtuple("Pair", "a b")


@program
def p_keras_ops_more_tree(tf):
    t = tf.keras.tree
    s = {"b": [1, (2, None)], "a": Pair(3, 4)}
    return {
        "flatten": t.flatten(s), "flatten_leaf": t.flatten(5), "flatten_none": t.flatten(None),
        "with_path": [[list(p), v] for p, v in t.flatten_with_path(s)],
        "is_nested": [t.is_nested(s), t.is_nested(1), t.is_nested("ab"), t.is_nested(()), t.is_nested(None)],
        "map": repr(t.map_structure(lambda x: None if x is None else x * 10, s)),
        "map_two": repr(t.map_structure(lambda x, y: x + y, [1, (2, 3)], [10, (20, 30)])),
        "map_none_not_leaf": repr(t.map_structure(lambda x: x * 2, [1, None], none_is_leaf=False)),
        "up_to": repr(t.map_structure_up_to([0, (0, 0)], lambda x: type(x).__name__, [[1, 2], ([3], 4)])),
        "pack": repr(t.pack_sequence_as(s, list(range(5)))),
        "lists_to_tuples": repr(t.lists_to_tuples([1, [2, {"a": [3]}]])),
        "shapes": repr(t.map_shape_structure(lambda x: list(x), {"x": (2, 3), "y": [(1,), (None, 4)]})),
        "traverse": [repr(t.traverse(lambda x: None, [1, [2]])),
                     repr(t.traverse(lambda x: x if not isinstance(x, list) else t.MAP_TO_NONE, [1, [2]])),
                     repr(t.traverse(lambda x: x * 2 if isinstance(x, int) else None, [1, (2, 3)], top_down=False)),
                     repr(t.traverse(lambda x: "leaf" if isinstance(x, int) else None, {"k": [1, 2]}))],
        "tensor_leaf": val(t.flatten(tf.constant([1, 2]))),
        "errors": {"structure": outcome(lambda: t.assert_same_structure([1, 2], [1, (2,)]), "nested structure"),
                   "types": outcome(lambda: t.assert_same_structure([1, 2], (1, 2)), "Expected an instance of list"),
                   "paths": outcome(lambda: t.assert_same_paths({"a": 1}, {"b": 1}), "don't have the same paths"),
                   "arity": outcome(lambda: t.map_structure(lambda a, b: a + b, [1, 2], [1]), "arity mismatch"),
                   "pack": outcome(lambda: t.pack_sequence_as([1, 2], [1]), "")},
        "same_paths_ok": outcome(lambda: t.assert_same_paths([1, 2], (3, 4)), ""),
    }


@program
def p_keras_ops_more_scopes(tf):
    keras = tf.keras
    with keras.name_scope("outer") as scope:
        name = scope.name
        with keras.name_scope("inner"):
            inner = keras.Variable(1.0, name="w").path
        dense = keras.layers.Dense(2, name="dd")
        dense(tf.ones((1, 3)))
        paths = [w.path for w in dense.weights]
    with keras.device("cpu:0"):
        on_cpu = val(tf.constant([1.0]) + 1.0)
    return {"name": name, "inner": inner, "layer_paths": paths, "after": keras.Variable(2.0, name="v").path,
            "device": on_cpu, "version": keras.version(),
            "bad_name": outcome(lambda: keras.name_scope("a/b"), "cannot contain character `/`"),
            "model_paths": _model_paths(keras)}


def _model_paths(keras):
    with keras.name_scope("block"):
        inputs = keras.Input((3,))
        model = keras.Model(inputs, keras.layers.Dense(2, name="head")(inputs))
    return [w.path for w in model.weights]


@program
def p_keras_ops_more_layers_serialize(tf):
    keras = tf.keras
    dense = keras.layers.Dense(3, activation="relu", name="d3")
    dense(tf.ones((2, 4)))
    config = keras.layers.serialize(dense)
    clone = keras.layers.deserialize(config)
    wrapper = keras.layers.Wrapper(keras.layers.Dense(2, name="inner"), name="wrap")
    wrapper.build((None, 5))
    wrapper_config = wrapper.get_config()
    rebuilt = keras.layers.Wrapper.from_config(wrapper_config)
    return {"config": config, "clone": [type(clone).__name__, clone.name, clone.units, clone.built,
                                        [list(w.shape) for w in clone.weights]],
            "by_name": keras.layers.deserialize({"module": "keras.layers", "class_name": "Dropout",
                                                 "config": {"rate": 0.3}, "registered_name": None}).rate,
            "wrapper": wrapper_config, "wrapper_built": [wrapper.layer.built, [list(w.shape) for w in wrapper.weights]],
            "rebuilt": [type(rebuilt.layer).__name__, rebuilt.layer.units, rebuilt.name],
            "is_wrapper": [isinstance(rebuilt, keras.layers.Layer), isinstance(dense, keras.layers.Wrapper)],
            "errors": {"not_layer": outcome(lambda: keras.layers.Wrapper(3), "isn't a supported layer type"),
                       "unknown": outcome(lambda: keras.layers.deserialize({"class_name": "Nope", "config": {}}),
                                          "Could not locate class 'Nope'")}}
