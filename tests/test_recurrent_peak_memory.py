"""Issue 15's memory bar on the recurrent workloads (benchmarks/workloads.py): the traced peak of one graph call
(tracemalloc: what the call allocates; buffers the compiled function keeps across calls are not per call) is at
most that of the eager run and of hand-written numpy. Measured after warm-up calls, as `tinytf bench` does."""


import pytest
from ways import traced_with

from benchmarks import workloads
from tinytf.bench.run import peak_bytes as _peak

WORKLOADS = {
    "rnn_unroll": workloads.rnn_unroll,  # the sizes `tinytf bench` runs
    "rnn_forward": workloads.rnn_forward,
    "lstm_step": lambda: workloads.lstm_step(steps=12, batch=16, n_in=16, hidden=64),  # smaller, for time
}


@pytest.mark.parametrize("name", sorted(WORKLOADS))
def test_a_graph_call_peaks_below_eager_and_numpy(name):
    work = WORKLOADS[name]()
    graph = traced_with(work.fn, work.args, disable_all=False)
    for _ in range(2):  # the buffers kept across calls are made
        graph(*work.args)
    graph_peak = _peak(lambda: graph(*work.args))
    numpy_peak = _peak(lambda: work.numpy_fn(*work.numpy_args))
    eager_peak = _peak(lambda: work.fn(*work.args))
    assert graph_peak <= numpy_peak, (graph_peak, numpy_peak)
    assert graph_peak <= eager_peak, (graph_peak, eager_peak)
