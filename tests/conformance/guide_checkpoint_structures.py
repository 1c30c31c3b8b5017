"""TF's "Training checkpoints" guide, its list and dict cells: a plain list or dict assigned to a tf.Module or
tf.train.Checkpoint attribute becomes a ListWrapper / DictWrapper, and a variable appended to one after a restore
gets the value the restore left waiting for it."""

import os
import tempfile

from . import program


@program
def p_lists_and_dicts_on_checkpoints_restore_later_appends(tf):
    with tempfile.TemporaryDirectory() as d:
        save = tf.train.Checkpoint()
        save.listed = [tf.Variable(1.0)]
        save.listed.append(tf.Variable(2.0))
        save.mapped = {"one": save.listed[0]}
        save.mapped["two"] = save.listed[1]
        save_path = save.save(os.path.join(d, "tf_list_example"))

        restore = tf.train.Checkpoint()
        v2 = tf.Variable(0.0)
        out = [float(v2.numpy())]
        restore.mapped = {"two": v2}
        restore.restore(save_path)
        out.append(float(v2.numpy()))
        restore.listed = []
        out.append(repr(restore.listed))
        v1 = tf.Variable(0.0)
        restore.listed.append(v1)
        out.append(float(v1.numpy()))
        out.append(repr(save.mapped).startswith("DictWrapper("))
    return out


@program
def p_module_attributes_wrap_lists_and_dicts(tf):
    m = tf.Module()
    m.l = [1, 2]
    m.d = {"a": 1}
    m.t = (1, 2)
    return [repr(m.l), repr(m.d), repr(m.t), m.l == [1, 2], isinstance(m.l, list), isinstance(m.d, dict),
            type(m.l + [3]).__name__, m.d == {"a": 1}]


@program
def p_a_positional_root_is_the_checkpoints_root(tf):
    class Holder(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.0)
            self.w = [tf.Variable(2.0)]

    with tempfile.TemporaryDirectory() as d:
        held = Holder()
        path = tf.train.Checkpoint(held).save(os.path.join(d, "c"))
        keys = sorted(k for k, _ in tf.train.list_variables(path))
        path2 = tf.train.Checkpoint(held, extra=tf.Variable(3.0)).save(os.path.join(d, "d"))
        keys2 = sorted(k for k, _ in tf.train.list_variables(path2))
        other = Holder()
        other.v.assign(0.0)
        tf.train.Checkpoint(other).restore(path)
    return [keys, keys2, float(other.v.numpy())]
