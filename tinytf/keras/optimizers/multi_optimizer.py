"""keras.optimizers.MultiOptimizer and OptimizerMap (Keras 3.15): each variable is trained by the optimizer its
path maps to (`OptimizerMap(default_optimizer, {"encoder/.*": Adam()})`: an exact key first, else the one
regular expression that fully matches, else the default), or that a callable picks. The sub-optimizers keep
their own state and iterations; the MultiOptimizer counts its own steps and has no learning rate of its own."""

from __future__ import annotations

import re
from collections.abc import MutableMapping

from .loss_scale_optimizer import LossScaleOptimizer
from .optimizer import Optimizer


class OptimizerMap(MutableMapping):
    def __init__(self, default_optimizer, optimizer_map=None):
        if not isinstance(default_optimizer, Optimizer):
            raise TypeError(f"default_optimizer must be a Keras Optimizer instance. Received: {default_optimizer}")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(f"optimizer_map must be a dictionary. Received: {optimizer_map}")
        self._default_optimizer = default_optimizer
        self._optimizer_map = optimizer_map or {}

    @property
    def default_optimizer(self):
        return self._default_optimizer

    def __getitem__(self, key):
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matching = [pattern for pattern in self._optimizer_map if re.fullmatch(pattern, key)]
        if len(matching) > 1:
            raise ValueError(f"Multiple optimizers assigned to variable {key}.")
        if matching:
            return self._optimizer_map[matching[0]]
        return self.default_optimizer

    def __setitem__(self, key, optimizer):
        if key in self._optimizer_map:
            raise ValueError(f"'{key}' already exists in the OptimizerMap with value {self._optimizer_map[key]}. "
                             "Please make sure to not use duplicated keys.")
        if not isinstance(key, str):
            raise ValueError(f"key must be a string. Received: {key}")
        if not isinstance(optimizer, Optimizer):
            raise ValueError(f"optimizer must be a Keras Optimizer instance. Received: {optimizer}")
        if isinstance(optimizer, LossScaleOptimizer):
            raise ValueError("optimizer cannot be LossScaleOptimizer.")
        if isinstance(optimizer, MultiOptimizer):
            raise ValueError("optimizer cannot be MultiOptimizer.")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        return self[variable.path]

    def get_config(self):
        from . import serialize

        return {"default_optimizer": serialize(self._default_optimizer),
                "optimizer_map": {key: serialize(opt) for key, opt in self._optimizer_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from . import deserialize

        return cls(deserialize(dict(config["default_optimizer"]), custom_objects),
                   {key: deserialize(dict(value), custom_objects)
                    for key, value in (config.get("optimizer_map") or {}).items()})


class MultiOptimizer(Optimizer):
    """`MultiOptimizer(OptimizerMap(...))` or `MultiOptimizer(lambda variable: ...)`; `.optimizers` lists
    the sub-optimizers (the map's values, the default, then any the callable returns)."""

    def __init__(self, optimizer_map, loss_scale_factor=None, name=None):
        super().__init__(learning_rate=0.0, loss_scale_factor=loss_scale_factor, name=name)
        self._optimizer_map = optimizer_map
        self._inner_optimizers: list = []
        self._var_to_optimizer_idx: dict = {}
        for optimizer in list(getattr(optimizer_map, "values", list)()) + [
                getattr(optimizer_map, "default_optimizer", None)]:
            if optimizer is not None and optimizer not in self._inner_optimizers:
                self._inner_optimizers.append(optimizer)

    def build(self, var_list) -> None:
        if self.built:
            return
        var_list = list(var_list)
        groups = [[] for _ in self._inner_optimizers]
        for variable in var_list:
            optimizer = self._optimizer_map(variable)
            if not isinstance(optimizer, Optimizer):
                raise ValueError(f"Optimizer for variable {variable} is not an Optimizer instance.")
            if isinstance(optimizer, LossScaleOptimizer):
                raise ValueError("LossScaleOptimizer cannot be used inside an MultiOptimizer.")
            if isinstance(optimizer, MultiOptimizer):
                raise ValueError("MultiOptimizer cannot be used inside an MultiOptimizer.")
            if optimizer not in self._inner_optimizers:
                self._inner_optimizers.append(optimizer)
                groups.append([])
            index = self._inner_optimizers.index(optimizer)
            self._var_to_optimizer_idx[variable.ref()] = index
            groups[index].append(variable)
        for optimizer, variables in zip(self._inner_optimizers, groups):
            if variables:
                optimizer.build(variables)
        self._trainable = var_list
        self.built = True

    @property
    def optimizers(self) -> list:
        return self._inner_optimizers

    @property
    def variables(self) -> list:
        found = list(self._variables)
        for optimizer in self._inner_optimizers:
            found.extend(optimizer.variables)
        return found

    @property
    def learning_rate(self):
        raise AttributeError("Learning rate cannot be accessed on a MultiOptimizer. Access the learning rate on the "
                             "individual sub-optimizers instead.")

    @learning_rate.setter
    def learning_rate(self, value):
        raise AttributeError("Learning rate cannot be set on a MultiOptimizer. Set the learning rate on the "
                             "individual sub-optimizers instead.")

    def apply(self, grads, trainable_variables=None) -> None:
        grads = list(grads)
        if not grads:
            return
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `variables`, the optimizer must already be built on "
                                 "a list of variables. Call `optimizer.build(trainable_variables)` first.")
            trainable_variables = self._trainable
        trainable_variables = list(trainable_variables)
        if not self.built:
            self.build(trainable_variables)
        if len(grads) != len(self._var_to_optimizer_idx):
            raise ValueError(f"Gradients must match trainable variables one-to-one. Received {len(grads)} gradients "
                             f"and {len(self._var_to_optimizer_idx)} variables.")
        pairs = [[] for _ in self._inner_optimizers]
        for gradient, variable in zip(grads, trainable_variables):
            pairs[self._var_to_optimizer_idx[variable.ref()]].append((gradient, variable))
        for optimizer, group in zip(self._inner_optimizers, pairs):
            if group:
                optimizer.apply([g for g, _ in group], [v for _, v in group])
        self._iterations.assign_add(1)

    def finalize_variable_values(self, var_list) -> None:
        groups = [[] for _ in self._inner_optimizers]
        for variable in var_list:
            index = self._var_to_optimizer_idx.get(variable.ref())
            if index is not None:
                groups[index].append(variable)
        for optimizer, variables in zip(self._inner_optimizers, groups):
            if variables:
                optimizer.finalize_variable_values(variables)

    def _checkpoint_children(self):
        return super()._checkpoint_children() + [("_inner_optimizers", list(self._inner_optimizers))]

    def get_config(self) -> dict:
        if not isinstance(self._optimizer_map, OptimizerMap):
            raise NotImplementedError("A MultiOptimizer made from a callable cannot be serialized: give it an "
                                      "OptimizerMap")
        return {"optimizer_map": {"module": "keras.src.optimizers.multi_optimizer", "class_name": "OptimizerMap",
                                  "config": self._optimizer_map.get_config(), "registered_name": "OptimizerMap"},
                "loss_scale_factor": None, "name": self.name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        mapping = config["optimizer_map"]
        if isinstance(mapping, dict) and mapping.get("class_name") == "OptimizerMap":
            config["optimizer_map"] = OptimizerMap.from_config(mapping["config"], custom_objects)
        return cls(**config)
