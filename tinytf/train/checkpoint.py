"""tf.train.Checkpoint: save the variables reachable from some objects, with the object graph that says
who owns which, in TensorFlow's checkpoint format; restore by matching that graph against the live objects
by name. Values for objects that do not exist yet (a layer not built) wait, and are assigned when the
object appears on a tf.Module attribute (or when `restore_pending(obj)` is called)."""

from __future__ import annotations

import os
import weakref

import numpy as np
from tensorboard.compat.proto import trackable_object_graph_pb2

from tinytf.runtime.context import state
from tinytf.runtime.dtypes import int64

from ..module import attribute_hooks as module_attribute_hooks
from ..scopes import init_scope
from ..trackable_structures import mutation_hooks as structure_mutation_hooks
from ..trackable_structures import wrap
from ..variables import Variable
from . import trackable
from .bundle import BundleReader, write_bundle
from .checkpoint_options import run_write_callbacks
from .state_file import record_latest

# id(live object) -> (weakref to it, [(local name, checkpoint node id, _Restoration)]): values waiting for an
# attribute the object does not have yet.
_pending: dict = {}


class Checkpoint:
    """`tf.train.Checkpoint(**objects)`: `save`, `write`, `restore`, `read`, and `save_counter`."""

    def __init__(self, root=None, **kwargs):
        if root is not None:
            kwargs["root"] = root
        for name, value in sorted(kwargs.items()):
            if not trackable.is_trackable(value):
                raise ValueError(f"`Checkpoint` was expecting a trackable object (an object derived from "
                                 f"`Trackable`), got {value!r}. If you believe this object should be trackable "
                                 f"(i.e. it is part of the TensorFlow Python API and manages state), please open an "
                                 f"issue.")
            setattr(self, name, value)
        self._save_counter = None

    def __setattr__(self, name, value):
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        object.__setattr__(self, name, wrap(value))  # TF's ListWrapper / DictWrapper
        restore_pending(self)  # a restore may be waiting for this attribute

    def _checkpoint_children(self):
        # a root object's children are the checkpoint's own (TF: `Checkpoint(model)` writes `v/...`, not
        # `root/v/...`); the other objects hang under their keyword names
        root = vars(self).get("root")
        items = list(trackable.children(root)) if root is not None else []
        if root is not None:
            items.append(("root", self))  # TF 2.21 writes this edge too: the root node names itself "root"
        items += [(k, v) for k, v in vars(self).items() if not k.startswith("_") and k != "root"]
        if self._save_counter is not None:
            items.append(("save_counter", self._save_counter))
        return items

    @property
    def save_counter(self) -> Variable:
        """How many times `save` ran (an int64 variable, saved with the checkpoint)."""
        if self._save_counter is None:
            if getattr(state.graph, "collections", None) is not None:
                # a TF1 graph is the default: the counter is one of its variables (a global variable, as TF's)
                self._save_counter = Variable(0, dtype=int64, trainable=False, name="save_counter")
            else:
                with init_scope():
                    self._save_counter = Variable(0, dtype=int64, trainable=False, name="save_counter")
        return self._save_counter

    def write(self, file_prefix, options=None) -> str:
        """Write a checkpoint at exactly `file_prefix` (no counter, no state file); return the prefix."""
        file_prefix = os.fspath(file_prefix)
        graph, tensors = trackable.serialize(self)
        tensors[trackable.OBJECT_GRAPH_KEY] = np.array(graph, dtype=object)
        write_bundle(file_prefix, tensors)
        run_write_callbacks(options, file_prefix)
        return file_prefix

    def save(self, file_prefix, options=None) -> str:
        """Write `file_prefix-N` (N = the new save_counter) and make it the directory's latest checkpoint."""
        counter = self.save_counter
        if getattr(counter, "_checkpoint_values_live_in_sessions", False):  # made in a TF1 graph
            count = counter._checkpoint_count_up()
            path = self.write(f"{os.fspath(file_prefix)}-{count}", options=options)
            record_latest(path)
            return path
        with init_scope():  # the counter is eager (init_scope made it), also while a TF1 graph is the default
            counter.assign_add(1)
            count = int(counter.numpy())
        try:
            path = self.write(f"{os.fspath(file_prefix)}-{count}", options=options)
        except BaseException:
            with init_scope():
                counter.assign_sub(1)  # a failed save does not count
            raise
        record_latest(path)
        return path

    def read(self, save_path, options=None) -> "CheckpointLoadStatus":
        """Restore from `save_path` without creating a save counter (the pair of `write`)."""
        return self._load(save_path)

    def restore(self, save_path, options=None):
        """Assign every saved value whose object exists; keep the others for objects created later. Returns
        a status object (`assert_consumed`, `assert_existing_objects_matched`, `expect_partial`). Like TF's,
        it first creates the save counter, so a counter saved by `save` is restored."""
        if save_path is None:
            return InitializationOnlyStatus()
        self.save_counter  # noqa: B018 - the property creates it
        return self._load(save_path)

    def _load(self, save_path):
        reader = BundleReader(os.fspath(save_path))
        if not reader.has_tensor(trackable.OBJECT_GRAPH_KEY):
            # a TF1 Saver's checkpoint: TF restores each variable from the key that is its name
            return NameBasedSaverStatus(reader, self, save_path)
        graph = trackable_object_graph_pb2.TrackableObjectGraph()
        graph.ParseFromString(reader.get_tensor(trackable.OBJECT_GRAPH_KEY))
        restoration = _Restoration(reader, graph, save_path)
        restoration.match(0, self)
        return CheckpointLoadStatus(restoration, self)


