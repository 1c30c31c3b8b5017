"""`tf.image`: the image functions TF2 input pipelines use most, written with TF's formulas from registered
ops, so they run eagerly, inside tf.function and dataset.map, and have gradients where TF has them."""

from .codecs import (  # noqa: F401
    adjust_jpeg_quality,
    decode_and_crop_jpeg,
    decode_bmp,
    decode_gif,
    decode_image,
    decode_jpeg,
    decode_png,
    encode_jpeg,
    encode_png,
    extract_jpeg_shape,
    is_jpeg,
    random_jpeg_quality,
    stateless_random_jpeg_quality,
)
from .color import (  # noqa: F401
    adjust_brightness,
    adjust_contrast,
    convert_image_dtype,
    grayscale_to_rgb,
    per_image_standardization,
    rgb_to_grayscale,
)
from .color_spaces import (  # noqa: F401
    adjust_gamma,
    adjust_hue,
    adjust_saturation,
    hsv_to_rgb,
    random_hue,
    random_saturation,
    rgb_to_hsv,
    rgb_to_yiq,
    rgb_to_yuv,
    stateless_random_hue,
    stateless_random_saturation,
    yiq_to_rgb,
    yuv_to_rgb,
)
from .geometry import (  # noqa: F401
    central_crop,
    crop_to_bounding_box,
    flip_left_right,
    flip_up_down,
    pad_to_bounding_box,
    resize_with_crop_or_pad,
    rot90,
    transpose,
)
from .measures import image_gradients, psnr, resize_with_pad, sobel_edges, total_variation  # noqa: F401
from .random_adjust import (  # noqa: F401
    random_brightness,
    random_contrast,
    random_crop,
    stateless_random_brightness,
    stateless_random_contrast,
    stateless_random_crop,
)
from .random_flips import (  # noqa: F401
    random_flip_left_right,
    random_flip_up_down,
    stateless_random_flip_left_right,
    stateless_random_flip_up_down,
)
from .resize import ResizeMethod, resize  # noqa: F401

# isort: split
# TF's resize kernels, window, box and similarity ops (helper imageops)
from .crops_and_patches import crop_and_resize, draw_bounding_boxes, extract_glimpse, extract_patches  # noqa: F401
from .distorted_box import sample_distorted_bounding_box, stateless_sample_distorted_bounding_box  # noqa: F401
from .non_max_suppression import (  # noqa: F401
    combined_non_max_suppression,
    non_max_suppression,
    non_max_suppression_overlaps,
    non_max_suppression_padded,
    non_max_suppression_with_scores,
)
from .similarity import ssim, ssim_multiscale  # noqa: F401
