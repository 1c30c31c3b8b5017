"""tf.experimental's execution switches (async_scope, async_clear_error, function_executor_type,
enable_strict_mode), tf.nondifferentiable_batch_function, and the top-level ops whose TF kernels exist only in
GPU builds (check_pinned, conv2d_backprop_filter_v2, conv2d_backprop_input_v2,
tf.image.generate_bounding_box_proposals): TF's CPU build raises for
those, and so does tinytf, with TF's classes."""

from __future__ import annotations

import contextlib

from tinytf.runtime.errors import FailedPreconditionError, NotFoundError

_state = {"async": False, "executor_type": None, "strict_mode": False}


@contextlib.contextmanager
def async_scope():
    """Ops inside run on TF's asynchronous executor (errors may surface later). tinytf's kernels return when
    done, so errors surface at the op; the scope is still noted, and async_clear_error has nothing to clear."""
    previous = _state["async"]
    _state["async"] = True
    try:
        yield
    finally:
        _state["async"] = previous


def async_clear_error() -> None:
    """Clear the pending error of TF's async executor: none is ever pending in tinytf."""


@contextlib.contextmanager
def function_executor_type(executor_type):
    """TF's executor for the functions called inside (e.g. 'SINGLE_THREADED_EXECUTOR'): tinytf's generated code
    is its only executor; the name is kept for the duration of the block."""
    previous = _state["executor_type"]
    _state["executor_type"] = executor_type
    try:
        yield
    finally:
        _state["executor_type"] = previous


def enable_strict_mode() -> None:
    """TF: raise on deprecated behaviour instead of warning. Noted; tinytf implements TF 2's behaviour only."""
    _state["strict_mode"] = True


def check_pinned(tensor, name=None):
    """TF's CheckPinned: only a CUDA build can tell whether host memory is pinned."""
    raise FailedPreconditionError("to check pinnedness, must be built with `--config=cuda` [Op:CheckPinned]")


def _no_kernels(op_type: str):
    raise NotFoundError(f"Could not find device for node: {{{{node {op_type}}}}} = {op_type}[...]\n"
                        f"All kernels registered for op {op_type}:\n  <no registered kernels>\n [Op:{op_type}]")


def conv2d_backprop_filter_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                              explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """TF 2.21 registers no kernel for Conv2DBackpropFilterV2 (use tf.nn.conv2d's gradient, or
    tf.compat.v1.nn.conv2d_backprop_filter)."""
    _no_kernels("Conv2DBackpropFilterV2")


def conv2d_backprop_input_v2(input, filter, out_backprop, strides, padding, use_cudnn_on_gpu=True,  # noqa: A002
                             explicit_paddings=(), data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """TF 2.21 registers no kernel for Conv2DBackpropInputV2 (use tf.nn.conv2d_transpose)."""
    _no_kernels("Conv2DBackpropInputV2")


def generate_bounding_box_proposals(scores, bbox_deltas, image_info, anchors, nms_threshold=0.7, pre_nms_topn=6000,
                                    min_size=16, post_nms_topn=300, name=None):
    """TF 2.21 registers GenerateBoundingBoxProposals for GPUs only: its CPU build raises NotFoundError, as here
    (decode with tf.image.non_max_suppression and box arithmetic instead)."""
    _no_kernels("GenerateBoundingBoxProposals")


def nondifferentiable_batch_function(num_batch_threads, max_batch_size, batch_timeout_micros,
                                     allowed_batch_sizes=None, max_enqueued_batches=10, autograph=True,
                                     enable_large_batch_splitting=True):
    """Decorator: TF's BatchFunction op queues concurrent calls (serving) and runs the function on their
    concatenation along axis 0, then splits the results. Batching is invisible in the results, so tinytf runs
    each call through the function's tf.function directly, with TF's checks (tensor arguments only)."""
    from tinytf.function import function
    from tinytf.runtime.tensor import Tensor

    def decorator(fn):
        computation = function(fn, autograph=autograph)

        def decorated(*args):
            for a in args:
                if not isinstance(a, Tensor):
                    raise ValueError("All arguments to functions decorated with `batch_function`  are supposed "
                                     f"to be Tensors; found {a!r}.")
            return computation(*args)

        decorated.__name__ = getattr(fn, "__name__", "batch_function")
        decorated.__doc__ = fn.__doc__
        return decorated

    return decorator
