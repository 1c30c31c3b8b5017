"""Bounding boxes and segmentation masks through Keras 3's image augmentation layers as TF 2.21 ships them, and
keras.utils.bounding_boxes: dict inputs {"images", "bounding_boxes": {"boxes", "labels"}, "segmentation_masks"}
through every geometric layer that moves boxes (same seed, same numbers), the mixing layers, the colour layers
(which keep them), in training and inference, single images and batches, channels_first, inside tf.function and
a tf.data map; the utilities' results and argument errors. Where Keras transforms boxes oddly (RandomRotation
reads its input as xyxy, RandomCrop subtracts the top from x, RandomPerspective answers in xyxy, MixUp stacks
labels along the batch), the reference records it and tinytf matches it."""

from __future__ import annotations

import numpy as np

from . import outcome, program, val

BOXES = np.array([[[1, 2, 6, 7], [0, 0, 10, 8], [3, 1, 4, 5]],
                  [[2, 3, 9, 6], [4, 4, 12, 9], [0, 0, 0, 0]]], dtype="float32")
LABELS = np.array([[1, 2, 3], [4, 0, -1]], dtype="int32")


def _images(shape=(2, 8, 10, 3)):
    return ((np.arange(np.prod(shape), dtype="float32").reshape(shape) * 7.3) % 255).astype("float32")


def _masks(shape=(2, 8, 10, 1), dtype="float32"):
    return ((np.arange(np.prod(shape)).reshape(shape) * 7) % 3).astype(dtype)


def _boxes_in(tf, fmt, height=8, width=10):
    if fmt == "xyxy":
        return BOXES.copy()
    return tf.keras.utils.bounding_boxes.convert_format(BOXES.copy(), "xyxy", fmt, height=height,
                                                        width=width).numpy()


def _data(tf, fmt="xyxy", masks=True, mask_dtype="float32"):
    data = {"images": _images(), "bounding_boxes": {"boxes": _boxes_in(tf, fmt), "labels": LABELS.copy()}}
    if masks:
        data["segmentation_masks"] = _masks(dtype=mask_dtype)
    return data


def _single(data):
    out = {"images": data["images"][0],
           "bounding_boxes": {"boxes": data["bounding_boxes"]["boxes"][0],
                              "labels": data["bounding_boxes"]["labels"][0]}}
    if "segmentation_masks" in data:
        out["segmentation_masks"] = data["segmentation_masks"][0]
    return out


def _rounded(x, digits=3):
    return np.round(np.asarray(x, dtype="float64"), digits).tolist()


def _checksums(x):
    """Images (which keras_augment_layers compares value by value) as their sum and an index-weighted sum."""
    values = np.asarray(x, dtype="float64").ravel()
    return [round(float(values.sum()), 2), round(float((values * np.linspace(0, 1, values.size)).sum()), 2)]


def _summary(out):
    """An output dict as dtypes, shapes and values (boxes rounded to 1e-3 so that float32 noise in
    a clipped corner does not count; images as checksums)."""
    result = {}
    for key in sorted(out):
        value = out[key]
        if key == "bounding_boxes":
            result[key] = {k: [value[k].dtype.name, value[k].shape.as_list(),
                               _rounded(value[k]) if k == "boxes" else value[k].numpy().tolist()]
                           for k in sorted(value)}
        elif key == "images":
            result[key] = [value.dtype.name, value.shape.as_list(), _checksums(value)]
        else:
            result[key] = [value.dtype.name, value.shape.as_list(), _rounded(value, 2)]
    return result


def _calls(tf, layer, fmt="xyxy", masks=True, mask_dtype="float32"):
    """Two training calls on a batch (the generator moves on), one on a single image, one in inference."""
    return [_summary(layer(_data(tf, fmt, masks, mask_dtype))), _summary(layer(_data(tf, fmt, masks, mask_dtype))),
            _summary(layer(_single(_data(tf, fmt, masks, mask_dtype)))),
            _summary(layer(_data(tf, fmt, masks, mask_dtype), training=False))]


# --- keras.utils.bounding_boxes ---------------------------------------------------------------------------------
FORMATS = ["xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", "rel_yxyx", "rel_xywh",
           "rel_center_xywh"]


