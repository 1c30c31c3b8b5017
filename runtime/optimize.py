"""The graph optimizer: one flat, commented list of passes, each Graph -> Graph and switchable off
(tf.config.optimizer.set_experimental_options({"fusion": False}) or {"disable_all": True})."""

from __future__ import annotations

from .clone import clone_graph
from .passes.buffer_planning import mark_for_buffer_planning
from .passes.constant_fold import constant_fold
from .passes.conv_backprop_pair import pair_conv_backprops
from .passes.conv_epilogue import fuse_conv_epilogues
from .passes.conv_transpose_backprop import pair_transpose_backprops
from .passes.cse import cse
from .passes.debug_strip import strip_debug_ops
from .passes.fusion import fuse_elementwise
from .passes.fusion_tuning import mark_for_tuning
from .passes.licm import licm
from .passes.loop_accumulation import accumulate_in_batches
from .passes.loop_blas_region import open_blas_regions
from .passes.loop_reads import hoist_variable_reads
from .passes.loop_saved_slabs import plan_saved_slabs
from .passes.loop_saved_slices import recompute_saved_slices
from .passes.loop_swapped_products import swap_thin_products
from .passes.pool_filter_gradient import fuse_pool_filter_gradients
from .passes.prune import prune
from .passes.recurrent_projection import project_inputs
from .passes.relu_pool_gradient import fold_relu_into_max_pool_grad
from .passes.scalar_broadcasts import use_scalar_gradients
from .passes.simplify import simplify
from .passes.stack_release import release_stacks
from .passes.sum_of_squares import fuse_sums_of_squares

# The pipeline, in order. Each entry: (option name, pass function).
PIPELINE = [
    ("debug_stripper", strip_debug_ops),  # off unless asked (TF's default): check_numerics, Assert, print go
    ("simplification", simplify),  # x*1, -(-x), transpose(transpose(x)), cond on a constant, ...
    ("constant_folding", constant_fold),  # run kernels on constant inputs now (size-capped)
    ("common_subexpression", cse),  # one node per distinct (op, inputs, attrs)
    ("relu_pool_gradient", fold_relu_into_max_pool_grad),  # max_pool2d_grad * cast(x > 0): one kernel
    ("conv_epilogue", fuse_conv_epilogues),  # relu(conv2d + b) (-> tiled max pool): one chunked kernel
    ("conv_backprop_pair", pair_conv_backprops),  # a conv's input and filter gradients: one kernel (fft: g once)
    ("conv_transpose_backprop", pair_transpose_backprops),  # conv2d(a, w), filter grad of a: one window matrix
    ("pool_filter_gradient", fuse_pool_filter_gradients),  # a first conv's pool, filter and bias grads: per chunk
    ("scalar_gradients", use_scalar_gradients),  # a sum's scalar gradient, not its broadcast, into add/sub/mul
    ("sum_of_squares", fuse_sums_of_squares),  # reduce_sum(x * x): squared and summed in cache, numpy's order
    ("loop_variable_reads", hoist_variable_reads),  # a loop that assigns no variable reads each one once, before it
    ("recurrent_projection", project_inputs),  # xs[t] @ w in a loop: a block of steps per GEMM
    ("loop_swapped_products", swap_thin_products),  # a @ w^T in a loop, a the thinner: (w @ a^T)^T
    ("loop_accumulation", accumulate_in_batches),  # acc += a @ b in a loop: a few large GEMMs (before pruning)
    ("pruning", prune),  # drop nodes nothing uses; side effects stay, in program order
    ("loop_invariant_motion", licm),  # compute loop-invariant values once, before the loop
    ("stack_release", release_stacks),  # a backward loop frees what the forward loop saved as it reads it
    ("loop_saved_slices", recompute_saved_slices),  # xs[t] saved with t: the backward loop slices xs again
    ("fusion", fuse_elementwise),  # runs of elementwise ops become one block that reuses buffers
    ("elementwise_tuning", mark_for_tuning),  # fused blocks call the faster of equivalent ufuncs (same bits)
    ("loop_saved_slabs", plan_saved_slabs),  # what a forward loop saves: rows of buffers kept across calls
    ("loop_blas_region", open_blas_regions),  # a loop of small GEMMs: one one-thread BLAS region, not one each
    ("buffer_planning", mark_for_buffer_planning),  # intermediates in buffers kept across calls (codegen)
]
PASS_NAMES = [name for name, _ in PIPELINE]
OFF_BY_DEFAULT = frozenset({"debug_stripper"})


def optimize(graph, options=None, check=None):
    """Run the enabled passes on a copy of `graph`; `check` (the graph checker) runs after each pass."""
    options = options or {}
    if options.get("disable_all"):
        return graph
    graph = clone_graph(graph)  # passes edit in place; the traced graph stays as it was
    for name, run in PIPELINE:
        if options.get(name, name not in OFF_BY_DEFAULT):
            graph = run(graph)
            if check is not None:
                check(graph)
    return graph
