"""`tf.train.ExponentialMovingAverage` (TF2 and TF1): a shadow variable per variable, `name/ExponentialMovingAverage`,
moved toward it by each apply(): shadow -= (1 - decay) * (shadow - value), where decay is min(decay, (1 +
num_updates) / (10 + num_updates)) when num_updates is given. Eagerly apply() updates at once; in a TF1 graph it
returns the op that does, and the shadows join MOVING_AVERAGE_VARIABLES. The average of a tensor (not a variable)
starts at zeros, and with zero_debias=True is divided by 1 - decay ** steps, as TF's _zero_debias does."""

from __future__ import annotations

import numpy as np

from tinytf.runtime import naming
from tinytf.runtime.context import state

from ...variables import Variable
from .variable_scope import enclosing_tf1_graph


def _tf():
    import tinytf

    return tinytf


class ExponentialMovingAverage:
    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages: dict = {}  # id(variable) -> (variable, shadow)
        self._debias: dict = {}  # id(tensor) -> (biased, local_step), for zero-debiased averages of tensors

    @property
    def name(self) -> str:
        return self._name

    def _shadow_for(self, variable):
        tf = _tf()
        known = self._averages.get(id(variable))
        if known is not None:
            return known[1]
        if variable.dtype not in (tf.float16, tf.float32, tf.float64, tf.bfloat16):
            raise TypeError(f"The variables must be half, float, or double: {variable.name}")
        is_variable = isinstance(variable, Variable)
        saved = list(naming.scope_stack)
        naming.scope_stack.clear()  # TF names the shadow after its variable, outside any name scope
        try:
            if is_variable:
                with tf.init_scope():
                    initial = variable.read_value() if state.graph is None else variable.initial_value
            else:  # a tensor's average starts at zeros (and may be zero-debiased)
                if not variable.shape.is_fully_defined():
                    raise ValueError(f"ExponentialMovingAverage: the shape of {variable.name} must be known, got "
                                     f"{variable.shape}")
                initial = np.zeros(variable.shape.as_list(), variable.dtype.as_numpy_dtype)
            shadow = Variable(initial, trainable=False, name=f"{_base(variable)}/{self._name}")
            if self._zero_debias and not is_variable:
                self._debias[id(variable)] = None  # made by the first apply's update, after every shadow (as TF)
        finally:
            naming.scope_stack[:] = saved
        graph = enclosing_tf1_graph()
        if graph is not None and is_variable:
            graph.collections.setdefault("moving_average_variables", []).append(variable)
        self._averages[id(variable)] = (variable, shadow)
        return shadow

    def apply(self, var_list=None):
        """Create the shadows (the first time) and move them toward the variables (or tensors)."""
        tf = _tf()
        if var_list is None:
            var_list = tf.compat.v1.trainable_variables()
        var_list = list(var_list)
        shadows = [self._shadow_for(v) for v in var_list]
        decay = tf.convert_to_tensor(self._decay, dtype=tf.float32)
        if self._num_updates is not None:
            num_updates = tf.cast(self._num_updates, tf.float32)
            decay = tf.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
        updates = []
        for variable, shadow in zip(var_list, shadows):
            rate = tf.cast(1.0 - decay, shadow.dtype)
            value = tf.convert_to_tensor(variable)
            if id(variable) not in self._debias:
                updates.append(shadow.assign_sub((shadow - value) * rate))
                continue
            debias = self._debias[id(variable)] or self._debias_variables(variable, shadow)
            # zero_debias: the biased average moves toward the value from zeros; the shadow is it divided by
            # 1 - decay ** steps, which removes the pull toward the zeros it started from
            biased, local_step = debias
            new_biased = biased.read_value() - (biased.read_value() - value) * rate
            new_step = local_step.read_value() + 1
            updates += [biased.assign(new_biased), local_step.assign(new_step),
                        shadow.assign(new_biased / (1 - tf.pow(1.0 - rate, new_step)))]
        if enclosing_tf1_graph() is not None and state.graph is not None:
            return tf.group(*updates, name=self._name)
        return None

    def _debias_variables(self, tensor, shadow):
        """TF's _zero_debias variables: the biased average and its step count, in the shadow's scope."""
        saved = list(naming.scope_stack)
        naming.scope_stack.clear()
        try:
            zeros = np.zeros(tensor.shape.as_list(), tensor.dtype.as_numpy_dtype)
            made = (Variable(zeros, trainable=False, name=f"{_base(shadow)}/biased"),
                    Variable(np.zeros([], tensor.dtype.as_numpy_dtype), trainable=False,
                             name=f"{_base(shadow)}/local_step"))
        finally:
            naming.scope_stack[:] = saved
        self._debias[id(tensor)] = made
        return made

    def average(self, var):
        found = self._averages.get(id(var))
        return found[1] if found else None

    def average_name(self, var) -> str:
        return f"{_base(var)}/{self._name}"

    def variables_to_restore(self, moving_avg_variables=None):
        """{checkpoint name: variable}: each averaged variable restores from its average's name."""
        tf = _tf()
        if moving_avg_variables is None:
            moving_avg_variables = tf.compat.v1.trainable_variables() + tf.compat.v1.get_collection(
                "moving_average_variables")
        names = {}
        for variable in moving_avg_variables:
            names[self.average_name(variable)] = variable
        shadows = {id(s) for _, s in self._averages.values()}
        averaged = {id(v) for v in moving_avg_variables}
        for variable in tf.compat.v1.global_variables():
            if id(variable) not in shadows and id(variable) not in averaged:
                names[_base(variable)] = variable
        return names


def _base(variable) -> str:
    return variable.name.rsplit(":", 1)[0]


__all__ = ["ExponentialMovingAverage"]