@program
def p_bbox_convert_format_all_pairs(tf):
    bb = tf.keras.utils.bounding_boxes
    boxes = np.array([[10, 20, 30, 40], [50, 60, 70, 85]], dtype="float32")
    out = []
    for source in FORMATS:
        for target in FORMATS:
            out.append([source, target, val(bb.convert_format(boxes, source, target, height=200, width=300))])
    out.append(val(bb.convert_format(boxes[None], "xyxy", "xywh")))
    out.append(val(bb.convert_format(np.array([[10, 20, 30, 40]]), "XYXY", "Center_XYWH", dtype="float64")))
    out.append(val(bb.convert_format({"boxes": boxes, "labels": np.array([1, 2])}, "xyxy", "rel_xyxy",
                                     height=100, width=200)))
    return out


@program
def p_bbox_convert_format_errors(tf):
    bb = tf.keras.utils.bounding_boxes
    boxes = np.array([[10, 20, 30, 40]], dtype="float32")
    return [outcome(lambda: bb.convert_format(np.zeros((2, 3)), "xyxy", "xywh"), "last dimension of 4"),
            outcome(lambda: bb.convert_format(boxes, "xyxy", "corners"), "Invalid source or target format"),
            outcome(lambda: bb.convert_format(boxes, "rel_xyxy", "xyxy"), "must receive `height` and `width`"),
            outcome(lambda: bb.convert_format(boxes, "xyxy", "rel_xywh", height=10), "height=10 and width=None")]


@program
def p_bbox_clip_crop_pad(tf):
    bb = tf.keras.utils.bounding_boxes
    boxes = {"boxes": np.array([[-10, -20, 150, 160], [50, 40, 70, 80], [130, 10, 140, 20]], dtype="float32"),
             "labels": np.array([0, 1, 2])}
    rel = {"boxes": np.array([[[-0.1, 0.2, 0.5, 1.3], [1.1, 0.0, 1.4, 0.5]]], dtype="float32"),
           "labels": np.array([[3, 4]])}
    xyxy = np.array([[10, 20, 50, 60], [70, 80, 100, 120]], dtype="float32")
    return [val(bb.clip_to_image_size(boxes, height=100, width=120)),
            val(bb.clip_to_image_size(rel, bounding_box_format="rel_xyxy")),
            val(bb.clip_to_image_size({"boxes": boxes["boxes"]}, height=50, width=60)),
            outcome(lambda: bb.clip_to_image_size(boxes), "`height` and `width` must be set"),
            outcome(lambda: bb.clip_to_image_size(boxes, 10, 10, bounding_box_format="xywh"), ""),
            val(bb.crop(xyxy, top=10, left=20, height=40, width=30)),
            val(bb.crop(xyxy[None], 5, 7, 200, 200)),
            outcome(lambda: bb.crop(xyxy, 1, 2, 3, 4, bounding_box_format="yxyx"), ""),
            val(bb.pad(xyxy, top=3, left=4)), val(bb.pad(xyxy[None], 1.5, 2.5, 10, 10)),
            outcome(lambda: bb.pad(xyxy, 1, 2, bounding_box_format="rel_xyxy"), "")]


@program
def p_bbox_affine_transform(tf):
    bb = tf.keras.utils.bounding_boxes
    boxes = np.array([[[10, 20, 50, 60], [70, 80, 100, 120]], [[0, 0, 30, 30], [5, 5, 6, 6]]], dtype="float32")

    def vec(*values):
        return np.array(values, dtype="float32")

    return [_rounded(bb.affine_transform(boxes, vec(30, -45), vec(0, 0.1), vec(0.2, 0), vec(1, 1.5), vec(0, 10),
                                         vec(5, 0), 128, 160)),
            _rounded(bb.affine_transform(boxes, vec(0, 90), vec(0, 0), vec(0, 0), vec(1, 1), vec(0, 0), vec(0, 0),
                                         100, 100, center_x=0.25, center_y=0.75)),
            outcome(lambda: bb.affine_transform(boxes, vec(0, 0), vec(0, 0), vec(0, 0), vec(1, 1), vec(0, 0),
                                                vec(0, 0), 10, 10, bounding_box_format="xywh"), "")]


