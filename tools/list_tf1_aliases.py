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
              "manip", "quantization", "test", "experimental"]
TF2_NAMESPACES = ["", "nn", "math", "linalg", "image", "random", "sparse", "strings", "data", "io", "config",
                  "dtypes", "errors", "lookup", "signal", "bitwise", "saved_model", "test", "debugging", "ragged",
                  "distribute", "train", "experimental", "data.experimental", "autodiff", "audio", "feature_column",
                  "quantization", "summary", "sets", "types.experimental", "nest", "queue", "version", "autograph",
                  "compat"]
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
    same_objects, same_signature = {}, {}
    for namespace in NAMESPACES:
        v1, v2 = module(tf.compat.v1, namespace), module(tf, namespace)
        objects, signatures = [], []
        for name in sorted(dir(v1)):
            obj = getattr(v1, name, None) if not name.startswith("_") else None
            if obj is None or isinstance(obj, types.ModuleType):
                continue
            target = index.get(id(obj))
            if target is not None:
                objects.append(name if target == (f"{namespace}.{name}" if namespace else name) else f"{name}={target}")
                continue
            other = getattr(v2, name, None) if v2 is not None else None
            if other is None or isinstance(obj, type) or not callable(obj) or (namespace, name) in NOT_THE_SAME:
                continue
            try:
                if inspect.signature(obj) == inspect.signature(other):
                    signatures.append(name)
            except (TypeError, ValueError):
                pass
        same_objects[namespace], same_signature[namespace] = objects, signatures
    lines = ['"""The names of tf.compat.v1 that TF 2.21 gives as TF2 names: SAME_OBJECTS holds those that are the very',
             'objects of TF2 names (`tf.compat.v1.X is tf.X`, `tf.compat.v1.random_normal is tf.random.normal`),',
             'SAME_SIGNATURE those whose function is the TF2 function of the same namespace re-wrapped, with its',
             'signature (`tf.compat.v1.math.abs`). Namespace -> entries, each "NAME" (the TF2 name of the same',
             'namespace) or "NAME=TF2.PATH". Written by tools/list_tf1_aliases.py from TF 2.21; tf1_aliases.py',
             'resolves them when first read, so a TF2 name that tinytf lacks is missing from tf.compat.v1 too."""', '']
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
