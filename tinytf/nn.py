"""`tf.nn`: activations, softmax, losses, dropout, moments, convolution and pooling, under TF's names."""

from tinytf.clip_ops import l2_normalize  # noqa: E402
from tinytf.distribute.losses import compute_average_loss, scale_regularization_loss  # noqa: E402,F401
from tinytf.embedding_ops import embedding_lookup  # noqa: F401
from tinytf.runtime.ops.candidate_sampling import all_candidate_sampler, compute_accidental_hits  # noqa: F401
from tinytf.runtime.ops.conv import *  # noqa: F401,F403
from tinytf.runtime.ops.conv import __all__ as _conv_all
from tinytf.runtime.ops.conv_variants import conv1d, conv2d_transpose, depthwise_conv2d  # noqa: F401
from tinytf.runtime.ops.nn import *  # noqa: F401,F403
from tinytf.runtime.ops.nn import __all__ as _nn_all
from tinytf.runtime.ops.search import in_top_k  # noqa: F401

from . import nn_experimental as experimental  # noqa: E402,F401  (tf.nn.experimental)

__all__ = list(_nn_all) + list(_conv_all) + ["conv1d", "conv2d_transpose", "depthwise_conv2d",
                                               "l2_normalize", "in_top_k", "embedding_lookup",
                                               "compute_average_loss", "scale_regularization_loss"]

# --- added by the core-API slice: 3-D convolution and pooling ---------------------------------------------------
from tinytf.runtime.ops.conv3d import conv3d, conv3d_transpose  # noqa: E402
from tinytf.runtime.ops.pool3d import avg_pool3d, max_pool3d  # noqa: E402

__all__ += ["conv3d", "conv3d_transpose", "max_pool3d", "avg_pool3d"]

# --- added by the core-API slice: composites of other ops (tinytf/nn_core_api.py) ------------------------------
from tinytf.nn_core_api import (  # noqa: E402
    atrous_conv2d,
    atrous_conv2d_transpose,
    avg_pool1d,
    batch_normalization,
    conv1d_transpose,
    conv_transpose,
    convolution,
    crelu,
    depth_to_space,
    depthwise_conv2d_backprop_filter,
    depthwise_conv2d_backprop_input,
    local_response_normalization,
    log_poisson_loss,
    lrn,
    max_pool1d,
    normalize_moments,
    pool,
    separable_conv2d,
    space_to_depth,
    sufficient_statistics,
    weighted_cross_entropy_with_logits,
    weighted_moments,
    zero_fraction,
)
from tinytf.runtime.ops.sorting import top_k  # noqa: E402

__all__ += ["atrous_conv2d", "atrous_conv2d_transpose", "avg_pool1d", "batch_normalization", "conv1d_transpose",
            "conv_transpose", "convolution", "crelu", "depth_to_space", "depthwise_conv2d_backprop_filter",
            "depthwise_conv2d_backprop_input", "local_response_normalization", "log_poisson_loss", "lrn",
            "max_pool1d", "normalize_moments", "pool", "separable_conv2d", "space_to_depth", "sufficient_statistics",
            "weighted_cross_entropy_with_logits", "weighted_moments", "zero_fraction", "top_k"]

# --- CTC (tinytf/ctc.py, ops in runtime/ops/ctc.py) -------------------------------------------------------------
from tinytf.ctc import (  # noqa: E402
    collapse_repeated,
    ctc_beam_search_decoder,
    ctc_greedy_decoder,
    ctc_loss,
    ctc_unique_labels,
)

__all__ += ["collapse_repeated", "ctc_beam_search_decoder", "ctc_greedy_decoder", "ctc_loss", "ctc_unique_labels"]

# --- the nn / sparse / ragged leftovers slice ---------------------------------------------------------------------
from tinytf.nn_sampled_losses import nce_loss, sampled_softmax_loss  # noqa: E402
from tinytf.runtime.ops.unigram_sampling import (  # noqa: E402
    fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler,
)

__all__ += ["nce_loss", "sampled_softmax_loss", "fixed_unigram_candidate_sampler",
            "learned_unigram_candidate_sampler"]

from tinytf.embedding_sparse import embedding_lookup_sparse, safe_embedding_lookup_sparse  # noqa: E402

__all__ += ["embedding_lookup_sparse", "safe_embedding_lookup_sparse"]

from tinytf.nn_leftovers import (  # noqa: E402
    approx_max_k,
    approx_min_k,
    batch_norm_with_global_normalization,
    space_to_batch,
    with_space_to_batch,
)

__all__ += ["approx_max_k", "approx_min_k", "batch_norm_with_global_normalization", "space_to_batch",
            "with_space_to_batch"]

from tinytf.nn_leftovers import erosion2d  # noqa: E402
from tinytf.runtime.ops.window_argmax import dilation2d, max_pool_with_argmax  # noqa: E402

__all__ += ["erosion2d", "dilation2d", "max_pool_with_argmax"]

from tinytf.runtime.ops.isotonic import isotonic_regression  # noqa: E402

__all__ += ["isotonic_regression"]

from tinytf.runtime.ops.fractional_pool import fractional_avg_pool, fractional_max_pool  # noqa: E402

__all__ += ["fractional_avg_pool", "fractional_max_pool"]
