"""Bounding boxes and segmentation masks through the Keras image layers, and keras.utils.bounding_boxes: the
utilities against numpy, each layer's boxes and masks against what its images show (a bright block drawn where
a box is must be where the moved box is), eager against tf.function against a tf.data map, and
RandomElasticTransform with sizes known only at run time. TF 2.21's own numbers are in the conformance module
keras_augment_boxes."""

import itertools

import numpy as np
import pytest

import tinytf as tf

L = tf.keras.layers
bb = tf.keras.utils.bounding_boxes
FORMATS = ["xyxy", "yxyx", "xywh", "center_xywh", "center_yxhw", "rel_xyxy", "rel_yxyx", "rel_xywh",
           "rel_center_xywh"]


def _random_xyxy(n, height=40, width=50, seed=0):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, width, (n, 2)), axis=1)
    y = np.sort(rng.uniform(0, height, (n, 2)), axis=1)
    return np.stack([x[:, 0], y[:, 0], x[:, 1], y[:, 1]], axis=1).astype("float32")


# --- keras.utils.bounding_boxes --------------------------------------------------------------------------------
@pytest.mark.parametrize("source,target", list(itertools.product(FORMATS, FORMATS)))
def test_convert_format_round_trips(source, target):
    boxes = _random_xyxy(6)
    there = bb.convert_format(boxes, "xyxy", source, height=40, width=50)
    moved = bb.convert_format(there, source, target, height=40, width=50)
    back = bb.convert_format(moved, target, "xyxy", height=40, width=50)
    np.testing.assert_allclose(back.numpy(), boxes, rtol=1e-5, atol=1e-4)


def test_convert_format_against_numpy_and_in_a_graph():
    boxes = _random_xyxy(5)
    x1, y1, x2, y2 = boxes.T
    expected = {"xywh": np.stack([x1, y1, x2 - x1, y2 - y1], 1),
                "center_yxhw": np.stack([(y1 + y2) / 2, (x1 + x2) / 2, y2 - y1, x2 - x1], 1),
                "rel_yxyx": np.stack([y1 / 40, x1 / 50, y2 / 40, x2 / 50], 1)}
    graph = tf.function(lambda b, fmt: bb.convert_format(b, "xyxy", fmt, height=40, width=50))
    for fmt, want in expected.items():
        np.testing.assert_allclose(bb.convert_format(boxes, "xyxy", fmt, height=40, width=50).numpy(), want,
                                   rtol=1e-6)
        np.testing.assert_allclose(graph(tf.constant(boxes), fmt).numpy(), want, rtol=1e-6)
    data = {"boxes": boxes, "labels": np.arange(5)}
    assert bb.convert_format(data, "xyxy", "xywh") is data  # Keras replaces "boxes" in the dict it was given
    assert data["boxes"].dtype == tf.float32


def test_iou_against_numpy():
    a, b = _random_xyxy(7, seed=1), _random_xyxy(4, seed=2)

    def iou(p, q):
        w = max(0.0, min(p[2], q[2]) - max(p[0], q[0]))
        h = max(0.0, min(p[3], q[3]) - max(p[1], q[1]))
        union = (p[2] - p[0]) * (p[3] - p[1]) + (q[2] - q[0]) * (q[3] - q[1]) - w * h
        return w * h / (union + 1e-7)

    expected = np.array([[iou(p, q) for q in b] for p in a])
    np.testing.assert_allclose(bb.compute_iou(a, b, "xyxy").numpy(), expected, rtol=1e-5, atol=1e-6)
    batched = bb.compute_iou(np.stack([a, a]), b, "xyxy").numpy()
    np.testing.assert_allclose(batched, np.stack([expected, expected]), rtol=1e-5, atol=1e-6)
    padded = np.concatenate([a, -np.ones((1, 4), "float32")])
    masked = bb.compute_iou(padded, b, "xyxy", use_masking=True, mask_val=-3).numpy()
    assert (masked[-1] == -3).all() and np.allclose(masked[:-1], expected, rtol=1e-5)
    same = bb.compute_ciou(a, a, "xyxy").numpy()
    np.testing.assert_allclose(same, 1.0, rtol=1e-5)  # a box against itself: IoU 1, no distance, same shape


def test_encode_decode_invert_each_other():
    anchors, boxes = _random_xyxy(6, seed=3), _random_xyxy(6, seed=4)[None].repeat(2, 0)
    for fmt, variance in (("center_yxhw", None), ("center_xywh", [0.1, 0.1, 0.2, 0.2])):
        deltas = bb.encode_box_to_deltas(anchors, boxes, "xyxy", "xyxy", fmt, variance=variance)
        decoded = bb.decode_deltas_to_boxes(anchors, deltas, "xyxy", "xyxy", fmt, variance=variance)
        np.testing.assert_allclose(decoded.numpy(), boxes, rtol=1e-5, atol=1e-4)


