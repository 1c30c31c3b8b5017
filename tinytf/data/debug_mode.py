"""tf.data.experimental.enable_debug_mode's switch: once on, the parallel stages (map, interleave with
num_parallel_calls) run sequentially and in order, as TF's debug mode makes them."""

enabled = False
