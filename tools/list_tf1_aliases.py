"""Write tinytf/compat/v1/tf2_same_objects.py from TensorFlow: the names of tf.compat.v1 (and its namespaces)
that are the very objects of TF2 names (`tf.compat.v1.X is tf.Y`), and those whose function has the TF2
function's signature (a re-wrapped TF2 op, such as tf.compat.v1.math.abs). Run with a Python that has TF:

    TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python tools/list_tf1_aliases.py
"""

from __future__ import annotations

import inspect
import os
import textwrap
import types

NAMESPACES = ["", "nn", "math", "linalg", "image", "random", "sparse", "strings", "data", "io", "config", "dtypes",
              "errors", "lookup", "bitwise", "saved_model", "debugging", "ragged", "distribute", "train", "losses",
              "metrics", "initializers", "summary", "graph_util", "audio", "autograph", "sets", "signal", "spectral",
              "manip", "quantization", "test", "experimental", "autograph.experimental", "config.experimental",
              "config.optimizer", "config.threading", "data.experimental", "data.experimental.service",
              "debugging.experimental", "distribute.cluster_resolver", "distribute.experimental",
              "dtypes.experimental", "experimental.extension_type", "io.gfile", "linalg.experimental",
              "lookup.experimental", "mixed_precision", "mixed_precision.experimental", "nn.experimental",
              "profiler", "quantization.experimental", "random.experimental", "test.experimental",
              "train.experimental", "user_ops"]
TF2_NAMESPACES = ["", "nn", "math", "linalg", "image", "random", "sparse", "strings", "data", "io", "config",
                  "dtypes", "errors", "lookup", "signal", "bitwise", "saved_model", "test", "debugging", "ragged",
                  "distribute", "train", "experimental", "data.experimental", "autodiff", "audio", "feature_column",
                  "quantization", "summary", "sets", "types.experimental", "nest", "queue", "version", "autograph",
                  "compat", "autograph.experimental", "config.experimental", "config.optimizer", "config.threading",
                  "data.experimental.service", "debugging.experimental", "distribute.cluster_resolver",
                  "distribute.experimental", "dtypes.experimental", "experimental.extension_type", "io.gfile",
                  "linalg.experimental", "lookup.experimental", "mixed_precision", "nn.experimental", "profiler",
                  "profiler.experimental", "random.experimental", "test.experimental", "train.experimental",
                  "math.special", "keras.mixed_precision", "tpu.experimental"]
# v1 namespaces whose own (TF1) objects other v1 names repeat: tf.compat.v1.math.argmax is tf.compat.v1.argmax
V1_NAMESPACES = ["", "nn", "train", "image", "initializers", "summary", "data", "sparse", "strings", "random",
                 "io", "lookup", "test", "graph_util", "profiler", "mixed_precision", "debugging", "linalg",
                 "math", "ragged", "distribute", "errors", "train.experimental", "mixed_precision.experimental"]
NOT_THE_SAME = {("", "where")}  # same signature, other behaviour: TF1's where does not broadcast


def module(root, path):
    for part in [p for p in path.split(".") if p]:
        root = getattr(root, part, None)
    return root


def main():
    import tensorflow as tf

    index = {}
    for namespace in TF2_NAMESPACES:
        mod = module(tf, namespace)
        for name in dir(mod) if mod is not None else ():
            obj = getattr(mod, name, None) if not name.startswith("_") else None
            if obj is None or isinstance(obj, (types.ModuleType, int, float, str, bool)):
                continue
            index.setdefault(id(obj), f"{namespace}.{name}" if namespace else name)
    for namespace in V1_NAMESPACES:  # after the TF2 names: an object TF2 has is named by its TF2 path
        mod = module(tf.compat.v1, namespace)
        for name in dir(mod) if mod is not None else ():
            obj = getattr(mod, name, None) if not name.startswith("_") else None
            if obj is None or isinstance(obj, (types.ModuleType, int, float, str, bool)):
                continue
            index.setdefault(id(obj), "compat.v1." + (f"{namespace}.{name}" if namespace else name))
    same_objects, same_signature = {}, {}
    for namespace in NAMESPACES:
        v1, v2 = module(tf.compat.v1, namespace), module(tf, namespace)
        objects, signatures = [], []
        for name in sorted(dir(v1)):
            obj = getattr(v1, name, None) if not name.startswith("_") else None
            if obj is None or isinstance(obj, types.ModuleType):
                continue
            if isinstance(obj, (int, str)) and not isinstance(obj, bool):  # constants: tf.compat.v1.errors.OK
                if v2 is not None and getattr(v2, name, None) == obj:
                    objects.append(name)
                continue
            target = index.get(id(obj))
            own = "compat.v1." + (f"{namespace}.{name}" if namespace else name)
            if target is not None and target != own:  # (target == own: a TF1 object first seen here)
                objects.append(name if target == (f"{namespace}.{name}" if namespace else name) else f"{name}={target}")
                continue
            if isinstance(obj, type) or not callable(obj) or (namespace, name) in NOT_THE_SAME:
                continue
            # the function re-wrapped: of the TF2 namespace, else of TF1's root (tf.compat.v1.math.reduce_sum
            # has tf.compat.v1.reduce_sum's v1 arguments), else of TF2's root (tf.compat.v1.manip.reshape)
            candidates = [(getattr(v2, name, None) if v2 is not None else None, name)]
            if namespace:
                candidates += [(getattr(tf.compat.v1, name, None), f"{name}=compat.v1.{name}"),
                               (getattr(tf, name, None), f"{name}={name}")]
            for other, entry in candidates:
                try:
                    if other is not None and inspect.signature(obj) == inspect.signature(other):
                        signatures.append(entry)
                        break
                except (TypeError, ValueError):
                    pass
        same_objects[namespace], same_signature[namespace] = objects, signatures
    lines = ['"""The names of tf.compat.v1 that TF 2.21 gives as TF2 names: SAME_OBJECTS holds those that are the very',
             'objects of TF2 names (`tf.compat.v1.X is tf.X`, `tf.compat.v1.random_normal is tf.random.normal`),',
             'SAME_SIGNATURE those whose function is the TF2 function of the same namespace re-wrapped, with its',
             'signature (`tf.compat.v1.math.abs`). Namespace -> entries, each "NAME" (the TF2 name of the same',
             'namespace) or "NAME=TF2.PATH" ("NAME=compat.v1.PATH" where it is a TF1 object of another v1 name,',
             'tf.compat.v1.math.argmax is tf.compat.v1.argmax). Written by tools/list_tf1_aliases.py from TF 2.21;',
             'tf1_aliases.py resolves them when first read, so a TF2 name that tinytf lacks is missing from',
             'tf.compat.v1 too."""', '']
    for title, table in (("SAME_OBJECTS", same_objects), ("SAME_SIGNATURE", same_signature)):
        lines.append(f"{title} = {{")
        for namespace in sorted(table):
            if table[namespace]:
                lines.append(f'    "{namespace}": """')
                lines += ["        " + line for line in textwrap.wrap(" ".join(table[namespace]), 104)]
                lines.append('    """.split(),')
        lines += ["}", ""]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, os.pardir, "tinytf", "compat", "v1", "tf2_same_objects.py"), "w") as out:
        out.write("\n".join(lines))


if __name__ == "__main__":
    main()
