"""tf.approx_top_k: TF's CPU kernel, which is exact (tf.math.approx_max_k's computation)."""

from __future__ import annotations


def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,  # noqa: A002
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """`tf.approx_top_k`: the k largest values along `reduction_dimension` and their int32 indices, exactly, as
    TF's CPU kernel computes them. TF has CPU kernels only for `is_max_k=True` along the last dimension
    (reduction_dimension=-1): NotFoundError otherwise, as TF."""
    from tinytf.runtime.errors import NotFoundError

    from .nn_leftovers import _approx_top_k

    if not is_max_k or int(reduction_dimension) != -1:  # TF's CPU kernels: is_max_k and dimension -1 only
        raise NotFoundError(f"Could not find device for node: {{{{node ApproxTopK}}}} = ApproxTopK[is_max_k="
                            f"{str(bool(is_max_k)).lower()}, reduction_dimension={int(reduction_dimension)}]: TF "
                            "registers CPU kernels only for is_max_k=True and reduction_dimension=-1 "
                            "(tf.math.approx_max_k / approx_min_k take any dimension)")
    return _approx_top_k(input, int(k), int(reduction_dimension), True, "approx_top_k")
