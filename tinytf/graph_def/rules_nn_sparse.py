"""GraphDef export of the nn / sparse / ragged leftovers' ops: none written yet. Each is listed with the TF op it
would become and why it is not written: a rule is only added with its check by tools/check_tf_runs_exported_ops.py
(TF 2.21 running the exported one-node graphs of tests/forward_samples.py), which this slice did not run."""

from __future__ import annotations

_NOT_YET = "not written yet: its rule needs the TF-run check of tools/check_tf_runs_exported_ops.py"

UNEXPORTED_NN_SPARSE = {
    "fixed_unigram_candidate_sampler": f"TF's FixedUnigramCandidateSampler (seed, seed2, vocab_file): {_NOT_YET}",
    "learned_unigram_candidate_sampler": f"TF's LearnedUnigramCandidateSampler (its counts live in the kernel): "
                                         f"{_NOT_YET}",
    "sparse_fill_empty_rows": f"TF's SparseFillEmptyRows: {_NOT_YET}",
    "max_pool_with_argmax": f"TF's MaxPoolWithArgmax (Targmax, include_batch_in_index): {_NOT_YET}",
    "dilation2d": f"TF's Dilation2D (strides, rates as 4-lists): {_NOT_YET}",
    "dilation2d_backprop": "both of TF's Dilation2DBackpropInput and Dilation2DBackpropFilter in one tinytf op "
                           f"(two nodes in TF): {_NOT_YET}",
    "isotonic_regression": f"TF's IsotonicRegression (output_dtype): {_NOT_YET}",
    "fractional_pool": "TF's FractionalMaxPool or FractionalAvgPool by the `reduce` attribute (deterministic, seed, "
                       f"seed2): {_NOT_YET}",
    "fractional_pool_grad": "TF's FractionalMaxPoolGrad (which takes the pooled output too) or "
                            f"FractionalAvgPoolGrad (which takes the input's shape): {_NOT_YET}",
    "sparse_sparse_minmax": f"TF's SparseSparseMaximum or SparseSparseMinimum by `take_max`: {_NOT_YET}",
    "sparse_bincount": "TF's DenseBincount / SparseBincount / RaggedBincount with sparse output "
                       f"(DenseCountSparseOutput and its twins), by input kind: {_NOT_YET}",
    "sparse_cross": "TF's SparseCrossV2 / SparseCrossHashed (sparse and dense inputs in separate lists) or "
                    f"RaggedCross (input_order): {_NOT_YET}",
    **{name: f"TF's {name.title().replace('_', '')}: {_NOT_YET}"
       for name in ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e")},
}
