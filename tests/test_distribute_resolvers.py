"""The cluster resolvers beyond TF_CONFIG (TF's recorded behaviour is in conformance/distribute_resolvers.py):
SLURM's list syntax, a resolver driving MultiWorkerMirroredStrategy, and TPUStrategy without a TPU."""

import pytest

import tinytf as tf
from tinytf.distribute.slurm_resolver import expand_hostlist, expand_tasks_per_node


def test_slurm_lists_expand_as_tf_documents():
    assert expand_hostlist("n[1-2],m5,o[3-4,6,7-9]") == ["n1", "n2", "m5", "o3", "o4", "o6", "o7", "o8", "o9"]
    assert expand_hostlist("t[08-10]") == ["t08", "t09", "t10"]  # zero padding kept
    assert expand_tasks_per_node("3(x2),2,1") == [3, 3, 2, 1]
    with pytest.raises(ValueError, match="Invalid hostlist"):
        expand_hostlist("a,,b")


def test_a_slurm_step_of_one_task_runs_multi_worker_mirrored(monkeypatch):
    for name, value in {"SLURM_PROCID": "0", "SLURM_STEP_NUM_TASKS": "1", "SLURM_STEP_NODELIST": "localhost",
                        "SLURM_STEP_TASKS_PER_NODE": "1"}.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(gpus_per_node=0, gpus_per_task=0)
    with pytest.raises(ValueError, match="arg 3 must not be zero"):  # TF's range(0, 0, 0) on a GPU-less node
        resolver.cluster_spec()
    resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(gpus_per_node=1, gpus_per_task=1,
                                                                    auto_set_gpu=False)
    strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=resolver)
    assert strategy.num_replicas_in_sync == 1 and resolver.get_task_info() == ("worker", 0)
    assert strategy.extended.should_checkpoint


def test_tpu_strategy_with_a_resolver_finds_no_tpu():
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver("local")
    with pytest.raises(tf.errors.NotFoundError, match="TPUs not found"):
        tf.distribute.TPUStrategy(resolver)
    with pytest.raises(Exception, match="metadata"):  # a TPU name is looked up on GCE: offline, URLError
        tf.distribute.cluster_resolver.TPUClusterResolver("my-tpu")