def test_clip_crop_pad_against_numpy():
    boxes = np.array([[-5, 3, 60, 20], [10, 10, 10, 30], [5, 5, 9, 9]], "float32")
    clipped = bb.clip_to_image_size({"boxes": boxes, "labels": np.array([1, 2, 3], "int32")}, 40, 50)
    np.testing.assert_array_equal(clipped["boxes"].numpy(), np.clip(boxes, 0, [50, 40, 50, 40]))
    np.testing.assert_array_equal(clipped["labels"].numpy(), [1, -1, 3])  # no area left: label -1
    cropped = bb.crop(boxes, top=4, left=6, height=20, width=30).numpy()
    np.testing.assert_array_equal(cropped, np.clip(boxes - [6, 4, 6, 4], 0, [30, 20, 30, 20]))
    np.testing.assert_array_equal(bb.pad(boxes, 2, 3).numpy(), boxes + [3, 2, 3, 2])
    with pytest.raises(NotImplementedError):
        bb.crop(boxes, 1, 1, 5, 5, bounding_box_format="xywh")


def test_affine_transform_rotates_about_the_centre():
    boxes = np.array([[[10, 0, 20, 10]]], "float32")  # on a 31 x 31 image, centre (15, 15)
    quarter = bb.affine_transform(boxes, np.float32([90]), np.zeros(1), np.zeros(1), np.ones(1), np.zeros(1),
                                  np.zeros(1), 31, 31).numpy()
    # Keras turns the boxes by -angle (the inverse of the map it gives the images): (x, y) -> (y, 30 - x)
    np.testing.assert_allclose(quarter, [[[0, 10, 10, 20]]], atol=1e-4)


# --- the layers: boxes and masks follow the images -------------------------------------------------------------
def _scene(height=24, width=30, batch=2):
    """Images black but for one bright block per image, its box (xyxy) and a mask of it."""
    images = np.zeros((batch, height, width, 3), "float32")
    masks = np.zeros((batch, height, width, 1), "float32")
    boxes = np.array([[[4, 6, 12, 14]], [[15, 2, 27, 9]]], "float32")[:batch]
    for i, (x1, y1, x2, y2) in enumerate(boxes[:, 0].astype(int)):
        images[i, y1:y2, x1:x2] = 200.0
        masks[i, y1:y2, x1:x2] = 1.0
    data = {"images": images, "bounding_boxes": {"boxes": boxes, "labels": np.array([[1], [2]], "int32")[:batch]},
            "segmentation_masks": masks}
    return data


def _bright_box(image):
    ys, xs = np.nonzero(image[..., 0] > 100)
    return np.array([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1], "float32")


LAYERS = {
    "flip": lambda: L.RandomFlip(seed=3, bounding_box_format="xyxy"),
    "flip_rel": lambda: L.RandomFlip("horizontal", seed=4, bounding_box_format="rel_xyxy"),
    "translation": lambda: L.RandomTranslation(0.2, 0.2, fill_mode="constant", interpolation="nearest", seed=5,
                                               bounding_box_format="xyxy"),
    "center_crop": lambda: L.CenterCrop(16, 20, bounding_box_format="xyxy"),
    "resize": lambda: L.Resizing(48, 60, interpolation="nearest", bounding_box_format="xyxy"),
    "resize_pad": lambda: L.Resizing(30, 30, pad_to_aspect_ratio=True, interpolation="nearest",
                                     bounding_box_format="xyxy"),
}


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_boxes_and_masks_follow_the_bright_block(name):
    data = _scene()
    if name == "flip_rel":
        data["bounding_boxes"]["boxes"] = bb.convert_format(data["bounding_boxes"]["boxes"], "xyxy", "rel_xyxy",
                                                            height=24, width=30).numpy()
    out = LAYERS[name]()(data)
    images, masks = out["images"].numpy(), out["segmentation_masks"].numpy()
    boxes = out["bounding_boxes"]["boxes"].numpy()
    if name == "flip_rel":
        boxes = bb.convert_format(boxes, "rel_xyxy", "xyxy", height=24, width=30).numpy()
    for i in range(2):
        if not (images[i, ..., 0] > 100).any():
            continue  # moved out of the image
        np.testing.assert_allclose(boxes[i, 0], _bright_box(images[i]), atol=1.01)
        np.testing.assert_array_equal(masks[i, ..., 0] > 0.5, images[i, ..., 0] > 100)
    assert set(np.unique(masks)) <= {0.0, 1.0}


