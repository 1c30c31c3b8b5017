"""keras.ops.image names TF 2.21's Keras 3.15 has that tinytf lacked (affine_transform, perspective_transform,
map_coordinates, elastic_transform, scale_and_translate, sobel_edges, ssim, extract_patches_3d) and
keras.ops.linalg.jvp: values eagerly and in tf.function, data_format, unbatched inputs, the argument errors, and
the `>>>` examples of their Keras docstrings (np.random inputs replaced by deterministic data of the same shapes)."""

from __future__ import annotations

import numpy as np

from . import data, outcome, program, val


def _both(tf, fn, *args):
    """fn(*args) eagerly and traced by tf.function."""
    return {"eager": val(fn(*args)), "graph": val(tf.function(fn)(*args))}


@program
def p_keras_gaps_affine_transform(tf):
    image = tf.keras.ops.image
    x = data((2, 4, 5, 2), seed=1)
    zoom_shift = np.array([[1.5, 0, -2, 0, 1.5, -1, 0, 0], [1, 0.3, -1, -0.2, 1, 0.5, 0.01, 0]], "float32")
    out = {"batch": _both(tf, lambda a, t: image.affine_transform(a, t), x, zoom_shift)}
    for mode in ("nearest", "wrap", "reflect"):
        out[mode] = val(image.affine_transform(x, zoom_shift[0], interpolation="nearest", fill_mode=mode))
    out["single_fill"] = val(image.affine_transform(x[0], zoom_shift[1], fill_value=0.5))
    out["channels_first"] = val(image.affine_transform(np.transpose(x, (0, 3, 1, 2)), zoom_shift,
                                                        data_format="channels_first"))
    out["bad_interpolation"] = outcome(lambda: image.affine_transform(x, zoom_shift, interpolation="cubic"),
                                       "interpolation")
    out["bad_fill"] = outcome(lambda: image.affine_transform(x, zoom_shift, fill_mode="mirror"), "fill_mode")
    out["bad_rank"] = outcome(lambda: image.affine_transform(x[0, 0], zoom_shift), "rank")
    out["bad_transform_rank"] = outcome(lambda: image.affine_transform(x, zoom_shift[None]), "transform rank")
    return out


@program
def p_keras_gaps_affine_transform_docstring(tf):
    keras = tf.keras
    x = data((2, 64, 80, 3), seed=2)
    transform = np.array([[1.5, 0, -20, 0, 1.5, -16, 0, 0], [1, 0, -20, 0, 1, -16, 0, 0]])
    shapes = [tuple(keras.ops.image.affine_transform(x, transform).shape)]
    shear = np.array([1.0, 0.5, -20, 0.5, 1.0, -16, 0, 0])
    shapes.append(tuple(keras.ops.image.affine_transform(x[0], shear).shape))
    shapes.append(tuple(keras.ops.image.affine_transform(np.transpose(x, (0, 3, 1, 2)), transform,
                                                         data_format="channels_first").shape))
    return {"shapes": [list(s) for s in shapes],
            "samples": val(keras.ops.image.affine_transform(x, transform)[:, ::16, ::20])}


@program
def p_keras_gaps_perspective_transform(tf):
    image = tf.keras.ops.image
    # the docstring's 64x80 warps: shapes only (solving the homography in float32 rounds differently from TF's
    # solver by ~1e-7, which 80-pixel coordinates turn into ~1e-5 in the samples); values on the small image
    x = data((2, 64, 80, 3), seed=3)
    start = np.array([[[0, 0], [0, 64], [80, 0], [80, 64]], [[0, 0], [0, 64], [80, 0], [80, 64]]])
    end = np.array([[[3, 5], [7, 64], [76, -10], [84, 61]], [[8, 10], [10, 61], [65, 3], [88, 43]]])
    batch = image.perspective_transform(x, start, end)
    single = image.perspective_transform(x[0], start[0], end[0])
    first = image.perspective_transform(np.transpose(x, (0, 3, 1, 2)), start, end, data_format="channels_first")
    small = data((1, 5, 6, 1), seed=4)
    corners_a = np.array([[0, 0], [0, 5], [6, 0], [6, 5]], "float32")
    corners_b = np.array([[1, 0], [0, 4], [5, 1], [6, 5]], "float32")
    return {"shapes": [list(batch.shape), list(single.shape), list(first.shape)],
            "small": _both(tf, lambda a: image.perspective_transform(a, corners_a, corners_b, fill_value=0.25),
                           small),
            "nearest": val(image.perspective_transform(small, corners_a, corners_b, interpolation="nearest")),
            "bad_points": outcome(lambda: image.perspective_transform(small, corners_a[:3], corners_b[:3]),
                                  "start_points shape"),
            "mismatch": outcome(lambda: image.perspective_transform(small, corners_a, corners_b[None]),
                                "same shape")}


