"""tf.test.Benchmark: TF's benchmark base class. `report_benchmark` logs one entry (and, when the
TEST_REPORT_FILE_PREFIX environment variable is set, writes it there as JSON lines: tinytf has no TF test_log
protocol buffer); `run_op_benchmark` times Session.run of an op, as TF's does, and reports the median."""

from __future__ import annotations

import json
import logging
import os
import time

import numpy as np

import tinytf as _tf

_log = logging.getLogger("tensorflow")


class Benchmark:
    """Subclass it and write `benchmark*` methods that call report_benchmark / run_op_benchmark."""

    def _get_name(self, overwrite_name=None) -> str:
        return f"{type(self).__name__}.{overwrite_name or 'unknown'}"

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None, name=None,
                         metrics=None) -> None:
        """Report one benchmark result under `name` (times in seconds, extras a dict, metrics a list of dicts
        with name / value / min_value / max_value)."""
        name = self._get_name(overwrite_name=name)
        if extras is not None and not isinstance(extras, dict):
            raise TypeError("extras must be a dict")
        if metrics is not None and not isinstance(metrics, list):
            raise TypeError("metrics must be a list")
        for metric in metrics or []:
            if "name" not in metric:
                raise TypeError("metric must has a 'name' field")
            if "value" not in metric:
                raise TypeError("metric must has a 'value' field")
        _log.info("Benchmark [%s] iters: %d, wall_time: %g, cpu_time: %g,throughput: %g, extras: %s, metrics: %s",
                  name, iters if iters is not None else -1, wall_time if wall_time is not None else -1,
                  cpu_time if cpu_time is not None else -1, throughput if throughput is not None else -1,
                  str(extras) if extras else "None", str(metrics) if metrics else "None")
        prefix = os.environ.get("TEST_REPORT_FILE_PREFIX")
        if not prefix:
            print(_entries_text(name, iters, cpu_time, wall_time, throughput, extras, metrics))
            return
        entry = {"name": name, "iters": iters, "cpu_time": cpu_time, "wall_time": wall_time,
                 "throughput": throughput, "extras": extras or {}, "metrics": metrics or []}
        with open(f"{prefix}{name.replace('/', '__')}", "a") as f:
            f.write(json.dumps(entry, default=float) + "\n")

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10, store_trace=False,
                         store_memory_usage=True, name=None, extras=None, mbs=0) -> dict:
        """Run `op_or_tensor` in `sess` burn_iters times untimed, then min_iters times timed; report and return
        {"iters", "wall_time" (median seconds), "extras", "name", "throughput" (mbs / wall_time)}."""
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = []
        for _ in range(min_iters):
            start = time.time()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(time.time() - start)
        wall_time = float(np.median(deltas))
        throughput = mbs / wall_time if mbs and wall_time else 0.0
        extras = dict(extras or {})
        self.report_benchmark(iters=min_iters, wall_time=wall_time, extras=extras, name=name,
                              throughput=throughput)
        return {"iters": min_iters, "wall_time": wall_time, "extras": extras, "name": name,
                "throughput": throughput}

    def evaluate(self, tensors):
        """The numpy values of `tensors`, run in the default session (TF1 graphs) or read eagerly."""
        sess = _tf.compat.v1.get_default_session()
        if sess is not None:
            return sess.run(tensors)
        return _tf.nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t, tensors)


def _proto_number(value) -> str:
    """A number as protobuf's text format writes it: 2.0 as 2, 0.5 as 0.5."""
    value = float(value)
    return str(int(value)) if value.is_integer() else repr(value)


def _entries_text(name, iters, cpu_time, wall_time, throughput, extras, metrics) -> str:
    """The text format of TF's BenchmarkEntries with this one entry (what TF prints without a report file)."""
    lines = ["entry {", f'  name: "{name}"']
    for field, value in (("iters", iters), ("cpu_time", cpu_time), ("wall_time", wall_time),
                         ("throughput", throughput)):
        if value is not None and value != 0:
            lines.append(f"  {field}: {_proto_number(value)}")
    for key, value in (extras or {}).items():
        kind = "double_value" if isinstance(value, (int, float)) else "string_value"
        text = _proto_number(value) if kind == "double_value" else json.dumps(str(value))
        lines += ["  extras {", f'    key: "{key}"', "    value {", f"      {kind}: {text}", "    }", "  }"]
    for metric in metrics or []:
        lines += ["  metrics {", f'    name: "{metric["name"]}"', f'    value: {metric["value"]}', "  }"]
    return "\n".join(lines + ["}", ""])


def benchmarks_main(true_main, argv=None):
    """Run `true_main` (TF: benchmarks run instead when --benchmark_filter is given; tinytf runs the tests)."""
    return true_main(argv)