@program
def p_bbox_encode_decode_deltas(tf):
    bb = tf.keras.utils.bounding_boxes
    anchors = np.array([[0, 0, 10, 10], [5, 5, 25, 15], [10, 20, 40, 60]], dtype="float32")
    boxes = np.array([[[1, 1, 9, 12], [4, 6, 24, 16], [12, 18, 38, 66]],
                      [[0, 0, 10, 10], [6, 6, 20, 20], [0, 0, 0, 0]]], dtype="float32")
    deltas = bb.encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy")
    deltas_v = bb.encode_box_to_deltas(anchors, boxes[0], "xyxy", "xyxy", encoding_format="center_xywh",
                                       variance=[0.1, 0.1, 0.2, 0.2])
    rel = bb.encode_box_to_deltas(anchors / 100.0, boxes[0] / 100.0, "rel_xyxy", "rel_xyxy",
                                  image_shape=(100, 100, 3))
    decoded = bb.decode_deltas_to_boxes(anchors, deltas, "xyxy", "xyxy")
    decoded_v = bb.decode_deltas_to_boxes(anchors, deltas_v, "xyxy", "xywh", encoded_format="center_xywh",
                                          variance=[0.1, 0.1, 0.2, 0.2])
    levels = bb.decode_deltas_to_boxes({"p3": anchors, "p4": anchors[:2]},
                                       {"p3": deltas[0], "p4": deltas[1][:2]}, "xyxy", "yxyx")
    return [_rounded(deltas, 4), _rounded(deltas_v, 4), _rounded(rel, 4), _rounded(decoded, 3),
            _rounded(decoded_v, 3), {k: _rounded(v, 3) for k, v in sorted(levels.items())},
            outcome(lambda: bb.encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", variance=[1, 2]),
                    "`variance` must be length 4"),
            outcome(lambda: bb.encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", encoding_format="xyxy"),
                    "`encoding_format` should be one of"),
            outcome(lambda: bb.decode_deltas_to_boxes(anchors, deltas, "xyxy", "xyxy", encoded_format="yxyx"),
                    "`encoded_format` should be")]


@program
def p_bbox_compute_iou_ciou(tf):
    bb = tf.keras.utils.bounding_boxes
    a = np.array([[0, 0, 10, 10], [5, 5, 15, 15], [-1, -1, -1, -1]], dtype="float32")
    b = np.array([[0, 0, 10, 10], [10, 10, 20, 20]], dtype="float32")
    batched = np.stack([a, a + 2.0])
    return [_rounded(bb.compute_iou(a, b, "xyxy"), 5), _rounded(bb.compute_iou(batched, b, "xyxy"), 5),
            _rounded(bb.compute_iou(a, np.stack([b, b * 0.5]), "yxyx"), 5),
            _rounded(bb.compute_iou(batched, np.stack([b, b]), "xywh", use_masking=True), 5),
            _rounded(bb.compute_iou(a, b, "xyxy", use_masking=True, mask_val=-7), 5),
            _rounded(bb.compute_iou(a / 20.0, b / 20.0, "rel_xyxy", image_shape=(20, 20, 3)), 5),
            outcome(lambda: bb.compute_iou(a, b, "rel_xyxy"), "the `image_shape` argument must be provided"),
            outcome(lambda: bb.compute_iou(a[0], b, "xyxy"), "expects boxes1 to be batched"),
            _rounded(bb.compute_ciou(a[:2], b, "xyxy"), 5),
            _rounded(bb.compute_ciou(batched[:, :2], np.stack([b, b + 1.0]), "center_xywh"), 5),
            outcome(lambda: bb.compute_ciou(a, a, "rel_xyxy"), "the `image_shape` argument must be provided")]


# --- the layers ------------------------------------------------------------------------------------------------
@program
def p_boxes_random_flip(tf):
    L = tf.keras.layers
    out = []
    for mode, fmt, seed in (("horizontal_and_vertical", "xyxy", 1), ("horizontal", "rel_xyxy", 2),
                            ("vertical", "center_xywh", 3), ("horizontal_and_vertical", "yxyx", 4)):
        out.append(_calls(tf, L.RandomFlip(mode, seed=seed, bounding_box_format=fmt), fmt))
    return out


@program
def p_boxes_random_rotation(tf):
    L = tf.keras.layers
    return [_calls(tf, L.RandomRotation(0.1, seed=2, bounding_box_format="xyxy")),
            _calls(tf, L.RandomRotation((-0.3, 0.2), fill_mode="constant", seed=5, bounding_box_format="xywh"),
                   "xywh"),
            _calls(tf, L.RandomRotation(0.2, interpolation="nearest", seed=6, bounding_box_format="rel_xyxy"),
                   "rel_xyxy")]


