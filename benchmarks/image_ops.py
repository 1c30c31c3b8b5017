"""tf.image kernels against TensorFlow (issue 11's image ops, issue 15's "faster than TF"): non-max suppression,
crop_and_resize, bicubic resize and the projective transform behind Keras' RandomRotation/Zoom/Translation and
RandAugment, each called eagerly with the same numpy inputs, tinytf and (when it is importable) TensorFlow in
interleaved rounds, CPU time per call (time.process_time: all threads, the figure to trust on a loaded
machine), the best and the median of ROUNDS rounds.

    PYTHONPATH=. python -m benchmarks.image_ops [--rounds N] [--no-tf] [--small]

`--small` runs every case on small inputs (a smoke test: tests/test_bench_image_ops.py)."""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def _boxes(n, seed=0):
    rng = np.random.default_rng(seed)
    corner = rng.uniform(0, 1, (n, 2)).astype(np.float32)
    size = rng.uniform(0.02, 0.2, (n, 2)).astype(np.float32)
    return np.concatenate([corner, corner + size], 1), rng.uniform(0, 1, n).astype(np.float32)


def cases(small=False):
    """{name: fn(tf) -> a callable of no arguments}: the same call on tinytf's or TensorFlow's API."""
    rng = np.random.default_rng(1)
    n_boxes = 200 if small else 2000
    boxes, scores = _boxes(n_boxes)
    image = rng.uniform(0, 1, (2, 32, 32, 3) if small else (4, 128, 128, 3)).astype(np.float32)
    deep = rng.uniform(0, 1, (1, 16, 16, 8) if small else (2, 64, 64, 256)).astype(np.float32)
    crops = np.sort(rng.uniform(0, 1, (n_boxes // 10, 2, 2)), axis=1).reshape(-1, 4)[:, [0, 2, 1, 3]]
    crops = crops.astype(np.float32)
    crop_index = rng.integers(0, image.shape[0], len(crops)).astype(np.int32)
    small_images = rng.uniform(0, 1, (2, 16, 16, 3) if small else (16, 64, 64, 3)).astype(np.float32)
    batch = small_images.shape[0]
    transforms = np.tile(np.array([[0.95, 0.17, -2.0, -0.17, 0.95, 3.0, 0.0005, -0.0003]], np.float32), (batch, 1))
    augment = rng.uniform(0, 255, (4, 16, 16, 3) if small else (32, 64, 64, 3)).astype(np.float32)
    augment_transforms = np.tile(transforms[:1], (augment.shape[0], 1))
    size = small_images.shape[1] * 3 // 2

    return {
        f"non_max_suppression {n_boxes} boxes, keep 100": lambda tf: lambda: tf.image.non_max_suppression(
            boxes, scores, 100, 0.5),
        f"non_max_suppression {n_boxes} boxes, keep all": lambda tf: lambda: tf.image.non_max_suppression(
            boxes, scores, n_boxes, 0.5),
        f"crop_and_resize {len(crops)} boxes 14x14 of {'x'.join(map(str, image.shape))}":
            lambda tf: lambda: tf.image.crop_and_resize(image, crops, crop_index, (14, 14)),
        f"crop_and_resize {len(crops) // 2} boxes 7x7 of {'x'.join(map(str, deep.shape))}":
            lambda tf: lambda: tf.image.crop_and_resize(deep, crops[:len(crops) // 2],
                                                        np.zeros(len(crops) // 2, np.int32), (7, 7)),
        f"resize bicubic {'x'.join(map(str, small_images.shape))} -> {size}x{size}":
            lambda tf: lambda: tf.image.resize(small_images, (size, size), "bicubic"),
        f"projective transform bilinear {'x'.join(map(str, augment.shape))}":
            lambda tf: lambda: _projective(tf)(images=augment, transforms=augment_transforms,
                                               output_shape=augment.shape[1:3], fill_value=0.0,
                                               interpolation="BILINEAR", fill_mode="REFLECT"),
    }


def _projective(tf):
    """TF's raw op ImageProjectiveTransformV3, or tinytf's (which has no tf.raw_ops)."""
    if hasattr(tf, "raw_ops"):
        return tf.raw_ops.ImageProjectiveTransformV3
    from tinytf.runtime.ops.image_transform import image_projective_transform_v3

    return image_projective_transform_v3


def _round(fn, calls):
    start = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - start) / calls * 1e3


def run(rounds=7, with_tf=True, small=False, out=print):
    import tinytf

    sides = {"tinytf": tinytf}
    if with_tf:
        try:
            import tensorflow
        except ImportError:
            out("tensorflow is not importable: tinytf alone")
        else:
            sides["TF"] = tensorflow
    out(f"CPU ms per call, best / median of {rounds} interleaved rounds")
    results = {}
    for name, make in cases(small).items():
        calls = {side: make(module) for side, module in sides.items()}
        counts = {}
        for side, fn in calls.items():  # warm up, and as many calls as fit in about 50 ms
            fn()
            counts[side] = max(1, int(0.05 / max(1e-6, _round(fn, 1) / 1e3)))
        times = {side: [] for side in calls}
        for _ in range(rounds):
            for side, fn in calls.items():
                times[side].append(_round(fn, counts[side]))
        results[name] = {side: (min(t), statistics.median(t)) for side, t in times.items()}
        line = "  ".join(f"{side} {best:.3f} / {median:.3f}" for side, (best, median) in results[name].items())
        if "TF" in results[name]:
            line += f"  tinytf/TF {results[name]['tinytf'][0] / results[name]['TF'][0]:.2f}x"
        out(f"{name}: {line}")
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--no-tf", action="store_true")
    parser.add_argument("--small", action="store_true")
    args = parser.parse_args(argv)
    run(args.rounds, not args.no_tf, args.small)


if __name__ == "__main__":
    main()
