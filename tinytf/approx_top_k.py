"""tf.approx_top_k: TF's CPU kernel, which is exact (tf.math.approx_max_k's computation)."""

from __future__ import annotations


def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,  # noqa: A002
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """`tf.approx_top_k`: the k largest values along `reduction_dimension` and their int32 indices, exactly, as
    TF's CPU kernel computes them. TF has no CPU kernel for `is_max_k=False` and raises NotFoundError."""
    from tinytf.runtime.errors import NotFoundError

    from .nn_leftovers import _approx_top_k

    if not is_max_k:
        raise NotFoundError("Could not find device for node: {{node ApproxTopK}} = ApproxTopK[is_max_k=false]: "
                            "TF has no CPU kernel for approx_top_k with is_max_k=False (tf.math.approx_min_k "
                            "computes it)")
    return _approx_top_k(input, int(k), int(reduction_dimension), True, "approx_top_k")