@program
def p_boxes_random_translation(tf):
    L = tf.keras.layers
    return [_calls(tf, L.RandomTranslation(0.2, 0.3, seed=3, bounding_box_format="xyxy")),
            _calls(tf, L.RandomTranslation((-0.4, 0.1), 0.25, fill_mode="constant", seed=4,
                                           bounding_box_format="center_xywh"), "center_xywh")]


@program
def p_boxes_random_zoom(tf):
    L = tf.keras.layers
    return [_calls(tf, L.RandomZoom(0.3, seed=4, bounding_box_format="xyxy")),
            _calls(tf, L.RandomZoom((-0.2, 0.3), (0.1, 0.4), seed=5, bounding_box_format="rel_xyxy"), "rel_xyxy"),
            _calls(tf, L.RandomZoom(-0.4, fill_mode="nearest", seed=6, bounding_box_format="yxyx"), "yxyx")]


@program
def p_boxes_random_crop(tf):
    L = tf.keras.layers
    return [_calls(tf, L.RandomCrop(6, 7, seed=5, bounding_box_format="xyxy")),
            _calls(tf, L.RandomCrop(5, 9, seed=6, bounding_box_format="xywh"), "xywh"),
            _calls(tf, L.RandomCrop(10, 12, seed=7, bounding_box_format="xyxy"))]


@program
def p_boxes_center_crop_resizing(tf):
    L = tf.keras.layers
    layers = [(L.CenterCrop(6, 8, bounding_box_format="xyxy"), "xyxy"),
              (L.CenterCrop(10, 12, bounding_box_format="rel_xyxy"), "rel_xyxy"),
              (L.CenterCrop(4, 11, bounding_box_format="xyxy"), "xyxy"),
              (L.Resizing(12, 9, bounding_box_format="xyxy"), "xyxy"),
              (L.Resizing(6, 6, pad_to_aspect_ratio=True, bounding_box_format="xyxy"), "xyxy"),
              (L.Resizing(6, 5, crop_to_aspect_ratio=True, bounding_box_format="center_xywh"), "center_xywh"),
              (L.Resizing(9, 4, crop_to_aspect_ratio=True, bounding_box_format="xyxy"), "xyxy"),
              (L.Resizing(16, 20, pad_to_aspect_ratio=True, interpolation="nearest", bounding_box_format="yxyx"),
               "yxyx")]
    return [_calls(tf, layer, fmt) for layer, fmt in layers]


@program
def p_boxes_random_shear_perspective(tf):
    L = tf.keras.layers
    return [_calls(tf, L.RandomShear(0.3, 0.2, seed=6, bounding_box_format="xyxy")),
            _calls(tf, L.RandomShear(x_factor=(0.1, 0.5), seed=7, bounding_box_format="rel_xyxy"), "rel_xyxy"),
            _calls(tf, L.RandomShear(y_factor=0.4, fill_mode="constant", seed=8, bounding_box_format="xywh"), "xywh"),
            _calls(tf, L.RandomPerspective(scale=0.3, seed=7, bounding_box_format="xyxy")),
            _calls(tf, L.RandomPerspective(0.6, scale=0.5, seed=8, bounding_box_format="center_xywh"),
                   "center_xywh")]


