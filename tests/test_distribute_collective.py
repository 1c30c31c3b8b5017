"""The thread replicas' all-reduce (tinytf/distribute/collective.py): replica 0 sums every replica's arrays in
replica order, runs `between` alone, and every replica returns the same sums; against numpy, for 2 to 4
replicas, scalars and integers included, several rounds in a row."""

import threading

import numpy as np
import pytest

from tinytf.distribute.collective import ThreadCollective, summed


@pytest.mark.parametrize("n", [2, 3, 4])
def test_every_replica_gets_the_sums_and_between_runs_once(n):
    collective = ThreadCollective(n, timeout=30)
    rng = np.random.default_rng(n)
    rounds = [[[rng.normal(size=(3, 2)).astype(np.float32), np.float64(rng.normal()),
                rng.integers(-5, 5, size=4).astype(np.int32)] for _ in range(n)] for _ in range(3)]
    got = [[None] * 3 for _ in range(n)]
    betweens = []

    def replica(i):
        for r in range(3):
            got[i][r] = collective.sum(i, rounds[r][i], between=lambda result: betweens.append(threading.get_ident()))

    threads = [threading.Thread(target=replica, args=(i,)) for i in range(1, n)]
    for t in threads:
        t.start()
    replica(0)
    for t in threads:
        t.join()
    assert betweens == [threading.get_ident()] * 3  # replica 0 (this thread), once a round
    for r in range(3):
        for k in range(3):
            want = rounds[r][0][k]
            for i in range(1, n):
                want = want + rounds[r][i][k]
            for i in range(n):
                np.testing.assert_array_equal(got[i][r][k], want)
                assert np.asarray(got[i][r][k]).dtype == np.asarray(rounds[r][0][k]).dtype
    assert len(collective.seconds) == 3


def test_summed_leaves_its_inputs_alone():
    parts = [np.ones(3, np.float32), np.full(3, 2.0, np.float32), np.full(3, 3.0, np.float32)]
    assert summed(parts).tolist() == [6.0, 6.0, 6.0]
    assert [p.tolist() for p in parts] == [[1.0] * 3, [2.0] * 3, [3.0] * 3]
    assert summed([np.float32(2.5)]) == 2.5
