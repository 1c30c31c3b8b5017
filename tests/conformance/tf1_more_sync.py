"""TF1's synchronous replicas on one machine (helper v1more): SyncReplicasOptimizer with one replica, run with
its session hook as a chief (its queue runner applies the aggregated gradients and hands out tokens), TF's
errors, and replica_device_setter's placements."""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np

from . import outcome, program


@program
def p_tf1_sync_replicas_one_replica(tf):
    v1 = tf.compat.v1
    graph = v1.Graph()
    with graph.as_default():
        step = v1.train.get_or_create_global_step()
        x = tf.constant(np.linspace(-1, 1, 8, dtype=np.float32).reshape(4, 2))
        w = v1.get_variable("w", [2, 1], initializer=v1.constant_initializer(0.5))
        b = v1.get_variable("b", [1], initializer=v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - 1.0))
        opt = v1.train.SyncReplicasOptimizer(v1.train.GradientDescentOptimizer(0.1), replicas_to_aggregate=1,
                                             total_num_replicas=1)
        out = {"early_tokens": outcome(opt.get_init_tokens_op, "should be called after apply_gradients"),
               "no_step": outcome(lambda: opt.apply_gradients(opt.compute_gradients(loss)),
                                  "Global step is required")}
        train = opt.minimize(loss, global_step=step)
        hook = opt.make_session_run_hook(True)
        out["names"] = [type(hook).__name__, [v.name for v in v1.local_variables()],
                        sorted(v.name for v in v1.global_variables())]
        hook.begin()
        coord = v1.train.Coordinator()
        sess = v1.Session()
        sess.run([v1.global_variables_initializer(), v1.local_variables_initializer()])
        hook.after_create_session(sess, coord)
        first = float(sess.run([train, loss])[1])
        deadline = time.time() + 20  # the chief's thread applies the first update: wait for it, not for the race
        while int(sess.run(step)) < 1 and time.time() < deadline:
            time.sleep(0.01)
        losses = [float(sess.run([train, loss])[1]) for _ in range(4)]  # each waits for its own update's token
        final = sess.run([w, b, step])
        coord.request_stop()
        sess.close()  # ends the chief's thread, waiting for gradients that no replica will send
        out.update({"first": first, "losses": losses, "w": final[0].ravel().tolist(), "b": final[1].tolist(),
                    "step": int(final[2])})
        out["hook_early"] = outcome(
            lambda: v1.train.SyncReplicasOptimizer(v1.train.GradientDescentOptimizer(0.1), 2)
            .make_session_run_hook(True).begin(), "apply_gradient should be called before")
        three = v1.train.SyncReplicasOptimizer(v1.train.GradientDescentOptimizer(0.1), replicas_to_aggregate=3,
                                               total_num_replicas=1)
        out["no_variable"] = outcome(lambda: three.apply_gradients([], global_step=step), "at least one variable")
    return out


@program
def p_tf1_replica_device_setter(tf):
    v1 = tf.compat.v1

    def node(op, device=""):
        return v1.NodeDef(name="n", op=op, device=device)

    setter = v1.train.replica_device_setter(ps_tasks=3)
    round_robin = [setter(node("VarHandleOp")) for _ in range(4)]
    others = [setter(node("MatMul")), setter(node("VarHandleOp", "/job:other")), setter(node("Add", "/cpu:0")),
              setter(node("VariableV2", "/task:1"))]
    worker = v1.train.replica_device_setter(ps_tasks=2, worker_device="/job:worker/task:1/device:CPU:0",
                                            ps_device="/job:ps/device:CPU:0")
    cluster = v1.train.replica_device_setter(cluster={"ps": ["ps0:2222", "ps1:2222"], "worker": ["w0:2222"]})
    custom = v1.train.replica_device_setter(ps_tasks=2, ps_ops=["MatMul"], ps_strategy=lambda op: 1)
    return {"none": v1.train.replica_device_setter() is None, "round_robin": round_robin, "others": others,
            "worker": [worker(node("VarHandleOp")), worker(node("Mul")), worker(node("VarHandleOp", "/device:GPU:0"))],
            "cluster": [cluster(node("VarHandleOp")), cluster(node("VarHandleOp")), cluster(node("Sub"))],
            "custom": [custom(node("MatMul")), custom(node("VarHandleOp"))],
            "bad_cluster": outcome(lambda: v1.train.replica_device_setter(cluster=3), "must be a dictionary")}


@program
def p_tf1_train_checkpoint(tf):
    v1 = tf.compat.v1
    folder = tempfile.mkdtemp()
    graph = tf.Graph()
    with graph.as_default():
        a = v1.get_variable("a", initializer=1.0)
        checkpoint = v1.train.Checkpoint(a=a)
        sess = v1.Session()
        sess.run(v1.global_variables_initializer())
        saved = checkpoint.save(os.path.join(folder, "ck"), session=sess)
        sess.run(a.assign(5.0))
        written = checkpoint.write(os.path.join(folder, "w"), session=sess)
        status = checkpoint.restore(saved)
        status.run_restore_ops(sess)
        first = float(sess.run(a))
        checkpoint.restore(written).initialize_or_restore(sess)
        out = {"paths": [os.path.basename(saved), os.path.basename(written)], "restored": [first, float(sess.run(a))],
               "status": type(status).__name__, "counter": int(sess.run(checkpoint.save_counter)),
               "positional": outcome(lambda: v1.train.Checkpoint(a), "positional argument"),
               "no_read": outcome(lambda: checkpoint.read, "has no attribute 'read'")}
        sess.close()
    eager = tf.Variable(0.0)
    again = v1.train.Checkpoint(a=eager)
    again.restore(saved).assert_consumed()
    out["eager"] = [float(eager.numpy()), os.path.basename(again.save(os.path.join(folder, "eager")))]
    return out
