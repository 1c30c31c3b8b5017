"""keras.dtype_policies.DTypePolicyMap: policies by layer path (a key is a regular expression that must match a
whole path; a path matching two keys is an error) and a default policy whose dtypes the map itself reports.
tinytf's layers given a map use its default policy (they do not look their own path up)."""

from __future__ import annotations

import re
from collections.abc import MutableMapping

from .dtype_policy import DTypePolicy


def _get(identifier):
    from . import get
    return get(identifier)


class DTypePolicyMap(DTypePolicy, MutableMapping):
    def __init__(self, default_policy=None, policy_map=None):
        if isinstance(default_policy, DTypePolicyMap):
            raise ValueError("`default_policy` cannot be a `DTypePolicyMap`.")
        if policy_map is not None and not isinstance(policy_map, dict):
            raise TypeError(f"If specified, `policy_map` must be a dict. Received: policy_map={policy_map} of type "
                            f"{type(policy_map)}")
        self._default_policy_arg = default_policy
        self._default_policy = _get(default_policy)
        self._policy_map = policy_map or {}

    @property
    def name(self):
        return f"map_{self.default_policy._name}"

    @property
    def default_policy(self):
        return _get(self._default_policy)

    @property
    def variable_dtype(self):
        return self.default_policy.variable_dtype

    @property
    def compute_dtype(self):
        return self.default_policy.compute_dtype

    @property
    def quantization_mode(self):
        return self.default_policy.quantization_mode

    def __getitem__(self, key):
        if key in self._policy_map:
            return self._policy_map[key]
        matching = [pattern for pattern in self._policy_map if re.fullmatch(pattern, key)]
        if len(matching) > 1:
            raise ValueError(f"Path '{key}' matches multiple dtype policy specification keys: {matching}. Please make "
                             "sure each path only matches at most one dtype policy specification key in the "
                             "DTypePolicyMap.")
        return self._policy_map[matching[0]] if matching else self.default_policy

    def __setitem__(self, key, policy):
        if key in self._policy_map:
            raise ValueError(f"{key} already exist in the DTypePolicyMap with value {self._policy_map[key]}. Please "
                             "make sure to not use duplicated keys.")
        try:
            policy = _get(policy)
        except Exception:  # noqa: BLE001 - Keras turns any failure into this message
            raise ValueError("Cannot interpret the assigned value by `keras.dtype_policies.get`. Received: "
                             f"{policy} of type {type(policy)}") from None
        self._policy_map[key] = policy

    def __delitem__(self, key):
        return self._policy_map.pop(key)

    def __contains__(self, key):
        return key in self._policy_map

    def __len__(self):
        return len(self._policy_map)

    def __iter__(self):
        return iter(self._policy_map)

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)

    def get_config(self) -> dict:
        from . import serialize
        return {"default_policy": self._default_policy_arg,
                "policy_map": {k: serialize(v) for k, v in self._policy_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from . import deserialize
        config = dict(config)
        config["policy_map"] = {k: deserialize(v, custom_objects) if isinstance(v, dict) else v
                                for k, v in (config.get("policy_map") or {}).items()}
        return cls(**config)

    def __repr__(self):
        default = self._default_policy.name if self._default_policy is not None else None
        mapping = [(k, v.name) for k, v in self._policy_map.items()]
        return f"<DTypePolicyMap at {hex(id(self))} default_policy={default}, mapping={mapping}>"
