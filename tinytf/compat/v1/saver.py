"""TF1's Saver and import_meta_graph: name-keyed checkpoints in TF's tensor-bundle format (the keys are the
variables' names, `W`, `layer/b`), read and written through tinytf/train's bundle code, so TF 2.21's Saver and
tinytf's read each other's files. A Saver saves and restores the values of one Session (TF1 variables live
per session); `import_meta_graph` imports a `.meta` file TF wrote (its GraphDef through import_graph_def, its
variable collections) and returns a Saver for its variables."""

from __future__ import annotations

import os
import warnings

import numpy as np

from ...train.bundle import write_bundle
from ...train.reader import load_checkpoint
from ...train.state_file import record_latest
from .graph import get_default_graph
from .ops import Operation
from .partitioned_variables import PartitionedVariable


def _key(variable) -> str:
    return variable.name.rsplit(":", 1)[0]


def _executing_eagerly() -> bool:
    from tinytf.runtime.context import state

    return state.graph is None


def _eager_variable(variable):
    """A Saver used with sess=None works on eager variables only (TF: sess must be None in eager mode)."""
    from .graph_variable import GraphVariable

    if isinstance(variable, GraphVariable):
        raise ValueError(f"Saver: the graph variable {variable.name} needs a Session to be saved or restored "
                         f"(sess=None is for eager variables)")
    return variable


def _value(sess, variable):
    if sess is None:
        return _eager_variable(variable).numpy()
    return sess._value_of(variable)


class Saver:
    """`tf.compat.v1.train.Saver(var_list=None)`: `var_list` is None (the default graph's global variables when
    the Saver is made), a list of variables, or a dict from checkpoint key to variable."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False, saver_def=None,
                 builder=None, defer_build=False, allow_empty=False, write_version=2, pad_step_number=False,
                 save_relative_paths=False, filename=None):
        graph = get_default_graph()
        if var_list is None and _executing_eagerly():
            raise RuntimeError("When eager execution is enabled, `var_list` must specify a list or dict of "
                               "variables to save")
        if var_list is None:
            var_list = list(graph.collections.get("variables", []))
        self._sliced = {}  # full name -> the shards of a partitioned variable, saved as slices of one tensor
        if isinstance(var_list, dict):
            self._variables = {}
            for key, value in var_list.items():
                if isinstance(value, (PartitionedVariable, list, tuple)):
                    self._sliced[key] = list(value)
                else:
                    self._variables[key] = value
        else:
            self._variables = {}
            for variable in var_list:
                if isinstance(variable, PartitionedVariable):
                    self._sliced[variable.name] = list(variable)
                    continue
                info = getattr(variable, "_save_slice_info", None)
                if info is not None:
                    self._sliced.setdefault(info.full_name, []).append(variable)
                    continue
                key = _key(variable)
                if key in self._variables:
                    raise ValueError(f"At least two variables have the same name: {key}")
                self._variables[key] = variable
        if not self._variables and not self._sliced and not allow_empty:
            raise ValueError("No variables to save")
        self.graph = graph
        self._max_to_keep = max_to_keep
        self._kept: list = []

    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False) -> str:
        """Write `sess`'s values of the variables to `save_path[-global_step]`; returns that prefix."""
        prefix = os.fspath(save_path)
        if global_step is not None:
            step = global_step if isinstance(global_step, (int, np.integer)) else int(sess.run(global_step))
            prefix = f"{prefix}-{int(step)}"
        tensors = {key: np.asarray(_value(sess, variable)) for key, variable in self._variables.items()}
        folder = os.path.dirname(prefix)
        if folder:
            os.makedirs(folder, exist_ok=True)
        sliced = {key: (shards[0]._save_slice_info.full_shape,
                        [(v._save_slice_info.var_offset, np.asarray(_value(sess, v))) for v in shards])
                  for key, shards in self._sliced.items()}
        write_bundle(prefix, tensors, sliced)
        if write_state:
            record_latest(prefix)
            self._forget_old(prefix)
        if write_meta_graph and not _executing_eagerly():  # TF writes no MetaGraph of eager variables
            try:
                export_meta_graph(f"{prefix}.{meta_graph_suffix}", graph=self.graph, variables=self._variables)
            except NotImplementedError as e:  # an op GraphDef export lacks: the checkpoint itself is complete
                warnings.warn(f"Saver.save: no {prefix}.{meta_graph_suffix} written: {e}", stacklevel=2)
        return prefix

    def _forget_old(self, prefix):
        self._kept = [p for p in self._kept if p != prefix] + [prefix]
        while self._max_to_keep and len(self._kept) > self._max_to_keep:
            old = self._kept.pop(0)
            for suffix in (".index", ".data-00000-of-00001", ".meta"):
                if os.path.exists(old + suffix):
                    os.remove(old + suffix)

    def restore(self, sess, save_path) -> None:
        """Give `sess`'s variables the values saved under `save_path` (TF's NotFoundError for a missing key,
        InvalidArgumentError for a shape that differs)."""
        from tinytf.runtime.errors import InvalidArgumentError, NotFoundError

        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        reader = load_checkpoint(save_path)
        values = {}
        for key, variable in self._variables.items():
            if not reader.has_tensor(key):
                raise NotFoundError(f"Key {key} not found in checkpoint")
            value = np.asarray(reader.get_tensor(key))
            if tuple(value.shape) != tuple(variable.shape):
                raise InvalidArgumentError(
                    f"Restoring from checkpoint failed: the variable {key} has shape {list(variable.shape)}, the "
                    f"checkpoint's tensor has shape {list(value.shape)}")
            value = value.astype(variable.dtype.np, copy=False)
            values[id(variable)] = value[()] if value.ndim == 0 else value  # scalars as a Session keeps them
        for key, shards in self._sliced.items():  # a partitioned variable: whatever way it was saved, in slices
            if not reader.has_tensor(key):
                raise NotFoundError(f"Key {key} not found in checkpoint")
            whole = np.asarray(reader.get_tensor(key))
            full_shape = shards[0]._save_slice_info.full_shape
            if list(whole.shape) != list(full_shape):
                raise InvalidArgumentError(
                    f"Restoring from checkpoint failed: the partitioned variable {key} has shape {full_shape}, the "
                    f"checkpoint's tensor has shape {list(whole.shape)}")
            for shard in shards:
                info = shard._save_slice_info
                part = whole[tuple(slice(o, o + n) for o, n in zip(info.var_offset, info.var_shape))]
                values[id(shard)] = part.astype(shard.dtype.np)
        if sess is None:  # eager variables (TF2's Saver with sess=None): assigned in place
            for variable in [*self._variables.values(), *(v for shards in self._sliced.values() for v in shards)]:
                _eager_variable(variable).assign(values[id(variable)])
            return
        sess._values.update(values)  # all or nothing: checked before anything is assigned

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False, export_scope=None,
                          clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False):
        """The MetaGraphDef of this Saver's graph and variables, written to `filename` (text when `as_text`)."""
        return export_meta_graph(filename, graph=self.graph, variables=self._variables, as_text=as_text)

    @property
    def last_checkpoints(self) -> list:
        return list(self._kept)


