"""What RayStrategy keeps in step between the driver and its workers: the tf.Variables an object reaches
(shipped once, refreshed from worker 0 after each run) and the slot variables an optimizer creates on a worker
after shipping (Adam's moments on its first apply_gradients). A slot born on a worker has no twin on the driver;
without one, the driver would checkpoint a model whose optimizer forgot its moments. So each worker reports its
new slots as (optimizer index, index of the variable it belongs to, slot name), in creation order, and the
driver makes the same slots on its own optimizer; both then append them to the object's variable list, so later
refreshes carry their values like any other variable."""

from __future__ import annotations

import io

from ray import cloudpickle


def reachable(obj, kind) -> list:
    """The instances of `kind` a pickle of `obj` would contain, in pickling order (first occurrence)."""
    found, seen = [], set()

    class Finder(cloudpickle.CloudPickler):
        def persistent_id(self, value):
            if isinstance(value, kind) and id(value) not in seen:
                seen.add(id(value))
                found.append(value)
            return None

    Finder(io.BytesIO()).dump(obj)
    return found


def _optimizer_class():
    from tinytf.keras.optimizers.optimizer import Optimizer

    return Optimizer


class ShippedObject:
    """One shipped object on either side: the object, its variables (the list refreshes follow) and the
    optimizers it reaches (in the same order on both sides: the pickling order)."""

    def __init__(self, obj, variables: list):
        self.obj = obj
        self.variables = variables
        self.optimizers = reachable(obj, _optimizer_class())
        self._known = {id(v) for v in variables}

    def take_new_slots(self) -> list:
        """On a worker: the slots created since the last call, as descriptors; they join `variables`."""
        new = []
        index_of = {id(v): i for i, v in enumerate(self.variables)}
        for opt_index, optimizer in enumerate(self.optimizers):
            for ref, slots in optimizer._slots.items():
                for name, slot in slots.items():
                    if id(slot) in self._known:
                        continue
                    owner = index_of.get(id(ref.deref()))
                    if owner is None:  # a slot of a variable that was not shipped: nothing to pair it with
                        continue
                    new.append((opt_index, owner, name))
                    self._known.add(id(slot))
                    self.variables.append(slot)
        return new

    def adopt_slots(self, descriptors: list) -> None:
        """On the driver: make the slots a worker reported, in its order, and follow them from now on."""
        for opt_index, owner, name in descriptors:
            slot = self.optimizers[opt_index]._slots_for(self.variables[owner])[name]
            self._known.add(id(slot))
            self.variables.append(slot)