@program
def p_boxes_max_num_and_colour_layers(tf):
    L = tf.keras.layers
    layers = [L.MaxNumBoundingBoxes(2, bounding_box_format="xyxy"),
              L.MaxNumBoundingBoxes(5, fill_value=-3, bounding_box_format="xyxy"),
              L.RandomContrast(0.5, seed=1, bounding_box_format="xyxy"),
              L.RandomBrightness(0.3, seed=2, bounding_box_format="xyxy"),
              L.RandomSaturation(0.6, seed=4, bounding_box_format="xyxy"),
              L.RandomHue(0.4, seed=5, bounding_box_format="xyxy"),
              L.RandomColorJitter(brightness_factor=0.2, contrast_factor=0.3, seed=6, bounding_box_format="xyxy"),
              L.Solarization(0.3, 0.5, seed=7, bounding_box_format="xyxy"),
              L.RandomInvert(seed=8, bounding_box_format="xyxy"),
              L.RandomPosterization(4, seed=9, bounding_box_format="xyxy"),
              L.AutoContrast(bounding_box_format="xyxy"), L.Equalization(bounding_box_format="xyxy"),
              L.RandomColorDegeneration(0.5, seed=10, bounding_box_format="xyxy"),
              L.RandomSharpness(0.6, seed=11, bounding_box_format="xyxy"),
              L.RandomGaussianBlur(seed=12, bounding_box_format="xyxy"),
              L.RandomErasing(seed=13, bounding_box_format="xyxy"),
              L.AugMix(seed=14, num_chains=2, chain_depth=1, bounding_box_format="xyxy")]
    import random

    random.seed(5)  # AugMix picks its chains with Python's random
    return [[type(layer).__name__, _calls(tf, layer)] for layer in layers]


@program
def p_masks_elastic_cutmix_mixup(tf):
    L = tf.keras.layers
    out = []
    for layer in (L.RandomElasticTransform(seed=1), L.RandomElasticTransform(0.7, scale=0.5, seed=2),
                  L.CutMix(seed=3), L.CutMix(0.5, seed=4)):
        data = {"images": _images(), "segmentation_masks": _masks(), "labels": np.eye(2, dtype="float32")}
        out.append(_summary(layer(data)))
        out.append(_summary(layer(dict(data), training=False)))
    mixup = L.MixUp(alpha=0.4, seed=5, bounding_box_format="xyxy")
    out.append(_summary(mixup(_data(tf))))
    out.append(_summary(mixup(_data(tf), training=False)))
    out.append(_summary(L.MixUp(seed=6)({"images": _images(), "segmentation_masks": _masks((2, 8, 10, 2))})))
    return out


@program
def p_boxes_mask_dtypes(tf):
    """Integer masks: the layers that cast images cast masks too, the warping ones keep the masks' dtype."""
    L = tf.keras.layers
    layers = [L.RandomFlip(seed=1, bounding_box_format="xyxy"), L.RandomRotation(0.2, seed=2,
                                                                                 bounding_box_format="xyxy"),
              L.RandomZoom(0.2, seed=3, bounding_box_format="xyxy"), L.RandomCrop(6, 6, seed=4,
                                                                                  bounding_box_format="xyxy"),
              L.CenterCrop(6, 6, bounding_box_format="xyxy"), L.Resizing(5, 5, bounding_box_format="xyxy"),
              L.RandomShear(0.2, seed=5, bounding_box_format="xyxy"),
              L.RandomPerspective(seed=6, bounding_box_format="xyxy"),
              L.RandomContrast(0.3, seed=7, bounding_box_format="xyxy")]
    out = []
    for layer in layers:
        result = layer(_data(tf, mask_dtype="int32"))
        out.append([type(layer).__name__, _summary(result)["segmentation_masks"]])
    return out


@program
def p_boxes_errors(tf):
    L = tf.keras.layers

    def call(layer, data):
        return lambda: layer(data)

    no_format = _data(tf)
    # Keras' RandomGrayscale reads `images.shape` of the dict itself: it takes no dict input at all
    return [outcome(call(L.RandomGrayscale(0.7, seed=3, bounding_box_format="xyxy"), _data(tf)), ""),
            outcome(call(L.RandomFlip(seed=1), _data(tf)), "didn't specify a bounding box format"),
            # Keras 2's RandomHeight and RandomWidth (TF 2.21 keeps them) take one tensor
            outcome(call(L.RandomHeight(0.2, seed=1), _data(tf)), "Attempt to convert a value"),
            outcome(call(L.RandomWidth(0.2, seed=1), _data(tf)), "Attempt to convert a value"),
            outcome(call(L.RandomElasticTransform(seed=1, bounding_box_format="xyxy"), _data(tf, masks=False)), ""),
            outcome(call(L.CutMix(seed=1, bounding_box_format="xyxy"), _data(tf, masks=False)), ""),
            outcome(call(L.RandomFlip(seed=1, bounding_box_format="xyxy"),
                         {"images": no_format["images"], "bounding_boxes": {"boxes": BOXES}}),
                    "Expected `bounding_boxes` agurment to be a dict with keys 'boxes' and 'labels'"),
            outcome(call(L.RandomFlip(seed=1, bounding_box_format="xyxy"),
                         {"images": no_format["images"],
                          "bounding_boxes": {"boxes": BOXES[None], "labels": LABELS}}),
                    "Expected `bounding_boxes['boxes']` to have rank 2 or 3")]


