"""List the public names of TF 2.21's tf.keras (Keras 3) that tinytf.keras lacks, per module.

Run with TensorFlow's python and the tinytf tree on the path:
    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 PYTHONPATH=<tree> /work/tfenv/bin/python <tree>/tools/keras_api_gaps.py [--names]
It walks tf.keras recursively (every attribute not starting with `_`; submodules only when they are Keras'
own API modules, so re-exported stdlib/numpy modules are skipped), checks hasattr along the same path on
tinytf.keras, and prints per-module counts (present/total) and, with --names, each missing dotted name."""

from __future__ import annotations

import os
import sys
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def _is_api_module(obj) -> bool:
    name = getattr(obj, "__name__", "")
    return name.startswith(("keras", "tensorflow", "tf_keras")) or "_api" in name


def walk(tmod, tt, path, seen, counts, missing):
    """Count tmod's public names under `path` and record those that tt (the tinytf module or None) lacks."""
    if id(tmod) in seen:
        return
    seen.add(id(tmod))
    present = total = 0
    for name in sorted(dir(tmod)):
        if name.startswith("_"):
            continue
        try:
            obj = getattr(tmod, name)
        except Exception:  # noqa: BLE001 - a lazy attribute that fails to load is not an API name
            continue
        full = f"{path}.{name}"
        if isinstance(obj, types.ModuleType):
            if not _is_api_module(obj):
                continue  # e.g. `keras.ops.numpy` is API; `os` or `np` re-exported is not
            sub = getattr(tt, name, None) if tt is not None else None
            if sub is None:
                missing.append(full + "  (module)")
            walk(obj, sub, full, seen, counts, missing)
            continue
        total += 1
        if tt is not None and hasattr(tt, name):
            present += 1
        else:
            missing.append(full)
    counts[path] = (present, total)


def main(argv):
    import tensorflow as tf

    import tinytf

    counts, missing = {}, []
    walk(tf.keras, tinytf.keras, "keras", set(), counts, missing)
    width = max(len(p) for p in counts)
    all_present = all_total = 0
    for path in sorted(counts):
        present, total = counts[path]
        all_present, all_total = all_present + present, all_total + total
        if total:
            print(f"{path:<{width}}  {present:4d}/{total:<4d}  missing {total - present}")
    print(f"{'TOTAL':<{width}}  {all_present:4d}/{all_total:<4d}  missing {all_total - all_present}")
    if "--names" in argv:
        print()
        print("\n".join(missing))


if __name__ == "__main__":
    main(sys.argv[1:])
