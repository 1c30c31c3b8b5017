"""The all-reduce of RayStrategy, by transport: Ray's object store (what RayStrategy uses: each worker puts its
arrays, a rendezvous actor hands out the references, each worker reads and sums) against
`ray.util.collective` with its CPU backend (gloo through torch.distributed, Ray 2.60's only CPU backend;
measured only where torch is importable, since tinytf does not depend on it). Both run through the workers'
own code (Worker.sum_across_workers), one flat buffer per dtype for gloo. Gradient sets of the MLP
(784-256-10: 203,530 floats) and the CNN of issue 15 (conv 5x5x32, conv 5x5x64, dense 10: 62,346 floats),
summed over 2 workers; median milliseconds per all-reduce over `--rounds` rounds. Run:
python -m tinytf.bench.allreduce_transports [--rounds N]"""

from __future__ import annotations

import argparse
import importlib.util
import os

import numpy as np

GRADIENT_SHAPES = {
    "mlp": [(784, 256), (256,), (256, 10), (10,)],
    "cnn": [(5, 5, 1, 32), (32,), (5, 5, 32, 64), (64,), (1024, 10), (10,)],
}


def _arrays(kind: str, seed: int) -> list:
    rng = np.random.default_rng(seed)
    return [rng.normal(size=shape).astype(np.float32) for shape in GRADIENT_SHAPES[kind]]


def allreduce_ms(ray, kind: str, rounds: int, workers: int, transport: str) -> float:
    """Median ms of Worker.sum_across_workers (what RayStrategy runs every step) over `transport`."""
    from tinytf.distribute.ray_worker import Rendezvous, Worker

    rendezvous = Rendezvous.options(num_cpus=0).remote(workers)
    actors = [Worker.options(num_cpus=0).remote(i, workers, rendezvous) for i in range(workers)]
    try:
        if transport == "collective":
            ray.get([a.join_collective_group.remote(f"bench-{kind}-{os.getpid()}") for a in actors])
        inputs = [ray.put(_arrays(kind, i)) for i in range(workers)]
        expected = np.sum([_arrays(kind, i)[0] for i in range(workers)], axis=0)
        for _ in range(3):  # warm up
            ray.get([a.sum_across_workers.remote(x) for a, x in zip(actors, inputs)])
        ray.get([a.take_allreduce_seconds.remote() for a in actors])
        for _ in range(rounds):
            sums = ray.get([a.sum_across_workers.remote(x) for a, x in zip(actors, inputs)])
        np.testing.assert_allclose(sums[0][0], expected, rtol=1e-5)
        seconds = ray.get(actors[0].take_allreduce_seconds.remote())
        return 1e3 * float(np.median(seconds))
    finally:
        for actor in [*actors, rendezvous]:
            ray.kill(actor)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args(argv)
    import ray

    print(f"load average {os.getloadavg()}, cpus {os.cpu_count()}, ray {ray.__version__}, 2 workers")
    ray.init(num_cpus=2, include_dashboard=False, address="local", log_to_driver=False)
    try:
        for kind in ("mlp", "cnn"):
            floats = sum(int(np.prod(shape)) for shape in GRADIENT_SHAPES[kind])
            store = allreduce_ms(ray, kind, args.rounds, 2, "object_store")
            has_torch = importlib.util.find_spec("torch") is not None
            gloo = allreduce_ms(ray, kind, args.rounds, 2, "collective") if has_torch else None
            gloo_text = "torch not importable: not measured" if gloo is None else f"{gloo:.2f} ms"
            print(f"{kind}: {floats} floats ({4 * floats / 1e6:.2f} MB): object store {store:.2f} ms, "
                  f"ray.util.collective gloo {gloo_text}")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
