"""The optimizer base class (Keras 3's BaseOptimizer, as tf.keras is in TF 2.16+): the learning rate, the
`iterations` counter, slot variables, gradient clipping, decoupled weight decay and `apply_gradients`.

Every update is written with tinytf ops and Variable.assign*, so a train step traced by @tf.function turns
into graph nodes. Slot variables are created on the first update of each variable, which tf.function allows
on its first trace only, as TensorFlow does.
"""

from __future__ import annotations

import numbers
import re
import warnings

import numpy as np

from tinytf.distribute.context import current_replica_context
from tinytf.indexed_slices import IndexedSlices
from tinytf.runtime import dtypes, shapes
from tinytf.runtime.dispatch import convert_to_tensor
from tinytf.runtime.errors import at_user_line
from tinytf.runtime.ops.math import cast
from tinytf.runtime.tensor import Tensor
from tinytf.scopes import init_scope
from tinytf.train.checkpoint import restore_pending
from tinytf.variables import Variable

from ..naming import snake_case, unique_name
from . import optimizer_ema as ema
from .clipping import clip_by_global_norm, clip_by_norm, clip_by_value
from .schedules import LearningRateSchedule, deserialize, serialize

# Keras 3 options tinytf does not implement: accepted names that fail loudly rather than being ignored.
_UNSUPPORTED = ("loss_scale_factor", "gradient_accumulation_steps")


def as_dtype_constant(value, dtype):
    """`value` as a tensor of `dtype`: Python numbers convert directly (no float32 detour), tensors cast."""
    if isinstance(value, numbers.Number):
        return convert_to_tensor(value, dtype)
    return cast(value, dtype)


