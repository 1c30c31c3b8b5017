"""Loop BLAS region: a while loop whose GEMMs all run on one BLAS thread runs inside one `blas_threads.single()`
region, and its GEMMs call numpy directly instead of entering a region each.

tinytf's matmul kernel sets BLAS's thread count by the GEMM's shape (runtime/blas_threads.py): a GEMM of more
than THREADED_MAX and less than WIDE_MIN multiply-adds (an LSTM step's 32x128 @ 128x512) runs inside its own
`single()` region, which takes a lock twice, asks OpenBLAS its count and builds a context manager: measured
here, 49-52 microseconds a call for such a GEMM against 43 for the bare np.matmul on one thread, and the LSTM
step makes 100 of them. In one region per loop, opened before the loop and closed after it (also when the
loop raises: a `with` block), each of them is `a @ b` at BLAS's one thread: the same thread count as before,
so the same bits.

Which loops: those of any graph (not inside another region's loop) all of whose nodes, in the body, the
condition and every nested graph, are known not to call BLAS at another count: elementwise ops (fused blocks
too), the array views and copies of a recurrent step (slices, splits, concats, transposes, reshapes), the
TensorArray and gradient-stack ops, the loop machinery's own kernels (their GEMMs run on one thread anyway),
and matmuls of float operands with known shapes below WIDE_MIN multiply-adds (a larger one would run on one
thread inside the region instead of BLAS's count: other bits). Any other op (a py_function, an einsum, a
linear solve, a call) leaves the loop alone. At least one matmul must be above THREADED_MAX (smaller ones run
on one thread inside OpenBLAS and never entered a region: rnn_unroll's 16x64 @ 64x64 loops are left as they
are).

While the region is open, another thread's GEMM of WIDE_MIN or more waits for it (as it waits for any
`single()` region), now for the whole loop rather than one GEMM: loops of small GEMMs only are taken.

The code generator reads the marks: a loop's body graph with `blas_region` set is emitted inside
`with blas_single():`, and the matmuls listed in their graph's `region_gemms` are rendered as `a @ b`
(ops/linalg.py's render)."""

from __future__ import annotations

import numpy as np

from .. import blas_threads
from ..graph import Graph, subgraphs
from ..ops import array, gradient_list, gradient_slab, gradient_stack, loop_accumulate, loop_projection, tensor_array
from ..ops.control import cond_op, while_op
from ..ops.core import const_op, identity_op
from ..ops.linalg import matmul_op
from ..ops.strided_slice import strided_slice_op

# ops that call no BLAS (or only on one thread, inside a region of their own): safe inside the loop's region
_NO_BLAS = {
    const_op, identity_op, cond_op, while_op, strided_slice_op,
    array.concat_op, array.split_op, array.transpose_op, array.reshape_op, array.squeeze_op, array.expand_dims_op,
    tensor_array.write_op, tensor_array.read_op, tensor_array.size_op,
    gradient_stack.stack_new_op, gradient_stack.stack_push_op, gradient_stack.stack_read_op,
    gradient_stack.stack_take_op, gradient_slab.slab_stack_op, gradient_slab.slab_push_op,
    gradient_list.read_op, gradient_list.clear_op, gradient_list.set_op, gradient_list.add_op,
    loop_accumulate.loop_accumulator_op, loop_accumulate.accumulate_matmul_op, loop_accumulate.accumulate_sum_op,
    loop_projection.loop_projection_op, loop_projection.project_step_op,
}


def open_blas_regions(graph: Graph) -> Graph:
    for node in graph.nodes:
        if node.op is while_op:
            gemms = _region_gemms(node)
            if gemms is not None and any(size > blas_threads.THREADED_MAX for _, size in gemms):
                node.attrs["body_graph"].blas_region = True
                for matmul, _ in gemms:
                    graph_of = matmul.graph
                    graph_of.region_gemms = getattr(graph_of, "region_gemms", frozenset()) | {id(matmul)}
                continue  # the loops nested in it run inside its region
        for sub in subgraphs(node):
            open_blas_regions(sub)
    return graph


def _region_gemms(loop):
    """[(matmul node, multiply-adds per matrix)] of a loop whose every node may run in a one-thread region,
    else None."""
    gemms = []
    stack = list(subgraphs(loop))
    while stack:
        graph = stack.pop()
        for node in graph.nodes:
            if node.op is matmul_op:
                size = _gemm_size(node)
                if size is None or size >= blas_threads.WIDE_MIN or node.graph is not graph:
                    return None
                gemms.append((node, size))
            elif not (node.op.elementwise or node.op in _NO_BLAS) or node.op.calls_python:
                return None
            stack.extend(subgraphs(node))
    return gemms


def _gemm_size(node):
    """M*K*N of one of the matmul's matrix products, when its operands are float32/float64 of known shapes."""
    a, b = node.inputs
    if a.dtype.np not in (np.float32, np.float64) or b.dtype.np != a.dtype.np:
        return None
    sa, sb = a._shape, b._shape
    if sa is None or sb is None or len(sa) < 2 or len(sb) < 2 or None in sa[-2:] or None in sb[-2:]:
        return None
    m, k = sa[-2:][::-1] if node.attrs["transpose_a"] else sa[-2:]
    n = sb[-2] if node.attrs["transpose_b"] else sb[-1]
    return m * k * n
