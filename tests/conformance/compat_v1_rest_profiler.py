"""tf.compat.v1.profiler.ProfileOptionBuilder (helper v1rest): TF's presets and every builder method."""

from __future__ import annotations

from . import program


@program
def p_v1rest_profile_option_builder(tf):
    builder = tf.compat.v1.profiler.ProfileOptionBuilder
    preset = builder.trainable_variables_parameter()
    chained = (builder().with_max_depth(3).select(["params", "bytes"]).order_by("params")
               .with_node_names(show_name_regexes=["dense.*"], trim_name_regexes=["^x"])
               .account_displayed_op_only(False).with_file_output("/tmp/x.txt").with_step(2).build())
    mutated = builder(preset)
    mutated.with_min_memory(1, 2, 3, 4).with_min_execution_time(5, 6, 7).with_min_parameters(8)
    mutated.with_min_occurrence(9).with_min_float_operations(10).with_accounted_types(["MatMul"])
    outputs = [builder().with_empty_output().build()["output"], builder().with_stdout_output().build()["output"],
               builder().with_timeline_output("t.json").build()["output"],
               builder().with_pprof_output("p.gz").build()["output"]]
    return {"default": [list(builder().build().items())], "params": [list(preset.items())],
            "flops": [list(builder.float_operation().items())],
            "time": [list(builder.time_and_memory().items()),
                     list(builder.time_and_memory(3, 4, 5, 6, 7, 8, 9).items())],
            "chained": [list(chained.items())], "mutated": [list(mutated.build().items())],
            "preset_untouched": preset == builder.trainable_variables_parameter(), "outputs": outputs}
