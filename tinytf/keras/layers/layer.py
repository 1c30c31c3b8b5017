"""keras.layers.Layer: the base of every layer and model. A layer owns weights (made by add_weight, usually
in `build`, which runs on the first call with the input's shape), finds the layers and variables kept in
its attributes (also inside lists and dicts), hands `training` down to inner layers as Keras 3 does, checks
its inputs against `input_spec`, collects losses, and serializes through get_config/from_config."""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np

import tinytf as _tf
from tinytf.runtime import nest
from tinytf.runtime.tensor import Tensor
from tinytf.train.checkpoint import restore_pending
from tinytf.variables import Variable

from .. import activations, constraints, dtype_policies, initializers, masking, naming, regularizers, stateless_scope
from ..dtype_policies import DTypePolicy
from ..mixed_precision.autocast_scope import scope_for_layer
from ..variable import KerasVariable
from . import call_context
from .input_spec import assert_input_compatibility

# The name scopes of the layer calls (and add_weight calls) in progress: a weight's path is
# "outer/inner/kernel".
_path_stack: list = []
# True while a layer runs its call on symbolic inputs to build itself (inner layers then build normally).
_running_to_build = False


def dtype_policy_config(policy) -> dict:
    """Keras 3's serialized DTypePolicy, the form get_config stores `dtype` in (from a policy or its name)."""
    name = policy.name if isinstance(policy, DTypePolicy) else policy
    return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": name}, "registered_name": None}


def _dtype_name(dtype) -> str:
    if dtype is None:
        return "float32"
    if isinstance(dtype, dict):  # a serialized DTypePolicy
        return dtype["config"]["name"]
    if hasattr(dtype, "name") and not isinstance(dtype, str):
        return dtype.name
    return _tf.as_dtype(dtype).name


def _positional_weight_args(args, shape, initializer, dtype):
    """Keras 3 takes `add_weight(shape, initializer, dtype)` positionally; a Keras 2 call that starts with the
    name (`add_weight('kernel', shape=...)`) is refused with the fix, as Keras 3 does."""
    if len(args) > 3:
        raise TypeError(f"add_weight() takes at most 3 positional arguments but {len(args)} were given.")
    if isinstance(args[0], str):
        raise ValueError("`name` must be passed as a keyword argument. "
                         f"Received: add_weight('{args[0]}', ...). Use: add_weight(shape=..., name='{args[0]}').")
    given = [shape, initializer, dtype]
    for i, (label, value) in enumerate(zip(("shape", "initializer", "dtype"), args)):
        if given[i] is not None:
            raise ValueError(f"`{label}` was passed both positionally and as a keyword argument.")
        given[i] = value
    return tuple(given)


def _checked_name(name, class_name: str) -> str:
    """Keras 3's rule: None gets a unique snake_case name; any other name is kept as given ("" included), and
    must be a string without "/" (it is one level of the weights' paths)."""
    if name is None:
        return naming.unique_name(naming.snake_case(class_name))
    if not isinstance(name, str) or "/" in name:
        raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                         f"Received: name={name} (of type {type(name)})")
    return name


class _PathScope:
    """Pushes a layer's name on the weight-path stack, unless that layer is already the innermost one."""

    def __init__(self, layer):
        self.layer = layer
        self.pushed = False

    def __enter__(self):
        if not _path_stack or _path_stack[-1] is not self.layer:
            _path_stack.append(self.layer)
            self.pushed = True

    def __exit__(self, *exc):
        if self.pushed:
            _path_stack.pop()
        return False


def _current_path() -> str:
    # a layer named "" (Keras' tutorials write `super().__init__(name='')`) adds no level to its weights' paths
    return "/".join(layer.name for layer in _path_stack if layer.name)


def _shape_tuple(x):
    shape = getattr(x, "shape", None)
    if shape is None:
        return None
    return tuple(shape.as_list()) if hasattr(shape, "as_list") else tuple(shape)



def _unquantized(policy, layer):
    """The policy, unless it quantizes: tinytf's layers have no int8/int4/float8/GPTQ/AWQ kernels, so computing
    such a layer in float would silently give other numbers than Keras."""
    if policy.quantization_mode is not None:
        raise NotImplementedError(f"Layer '{layer.name}' ({type(layer).__name__}) was given the quantized dtype policy "
                                  f"{policy.name!r}: tinytf's layers have no quantized kernels (quantization mode "
                                  f"{policy.quantization_mode!r}).")
    return policy

