"""tf.AggregationMethod: how tf.gradients sums a tensor's several gradient terms. tinytf always adds them
with add_n (TF's ADD_N); the experimental methods change only memory use in TF, never the sums' values,
so every method is accepted and gives the same gradients."""


class AggregationMethod:
    """A class listing aggregation methods used to combine gradients (TF's constants)."""

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2
