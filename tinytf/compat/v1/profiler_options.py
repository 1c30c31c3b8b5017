"""tf.compat.v1.profiler.ProfileOptionBuilder: the option dicts of TF1's tfprof (what to account, select, order
and show, and where to write), with TF's three presets: trainable_variables_parameter, float_operation and
time_and_memory. It only builds dicts; tinytf does not have TF1's profile()/Profiler that consume them."""

from __future__ import annotations

import copy


def _preset(**changes) -> dict:
    """A preset: TF's common keys with max_depth 10000 and displayed-op-only accounting, updated by `changes`."""
    options = {"max_depth": 10000, "min_bytes": 0, "min_micros": 0, "min_params": 0, "min_float_ops": 0,
               "min_occurrence": 0, "order_by": "name", "account_type_regexes": [".*"],
               "start_name_regexes": [".*"], "trim_name_regexes": [], "show_name_regexes": [".*"],
               "hide_name_regexes": [], "account_displayed_op_only": True, "select": ["params"], "step": -1,
               "output": "stdout"}
    options.update(changes)
    return options


class ProfileOptionBuilder:
    """Builds the options dict of a tfprof query; each `with_*`/`select`/`order_by` call returns the builder."""

    def __init__(self, options=None):
        if options is not None:
            self._options = copy.deepcopy(options)
        else:
            self._options = _preset(max_depth=100, account_displayed_op_only=False, select=["micros"])

    @staticmethod
    def trainable_variables_parameter():
        """Count the parameters of the trainable variables, by name scope."""
        return _preset(account_type_regexes=["_trainable_variables"])

    @staticmethod
    def float_operation():
        """Count the float operations of the ops whose shapes allow it."""
        return _preset(min_float_ops=1, order_by="float_ops", select=["float_ops"])

    @staticmethod
    def time_and_memory(min_micros=1, min_bytes=1, min_accelerator_micros=0, min_cpu_micros=0, min_peak_bytes=0,
                        min_residual_bytes=0, min_output_bytes=0):
        """Show the ops that took at least `min_micros` or `min_bytes`, ordered by time."""
        options = _preset(min_bytes=min_bytes, min_peak_bytes=min_peak_bytes, min_residual_bytes=min_residual_bytes,
                          min_output_bytes=min_output_bytes, min_micros=min_micros,
                          min_accelerator_micros=min_accelerator_micros, min_cpu_micros=min_cpu_micros,
                          order_by="micros", select=["micros", "bytes"])
        order = ["max_depth", "min_bytes", "min_peak_bytes", "min_residual_bytes", "min_output_bytes", "min_micros",
                 "min_accelerator_micros", "min_cpu_micros"]
        return {**{k: options[k] for k in order}, **{k: v for k, v in options.items() if k not in order}}

    def build(self):
        """A copy of the options dict."""
        return copy.deepcopy(self._options)

    def _set(self, **values):
        self._options.update(values)
        return self

    def with_max_depth(self, max_depth):
        return self._set(max_depth=max_depth)

    def with_min_memory(self, min_bytes=0, min_peak_bytes=0, min_residual_bytes=0, min_output_bytes=0):
        return self._set(min_bytes=min_bytes, min_peak_bytes=min_peak_bytes, min_residual_bytes=min_residual_bytes,
                         min_output_bytes=min_output_bytes)

    def with_min_execution_time(self, min_micros=0, min_accelerator_micros=0, min_cpu_micros=0):
        return self._set(min_micros=min_micros, min_accelerator_micros=min_accelerator_micros,
                         min_cpu_micros=min_cpu_micros)

    def with_min_parameters(self, min_params):
        return self._set(min_params=min_params)

    def with_min_occurrence(self, min_occurrence):
        return self._set(min_occurrence=min_occurrence)

    def with_min_float_operations(self, min_float_ops):
        return self._set(min_float_ops=min_float_ops)

    def with_accounted_types(self, account_type_regexes):
        return self._set(account_type_regexes=copy.copy(account_type_regexes))

    def with_node_names(self, start_name_regexes=None, show_name_regexes=None, hide_name_regexes=None,
                        trim_name_regexes=None):
        given = {"start_name_regexes": start_name_regexes, "show_name_regexes": show_name_regexes,
                 "hide_name_regexes": hide_name_regexes, "trim_name_regexes": trim_name_regexes}
        return self._set(**{k: copy.copy(v) for k, v in given.items() if v is not None})

    def account_displayed_op_only(self, is_true):
        return self._set(account_displayed_op_only=is_true)

    def with_empty_output(self):
        return self._set(output="none")

    def with_stdout_output(self):
        return self._set(output="stdout")

    def with_file_output(self, outfile):
        return self._set(output=f"file:outfile={outfile}")

    def with_timeline_output(self, timeline_file):
        return self._set(output=f"timeline:outfile={timeline_file}")

    def with_pprof_output(self, pprof_file):
        return self._set(output=f"pprof:outfile={pprof_file}")

    def order_by(self, attribute):
        return self._set(order_by=attribute)

    def select(self, attributes):
        return self._set(select=copy.copy(attributes))

    def with_step(self, step):
        return self._set(step=step)
