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


@program
def p_v1rest_profiler_protos(tf):
    profiler = tf.compat.v1.profiler
    root = profiler.GraphNodeProto(name="_TFProfRoot", total_parameters=20, devices=["cpu"], run_count=2)
    child = root.children.add(name="dense", total_parameters=20, float_ops=120)
    child.shapes.add().dim.add(size=3)
    child.input_shapes[0].dim.add(size=5)
    root.tensor_value.dtype = 1
    root.tensor_value.value_double.extend([1.5, -2.0])
    multi = profiler.MultiGraphNodeProto(name="MatMul", float_ops=120, total_float_ops=217)
    multi.graph_nodes.add(name="dense/MatMul")
    multi.children.add(name="Add")
    advice = profiler.AdviceProto()
    advice.checkers["AcceleratorUtilizationChecker"].reports.extend(["low", "idle"])
    log = profiler.OpLogProto()
    entry = log.log_entries.add(name="w", float_ops=3, types=["_trainable_variables"])
    entry.code_def.traces.add(file_id=1, lineno=7, function_id=2, line_id=3, func_start_line=5)
    log.id_to_string[1] = "model.py"
    messages = [root, multi, advice, log]
    parsed = profiler.GraphNodeProto.FromString(root.SerializeToString())
    return {"names": [type(m).__name__ for m in messages], "full": [m.DESCRIPTOR.full_name for m in messages],
            "bytes": [m.SerializeToString(deterministic=True).hex() for m in messages],
            "parsed": [parsed.children[0].name, parsed.children[0].input_shapes[0].dim[0].size,
                       list(parsed.tensor_value.value_double)]}