@program
def p_keras_gaps_map_coordinates(tf):
    image = tf.keras.ops.image
    grid = np.arange(20, dtype="float32").reshape(4, 5)
    coordinates = np.array([[0.5, 1.5, -1.2, 3.7, 4.4, 2.0], [0.2, 3.7, 2.0, 5.6, -0.6, 4.9]], "float32")
    out = {}
    for order in (0, 1):
        for mode in ("constant", "nearest", "wrap", "reflect"):
            out[f"{order}_{mode}"] = val(image.map_coordinates(grid, coordinates, order, fill_mode=mode,
                                                               fill_value=-1.0))
        # Keras' "mirror" folds an index equal to the size onto itself (TF then fails in GatherNd): these
        # points keep away from it
        mirror_points = np.array([[-1.2, 0.5, 5.3], [-2.5, 1.5, 6.2]], "float32")
        out[f"{order}_mirror"] = val(image.map_coordinates(grid, mirror_points, order, fill_mode="mirror"))
    out["graph"] = val(tf.function(lambda g, c: image.map_coordinates(g, c, 1))(grid, coordinates))
    volume = data((3, 4, 2), seed=5)
    points = np.stack(np.meshgrid(np.linspace(-0.5, 2.5, 3), np.linspace(0, 3.3, 4), np.array([0.25, 0.75]),
                                  indexing="ij")).astype("float32")
    out["3d"] = val(image.map_coordinates(volume, points, 1, fill_mode="nearest"))
    out["int_input"] = val(image.map_coordinates(np.arange(12, dtype="int32").reshape(3, 4),
                                                 np.array([[0.4, 1.6], [2.5, 0.5]], "float32"), 1))
    out["bad_leading"] = outcome(lambda: image.map_coordinates(grid, coordinates[:1], 1), "First dim")
    # (an unknown fill_mode: Keras 3.15 fails building its own message, an AttributeError; tinytf says ValueError)
    out["bad_order"] = outcome(lambda: image.map_coordinates(grid, coordinates, 3), "order<=1")
    return out


@program
def p_keras_gaps_elastic_transform(tf):
    image = tf.keras.ops.image
    x = data((2, 7, 6, 1), seed=6)
    out = {"seeded": val(image.elastic_transform(x, alpha=4.0, sigma=1.5, seed=7)),
           "nearest_wrap": val(image.elastic_transform(x[0], alpha=6.0, sigma=1.0, interpolation="nearest",
                                                       fill_mode="wrap", seed=3)),
           "channels_first": val(image.elastic_transform(np.transpose(x, (0, 3, 1, 2)), alpha=4.0, sigma=1.5,
                                                         seed=7, data_format="channels_first")),
           "bad_fill": outcome(lambda: image.elastic_transform(x, fill_mode="mirror"), "fill_mode"),
           "bad_interpolation": outcome(lambda: image.elastic_transform(x, interpolation="bicubic"),
                                        "interpolation")}
    # the docstring's shapes
    shapes = [image.elastic_transform(data((2, 64, 80, 3)), seed=1).shape,
              image.elastic_transform(data((64, 80, 3)), seed=1).shape,
              image.elastic_transform(data((2, 3, 64, 80)), seed=1, data_format="channels_first").shape]
    out["shapes"] = [list(s) for s in shapes]
    return out


@program
def p_keras_gaps_scale_and_translate(tf):
    image = tf.keras.ops.image
    # the docstring's example
    images = np.arange(9, dtype="float32").reshape((3, 3))
    scale = np.array([2.0, 2.0]).astype("float32")
    out = {"docstring": val(image.scale_and_translate(images, (5, 5), scale, -(scale / 2.0 - 0.5), (0, 1),
                                                      "linear"))}
    x = data((2, 6, 7, 1), seed=8)
    for method in ("bilinear", "cubic", "lanczos3", "lanczos5"):
        for antialias in (True, False):
            out[f"{method}_{antialias}"] = val(image.scale_and_translate(
                x, (2, 3, 4, 1), np.array([0.5, 0.6], "float32"), np.array([0.2, -0.3], "float32"), (1, 2),
                method, antialias=antialias))
    out["up_graph"] = val(tf.function(lambda a: image.scale_and_translate(
        a, (2, 9, 10, 1), np.array([1.5, 1.4], "float32"), np.array([0.0, 0.5], "float32"), (1, 2), "tricubic"))(x))
    out["negative_dim"] = val(image.scale_and_translate(x, (2, 6, 4, 1), np.array([0.7], "float32"),
                                                        np.array([0.1], "float32"), (-2,), "trilinear"))
    # (integer images: Keras 3.15's TF backend fails clipping float by uint8 bounds; tinytf rounds and clips)
    # the docstring lists "triangle", but the TF backend's set of methods lacks it
    out["triangle"] = outcome(lambda: image.scale_and_translate(x, (2, 3, 4, 1), scale, scale, (1, 2), "triangle"),
                              "method")
    out["bad_method"] = outcome(lambda: image.scale_and_translate(x, (2, 3, 4, 1), scale, scale, (1, 2), "area"),
                                "method")
    return out


