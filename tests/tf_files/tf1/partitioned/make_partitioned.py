"""Writes `ckpt.*`: a TF1 Saver checkpoint of partitioned variables, made by TF 2.21 (tests/test_tf1_more_partitioned.py
reads it with tinytf, and checks that tinytf writes the same bytes for the same graph, so TF reads tinytf's too).

    cd /tmp && TF_CPP_MIN_LOG_LEVEL=3 /path/to/tf-venv/bin/python .../make_partitioned.py OUT_DIR
"""

import sys

import numpy as np


def build(tf):
    """The graph (with TF or tinytf): `s/w` [7, 2] in 3 shards along axis 0, `s/v` [2, 5] in 2 along axis 1,
    `s/b` [3] whole. Values are their element indices (plus 100 for v), so any slice is recognisable."""
    v1 = tf.compat.v1

    def ranged(full, plus):
        def init(shape, dtype=None, partition_info=None):
            whole = np.arange(np.prod(full), dtype=np.float32).reshape(full) + plus
            index = tuple(slice(o, o + n) for o, n in zip(partition_info.var_offset, shape))
            return tf.constant(whole[index])
        return init

    with v1.variable_scope("s"):
        w = v1.get_variable("w", [7, 2], initializer=ranged([7, 2], 0.0), partitioner=v1.fixed_size_partitioner(3))
        v = v1.get_variable("v", [2, 5], initializer=ranged([2, 5], 100.0),
                            partitioner=v1.fixed_size_partitioner(2, axis=1))
        b = v1.get_variable("b", initializer=tf.constant([1.0, 2.0, 3.0]))
    return w, v, b


def main(out):
    import tensorflow as tf

    v1 = tf.compat.v1
    v1.disable_eager_execution()
    build(tf)
    with v1.Session() as sess:
        sess.run(v1.global_variables_initializer())
        v1.train.Saver().save(sess, f"{out}/ckpt", write_state=False, write_meta_graph=False)


if __name__ == "__main__":
    main(sys.argv[1])
