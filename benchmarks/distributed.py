"""Data-parallel training throughput: one process, MirroredStrategy (replicas as threads) and RayStrategy
with 1 and 2 workers, on a 784-256-10 MLP (global batch 256) or issue 15's CNN (conv 5x5x32 -> pool ->
conv 5x5x64 -> pool -> dense 10 on 28x28x1, global batch 64). Reports examples/s and, for Ray, the
per-step all-reduce time measured on replica/worker 0 (waiting for the slowest included), and for the rows
that run in this process the CPU time per step of all its threads (steadier under load than examples/s).
Each is timed on a custom GradientTape step through strategy.run (--mode run) or on Keras model.fit under
the scope (--mode fit).
Run: python -m tinytf.bench.distributed [--model mlp|cnn] [--mode run|fit] [--steps N]
(needs `ray` for the Ray rows)."""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import tinytf as tf

FEATURES, HIDDEN, CLASSES = 784, 256, 10
GLOBAL_BATCH = {"mlp": 256, "cnn": 64}


def make_model(kind: str):
    layers = tf.keras.layers
    if kind == "mlp":
        stack = [tf.keras.Input((FEATURES,)), layers.Dense(HIDDEN, activation="relu"), layers.Dense(CLASSES)]
    else:
        stack = [tf.keras.Input((28, 28, 1)), layers.Conv2D(32, 5, activation="relu"), layers.MaxPooling2D(),
                 layers.Conv2D(64, 5, activation="relu"), layers.MaxPooling2D(), layers.Flatten(),
                 layers.Dense(CLASSES)]
    model = tf.keras.Sequential(stack)
    rng = np.random.default_rng(0)
    model.set_weights([rng.normal(scale=0.05, size=w.shape).astype(np.float32) for w in model.get_weights()])
    return model


def batches(kind: str, steps: int):
    rng = np.random.default_rng(1)
    batch = GLOBAL_BATCH[kind]
    shape = (FEATURES,) if kind == "mlp" else (28, 28, 1)
    x = rng.normal(size=(batch * steps, *shape)).astype(np.float32)
    y = rng.integers(0, CLASSES, size=batch * steps).astype(np.int32)
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(batch)


def examples_per_second(strategy, kind: str, steps: int, clock=time.process_time) -> float:
    with strategy.scope():
        model = make_model(kind)
        opt = tf.keras.optimizers.SGD(0.01)
        opt.build(model.trainable_variables)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            per_example = tf.keras.losses.sparse_categorical_crossentropy(y, model(x, training=True), from_logits=True)
            loss = tf.nn.compute_average_loss(per_example)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    dist = list(strategy.experimental_distribute_dataset(batches(kind, steps + 2)))
    for batch in dist[:2]:  # warm up: tracing (on every worker), first all-reduces
        strategy.run(step, args=batch)
    if hasattr(strategy, "allreduce_seconds"):
        strategy.allreduce_seconds.clear()
    start, cpu = time.perf_counter(), clock()
    for batch in dist[2:]:
        strategy.run(step, args=batch)
    return GLOBAL_BATCH[kind] * steps / (time.perf_counter() - start), (clock() - cpu) / steps


def fit_examples_per_second(strategy, kind: str, steps: int, clock=time.process_time) -> float:
    """model.fit under the strategy's scope: one epoch of `steps` global batches, after a warm-up fit."""
    with strategy.scope():
        model = make_model(kind)
        model.compile(optimizer=tf.keras.optimizers.SGD(0.01), metrics=["accuracy"],
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    batch = GLOBAL_BATCH[kind]
    x, y = arrays(kind, steps)
    model.fit(x[:2 * batch], y[:2 * batch], batch_size=batch, epochs=1, verbose=0, shuffle=False)  # traces
    if hasattr(strategy, "allreduce_seconds"):
        strategy.allreduce_seconds.clear()
    start, cpu = time.perf_counter(), clock()
    model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)
    return batch * steps / (time.perf_counter() - start), (clock() - cpu) / steps


def arrays(kind: str, steps: int):
    rng = np.random.default_rng(1)
    shape = (FEATURES,) if kind == "mlp" else (28, 28, 1)
    count = GLOBAL_BATCH[kind] * steps
    return (rng.normal(size=(count, *shape)).astype(np.float32),
            rng.integers(0, CLASSES, size=count).astype(np.int32))


def _allreduce(strategy) -> str:
    stats = strategy.allreduce_stats()
    return (f"; all-reduce per step: mean {stats['mean'] * 1e3:.2f} ms, median {stats['median'] * 1e3:.2f} ms "
            f"({stats['count']} steps)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("mlp", "cnn"), default="mlp")
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--transport", choices=("auto", "collective", "object_store"), default="auto",
                        help="RayStrategy's all-reduce (collective needs torch)")
    parser.add_argument("--mode", choices=("run", "fit"), default="run",
                        help="time a custom step through strategy.run, or Keras model.fit")
    args = parser.parse_args(argv)
    kind = args.model
    measure = examples_per_second if args.mode == "run" else fit_examples_per_second
    try:
        from threadpoolctl import threadpool_info

        blas = ", ".join(f"{i['internal_api']}:{i['num_threads']}" for i in threadpool_info())
    except ImportError:
        blas = f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}"
    print(f"load average {os.getloadavg()}, cpus {os.cpu_count()}, BLAS {blas}")
    what = f"MLP {FEATURES}-{HIDDEN}-{CLASSES}" if kind == "mlp" else "CNN conv32-pool-conv64-pool-dense10"
    print(f"{what}, global batch {GLOBAL_BATCH[kind]}, {args.steps} timed steps, mode {args.mode}")
    one, cpu = measure(tf.distribute.get_strategy(), kind, args.steps)
    print(f"one process (default strategy): {one:9.0f} ex/s, CPU {cpu * 1e3:.2f} ms/step")
    for n in (1, 2):
        strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])
        rate, cpu = measure(strategy, kind, args.steps)
        print(f"MirroredStrategy, {n} thread replica(s): {rate:9.0f} ex/s, CPU {cpu * 1e3:.2f} ms/step"
              + (_allreduce(strategy) if n > 1 else ""))
    try:
        import ray
    except ImportError:
        print("ray not installed: no RayStrategy rows")
        return
    ray.init(num_cpus=2, include_dashboard=False, address="local", log_to_driver=False)
    try:
        for n in (1, 2):
            strategy = tf.distribute.experimental.RayStrategy(num_workers=n, transport=args.transport)
            rate, _ = measure(strategy, kind, args.steps)  # the workers' CPU time is not this process's
            print(f"RayStrategy, {n} worker(s), {strategy.transport}: {rate:9.0f} ex/s" + _allreduce(strategy))
            strategy.shutdown()
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
