"""tf.config.set_logical_device_configuration splits the CPU into logical devices, as TF programs do to get
several MirroredStrategy replicas on one CPU. Observed with TF 2.21: after splitting the CPU in two,
list_logical_devices("CPU") names /device:CPU:0 and /device:CPU:1, MirroredStrategy() takes both (2 replicas,
worker_devices fully named), and changing the split once the devices are in use raises RuntimeError. The
split is process state that cannot be undone once read, so each case runs in a fresh interpreter."""

import os
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(source: str) -> str:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(source)], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_splitting_the_cpu_gives_mirrored_strategy_its_replicas():
    out = _run("""
        import numpy as np
        import tinytf as tf
        cpu = tf.config.list_physical_devices("CPU")[0]
        print(tf.config.get_logical_device_configuration(cpu))
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        print(tf.config.get_logical_device_configuration(cpu))
        print(tf.config.list_logical_devices("CPU"))
        strategy = tf.distribute.MirroredStrategy()
        print(strategy.num_replicas_in_sync, strategy.extended.worker_devices)
        try:
            tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
        except RuntimeError as error:
            print("RuntimeError", error)
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse")
        x = np.arange(8, dtype=np.float32).reshape(4, 2)
        model.fit(x, x[:, :1], batch_size=4, verbose=0)
        print(len(model.metrics[0].count._copies))
    """).splitlines()
    config = ("LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, "
              "experimental_device_ordinal=None)")
    assert out == [
        "None",
        f"[{config}, {config}]",
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU'), "
        "LogicalDevice(name='/device:CPU:1', device_type='CPU')]",
        "2 ('/job:localhost/replica:0/task:0/device:CPU:0', '/job:localhost/replica:0/task:0/device:CPU:1')",
        "RuntimeError Virtual devices cannot be modified after being initialized",
        "2",
    ]


def test_without_a_split_there_is_one_cpu_and_the_old_names_work():
    out = _run("""
        import tinytf as tf
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.experimental.set_virtual_device_configuration(
            cpu, [tf.config.experimental.VirtualDeviceConfiguration()] * 4)
        print(len(tf.config.experimental.get_virtual_device_configuration(cpu)))
        tf.config.set_logical_device_configuration(cpu, None)   # undone before first use
        print(tf.distribute.MirroredStrategy().num_replicas_in_sync, len(tf.config.list_logical_devices()))
    """).split()
    assert out == ["4", "1", "1"]


@pytest.mark.parametrize("bad", ["[1]", "[tf.config.LogicalDeviceConfiguration()]"])
def test_bad_arguments_raise_as_tf(bad):
    out = _run(f"""
        import tinytf as tf
        target = tf.config.PhysicalDevice("/physical_device:CPU:7", "CPU") if "1" not in {bad!r} else \\
            tf.config.list_physical_devices("CPU")[0]
        try:
            tf.config.set_logical_device_configuration(target, {bad})
        except ValueError as error:
            print("ValueError", error)
    """)
    assert out.startswith("ValueError Unrecogni")