@pytest.mark.parametrize("name", ["rotation", "zoom", "shear", "perspective"])
def test_warped_boxes_hold_the_block_and_masks_stay_classes(name):
    layer = {"rotation": L.RandomRotation(0.15, fill_mode="constant", interpolation="nearest", seed=1,
                                          bounding_box_format="xyxy"),
             "zoom": L.RandomZoom(0.3, fill_mode="constant", interpolation="nearest", seed=2,
                                  bounding_box_format="xyxy"),
             "shear": L.RandomShear(0.2, 0.2, fill_mode="constant", interpolation="nearest", seed=3,
                                    bounding_box_format="xyxy"),
             "perspective": L.RandomPerspective(scale=0.2, interpolation="nearest", seed=4,
                                                bounding_box_format="xyxy")}[name]
    data = _scene()
    data["segmentation_masks"] = (data["segmentation_masks"] * 2).astype("int32")
    out = layer(data)
    images, masks = out["images"].numpy(), out["segmentation_masks"].numpy()
    assert masks.dtype == np.int32 and set(np.unique(masks)) <= {0, 2}  # nearest: classes stay classes
    for i in range(2):
        if (images[i, ..., 0] > 100).any() and name != "shear":  # Keras' shear of boxes is its own estimate
            seen = _bright_box(images[i])
            box = out["bounding_boxes"]["boxes"].numpy()[i, 0]
            assert box[0] <= seen[0] + 1.5 and box[1] <= seen[1] + 1.5  # the moved box holds the block
            assert box[2] >= seen[2] - 1.5 and box[3] >= seen[3] - 1.5
        np.testing.assert_array_equal(masks[i, ..., 0] > 0, images[i, ..., 0] > 100)


def _run_three_ways(make_layer, data):
    """The same seeded layer eagerly, in a tf.function and in a tf.data map (fresh layers, same draws)."""
    eager = make_layer()(data)
    graph_layer = make_layer()
    traced = tf.function(lambda d: graph_layer(d))(data)
    mapped_layer = make_layer()
    dataset = tf.data.Dataset.from_tensors(data).map(lambda d: mapped_layer(d))
    mapped = next(iter(dataset))
    return eager, traced, mapped


@pytest.mark.parametrize("make_layer", [
    lambda: L.RandomFlip(seed=1, bounding_box_format="xyxy"),
    lambda: L.RandomRotation(0.2, seed=2, bounding_box_format="xywh"),
    lambda: L.RandomZoom(0.3, seed=3, bounding_box_format="rel_xyxy"),
    lambda: L.RandomTranslation(0.2, 0.1, seed=4, bounding_box_format="center_xywh"),
    lambda: L.RandomCrop(10, 12, seed=5, bounding_box_format="xyxy"),
    lambda: L.Resizing(12, 12, crop_to_aspect_ratio=True, bounding_box_format="yxyx"),
    lambda: L.RandomShear(0.3, seed=6, bounding_box_format="xyxy"),
    lambda: L.RandomPerspective(scale=0.4, seed=7, bounding_box_format="xyxy"),
    lambda: L.MixUp(seed=8, bounding_box_format="xyxy"),
    lambda: L.RandAugment(seed=9, bounding_box_format="xyxy"),
], ids=["flip", "rotation", "zoom", "translation", "crop", "resize", "shear", "perspective", "mixup", "randaugment"])
def test_eager_tf_function_and_tf_data_agree(make_layer):
    data = _scene()
    if "rel" in make_layer().bounding_box_format:
        data["bounding_boxes"]["boxes"] = data["bounding_boxes"]["boxes"] / np.float32(30.0)
    eager, traced, mapped = _run_three_ways(make_layer, data)
    for other in (traced, mapped):
        for key in ("images", "segmentation_masks"):
            np.testing.assert_allclose(other[key].numpy(), eager[key].numpy(), rtol=1e-5, atol=1e-4)
        for key in ("boxes", "labels"):
            # in a graph Keras' layers cast every input to float32 first, labels included
            np.testing.assert_allclose(other["bounding_boxes"][key].numpy(),
                                       eager["bounding_boxes"][key].numpy(), rtol=1e-5, atol=1e-4)
        assert other["bounding_boxes"]["labels"].dtype == tf.float32