class _Restoration:
    """One restore: the checkpoint's object graph, and which of its nodes found a live object."""

    def __init__(self, reader, graph, path):
        self.reader, self.graph, self.path = reader, graph, path
        self.matched: dict = {}  # checkpoint node id -> live object
        self.live_matched: set = set()  # ids of live objects matched
        self.expect_partial = False
        self.session_assignments: list = []  # (TF1 graph variable, value): assigned by run_restore_ops

    def match(self, node_id: int, obj) -> None:
        """Match checkpoint node `node_id` with `obj` and everything below; assign values only after every
        value found was checked against its variable, so a bad checkpoint changes nothing."""
        assignments: list = []
        self._collect(node_id, obj, assignments)
        with init_scope():  # eagerly, even when the variable appears while a function or layer is being traced
            for variable, value in assignments:
                if getattr(variable, "_checkpoint_values_live_in_sessions", False):
                    self.session_assignments.append((variable, value))  # TF1: restore ops, run by the user
                else:
                    variable.assign(value)

    def _collect(self, node_id, obj, assignments):
        if self.matched.get(node_id) is obj:
            return
        self.matched[node_id] = obj
        self.live_matched.add(id(obj))
        node = self.graph.nodes[node_id]
        if isinstance(obj, Variable):
            for attribute in node.attributes:
                if attribute.name == trackable.VALUE_ATTRIBUTE:
                    assignments.append((obj, self._checked_value(obj, attribute.checkpoint_key)))
        elif hasattr(obj, "_restore_checkpoint_state") and node.attributes:
            suffixes = getattr(obj, "_checkpoint_tensor_suffixes", {})
            state = {attribute.name: self._state_value(attribute, suffixes.get(attribute.name))
                     for attribute in node.attributes}
            assignments.append((_StateRestorer(obj), state))
        live = dict(trackable.children(obj))
        for child in node.children:
            if child.local_name in live:
                self._collect(child.node_id, live[child.local_name], assignments)
            elif self.graph.nodes[child.node_id].has_checkpoint_values.value:
                _defer(obj, child.local_name, child.node_id, self)

    def _state_value(self, attribute, suffixes):
        """An attribute's saved value: one tensor, or {suffix: tensor} for an attribute saved as several."""
        if suffixes is None:
            return self.reader.get_tensor(attribute.checkpoint_key)
        return {suffix: self.reader.get_tensor(attribute.checkpoint_key + suffix) for suffix in suffixes}

    def _checked_value(self, variable, key):
        value = self.reader.get_tensor(key)
        if variable.shape.is_fully_defined() and tuple(value.shape) != tuple(variable.shape.as_list()):
            raise ValueError(f"Received incompatible tensor with shape {_shape_text(value.shape)} when attempting to "
                             f"restore variable with shape {_shape_text(variable.shape.as_list())} and name "
                             f"{variable.name}.")
        if value.dtype != object and value.dtype != variable.dtype.np:
            raise TypeError(f"tensor_name = {key}; expected dtype {variable.dtype.name} does not equal original "
                            f"dtype {_dtype_name(value.dtype)} (restoring {variable.name} from {self.path})")
        return value

    def unmatched_values(self) -> list:
        """Paths of checkpoint nodes that hold values but found no live object."""
        out = []
        for node_id, node in enumerate(self.graph.nodes):
            if node_id not in self.matched and any(a.name == trackable.VALUE_ATTRIBUTE for a in node.attributes):
                out.append(node.attributes[0].checkpoint_key)
        return out


