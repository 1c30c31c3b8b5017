"""tf.train.TrackableView and tf.train.CheckpointView: the object graph of live trackables and of a checkpoint
on disk, and how they match (what a restore would assign, and what it would leave out)."""

from __future__ import annotations

import collections
import logging
import os
import weakref

from tensorboard.compat.proto import trackable_object_graph_pb2

from . import trackable
from .bundle import BundleReader


class TrackableView:
    """The trackable objects reachable from `root` (held weakly), by name, as a checkpoint would save them."""

    def __init__(self, root):
        self._root_ref = root if isinstance(root, weakref.ref) else weakref.ref(root)

    @classmethod
    def children(cls, obj, save_type="checkpoint", **kwargs) -> dict:
        """The trackables `obj` holds directly, by local name."""
        return dict(trackable.children(obj))

    @property
    def root(self):
        root = self._root_ref()
        assert root is not None, "the root of this TrackableView was deleted"
        return root

    def descendants(self) -> list:
        """Every trackable reachable from the root, breadth first, each once."""
        order, _ = trackable.walk(self.root)
        return [obj for obj, _path in order]


class CheckpointView:
    """The object graph stored in a checkpoint: node ids, their children by name, and matching against live
    objects."""

    def __init__(self, save_path):
        reader = BundleReader(os.fspath(save_path))
        if not reader.has_tensor(trackable.OBJECT_GRAPH_KEY):
            raise ValueError(f"The specified checkpoint \"{save_path}\" does not appear to be object-based (saved "
                             f"with TF2) since it is missing the key \"{trackable.OBJECT_GRAPH_KEY}\". Likely it "
                             "was created with the TF1 name-based saver and does not contain an object dependency "
                             "graph.")
        self._object_graph_proto = trackable_object_graph_pb2.TrackableObjectGraph()
        self._object_graph_proto.ParseFromString(reader.get_tensor(trackable.OBJECT_GRAPH_KEY))

    def children(self, node_id) -> dict:
        """The children of node `node_id`, local name -> node id."""
        return {child.local_name: child.node_id for child in self._object_graph_proto.nodes[node_id].children}

    def descendants(self) -> list:
        """Every node id reachable from the root (0), breadth first."""
        return list(self._descendants_with_paths())

    def _descendants_with_paths(self) -> dict:
        paths, to_visit = {0: "root"}, collections.deque([0])
        while to_visit:
            node_id = to_visit.popleft()
            for child in self._object_graph_proto.nodes[node_id].children:
                if child.node_id == 0 or child.node_id in paths:
                    continue
                to_visit.append(child.node_id)
                paths[child.node_id] = paths[node_id] + "." + child.local_name
        return paths

    def match(self, obj) -> dict:
        """node id -> the live trackable at the same path under `obj` (the root always matches)."""
        if not trackable.is_trackable(obj):
            raise ValueError(f"Expected a Trackable, got {obj} of type {type(obj)}.")
        overlapping = {0: obj}
        to_visit, visited = collections.deque([(0, obj)]), set()
        while to_visit:
            node_id, current = to_visit.popleft()
            live_children = TrackableView.children(current)
            for name, child_id in self.children(node_id).items():
                if child_id in visited or child_id == 0 or name not in live_children:
                    continue
                assigned = overlapping.get(child_id)
                if assigned is None:
                    overlapping[child_id] = live_children[name]
                    to_visit.append((child_id, live_children[name]))
                elif assigned is not live_children[name]:
                    logging.getLogger("tensorflow").warning(
                        "Inconsistent references when matching the checkpoint into this object graph. The "
                        f"referenced objects are: ({assigned} and {live_children[name]}).")
            visited.add(node_id)
        return overlapping

    def diff(self, obj) -> tuple:
        """(match(obj), node ids only in the checkpoint, trackables only under `obj`)."""
        overlapping = self.match(obj)
        matched = {id(v) for v in overlapping.values()}
        only_in_checkpoint = [node for node in self.descendants() if node not in overlapping]
        only_in_trackable = [t for t in TrackableView(obj).descendants() if id(t) not in matched]
        return overlapping, only_in_checkpoint, only_in_trackable