class Layer:
    """Base class of layers: override `build(input_shape)` to make weights and `call(inputs)` to compute."""

    # Attributes that hold bookkeeping, never tracked sublayers or weights (subclasses add theirs).
    _untracked_attributes = frozenset()

    def __init__(self, *, activity_regularizer=None, trainable: bool = True, dtype=None, autocast: bool = True,
                 name: str | None = None, input_shape=None, input_dim=None, batch_input_shape=None,
                 input_length=None, **kwargs):
        unknown = set(kwargs) - {"batch_size", "weights"}
        if unknown:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                             f"{ {k: kwargs[k] for k in sorted(unknown)} }")
        self.name = _checked_name(name, type(self).__name__)
        self._dtype_policy = _unquantized(dtype_policies.get(dtype), self)  # None: the global policy
        self._dtype_name = self._dtype_policy.compute_dtype
        self._trainable = bool(trainable)
        self.autocast = autocast
        self.built = False
        self.input_spec = None
        # Keras 3: a layer that overrides compute_mask supports masking; others opt in by setting this True
        self.supports_masking = type(self).compute_mask is not Layer.compute_mask
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self._trainable_own: list = []
        self._non_trainable_own: list = []
        self._losses: list = []
        self._inbound_nodes: list = []
        self._build_input_shape = None
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if input_shape is not None:
            # Keras 3 still honours the argument but steers users to `keras.Input`, with this warning.
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When using Sequential "
                          "models, prefer using an `Input(shape)` object as the first layer in the model "
                          "instead.", stacklevel=2)
        if batch_input_shape is not None:
            self._batch_input_shape = tuple(batch_input_shape)
        elif input_shape is not None:
            self._batch_input_shape = (kwargs.get("batch_size"),) + tuple(input_shape)
        else:
            self._batch_input_shape = None
        call_parameters = inspect.signature(self.call).parameters
        self._call_has_training = "training" in call_parameters
        self._call_has_mask = "mask" in call_parameters
        self._call_training_default = (call_parameters["training"].default
                                       if self._call_has_training else None)
        if self._call_training_default is inspect.Parameter.empty:
            self._call_training_default = None
        positional = [name for name, p in call_parameters.items()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        # Keras binds call's first argument by name too: layer(x=x) and layer(inputs=x) are layer(x)
        self._call_first_argument = positional[0] if positional else None

    # --- what the layer is ------------------------------------------------------------------------------------
    @property
    def dtype(self) -> str:
        """The dtype of the layer's weights, as Keras 3 reports it (a string: "float32"): its variable dtype."""
        return self.variable_dtype

    @property
    def compute_dtype(self) -> str:
        """The dtype float inputs are cast to and the layer computes in (float16 under "mixed_float16")."""
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self) -> str:
        """The dtype the layer makes its weights in (float32 under "mixed_float16")."""
        return self._dtype_policy.variable_dtype

    @property
    def input_dtype(self) -> str:
        return self.compute_dtype

    @property
    def dtype_policy(self) -> DTypePolicy:
        return self._dtype_policy

    @dtype_policy.setter
    def dtype_policy(self, value) -> None:
        self._dtype_policy = _unquantized(dtype_policies.get(value), self)
        self._dtype_name = self._dtype_policy.compute_dtype

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value) -> None:
        """Freezing a layer freezes its weights and, recursively, every inner layer (Keras 3)."""
        value = bool(value)
        self._trainable = value
        for variable in self._trainable_own:
            variable.trainable = value
        for layer in self._direct_layers():
            layer.trainable = value

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    # --- tracking -----------------------------------------------------------------------------------------------
    def _tracked_items(self):
        """(attribute, value) pairs that may hold layers or variables, in the order they were first assigned."""
        for key, value in vars(self).items():
            if key in ("_trainable_own", "_non_trainable_own", "_losses", "_inbound_nodes", "_path_scope") or \
                    key in self._untracked_attributes:
                continue
            yield key, value

    def _tracked_values(self):
        return (value for _, value in self._tracked_items())

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        restore_pending(self)  # checkpoint values restored before this attribute (a weight, a layer) existed

    # Attributes Keras 3 keeps under another name, which is the name tf.train.Checkpoint records (Dense's
    # kernel is `_kernel` there): checkpoints then move between TF and tinytf with the same keys.
    _checkpoint_names: dict = {}

    def _checkpoint_children(self):
        """What tf.train.Checkpoint saves of this layer: the attributes holding its layers and variables, by
        Keras 3's attribute name."""
        names = self._checkpoint_names
        return [(names.get(key, key), value) for key, value in self._tracked_items()]

    def _walk_attributes(self, kind):
        """Layers (kind=Layer) or variables (kind=Variable) kept in attributes, in lists, tuples and dicts."""
        found, seen = [], {id(self)}

        def visit(value):
            if id(value) in seen:
                return
            if isinstance(value, kind):
                seen.add(id(value))
                found.append(value)
            elif isinstance(value, (list, tuple)):
                seen.add(id(value))
                for item in value:
                    visit(item)
            elif isinstance(value, dict):
                seen.add(id(value))
                for item in value.values():
                    visit(item)

        for value in self._tracked_values():
            visit(value)
        return found

    def _direct_layers(self) -> list:
        return self._walk_attributes(Layer)

    def _flatten_layers(self, include_self: bool = True) -> list:
        """This layer and every layer inside it, depth first, each once."""
        result, seen = [], set()

        def visit(layer):
            if id(layer) in seen:
                return
            seen.add(id(layer))
            result.append(layer)
            for inner in layer._direct_layers():
                visit(inner)

        visit(self)
        return result if include_self else result[1:]

    @property
    def layers(self) -> list:
        return self._direct_layers()

    def _own_variables(self) -> list:
        own = list(self._trainable_own) + list(self._non_trainable_own)
        ids = {id(v) for v in own}
        return own + [v for v in self._walk_attributes(Variable) if id(v) not in ids]

    @property
    def weights(self) -> list:
        """Own weights (trainable ones first), then those of the inner layers, each once."""
        result, seen = [], set()
        for variable in self._own_variables():
            if id(variable) not in seen:
                seen.add(id(variable))
                result.append(variable)
        for layer in self._direct_layers():
            for variable in layer.weights:
                if id(variable) not in seen:
                    seen.add(id(variable))
                    result.append(variable)
        return result

    @property
    def trainable_weights(self) -> list:
        return [v for v in self.weights if v.trainable] if self.trainable else []

    @property
    def non_trainable_weights(self) -> list:
        return [v for v in self.weights if not v.trainable] if self.trainable else self.weights

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def submodules(self) -> tuple:
        return tuple(self._flatten_layers(include_self=False))

    # --- weights -----------------------------------------------------------------------------------------------
    def add_weight(self, *args, shape=None, initializer=None, dtype=None, trainable: bool = True,
                   autocast: bool = True, regularizer=None, constraint=None, aggregation="none",
                   name: str | None = None, **kwargs) -> KerasVariable:
        """Make a weight of this layer (Keras 3's order of arguments: shape first). `aggregation` ("none",
        "sum", "mean", "only_first_replica") tells a distribution strategy how to combine the replicas'
        assignments of it (tinytf/distribute/mirrored_variable.py); like Keras 3.15, add_weight takes no
        `synchronization`."""
        if "synchronization" in kwargs:
            raise TypeError("Layer.add_weight() got an unexpected keyword argument 'synchronization'")
        if args:
            shape, initializer, dtype = _positional_weight_args(args, shape, initializer, dtype)
        aggregation = _keras_aggregation(aggregation)
        shape = () if shape is None else tuple(int(d) for d in shape)
        dtype = _dtype_name(dtype) if dtype is not None else self.variable_dtype
        if initializer is None:
            initializer = "glorot_uniform" if _tf.as_dtype(dtype).is_floating else "zeros"
        initializer = initializers.get(initializer)
        name = name or naming.unique_name("variable")  # Keras 3: variable, variable_1, ... (one counter)
        with _PathScope(self):
            scope = _current_path()
            path = f"{scope}/{name}" if scope else name
            variable = KerasVariable(lambda: initializer(shape, dtype=dtype), name=name, path=path,
                                     trainable=trainable, dtype=dtype, regularizer=regularizers.get(regularizer),
                                     constraint=constraints.get(constraint), aggregation=aggregation,
                                     autocast=autocast)
        (self._trainable_own if trainable else self._non_trainable_own).append(variable)
        return variable

    def get_weights(self) -> list:
        return [np.array(v.numpy()) for v in self.weights]

    def set_weights(self, weights) -> None:
        """Assign numpy values to the weights, in the order of `weights`, checking count and shapes first."""
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list of length "
                             f"{len(weights)}, but the layer was expecting {len(params)} weights.")
        for variable, value in zip(params, weights):
            if tuple(variable.shape.as_list()) != tuple(np.shape(value)):
                raise ValueError(f"Layer {self.name} weight shape {tuple(variable.shape.as_list())} is not "
                                 f"compatible with provided weight shape {tuple(np.shape(value))}.")
        for variable, value in zip(params, weights):
            variable.assign(np.asarray(value, dtype=variable.dtype.as_numpy_dtype))

    def count_params(self) -> int:
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the layer isn't built. "
                             f"You can build it manually via: `layer.build(input_shape)`.")
        return int(sum(np.prod(v.shape.as_list(), dtype=np.int64) for v in self.weights))

    # --- losses ------------------------------------------------------------------------------------------------
    def add_loss(self, loss) -> None:
        """Record a loss tensor (cleared when the next outermost call starts). In a StatelessScope it goes to the
        scope's losses when the scope collects them, and nowhere otherwise (Keras 3)."""
        values = [value if isinstance(value, Tensor) else _tf.constant(value, _tf.float32)
                  for value in nest.flatten(loss)]
        scope = stateless_scope.current()
        if scope is None:
            self._losses.extend(values)
        elif scope.collect_losses:
            for value in values:
                scope.add_loss(value)
                self._scope_loss_ids().add(id(value))

    def _scope_loss_ids(self) -> set:
        if "_loss_ids" not in self.__dict__:
            object.__setattr__(self, "_loss_ids", set())
        return self._loss_ids

    def _own_losses(self) -> list:
        scope = stateless_scope.current()
        if scope is None:
            return list(self._losses)
        ids = self.__dict__.get("_loss_ids", ())
        return [loss for loss in scope.losses if id(loss) in ids]

    def _clear_losses(self) -> None:
        scope = stateless_scope.current()
        if scope is not None and scope.collect_losses and self.__dict__.get("_loss_ids"):
            scope.losses[:] = [x for x in scope.losses if id(x) not in self._loss_ids]
        self.__dict__.get("_loss_ids", set()).clear()
        self._losses.clear()
        for layer in self._direct_layers():
            layer._clear_losses()

    @property
    def losses(self) -> list:
        """Losses added during the last call (this layer's and inner layers'), then the weight penalties."""
        result = self._own_losses()
        for layer in self._flatten_layers(include_self=False):
            result.extend(layer._own_losses())
        for variable in self.trainable_weights:
            regularizer = getattr(variable, "regularizer", None)
            if regularizer is not None:  # inside a StatelessScope the variable reads the scope's value
                result.append(regularizer(variable))
        return result

    def _build_at_init(self) -> None:
        """Layers without weights (and without their own build) are built from the start, as in Keras 3."""
        if type(self).build is Layer.build:
            self.built = True

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_marks_built", False):
            cls.build = _marking_built(build)

    # --- build and call ----------------------------------------------------------------------------------------
    def build(self, input_shape=None) -> None:
        """Make the weights for inputs of this shape; the base version makes none."""
        self.built = True

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` method implemented.")

    def _maybe_build(self, inputs) -> None:
        if self.built:
            return
        shapes = nest.map_structure(_shape_tuple, inputs) if not isinstance(inputs, Tensor) else _shape_tuple(inputs)
        with _PathScope(self):
            if type(self).build is Layer.build:
                self._build_by_running(inputs)
            else:
                self.build(shapes)
        self.built = True
        self._build_input_shape = shapes

    def _build_by_running(self, inputs) -> None:
        """A layer without its own `build` whose inner layers are not built yet is built as Keras 3 does: by
        running its call once on symbolic inputs (so its weights exist before the first real call returns)."""
        global _running_to_build
        if _running_to_build or all(layer.built for layer in self._direct_layers()):
            return
        from ..models.functional import trace_on_placeholders

        _running_to_build = True
        kept = {id(layer): len(layer._losses) for layer in self._flatten_layers(include_self=True)}
        try:
            trace_on_placeholders(self.call, inputs)
        except Exception:  # noqa: BLE001 - a call that cannot run symbolically builds on the real call instead
            pass
        finally:
            _running_to_build = False
            for layer in self._flatten_layers(include_self=True):  # the symbolic run's add_loss calls are not losses
                del layer._losses[kept.get(id(layer), 0):]

    def _convert_input_keeping_mask(self, value):
        """_convert_input, with the Keras mask of the input carried over to the converted tensor."""
        converted = self._convert_input(value)
        if converted is not value and masking._masks:
            mask = masking.get_keras_mask(value)
            if mask is not None:
                masking.set_keras_mask(converted, mask)
        return converted

    def _convert_input(self, value):
        """numpy arrays become tensors, and float inputs take the layer's compute dtype (Keras 3's autocast)."""
        if isinstance(value, Variable):
            value = value.read_value()
        if isinstance(value, Tensor):
            if self.autocast and value.dtype.is_floating and value.dtype.name != self._dtype_name:
                return _tf.cast(value, self._dtype_name)
            return value
        if isinstance(value, (np.ndarray, np.generic)):
            tensor = _tf.convert_to_tensor(value)
            if self.autocast and tensor.dtype.is_floating and tensor.dtype.name != self._dtype_name:
                tensor = _tf.cast(tensor, self._dtype_name)
            return tensor
        return value

    def __call__(self, *args, **kwargs):
        from ..models.functional import is_symbolic, symbolic_call  # the functional API builds on layers

        if not args and self._call_first_argument in kwargs:
            args = (kwargs.pop(self._call_first_argument),)
        if not args:
            raise ValueError(f"Layer '{self.name}' was called without a positional input argument.")
        args = nest.map_structure(self._convert_input_keeping_mask, args)
        if is_symbolic(args):
            return symbolic_call(self, args, kwargs)
        with call_context.enter(self) as (context, outermost):
            if outermost:
                self._clear_losses()
            training = kwargs.get("training")
            if training is None:
                training = context.training
                if training is None:
                    training = self._call_training_default
            context.training = training
            if self._call_has_training:
                if training is not None:
                    kwargs["training"] = training
            else:
                kwargs.pop("training", None)
            previous_mask = self._resolve_mask(args, kwargs) if masking._masks or "mask" in kwargs else None
            with _PathScope(self):
                assert_input_compatibility(self.input_spec, args[0], self.name)
                self._maybe_build(args[0])
                scope = scope_for_layer(self)  # a mixed layer's weights read as its compute dtype in call
                if scope is None:
                    outputs = self.call(*args, **kwargs)
                else:
                    with scope:
                        outputs = self.call(*args, **kwargs)
            if previous_mask is not None or self._computes_own_mask():
                self._attach_output_mask(args[0], outputs, previous_mask)
            if self.activity_regularizer is not None:
                for output in nest.flatten(outputs):
                    if isinstance(output, Tensor):
                        self.add_loss(self._activity_penalty(output))
        return outputs

    # --- masks ---------------------------------------------------------------------------------------------------
    def compute_mask(self, inputs, previous_mask=None):
        """The mask of the outputs: by default the input's mask, passed through unchanged (Keras 3)."""
        return previous_mask

    def _computes_own_mask(self) -> bool:
        return self.supports_masking and type(self).compute_mask is not Layer.compute_mask

    def _resolve_mask(self, args, kwargs):
        """Keras 3's mask plumbing: a call with one tensor argument whose `call` takes `mask` gets the mask
        attached to that argument; returns the mask the outputs inherit (the explicit one, or the first input's)."""
        explicit = kwargs.get("mask")
        if not self._call_has_mask:
            kwargs.pop("mask", None)
        attached = _structure_mask(args[0])
        if self._call_has_mask and explicit is None and attached is not None and _tensor_argument_count(
                args, kwargs) == 1:
            kwargs["mask"] = attached
        return explicit if explicit is not None else attached

    def _attach_output_mask(self, inputs, outputs, previous_mask) -> None:
        """Set the mask of the outputs from compute_mask (unless the call already set them)."""
        if not self.supports_masking:
            warnings.warn(f"Layer '{self.name}' (of type {type(self).__name__}) was passed an input with a mask "
                          f"attached to it. However, this layer does not support masking and will therefore destroy "
                          f"the mask information. Downstream layers will not see the mask.", stacklevel=3)
            return
        flat_outputs = nest.flatten(outputs)
        if all(masking.get_keras_mask(t) is not None for t in flat_outputs):
            return
        output_masks = self.compute_mask(inputs, previous_mask)
        if output_masks is None:
            return
        for tensor, mask in zip(flat_outputs, nest.flatten(output_masks)):
            if mask is not None and masking.get_keras_mask(tensor) is None:
                masking.set_keras_mask(tensor, mask)

    def _activity_penalty(self, output):
        """The activity regularizer's penalty, averaged over the batch as Keras 3 does."""
        penalty = self.activity_regularizer(output)
        if len(output.shape) == 0:
            return penalty
        return penalty / _tf.cast(_tf.shape(output)[0], penalty.dtype)

    # --- the functional graph -------------------------------------------------------------------------------
    def _only_node(self, what: str):
        """The first symbolic call (Keras 3 answers `input`/`output` from it even when there are more)."""
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined {what}.")
        return self._inbound_nodes[0]

    @property
    def input(self):
        """The symbolic input of the layer's only call in a Functional graph."""
        node = self._only_node("input")
        return node.args[0] if node.args else node.outputs

    @property
    def output(self):
        """The symbolic output of the layer's only call in a Functional graph."""
        return self._only_node("output").outputs

    def get_output_at(self, node_index: int):
        return self._inbound_nodes[node_index].outputs

    def get_input_at(self, node_index: int):
        return self._inbound_nodes[node_index].args[0]

    def compute_output_shape(self, input_shape):
        """The output shape for an input shape, found by tracing the call on a symbolic input."""
        from ..models.functional import output_shape_by_tracing

        return output_shape_by_tracing(self, input_shape)

    # --- config ------------------------------------------------------------------------------------------------
    def get_config(self) -> dict:
        """The constructor arguments (Keras 3's base part: name, trainable, dtype)."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": dtype_policies.serialize(self._dtype_policy)}
        if self.activity_regularizer is not None:
            config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)

    def get_build_config(self):
        if self._build_input_shape is not None:
            return {"input_shape": self._build_input_shape}
        return None

    def build_from_config(self, config) -> None:
        if config and not self.built:
            with _PathScope(self):
                self.build(config["input_shape"])
            self.built = True
            self._build_input_shape = config["input_shape"]


def _structure_mask(value):
    """The Keras mask(s) attached to a call's first argument: one mask, a list of them, or None if none."""
    if isinstance(value, Tensor):
        return masking.get_keras_mask(value)
    if isinstance(value, (list, tuple, dict)):
        masks = nest.map_structure(masking.get_keras_mask, value)
        return masks if any(m is not None for m in nest.flatten(masks)) else None
    return None


def _tensor_argument_count(args, kwargs) -> int:
    """How many arguments hold tensors (Keras passes masks on automatically only when there is one)."""
    def holds_tensor(value):
        return any(isinstance(t, Tensor) for t in nest.flatten(value))
    return sum(1 for a in args if holds_tensor(a)) + sum(
        1 for k, v in kwargs.items() if k not in ("mask", "training") and holds_tensor(v))


def serialize_activation(activation):
    return activations.serialize(activation)


def _marking_built(build):
    """A subclass's `build` that marks the layer built when it returns, as Keras 3 wraps it: a user who calls
    `layer.build(shape)` and then `set_weights` gets a layer that is not built again on its first call."""
    @functools.wraps(build)
    def build_and_mark(self, *args, **kwargs):
        result = build(self, *args, **kwargs)
        self.built = True
        return result

    build_and_mark._marks_built = True
    return build_and_mark


_KERAS_AGGREGATIONS = (None, "none", "mean", "sum", "only_first_replica")


def _keras_aggregation(aggregation) -> str:
    """Keras 3's check of add_weight's `aggregation` (its names only, as Keras' Variable checks them)."""
    if aggregation not in _KERAS_AGGREGATIONS:
        raise ValueError("Invalid value for argument `aggregation`. Expected one of `None`, `'none'`, `'mean'`, "
                         f"`'sum'`, `'only_first_replica'`. Received: aggregation={aggregation}")
    return aggregation or "none"
