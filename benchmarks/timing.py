"""Timing that survives a noisy shared machine: the variants of a workload are timed in interleaved rounds,
and each variant's figure is the minimum over rounds of the mean time per call within a round (after one untimed
call, so that no variant pays for the state the previous one left)."""

from __future__ import annotations

import time


def calls_per_round(fn, budget_s: float) -> int:
    """How many calls fit in `budget_s` (at least 1), estimated from a few warm-up calls."""
    fn()
    start = time.perf_counter()
    n = 0
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed > budget_s / 10 or n >= 100_000:
            break
    per_call = elapsed / n
    return max(1, int(budget_s / per_call))


def time_variants(variants: dict, rounds: int = 7, budget_s: float = 0.02) -> dict:
    """{name: callable} -> {name: seconds per call}. All variants run in every round, in turn."""
    counts = {name: calls_per_round(fn, budget_s) for name, fn in variants.items()}
    best = {name: float("inf") for name in variants}
    for _ in range(rounds):
        for name, fn in variants.items():
            n = counts[name]
            # one untimed call first: the variant before this one (eager, with tens of MB of temporaries) leaves
            # the heap trimmed and the caches cold, and a workload of one call per round (the LSTM step) was
            # charged for that: two identical graphs measured 1.14x apart
            fn()
            start = time.perf_counter()
            for _ in range(n):
                fn()
            best[name] = min(best[name], (time.perf_counter() - start) / n)
    return best