class Optimizer:
    """Base class of the Keras optimizers. Subclasses define `_slot_specs` and `update_step`."""

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None, global_clipnorm=None,
                 name=None, use_ema=False, ema_momentum=0.99, ema_overwrite_frequency=None, **kwargs):
        if "lr" in kwargs:
            raise ValueError("Argument `lr` is no longer supported. Use `learning_rate` instead.")
        unsupported = [k for k in kwargs if k in _UNSUPPORTED and kwargs[k] not in (None, False)]
        if unsupported:
            raise NotImplementedError(f"tinytf optimizers do not implement {unsupported}")
        unknown = [k for k in kwargs if k not in _UNSUPPORTED]
        if unknown:
            raise ValueError(f"Argument(s) not recognized: {unknown}")
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. Received: "
                             f"clipnorm={clipnorm}, clipvalue={clipvalue}, global_clipnorm={global_clipnorm}")
        # Keras 3: unnamed optimizers take their class name in snake case, made unique (adam, adam_1; RMSprop is
        # rm_sprop), from the counters layers use, which clear_session resets
        self.name = name or unique_name(snake_case(type(self).__name__))
        self.weight_decay = weight_decay
        if use_ema:
            if ema_momentum > 1 or ema_momentum < 0:
                raise ValueError(f"`ema_momentum` must be in the range [0, 1]. Received: ema_momentum={ema_momentum}")
            if ema_overwrite_frequency and (not isinstance(ema_overwrite_frequency, int)
                                            or ema_overwrite_frequency < 1):
                raise ValueError("`ema_overwrite_frequency` must be an integer >= 1 or None. Received: "
                                 f"ema_overwrite_frequency={ema_overwrite_frequency}")
        self.use_ema = use_ema
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self._averages: dict = {}  # with use_ema: variable.ref() -> its moving average (optimizer_ema.py)
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.built = False
        self._variables: list = []
        self._slots: dict = {}  # variable.ref() -> {slot name: Variable}
        self._excluded_from_decay: set = set()
        self._excluded_names: list = []
        self._step_cache: dict | None = None
        # Keras 3's TF optimizer remembers the strategy current at its construction: its slot variables are made
        # under that strategy's colocate_vars_with, which refuses any other current strategy (see _new_slot_scope)
        from tinytf.distribute.strategy import get_strategy

        self._distribution_strategy = get_strategy()
        with init_scope():
            self._iterations = Variable(np.int64(0), name=f"{self.name}/iteration", trainable=False,
                                        dtype=dtypes.int64)
        self._variables.append(self._iterations)
        self._learning_rate = self._learning_rate_from(learning_rate)

    # --- learning rate and counters -------------------------------------------------------------------
    def _learning_rate_from(self, learning_rate):
        """A schedule or a callable is kept as is; a number becomes a float32 variable (settable later)."""
        if isinstance(learning_rate, LearningRateSchedule) or callable(learning_rate):
            return learning_rate
        if isinstance(learning_rate, (Tensor, Variable)):
            learning_rate = float(np.asarray(learning_rate))
        if not isinstance(learning_rate, numbers.Real) or isinstance(learning_rate, bool):
            raise ValueError(f"Argument `learning_rate` should be float, a LearningRateSchedule or a callable. "
                             f"Received: learning_rate={learning_rate!r}")
        with init_scope():
            variable = Variable(np.float32(learning_rate), name=f"{self.name}/learning_rate", trainable=False)
        self._variables.append(variable)
        return variable

    @property
    def iterations(self) -> Variable:
        """How many times updates were applied (an int64 variable; schedules read it)."""
        return self._iterations

    @property
    def learning_rate(self):
        """The learning rate for the coming step: the variable, or the schedule's / callable's value now."""
        if isinstance(self._learning_rate, LearningRateSchedule):
            return self._learning_rate(self._iterations)
        if callable(self._learning_rate) and not isinstance(self._learning_rate, Variable):
            return self._learning_rate()
        return self._learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, LearningRateSchedule) or callable(value):
            self._learning_rate = value
        elif isinstance(self._learning_rate, LearningRateSchedule):
            raise TypeError("This optimizer was created with a `LearningRateSchedule` object as its `learning_rate` "
                            "constructor argument, hence its learning rate is not settable. If you need the "
                            "learning rate to be settable, you should instantiate the optimizer with a float "
                            "`learning_rate` argument.")
        elif isinstance(self._learning_rate, Variable):
            self._learning_rate.assign(as_dtype_constant(value, self._learning_rate.dtype))
        else:
            self._learning_rate = self._learning_rate_from(value)

    @property
    def variables(self) -> list:
        """The optimizer's own state: iterations, the learning-rate variable, then every slot variable."""
        return list(self._variables)

    # --- slot variables -------------------------------------------------------------------------------
    def _slot_specs(self) -> list:
        """(slot name, initial fill value) for each slot this optimizer keeps per trained variable."""
        return []

    def add_variable_from_reference(self, reference_variable, name, initializer="zeros") -> Variable:
        """A non-trainable variable shaped and typed like `reference_variable`, filled with `initializer`
        ("zeros", "ones", a number, or a callable(shape, dtype))."""
        shape = reference_variable._shape
        if shape is None or None in shape:
            shape = np.shape(np.asarray(reference_variable))
        dtype = reference_variable.dtype
        if callable(initializer):
            initial = lambda: initializer(shape, dtype)
        else:
            fill = {"zeros": 0, "ones": 1}.get(initializer, initializer)
            initial = np.full(shape, fill, dtype=dtype.np)
        base = reference_variable.name.split(":")[0].replace("/", "_")
        with self._new_slot_scope(reference_variable), init_scope():
            variable = Variable(initial, name=f"{self.name}/{base}_{name}", trainable=False, dtype=dtype)
        self._variables.append(variable)
        return variable

    def _new_slot_scope(self, reference_variable):
        """Where a slot variable is made: as Keras 3's TF backend, under the optimizer's strategy's
        colocate_vars_with, which raises TF's RuntimeError when another strategy (or none) is current: an
        optimizer made outside strategy.scope() cannot make slots for a model trained under it, and one made
        inside cannot make them outside."""
        strategy = getattr(self, "_distribution_strategy", None)  # None: a subclass that skipped __init__
        if strategy is None:
            from contextlib import nullcontext

            return nullcontext()
        return strategy.extended.colocate_vars_with(reference_variable)

    def _checkpoint_children(self):
        """What tf.train.Checkpoint saves of an optimizer, in Keras 3's layout (`_variables/N`, `_iterations`,
        `_learning_rate`), so its keys match a TF-written checkpoint's."""
        trained = [ref.deref() for ref in self._slots]  # Keras 3's `_trainable_variables`: what it has slots for
        children = [("_variables", self._variables), ("_trainable_variables", trained),
                    ("_iterations", self._iterations)]
        if isinstance(self._learning_rate, Variable):
            children.append(("_learning_rate", self._learning_rate))
        return children

    def _slots_for(self, variable) -> dict:
        key = variable.ref()
        slots = self._slots.get(key)
        if slots is None:
            slots = {name: self.add_variable_from_reference(variable, name, fill) for name, fill in self._slot_specs()}
            self._slots[key] = slots
            restore_pending(self._variables)  # checkpoint values restored before these slots existed
        return slots

    def get_slot(self, variable, name: str) -> Variable:
        """The slot variable `name` ("momentum", "velocity", ...) of `variable`."""
        slots = self._slots.get(variable.ref())
        if slots is None or name not in slots:
            raise KeyError(f"{self.name} has no slot {name!r} for variable {variable.name!r}")
        return slots[name]

    def build(self, var_list) -> None:
        """Create the slot variables of every variable in `var_list` now (otherwise: on its first update)."""
        var_list = list(var_list)
        if self.use_ema:
            ema.make_averages(self, [_checked_variable(v, self.name) for v in var_list])
        for variable in var_list:
            self._slots_for(_checked_variable(variable, self.name))
        self.built = True

    # --- applying gradients ---------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars, name=None, skip_gradients_aggregation=False, **kwargs) -> Variable:
        """Update each variable from its gradient. Takes (gradient, variable) pairs (a zip is fine); returns
        `iterations`. Pairs whose gradient is None are skipped with a warning."""
        pairs = list(grads_and_vars)
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise TypeError(at_user_line(f"{self.name}.apply_gradients expects (gradient, variable) pairs, "
                                             f"got {pair!r}"))
        self.apply([g for g, _ in pairs], [v for _, v in pairs])
        return self._iterations

    def apply(self, grads, trainable_variables) -> None:
        """Keras 3's `apply(grads, trainable_variables)`: everything is checked before any variable changes."""
        grads, trainable_variables = list(grads), list(trainable_variables)
        if len(grads) != len(trainable_variables):
            raise ValueError(f"{self.name}.apply: got {len(grads)} gradients for {len(trainable_variables)} "
                             "variables")
        if not grads:
            return
        grads, trainable_variables = self._filter_empty_gradients(grads, trainable_variables)
        trainable_variables = [_checked_variable(v, self.name) for v in trainable_variables]
        sparse = [g if isinstance(g, IndexedSlices) else None for g in grads]
        grads = [self._checked_gradient(g, v) for g, v in zip(grads, trainable_variables)]
        replica = current_replica_context()
        if replica is not None and replica.strategy._merges_updates and not replica.merging:
            # inside strategy.run: the strategy all-reduces the gradients, then updates (tf.distribute)
            replica.strategy._merge_apply(replica, self, grads, trainable_variables)
            return
        if self.use_ema:  # Keras builds the averages first: they come before the slots in `variables`
            ema.make_averages(self, trainable_variables)
        for variable in trainable_variables:
            self._slots_for(variable)
        self.built = True
        clipped = self._clip_gradients(grads)
        learning_rate = self.learning_rate
        self._step_cache = {}  # values shared by all variables of this step (bias corrections, casts)
        if clipped is grads:  # unclipped sparse gradients keep Keras 3's squares of their rows (see _square)
            for rows, dense in zip(sparse, grads):
                if rows is not None:
                    self._step_cache[("squared rows", id(dense))] = _squared_rows(rows, dense.dtype)
        grads = clipped
        try:
            self._apply_weight_decay(trainable_variables, learning_rate)
            self._before_updates(trainable_variables)
            for gradient, variable in zip(grads, trainable_variables):
                self.update_step(gradient, variable, learning_rate)
        finally:
            self._step_cache = None
        if self.use_ema:
            ema.update_averages(self)
        for variable in trainable_variables:
            if getattr(variable, "constraint", None) is not None:
                variable.assign(variable.constraint(variable))
        self._iterations.assign_add(1)

    def _before_updates(self, trainable_variables) -> None:
        """Runs once per step, after weight decay and before the first `update_step` (Nadam's momentum product,
        Keras' `_backend_update_step` override)."""

    def scale_loss(self, loss):
        """The loss as the trainer differentiates it: unscaled here; LossScaleOptimizer multiplies it by its scale."""
        return loss

    def update_step(self, gradient, variable, learning_rate) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement update_step(gradient, variable, "
                                  "learning_rate)")

    def _square(self, gradient):
        """square(gradient) as Keras 3 computes it on TF: for a gradient that came as IndexedSlices (a gather's,
        e.g. an Embedding's) the rows are squared before repeated indices are summed, so a row gathered twice
        adds g1^2 + g2^2 to Adam's, RMSprop's and Adagrad's second moments, not (g1 + g2)^2."""
        from tinytf.runtime.ops.math import square

        if self._step_cache is not None:
            rows = self._step_cache.get(("squared rows", id(gradient)))
            if rows is not None:
                return rows
        return square(gradient)

    def _per_step(self, key, make):
        """A value computed once per apply step (shared by all variables of that dtype)."""
        if self._step_cache is None:
            return make()
        if key not in self._step_cache:
            self._step_cache[key] = make()
        return self._step_cache[key]

    def _cast_learning_rate(self, learning_rate, dtype):
        return self._per_step(("lr", dtype), lambda: as_dtype_constant(learning_rate, dtype))

    def _local_step(self, dtype):
        """iterations + 1 as `dtype`: the 1-based number of the step being applied (bias corrections)."""
        return self._per_step(("step", dtype), lambda: cast(self._iterations + 1, dtype))

    def _filter_empty_gradients(self, grads, variables):
        kept = [(g, v) for g, v in zip(grads, variables) if g is not None]
        if not kept:
            raise ValueError("No gradients provided for any variable.")
        missing = [getattr(v, "name", repr(v)) for g, v in zip(grads, variables) if g is None]
        if missing:
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing the loss. If using "
                          "`model.compile()`, did you forget to provide a `loss` argument?", UserWarning,
                          stacklevel=4)
        return [g for g, _ in kept], [v for _, v in kept]

    def _checked_gradient(self, gradient, variable):
        """The gradient as a tensor of the variable's dtype; a shape that cannot match raises before any update."""
        if not isinstance(gradient, Tensor):
            gradient = convert_to_tensor(gradient)
        if not shapes.compatible(gradient._shape, variable._shape):
            raise ValueError(at_user_line(
                f"{self.name}.apply_gradients: the gradient for variable {variable.name!r} has shape "
                f"{shapes.fmt(gradient._shape)}, but the variable has shape {shapes.fmt(variable._shape)}; shapes "
                "must be equal. No variable was updated."))
        if gradient.dtype is not variable.dtype:
            if not (gradient.dtype.is_floating or gradient.dtype.is_integer):
                raise TypeError(at_user_line(f"{self.name}.apply_gradients: the gradient for variable "
                                             f"{variable.name!r} has dtype {gradient.dtype.name}"))
            gradient = cast(gradient, variable.dtype)
        return gradient

    def _clip_gradients(self, grads):
        """Keras 3: clipnorm per gradient, else global_clipnorm over all, else clipvalue elementwise."""
        if self.clipnorm and self.clipnorm > 0:
            return [clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            return clip_by_global_norm(grads, self.global_clipnorm)
        if self.clipvalue and self.clipvalue > 0:
            return [clip_by_value(g, self.clipvalue) for g in grads]
        return grads

    # --- decoupled weight decay -----------------------------------------------------------------------
    def exclude_from_weight_decay(self, var_list=None, var_names=None) -> None:
        """Variables (or names matched as regular expressions) that weight decay leaves alone."""
        for variable in var_list or []:
            self._excluded_from_decay.add(variable.ref())
        self._excluded_names.extend(var_names or [])

    def _use_weight_decay(self, variable) -> bool:
        if variable.ref() in self._excluded_from_decay:
            return False
        return not any(re.search(name, variable.name) for name in self._excluded_names)

    def _apply_weight_decay(self, variables, learning_rate) -> None:
        """variable -= variable * weight_decay * learning_rate, before the gradient update (Keras 3 order)."""
        if self.weight_decay is None:
            return
        for variable in variables:
            if self._use_weight_decay(variable):
                lr = self._cast_learning_rate(learning_rate, variable.dtype)
                decay = as_dtype_constant(self.weight_decay, variable.dtype)
                variable.assign(variable - variable * decay * lr)

    # --- minimize -------------------------------------------------------------------------------------
    def compute_gradients(self, loss, var_list, tape=None) -> list:
        """(gradient, variable) pairs of `loss` (a callable, or a tensor computed under `tape`)."""
        from tinytf.gradient_tape import GradientTape

        if not callable(loss) and tape is None:
            raise ValueError(f"`tape` is required when a `Tensor` loss is passed. Received: loss={loss}, "
                             f"tape={tape}.")
        if tape is None:
            tape = GradientTape()
        if callable(loss):
            with tape:
                if not callable(var_list):
                    tape.watch(var_list)
                loss = loss()
                if callable(var_list):
                    var_list = var_list()
        elif callable(var_list):
            var_list = var_list()
        var_list = list(var_list)
        grads = tape.gradient(loss, var_list)
        return list(zip(grads, var_list))

    def minimize(self, loss, var_list, tape=None) -> None:
        """Compute the gradients of `loss` with respect to `var_list` and apply them (one step)."""
        self.apply_gradients(self.compute_gradients(loss, var_list, tape))

    # --- configuration --------------------------------------------------------------------------------
    def get_config(self) -> dict:
        learning_rate = self._learning_rate
        if isinstance(learning_rate, LearningRateSchedule):
            learning_rate = serialize(learning_rate)
        elif isinstance(learning_rate, Variable):
            learning_rate = float(learning_rate.numpy())
        config = {"name": self.name, "learning_rate": learning_rate, "weight_decay": self.weight_decay,
                  "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm, "clipvalue": self.clipvalue}
        if self.use_ema:
            config.update(use_ema=True, ema_momentum=self.ema_momentum,
                          ema_overwrite_frequency=self.ema_overwrite_frequency)
        return config

    def finalize_variable_values(self, var_list) -> None:
        """What fit calls when it ends: with use_ema, the model's variables take their moving averages."""
        if self.use_ema:
            ema.overwrite_with_averages(self, var_list)

    @classmethod
    def from_config(cls, config: dict):
        config = dict(config)
        if isinstance(config.get("learning_rate"), dict):
            config["learning_rate"] = deserialize(config["learning_rate"])
        return cls(**config)

    def __repr__(self):
        return f"<tinytf.keras.optimizers.{type(self).__name__} name={self.name!r}>"


def _checked_variable(variable, optimizer_name):
    if not isinstance(variable, Variable):
        raise TypeError(at_user_line(f"{optimizer_name}: can only update tf.Variable objects, got "
                                     f"{type(variable).__name__} {variable!r}"))
    return variable


def _squared_rows(gradient, dtype):
    """The dense sum of the squared rows of an IndexedSlices gradient (repeated indices summed after squaring)."""
    from tinytf.runtime.ops.math import square

    values = gradient.values if gradient.dtype is dtype else cast(gradient.values, dtype)
    return convert_to_tensor(IndexedSlices(square(values), gradient.indices, gradient.dense_shape))
