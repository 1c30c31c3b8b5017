"""tf.compat.v1.make_template: wrap a function that makes its variables with get_variable so that every call
shares them. The first call opens a fresh variable scope (`name_`, made unique: `name_`, `name__1`, ...) and
creates the variables; later calls re-enter that scope with reuse=True. A later call that would create a
trainable variable (a tf.Variable where get_variable was meant) is an error, as in TF."""

from __future__ import annotations

import functools

from .variable_scope import variable_scope
from .variables import get_collection


class Template:
    def __init__(self, name, func, create_scope_now=False, unique_name=None, custom_getter=None):
        self._func = func
        self._name = name
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        self._variable_scope = None
        self._variables_created = False
        if create_scope_now:
            with variable_scope(unique_name, default_name=name, custom_getter=custom_getter) as scope:
                self._variable_scope = scope

    def __call__(self, *args, **kwargs):
        if self._variables_created:
            with variable_scope(self._variable_scope, reuse=True):
                before = len(get_collection("trainable_variables"))
                result = self._func(*args, **kwargs)
                if len(get_collection("trainable_variables")) != before:
                    raise ValueError("Trainable variable created when calling a template after the first time, "
                                     "perhaps you used tf.Variable when you meant tf.get_variable: "
                                     f"{get_collection('trainable_variables')[before:]}")
            return result
        if self._variable_scope is not None:
            with variable_scope(self._variable_scope):
                result = self._func(*args, **kwargs)
        else:
            with variable_scope(self._unique_name, default_name=self._name,
                                custom_getter=self._custom_getter) as scope:
                self._variable_scope = scope
                result = self._func(*args, **kwargs)
        self._variables_created = True
        return result

    @property
    def name(self) -> str:
        return self._name

    @property
    def func(self):
        return self._func

    @property
    def variable_scope(self):
        return self._variable_scope

    @property
    def variable_scope_name(self) -> str:
        """The scope's name with its trailing slash, as TF gives it."""
        if self._variable_scope is None:
            return None
        return self._variable_scope.name + "/"

    def _scoped(self, collection):
        if self._variable_scope is None:
            return []
        prefix = self._variable_scope.name + "/"
        return [v for v in get_collection(collection) if v.name.startswith(prefix)]

    @property
    def variables(self) -> list:
        return self._scoped("variables")

    global_variables = variables

    @property
    def trainable_variables(self) -> list:
        return self._scoped("trainable_variables")

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self) -> list:
        trainable = {id(v) for v in self.trainable_variables}
        return [v for v in self.variables if id(v) not in trainable]

    non_trainable_weights = non_trainable_variables

    @property
    def local_variables(self) -> list:
        return self._scoped("local_variables")

    @property
    def weights(self) -> list:
        return self.variables


def make_template(name_, func_, create_scope_now_=False, unique_name_=None, custom_getter_=None, **kwargs):
    """A Template of func_ (with **kwargs bound) that shares its get_variable variables between calls."""
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_, unique_name=unique_name_,
                    custom_getter=custom_getter_)


__all__ = ["Template", "make_template"]