def export_meta_graph(filename=None, graph=None, variables=None, as_text=False, **_):
    """A MetaGraphDef of the graph (its GraphDef as graph.as_graph_def() writes it, and its variables
    collection), written to `filename` when given."""
    from tensorboard.compat.proto import meta_graph_pb2, variable_pb2

    graph = graph or get_default_graph()
    meta = meta_graph_pb2.MetaGraphDef()
    meta.meta_info_def.tensorflow_version = "2.21.0"
    meta.graph_def.CopyFrom(graph.as_graph_def())
    # The variables collection, for variables whose initializer op is in the graph (TF's import_meta_graph
    # looks their initializer and snapshot up by name).
    names = getattr(graph, "tf_names", {})
    for variable in (variables or {}).values() if isinstance(variables, dict) else (variables or []):
        initializer = variable.__dict__.get("_v1_initializer")
        if initializer is None or id(initializer._v1_node) not in names:
            continue
        read = variable.__dict__.get("_v1_read")  # TF's snapshot: the variable's `v/Read/ReadVariableOp`
        initial = variable.__dict__.get("_v1_initial_value")
        definition = variable_pb2.VariableDef(variable_name=variable.name, trainable=bool(variable.trainable),
                                              is_resource=True, initializer_name=initializer.name,
                                              snapshot_name=variable.name if read is None else read.name,
                                              initial_value_name="" if initial is None else initial.name)
        meta.collection_def["variables"].bytes_list.value.append(definition.SerializeToString())
    if filename is not None:
        if as_text:  # TF's text form (text_format), which import_meta_graph reads too
            from google.protobuf import text_format

            with open(filename, "w") as f:
                f.write(text_format.MessageToString(meta))
        else:
            with open(filename, "wb") as f:
                f.write(meta.SerializeToString())
    return meta


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, **kwargs):
    """`tf.compat.v1.train.import_meta_graph`: the `.meta` file's graph into the default graph (under
    `import_scope`), its variables back in the graph's collections (with their initializers), and a Saver of
    them; None when the graph has no variables, as TF returns."""
    from tensorboard.compat.proto import meta_graph_pb2, variable_pb2

    from . import import_graph_def

    if isinstance(meta_graph_or_file, meta_graph_pb2.MetaGraphDef):
        meta = meta_graph_or_file
    else:
        meta = meta_graph_pb2.MetaGraphDef()
        with open(os.fspath(meta_graph_or_file), "rb") as f:
            data = f.read()
        try:
            meta.ParseFromString(data)
        except Exception as e:  # noqa: BLE001 - protobuf's DecodeError: a text MetaGraphDef (as_text=True)?
            from google.protobuf import text_format

            try:
                text_format.Merge(data.decode("utf-8"), meta)
            except Exception:  # noqa: BLE001 - neither form: say which file
                raise OSError(f"Cannot parse file {meta_graph_or_file}: not a MetaGraphDef ({e})") from None
    graph = get_default_graph()
    prefix = f"{import_scope}/" if import_scope else ""
    with graph.as_default():
        import_graph_def(meta.graph_def, name=import_scope or "")
    saved = {}
    for collection in ("variables", "trainable_variables"):
        if collection not in meta.collection_def:
            continue
        for raw in meta.collection_def[collection].bytes_list.value:
            definition = variable_pb2.VariableDef()
            definition.ParseFromString(raw)
            variable = graph.get_tensor_by_name(prefix + definition.variable_name)
            variable.trainable = bool(definition.trainable)
            if definition.initializer_name:
                variable._v1_initializer = Operation(graph.get_operation_by_name(prefix + definition.initializer_name)
                                                     ._v1_node)
            if collection == "variables":
                graph.collections.setdefault("variables", []).append(variable)
                saved[definition.variable_name.rsplit(":", 1)[0]] = variable
    if "train_op" in meta.collection_def:
        graph.collections["train_op"] = [graph.get_operation_by_name(prefix + name)
                                         for name in meta.collection_def["train_op"].node_list.value]
    return Saver(saved) if saved else None