@program
def p_keras_gaps_sobel_edges(tf):
    image = tf.keras.ops.image
    # the docstring's vertical edge
    edge = np.zeros((1, 8, 8, 1), dtype="float32")
    edge[0, :, 4:, 0] = 1.0
    edges = image.sobel_edges(edge)
    x = data((1, 4, 5, 2), seed=9)
    return {"edge_shape": list(edges.shape), "edge_row": val(edges[0, 3]),
            "both": _both(tf, image.sobel_edges, x),
            "channels_first": val(image.sobel_edges(np.transpose(x, (0, 3, 1, 2)), data_format="channels_first"))}


@program
def p_keras_gaps_ssim(tf):
    image = tf.keras.ops.image
    a, b = data((2, 16, 16, 3), seed=10) * 0.5 + 0.5, data((2, 16, 16, 3), seed=11) * 0.5 + 0.5
    return {"identical": val(image.ssim(a[0], a[0], max_val=1.0)),
            "batch": _both(tf, lambda x, y: image.ssim(x, y), a, b),
            "options": val(image.ssim(a * 255, b * 255, max_val=255.0, filter_size=5, filter_sigma=1.0, k1=0.02,
                                      k2=0.05)),
            "channels_first": val(image.ssim(np.transpose(a, (0, 3, 1, 2)), np.transpose(b, (0, 3, 1, 2)),
                                             data_format="channels_first")),
            "float64": val(image.ssim(a.astype("float64"), (0.9 * a).astype("float64"), filter_size=3)),
            "bad_rank": outcome(lambda: image.ssim(a[0, 0], b[0, 0]), "image1 rank"),
            "bad_rank2": outcome(lambda: image.ssim(a, b[0, 0]), "image2 rank")}


@program
def p_keras_gaps_extract_patches_3d(tf):
    image = tf.keras.ops.image
    volumes = data((2, 3, 4, 4, 1), seed=12)
    # the docstring's shapes (random volumes replaced by deterministic ones)
    shapes = [image.extract_patches_3d(data((2, 10, 10, 10, 3)), (3, 3, 3)).shape,
              image.extract_patches_3d(data((10, 10, 10, 3)), (3, 3, 3)).shape]
    return {"shapes": [list(s) for s in shapes],
            "int_size": _both(tf, lambda v: image.extract_patches_3d(v, 2), volumes),
            "strided_same": val(image.extract_patches_3d(volumes[0], (2, 3, 2), strides=(1, 2, 3),
                                                         padding="same")),
            "dilated": val(image.extract_patches_3d(volumes, 2, strides=1, dilation_rate=2)),
            "channels_first": val(image.extract_patches_3d(np.transpose(volumes, (0, 4, 1, 2, 3)), (2, 2, 3),
                                                           data_format="channels_first")),
            "bad_size": outcome(lambda: image.extract_patches_3d(volumes, (2, 2)), "size"),
            "bad_strides": outcome(lambda: image.extract_patches_3d(volumes, 2, strides=(1, 2)), "strides")}


@program
def p_keras_gaps_linalg_jvp(tf):
    ops = tf.keras.ops
    # the docstring's example
    a1, a2 = ops.convert_to_tensor(0.1), ops.convert_to_tensor(0.2)
    primals, tangents = ops.linalg.jvp(ops.sin, (a1,), (a2,))
    x, y = tf.constant([1.0, 2.0, 3.0]), tf.constant([[0.5, -1.0], [2.0, 0.25]])

    def f(u, m):
        return {"sum": ops.sum(u * u), "prod": ops.matmul(m, m)}, ops.max(u)

    out, tangent, aux = ops.linalg.jvp(f, (x, y), (tf.ones_like(x), tf.eye(2)), has_aux=True)
    return {"docstring": val([primals, tangents]), "nested": val([out, tangent, aux]),
            "same_as_top_level": ops.linalg.jvp is ops.jvp}


@program
def p_keras_gaps_image_ops_in_functional_models(tf):
    keras = tf.keras
    image = keras.ops.image
    volumes = keras.Input((4, 4, 4, 1))
    patches = keras.Model(volumes, image.extract_patches_3d(volumes, 2))
    first, second = keras.Input((6, 6, 1)), keras.Input((6, 6, 1))
    similarity = keras.Model([first, second], image.ssim(first, second, filter_size=3))
    pictures = keras.Input((5, 6, 2))
    edges = keras.Model(pictures, image.sobel_edges(pictures))
    x = data((2, 6, 6, 1), seed=13)
    return {"patches_config": patches.get_config()["layers"][1]["config"],
            "patches_shape": list(patches.output.shape),
            "patches": val(patches(data((1, 4, 4, 4, 1), seed=14))[0, 0, 0]),
            "ssim_config": similarity.get_config()["layers"][2]["class_name"],
            "ssim": val(similarity([x, x * 0.5 + 0.25])),
            "edges_shape": list(edges.output.shape)}