class _StateRestorer:
    """An object with saved state (not a variable) in `match`'s list of assignments."""

    def __init__(self, obj):
        self._obj = obj

    def assign(self, state) -> None:
        self._obj._restore_checkpoint_state(state)


def _shape_text(shape) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _dtype_name(dtype) -> str:
    return {"float32": "float", "float64": "double"}.get(np.dtype(dtype).name, np.dtype(dtype).name)


def _defer(obj, name, node_id, restoration):
    if isinstance(obj, Checkpoint):  # a child the root object lacks yet waits on the root (it will get it)
        root = vars(obj).get("root")
        if root is not None and name not in vars(obj) and name != "save_counter":
            obj = root
    entry = _pending.get(id(obj))
    if entry is None:
        key = id(obj)
        try:
            ref = weakref.ref(obj, lambda _, key=key: _forget(key))
        except TypeError:  # lists and dicts cannot be weakly referenced: keep them alive while pending
            ref = (lambda held: lambda: held)(obj)
        entry = _pending[key] = (ref, [], isinstance(ref, weakref.ref))
    entry[1].append((name, node_id, restoration))


def _forget(key) -> None:
    if _pending is not None:  # None while the interpreter shuts down
        _pending.pop(key, None)


def restore_pending(obj) -> None:
    """Assign checkpoint values waiting for children of `obj` that now exist (called when a tf.Module or a
    Keras layer gets an attribute, and when an optimizer makes slots). An object held weakly keeps its entries
    while it lives, so a child that is replaced later (a layer built twice) gets the values again; a list or
    dict (held strongly) lets go once every child was found."""
    entry = _pending.get(id(obj))
    if entry is None or entry[0]() is not obj:
        return
    ref, items, weak = entry
    live = dict(trackable.children(obj))
    waiting = []
    for name, node_id, restoration in items:
        child = live.get(name)
        if child is not None:
            restoration.match(node_id, child)
        if child is None or weak:
            waiting.append((name, node_id, restoration))
    if waiting:
        items[:] = waiting
    else:
        _pending.pop(id(obj), None)


