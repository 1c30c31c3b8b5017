"""keras.visualization (TF 2.21's tf.keras.visualization), the part that needs no plotting library:
draw_segmentation_masks. Keras' draw_bounding_boxes draws with OpenCV (cv2) and its plot_*_gallery functions
with matplotlib; neither is installed here, so those names are not provided (see docs/keras.md)."""

from __future__ import annotations

import numpy as np

import tinytf as _tf

from .. import config


def _generate_color_palette(num_classes):
    palette = np.array([2 ** 25 - 1, 2 ** 15 - 1, 2 ** 21 - 1])
    return [((i * palette) % 255).tolist() for i in range(num_classes)]


def draw_segmentation_masks(images, segmentation_masks, num_classes=None, color_mapping=None, alpha=0.8, blend=True,
                            ignore_index=-1, data_format=None):
    """Paint each class of `segmentation_masks` (integers, (batch, h, w, 1)) over `images` (batch, h, w, 3) in its
    colour (Keras' palette or `color_mapping`), blended by `alpha` into a uint8 array (blend=False: the painted
    float32 tensor). As Keras', num_classes defaults to the largest class id, whose pixels one_hot then leaves
    unpainted, and pixels equal to ignore_index keep the image."""
    data_format = data_format or config.image_data_format()
    images_shape = tuple(np.shape(images))
    if len(images_shape) != 4:
        raise ValueError(f"`images` must be batched 4D tensor. Received: images.shape={images_shape}")
    images = np.asarray(images)
    masks = np.asarray(segmentation_masks)
    if data_format == "channels_first":
        images = np.transpose(images, (0, 2, 3, 1))
        masks = np.transpose(masks, (0, 2, 3, 1))
    images = images.astype("float32")
    if masks.dtype.kind not in "iu":
        raise TypeError(f"`segmentation_masks` must be in integer dtype. Received: segmentation_masks.dtype="
                        f"{masks.dtype.name}")
    if num_classes is None:
        num_classes = int(np.max(masks))
    colors = _generate_color_palette(num_classes) if color_mapping is None else \
        [color_mapping[i] for i in range(num_classes)]
    valid = np.squeeze(masks != ignore_index, axis=-1)
    classes = masks[..., 0]
    painted = images.copy()
    for index, color in enumerate(colors):  # one_hot: a class id outside [0, num_classes) paints nothing
        painted[classes == index, ...] = np.array(color, dtype=painted.dtype)[None, :]
    outputs = painted.astype("float32")
    if blend:
        outputs = images * (1 - alpha) + outputs * alpha
        outputs = np.where(valid[..., None], outputs, images)
        return _tf.cast(outputs, _tf.uint8).numpy()
    return _tf.constant(outputs)


__all__ = ["draw_segmentation_masks"]