def test_single_image_channels_first_and_inference():
    data = _scene(batch=1)
    single = {"images": data["images"][0], "segmentation_masks": data["segmentation_masks"][0],
              "bounding_boxes": {"boxes": data["bounding_boxes"]["boxes"][0],
                                 "labels": data["bounding_boxes"]["labels"][0]}}
    out = L.RandomFlip("horizontal", seed=2, bounding_box_format="xyxy")(single)
    assert out["images"].shape == (24, 30, 3) and out["bounding_boxes"]["boxes"].shape == (1, 4)
    first = L.CenterCrop(12, 16, data_format="channels_first", bounding_box_format="xyxy")
    cf = {"images": np.transpose(data["images"], (0, 3, 1, 2)),
          "segmentation_masks": np.transpose(data["segmentation_masks"], (0, 3, 1, 2)),
          "bounding_boxes": data["bounding_boxes"]}
    out_cf = first(cf)
    out_cl = L.CenterCrop(12, 16, bounding_box_format="xyxy")(_scene(batch=1))
    np.testing.assert_array_equal(np.transpose(out_cf["segmentation_masks"].numpy(), (0, 2, 3, 1)),
                                  out_cl["segmentation_masks"].numpy())
    np.testing.assert_array_equal(out_cf["bounding_boxes"]["boxes"].numpy(), out_cl["bounding_boxes"]["boxes"].numpy())
    kept = L.RandomRotation(0.3, seed=1, bounding_box_format="xyxy")(_scene(), training=False)
    np.testing.assert_array_equal(kept["bounding_boxes"]["boxes"].numpy(), _scene()["bounding_boxes"]["boxes"])


def test_colour_layers_keep_boxes_and_masks_and_pipelines_take_dicts():
    data = _scene()
    pipeline = L.Pipeline([L.RandomContrast(0.3, seed=1, bounding_box_format="xyxy"),
                           L.RandomSharpness(0.5, seed=2, bounding_box_format="xyxy"),
                           L.RandomFlip("vertical", seed=3, bounding_box_format="xyxy")])
    out = pipeline(data)
    flip_only = L.RandomFlip("vertical", seed=3, bounding_box_format="xyxy")(_scene())
    np.testing.assert_array_equal(out["bounding_boxes"]["boxes"].numpy(), flip_only["bounding_boxes"]["boxes"].numpy())
    np.testing.assert_array_equal(out["segmentation_masks"].numpy(), flip_only["segmentation_masks"].numpy())


def test_configs_keep_the_box_format():
    layer = L.RandomZoom(0.2, seed=1, bounding_box_format="center_xywh")
    config = layer.get_config()
    assert config["bounding_box_format"] == "center_xywh"
    assert L.RandomZoom.from_config(config).bounding_box_format == "center_xywh"
    assert "bounding_box_format" not in L.RandomZoom(0.2).get_config()  # as Keras: only when set


def test_errors_name_the_layer_or_argument():
    data = _scene()
    with pytest.raises(ValueError, match="bounding_box_format='xyxy'"):
        L.RandomFlip(seed=1)(data)
    with pytest.raises(NotImplementedError, match="RandomElasticTransform"):
        L.RandomElasticTransform(seed=1, bounding_box_format="xyxy")(data)
    with pytest.raises(ValueError, match="'boxes' and 'labels'"):
        L.RandomFlip(bounding_box_format="xyxy")({"images": data["images"],
                                                  "bounding_boxes": {"boxes": data["bounding_boxes"]["boxes"]}})
    with pytest.raises(AttributeError, match="RandomGrayscale"):
        L.RandomGrayscale(seed=1)(data)


# --- RandomElasticTransform with sizes known only at run time ---------------------------------------------------
def _picture(shape):
    return ((np.arange(np.prod(shape)).reshape(shape) * 7.3) % 255).astype("float32")


def test_elastic_transform_with_unknown_sizes_in_a_trace():
    x = _picture((2, 12, 14, 3))
    eager = L.RandomElasticTransform(seed=1)(x).numpy()
    layer = L.RandomElasticTransform(seed=1)
    traced = tf.function(lambda images: layer(images), input_signature=[tf.TensorSpec([2, None, None, 3])])
    np.testing.assert_array_equal(traced(x).numpy(), eager)
    masks = (np.arange(2 * 12 * 14).reshape(2, 12, 14, 1) % 3).astype("float32")
    layer, fresh = L.RandomElasticTransform(seed=4), L.RandomElasticTransform(seed=4)
    graph = tf.function(lambda d: layer(d), input_signature=[{"images": tf.TensorSpec([2, None, None, 3]),
                                                              "segmentation_masks": tf.TensorSpec([2, None, None, 1])}])
    got = graph({"images": x, "segmentation_masks": masks})
    want = fresh({"images": x, "segmentation_masks": masks})
    np.testing.assert_array_equal(got["segmentation_masks"].numpy(), want["segmentation_masks"].numpy())
    assert set(np.unique(got["segmentation_masks"].numpy())) <= {0.0, 1.0, 2.0}


def test_elastic_transform_in_a_tf_data_map_of_images_of_any_size():
    pictures = [_picture((10, 12, 3)), _picture((14, 9, 3))]
    layer, fresh = L.RandomElasticTransform(seed=2), L.RandomElasticTransform(seed=2)
    dataset = tf.data.Dataset.from_generator(lambda: iter(pictures),
                                             output_signature=tf.TensorSpec([None, None, 3])).map(layer)
    for got, picture in zip(dataset, pictures):
        np.testing.assert_array_equal(got.numpy(), fresh(picture).numpy())