class CheckpointLoadStatus:
    """What a restore matched: assertions as TF's status object has them."""

    def __init__(self, restoration, root):
        self._restoration = restoration
        self._root = weakref.ref(root)

    def assert_consumed(self):
        """Every value in the checkpoint found its object, and every live object found its value."""
        unmatched = self._restoration.unmatched_values()
        if unmatched:
            raise AssertionError(f"Unresolved object in checkpoint {self._restoration.path}: values for "
                                 f"{', '.join(unmatched[:10])} found no object")
        return self.assert_existing_objects_matched()

    def assert_existing_objects_matched(self):
        """Every live variable reachable from the checkpoint's objects got a value."""
        root = self._root()
        if root is not None:
            order, _ = trackable.walk(root)
            missing = [obj for obj, _ in order if isinstance(obj, Variable)
                       and id(obj) not in self._restoration.live_matched]
            if missing:
                raise AssertionError(
                    f"Found {len(missing)} Python objects that were not bound to checkpointed values, likely due "
                    f"to changes in the Python program. Showing {min(len(missing), 10)} of {len(missing)} unmatched "
                    f"objects: {missing[:10]}")
        return self

    def assert_nontrivial_match(self):
        if len(self._restoration.matched) <= 1:
            raise AssertionError(f"Nothing except the root object matched a checkpointed value in "
                                 f"{self._restoration.path}")
        return self

    def expect_partial(self):
        """Silence the warning about values that found no object."""
        self._restoration.expect_partial = True
        return self

    def run_restore_ops(self, session=None):
        """TF1 graph variables get their values in `session` (or the default Session), as TF's restore ops
        give them when run; eager variables were assigned during restore."""
        for variable, value in self._restoration.session_assignments:
            variable._checkpoint_assign_in(session, value)

    def initialize_or_restore(self, session=None):
        """As run_restore_ops (TF also runs the initializers of unmatched variables: here they keep theirs)."""
        self.run_restore_ops(session)


class NameBasedSaverStatus:
    """`Checkpoint.restore` of a name-based (TF1 Saver) checkpoint: every variable reachable from the
    checkpoint's objects takes the value saved under its name (`scoped/c` for `scoped/c:0`), eagerly now, a TF1
    graph variable when `run_restore_ops` runs, as TF restores them (the save counter may be missing)."""

    def __init__(self, reader, root, save_path):
        self._unrestored: list = []
        self._session_assignments: list = []
        assignments = []
        order, _ = trackable.walk(root)
        for obj, _path in order:
            if not isinstance(obj, Variable):
                continue
            key = obj.name.rsplit(":", 1)[0]
            if not reader.has_tensor(key):
                if obj is not root._save_counter:
                    self._unrestored.append(obj)
                continue
            value = np.asarray(reader.get_tensor(key))
            if tuple(value.shape) != tuple(obj.shape):
                from tinytf.runtime.errors import InvalidArgumentError

                raise InvalidArgumentError(f"Restoring from checkpoint {save_path} failed: the variable {key} has "
                                           f"shape {list(obj.shape)}, the checkpoint's tensor {list(value.shape)}")
            assignments.append((obj, value))
        with init_scope():
            for variable, value in assignments:
                if getattr(variable, "_checkpoint_values_live_in_sessions", False):
                    self._session_assignments.append((variable, value))
                else:
                    variable.assign(value)

    def assert_consumed(self):
        if self._unrestored:
            listing = "".join(f"\n    {v!r}: [{v.name.rsplit(':', 1)[0]!r}]" for v in self._unrestored)
            raise AssertionError(f"Some objects had attributes which were not restored: {listing}")
        return self

    def assert_existing_objects_matched(self):
        return self.assert_consumed()  # a name-based checkpoint has no objects: the same check, as TF

    def assert_nontrivial_match(self):
        return self.assert_consumed()

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        for variable, value in self._session_assignments:
            variable._checkpoint_assign_in(session, value)

    def initialize_or_restore(self, session=None):
        self.run_restore_ops(session)


class InitializationOnlyStatus:
    """The status of `restore(None)`: nothing to restore (variables keep their initial values)."""

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    def assert_existing_objects_matched(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    def assert_nontrivial_match(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being restored.")

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        pass

    def initialize_or_restore(self, session=None):
        pass


module_attribute_hooks.append(restore_pending)
structure_mutation_hooks.append(restore_pending)