@program
def p_boxes_channels_first(tf):
    L = tf.keras.layers
    out = []
    for layer in (L.RandomFlip(seed=1, data_format="channels_first", bounding_box_format="xyxy"),
                  L.RandomTranslation(0.2, 0.2, seed=2, data_format="channels_first", bounding_box_format="xyxy"),
                  L.Resizing(6, 12, pad_to_aspect_ratio=True, data_format="channels_first",
                             bounding_box_format="xyxy")):
        data = _data(tf)
        data["images"] = np.transpose(data["images"], (0, 3, 1, 2))
        data["segmentation_masks"] = np.transpose(data["segmentation_masks"], (0, 3, 1, 2))
        out.append(_summary(layer(data)))
    return out


@program
def p_boxes_in_tf_function(tf):
    L = tf.keras.layers
    flip = L.RandomFlip(seed=1, bounding_box_format="xyxy")
    zoom = L.RandomZoom(0.3, seed=2, bounding_box_format="rel_xyxy")
    resize = L.Resizing(6, 6, pad_to_aspect_ratio=True, bounding_box_format="xyxy")

    @tf.function
    def augment(images, boxes, labels, masks):
        data = {"images": images, "bounding_boxes": {"boxes": boxes, "labels": labels},
                "segmentation_masks": masks}
        return resize(zoom(flip(data)))

    data = _data(tf)
    boxes = tf.keras.utils.bounding_boxes.convert_format(BOXES, "xyxy", "rel_xyxy", height=8, width=10)
    args = (data["images"], boxes, LABELS, data["segmentation_masks"])
    return [_summary(augment(*args)), _summary(augment(*args))]


@program
def p_boxes_in_tf_data(tf):
    L = tf.keras.layers
    rotate = L.RandomRotation(0.1, seed=3, bounding_box_format="xyxy")
    crop = L.CenterCrop(6, 8, bounding_box_format="xyxy")
    data = _data(tf)
    ds = tf.data.Dataset.from_tensor_slices(data).batch(2).map(lambda d: crop(rotate(d)))
    single = tf.data.Dataset.from_tensor_slices(data).map(lambda d: crop(d))
    return [_summary(d) for d in ds] + [_summary(d) for d in single]


@program
def p_boxes_rand_augment(tf):
    """RandAugment moves boxes by whichever members it picked (each member's boxes from the boxes so far, in
    Keras' member-then-op order)."""
    L = tf.keras.layers
    out = []
    for fmt, seed, num_ops in (("xyxy", 1, 2), ("rel_xyxy", 2, 3)):
        layer = L.RandAugment(num_ops=num_ops, factor=0.6, seed=seed, bounding_box_format=fmt)
        out.append([_summary(layer(_data(tf, fmt))) for _ in range(4)])
        out.append(_summary(layer(_data(tf, fmt), training=False)))
    return out


@program
def p_boxes_ragged(tf):
    """Ragged boxes (a different count per image) are padded first: boxes with 0, labels with -1."""
    L = tf.keras.layers
    boxes = tf.ragged.constant([[[1, 2, 6, 7], [0, 0, 3, 3]], [[2, 2, 5, 5]]], ragged_rank=1, dtype=tf.float32)
    labels = tf.ragged.constant([[1, 2], [3]], dtype=tf.int32)
    out = []
    for layer in (L.RandomFlip(seed=1, bounding_box_format="xyxy"), L.Resizing(4, 5, bounding_box_format="xyxy"),
                  L.MaxNumBoundingBoxes(3, bounding_box_format="xyxy")):
        data = {"images": tf.constant(_images()), "bounding_boxes": {"boxes": boxes, "labels": labels}}
        out.append(_summary(layer(data)))
    flip = L.RandomFlip(seed=2, bounding_box_format="xyxy")
    ds = tf.data.Dataset.from_tensor_slices({"images": _images(), "bounding_boxes": {"boxes": boxes, "labels": labels}})
    out.append(_summary(next(iter(ds.ragged_batch(2).map(flip)))))
    return out
