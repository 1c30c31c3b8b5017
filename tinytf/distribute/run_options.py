"""tf.distribute.RunOptions: options of strategy.run. Both fields tune how TPUStrategy compiles a step
(dynamic batch sizes, bucketed shapes for XLA); tinytf's strategies never compile a step for a fixed shape,
so they take the options and need none of them."""

from __future__ import annotations

import collections


class RunOptions(collections.namedtuple("RunOptions", ["experimental_enable_dynamic_batch_size",
                                                       "experimental_bucketizing_dynamic_shape",
                                                       "experimental_xla_options"])):
    """RunOptions(experimental_enable_dynamic_batch_size=True, experimental_bucketizing_dynamic_shape=False,
    experimental_xla_options=None), a named tuple as in TF."""

    __slots__ = ()

    def __new__(cls, experimental_enable_dynamic_batch_size=True, experimental_bucketizing_dynamic_shape=False,
                experimental_xla_options=None):
        return super().__new__(cls, experimental_enable_dynamic_batch_size, experimental_bucketizing_dynamic_shape,
                               experimental_xla_options)
